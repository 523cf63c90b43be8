/*
 * test_shm.c - SysV shared memory through the public API (6.18 semantics):
 * a segment's lifetime (IPC_RMID, destroyed at the last detach, also of a
 * forked child), shmget's lookups, shmat's address rules, ksys_shmdt()'s
 * matching of fragments, SHM_LOCK charged to locked_shm against
 * RLIMIT_MEMLOCK (user_shm_lock()) and the mapping made unevictable: new
 * pages go to the unevictable list, old ones are culled by reclaim,
 * SHM_UNLOCK rescues them all (check_move_unevictable_folios()).
 */
#include "check_run.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kerr.h"
#include "test_machine.h"
#include "vmstat.h"
#include "vmsys.h"

/* x86_64 uapi values */
#define P_R 0x1
#define P_W 0x2
#define M_PRIVATE 0x02
#define M_FIXED   0x10
#define M_ANON    0x20
#define MCL_FUTURE_ 2
#define IPC_CREAT_ 01000
#define IPC_EXCL_  02000
#define SHM_HUGETLB_ 04000
#define SHM_RDONLY_ 010000
#define SHM_RND_    020000
#define SHM_REMAP_  040000
#define IPC_RMID_ 0
#define IPC_STAT_ 2
#define SHM_LOCK_ 11
#define SHM_UNLOCK_ 12

#define PG 4096ULL
#define A1 0x20000000ULL
#define A2 0x30000000ULL
#define N  16

static struct vmsys *S;
static struct task *T;

static void machine(uint64_t swap, bool cap, uint64_t rlimit)
{
	struct vmsys_config c;
	test_config(&c, "6.18");
	c.swap = swap;
	c.cap_ipc_lock = cap;
	c.rlimit_memlock = rlimit;
	S = test_machine_new(&c, &T);
}

static void machine_free(void)
{
	test_machine_free(S);
	S = NULL;
}

static struct vm_page_info page(struct task *t, uint64_t addr) { return test_page(S, t, addr); }

static int64_t seg(uint64_t key, unsigned npages)
{
	int64_t id = vm_shmget(S, T, key, npages * PG, IPC_CREAT_ | 0600, -1);
	ck_assert_int_ge(id, 0);
	return id;
}

static int64_t attach(struct task *t, int64_t id, uint64_t addr)
{
	return vm_shmat(S, t, id, addr, 0, false, 0);
}

static int64_t touch(struct task *t, uint64_t addr, unsigned npages)
{
	enum vm_fault_kind sig = VMF_NONE;
	return vm_touch(S, t, addr, npages * PG, 2, &sig);
}

static void reclaim_all(void)
{
	for (int i = 0; i < 16; i++) {
		vm_drain_all(S);
		ck_assert_int_ge(vm_reclaim(S, 1 << 16), 0);
	}
}

static uint64_t vmlck(struct task *t)
{
	struct vm_status st;
	vmsys_status(S, t, &st);
	return st.locked_vm;
}

#define assert_pages(t, addr, n, pres, unev)                                                    \
	for (unsigned i_ = 0; i_ < (n); i_++) {                                                 \
		struct vm_page_info pi_ = page(t, (addr) + i_ * PG);                            \
		ck_assert_msg(pi_.present == (pres) && (!(pres) || (pi_.unevictable == (unev) && \
								    !pi_.mlocked)),     \
			      "page %#llx: present=%d unevictable=%d mlocked=%d, expected %d %d", \
			      (unsigned long long)((addr) + i_ * PG), pi_.present,              \
			      pi_.unevictable, pi_.mlocked, (pres), (unev));                    \
	}

/* Locked before it is touched: each new page goes to the unevictable
 * list, reclaim leaves it, SHM_UNLOCK rescues every page and then reclaim
 * swaps them.  VmLck never moves: the charge is the user's. */
START_TEST(lock_then_touch)
{
	machine(64ULL << 20, true, UINT64_MAX);
	int64_t id = seg(0, N);
	ck_assert_int_eq(attach(T, id, A1), (int64_t)A1);
	ck_assert_int_eq(vm_shmctl(S, T, id, SHM_LOCK_), 0);
	ck_assert_int_eq(touch(T, A1, N), N);
	vm_drain_all(S);
	assert_pages(T, A1, N, true, true);
	ck_assert_int_eq(vmsys_vmstat(S, NR_UNEVICTABLE), N);
	ck_assert_uint_eq(vmlck(T), 0);
	reclaim_all();
	assert_pages(T, A1, N, true, true);
	int64_t rescued = vmsys_vmstat(S, UNEVICTABLE_PGS_RESCUED);
	ck_assert_int_eq(vm_shmctl(S, T, id, SHM_UNLOCK_), 0);
	ck_assert_int_eq(vmsys_vmstat(S, UNEVICTABLE_PGS_RESCUED) - rescued, N);
	assert_pages(T, A1, N, true, false);
	ck_assert_int_eq(vmsys_vmstat(S, NR_UNEVICTABLE), 0);
	reclaim_all();
	for (unsigned i = 0; i < N; i++)
		ck_assert(!page(T, A1 + i * PG).present);
	machine_free();
}
END_TEST

/* Touched before it is locked: the pages stay where they are until
 * reclaim meets them and culls them to the unevictable list. */
START_TEST(touch_then_lock_culled)
{
	machine(64ULL << 20, true, UINT64_MAX);
	int64_t id = seg(0x1234, N);
	ck_assert_int_eq(attach(T, id, A1), (int64_t)A1);
	ck_assert_int_eq(touch(T, A1, N), N);
	vm_drain_all(S);
	ck_assert_int_eq(vm_shmctl(S, T, id, SHM_LOCK_), 0);
	assert_pages(T, A1, N, true, false);
	int64_t culled = vmsys_vmstat(S, UNEVICTABLE_PGS_CULLED);
	reclaim_all();
	assert_pages(T, A1, N, true, true);
	ck_assert_int_eq(vmsys_vmstat(S, UNEVICTABLE_PGS_CULLED) - culled, N);
	machine_free();
}
END_TEST

/* user_shm_lock(): without CAP_IPC_LOCK the sum of the user's locked
 * segments may not pass RLIMIT_MEMLOCK (16 pages here); locking twice
 * charges once; a limit of 0 refuses SHM_LOCK (EPERM) but not
 * SHM_UNLOCK; unlocking and destroying give the charge back. */
START_TEST(limit_without_cap)
{
	machine(0, false, 16 * PG);
	int64_t big = seg(0, 32), a = seg(0, 4), b = seg(0, 13), c = seg(0, 12);
	ck_assert_int_eq(vm_shmctl(S, T, big, SHM_LOCK_), -KERR_ENOMEM);
	ck_assert_int_eq(vm_shmctl(S, T, a, SHM_LOCK_), 0);
	ck_assert_int_eq(vm_shmctl(S, T, a, SHM_LOCK_), 0);
	ck_assert_int_eq(vm_shmctl(S, T, b, SHM_LOCK_), -KERR_ENOMEM);
	ck_assert_int_eq(vm_shmctl(S, T, c, SHM_LOCK_), 0); /* 4 + 12 = 16: at the limit */
	ck_assert_int_eq(vm_shmctl(S, T, c, IPC_RMID_), 0);  /* destroyed: uncharged */
	ck_assert_int_eq(vm_shmctl(S, T, b, SHM_LOCK_), -KERR_ENOMEM); /* 4 + 13 */
	ck_assert_int_eq(vm_shmctl(S, T, a, SHM_UNLOCK_), 0);
	ck_assert_int_eq(vm_shmctl(S, T, b, SHM_LOCK_), 0);
	ck_assert_int_eq(vm_setrlimit_memlock(S, T, 0, 0), 0);
	ck_assert_int_eq(vm_shmctl(S, T, a, SHM_LOCK_), -KERR_EPERM);
	ck_assert_int_eq(vm_shmctl(S, T, b, SHM_UNLOCK_), 0);
	machine_free();
}
END_TEST

/* CAP_IPC_LOCK passes the limit; the charge is still counted, so
 * after the capability goes a further lock sees it. */
START_TEST(cap_passes_limit)
{
	machine(0, true, 16 * PG);
	int64_t big = seg(0, 32), small = seg(0, 1);
	ck_assert_int_eq(vm_shmctl(S, T, big, SHM_LOCK_), 0);
	ck_assert_int_eq(vm_capset(S, T, false, false), 0);
	ck_assert_int_eq(vm_shmctl(S, T, small, SHM_LOCK_), -KERR_ENOMEM);
	ck_assert_int_eq(vm_shmctl(S, T, big, SHM_UNLOCK_), 0);
	ck_assert_int_eq(vm_shmctl(S, T, small, SHM_LOCK_), 0);
	machine_free();
}
END_TEST

/* shmget: a key names one segment; IPC_EXCL, a larger size, a missing
 * key without IPC_CREAT, size 0 and SHM_HUGETLB with no pool refused. */
START_TEST(shmget_lookups)
{
	machine(0, true, UINT64_MAX);
	int64_t id = seg(0x5eed, 4);
	ck_assert_int_eq(vm_shmget(S, T, 0x5eed, PG, 0, -1), id);
	ck_assert_int_eq(vm_shmget(S, T, 0x5eed, PG, IPC_CREAT_ | IPC_EXCL_ | 0600, -1), -KERR_EEXIST);
	ck_assert_int_eq(vm_shmget(S, T, 0x5eed, 8 * PG, 0, -1), -KERR_EINVAL);
	ck_assert_int_eq(vm_shmget(S, T, 0x5eee, PG, 0, -1), -KERR_ENOENT);
	ck_assert_int_eq(vm_shmget(S, T, 0, 0, IPC_CREAT_, -1), -KERR_EINVAL);
	ck_assert_int_eq(vm_shmget(S, T, 0, PG, IPC_CREAT_ | SHM_HUGETLB_, -1), -KERR_ENOMEM);
	int64_t other = seg(0, 1);
	ck_assert_int_ne(other, id);
	/* the id a trace recorded is the one given, when free */
	ck_assert_int_eq(vm_shmget(S, T, 0, PG, IPC_CREAT_, 4242), 4242);
	ck_assert_int_ne(vm_shmget(S, T, 0, PG, IPC_CREAT_, 4242), 4242);
	/* IPC_RMID takes the key now: a new segment may have it */
	ck_assert_int_eq(attach(T, id, A1), (int64_t)A1);
	ck_assert_int_eq(vm_shmctl(S, T, id, IPC_RMID_), 0);
	ck_assert_int_eq(vm_shmget(S, T, 0x5eed, PG, 0, -1), -KERR_ENOENT);
	ck_assert_int_eq(vm_shmctl(S, T, id, IPC_STAT_), 0); /* still attached */
	ck_assert_int_ne(seg(0x5eed, 1), id);
	machine_free();
}
END_TEST

/* ipc_addid(): at most kernel.shmmni (4096) segments, then ENOSPC; one
 * removed makes room again. */
START_TEST(shmget_shmmni)
{
	machine(0, true, UINT64_MAX);
	int64_t first = -1;
	for (int i = 0; i < 4096; i++) {
		int64_t id = vm_shmget(S, T, 0, PG, IPC_CREAT_ | 0600, -1);
		ck_assert_int_ge(id, 0);
		if (!i)
			first = id;
	}
	ck_assert_int_eq(vm_shmget(S, T, 0, PG, IPC_CREAT_ | 0600, -1), -KERR_ENOSPC);
	ck_assert_int_eq(vm_shmget(S, T, 0x5eed, PG, IPC_CREAT_ | 0600, -1), -KERR_ENOSPC);
	ck_assert_int_eq(vm_shmctl(S, T, first, IPC_RMID_), 0);
	ck_assert_int_ge(vm_shmget(S, T, 0, PG, IPC_CREAT_ | 0600, -1), 0);
	ck_assert_int_eq(vm_shmget(S, T, 0, PG, IPC_CREAT_ | 0600, -1), -KERR_ENOSPC);
	machine_free();
}
END_TEST

/* do_shmat(): address rules, SHM_RND, SHM_REMAP, read-only attaches. */
START_TEST(shmat_addresses)
{
	machine(0, true, UINT64_MAX);
	int64_t id = seg(0, 4);
	ck_assert_int_eq(vm_shmat(S, T, id, A1 + 100, 0, false, 0), -KERR_EINVAL);
	ck_assert_int_eq(vm_shmat(S, T, id, A1 + 100, SHM_RND_, false, 0), (int64_t)A1);
	/* over an existing mapping: refused unless SHM_REMAP */
	ck_assert_int_eq(attach(T, id, A1 + 2 * PG), -KERR_EINVAL);
	ck_assert_int_eq(vm_shmat(S, T, id, 0, SHM_REMAP_, false, 0), -KERR_EINVAL);
	ck_assert_int_eq(vm_shmat(S, T, id, A1 + 2 * PG, SHM_REMAP_, false, 0), (int64_t)(A1 + 2 * PG));
	ck_assert_int_eq(vm_shmat(S, T, 999, 0, 0, false, 0), -KERR_EINVAL);
	ck_assert_int_eq(vm_shmat(S, T, -1, 0, 0, false, 0), -KERR_EINVAL);
	int64_t ro = vm_shmat(S, T, id, 0, SHM_RDONLY_, true, A2);
	ck_assert_int_eq(ro, (int64_t)A2); /* the recorded placement */
	enum vm_fault_kind sig = VMF_NONE;
	vm_touch(S, T, A2, PG, 2, &sig); /* a write to a read-only attach */
	ck_assert_int_eq(sig, VMF_SIGSEGV);
	ck_assert_int_eq(vm_shmdt(S, T, A2 + 1), -KERR_EINVAL);
	ck_assert_int_eq(vm_shmdt(S, T, A2), 0);
	ck_assert_int_eq(vm_shmdt(S, T, A2), -KERR_EINVAL);
	machine_free();
}
END_TEST

/* ksys_shmdt(): after a partial munmap the rest of the attach still
 * detaches from the original address (its pgoff says where it began);
 * a split by mprotect detaches whole. */
START_TEST(shmdt_fragments)
{
	machine(0, true, UINT64_MAX);
	int64_t id = seg(0, 8);
	ck_assert_int_eq(attach(T, id, A1), (int64_t)A1);
	ck_assert_int_eq(vm_munmap(S, T, A1, 2 * PG), 0);
	ck_assert_int_eq(vm_mprotect(S, T, A1 + 4 * PG, PG, P_R), 0);
	ck_assert_int_eq(vm_shmdt(S, T, A1), 0);
	ck_assert_int_eq(vmsys_vma_count(S, T, A1, A1 + 8 * PG), 0);
	ck_assert_int_eq(vm_shmdt(S, T, A1), -KERR_EINVAL);
	machine_free();
}
END_TEST

/* A child inherits the attach; the segment removed while both have it
 * lives until the child, the last, exits; its pages go with it. */
START_TEST(fork_and_last_detach)
{
	machine(0, true, UINT64_MAX);
	int64_t id = seg(0, N);
	ck_assert_int_eq(attach(T, id, A1), (int64_t)A1);
	ck_assert_int_eq(touch(T, A1, N), N);
	ck_assert_int_eq(vm_fork(S, T, 17, 2), 2);
	struct task *c = vmsys_task(S, 2, false);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(vm_shmctl(S, T, id, IPC_RMID_), 0);
	ck_assert_int_eq(vm_shmdt(S, T, A1), 0);
	ck_assert_int_eq(vm_shmctl(S, T, id, IPC_STAT_), 0);
	ck_assert_int_eq(vmsys_vmstat(S, NR_SHMEM), N);
	vm_exit(S, c);
	vm_drain_all(S);
	ck_assert_int_eq(vm_shmctl(S, T, id, IPC_STAT_), -KERR_EINVAL);
	ck_assert_int_eq(vmsys_vmstat(S, NR_SHMEM), 0);
	machine_free();
}
END_TEST

/* mlockall(MCL_FUTURE): an attach is VM_LOCKED, populated and counted
 * in VmLck (do_shmat() -> do_mmap() with def_flags, then mm_populate()). */
START_TEST(attach_under_mcl_future)
{
	machine(0, true, UINT64_MAX);
	ck_assert_int_eq(vm_mlockall(S, T, MCL_FUTURE_), 0);
	int64_t id = seg(0, N);
	ck_assert_int_eq(attach(T, id, A1), (int64_t)A1);
	ck_assert_uint_eq(vmlck(T), N);
	vm_drain_all(S);
	for (unsigned i = 0; i < N; i++) {
		struct vm_page_info pi = page(T, A1 + i * PG);
		ck_assert(pi.present && pi.mlocked && pi.unevictable);
	}
	ck_assert_int_eq(vm_shmdt(S, T, A1), 0);
	ck_assert_uint_eq(vmlck(T), 0);
	machine_free();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm");
	TCase *tc = tcase_create("SysV shared memory");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, lock_then_touch);
	tcase_add_test(tc, touch_then_lock_culled);
	tcase_add_test(tc, limit_without_cap);
	tcase_add_test(tc, cap_passes_limit);
	tcase_add_test(tc, shmget_lookups);
	tcase_add_test(tc, shmget_shmmni);
	tcase_add_test(tc, shmat_addresses);
	tcase_add_test(tc, shmdt_fragments);
	tcase_add_test(tc, fork_and_last_detach);
	tcase_add_test(tc, attach_under_mcl_future);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
