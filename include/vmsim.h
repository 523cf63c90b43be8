/*
 * vmsim.h - libvmsim, the simulated Linux VM of vmsim as a library.
 *
 * A machine runs one kernel semantics ("4.0", "lof-v1", "4.4", "6.1",
 * "6.18", or a version such as "6.6" that picks the newest model not newer)
 * on one architecture's flag tables.  Events are lines of the trace format
 * (vmsim-trace(5)): syscalls as strace writes them, pseudo-events such as
 * touch(ADDR, LEN, WRITE), expectations.  Each call applies one complete
 * line; the result tells what the model answered and whether it agrees
 * with the result the line records.  Views are /proc files as the kernel
 * prints them; counters are /proc/vmstat's.
 *
 * This header is the whole interface: nothing of vmsim's internals is
 * needed.  Link with `pkg-config --libs vmsim`.
 *
 *
 * Owns: libvmsim, the installed library interface (sim/lib/libvmsim.c).
 * May call: replay, semantics, trace, vmstat, vmsys.
 */
#ifndef VMSIM_PUBLIC_H
#define VMSIM_PUBLIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the shared library exports: it is built with -fvisibility=hidden
 * and a symbol version script (VMSIM_0), so nothing but these functions
 * reaches a program that links it. */
#if defined(__GNUC__) || defined(__clang__)
#define VMSIM_API __attribute__((visibility("default")))
#else
#define VMSIM_API
#endif

/* The version of vmsim this header belongs to; vmsim_version() gives that of
 * the library linked. */
#define VMSIM_VERSION "0.1.0"

struct vmsim;

struct vmsim_config {
	const char *kernel;       /* NULL: "6.18" */
	const char *arch;         /* NULL: "x86_64" */
	uint64_t rlimit_memlock;  /* bytes; 0: 8 MiB; UINT64_MAX: unlimited */
	bool cap_ipc_lock;
	uint64_t ram;             /* bytes; 0: 24 GiB */
};

/* A new machine with no process; NULL with a message in err. */
VMSIM_API struct vmsim *vmsim_new(const struct vmsim_config *c, char *err, size_t errlen);
VMSIM_API void vmsim_free(struct vmsim *m);

struct vmsim_result {
	bool applied;             /* an event the model follows (else skipped) */
	bool agrees;              /* the model's answer is the one the line records
				   * (true when it records none: "= ?") */
	int64_t value;            /* the model's value, or -errno */
	char text[512];           /* why it disagrees, else empty */
};

/* Apply one trace line.  0, or -1 with a FILE:LINE:COL message in err for
 * a malformed line (line numbers count the lines given so far). */
VMSIM_API int vmsim_apply(struct vmsim *m, const char *line, struct vmsim_result *res,
			  char *err, size_t errlen);

/* Print a view ("maps", "smaps", "status", "meminfo", "vmstat", "pages",
 * "lru") of process pid (0: the first) to out; -1 if no such view or
 * process. */
VMSIM_API int vmsim_view(struct vmsim *m, const char *view, int pid, FILE *out);

/* A /proc/vmstat counter by name ("unevictable_pgs_mlocked", "nr_mlock",
 * "pgfault"); -1 if there is no such counter. */
VMSIM_API int64_t vmsim_counter(const struct vmsim *m, const char *name);

/* locked_vm of process pid in pages (VmLck / 4 kB); UINT64_MAX if none. */
VMSIM_API uint64_t vmsim_locked_pages(struct vmsim *m, int pid);

/* Called with each event the model raises (an OOM kill, a SIGSEGV from
 * stack growth ...), after the call that raised it. */
VMSIM_API void vmsim_on_event(struct vmsim *m, void (*fn)(void *ctx, const char *event),
			      void *ctx);

/* "0.1.0" */
VMSIM_API const char *vmsim_version(void);

/* ---- a whole trace: open it, step through it --------------------------- */

struct vmsim_trace;

/* Open a trace in any form vmsim reads (its text form, the binary form, an
 * strace -f log) and build the machine its header describes; c, if not
 * NULL, overrides what it sets (kernel, arch, rlimit_memlock, cap_ipc_lock,
 * ram), as the command line's machine options do.  NULL with a message in
 * err when the file or its header is bad. */
VMSIM_API struct vmsim_trace *vmsim_trace_open(const char *path, const struct vmsim_config *c,
					       char *err, size_t errlen);
VMSIM_API void vmsim_trace_close(struct vmsim_trace *t);
/* The machine the trace runs on: every query below works on it. */
VMSIM_API struct vmsim *vmsim_trace_machine(struct vmsim_trace *t);

struct vmsim_event {
	unsigned long line;       /* its line in the trace (record in the binary form) */
	int pid;                  /* the process it ran in */
	char text[512];           /* the event as canonical text (cut with "..." if longer) */
	struct vmsim_result result;
};

/* Apply the trace's next event: 1 with *ev filled, 0 at the end, -1 with a
 * FILE:LINE:COL message in err on bad input. */
VMSIM_API int vmsim_trace_next(struct vmsim_trace *t, struct vmsim_event *ev, char *err,
			       size_t errlen);

/* ---- the state of a machine ------------------------------------------- */

struct vmsim_vma {
	uint64_t start, end;      /* [start, end) */
	uint64_t pgoff;           /* in pages */
	uint64_t flags;           /* VM_* as the machine's kernel numbers them */
	char vmflags[128];        /* smaps' VmFlags text: "rd wr mr mw me lo ac" */
	char path[256];           /* a file's path, "[heap]", "[stack]", ...; "" anonymous */
	uint64_t rss, locked;     /* smaps' Rss and Locked, in bytes */
};

/* The VMAs of process pid (0: the first) in address order, at most max of
 * them into out: how many the process has, or -1 if there is no such
 * process. */
VMSIM_API long vmsim_vmas(struct vmsim *m, int pid, struct vmsim_vma *out, size_t max);

struct vmsim_page {           /* pagemap and kpageflags of one page */
	bool present, swapped, anon, zero, dirty;
	bool lru, active, unevictable, mlocked;
	uint64_t pfn;
	unsigned mapcount;
};

/* The page at addr in process pid: 0 with *out filled (present false when
 * no PTE maps it), -1 if there is no such process.  The per-CPU batches
 * are drained first, as a recorder reads pages. */
VMSIM_API int vmsim_page(struct vmsim *m, int pid, uint64_t addr, struct vmsim_page *out);

/* The i-th counter's /proc/vmstat name, NULL past the last; its value is
 * vmsim_counter(m, name). */
VMSIM_API const char *vmsim_counter_name(size_t i);

/* ---- two semantics side by side ---------------------------------------- */

struct vmsim_difference {
	unsigned long line;       /* the event's line */
	const char *event;        /* the event as canonical text */
	const char *what;         /* "result", "VmLck", "vma 0x...", "page 0x...", a counter */
	int pid;
	const char *a, *b;        /* the two kernels' values, as text */
	bool ended;               /* a difference of state that stood ends here: a
				   * and b are what both kernels have now */
};

/* Replay the trace at path under kernels a and b in lockstep, calling fn
 * for each difference as it is found (all, or those of the first differing
 * event; a difference of state - a VMA, a page, VmLck - when it begins,
 * changes and ends, not at every event it stands): 0 when
 * the two agree on the whole trace, 1 when they differ, -1 with a message
 * in err on bad input. */
VMSIM_API int vmsim_diff(const char *path, const char *kernel_a, const char *kernel_b, bool all,
			 void (*fn)(void *ctx, const struct vmsim_difference *d), void *ctx,
			 char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
