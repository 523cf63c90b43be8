/*
 * test_io_uring.c - io_uring as the memory code sees it, through the public
 * API (io_uring/io_uring.c, rsrc.c, memmap.c @ v6.1, v6.18): the calls only
 * where the kernel has them and their setup checks, the ring mappings
 * (pages inserted at mmap, shared by both ring offsets, VM_MIXEDMAP, never
 * locked, SIGBUS past the ring), registered buffers pinned and charged
 * (VmPin, the user's locked_vm against RLIMIT_MEMLOCK without CAP_IPC_LOCK,
 * 6.18's charge for the rings themselves), EBUSY and ENXIO, a pinned page
 * kept by reclaim and copied by fork, and the pins gone with the file.
 */
#include "check_run.h"
#include <check.h>
#include <string.h>

#include "kerr.h"
#include "test_machine.h"
#include "vmflags.h"

#define P_R 0x1
#define P_W 0x2
#define P_X 0x4
#define M_SHARED 0x01
#define M_PRIVATE 0x02
#define M_ANON 0x20
#define OFF_SQ 0ULL
#define OFF_CQ 0x8000000ULL
#define OFF_SQES 0x10000000ULL
#define CQSIZE (1u << 3)
#define CLAMP (1u << 4)
#define CQE_MIXED (1u << 18)
#define PG 4096ULL

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

static int64_t map(int64_t fd, uint64_t len, uint64_t prot, uint64_t off)
{
	return vm_mmap(S, T, 0, len, prot, M_SHARED, fd, off, false, 0);
}

static int64_t anon(unsigned npages)
{
	int64_t a = vm_mmap(S, T, 0, npages * PG, P_R | P_W, M_PRIVATE | M_ANON, -1, 0, false, 0);
	ck_assert_int_gt(a, 0);
	return a;
}

static int64_t reg(int64_t fd, uint64_t base, uint64_t len)
{
	struct vm_iovec iov = { base, len };
	return vm_io_uring_register(S, T, fd, VM_IORING_REGISTER_BUFFERS, &iov, 1, true, 1, 0);
}

static int64_t unreg(int64_t fd)
{
	return vm_io_uring_register(S, T, fd, VM_IORING_UNREGISTER_BUFFERS, NULL, 0, true, 0, 0);
}

static uint64_t pinned(struct task *t)
{
	struct vm_status st;
	vmsys_status(S, t, &st);
	return st.pinned_vm;
}

START_TEST(only_where_the_kernel_has_it)
{
	static const char *const none[] = { "4.0", "lof-v1", "4.4" };
	for (unsigned i = 0; i < 3; i++) {
		machine(none[i], true, UINT64_MAX);
		ck_assert_int_eq(vm_io_uring_setup(S, T, 8, 0, 0, -1), -KERR_ENOSYS);
		ck_assert_int_eq(reg(3, 0x10000, PG), -KERR_ENOSYS);
		ck_assert_int_eq(vm_io_uring_enter(S, T, 3, false, 1), -KERR_ENOSYS);
		test_machine_free(S);
	}
	static const char *const have[] = { "6.1", "6.18" };
	for (unsigned i = 0; i < 2; i++) {
		machine(have[i], true, UINT64_MAX);
		ck_assert_int_eq(vm_io_uring_setup(S, T, 0, 0, 0, -1), -KERR_EINVAL);
		ck_assert_int_eq(vm_io_uring_setup(S, T, 32769, 0, 0, -1), -KERR_EINVAL);
		ck_assert_int_ge(vm_io_uring_setup(S, T, 32769, CLAMP, 0, -1), 0);
		ck_assert_int_eq(vm_io_uring_setup(S, T, 8, CQSIZE, 4, -1), -KERR_EINVAL);
		ck_assert_int_eq(vm_io_uring_setup(S, T, 8, CQSIZE, 0, -1), -KERR_EINVAL);
		/* a flag 6.1 does not know */
		ck_assert_int_eq(vm_io_uring_setup(S, T, 8, CQE_MIXED, 0, -1) < 0, i == 0);
		int64_t fd = vm_io_uring_setup(S, T, 8, 0, 0, -1);
		ck_assert_int_ge(fd, 0);
		/* a descriptor that is no ring, and none at all */
		int64_t memfd = vm_fd_new(S, T, -1, "x", 1, true);
		ck_assert_int_eq(reg(memfd, 0x10000, PG), -KERR_EOPNOTSUPP);
		ck_assert_int_eq(vm_io_uring_enter(S, T, 99, false, 1), -KERR_EBADF);
		ck_assert_int_eq(vm_io_uring_enter(S, T, fd, false, 1), 1);
		test_machine_free(S);
	}
}
END_TEST

START_TEST(ring_mappings)
{
	machine("6.18", true, UINT64_MAX);
	int64_t fd = vm_io_uring_setup(S, T, 128, 0, 0, -1); /* SQEs: 8 KiB */
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(vm_mmap(S, T, 0x700000000000ULL, PG, P_R | P_W, M_SHARED, fd, OFF_SQ, false, 0),
			 -KERR_EINVAL); /* no address hint */
	ck_assert_int_eq(map(fd, PG, P_R | P_W, 0x1000), -KERR_ENOMEM);
	ck_assert_int_eq(map(fd, PG, P_R | P_X, OFF_SQ), -KERR_EPERM);
	ck_assert_int_eq(map(fd, PG, P_R | P_W, OFF_SQES), -KERR_EFAULT);
	int64_t sq = map(fd, 2 * PG, P_R | P_W, OFF_SQ);
	int64_t cq = map(fd, PG, P_R | P_W, OFF_CQ);
	int64_t sqes = map(fd, 2 * PG, P_R | P_W, OFF_SQES);
	ck_assert_int_gt(sq, 0);
	ck_assert_int_gt(cq, 0);
	ck_assert_int_gt(sqes, 0);
	struct vm_vma_info vi;
	ck_assert(vmsys_vma_at(S, T, (uint64_t)sq, &vi));
	ck_assert_uint_eq(vi.flags & (VM_MIXEDMAP | VM_DONTEXPAND | VM_MAYEXEC), VM_MIXEDMAP | VM_DONTEXPAND);
	/* the rings fill 4,672 bytes: both pages inserted, the SQ and CQ
	 * offsets map the same pages */
	ck_assert_uint_eq(vi.rss, 2 * PG);
	struct vm_page_info a = test_page(S, T, (uint64_t)sq), b = test_page(S, T, (uint64_t)cq);
	ck_assert(a.present && b.present && !a.lru && a.pte_write);
	ck_assert_uint_eq(a.pfn, b.pfn);
	ck_assert(test_page(S, T, (uint64_t)sqes + PG).present);
	/* never locked, never charged */
	ck_assert_int_eq(vm_mlock(S, T, (uint64_t)sq, 2 * PG), 0);
	struct vm_status st;
	vmsys_status(S, T, &st);
	ck_assert_uint_eq(st.locked_vm, 0);
	/* a page zapped is not faulted back: no fault handler */
	ck_assert_int_eq(vm_madvise(S, T, (uint64_t)cq, PG, 4 /* MADV_DONTNEED */), 0);
	ck_assert_int_eq(vm_access(S, T, (uint64_t)cq, 1), VMF_SIGBUS);
	ck_assert_int_eq(vm_access(S, T, (uint64_t)sq, 2), VMF_NONE);
	test_machine_free(S);
}
END_TEST

START_TEST(buffers_pinned_and_charged)
{
	/* 6.18 without CAP_IPC_LOCK, 16 pages of limit: the rings took 2 */
	machine("6.18", false, 16 * PG);
	int64_t fd = vm_io_uring_setup(S, T, 8, 0, 0, -1);
	ck_assert_int_ge(fd, 0);
	int64_t buf = anon(16);
	ck_assert_int_eq(reg(fd, (uint64_t)buf, 16 * PG), -KERR_ENOMEM);
	ck_assert_uint_eq(pinned(T), 0);
	ck_assert_int_eq(reg(fd, (uint64_t)buf + 100, 8 * PG), 0); /* 9 pages */
	ck_assert_uint_eq(pinned(T), 9);
	ck_assert(test_page(S, T, (uint64_t)buf).present); /* GUP faulted it in */
	ck_assert_int_eq(reg(fd, (uint64_t)buf, PG), -KERR_EBUSY);
	ck_assert_int_eq(unreg(fd), 0);
	ck_assert_uint_eq(pinned(T), 0);
	ck_assert_int_eq(unreg(fd), -KERR_ENXIO);
	ck_assert_int_eq(reg(fd, (uint64_t)buf, 14 * PG), 0); /* 2 + 14: at the limit */
	ck_assert_int_eq(unreg(fd), 0);
	/* a read-only mapping, a hole, a bad length */
	int64_t ro = vm_mmap(S, T, 0, PG, P_R, M_PRIVATE | M_ANON, -1, 0, false, 0);
	ck_assert_int_eq(reg(fd, (uint64_t)ro, PG), -KERR_EFAULT);
	ck_assert_int_eq(reg(fd, 0x10000, PG), -KERR_EFAULT);
	ck_assert_int_eq(reg(fd, (uint64_t)buf, 0), -KERR_EFAULT);
	ck_assert_int_eq(reg(fd, 0, 0), 0); /* a sparse slot */
	test_machine_free(S);

	/* 6.1 charges no ring: the same buffer fits */
	machine("6.1", false, 16 * PG);
	fd = vm_io_uring_setup(S, T, 8, 0, 0, -1);
	buf = anon(16);
	ck_assert_int_eq(reg(fd, (uint64_t)buf, 16 * PG), 0);
	ck_assert_uint_eq(pinned(T), 16);
	test_machine_free(S);

	/* with CAP_IPC_LOCK nothing is charged to the user, VmPin counts */
	machine("6.18", true, 0);
	fd = vm_io_uring_setup(S, T, 8, 0, 0, -1);
	buf = anon(16);
	ck_assert_int_eq(reg(fd, (uint64_t)buf, 16 * PG), 0);
	ck_assert_uint_eq(pinned(T), 16);
	test_machine_free(S);
}
END_TEST

START_TEST(pinned_pages_stay)
{
	machine("6.18", true, UINT64_MAX);
	int64_t fd = vm_io_uring_setup(S, T, 8, 0, 0, -1);
	int64_t buf = anon(4), other = anon(4);
	ck_assert_int_eq(vm_touch(S, T, (uint64_t)other, 4 * PG, 2, NULL), 4);
	ck_assert_int_eq(reg(fd, (uint64_t)buf, 4 * PG), 0);
	uint32_t pfn = test_page(S, T, (uint64_t)buf).pfn;
	/* fork copies the pinned pages for the child, shares the others */
	int64_t child_pid = vm_fork(S, T, 0x11 /* SIGCHLD */, 0);
	ck_assert_int_gt(child_pid, 0);
	struct task *child = vmsys_task(S, (int)child_pid, false);
	struct vm_page_info pp = test_page(S, T, (uint64_t)buf), cp = test_page(S, child, (uint64_t)buf);
	ck_assert_uint_eq(pp.pfn, pfn);
	ck_assert(pp.pte_write && cp.present && cp.pfn != pfn);
	ck_assert_uint_eq(test_page(S, child, (uint64_t)other).pfn, test_page(S, T, (uint64_t)other).pfn);
	ck_assert_uint_eq(pinned(child), 0);
	vm_exit(S, child);
	/* reclaim takes the others to swap, never a pinned page */
	vm_reclaim(S, 1 << 16);
	ck_assert(test_page(S, T, (uint64_t)buf).present);
	ck_assert(!test_page(S, T, (uint64_t)other).present);
	/* munmap leaves the pins; the file's last reference ends them */
	ck_assert_int_eq(vm_munmap(S, T, (uint64_t)buf, 4 * PG), 0);
	ck_assert_uint_eq(pinned(T), 4);
	ck_assert_int_eq(vm_close(S, T, fd), 0);
	ck_assert_uint_eq(pinned(T), 0);
	test_machine_free(S);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("io_uring");
	TCase *tc = tcase_create("io_uring");
	tcase_add_test(tc, only_where_the_kernel_has_it);
	tcase_add_test(tc, ring_mappings);
	tcase_add_test(tc, buffers_pinned_and_charged);
	tcase_add_test(tc, pinned_pages_stay);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
