/*
 * trace_header.h - the trace header: "# key: value" lines before the first
 * event (docs/trace-format.md, "Header"), into r->hdr, and the defaults
 * (arch, kernel, page size, limits) once the first event line is reached.
 *
 * Owns r->hdr, r->hdr_done and the --arch/--kernel overrides.  May call the
 * lexer (errors).
 *
 *
 * Owns: r->hdr, r->hdr_done and the --arch/--kernel overrides.
 * May call: semantics, trace_lex, trace_reader.
 */
#ifndef VMSIM_TRACE_HEADER_H
#define VMSIM_TRACE_HEADER_H

#include "trace_reader.h"

/* One '#' line p of the header (comments that are no key are skipped).
 * 0, or -1 for a bad value of a known key. */
int tr_header_line(struct trace_reader *r, char *p);

/* The header is over: fill in defaults and the overrides. */
void tr_finish_header(struct trace_reader *r);

#endif
