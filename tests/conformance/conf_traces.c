/*
 * conf_traces.c - trace conformance: every trace that carries expectations
 * replays with zero divergences.
 *
 * The bundled traces (traces/, recursively, except traces/semantics/ which
 * has its own suite) and, when the directory exists, the acceptance samples
 * in ../shared/golden/KIND/NAME.trace (recorded on a real 6.18 kernel) are
 * each one CUnit test: the trace is replayed in-process on the semantics
 * its header names, every recorded result and every expect(...) line is
 * compared with the model, and the divergence report (the same text as
 * `vmsim replay`) is printed when there is any.  A second suite replays
 * every trace again with the invariant walker after each event.
 *
 * A trace "carries expectations" when it has an expect(...) line or a
 * recorded result other than "= ?"; others are not tests.
 *
 * tests/real-programs/ holds real programs recorded twice: NAME.trace by
 * `vmsim record --faults` (replayed like the others) and NAME.strace by
 * plain `strace -f -o` as root (replayed with --cap-ipc-lock yes, the
 * address space before the trace assumed where calls show it;
 * NAME-norandom.strace, recorded with ASLR off, with NAME.maps: exactly;
 * with the hugetlb pool NAME.hugetlb-pages gives, the THP mode NAME.thp and
 * the vm.max_map_count NAME.max-map-count
 * gives, those it ran with).
 */
#include <CUnit/Basic.h>
#include <dirent.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "replay.h"

#ifndef VMSIM_SRCDIR
#define VMSIM_SRCDIR "."
#endif

/* At most this many divergences are described per trace (the count is exact). */
#define REPORT_MAX 25

/* ---- the list of traces ------------------------------------------------- */

struct ctrace {
	char *path;    /* as opened */
	char *name;    /* relative to VMSIM_SRCDIR (or "shared/golden/...") */
	bool as_root;  /* a plain strace log recorded as root: CAP_IPC_LOCK */
	char *maps;    /* NAME-norandom.strace: NAME.maps, its address space at exec */
	long hugetlb_pages; /* a plain log's NAME.hugetlb-pages: the pool it ran with, else -1 */
	int thp;            /* a plain log's NAME.thp: the THP mode it ran with, else -1 */
	long max_map_count; /* a plain log's NAME.max-map-count: vm.max_map_count it ran with, else -1 */
};

static struct ctrace *traces;
static size_t ntraces, captraces;

static bool ends_with(const char *s, const char *suffix);

/* the number in a plain log's side file STEM.WHAT (NAME.hugetlb-pages,
 * NAME.max-map-count: how the machine was set when it was logged), else -1 */
static long side_number(const char *path, size_t stem, const char *what)
{
	char m[4096];
	long v = -1;
	snprintf(m, sizeof(m), "%.*s.%s", (int)stem, path, what);
	FILE *f = fopen(m, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void add_trace(const char *path, const char *name)
{
	if (ntraces == captraces) {
		captraces = captraces ? 2 * captraces : 64;
		traces = realloc(traces, captraces * sizeof(*traces));
		if (!traces) {
			perror("conf_traces");
			exit(2);
		}
	}
	traces[ntraces].path = strdup(path);
	traces[ntraces].name = strdup(name);
	traces[ntraces].as_root = ends_with(name, ".strace");
	traces[ntraces].maps = NULL;
	traces[ntraces].hugetlb_pages = -1;
	traces[ntraces].thp = -1;
	traces[ntraces].max_map_count = -1;
	size_t stem = ends_with(path, "-norandom.strace") ? strlen(path) - strlen("-norandom.strace")
			: ends_with(path, ".strace")        ? strlen(path) - strlen(".strace")
							    : 0;
	if (ends_with(path, "-norandom.strace")) {
		char m[4096];
		snprintf(m, sizeof(m), "%.*s.maps", (int)stem, path);
		traces[ntraces].maps = strdup(m);
	}
	if (stem) {
		char m[4096];
		traces[ntraces].hugetlb_pages = side_number(path, stem, "hugetlb-pages");
		traces[ntraces].max_map_count = side_number(path, stem, "max-map-count");
		snprintf(m, sizeof(m), "%.*s.thp", (int)stem, path);
		FILE *f = fopen(m, "r");
		if (f) {
			char w[16] = "";
			if (fscanf(f, "%15s", w) == 1)
				traces[ntraces].thp = !strcmp(w, "always") ? 2 : !strcmp(w, "madvise") ? 1 : 0;
			fclose(f);
		}
	}
	ntraces++;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* Does the file have an expect(...) line or a result other than "= ?"? */
static bool has_expectations(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return true; /* let the replay report the error */
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		if (strstr(p, "expect("))
			found = true;
		const char *eq = NULL;
		for (const char *q = strstr(p, ") = "); q; q = strstr(q + 1, ") = "))
			eq = q;
		if (eq) {
			eq += 4;
			if (!(eq[0] == '?' && (eq[1] == '\n' || eq[1] == ' ' || !eq[1])))
				found = true;
		}
	}
	fclose(f);
	return found;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.trace under dir (recursively, sorted), skipping skip_dir. */
static void walk(const char *dir, const char *rel, const char *skip_dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			names = realloc(names, cap * sizeof(*names));
		}
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		char path[4096], name[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(name, sizeof(name), "%s/%s", rel, names[i]);
		struct stat st;
		if (stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				/* traces/known-divergent/ documents what the model does
				 * not reproduce yet (its README says why) */
				if (strcmp(name, skip_dir) && strcmp(name, "traces/known-divergent"))
					walk(path, name, skip_dir);
			} else if (S_ISREG(st.st_mode) &&
				   (ends_with(names[i], ".trace") || ends_with(names[i], ".strace")) &&
				   has_expectations(path)) {
				add_trace(path, name);
			}
		}
		free(names[i]);
	}
	free(names);
}

/* ---- one replay ----------------------------------------------------------- */

struct report {
	char *buf;
	size_t len, cap;
	char first[1024];       /* the first divergence line */
	unsigned long divergences, checks, events;
	unsigned long timing;   /* divergences another CPU's drain explains (timing.c) */
};

static void rep_printf(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void rep_printf(struct report *r, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		size_t room = r->cap - r->len;
		va_start(ap, fmt);
		int n = vsnprintf(r->buf ? r->buf + r->len : NULL, r->buf ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (r->buf && (size_t)n < room) {
			r->len += (size_t)n;
			return;
		}
		size_t want = r->len + (size_t)n + 1;
		r->cap = r->cap ? r->cap : 4096;
		while (r->cap < want)
			r->cap *= 2;
		r->buf = realloc(r->buf, r->cap);
		if (!r->buf)
			abort();
	}
}

static void event_text(const struct event *ev, const struct session *ss, char *buf, size_t len)
{
	size_t n = trace_format_event(ev, ss->arch, ss->sem->name, buf, len);
	if (n >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

static void divergence(struct report *r, const char *name, const struct event *ev,
		       const struct session *ss, const char *kind)
{
	char evtext[512];
	event_text(ev, ss, evtext, sizeof(evtext));
	r->divergences++;
	if (!r->first[0])
		snprintf(r->first, sizeof(r->first), "%s:%lu: %s: %s", name, ev->line, kind, evtext);
	if (r->divergences <= REPORT_MAX)
		rep_printf(r, "%s:%lu: %s: %s\n", name, ev->line, kind, evtext);
}

/* Replay one trace as `vmsim replay` does; 0 ok, -1 bad input (in r). */
static int replay(const struct ctrace *t, bool invariants, struct report *r)
{
	char err[512];
	struct session ss;
	struct session_opts o = SESSION_OPTS_INIT;
	if (t->as_root)
		o.cap_ipc_lock = 1;
	o.maps = t->maps;
	o.thp = t->thp;
	if (t->max_map_count > 0) {
		o.has_max_map_count = true;
		o.max_map_count = (uint64_t)t->max_map_count;
	}
	if (t->hugetlb_pages >= 0) {
		o.has_hugetlb_pages = true;
		o.hugetlb_pages = (uint64_t)t->hugetlb_pages;
	}
	if (session_open(&ss, t->path, &o, err, sizeof(err))) {
		snprintf(r->first, sizeof(r->first), "%s", err);
		rep_printf(r, "%s\n", err);
		return -1;
	}
	static char why[8192], state[4096];
	struct event *ev;
	int rc, ret = 0;
	struct timing tm;
	const char *paths[1] = { t->path };
	timing_init(&tm, paths, 1, &o, false);
	while ((rc = session_next(&ss, &ev)) > 0) {
		r->events++;
		if (ev->type == EV_CALL && ev->sys == SYS_UNKNOWN)
			continue;
		struct outcome out;
		if (session_apply(&ss, ev, &out, err, sizeof(err))) {
			snprintf(r->first, sizeof(r->first), "%s:%lu: error: %s", t->name, ev->line, err);
			rep_printf(r, "%s\n", r->first);
			ret = -1;
			break;
		}
		unsigned checked = 0;
		bool diverged = event_diverged(ss.sys, ev, &out, why, sizeof(why), &checked);
		r->checks += checked;
		if (diverged) {
			/* another CPU's drain, which the kernel allows, as replay takes it */
			struct timing_point tp;
			int found = timing_search(&tm, &ss, &tp, err, sizeof(err));
			if (found > 0) {
				r->timing++;
				continue;
			}
		} else {
			timing_note(&tm, &ss, ev);
		}
		if (diverged) {
			divergence(r, t->name, ev, &ss, "divergence");
			if (r->divergences <= REPORT_MAX) {
				explain_state(ss.sys, ev, state, sizeof(state));
				rep_printf(r, "%s%s", why, state);
			}
		}
		if (invariants) {
			char msg[512];
			if (vmsys_check_invariants(ss.sys, msg, sizeof(msg))) {
				divergence(r, t->name, ev, &ss, "invariant violated after");
				if (r->divergences <= REPORT_MAX)
					rep_printf(r, "  %s\n", msg);
			}
		}
	}
	if (rc < 0) {
		snprintf(r->first, sizeof(r->first), "%s", trace_error(ss.reader));
		rep_printf(r, "%s\n", r->first);
		ret = -1;
	}
	session_close(&ss);
	timing_free(&tm);
	return ret;
}

/* ---- the tests -------------------------------------------------------------- */

/* Every test is the same function: the current test's name says which
 * trace (names are "TRACE" in the plain suites, the same in the invariant
 * suites, which are told apart by their suite). */
static const struct ctrace *current_trace(bool *invariants)
{
	CU_pTest t = CU_get_current_test();
	CU_pSuite s = CU_get_current_suite();
	*invariants = s && strstr(s->pName, "invariants") != NULL;
	for (size_t i = 0; t && i < ntraces; i++)
		if (!strcmp(traces[i].name, t->pName))
			return &traces[i];
	return NULL;
}

static void test_trace(void)
{
	bool invariants;
	const struct ctrace *t = current_trace(&invariants);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	struct report r = { 0 };
	int rc = replay(t, invariants, &r);
	if (rc || r.divergences) {
		printf("\n---- %s%s: %lu divergence%s, %lu events, %lu checks\n", t->name,
		       invariants ? " (with invariant walker)" : "", r.divergences,
		       r.divergences == 1 ? "" : "s", r.events, r.checks);
		if (r.buf)
			fputs(r.buf, stdout);
		if (r.divergences > REPORT_MAX)
			printf("... %lu more\n", r.divergences - REPORT_MAX);
		printf("----\n");
	}
	CU_assertImplementation(rc == 0 && r.divergences == 0, __LINE__, r.first[0] ? r.first : "?",
				__FILE__, "", CU_FALSE);
	free(r.buf);
}

static void add_suite(const char *title, size_t from, size_t to)
{
	if (from == to)
		return;
	CU_pSuite s = CU_add_suite(title, NULL, NULL);
	for (size_t i = from; i < to; i++)
		CU_add_test(s, traces[i].name, test_trace);
}

int main(void)
{
	walk(VMSIM_SRCDIR "/traces", "traces", "traces/semantics");
	walk(VMSIM_SRCDIR "/tests/real-programs", "tests/real-programs", "");
	size_t nbundled = ntraces;
	glob_t g;
	if (glob(VMSIM_SRCDIR "/../shared/golden/*/*.trace", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			const char *p = strstr(g.gl_pathv[i], "/../shared/");
			char name[4096];
			snprintf(name, sizeof(name), "%s", p ? p + 4 : g.gl_pathv[i]);
			if (has_expectations(g.gl_pathv[i]))
				add_trace(g.gl_pathv[i], name);
		}
		globfree(&g);
	}
	size_t ngolden = ntraces;
	/* recorded inside booted 6.1, 6.12, 4.4.1, 4.0 and 4.0+lof-v1 kernels:
	 * each replayed by its header alone (its `# kernel:`) */
	static const char *const live[] = { "6.1", "6.12", "4.4", "4.0", "lof-v1" };
	enum { NLIVE = sizeof(live) / sizeof(live[0]) };
	size_t live_from[NLIVE + 1];
	for (size_t k = 0; k < NLIVE; k++) {
		live_from[k] = ntraces;
		char pat[512];
		snprintf(pat, sizeof(pat), VMSIM_SRCDIR "/../shared/live-kernels/%s/*/*.trace", live[k]);
		if (glob(pat, 0, NULL, &g) == 0) {
			for (size_t i = 0; i < g.gl_pathc; i++) {
				const char *p = strstr(g.gl_pathv[i], "/../shared/");
				if (has_expectations(g.gl_pathv[i]))
					add_trace(g.gl_pathv[i], p ? p + 4 : g.gl_pathv[i]);
			}
			globfree(&g);
		}
	}
	live_from[NLIVE] = ntraces;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	add_suite("bundled traces", 0, nbundled);
	add_suite("bundled traces, invariants", 0, nbundled);
	add_suite("shared golden (6.18)", nbundled, ngolden);
	add_suite("shared golden (6.18), invariants", nbundled, ngolden);
	static char titles[NLIVE][2][64];
	for (size_t k = 0; k < NLIVE; k++) {
		snprintf(titles[k][0], sizeof(titles[k][0]), "shared live kernel %s", live[k]);
		snprintf(titles[k][1], sizeof(titles[k][1]), "shared live kernel %s, invariants", live[k]);
		add_suite(titles[k][0], live_from[k], live_from[k + 1]);
		add_suite(titles[k][1], live_from[k], live_from[k + 1]);
	}
	printf("conformance: %zu bundled traces, %zu shared golden traces, %zu live-kernel traces (",
	       nbundled, ngolden - nbundled, ntraces - ngolden);
	for (size_t k = 0; k < NLIVE; k++)
		printf("%s%s %zu", k ? ", " : "", live[k], live_from[k + 1] - live_from[k]);
	printf(")\n");
	if (ngolden == nbundled)
		printf("conformance: SKIP the shared golden samples: " VMSIM_SRCDIR
		       "/../shared/golden/*/*.trace not found (a clone without ../shared)\n");
	if (ntraces == ngolden)
		printf("conformance: SKIP the live-kernel traces: " VMSIM_SRCDIR
		       "/../shared/live-kernels/*/*/*.trace not found (a clone without ../shared)\n");
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_tests_failed();
	unsigned run = CU_get_number_of_tests_run();
	printf("\n%u tests run, %u passed, %u failed\n", run, run - failed, failed);
	CU_cleanup_registry();
	for (size_t i = 0; i < ntraces; i++) {
		free(traces[i].path);
		free(traces[i].name);
		free(traces[i].maps);
	}
	free(traces);
	return failed ? 1 : 0;
}
