/*
 * cmd_explain.c - `vmsim explain`: replay a trace and narrate, for each
 * event, what the model did in kernel terms (its tracepoints through
 * sim/teach/explain.c), each step with the kernel function and version it
 * models; --diff K2 replays a second semantics alongside and shows where
 * it would have taken another path.
 *
 * Exit: 0, 2 bad usage or bad input.
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

static const char explain_usage[] =
	"usage: vmsim explain [OPTION]... TRACE\n"
	"\n"
	"Replays TRACE and tells, for each event, what the model did and why, in the\n"
	"kernel's terms: VMAs created, split, merged and removed, flags changed by\n"
	"mlock_fixup(), locked_vm charged against RLIMIT_MEMLOCK, the path of each page\n"
	"fault, pages moving between the LRU lists and the per-CPU batches, reclaim's\n"
	"verdicts - each step with the kernel function it models and the version.\n"
	"\n"
	SESSION_OPTS_HELP
	"  --from LINE     start at trace line LINE (earlier events run silently)\n"
	"  --to LINE       stop after trace line LINE\n"
	"  --diff KERNEL   replay a second semantics alongside; print only the events\n"
	"                  where the two take different steps or reach different results\n"
	"  --all           also the events that change nothing (touches of present pages)\n"
	"  --format json   JSON Lines, one object per event (docs/json.md)\n"
	"  -o, --output FILE  the explanation into FILE (default: standard output)\n"
	"Exit: 0 ok, 2 bad input.\n";

static int parse_line_arg(const char *opt, const char *s, unsigned long *v)
{
	char *end;
	errno = 0;
	unsigned long x = strtoul(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-') {
		fprintf(stderr, "vmsim explain: %s needs a line number, not '%s'\n", opt, s);
		return -1;
	}
	*v = x;
	return 0;
}

/* The call as the kernel explained sees it: flags in that kernel's own
 * names (4.0 shows MCL_ONFAULT as 0x4, lof-v1 0x80000 as MAP_LOCKONFAULT),
 * whatever names the trace was written with. */
static void event_text(const struct explain_run *r, const struct event *ev, char *buf, size_t len)
{
	size_t n = trace_format_event(ev, r->ss.arch, r->ss.sem->flag_kernel, buf, len);
	if (n >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

static void result_text(const struct explain_run *r, const struct event *ev, char *buf, size_t len)
{
	if (r->out.kind == OUT_NONE)
		snprintf(buf, len, "-");
	else
		outcome_text(ev, &r->out, buf, len);
}

static void print_text(const char *path, const struct event *ev, struct explain_run *a, struct explain_run *b)
{
	char line[512], res[128];
	event_text(a, ev, line, sizeof(line));
	printf("%s:%lu: %s\n", path, ev->line, line);
	if (!b) {
		explain_print(stdout, &a->steps, a->ss.sem, "  ");
		result_text(a, ev, res, sizeof(res));
		char why[512];
		bool ok = outcome_matches(ev, &a->out, why, sizeof(why));
		if (ok) {
			printf("  => %s\n", res);
			return;
		}
		size_t n = strlen(why); /* one line: the reason without its newline */
		while (n && (why[n - 1] == '\n' || why[n - 1] == ' '))
			why[--n] = '\0';
		printf("  => %s   (the trace says otherwise: %s)\n", res, why);
		return;
	}
	struct explain_run *rs[2] = { a, b };
	for (int i = 0; i < 2; i++) {
		printf("  %s:\n", rs[i]->ss.sem->name);
		explain_print(stdout, &rs[i]->steps, rs[i]->ss.sem, "    ");
		result_text(rs[i], ev, res, sizeof(res));
		printf("    => %s\n", res);
	}
}

static void print_json(const char *path, const struct event *ev, struct explain_run *a, struct explain_run *b)
{
	char line[512], res[128], why[512];
	event_text(a, ev, line, sizeof(line));
	json_begin(stdout, "explain");
	json_kv_str(stdout, "file", path);
	json_kv_u64(stdout, "line", ev->line);
	json_kv_str(stdout, "event", line);
	struct explain_run *rs[2] = { a, b };
	for (int i = 0; i < (b ? 2 : 1); i++) {
		json_key(stdout, i ? "b" : (b ? "a" : "model"));
		fputs("{\"kernel\": ", stdout);
		json_str(stdout, rs[i]->ss.sem->name);
		result_text(rs[i], ev, res, sizeof(res));
		json_kv_str(stdout, "result", res);
		json_kv_bool(stdout, "matches_trace", outcome_matches(ev, &rs[i]->out, why, sizeof(why)));
		json_key(stdout, "steps");
		explain_json(stdout, &rs[i]->steps, rs[i]->ss.sem);
		fputc('}', stdout);
	}
	json_end(stdout);
}

static bool same_outcome(const struct outcome *x, const struct outcome *y)
{
	return x->kind == y->kind && x->value == y->value;
}

int cmd_explain(int argc, char **argv)
{
	struct session_opts o = SESSION_OPTS_INIT;
	unsigned long from = 0, to = 0;
	bool have_to = false, json = false, all = false;
	const char *diff = NULL;
	static const struct option longopts[] = {
		SESSION_LONGOPTS,
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "diff", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'A' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	int c;
	const char *outpath = NULL;
	while ((c = session_getopt(&o, argc, argv, ":ho:", longopts, "explain", explain_usage,
				    NULL)) >= 0) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		case 'f':
			if (parse_line_arg("--from", optarg, &from))
				return 2;
			break;
		case 't':
			if (parse_line_arg("--to", optarg, &to))
				return 2;
			have_to = true;
			break;
		case 'd':
			diff = optarg;
			break;
		case 'A':
			all = true;
			break;
		case 'F':
			if (json_format_arg("explain", "--format", optarg, &json))
				return 2;
			break;
		}
	}
	if (c != -1)
		return session_getopt_exit(c);
	if (optind + 1 != argc) {
		session_usage_error("explain", explain_usage, "%s", optind >= argc ? "no trace given" : "one trace at a time");
		return 2;
	}
	const char *path = argv[optind];
	if (diff && !semantics_find_checked(diff))
		return 2;
	struct explain_run a, b;
	int rc = 0;
	if (explain_run_open(&a, path, &o)) {
		explain_run_close(&a);
		return 2;
	}
	struct session_opts ob = o;
	ob.kernel = diff;
	if (diff && explain_run_open(&b, path, &ob)) {
		explain_run_close(&a);
		explain_run_close(&b);
		return 2;
	}
	struct cli_output out;
	if (cli_output_begin("explain", outpath, argv + optind, 1, &out)) {
		explain_run_close(&a);
		if (diff)
			explain_run_close(&b);
		return 2;
	}
	struct event *ev;
	int r;
	while ((r = session_next(&a.ss, &ev)) > 0) {
		if (have_to && ev->line > to)
			break;
		struct event *evb = NULL;
		if (diff) {
			int rb = session_next(&b.ss, &evb);
			if (rb <= 0) {
				fprintf(stderr, "%s\n", rb < 0 ? trace_error(b.ss.reader) : "second replay ended early");
				rc = 2;
				break;
			}
		}
		bool in_range = ev->line >= from;
		bool shown = in_range && ev->type != EV_EXPECT &&
			     !(ev->type == EV_CALL && ev->sys == SYS_UNKNOWN);
		if (explain_run_apply(&a, path, ev, shown) || (diff && explain_run_apply(&b, path, evb, shown))) {
			rc = 2;
			break;
		}
		if (!shown)
			continue;
		if (diff) {
			if (explain_same(&a.steps, &b.steps) && same_outcome(&a.out, &b.out))
				continue;
		} else if (!all && !a.steps.n && a.out.kind != OUT_VALUE && a.out.kind != OUT_ERROR) {
			continue; /* a touch that changed nothing */
		}
		if (json)
			print_json(path, ev, &a, diff ? &b : NULL);
		else
			print_text(path, ev, &a, diff ? &b : NULL);
	}
	if (r < 0) {
		fprintf(stderr, "%s\n", trace_error(a.ss.reader));
		rc = 2;
	}
	rc = cli_output_end("explain", &out, rc);
	explain_run_close(&a);
	if (diff)
		explain_run_close(&b);
	return rc;
}
