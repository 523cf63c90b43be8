/*
 * trace_read.c - the streaming trace reader (docs/trace-format.md).
 *
 * Input is read in blocks into one growable buffer; a line is a slice of
 * that buffer, NUL-terminated in place.  Parsing is a hand-written scanner
 * over the line: the prefix (pid, timestamp), then the body, one of
 *
 *     NAME(ARGS) = RESULT          a call (or pseudo-call, or expect)
 *     NAME(ARGS <unfinished ...>   first half, kept per pid
 *     <... NAME resumed>REST       second half, joined with the first
 *     --- SIGxxx {...} ---         a signal
 *     +++ exited with N +++        end of a process
 *
 * Arguments are first split at top-level commas (strings, comments and
 * nested brackets skipped), then each is decoded by what the syscall
 * expects there.  Strings are unescaped in place, so events point into the
 * line (or the join buffer) and nothing is allocated per event; memory is
 * bounded by the longest line and the number of pids with an unfinished
 * call.
 */
#include "alloc.h"
#include "trace.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "flagtab.h"
#include "semantics.h"
#include "syscall_table.h"

#define BLOCK 65536
#define MAXARGS 8

struct pend {
	int pid;
	unsigned long line;
	double ts;
	long col0;     /* column of the call's name on its line */
	char *buf;     /* "NAME(ARGS" without " <unfinished ...>" */
	size_t len, cap;
};

struct unk {
	char *name;
	size_t len;
	unsigned long count;
};

struct trace_reader {
	FILE *f;
	bool own;
	char *name;

	char *buf;             /* input block; [pos, end) not yet consumed */
	size_t cap, pos, end;
	bool eof;
	char *line;            /* current line, NUL-terminated */
	size_t len;
	unsigned long lineno;
	bool reprocess;        /* handle the current line again */

	struct trace_header hdr;
	bool hdr_done;
	char arch[32], kernel[32];
	bool arch_ovr, kernel_ovr;
	const struct flag_table *ft[FK_NKINDS];
	bool ft_done[FK_NKINDS];

	struct pend *pend;
	size_t npend, cappend;
	/* pid -> 1 + index into pend (0 empty; PEND_GONE a deleted slot), so
	 * that 300,000 processes with a call unfinished cost no linear search */
	uint32_t *pidx;
	size_t pidx_cap, pidx_used;
	struct unk *unk;
	size_t nunk, capunk;
	char *work;            /* a joined unfinished+resumed call */
	size_t workcap;
	char *splice;          /* a line strace's "Process N attached" notice split */
	size_t splicecap;

	/* strace to a terminal: the first process's lines have no pid until a
	 * second process exists, then "[pid N] " - N is the first process */
	bool lead_unprefixed;  /* the first event line had no pid */
	bool any_event_line;
	int first_pid;         /* its pid once a prefixed line names it; 0 unknown */
	int line_pid;          /* the pid as the current line writes it, for messages */
	int *kids;             /* pids its fork-like calls returned, until then */
	size_t nkids, capkids;

	/* where the text being parsed comes from, for line:col in messages */
	const char *cbase;
	size_t csplit;
	unsigned long cl1, cl2;
	long cc1, cc2;

	char err[1024];

	/* strace -ff: one file per process, merged by timestamp (the parent
	 * reads its parts; each part's events get the pid of its name) */
	struct trace_reader *parent;
	struct ff_part *parts;
	size_t nparts;
	bool ts_fraction;      /* the last timestamp had a fractional part */
	size_t pending_refill; /* 1 + the part whose event was returned last */
};

struct ff_part {
	struct trace_reader *r;
	struct event ev;       /* read ahead; valid while have */
	bool have, done;
	int pid;
	bool announced;        /* the root, or its fork-like line was returned */
};

/* ---- character classes and errors ---------------------------------- */

static inline bool is_ws(char c) { return c == ' ' || c == '\t'; }
static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
static inline bool is_idstart(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static inline bool is_id(char c) { return is_idstart(c) || is_digit(c); }
static inline char *skip_ws(char *p)
{
	while (is_ws(*p))
		p++;
	return p;
}
static inline size_t id_len(const char *p)
{
	size_t n = 0;
	if (!is_idstart(p[0]))
		return 0;
	while (is_id(p[n]))
		n++;
	return n;
}
static inline bool word_is(const char *p, size_t n, const char *w)
{
	return strncmp(p, w, n) == 0 && w[n] == '\0';
}

static void ctx_plain(struct trace_reader *r)
{
	r->cbase = r->line;
	r->csplit = SIZE_MAX;
	r->cl1 = r->lineno;
	r->cc1 = 1;
}

static void where(struct trace_reader *r, const char *p, unsigned long *line, long *col)
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
	int n = snprintf(r->err, sizeof(r->err), "%s:%lu:%ld: error: ", r->name,
			 line, col);
	if (n < 0 || (size_t)n >= sizeof(r->err))
		return -1;
	vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
	return -1;
}

__attribute__((format(printf, 3, 4)))
static int fail(struct trace_reader *r, const char *p, const char *fmt, ...)
{
	unsigned long line;
	long col;
	va_list ap;
	where(r, p, &line, &col);
	va_start(ap, fmt);
	fail_lc(r, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 4, 5)))
static int fail_col(struct trace_reader *r, unsigned long line, long col,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_lc(r, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- open / close ---------------------------------------------------- */

static struct trace_reader *reader_new(FILE *f, bool own, const char *name,
				       const char *arch, const char *kernel,
				       char *err, size_t errlen)
{
	struct trace_reader *r = vm_calloc(1, sizeof(*r));
	if (!r)
		goto nomem;
	r->f = f;
	r->own = own;
	r->name = vm_strdup(name ? name : "-");
	r->cap = BLOCK;
	r->buf = vm_malloc(r->cap);
	if (!r->name || !r->buf)
		goto nomem;
	if (arch) {
		if (strlen(arch) >= sizeof(r->arch)) {
			snprintf(err, errlen, "arch name too long: %s", arch);
			goto out;
		}
		strcpy(r->arch, arch);
		r->arch_ovr = true;
	}
	if (kernel) {
		if (strlen(kernel) >= sizeof(r->kernel)) {
			snprintf(err, errlen, "kernel name too long: %s", kernel);
			goto out;
		}
		strcpy(r->kernel, kernel);
		r->kernel_ovr = true;
	}
	return r;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	if (r) {
		free(r->name);
		free(r->buf);
		free(r);
	}
	return NULL;
}

struct trace_reader *trace_open_stream(FILE *f, const char *name,
				       const char *arch, const char *kernel,
				       char *err, size_t errlen)
{
	return reader_new(f, false, name, arch, kernel, err, errlen);
}

struct trace_reader *trace_open(const char *path, const char *arch,
				const char *kernel, char *err, size_t errlen)
{
	if (strcmp(path, "-") == 0)
		return reader_new(stdin, false, "-", arch, kernel, err, errlen);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct trace_reader *r = reader_new(f, true, path, arch, kernel, err, errlen);
	if (!r)
		fclose(f);
	return r;
}

void trace_close(struct trace_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nparts; i++)
		trace_close(r->parts[i].r);
	free(r->parts);
	if (r->own)
		fclose(r->f);
	for (size_t i = 0; i < r->cappend; i++)
		free(r->pend[i].buf);
	free(r->pend);
	free(r->pidx);
	for (size_t i = 0; i < r->nunk; i++)
		free(r->unk[i].name);
	free(r->unk);
	free(r->work);
	free(r->splice);
	free(r->kids);
	free(r->buf);
	free(r->name);
	free(r);
}

const char *trace_error(struct trace_reader *r) { return r->err; }
const char *trace_name(struct trace_reader *r) { return r->name; }

const struct trace_header *trace_header(struct trace_reader *r)
{
	return &r->hdr;
}

size_t trace_unknown_count(struct trace_reader *r) { return r->nunk; }

const char *trace_unknown_name(struct trace_reader *r, size_t i,
			       unsigned long *count)
{
	if (i >= r->nunk)
		return NULL;
	if (count)
		*count = r->unk[i].count;
	return r->unk[i].name;
}

static int count_unknown(struct trace_reader *r, const char *name, size_t len)
{
	if (r->parent)
		r = r->parent; /* a merged log counts in one place */
	for (size_t i = 0; i < r->nunk; i++)
		if (r->unk[i].len == len && memcmp(r->unk[i].name, name, len) == 0) {
			r->unk[i].count++;
			return 0;
		}
	if (r->nunk == r->capunk) {
		size_t nc = r->capunk ? r->capunk * 2 : 16;
		struct unk *u = vm_realloc(r->unk, nc * sizeof(*u));
		if (!u)
			return -1;
		r->unk = u;
		r->capunk = nc;
	}
	char *s = vm_malloc(len + 1);
	if (!s)
		return -1;
	memcpy(s, name, len);
	s[len] = '\0';
	r->unk[r->nunk++] = (struct unk){ s, len, 1 };
	return 0;
}

/* ---- lines ----------------------------------------------------------- */

/* 1 with r->line set, 0 at end of input, -1 on a read error. */
static int next_line(struct trace_reader *r)
{
	for (;;) {
		char *s = r->buf + r->pos;
		size_t avail = r->end - r->pos;
		char *nl = avail ? memchr(s, '\n', avail) : NULL;
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
			break;
		}
		if (r->pos > 0) {
			memmove(r->buf, s, avail);
			r->pos = 0;
			r->end = avail;
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
	}
	r->lineno++;
	r->line[r->len] = '\0';
	if (r->len && r->line[r->len - 1] == '\r')
		r->line[--r->len] = '\0';
	return 1;
}

/* ---- strace's own notices ------------------------------------------- */

static int grow(char **buf, size_t *cap, size_t need);

/* strace -f writing to a terminal prints "strace: Process N attached"
 * (and "... detached") on the same stream, often in the middle of the line
 * of the clone() that created N: the line then goes on on the next line.
 * Only a line ending in " attached" or " detached" is looked at. */
static bool notice_at(const char *line, size_t len, size_t *start)
{
	static const char tag[] = "strace: Process ";
	const size_t tl = sizeof(tag) - 1;
	if (len < tl + 10 || (memcmp(line + len - 9, " attached", 9) != 0 &&
			      memcmp(line + len - 9, " detached", 9) != 0))
		return false;
	size_t i = len - 9;
	while (i > 0 && is_digit(line[i - 1]))
		i--;
	if (i == len - 9 || i < tl || memcmp(line + i - tl, tag, tl) != 0)
		return false;
	*start = i - tl;
	return true;
}

/* Drop the notices of the current line, joining a split line with the
 * next one.  0 go on, 1 the line was only a notice (skip it), -1 error. */
static int strip_notices(struct trace_reader *r)
{
	size_t at;
	bool joined = false;
	while (notice_at(r->line, r->len, &at)) {
		if (!joined && *skip_ws(r->line) == 's' && r->line + at == skip_ws(r->line))
			return 1;
		/* r->line may live in the input block that next_line() moves */
		if (grow(&r->splice, &r->splicecap, at + 1) < 0)
			return fail(r, r->line, "out of memory");
		memmove(r->splice, r->line, at);
		int k = next_line(r);
		if (k < 0)
			return -1;
		size_t more = k ? r->len : 0;
		if (grow(&r->splice, &r->splicecap, at + more + 1) < 0)
			return fail(r, r->line, "out of memory");
		if (more)
			memcpy(r->splice + at, r->line, more);
		r->splice[at + more] = '\0';
		r->line = r->splice;
		r->len = at + more;
		joined = true;
		if (!k)
			break;
	}
	return 0;
}

/* ---- header ---------------------------------------------------------- */

static bool parse_size(const char *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	if (n == 0 || !is_digit(p[0]))
		return false;
	while (i < n && is_digit(p[i])) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(p[i++] - '0');
	}
	unsigned shift = 0;
	if (i < n) {
		switch (p[i]) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		case 't': case 'T': shift = 40; break;
		case 'b': case 'B': shift = 0; i--; break;
		default: return false;
		}
		i++;
		if (i < n && p[i] == 'i')
			i++;
		if (i < n && (p[i] == 'B' || p[i] == 'b'))
			i++;
		if (i != n)
			return false;
	}
	if (shift && v > (UINT64_MAX >> shift))
		return false;
	*out = v << shift;
	return true;
}

bool trace_parse_size(const char *s, uint64_t *out)
{
	return parse_size(s, strlen(s), out);
}

static bool parse_bool(const char *p, size_t n, bool *out)
{
	if (word_is(p, n, "yes") || word_is(p, n, "true") || word_is(p, n, "1"))
		*out = true;
	else if (word_is(p, n, "no") || word_is(p, n, "false") || word_is(p, n, "0"))
		*out = false;
	else
		return false;
	return true;
}

static int header_line(struct trace_reader *r, char *p)
{
	struct trace_header *h = &r->hdr;
	p = skip_ws(p + 1);
	char *key = p;
	while (is_id(*p) || *p == '-')
		p++;
	size_t klen = (size_t)(p - key);
	if (klen == 0 || *p != ':')
		return 0;
	char *v = skip_ws(p + 1);
	size_t n = 0;
	while (v[n] && !is_ws(v[n]))
		n++;
	ctx_plain(r);
#define KEY(s) word_is(key, klen, s)
#define BAD(what) return fail(r, v, "expected %s for '%.*s'", what, (int)klen, key)
	if (KEY("vmsim-trace")) {
		uint64_t x;
		if (!parse_size(v, n, &x) || x != 1)
			BAD("format version 1");
		h->version = 1;
		h->has_version = true;
	} else if (KEY("arch") || KEY("kernel")) {
		char *dst = KEY("arch") ? h->arch : h->kernel;
		if (n == 0 || n >= sizeof(h->arch))
			BAD("a name");
		memcpy(dst, v, n);
		dst[n] = '\0';
		if (KEY("arch")) {
			if (!flagtab_arch_family(dst))
				return fail(r, v, "unknown arch '%s'", dst);
			h->has_arch = true;
		} else {
			if (!semantics_find(dst))
				return fail(r, v, "unknown kernel '%s' (a version such as 6.18.44, or "
					    "4.0 lof-v1 4.4 6.1 6.18)", dst);
			h->has_kernel = true;
		}
	} else if (KEY("page-size")) {
		if (!parse_size(v, n, &h->page_size) || h->page_size == 0 ||
		    (h->page_size & (h->page_size - 1)))
			BAD("a power-of-two size");
		if (h->page_size != 4096)
			return fail(r, v, "page size %.*s is not modelled (only 4096)", (int)n, v);
		h->has_page_size = true;
	} else if (KEY("ram")) {
		/* the model numbers page frames in 32 bits: at most 16 TiB */
		if (!parse_size(v, n, &h->ram) || h->ram < (16u << 20) || h->ram > (16ULL << 40))
			BAD("a size from 16M to 16T");
		h->has_ram = true;
	} else if (KEY("swap")) {
		/* a byte of use count per slot: the model takes up to 64 GiB */
		if (!parse_size(v, n, &h->swap) || h->swap > (64ULL << 30))
			BAD("a size up to 64G (0 = none)");
		h->has_swap = true;
	} else if (KEY("rlimit-memlock")) {
		if (word_is(v, n, "unlimited") || word_is(v, n, "infinity") ||
		    word_is(v, n, "RLIM64_INFINITY") || word_is(v, n, "RLIM_INFINITY"))
			h->rlimit_memlock = RLIM_INFINITY_VALUE;
		else if (!parse_size(v, n, &h->rlimit_memlock))
			BAD("a size or 'unlimited'");
		h->has_rlimit_memlock = true;
	} else if (KEY("cap-ipc-lock")) {
		if (!parse_bool(v, n, &h->cap_ipc_lock))
			BAD("yes or no");
		h->has_cap_ipc_lock = true;
	} else if (KEY("cap-sys-resource")) {
		if (!parse_bool(v, n, &h->cap_sys_resource))
			BAD("yes or no");
		h->has_cap_sys_resource = true;
	} else if (KEY("max-map-count")) {
		if (!parse_size(v, n, &h->max_map_count))
			BAD("a number");
		h->has_max_map_count = true;
	} else if (KEY("read-ahead-kb")) {
		/* a count of kB: no size suffix */
		if (!n || !is_digit(v[n - 1]) || !parse_size(v, n, &h->read_ahead_kb) ||
		    h->read_ahead_kb > (1u << 20))
			BAD("a number of kB up to 1048576");
		h->has_read_ahead_kb = true;
	} else if (KEY("zero-page")) {
		if (!parse_bool(v, n, &h->zero_page))
			BAD("yes or no");
		h->has_zero_page = true;
	} else if (KEY("check-invariants")) {
		if (n == 0 || n >= sizeof(h->check_invariants))
			BAD("invariant names");
		memcpy(h->check_invariants, v, n);
		h->check_invariants[n] = '\0';
		h->has_check_invariants = true;
		where(r, v, &h->check_invariants_line, &h->check_invariants_col);
	} else if (KEY("seed")) {
		char *end;
		if (n == 0 || !is_digit(v[0]))
			BAD("a number");
		errno = 0;
		h->seed = strtoull(v, &end, 0);
		if (errno || end != v + n)
			BAD("a number");
		h->has_seed = true;
	}
#undef KEY
#undef BAD
	return 0;
}

static void finish_header(struct trace_reader *r)
{
	r->hdr_done = true;
	if (!r->arch_ovr)
		strcpy(r->arch, r->hdr.has_arch ? r->hdr.arch : "x86_64");
	if (!r->kernel_ovr)
		strcpy(r->kernel, r->hdr.has_kernel ? r->hdr.kernel : "6.18");
}

/* ---- numbers and arguments ------------------------------------------- */

/* Unsigned number: 0x hex, 0 octal, or decimal.  NULL when there is none;
 * *ovf on overflow. */
static char *scan_u64(char *p, uint64_t *v, bool *ovf)
{
	uint64_t x = 0;
	*ovf = false;
	if (!is_digit(*p))
		return NULL;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		char *q = p + 2;
		for (;; q++) {
			unsigned d;
			if (is_digit(*q))
				d = (unsigned)(*q - '0');
			else if (*q >= 'a' && *q <= 'f')
				d = (unsigned)(*q - 'a' + 10);
			else if (*q >= 'A' && *q <= 'F')
				d = (unsigned)(*q - 'A' + 10);
			else
				break;
			if (x >> 60)
				*ovf = true;
			x = x << 4 | d;
		}
		if (q == p + 2)
			return NULL;
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
	while (is_digit(*p)) {
		unsigned d = (unsigned)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			*ovf = true;
		x = x * 10 + d;
		p++;
	}
	*v = x;
	return p;
}

/* p at the start of a comment: the position after the comment and the blanks after it,
 * or NULL (error set). */
static char *comment_end(struct trace_reader *r, char *p)
{
	char *q = strstr(p + 2, "*/");
	if (!q) {
		fail(r, p, "unterminated comment");
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
static int arg_end(struct trace_reader *r, char *p, char *e)
{
	if (p < e && *p == '<') {
		char *q = annotation_end(p, e);
		if (q)
			p = q;
	}
	p = skip_ws(p);
	if (p < e && p[0] == '/' && p[1] == '*' && (p = comment_end(r, p)) == NULL)
		return -1;
	if (p < e)
		return fail(r, p, "unexpected '%c'; expected ',' or ')'", *p);
	return 0;
}

static int arg_num(struct trace_reader *r, char *s, char *e, uint64_t *v)
{
	char *p = s;
	size_t n = id_len(p);
	if (n) {
		if (word_is(p, n, "NULL"))
			*v = 0;
		else if (word_is(p, n, "AT_FDCWD"))
			*v = (uint64_t)-100;
		else
			return fail(r, p, "expected a number");
		return arg_end(r, p + n, e);
	}
	bool neg = false, ovf;
	if (*p == '-') {
		neg = true;
		p++;
	}
	char *q = scan_u64(p, v, &ovf);
	if (!q)
		return fail(r, s, "expected a number");
	if (ovf)
		return fail(r, s, "number too large");
	if (neg)
		*v = (uint64_t)0 - *v;
	return arg_end(r, q, e);
}

/* Unescape the quoted string at s in place. */
static int arg_str(struct trace_reader *r, char *s, char *e, struct strslice *out)
{
	if (*s != '"')
		return fail(r, s, "expected a string");
	char *p = s + 1, *w = s + 1;
	while (*p != '"') {
		if (*p == '\0')
			return fail(r, s, "unterminated string");
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
				else if (i == 0) return fail(r, esc, "bad escape in string");
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
			return fail(r, esc, "bad escape in string");
		}
	}
	out->p = s + 1;
	out->len = (size_t)(w - (s + 1));
	p++;
	if (p[0] == '.' && p[1] == '.' && p[2] == '.')
		p += 3;
	return arg_end(r, p, e);
}

/* Scan one item up to a top-level ',' or closing bracket (or NUL). */
static char *scan_item(struct trace_reader *r, char *p)
{
	int depth = 0;
	for (;; p++) {
		switch (*p) {
		case '\0':
			return p;
		case '"': {
			char *q = p + 1;
			while (*q && *q != '"') {
				if (*q == '\\' && q[1])
					q++;
				q++;
			}
			if (!*q) {
				fail(r, p, "unterminated string");
				return NULL;
			}
			p = q;
			break;
		}
		case '/':
			if (p[1] == '*') {
				char *q = strstr(p + 2, "*/");
				if (!q) {
					fail(r, p, "unterminated comment");
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

struct argv {
	char *s[MAXARGS], *e[MAXARGS];
	unsigned n;
};

/* p is just after '('; returns the position after the matching ')'. */
static char *split_args(struct trace_reader *r, char *open, struct argv *a)
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
			fail(r, s, "expected an argument");
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
			fail(r, q, "expected ')'");
		else
			fail(r, q, "unexpected '%c'; expected ')'", *q);
		return NULL;
	}
}

/* ---- flags ------------------------------------------------------------ */

/* what: an enum flag_kind (flag tables of the arch/kernel), or one of these */
enum {
	W_OFLAGS = 32, W_FALLOC, W_CLONE, W_ACCESS, W_CAP, W_RLIMIT, W_SIGNAL, W_FADV,
};

#define CAP_ALL ((UINT64_C(1) << 41) - 1)

static const struct flag_table *flag_table(struct trace_reader *r, int kind)
{
	if (!r->ft_done[kind]) {
		r->ft[kind] = systab_flag_table(r->arch, r->kernel, (enum flag_kind)kind);
		r->ft_done[kind] = true;
	}
	return r->ft[kind];
}

/* value of one name; for W_CAP the capability number */
static int flag_name(struct trace_reader *r, int what, char *p, size_t n,
		     uint64_t *v)
{
	switch (what) {
	case W_OFLAGS:
		if (systab_sym(SK_OFLAGS, p, n, v) == 0)
			return 0;
		break;
	case W_FALLOC:
		if (systab_sym(SK_FALLOC, p, n, v) == 0)
			return 0;
		break;
	case W_CLONE:
		if (systab_sym(SK_CLONE, p, n, v) == 0 ||
		    systab_sym(SK_SIGNAL, p, n, v) == 0)
			return 0;
		break;
	case W_FADV:
		if (systab_sym(SK_FADV, p, n, v) == 0)
			return 0;
		return fail(r, p, "unknown advice '%.*s'", (int)n, p);
	case W_SIGNAL:
		if (systab_sym(SK_SIGNAL, p, n, v) == 0)
			return 0;
		return fail(r, p, "unknown signal '%.*s'", (int)n, p);
	case W_ACCESS:
		if (systab_sym(SK_ACCESS, p, n, v) == 0)
			return 0;
		return fail(r, p, "unknown access mode '%.*s'; expected READ, WRITE or EXEC",
			    (int)n, p);
	case W_CAP:
		if (systab_sym(SK_CAP, p, n, v) == 0)
			return 0;
		return fail(r, p, "unknown capability '%.*s'", (int)n, p);
	case W_RLIMIT:
		if (systab_sym(SK_RLIMIT, p, n, v) == 0)
			return 0;
		return fail(r, p, "unknown resource '%.*s'", (int)n, p);
	default: {
		const struct flag_table *t = flag_table(r, what);
		if (!t)
			return fail(r, p, "no %s flag table for %s/%s",
				    flagtab_kind_name((enum flag_kind)what), r->arch,
				    r->kernel);
		if (flagtab_lookup(t, p, n, v) == 0)
			return 0;
		if (what == FK_MMAP && word_is(p, n, "MAP_HUGE_SHIFT")) {
			*v = 26;
			return 0;
		}
		break;
	}
	}
	return fail(r, p, "unknown flag '%.*s' for %s/%s", (int)n, p, r->arch,
		    r->kernel);
}

/* NAME|NAME|0x10, N<<NAME, 1<<CAP_X, (..), ~(..); trailing comment allowed. */
static int arg_flags(struct trace_reader *r, char *s, char *e, int what,
		     uint64_t *out)
{
	uint64_t v = 0;
	char *p = s;
	for (;;) {
		bool compl = false, paren = false, ovf;
		uint64_t piece;
		p = skip_ws(p);
		if (*p == '~') {
			compl = true;
			p = skip_ws(p + 1);
		}
		if (*p == '(') {
			paren = true;
			p = skip_ws(p + 1);
		}
		size_t n = id_len(p);
		if (is_digit(*p)) {
			char *q = scan_u64(p, &piece, &ovf);
			if (!q || ovf)
				return fail(r, p, "expected a number");
			p = q;
			if (p[0] == '<' && p[1] == '<') {
				uint64_t sh;
				p += 2;
				n = id_len(p);
				if (n) {
					if (flag_name(r, what, p, n, &sh) < 0)
						return -1;
					p += n;
				} else {
					q = scan_u64(p, &sh, &ovf);
					if (!q || ovf)
						return fail(r, p, "expected a shift count");
					p = q;
				}
				if (sh >= 64)
					return fail(r, p, "shift count too large");
				piece <<= sh;
			}
		} else if (n) {
			if (flag_name(r, what, p, n, &piece) < 0)
				return -1;
			if (what == W_CAP) {
				if (piece >= 64)
					return fail(r, p, "capability out of range");
				piece = UINT64_C(1) << piece;
			}
			p += n;
		} else {
			return fail(r, p, "expected a flag name or number");
		}
		p = skip_ws(p);
		if (paren) {
			if (*p != ')')
				return fail(r, p, "expected ')'");
			p = skip_ws(p + 1);
		}
		if (compl)
			piece = ~piece & (what == W_CAP ? CAP_ALL : UINT64_MAX);
		v |= piece;
		/* strace names a bit it has no name for: 0x8 followed by a
		 * MAP_??? comment, then |MAP_ANONYMOUS */
		if (p < e && p[0] == '/' && p[1] == '*' && (p = comment_end(r, p)) == NULL)
			return -1;
		if (p < e && *p == '|') {
			p++;
			continue;
		}
		break;
	}
	*out = v;
	return arg_end(r, p, e);
}

/* ---- structs ------------------------------------------------------------ */

typedef int (*field_fn)(struct trace_reader *r, void *ctx, char *key,
			size_t klen, char *vs, char *ve);

/* {key=value, ...} at s; returns the position after '}' in *after. */
static int struct_fields(struct trace_reader *r, char *s, field_fn fn, void *ctx,
			 char **after)
{
	if (*s != '{')
		return fail(r, s, "expected '{'");
	char *p = s + 1;
	for (;;) {
		p = skip_ws(p);
		if (*p == '}')
			break;
		char *key = p;
		size_t kl = id_len(p);
		char *q = scan_item(r, p + kl);
		if (!q)
			return -1;
		char *ve = q;
		while (ve > p && is_ws(ve[-1]))
			ve--;
		if (kl && p[kl] == '=') {
			char *vs = skip_ws(p + kl + 1);
			if (vs == ve)
				return fail(r, vs, "expected a value");
			if (fn(r, ctx, key, kl, vs, ve) < 0)
				return -1;
		}
		/* elements without "key=" ("...", flag words) carry nothing we use */
		if (*q == ',') {
			p = q + 1;
			continue;
		}
		if (*q == '}') {
			p = q;
			break;
		}
		return fail(r, q, *q ? "expected '}'" : "expected '}' before the end of the line");
	}
	*after = p + 1;
	return 0;
}

static int rlim_value(struct trace_reader *r, char *s, char *e, uint64_t *v)
{
	char *p = s;
	uint64_t x = 1;
	for (;;) {
		size_t n = id_len(p);
		uint64_t t;
		bool ovf;
		if (n) {
			if (word_is(p, n, "RLIM64_INFINITY") || word_is(p, n, "RLIM_INFINITY")) {
				*v = RLIM_INFINITY_VALUE;
				return arg_end(r, p + n, e);
			}
			return fail(r, p, "expected a number or RLIM64_INFINITY");
		}
		char *q = scan_u64(p, &t, &ovf);
		if (!q)
			return fail(r, p, "expected a number or RLIM64_INFINITY");
		if (ovf || (t && x > UINT64_MAX / t))
			return fail(r, p, "number too large");
		x *= t;
		p = skip_ws(q);
		if (p < e && *p == '*') {
			p = skip_ws(p + 1);
			continue;
		}
		break;
	}
	*v = x;
	return arg_end(r, p, e);
}

struct rlim_ctx {
	struct event *ev;
	unsigned seen; /* 1 rlim_cur, 2 rlim_max */
};

static int rlim_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
		      char *vs, char *ve)
{
	struct rlim_ctx *c = ctx;
	if (word_is(key, kl, "rlim_cur")) {
		c->seen |= 1;
		return rlim_value(r, vs, ve, &c->ev->rlim_cur);
	}
	if (word_is(key, kl, "rlim_max")) {
		c->seen |= 2;
		return rlim_value(r, vs, ve, &c->ev->rlim_max);
	}
	return fail(r, key, "unexpected '%.*s' in a struct rlimit", (int)kl, key);
}

static int arg_rlim(struct trace_reader *r, char *s, char *e, struct event *ev)
{
	size_t n = id_len(s);
	if (n && word_is(s, n, "NULL"))
		return arg_end(r, s + n, e);
	if (is_digit(*s)) {
		uint64_t addr; /* an address strace could not read: no limit known */
		return arg_num(r, s, e, &addr);
	}
	if (*s != '{')
		return fail(r, s, "expected '{rlim_cur=..., rlim_max=...}' or NULL");
	char *after;
	struct rlim_ctx c = { ev, 0 };
	ev->has_rlim = true;
	if (struct_fields(r, s, rlim_field, &c, &after) < 0)
		return -1;
	if (c.seen != 3)
		return fail(r, s, "expected both rlim_cur and rlim_max in a struct rlimit");
	return arg_end(r, after, e);
}

static int cap_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
		     char *vs, char *ve)
{
	struct event *ev = ctx;
	if (word_is(key, kl, "effective"))
		return arg_flags(r, vs, ve, W_CAP, &ev->cap_effective);
	return 0;
}

struct clone3_ctx {
	uint64_t flags, sig;
};

static int clone3_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
			char *vs, char *ve)
{
	struct clone3_ctx *c = ctx;
	if (word_is(key, kl, "flags"))
		return arg_flags(r, vs, ve, W_CLONE, &c->flags);
	if (word_is(key, kl, "exit_signal"))
		return arg_flags(r, vs, ve, W_SIGNAL, &c->sig);
	return 0;
}

/* ---- per-syscall argument layout ----------------------------------------- */

enum akind {
	K_SKIP, K_NUM, K_STR, K_PROT, K_MMAP, K_MREMAP, K_MADV, K_MSYNC, K_MLOCK2,
	K_MCL, K_OFLAGS, K_FALLOC, K_RES, K_RLIM, K_CAPDATA, K_ACC,
	K_STAT,   /* a stat/statx struct: st_size or stx_size into args[1], args[2] = 1 */
	K_FDPAIR, /* "[3, 4]": args[0], args[1] */
	K_STR2,   /* a second string argument (ev->str2) */
	K_STR3,   /* a third (ev->str3) */
	K_FADV,   /* POSIX_FADV_* */
};

struct aspec {
	unsigned char kind;
	signed char slot;
};

static const struct layout {
	unsigned char min, max, nslots;
	struct aspec a[6];
} layouts[SYS_NR] = {
#define N(s) { K_NUM, s }
	[SYS_MMAP] = { 6, 6, 6, { N(0), N(1), { K_PROT, 2 }, { K_MMAP, 3 }, N(4), N(5) } },
	[SYS_MUNMAP] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_MPROTECT] = { 3, 3, 3, { N(0), N(1), { K_PROT, 2 } } },
	[SYS_MREMAP] = { 4, 5, 4, { N(0), N(1), N(2), { K_MREMAP, 3 }, N(4) } },
	[SYS_MADVISE] = { 3, 3, 3, { N(0), N(1), { K_MADV, 2 } } },
	[SYS_MSYNC] = { 3, 3, 3, { N(0), N(1), { K_MSYNC, 2 } } },
	[SYS_BRK] = { 1, 1, 1, { N(0) } },
	[SYS_MLOCK] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_MLOCK2] = { 3, 3, 3, { N(0), N(1), { K_MLOCK2, 2 } } },
	[SYS_MUNLOCK] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_MLOCKALL] = { 1, 1, 1, { { K_MCL, 0 } } },
	[SYS_MUNLOCKALL] = { 0, 0, 0, { { 0, 0 } } },
	[SYS_FORK] = { 0, 0, 0, { { 0, 0 } } },
	[SYS_VFORK] = { 0, 0, 0, { { 0, 0 } } },
	[SYS_EXECVE] = { 1, 8, 0, { { K_STR, -1 } } },
	[SYS_EXIT] = { 1, 1, 1, { N(0) } },
	[SYS_EXIT_GROUP] = { 1, 1, 1, { N(0) } },
	[SYS_OPENAT] = { 3, 4, 3, { N(0), { K_STR, -1 }, { K_OFLAGS, 2 }, N(3) } },
	[SYS_OPEN] = { 2, 3, 3, { { K_STR, -1 }, { K_OFLAGS, 2 }, N(3) } },
	[SYS_CLOSE] = { 1, 1, 1, { N(0) } },
	[SYS_UNLINK] = { 1, 1, 0, { { K_STR, -1 } } },
	[SYS_FTRUNCATE] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_FALLOCATE] = { 4, 4, 4, { N(0), { K_FALLOC, 1 }, N(2), N(3) } },
	[SYS_READ] = { 3, 3, 3, { N(0), { K_SKIP, -1 }, N(2) } },
	[SYS_WRITE] = { 3, 3, 3, { N(0), { K_SKIP, -1 }, N(2) } },
	[SYS_PREAD64] = { 4, 4, 4, { N(0), { K_SKIP, -1 }, N(2), N(3) } },
	[SYS_PWRITE64] = { 4, 4, 4, { N(0), { K_SKIP, -1 }, N(2), N(3) } },
	[SYS_SETRLIMIT] = { 2, 2, 1, { { K_RES, 0 }, { K_RLIM, -1 } } },
	[SYS_PRLIMIT64] = { 4, 4, 2, { N(0), { K_RES, 1 }, { K_RLIM, -1 }, { K_SKIP, -1 } } },
	[SYS_CAPSET] = { 2, 2, 0, { { K_SKIP, -1 }, { K_CAPDATA, -1 } } },
	[SYS_FAULT] = { 2, 2, 2, { N(0), { K_ACC, 1 } } },
	[SYS_TOUCH] = { 3, 3, 3, { N(0), N(1), { K_ACC, 2 } } },
	[SYS_RECLAIM] = { 1, 1, 1, { N(0) } },
	[SYS_DROP_CACHES] = { 1, 1, 1, { N(0) } },
	[SYS_FSTAT] = { 2, 2, 3, { N(0), { K_STAT, -1 } } },
	[SYS_NEWFSTATAT] = { 4, 4, 3, { N(0), { K_STR, -1 }, { K_STAT, -1 }, { K_SKIP, -1 } } },
	[SYS_STAT] = { 2, 2, 3, { { K_STR, -1 }, { K_STAT, -1 } } },
	[SYS_STATX] = { 5, 5, 3, { N(0), { K_STR, -1 }, { K_SKIP, -1 }, { K_SKIP, -1 },
				     { K_STAT, -1 } } },
	[SYS_DUP] = { 1, 1, 1, { N(0) } },
	[SYS_DUP2] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_DUP3] = { 3, 3, 2, { N(0), N(1), { K_SKIP, -1 } } },
	[SYS_FDNEW] = { 0, 6, 0, { { K_SKIP, -1 }, { K_SKIP, -1 }, { K_SKIP, -1 },
				   { K_SKIP, -1 }, { K_SKIP, -1 }, { K_SKIP, -1 } } },
	[SYS_PIPE] = { 1, 1, 2, { { K_FDPAIR, -1 } } },
	[SYS_PIPE2] = { 2, 2, 2, { { K_FDPAIR, -1 }, { K_SKIP, -1 } } },
	[SYS_SOCKETPAIR] = { 4, 4, 2, { { K_SKIP, -1 }, { K_SKIP, -1 }, { K_SKIP, -1 },
					{ K_FDPAIR, -1 } } },
	[SYS_MEMFD_CREATE] = { 2, 2, 0, { { K_STR, -1 }, { K_SKIP, -1 } } },
	[SYS_INHERIT] = { 1, 3, 0, { { K_STR, -1 }, { K_STR2, -1 }, { K_STR3, -1 } } },
	[SYS_INHERIT_FILE] = { 2, 3, 1, { { K_STR, -1 }, N(0), { K_STR2, -1 } } },
	[SYS_EVICT] = { 3, 3, 2, { { K_STR, -1 }, N(0), N(1) } },
	[SYS_FSYNC] = { 1, 1, 1, { N(0) } },
	[SYS_FADVISE64] = { 4, 4, 4, { N(0), N(1), N(2), { K_FADV, 3 } } },
#undef N
};

static int stat_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
		      char *vs, char *ve)
{
	struct event *ev = ctx;
	if (!word_is(key, kl, "st_size") && !word_is(key, kl, "stx_size"))
		return 0;
	ev->args[2] = 1;
	return arg_num(r, vs, ve, &ev->args[1]);
}

/* A stat buffer as strace prints it: "{st_mode=..., st_size=N, ...}", or
 * an address when the call failed or strace could not read it. */
static int arg_stat(struct trace_reader *r, char *s, char *e, struct event *ev)
{
	if (*s != '{')
		return 0;
	char *after;
	if (struct_fields(r, s, stat_field, ev, &after) < 0)
		return -1;
	return arg_end(r, after, e);
}

/* "[3, 4]" (with -y: "[3<pipe:[77]>, 4<pipe:[77]>]"); an address when the
 * call failed */
static int arg_fdpair(struct trace_reader *r, char *s, char *e, struct event *ev)
{
	if (*s != '[')
		return 0;
	char *p = skip_ws(s + 1);
	for (unsigned i = 0; i < 2; i++) {
		char *q = scan_item(r, p);
		if (!q)
			return -1;
		char *end = q;
		while (end > p && is_ws(end[-1]))
			end--;
		if (arg_num(r, p, end, &ev->args[i]) < 0)
			return -1;
		if (*q != (i ? ']' : ','))
			return fail(r, q, i ? "expected ']'" : "expected ','");
		p = skip_ws(q + 1);
	}
	return arg_end(r, p, e);
}

static int decode_arg(struct trace_reader *r, struct event *ev, unsigned kind,
		      char *s, char *e, uint64_t *v)
{
	switch (kind) {
	case K_SKIP: return 0;
	case K_NUM: return arg_num(r, s, e, v);
	case K_STR: return arg_str(r, s, e, &ev->str);
	case K_PROT: return arg_flags(r, s, e, FK_PROT, v);
	case K_MMAP: return arg_flags(r, s, e, FK_MMAP, v);
	case K_MREMAP: return arg_flags(r, s, e, FK_MREMAP, v);
	case K_MADV: return arg_flags(r, s, e, FK_MADVISE, v);
	case K_MSYNC: return arg_flags(r, s, e, FK_MSYNC, v);
	case K_MLOCK2: return arg_flags(r, s, e, FK_MLOCK2, v);
	case K_MCL: return arg_flags(r, s, e, FK_MLOCKALL, v);
	case K_OFLAGS: return arg_flags(r, s, e, W_OFLAGS, v);
	case K_FALLOC: return arg_flags(r, s, e, W_FALLOC, v);
	case K_RES: return arg_flags(r, s, e, W_RLIMIT, v);
	case K_ACC: return arg_flags(r, s, e, W_ACCESS, v);
	case K_RLIM: return arg_rlim(r, s, e, ev);
	case K_STR2: return arg_str(r, s, e, &ev->str2);
	case K_STR3: return arg_str(r, s, e, &ev->str3);
	case K_FADV: return arg_flags(r, s, e, W_FADV, v);
	case K_STAT: return arg_stat(r, s, e, ev);
	case K_FDPAIR: return arg_fdpair(r, s, e, ev);
	case K_CAPDATA: {
		size_t n = id_len(s);
		char *after;
		if (n && word_is(s, n, "NULL"))
			return arg_end(r, s + n, e);
		if (struct_fields(r, s, cap_field, ev, &after) < 0)
			return -1;
		return arg_end(r, after, e);
	}
	}
	return 0;
}

/* named argument "name=value": the value's start, or NULL */
static char *named(char *s, char *e, const char *name)
{
	size_t n = id_len(s);
	if (n && s + n < e && s[n] == '=' && word_is(s, n, name))
		return s + n + 1;
	return NULL;
}

static int decode_clone(struct trace_reader *r, struct event *ev, struct argv *a)
{
	unsigned lim = a->n < MAXARGS ? a->n : MAXARGS;
	for (unsigned i = 0; i < lim; i++) {
		char *v = named(a->s[i], a->e[i], "flags");
		if (v)
			return arg_flags(r, v, a->e[i], W_CLONE, &ev->args[0]);
	}
	if (lim) {
		size_t n = id_len(a->s[0]);
		if (!(n && a->s[0][n] == '='))
			return arg_flags(r, a->s[0], a->e[0], W_CLONE, &ev->args[0]);
		return fail(r, a->s[0], "expected 'flags=' in clone arguments");
	}
	return fail(r, r->cbase, "expected 'flags=' in clone arguments");
}

static int decode_clone3(struct trace_reader *r, struct event *ev, struct argv *a)
{
	struct clone3_ctx c = { 0, 0 };
	char *after;
	if (a->n < 1)
		return fail(r, r->cbase, "expected clone3 arguments");
	if (struct_fields(r, a->s[0], clone3_field, &c, &after) < 0)
		return -1;
	/* "{...} => {parent_tid=[..]}": the part after => is output */
	after = skip_ws(after);
	if (!(after[0] == '=' && after[1] == '>') && after < a->e[0])
		return arg_end(r, after, a->e[0]);
	ev->args[0] = c.flags | (c.sig & 0xff);
	return 0;
}

/* fcntl(fd, F_DUPFD, N) / F_DUPFD_CLOEXEC make a descriptor; any other
 * command (its argument has many shapes) is FCNTL_OTHER */
static int decode_fcntl(struct trace_reader *r, struct event *ev, struct argv *a)
{
	if (a->n < 2 || a->n > 3)
		return fail(r, a->n ? a->s[0] : r->cbase, "expected 2 or 3 arguments for fcntl");
	ev->nargs = 3;
	if (arg_num(r, a->s[0], a->e[0], &ev->args[0]) < 0)
		return -1;
	size_t n = id_len(a->s[1]);
	bool dupfd = n && word_is(a->s[1], n, "F_DUPFD");
	bool dupcl = n && word_is(a->s[1], n, "F_DUPFD_CLOEXEC");
	ev->args[1] = dupfd ? 0 : dupcl ? 1030 : FCNTL_OTHER;
	if ((dupfd || dupcl) && a->n == 3)
		return arg_num(r, a->s[2], a->e[2], &ev->args[2]);
	return 0;
}

static int decode_args(struct trace_reader *r, struct event *ev, struct argv *a,
		       char *open, bool partial)
{
	enum sysno s = ev->sys;
	if (s == SYS_CLONE) {
		ev->nargs = 1;
		return decode_clone(r, ev, a);
	}
	if (s == SYS_CLONE3) {
		ev->nargs = 1;
		return decode_clone3(r, ev, a);
	}
	if (s == SYS_FCNTL)
		return decode_fcntl(r, ev, a);
	const struct layout *l = &layouts[s];
	const struct aspec *sp = l->a;
	unsigned n = a->n;
	unsigned char min = l->min, max = l->max;
	if (s == SYS_UNLINK && ev->name.len == 8) { /* unlinkat(dirfd, path, flags) */
		static const struct aspec at[3] = { { K_SKIP, -1 }, { K_STR, -1 }, { K_SKIP, -1 } };
		sp = at;
		min = max = 3;
	}
	if ((n < min && !partial) || n > max) {
		char *at = n > max ? a->s[max < MAXARGS ? max : MAXARGS - 1] : open;
		return fail(r, at, "expected %u%s argument%s for %.*s", min,
			    min != max ? " or more" : "", min == 1 ? "" : "s",
			    (int)ev->name.len, ev->name.p);
	}
	ev->nargs = l->nslots;
	if (s == SYS_OPEN || s == SYS_STAT)
		ev->args[0] = (uint64_t)-100;
	for (unsigned i = 0; i < n && i < 6 && i < MAXARGS; i++) {
		uint64_t v = 0;
		if (decode_arg(r, ev, sp[i].kind, a->s[i], a->e[i], &v) < 0)
			return -1;
		if (sp[i].kind != K_SKIP && sp[i].slot >= 0) {
			ev->args[sp[i].slot] = v;
			if ((unsigned)sp[i].slot >= ev->nargs)
				ev->nargs = (unsigned)sp[i].slot + 1;
		}
	}
	return 0;
}

/* ---- results ----------------------------------------------------------- */

/* After a result strace may print an annotation: "(Timeout)", "<0.000036>"
 * (-T), "</dev/shm/x>" (-y), "([{fd=3, revents=POLLIN}])", or an errno name
 * after "?" ("= ? ERESTARTSYS (...)").  Anything else is an error. */
static int result_end(struct trace_reader *r, char *p, bool after_unknown)
{
	if (*p && !is_ws(*p) && *p != '<')
		return fail(r, p, "unexpected '%c' after the result", *p);
	p = skip_ws(p);
	if (!*p || *p == '(' || *p == '<')
		return 0;
	if (after_unknown) {
		size_t n = id_len(p);
		if (n && systab_errno(p, n))
			return 0;
	}
	return fail(r, p, "unexpected '%c' after the result", *p);
}

static int parse_result(struct trace_reader *r, char *p, struct event *ev)
{
	p = skip_ws(p);
	if (*p != '=')
		return fail(r, p, *p ? "expected '='" : "expected '= RESULT'");
	p = skip_ws(p + 1);
	if (*p == '?') {
		ev->res = RES_UNKNOWN;
		char *e = skip_ws(p + 1);
		size_t n = id_len(e);
		int err = n ? systab_errno(e, n) : 0;
		if (err >= 512 && err <= 516) { /* ERESTARTSYS .. ERESTART_RESTARTBLOCK */
			ev->res = RES_RESTART;
			ev->err = err;
		}
		return result_end(r, p + 1, true);
	}
	if (*p == '-' || is_digit(*p)) {
		bool neg = *p == '-', ovf;
		uint64_t v;
		char *q = scan_u64(p + neg, &v, &ovf);
		if (!q)
			return fail(r, p, "expected a number");
		if (ovf)
			return fail(r, p, "number too large");
		if (neg && v == 1) {
			char *e = skip_ws(q);
			size_t n = id_len(e);
			if (n && e[0] == 'E') {
				int err = systab_errno(e, n);
				if (!err)
					return fail(r, e, "unknown errno name '%.*s'", (int)n, e);
				ev->res = RES_ERROR;
				ev->err = err;
				return result_end(r, e + n, false);
			}
		}
		if (neg && v > (uint64_t)INT64_MAX + 1)
			return fail(r, p, "number too large (below -2^63)");
		ev->res = RES_VALUE;
		ev->value = neg ? (int64_t)(0 - v) : (int64_t)v;
		return result_end(r, q, false);
	}
	size_t n = id_len(p);
	if (n && ev->sys == SYS_FAULT) {
		uint64_t v;
		if (systab_sym(SK_FAULTRES, p, n, &v) == 0) {
			ev->res = RES_VALUE;
			ev->value = (int64_t)v;
			return result_end(r, p + n, false);
		}
		return fail(r, p, "expected MINOR, MAJOR, SIGSEGV, SIGBUS or '?'");
	}
	return fail(r, p, "expected a result");
}

/* ---- expect ------------------------------------------------------------- */

/* optional unit after a number: kB, MB, GB, B; sets *mul and *kb */
static char *parse_unit(struct trace_reader *r, char *p, uint64_t *mul, bool *kb,
			bool *bad)
{
	char *q = skip_ws(p);
	size_t n = id_len(q);
	*mul = 1;
	*kb = false;
	*bad = false;
	if (!n)
		return p;
	if (word_is(q, n, "kB") || word_is(q, n, "KB") || word_is(q, n, "KiB") ||
	    word_is(q, n, "k") || word_is(q, n, "K")) {
		*mul = 1024;
		*kb = true;
	} else if (word_is(q, n, "MB") || word_is(q, n, "MiB") || word_is(q, n, "mB")) {
		*mul = 1 << 20;
	} else if (word_is(q, n, "GB") || word_is(q, n, "GiB")) {
		*mul = 1 << 30;
	} else if (word_is(q, n, "B")) {
		*mul = 1;
	} else {
		*bad = true;
		fail(r, q, "unknown unit '%.*s'", (int)n, q);
		return NULL;
	}
	return q + n;
}

static char *scaled_num(struct trace_reader *r, char *p, uint64_t *v, bool *kb)
{
	bool ovf, bad;
	uint64_t mul;
	char *q = scan_u64(p, v, &ovf);
	if (!q) {
		fail(r, p, "expected a number");
		return NULL;
	}
	if (ovf) {
		fail(r, p, "number too large");
		return NULL;
	}
	q = parse_unit(r, q, &mul, kb, &bad);
	if (!q)
		return NULL;
	if (*v > UINT64_MAX / mul) {
		fail(r, p, "number too large");
		return NULL;
	}
	*v *= mul;
	return q;
}

static int expect_kvs(struct trace_reader *r, char *p, struct event *ev, char **after)
{
	struct expect *x = &ev->exp;
	if (*p != '{')
		return fail(r, p, "expected '{' or none");
	p++;
	for (;;) {
		p = skip_ws(p);
		if (*p == '}')
			break;
		size_t kl = id_len(p);
		if (!kl)
			return fail(r, p, "expected a key");
		if (x->nkv >= EXPECT_MAX_KV)
			return fail(r, p, "too many keys (at most %d)", EXPECT_MAX_KV);
		struct expect_kv *kv = &x->kv[x->nkv++];
		unsigned long l;
		long c;
		where(r, p, &l, &c);
		kv->key.p = p;
		kv->key.len = kl;
		kv->col = (int)c;
		kv->num = 0;
		kv->is_num = kv->is_str = false;
		p += kl;
		p = skip_ws(p);
		if (*p != '=')
			return fail(r, p, "expected '='");
		p = skip_ws(p + 1);
		if (*p == '"') {
			char *q = p + 1;
			while (*q && *q != '"') {
				if (*q == '\\' && q[1])
					q++;
				q++;
			}
			if (!*q)
				return fail(r, p, "unterminated string");
			char *e = q + 1;
			if (arg_str(r, p, e, &kv->text) < 0)
				return -1;
			kv->is_str = true;
			p = e;
		} else if (is_digit(*p)) {
			bool kb;
			char *q = scaled_num(r, p, &kv->num, &kb);
			if (!q)
				return -1;
			kv->is_num = true;
			kv->text.p = p;
			kv->text.len = (size_t)(q - p);
			p = q;
		} else if (id_len(p)) {
			size_t n = id_len(p);
			kv->text.p = p;
			kv->text.len = n;
			p += n;
		} else {
			return fail(r, p, "expected a value");
		}
		p = skip_ws(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '}')
			break;
		return fail(r, p, *p ? "expected ',' or '}'" : "expected '}'");
	}
	*after = p + 1;
	return 0;
}

static int parse_expect(struct trace_reader *r, char *open, struct event *ev)
{
	struct argv a;
	struct expect *x = &ev->exp;
	char *p = split_args(r, open, &a);
	if (!p)
		return -1;
	ev->type = EV_EXPECT;
	x->nkv = 0;
	x->none = false;
	x->value = 0;
	x->value_in_kb = false;
	x->addr = x->end = 0;
	x->field.p = NULL;
	x->field.len = 0;
	if (a.n == 0)
		return fail(r, open + 1, "expected a field name or vma, vmas, page");
	size_t n = id_len(a.s[0]);
	if (!n || a.s[0] + n != a.e[0])
		return fail(r, a.s[0], "expected a field name or vma, vmas, page");
	if (word_is(a.s[0], n, "vma") || word_is(a.s[0], n, "page")) {
		x->kind = a.s[0][0] == 'v' ? EXP_VMA : EXP_PAGE;
		if (a.n != 2)
			return fail(r, a.s[0], "expected 'expect(%.*s, ADDR)'", (int)n, a.s[0]);
		if (arg_num(r, a.s[1], a.e[1], &x->addr) < 0)
			return -1;
	} else if (word_is(a.s[0], n, "vmas")) {
		x->kind = EXP_VMAS;
		if (a.n != 3)
			return fail(r, a.s[0], "expected 'expect(vmas, START, END)'");
		if (arg_num(r, a.s[1], a.e[1], &x->addr) < 0 ||
		    arg_num(r, a.s[2], a.e[2], &x->end) < 0)
			return -1;
	} else {
		x->kind = EXP_FIELD;
		if (a.n != 1)
			return fail(r, a.s[1], "expected ')'");
		x->field.p = a.s[0];
		x->field.len = n;
	}
	p = skip_ws(p);
	if (*p != '=')
		return fail(r, p, *p ? "expected '='" : "expected '= VALUE'");
	p = skip_ws(p + 1);
	if (x->kind == EXP_VMA || x->kind == EXP_PAGE) {
		n = id_len(p);
		if (n && word_is(p, n, "none")) {
			x->none = true;
			p += n;
		} else if (expect_kvs(r, p, ev, &p) < 0) {
			return -1;
		}
	} else {
		/* a /proc/PID/status or meminfo size is kept in kB as printed:
		 * the kernel prints any 64-bit count of kB (VmLck after a
		 * locked_vm wrap is 18446744073709551600 kB) */
		bool ovf, bad;
		uint64_t mul;
		char *num = p;
		p = scan_u64(p, &x->value, &ovf);
		if (!p || ovf)
			return fail(r, num, p ? "number too large (more than 2^64-1)" : "expected a number");
		p = parse_unit(r, p, &mul, &x->value_in_kb, &bad);
		if (!p)
			return -1;
		if (x->kind == EXP_VMAS && (x->value_in_kb || mul != 1))
			return fail(r, p, "expected a plain count");
		if (mul > 1024) { /* MB, GB: in kB */
			if (x->value > UINT64_MAX / (mul / 1024))
				return fail(r, num, "number too large");
			x->value *= mul / 1024;
			x->value_in_kb = true;
		}
	}
	p = skip_ws(p);
	if (*p)
		return fail(r, p, "unexpected '%c' at the end of the line", *p);
	return 1;
}

/* ---- events ------------------------------------------------------------- */

static void ev_clear(struct event *ev)
{
	memset(ev, 0, offsetof(struct event, exp));
	ev->exp.nkv = 0;
	ev->signo = 0;
	ev->si_addr = 0;
	ev->has_si_addr = false;
	ev->si_code.p = NULL;
	ev->si_code.len = 0;
	ev->exit_status = 0;
}

/* NAME(ARGS) = RESULT at p.  Returns 1, or -1. */
static int parse_call(struct trace_reader *r, char *p, struct event *ev, bool partial)
{
	size_t n = 0;
	while (is_id(p[n]) || p[n] == '?')
		n++;
	if (n == 0)
		return fail(r, p, *p ? "expected a syscall name" : "expected an event");
	char *open = p + n;
	if (*open != '(')
		return fail(r, open, "expected '('");
	ev->type = EV_CALL;
	ev->name.p = p;
	ev->name.len = n;
	if (n == 6 && memcmp(p, "expect", 6) == 0)
		return parse_expect(r, open, ev);
	ev->sys = systab_lookup(p, n);
	struct argv a;
	char *q = split_args(r, open, &a);
	if (!q)
		return -1;
	ev->args_text.p = open + 1;
	ev->args_text.len = (size_t)(q - 1 - (open + 1));
	if (ev->sys != SYS_UNKNOWN) {
		if (decode_args(r, ev, &a, open, partial) < 0)
			return -1;
	} else if (count_unknown(r, p, n) < 0) {
		return fail(r, p, "out of memory");
	}
	if (parse_result(r, q, ev) < 0)
		return -1;
	return 1;
}

static int sig_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
		     char *vs, char *ve)
{
	struct event *ev = ctx;
	if (word_is(key, kl, "si_code")) {
		ev->si_code.p = vs;
		ev->si_code.len = (size_t)(ve - vs);
		if (is_digit(*vs)) {
			/* -X verbose/raw: "0x1 /" "* SEGV_MAPERR *" "/" or a bare number */
			char *c = strstr(vs, "/*");
			if (c && c < ve) {
				char *nm = skip_ws(c + 2);
				ev->si_code.p = nm;
				ev->si_code.len = id_len(nm);
			} else {
				uint64_t code;
				if (arg_num(r, vs, ve, &code) < 0)
					return -1;
				static const char *const segv[] = { "?", "SEGV_MAPERR", "SEGV_ACCERR" };
				const char *nm = code < 3 ? segv[code] : "?";
				ev->si_code.p = nm;
				ev->si_code.len = strlen(nm);
			}
		}
	} else if (word_is(key, kl, "si_addr")) {
		ev->has_si_addr = true;
		return arg_num(r, vs, ve, &ev->si_addr);
	}
	return 0;
}

static int parse_signal(struct trace_reader *r, char *p, struct event *ev)
{
	p = skip_ws(p + 3);
	if (strncmp(p, "stopped by ", 11) == 0)
		p = skip_ws(p + 11);
	size_t n = id_len(p);
	uint64_t v;
	if (!n)
		return fail(r, p, "expected a signal name");
	if (systab_sym(SK_SIGNAL, p, n, &v) < 0)
		return fail(r, p, "unknown signal '%.*s'", (int)n, p);
	ev->type = EV_SIGNAL;
	ev->signo = (int)v;
	p = skip_ws(p + n);
	if (*p == '{') {
		if (struct_fields(r, p, sig_field, ev, &p) < 0)
			return -1;
		p = skip_ws(p);
	}
	if (strncmp(p, "---", 3) != 0)
		return fail(r, p, "expected '---'");
	p = skip_ws(p + 3);
	if (*p)
		return fail(r, p, "unexpected '%c' at the end of the line", *p);
	return 1;
}

static int parse_exit(struct trace_reader *r, char *p, struct event *ev)
{
	p = skip_ws(p + 3);
	if (strncmp(p, "exited with ", 12) == 0) {
		bool neg, ovf;
		uint64_t v;
		p = skip_ws(p + 12);
		neg = *p == '-';
		char *q = scan_u64(p + neg, &v, &ovf);
		if (!q || ovf || v > INT_MAX)
			return fail(r, p, "expected an exit status");
		ev->type = EV_EXITED;
		ev->exit_status = neg ? -(int)v : (int)v;
		p = skip_ws(q);
	} else if (strncmp(p, "killed by ", 10) == 0) {
		p = skip_ws(p + 10);
		size_t n = id_len(p);
		uint64_t v;
		if (!n)
			return fail(r, p, "expected a signal name");
		if (systab_sym(SK_SIGNAL, p, n, &v) < 0)
			return fail(r, p, "unknown signal '%.*s'", (int)n, p);
		ev->type = EV_KILLED;
		ev->signo = (int)v;
		p = skip_ws(p + n);
		if (strncmp(p, "(core dumped)", 13) == 0)
			p = skip_ws(p + 13);
	} else if (strncmp(p, "superseded by execve", 20) == 0) {
		return 0; /* a note: the thread became the execve's process */
	} else {
		return fail(r, p, "expected 'exited with N' or 'killed by SIGNAL'");
	}
	if (strncmp(p, "+++", 3) != 0)
		return fail(r, p, "expected '+++'");
	p = skip_ws(p + 3);
	if (*p)
		return fail(r, p, "unexpected '%c' at the end of the line", *p);
	return 1;
}

/* ---- unfinished / resumed ---------------------------------------------- */

#define PEND_GONE UINT32_MAX

static size_t pend_slot(size_t cap, int pid)
{
	return ((size_t)(unsigned)pid * 0x9e3779b9u) & (cap - 1);
}

/* the index slot of pid (its entry, or where it would go) */
static size_t pend_lookup(const struct trace_reader *r, int pid, bool *found)
{
	size_t i = pend_slot(r->pidx_cap, pid), free_slot = SIZE_MAX;
	for (;; i = (i + 1) & (r->pidx_cap - 1)) {
		uint32_t v = r->pidx[i];
		if (!v) {
			*found = false;
			return free_slot != SIZE_MAX ? free_slot : i;
		}
		if (v == PEND_GONE) {
			if (free_slot == SIZE_MAX)
				free_slot = i;
		} else if (r->pend[v - 1].pid == pid) {
			*found = true;
			return i;
		}
	}
}

static int pend_rehash(struct trace_reader *r)
{
	size_t nc = r->pidx_cap ? r->pidx_cap * 2 : 64;
	while (nc < 4 * (r->npend + 1))
		nc *= 2;
	uint32_t *n = vm_calloc(nc, sizeof(*n));
	if (!n)
		return -1;
	free(r->pidx);
	r->pidx = n;
	r->pidx_cap = nc;
	r->pidx_used = r->npend;
	for (size_t k = 0; k < r->npend; k++) {
		bool f;
		r->pidx[pend_lookup(r, r->pend[k].pid, &f)] = (uint32_t)k + 1;
	}
	return 0;
}

static struct pend *pend_find(struct trace_reader *r, int pid)
{
	if (!r->npend)
		return NULL;
	bool found;
	size_t i = pend_lookup(r, pid, &found);
	return found ? &r->pend[r->pidx[i] - 1] : NULL;
}

static void pend_remove(struct trace_reader *r, struct pend *pe)
{
	bool found;
	size_t k = (size_t)(pe - r->pend), last = r->npend - 1;
	r->pidx[pend_lookup(r, pe->pid, &found)] = PEND_GONE;
	if (k != last) {
		size_t j = pend_lookup(r, r->pend[last].pid, &found);
		r->pidx[j] = (uint32_t)k + 1;
	}
	struct pend tmp = *pe;
	*pe = r->pend[last];
	r->pend[--r->npend] = tmp; /* keep the buffer for reuse */
}

/* index pend[npend - 1] (just added); -1 out of memory */
static int pend_index_last(struct trace_reader *r)
{
	if ((r->pidx_used + 1) * 2 > r->pidx_cap && pend_rehash(r) < 0)
		return -1;
	bool found;
	size_t i = pend_lookup(r, r->pend[r->npend - 1].pid, &found);
	if (!r->pidx[i])
		r->pidx_used++;
	r->pidx[i] = (uint32_t)r->npend;
	return 0;
}

static int grow(char **buf, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t nc = *cap ? *cap : 256;
	while (nc < need)
		nc *= 2;
	char *b = vm_realloc(*buf, nc);
	if (!b)
		return -1;
	*buf = b;
	*cap = nc;
	return 0;
}

static int pend_append(struct trace_reader *r, struct pend *pe, const char *s,
		       size_t n)
{
	if (grow(&pe->buf, &pe->cap, pe->len + n + 1) < 0)
		return fail(r, s, "out of memory");
	memcpy(pe->buf + pe->len, s, n);
	pe->len += n;
	pe->buf[pe->len] = '\0';
	return 0;
}

static const char unfinished[] = "<unfinished ...>";

/* If the line ends in "<unfinished ...>", the end of the text before it. */
static char *unfinished_at(struct trace_reader *r, char *from)
{
	char *e = r->line + r->len;
	while (e > from && is_ws(e[-1]))
		e--;
	size_t ul = sizeof(unfinished) - 1;
	if ((size_t)(e - from) < ul || memcmp(e - ul, unfinished, ul) != 0)
		return NULL;
	e -= ul;
	if (e > from && e[-1] == ' ')
		e--;
	return e;
}

/* Parse text (in r->work, split at split) as one call. */
static int parse_joined(struct trace_reader *r, struct pend *pe, size_t split,
			unsigned long line2, long col2, struct event *ev, bool partial)
{
	r->cbase = r->work;
	r->csplit = split;
	r->cl1 = pe->line;
	r->cc1 = pe->col0;
	r->cl2 = line2;
	r->cc2 = col2;
	return parse_call(r, r->work, ev, partial);
}

/* Emit the unfinished call of pe as an event with an unknown result
 * (its process ended, or the input did, before it returned). */
static int flush_pending(struct trace_reader *r, struct pend *pe, struct event *ev)
{
	static const char tail[] = ") = ?";
	size_t n = pe->len;
	while (n && (is_ws(pe->buf[n - 1]) || pe->buf[n - 1] == ','))
		n--;
	if (grow(&r->work, &r->workcap, n + sizeof(tail)) < 0)
		return fail_col(r, pe->line, pe->col0, "out of memory");
	memcpy(r->work, pe->buf, n);
	memcpy(r->work + n, tail, sizeof(tail));
	ev_clear(ev);
	ev->pid = pe->pid;
	ev->timestamp = pe->ts;
	ev->line = ev->first_line = pe->line;
	int rc = parse_joined(r, pe, SIZE_MAX, pe->line, pe->col0, ev, true);
	pend_remove(r, pe);
	return rc;
}

static int parse_resumed(struct trace_reader *r, char *p, int pid,
			 struct event *ev)
{
	char *q = skip_ws(p + 4);
	size_t n = id_len(q);
	if (!n)
		return fail(r, q, "expected a syscall name");
	char *name = q;
	q = skip_ws(q + n);
	if (strncmp(q, "resumed>", 8) != 0)
		return fail(r, q, "expected 'resumed>'");
	q += 8;
	struct pend *pe = pend_find(r, pid);
	if (!pe)
		return fail(r, p, "'resumed' without 'unfinished' for pid %d", r->line_pid);
	if (strncmp(pe->buf, name, n) != 0 || pe->buf[n] != '(')
		return fail(r, name, "'%.*s resumed' does not match the unfinished call of pid %d",
			    (int)n, name, r->line_pid);
	char *ue = unfinished_at(r, q);
	if (ue)
		return pend_append(r, pe, q, (size_t)(ue - q)) < 0 ? -1 : 0;
	size_t rest = r->len - (size_t)(q - r->line);
	if (grow(&r->work, &r->workcap, pe->len + rest + 1) < 0)
		return fail(r, q, "out of memory");
	memcpy(r->work, pe->buf, pe->len);
	memcpy(r->work + pe->len, q, rest + 1);
	ev_clear(ev);
	ev->pid = pid;
	ev->timestamp = pe->ts;
	ev->first_line = pe->line;
	ev->line = r->lineno;
	int rc = parse_joined(r, pe, pe->len, r->lineno, (long)(q - r->line) + 1, ev, false);
	pend_remove(r, pe);
	return rc;
}

static int add_pending(struct trace_reader *r, int pid, double ts, char *p, char *e)
{
	if (pend_find(r, pid))
		return fail(r, p, "'unfinished' call while another call of pid %d is unfinished",
			    r->line_pid);
	if (r->npend == r->cappend) {
		size_t nc = r->cappend ? r->cappend * 2 : 8;
		struct pend *np = vm_realloc(r->pend, nc * sizeof(*np));
		if (!np)
			return fail(r, p, "out of memory");
		memset(np + r->cappend, 0, (nc - r->cappend) * sizeof(*np));
		r->pend = np;
		r->cappend = nc;
	}
	struct pend *pe = &r->pend[r->npend++];
	pe->pid = pid;
	pe->line = r->lineno;
	pe->ts = ts;
	pe->col0 = (long)(p - r->line) + 1;
	pe->len = 0;
	size_t n = 0;
	while (is_id(p[n]) || p[n] == '?')
		n++;
	if (n == 0 || p[n] != '(') {
		r->npend--;
		return fail(r, p + n, n ? "expected '('" : "expected a syscall name");
	}
	if (pend_index_last(r) < 0) {
		r->npend--;
		return fail(r, p, "out of memory");
	}
	return pend_append(r, pe, p, (size_t)(e - p)) < 0 ? -1 : 0;
}

/* ---- lines to events ---------------------------------------------------- */

static double pow10_tab[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
			      1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18 };

static char *parse_timestamp(struct trace_reader *r, char *p, double *ts)
{
	char *s = p;
	uint64_t a = 0, sec, frac = 0;
	unsigned nd = 0;
	while (is_digit(*p) && nd < 19) {
		a = a * 10 + (uint64_t)(*p++ - '0');
		nd++;
	}
	if (*p == ':') {
		if (!is_digit(p[1]) || !is_digit(p[2]) || p[3] != ':' ||
		    !is_digit(p[4]) || !is_digit(p[5])) {
			fail(r, s, "expected a timestamp");
			return NULL;
		}
		sec = a * 3600 + (uint64_t)((p[1] - '0') * 10 + (p[2] - '0')) * 60 +
		      (uint64_t)((p[4] - '0') * 10 + (p[5] - '0'));
		p += 6;
	} else if (*p == '.') {
		sec = a;
	} else {
		fail(r, s, "expected a pid or a timestamp");
		return NULL;
	}
	nd = 0;
	r->ts_fraction = *p == '.';
	if (*p == '.') {
		p++;
		while (is_digit(*p)) {
			if (nd < 18) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				nd++;
			}
			p++;
		}
	}
	if (!is_ws(*p)) {
		fail(r, p, "expected ' ' after the timestamp");
		return NULL;
	}
	*ts = (double)sec + (double)frac / pow10_tab[nd];
	return skip_ws(p);
}

/* A fork-like call: its child is a process of its own. */
static bool forks(const char *name)
{
	return !strncmp(name, "clone(", 6) || !strncmp(name, "clone3(", 7) ||
	       !strncmp(name, "fork(", 5) || !strncmp(name, "vfork(", 6);
}

static bool is_kid(const struct trace_reader *r, int pid)
{
	for (size_t i = 0; i < r->nkids; i++)
		if (r->kids[i] == pid)
			return true;
	return false;
}

static int add_kid(struct trace_reader *r, int pid)
{
	if (r->nkids == r->capkids) {
		size_t nc = r->capkids ? 2 * r->capkids : 8;
		int *k = vm_realloc(r->kids, nc * sizeof(*k));
		if (!k)
			return -1;
		r->kids = k;
		r->capkids = nc;
	}
	r->kids[r->nkids++] = pid;
	return 0;
}

/* The pid an event of a "[pid N] " line gets.  In a trace whose lines
 * started without a pid (strace -f to a terminal), the first such pid that
 * is not a child of the first process is the first process: its
 * events keep pid 0, as its unprefixed ones do.  A pid that shows up while
 * the first process's fork-like call has not returned yet is that child,
 * unless its line resumes that very call. */
static int map_pid(struct trace_reader *r, int pid, const char *body, bool *err)
{
	*err = false;
	if (pid == r->first_pid)
		return 0;
	if (r->first_pid || !r->lead_unprefixed || is_kid(r, pid))
		return pid;
	struct pend *pe0 = pend_find(r, 0);
	if (pe0 && forks(pe0->buf)) {
		size_t n = (size_t)(strchr(pe0->buf, '(') - pe0->buf);
		const char *q = skip_ws((char *)body + 4);
		bool resumes = !strncmp(body, "<...", 4) && !strncmp(q, pe0->buf, n) && !is_id(q[n]);
		if (!resumes) {
			*err = add_kid(r, pid) < 0;
			return pid;
		}
	}
	r->first_pid = pid;
	r->nkids = 0;
	return 0;
}

/* 1 event, 0 no event from this line, -1 error */
static int parse_line(struct trace_reader *r, char *p, struct event *ev)
{
	int pid = 0;
	bool prefixed = false, bracketed = false;
	double ts = -1;
	ctx_plain(r);
	if (p[0] == '[' && strncmp(p, "[pid", 4) == 0) {
		p = skip_ws(p + 4);
		if (!is_digit(*p))
			return fail(r, p, "expected a pid");
		long v = 0;
		while (is_digit(*p) && v <= INT_MAX)
			v = v * 10 + (*p++ - '0');
		if (v > INT_MAX)
			return fail(r, p, "pid too large");
		if (*p != ']')
			return fail(r, p, "expected ']'");
		pid = (int)v;
		p = skip_ws(p + 1);
		prefixed = bracketed = true;
	} else if (is_digit(*p)) {
		char *q = p;
		long v = 0;
		while (is_digit(*q) && v <= INT_MAX)
			v = v * 10 + (*q++ - '0');
		if (is_ws(*q)) {
			if (v > INT_MAX)
				return fail(r, p, "pid too large");
			pid = (int)v;
			p = skip_ws(q);
			prefixed = true;
		}
	}
	if (!r->any_event_line) {
		r->any_event_line = true;
		r->lead_unprefixed = !prefixed;
	}
	r->line_pid = pid;
	if (bracketed && r->lead_unprefixed) {
		bool oom;
		pid = map_pid(r, pid, p, &oom);
		if (oom)
			return fail(r, p, "out of memory");
	}
	if (is_digit(*p)) {
		p = parse_timestamp(r, p, &ts);
		if (!p)
			return -1;
	}
	/* strace -n "[  59] " (syscall number), -i "[00007f...] " (ip) */
	while (*p == '[') {
		char *q = p + 1;
		while (*q == ' ')
			q++;
		char *d = q;
		while (is_digit(*q) || (*q >= 'a' && *q <= 'f') || *q == '?')
			q++;
		if (q == d || *q != ']' || !is_ws(q[1]))
			break;
		p = skip_ws(q + 1);
	}
	if (p[0] == '-' && p[1] == '-' && p[2] == '-') {
		ev_clear(ev);
		ev->pid = pid;
		ev->timestamp = ts;
		ev->line = ev->first_line = r->lineno;
		return parse_signal(r, p, ev);
	}
	if (p[0] == '+' && p[1] == '+' && p[2] == '+') {
		struct pend *pe = pend_find(r, pid);
		if (pe) {
			r->reprocess = true;
			return flush_pending(r, pe, ev);
		}
		ev_clear(ev);
		ev->pid = pid;
		ev->timestamp = ts;
		ev->line = ev->first_line = r->lineno;
		return parse_exit(r, p, ev);
	}
	if (p[0] == '<' && strncmp(p, "<...", 4) == 0) {
		int rc = parse_resumed(r, p, pid, ev);
		if (rc > 0 && ts >= 0 && ev->timestamp < 0)
			ev->timestamp = ts;
		return rc;
	}
	char *ue = unfinished_at(r, p);
	if (ue)
		return add_pending(r, pid, ts, p, ue);
	ev_clear(ev);
	ev->pid = pid;
	ev->timestamp = ts;
	ev->line = ev->first_line = r->lineno;
	return parse_call(r, p, ev, false);
}

static int merged_read(struct trace_reader *r, struct event *ev);

int trace_read(struct trace_reader *r, struct event *ev)
{
	if (r->nparts)
		return merged_read(r, ev);
	for (;;) {
		if (!r->reprocess) {
			int k = next_line(r);
			if (k < 0)
				return -1;
			if (k == 0) {
				if (!r->hdr_done)
					finish_header(r);
				if (r->npend) /* calls that never returned */
					return flush_pending(r, &r->pend[0], ev);
				return 0;
			}
			char *nul = memchr(r->line, '\0', r->len);
			if (nul)
				return fail_col(r, r->lineno, (long)(nul - r->line) + 1,
						"NUL byte in line");
			int sk = strip_notices(r);
			if (sk < 0)
				return -1;
			if (sk > 0)
				continue;
		}
		r->reprocess = false;
		char *p = skip_ws(r->line);
		if (*p == '\0')
			continue;
		if (*p == '#') {
			if (!r->hdr_done && header_line(r, p) < 0)
				return -1;
			continue;
		}
		if (p[0] == '>' && is_ws(p[1]))
			continue; /* strace -k: a frame of the call's stack */
		if (!r->hdr_done)
			finish_header(r);
		int rc = parse_line(r, p, ev);
		if (rc > 0 && r->lead_unprefixed && !r->first_pid && ev->type == EV_CALL &&
		    ev->pid == 0 && ev->res == RES_VALUE && ev->value > 0 &&
		    (ev->sys == SYS_FORK || ev->sys == SYS_VFORK || ev->sys == SYS_CLONE ||
		     ev->sys == SYS_CLONE3) && ev->value <= INT_MAX && add_kid(r, (int)ev->value) < 0)
			return fail_col(r, ev->line, 1, "out of memory");
		if (rc != 0)
			return rc;
	}
}

/* ---- strace -ff ---------------------------------------------------------- */

static bool forklike(enum sysno s)
{
	return s == SYS_FORK || s == SYS_VFORK || s == SYS_CLONE || s == SYS_CLONE3;
}

/* The next event of part i, with its pid; -1 on bad input (in r->err). */
static int part_next(struct trace_reader *r, struct ff_part *pt)
{
	int k = trace_read(pt->r, &pt->ev);
	if (k < 0) {
		snprintf(r->err, sizeof(r->err), "%s", pt->r->err);
		return -1;
	}
	pt->have = k > 0;
	pt->done = k == 0;
	if (!pt->have)
		return 0;
	if (pt->ev.pid && pt->ev.pid != pt->pid)
		return fail_col(r, pt->ev.line, 1, "a line of process %d in %s, the file of %d",
				pt->ev.pid, pt->r->name, pt->pid);
	pt->ev.pid = pt->pid;
	if (pt->ev.timestamp < 0 || !pt->r->ts_fraction) {
		snprintf(r->err, sizeof(r->err),
			 "%s:%lu:1: error: strace -ff logs can be merged only by their timestamps: "
			 "record with -tt or -ttt (this line has %s)", pt->r->name, pt->ev.line,
			 pt->ev.timestamp < 0 ? "none" : "whole seconds only");
		return -1;
	}
	return 1;
}

/* The earliest event of a process the merged stream has made known: the
 * root, or a child once its parent's fork-like call was returned (strace
 * may timestamp the child's first call before the parent's clone return). */
static int merged_read(struct trace_reader *r, struct event *ev)
{
	if (r->pending_refill) {
		struct ff_part *pt = &r->parts[r->pending_refill - 1];
		r->pending_refill = 0;
		if (part_next(r, pt) < 0)
			return -1;
	}
	struct ff_part *best = NULL;
	for (size_t i = 0; i < r->nparts; i++) {
		struct ff_part *pt = &r->parts[i];
		if (!pt->have || !pt->announced)
			continue;
		if (!best || pt->ev.timestamp < best->ev.timestamp)
			best = pt;
	}
	if (!best) {
		for (size_t i = 0; i < r->nparts; i++)
			if (r->parts[i].have) {
				snprintf(r->err, sizeof(r->err),
					 "%s: error: no fork-like call in the other files returned pid %d: "
					 "the files cannot be ordered", r->parts[i].r->name, r->parts[i].pid);
				return -1;
			}
		return 0;
	}
	*ev = best->ev;
	ev->src = best->r->name;
	if (ev->type == EV_CALL && forklike(ev->sys) && ev->res == RES_VALUE)
		for (size_t i = 0; i < r->nparts; i++)
			if (r->parts[i].pid == ev->value)
				r->parts[i].announced = true;
	/* the part is read again at the next call: the strings of the event
	 * returned now live in its buffer until then */
	best->have = false;
	r->pending_refill = (size_t)(best - r->parts) + 1;
	return 1;
}

struct trace_reader *trace_open_merged(const char *const *paths, size_t n, const char *arch,
				       const char *kernel, char *err, size_t errlen)
{
	char name[4096];
	size_t pl = strlen(paths[0]) - strlen(strrchr(paths[0], '.'));
	snprintf(name, sizeof(name), "%.*s.*", (int)pl, paths[0]);
	struct trace_reader *r = reader_new(NULL, false, name, arch, kernel, err, errlen);
	if (!r)
		return NULL;
	r->parts = vm_calloc(n, sizeof(*r->parts));
	if (!r->parts) {
		snprintf(err, errlen, "out of memory");
		trace_close(r);
		return NULL;
	}
	int minpid = INT_MAX;
	for (size_t i = 0; i < n; i++) {
		struct ff_part *pt = &r->parts[r->nparts];
		pt->r = trace_open(paths[i], arch, kernel, err, errlen);
		if (!pt->r) {
			trace_close(r);
			return NULL;
		}
		r->nparts++;
		pt->r->parent = r;
		pt->pid = atoi(strrchr(paths[i], '.') + 1);
		if (part_next(r, pt) < 0) {
			snprintf(err, errlen, "%s", r->err);
			trace_close(r);
			return NULL;
		}
		if (pt->pid < minpid)
			minpid = pt->pid;
	}
	/* the root: the lowest pid (the first process strace started) */
	for (size_t i = 0; i < r->nparts; i++)
		r->parts[i].announced = r->parts[i].pid == minpid;
	for (size_t i = 0; i < r->nparts; i++)
		if (r->parts[i].announced)
			r->hdr = r->parts[i].r->hdr;
	r->hdr_done = true;
	return r;
}

bool trace_paths_are_ff(const char *const *paths, size_t n)
{
	if (n < 2)
		return false;
	const char *dot0 = strrchr(paths[0], '.');
	if (!dot0)
		return false;
	size_t pl = (size_t)(dot0 - paths[0]);
	for (size_t i = 0; i < n; i++) {
		const char *d = strrchr(paths[i], '.');
		if (!d || (size_t)(d - paths[i]) != pl || strncmp(paths[i], paths[0], pl) || !d[1])
			return false;
		for (const char *c = d + 1; *c; c++)
			if (!is_digit(*c))
				return false;
	}
	return true;
}
