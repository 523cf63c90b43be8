/*
 * cmd_diff.c - `vmsim diff --kernel A --kernel B [--all] TRACE...`: replay
 * each trace under two semantics in lockstep (sim/replay/diff.c) and report the
 * first event where the two models differ (or every event that changes the
 * difference), each as it is found.
 *
 * Exit: 0 the kernels agree on every trace, 1 they differ, 2 bad input.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

static const char diff_usage[] =
	"usage: vmsim diff --kernel A --kernel B [OPTION]... TRACE...\n"
	"\n"
	"Replays each trace under kernels A and B side by side and reports the first\n"
	"event where the two models differ (--all: every event that changes the\n"
	"difference): FILE:LINE, the event, and both sides' state next to each other.\n"
	"Without --all, a summary follows: how many events differ, grouped by what\n"
	"differs (the result, the VMA layout or flags, VmLck, pages, each counter),\n"
	"the first line of each, and the line from which the kernels never agree\n"
	"again, if they part for good.\n"
	"Compared after every event: the outcome (value, errno, address, fault), each\n"
	"process's VMA layout and flags (by meaning, not mnemonic text), VmLck,\n"
	"def_flags, and - after both drained their per-CPU batches - present/mlocked/\n"
	"unevictable/lru of every page, nr_mlock and what the event added to the\n"
	"unevictable_pgs_* and fault counters.  A difference of state is listed where\n"
	"it begins, where it changes and where it ends (\"agree again\"), not at every\n"
	"event it stands; a region of differing layout is one \"vmas\" item.  Each\n"
	"event is printed as it is found: memory stays that of the two models.\n"
	"Results the trace records are not compared.  Symbolic flags are read with\n"
	"the trace's `# kernel:` tables (else A's); each model reads the numbers with\n"
	"its own.\n"
	"\n"
	"  --kernel NAME          4.0 lof-v1 4.4 6.1 6.12 6.18, or a patch (vma-count-v3\n"
	"                         mremap-count 6.18-dontunmap-fix); given twice: A, then B\n"
	SESSION_OPTS_HELP
	"  --all           report every event that changes the difference, not only\n"
	"                  the first\n"
	"  -o, --output FILE  the report into FILE (default: standard output)\n"
	"  --format json   JSON Lines: a difference object per event, a summary per\n"
	"                  trace (docs/json.md)\n"
	"Exit: 0 the kernels agree, 1 they differ, 2 bad input.\n";

static const char *const kind_names[] = {
	[DK_RESULT] = "result", [DK_TASK] = "task", [DK_VMAS] = "vmas", [DK_VMFLAGS] = "vmflags",
	[DK_VMLCK] = "VmLck", [DK_DEF_FLAGS] = "def_flags", [DK_PAGE] = "page", [DK_VMSTAT] = "vmstat", [DK_RUSAGE] = "rusage",
};

/* --format json: a "difference" object per differing event with its items */
static void print_json_event(const char *path, const struct diff_result *r, const struct diff_event *de)
{
	json_begin(stdout, "difference");
	json_kv_str(stdout, "file", path);
	json_kv_u64(stdout, "line", de->line);
	json_kv_str(stdout, "event", de->text);
	json_kv_str(stdout, "kernel_a", r->kernel_a);
	json_kv_str(stdout, "kernel_b", r->kernel_b);
	json_key(stdout, "items");
	fputc('[', stdout);
	for (size_t i = de->first; i < de->first + de->n; i++) {
		const struct diff_item *it = &r->items[i];
		fputs(i > de->first ? ", {" : "{", stdout);
		json_str(stdout, "what");
		fputs(": ", stdout);
		json_str(stdout, it->what);
		json_kv_str(stdout, "about", kind_names[it->kind]);
		json_kv_i64(stdout, "pid", it->pid);
		if (it->kind == DK_VMFLAGS || it->kind == DK_VMAS || it->kind == DK_PAGE)
			json_kv_u64(stdout, "addr", it->addr);
		json_kv_str(stdout, "a", it->a);
		json_kv_str(stdout, "b", it->b);
		json_kv_i64(stdout, "va", it->va);
		json_kv_i64(stdout, "vb", it->vb);
		json_kv_bool(stdout, "ended", it->ended);
		fputc('}', stdout);
	}
	fputc(']', stdout);
	json_end(stdout);
}

/* then a "summary" per trace (docs/json.md) */
static void print_json_summary(const char *path, const struct diff_result *r, int t)
{
	json_begin(stdout, "summary");
	json_kv_str(stdout, "file", path);
	json_kv_str(stdout, "kernel_a", r->kernel_a);
	json_kv_str(stdout, "kernel_b", r->kernel_b);
	json_kv_u64(stdout, "events", r->events);
	json_kv_u64(stdout, "differing_events", r->differing);
	json_kv_bool(stdout, "agree", t == 0);
	json_end(stdout);
}

/* each differing event printed as it is found: the memory of a diff is
 * its two models', whatever the length of the trace */
struct stream {
	const char *path;
	bool json, all;
};

/* the first differing event of the default output: at most this many
 * items (a wide compare of many processes lists more) */
#define FIRST_ITEMS 40

static void print_event(void *ctx, const struct diff_result *r, const struct diff_event *de)
{
	const struct stream *st = ctx;
	if (st->json)
		print_json_event(st->path, r, de);
	else if (st->all)
		diff_print_event(st->path, r, de, stdout);
	else if (r->differing == 1)
		diff_print_event_max(st->path, r, de, FIRST_ITEMS, stdout);
}

/* the default's summary of a trace whose kernels differ: what differs,
 * grouped, and whether they part for good (at most 2 + DIFF_GROUPS lines) */
static void print_summary(const char *path, const struct diff_result *r)
{
	printf("%s: %lu of %lu events differ (%s vs %s):\n", path, r->differing, r->events, r->kernel_a,
	       r->kernel_b);
	for (unsigned g = 0; g < r->ngroups; g++) {
		const struct diff_group *gr = &r->groups[g];
		char what[64];
		snprintf(what, sizeof(what), "%s%s%s", kind_names[gr->kind], gr->what[0] ? " " : "", gr->what);
		printf("  %-40s %10lu event%s, the first at line %lu\n", what, gr->events,
		       gr->events == 1 ? "" : "s", gr->first_line);
	}
	if (r->parted_line)
		printf("%s:%lu: from here on the kernels never agree again: a difference of state stands to the end\n",
		       path, r->parted_line);
	if (r->differing > 1)
		printf("(--all lists every differing event)\n");
}

int cmd_diff(int argc, char **argv)
{
	struct session_opts mo = SESSION_OPTS_INIT;
	struct diff_opts o = { NULL, NULL, NULL, false, &mo };
	static const struct option longopts[] = {
		SESSION_LONGOPTS,
		{ "all", no_argument, NULL, 'A' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	const char *outpath = NULL;
	const char *kernels[2] = { NULL, NULL };
	optind = 0;
	int c;
	while ((c = session_getopt(&mo, argc, argv, ":ho:", longopts, "diff", diff_usage,
				    kernels)) >= 0) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		case 'A':
			o.all = true;
			break;
		case 'F':
			if (json_format_arg("diff", "--format", optarg, &json))
				return 2;
			break;
		}
	}
	if (c != -1)
		return session_getopt_exit(c);
	o.arch = mo.arch;
	o.kernel_a = kernels[0];
	o.kernel_b = kernels[1];
	int first = optind;
	if (!o.kernel_a || !o.kernel_b) {
		session_usage_error("diff", diff_usage, "two --kernel options are needed");
		return 2;
	}
	if (first >= argc) {
		session_usage_error("diff", diff_usage, "no trace given");
		return 2;
	}
	struct cli_output out;
	if (cli_output_begin("diff", outpath, argv + first, argc - first, &out))
		return 2;
	int rc = 0;
	for (int i = first; i < argc; i++) {
		struct diff_result r;
		struct stream st = { argv[i], json, o.all };
		o.each = print_event;
		o.each_ctx = &st;
		/* the default runs the whole trace too, for its summary; JSON's
		 * stops at the first difference (docs/json.md) */
		struct diff_opts ot = o;
		ot.all = o.all || !json;
		int t = diff_trace(argv[i], &ot, &r);
		if (t == 2) {
			fflush(stdout);
			fprintf(stderr, "%s\n", r.err);
		} else if (json) {
			print_json_summary(argv[i], &r, t);
		} else {
			if (t == 0)
				printf("%s: %lu events, kernels %s and %s agree\n", argv[i], r.events,
				       r.kernel_a, r.kernel_b);
			else if (o.all)
				printf("%s: %lu of %lu events differ (%s vs %s)\n", argv[i], r.differing,
				       r.events, r.kernel_a, r.kernel_b);
			else
				print_summary(argv[i], &r);
		}
		diff_result_free(&r);
		if (t > rc)
			rc = t;
	}
	return cli_output_end("diff", &out, rc);
}
