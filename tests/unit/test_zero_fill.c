/*
 * test_zero_fill.c - a read of whole empty page tables with the zero page
 * on is done a table at a time (memory.c:zero_fill_table(), a uniform
 * leaf in radix.h) and leaves the machine exactly as the page-by-page
 * fault path does: every PTE, the page-table frames, pgfault, the task's
 * minor faults, and the fault events a tracepoint listener hears.  Two
 * machines run the same calls, one touching the range at once (a table at
 * a time), the other a page per touch (the page-by-page path), and are
 * compared after each.  The calls then write into a filled table (its
 * leaf made private), unmap part of one and whole ones (zap), protect,
 * fork and exit.
 *
 * And the radix's uniform leaves on their own: shared between slots,
 * copied on the first store, dropped whole, counted as leaves.
 */
#include "check_run.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "radix.h"
#include "semantics.h"
#include "vmstat.h"
#include "vmsys.h"

#include "uapi_x86.h"

#define A 0x40000000ULL
#define TABLE (512 * PG)

static void count_faults(void *ctx, const struct tp_event *e)
{
	if (e->id == TP_FAULT && e->kind == TPF_ZERO_PAGE)
		++*(uint64_t *)ctx;
}

static struct vmsys *machine(const char *kernel, uint64_t *events, struct task **tp)
{
	struct vmsys_config c;
	const struct semantics *sem = semantics_find(kernel);
	ck_assert_ptr_nonnull(sem);
	vmsys_config_default(&c, sem);
	c.ram = 256ULL << 20;
	c.zero_page = 1;
	char err[256];
	struct vmsys *s = vmsys_new(&c, err, sizeof(err));
	ck_assert_msg(s != NULL, "vmsys_new: %s", err);
	if (events)
		vmsys_set_tracepoint(s, count_faults, events);
	struct task *t = vmsys_task(s, 1, true);
	ck_assert_ptr_nonnull(t);
	vmsys_begin_call(s, t);
	*tp = t;
	return s;
}

/* the two machines agree on every PTE of pid's mm, the frames of its page
 * tables, pgfault and the task's faults; the radix of each verifies */
static void same_state(struct vmsys *a, struct task *ta, struct vmsys *b, struct task *tb,
		       const char *when)
{
	ck_assert_msg(vmsys_vmstat(a, PGFAULT) == vmsys_vmstat(b, PGFAULT), "%s: pgfault %lld vs %lld",
		      when, (long long)vmsys_vmstat(a, PGFAULT), (long long)vmsys_vmstat(b, PGFAULT));
	ck_assert_msg(a->pm.nr_pt == b->pm.nr_pt, "%s: page tables %llu vs %llu", when,
		      (unsigned long long)a->pm.nr_pt, (unsigned long long)b->pm.nr_pt);
	ck_assert_msg(ta->min_flt == tb->min_flt && ta->maj_flt == tb->maj_flt, "%s: faults", when);
	if (!ta->mm || !tb->mm) {
		ck_assert_msg(!ta->mm && !tb->mm, "%s: one mm gone", when);
		return;
	}
	struct radix *ra = &ta->mm->pt, *rb = &tb->mm->pt;
	ck_assert_msg(ra->count == rb->count, "%s: %llu vs %llu PTEs", when,
		      (unsigned long long)ra->count, (unsigned long long)rb->count);
	uint64_t ka = 0, kb = 0;
	for (;;) {
		bool fa = radix_next(ra, &ka, RADIX_KEY_MAX), fb = radix_next(rb, &kb, RADIX_KEY_MAX);
		ck_assert_msg(fa == fb, "%s: one walk ended first", when);
		if (!fa)
			break;
		ck_assert_msg(ka == kb && radix_get(ra, ka) == radix_get(rb, kb),
			      "%s: vpn 0x%llx pte 0x%llx vs vpn 0x%llx pte 0x%llx", when,
			      (unsigned long long)ka, (unsigned long long)radix_get(ra, ka),
			      (unsigned long long)kb, (unsigned long long)radix_get(rb, kb));
		ka++;
		kb++;
	}
	uint64_t where;
	ck_assert_msg(radix_verify(ra, &where) && radix_verify(rb, &where), "%s: radix_verify", when);
}

static void run_calls(const char *kernel)
{
	uint64_t events[2] = { 0, 0 };
	struct task *ta, *tb;
	struct vmsys *a = machine(kernel, &events[0], &ta), *b = machine(kernel, &events[1], &tb);
	struct vmsys *m[2] = { a, b };
	struct task *t[2] = { ta, tb };
	/* 8 tables and 3 pages, starting a page into a table: a partial
	 * table at each end */
	uint64_t start = A + PG, len = 8 * TABLE + 3 * PG;
	int64_t faults[2] = { 0, 0 };
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(vm_mmap(m[i], t[i], start, len, P_RW, M_PRIVATE | M_ANON | M_FIXED, -1, 0,
					 false, 0), (int64_t)start);
	faults[0] = vm_touch(a, ta, start, len, 1, NULL);
	for (uint64_t p = start; p < start + len; p += PG)
		faults[1] += vm_touch(b, tb, p, PG, 1, NULL);
	ck_assert_int_eq(faults[0], (int64_t)(len / PG));
	ck_assert_int_eq(faults[1], faults[0]);
	ck_assert_uint_eq(events[0], len / PG);
	ck_assert_uint_eq(events[1], len / PG);
	uint64_t v;
	ck_assert(radix_leaf_uniform(&ta->mm->pt, (A + TABLE) >> 12, &v)); /* the fast path ran */
	ck_assert(!radix_leaf_uniform(&tb->mm->pt, (A + TABLE) >> 12, &v));
	same_state(a, ta, b, tb, "read touch");
	/* a read again writes nothing; a write into a filled table, and a read
	 * of a page there */
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(vm_touch(m[i], t[i], start, len, 1, NULL), 0);
		ck_assert_int_eq(vm_touch(m[i], t[i], A + 3 * TABLE + 7 * PG, PG, 2, NULL), 1);
		ck_assert_int_eq(vm_access(m[i], t[i], A + 3 * TABLE + 9 * PG, 1), VMF_NONE);
	}
	same_state(a, ta, b, tb, "write into a table");
	for (int i = 0; i < 2; i++) {
		/* part of one table, then two whole ones */
		ck_assert_int_eq(vm_munmap(m[i], t[i], A + 5 * TABLE + 100 * PG, 20 * PG), 0);
		ck_assert_int_eq(vm_munmap(m[i], t[i], A + 6 * TABLE, 2 * TABLE), 0);
		ck_assert_int_eq(vm_mprotect(m[i], t[i], A + TABLE, TABLE, P_R), 0);
		ck_assert_int_eq(vm_fork(m[i], t[i], 0, 2), 2);
	}
	same_state(a, ta, b, tb, "munmap, mprotect, fork");
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(vm_munmap(m[i], t[i], A, 10 * TABLE), 0);
	same_state(a, ta, b, tb, "munmap of everything");
	ck_assert_uint_eq(a->pm.nr_pt, b->pm.nr_pt);
	vmsys_free(a);
	vmsys_free(b);
}

START_TEST(table_at_a_time_is_page_by_page)
{
	static const char *kernels[] = { "6.18", "6.1", "4.4", "4.0", "lof-v1" };
	run_calls(kernels[_i]);
}
END_TEST

/* a read of 64 TiB in 256 MiB: the page tables fill the machine in a
 * pointer per table of host memory */
START_TEST(terabytes_of_zero_pages_cost_a_pointer_a_table)
{
	struct task *t;
	struct vmsys *s = machine("6.18", NULL, &t);
	uint64_t len = 1ULL << 46, at = 0x3ffff7fff000ULL & ~(TABLE - 1);
	ck_assert_int_eq(vm_mmap(s, t, at, len, P_R, M_PRIVATE | M_ANON | M_FIXED | M_NORESERVE, -1, 0,
				 false, 0), (int64_t)at);
	vm_touch(s, t, at, len, 1, NULL);
	/* the OOM killer chose it: its tables filled the RAM; it dies as the
	 * access returns */
	ck_assert(t->oom_killed);
	ck_assert_uint_ge(t->mm->pt.nleaves, 60000);
	vmsys_end_call(s, t);
	ck_assert(!t->alive);
	ck_assert_uint_eq(s->pm.nr_pt, 0);
	vmsys_free(s);
}
END_TEST

START_TEST(uniform_leaves_are_shared_until_written)
{
	struct radix r;
	uint64_t charge = 0, v;
	radix_init(&r);
	r.leaf_charge = &charge;
	for (uint64_t k = 0; k < 4; k++)
		ck_assert_int_eq(radix_fill_leaf(&r, (k * 7) << RADIX_BITS, 0x1234), 0);
	ck_assert_int_eq(radix_fill_leaf(&r, 7 << RADIX_BITS, 0x1234), -1); /* exists */
	ck_assert_uint_eq(charge, 4);
	ck_assert_uint_eq(r.count, 4 * RADIX_FAN);
	ck_assert(radix_leaf_uniform(&r, 14 << RADIX_BITS, &v) && v == 0x1234);
	ck_assert_uint_eq(radix_get(&r, (14 << RADIX_BITS) + 5), 0x1234);
	/* a store copies: the others keep the value */
	*radix_peek(&r, (7 << RADIX_BITS) + 3) |= 0x10000;
	ck_assert(!radix_leaf_uniform(&r, 7 << RADIX_BITS, &v));
	ck_assert_uint_eq(radix_get(&r, (7 << RADIX_BITS) + 3), 0x11234);
	ck_assert_uint_eq(radix_get(&r, (14 << RADIX_BITS) + 3), 0x1234);
	ck_assert_uint_eq(radix_get(&r, 3), 0x1234);
	radix_clear(&r, (21 << RADIX_BITS) + 511);
	ck_assert_uint_eq(radix_get(&r, (21 << RADIX_BITS) + 511), 0);
	ck_assert_uint_eq(radix_get(&r, (14 << RADIX_BITS) + 511), 0x1234);
	ck_assert_uint_eq(r.count, 4 * RADIX_FAN - 1);
	radix_drop_leaf(&r, 14 << RADIX_BITS);
	ck_assert_uint_eq(radix_get(&r, 14 << RADIX_BITS), 0);
	ck_assert_uint_eq(r.count, 3 * RADIX_FAN - 1);
	ck_assert_uint_eq(charge, 3);
	uint64_t where, k = 0, n = 0;
	ck_assert(radix_verify(&r, &where));
	while (radix_next(&r, &k, RADIX_KEY_MAX)) {
		n++;
		k++;
	}
	ck_assert_uint_eq(n, r.count);
	radix_destroy(&r);
	ck_assert_uint_eq(charge, 0);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("zero_fill");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, table_at_a_time_is_page_by_page, 0, 5);
	tcase_add_test(tc, terabytes_of_zero_pages_cost_a_pointer_a_table);
	tcase_add_test(tc, uniform_leaves_are_shared_until_written);
	suite_add_tcase(su, tc);
	return run_check_suite(su);
}
