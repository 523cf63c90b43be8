/*
 * trace_expect.h - expect(WHAT, ...) = {KEY=VALUE, ...}: the pseudo-event
 * that states the model's state at a point of the trace (vma, page, task,
 * meminfo, vmstat, ...; docs/trace-format.md, "Expectations").  Values keep
 * their units (kB, pages, bytes) for the comparison.
 *
 * May call the lexer.
 *
 *
 * Owns: ev->exp of an expect line.
 * May call: trace_lex, trace_reader.
 */
#ifndef VMSIM_TRACE_EXPECT_H
#define VMSIM_TRACE_EXPECT_H

#include "trace_reader.h"

/* open is the '(' after "expect"; fills ev->exp.  1, or -1. */
int tr_parse_expect(struct trace_reader *r, char *open, struct event *ev);

#endif
