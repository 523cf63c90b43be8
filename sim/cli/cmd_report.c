/*
 * cmd_report.c - `vmsim report`: replay a trace under one or two kernels
 * and write one self-contained HTML page of pictures (sim/teach/report.c): the
 * address space over time, the LRU lists, locked_vm against
 * RLIMIT_MEMLOCK, the events with results, and where two kernels differ;
 * every event's explanation one click away.
 *
 * Exit: 0 written, 2 bad usage, bad input or an unwritable output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "cli.h"
#include "teach.h"
#include "semantics.h"

static const char report_usage[] =
	"usage: vmsim report [--kernel A [--kernel B]] -o OUT.html [OPTION]... TRACE\n"
	"\n"
	"Replays TRACE under kernel A (default: the trace's) and, with a second\n"
	"--kernel, under B alongside, and writes one HTML file with no outside\n"
	"resources: the address space as a row of VMA bars per event (coloured by lock\n"
	"state, darker where more pages are resident; the VMAs' names and start\n"
	"addresses on the address axis, line numbers and calls on the time axis, a\n"
	"legend; a row of many VMAs draws look-alike neighbours as one bar), the five LRU list sizes and\n"
	"locked_vm against RLIMIT_MEMLOCK over the trace, a table of the events and\n"
	"results, and with two kernels the events where they differ.  Clicking an\n"
	"event shows what the model did there (as `vmsim explain` tells it).  Long\n"
	"traces are sampled evenly to at most 1200 rows; every divergence is kept.\n"
	"The same trace and options give the same bytes.\n"
	"\n"
	"  -o, --output FILE   where to write (- for standard output)\n"
	"  --format json       the same rows as JSON Lines instead of the page: a\n"
	"                      \"report\" object, then a \"row\" per row with each kernel's\n"
	"                      result, locked_vm, lists, VMAs and explanation\n"
	"                      (docs/json.md); to standard output unless -o\n"
	"  --kernel NAME       once or twice: the kernels to compare\n"
	SESSION_OPTS_HELP
	"Exit: 0 written, 2 bad input or output.\n";

int cmd_report(int argc, char **argv)
{
	struct session_opts o = SESSION_OPTS_INIT;
	const char *kernels[2] = { NULL, NULL }, *outpath = NULL;
	bool json = false;
	static const struct option longopts[] = {
		SESSION_LONGOPTS,
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	int c;
	while ((c = session_getopt(&o, argc, argv, ":ho:", longopts, "report", report_usage,
				    kernels)) >= 0) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		case 'F':
			if (json_format_arg("report", "--format", optarg, &json))
				return 2;
			break;
		}
	}
	if (c != -1)
		return session_getopt_exit(c);
	if (optind + 1 != argc) {
		session_usage_error("report", report_usage, "%s", optind >= argc ? "no trace given" : "one trace at a time");
		return 2;
	}
	if (!outpath && !json) {
		session_usage_error("report", report_usage, "-o OUT.html is needed");
		return 2;
	}
	if (!outpath)
		outpath = "-"; /* JSON Lines: standard output unless -o */
	const char *path = argv[optind];
	unsigned nsides = kernels[1] ? 2 : 1;
	struct explain_run side[2] = { 0 };
	int rc = 0;
	for (unsigned k = 0; k < nsides && !rc; k++) {
		struct session_opts ok = o;
		ok.kernel = kernels[k];
		if (explain_run_open(&side[k], path, &ok))
			rc = 2;
	}
	struct report rep = { .trace = path, .nkernels = nsides, .stride = 1 };
	for (unsigned k = 0; k < nsides && !rc; k++)
		rep.kernel[k] = side[k].ss.sem->name;
	while (!rc) {
		struct event *ev[2] = { NULL, NULL };
		int r = 0;
		for (unsigned k = 0; k < nsides; k++) {
			r = session_next(&side[k].ss, &ev[k]);
			if (r < 0) {
				fprintf(stderr, "%s\n", trace_error(side[k].ss.reader));
				rc = 2;
			}
			if (r <= 0)
				break;
		}
		if (r <= 0)
			break;
		bool shown = ev[0]->type != EV_EXPECT && !(ev[0]->type == EV_CALL && ev[0]->sys == SYS_UNKNOWN);
		struct outcome out[2];
		bool diverged = false;
		char why[1024];
		for (unsigned k = 0; k < nsides && !rc; k++) {
			/* the steps are built for the rows kept only (below) */
			if (explain_run_apply(&side[k], path, ev[k], false)) {
				rc = 2;
				break;
			}
			out[k] = side[k].out;
			if (ev[k]->type == EV_EXPECT) {
				unsigned checked = 0;
				diverged |= expect_check(side[k].ss.sys, ev[k], why, sizeof(why), &checked) > 0;
			} else {
				diverged |= !outcome_matches(ev[k], &out[k], why, sizeof(why));
			}
		}
		if (rc || !shown)
			continue;
		if (!report_keep(&rep, diverged))
			continue;
		for (unsigned k = 0; k < nsides && !rc; k++)
			if (explain_run_build(&side[k], path, ev[k]))
				rc = 2;
		struct report_row *row = rc ? NULL : report_add(&rep);
		if (!row) {
			rc = 2;
			break;
		}
		char text[512];
		size_t n = trace_format_event(ev[0], side[0].ss.arch, side[0].ss.sem->flag_kernel, text, sizeof(text));
		if (n >= sizeof(text))
			strcpy(text + sizeof(text) - 4, "...");
		row->line = ev[0]->line;
		row->pid = out[0].pid;
		row->event = strdup(text);
		for (unsigned k = 0; k < nsides; k++) {
			char res[160];
			if (out[k].kind == OUT_NONE)
				snprintf(res, sizeof(res), "-");
			else
				outcome_text(ev[k], &out[k], res, sizeof(res));
			bool dk = !outcome_matches(ev[k], &out[k], why, sizeof(why));
			if (!report_fill(&rep, &row->side[k], side[k].ss.sys,
					 vmsys_task(side[k].ss.sys, out[k].pid, false), &side[k].steps, res,
					 dk)) {
				fprintf(stderr, "vmsim report: out of memory\n");
				rc = 2;
				break;
			}
		}
		if (!row->event)
			rc = 2;
	}
	struct cli_output out;
	if (!rc && cli_output_begin("report", outpath, argv + optind, 1, &out)) {
		rc = 2;
	} else if (!rc) {
		if (json)
			report_write_json(stdout, &rep);
		else
			report_write(stdout, &rep);
		rc = cli_output_end("report", &out, rc);
	}
	report_free(&rep);
	for (unsigned k = 0; k < nsides; k++)
		explain_run_close(&side[k]);
	return rc;
}
