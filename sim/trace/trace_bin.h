/*
 * trace_bin.h - the binary form of a trace (docs/trace-format.md, "The
 * binary form"): the same lines as the text form, the common access lines
 * (`touch`, `fault` in their canonical text) as fixed 32-byte records and
 * every other line as a text record, in blocks that each carry a checksum;
 * from version 2 a run of page touches alike but for their addresses as
 * one record of 4 bytes a touch.
 *
 *   file   := header block*
 *   header := "vmsim-bt" u32 version (2; 1 is read) u32 slot size (32) u32 flags u32 0
 *             (flags bit 0: the text's last line had no newline)
 *   block  := u32 slots (1..BIN_BLOCK_SLOTS) u32 "VBLK" u64 checksum(payload)
 *             payload: slots x 32 bytes
 *   slot   := u8 kind u8 mode u8 result u8 0 u32 length u64 addr u64 size u64 value
 *             kind 1 touch(addr, size, MODE) = value | ?     (result 0 value, 1 ?)
 *             kind 2 fault(addr, MODE) = value | ? | MINOR | MAJOR (result 0, 1, 2, 3)
 *             kind 3 a text line of `length` bytes in the ceil(length / 32) slots
 *                    that follow (zero padded)
 *             kind 4 (version 2) `length` touch records (result 0 value, 1 ?):
 *                    the i32 entries in the ceil(length / 8) slots that follow
 *                    (zero padded), entry e the line
 *                    touch(addr + 4096 e, size, MODE) = value | ?
 *
 * All numbers little-endian.  One record (a slot of kind 1 or 2, a text
 * record with its continuation slots, an entry of a run) is one line of the text form, so
 * record N is line N and messages name it as such.  A line becomes a
 * record of kind 1 or 2 only when it is the canonical text of that record
 * (bin_format() gives it back byte for byte), so text -> binary -> text is
 * the identity.
 *
 * Owns: the binary record and block layout, encoding and decoding.
 * May call: nothing.
 */
#ifndef VMSIM_TRACE_BIN_H
#define VMSIM_TRACE_BIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BIN_MAGIC "vmsim-bt"
#define BIN_HEADER 24
#define BIN_SLOT 32
#define BIN_BLOCK_HEADER 16
#define BIN_BLOCK_SLOTS 4096
#define BIN_FLAG_NO_FINAL_NL 1u
#define BIN_VERSION 2          /* what the writer writes; 1 is read too */
#define BIN_RUN_ENTRIES 8      /* i32 entries a slot */
#define BIN_RUN_MAX (1023 * BIN_RUN_ENTRIES) /* a run takes 1,024 slots at most */

enum bin_kind { BIN_TOUCH = 1, BIN_FAULT = 2, BIN_TEXT = 3, BIN_RUN = 4 };
enum bin_result { BIN_RES_VALUE, BIN_RES_UNKNOWN, BIN_RES_MINOR, BIN_RES_MAJOR };

struct bin_rec {
	uint8_t kind, mode, result;
	uint32_t length;
	uint64_t addr, size, value;
};

/* Access modes as the text names them (READ 1, WRITE 2, EXEC 4). */
#define BIN_READ 1
#define BIN_WRITE 2
#define BIN_EXEC 4

/* Is the line (without its newline) the canonical text of a touch or
 * fault record?  Then *rec holds it. */
bool bin_parse_line(const char *line, size_t len, struct bin_rec *rec);
/* The canonical text of a touch or fault record into buf (NUL-terminated,
 * at least 96 bytes); its length. */
size_t bin_format(const struct bin_rec *rec, char *buf, size_t len);

void bin_put_slot(unsigned char *slot, const struct bin_rec *rec);

/* little-endian loads (inline: the reader decodes millions of slots) */
static inline uint32_t bin_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t bin_le64(const unsigned char *p)
{
	return (uint64_t)bin_le32(p) | (uint64_t)bin_le32(p + 4) << 32;
}
static inline void bin_get_slot(const unsigned char *s, struct bin_rec *r)
{
	r->kind = s[0];
	r->mode = s[1];
	r->result = s[2];
	r->length = bin_le32(s + 4);
	r->addr = bin_le64(s + 8);
	r->size = bin_le64(s + 16);
	r->value = bin_le64(s + 24);
}
uint64_t bin_checksum(const unsigned char *p, size_t n);

/* Is p (n bytes) the start of a binary trace? */
bool bin_is_magic(const unsigned char *p, size_t n);
/* The version and slot size a header (BIN_HEADER bytes) gives; whether
 * this vmsim reads them (versions 1 to BIN_VERSION, BIN_SLOT-byte slots). */
bool bin_header_ok(const unsigned char *h, uint32_t *version, uint32_t *slot);
/* The header's flags know no bit but BIN_FLAG_NO_FINAL_NL and its last
 * word is 0 (flags and that word are given back for the message). */
bool bin_header_flags_ok(const unsigned char *h, uint32_t *flags, uint32_t *reserved);

/*
 * Reading one block's records in order.  bin_cursor_next(): BIN_NEXT_ACCESS
 * a touch or fault record in *rec (kind 1 or 2, its mode and result kind
 * valid: a run's entries come as kind 1); BIN_NEXT_TEXT a text record,
 * its bytes in *text and rec->length; BIN_NEXT_END the block is read;
 * BIN_NEXT_BAD the record is corrupt, what is wrong with it in c->why
 * ("has kind 9"), the record it names the one the call would have read.
 */
enum bin_next { BIN_NEXT_END, BIN_NEXT_ACCESS, BIN_NEXT_TEXT, BIN_NEXT_BAD };
struct bin_cursor {
	const unsigned char *blk;
	unsigned slots, i;        /* the block's slots, the next one */
	unsigned version;
	struct bin_rec run;       /* a run being read: its header, */
	const unsigned char *ent; /* its entries, */
	uint32_t k, n;            /* the next of n */
	char why[64];
};
void bin_cursor_start(struct bin_cursor *c, unsigned version, const unsigned char *blk,
		      unsigned slots);
int bin_cursor_slot(struct bin_cursor *c, struct bin_rec *rec, const unsigned char **text);
/* The next entry of a run (the caller saw c->k < c->n). */
static inline int bin_cursor_entry(struct bin_cursor *c, struct bin_rec *rec)
{
	int32_t e = (int32_t)bin_le32(c->ent + 4 * (size_t)c->k);
	uint64_t a = c->run.addr + ((uint64_t)(int64_t)e << 12);
	if ((a < c->run.addr) != (e < 0)) { /* wrapped: e's page is not there */
		snprintf(c->why, sizeof(c->why), "has an address past 2^64");
		return BIN_NEXT_BAD;
	}
	if (a && c->run.size > -a) { /* as the text's touch() refuses it */
		snprintf(c->why, sizeof(c->why), "is a touch range that wraps past 2^64");
		return BIN_NEXT_BAD;
	}
	*rec = c->run;
	rec->addr = a;
	c->k++;
	return BIN_NEXT_ACCESS;
}
/* Is slot s a touch or fault record with a valid mode and result kind? */
static inline bool bin_access_slot_ok(const unsigned char *s)
{
	uint64_t a = bin_le64(s + 8), size = bin_le64(s + 16);
	return (s[0] == BIN_TOUCH || s[0] == BIN_FAULT) && !s[3] &&
	       (s[1] == BIN_READ || s[1] == BIN_WRITE || s[1] == BIN_EXEC) &&
	       s[2] <= (s[0] == BIN_FAULT ? BIN_RES_MAJOR : BIN_RES_UNKNOWN) &&
	       !(s[0] == BIN_TOUCH && a && size > -a);
}
/* Inline: a run's entries and the touch and fault records; the rest, and
 * every error, bin_cursor_slot() */
static inline int bin_cursor_next(struct bin_cursor *c, struct bin_rec *rec,
				  const unsigned char **text)
{
	if (c->k < c->n)
		return bin_cursor_entry(c, rec);
	if (c->i < c->slots && bin_access_slot_ok(c->blk + (size_t)c->i * BIN_SLOT)) {
		bin_get_slot(c->blk + (size_t)c->i++ * BIN_SLOT, rec);
		return BIN_NEXT_ACCESS;
	}
	return bin_cursor_slot(c, rec, text);
}
/* The address of the next record if it is an access (false otherwise). */
bool bin_cursor_peek_addr(const struct bin_cursor *c, uint64_t *addr);

/* Writing: records go to blocks of BIN_BLOCK_SLOTS slots; touch records
 * alike but for their addresses gather in a run. */
struct bin_writer {
	FILE *f;
	unsigned char *buf;   /* BIN_BLOCK_SLOTS slots */
	unsigned n;           /* slots used */
	bool error;
	struct bin_rec run;   /* the run being gathered: its first record, */
	int32_t *ent;         /* its entries (BIN_RUN_MAX), */
	uint32_t nrun;        /* how many */
};
/* false: out of memory or a write error */
bool bin_writer_open(struct bin_writer *w, FILE *f, uint32_t flags);
bool bin_write_rec(struct bin_writer *w, const struct bin_rec *rec);
bool bin_write_text(struct bin_writer *w, const char *line, size_t len);
/* flush the last block; false on a write error */
bool bin_writer_close(struct bin_writer *w);

#endif
