/*
 * cmd_convert.c - `vmsim convert`: a trace from its text form to its
 * binary form (sim/trace/trace_bin.h) and back, byte for byte.
 *
 * Exit: 0 written, 2 bad usage, an unreadable, truncated or corrupt input,
 * or an unwritable output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "trace_bin.h"

static const char convert_usage[] =
	"usage: vmsim convert [--to binary|text] IN OUT\n"
	"\n"
	"Writes the trace IN in the other form: a text trace (or strace log) becomes\n"
	"a binary trace, a binary trace becomes text.  The form of IN is told by its\n"
	"first bytes, never by its name; - is standard input or output.  Text ->\n"
	"binary -> text gives the same bytes back.  Every vmsim command that reads a\n"
	"trace reads either form (docs/trace-format.md, \"The binary form\").\n"
	"\n"
	"  --to FORM   the form to write (default: the other one); converting to the\n"
	"              form IN already has copies it\n"
	"Exit: 0 written, 2 bad input (unreadable, truncated or corrupt) or output.\n";

static int fail(const char *in, unsigned long rec, const char *what)
{
	fprintf(stderr, "%s:%lu:1: error: %s\n", in, rec, what);
	return 2;
}

/* text lines to records: an access line in its canonical text to one slot,
 * every other line to a text record */
static int to_binary(FILE *in, const char *inname, const unsigned char *head, size_t nhead,
		     FILE *out)
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
			return fail(inname, 1, "out of memory");
		memcpy(pending, head, nhead);
		npend = nhead;
	}
	/* the header's flag of a last line without a newline is set at the end */
	if (!bin_writer_open(&w, out, 0)) {
		free(pending);
		return fail(inname, 1, "cannot write the output");
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
				rc = fail(inname, no + 1, strerror(errno));
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
					rc = fail(inname, no + 1, "out of memory");
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
			rc = w.error ? fail(inname, no, "cannot write the output")
				     : fail(inname, no, "line longer than a binary block holds (131,040 bytes)");
			break;
		}
		len = 0;
		if (c == EOF)
			break;
	}
	free(line);
	free(pending);
	if (!bin_writer_close(&w) && !rc)
		rc = fail(inname, no, "cannot write the output");
	if (!rc && !last_nl) {
		/* the flag sits in the header: rewrite it where the output can seek */
		unsigned char fl[4] = { BIN_FLAG_NO_FINAL_NL, 0, 0, 0 };
		if (fseek(out, 16, SEEK_SET) || fwrite(fl, 1, 4, out) != 4 || fflush(out))
			rc = fail(inname, no, "the last line has no newline and the output cannot seek "
				  "back to say so (write to a file)");
	}
	return rc;
}

static int to_text(FILE *in, const char *inname, const unsigned char *head, FILE *out)
{
	uint32_t flags = head[16] | (uint32_t)head[17] << 8;
	uint32_t version, slot;
	if (!bin_header_ok(head, &version, &slot)) {
		char msg[160];
		snprintf(msg, sizeof(msg), "binary trace version %u with %u-byte slots: this vmsim reads "
			 "versions 1 to %u, %u-byte slots", version, slot, BIN_VERSION, BIN_SLOT);
		return fail(inname, 1, msg);
	}
	unsigned char *blk = malloc((size_t)BIN_BLOCK_SLOTS * BIN_SLOT);
	if (!blk)
		return fail(inname, 1, "out of memory");
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
			rc = fail(inname, no + 1, msg);
			break;
		}
		size_t bytes = (size_t)slots * BIN_SLOT;
		uint64_t sum = 0;
		for (int i = 7; i >= 0; i--)
			sum = sum << 8 | h[8 + i];
		if (fread(blk, 1, bytes, in) != bytes || bin_checksum(blk, bytes) != sum) {
			snprintf(msg, sizeof(msg), "binary trace %s the block of records %lu on",
				 feof(in) ? "truncated in" : "corrupt: a checksum mismatch in", no + 1);
			rc = fail(inname, no + 1, msg);
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
				rc = fail(inname, no, msg);
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

int cmd_convert(int argc, char **argv)
{
	const char *to = NULL;
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(convert_usage, stdout);
			return 0;
		case 't':
			if (strcmp(optarg, "binary") && strcmp(optarg, "text")) {
				fprintf(stderr, "vmsim convert: --to takes binary or text, not '%s'\n", optarg);
				return 2;
			}
			to = optarg;
			break;
		case ':':
			fprintf(stderr, "vmsim convert: %s needs a value\n%s", argv[optind - 1], convert_usage);
			return 2;
		default:
			fprintf(stderr, "vmsim convert: unknown option '%s'\n%s", argv[optind - 1],
				convert_usage);
			return 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "vmsim convert: needs IN and OUT\n%s", convert_usage);
		return 2;
	}
	const char *inname = argv[optind], *outname = argv[optind + 1];
	FILE *in = strcmp(inname, "-") ? fopen(inname, "rb") : stdin;
	if (!in) {
		fprintf(stderr, "vmsim convert: %s: %s\n", inname, strerror(errno));
		return 2;
	}
	unsigned char head[BIN_HEADER];
	size_t nhead = fread(head, 1, sizeof(head), in);
	bool is_bin = nhead == sizeof(head) && bin_is_magic(head, nhead);
	bool want_bin = to ? !strcmp(to, "binary") : !is_bin;
	FILE *out = strcmp(outname, "-") ? fopen(outname, want_bin ? "w+b" : "w") : stdout;
	if (!out) {
		fprintf(stderr, "vmsim convert: %s: %s\n", outname, strerror(errno));
		if (in != stdin)
			fclose(in);
		return 2;
	}
	int rc;
	if (want_bin == is_bin) {
		/* already in that form: a copy */
		fwrite(head, 1, nhead, out);
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, out);
		rc = ferror(in) ? fail(inname, 0, strerror(errno)) : 0;
	} else if (want_bin) {
		rc = to_binary(in, inname, head, nhead, out);
	} else {
		rc = to_text(in, inname, head, out);
	}
	if (in != stdin)
		fclose(in);
	bool bad = ferror(out) != 0;
	bad |= out != stdout ? fclose(out) != 0 : fflush(out) != 0;
	if (bad && !rc) {
		fprintf(stderr, "vmsim convert: %s: write failed\n", outname);
		rc = 2;
	}
	return rc;
}
