/*
 * cmd_convert.c - `vmsim convert`: a trace from its text form to its
 * binary form (trace.h: trace_to_binary(), trace_to_text()) and back, byte for byte.
 *
 * Exit: 0 written, 2 bad usage, an unreadable, truncated or corrupt input,
 * or an unwritable output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "trace.h"

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
	unsigned char head[TRACE_HEAD_BYTES];
	size_t nhead = fread(head, 1, sizeof(head), in);
	bool is_bin = trace_is_binary(head, nhead);
	bool want_bin = to ? !strcmp(to, "binary") : !is_bin;
	FILE *out = strcmp(outname, "-") ? fopen(outname, want_bin ? "w+b" : "w") : stdout;
	if (!out) {
		fprintf(stderr, "vmsim convert: %s: %s\n", outname, strerror(errno));
		if (in != stdin)
			fclose(in);
		return 2;
	}
	int rc;
	char err[512];
	if (want_bin == is_bin) {
		/* already in that form: a copy */
		fwrite(head, 1, nhead, out);
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, out);
		if (ferror(in))
			snprintf(err, sizeof(err), "%s:0:1: error: %s", inname, strerror(errno));
		rc = ferror(in) ? -1 : 0;
	} else if (want_bin) {
		rc = trace_to_binary(in, inname, head, nhead, out, err, sizeof(err));
	} else {
		rc = trace_to_text(in, inname, head, out, err, sizeof(err));
	}
	if (rc) {
		fprintf(stderr, "%s\n", err);
		rc = 2;
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
