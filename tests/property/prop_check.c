/*
 * prop_check.c - trust in `vmsim check`:
 *  - every test-only semantics (model/sem_test.c) is caught within the
 *    default budget on the invariant it breaks, shrunk to <= 8 events, and
 *    the written reproducer replays (`vmsim replay --check-invariants`,
 *    the same code path users run) to a violation of that invariant;
 *  - the same seed twice, and --jobs 1 vs --jobs 3, give identical output;
 *  - every committed reproducer in traces/findings/ has at most 8 events
 *    and replays to a violation of the invariant its header names;
 *  - real 6.18 holds, over many runs, every invariant it should hold (the
 *    ones it violates are findings documented in docs/findings.md).
 * Runs the built ./vmsim binary.
 */
#include <CUnit/Basic.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "semantics.h"

#ifndef VMSIM_SRCDIR
#define VMSIM_SRCDIR "."
#endif

static char outdir[256];

/* run a shell command, capture stdout; returns the exit status */
static int run(const char *cmd, char **out)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += r;
		if (cap - n < 4096) {
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	if (buf)
		buf[n] = 0;
	int st = pclose(p);
	*out = buf;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_broken_caught(void)
{
	char cmd[1024], *out = NULL;
	unsigned n = 0;
	for (unsigned i = 0; semantics_test_at(i); i++, n++) {
		const struct semantics *s = semantics_test_at(i);
		const char *inv = semantics_test_target(s);
		CU_ASSERT_PTR_NOT_NULL_FATAL(inv);
		snprintf(cmd, sizeof(cmd), "%s/vmsim check --kernel %s --invariant %s --out %s 2>&1",
			 VMSIM_SRCDIR, s->name, inv, outdir);
		int rc = run(cmd, &out);
		CU_ASSERT_EQUAL(rc, 1);
		char want[256];
		snprintf(want, sizeof(want), "invariant %s: violated ", inv);
		char *line = out ? strstr(out, want) : NULL;
		CU_ASSERT_PTR_NOT_NULL(line);
		if (!line) {
			fprintf(stderr, "%s not caught:\n%s\n", s->name, out ? out : "");
			free(out);
			continue;
		}
		char path[512];
		unsigned events = 0;
		char *rep = strstr(line, "shortest reproducer ");
		CU_ASSERT_PTR_NOT_NULL(rep);
		if (rep && sscanf(rep, "shortest reproducer %511s (%u events)", path, &events) == 2) {
			CU_ASSERT(events >= 1 && events <= 8);
			if (events > 8)
				fprintf(stderr, "%s: reproducer has %u events\n", s->name, events);
			char *rout = NULL;
			snprintf(cmd, sizeof(cmd), "%s/vmsim replay --check-invariants --kernel %s %s 2>&1",
				 VMSIM_SRCDIR, s->name, path);
			int rrc = run(cmd, &rout);
			CU_ASSERT_EQUAL(rrc, 1);
			char key[128];
			snprintf(key, sizeof(key), "  %s: ", inv);
			CU_ASSERT_PTR_NOT_NULL(rout ? strstr(rout, key) : NULL);
			free(rout);
		} else {
			CU_FAIL("no reproducer line");
		}
		free(out);
	}
	CU_ASSERT(n >= 11);
}

static void test_deterministic(void)
{
	char cmd[1024], *a = NULL, *b = NULL, *c = NULL;
	snprintf(cmd, sizeof(cmd), "%s/vmsim check --kernel 6.18 --seed 7 --runs 300 --out %s", VMSIM_SRCDIR,
		 outdir);
	run(cmd, &a);
	run(cmd, &b);
	snprintf(cmd, sizeof(cmd), "%s/vmsim check --kernel 6.18 --seed 7 --runs 300 --jobs 3 --out %s",
		 VMSIM_SRCDIR, outdir);
	run(cmd, &c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT_STRING_EQUAL(a, c);
	CU_ASSERT_PTR_NOT_NULL(strstr(a, "summary: kernel 6.18: 300 runs, 30000 steps"));
	free(a);
	free(b);
	free(c);
}

/* What a reproducer's header says and how many events it has. */
struct repro {
	const char *name, *path;
	char kernel[64], inv[128];
	unsigned events;
};

/* Calls check() on every *.trace of traces/SUB with its header read;
 * returns how many there were. */
static unsigned each_repro(const char *sub, void (*check)(const struct repro *))
{
	char dir[512], path[1024], line[1024];
	snprintf(dir, sizeof(dir), "%s/traces/%s", VMSIM_SRCDIR, sub);
	DIR *d = opendir(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	unsigned n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l < 7 || strcmp(de->d_name + l - 6, ".trace"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		FILE *f = fopen(path, "r");
		CU_ASSERT_PTR_NOT_NULL(f);
		if (!f)
			continue;
		struct repro r = { .name = de->d_name, .path = path };
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "# kernel: %63s", r.kernel) == 1 ||
			    sscanf(line, "# check-invariants: %127s", r.inv) == 1)
				continue;
			if (line[0] != '#' && line[0] != '\n')
				r.events++;
		}
		fclose(f);
		n++;
		check(&r);
	}
	closedir(d);
	return n;
}

/* vmsim replay --check-invariants of one reproducer: its exit code */
static int replay_repro(const struct repro *r, char **out)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "%s/vmsim replay --check-invariants --kernel %s %s 2>&1", VMSIM_SRCDIR,
		 r->kernel, r->path);
	return run(cmd, out);
}

/* traces/findings/KERNEL-INVARIANT.trace: <= 8 events, replays to INVARIANT */
static void finding_replays(const struct repro *r)
{
	CU_ASSERT(r->kernel[0] && r->inv[0]);
	CU_ASSERT(r->events >= 1 && r->events <= 8);
	if (r->events > 8)
		fprintf(stderr, "%s: %u events\n", r->name, r->events);
	char *out = NULL, key[160];
	int rc = replay_repro(r, &out);
	snprintf(key, sizeof(key), "  %s: ", r->inv);
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, key) : NULL);
	if (rc != 1 || !out || !strstr(out, key))
		fprintf(stderr, "%s does not replay to %s:\n%s\n", r->name, r->inv, out ? out : "");
	free(out);
}

static void test_findings_replay(void)
{
	CU_ASSERT(each_repro("findings", finding_replays) >= 20);
}

/* traces/regress/: reproducers of model bugs that vmsim check found and
 * that were fixed; each must now hold the invariant its header names */
static void regress_holds(const struct repro *r)
{
	CU_ASSERT(r->kernel[0] && r->inv[0]);
	char *out = NULL;
	int rc = replay_repro(r, &out);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		fprintf(stderr, "%s regressed:\n%s\n", r->name, out ? out : "");
	free(out);
}

static void test_regress_hold(void)
{
	CU_ASSERT(each_repro("regress", regress_holds) >= 4);
}

/* 6.18 must hold these; the others are findings (docs/findings.md) */
static void test_real_6_18(void)
{
	static const char *const hold[] = {
		"rlimit-memlock", "unlock-complete", "fork-no-inherit", "onfault-no-prefault",
		"locked-never-reclaimed", "lru-consistent", "locked-madvise", NULL,
	};
	char cmd[2048], *out = NULL;
	int n = snprintf(cmd, sizeof(cmd), "%s/vmsim check --kernel 6.18 --runs 3000 --out %s", VMSIM_SRCDIR,
			 outdir);
	for (int i = 0; hold[i]; i++)
		n += snprintf(cmd + n, sizeof(cmd) - (size_t)n, " --invariant %s", hold[i]);
	int rc = run(cmd, &out);
	CU_ASSERT_EQUAL(rc, 0);
	for (int i = 0; hold[i]; i++) {
		char want[128];
		snprintf(want, sizeof(want), "invariant %s: held", hold[i]);
		CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, want) : NULL);
	}
	if (rc)
		fprintf(stderr, "%s\n", out ? out : "");
	free(out);
}

int main(void)
{
	snprintf(outdir, sizeof(outdir), "/tmp/vmsim-prop-check.%d", (int)getpid());
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	CU_pSuite s = CU_add_suite("check", NULL, NULL);
	CU_add_test(s, "broken semantics caught and shrunk", test_broken_caught);
	CU_add_test(s, "deterministic output", test_deterministic);
	CU_add_test(s, "findings reproducers replay", test_findings_replay);
	CU_add_test(s, "fixed model bugs stay fixed", test_regress_hold);
	CU_add_test(s, "6.18 holds what it should", test_real_6_18);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", outdir);
	if (system(cmd)) {
		/* leftover temp dir: harmless */
	}
	return fails ? 1 : 0;
}
