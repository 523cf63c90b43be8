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
#include "trace_reader.h"
#include "trace_args.h"
#include "trace_header.h"
#include "trace_lex.h"
#include "trace_strace.h"
#include "syscall_table.h"
#include "trace_bin.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif


static int merged_read(struct trace_reader *r, struct event *ev);

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
	/* the form is told by the first bytes, never by the name: the bytes
	 * read stay in buf as the start of a text trace */
	unsigned char h[BIN_HEADER];
	size_t n = f ? fread(h, 1, sizeof(h), f) : 0; /* no file: the reader of merged -ff parts */
	if (n == sizeof(h) && bin_is_magic(h, n)) {
		uint32_t ver, slot;
		if (!bin_header_ok(h, &ver, &slot)) {
			snprintf(err, errlen, "%s: binary trace version %u with %u-byte slots: this vmsim "
				 "reads versions 1 to %u, 32-byte slots", r->name, ver, slot, BIN_VERSION);
			goto out;
		}
		uint32_t fl, z;
		if (!bin_header_flags_ok(h, &fl, &z)) {
			snprintf(err, errlen, "%s: binary trace header with flags %#x and reserved word %#x: this "
				 "vmsim knows flag 0x1 only, and the word is 0", r->name, fl, z);
			goto out;
		}
		r->bin = true;
		r->bin_version = ver;
	} else {
		memcpy(r->buf, h, n);
		r->end = n;
		r->buf[n] = '\0';
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
	return trace_open_as(path, path, arch, kernel, err, errlen);
}

struct trace_reader *trace_open_as(const char *path, const char *name, const char *arch,
				   const char *kernel, char *err, size_t errlen)
{
	if (strcmp(path, "-") == 0)
		return reader_new(stdin, false, "-", arch, kernel, err, errlen);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return NULL;
	}
	struct trace_reader *r = reader_new(f, true, name, arch, kernel, err, errlen);
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
	free(r->seen);
	free(r->forking);
	for (size_t i = 0; i < r->nunk; i++)
		free(r->unk[i].name);
	free(r->unk);
	free(r->work);
	free(r->splice);
	free(r->kids);
	free(r->buf);
	free(r->bin_text);
	free(r->name);
	free(r);
}

const char *trace_error(struct trace_reader *r) { return r->err; }
const char *trace_name(struct trace_reader *r) { return r->name; }
bool trace_truncated(const struct trace_reader *r) { return r->truncated; }
bool trace_incomplete(const struct trace_reader *r) { return r->incomplete; }

/* `# end`, the last line a `# end-mark: yes` trace promises */
static bool is_end_line(const char *p)
{
	if (strncmp(p, "# end", 5))
		return false;
	for (p += 5; *p; p++)
		if (!is_ws(*p) && *p != '\r' && *p != '\n')
			return false;
	return true;
}
const char *trace_flag_names(struct trace_reader *r)
{
	if (r->parent)
		r = r->parent;
	return r->names[0] ? r->names : "strace";
}

const struct trace_header *trace_header(struct trace_reader *r)
{
	return &r->hdr;
}

size_t trace_unknown_count(struct trace_reader *r) { return r->nunk; }
void trace_set_slow(struct trace_reader *r, bool on) { r->slow_only = on; }

/* The hex digits at p (up to end, if not NULL) as a number: *n digits
 * (the value wraps past 16 of them: the callers bound n); their end. */
static const char *hex_digits(const char *p, const char *end, uint64_t *x, int *n)
{
	uint64_t v = 0;
	int k = 0;
	for (; !end || p < end; p++, k++) {
		unsigned d = tr_hex_value1[(unsigned char)*p];
		if (!d)
			break;
		v = v << 4 | (d - 1);
	}
	*x = v;
	*n = k;
	return p;
}

bool trace_peek_addr(const struct trace_reader *r, uint64_t *addr)
{
	if (r->bin)
		return bin_cursor_peek_addr(&r->cur, addr);
	const char *p = r->buf + r->pos, *e = r->buf + r->end;
	if (e - p < 32 || p[5] != '(' || p[6] != '0' || p[7] != 'x' ||
	    (memcmp(p, "touch", 5) && memcmp(p, "fault", 5)))
		return false;
	int n;
	hex_digits(p + 8, p + 8 + 16, addr, &n);
	return n > 0;
}

const char *trace_unknown_name(struct trace_reader *r, size_t i,
			       unsigned long *count)
{
	if (i >= r->nunk)
		return NULL;
	if (count)
		*count = r->unk[i].count;
	return r->unk[i].name;
}



static int parse_line(struct trace_reader *r, char *p, struct event *ev)
{
	int pid = 0;
	bool prefixed = false, bracketed = false;
	double ts = -1;
	tr_ctx_plain(r);
	if (p[0] == '[' && strncmp(p, "[pid", 4) == 0) {
		p = skip_ws(p + 4);
		if (!is_digit(*p))
			return tr_fail(r, p, "expected a pid");
		long v = 0;
		while (is_digit(*p) && v <= INT_MAX)
			v = v * 10 + (*p++ - '0');
		if (v > INT_MAX)
			return tr_fail(r, p, "pid too large");
		if (*p != ']')
			return tr_fail(r, p, "expected ']'");
		pid = (int)v;
		p = skip_ws(p + 1);
		prefixed = bracketed = true;
	} else if (is_digit(*p)) {
		char *q = p;
		long v = 0;
		for (unsigned d; (d = (unsigned)(*q - '0')) < 10 && v <= INT_MAX; q++)
			v = v * 10 + d;
		if (is_ws(*q)) {
			if (v > INT_MAX)
				return tr_fail(r, p, "pid too large");
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
		pid = tr_map_pid(r, pid, p, &oom);
		if (oom)
			return tr_fail(r, p, "out of memory");
	}
	if (is_digit(*p)) {
		/* strace -r pads its seconds to six places ("     0.000123"),
		 * -ttt never: a padded stamp of a line without a pid is -r's */
		bool padded = !prefixed && p > r->line && is_ws(p[-1]);
		p = tr_parse_timestamp(r, p, &ts);
		if (!p)
			return -1;
		if (padded && r->ts_form == 2)
			r->ts_relative = true;
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
	/* a plain strace log: the first line of a process whose parent's
	 * fork is still unfinished */
	if (!r->hdr.has_version && pid > 0) {
		/* 1: the fork first; this line again after it (its pid is seen
		 * now, so the second time asks nothing) */
		int k = tr_fork_returned(r, pid, ev);
		if (k != 0) {
			r->reprocess = k > 0;
			return k;
		}
	}
	if (p[0] == '-' && p[1] == '-' && p[2] == '-') {
		tr_ev_clear(ev);
		ev->pid = pid;
		ev->timestamp = ts;
		ev->line = ev->first_line = r->lineno;
		return tr_parse_signal(r, p, ev);
	}
	if (p[0] == '+' && p[1] == '+' && p[2] == '+') {
		struct pend *pe = tr_pend_find(r, pid);
		if (pe) {
			r->reprocess = true;
			return tr_flush_pending(r, pe, ev);
		}
		tr_ev_clear(ev);
		ev->pid = pid;
		ev->timestamp = ts;
		ev->line = ev->first_line = r->lineno;
		tr_pid_gone(r, pid); /* the kernel may give the pid to a new process */
		return tr_parse_exit(r, p, ev);
	}
	if (p[0] == '<' && strncmp(p, "<...", 4) == 0) {
		int rc = tr_parse_resumed(r, p, pid, ev);
		if (rc > 0 && ts >= 0 && ev->timestamp < 0)
			ev->timestamp = ts;
		return rc;
	}
	char *ue = tr_unfinished_at(r, p);
	if (ue)
		return tr_add_pending(r, pid, ts, p, ue);
	tr_ev_clear(ev);
	ev->pid = pid;
	ev->timestamp = ts;
	ev->line = ev->first_line = r->lineno;
	return tr_parse_call(r, p, ev, false);
}


/* ---- the hot path: touch and fault lines in their canonical form -------- */

/*
 * "touch(ADDR, LEN, MODE) = RESULT" and "fault(ADDR, MODE) = RESULT" with
 * no pid prefix, no timestamp, single blanks, ADDR and LEN as 0x-hex or
 * plain decimal, MODE one of READ WRITE EXEC, RESULT '?' or a decimal (a
 * fault's also MINOR or MAJOR), nothing after it: what vmsim's writer and
 * generators write, millions of times in a benchmark stream.  Decoded in
 * one pass over the line into ev exactly as the general parser would
 * (tests/unit/test_trace_read.c compares the two on generated lines);
 * anything else - and every error - is the general parser's: 0 here.
 */
static bool fast_num(const char **pp, uint64_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;
	int n = 0;
	if (p[0] == '0' && p[1] == 'x') {
		p = hex_digits(p + 2, NULL, &x, &n); /* a NUL ends it */
		if (n == 0 || n > 15)
			return false;
	} else {
		for (; (unsigned)(*p - '0') < 10; p++, n++)
			x = x * 10 + (uint64_t)(*p - '0');
		if (n == 0 || n > 18 || (n > 1 && **pp == '0'))
			return false; /* none, maybe too large, or octal */
	}
	*v = x;
	*pp = p;
	return true;
}

/* Does p start with lit?  Byte by byte, so that a NUL in p stops the
 * comparison there (the bulk decoder reads up to its buffer's sentinel). */
static inline bool starts(const char *p, const char *lit)
{
	for (; *lit; p++, lit++)
		if (*p != *lit)
			return false;
	return true;
}

static bool fast_mode(const char **pp, uint8_t *v)
{
	const char *p = *pp;
	if (starts(p, "READ")) {
		*v = ACC_READ;
		*pp = p + 4;
	} else if (starts(p, "WRITE")) {
		*v = ACC_WRITE;
		*pp = p + 5;
	} else if (starts(p, "EXEC")) {
		*v = ACC_EXEC;
		*pp = p + 4;
	} else {
		return false;
	}
	return true;
}

/* The access line at l (ended by a NUL or a newline) into *a, all but its
 * line number; the byte after its result, or NULL when it is not in the
 * canonical form (then it is the general parser's).  *close: its ')'.
 * Byte by byte: parse_access() takes the common lines 8 bytes at a time. */
static const char *parse_access_bytes(const char *l, struct access_rec *a, const char **close)
{
	bool touch;
	if (starts(l, "touch("))
		touch = true;
	else if (starts(l, "fault("))
		touch = false;
	else
		return NULL;
	const char *p = l + 6;
	a->len = 0;
	if (!fast_num(&p, &a->addr) || p[0] != ',' || p[1] != ' ')
		return NULL;
	p += 2;
	if (touch) {
		if (!fast_num(&p, &a->len) || p[0] != ',' || p[1] != ' ')
			return NULL;
		if (a->addr && a->len > -a->addr)
			return NULL; /* wraps: the general parser says so */
		p += 2;
	}
	if (!fast_mode(&p, &a->mode))
		return NULL;
	*close = p;
	if (p[0] != ')' || p[1] != ' ' || p[2] != '=' || p[3] != ' ')
		return NULL;
	p += 4;
	uint64_t val = 0;
	if (*p == '?') {
		a->res = RES_UNKNOWN;
		p++;
	} else if ((unsigned)(*p - '0') < 10) {
		if (!fast_num(&p, &val) || (p - l > 1 && p[-1] == 'x'))
			return NULL;
		a->res = RES_VALUE;
	} else if (!touch && (starts(p, "MINOR") || starts(p, "MAJOR"))) {
		if (systab_sym(SK_FAULTRES, p, 5, &val))
			return NULL;
		a->res = RES_VALUE;
		p += 5;
	} else {
		return NULL;
	}
	a->value = (int64_t)val;
	a->touch = touch;
	return p;
}

/* ---- the same, a word at a time ------------------------------------------ */

/* The 8 bytes at p as a word, the first byte lowest */
static inline uint64_t word_at(const char *p)
{
	uint64_t w;
	memcpy(&w, p, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* the word of 8 characters, the first lowest (as word_at() reads them) */
#define W8(s) ((uint64_t)(unsigned char)(s)[0] | (uint64_t)(unsigned char)(s)[1] << 8 | \
	       (uint64_t)(unsigned char)(s)[2] << 16 | (uint64_t)(unsigned char)(s)[3] << 24 | \
	       (uint64_t)(unsigned char)(s)[4] << 32 | (uint64_t)(unsigned char)(s)[5] << 40 | \
	       (uint64_t)(unsigned char)(s)[6] << 48 | (uint64_t)(unsigned char)(s)[7] << 56)

#if defined(__SSE2__) && defined(__x86_64__)
/* The hex digits (either case, as tr_hex_value1[]) that begin the 16 bytes at
 * p as a number: *k of them (0-16; at 16 the number may go on, and the
 * value is not given).  SSE2, which every x86-64 has: the 16 bytes are
 * classified, valued and paired in registers, in about 20 instructions. */
static inline uint64_t hex_digits16(const char *p, unsigned *k)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	/* a digit is x - '0' below 10, a letter (x | 0x20) - 'a' below 6:
	 * unsigned, as min(t, limit) == t */
	__m128i d = _mm_sub_epi8(x, _mm_set1_epi8('0'));
	__m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
	__m128i l = _mm_sub_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
	__m128i letter = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(5)), l);
	*k = (unsigned)__builtin_ctz(~(unsigned)_mm_movemask_epi8(_mm_or_si128(digit, letter)));
	if (*k == 0 || *k == 16)
		return 0;
	/* each byte's value, 0 past the digits */
	__m128i v = _mm_or_si128(_mm_and_si128(digit, d),
				 _mm_and_si128(letter, _mm_add_epi8(l, _mm_set1_epi8(10))));
	/* each 16-bit lane holds two digits, the earlier one low: one byte of
	 * both, the earlier in the high nibble; then the 8 bytes, first
	 * digits most significant */
	__m128i pairs = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(v, _mm_set1_epi16(0xff)), 4),
				     _mm_srli_epi16(v, 8));
	uint64_t w = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(pairs, pairs));
	return __builtin_bswap64(w) >> (4 * (16 - *k));
}
#else
#define ONES UINT64_C(0x0101010101010101)

/* The high bit of each byte of w that is above lo and below hi (both
 * below 0x80; a byte from 0x80 up is in no range) */
static inline uint64_t bytes_between(uint64_t w, unsigned lo, unsigned hi)
{
	uint64_t low7 = w & ONES * 127;
	return (ONES * (127 + hi) - low7) & ~w & (low7 + ONES * (127 - lo)) & ONES * 128;
}

/* The hex digits (either case) that begin w as a number: *k of them (0-8) */
static inline uint64_t hex_word(uint64_t w, unsigned *k)
{
	uint64_t hex = bytes_between(w, '0' - 1, '9' + 1) | bytes_between(w, 'a' - 1, 'f' + 1) |
		       bytes_between(w, 'A' - 1, 'F' + 1);
	uint64_t other = ~hex & ONES * 128;
	*k = other ? (unsigned)__builtin_ctzll(other) / 8 : 8;
	if (*k == 0)
		return 0;
	/* each byte's value: its low nibble, and 9 more for a letter (bit 6) */
	uint64_t v = (w & ONES * 15) + 9 * (w >> 6 & ONES);
	if (*k < 8)
		v &= (UINT64_C(1) << (8 * *k)) - 1;
	/* the first byte is the most significant digit: pairs, quads, all */
	v = (v & UINT64_C(0x000f000f000f000f)) << 4 | (v >> 8 & UINT64_C(0x000f000f000f000f));
	v = (v & UINT64_C(0x000000ff000000ff)) << 8 | (v >> 16 & UINT64_C(0x000000ff000000ff));
	v = (v & 0xffff) << 16 | (v >> 32 & 0xffff);
	return v >> (4 * (8 - *k));
}

/* hex_digits16() a word at a time, where there is no SSE2 */
static inline uint64_t hex_digits16(const char *p, unsigned *k)
{
	unsigned k2 = 0;
	uint64_t v = hex_word(word_at(p), k);
	if (*k == 8) {
		uint64_t lo = hex_word(word_at(p + 8), &k2);
		v = k2 == 8 ? 0 : k2 ? v << (4 * k2) | lo : v;
		*k += k2;
	}
	return v;
}
#endif

/* parse_access_bytes() with the record's hit key */
static const char *access_bytes_keyed(const char *l, struct access_rec *a, const char **close)
{
	const char *p = parse_access_bytes(l, a, close);
	if (p)
		a->hit_key = access_hit_key(a);
	return p;
}

/* The access line at l as parse_access_bytes() decodes it, the lines a
 * generator writes ("touch(0x7f12a000, 4096, READ) = ?") a word at a time:
 * the name and "(0x" as one word, the address's hex digits 16 at a time,
 * the usual length and each mode with its ") = " as one comparison.  Any
 * other line - a decimal address, another length or result, a blank
 * more - goes to parse_access_bytes(), so the two decoders cannot
 * differ.  The caller sees that 64 bytes from l on were read in (the
 * words must not pass them): parse_access() does. */
static inline __attribute__((always_inline)) const char *
parse_access_words(const char *l, struct access_rec *a, const char **close)
{
	uint64_t w = word_at(l);
	bool touch = w == W8("touch(0x");
	if (!touch && w != W8("fault(0x"))
		return access_bytes_keyed(l, a, close);
	unsigned k;
	uint64_t addr = hex_digits16(l + 8, &k);
	if (k == 0 || k == 16)
		return access_bytes_keyed(l, a, close); /* none, or 16 digits or more */
	const char *p = l + 8 + k;
	w = word_at(p);
	if (touch && w == W8(", 4096, ")) {
		a->len = 4096;
		p += 8;
	} else if (!touch && (w & 0xffff) == (W8(", xxxxxx") & 0xffff)) {
		a->len = 0;
		p += 2;
	} else {
		return access_bytes_keyed(l, a, close);
	}
	w = word_at(p);
	uint8_t mode;
	if (w == W8("READ) = ")) {
		mode = ACC_READ;
	} else if (w == W8("WRITE) =") && p[8] == ' ') {
		mode = ACC_WRITE;
		p++;
	} else if (w == W8("EXEC) = ")) {
		mode = ACC_EXEC;
	} else {
		return access_bytes_keyed(l, a, close);
	}
	*close = p + 4; /* its ")" */
	p += 8;
	if (*p != '?')
		return access_bytes_keyed(l, a, close);
	a->addr = addr;
	a->mode = mode;
	a->res = RES_UNKNOWN;
	a->value = 0;
	a->touch = touch;
	/* access_hit_key() of what is known here: a touch of 4096 bytes that
	 * is no EXEC is a hit candidate when it starts a page */
	a->hit_key = touch && mode != ACC_EXEC && !(addr & 4095) ?
		addr >> 12 << 1 | (mode == ACC_WRITE) : ACCESS_NOT_HIT;
	return p + 1;
}

static inline __attribute__((always_inline)) const char *
parse_access(const char *l, const char *lim, struct access_rec *a, const char **close)
{
	if (lim - l < 64)
		return access_bytes_keyed(l, a, close);
	return parse_access_words(l, a, close);
}

/* The access line at l with its prefix: "PID " (digits, then blanks) in a
 * trace whose first event line had one, nothing in one whose first line
 * had none (a line of the other kind is the general parser's, as is "[pid
 * N]" or a timestamp).  *open: the name's start. */
static inline __attribute__((always_inline)) const char *
parse_access_line(bool prefixed, const char *l, const char *lim,
		  struct access_rec *a, const char **open, const char **close)
{
	int pid = 0;
	if (prefixed) {
		long v = 0;
		if ((unsigned)(*l - '0') >= 10)
			return NULL;
		while ((unsigned)(*l - '0') < 10 && v <= INT_MAX)
			v = v * 10 + (*l++ - '0');
		if (v > INT_MAX || (*l != ' ' && *l != '\t'))
			return NULL;
		while (*l == ' ' || *l == '\t')
			l++;
		pid = (int)v;
	}
	*open = l;
	const char *p = parse_access(l, lim, a, close);
	if (p)
		a->pid = pid;
	return p;
}

/* The event of an access record: what the general parser makes of its
 * line.  Sets exactly the fields an access event has; every other field
 * of ev must be clear already (as fill_access() leaves them). */
static void set_access(struct event *ev, const struct access_rec *a, struct strslice args)
{
	ev->timestamp = -1;
	ev->line = ev->first_line = a->line;
	ev->pid = a->pid;
	ev->type = EV_CALL;
	ev->sys = a->touch ? SYS_TOUCH : SYS_FAULT;
	ev->name = (struct strslice){ a->touch ? "touch" : "fault", 5 };
	ev->args_text = args;
	ev->args[0] = a->addr;
	if (a->touch) {
		ev->nargs = 3;
		ev->args[1] = a->len;
		ev->args[2] = a->mode;
	} else {
		ev->nargs = 2;
		ev->args[1] = a->mode;
		ev->args[2] = 0;
	}
	ev->res = a->res;
	ev->value = a->res == RES_VALUE ? a->value : 0;
}

void trace_access_event(const struct access_rec *a, struct event *ev)
{
	set_access(ev, a, (struct strslice){ "", 0 });
}

/* The hot path's fill of ev (text line or binary record): after the last
 * fast fill of ev, all but the access fields are still clear. */
static void fill_access(struct trace_reader *r, struct event *ev, const struct event *prev_fast,
			const struct access_rec *a, struct strslice args)
{
	if (prev_fast != ev)
		tr_ev_clear(ev);
	r->fast_ev = ev;
	r->line_pid = a->pid;
	set_access(ev, a, args);
}

/* Whether the hot path may take the next access line: after the first
 * event line (which tells whether lines have pids), not forced slow, not
 * after a `# end` line (the slow path refuses what follows it). */
static bool fast_ok(const struct trace_reader *r)
{
	return !r->slow_only && !r->ended && r->hdr_done && r->any_event_line;
}

static int fast_line(struct trace_reader *r, struct event *ev, const struct event *prev_fast)
{
	if (!fast_ok(r) || r->cold)
		return 0;
	struct access_rec a;
	const char *open, *close;
	/* the bytes readable past the line: the rest read in when the line
	 * lies in the input buffer; a binary record's text (its own buffer)
	 * ends at its NUL */
	const char *lim = r->line >= r->buf && r->line <= r->buf + r->end ? r->buf + r->end
									   : r->line + r->len;
	const char *p = parse_access_line(!r->lead_unprefixed, r->line, lim, &a, &open, &close);
	if (!p || p != r->line + r->len) {
		r->cold = true;
		return 0; /* not canonical, more after the result, or a NUL inside the line */
	}
	a.line = r->lineno;
	fill_access(r, ev, prev_fast, &a, (struct strslice){ open + 6, (size_t)(close - (open + 6)) });
	return 1;
}

static size_t bin_accesses(struct trace_reader *r, struct access_rec *a, size_t max);

size_t trace_read_accesses(struct trace_reader *r, struct access_rec *a, size_t max)
{
	if (r->nparts || r->reprocess || !fast_ok(r) || r->cold)
		return 0;
	if (r->bin)
		return bin_accesses(r, a, max);
	/* the unread bytes [pos, end) end in the NUL that tr_next_line() keeps
	 * after them: a line the block cuts short fails the decoding there */
	const char *b = r->buf;
	size_t pos = r->pos, end = r->end, n = 0;
	/* in locals: the records' byte fields may alias the reader */
	unsigned long line = r->lineno;
	bool prefixed = !r->lead_unprefixed;
	const char *open, *close;
	if (!prefixed) {
		/* a generator's trace, lines without a pid: while 64 bytes are read
		 * in past a line's start, a loop with nothing else to test */
		size_t stop = end >= 64 ? end - 64 : 0;
		while (n < max && pos <= stop) {
			const char *p = parse_access_words(b + pos, &a[n], &close);
			if (!p || *p != '\n')
				break; /* for the loop below to see */
			a[n].pid = 0;
			a[n++].line = ++line;
			pos = (size_t)(p - b) + 1;
		}
	}
	while (n < max && end - pos >= 8) {
		const char *p = parse_access_line(prefixed, b + pos, b + end, &a[n], &open, &close);
		if (!p || (prefixed && n && a[n].pid != a[0].pid))
			break; /* not an access line, or another process's */
		size_t k = (size_t)(p - b);
		if (k < end && b[k] == '\n')
			k++;
		else if (k + 1 < end && b[k] == '\r' && b[k + 1] == '\n')
			k += 2;
		else
			break; /* more on the line, or its newline not yet read */
		a[n++].line = ++line;
		pos = k;
	}
	r->lineno = line;
	r->pos = pos;
	if (n)
		r->line_pid = a[n - 1].pid;
	return n;
}

/* ---- the binary form (trace_bin.h) ----------------------------------------- */

/* the next block's slots into buf: 1, 0 at the end of the input, -1 */
static int bin_block(struct trace_reader *r)
{
	unsigned char h[BIN_BLOCK_HEADER];
	size_t n = fread(h, 1, sizeof(h), r->f);
	unsigned long rec = r->lineno + 1;
	if (n == 0 && !ferror(r->f))
		return 0;
	if (n != sizeof(h)) {
		r->truncated = !ferror(r->f);
		return tr_fail_col(r, rec, 1, "binary trace truncated in a block header (record %lu)",
				   rec);
	}
	uint32_t slots = h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24;
	if (memcmp(h + 4, "VBLK", 4) || !slots || slots > BIN_BLOCK_SLOTS)
		return tr_fail_col(r, rec, 1, "binary trace corrupt: no block header at record %lu",
				   rec);
	size_t bytes = (size_t)slots * BIN_SLOT;
	if (r->cap < bytes) {
		char *b = vm_realloc(r->buf, bytes);
		if (!b)
			return tr_fail_col(r, rec, 1, "out of memory");
		r->buf = b;
		r->cap = bytes;
	}
	if (fread(r->buf, 1, bytes, r->f) != bytes) {
		r->truncated = !ferror(r->f);
		return tr_fail_col(r, rec, 1, "binary trace truncated: the block of records %lu on "
				   "holds %u slots, the input ends before", rec, (unsigned)slots);
	}
	uint64_t sum = 0;
	for (int i = 7; i >= 0; i--)
		sum = sum << 8 | h[8 + i];
	if (bin_checksum((const unsigned char *)r->buf, bytes) != sum)
		return tr_fail_col(r, rec, 1, "binary trace corrupt: the checksum of the block of "
				   "records %lu on does not match", rec);
	bin_cursor_start(&r->cur, r->bin_version, (const unsigned char *)r->buf, slots);
	return 1;
}

/*
 * The next record.  2: a touch or fault record filled ev directly (what
 * fast_line() makes of its text line); 1: r->line holds a line to read
 * as text (a text record, or an access record where the fast path would
 * not take its line); 0 at the end; -1 an error.
 */
static int bin_next(struct trace_reader *r, struct event *ev, const struct event *prev_fast)
{
	struct bin_rec rec;
	const unsigned char *text = NULL;
	int k;
	while ((k = bin_cursor_next(&r->cur, &rec, &text)) == BIN_NEXT_END) {
		int b = bin_block(r);
		if (b <= 0)
			return b;
	}
	unsigned long no = r->lineno + 1;
	if (k == BIN_NEXT_BAD)
		return tr_fail_col(r, no, 1, "binary trace corrupt: record %lu %s", no, r->cur.why);
	if (k == BIN_NEXT_TEXT) {
		if (rec.length + 1 > r->bin_textcap) {
			char *t = vm_realloc(r->bin_text, rec.length + 1);
			if (!t)
				return tr_fail_col(r, no, 1, "out of memory");
			r->bin_text = t;
			r->bin_textcap = rec.length + 1;
		}
		memcpy(r->bin_text, text, rec.length);
		r->line = r->bin_text;
		r->len = rec.length;
	} else {
		bool touch = rec.kind == BIN_TOUCH;
		uint64_t val = rec.value;
		enum res_kind res = RES_VALUE;
		if (rec.result == BIN_RES_UNKNOWN)
			res = RES_UNKNOWN;
		else if (rec.result == BIN_RES_MINOR || rec.result == BIN_RES_MAJOR) {
			if (systab_sym(SK_FAULTRES, rec.result == BIN_RES_MINOR ? "MINOR" : "MAJOR", 5, &val))
				return tr_fail_col(r, no, 1, "binary trace corrupt: record %lu", no);
		}
		/* the fast path's conditions (fast_line()); otherwise the line
		 * goes the way its text would */
		if (fast_ok(r)) {
			struct access_rec a = { 0, rec.addr, rec.size, (int64_t)val, ++r->lineno, 0, touch,
						rec.mode, (uint8_t)res };
			fill_access(r, ev, prev_fast, &a, (struct strslice){ "", 0 });
			return 2;
		}
		r->len = bin_format(&rec, r->bin_line, sizeof(r->bin_line));
		r->line = r->bin_line;
	}
	r->lineno++;
	r->line[r->len] = '\0';
	if (r->len && r->line[r->len - 1] == '\r')
		r->line[--r->len] = '\0';
	return 1;
}

/* trace_read_accesses() of the binary form: the access records that
 * follow in the block already read whose result is a value or '?' (a
 * MINOR/MAJOR, a bad field, a text record or the block's end: bin_next()) */
static size_t bin_accesses(struct trace_reader *r, struct access_rec *a, size_t max)
{
	size_t n = 0;
	struct bin_cursor *c = &r->cur;
	unsigned long line = r->lineno;
	while (n < max) {
		struct bin_rec rec;
		if (c->k < c->n) { /* a run: the hot case */
			uint32_t m = c->n - c->k;
			if (m > max - n)
				m = (uint32_t)(max - n);
			const struct bin_rec *h = &c->run;
			/* the entries' addresses differ by whole pages: one answer
			 * of access_hit_key() for the run */
			struct access_rec x = { 0, h->addr, h->size, (int64_t)h->value, 0, 0, true, h->mode,
						h->result == BIN_RES_UNKNOWN ? RES_UNKNOWN : RES_VALUE };
			/* every key ACCESS_NOT_HIT, or the page's with the write bit */
			uint64_t miss = access_hit_key(&x) == ACCESS_NOT_HIT ? ACCESS_NOT_HIT : 0;
			uint64_t w = h->mode == BIN_WRITE;
			const unsigned char *e = c->ent + 4 * (size_t)c->k;
			bool wrapped = false;
			for (uint32_t i = 0; i < m; i++, e += 4) {
				int32_t d = (int32_t)bin_le32(e);
				x.addr = h->addr + ((uint64_t)(int64_t)d << 12);
				wrapped |= (x.addr < h->addr) != (d < 0) || (x.addr && h->size > -x.addr);
				x.hit_key = (x.addr >> 12 << 1 | w) | miss;
				x.line = ++line;
				a[n++] = x;
			}
			if (wrapped) {
				/* keep those before the first that wrapped (the cursor
				 * steps to it): bin_next() names it */
				uint32_t ok = 0;
				while (bin_cursor_entry(c, &rec) == BIN_NEXT_ACCESS)
					ok++;
				n -= m - ok;
				line -= m - ok;
				break;
			}
			c->k += m;
			continue;
		}
		/* a touch or fault record whose result is a value or '?', straight
		 * from its slot (through a bin_rec the compiler keeps in memory,
		 * for the call below, it cost a fifth more) */
		const unsigned char *s = c->blk + (size_t)c->i * BIN_SLOT;
		if (c->i < c->slots && bin_access_slot_ok(s) && s[2] <= BIN_RES_UNKNOWN) {
			a[n] = (struct access_rec){ 0, bin_le64(s + 8), bin_le64(s + 16), (int64_t)bin_le64(s + 24),
						    ++line, 0, s[0] == BIN_TOUCH, s[1],
						    s[2] == BIN_RES_UNKNOWN ? RES_UNKNOWN : RES_VALUE };
			a[n].hit_key = access_hit_key(&a[n]);
			n++;
			c->i++;
			continue;
		}
		/* any other record through the cursor: a run's first entry is
		 * taken; anything else is left, the cursor put back, for
		 * bin_next() to read */
		unsigned i0 = c->i;
		const unsigned char *text;
		if (bin_cursor_next(c, &rec, &text) != BIN_NEXT_ACCESS || rec.result > BIN_RES_UNKNOWN) {
			c->i = i0;
			c->k = c->n = 0;
			break;
		}
		a[n] = (struct access_rec){ 0, rec.addr, rec.size, (int64_t)rec.value, ++line, 0,
					    rec.kind == BIN_TOUCH, rec.mode,
					    rec.result == BIN_RES_UNKNOWN ? RES_UNKNOWN : RES_VALUE };
		a[n].hit_key = access_hit_key(&a[n]);
		n++;
	}
	r->lineno = line;
	if (n)
		r->line_pid = 0;
	return n;
}

/* a call that makes a process: its value is the child's pid */
static bool forklike(enum sysno s)
{
	return s == SYS_FORK || s == SYS_VFORK || s == SYS_CLONE || s == SYS_CLONE3;
}

int trace_read(struct trace_reader *r, struct event *ev)
{
	if (r->nparts)
		return merged_read(r, ev);
	const struct event *prev_fast = r->fast_ev;
	r->fast_ev = NULL; /* set again only by a fast fill */
	for (;;) {
		if (!r->reprocess) {
			int k = r->bin ? bin_next(r, ev, prev_fast) : tr_next_line(r);
			if (k == 2) {
				r->cold = false; /* an access record of the binary form */
				return 1;
			}
			if (k < 0)
				return -1;
			if (k == 0) {
				if (!r->hdr_done)
					tr_finish_header(r);
				if (r->hdr.end_mark && !r->ended && !r->incomplete) {
					/* vmsim record's trace without its last line */
					r->incomplete = r->truncated = true;
					return tr_fail_col(r, r->lineno + 1, 1,
							   "incomplete: the trace ends without the `# end` line "
							   "its header promises (`# end-mark: yes`): the recorder "
							   "was killed; the events before were replayed");
				}
				while (r->npend) { /* calls that never returned */
					int rc = tr_flush_pending(r, &r->pend[0], ev);
					if (rc)
						return rc;
				}
				return 0;
			}
			if (!r->slow_only && fast_line(r, ev, prev_fast))
				return 1;
			char *nul = r->line_nul;
			if (nul && nul < r->line + r->len)
				return tr_fail_col(r, r->lineno, (long)(nul - r->line) + 1,
						"NUL byte in line");
			int sk = tr_strip_notices(r);
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
			if (!r->hdr_done && tr_header_line(r, p) < 0)
				return -1;
			if (r->hdr_done && r->hdr.end_mark && is_end_line(p))
				r->ended = true;
			continue;
		}
		if (p[0] == '>' && is_ws(p[1]))
			continue; /* strace -k: a frame of the call's stack */
		if (!r->hdr_done)
			tr_finish_header(r);
		if (r->ended)
			return tr_fail_col(r, r->lineno, (long)(p - r->line) + 1,
					   "a line after the trace's `# end` line (`# end-mark: yes`)");
		int rc = parse_line(r, p, ev);
		/* a last line cut short (a full disk, a killed writer) that does
		 * not parse: the trace is truncated, what came before stands */
		if (rc < 0 && r->unterminated)
			r->truncated = true;
		if (rc > 0 && r->lead_unprefixed && !r->first_pid && ev->type == EV_CALL &&
		    ev->pid == 0 && ev->res == RES_VALUE && ev->value > 0 &&
		    forklike(ev->sys) && ev->value <= INT_MAX && tr_add_kid(r, (int)ev->value) < 0)
			return tr_fail_col(r, ev->line, 1, "out of memory");
		/* a plain log: the child a finished fork returned is no child
		 * of a fork still unfinished when its first line comes */
		if (rc > 0 && !r->hdr.has_version && !r->lead_unprefixed && ev->type == EV_CALL &&
		    ev->res == RES_VALUE && ev->value > 0 && ev->value <= INT_MAX &&
		    forklike(ev->sys) && tr_pid_returned(r, (int)ev->value) < 0)
			return -1;
		if (rc > 0 && r->cold)
			r->cold = !(ev->type == EV_CALL && (ev->sys == SYS_TOUCH || ev->sys == SYS_FAULT));
		if (rc != 0)
			return rc;
	}
}

/* ---- strace -ff ---------------------------------------------------------- */

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
		return tr_fail_col(r, pt->ev.line, 1, "a line of process %d in %s, the file of %d",
				pt->ev.pid, pt->r->name, pt->pid);
	pt->ev.pid = pt->pid;
	if (pt->ev.timestamp < 0 || !pt->r->ts_fraction) {
		snprintf(r->err, sizeof(r->err),
			 "%s:%lu:1: error: strace -ff logs can be merged only by their timestamps: "
			 "record with -tt or -ttt (this line has %s)", pt->r->name, pt->ev.line,
			 pt->ev.timestamp < 0 ? "none" : "whole seconds only");
		return -1;
	}
	/* one clock for all the files: -tt's time of day, or -ttt's seconds */
	if (!r->ts_form)
		r->ts_form = pt->r->ts_form;
	if (pt->r->ts_form != r->ts_form) {
		snprintf(r->err, sizeof(r->err),
			 "%s:%lu:1: error: this line's timestamp is %s, the first file's %s: the files of "
			 "one strace -ff recording share one clock", pt->r->name, pt->ev.line,
			 pt->r->ts_form == 1 ? "a time of day (-tt)" : "in seconds (-ttt)",
			 r->ts_form == 1 ? "a time of day (-tt)" : "in seconds (-ttt)");
		return -1;
	}
	if (pt->r->ts_relative) {
		snprintf(r->err, sizeof(r->err),
			 "%s:%lu:1: error: strace -ff logs can be merged only by their timestamps: these "
			 "are relative (-r, the time since the call before); record with -tt or -ttt",
			 pt->r->name, pt->ev.line);
		return -1;
	}
	double t = pt->ev.timestamp;
	if (r->ts_form == 1) {
		/* a time of day wraps at midnight: a file's later line 12 hours
		 * or more before the one above it is a day on; its first line
		 * is placed when its parent's fork returns (place_part()) */
		if (!pt->started)
			pt->day = 0;
		else if (t + 86400.0 * (double)pt->day <= pt->last_abs - 43200.0)
			pt->day++;
		t += 86400.0 * (double)pt->day;
	}
	if (pt->started && t < pt->last_abs) {
		snprintf(r->err, sizeof(r->err),
			 "%s:%lu:1: error: time goes backwards (%.6f after %.6f): the files cannot be "
			 "ordered by time", pt->r->name, pt->ev.line, t, pt->last_abs);
		return -1;
	}
	pt->started = true;
	pt->last_abs = t;
	pt->ev.timestamp = t;
	return 1;
}

/* A time of day (-tt) names no day: the first line of a process's file is
 * placed within 12 hours of ref, the time its parent's fork-like call
 * returned (the root's: its own first line), whatever happened in the
 * files before.  Only that first line has been read. */
static void place_part(struct trace_reader *r, struct ff_part *pt, double ref)
{
	if (r->ts_form != 1 || !pt->have)
		return;
	double t = pt->ev.timestamp;
	double d = (double)(int64_t)((ref - 43200.0 - t) / 86400.0); /* then a step or two */
	while (t + 86400.0 * d < ref - 43200.0)
		d++;
	while (t + 86400.0 * d >= ref + 43200.0)
		d--;
	pt->day = (int64_t)d;
	pt->ev.timestamp = pt->last_abs = t + 86400.0 * d;
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
	r->ts_now = ev->timestamp;
	if (ev->type == EV_EXITED || ev->type == EV_KILLED)
		best->gone = true;
	if (ev->type == EV_CALL && forklike(ev->sys) && ev->res == RES_VALUE)
		for (size_t i = 0; i < r->nparts; i++) {
			struct ff_part *kid = &r->parts[i];
			if (kid->pid != ev->value)
				continue;
			/* a pid that runs already (no exit line of it came): the
			 * files fork in a cycle, or one of them is not this run's */
			if (kid->announced && !kid->gone) {
				snprintf(r->err, sizeof(r->err),
					 "%s:%lu:1: error: a fork-like call returned %d, a process that "
					 "runs already (the files fork in a cycle): they cannot be ordered",
					 best->r->name, ev->line, kid->pid);
				return -1;
			}
			kid->announced = true;
			kid->gone = false; /* a pid used again: the file goes on */
			place_part(r, kid, ev->timestamp);
		}
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
		/* PREFIX.PID: a pid as the lines' are, never taken modulo 2^32 */
		errno = 0;
		char *end;
		unsigned long long v = strtoull(strrchr(paths[i], '.') + 1, &end, 10);
		if (errno || *end || v > INT_MAX) {
			snprintf(err, errlen, "%s: the process id of the file's name is too large", paths[i]);
			trace_close(r);
			return NULL;
		}
		pt->pid = (int)v;
		for (size_t j = 0; j + 1 < r->nparts; j++)
			if (r->parts[j].pid == pt->pid) {
				/* PREFIX.300 and PREFIX.0300: one process, two files */
				snprintf(err, errlen, "%s and %s: two files of process %d", r->parts[j].r->name,
					 paths[i], pt->pid);
				trace_close(r);
				return NULL;
			}
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
		if (r->parts[i].announced) {
			r->hdr = r->parts[i].r->hdr;
			if (r->parts[i].have) {
				r->ts_now = r->parts[i].ev.timestamp;
				place_part(r, &r->parts[i], r->ts_now);
			}
		}
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

