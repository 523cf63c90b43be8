/*
 * test_thp.c - anonymous transparent huge pages through the public API
 * (mm/huge_memory.c, mm/memory.c @ v6.1, v6.18): which faults map a PMD
 * (the mode, MADV_HUGEPAGE and MADV_NOHUGEPAGE, the range inside the VMA,
 * no page table there yet), one fault for 512 pages, the huge zero page
 * and a write to it per version, and the PMD mapping ended by a cut.
 */
#include "check_run.h"
#include <check.h>
#include <string.h>

#include "kerr.h"
#include "test_machine.h"
#include "vmflags.h"

#define P_RW 0x3
#define M_PRIVATE 0x02
#define M_ANON 0x20
#define ADV_HUGEPAGE 14
#define ADV_NOHUGEPAGE 15
#define HUGE (2ULL << 20)
#define BASE 0x7f0000000000ULL

static struct vmsys *S;
static struct task *T;

static void machine(const char *kernel, int thp)
{
	struct vmsys_config c;
	test_config(&c, kernel);
	c.thp = thp;
	c.zero_page = 1;
	S = test_machine_new(&c, &T);
}

/* 8 MiB at a 2 MiB boundary */
static uint64_t region(void)
{
	int64_t a = vm_mmap(S, T, BASE, 4 * HUGE, P_RW, M_PRIVATE | M_ANON | 0x10 /* MAP_FIXED */, -1, 0,
			    false, 0);
	ck_assert_uint_eq((uint64_t)a, BASE);
	return BASE;
}

static uint64_t rss_kb(void)
{
	struct vm_status st;
	vmsys_status(S, T, &st);
	return st.rss_anon * 4;
}

static uint64_t anon_huge_kb(uint64_t addr)
{
	struct vm_vma_info vi;
	ck_assert(vmsys_vma_at(S, T, addr, &vi));
	return vi.anon_huge >> 10;
}

START_TEST(which_faults_map_a_pmd)
{
	/* never: small pages */
	machine("6.18", 0);
	uint64_t a = region();
	ck_assert_int_eq(vm_touch(S, T, a, 1, 2, NULL), 1);
	ck_assert_uint_eq(rss_kb(), 4);
	test_machine_free(S);
	/* madvise: only where MADV_HUGEPAGE asked */
	machine("6.18", 1);
	a = region();
	ck_assert_int_eq(vm_touch(S, T, a, 1, 2, NULL), 1);
	ck_assert_uint_eq(rss_kb(), 4);
	ck_assert_int_eq(vm_madvise(S, T, a + HUGE, 2 * HUGE, ADV_HUGEPAGE), 0);
	ck_assert_int_eq(vm_touch(S, T, a + HUGE + 5, 1, 2, NULL), 1);
	ck_assert_uint_eq(rss_kb(), 4 + 2048);
	ck_assert_uint_eq(anon_huge_kb(a + HUGE), 2048);
	/* the other 511 pages are there: no fault */
	ck_assert_int_eq(vm_touch(S, T, a + HUGE, HUGE, 2, NULL), 0);
	struct vm_meminfo mi;
	vmsys_meminfo(S, &mi);
	ck_assert_uint_eq(mi.anon_huge, 512);
	test_machine_free(S);
	/* always, but not where a page table is already, nor past the VMA,
	 * nor under MADV_NOHUGEPAGE */
	machine("6.18", 2);
	a = region();
	ck_assert_int_eq(vm_touch(S, T, a, 1, 2, NULL), 1);
	ck_assert_uint_eq(rss_kb(), 2048);
	ck_assert_int_eq(vm_madvise(S, T, a + HUGE, HUGE, ADV_NOHUGEPAGE), 0);
	ck_assert_int_eq(vm_touch(S, T, a + HUGE, 1, 2, NULL), 1);
	ck_assert_uint_eq(rss_kb(), 2048 + 4);
	ck_assert_int_eq(vm_munmap(S, T, a + 3 * HUGE + 4096, HUGE - 4096), 0);
	ck_assert_int_eq(vm_touch(S, T, a + 3 * HUGE, 1, 2, NULL), 1);
	ck_assert_uint_eq(rss_kb(), 2048 + 8);
	test_machine_free(S);
}
END_TEST

START_TEST(huge_zero_page)
{
	for (int k = 0; k < 2; k++) {
		machine(k ? "6.1" : "6.18", 2);
		uint64_t a = region();
		/* a read: the huge zero page, one fault, no Rss */
		ck_assert_int_eq(vm_touch(S, T, a, HUGE, 1, NULL), 1);
		ck_assert_uint_eq(rss_kb(), 0);
		ck_assert_uint_eq(anon_huge_kb(a), 0);
		/* a write: 6.18 allocates a THP, 6.1 copies one small page */
		ck_assert_int_eq(vm_touch(S, T, a + 8192, 1, 2, NULL), 1);
		ck_assert_uint_eq(rss_kb(), k ? 4 : 2048);
		ck_assert_uint_eq(anon_huge_kb(a), k ? 0 : 2048);
		test_machine_free(S);
	}
}
END_TEST

START_TEST(a_cut_ends_the_pmd)
{
	machine("6.18", 2);
	uint64_t a = region();
	ck_assert_int_eq(vm_touch(S, T, a, 1, 2, NULL), 1);
	ck_assert_int_eq(vm_touch(S, T, a + HUGE, 1, 2, NULL), 1);
	ck_assert_uint_eq(anon_huge_kb(a), 4096);
	/* mprotect of half a huge page splits the VMA there, and the PMD */
	ck_assert_int_eq(vm_mprotect(S, T, a, HUGE / 2, 1), 0);
	ck_assert_uint_eq(anon_huge_kb(a + HUGE), 2048);
	ck_assert_uint_eq(rss_kb(), 4096);
	/* an munmap of one page inside the other */
	ck_assert_int_eq(vm_munmap(S, T, a + HUGE + 4096, 4096), 0);
	ck_assert_uint_eq(anon_huge_kb(a + HUGE), 0);
	ck_assert_uint_eq(rss_kb(), 4096 - 4);
	struct vm_meminfo mi;
	vmsys_meminfo(S, &mi);
	ck_assert_uint_eq(mi.anon_huge, 0);
	test_machine_free(S);
}
END_TEST

/* The kernels whose THP rules differ, and a machine of kernel k with one
 * THP written at the region's start and mlocked (512 pages, Mlocked) */
static const char *const thp_kernels[] = { "6.18", "6.1", "4.4" };

static uint64_t locked_thp(int k)
{
	machine(thp_kernels[k], 2);
	uint64_t a = region();
	ck_assert_int_eq(vm_touch(S, T, a, 1, 2, NULL), 1);
	ck_assert_int_eq(vm_mlock(S, T, a, HUGE), 0);
	struct vm_meminfo mi;
	vmsys_meminfo(S, &mi);
	ck_assert_uint_eq(mi.mlocked, 512);
	return a;
}

/* /proc/kpageflags of a locked THP: 6.18 shows the folio's flags on
 * every page, 4.x and 6.1 each page's own, so the tails show neither
 * mlocked nor unevictable nor lru (fs/proc/page.c:stable_page_flags()) */
START_TEST(kpageflags_of_tail_pages)
{
	for (int k = 0; k < 3; k++) {
		uint64_t a = locked_thp(k);
		struct vm_page_info head, tail;
		ck_assert(vmsys_page(S, T, a, &head));
		ck_assert(vmsys_page(S, T, a + 5 * 4096, &tail));
		ck_assert_msg(head.mlocked && head.unevictable && head.lru && head.swapbacked,
			      "%s: head m%d u%d l%d s%d", thp_kernels[k], head.mlocked,
			      head.unevictable, head.lru, head.swapbacked);
		bool folio = k == 0;
		ck_assert_int_eq(tail.mlocked, folio);
		ck_assert_int_eq(tail.unevictable, folio);
		ck_assert_int_eq(tail.lru, folio);
		ck_assert_int_eq(tail.swapbacked, folio);
		/* the state is the folio's in every version: only the view differs */
		ck_assert(tail.present && tail.anon);
		ck_assert_uint_eq(tail.mlock_count, head.mlock_count);
		test_machine_free(S);
	}
}
END_TEST

/* A partial munlock of a locked THP splits its PMD: 6.x munlocks the
 * folio whole there (__split_huge_pmd_locked() @ v6.1, v6.18), so the
 * half still in the locked VMA is not mlocked, and locking the other half
 * again leaves it so (6.1 passes over a THP mapped by PTEs, 6.18 mlocks
 * only a folio wholly inside the range); 4.x splits the page into small
 * ones that keep their lock.  Checked on this machine's 6.18.44
 * (tests/real-programs/thp_mlock) and in Debian's 6.1 guest. */
START_TEST(partial_munlock_of_a_locked_thp)
{
	for (int k = 0; k < 3; k++) {
		uint64_t a = locked_thp(k);
		struct vm_meminfo mi;
		ck_assert_int_eq(vm_munlock(S, T, a + HUGE / 2, HUGE / 2), 0);
		ck_assert_uint_eq(anon_huge_kb(a), 0);
		struct vm_page_info head;
		ck_assert(vmsys_page(S, T, a, &head));
		vmsys_meminfo(S, &mi);
		bool folio = k < 2;
		ck_assert_msg(head.mlocked == !folio, "%s: head mlocked %d", thp_kernels[k], head.mlocked);
		ck_assert_uint_eq(mi.mlocked, folio ? 0 : 256);
		/* locking again what the cut unlocked */
		ck_assert_int_eq(vm_mlock(S, T, a + HUGE / 2, HUGE / 2), 0);
		vmsys_meminfo(S, &mi);
		ck_assert_uint_eq(mi.mlocked, folio ? 0 : 512);
		/* unmapping it whole frees every page, none left mlocked */
		ck_assert_int_eq(vm_munmap(S, T, a, HUGE), 0);
		vmsys_meminfo(S, &mi);
		ck_assert_uint_eq(mi.mlocked, 0);
		test_machine_free(S);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("thp");
	TCase *tc = tcase_create("thp");
	tcase_add_test(tc, which_faults_map_a_pmd);
	tcase_add_test(tc, huge_zero_page);
	tcase_add_test(tc, a_cut_ends_the_pmd);
	tcase_add_test(tc, kpageflags_of_tail_pages);
	tcase_add_test(tc, partial_munlock_of_a_locked_thp);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
