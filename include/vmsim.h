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
struct vmsim *vmsim_new(const struct vmsim_config *c, char *err, size_t errlen);
void vmsim_free(struct vmsim *m);

struct vmsim_result {
	bool applied;             /* an event the model follows (else skipped) */
	bool agrees;              /* the model's answer is the one the line records
				   * (true when it records none: "= ?") */
	int64_t value;            /* the model's value, or -errno */
	char text[512];           /* why it disagrees, else empty */
};

/* Apply one trace line.  0, or -1 with a FILE:LINE:COL message in err for
 * a malformed line (line numbers count the lines given so far). */
int vmsim_apply(struct vmsim *m, const char *line, struct vmsim_result *res, char *err,
		size_t errlen);

/* Print a view ("maps", "smaps", "status", "meminfo", "vmstat", "pages",
 * "lru") of process pid (0: the first) to out; -1 if no such view or
 * process. */
int vmsim_view(struct vmsim *m, const char *view, int pid, FILE *out);

/* A /proc/vmstat counter by name ("unevictable_pgs_mlocked", "nr_mlock",
 * "pgfault"); -1 if there is no such counter. */
int64_t vmsim_counter(const struct vmsim *m, const char *name);

/* locked_vm of process pid in pages (VmLck / 4 kB); UINT64_MAX if none. */
uint64_t vmsim_locked_pages(struct vmsim *m, int pid);

/* Called with each event the model raises (an OOM kill, a SIGSEGV from
 * stack growth ...), after the call that raised it. */
void vmsim_on_event(struct vmsim *m, void (*fn)(void *ctx, const char *event), void *ctx);

/* "0.1.0" */
const char *vmsim_version(void);

#ifdef __cplusplus
}
#endif

#endif
