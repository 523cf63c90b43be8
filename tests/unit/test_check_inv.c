/*
 * test_check_inv.c - check_inv_before_next(), which vmsim check's loops
 * use, finds exactly what check_inv_before() finds; and the after-check of
 * an access, which reuses the last walk of each mm's VMAs, exactly what a
 * full walk finds.
 *
 * The fast before-check takes the locked-never-reclaimed snapshot and the
 * caller's locked pages from the walk of the previous after-check instead
 * of walking the machine again; the fast after-check walks an mm's VMAs
 * again only after a call that is not an access and may take the mmap
 * write lock (not reclaim, NUMA scans, limits, file I/O), or when
 * total_vm or map_count moved (a stack grown).  Two checkers watch the same generated
 * runs on the same machine, one with each before-check: after every step
 * they must report the same violated invariants with the same messages.
 * The runs are long enough (2,000 steps) for forks, exits, OOM kills,
 * reclaim of locked and unlocked pages and the semantics' own violations
 * to occur, on every shipped semantics.
 */
#include "check_run.h"
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "apply.h"
#include "check_gen.h"
#include "check_inv.h"
#include "semantics.h"
#include "vmsys.h"

#define RUNS 24
#define STEPS 2000


/* the steps at which some invariant failed, over every run */
static unsigned run_both(const char *kernel)
{
	const struct semantics *sem = semantics_find(kernel);
	ck_assert_ptr_nonnull(sem);
	unsigned failing = 0;
	static struct event ev;
	for (uint64_t seed = 1; seed <= RUNS; seed++) {
		struct gen_machine m;
		gen_machine(seed, &m);
		char why[256];
		struct vmsys *s = gen_machine_new(&m, sem, "x86_64", why, sizeof(why));
		ck_assert_msg(s != NULL, "gen_machine_new: %s", why);
		struct check_inv *slow = check_inv_new(s, INV_ALL), *fast = check_inv_new(s, INV_ALL);
		ck_assert(slow && fast);
		check_inv_set_full_walks(slow, true);
		struct gen g;
		gen_init(&g, seed, &gen_weights_default, s);
		for (unsigned i = 0; i < STEPS; i++) {
			struct gstep st;
			gen_next(&g, &st);
			gstep_event(&st, &ev);
			check_inv_before(slow, &ev);
			check_inv_before_next(fast, &ev);
			struct outcome out;
			char err[128];
			if (apply_event(s, &ev, &out, err, sizeof(err)))
				out.kind = OUT_NONE;
			uint32_t a = check_inv_after(slow, &ev, &out), b = check_inv_after(fast, &ev, &out);
			char line[300] = "";
			if (a != b)
				trace_format_event(&ev, "x86_64", kernel, line, sizeof(line));
			ck_assert_msg(a == b, "%s seed %llu step %u (%s): violations %#x (full walk: %s) vs %#x (reused walk)",
				      kernel, (unsigned long long)seed, i, line, a,
				      a ? check_inv_msg(slow, (unsigned)__builtin_ctz(a)) : "", b);
			for (unsigned k = 0; k < INV_NR; k++)
				if (a & (1u << k))
					ck_assert_str_eq(check_inv_msg(slow, k), check_inv_msg(fast, k));
			failing += a != 0;
		}
		check_inv_free(slow);
		check_inv_free(fast);
		vmsys_free(s);
	}
	return failing;
}

START_TEST(reused_walk_finds_what_a_full_walk_finds)
{
	static const char *const kernels[] = { "4.0", "lof-v1", "4.4", "6.1", "6.18" };
	unsigned failing = 0;
	for (unsigned i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		failing += run_both(kernels[i]);
	/* the runs do reach violations: the comparison is not of empty sets */
	ck_assert_uint_gt(failing, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("check_inv");
	TCase *tc = tcase_create("before_next");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, reused_walk_finds_what_a_full_walk_finds);
	suite_add_tcase(s, tc);
	return check_run(s);
}
