/*
 * test_diff_standing.c - the standing differences of vmsim diff
 * (sim/replay/diff_standing.c) against a plain table of what should stand:
 * random epochs note page and VMA differences, new, changed or as they
 * stood, in processes and ranges, and end what a range did not note
 * again; after each epoch the two agree on what stands, on every answer
 * of standing_note(), on every difference ended, in address order, and
 * on whether anything stands at all (standing_any()).
 */
#include "check_run.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "diff_standing.h"

#define PIDS 3
#define SLOTS 4096 /* addresses: 4096 pages from BASE, one of the 2 kinds */
#define BASE 0x7f0000000000ULL

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* the plain table: kinds SD_PAGE and SD_VMFLAGS, by pid and page */
struct want {
	bool stands;
	uint64_t a, b;
};
static struct want want[PIDS][2][SLOTS];

static enum sd_kind kind_of(int k) { return k ? SD_VMFLAGS : SD_PAGE; }

struct ends {
	unsigned n;
	int pid[SLOTS];
	enum sd_kind kind[SLOTS];
	uint64_t key[SLOTS];
};

static void on_end(void *ctx, enum sd_kind kind, int pid, uint64_t key)
{
	struct ends *e = ctx;
	ck_assert_uint_lt(e->n, SLOTS);
	e->pid[e->n] = pid;
	e->kind[e->n] = kind;
	e->key[e->n++] = key;
}

START_TEST(standing_agrees_with_a_plain_table)
{
	struct standing *st = standing_new();
	ck_assert_ptr_nonnull(st);
	static bool noted[PIDS][2][SLOTS];
	unsigned ended_total = 0, changed_total = 0, same_total = 0;
	for (int epoch = 0; epoch < 300; epoch++) {
		standing_epoch(st);
		memset(noted, 0, sizeof(noted));
		int pid = 1 + (int)(next_rand() % PIDS);
		int k = (int)(next_rand() % 2);
		/* a range of the address space this comparison looks at */
		unsigned lo = (unsigned)(next_rand() % SLOTS), len = 1 + (unsigned)(next_rand() % 600);
		unsigned hi = lo + len > SLOTS ? SLOTS : lo + len;
		for (unsigned i = lo; i < hi; i++) {
			if (next_rand() % 3)
				continue; /* the two sides agree there now */
			struct want *w = &want[pid - 1][k][i];
			uint64_t a = next_rand() % 4, b = 4 + next_rand() % 4;
			if (w->stands && next_rand() % 2) /* often as it stood */
				a = w->a, b = w->b;
			int n = standing_note(st, kind_of(k), pid, BASE + (uint64_t)i * 4096, a, b);
			int expect = w->stands && w->a == a && w->b == b ? 0 : 1;
			ck_assert_int_eq(n, expect);
			changed_total += expect;
			same_total += !expect;
			*w = (struct want){ true, a, b };
			noted[pid - 1][k][i] = true;
		}
		struct ends e = { 0 };
		standing_end_range(st, kind_of(k), pid, BASE + (uint64_t)lo * 4096, BASE + (uint64_t)hi * 4096,
				   on_end, &e);
		unsigned j = 0;
		for (unsigned i = lo; i < hi; i++) {
			struct want *w = &want[pid - 1][k][i];
			if (!w->stands || noted[pid - 1][k][i])
				continue;
			/* ended, in address order */
			ck_assert_uint_lt(j, e.n);
			ck_assert_int_eq(e.pid[j], pid);
			ck_assert_int_eq(e.kind[j], kind_of(k));
			ck_assert_uint_eq(e.key[j], BASE + (uint64_t)i * 4096);
			j++;
			w->stands = false;
		}
		ck_assert_uint_eq(j, e.n);
		ended_total += e.n;
		bool any = false;
		for (int p = 0; p < PIDS && !any; p++)
			for (int q = 0; q < 2 && !any; q++)
				for (unsigned i = 0; i < SLOTS && !any; i++)
					any = want[p][q][i].stands;
		ck_assert_int_eq(standing_any(st), any);
		/* nothing outside the range ended: a note of what stands there
		 * says "as it stood" */
		for (int p = 0; p < PIDS; p++)
			for (int q = 0; q < 2; q++) {
				unsigned i = (unsigned)(next_rand() % SLOTS);
				struct want *w = &want[p][q][i];
				if (w->stands)
					ck_assert_int_eq(standing_note(st, kind_of(q), p + 1, BASE + (uint64_t)i * 4096,
								       w->a, w->b), 0);
			}
	}
	ck_assert_uint_gt(ended_total, 1000);
	ck_assert_uint_gt(changed_total, 1000);
	ck_assert_uint_gt(same_total, 1000);
	/* end every difference: nothing stands */
	for (int p = 1; p <= PIDS; p++)
		for (int q = 0; q < 2; q++) {
			standing_epoch(st);
			struct ends e = { 0 };
			standing_end_range(st, kind_of(q), p, BASE, BASE + (uint64_t)SLOTS * 4096, on_end, &e);
		}
	ck_assert(!standing_any(st));
	standing_free(st);
}
END_TEST

static void count_pid(void *ctx, int pid)
{
	(void)pid;
	(*(unsigned *)ctx)++;
}

START_TEST(one_valued_differences_and_processes)
{
	struct standing *st = standing_new();
	ck_assert_ptr_nonnull(st);
	standing_epoch(st);
	ck_assert_int_eq(standing_note(st, SD_VMLCK, 5, 0, 16, 24), 1);
	ck_assert_int_eq(standing_note(st, SD_TASK, 6, 0, 1, 0), 1);
	ck_assert_int_eq(standing_note(st, SD_NR_MLOCK, 0, 0, 3, 4), 1);
	ck_assert_uint_eq(standing_tasks(st), 1);
	ck_assert(standing_any(st));
	/* the next epoch: VmLck as it stood, the process agrees again */
	standing_epoch(st);
	ck_assert_int_eq(standing_note(st, SD_VMLCK, 5, 0, 16, 24), 0);
	struct ends e = { 0 };
	standing_end_one(st, SD_VMLCK, 5, on_end, &e);
	standing_end_one(st, SD_TASK, 6, on_end, &e);
	standing_end_one(st, SD_DEF_FLAGS, 7, on_end, &e); /* none stands: nothing */
	ck_assert_uint_eq(e.n, 1);
	ck_assert_int_eq(e.kind[0], SD_TASK);
	ck_assert_int_eq(e.pid[0], 6);
	ck_assert_uint_eq(standing_tasks(st), 0);
	/* nr_mlock changed */
	ck_assert_int_eq(standing_note(st, SD_NR_MLOCK, 0, 0, 3, 5), 1);
	/* forgetting a process drops its differences without ending them */
	unsigned n = 0;
	standing_each_pid(st, count_pid, &n);
	ck_assert_uint_eq(n, 2);
	standing_forget(st, 5);
	n = 0;
	standing_each_pid(st, count_pid, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert(standing_any(st)); /* nr_mlock */
	standing_epoch(st);
	standing_end_one(st, SD_NR_MLOCK, 0, on_end, &e);
	ck_assert(!standing_any(st)); /* process 6's prec is empty: nothing stands */
	standing_epoch(st);
	ck_assert_int_eq(standing_note(st, SD_VMLCK, 5, 0, 16, 24), 1); /* new again */
	standing_free(st);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diff_standing");
	TCase *tc = tcase_create("standing");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, standing_agrees_with_a_plain_table);
	tcase_add_test(tc, one_valued_differences_and_processes);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
