/*
 * test_secretmem.c - memfd_secret(2) through the public API
 * (mm/secretmem.c @ v6.18): where the call exists, its size set once, its
 * mappings shared, non-executable, VM_LOCKED and charged at mmap but not
 * populated, mlock_fixup() leaving them alone and GUP refusing them
 * (mlock ENOMEM), its pages mlocked, unevictable and not swap-backed, the
 * limit without CAP_IPC_LOCK, and the pages gone with the last reference.
 */
#include "check_run.h"
#include <check.h>
#include <string.h>

#include "kerr.h"
#include "test_machine.h"
#include "vmflags.h"
#include "vmstat.h"

#define P_R 0x1
#define P_W 0x2
#define P_X 0x4
#define M_SHARED 0x01
#define M_PRIVATE 0x02
#define O_CLOEXEC_ 02000000
#define PG 4096ULL
#define N 16

static struct vmsys *S;
static struct task *T;

static void machine(const char *kernel, bool cap, uint64_t rlimit)
{
	struct vmsys_config c;
	test_config(&c, kernel);
	c.swap = 64ULL << 20;
	c.cap_ipc_lock = cap;
	c.rlimit_memlock = rlimit;
	S = test_machine_new(&c, &T);
}

static int64_t secret(unsigned npages)
{
	int64_t fd = vm_memfd_secret(S, T, 0, -1);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(vm_ftruncate(S, T, fd, npages * PG), 0);
	return fd;
}

static int64_t map(int64_t fd, unsigned npages, uint64_t prot, uint64_t type)
{
	return vm_mmap(S, T, 0, npages * PG, prot, type, fd, 0, false, 0);
}

static uint64_t vmlck(void)
{
	struct vm_status st;
	vmsys_status(S, T, &st);
	return st.locked_vm;
}

START_TEST(only_where_the_kernel_has_it)
{
	static const char *const none[] = { "4.0", "lof-v1", "4.4", "6.1" };
	for (unsigned i = 0; i < 4; i++) {
		machine(none[i], true, UINT64_MAX);
		ck_assert_int_eq(vm_memfd_secret(S, T, 0, -1), -KERR_ENOSYS);
		test_machine_free(S);
	}
	machine("6.18", true, UINT64_MAX);
	ck_assert_int_eq(vm_memfd_secret(S, T, 1, -1), -KERR_EINVAL);
	ck_assert_int_ge(vm_memfd_secret(S, T, O_CLOEXEC_, -1), 0);
	test_machine_free(S);
}
END_TEST

START_TEST(mapping_rules)
{
	machine("6.18", true, UINT64_MAX);
	int64_t fd = secret(N);
	ck_assert_int_eq(vm_ftruncate(S, T, fd, 2 * N * PG), -KERR_EINVAL); /* set once */
	ck_assert_int_eq(map(fd, N, P_R | P_W, M_PRIVATE), -KERR_EINVAL);
	ck_assert_int_eq(map(fd, N, P_R | P_X, M_SHARED), -KERR_EPERM);
	int64_t a = map(fd, N, P_R | P_W, M_SHARED);
	ck_assert_int_gt(a, 0);
	struct vm_vma_info vi;
	ck_assert(vmsys_vma_at(S, T, (uint64_t)a, &vi));
	ck_assert(vi.flags & VM_LOCKED);
	ck_assert(vi.flags & VM_DONTDUMP);
	ck_assert(!(vi.flags & VM_MAYEXEC));
	ck_assert_uint_eq(vmlck(), N);       /* charged at mmap */
	ck_assert_uint_eq(vi.rss, 0);        /* not populated */
	int64_t file0 = vmsys_vmstat(S, NR_FILE_PAGES), shmem0 = vmsys_vmstat(S, NR_SHMEM);
	enum vm_fault_kind sig = VMF_NONE;
	ck_assert_int_eq(vm_touch(S, T, (uint64_t)a, 2 * PG, 2, &sig), 2);
	vm_drain_all(S);
	struct vm_page_info pi = test_page(S, T, (uint64_t)a);
	ck_assert(pi.present && pi.mlocked && pi.unevictable && !pi.swapbacked && !pi.anon);
	ck_assert_int_eq(vmsys_vmstat(S, NR_FILE_PAGES) - file0, 2);
	ck_assert_int_eq(vmsys_vmstat(S, NR_SHMEM) - shmem0, 0);
	/* mlock: mlock_fixup() skips it, GUP refuses it; munlock changes nothing */
	ck_assert_int_eq(vm_mlock(S, T, (uint64_t)a, N * PG), -KERR_ENOMEM);
	ck_assert_int_eq(vm_munlock(S, T, (uint64_t)a, N * PG), 0);
	ck_assert_uint_eq(vmlck(), N);
	ck_assert(test_page(S, T, (uint64_t)a).mlocked);
	/* unmapped, its pages stay in the file, unevictable */
	ck_assert_int_eq(vm_munmap(S, T, (uint64_t)a, N * PG), 0);
	ck_assert_uint_eq(vmlck(), 0);
	for (int i = 0; i < 8; i++) {
		vm_drain_all(S);
		vm_reclaim(S, 1 << 16);
	}
	ck_assert_int_eq(vmsys_vmstat(S, NR_FILE_PAGES) - file0, 2);
	ck_assert_int_eq(vm_close(S, T, fd), 0); /* the last reference: gone */
	ck_assert_int_eq(vmsys_vmstat(S, NR_FILE_PAGES) - file0, 0);
	test_machine_free(S);
}
END_TEST

START_TEST(limit_without_cap)
{
	machine("6.18", false, 16 * PG);
	int64_t fd = secret(32);
	ck_assert_int_eq(map(fd, 32, P_R | P_W, M_SHARED), -KERR_EAGAIN);
	ck_assert_int_gt(map(fd, 16, P_R | P_W, M_SHARED), 0);
	ck_assert_int_eq(map(fd, 1, P_R | P_W, M_SHARED), -KERR_EAGAIN);
	test_machine_free(S);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("secretmem");
	TCase *tc = tcase_create("memfd_secret");
	tcase_add_test(tc, only_where_the_kernel_has_it);
	tcase_add_test(tc, mapping_rules);
	tcase_add_test(tc, limit_without_cap);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
