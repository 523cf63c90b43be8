/*
 * test_numa.c - the write bit across a NUMA hinting fault, with and
 * without the v4.0 fix ("mm: numa: preserve PTE write permissions across
 * a NUMA hinting fault", seed 003).  No shipped semantics lacks the fix,
 * so the "without" case runs on a copy of 4.0 with numa.preserve_write
 * off - what 4.0-rc4 did - and shows the second, write-protect fault the
 * CPU's retry of the write takes.
 *
 * And the placement's retry gate of 6.x (task_numa_fault() @ v6.1 runs
 * task_numa_placement() only after numa_migrate_retry): shown on 4.4's
 * scan-period formula with the gate added, since that formula can shorten
 * the period and so bring the next pass within the gate's sixteenth of
 * it.
 */
#include "check_run.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "semantics.h"
#include "vmstat.h"
#include "vmsys.h"

#include "uapi_x86.h"

#define A 0x20000000ULL
#define NPAGES 16

static struct semantics without_fix, with_retry_gate;

/* a machine of ram bytes on two nodes, its first process running a call */
static struct vmsys *two_nodes(const struct semantics *sem, uint64_t ram, struct task **tp)
{
	struct vmsys_config c;
	vmsys_config_default(&c, sem);
	c.ram = ram;
	c.numa_nodes = 2;
	char err[256];
	struct vmsys *s = vmsys_new(&c, err, sizeof(err));
	ck_assert_msg(s != NULL, "vmsys_new: %s", err);
	struct task *t = vmsys_task(s, 1, true);
	ck_assert_ptr_nonnull(t);
	vmsys_begin_call(s, t);
	*tp = t;
	return s;
}

/* 16 written pages, one scan pass, then a write to each: the faults of
 * that write, and pgfault over the whole run */
static void write_after_scan(const struct semantics *sem, int64_t *faults, int64_t *pgfault)
{
	struct task *t;
	struct vmsys *s = two_nodes(sem, 64ULL << 20, &t);
	ck_assert_int_eq(vm_mmap(s, t, A, NPAGES * PG, P_RW, M_PRIVATE | M_ANON | M_FIXED, -1, 0, false, 0),
			 (int64_t)A);
	ck_assert_int_eq(vm_touch(s, t, A, NPAGES * PG, 2, NULL), NPAGES);
	ck_assert_int_eq(vm_numa_scan(s, t), NPAGES);
	*faults = vm_touch(s, t, A, NPAGES * PG, 2, NULL);
	/* whatever the faults, the pages end writable and mapped */
	ck_assert_int_eq(vm_touch(s, t, A, NPAGES * PG, 2, NULL), 0);
	vmsys_end_call(s, t);
	*pgfault = vmsys_vmstat(s, vmstat_find("pgfault", 7));
	ck_assert_int_eq(vmsys_vmstat(s, vmstat_find("numa_hint_faults", 16)), NPAGES);
	vmsys_free(s);
}

START_TEST(write_bit_preserved_on_4_0)
{
	int64_t faults, pgfault;
	write_after_scan(semantics_find("4.0"), &faults, &pgfault);
	ck_assert_int_eq(faults, NPAGES);      /* one hinting fault each */
	ck_assert_int_eq(pgfault, 2 * NPAGES); /* the first touch, then the hints */
}
END_TEST

START_TEST(write_bit_lost_without_the_fix)
{
	int64_t faults, pgfault;
	write_after_scan(&without_fix, &faults, &pgfault);
	ck_assert_int_eq(faults, 2 * NPAGES);  /* the hint, then do_wp_page() */
	ck_assert_int_eq(pgfault, 3 * NPAGES);
}
END_TEST


/* The scan period after a placement made just before a pass, and a
 * hinting fault right after that pass: with the gate the second placement
 * waits, so the period stays what the first one made it. */
static uint32_t period_after_late_placement(const struct semantics *sem, uint64_t *gap)
{
	struct task *t;
	struct vmsys *s = two_nodes(sem, 1ULL << 30, &t);
	/* 48 pages on node 0, 16 on node 1, the task on node 1 (shared: 6.x
	 * would not skip the local ones) */
	ck_assert_int_eq(vm_mmap(s, t, A, 64 * PG, P_RW, M_SHARED | M_ANON | M_FIXED, -1, 0, false, 0),
			 (int64_t)A);
	ck_assert_int_eq(vm_touch(s, t, A, 48 * PG, 2, NULL), 48);
	ck_assert_int_eq(vm_numa_node(s, t, 1), 0);
	ck_assert_int_eq(vm_touch(s, t, A + 48 * PG, 16 * PG, 2, NULL), 16);
	ck_assert_int_eq(vm_numa_run(s, t, 2100), 1);
	ck_assert_int_eq(vm_touch(s, t, A, 64 * PG, 1, NULL), 64); /* placement 1: doubled */
	struct numa_clock k;
	vmsys_numa_clock(s, t, &k);
	ck_assert_uint_eq(k.period_ms, 2000);
	ck_assert_int_eq(vm_numa_scan(s, t), 64); /* pass 2, no fault yet */
	vmsys_numa_clock(s, t, &k);
	/* run to 10 jiffies before the next scan is due, then one fault:
	 * placement 2 (16 local of 64: faster, to 1,000 ms) */
	ck_assert_int_eq(vm_numa_run(s, t, (k.next_scan - k.jiffies - 10) * 4), 0);
	ck_assert_int_eq(vm_touch(s, t, A, PG, 1, NULL), 1);
	vmsys_numa_clock(s, t, &k);
	ck_assert_uint_eq(k.period_ms, 1000);
	uint64_t placed = k.jiffies;
	ck_assert_int_eq(vm_numa_scan(s, t), 1); /* pass 3: re-marks the page */
	vmsys_numa_clock(s, t, &k);
	*gap = k.jiffies - placed;
	ck_assert_int_eq(vm_touch(s, t, A, 64 * PG, 1, NULL), 64); /* placement 3, or not */
	vmsys_numa_clock(s, t, &k);
	vmsys_end_call(s, t);
	vmsys_free(s);
	return (uint32_t)k.period_ms;
}

START_TEST(placement_waits_for_retry_on_6x)
{
	uint64_t gap;
	/* 4.4: the fault after pass 3 runs placement 3 (one local fault: slower) */
	ck_assert_uint_eq(period_after_late_placement(semantics_find("4.4"), &gap), 1300);
	/* with the gate: pass 3 came 12 jiffies after placement 2, within its
	 * 1,000 ms / 16 = 15 jiffies, so no placement and the period stays */
	ck_assert_uint_eq(period_after_late_placement(&with_retry_gate, &gap), 1000);
	ck_assert_uint_lt(gap, 16);
}
END_TEST

int main(void)
{
	without_fix = *semantics_find("4.0");
	without_fix.numa.preserve_write = false;
	with_retry_gate = *semantics_find("4.4");
	with_retry_gate.numa.placement_after_retry = true;
	Suite *s = suite_create("numa");
	TCase *tc = tcase_create("write bit");
	tcase_add_test(tc, write_bit_preserved_on_4_0);
	tcase_add_test(tc, write_bit_lost_without_the_fix);
	suite_add_tcase(s, tc);
	TCase *tp = tcase_create("scan period");
	tcase_add_test(tp, placement_waits_for_retry_on_6x);
	suite_add_tcase(s, tp);
	return run_check_suite(s);
}
