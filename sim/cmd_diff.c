/*
 * cmd_diff.c - `vmsim diff --kernel A --kernel B [--all] TRACE...`: replay
 * each trace under two semantics in lockstep (sim/diff.c) and report the
 * first event (or every event) where the two models differ.
 *
 * Exit: 0 the kernels agree on every trace, 1 they differ, 2 bad input.
 */
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "diff.h"
#include "session.h"

static const char diff_usage[] =
	"usage: vmsim diff --kernel A --kernel B [--arch NAME] [--all] TRACE...\n"
	"\n"
	"Replays each trace under kernels A and B side by side and reports the first\n"
	"event where the two models differ (--all: every such event): FILE:LINE, the\n"
	"event, and both sides' state next to each other.  Compared after every event:\n"
	"the outcome (value, errno, address, fault), each process's VMA layout and\n"
	"flags (by meaning, not mnemonic text), VmLck, def_flags, and - after both\n"
	"drained their per-CPU batches - present/mlocked/unevictable/lru of every\n"
	"page, nr_mlock and the unevictable_pgs_* counters.  Results the trace\n"
	"records are not compared.  Symbolic flags are read with the trace's\n"
	"`# kernel:` tables (else A's); each model reads the numbers with its own.\n"
	"\n"
	"  --kernel NAME   4.0 lof-v1 4.4 6.1 6.18 (given twice)\n"
	"  --arch NAME     flag tables of this arch (default: `# arch:`, else x86_64)\n"
	"  --all           report every differing event, not only the first\n"
	"Exit: 0 the kernels agree, 1 they differ, 2 bad input.\n";

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { NULL, NULL, NULL, false };
	int first = argc;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(diff_usage, stdout);
			return 0;
		} else if (!strcmp(a, "--kernel") || !strcmp(a, "--arch")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "vmsim diff: %s needs a value\n", a);
				return 2;
			}
			val = argv[++i];
		} else if (!strncmp(a, "--kernel=", 9) || !strncmp(a, "--arch=", 7)) {
			val = strchr(a, '=') + 1;
		} else if (!strcmp(a, "--all")) {
			o.all = true;
			continue;
		} else if (!strcmp(a, "--")) {
			first = i + 1;
			break;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "vmsim diff: unknown option '%s'\n%s", a, diff_usage);
			return 2;
		} else {
			first = i;
			break;
		}
		if (!strncmp(a, "--arch", 6)) {
			o.arch = val;
		} else if (!o.kernel_a) {
			o.kernel_a = val;
		} else if (!o.kernel_b) {
			o.kernel_b = val;
		} else {
			fprintf(stderr, "vmsim diff: --kernel given more than twice\n");
			return 2;
		}
	}
	if (!o.kernel_a || !o.kernel_b) {
		fprintf(stderr, "vmsim diff: two --kernel options are needed\n%s", diff_usage);
		return 2;
	}
	if (!semantics_find_checked(o.kernel_a) || !semantics_find_checked(o.kernel_b))
		return 2;
	if (first >= argc) {
		fprintf(stderr, "vmsim diff: no trace given\n%s", diff_usage);
		return 2;
	}
	int rc = 0;
	for (int i = first; i < argc; i++) {
		struct diff_result r;
		int t = diff_trace(argv[i], &o, &r);
		if (t == 2) {
			fprintf(stderr, "%s\n", r.err);
		} else {
			diff_print(argv[i], &r, stdout);
			if (t == 0)
				printf("%s: %lu events, kernels %s and %s agree\n", argv[i], r.events,
				       r.kernel_a, r.kernel_b);
			else if (o.all)
				printf("%s: %zu of %lu events differ (%s vs %s)\n", argv[i], r.nevs,
				       r.events, r.kernel_a, r.kernel_b);
		}
		diff_result_free(&r);
		if (t > rc)
			rc = t;
	}
	return rc;
}
