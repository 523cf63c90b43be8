/*
 * cmd_replay.c - `vmsim replay`: run traces against a kernel semantics and
 * report every place where the model and the trace disagree.
 *
 * Exit: 0 nothing diverged, 1 a divergence (or invariant violation), 2 bad
 * input (the reader's FILE:LINE:COL message).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "replay.h"
#include "checker.h"
#include "cli.h"

static const char replay_usage[] =
	"usage: vmsim replay [OPTION]... TRACE...\n"
	"\n"
	"Replays each trace on the model and compares every recorded result and\n"
	"every expect(...) line with the model's answer.  A divergence report names\n"
	"FILE:LINE, the event, what the trace expected, what the model produced and\n"
	"the model state that explains it.  A trace is a vmsim trace or a log of\n"
	"`strace -f -o FILE` (any of -t -tt -ttt -r -T -i -n -k -y -yy -X -v -s);\n"
	"`-` reads standard input.  In a plain strace log, memory the program had\n"
	"before its first traced call (the program, ld.so, the stack) is taken as\n"
	"\"mapped before the trace began\" where a call shows it existed, with a note;\n"
	"--maps gives it exactly.  Options may come anywhere; -- ends them.\n"
	"\n"
	SESSION_OPTS_HELP
	"  --stop-at-first      stop a trace at its first divergence\n"
	"  --strict-timing      take no drain of the per-CPU batches by another CPU: by\n"
	"                       default a line that holds only if one drained them after\n"
	"                       a recent earlier line (the kernel allows it: the\n"
	"                       outcome depends on timing) is a note, not a divergence\n"
	"                       (docs/fidelity.md, \"Timing\")\n"
	"  --check-invariants   check the model's invariants after every event, and the\n"
	"                       promise invariants the trace names in its header\n"
	"                       (`# check-invariants: NAME,...`, as vmsim check writes it)\n"
	"  --check-every N      with --check-invariants: the full walk after every Nth\n"
	"                       touch or fault line (default: 1000, or one per 16 frames\n"
	"                       in use if more), after every other event and at the end;\n"
	"                       the accesses between are checked on the pages they\n"
	"                       touched.  1: the full walk every time\n"	"  --invariant NAME     also check this promise invariant of vmsim check (repeatable;\n"
	"                       `all` for every one; see docs/invariants.md)\n"
	"  -q                   only the summary lines;  -v  also every event\n"
	"  -o, --output FILE    the report into FILE (default: standard output)\n"
	"  --format json        one JSON object a line: notes, divergences, violated\n"
	"                       invariants, a summary per trace (docs/json.md)\n"
	"  --stats[=json]       per process and in total: faults, SIGSEGVs, calls by name,\n"
	"                       VMAs and peak map_count, ENOMEM results (the access of the\n"
	"                       first), pages read before the first access, VmLck, RSS,\n"
	"                       unevictable pages, wall time; after each trace's summary\n"
	"                       (=json: a \"stats\" object, and --format json for the rest)\n"
	"Exit: 0 no divergence, 1 divergence, 2 bad input.\n";

/* --format json: one object per line (a note, a divergence, a violated
 * invariant, a trace's summary, the total), for scripts; the schema is in
 * docs/json.md */
static bool json;
/* --stats[=json]: 0 none, 1 text, 2 JSON (sim/replay/replay.h) */
static int stats_mode;
/* --check-every N: the model's full invariant walk after every Nth access
 * (and after every other event); the accesses between are checked on the
 * pages they touched (vmsys_check_pages()) */
#define CHECK_EVERY_DEFAULT 0 /* adaptive, see full_walk_due() */
static unsigned long check_every = CHECK_EVERY_DEFAULT;

/* Without --check-every the full walk comes after 1,000 accesses, or
 * after one per 16 frames in use if that is more: a walk costs in
 * proportion to the pages, so spread that way it adds a bounded cost per
 * access however big the machine's memory gets. */
static bool full_walk_due(struct vmsys *s, unsigned long since)
{
	if (check_every)
		return since >= check_every;
	return since >= 1000 && since >= vmsys_frames_used(s) / 16;
}

/* the pages an event touched, as its tracepoints name them */
struct touched {
	uint32_t pfn[4096];
	size_t n;
	bool overflow; /* more than fit: the walk checks everything */
};

static void note_touched(void *ctx, const struct tp_event *e)
{
	struct touched *t = ctx;
	if (!e->pfn)
		return;
	switch (e->id) {
	case TP_LRU_ADD: case TP_LRU_DEL: case TP_PAGE: case TP_BATCH_ADD: case TP_RECLAIM:
	case TP_FAULT: case TP_NUMA_HINT:
		break;
	default:
		return;
	}
	if (t->n && t->pfn[t->n - 1] == e->pfn)
		return;
	if (t->n == sizeof(t->pfn) / sizeof(t->pfn[0]))
		t->overflow = true;
	else
		t->pfn[t->n++] = e->pfn;
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void event_text(const struct event *ev, const char *arch, const char *names, char *buf,
		       size_t len)
{
	size_t n = trace_format_event(ev, arch, names, buf, len);
	if (n >= len)
		strcpy(buf + len - 5, "...");
}

/* {"kind": K, "file": F, "line": L, "event": E, "why": W[, "state": S]} */
static void json_item(const char *kind, const char *file, unsigned long line, const char *event,
		      const char *why, const char *state)
{
	printf("{\"kind\": ");
	json_str(stdout, kind);
	printf(", \"file\": ");
	json_str(stdout, file);
	printf(", \"line\": %lu", line);
	if (event) {
		printf(", \"event\": ");
		json_str(stdout, event);
	}
	printf(", \"why\": ");
	json_str(stdout, why);
	if (state) {
		printf(", \"state\": ");
		json_str(stdout, state);
	}
	printf("}\n");
}

struct replay_stats {
	unsigned long events, checks, divergences, unknown;
	unsigned long timing;  /* divergences another CPU's drain explains (taken) */
};

/* --strict-timing: no drain by another CPU is taken (timing.c) */
static bool strict_timing;

static void print_event_line(const struct event *ev, const char *arch, const char *names, FILE *f)
{
	char buf[512];
	size_t n = trace_format_event(ev, arch, names, buf, sizeof(buf));
	if (n >= sizeof(buf))
		strcpy(buf + sizeof(buf) - 5, "...");
	term_puts(f, buf);
}

/* Replay one trace; returns 0/1/2 like the command. */
/* Promise invariants named in a comma/space separated list; -1 on an
 * unknown name. */
static int64_t parse_inv_list(const char *list, char *bad, size_t badlen)
{
	uint32_t mask = 0;
	const char *p = list;
	while (*p) {
		while (*p == ',' || *p == ' ')
			p++;
		size_t n = strcspn(p, ", ");
		if (!n)
			break;
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (!strcmp(name, "all")) {
			mask |= INV_ALL;
		} else {
			int id = inv_find(name);
			if (id < 0) {
				snprintf(bad, badlen, "%s", name);
				return -1;
			}
			mask |= 1u << id;
		}
		p += n;
	}
	return mask;
}

static int replay_one(const char *const *paths, size_t npaths, const struct session_opts *o,
		      bool stop_first, bool invariants, uint32_t promise_mask, int verbose,
		      struct replay_stats *tot)
{
	char err[512];
	struct session ss;
	if (session_open_paths(&ss, paths, npaths, o, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	const char *path = ss.path;
	if (ss.note[0])
		fprintf(stderr, "%s: warning: %s\n", path, ss.note);
	struct replay_stats st = { 0, 0, 0, 0, 0 };
	struct event *ev;
	int r = 0, rc = 0;
	struct timing tm;
	timing_init(&tm, paths, npaths, o, strict_timing);
	static char why[8192], state[4096];
	/* the promise invariants of `vmsim check` (sim/checker/checker.h): those the
	 * trace's header names (a reproducer) and those asked for.  A real
	 * kernel may break a promise - that is a finding, not a divergence of
	 * the model - so they are never checked unasked. */
	const struct trace_header *hdr = trace_header(ss.reader);
	if (hdr->has_check_invariants) { /* names checked always, applied with --check-invariants */
		char bad[64];
		int64_t m = parse_inv_list(hdr->check_invariants, bad, sizeof(bad));
		if (m < 0) {
			fprintf(stderr, "%s:%lu:%ld: error: unknown invariant '%s' in the check-invariants header\n",
				path, hdr->check_invariants_line, hdr->check_invariants_col, bad);
			session_close(&ss);
			return 2;
		}
		if (invariants)
			promise_mask |= (uint32_t)m;
	}
	struct check_inv *ci = promise_mask ? check_inv_new(ss.sys, promise_mask) : NULL;
	static struct touched touched;
	if (invariants)
		vmsys_set_tracepoint(ss.sys, note_touched, &touched);
	bool walked = true; /* the last check was the full walk */
	unsigned long since_walk = 0;
	struct rstats *rs = stats_mode ? rstats_new() : NULL;
	double t0 = wall_now();
	bool progress = verbose >= 0 && isatty(2);
	/* nothing per event to report or check: the hot loop runs the hits
	 * (--stats counts them in bulk) */
	bool hot = !invariants && !ci && verbose <= 0;
	unsigned long shown = 0, before = 0;
	int hit_pid = 0;
	while (!vm_host_oom &&
	       (r = hot ? session_next_hot(&ss, &ev, &st.events, &st.checks, &hit_pid)
			: session_next(&ss, &ev)) > 0) {
		if (rs && st.events != before)
			rstats_hits(rs, hit_pid, st.events - before);
		const char *where = ev->src ? ev->src : path; /* FILE of FILE:LINE */
		st.events++;
		before = st.events;
		if (progress && st.events >> 20 != shown) {
			shown = st.events >> 20;
			fprintf(stderr, "\r%s: line %lu, %lu events, %lu divergences ", path, ev->line,
				st.events, st.divergences);
		}
		if (ev->type == EV_CALL && ev->sys == SYS_UNKNOWN) {
			st.unknown++;
			continue;
		}
		struct outcome out;
		touched.n = 0;
		touched.overflow = false;
		if (ci)
			check_inv_before(ci, ev);
		if (session_apply(&ss, ev, &out, err, sizeof(err))) {
			if (!strncmp(err, path, strlen(path)) || (o->maps && !strncmp(err, o->maps, strlen(o->maps))))
				fprintf(stderr, "%s\n", err);
			else
				fprintf(stderr, "%s:%lu:1: error: %s\n", where, ev->line, err);
			rc = 2;
			break;
		}
		if (rs)
			rstats_event(rs, ss.sys, ev, &out);
		for (unsigned k = 0; verbose >= 0 && k < ss.inh.nnotes; k++) {
			if (json)
				json_item("note", where, ev->line, NULL, ss.inh.notes[k], NULL);
			else
				printf("%s:%lu: note: %s\n", where, ev->line, ss.inh.notes[k]);
		}
		if (verbose > 0 && !json) {
			printf("%s:%lu: ", where, ev->line);
			print_event_line(ev, ss.arch, trace_flag_names(ss.reader), stdout);
			printf("\n");
		}
		for (unsigned i = 0; i < vmsys_nevents(ss.sys); i++) {
			if (json)
				json_item("model-event", where, ev->line, NULL, vmsys_event(ss.sys, i), NULL);
			else
				printf("%s:%lu: event: %s\n", where, ev->line, vmsys_event(ss.sys, i));
		}
		unsigned checked = 0;
		bool diverged = event_diverged(ss.sys, ev, &out, why, sizeof(why), &checked);
		st.checks += checked;
		if (diverged) {
			/* another CPU's drain may explain it (timing.c) */
			char at_file[256], text[512];
			unsigned long at_line = ev->line;
			snprintf(at_file, sizeof(at_file), "%s", where);
			event_text(ev, ss.arch, trace_flag_names(ss.reader), text, sizeof(text));
			struct timing_point tp;
			int t = timing_search(&tm, &ss, &tp, err, sizeof(err));
			if (t < 0) {
				fprintf(stderr, "%s\n", err);
				rc = 2;
				break;
			}
			if (t > 0 && !tm.strict) {
				/* taken: the replay goes on from the run with the drain */
				st.timing++;
				char note[512];
				snprintf(note, sizeof(note),
					 "timing-dependent: this line holds when another CPU drains the per-CPU "
					 "batches after %s:%lu, as the kernel allows (lru_add_drain_all(), a remote "
					 "drain, the vmstat worker); --strict-timing takes no such drain",
					 tp.src, tp.line);
				if (verbose >= 0 && json) {
					printf("{\"kind\": \"timing\", \"file\": ");
					json_str(stdout, at_file);
					printf(", \"line\": %lu, \"event\": ", at_line);
					json_str(stdout, text);
					printf(", \"drain_after_file\": ");
					json_str(stdout, tp.src);
					printf(", \"drain_after_line\": %lu, \"why\": ", tp.line);
					json_str(stdout, note);
					printf("}\n");
				} else if (verbose >= 0) {
					printf("%s:%lu: note: %s\n", at_file, at_line, note);
				}
				if (invariants)
					vmsys_set_tracepoint(ss.sys, note_touched, &touched);
				if (ci) {
					check_inv_free(ci);
					ci = check_inv_new(ss.sys, promise_mask);
				}
				walked = false; /* the end of the trace walks the new run once more */
				continue;
			}
			if (t > 0) {
				size_t l = strlen(why);
				snprintf(why + l, sizeof(why) - l,
					 "  timing-dependent: the kernel also allows the recorded answer: another CPU "
					 "draining the per-CPU batches after %s:%lu gives it (--strict-timing)\n",
					 tp.src, tp.line);
			}
		} else {
			timing_note(&tm, &ss, ev);
		}
		if (diverged) {
			timing_note(&tm, &ss, ev);
			st.divergences++;
			if (verbose >= 0) /* -q prints none: no state to describe */
				explain_state(ss.sys, ev, state, sizeof(state));
			if (verbose >= 0 && json) {
				char text[512];
				event_text(ev, ss.arch, trace_flag_names(ss.reader), text, sizeof(text));
				json_item("divergence", where, ev->line, text, why, state);
			} else if (verbose >= 0) {
				printf("%s:%lu: divergence: ", where, ev->line);
				print_event_line(ev, ss.arch, trace_flag_names(ss.reader), stdout);
				putchar('\n');
				term_puts(stdout, why);
				term_puts(stdout, state);
			}
			rc = 1;
			if (stop_first)
				break;
		}
		if (invariants) {
			char msg[512];
			since_walk++;
			walked = ev->type != EV_CALL || (ev->sys != SYS_TOUCH && ev->sys != SYS_FAULT) ||
				 touched.overflow || full_walk_due(ss.sys, since_walk);
			if (walked)
				since_walk = 0;
			unsigned nv = walked ? vmsys_check_invariants(ss.sys, msg, sizeof(msg))
					     : vmsys_check_pages(ss.sys, touched.pfn, touched.n, msg, sizeof(msg));

			if (nv) {
				st.divergences++;
				rc = 1;
				if (verbose >= 0 && json) {
					char text[512];
					event_text(ev, ss.arch, trace_flag_names(ss.reader), text, sizeof(text));
					json_item("invariant", where, ev->line, text, msg, NULL);
				} else if (verbose >= 0) {
					printf("%s:%lu: invariant violated after: ", where, ev->line);
					print_event_line(ev, ss.arch, trace_flag_names(ss.reader), stdout);
					printf("\n  %s\n", msg);
				}
				if (stop_first)
					break;
			}
		}
		uint32_t pv = ci ? check_inv_after(ci, ev, &out) : 0;
		if (pv) {
			st.divergences++;
			rc = 1;
			if (verbose >= 0 && json) {
				char text[512], msg[1024];
				event_text(ev, ss.arch, trace_flag_names(ss.reader), text, sizeof(text));
				for (unsigned k = 0; k < INV_NR; k++)
					if (pv & (1u << k)) {
						snprintf(msg, sizeof(msg), "%s: %s", inv_name(k), check_inv_msg(ci, k));
						json_item("invariant", where, ev->line, text, msg, NULL);
					}
			} else if (verbose >= 0) {
				printf("%s:%lu: invariant violated after: ", where, ev->line);
				print_event_line(ev, ss.arch, trace_flag_names(ss.reader), stdout);
				printf("\n");
				for (unsigned k = 0; k < INV_NR; k++)
					if (pv & (1u << k))
						printf("  %s: %s\n", inv_name(k), check_inv_msg(ci, k));
			}
			if (stop_first)
				break;
		}
	}
	if (rs && st.events != before)
		rstats_hits(rs, hit_pid, st.events - before); /* the hits after the last event */
	if (progress && st.events >= (1u << 20))
		fprintf(stderr, "\r\033[K");
	if (invariants && !walked && r == 0 && !vm_host_oom && !(stop_first && rc == 1)) {
		/* the accesses since the last full walk: walk once more */
		char msg[512];
		if (vmsys_check_invariants(ss.sys, msg, sizeof(msg))) {
			st.divergences++;
			rc = 1;
			if (verbose >= 0 && json)
				json_item("invariant", path, 0, "(the end of the trace)", msg, NULL);
			else if (verbose >= 0)
				printf("%s: invariant violated by the end of the trace (the accesses since the last full walk):\n  %s\n",
				       path, msg);
		}
	}
	vmsys_set_tracepoint(ss.sys, NULL, NULL);
	check_inv_free(ci);
	bool truncated = r < 0 && trace_truncated(ss.reader);
	if (r < 0) {
		fprintf(stderr, "%s\n", trace_error(ss.reader));
		rc = 2;
	}
	/* a truncated trace: what came before the cut was replayed, and is
	 * reported as such (the exit stays 2: the input is not whole) */
	if (rc != 2 || truncated) {
		for (size_t i = 0; i < trace_unknown_count(ss.reader); i++) {
			unsigned long n;
			const char *name = trace_unknown_name(ss.reader, i, &n);
			/* the format's rule: read, counted, one warning per name */
			if (verbose >= 0 && !json)
				fprintf(stderr, "%s: warning: %lu %s call%s skipped (not modelled)\n", path, n,
					name, n == 1 ? "" : "s");
		}
		if (json) {
			printf("{\"kind\": \"summary\", \"file\": ");
			json_str(stdout, path);
			printf(", \"kernel\": ");
			json_str(stdout, ss.sem->name);
			printf(", \"events\": %lu, \"checks\": %lu, \"divergences\": %lu, "
			       "\"assumed_ranges\": %lu, \"assumed_kb\": %" PRIu64 ", \"skipped\": {",
			       st.events, st.checks, st.divergences, ss.inh.assumed, ss.inh.assumed_bytes >> 10);
			for (size_t i = 0; i < trace_unknown_count(ss.reader); i++) {
				unsigned long n;
				const char *name = trace_unknown_name(ss.reader, i, &n);
				printf("%s", i ? ", " : "");
				json_str(stdout, name);
				printf(": %lu", n);
			}
			printf("}");
			if (st.timing)
				printf(", \"timing_choices\": %lu", st.timing);
			if (truncated)
				printf(", \"truncated\": true");
			if (trace_incomplete(ss.reader))
				printf(", \"incomplete\": \"the recorder was killed\"");
			if (vmsys_touches_unrecorded(ss.sys))
				printf(", \"partial\": \"no fault lines\"");
			printf("}\n");
		} else {
			printf("%s: %lu events, %lu checks, %lu divergence%s (kernel %s)", path, st.events,
			       st.checks, st.divergences, st.divergences == 1 ? "" : "s", ss.sem->name);
			if (ss.inh.assumed)
				printf("; %lu range%s (%" PRIu64 " kB) assumed mapped before the trace began",
				       ss.inh.assumed, ss.inh.assumed == 1 ? "" : "s", ss.inh.assumed_bytes >> 10);
			if (st.timing)
				printf("; %lu line%s timing-dependent (another CPU's drain taken)", st.timing,
				       st.timing == 1 ? "" : "s");
			if (tm.exhausted)
				printf("; the search for other CPUs' drains stopped at its bound");
			if (vmsys_touches_unrecorded(ss.sys))
				printf("; partial: no fault lines, residency checked as a lower bound");
			if (truncated && trace_incomplete(ss.reader))
				printf("; INCOMPLETE: the recorder was killed (no `# end` line), the events "
				       "before it were replayed");
			else if (truncated)
				printf("; TRUNCATED: the input ends in the middle of a line or block, the events "
				       "before it were replayed");
			printf("\n");
		}
	}
	if (rs && rc != 2)
		rstats_print(rs, ss.sys, ss.reader, path, wall_now() - t0, stats_mode == 2 || json, stdout);
	rstats_free(rs);
	tot->events += st.events;
	tot->checks += st.checks;
	tot->divergences += st.divergences;
	session_close(&ss);
	timing_free(&tm);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	struct session_opts o = SESSION_OPTS_INIT;
	bool stop_first = false, invariants = false;
	uint32_t promise_mask = 0;
	int verbose = 0;
	json = false;
	strict_timing = false;
	stats_mode = 0;
	check_every = CHECK_EVERY_DEFAULT;
	static const struct option longopts[] = {
		SESSION_LONGOPTS,
		{ "stop-at-first", no_argument, NULL, 's' },
		{ "check-invariants", no_argument, NULL, 'c' },
		{ "check-every", required_argument, NULL, 'E' },
		{ "invariant", required_argument, NULL, 'I' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "format", required_argument, NULL, 'F' },
		{ "stats", optional_argument, NULL, 'S' },
		{ "output", required_argument, NULL, 'o' },
		{ "strict-timing", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	int c;
	const char *outpath = NULL;
	while ((c = session_getopt(&o, argc, argv, ":qvho:", longopts, "replay", replay_usage,
				    NULL)) >= 0) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'T': strict_timing = true; break;
		case 's': stop_first = true; break;
		case 'c': invariants = true; break;
		case 'E': {
			char *end;
			errno = 0;
			check_every = strtoul(optarg, &end, 10);
			if (*end || !*optarg || errno || !check_every || optarg[0] == '-') {
				fprintf(stderr, "vmsim replay: --check-every needs a number >= 1, not '%s'\n", optarg);
				return 2;
			}
			invariants = true;
			break;
		}
		case 'I': {
			char bad[64];
			int64_t m = parse_inv_list(optarg, bad, sizeof(bad));
			if (m < 0) {
				fprintf(stderr, "vmsim replay: unknown invariant '%s' (see docs/invariants.md)\n",
					bad);
				return 2;
			}
			promise_mask |= (uint32_t)m;
			break;
		}
		case 'q': verbose = -1; break;
		case 'F':
			if (json_format_arg("replay", "--format", optarg, &json))
				return 2;
			break;
		case 'v': verbose = 1; break;
		case 'S':
			if (!optarg || !strcmp(optarg, "text")) {
				stats_mode = 1;
			} else if (!strcmp(optarg, "json")) {
				stats_mode = 2;
				json = true; /* JSON Lines throughout: the summaries too */
			} else {
				fprintf(stderr, "vmsim replay: --stats takes text or json, not '%s'\n", optarg);
				return 2;
			}
			break;
		}
	}
	if (c != -1)
		return session_getopt_exit(c);
	if (optind >= argc) {
		session_usage_error("replay", replay_usage, "no trace given");
		return 2;
	}
	struct cli_output out;
	if (cli_output_begin("replay", outpath, argv + optind, argc - optind, &out))
		return 2;
	struct replay_stats tot = { 0, 0, 0, 0 };
	int rc = 0;
	unsigned ntraces = 0;
	const char *const *paths = (const char *const *)argv + optind;
	size_t npaths = (size_t)(argc - optind);
	if (trace_paths_are_ff(paths, npaths)) {
		/* strace -ff -o PREFIX: one recording, merged */
		rc = replay_one(paths, npaths, &o, stop_first, invariants, promise_mask, verbose, &tot);
		ntraces = 1;
	}
	for (size_t i = 0; !ntraces && i < npaths; i++) {
		int r = replay_one(paths + i, 1, &o, stop_first, invariants, promise_mask, verbose, &tot);
		if (r > rc)
			rc = r;
		if (i + 1 == npaths)
			ntraces = (unsigned)npaths;
	}
	if (ntraces > 1 && json)
		printf("{\"kind\": \"total\", \"traces\": %u, \"events\": %lu, \"checks\": %lu, "
		       "\"divergences\": %lu}\n", ntraces, tot.events, tot.checks, tot.divergences);
	else if (ntraces > 1)
		printf("total: %u traces, %lu events, %lu checks, %lu divergences\n", ntraces, tot.events,
		       tot.checks, tot.divergences);
	return cli_output_end("replay", &out, rc);
}
