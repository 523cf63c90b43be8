/*
 * explain_run.c - a replay with the tracepoints listened to (teach.h, section "explain_run").
 */
#include "teach.h"

#include <stdio.h>
#include <string.h>

int explain_run_open(struct explain_run *x, const char *path, const struct session_opts *o)
{
	char err[512];
	memset(x, 0, sizeof(*x));
	if (session_open(&x->ss, path, o, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	x->open = true;
	vmsys_set_tracepoint(x->ss.sys, tp_log_hook, &x->log);
	return 0;
}

int explain_run_apply(struct explain_run *x, const char *path, struct event *ev, bool want)
{
	char err[512];
	tp_log_clear(&x->log);
	x->out = (struct outcome){ 0 };
	if (session_apply(&x->ss, ev, &x->out, err, sizeof(err))) {
		fprintf(stderr, "%s:%lu:1: error: %s\n", path, ev->line, err);
		return -1;
	}
	x->steps.n = 0;
	if (want && !explain_build(&x->log, x->ss.sys, &x->steps)) {
		fprintf(stderr, "vmsim: out of memory explaining %s:%lu\n", path, ev->line);
		return -1;
	}
	return 0;
}

int explain_run_build(struct explain_run *x, const char *path, const struct event *ev)
{
	x->steps.n = 0;
	if (!explain_build(&x->log, x->ss.sys, &x->steps)) {
		fprintf(stderr, "vmsim: out of memory explaining %s:%lu\n", path, ev->line);
		return -1;
	}
	return 0;
}

void explain_run_close(struct explain_run *x)
{
	if (x->open)
		session_close(&x->ss);
	x->open = false;
	tp_log_free(&x->log);
	explain_steps_free(&x->steps);
}
