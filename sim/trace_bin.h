/*
 * trace_bin.h - the binary form of a trace (docs/trace-format.md, "The
 * binary form"): the same lines as the text form, the common access lines
 * (`touch`, `fault` in their canonical text) as fixed 32-byte records and
 * every other line as a text record, in blocks that each carry a checksum.
 *
 *   file   := header block*
 *   header := "vmsim-bt" u32 version (1) u32 slot size (32) u32 flags u32 0
 *             (flags bit 0: the text's last line had no newline)
 *   block  := u32 slots (1..BIN_BLOCK_SLOTS) u32 "VBLK" u64 checksum(payload)
 *             payload: slots x 32 bytes
 *   slot   := u8 kind u8 mode u8 result u8 0 u32 length u64 addr u64 size u64 value
 *             kind 1 touch(addr, size, MODE) = value | ?     (result 0 value, 1 ?)
 *             kind 2 fault(addr, MODE) = value | ? | MINOR | MAJOR (result 0, 1, 2, 3)
 *             kind 3 a text line of `length` bytes in the ceil(length / 32) slots
 *                    that follow (zero padded)
 *
 * All numbers little-endian.  One record (a slot of kind 1 or 2, or a text
 * record with its continuation slots) is one line of the text form, so
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

enum bin_kind { BIN_TOUCH = 1, BIN_FAULT = 2, BIN_TEXT = 3 };
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

/* Writing: records go to blocks of BIN_BLOCK_SLOTS slots. */
struct bin_writer {
	FILE *f;
	unsigned char *buf;   /* BIN_BLOCK_SLOTS slots */
	unsigned n;           /* slots used */
	bool error;
};
/* false: out of memory or a write error */
bool bin_writer_open(struct bin_writer *w, FILE *f, uint32_t flags);
bool bin_write_rec(struct bin_writer *w, const struct bin_rec *rec);
bool bin_write_text(struct bin_writer *w, const char *line, size_t len);
/* flush the last block; false on a write error */
bool bin_writer_close(struct bin_writer *w);

#endif
