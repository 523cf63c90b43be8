/*
 * session.h - one trace opened against one model: the header decides the
 * configuration (ram, swap, rlimit, capability, max_map_count, zero page,
 * arch) unless the command line overrides it, and the kernel semantics is
 * --kernel, else the header's `kernel:` (the newest model not newer than
 * it), else 6.18.
 */
#ifndef VMSIM_SESSION_H
#define VMSIM_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "trace.h"
#include "vmsys.h"

struct session_opts {
	const char *kernel; /* NULL: from the header */
	const char *arch;   /* NULL: from the header */
};

struct session {
	struct trace_reader *reader;
	struct vmsys *sys;
	const struct semantics *sem;
	char arch[32];
	const char *path;
	bool have_event;       /* ev holds an event read ahead (the first one) */
	struct event ev;
};

/* Open path and build the model from its header.  Returns 0, or -1 with
 * a message (bad file, bad header, unknown kernel/arch) in err. */
int session_open(struct session *ss, const char *path, const struct session_opts *o, char *err,
		 size_t errlen);
/* Next event: 1, 0 at the end, -1 on bad input (trace_error()). */
int session_next(struct session *ss, struct event **ev);
void session_close(struct session *ss);

/* Build a model for a header and options (used by diff for its second model). */
struct vmsys *session_model(const struct trace_header *h, const char *kernel, const char *arch,
			    const struct semantics **semp, char *err, size_t errlen);

/* semantics_find() that prints "unknown kernel" with the list on failure */
const struct semantics *semantics_find_checked(const char *name);

/* "4.0 lof-v1 4.4 6.1 6.18" */
void session_kernel_list(char *buf, size_t len);

#endif
