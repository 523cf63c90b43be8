/*
 * explain_run.h - one replay of a trace with the model's tracepoints
 * listened to: the session, the log of the event being applied and its
 * explanation steps (what vmsim explain and vmsim report walk).
 *
 * Owns: a session with its tracepoint log and the last event's steps.
 * May call: apply, explain, session.
 */
#ifndef VMSIM_EXPLAIN_RUN_H
#define VMSIM_EXPLAIN_RUN_H

#include <stdbool.h>

#include "apply.h"
#include "explain.h"
#include "session.h"

struct explain_run {
	struct session ss;
	bool open;
	struct tp_log log;
	struct explain_steps steps;  /* of the last event applied with steps wanted */
	struct outcome out;          /* the model's outcome of the last event */
};

/* open path with o and listen; -1 with the message printed */
int explain_run_open(struct explain_run *x, const char *path, const struct session_opts *o);
/* apply ev (path names it in messages); build its steps when want, else
 * leave none; -1 with the message printed (bad input, out of memory) */
int explain_run_apply(struct explain_run *x, const char *path, struct event *ev, bool want);
void explain_run_close(struct explain_run *x);

#endif
