/*
 * cmd_replay.c - `vmsim replay`: run traces against a kernel semantics and
 * report every place where the model and the trace disagree.
 *
 * Exit: 0 nothing diverged, 1 a divergence (or invariant violation), 2 bad
 * input (the reader's FILE:LINE:COL message).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "check_inv.h"
#include "cmds.h"
#include "session.h"

static const char replay_usage[] =
	"usage: vmsim replay [--kernel NAME] [--arch NAME] [--stop-at-first]\n"
	"                    [--check-invariants] [-q|-v] TRACE...\n"
	"\n"
	"Replays each trace on the model and compares every recorded result and\n"
	"every expect(...) line with the model's answer.  A divergence report names\n"
	"FILE:LINE, the event, what the trace expected, what the model produced and\n"
	"the model state that explains it.\n"
	"\n"
	"  --kernel NAME        semantics: 4.0 lof-v1 4.4 6.1 6.18 (default: the trace's\n"
	"                       `# kernel:` header, else 6.18)\n"
	"  --arch NAME          flag tables of this arch (default: `# arch:`, else x86_64)\n"
	"  --stop-at-first      stop a trace at its first divergence\n"
	"  --check-invariants   check the model's invariants after every event, and the\n"
	"                       promise invariants the trace names in its header\n"
	"                       (`# check-invariants: NAME,...`, as vmsim check writes it)\n"
	"  --invariant NAME     also check this promise invariant of vmsim check (repeatable;\n"
	"                       `all` for every one; see docs/invariants.md)\n"
	"  -q                   only the summary lines;  -v  also every event\n"
	"Exit: 0 no divergence, 1 divergence, 2 bad input.\n";

struct replay_stats {
	unsigned long events, checks, divergences, unknown;
};

static void print_event_line(const struct event *ev, const char *arch, const char *kernel, FILE *f)
{
	char buf[512];
	size_t n = trace_format_event(ev, arch, kernel, buf, sizeof(buf));
	if (n >= sizeof(buf))
		strcpy(buf + sizeof(buf) - 5, "...");
	fprintf(f, "%s", buf);
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

static int replay_one(const char *path, const struct session_opts *o, bool stop_first,
		      bool invariants, uint32_t promise_mask, int verbose, struct replay_stats *tot)
{
	char err[512];
	struct session ss;
	if (session_open(&ss, path, o, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	struct replay_stats st = { 0, 0, 0, 0 };
	struct event *ev;
	int r, rc = 0;
	static char why[8192], state[4096];
	/* the promise invariants of `vmsim check` (sim/check_inv.h): those the
	 * trace's header names (a reproducer) and those asked for.  A real
	 * kernel may break a promise - that is a finding, not a divergence of
	 * the model - so they are never checked unasked. */
	const struct trace_header *hdr = trace_header(ss.reader);
	if (invariants && hdr->has_check_invariants) {
		char bad[64];
		int64_t m = parse_inv_list(hdr->check_invariants, bad, sizeof(bad));
		if (m < 0) {
			fprintf(stderr, "%s: error: unknown invariant '%s' in the check-invariants header\n",
				path, bad);
			session_close(&ss);
			return 2;
		}
		promise_mask |= (uint32_t)m;
	}
	struct check_inv *ci = promise_mask ? check_inv_new(ss.sys, promise_mask) : NULL;
	while ((r = session_next(&ss, &ev)) > 0) {
		st.events++;
		if (ev->type == EV_CALL && ev->sys == SYS_UNKNOWN) {
			st.unknown++;
			continue;
		}
		struct outcome out;
		if (ci)
			check_inv_before(ci, ev);
		if (apply_event(ss.sys, ev, &out, err, sizeof(err))) {
			fprintf(stderr, "%s:%lu: error: %s\n", path, ev->line, err);
			rc = 2;
			break;
		}
		if (verbose > 0) {
			printf("%s:%lu: ", path, ev->line);
			print_event_line(ev, ss.arch, ss.sem->name, stdout);
			printf("\n");
		}
		for (unsigned i = 0; i < vmsys_nevents(ss.sys); i++)
			printf("%s:%lu: event: %s\n", path, ev->line, vmsys_event(ss.sys, i));
		bool diverged = false;
		why[0] = 0;
		if (ev->type == EV_EXPECT) {
			unsigned checked = 0;
			diverged = expect_check(ss.sys, ev, why, sizeof(why), &checked) > 0;
			st.checks += checked;
		} else if (ev->type == EV_CALL || ev->type == EV_SIGNAL) {
			if (out.kind != OUT_NONE && (ev->res == RES_VALUE || ev->res == RES_ERROR ||
						     ev->type == EV_SIGNAL))
				st.checks++;
			char w[512];
			if (!outcome_matches(ev, &out, w, sizeof(w))) {
				diverged = true;
				snprintf(why, sizeof(why), "  %s\n", w);
			}
		}
		if (diverged) {
			st.divergences++;
			explain_state(ss.sys, ev, state, sizeof(state));
			if (verbose >= 0) {
				printf("%s:%lu: divergence: ", path, ev->line);
				print_event_line(ev, ss.arch, ss.sem->name, stdout);
				printf("\n%s%s", why, state);
			}
			rc = 1;
			if (stop_first)
				break;
		}
		if (invariants) {
			char msg[512];
			unsigned nv = vmsys_check_invariants(ss.sys, msg, sizeof(msg));
			if (nv) {
				st.divergences++;
				rc = 1;
				if (verbose >= 0) {
					printf("%s:%lu: invariant violated after: ", path, ev->line);
					print_event_line(ev, ss.arch, ss.sem->name, stdout);
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
			if (verbose >= 0) {
				printf("%s:%lu: invariant violated after: ", path, ev->line);
				print_event_line(ev, ss.arch, ss.sem->name, stdout);
				printf("\n");
				for (unsigned k = 0; k < INV_NR; k++)
					if (pv & (1u << k))
						printf("  %s: %s\n", inv_name(k), check_inv_msg(ci, k));
			}
			if (stop_first)
				break;
		}
	}
	check_inv_free(ci);
	if (r < 0) {
		fprintf(stderr, "%s\n", trace_error(ss.reader));
		rc = 2;
	}
	if (rc != 2) {
		for (size_t i = 0; i < trace_unknown_count(ss.reader); i++) {
			unsigned long n;
			const char *name = trace_unknown_name(ss.reader, i, &n);
			/* the format's rule: read, counted, one warning per name */
			if (verbose >= 0)
				fprintf(stderr, "%s: warning: %lu %s call%s skipped (not modelled)\n", path, n,
					name, n == 1 ? "" : "s");
		}
		printf("%s: %lu events, %lu checks, %lu divergence%s (kernel %s)\n", path, st.events,
		       st.checks, st.divergences, st.divergences == 1 ? "" : "s", ss.sem->name);
	}
	tot->events += st.events;
	tot->checks += st.checks;
	tot->divergences += st.divergences;
	session_close(&ss);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	struct session_opts o = { NULL, NULL };
	bool stop_first = false, invariants = false;
	uint32_t promise_mask = 0;
	int verbose = 0;
	int first = argc;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(replay_usage, stdout);
			return 0;
		} else if (!strcmp(a, "--kernel") || !strcmp(a, "--arch")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "vmsim replay: %s needs a value\n", a);
				return 2;
			}
			if (!strcmp(a, "--kernel"))
				o.kernel = argv[++i];
			else
				o.arch = argv[++i];
		} else if (!strncmp(a, "--kernel=", 9)) {
			o.kernel = a + 9;
		} else if (!strncmp(a, "--arch=", 7)) {
			o.arch = a + 7;
		} else if (!strcmp(a, "--stop-at-first")) {
			stop_first = true;
		} else if (!strcmp(a, "--check-invariants")) {
			invariants = true;
		} else if (!strcmp(a, "--invariant") || !strncmp(a, "--invariant=", 12)) {
			const char *name = a[11] == '=' ? a + 12 : (i + 1 < argc ? argv[++i] : NULL);
			char bad[64];
			int64_t m = name ? parse_inv_list(name, bad, sizeof(bad)) : -1;
			if (m < 0) {
				fprintf(stderr, "vmsim replay: unknown invariant '%s' (see docs/invariants.md)\n",
					name ? bad : "");
				return 2;
			}
			promise_mask |= (uint32_t)m;
		} else if (!strcmp(a, "-q")) {
			verbose = -1;
		} else if (!strcmp(a, "-v")) {
			verbose = 1;
		} else if (!strcmp(a, "--")) {
			first = i + 1;
			break;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "vmsim replay: unknown option '%s'\n%s", a, replay_usage);
			return 2;
		} else {
			first = i;
			break;
		}
	}
	if (first >= argc) {
		fprintf(stderr, "vmsim replay: no trace given\n%s", replay_usage);
		return 2;
	}
	if (o.kernel && !semantics_find_checked(o.kernel))
		return 2;
	struct replay_stats tot = { 0, 0, 0, 0 };
	int rc = 0;
	unsigned ntraces = 0;
	for (int i = first; i < argc; i++) {
		int r = replay_one(argv[i], &o, stop_first, invariants, promise_mask, verbose, &tot);
		ntraces++;
		if (r > rc)
			rc = r;
	}
	if (ntraces > 1)
		printf("total: %u traces, %lu events, %lu checks, %lu divergences\n", ntraces, tot.events,
		       tot.checks, tot.divergences);
	return rc;
}
