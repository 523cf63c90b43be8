/*
 * test_numa.c - the write bit across a NUMA hinting fault, with and
 * without the v4.0 fix ("mm: numa: preserve PTE write permissions across
 * a NUMA hinting fault", seed 003).  No shipped semantics lacks the fix,
 * so the "without" case runs on a copy of 4.0 with numa.preserve_write
 * off - what 4.0-rc4 did - and shows the second, write-protect fault the
 * CPU's retry of the write takes.
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

static struct semantics without_fix;

/* 16 written pages, one scan pass, then a write to each: the faults of
 * that write, and pgfault over the whole run */
static void write_after_scan(const struct semantics *sem, int64_t *faults, int64_t *pgfault)
{
	struct vmsys_config c;
	vmsys_config_default(&c, sem);
	c.ram = 64ULL << 20;
	c.numa_nodes = 2;
	char err[256];
	struct vmsys *s = vmsys_new(&c, err, sizeof(err));
	ck_assert_msg(s != NULL, "vmsys_new: %s", err);
	struct task *t = vmsys_task(s, 1, true);
	ck_assert_ptr_nonnull(t);
	vmsys_begin_call(s, t);
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

int main(void)
{
	without_fix = *semantics_find("4.0");
	without_fix.numa.preserve_write = false;
	Suite *s = suite_create("numa");
	TCase *tc = tcase_create("write bit");
	tcase_add_test(tc, write_bit_preserved_on_4_0);
	tcase_add_test(tc, write_bit_lost_without_the_fix);
	suite_add_tcase(s, tc);
	return check_run(s);
}
