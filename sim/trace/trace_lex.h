/*
 * trace_lex.h - the trace reader's lexer, its lowest layer: the input's
 * blocks cut into lines, the bytes of one line (NUL terminated in place) to
 * numbers, strings, comments and argument slices, and the FILE:LINE:COL of
 * every error.
 *
 * Owns r->err and the "where does this text come from" context (r->cbase,
 * a joined unfinished+resumed call maps back to two lines).  Calls nothing
 * of the other reader units.  Every function that can fail sets r->err and
 * returns NULL or -1.
 *
 *
 * Owns: the input block and the current line (r->buf, r->line, r->lineno),
 *   r->err and the text context of error positions.
 * May call: trace_reader.
 */
#ifndef VMSIM_TRACE_LEX_H
#define VMSIM_TRACE_LEX_H

#include "trace_reader.h"

/* a call's arguments split at top-level commas: [s[i], e[i]) */
struct argv {
	char *s[MAXARGS], *e[MAXARGS];
	unsigned n;
};

/* The text being parsed is r->line itself (not a joined call). */
void tr_ctx_plain(struct trace_reader *r);

/* The line and column (1-based) of p in the text being parsed. */
void tr_where(struct trace_reader *r, const char *p, unsigned long *line, long *col);

/* Set r->err to "NAME:LINE:COL: MESSAGE" for position p; returns -1. */
int tr_fail(struct trace_reader *r, const char *p, const char *fmt, ...);

/* The same at an explicit line and column. */
int tr_fail_col(struct trace_reader *r, unsigned long line, long col,
		const char *fmt, ...);

/* Unsigned number: 0x hex, 0 octal, or decimal.  NULL when there is none;
 * *ovf on overflow. */
char *tr_scan_u64(char *p, uint64_t *v, bool *ovf);

/* p at the start of a comment: the position after the comment and the
 * blanks after it, or NULL (error set). */
char *tr_comment_end(struct trace_reader *r, char *p);

/* After a value: an optional <annotation> (strace -y, -yy), then an
 * optional comment; the argument must end there at e.  0 or -1. */
int tr_arg_end(struct trace_reader *r, char *p, char *e);

/* The argument [s, e) as one number (signed decimals as two's complement,
 * NULL as 0), nothing after it but an annotation or comment.  0 or -1. */
int tr_arg_num(struct trace_reader *r, char *s, char *e, uint64_t *v);

/* Unescape the quoted string at s in place into *out.  0 or -1. */
int tr_arg_str(struct trace_reader *r, char *s, char *e, struct strslice *out);

/* Scan one item up to a top-level ',' or closing bracket (or NUL). */
char *tr_scan_item(struct trace_reader *r, char *p);

/* open is the '(' of a call; splits its arguments into *a and returns the
 * position after the matching ')', or NULL (error set). */
char *tr_split_args(struct trace_reader *r, char *open, struct argv *a);

/* The next line of the input into r->line (NUL-terminated, a trailing '\r'
 * dropped, r->lineno counted): 1, 0 at end of input, -1 on a read error. */
int tr_next_line(struct trace_reader *r);

#endif
