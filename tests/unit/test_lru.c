/*
 * test_lru.c - page-level locking through the public API (6.18 semantics,
 * classic two-list LRU): where a page sits after mlock, after a fault into
 * an ONFAULT VMA (in the per-CPU batch until drained), after munlock; a
 * page locked by two VMAs; the unevictable_pgs_* events and nr_mlock as
 * notes/upstream-4.4-and-6.x.md 2.8-2.9 describe them; reclaim never
 * freeing a locked page, freeing clean unmapped file pages, and swapping
 * anonymous pages that fault back in as MAJOR.
 *
 * Page state is read as the recorder reads it on the real kernel:
 * vmsys_page() (pagemap + kpageflags), after vm_drain_all() unless the
 * test is about the batch.
 */
#include "check_run.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kerr.h"
#include "test_machine.h"
#include "vmflags.h"
#include "vmstat.h"
#include "vmsys.h"

/* x86_64 uapi values */
#define P_R 0x1
#define P_W 0x2
#define M_SHARED   0x01
#define M_PRIVATE  0x02
#define M_FIXED    0x10
#define M_ANON     0x20
#define M_LOCKED   0x2000
#define M_POPULATE 0x8000
#define MLOCK_ONFAULT_ 0x1
#define O_RDWR_  02
#define O_CREAT_ 0100
#define SIGCHLD_ 17

#define PG   4096ULL
#define A1   0x20000000ULL
#define A2   0x30000000ULL
#define N    16

static struct vmsys *S;
static struct task *T;

static void machine(uint64_t swap)
{
	struct vmsys_config c;
	test_config(&c, "6.18");
	c.swap = swap;
	S = test_machine_new(&c, &T);
}

static void machine_free(void)
{
	test_machine_free(S);
	S = NULL;
}

static int64_t map(struct task *t, uint64_t addr, unsigned npages, uint64_t flags, int64_t fd)
{
	return vm_mmap(S, t, addr, npages * PG, P_R | P_W, flags | M_FIXED | (fd < 0 ? M_ANON : 0), fd,
		       0, false, 0);
}

static struct vm_page_info page(struct task *t, uint64_t addr) { return test_page(S, t, addr); }

/* Snapshot of the counters a test looks at; delta() reads the change. */
static int64_t snap[NR_VMSTAT_ITEMS];
static void mark(void)
{
	for (int i = 0; i < NR_VMSTAT_ITEMS; i++)
		snap[i] = vmsys_vmstat(S, i);
}
static int64_t delta(int item) { return vmsys_vmstat(S, item) - snap[item]; }

#define assert_delta(item, want)                                                               \
	ck_assert_msg(delta(item) == (want), "%s moved by %lld, expected %lld", vmstat_name(item), \
		      (long long)delta(item), (long long)(want))

/* Each page of [addr, addr + n pages) is in the given state. */
#define assert_pages(t, addr, n, pres, mlk, unev, onlru)                                          \
	for (unsigned i_ = 0; i_ < (n); i_++) {                                                   \
		struct vm_page_info pi_ = page(t, (addr) + i_ * PG);                              \
		ck_assert_msg(pi_.present == (pres) && pi_.mlocked == (mlk) &&                    \
				      pi_.unevictable == (unev) && pi_.lru == (onlru),            \
			      "page %#llx: present=%d mlocked=%d unevictable=%d lru=%d, expected " \
			      "%d %d %d %d",                                                      \
			      (unsigned long long)((addr) + i_ * PG), pi_.present, pi_.mlocked,   \
			      pi_.unevictable, pi_.lru, (pres), (mlk), (unev), (onlru));          \
	}

static uint64_t vmlck(struct task *t)
{
	struct vm_status st;
	vmsys_status(S, t, &st);
	return st.locked_vm;
}

/* Write every page of the N-page mapping at addr: the number of faults. */
static int64_t touch(uint64_t addr)
{
	enum vm_fault_kind sig = VMF_NONE;
	return vm_touch(S, T, addr, N * PG, 2, &sig);
}

/* mmap + touch + mlock: mlocked, unevictable, on the (unevictable) LRU. */
START_TEST(mlock_resident_pages)
{
	machine(0);
	ck_assert_int_eq(map(T, A1, N, M_PRIVATE, -1), (int64_t)A1);
	ck_assert_int_eq(touch(A1), N);
	vm_drain_all(S);
	assert_pages(T, A1, N, true, false, false, true);
	ck_assert(!page(T, A1).active); /* new anon pages start inactive (5.9+) */
	mark();
	ck_assert_int_eq(vm_mlock(S, T, A1, N * PG), 0);
	/* the syscall drains its own batches: nothing left to do */
	assert_delta(UNEVICTABLE_PGS_MLOCKED, N);
	vm_drain_all(S);
	assert_pages(T, A1, N, true, true, true, true);
	ck_assert(!page(T, A1).active);
	ck_assert_uint_eq(page(T, A1).mlock_count, 1);
	assert_delta(UNEVICTABLE_PGS_CULLED, N);
	assert_delta(UNEVICTABLE_PGS_RESCUED, 0);
	assert_delta(UNEVICTABLE_PGS_MUNLOCKED, 0);
	assert_delta(NR_MLOCK, N);
	assert_delta(NR_UNEVICTABLE, N);
	ck_assert_uint_eq(vmlck(T), N);
	struct vm_meminfo mi;
	vmsys_meminfo(S, &mi);
	ck_assert_uint_eq(mi.mlocked, N);
	machine_free();
}
END_TEST

/* MAP_LOCKED|MAP_POPULATE: mlocked and culled once each (2.9 first row). */
START_TEST(map_locked_populate)
{
	machine(0);
	mark();
	ck_assert_int_eq(map(T, A1, N, M_PRIVATE | M_LOCKED | M_POPULATE, -1), (int64_t)A1);
	vm_drain_all(S);
	assert_pages(T, A1, N, true, true, true, true);
	assert_delta(UNEVICTABLE_PGS_MLOCKED, N);
	assert_delta(UNEVICTABLE_PGS_CULLED, N);
	mark();
	ck_assert_int_eq(vm_munmap(S, T, A1, N * PG), 0);
	vm_drain_all(S);
	assert_delta(UNEVICTABLE_PGS_MUNLOCKED, N);
	assert_delta(UNEVICTABLE_PGS_RESCUED, N);
	assert_delta(NR_MLOCK, -N);
	ck_assert_int_eq(vmsys_vmstat(S, NR_MLOCK), 0);
	ck_assert_int_eq(vmsys_vmstat(S, NR_UNEVICTABLE), 0);
	machine_free();
}
END_TEST

/* A fault into an ONFAULT VMA: mlocked at once, on the LRU only once the
 * batch drains ([live] MLOCKED=1 LRU=0 UNEVICTABLE=0 right after the fault). */
START_TEST(onfault_page_waits_in_batch)
{
	machine(0);
	ck_assert_int_eq(map(T, A1, N, M_PRIVATE, -1), (int64_t)A1);
	mark();
	ck_assert_int_eq(vm_mlock2(S, T, A1, N * PG, MLOCK_ONFAULT_), 0);
	ck_assert_uint_eq(vmlck(T), N); /* the whole range is charged */
	assert_pages(T, A1, N, false, false, false, false);
	assert_delta(UNEVICTABLE_PGS_MLOCKED, 0);
	ck_assert_int_eq(vm_access(S, T, A1 + 3 * PG, 2), VMF_MINOR);
	assert_pages(T, A1 + 3 * PG, 1, true, true, false, false);
	assert_delta(UNEVICTABLE_PGS_MLOCKED, 1);
	assert_delta(UNEVICTABLE_PGS_CULLED, 0);
	assert_delta(NR_MLOCK, 1);
	vm_drain_all(S);
	assert_pages(T, A1 + 3 * PG, 1, true, true, true, true);
	assert_delta(UNEVICTABLE_PGS_CULLED, 1);
	assert_pages(T, A1, 3, false, false, false, false);
	machine_free();
}
END_TEST

/* munlock: back to the inactive list (PG_active was cleared when culled). */
START_TEST(munlock_to_inactive)
{
	machine(0);
	ck_assert_int_eq(map(T, A1, N, M_PRIVATE, -1), (int64_t)A1);
	ck_assert_int_eq(touch(A1), N);
	ck_assert_int_eq(vm_mlock(S, T, A1, N * PG), 0);
	vm_drain_all(S);
	mark();
	ck_assert_int_eq(vm_munlock(S, T, A1, N * PG), 0);
	vm_drain_all(S);
	assert_pages(T, A1, N, true, false, false, true);
	for (unsigned i = 0; i < N; i++) {
		struct vm_page_info pi = page(T, A1 + i * PG);
		ck_assert(!pi.active && pi.anon);
	}
	assert_delta(UNEVICTABLE_PGS_MUNLOCKED, N);
	assert_delta(UNEVICTABLE_PGS_RESCUED, N);
	assert_delta(UNEVICTABLE_PGS_CULLED, 0);
	assert_delta(NR_MLOCK, -N);
	assert_delta(NR_UNEVICTABLE, -N);
	ck_assert_uint_eq(vmlck(T), 0);
	/* mlock again: present pages on inactive anon are culled again (2.9) */
	mark();
	ck_assert_int_eq(vm_mlock(S, T, A1, N * PG), 0);
	vm_drain_all(S);
	assert_delta(UNEVICTABLE_PGS_MLOCKED, N);
	assert_delta(UNEVICTABLE_PGS_CULLED, N);
	machine_free();
}
END_TEST

/* Shared anonymous memory locked in parent and child: mlock_count 2, one
 * munlock leaves it unevictable and counts nothing; the last one rescues. */
START_TEST(shared_anon_two_locked_vmas)
{
	machine(0);
	ck_assert_int_eq(map(T, A1, N, M_SHARED, -1), (int64_t)A1);
	ck_assert_int_eq(touch(A1), N);
	ck_assert_int_eq(vm_mlock(S, T, A1, N * PG), 0);
	ck_assert_int_eq(vm_fork(S, T, SIGCHLD_, 2), 2);
	struct task *child = vmsys_task(S, 2, false);
	ck_assert_ptr_nonnull(child);
	ck_assert_uint_eq(vmlck(child), 0); /* VM_LOCKED is not inherited */
	vm_drain_all(S);
	mark();
	ck_assert_int_eq(vm_mlock(S, child, A1, N * PG), 0);
	vm_drain_all(S);
	assert_delta(UNEVICTABLE_PGS_MLOCKED, 0);
	assert_delta(UNEVICTABLE_PGS_CULLED, 0);
	ck_assert_uint_eq(page(T, A1).mlock_count, 2);
	mark();
	ck_assert_int_eq(vm_munlock(S, T, A1, N * PG), 0);
	vm_drain_all(S);
	assert_pages(T, A1, N, true, true, true, true);
	assert_pages(child, A1, N, true, true, true, true);
	ck_assert_uint_eq(page(T, A1).mlock_count, 1);
	assert_delta(UNEVICTABLE_PGS_MUNLOCKED, 0);
	assert_delta(UNEVICTABLE_PGS_RESCUED, 0);
	assert_delta(NR_MLOCK, 0);
	/* the child exits: its zap munlocks the last locked mapping */
	vm_exit(S, child);
	vm_drain_all(S);
	assert_pages(T, A1, N, true, false, false, true);
	assert_delta(UNEVICTABLE_PGS_MUNLOCKED, N);
	assert_delta(UNEVICTABLE_PGS_RESCUED, N);
	assert_delta(NR_MLOCK, -N);
	machine_free();
}
END_TEST

/* 6.x links no unevictable page (lruvec_add_folio() @ v6.1): the list is
 * a count, its pages are found by their flags in pfn order, and each
 * keeps its mlock_count where its links would be.  4.4 links them. */
struct walk { unsigned n; uint32_t last; bool ascending; };
static void walk_one(void *ctx, uint32_t pfn, const struct vm_page_info *pi)
{
	struct walk *w = ctx;
	(void)pi;
	w->ascending &= pfn > w->last;
	w->last = pfn;
	w->n++;
}

START_TEST(unevictable_is_a_count_on_6x)
{
	machine(0);
	ck_assert(!vmsys_lru_linked(S, 4));
	ck_assert(vmsys_lru_linked(S, 0));
	ck_assert_int_eq(map(T, A1, N, M_SHARED, -1), (int64_t)A1);
	ck_assert_int_eq(touch(A1), N);
	ck_assert_int_eq(vm_mlock(S, T, A1, N * PG), 0);
	ck_assert_int_eq(vm_fork(S, T, SIGCHLD_, 2), 2);
	struct task *child = vmsys_task(S, 2, false);
	ck_assert_int_eq(vm_mlock(S, child, A1, N / 2 * PG), 0);
	vm_drain_all(S);
	struct walk w = { 0, 0, true };
	vmsys_lru_walk(S, 4, walk_one, &w);
	ck_assert_uint_eq(w.n, N);
	ck_assert(w.ascending);
	ck_assert_uint_eq(vmsys_lru_size(S, 4), N);
	for (unsigned i = 0; i < N; i++)
		ck_assert_uint_eq(page(T, A1 + i * PG).mlock_count, i < N / 2 ? 2 : 1);
	machine_free(); /* the invariants hold on the list that is a count */

	struct vmsys_config c;
	vmsys_config_default(&c, semantics_find("4.4"));
	char err[256];
	S = vmsys_new(&c, err, sizeof(err));
	ck_assert_ptr_nonnull(S);
	ck_assert(vmsys_lru_linked(S, 4));
	vmsys_free(S);
	S = NULL;
}
END_TEST

/* A MAP_SHARED file mapped twice in one process, both locked. */
START_TEST(shared_file_mapped_twice)
{
	machine(0);
	int64_t fd = vm_open(S, T, "/tmp/lru-two", 12, O_RDWR_ | O_CREAT_, -1);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(vm_ftruncate(S, T, fd, N * PG), 0);
	ck_assert_int_eq(map(T, A1, N, M_SHARED | M_LOCKED | M_POPULATE, fd), (int64_t)A1);
	ck_assert_int_eq(map(T, A2, N, M_SHARED | M_LOCKED | M_POPULATE, fd), (int64_t)A2);
	vm_drain_all(S);
	ck_assert_uint_eq(page(T, A1).pfn, page(T, A2).pfn);
	ck_assert_uint_eq(page(T, A1).mapcount, 2);
	assert_pages(T, A1, N, true, true, true, true);
	ck_assert_int_eq(vmsys_vmstat(S, NR_MLOCK), N);
	mark();
	ck_assert_int_eq(vm_munlock(S, T, A2, N * PG), 0);
	vm_drain_all(S);
	assert_pages(T, A1, N, true, true, true, true);
	assert_delta(UNEVICTABLE_PGS_RESCUED, 0);
	ck_assert_int_eq(vm_munlock(S, T, A1, N * PG), 0);
	vm_drain_all(S);
	assert_pages(T, A1, N, true, false, false, true);
	ck_assert(page(T, A1).file && !page(T, A1).active);
	assert_delta(UNEVICTABLE_PGS_RESCUED, N);
	assert_delta(UNEVICTABLE_PGS_MUNLOCKED, N);
	ck_assert_int_eq(vmsys_vmstat(S, NR_MLOCK), 0);
	machine_free();
}
END_TEST

/* Reclaim until nothing more comes back (a page may need two passes: the
 * first only clears its young bit). */
static int64_t reclaim_all(void)
{
	int64_t total = 0;
	for (int i = 0; i < 16; i++) {
		vm_drain_all(S);
		int64_t r = vm_reclaim(S, 1 << 16);
		ck_assert_int_ge(r, 0);
		total += r;
	}
	return total;
}

/* Without swap: clean unmapped file pages go, locked pages never do. */
START_TEST(reclaim_file_pages_not_locked)
{
	machine(0);
	ck_assert_int_eq(map(T, A1, N, M_PRIVATE | M_LOCKED | M_POPULATE, -1), (int64_t)A1);
	int64_t fd = vm_open(S, T, "/tmp/lru-cache", 14, O_RDWR_ | O_CREAT_, -1);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(vm_ftruncate(S, T, fd, 4 * N * PG), 0);
	ck_assert_int_eq(vm_file_io(S, T, fd, false, 0, 4 * N * PG, -1), (int64_t)(4 * N * PG));
	int64_t lfd = vm_open(S, T, "/tmp/lru-locked", 15, O_RDWR_ | O_CREAT_, -1);
	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(vm_ftruncate(S, T, lfd, N * PG), 0);
	ck_assert_int_eq(map(T, A2, N, M_SHARED | M_LOCKED | M_POPULATE, lfd), (int64_t)A2);
	vm_drain_all(S);
	ck_assert_int_eq(vmsys_vmstat(S, NR_FILE_PAGES), 5 * N);
	mark();
	int64_t freed = reclaim_all();
	ck_assert_int_ge(freed, 4 * N);
	ck_assert_int_eq(vmsys_vmstat(S, NR_FILE_PAGES), N); /* only the locked file's pages */
	assert_pages(T, A1, N, true, true, true, true);
	assert_pages(T, A2, N, true, true, true, true);
	ck_assert_uint_eq(vmlck(T), 2 * N);
	ck_assert_int_eq(vmsys_vmstat(S, NR_MLOCK), 2 * N);
	machine_free();
}
END_TEST

/* With swap: unlocked anonymous pages are swapped out and fault back in
 * as MAJOR; the locked mapping beside them stays resident. */
START_TEST(reclaim_swaps_anon)
{
	machine(64ULL << 20);
	ck_assert_int_eq(map(T, A1, N, M_PRIVATE, -1), (int64_t)A1);
	ck_assert_int_eq(touch(A1), N);
	ck_assert_int_eq(map(T, A2, N, M_PRIVATE | M_LOCKED | M_POPULATE, -1), (int64_t)A2);
	mark();
	reclaim_all();
	for (unsigned i = 0; i < N; i++) {
		struct vm_page_info pi = page(T, A1 + i * PG);
		ck_assert_msg(!pi.present && pi.swapped, "page %u: present=%d swapped=%d", i, pi.present,
			      pi.swapped);
	}
	assert_pages(T, A2, N, true, true, true, true);
	struct vm_status st;
	vmsys_status(S, T, &st);
	ck_assert_uint_eq(st.swap_ents, N);
	assert_delta(PSWPOUT, N);
	ck_assert_int_eq(vm_access(S, T, A1, 1), VMF_MAJOR);
	ck_assert(page(T, A1).present);
	assert_delta(PSWPIN, 1);
	assert_delta(PGMAJFAULT, 1);
	ck_assert_int_eq(vm_access(S, T, A2, 1), VMF_NONE);
	machine_free();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lru");
	TCase *tc = tcase_create("page locking");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, mlock_resident_pages);
	tcase_add_test(tc, map_locked_populate);
	tcase_add_test(tc, onfault_page_waits_in_batch);
	tcase_add_test(tc, munlock_to_inactive);
	tcase_add_test(tc, shared_anon_two_locked_vmas);
	tcase_add_test(tc, unevictable_is_a_count_on_6x);
	tcase_add_test(tc, shared_file_mapped_twice);
	tcase_add_test(tc, reclaim_file_pages_not_locked);
	tcase_add_test(tc, reclaim_swaps_anon);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
