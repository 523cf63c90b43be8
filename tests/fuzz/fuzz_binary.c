/*
 * fuzz_binary.c - libFuzzer target: the binary form's readers on any
 * records, with every block's checksum right.
 *
 * A mutated binary trace almost never passes its checksum, so fuzz_reader
 * never sees what lies behind it.  Here the input is the records alone: a
 * valid header (version and flags from the first byte) is put in front,
 * and the rest is cut into blocks of at most BIN_BLOCK_SLOTS slots (the
 * second and third bytes choose the first block's size, so block limits
 * move), each given its block header and the checksum of what it holds.
 * Every reader then reads it to the end or to its first error: trace_read()
 * on both paths, the bulk decoder, and vmsim convert's trace_to_text().
 * An error must name the input; crashes, hangs, leaks and sanitizer
 * reports are the findings.  `make fuzz` builds and runs it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "trace_bin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* header + signed blocks of data[3..]; the length written, 0 if none */
static size_t sign(const uint8_t *data, size_t size, unsigned char **out)
{
	if (size < 3)
		return 0;
	size_t body = (size - 3) / BIN_SLOT * BIN_SLOT;
	size_t first = ((size_t)data[1] | (size_t)data[2] << 8) % BIN_BLOCK_SLOTS + 1;
	size_t nblocks = body / BIN_SLOT / first + 2;
	unsigned char *b = malloc(BIN_HEADER + nblocks * BIN_BLOCK_HEADER + body);
	if (!b)
		return 0;
	memset(b, 0, BIN_HEADER);
	memcpy(b, BIN_MAGIC, 8);
	b[8] = (data[0] & 1) ? 2 : 1;       /* version 1 or 2 */
	b[12] = BIN_SLOT;
	b[16] = (data[0] >> 1) & BIN_FLAG_NO_FINAL_NL;
	size_t o = BIN_HEADER;
	const uint8_t *p = data + 3;
	for (size_t left = body / BIN_SLOT, slots = first; left; left -= slots, slots = BIN_BLOCK_SLOTS) {
		if (slots > left)
			slots = left;
		unsigned char *h = b + o;
		memset(h, 0, BIN_BLOCK_HEADER);
		for (int i = 0; i < 4; i++)
			h[i] = (unsigned char)(slots >> (8 * i));
		memcpy(h + 4, "VBLK", 4);
		memcpy(h + BIN_BLOCK_HEADER, p, slots * BIN_SLOT);
		uint64_t sum = bin_checksum(h + BIN_BLOCK_HEADER, slots * BIN_SLOT);
		for (int i = 0; i < 8; i++)
			h[8 + i] = (unsigned char)(sum >> (8 * i));
		o += BIN_BLOCK_HEADER + slots * BIN_SLOT;
		p += slots * BIN_SLOT;
	}
	*out = b;
	return o;
}

static void read_all(const unsigned char *b, size_t n, int slow, int bulk)
{
	FILE *f = fmemopen((void *)b, n, "r");
	if (!f)
		return;
	char err[256];
	struct trace_reader *r = trace_open_stream(f, "fuzz", NULL, NULL, err, sizeof(err));
	if (!r) {
		fclose(f);
		return;
	}
	trace_set_slow(r, slow != 0);
	struct event ev;
	struct access_rec a[256];
	int k = 1;
	for (unsigned long events = 0; events < 200000;) {
		if (bulk) {
			size_t got = trace_read_accesses(r, a, 256);
			for (size_t i = 0; i < got; i++)
				trace_access_event(&a[i], &ev);
			events += got;
		}
		if ((k = trace_read(r, &ev)) <= 0)
			break;
		char buf[512];
		trace_format_event(&ev, "x86_64", "strace", buf, sizeof(buf));
		events++;
	}
	if (k < 0 && strncmp(trace_error(r), "fuzz:", 5))
		abort(); /* an error must name the input and its record */
	trace_close(r);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *b = NULL;
	size_t n = sign(data, size, &b);
	if (!n)
		return 0;
	read_all(b, n, 0, 0);
	read_all(b, n, 1, 0);
	read_all(b, n, 0, 1);
	FILE *in = fmemopen(b, n, "r"), *out = fopen("/dev/null", "w");
	if (in && out) {
		unsigned char head[TRACE_HEAD_BYTES];
		char err[256];
		if (fread(head, 1, sizeof(head), in) == sizeof(head) &&
		    trace_to_text(in, "fuzz", head, out, err, sizeof(err)) && strncmp(err, "fuzz:", 5))
			abort();
	}
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	free(b);
	return 0;
}
