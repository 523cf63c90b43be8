/*
 * checker.h - the whole interface of sim/checker/: `vmsim check`, seeded
 * property campaigns over the model, and the promise invariants that
 * `replay --check-invariants` also checks.
 *
 *   check_gen     the seeded call generator, aimed at the model's own VMAs
 *   check_inv     the promise invariants (docs/invariants.md)
 *   check_shrink  running a sequence, shrinking a violation to a
 *                 reproducer, writing it as a trace
 *   check_exhaustive  every sequence of a finite alphabet up to a depth,
 *                 breadth first, equal states once (--exhaustive)
 *
 * Each section is one unit (UNIT.c).  Callers: sim/cli/
 * (docs/architecture.md).
 *
 *
 * Owns: the call generator, the promise invariants, running and shrinking
 *   sequences, the reproducers.
 * May call: flagtab, internal (read-only: the generator aims at the model's
 *   own VMAs, the walker reads its structures), replay, semantics, trace,
 *   vmsys.
 */
#ifndef VMSIM_CHECKER_H
#define VMSIM_CHECKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"
#include "vmsys.h"
#include "replay.h"
#include "semantics.h"

/* ==== check_gen ====
 * check_gen.h - the seeded generator of `vmsim check`: random call
 * sequences over several mappings and processes, built as trace events so
 * that they run through apply_event() exactly as a replayed trace does.
 *
 * Everything is a function of the seed and of the model's state (the
 * generator looks at the VMAs to aim at their boundaries), so the same
 * seed on the same semantics gives the same sequence.  Addresses are
 * explicit (MAP_FIXED_NOREPLACE/MAP_FIXED in an arena above 4 GiB), fork
 * results name the child's pid, every other result is `?`: a written
 * sequence is a self-contained trace that replays under any kernel.
 *
 * Weights (relative; `gen_weights_default`, documented in docs/invariants.md):
 *   mmap 12  munmap 4  mprotect 5  mremap 6  madvise 6  brk 3  mlock 6
 *   mlock2 6  munlock 5  mlockall 5  munlockall 3  fork 3  exit 2  touch 8
 *   fault 4  reclaim 4  drop_caches 2  prlimit64 3  capset 2  file_io 2
 * (sum 91: in 100 steps the rarest kinds are expected twice); on the
 * machines with two NUMA nodes (one seed in four) also
 *   numa_scan 3  numa_node 2  numa_run 2
 * (sum 98).
 *
 *   trace, vmsys.
 */

enum gen_kind {
	GK_MMAP, GK_MUNMAP, GK_MPROTECT, GK_MREMAP, GK_MADVISE, GK_BRK, GK_MLOCK, GK_MLOCK2,
	GK_MUNLOCK, GK_MLOCKALL, GK_MUNLOCKALL, GK_FORK, GK_EXIT, GK_TOUCH, GK_FAULT,
	GK_RECLAIM, GK_DROP_CACHES, GK_PRLIMIT, GK_CAPSET, GK_FILE_IO,
	GK_NUMA_SCAN, GK_NUMA_NODE, GK_NUMA_RUN, /* only on a machine with 2 NUMA nodes */
	GK_NR
};

struct gen_weights {
	unsigned w[GK_NR];
};
extern const struct gen_weights gen_weights_default;
const char *gen_kind_name(enum gen_kind k);

/* One generated call, compact (an event is 2 KiB; a step is 80 bytes). */
struct gstep {
	uint8_t sys;           /* enum sysno */
	uint8_t nargs;
	uint8_t has_val;       /* result given (fork: the child's pid) */
	uint8_t path;          /* openat: index of the file name */
	int pid;
	uint64_t args[6];
	uint64_t rlim_cur, rlim_max; /* prlimit64 */
	int64_t value;
};

/* The machine of one run (becomes the trace header). */
struct gen_machine {
	uint64_t ram, swap, rlimit_memlock, max_map_count;
	bool cap_ipc_lock, zero_page;
	unsigned numa_nodes;
	uint64_t hugetlb_pages;   /* the hugetlb pool (0: MAP_HUGETLB is ENOMEM) */
	int thp;                  /* 0 never, 1 madvise, 2 always */
};

#define GEN_MAX_PROCS 4
#define GEN_FIRST_PID 100

struct gen {
	uint64_t st[4];        /* xoshiro256** */
	unsigned w[GK_NR];     /* the weights in force on this machine */
	unsigned wsum;
	struct vmsys *s;
	/* arch flag values (by name, from the flag tables) */
	uint64_t map_shared, map_private, map_shared_validate, map_anon, map_fixed, map_noreplace,
		map_locked, map_populate, map_lockonfault, map_noreserve, map_growsdown, map_hugetlb,
		map_bad;
	uint64_t prot_r, prot_w, prot_x;
	uint64_t mcl_current, mcl_future, mcl_onfault, mcl_bad;
	uint64_t mlock_onfault, mlock2_bad;
	uint64_t mr_maymove, mr_fixed, mr_dontunmap, mr_bad;
	int64_t madv[24];
	unsigned nmadv;
	/* processes */
	int pids[GEN_MAX_PROCS];
	unsigned nprocs;
	int next_pid;
	unsigned step;
};

/* Pick the machine for a seed (ram, swap, limits). */
void gen_machine(uint64_t seed, struct gen_machine *m);
/* The fresh machine of that choice under sem and arch; NULL with a
 * message in err. */
struct vmsys *gen_machine_new(const struct gen_machine *m, const struct semantics *sem, const char *arch,
			      char *err, size_t errlen);
/* Start a run on s (a fresh machine built from gen_machine's choice). */
void gen_init(struct gen *g, uint64_t seed, const struct gen_weights *w, struct vmsys *s);
/* The next step, aimed at the model's current state. */
void gen_next(struct gen *g, struct gstep *st);
/* Fill ev (which must have been zeroed once) from st. */
void gstep_event(const struct gstep *st, struct event *ev);
/* The trace header of a machine. */
void gen_header(const struct gen_machine *m, const char *arch, const char *kernel, uint64_t seed,
		struct trace_header *h);

/* ==== check_inv ====
 * check_inv.h - the promise invariants of `vmsim check` (docs/invariants.md).
 *
 * Each invariant is a rule the man pages (mlock(2), mlockall(2), mmap(2),
 * mremap(2), fork(2), madvise(2)) or Documentation/mm/unevictable-lru.rst
 * promise to users, checked on the model's state after every event - never
 * derived from one kernel version's code, so a semantics may fail them.
 * Some rules compare the state before and after the event: call
 * check_inv_before() just before apply_event() and check_inv_after() just
 * after it.  The checker never changes the model; while the model's
 * tracepoint hook is free it listens there (see check_inv_set_full_walks()).
 */

enum inv_id {
	INV_LOCKED_VM_ACCOUNTING,
	INV_LOCKED_VM_RANGE,
	INV_RLIMIT_MEMLOCK,
	INV_UNLOCK_COMPLETE,
	INV_FORK_NO_INHERIT,
	INV_ONFAULT_NO_PREFAULT,
	INV_LOCKED_NEVER_RECLAIMED,
	INV_MLOCKED_PAGES,
	INV_LRU_CONSISTENT,
	INV_VMA_TREE,
	INV_LOCKED_MADVISE,
	INV_NR
};

#define INV_ALL ((1u << INV_NR) - 1)

const char *inv_name(unsigned id);
/* index of a name, or -1 */
int inv_find(const char *name);

struct check_inv;

/* A checker for one machine (flag values come from its semantics and arch).
 * mask: the invariants to check (INV_ALL). NULL on allocation failure. */
struct check_inv *check_inv_new(struct vmsys *s, uint32_t mask);
void check_inv_free(struct check_inv *ci);

void check_inv_before(struct check_inv *ci, const struct event *ev);
/* The same, for a caller that guarantees nothing changed the machine since
 * its last check_inv_after() (vmsim check's loops: the generator only
 * reads it): what that after-check's walk found stands in for a second
 * walk of the same state.  The result is what check_inv_before() gives. */
void check_inv_before_next(struct check_inv *ci, const struct event *ev);
/* Returns the set of invariants violated after ev (bit i = enum inv_id i);
 * the first violation of each is described in check_inv_msg(ci, i). */
uint32_t check_inv_after(struct check_inv *ci, const struct event *ev, const struct outcome *out);
/* The rules of mask are still checked and reported in check_inv_after()'s
 * result, but their messages are not written (check_inv_msg() is stale
 * for them): vmsim check's runs want a rule's message the first time only. */
void check_inv_set_quiet(struct check_inv *ci, uint32_t mask);
/* on: walk every mm's VMAs and every LRU list after every event.  Off
 * (the default), an after-check reuses the last walk of each mm the event
 * could not have changed the VMAs of (another process's, or any after an
 * access) and whose total_vm and map_count stayed; and, while the
 * machine's tracepoint hook is free (vmsys_set_tracepoint(); the checker
 * takes it and gives it back in check_inv_free()), it walks the LRU lists
 * only when a page the event's tracepoints named, a page in or just out of
 * a per-CPU batch or one that left the locked VMAs breaks a rule, a
 * list's size and counter disagree, or nr_mlock moved from the count kept
 * - and at least every CHECK_INV_LRU_WALK_EVERY after-checks.  The result
 * is the same (test_check_inv.c), except for a change to the lists that no
 * tracepoint names (a slip of the model itself, never a kernel's rule):
 * that is found by the next walk. */
#define CHECK_INV_LRU_WALK_EVERY 64
void check_inv_set_full_walks(struct check_inv *ci, bool on);
const char *check_inv_msg(const struct check_inv *ci, unsigned id);

/* ==== check_shrink ====
 * check_shrink.h - running generated sequences, shrinking a violation to
 * a short reproducer, and writing it as a contract trace.
 */

struct check_plan {
	const struct semantics *sem;
	const char *arch;
	uint32_t mask;                  /* invariants checked */
	unsigned steps;                 /* steps per run */
	const struct gen_weights *w;
};

struct run_out {
	uint32_t viol;                  /* invariants violated in the run */
	unsigned first[INV_NR];         /* step of each one's first violation */
	unsigned nsteps;                /* steps run */
	char msg[INV_NR][320];
};

/* One generated run of plan->steps steps with the run's seed; its first
 * keep steps are kept in *buf (grown as needed; free() it), so memory is
 * bounded by keep, not by the run's length.  The run is the same every
 * time for a seed: a violation past keep is shrunk from a second run of
 * that seed that keeps its steps up to the violation.  Returns -1 when
 * the machine cannot be built (message in err). */
int check_run(const struct check_plan *p, uint64_t seed, struct run_out *ro, struct gstep **buf,
	      size_t *bufcap, size_t keep, char *err, size_t errlen);

/* Re-run steps[0..n) on a fresh machine checking only inv: the index of
 * the first step where inv fails, or -1. */
long check_replay_steps(const struct check_plan *p, const struct gen_machine *m,
			const struct gstep *steps, size_t n, unsigned inv, char *msg, size_t msglen);

/* Shrink steps[0..*n) (whose step *n-1 violates inv) in place: drop
 * chunks then single events, shrink lengths and addresses, simplify
 * flags, fold processes, as long as inv still fails first at a step of
 * the same call.  *n becomes the new length. */
void check_shrink(const struct check_plan *p, const struct gen_machine *m, struct gstep *steps,
		  size_t *n, unsigned inv);

/* Write a reproducer trace; explain (if non-NULL) receives the paragraph
 * describing the state at the failing step.  Returns 0 or -1. */
int check_write_repro(const char *path, const struct check_plan *p, const struct gen_machine *m,
		      uint64_t seed, const struct gstep *steps, size_t n, unsigned inv,
		      char *explain, size_t explen);

/* ==== check_exhaustive ====
 * check_exhaustive.h - vmsim check --exhaustive: every sequence of up to
 * depth calls from a finite alphabet, breadth first, each model state
 * (vmsys_state_hash()) explored once; per invariant the shortest
 * violating sequence (of those, the first in alphabet order) or that it
 * holds for every sequence explored.
 *
 * The default alphabet (exh_default_alphabet(), docs/invariants.md): up to
 * 31 calls of process 100 and its child 101 over two places of two pages
 * (0x100000000, 0x100010000) and one of one page (0x100020000) - mmap
 * private, shared, MAP_LOCKED, MAP_POPULATE, MAP_LOCKONFAULT (lof-v1),
 * into the third place; munmap, mprotect, mremap shrink, grow, move and
 * MREMAP_DONTUNMAP of one page (a move elsewhere before 5.7),
 * mlock, mlock2 ONFAULT, munlock, mlockall CURRENT, FUTURE and
 * FUTURE|ONFAULT, munlockall, MADV_DONTNEED, MADV_REMOVE from the first
 * place to the top (over what mremap moved), touches,
 * reclaim(32), fork,
 * the child's touch, mlock and exit (a symbol a kernel's flags make the
 * same as another is there once) - on the default machine
 * (exh_default_machine(): 16 MiB, 8 MiB of swap, no CAP_IPC_LOCK,
 * RLIMIT_MEMLOCK two pages, vm.max_map_count 3, the zero page).
 *
 * A shard (shard_i of shard_n, 1-based) explores the sequences whose
 * first call's index is shard_i - 1 modulo shard_n; the better
 * (exh_better()) of the shards' findings is the single run's.
 */
#define EXH_MAX_DEPTH 16
#define EXH_MAX_SYMBOLS 4096

struct exh_symbol {
	struct gstep st;
	char text[200];        /* the call as a trace line */
};

struct exh_alphabet {
	struct exh_symbol *sym;
	size_t n, cap;
	bool is_default;
};

struct exh_found {
	unsigned depth;        /* 0: no violation found */
	struct gstep steps[EXH_MAX_DEPTH];
	char msg[320];
};

struct exh_result {
	unsigned reached;      /* every sequence up to this many calls was explored */
	bool closed;           /* no new state at the last depth: every longer sequence too */
	bool stopped;          /* --time ran out inside a depth */
	uint64_t states, transitions;
	double seconds;
	struct exh_found inv[INV_NR];
};

struct exh_opts {
	unsigned depth;
	unsigned shard_i, shard_n; /* 0/0 or 1/1: everything */
	double time_budget;        /* seconds, 0: none */
	/* called about once a second: the depth being explored, the states and transitions so far */
	void (*progress)(void *ctx, unsigned depth, uint64_t states, uint64_t transitions, double seconds);
	void *ctx;
};

void exh_default_machine(struct gen_machine *m);
int exh_default_alphabet(const struct check_plan *p, const struct gen_machine *m, struct exh_alphabet *a,
			 char *err, size_t errlen);
/* One symbol from a trace event (a call the model follows, without a path
 * argument; a line without a pid is process 100's).  0, or -1 (err). */
int exh_alphabet_add_event(struct exh_alphabet *a, const struct event *ev, const char *arch,
			   const char *kernel, char *err, size_t errlen);
void exh_alphabet_free(struct exh_alphabet *a);
/* a hash of the alphabet's text: shards of one search share it */
uint64_t exh_alphabet_id(const struct exh_alphabet *a);
/* The search; 0, or -1 (err). */
int exh_run(const struct check_plan *p, const struct gen_machine *m, const struct exh_alphabet *a,
	    const struct exh_opts *o, struct exh_result *r, char *err, size_t errlen);
/* Whether finding a is shorter than b, or as short and first in the
 * alphabet's order (no finding is never better). */
bool exh_better(const struct exh_found *a, const struct exh_found *b, const struct exh_alphabet *al);

#endif
