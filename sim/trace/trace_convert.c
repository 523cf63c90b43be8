/*
 * trace_convert.c - a trace from its text form to its binary form and back
 * (trace.h: trace_to_binary(), trace_to_text(); the layout is trace_bin.h).
 */
#include "trace.h"
#include "trace_bin.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* the message FILE:RECORD:1: error: WHAT into err; -1 */
static int fail(char *err, size_t errlen, const char *in, unsigned long rec, const char *what)
{
	snprintf(err, errlen, "%s:%lu:1: error: %s", in, rec, what);
	return -1;
}

/* fail() of an output that cannot be written, with the reason */
static int fail_write(char *err, size_t errlen, const char *in, unsigned long rec)
{
	char what[96];
	snprintf(what, sizeof(what), "cannot write the output: %s", strerror(errno ? errno : EIO));
	return fail(err, errlen, in, rec, what);
}

/* text lines to records: an access line in its canonical text to one slot,
 * every other line to a text record */
int trace_to_binary(FILE *in, const char *inname, const unsigned char *head, size_t nhead,
		    FILE *out, char *err, size_t errlen)
{
	struct bin_writer w;
	char *line = NULL;
	size_t cap = 0, len = 0;
	unsigned long no = 0;
	int rc = 0;
	bool last_nl = true;
	/* the head bytes already read, then the rest */
	char *pending = NULL;
	size_t npend = 0;
	if (nhead) {
		pending = malloc(nhead);
		if (!pending)
			return fail(err, errlen, inname, 1, "out of memory");
		memcpy(pending, head, nhead);
		npend = nhead;
	}
	/* the header's flag of a last line without a newline is set at the end */
	if (!bin_writer_open(&w, out, 0)) {
		free(pending);
		return fail_write(err, errlen, inname, 1);
	}
	size_t pi = 0;
	for (;;) {
		int c;
		if (pi < npend)
			c = (unsigned char)pending[pi++];
		else
			c = getc(in);
		if (c == EOF) {
			if (ferror(in)) {
				rc = fail(err, errlen, inname, no + 1, strerror(errno));
				break;
			}
			if (len) { /* a last line without a newline */
				last_nl = false;
			} else {
				break;
			}
		} else if (c != '\n') {
			if (len + 1 >= cap) {
				size_t nc = cap ? cap * 2 : 256;
				char *l = realloc(line, nc);
				if (!l) {
					rc = fail(err, errlen, inname, no + 1, "out of memory");
					break;
				}
				line = l;
				cap = nc;
			}
			line[len++] = (char)c;
			continue;
		}
		no++;
		struct bin_rec rec;
		bool ok = bin_parse_line(line, len, &rec) ? bin_write_rec(&w, &rec)
							   : bin_write_text(&w, line ? line : "", len);
		if (!ok) {
			rc = w.error ? fail_write(err, errlen, inname, no)
				     : fail(err, errlen, inname, no, "line longer than a binary block holds (131,040 bytes)");
			break;
		}
		len = 0;
		if (c == EOF)
			break;
	}
	free(line);
	free(pending);
	if (!bin_writer_close(&w) && !rc)
		rc = fail_write(err, errlen, inname, no);
	if (!rc && !last_nl) {
		/* the flag sits in the header: rewrite it where the output can seek */
		unsigned char fl[4] = { BIN_FLAG_NO_FINAL_NL, 0, 0, 0 };
		if (fseek(out, 16, SEEK_SET) || fwrite(fl, 1, 4, out) != 4 || fflush(out))
			rc = fail(err, errlen, inname, no, "the last line has no newline and the output cannot seek "
				  "back to say so (write to a file)");
	}
	return rc;
}

int trace_to_text(FILE *in, const char *inname, const unsigned char *head, FILE *out, char *err,
		  size_t errlen)
{
	uint32_t flags = head[16] | (uint32_t)head[17] << 8;
	uint32_t version, slot;
	if (!bin_header_ok(head, &version, &slot)) {
		char msg[160];
		snprintf(msg, sizeof(msg), "binary trace version %u with %u-byte slots: this vmsim reads "
			 "versions 1 to %u, %u-byte slots", version, slot, BIN_VERSION, BIN_SLOT);
		return fail(err, errlen, inname, 1, msg);
	}
	unsigned char *blk = malloc((size_t)BIN_BLOCK_SLOTS * BIN_SLOT);
	if (!blk)
		return fail(err, errlen, inname, 1, "out of memory");
	unsigned long no = 0;
	int rc = 0;
	bool first = true;
	char msg[160];
	for (;;) {
		unsigned char h[BIN_BLOCK_HEADER];
		size_t n = fread(h, 1, sizeof(h), in);
		if (n == 0 && !ferror(in))
			break;
		uint32_t slots = h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24;
		if (n != sizeof(h) || memcmp(h + 4, "VBLK", 4) || !slots || slots > BIN_BLOCK_SLOTS) {
			snprintf(msg, sizeof(msg), "binary trace %s at record %lu",
				 n != sizeof(h) ? "truncated in a block header" : "corrupt: no block header",
				 no + 1);
			rc = fail(err, errlen, inname, no + 1, msg);
			break;
		}
		size_t bytes = (size_t)slots * BIN_SLOT;
		uint64_t sum = 0;
		for (int i = 7; i >= 0; i--)
			sum = sum << 8 | h[8 + i];
		if (fread(blk, 1, bytes, in) != bytes || bin_checksum(blk, bytes) != sum) {
			snprintf(msg, sizeof(msg), "binary trace %s the block of records %lu on",
				 feof(in) ? "truncated in" : "corrupt: a checksum mismatch in", no + 1);
			rc = fail(err, errlen, inname, no + 1, msg);
			break;
		}
		struct bin_cursor cur;
		bin_cursor_start(&cur, version, blk, slots);
		for (;;) {
			struct bin_rec rec;
			const unsigned char *text;
			int k = bin_cursor_next(&cur, &rec, &text);
			if (k == BIN_NEXT_END)
				break;
			no++;
			if (k == BIN_NEXT_BAD) {
				snprintf(msg, sizeof(msg), "binary trace corrupt: record %lu %s", no, cur.why);
				rc = fail(err, errlen, inname, no, msg);
				break;
			}
			if (!first)
				fputc('\n', out);
			first = false;
			if (k == BIN_NEXT_TEXT) {
				fwrite(text, 1, rec.length, out);
			} else {
				char buf[128];
				fwrite(buf, 1, bin_format(&rec, buf, sizeof(buf)), out);
			}
		}
		if (rc)
			break;
	}
	if (!rc && !first && !(flags & BIN_FLAG_NO_FINAL_NL))
		fputc('\n', out);
	free(blk);
	return rc;
}

bool trace_is_binary(const unsigned char *head, size_t n)
{
	return n == BIN_HEADER && bin_is_magic(head, n);
}
