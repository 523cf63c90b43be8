/*
 * apply.h - feed one trace event to a model and say what the model did.
 *
 * This is the one place where trace events become model calls; replay,
 * show and diff all go through it.  apply_event() runs the event;
 * outcome_matches() compares the model's outcome with what the trace
 * recorded; expect_check() evaluates an expect(...) line.
 *
 *
 * Owns: the one place where a trace event becomes a model call
 *   (apply_event()), and the comparison of the model's outcome with the
 *   trace (outcome_matches(), expect_check()).
 * May call: inherit, kerr, semantics, trace, vmstat, vmsys.
 */
#ifndef VMSIM_APPLY_H
#define VMSIM_APPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"
#include "vmsys.h"

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

/* Text of an outcome ("0x7f00...", "-1 ENOMEM", "MINOR") */
void outcome_text(const struct event *ev, const struct outcome *out, char *buf, size_t len);

/* The state that explains an event's divergence: the VMA(s) of its
 * address, locked_vm, the page. */
void explain_state(struct vmsys *s, const struct event *ev, char *buf, size_t len);

#endif
