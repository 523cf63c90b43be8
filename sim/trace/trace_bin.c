/*
 * trace_bin.c - binary trace records and blocks (trace_bin.h).
 */
#include "trace_bin.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

void bin_put_slot(unsigned char *s, const struct bin_rec *r)
{
	s[0] = r->kind;
	s[1] = r->mode;
	s[2] = r->result;
	s[3] = 0;
	put32(s + 4, r->length);
	put64(s + 8, r->addr);
	put64(s + 16, r->size);
	put64(s + 24, r->value);
}

static uint64_t rotl(uint64_t x, int k) { return x << k | x >> (64 - k); }

/* Four 64-bit lanes, one per word of a slot, each h = rotl((h ^ w) * P, 31),
 * then folded: independent multiplies, so it keeps up with the reader
 * (a byte-at-a-time FNV-1a took a third of a binary replay). */
uint64_t bin_checksum(const unsigned char *p, size_t n)
{
	const uint64_t P = 0x9e3779b97f4a7c15ULL;
	/* the lanes in four variables, not an array: the compiler kept an
	 * array in memory, each update waiting on the store of the last */
	uint64_t h0 = 0x243f6a8885a308d3ULL, h1 = 0x13198a2e03707344ULL, h2 = 0xa4093822299f31d0ULL,
		 h3 = 0x082efa98ec4e6c89ULL;
	size_t i = 0;
	for (; i + BIN_SLOT <= n; i += BIN_SLOT) {
		h0 = rotl((h0 ^ bin_le64(p + i)) * P, 31);
		h1 = rotl((h1 ^ bin_le64(p + i + 8)) * P, 31);
		h2 = rotl((h2 ^ bin_le64(p + i + 16)) * P, 31);
		h3 = rotl((h3 ^ bin_le64(p + i + 24)) * P, 31);
	}
	const uint64_t h[4] = { h0, h1, h2, h3 };
	uint64_t x = (uint64_t)n;
	for (; i < n; i++) /* a tail shorter than a slot (not in a block) */
		x = (x ^ p[i]) * P;
	for (int k = 0; k < 4; k++)
		x = rotl(x ^ h[k], 27) * P;
	return x ^ (x >> 29);
}

bool bin_is_magic(const unsigned char *p, size_t n)
{
	return n >= 8 && !memcmp(p, BIN_MAGIC, 8);
}

bool bin_header_ok(const unsigned char *h, uint32_t *version, uint32_t *slot)
{
	*version = bin_le32(h + 8);
	*slot = bin_le32(h + 12);
	return *version >= 1 && *version <= BIN_VERSION && *slot == BIN_SLOT;
}

bool bin_header_flags_ok(const unsigned char *h, uint32_t *flags, uint32_t *reserved)
{
	*flags = bin_le32(h + 16);
	*reserved = bin_le32(h + 20);
	return !(*flags & ~BIN_FLAG_NO_FINAL_NL) && !*reserved;
}

static const char *mode_name(unsigned m)
{
	return m == BIN_READ ? "READ" : m == BIN_WRITE ? "WRITE" : m == BIN_EXEC ? "EXEC" : NULL;
}

size_t bin_format(const struct bin_rec *r, char *buf, size_t len)
{
	const char *m = mode_name(r->mode);
	char res[24];
	if (r->result == BIN_RES_UNKNOWN)
		strcpy(res, "?");
	else if (r->result == BIN_RES_MINOR)
		strcpy(res, "MINOR");
	else if (r->result == BIN_RES_MAJOR)
		strcpy(res, "MAJOR");
	else
		snprintf(res, sizeof(res), "%" PRIu64, r->value);
	int n;
	if (r->kind == BIN_TOUCH)
		n = snprintf(buf, len, "touch(%#" PRIx64 ", %" PRIu64 ", %s) = %s", r->addr, r->size,
			     m ? m : "?", res);
	else
		n = snprintf(buf, len, "fault(%#" PRIx64 ", %s) = %s", r->addr, m ? m : "?", res);
	return n < 0 ? 0 : (size_t)n;
}

/* digits at p: hex when hex (after "0x"), else decimal; at most 20 */
static const char *number(const char *p, const char *e, bool hex, uint64_t *v)
{
	uint64_t x = 0;
	const char *s = p;
	for (; p < e && p - s < 20; p++) {
		unsigned c = (unsigned char)*p, d;
		if (c - '0' < 10)
			d = c - '0';
		else if (hex && c - 'a' < 6)
			d = c - 'a' + 10;
		else
			break;
		x = hex ? x << 4 | d : x * 10 + d;
	}
	*v = x;
	return p == s ? NULL : p;
}

bool bin_parse_line(const char *l, size_t len, struct bin_rec *r)
{
	const char *e = l + len, *p;
	memset(r, 0, sizeof(*r));
	if (len < 16 || len > 90)
		return false;
	if (!memcmp(l, "touch(0x", 8))
		r->kind = BIN_TOUCH;
	else if (!memcmp(l, "fault(0x", 8))
		r->kind = BIN_FAULT;
	else
		return false;
	if (!(p = number(l + 8, e, true, &r->addr)) || e - p < 2 || p[0] != ',' || p[1] != ' ')
		return false;
	p += 2;
	if (r->kind == BIN_TOUCH) {
		if (!(p = number(p, e, false, &r->size)) || e - p < 2 || p[0] != ',' || p[1] != ' ')
			return false;
		p += 2;
	}
	static const char *const modes[] = { "READ", "WRITE", "EXEC" };
	static const uint8_t bits[] = { BIN_READ, BIN_WRITE, BIN_EXEC };
	for (int i = 0; i < 3 && !r->mode; i++) {
		size_t n = strlen(modes[i]);
		if ((size_t)(e - p) > n && !memcmp(p, modes[i], n) && p[n] == ')') {
			r->mode = bits[i];
			p += n;
		}
	}
	if (!r->mode || e - p < 5 || memcmp(p, ") = ", 4))
		return false;
	p += 4;
	if (e - p == 1 && *p == '?')
		r->result = BIN_RES_UNKNOWN;
	else if (r->kind == BIN_FAULT && e - p == 5 && !memcmp(p, "MINOR", 5))
		r->result = BIN_RES_MINOR;
	else if (r->kind == BIN_FAULT && e - p == 5 && !memcmp(p, "MAJOR", 5))
		r->result = BIN_RES_MAJOR;
	else if (number(p, e, false, &r->value) != e)
		return false;
	/* canonical only: the line is what bin_format() writes */
	char buf[128];
	size_t n = bin_format(r, buf, sizeof(buf));
	return n == len && !memcmp(buf, l, len);
}

/* ---- reading a block ------------------------------------------------------- */

void bin_cursor_start(struct bin_cursor *c, unsigned version, const unsigned char *blk,
		      unsigned slots)
{
	c->blk = blk;
	c->slots = slots;
	c->i = 0;
	c->version = version;
	c->k = c->n = 0;
	c->why[0] = '\0';
}

static bool mode_ok(unsigned m)
{
	return m == BIN_READ || m == BIN_WRITE || m == BIN_EXEC;
}

int bin_cursor_slot(struct bin_cursor *c, struct bin_rec *rec, const unsigned char **text)
{
	if (c->i >= c->slots)
		return BIN_NEXT_END;
	const unsigned char *s = c->blk + (size_t)c->i * BIN_SLOT;
	bin_get_slot(s, rec);
	size_t left = c->slots - c->i - 1; /* slots after this one */
	if (s[3]) { /* the layout's u8 0 */
		snprintf(c->why, sizeof(c->why), "has reserved byte %u (0 in every slot)", s[3]);
		return BIN_NEXT_BAD;
	}
	switch (rec->kind) {
	case BIN_TEXT:
		if (((size_t)rec->length + BIN_SLOT - 1) / BIN_SLOT > left) {
			snprintf(c->why, sizeof(c->why), "runs past its block");
			return BIN_NEXT_BAD;
		}
		*text = s + BIN_SLOT;
		c->i += 1 + (unsigned)(((size_t)rec->length + BIN_SLOT - 1) / BIN_SLOT);
		return BIN_NEXT_TEXT;
	case BIN_TOUCH:
	case BIN_FAULT:
	case BIN_RUN:
		if (rec->kind == BIN_RUN && c->version < 2)
			break;
		if (!mode_ok(rec->mode)) {
			snprintf(c->why, sizeof(c->why), "has access mode %u", rec->mode);
			return BIN_NEXT_BAD;
		}
		if (rec->result > (rec->kind == BIN_FAULT ? BIN_RES_MAJOR : BIN_RES_UNKNOWN)) {
			snprintf(c->why, sizeof(c->why), "has result kind %u", rec->result);
			return BIN_NEXT_BAD;
		}
		if (rec->kind == BIN_TOUCH && rec->addr && rec->size > -rec->addr) {
			snprintf(c->why, sizeof(c->why), "is a touch range that wraps past 2^64");
			return BIN_NEXT_BAD;
		}
		if (rec->kind != BIN_RUN) {
			c->i++;
			return BIN_NEXT_ACCESS;
		}
		/* in 64 bits: a length near 2^32 must not wrap the slot count */
		if (!rec->length || rec->length > BIN_RUN_MAX ||
		    ((uint64_t)rec->length + BIN_RUN_ENTRIES - 1) / BIN_RUN_ENTRIES > left) {
			snprintf(c->why, sizeof(c->why), !rec->length ? "is a run of no touches"
				 : rec->length > BIN_RUN_MAX ? "is a run longer than a block holds"
				 : "runs past its block");
			return BIN_NEXT_BAD;
		}
		c->run = *rec;
		c->run.kind = BIN_TOUCH;
		c->run.length = 0;
		c->ent = s + BIN_SLOT;
		c->k = 0;
		c->n = rec->length;
		c->i += 1 + (rec->length + BIN_RUN_ENTRIES - 1) / BIN_RUN_ENTRIES;
		return bin_cursor_entry(c, rec);
	default:
		break;
	}
	snprintf(c->why, sizeof(c->why), "has kind %u", rec->kind);
	return BIN_NEXT_BAD;
}

bool bin_cursor_peek_addr(const struct bin_cursor *c, uint64_t *addr)
{
	struct bin_cursor t = *c;
	struct bin_rec rec;
	const unsigned char *text;
	if (bin_cursor_next(&t, &rec, &text) != BIN_NEXT_ACCESS)
		return false;
	*addr = rec.addr;
	return true;
}

/* ---- writing ------------------------------------------------------------- */

bool bin_writer_open(struct bin_writer *w, FILE *f, uint32_t flags)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->buf = vm_malloc((size_t)BIN_BLOCK_SLOTS * BIN_SLOT);
	w->ent = vm_malloc(BIN_RUN_MAX * sizeof(*w->ent));
	if (!w->buf || !w->ent) {
		free(w->buf);
		free(w->ent);
		w->buf = NULL;
		w->ent = NULL;
		return false;
	}
	unsigned char h[BIN_HEADER] = { 0 };
	memcpy(h, BIN_MAGIC, 8);
	put32(h + 8, BIN_VERSION);
	put32(h + 12, BIN_SLOT);
	put32(h + 16, flags);
	if (fwrite(h, 1, sizeof(h), f) != sizeof(h))
		w->error = true;
	return !w->error;
}

static bool flush_block(struct bin_writer *w)
{
	if (!w->n)
		return !w->error;
	unsigned char h[BIN_BLOCK_HEADER];
	size_t bytes = (size_t)w->n * BIN_SLOT;
	put32(h, w->n);
	memcpy(h + 4, "VBLK", 4);
	put64(h + 8, bin_checksum(w->buf, bytes));
	if (fwrite(h, 1, sizeof(h), w->f) != sizeof(h) || fwrite(w->buf, 1, bytes, w->f) != bytes)
		w->error = true;
	w->n = 0;
	return !w->error;
}

static bool put_rec(struct bin_writer *w, const struct bin_rec *rec)
{
	if (w->n == BIN_BLOCK_SLOTS && !flush_block(w))
		return false;
	bin_put_slot(w->buf + (size_t)w->n++ * BIN_SLOT, rec);
	return !w->error;
}

/* The run gathered so far into the block: one record of kind 1 when it
 * holds one touch, else a run record and its entries. */
static bool flush_run(struct bin_writer *w)
{
	uint32_t n = w->nrun;
	if (!n)
		return !w->error;
	w->nrun = 0;
	if (n == 1)
		return put_rec(w, &w->run);
	unsigned slots = 1 + (n + BIN_RUN_ENTRIES - 1) / BIN_RUN_ENTRIES;
	if (w->n + slots > BIN_BLOCK_SLOTS && !flush_block(w))
		return false;
	struct bin_rec h = w->run;
	h.kind = BIN_RUN;
	h.length = n;
	unsigned char *s = w->buf + (size_t)w->n * BIN_SLOT;
	bin_put_slot(s, &h);
	memset(s + BIN_SLOT, 0, (size_t)(slots - 1) * BIN_SLOT);
	for (uint32_t i = 0; i < n; i++)
		put32(s + BIN_SLOT + 4 * (size_t)i, (uint32_t)w->ent[i]);
	w->n += slots;
	return !w->error;
}

/* The entry that puts rec in the run (false: it does not belong there). */
static bool run_entry(const struct bin_writer *w, const struct bin_rec *rec, int32_t *e)
{
	const struct bin_rec *r = &w->run;
	if (rec->kind != BIN_TOUCH || rec->mode != r->mode || rec->result != r->result ||
	    rec->size != r->size || rec->value != r->value || (rec->addr - r->addr) & 4095)
		return false;
	bool down = rec->addr < r->addr;
	uint64_t d = (down ? r->addr - rec->addr : rec->addr - r->addr) >> 12;
	if (d > (down ? (uint64_t)1 << 31 : ((uint64_t)1 << 31) - 1))
		return false;
	*e = down ? (int32_t)-(int64_t)d : (int32_t)d;
	return true;
}

bool bin_write_rec(struct bin_writer *w, const struct bin_rec *rec)
{
	int32_t e;
	if (w->nrun && w->nrun < BIN_RUN_MAX && run_entry(w, rec, &e)) {
		w->ent[w->nrun++] = e;
		return !w->error;
	}
	if (!flush_run(w))
		return false;
	if (rec->kind != BIN_TOUCH || rec->result > BIN_RES_UNKNOWN)
		return put_rec(w, rec);
	w->run = *rec; /* a run of one so far */
	w->ent[0] = 0;
	w->nrun = 1;
	return !w->error;
}

bool bin_write_text(struct bin_writer *w, const char *line, size_t len)
{
	if (!flush_run(w))
		return false;
	size_t slots = 1 + (len + BIN_SLOT - 1) / BIN_SLOT;
	if (slots > BIN_BLOCK_SLOTS || len > UINT32_MAX)
		return false; /* a line over 131,040 bytes: the caller says so */
	if (w->n + slots > BIN_BLOCK_SLOTS && !flush_block(w))
		return false;
	struct bin_rec r = { .kind = BIN_TEXT, .length = (uint32_t)len };
	unsigned char *s = w->buf + (size_t)w->n * BIN_SLOT;
	bin_put_slot(s, &r);
	memset(s + BIN_SLOT, 0, (slots - 1) * BIN_SLOT);
	if (len)
		memcpy(s + BIN_SLOT, line, len);
	w->n += (unsigned)slots;
	return !w->error;
}

bool bin_writer_close(struct bin_writer *w)
{
	bool ok = flush_run(w) && flush_block(w);
	free(w->buf);
	free(w->ent);
	w->buf = NULL;
	w->ent = NULL;
	return ok && fflush(w->f) == 0;
}
