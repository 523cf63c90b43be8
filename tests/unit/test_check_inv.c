/*
 * test_check_inv.c - check_inv_before_next(), which vmsim check's loops
 * use, finds exactly what check_inv_before() finds; and the after-check of
 * an access, which reuses the last walk of each mm's VMAs, exactly what a
 * full walk finds.
 *
 * The fast before-check takes the locked-never-reclaimed snapshot and the
 * caller's locked pages from the walk of the previous after-check instead
 * of walking the machine again; the fast after-check walks an mm's VMAs
 * again only after a call that is not an access and may take the mmap
 * write lock (not reclaim, NUMA scans, limits, file I/O), or when
 * total_vm or map_count moved (a stack grown).  Two checkers watch the same generated
 * runs on the same machine, one with each before-check: after every step
 * they must report the same violated invariants with the same messages.
 * The runs are long enough (2,000 steps) for forks, exits, OOM kills,
 * reclaim of locked and unlocked pages and the semantics' own violations
 * to occur, on every shipped semantics.
 */
#include "check_run.h"
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "replay.h"
#include "checker.h"
#include "semantics.h"
#include "vmsys.h"
#include "internal.h" /* the machine's pages, to break its lists by hand */

#define RUNS 24
#define STEPS 2000


/* the steps at which some invariant failed, over every run */
static unsigned run_both(const char *kernel)
{
	const struct semantics *sem = semantics_find(kernel);
	ck_assert_ptr_nonnull(sem);
	unsigned failing = 0;
	static struct event ev;
	for (uint64_t seed = 1; seed <= RUNS; seed++) {
		struct gen_machine m;
		gen_machine(seed, &m);
		char why[256];
		struct vmsys *s = gen_machine_new(&m, sem, "x86_64", why, sizeof(why));
		ck_assert_msg(s != NULL, "gen_machine_new: %s", why);
		struct check_inv *slow = check_inv_new(s, INV_ALL), *fast = check_inv_new(s, INV_ALL);
		ck_assert(slow && fast);
		check_inv_set_full_walks(slow, true);
		struct gen g;
		gen_init(&g, seed, &gen_weights_default, s);
		for (unsigned i = 0; i < STEPS; i++) {
			struct gstep st;
			gen_next(&g, &st);
			gstep_event(&st, &ev);
			check_inv_before(slow, &ev);
			check_inv_before_next(fast, &ev);
			struct outcome out;
			char err[128];
			if (apply_event(s, &ev, &out, err, sizeof(err)))
				out.kind = OUT_NONE;
			uint32_t a = check_inv_after(slow, &ev, &out), b = check_inv_after(fast, &ev, &out);
			char line[300] = "";
			if (a != b)
				trace_format_event(&ev, "x86_64", kernel, line, sizeof(line));
			ck_assert_msg(a == b, "%s seed %llu step %u (%s): violations %#x (full walk: %s) vs %#x (reused walk)",
				      kernel, (unsigned long long)seed, i, line, a,
				      a ? check_inv_msg(slow, (unsigned)__builtin_ctz(a)) : "", b);
			for (unsigned k = 0; k < INV_NR; k++)
				if (a & (1u << k))
					ck_assert_str_eq(check_inv_msg(slow, k), check_inv_msg(fast, k));
			failing += a != 0;
		}
		check_inv_free(slow);
		check_inv_free(fast);
		vmsys_free(s);
	}
	return failing;
}

START_TEST(reused_walk_finds_what_a_full_walk_finds)
{
	static const char *const kernels[] = { "4.0", "lof-v1", "4.4", "6.1", "6.18" };
	unsigned failing = 0;
	for (unsigned i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		failing += run_both(kernels[i]);
	/* the runs do reach violations: the comparison is not of empty sets */
	ck_assert_uint_gt(failing, 0);
}
END_TEST

/* x86_64 uapi values */
#define PROT_RW 0x3
#define MAP_PRIVATE_ANON_FIXED 0x32
#define PG 4096ULL
#define AT 0x20000000ULL

/* what the full walk finds after a non-call event; the default finds
 * the same, message and all, at once when a tracepoint or a counter named
 * what changed (at_once), else by its next walk of the lists, within
 * CHECK_INV_LRU_WALK_EVERY after-checks */
static uint32_t both_find(struct check_inv *full, struct check_inv *dflt, bool at_once)
{
	static struct event ev;
	ev.type = EV_SIGNAL;
	ev.pid = 1;
	struct outcome out = { .kind = OUT_NONE };
	uint32_t a = 0, b = 0;
	for (unsigned i = 0; i < CHECK_INV_LRU_WALK_EVERY; i++) {
		check_inv_before(full, &ev);
		check_inv_before(dflt, &ev);
		uint32_t ai = check_inv_after(full, &ev, &out), bi = check_inv_after(dflt, &ev, &out);
		if (i == 0)
			a = ai;
		ck_assert_uint_eq(ai, a); /* nothing changes the machine here */
		b = bi;
		if (b == a || at_once)
			break;
		ck_assert_uint_eq(b, 0); /* only ever late, never wrong */
	}
	ck_assert_msg(a == b, "full walk %#x (%s), default %#x%s", a,
		      a ? check_inv_msg(full, (unsigned)__builtin_ctz(a)) : "", b,
		      at_once ? " at once" : " by its next walk");
	for (unsigned k = 0; k < INV_NR; k++)
		if (a & (1u << k))
			ck_assert_str_eq(check_inv_msg(full, k), check_inv_msg(dflt, k));
	return a;
}

/* A page of list l of s with a successor on it */
static pfn_t page_with_next(struct vmsys *s, enum lru_list l)
{
	for (pfn_t pfn = lru_first(s, l); pfn; pfn = lru_next(s, l, pfn))
		if (spage(s, pfn)->next)
			return pfn;
	return PFN_NONE;
}

/* Each break of an LRU rule that check_lru() looks for, made by hand in a
 * machine with pages on the anon lists and the unevictable one, is found
 * (by both checkers, with the same message; by the default at once where
 * the model's tracepoints or counters name the change), and the machine
 * mended is clean again: a rule that lru_page_faults() or the counts lost,
 * or a page the default's incremental check passed over, would leave its
 * break unseen. */
static void lru_breaks(const char *kernel)
{
	const struct semantics *sem = semantics_find(kernel);
	ck_assert_ptr_nonnull(sem);
	struct vmsys_config c;
	vmsys_config_default(&c, sem);
	c.ram = 64ULL << 20;
	c.cap_ipc_lock = true;
	c.rlimit_memlock = UINT64_MAX;
	char err[256];
	struct vmsys *s = vmsys_new(&c, err, sizeof(err));
	ck_assert_msg(s != NULL, "vmsys_new: %s", err);
	struct task *t = vmsys_task(s, 1, true);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(vm_mmap(s, t, AT, 64 * PG, PROT_RW, MAP_PRIVATE_ANON_FIXED, -1, 0, false, 0), (int64_t)AT);
	enum vm_fault_kind sig = VMF_NONE;
	ck_assert_int_eq(vm_touch(s, t, AT, 64 * PG, 2, &sig), 64);
	ck_assert_int_eq(vm_mlock(s, t, AT, 8 * PG), 0);
	vm_drain_all(s);
	for (uint64_t a = AT + 16 * PG; a < AT + 32 * PG; a += PG) /* some of them active */
		ck_assert_int_eq(vm_access(s, t, a, 1), VMF_NONE);
	vm_drain_all(s);
	struct check_inv *full = check_inv_new(s, INV_ALL), *dflt = check_inv_new(s, INV_ALL);
	ck_assert(full && dflt);
	check_inv_set_full_walks(full, true);
	ck_assert_uint_eq(both_find(full, dflt, true), 0);
	const uint32_t lru = 1u << inv_find("lru-consistent"), mlocked = 1u << inv_find("mlocked-pages");
	/* new anonymous pages go on the inactive list in 6.x, the active one in 4.x */
	pfn_t pfn = page_with_next(s, s->lru.size[LRU_INACTIVE_ANON] ? LRU_INACTIVE_ANON : LRU_ACTIVE_ANON);
	ck_assert_uint_ne(pfn, PFN_NONE);
	struct page *p = spage(s, pfn), *q = spage(s, p->next);
	/* a broken back link */
	pfn_t keep = q->prev;
	q->prev = p->next;
	ck_assert(both_find(full, dflt, false) & lru);
	q->prev = keep;
	ck_assert_uint_eq(both_find(full, dflt, true), 0);
	/* flags that say another list */
	p->flags ^= PG_ACTIVE;
	ck_assert(both_find(full, dflt, false) & lru);
	p->flags ^= PG_ACTIVE;
	ck_assert_uint_eq(both_find(full, dflt, true), 0);
	/* a size and its counter that say one page more than the list holds */
	s->lru.size[LRU_ACTIVE_ANON]++;
	s->stat.v[NR_ACTIVE_ANON]++;
	ck_assert(both_find(full, dflt, false) & lru);
	s->lru.size[LRU_ACTIVE_ANON]--;
	s->stat.v[NR_ACTIVE_ANON]--;
	ck_assert_uint_eq(both_find(full, dflt, true), 0);
	/* a size that disagrees with its counter */
	s->lru.size[LRU_ACTIVE_ANON]++;
	ck_assert(both_find(full, dflt, true) & lru);
	s->lru.size[LRU_ACTIVE_ANON]--;
	ck_assert_uint_eq(both_find(full, dflt, true), 0);
	/* nr_mlock one off */
	s->stat.v[NR_MLOCK]++;
	ck_assert(both_find(full, dflt, true) & mlocked);
	s->stat.v[NR_MLOCK]--;
	ck_assert_uint_eq(both_find(full, dflt, true), 0);
	/* a page of an unlocked VMA put on the unevictable list: not mlocked,
	 * then mlocked but mapped by no locked VMA */
	ck_assert_int_eq(vm_mprotect(s, t, AT + 8 * PG, PG, PROT_RW), 0);
	pfn_t m = pte_pfn(radix_get(&t->mm->pt, (AT + 8 * PG) >> PAGE_SHIFT));
	struct page *pm = spage(s, m);
	lru_del_page(s, m);
	pm->flags |= PG_UNEVICTABLE;
	lru_add_page(s, m, LRU_UNEVICTABLE); /* both named */
	ck_assert(both_find(full, dflt, true) & mlocked);
	ck_assert_ptr_nonnull(strstr(check_inv_msg(full, (unsigned)inv_find("mlocked-pages")), "is not mlocked"));
	pm->flags |= PG_MLOCKED;
	s->stat.v[NR_MLOCK]++;
	ck_assert(both_find(full, dflt, true) & mlocked);
	ck_assert_ptr_nonnull(strstr(check_inv_msg(full, (unsigned)inv_find("mlocked-pages")), "by no locked VMA"));
	/* mapped by nothing it breaks no rule; mapped again without a word
	 * (as a fault-around maps), the default sees it at once */
	unsigned keepmap = pm->mapcount;
	pm->mapcount = 0;
	ck_assert_uint_eq(both_find(full, dflt, true) & mlocked, 0);
	pm->mapcount = keepmap;
	ck_assert(both_find(full, dflt, true) & mlocked);
	check_inv_free(full);
	check_inv_free(dflt);
	vmsys_free(s);
}

START_TEST(lru_breaks_found_by_both_walks)
{
	lru_breaks("6.18"); /* the unevictable list a count */
	lru_breaks("4.4");  /* linked */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("check_inv");
	TCase *tc = tcase_create("before_next");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, reused_walk_finds_what_a_full_walk_finds);
	tcase_add_test(tc, lru_breaks_found_by_both_walks);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
