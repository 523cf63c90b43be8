/*
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
 *
 * Owns: the seeded call generator of vmsim check.
 * May call: flagtab, internal (read-only: the model's own VMAs to aim at),
 *   trace, vmsys.
 */
#ifndef VMSIM_CHECK_GEN_H
#define VMSIM_CHECK_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "trace.h"
#include "vmsys.h"

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

#endif
