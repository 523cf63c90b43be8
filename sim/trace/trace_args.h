/*
 * trace_args.h - a call NAME(ARGS) = RESULT: each argument decoded by what
 * the syscall (or pseudo-call: touch, fault, reclaim, drop_caches, inherit,
 * inherit_file, evict) has in that place - numbers, flag names by the arch's
 * table, the structs strace prints (rlimits, capabilities, stat, clone3),
 * fd pairs - and the result (value, -1 ERRNO (text), ?, annotations).
 *
 * Owns the per-syscall argument layouts and the flag tables of the reader.
 * May call the lexer and the expect parser (a call named "expect"); counts
 * the syscall names it does not know (trace_unknown_name()).
 *
 *
 * Owns: the per-syscall argument layouts, the reader's flag tables and the
 *   count of unknown syscall names.
 * May call: syscall_table, trace_expect, trace_lex, trace_reader.
 */
#ifndef VMSIM_TRACE_ARGS_H
#define VMSIM_TRACE_ARGS_H

#include "trace_reader.h"

/* a struct's "key=value" pairs, one call per pair: 0 go on, -1 error */
typedef int (*field_fn)(struct trace_reader *r, void *ctx, char *key,
			size_t klen, char *vs, char *ve);

/* {key=value, ...} at s; returns the position after '}' in *after. */
int tr_struct_fields(struct trace_reader *r, char *s, field_fn fn, void *ctx,
		     char **after);

/* An empty event (no arguments, no expectation, no signal). */
void tr_ev_clear(struct event *ev);

/* NAME(ARGS) = RESULT at p into ev (whose pid, line and timestamp are set);
 * partial: the line of a resumed call, whose missing arguments are not an
 * error.  Returns 1, or -1. */
int tr_parse_call(struct trace_reader *r, char *p, struct event *ev, bool partial);

#endif
