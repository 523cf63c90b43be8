/*
 * test_hugetlb.c - the hugetlb pool through the public API
 * (mm/hugetlb.c, fs/hugetlbfs/inode.c, ipc/shm.c @ v4.4, v6.1, v6.18):
 * reservations at mmap and at shmget (ENOMEM past the pool, none with
 * MAP_NORESERVE), faults against them or the free pages (SIGBUS when
 * none), the unconsumed ones returned at munmap, splits only on a huge
 * page boundary, mlock that populates without locking or counting, fork
 * (lazy for shared mappings on 6.x, a private write copied from the pool),
 * and SHM_HUGETLB's capability rule per version.
 */
#include "check_run.h"
#include <check.h>
#include <string.h>

#include "kerr.h"
#include "test_machine.h"
#include "vmflags.h"

#define P_R 0x1
#define P_W 0x2
#define M_SHARED 0x01
#define M_PRIVATE 0x02
#define M_ANON 0x20
#define M_NORESERVE 0x4000
#define M_LOCKED 0x2000
#define M_HUGETLB 0x40000
#define HUGE (2ULL << 20)
#define SHM_HUGE 04000
#define IPC_CREAT_ 01000
#define SHM_LOCK_ 11

static struct vmsys *S;
static struct task *T;

static void machine(const char *kernel, uint64_t pool, bool cap)
{
	struct vmsys_config c;
	test_config(&c, kernel);
	c.hugetlb_pages = pool;
	c.cap_ipc_lock = cap;
	c.rlimit_memlock = 8ULL << 20;
	S = test_machine_new(&c, &T);
}

static int64_t huge_map(uint64_t len, uint64_t flags)
{
	return vm_mmap(S, T, 0, len, P_R | P_W, flags | M_ANON | M_HUGETLB, -1, 0, false, 0);
}

static struct vm_meminfo pool(void)
{
	struct vm_meminfo mi;
	vmsys_meminfo(S, &mi);
	return mi;
}

static uint64_t hugetlb_kb(struct task *t)
{
	struct vm_status st;
	vmsys_status(S, t, &st);
	return st.hugetlb_pages * 4;
}

START_TEST(reservations_and_faults)
{
	machine("6.18", 4, true);
	ck_assert_uint_eq(pool().huge_total, 4);
	/* no pool that big: ENOMEM at mmap */
	ck_assert_int_eq(huge_map(5 * HUGE, M_PRIVATE), -KERR_ENOMEM);
	/* 3 MiB rounds up to 2 huge pages, all reserved now */
	int64_t a = huge_map(3 * HUGE / 2, M_PRIVATE);
	ck_assert_int_gt(a, 0);
	ck_assert_uint_eq((uint64_t)a % HUGE, 0);
	ck_assert_uint_eq(pool().huge_rsvd, 2);
	ck_assert_uint_eq(pool().huge_free, 4);
	struct vm_vma_info vi;
	ck_assert(vmsys_vma_at(S, T, (uint64_t)a, &vi));
	ck_assert_uint_eq(vi.end - vi.start, 2 * HUGE);
	ck_assert((vi.flags & (VM_HUGETLB | VM_DONTEXPAND)) == (VM_HUGETLB | VM_DONTEXPAND));
	ck_assert(!(vi.flags & VM_ACCOUNT));
	/* a fault takes a reserved page; Rss does not count it, HugetlbPages does */
	ck_assert_int_eq(vm_touch(S, T, (uint64_t)a + 5, 1, 2, NULL), 1);
	ck_assert_uint_eq(pool().huge_free, 3);
	ck_assert_uint_eq(pool().huge_rsvd, 1);
	ck_assert_uint_eq(hugetlb_kb(T), 2048);
	ck_assert(vmsys_vma_at(S, T, (uint64_t)a, &vi));
	ck_assert_uint_eq(vi.rss, 0);
	/* a second touch of the same huge page is no fault */
	ck_assert_int_eq(vm_touch(S, T, (uint64_t)a + HUGE - 1, 1, 2, NULL), 0);
	/* splits only at a huge page boundary */
	ck_assert_int_eq(vm_munmap(S, T, (uint64_t)a + 4096, 4096), -KERR_EINVAL);
	ck_assert_int_eq(vm_mprotect(S, T, (uint64_t)a, HUGE + 4096, P_R), -KERR_EINVAL);
	/* the unfaulted half goes with its reservation */
	ck_assert_int_eq(vm_munmap(S, T, (uint64_t)a + HUGE, HUGE), 0);
	ck_assert_uint_eq(pool().huge_rsvd, 0);
	ck_assert_uint_eq(pool().huge_free, 3);
	/* MAP_NORESERVE reserves nothing; a fault past the free pages is SIGBUS */
	int64_t nr = huge_map(4 * HUGE, M_PRIVATE | M_NORESERVE);
	ck_assert_int_gt(nr, 0);
	ck_assert_uint_eq(pool().huge_rsvd, 0);
	ck_assert_int_eq(vm_touch(S, T, (uint64_t)nr, 3 * HUGE, 2, NULL), 3);
	ck_assert_uint_eq(pool().huge_free, 0);
	ck_assert_int_eq(vm_access(S, T, (uint64_t)nr + 3 * HUGE, 2), VMF_SIGBUS);
	/* everything back at munmap */
	ck_assert_int_eq(vm_munmap(S, T, (uint64_t)nr, 4 * HUGE), 0);
	ck_assert_int_eq(vm_munmap(S, T, (uint64_t)a, HUGE), 0);
	ck_assert_uint_eq(pool().huge_free, 4);
	ck_assert_uint_eq(hugetlb_kb(T), 0);
	test_machine_free(S);
}
END_TEST

START_TEST(never_locked_but_populated)
{
	machine("6.1", 4, false);
	int64_t a = huge_map(2 * HUGE, M_PRIVATE | M_LOCKED);
	ck_assert_int_gt(a, 0);
	/* MAP_LOCKED populates, but the VMA is not locked and not counted */
	struct vm_vma_info vi;
	ck_assert(vmsys_vma_at(S, T, (uint64_t)a, &vi));
	ck_assert(!(vi.flags & VM_LOCKED));
	struct vm_status st;
	vmsys_status(S, T, &st);
	ck_assert_uint_eq(st.locked_vm, 0);
	ck_assert_uint_eq(st.hugetlb_pages, 2 * 512);
	ck_assert_uint_eq(pool().huge_free, 2);
	int64_t b = huge_map(HUGE, M_PRIVATE);
	ck_assert_int_eq(vm_mlock(S, T, (uint64_t)b, HUGE), 0);
	vmsys_status(S, T, &st);
	ck_assert_uint_eq(st.locked_vm, 0);
	ck_assert_uint_eq(pool().huge_free, 1);
	test_machine_free(S);
}
END_TEST

START_TEST(fork_shares_and_copies)
{
	for (int k = 0; k < 2; k++) {
		machine(k ? "4.4" : "6.18", 4, true);
		int64_t sh = huge_map(HUGE, M_SHARED), pr = huge_map(HUGE, M_PRIVATE);
		ck_assert_int_eq(vm_touch(S, T, (uint64_t)sh, 1, 2, NULL), 1);
		ck_assert_int_eq(vm_touch(S, T, (uint64_t)pr, 1, 2, NULL), 1);
		int64_t pid = vm_fork(S, T, 0x11, 0);
		struct task *child = vmsys_task(S, (int)pid, false);
		/* 6.x leaves a shared mapping's page tables to the child's
		 * faults (vma_needs_copy()); 4.4 copies them */
		ck_assert_uint_eq(hugetlb_kb(child), k ? 4096 : 2048);
		ck_assert_int_eq(vm_touch(S, child, (uint64_t)sh, 1, 2, NULL), k ? 0 : 1);
		/* a private page written by the child: a copy from the pool */
		ck_assert_uint_eq(pool().huge_free, 2);
		ck_assert_int_eq(vm_touch(S, child, (uint64_t)pr, 1, 2, NULL), 1);
		ck_assert_uint_eq(pool().huge_free, 1);
		vm_exit(S, child);
		ck_assert_uint_eq(pool().huge_free, 2);
		test_machine_free(S);
	}
}
END_TEST

START_TEST(shm_hugetlb)
{
	/* 6.x: without CAP_IPC_LOCK, EPERM */
	machine("6.18", 4, false);
	ck_assert_int_eq(vm_shmget(S, T, 0, HUGE, IPC_CREAT_ | SHM_HUGE | 0600, -1), -KERR_EPERM);
	test_machine_free(S);
	/* 4.4: charged to locked_shm against RLIMIT_MEMLOCK (8 MiB here) */
	machine("4.4", 8, false);
	ck_assert_int_eq(vm_shmget(S, T, 0, 5 * HUGE, IPC_CREAT_ | SHM_HUGE | 0600, -1), -KERR_EPERM);
	int64_t id = vm_shmget(S, T, 0, 3 * HUGE / 2, IPC_CREAT_ | SHM_HUGE | 0600, -1);
	ck_assert_int_ge(id, 0);
	test_machine_free(S);
	/* with the capability: the whole segment reserved at shmget */
	machine("6.18", 4, true);
	ck_assert_int_eq(vm_shmget(S, T, 0, 5 * HUGE, IPC_CREAT_ | SHM_HUGE | 0600, -1), -KERR_ENOMEM);
	id = vm_shmget(S, T, 0, 3 * HUGE / 2, IPC_CREAT_ | SHM_HUGE | 0600, -1);
	ck_assert_int_ge(id, 0);
	ck_assert_uint_eq(pool().huge_rsvd, 2);
	int64_t a = vm_shmat(S, T, id, 0, 0, false, 0);
	ck_assert_int_gt(a, 0);
	ck_assert_uint_eq((uint64_t)a % HUGE, 0);
	struct vm_vma_info vi;
	ck_assert(vmsys_vma_at(S, T, (uint64_t)a, &vi));
	ck_assert_uint_eq(vi.end - vi.start, 2 * HUGE);
	ck_assert_uint_eq(pool().huge_rsvd, 2);
	ck_assert_int_eq(vm_touch(S, T, (uint64_t)a, 1, 2, NULL), 1);
	ck_assert_uint_eq(pool().huge_rsvd, 1);
	/* SHM_LOCK of hugetlb memory does nothing */
	ck_assert_int_eq(vm_shmctl(S, T, id, SHM_LOCK_), 0);
	ck_assert(vmsys_vma_at(S, T, (uint64_t)a, &vi));
	ck_assert(!(vi.flags & VM_LOCKED));
	/* the page stays with the segment after the detach; all goes at IPC_RMID */
	ck_assert_int_eq(vm_shmdt(S, T, (uint64_t)a), 0);
	ck_assert_uint_eq(pool().huge_free, 3);
	ck_assert_int_eq(vm_shmctl(S, T, id, 0 /* IPC_RMID */), 0);
	ck_assert_uint_eq(pool().huge_free, 4);
	ck_assert_uint_eq(pool().huge_rsvd, 0);
	test_machine_free(S);
}
END_TEST

START_TEST(failed_mmap_returns_its_reservation)
{
	/* MAP_FIXED inside a VMA the map count forbids to split: mmap_region()
	 * fails after the reservation; the file goes, and its reservation */
	struct vmsys_config c;
	test_config(&c, "6.18");
	c.hugetlb_pages = 4;
	c.cap_ipc_lock = true;
	c.max_map_count = 1;
	S = test_machine_new(&c, &T);
	int64_t a = vm_mmap(S, T, 0, 8 * HUGE, P_R | P_W, M_PRIVATE | M_ANON, -1, 0, false, 0);
	ck_assert_int_gt(a, 0);
	uint64_t at = ((uint64_t)a + 2 * HUGE) & ~(HUGE - 1);
	ck_assert_int_eq(vm_mmap(S, T, at, HUGE, P_R | P_W, M_PRIVATE | M_ANON | M_HUGETLB | 0x10, -1, 0,
				 false, 0),
			 -KERR_ENOMEM);
	ck_assert_uint_eq(pool().huge_rsvd, 0);
	ck_assert_uint_eq(pool().huge_free, 4);
	test_machine_free(S);
}
END_TEST

START_TEST(no_pool_no_huge_pages)
{
	machine("4.0", 0, true);
	ck_assert_int_eq(huge_map(HUGE, M_PRIVATE), -KERR_ENOMEM);
	/* a page size the machine has not */
	ck_assert_int_eq(huge_map(HUGE, M_PRIVATE | (30ULL << 26)), -KERR_EINVAL);
	test_machine_free(S);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hugetlb");
	TCase *tc = tcase_create("hugetlb");
	tcase_add_test(tc, reservations_and_faults);
	tcase_add_test(tc, never_locked_but_populated);
	tcase_add_test(tc, fork_shares_and_copies);
	tcase_add_test(tc, shm_hugetlb);
	tcase_add_test(tc, failed_mmap_returns_its_reservation);
	tcase_add_test(tc, no_pool_no_huge_pages);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
