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
#include <sys/stat.h>

#include "cli.h"
#include "replay.h"
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
	"  --format json  when OUT is a file: one \"convert\" object on standard output\n"
	"              saying what was written (docs/json.md)\n"
	"Exit: 0 written, 2 bad input (unreadable, truncated or corrupt) or output.\n";

int cmd_convert(int argc, char **argv)
{
	const char *to = NULL;
	bool json = false;
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'F' },
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
		case 'F':
			if (json_format_arg("convert", "--format", optarg, &json))
				return 2;
			break;
		case ':':
			session_usage_error("convert", convert_usage, "%s needs a value", argv[optind - 1]);
			return 2;
		default:
			session_usage_error("convert", convert_usage, "unknown option '%s'", argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind != 2) {
		session_usage_error("convert", convert_usage, "needs IN and OUT");
		return 2;
	}
	const char *inname = argv[optind], *outname = argv[optind + 1];
	if (json && !strcmp(outname, "-"))
		return session_usage_error("convert", convert_usage,
					   "--format json writes to standard output: OUT must be a file");
	FILE *in = strcmp(inname, "-") ? fopen(inname, "rb") : stdin;
	if (!in) {
		fprintf(stderr, "vmsim convert: %s: %s\n", inname, strerror(errno));
		return 2;
	}
	struct stat sin, sout;
	if (strcmp(outname, "-") && !fstat(fileno(in), &sin) && !stat(outname, &sout) &&
	    sin.st_dev == sout.st_dev && sin.st_ino == sout.st_ino && S_ISREG(sin.st_mode)) {
		fprintf(stderr, "vmsim convert: OUT %s is IN %s\n", outname, inname);
		if (in != stdin)
			fclose(in);
		return 2;
	}
	unsigned char head[TRACE_HEAD_BYTES];
	size_t nhead = fread(head, 1, sizeof(head), in);
	bool is_bin = trace_is_binary(head, nhead);
	bool want_bin = to ? !strcmp(to, "binary") : !is_bin;
	/* OUT is whole or absent (trace.h, "Output files") */
	struct outfile of;
	char oerr[4200];
	FILE *out = strcmp(outname, "-")
			    ? outfile_fopen(&of, outname, want_bin ? "w+b" : "w", oerr, sizeof(oerr))
			    : stdout;
	if (!out) {
		fprintf(stderr, "vmsim convert: %s\n", oerr);
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
	off_t inbytes = ftello(in);
	if (in != stdin)
		fclose(in);
	fflush(out);
	off_t outbytes = ftello(out);
	bool bad = ferror(out) != 0;
	if (out != stdout) {
		if (outfile_fclose(&of, out, !rc && !bad, oerr, sizeof(oerr)) && !rc && !bad) {
			fprintf(stderr, "vmsim convert: writing %s\n", oerr);
			rc = 2;
		}
	} else {
		bad |= fflush(out) != 0;
	}
	if (bad && !rc) {
		fprintf(stderr, "vmsim convert: %s: write failed\n", outname);
		rc = 2;
	}
	if (json && !rc) {
		json_begin(stdout, "convert");
		json_kv_str(stdout, "in", inname);
		json_kv_str(stdout, "out", outname);
		json_kv_str(stdout, "from", is_bin ? "binary" : "text");
		json_kv_str(stdout, "to", want_bin ? "binary" : "text");
		json_key(stdout, "bytes_in");
		if (inbytes >= 0)
			fprintf(stdout, "%lld", (long long)inbytes);
		else
			fputs("null", stdout); /* a pipe */
		json_kv_u64(stdout, "bytes_out", outbytes > 0 ? (uint64_t)outbytes : 0);
		json_end(stdout);
		if (fflush(stdout) || ferror(stdout))
			rc = 2;
	}
	return rc;
}
