/*
 * trace_strace.h - strace's notations around a call: its own notices ("Process N
 * attached") that split lines, "[pid N]" and "N " prefixes (a terminal's
 * unprefixed first process), timestamps (-t, -tt, -ttt, -r), the
 * "<unfinished ...>" / "<... resumed>" halves kept per pid, signals and
 * exits.  May call the lexer (its line reader too: a notice that splits a
 * line joins the next one) and the call parser.
 *
 * Owns the pending halves (r->pend, its pid index, r->work), the spliced
 * line and the terminal-first-process state (r->kids, r->first_pid).
 *
 *
 * Owns: the pending halves of unfinished calls, the spliced line, the
 *   terminal-first-process state.
 * May call: syscall_table, trace_args, trace_lex, trace_reader.
 */
#ifndef VMSIM_TRACE_STRACE_H
#define VMSIM_TRACE_STRACE_H

#include "trace_reader.h"

/* Drop the notices of the current line, joining a split line with the
 * next one.  0 go on, 1 the line was only a notice (skip it), -1 error. */
int tr_strip_notices(struct trace_reader *r);

/* "--- SIGxxx {si_signo=..., ...} ---" at p.  1, or -1. */
int tr_parse_signal(struct trace_reader *r, char *p, struct event *ev);

/* "+++ exited with N +++" / "+++ killed by SIGxxx +++" at p.  1, or -1. */
int tr_parse_exit(struct trace_reader *r, char *p, struct event *ev);

/* The unfinished call of pid, or NULL. */
struct pend *tr_pend_find(struct trace_reader *r, int pid);

/* If the line ends in "<unfinished ...>", the end of the text before it. */
char *tr_unfinished_at(struct trace_reader *r, char *from);

/* Emit the unfinished call of pe as an event with an unknown result
 * (its process ended, or the input did, before it returned): 1; or 0 if
 * it was emitted already (tr_fork_returned()), only dropped; -1. */
int tr_flush_pending(struct trace_reader *r, struct pend *pe, struct event *ev);

/* "<... NAME resumed>REST" of pid at p: joined with its first half and
 * parsed as one call into ev.  1, or -1. */
int tr_parse_resumed(struct trace_reader *r, char *p, int pid,
		     struct event *ev);

/* In a plain strace log, the first line of pid: if pid is new and exactly
 * one fork-like call of another process is unfinished, that call has
 * returned pid (the child runs only once the kernel made it), and is
 * parsed into ev with that result: 1 (the caller handles the line again
 * after it); 0 if not; -1 on error. */
int tr_fork_returned(struct trace_reader *r, int pid, struct event *ev);

/* A fork-like call returned pid before pid wrote a line: its first line
 * is not the child of another fork still unfinished.  0, or -1. */
int tr_pid_returned(struct trace_reader *r, int pid);

/* pid's process has ended ("+++ exited"): the pid may be used again. */
void tr_pid_gone(struct trace_reader *r, int pid);

/* Keep [p, e), the first half of an unfinished call of pid.  0, or -1. */
int tr_add_pending(struct trace_reader *r, int pid, double ts, char *p, char *e);

/* A timestamp at p (-t, -tt, -ttt, -r): seconds into *ts; the position
 * after it, or NULL (error set). */
char *tr_parse_timestamp(struct trace_reader *r, char *p, double *ts);

/* pid was returned by a fork-like call of the unprefixed first process. */
int tr_add_kid(struct trace_reader *r, int pid);

/* The pid an event of a "[pid N] " line gets.  In a trace whose lines
 * started without a pid (strace -f to a terminal), the first such pid that
 * is not a child of the first process is the first process: its
 * events keep pid 0, as its unprefixed ones do.  A pid that shows up while
 * the first process's fork-like call has not returned yet is that child,
 * unless its line resumes that very call. */
int tr_map_pid(struct trace_reader *r, int pid, const char *body, bool *err);

#endif
