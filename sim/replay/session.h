/*
 * session.h - one trace opened against one model: the header decides the
 * configuration (ram, swap, rlimit, capability, max_map_count, zero page,
 * arch) unless the command line overrides it, and the kernel semantics is
 * --kernel, else the header's `kernel:` (the newest model not newer than
 * it), else 6.18.
 *
 *
 * Owns: one trace opened against one model: header and command line to a
 *   configured machine.
 * May call: apply, flagtab, inherit, semantics, trace, vmsys.
 */
#ifndef VMSIM_SESSION_H
#define VMSIM_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "apply.h"
#include "inherit.h"
#include "trace.h"
#include "vmsys.h"

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
};
#define SESSION_OPTS_INIT { NULL, NULL, -1, -1, false, 0, false, 0, NULL }

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
	{ "cap-sys-resource", required_argument, NULL, 0x105 }
#define SESSION_OPTS_HELP                                                              \
	"  --kernel NAME          semantics: 4.0 lof-v1 4.4 6.1 6.18 (default: the trace's\n" \
	"                         `# kernel:` header, else 6.18)\n"                        \
	"  --arch NAME            flag tables of this arch (default: `# arch:`, else x86_64)\n" \
	"  --cap-ipc-lock yes|no  whether the process holds CAP_IPC_LOCK (overrides the header)\n" \
	"  --cap-sys-resource yes|no  whether it may raise a hard limit (default: as\n" \
	"                         --cap-ipc-lock)\n"                                         \
	"  --rlimit-memlock SIZE  RLIMIT_MEMLOCK at start: 65536, 64K, 8M or unlimited\n"   \
	"  --max-map-count N      vm.max_map_count (default 65530)\n"                      \
	"  --maps FILE            a saved /proc/PID/maps (or smaps) of the process as execve\n" \
	"                         left it: the mappings the trace does not show\n"
/* The message for getopt_long()'s ':' (a missing value) or '?' (an
 * unknown option) of command cmd; returns the exit code, 2. */
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
	struct inherit_state inh;  /* what the trace does not show */
	char note[200];        /* "kernel 5.10 is replayed with the 4.4 model": a header
				* kernel without a model of its own (empty if none) */
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

/* "4.0 lof-v1 4.4 6.1 6.18" */
void session_kernel_list(char *buf, size_t len);

#endif
