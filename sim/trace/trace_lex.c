/*
 * trace_lex.c - the lexer of the trace reader (see trace_lex.h).
 */
#include "alloc.h"
#include "trace_reader.h"
#include "trace_lex.h"

#include <errno.h>
#include <stdarg.h>


void tr_ctx_plain(struct trace_reader *r)
{
	r->cbase = r->line;
	r->csplit = SIZE_MAX;
	r->cl1 = r->lineno;
	r->cc1 = 1;
}

void tr_where(struct trace_reader *r, const char *p, unsigned long *line, long *col)
{
	size_t off = (size_t)(p - r->cbase);
	if (off < r->csplit) {
		*line = r->cl1;
		*col = r->cc1 + (long)off;
	} else {
		*line = r->cl2;
		*col = r->cc2 + (long)(off - r->csplit);
	}
}

static int fail_lc(struct trace_reader *r, unsigned long line, long col,
		   const char *fmt, va_list ap)
{
	char msg[sizeof(r->err)];
	int n = snprintf(msg, sizeof(msg), "%s:%lu:%ld: error: ", r->name, line, col);
	if (n < 0 || (size_t)n >= sizeof(msg))
		return -1;
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	/* a message quotes the trace's own bytes: its control bytes are
	 * written \ooo, never sent to the terminal that shows the error */
	size_t o = 0;
	for (const unsigned char *c = (const unsigned char *)msg; *c && o + 1 < sizeof(r->err); c++) {
		if ((*c < 0x20 && *c != '\t') || *c == 0x7f) {
			if (o + 5 > sizeof(r->err))
				break;
			snprintf(r->err + o, 5, "\\%03o", *c);
			o += 4;
		} else {
			r->err[o++] = (char)*c;
		}
	}
	r->err[o] = 0;
	return -1;
}

__attribute__((format(printf, 3, 4)))
int tr_fail(struct trace_reader *r, const char *p, const char *fmt, ...)
{
	unsigned long line;
	long col;
	va_list ap;
	tr_where(r, p, &line, &col);
	va_start(ap, fmt);
	fail_lc(r, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 4, 5)))
int tr_fail_col(struct trace_reader *r, unsigned long line, long col,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_lc(r, line, col, fmt, ap);
	va_end(ap);
	return -1;
}


const unsigned char tr_id_char[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
	['8'] = 1, ['9'] = 1, ['_'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
	['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
	['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
	['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1,
	['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
	['Y'] = 1, ['Z'] = 1,
};

const unsigned char tr_hex_value1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* ---- numbers and arguments ------------------------------------------- */

/* Unsigned number: 0x hex, 0 octal, or decimal.  NULL when there is none;
 * *ovf on overflow. */
char *tr_scan_u64(char *p, uint64_t *v, bool *ovf)
{
	uint64_t x = 0;
	*ovf = false;
	if (!is_digit(*p))
		return NULL;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		/* a digit's value + 1 by a table, 0 for other bytes; a digit shifted
		 * out of the top is an overflow */
		char *q = p + 2;
		uint64_t lost = 0;
		for (unsigned d; (d = tr_hex_value1[(unsigned char)*q]) != 0; q++) {
			lost |= x >> 60;
			x = x << 4 | (d - 1);
		}
		if (q == p + 2)
			return NULL;
		*ovf = lost != 0;
		*v = x;
		return q;
	}
	if (p[0] == '0') {
		char *q = p + 1;
		while (*q >= '0' && *q <= '7') {
			if (x >> 61)
				*ovf = true;
			x = x << 3 | (uint64_t)(*q++ - '0');
		}
		*v = x;
		return q;
	}
	/* 19 digits never overflow: only a 20th and later are checked */
	char *q = p;
	for (unsigned d; q - p < 19 && (d = (unsigned)(*q - '0')) < 10; q++)
		x = x * 10 + d;
	for (unsigned d; (d = (unsigned)(*q - '0')) < 10; q++) {
		if (x > (UINT64_MAX - d) / 10)
			*ovf = true;
		x = x * 10 + d;
	}
	*v = x;
	return q;
}

/* p at the start of a comment: the position after the comment and the blanks after it,
 * or NULL (error set). */
char *tr_comment_end(struct trace_reader *r, char *p)
{
	char *q = strstr(p + 2, "*/");
	if (!q) {
		tr_fail(r, p, "unterminated comment");
		return NULL;
	}
	return skip_ws(q + 2);
}

/* p at '<' of an fd annotation: "3</tmp/x>", -yy's nested device
 * "1</dev/null<char 1:3>>", a socket "5<TCP:[1.2.3.4:5->6.7.8.9:80]>"
 * (its "->" is not a closer).  The position after it, or NULL when it
 * does not close before e. */
static char *annotation_end(char *p, char *e)
{
	int depth = 0;
	for (; p < e && *p; p++) {
		if (*p == '<') {
			depth++;
		} else if (*p == '>' && p[-1] != '-') {
			if (--depth == 0)
				return p + 1;
		}
	}
	return NULL;
}

/* After a value: an optional <annotation> (strace -y, -yy), then an
 * optional comment; the argument must end there. */
int tr_arg_end(struct trace_reader *r, char *p, char *e)
{
	if (p < e && *p == '<') {
		char *q = annotation_end(p, e);
		if (q)
			p = q;
	}
	p = skip_ws(p);
	if (p < e && p[0] == '/' && p[1] == '*' && (p = tr_comment_end(r, p)) == NULL)
		return -1;
	if (p < e)
		return tr_fail(r, p, "unexpected '%c'; expected ',' or ')'", *p);
	return 0;
}

int tr_arg_num(struct trace_reader *r, char *s, char *e, uint64_t *v)
{
	char *p = s;
	size_t n = id_len(p);
	if (n) {
		if (word_is(p, n, "NULL"))
			*v = 0;
		else if (word_is(p, n, "AT_FDCWD"))
			*v = (uint64_t)-100;
		else
			return tr_fail(r, p, "expected a number");
		return tr_arg_end(r, p + n, e);
	}
	bool neg = false, ovf;
	if (*p == '-') {
		neg = true;
		p++;
	}
	char *q = tr_scan_u64(p, v, &ovf);
	if (!q)
		return tr_fail(r, s, "expected a number");
	if (ovf)
		return tr_fail(r, s, "number too large");
	if (neg)
		*v = (uint64_t)0 - *v;
	return tr_arg_end(r, q, e);
}

/* the bytes that end a run of plain ones in a string */
static const unsigned char str_stop[256] = { ['\0'] = 1, ['"'] = 1, ['\\'] = 1 };

/* p inside a string: the first quote, backslash or NUL from p on.  A
 * buffer read() returned is mostly escapes a few bytes apart (17 a line
 * in a log of python3 runs), which the table finds without a call; a run
 * longer than 8 bytes - a path - is left to strcspn(), 16 bytes at a
 * time. */
static inline char *string_stop(char *p)
{
	for (int i = 0; i < 8; i++, p++)
		if (str_stop[(unsigned char)*p])
			return p;
	return p + strcspn(p, "\"\\");
}

/* p just after a string's opening quote: its closing quote, or its NUL
 * when it has none. */
static char *skip_string_body(char *p)
{
	for (;;) {
		p = string_stop(p);
		if (*p != '\\')
			return p;
		p += p[1] ? 2 : 1;
	}
}

/* Unescape the quoted string at s in place. */
int tr_arg_str(struct trace_reader *r, char *s, char *e, struct strslice *out)
{
	if (*s != '"')
		return tr_fail(r, s, "expected a string");
	/* the common string has no escape: it stays where it is */
	char *p = string_stop(s + 1), *w = p;
	while (*p != '"') {
		if (*p == '\0')
			return tr_fail(r, s, "unterminated string");
		if (*p != '\\') {
			*w++ = *p++;
			continue;
		}
		char *esc = p++;
		unsigned v;
		switch (*p) {
		case 'n': *w++ = '\n'; p++; break;
		case 't': *w++ = '\t'; p++; break;
		case 'r': *w++ = '\r'; p++; break;
		case 'v': *w++ = '\v'; p++; break;
		case 'f': *w++ = '\f'; p++; break;
		case 'a': *w++ = '\a'; p++; break;
		case 'b': *w++ = '\b'; p++; break;
		case '\\': case '"': case '\'': case '?': *w++ = *p++; break;
		case 'x':
			p++;
			v = 0;
			for (int i = 0; i < 2; i++) {
				char c = *p;
				unsigned d;
				if (is_digit(c)) d = (unsigned)(c - '0');
				else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
				else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
				else if (i == 0) return tr_fail(r, esc, "bad escape in string");
				else break;
				v = v * 16 + d;
				p++;
			}
			*w++ = (char)v;
			break;
		default:
			if (*p >= '0' && *p <= '7') {
				v = 0;
				for (int i = 0; i < 3 && *p >= '0' && *p <= '7'; i++)
					v = v * 8 + (unsigned)(*p++ - '0');
				*w++ = (char)v;
				break;
			}
			return tr_fail(r, esc, "bad escape in string");
		}
	}
	out->p = s + 1;
	out->len = (size_t)(w - (s + 1));
	p++;
	if (p[0] == '.' && p[1] == '.' && p[2] == '.')
		p += 3;
	return tr_arg_end(r, p, e);
}

/* Scan one item up to a top-level ',' or closing bracket (or NUL). */
/* the characters tr_scan_item() stops at; every other one it passes */
static const unsigned char item_stop[256] = {
	['\0'] = 1, ['"'] = 1, ['/'] = 1, ['('] = 1, ['['] = 1, ['{'] = 1,
	[')'] = 1, [']'] = 1, ['}'] = 1, [','] = 1, ['<'] = 1,
};

static inline __attribute__((always_inline)) char *scan_item(struct trace_reader *r, char *p)
{
	int depth = 0;
	for (;; p++) {
		/* four bytes a round: most bytes of an item pass */
		for (;; p += 4) {
			if (item_stop[(unsigned char)p[0]])
				break;
			if (item_stop[(unsigned char)p[1]]) {
				p += 1;
				break;
			}
			if (item_stop[(unsigned char)p[2]]) {
				p += 2;
				break;
			}
			if (item_stop[(unsigned char)p[3]]) {
				p += 3;
				break;
			}
		}
		/* a comma, the most common stop, before the jump table */
		if (*p == ',') {
			if (depth == 0)
				return p;
			continue;
		}
		switch (*p) {
		case '\0':
			return p;
		case '"': {
			char *q = skip_string_body(p + 1);
			if (!*q) {
				tr_fail(r, p, "unterminated string");
				return NULL;
			}
			p = q;
			break;
		}
		case '/':
			if (p[1] == '*') {
				char *q = strstr(p + 2, "*/");
				if (!q) {
					tr_fail(r, p, "unterminated comment");
					return NULL;
				}
				p = q + 1;
			}
			break;
		case '(': case '[': case '{':
			depth++;
			break;
		case ')': case ']': case '}':
			if (depth == 0)
				return p;
			depth--;
			break;
		case ',':
			if (depth == 0)
				return p;
			break;
		case '<':
			if (p[1] == '<') {
				p++;
			} else if (is_id(p[-1])) {
				char *q = annotation_end(p, p + strlen(p));
				if (q)
					p = q - 1;
			}
			break;
		}
	}
}

char *tr_scan_item(struct trace_reader *r, char *p)
{
	return scan_item(r, p);
}

/* p is just after '('; returns the position after the matching ')'. */
char *tr_split_args(struct trace_reader *r, char *open, struct argv *a)
{
	char *p = skip_ws(open + 1);
	a->n = 0;
	if (*p == ')')
		return p + 1;
	for (;;) {
		p = skip_ws(p);
		char *s = p;
		char *q = scan_item(r, p);
		if (!q)
			return NULL;
		char *e = q;
		while (e > s && is_ws(e[-1]))
			e--;
		if (e == s) {
			tr_fail(r, s, "expected an argument");
			return NULL;
		}
		if (a->n < MAXARGS) {
			a->s[a->n] = s;
			a->e[a->n] = e;
		}
		a->n++;
		if (*q == ',') {
			p = q + 1;
			continue;
		}
		if (*q == ')')
			return q + 1;
		if (*q == '\0')
			tr_fail(r, q, "expected ')'");
		else
			tr_fail(r, q, "unexpected '%c'; expected ')'", *q);
		return NULL;
	}
}

/* ---- lines ----------------------------------------------------------- */

/* 1 with r->line set, 0 at end of input, -1 on a read error. */
int tr_next_line(struct trace_reader *r)
{
	for (;;) {
		char *s = r->buf + r->pos;
		size_t avail = r->end - r->pos;
		/* one pass finds the newline and any NUL before it (the bytes
		 * read end in a NUL, buf[end]) */
		char *nl = avail ? strchrnul(s, '\n') : NULL;
		r->line_nul = NULL;
		if (nl && *nl != '\n') {
			if (nl < r->buf + r->end)
				r->line_nul = nl; /* before any newline: inside this line */
			nl = memchr(nl, '\n', (size_t)(r->buf + r->end - nl));
		}
		if (nl) {
			r->line = s;
			r->len = (size_t)(nl - s);
			r->pos += r->len + 1;
			break;
		}
		if (r->eof) {
			if (avail == 0)
				return 0;
			r->line = s;
			r->len = avail;
			r->pos = r->end;
			r->unterminated = true;
			break; /* line_nul: set by the scan above (avail > 0) */
		}
		if (r->pos > 0) {
			memmove(r->buf, s, avail);
			r->pos = 0;
			r->end = avail;
		}
		if (avail >= TRACE_LINE_MAX) {
			/* no newline in 64 MiB: not a trace (vmsim replay /dev/zero
			 * grew this buffer past 2 GB) */
			snprintf(r->err, sizeof(r->err),
				 "%s:%lu:1: error: line %lu is longer than %u MiB: not a trace line",
				 r->name, r->lineno + 1, r->lineno + 1, TRACE_LINE_MAX >> 20);
			return -1;
		}
		if (r->cap - r->end < BLOCK / 2) {
			size_t nc = r->cap * 2;
			char *b = vm_realloc(r->buf, nc);
			if (!b) {
				snprintf(r->err, sizeof(r->err),
					 "%s:%lu: error: out of memory for a line",
					 r->name, r->lineno + 1);
				return -1;
			}
			r->buf = b;
			r->cap = nc;
		}
		/* keep one byte for the terminating NUL of a last line without '\n' */
		size_t n = fread(r->buf + r->end, 1, r->cap - r->end - 1, r->f);
		if (n == 0) {
			if (ferror(r->f)) {
				snprintf(r->err, sizeof(r->err), "%s:%lu: error: read error: %s",
					 r->name, r->lineno + 1, strerror(errno));
				return -1;
			}
			r->eof = true;
		}
		r->end += n;
		r->buf[r->end] = '\0'; /* the sentinel of trace_read_accesses() */
	}
	r->lineno++;
	r->line[r->len] = '\0';
	if (r->len && r->line[r->len - 1] == '\r')
		r->line[--r->len] = '\0';
	return 1;
}
