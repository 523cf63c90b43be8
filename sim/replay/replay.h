/*
 * replay.h - the whole interface of sim/replay/: a trace replayed against
 * the model, and what the commands read of a replay.
 *
 *   json          the JSON Lines conventions of every --format json
 *   apply         one trace event to one model call, and the comparison of
 *                 the model's outcome and state with what the trace recorded
 *   replay_stats  the counts of `replay --stats`
 *   views         the /proc views of a model, printed as the kernel prints them
 *                 (view_json.c: the same as JSON Lines)
 *   session       one trace opened against one configured model; the
 *                 machine options every replaying command takes
 *   timing        the drains another CPU may do, as choices of the replay
 *   diff          one trace under two semantics in lockstep
 *
 * Each section below is one unit (UNIT.c; expect.c is apply's comparison
 * of expect lines); inherit.h, what a trace does not show, is private to
 * the folder.  Callers: sim/check/, sim/teach/, sim/record/, sim/lib/,
 * sim/cli/ (docs/architecture.md).
 *
 *
 * Owns: replaying a trace against the model: event to model call, the
 *   comparison with the trace, sessions, /proc views, --stats, diff, JSON.
 * May call: diff_standing (private), flagtab, inherit (private), kerr, semantics,
 *   trace, vmflags, vmstat, vmsys.
 */
#ifndef VMSIM_REPLAY_H
#define VMSIM_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"
#include "vmsys.h"

/* ==== json ====
 * json.h - JSON Lines output for `--format json` (docs/json.md): one object
 * per line, each with a "kind", written with these helpers so that every
 * command escapes strings the same way and always writes valid JSON (bytes
 * that are not UTF-8 come out as \u00XX).
 */

/* a JSON string of [s, s + n) */
void json_strn(FILE *f, const char *s, size_t n);
/* a JSON string of s (NULL as null) */
void json_str(FILE *f, const char *s);

/* {"kind": KIND ... ; the key/value calls below add ", KEY: VALUE" */
void json_begin(FILE *f, const char *kind);
void json_kv_str(FILE *f, const char *key, const char *val);
void json_kv_strn(FILE *f, const char *key, const char *val, size_t n);
void json_kv_u64(FILE *f, const char *key, uint64_t val);
void json_kv_i64(FILE *f, const char *key, int64_t val);
void json_kv_bool(FILE *f, const char *key, bool val);
/* ", KEY: " - the value is written by the caller (an array, an object) */
void json_key(FILE *f, const char *key);
/* } and the end of the line */
void json_end(FILE *f);

/* A --format (or --stats=) value of command cmd: "text" or "json" into
 * *json; anything else is said on stderr and gives -1 (exit 2). */
int json_format_arg(const char *cmd, const char *opt, const char *arg, bool *json);

/* ==== apply ====
 * apply.h - feed one trace event to a model and say what the model did.
 *
 * This is the one place where trace events become model calls; replay,
 * show and diff all go through it.  apply_event() runs the event;
 * outcome_matches() compares the model's outcome with what the trace
 * recorded; expect_check() evaluates an expect(...) line.
 */

enum outcome_kind {
	OUT_NONE,    /* nothing to compare (comment-like, ignored, unknown syscall) */
	OUT_VALUE,   /* a return value >= 0 */
	OUT_ERROR,   /* an errno (positive) */
	OUT_FAULT,   /* fault(): enum vm_fault_kind */
	OUT_SIGNAL,  /* touch() ended in SIGSEGV/SIGBUS (value = enum vm_fault_kind) */
};

struct outcome {
	enum outcome_kind kind;
	int64_t value;
	int pid;               /* the process the event ran in */
};

/* Run ev on s.  Returns 0, or -1 when the event cannot be applied (a
 * message in err): that is bad input. */
/* The model's access mode (vm_touch(): 1 read, 2 write, 4 exec) of an
 * event's ACC_* argument (inline: the hot loop's). */
static inline int access_mode(uint64_t m)
{
	int mode = 0;
	if (m & ACC_READ)
		mode |= 1;
	if (m & ACC_WRITE)
		mode |= 2;
	if (m & ACC_EXEC)
		mode |= 4;
	return mode ? mode : 1;
}

int apply_event(struct vmsys *s, const struct event *ev, struct outcome *out, char *err,
		size_t errlen);

/* Does the model's outcome agree with the result the trace recorded?
 * false with a description of both in why. */
bool outcome_matches(const struct event *ev, const struct outcome *out, char *why, size_t len);

/* Check an expect(...) event against s.  Returns the number of keys that
 * disagree (0 = all agree), each described in why (appended, lines). */
unsigned expect_check(struct vmsys *s, const struct event *ev, char *why, size_t len,
		      unsigned *nchecked);
/* The check of one applied event, as replay makes it: an expect line's
 * keys, a call's or a signal's recorded result.  true when the model
 * disagrees (why says how, as lines), *nchecked += what was compared. */
bool event_diverged(struct vmsys *s, const struct event *ev, const struct outcome *out, char *why,
		    size_t len, unsigned *nchecked);

/* Text of an outcome ("0x7f00...", "-1 ENOMEM", "MINOR") */
void outcome_text(const struct event *ev, const struct outcome *out, char *buf, size_t len);

/* The state that explains an event's divergence: the VMA(s) of its
 * address, locked_vm, the page. */
void explain_state(struct vmsys *s, const struct event *ev, char *buf, size_t len);

/* ==== replay_stats ====
 * replay_stats.h - `vmsim replay --stats`: what a replay did, per process
 * and in total, in the terms the 2015 lock-on-fault review reasons in:
 * minor and major faults, SIGSEGVs, calls by name, VMAs at the end and the
 * peak map_count, ENOMEM results (and the access the first came at), the
 * pages read before the first access, VmLck, RSS, unevictable pages, and
 * the wall time; as text or as one JSON object (docs/json.md).
 *
 * Fed after each applied event; it reads the model only through vmsys.h.
 */

struct rstats;

/* NULL when out of memory. */
struct rstats *rstats_new(void);
void rstats_free(struct rstats *rs);

/* Account ev, just applied to s with outcome out. */
void rstats_event(struct rstats *rs, struct vmsys *s, const struct event *ev, const struct outcome *out);
/* n touch lines of process pid that the hot loop ran as hits
 * (session_next_hot()): what rstats_event() counts for each of them - a
 * hit changes no fault count, map, VmLck or RSS. */
void rstats_hits(struct rstats *rs, int pid, unsigned long n);

/* Print the counts of the replay of path (wall: its seconds). */
void rstats_print(const struct rstats *rs, struct vmsys *s, struct trace_reader *r, const char *path,
		  double wall, bool json, FILE *f);

/* ==== views ====
 * views.h - the /proc views of a model, printed as the kernel prints them.
 *
 *   maps, smaps, status   one process (/proc/PID/...), 6.x text byte for byte
 *                         (4.x: the 4.x smaps line set, best effort)
 *   meminfo, vmstat       the whole machine (/proc/meminfo, /proc/vmstat)
 *   pages                 one process: pagemap + kpageflags per page (vmsim's
 *                         own teaching format, one line per page)
 *   lru                   the whole machine: the five LRU lists head -> tail
 *   numa                  the whole machine: its NUMA nodes, the balancing
 *                         counters, and per process its node and the pages of
 *                         each VMA per node (vmsim's own format, after
 *                         /proc/PID/numa_maps' N0= N1= counts)
 *
 * The functions only read the model (through vmsys.h); draining the per-CPU
 * batches first (vm_drain_all) is the caller's decision, see view_drains().
 */

enum view_kind {
	VIEW_MAPS,
	VIEW_SMAPS,
	VIEW_STATUS,
	VIEW_MEMINFO,
	VIEW_VMSTAT,
	VIEW_PAGES,
	VIEW_LRU,
	VIEW_NUMA,
	VIEW_NR
};

struct view_ctx {
	struct vmsys *sys;
	struct task *task;   /* the process (maps smaps status pages); may be NULL for the others */
	const char *arch;    /* flag-table arch name ("x86_64"): decides the gate VMA line */
	const char *kernel;  /* semantics name ("6.18"): decides the smaps line set */
};

/* "maps" -> VIEW_MAPS; -1 if unknown. */
int view_find(const char *name);
const char *view_name(enum view_kind v);
/* "maps smaps status meminfo vmstat pages lru numa" */
const char *view_list(void);
/* meminfo, vmstat, lru describe the machine, not one process */
bool view_is_global(enum view_kind v);
/* pages and lru are taken after lru_add_drain_all(); maps/smaps/status and
 * the counters are not (the kernel's smaps does not drain either). */
bool view_drains(enum view_kind v);

/* Text a trace supplied (an event, a divergence's expected values, a
 * path) on its way to a terminal: term_puts() writes s, and on a terminal
 * every control byte but newline and tab as \ooo, so that a trace cannot
 * move the cursor, retitle the window or ring the bell; into a file or a
 * pipe the bytes go as they are.  term_escape() writes the escaped form
 * of src into dst (cap bytes, NUL included, cut at a whole escape) and
 * returns its length. */
void term_puts(FILE *f, const char *s);
size_t term_escape(char *dst, size_t cap, const char *src);
/* Print one view; returns 0, or -1 when a per-process view has no process. */
int view_print(FILE *f, enum view_kind v, const struct view_ctx *c);
/* view_json.c: the view as JSON Lines on standard output (docs/json.md):
 * an object per VMA (maps, smaps) or page (pages, lru), one for status,
 * meminfo and vmstat, carrying the text view's values key for key; trace
 * and at (0: none) name where.  view_json() reads a view's text;
 * view_print_json() prints the view first (-1: out of memory). */
void view_json(enum view_kind v, const char *text, int pid, const char *trace, unsigned long at);
int view_print_json(enum view_kind v, const struct view_ctx *c, const char *trace, unsigned long at);

void view_maps(FILE *f, const struct view_ctx *c);
void view_smaps(FILE *f, const struct view_ctx *c);
void view_status(FILE *f, const struct view_ctx *c);
void view_meminfo(FILE *f, const struct view_ctx *c);
void view_vmstat(FILE *f, const struct view_ctx *c);
void view_pages(FILE *f, const struct view_ctx *c);
void view_lru(FILE *f, const struct view_ctx *c);
void view_numa(FILE *f, const struct view_ctx *c);

/* ==== session ====
 * session.h - one trace opened against one model: the header decides the
 * configuration (ram, swap, rlimit, capability, max_map_count, zero page,
 * arch) unless the command line overrides it, and the kernel semantics is
 * --kernel, else the header's `kernel:` (the newest model not newer than
 * it), else 6.18.
 */

struct session_opts {
	const char *kernel;    /* NULL: from the header */
	const char *arch;      /* NULL: from the header */
	int cap_ipc_lock;      /* -1: from the header; 0 no, 1 yes */
	int cap_sys_resource;  /* -1: from the header (else as cap_ipc_lock) */
	bool has_rlimit_memlock;
	uint64_t rlimit_memlock;  /* bytes, RLIM_INFINITY_VALUE = unlimited */
	bool has_max_map_count;
	uint64_t max_map_count;
	const char *maps;      /* --maps FILE: the address space before the trace */
	bool has_hugetlb_pages;
	uint64_t hugetlb_pages;   /* the hugetlb pool, 2 MiB pages */
	int thp;                  /* -1: from the header; 0 never, 1 madvise, 2 always */
	const char *name;         /* the trace's name in messages (NULL: its path) */
};
#define SESSION_OPTS_INIT { NULL, NULL, -1, -1, false, 0, false, 0, NULL, false, 0, -1, NULL }

/* The machine options every command that replays takes (--kernel,
 * --arch, --cap-ipc-lock, --rlimit-memlock, --max-map-count, --maps):
 * their getopt_long entries and the handler.  Option codes are >= 0x100
 * except 'k' for --kernel. */
#define SESSION_LONGOPTS                                               \
	{ "kernel", required_argument, NULL, 'k' },                    \
	{ "arch", required_argument, NULL, 0x100 },                    \
	{ "cap-ipc-lock", required_argument, NULL, 0x101 },            \
	{ "rlimit-memlock", required_argument, NULL, 0x102 },          \
	{ "max-map-count", required_argument, NULL, 0x103 },           \
	{ "maps", required_argument, NULL, 0x104 },                    \
	{ "cap-sys-resource", required_argument, NULL, 0x105 },        \
	{ "hugetlb-pages", required_argument, NULL, 0x106 },           \
	{ "thp", required_argument, NULL, 0x107 }
#define SESSION_OPTS_HELP                                                              \
	"  --kernel NAME          semantics: 4.0 lof-v1 4.4 6.1 6.12 6.18, or a patch\n"  \
	"                         (vma-count-v3 mremap-count 6.18-dontunmap-fix; default: the trace's\n" \
	"                         `# kernel:` header, else 6.18)\n"                        \
	"  --arch NAME            flag tables of this arch (default: `# arch:`, else x86_64)\n" \
	"  --cap-ipc-lock yes|no  whether the process holds CAP_IPC_LOCK (overrides the header)\n" \
	"  --cap-sys-resource yes|no  whether it may raise a hard limit (default: as\n" \
	"                         --cap-ipc-lock)\n"                                         \
	"  --rlimit-memlock SIZE  RLIMIT_MEMLOCK at start: 65536, 64K, 8M or unlimited\n"   \
	"  --max-map-count N      vm.max_map_count (default 65530)\n"                      \
	"  --hugetlb-pages N      the hugetlb pool, 2 MiB pages (vm.nr_hugepages; default:\n" \
	"                         `# hugetlb-pages:`, else 0)\n"                            \
	"  --thp always|madvise|never  transparent huge pages for anonymous memory\n"  \
	"                         (default: `# thp:`, else never)\n"                     \
	"  --maps FILE            a saved /proc/PID/maps (or smaps) of the process as execve\n" \
	"                         left it: the mappings the trace does not show\n"
/* "vmsim CMD: MESSAGE" on stderr, then the synopsis of usage (its text up
 * to the first blank line) and a pointer to `vmsim CMD --help`: what a
 * mistaken command line gets instead of the whole help.  Returns 2. */
int session_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The message for getopt_long()'s ':' (a missing value) or '?' (an
 * unknown option) of command cmd (session_usage_error()); returns 2. */
int session_opt_error(const char *cmd, int c, char **argv, const char *usage);
/* 1 handled, 0 not a session option, -1 bad value (message printed with cmd). */
int session_opt(struct session_opts *o, int code, const char *arg, const char *cmd);

struct option;
/* getopt_long() for command cmd (set optind = 0 first): the next option
 * that is cmd's own.  Session options are applied to o, -h prints usage,
 * an unknown option or a missing value is reported; kernel_pair, if not
 * NULL, takes --kernel twice (diff, report) instead of o.  Returns the
 * option, -1 when there is none left, SESSION_GETOPT_HELP after -h or
 * SESSION_GETOPT_BAD after an error (the exit codes 0 and 2). */
#define SESSION_GETOPT_HELP (-2)
#define SESSION_GETOPT_BAD (-3)
int session_getopt(struct session_opts *o, int argc, char **argv, const char *shortopts,
		   const struct option *longopts, const char *cmd, const char *usage,
		   const char *kernel_pair[2]);
/* main()'s exit code for what session_getopt() ended with */
static inline int session_getopt_exit(int c) { return c == SESSION_GETOPT_HELP ? 0 : 2; }

/* What the session knows of the address space before the trace
 * (inherit.c, private): its notes of one event are for the driver to
 * print. */
#define INHERIT_NOTE_MAX 16

struct inherit_state {
	bool assume;             /* plain log: assume holes that worked were mapped */
	const char *maps_path;   /* --maps FILE, NULL if none */
	bool maps_applied;
	bool plain;              /* no vmsim header: execve brings no inherit lines */
	unsigned long assumed;   /* ranges assumed mapped before the trace */
	uint64_t assumed_bytes;
	unsigned nnotes;         /* notes of this event, for the driver to print */
	char notes[INHERIT_NOTE_MAX][160];
};

#define SESSION_HOT_BATCH 128
#define SESSION_HOT_AHEAD 16  /* how many accesses ahead a PTE is prefetched */

struct session {
	struct trace_reader *reader;
	struct vmsys *sys;
	const struct semantics *sem;
	char arch[32];
	const char *path;
	bool have_event;       /* ev holds an event read ahead (the first one) */
	struct event ev;
	/* session_next_hot(): access lines decoded in bulk, [hot_i, hot_n)
	 * not yet run; hot_ev, the event of one that needs the full path */
	struct access_rec hot[SESSION_HOT_BATCH];
	size_t hot_i, hot_n;
	struct event hot_ev;
	/* a run of accesses that fault (a first touch of each page) makes
	 * every try as a hit a miss: after miss_run misses in a row the next
	 * hit_skip accesses (at most 64) go the full way without the try */
	unsigned miss_run, hit_skip;
	struct inherit_state inh;  /* what the trace does not show */
	char note[200];        /* "kernel 5.10 is replayed with the 4.4 model": a header
				* kernel without a model of its own (empty if none) */
	uint64_t consumed;     /* events read so far, hits included: the ordinal of
				* the last one returned */
	/* the drains another CPU did (timing.c): before the event of ordinal
	 * o, the batches are drained once for each drains[i] < o not yet
	 * done; ascending, owned by the caller */
	const uint64_t *drains;
	size_t ndrains, next_drain;
};

/* Open path and build the model from its header.  Returns 0, or -1 with
 * a message (bad file, bad header, unknown kernel/arch) in err. */
int session_open(struct session *ss, const char *path, const struct session_opts *o, char *err,
		 size_t errlen);
/* The same over several files: one trace, or the PREFIX.PID files of one
 * strace -ff recording merged (trace_open_merged()); ss->path is then
 * "PREFIX.*". */
int session_open_paths(struct session *ss, const char *const *paths, size_t n,
		       const struct session_opts *o, char *err, size_t errlen);
/* Next event: 1, 0 at the end, -1 on bad input (trace_error()). */
int session_next(struct session *ss, struct event **ev);
/* The event session_next() last returned, not applied, is returned again
 * by the next call (a caller that looked ahead and stops before it: vmsim
 * step's goto LINE).  Once, and with nothing read in between. */
void session_unread(struct session *ss);
/*
 * session_next() for a replay that reports nothing per event (no -v, no
 * checks per event; statistics count the hits in bulk): first the run of touch lines that
 * follows, decoded in bulk (trace_read_accesses()), each one that hits a
 * present, permitted page (vm_touch_hit()) applied here - nothing else in
 * an event's path (session_apply(), the outcome's check) does anything
 * for it - with the PTEs of the accesses ahead prefetched, and counted in
 * *hits (*checks: those with a recorded result, which is 0); the hits of
 * one call are all of process *hit_pid (set when there are any).  The
 * first event that needs more is returned, as by session_next().
 */
int session_next_hot(struct session *ss, struct event **ev, unsigned long *hits,
		     unsigned long *checks, int *hit_pid);
void session_close(struct session *ss);
/* Apply ev to the model: the address space the trace does not show
 * (inherit.h), then apply_event().  ss->inh.notes holds this event's
 * notes.  0, or -1 with a message in err. */
int session_apply(struct session *ss, const struct event *ev, struct outcome *out, char *err,
		  size_t errlen);

/* Build a model for a header and options (used by diff for its second model). */
struct vmsys *session_model(const struct trace_header *h, const char *kernel,
			    const struct session_opts *o, const struct semantics **semp, char *err,
			    size_t errlen);

/* semantics_find() that prints "unknown kernel" with the list on failure */
const struct semantics *semantics_find_checked(const char *name);

/* A --kernel of a command that compares two (diff, report): into k[0],
 * then k[1].  0, or 2 with the error printed (unknown, or a third). */
int session_kernel_pair(const char *cmd, const char *arg, const char *k[2]);

/* "4.0 lof-v1 4.4 6.1 6.12 6.18" */
void session_kernel_list(char *buf, size_t len);

/* ==== timing ====
 * timing.h - the drains another CPU may do, as choices of the replay
 * (vmsim replay; --strict-timing takes none).  The model's one CPU drains
 * its per-CPU batches where the kernel's code does; a real machine may
 * also drain them from another CPU at a time no trace line shows
 * (lru_add_drain_all(), a remote CPU's own drain, the vmstat worker), and
 * some outcomes depend on it (a page mlocked or not: docs/fidelity.md).
 * At a divergence, timing_search() replays the trace again with one drain
 * more after one of the last TIMING_CANDIDATES events after which the
 * batches held pages, latest first, and takes the first under which every
 * check from there to the divergence holds.  Bounded: the tries of one
 * replay together replay at most 8 x (events so far) + 2^20 events.
 */
#define TIMING_CANDIDATES 64

struct timing_point {
	uint64_t ordinal;      /* the event's (struct session's consumed) */
	unsigned long line;
	char src[96];          /* its file (a -ff part's name) */
};

struct timing {
	const char *const *paths;
	size_t npaths;
	const struct session_opts *o;
	bool strict;           /* --strict-timing: the search only says what would match */
	bool off;              /* the input cannot be read again (a pipe) */
	bool exhausted;        /* the budget is spent: no search any more */
	uint64_t spent;        /* events the tries replayed */
	uint64_t *drains, *spare; /* the drains taken (ascending); a second array */
	size_t ndrains;
	struct timing_point recent[TIMING_CANDIDATES]; /* ring: events after which the batches held pages */
	unsigned nrecent, head;
};

void timing_init(struct timing *tm, const char *const *paths, size_t npaths,
		 const struct session_opts *o, bool strict);
void timing_free(struct timing *tm);
/* After each applied event: whether the batches now hold pages. */
void timing_note(struct timing *tm, const struct session *ss, const struct event *ev);
/* The event just applied in *ss (its ordinal ss->consumed) diverged:
 * 1 when a drain after the event *at makes it and every check since
 * match - then, unless strict, *ss is the session of that run, positioned
 * after the event, whose later events replay with the drain taken; 0
 * when no drain does (or the input cannot be read again, or the budget
 * is spent: tm->exhausted); -1 on an error (err). */
int timing_search(struct timing *tm, struct session *ss, struct timing_point *at, char *err,
		  size_t errlen);

/* ==== diff ====
 * diff.h - replay one trace under two kernel semantics in lockstep and list
 * where the two models differ (`vmsim diff`, tests/property/prop_semantics_diff).
 *
 * One reader feeds every event to two models built from the same header
 * (session_model()).  After each event the two are compared:
 *
 *   result      the outcome (value, errno, address, fault kind)
 *   vmas        per process: the VMA layout, and the flags of each VMA by
 *               their internal bits (so "??" and "lf" for VM_LOCKONFAULT
 *               are the same flag)
 *   VmLck       locked_vm, in kB (unsigned: a wrapped count shows as such)
 *   def_flags   mm->def_flags, internal bits
 *   page        after both models drained their per-CPU batches: present,
 *               mlocked, unevictable, lru of every page of every VMA both
 *               sides have
 *   vmstat      unevictable_pgs_* and nr_mlock
 *
 * Results the trace records are not compared: diff compares the models.
 * Draining after every event is part of the comparison (both sides alike).
 *
 * A difference of state (vmas, VmLck, def_flags, page, nr_mlock, a
 * process) is listed at the event where it begins, where its values
 * change, and where it ends (diff_item.ended); the events between, which
 * leave it as it stood, do not list it again.  The event's own
 * differences (result, what it added to a counter, its faults) are listed
 * at every event.  The difference at a line is therefore the last item of
 * its kind and name at or before that line, unless that item ended it
 * (diff_at()).  After an access, only what it touched is compared: the
 * page tables its faults mapped into, when it changed nothing wide and no
 * frame another process maps; everything is compared after any other
 * event.  The cost is the replay's twice plus what each event changed,
 * and with diff_opts.each the memory is the models' alone.
 */

/* What one difference is about. */
enum diff_kind {
	DK_RESULT,     /* the event's outcome */
	DK_TASK,       /* a process exists/is alive on one side only */
	DK_VMAS,       /* VMA layout (start/end) */
	DK_VMFLAGS,    /* flags of a VMA present on both sides */
	DK_VMLCK,      /* locked_vm */
	DK_DEF_FLAGS,  /* def_flags */
	DK_PAGE,       /* page state of one address */
	DK_VMSTAT,     /* a counter */
	DK_RUSAGE,     /* the event's process's minflt/majflt, as this event moved them */
};

struct diff_item {
	unsigned long line;     /* trace line of the event */
	enum diff_kind kind;
	int pid;                /* process (0 for global counters) */
	uint64_t addr;          /* DK_VMFLAGS / DK_VMAS / DK_PAGE: the address */
	char what[48];          /* "result", "VmLck", "vma 0x...", "page 0x...", counter name */
	char a[192], b[192];    /* the two sides' values as text */
	int64_t va, vb;         /* numbers where meaningful: kB, counter, errno/value,
				 * internal VM_* bits, page bits (1 present 2 mlocked
				 * 4 unevictable 8 lru) */
	bool state;             /* a difference of state (it stands until an item
				 * ends it), not the event's own */
	bool ended;             /* a difference of state that stood ends here: both
				 * sides agree again (a, b: what they agree on) */
};

struct diff_event {             /* one event where the models differ */
	unsigned long line;
	char text[256];         /* trace_format_event() */
	size_t first, n;        /* its items: result->items[first .. first+n) */
};

/* groups of diff_result: the kinds, every counter and rusage field fit */
#define DIFF_GROUPS 64
struct diff_result {
	char kernel_a[16], kernel_b[16];
	unsigned long events;
	struct diff_item *items;
	size_t nitems, cap_items;
	struct diff_event *evs;
	size_t nevs, cap_evs;
	unsigned long differing; /* events listed, kept in evs or streamed */
	unsigned long narrowed; /* events after which only what they changed was
				 * compared (the rest: everything) */
	/* what differs, grouped: by kind, counters and rusage by name, in the
	 * order first seen (every differing event, with or without all) */
	struct diff_group {
		enum diff_kind kind;
		char what[48];          /* DK_VMSTAT, DK_RUSAGE: the counter's name */
		unsigned long events;   /* differing events with an item of it */
		unsigned long first_line;
	} groups[DIFF_GROUPS];
	unsigned ngroups;
	/* 0: no difference of state stands at the end of the trace; else the
	 * line of the first differing event after the last one at which none
	 * stood: from there on the two never agree again */
	unsigned long parted_line;
	char err[512];          /* bad input */
};

struct diff_opts {
	const char *kernel_a, *kernel_b;
	const char *arch;       /* NULL: the trace's header, else x86_64 */
	bool all;               /* every differing event, not just the first */
	const struct session_opts *machine; /* --cap-ipc-lock ... (NULL: the header's);
				 * its arch, if set, wins over arch above */
	bool full;              /* compare everything after every event, never only
				 * what the event touched (tests compare the two) */
	/* non-NULL: each differing event is handed to each() as it is found
	 * and then dropped from r, so that memory stays flat in the length */
	void (*each)(void *ctx, const struct diff_result *r, const struct diff_event *de);
	void *each_ctx;
};

/* Replay path under both kernels.  Returns 0 when the models agree on
 * the whole trace, 1 when they differ (r lists the differences), 2 on bad
 * input (r->err says why).  Free r with diff_result_free() in every case. */
int diff_trace(const char *path, const struct diff_opts *o, struct diff_result *r);
void diff_result_free(struct diff_result *r);

/* The difference of kind (what, pid if >= 0) in effect after the event at
 * line: its item at that line, or for a difference of state the last one
 * before it that did not end it; NULL when there is none. */
const struct diff_item *diff_at(const struct diff_result *r, unsigned long line,
				enum diff_kind kind, const char *what, int pid);

/* Print r the way `vmsim diff` does (FILE:LINE, event, side by side; an
 * ended difference as "agree again: " and what both sides have now). */
void diff_print(const char *path, const struct diff_result *r, FILE *f);
/* The same for one event of r (a diff_opts.each callback prints with it). */
void diff_print_event(const char *path, const struct diff_result *r, const struct diff_event *de, FILE *f);
/* The same, at most max items, then how many more there are. */
void diff_print_event_max(const char *path, const struct diff_result *r, const struct diff_event *de,
			  size_t max, FILE *f);

#endif
