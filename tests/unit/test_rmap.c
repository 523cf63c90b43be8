/*
 * test_rmap.c - the reverse map of an anonymous page through its
 * anon_vma's chains (model/rmap.c:anon_walk()) finds the same mappings, in
 * the same order, as the walk of every VMA of every live mm it replaced.
 *
 * The order matters: a walk stops at the first VM_LOCKED VMA (reclaim's
 * referenced check, try_to_unmap()), and what it did before that - young
 * bits cleared, PTEs turned into swap entries - must not depend on how
 * the VMAs were found.  Two machines replay the same generated runs, one
 * with the full walk (vmsys_set_rmap_full_walk()); after every step the
 * outcome, every vmstat counter, each live task's locked and total pages
 * and each page of the generator's arena must agree.  The runs fork,
 * COW, reclaim with and without swap, migrate and kill, on every shipped
 * semantics.
 */
#include "check_run.h"
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "replay.h"
#include "checker.h"
#include "semantics.h"
#include "vmsys.h"
#include "vmstat.h"

#define RUNS 16
#define STEPS 1500
#define ARENA 0x7f0000000000ULL
#define ARENA_PAGES (32 * 64)

static void same_pages(struct vmsys *a, struct vmsys *b, int pid, const char *what)
{
	struct task *ta = vmsys_task(a, pid, false), *tb = vmsys_task(b, pid, false);
	if ((ta == NULL) != (tb == NULL))
		ck_abort_msg("%s: pid %d exists in one machine only", what, pid);
	if (!ta || !task_alive(ta) || !task_alive(tb))
		return;
	for (uint64_t i = 0; i < ARENA_PAGES; i++) {
		struct vm_page_info pa, pb;
		memset(&pa, 0, sizeof(pa));
		memset(&pb, 0, sizeof(pb));
		bool ha = vmsys_page(a, ta, ARENA + i * 4096, &pa), hb = vmsys_page(b, tb, ARENA + i * 4096, &pb);
		if (ha != hb || (ha && memcmp(&pa, &pb, sizeof(pa))))
			ck_abort_msg("%s: pid %d page 0x%llx differs", what, pid, (unsigned long long)(ARENA + i * 4096));
	}
}

static unsigned run(const char *kernel)
{
	const struct semantics *sem = semantics_find(kernel);
	ck_assert_ptr_nonnull(sem);
	unsigned walks = 0;
	static struct event ev;
	for (uint64_t seed = 1; seed <= RUNS; seed++) {
		struct gen_machine m;
		gen_machine(seed, &m);
		char why[256];
		struct vmsys *fast = gen_machine_new(&m, sem, "x86_64", why, sizeof(why));
		struct vmsys *full = gen_machine_new(&m, sem, "x86_64", why, sizeof(why));
		ck_assert_msg(fast && full, "gen_machine_new: %s", why);
		vmsys_set_rmap_full_walk(full, true);
		struct gen g;
		gen_init(&g, seed, &gen_weights_default, fast);
		for (unsigned i = 0; i < STEPS; i++) {
			struct gstep st;
			gen_next(&g, &st);
			gstep_event(&st, &ev);
			struct outcome oa, ob;
			char err[128], what[300];
			if (apply_event(fast, &ev, &oa, err, sizeof(err)))
				oa.kind = OUT_NONE;
			if (apply_event(full, &ev, &ob, err, sizeof(err)))
				ob.kind = OUT_NONE;
			what[0] = 0;
			if (oa.kind != ob.kind || oa.value != ob.value ||
			    vmsys_vmstat(fast, PGSCAN_ANON) != vmsys_vmstat(full, PGSCAN_ANON) || i % 50 == 49 ||
			    ev.sys == SYS_RECLAIM)
				trace_format_event(&ev, "x86_64", kernel, what, sizeof(what));
			/* (plain tests: each ck_assert() marks a point in a file) */
			if (oa.kind != ob.kind || oa.value != ob.value)
				ck_abort_msg("%s seed %llu step %u (%s): outcomes differ", kernel,
					     (unsigned long long)seed, i, what);
			for (int k = 0; k < NR_VMSTAT_ITEMS; k++)
				if (vmsys_vmstat(fast, k) != vmsys_vmstat(full, k))
					ck_abort_msg("%s seed %llu step %u (%s): %s %lld vs %lld (full walk)", kernel,
						     (unsigned long long)seed, i, what, vmstat_name((enum vmstat_item)k),
						     (long long)vmsys_vmstat(fast, k), (long long)vmsys_vmstat(full, k));
			if (i % 50 == 49 || ev.sys == SYS_RECLAIM)
				for (unsigned p = 0; p < g.nprocs; p++)
					same_pages(fast, full, g.pids[p], what);
		}
		walks += (unsigned)(vmsys_vmstat(fast, PGSCAN_ANON) + vmsys_vmstat(fast, PGREFILL) > 0);
		vmsys_free(fast);
		vmsys_free(full);
	}
	return walks;
}

START_TEST(anon_walk_matches_full_walk)
{
	static const char *const kernels[] = { "4.0", "lof-v1", "4.4", "6.1", "6.18" };
	unsigned walks = 0;
	for (unsigned i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		walks += run(kernels[i]);
	/* the runs do walk anonymous pages: reclaim scanned some */
	ck_assert_uint_gt(walks, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rmap");
	TCase *tc = tcase_create("anon_walk");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, anon_walk_matches_full_walk);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
