/*
 * mlock.c - mlock, mlock2, munlock, mlockall, munlockall, and the page-level
 * mlock machinery.
 *
 * VMA level (mm/mlock.c @ v6.1): apply_vma_lock_flags() walks the VMAs of
 * the range and calls mlock_fixup() on each; a hole stops the walk with
 * ENOMEM but what was done before it stays done.  mlock_fixup() skips VMAs
 * that cannot be locked, merges or splits, charges locked_vm and marks the
 * present pages.  The semantics decides which bits are replaced, how the
 * charge is computed and which mlockall flag combinations mean what.
 *
 * Page level (6.x, Hugh Dickins' 5.18 design): PG_mlocked says "some
 * VM_LOCKED VMA maps this page"; mlock_count approximates how many.  Every
 * mlock/munlock of a page is queued in the per-CPU mlock batch and applied
 * under the LRU lock when the batch drains:
 *
 *   mlock_folio      set PG_mlocked now (nr_mlock, unevictable_pgs_mlocked),
 *                    queue; drain moves the page to the unevictable list
 *                    (culled) or bumps mlock_count if it is there already
 *   mlock_new_folio  a page just faulted into a locked VMA: never visits
 *                    the evictable lists
 *   munlock_folio    queue; drain drops mlock_count, and at 0 clears
 *                    PG_mlocked (munlocked) and rescues the page to the
 *                    inactive list
 */
#include "internal.h"

/* ---------------------------------------------------------------- pages */

static void batch_add(struct vmsys *s, pfn_t pfn, enum batch_tag tag)
{
	struct lru_batch *b = &s->lru.mlock_batch;
	struct page *p = spage(s, pfn);
	p->refcount++;
	b->pfn[b->n] = pfn;
	b->tag[b->n] = (uint8_t)tag;
	b->n++;
	TP(s, TP_BATCH_ADD, tag == BATCH_MUNLOCK ? KFN_MUNLOCK_FOLIO
			    : tag == BATCH_MLOCK_NEW ? KFN_MLOCK_NEW_FOLIO : KFN_MLOCK_FOLIO,
	   .kind = TPB_MLOCK, .pfn = pfn, .after = b->n, .limit = s->sem->mlock_batch);
	/* mm/mlock.c:mlock_folio() @ v6.18: a large folio moves the batch at
	 * once (!folio_may_be_lru_cached()) */
	bool large = p->folio_order && s->sem->pagecache_large_folios && s->sem->large_folio_moves_batch;
	if (b->n >= s->sem->mlock_batch || b->n >= LRU_BATCH_MAX || large)
		mlock_drain_local(s);
}

/* mm/mlock.c:__mlock_folio() */
static void mlock_lru(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if (!(p->flags & PG_LRU))
		return; /* isolated or not yet on a list: its putback will cull */
	if (folio_evictable(s, p)) {
		if (p->flags & PG_UNEVICTABLE) {
			lru_del_page(s, pfn);
			p->flags &= ~PG_UNEVICTABLE;
			lru_add_page(s, pfn, page_lru(p));
			count_vm(s, UNEVICTABLE_PGS_RESCUED, 1);
			TP(s, TP_PAGE, KFN_MLOCK_DRAIN, .kind = TPP_RESCUE, .pfn = pfn,
			   .list_to = (uint8_t)page_lru(p));
		}
		return;
	}
	if (p->flags & PG_UNEVICTABLE) {
		if (p->flags & PG_MLOCKED) {
			p->mlock_count++;
			TP(s, TP_PAGE, KFN_MLOCK_DRAIN, .kind = TPP_MLOCK_COUNT, .pfn = pfn,
			   .after = p->mlock_count);
		}
		return;
	}
	if (s->sem->test_skip_cull)
		return; /* test-only: the cull is skipped */
	enum lru_list from = page_lru(p);
	lru_del_page(s, pfn);
	p->flags &= ~PG_ACTIVE;
	p->flags |= PG_UNEVICTABLE;
	p->mlock_count = (p->flags & PG_MLOCKED) ? 1 : 0;
	lru_add_page(s, pfn, LRU_UNEVICTABLE);
	count_vm(s, UNEVICTABLE_PGS_CULLED, 1);
	TP(s, TP_PAGE, KFN_MLOCK_DRAIN, .kind = TPP_CULL, .pfn = pfn, .list_from = (uint8_t)from,
	   .list_to = LRU_UNEVICTABLE, .after = p->mlock_count);
}

/* mm/mlock.c:__mlock_new_folio() */
static void mlock_new(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if (p->flags & PG_LRU)
		return;
	if (folio_evictable(s, p)) {
		lru_add_page(s, pfn, page_lru(p));
		return;
	}
	p->flags &= ~PG_ACTIVE;
	p->flags |= PG_UNEVICTABLE;
	p->mlock_count = 1;
	count_vm(s, UNEVICTABLE_PGS_CULLED, 1);
	lru_add_page(s, pfn, LRU_UNEVICTABLE);
	TP(s, TP_PAGE, KFN_MLOCK_DRAIN, .kind = TPP_CULL, .pfn = pfn, .list_to = LRU_UNEVICTABLE,
	   .after = 1);
}

/* mm/mlock.c:__munlock_folio() */
static void munlock_one(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	bool isolated = (p->flags & PG_LRU) != 0;
	if (isolated && (p->flags & PG_UNEVICTABLE)) {
		if (p->mlock_count)
			p->mlock_count--;
		if (p->mlock_count) {
			TP(s, TP_PAGE, KFN_MLOCK_DRAIN, .kind = TPP_MUNLOCK_COUNT, .pfn = pfn,
			   .after = p->mlock_count);
			return;
		}
	}
	if (p->flags & PG_MLOCKED) {
		p->flags &= ~PG_MLOCKED;
		count_vm(s, NR_MLOCK, -1);
		bool stranded = !isolated && (p->flags & PG_UNEVICTABLE);
		if (!stranded)
			count_vm(s, UNEVICTABLE_PGS_MUNLOCKED, 1);
		else
			count_vm(s, UNEVICTABLE_PGS_STRANDED, 1);
		TP(s, TP_PAGE, KFN_MLOCK_DRAIN, .kind = stranded ? TPP_STRANDED : TPP_MUNLOCK,
		   .pfn = pfn);
	}
	if (isolated && (p->flags & PG_UNEVICTABLE) && folio_evictable(s, p)) {
		lru_del_page(s, pfn);
		p->flags &= ~PG_UNEVICTABLE;
		lru_add_page(s, pfn, page_lru(p));
		if (s->sem->test_rescue_wrong_list)
			p->flags ^= PG_ACTIVE; /* test-only: flags no longer match the list */
		count_vm(s, UNEVICTABLE_PGS_RESCUED, 1);
		TP(s, TP_PAGE, KFN_MLOCK_DRAIN, .kind = TPP_RESCUE, .pfn = pfn,
		   .list_from = LRU_UNEVICTABLE, .list_to = (uint8_t)page_lru(p));
	}
}

void mlock_drain_local(struct vmsys *s)
{
	struct lru_batch *b = &s->lru.mlock_batch;
	while (b->n) {
		struct lru_batch copy = *b;
		b->n = 0;
		TP(s, TP_BATCH_DRAIN, KFN_MLOCK_DRAIN, .kind = TPB_MLOCK, .delta = copy.n);
		for (unsigned i = 0; i < copy.n; i++) {
			pfn_t pfn = copy.pfn[i];
			switch (copy.tag[i]) {
			case BATCH_MLOCK_LRU: mlock_lru(s, pfn); break;
			case BATCH_MLOCK_NEW: mlock_new(s, pfn); break;
			default: munlock_one(s, pfn); break;
			}
			put_page(s, pfn);
		}
	}
}

void mlock_folio(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if (p->flags & PG_ZERO)
		return;
	if (!(p->flags & PG_MLOCKED)) {
		p->flags |= PG_MLOCKED;
		count_vm(s, NR_MLOCK, 1);
		count_vm(s, UNEVICTABLE_PGS_MLOCKED, 1);
		TP(s, TP_PAGE, KFN_MLOCK_FOLIO, .kind = TPP_MLOCK, .pfn = pfn);
	}
	batch_add(s, pfn, BATCH_MLOCK_LRU);
}

void mlock_new_folio(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	p->flags |= PG_MLOCKED;
	count_vm(s, NR_MLOCK, 1);
	count_vm(s, UNEVICTABLE_PGS_MLOCKED, 1);
	TP(s, TP_PAGE, KFN_MLOCK_NEW_FOLIO, .kind = TPP_MLOCK, .pfn = pfn);
	batch_add(s, pfn, BATCH_MLOCK_NEW);
}

void munlock_folio(struct vmsys *s, pfn_t pfn)
{
	if (spage(s, pfn)->flags & PG_ZERO)
		return;
	batch_add(s, pfn, BATCH_MUNLOCK);
}

/* mm/mlock.c:mlock_vma_page() @ v4.4: set PG_mlocked and move the page to
 * the unevictable list now (isolate + putback: culled) */
void mlock_folio_4x(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if ((p->flags & PG_ZERO) || (p->flags & PG_MLOCKED))
		return;
	p->flags |= PG_MLOCKED;
	count_vm(s, NR_MLOCK, 1);
	count_vm(s, UNEVICTABLE_PGS_MLOCKED, 1);
	TP(s, TP_PAGE, KFN_MLOCK_PAGE_4X, .kind = TPP_MLOCK, .pfn = pfn);
	if (p->flags & PG_LRU) {
		enum lru_list from = page_lru(p);
		lru_del_page(s, pfn);
		p->flags &= ~PG_ACTIVE;
		p->flags |= PG_UNEVICTABLE;
		lru_add_page(s, pfn, LRU_UNEVICTABLE);
		count_vm(s, UNEVICTABLE_PGS_CULLED, 1);
		TP(s, TP_PAGE, KFN_MLOCK_PAGE_4X, .kind = TPP_CULL, .pfn = pfn,
		   .list_from = (uint8_t)from, .list_to = LRU_UNEVICTABLE);
	}
}

/* mm/internal.h:mlock_vma_folio() @ v6.1 */
void mlock_vma_folio(struct vmsys *s, struct vma *v, pfn_t pfn)
{
	if ((v->flags & (VM_LOCKED | VM_SPECIAL)) == VM_LOCKED)
		mlock_folio(s, pfn);
}

void munlock_vma_folio(struct vmsys *s, struct vma *v, pfn_t pfn)
{
	if (v->flags & VM_LOCKED)
		munlock_folio(s, pfn);
}

/* ---------------------------------------------------------- anonymous THPs */

/* The pages of the anonymous large folio of page pfn, mapped at vpn in mm
 * (a THP, thp.c), as far as mm maps them where they were made: the model
 * keeps no folio, only each page's order, anon_vma and index (its head
 * the page of the first index, as vmsys_folio_span() takes it). */
static unsigned thp_folio_pages(struct vmsys *s, struct mm *mm, uint64_t vpn, pfn_t pfn,
				pfn_t *out, uint64_t *vpns)
{
	const struct page *p = spage(s, pfn);
	uint64_t nr = 1ULL << p->folio_order, off = page_index(p) & (nr - 1);
	uint64_t head_vpn = vpn - off, head_index = page_index(p) - off;
	unsigned n = 0;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t pte = radix_get(&mm->pt, head_vpn + i);
		if (!(pte & PTE_PRESENT) || pte_pfn(pte) == PFN_ZERO)
			continue;
		const struct page *q = spage(s, pte_pfn(pte));
		if ((q->flags & PG_ANON) && q->owner == p->owner && q->folio_order == p->folio_order &&
		    page_index(q) == head_index + i) {
			out[n] = pte_pfn(pte);
			if (vpns)
				vpns[n] = head_vpn + i;
			n++;
		}
	}
	return n;
}

void thp_pmds_end(struct vmsys *s, struct vma *v, uint64_t start, uint64_t end)
{
	struct mm *mm = v->mm;
	if (!mm->thp)
		return;
	if ((v->flags & VM_LOCKED) && s->sem->thp_pte_mlock != THP_PTE_SMALL) {
		/* __split_huge_pmd_locked() -> munlock_vma_page(compound) @ v6.1,
		 * zap_huge_pmd() -> page_remove_rmap(compound); the PMD's removal
		 * in folio_remove_rmap_pmd() @ v6.18: the folio, whole */
		for (uint64_t h = start & HPAGE_MASK; h < end && thp_next_folio_pmd(mm, &h, end);
		     h += HPAGE_SIZE) {
			uint64_t pte = radix_get(&mm->pt, h >> PAGE_SHIFT);
			if (!(pte & PTE_PRESENT))
				continue;
			pfn_t pages[HPAGE_PAGES];
			unsigned n = thp_folio_pages(s, mm, h >> PAGE_SHIFT, pte_pfn(pte), pages, NULL);
			for (unsigned i = 0; i < n; i++)
				munlock_folio(s, pages[i]);
		}
	}
	thp_range_gone(mm, start, end);
}

void thp_folio_mlock(struct vmsys *s, struct mm *mm, uint64_t vpn, pfn_t pfn, bool lock,
		     uint64_t first, uint64_t last)
{
	pfn_t pages[HPAGE_PAGES];
	uint64_t vpns[HPAGE_PAGES];
	unsigned n = thp_folio_pages(s, mm, vpn, pfn, pages, vpns);
	uint64_t nr = 1ULL << spage(s, pfn)->folio_order;
	/* allow_mlock_munlock() @ v6.18: mlock only a folio all of whose
	 * pages are mapped inside the range (folio_within_range(),
	 * folio_mlock_step()) */
	if (lock && (n != nr || vpns[0] < first || vpns[n - 1] > last))
		return;
	for (unsigned i = 0; i < n; i++)
		if (lock)
			mlock_folio(s, pages[i]);
		else
			munlock_folio(s, pages[i]);
}

/* ------------------------------------------------------------------ VMAs */

/* mm/mlock.c:mlock_fixup() skip test (6.1 + VM_DROPPABLE from 6.11) */
bool vma_supports_mlock(const struct vma *v)
{
	if (v->flags & (VM_SPECIAL | VM_HUGETLB | VM_DROPPABLE))
		return false;
	return true;
}

/* ... and vma_is_secretmem() (5.14+): mlock and munlock leave its
 * VM_LOCKED as mmap set it, and count nothing */
static bool mlock_fixup_skips(const struct vma *v)
{
	return !vma_supports_mlock(v) || (v->file && v->file->secretmem);
}

/*
 * mm/mlock.c:mlock_pte_range() for a large page-cache folio (6.18): munlock
 * takes the whole folio; mlock only when the folio lies inside [start,end)
 * of this VMA and all its pages are mapped there by consecutive PTEs
 * (allow_mlock_munlock(), folio_mlock_step()).  Returns the next vpn to
 * look at.
 */
static uint64_t mlock_large_folio(struct vmsys *s, struct mm *mm, struct vma *v, uint64_t start,
				  uint64_t end, uint64_t vpn, pfn_t pfn, bool lock)
{
	struct page *p = spage(s, pfn);
	uint64_t nr = 1ULL << p->folio_order, head = page_index(p) & ~(nr - 1);
	uint64_t last = (end >> PAGE_SHIFT) - 1;
	/* folio_mlock_step(): the PTEs from here on that map the following
	 * pages of this folio */
	uint64_t step = 1;
	while (vpn + step <= last && page_index(p) + step < head + nr) {
		/* walk_page_range() hands mlock_pte_range() one page table */
		if (s->sem->large_folio_batch_per_pmd && !((vpn + step) & 511))
			break;
		uint64_t pte = radix_get(&mm->pt, vpn + step);
		pfn_t q = file_find_page(s, v->file, page_index(p) + step);
		if (!q || !(pte & PTE_PRESENT) || pte_pfn(pte) != q)
			break;
		step++;
	}
	/* allow_mlock_munlock(): mlock only a folio wholly inside the range
	 * and mapped whole by this batch; munlock always */
	uint64_t first_vpn = start >> PAGE_SHIFT;
	bool whole = page_index(p) == head && step == nr && vpn >= first_vpn;
	if (lock && !whole)
		return vpn + step;
	for (uint64_t i = 0; i < nr; i++) {
		pfn_t q = file_find_page(s, v->file, head + i);
		if (!q)
			continue;
		if (lock)
			mlock_folio(s, q);
		else
			munlock_folio(s, q);
	}
	return vpn + step;
}

/* mm/mlock.c:mlock_vma_pages_range(): mark the present pages */
static void mlock_vma_pages_range(struct vmsys *s, struct mm *mm, struct vma *v,
				  uint64_t start, uint64_t end, vm_flags_t newflags)
{
	bool lock = (newflags & VM_LOCKED) != 0;
	/* VM_IO while walking keeps the rmap hooks off this VMA */
	v->flags = lock ? (newflags | VM_IO) : newflags;
	lru_add_drain(s);
	uint64_t vpn = start >> PAGE_SHIFT, last = (end >> PAGE_SHIFT) - 1;
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t pte = radix_get(&mm->pt, vpn);
		if ((pte & PTE_PRESENT) && pte_pfn(pte) != PFN_ZERO) {
			struct page *p = spage(s, pte_pfn(pte));
			if (p->folio_order && v->file && s->sem->pagecache_large_folios) {
				vpn = mlock_large_folio(s, mm, v, start, end, vpn, pte_pfn(pte), lock);
				continue;
			}
			if (p->folio_order && (p->flags & PG_ANON) &&
			    s->sem->thp_pte_mlock != THP_PTE_SMALL &&
			    thp_pmd_state(mm, vpn << PAGE_SHIFT) != THP_PMD_FOLIO) {
				/* a THP mapped by PTEs: mlock_pte_range() @ v6.1 passes
				 * over it (PageTransCompound()); @ v6.18 the folio,
				 * once for the PTEs of this range that map it */
				uint64_t nr = 1ULL << p->folio_order;
				if (s->sem->thp_pte_mlock == THP_PTE_FOLIO)
					thp_folio_mlock(s, mm, vpn, pte_pfn(pte), lock, start >> PAGE_SHIFT,
							last);
				vpn += nr - (page_index(p) & (nr - 1));
				continue;
			}
			if (lock)
				mlock_folio(s, pte_pfn(pte));
			else
				munlock_folio(s, pte_pfn(pte));
		}
		vpn++;
	}
	lru_add_drain(s);
	v->flags = newflags;
}

/* 4.x page model: locking only sets the flags (populate mlocks pages);
 * unlocking munlocks every present page and asks rmap whether another
 * VM_LOCKED VMA keeps it mlocked (mm/mlock.c:munlock_vma_pages_range() @ v4.4). */
static void munlock_pages_rmap(struct vmsys *s, struct mm *mm, struct vma *v,
			       uint64_t start, uint64_t end, const struct mm *busy);

int mlock_fixup(struct vmsys *s, struct task *t, struct vma **vp, uint64_t start,
		uint64_t end, vm_flags_t newflags)
{
	const struct semantics *sem = s->sem;
	struct mm *mm = t->mm;
	struct vma *v = *vp;
	vm_flags_t oldflags = v->flags;
	int err = 0;

	if (newflags == oldflags || mlock_fixup_skips(v))
		return 0;
	v = vma_modify_flags(s, mm, v, start, end, newflags, &err);
	if (!v)
		return err;
	*vp = v;
	TP(s, TP_VMA_FLAGS, KFN_MLOCK_FIXUP, .start = start, .end = end, .old_flags = oldflags,
	   .new_flags = newflags);
	int64_t nr = (int64_t)((end - start) >> PAGE_SHIFT);
	if (!(newflags & VM_LOCKED)) {
		locked_vm_add(s, mm, -nr, KFN_MLOCK_FIXUP);
		/* lof-v1: unlocking a VM_LOCKONFAULT-only VMA that was never
		 * charged (mlock_fixup() @ v4.0 subtracts on every unlock):
		 * locked_vm goes down, and wraps */
		if (!(oldflags & VM_LOCKED))
			mm->locked_vm_quirk -= nr;
	} else if (!(oldflags & VM_LOCKED))
		locked_vm_add(s, mm, nr, KFN_MLOCK_FIXUP);
	else if (sem->relock_charges_again) {
		/* 4.4: the skip test compares whole flag words, so switching a
		 * locked range to or from ONFAULT charges it again */
		locked_vm_add(s, mm, nr, KFN_MLOCK_FIXUP);
		mm->locked_vm_quirk += nr;
	}

	if (sem->page_model == PLM_MLOCK_COUNT) {
		if ((newflags & VM_LOCKED) && (oldflags & VM_LOCKED)) {
			v->flags = newflags; /* mlocking twice would be wrong */
		} else {
			mlock_vma_pages_range(s, mm, v, start, end, newflags);
		}
	} else {
		if (newflags & VM_LOCKED) {
			v->flags = newflags;
		} else if (sem->fixup_writes_newflags_on_unlock) {
			v->flags = newflags;
			munlock_pages_rmap(s, mm, v, start, end, mm); /* mmap_sem held for write */
		} else {
			/* 4.0: munlock_vma_pages_range() clears VM_LOCKED only */
			v->flags &= ~sem->unlock_clear;
			munlock_pages_rmap(s, mm, v, start, end, mm); /* mmap_sem held for write */
		}
	}
	return 0;
}

struct other_lock_ctx {
	struct vma *skip;
	const struct mm *busy; /* an mm whose mmap_sem the caller holds for write, or NULL */
	bool found;
};

static bool find_other_locked(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *pte,
			      void *ctx)
{
	(void)s; (void)addr; (void)pte;
	struct other_lock_ctx *c = ctx;
	/* mm/rmap.c:try_to_unmap_one() @ v4.0 re-mlocks for a VM_LOCKED VMA
	 * only if down_read_trylock() of that VMA's mmap_sem succeeds: never
	 * for the mm whose mmap_sem the munlocking call holds for write (4.4
	 * tests VM_LOCKED under the PTE lock alone) */
	if (c->busy && v->mm == c->busy)
		return true;
	if (v != c->skip && (v->flags & VM_LOCKED)) {
		c->found = true;
		return false;
	}
	return true;
}

/* mm/mlock.c:munlock_vma_page() + try_to_munlock() @ v4.4 (v4.0); busy:
 * the mm whose mmap_sem the caller holds for write (munlock, munmap), NULL
 * when it holds none or only for read (exit, a COW fault) */
static void munlock_page_rmap(struct vmsys *s, struct vma *v, pfn_t pfn, const struct mm *busy)
{
	struct page *p = spage(s, pfn);
	if (!(p->flags & PG_MLOCKED))
		return;
	p->flags &= ~PG_MLOCKED;
	count_vm(s, NR_MLOCK, -1);
	bool isolated = (p->flags & PG_LRU) != 0;
	if (!isolated) {
		count_vm(s, UNEVICTABLE_PGS_STRANDED, 1);
		TP(s, TP_PAGE, KFN_MUNLOCK_PAGE_4X, .kind = TPP_STRANDED, .pfn = pfn);
		return;
	}
	if (p->mapcount > 1) {
		struct other_lock_ctx c = { v, s->sem->munlock_rmap_trylocks_mmap ? busy : NULL, false };
		rmap_walk(s, pfn, find_other_locked, &c);
		if (c.found) {
			p->flags |= PG_MLOCKED;
			count_vm(s, NR_MLOCK, 1);
			count_vm(s, UNEVICTABLE_PGS_MLOCKED, 1);
			TP(s, TP_PAGE, KFN_MUNLOCK_PAGE_4X, .kind = TPP_STILL_LOCKED, .pfn = pfn);
			return;
		}
	}
	count_vm(s, UNEVICTABLE_PGS_MUNLOCKED, 1);
	TP(s, TP_PAGE, KFN_MUNLOCK_PAGE_4X, .kind = TPP_MUNLOCK, .pfn = pfn);
	if (p->flags & PG_UNEVICTABLE) {
		lru_del_page(s, pfn);
		p->flags &= ~PG_UNEVICTABLE;
		lru_add_page(s, pfn, page_lru(p));
		count_vm(s, UNEVICTABLE_PGS_RESCUED, 1);
		TP(s, TP_PAGE, KFN_MUNLOCK_PAGE_4X, .kind = TPP_RESCUE, .pfn = pfn,
		   .list_from = LRU_UNEVICTABLE, .list_to = (uint8_t)page_lru(p));
	}
}

static void munlock_pages_rmap(struct vmsys *s, struct mm *mm, struct vma *v,
			       uint64_t start, uint64_t end, const struct mm *busy)
{
	lru_add_drain(s);
	uint64_t vpn = start >> PAGE_SHIFT, last = (end >> PAGE_SHIFT) - 1;
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t pte = radix_get(&mm->pt, vpn);
		if ((pte & PTE_PRESENT) && pte_pfn(pte) != PFN_ZERO)
			munlock_page_rmap(s, v, pte_pfn(pte), busy);
		vpn++;
	}
}

/* mm/mlock.c:munlock_vma_pages_all() @ v4.4 (v4.0): what do_munmap() and
 * exit_mmap() do to each VM_LOCKED VMA in the 4.x page model - clear the
 * semantics' unlock bits and munlock every present page by rmap walk.
 * write_locked: the caller holds the mm's mmap_sem for write (do_munmap();
 * exit_mmap() holds none). */
void munlock_vma_pages_all(struct vmsys *s, struct vma *v, bool write_locked)
{
	v->flags &= ~s->sem->unlock_clear;
	munlock_pages_rmap(s, v->mm, v, v->start, v->end, write_locked ? v->mm : NULL);
}

/* The 4.x COW path (do_wp_page() @ v4.0/v4.4): after copying, the old
 * page is munlocked if the VMA is VM_LOCKED and the page PG_mlocked. */
void munlock_cow_page_4x(struct vmsys *s, struct vma *v, pfn_t pfn)
{
	if ((v->flags & VM_LOCKED) && (spage(s, pfn)->flags & PG_MLOCKED))
		munlock_page_rmap(s, v, pfn, NULL); /* a fault: mmap_sem held for read */
}

/* mm/mlock.c:count_mm_mlocked_page_nr() (4.15+) */
static uint64_t count_mlocked_pages(struct mm *mm, uint64_t start, uint64_t len)
{
	uint64_t end = start + len, count = 0;
	if (end < start)
		end = UINT64_MAX;
	for (struct vma *v = vma_find(&mm->vmas, start); v && v->start < end; v = v->next) {
		if (!(v->flags & VM_LOCKED))
			continue;
		if (start > v->start)
			count -= start - v->start;
		if (end < v->end) {
			count += end - v->start;
			break;
		}
		count += v->end - v->start;
	}
	return count >> PAGE_SHIFT;
}

/* mm/mlock.c:apply_vma_lock_flags() */
static int apply_vma_lock_flags(struct vmsys *s, struct task *t, uint64_t start,
				uint64_t len, vm_flags_t flags)
{
	struct mm *mm = t->mm;
	uint64_t end = start + len;
	if (end < start)
		return -KERR_EINVAL;
	if (end == start)
		return 0;
	struct vma *v = vma_lookup(&mm->vmas, start);
	if (!v)
		return -KERR_ENOMEM;
	uint64_t nstart = start;
	for (;;) {
		vm_flags_t newflags = (v->flags & ~s->sem->lock_mask) | flags;
		uint64_t tmp = v->end < end ? v->end : end;
		int err = mlock_fixup(s, t, &v, nstart, tmp, newflags);
		if (err)
			return err;
		nstart = tmp;
		if (nstart < v->end)
			nstart = v->end;
		if (nstart >= end)
			return 0;
		v = vma_find(&mm->vmas, nstart);
		if (!v || v->start != nstart)
			return -KERR_ENOMEM;
	}
}

/* mm/mlock.c:__mlock_posix_error_return() */
static int posix_error(int err)
{
	if (err == -KERR_EFAULT)
		return -KERR_ENOMEM;
	if (err == -KERR_ENOMEM)
		return -KERR_EAGAIN;
	return err;
}

/* mm/mlock.c:do_mlock() */
static int64_t do_mlock(struct vmsys *s, struct task *t, uint64_t start, uint64_t len,
			vm_flags_t flags)
{
	struct mm *mm = t->mm;
	if (!mm_can_do_mlock(t))
		return -KERR_EPERM;
	len = PAGE_ALIGN(len + (start & ~PAGE_MASK));
	start &= PAGE_MASK;
	uint64_t limit = rlimit_memlock_pages(t);
	uint64_t locked = (len >> PAGE_SHIFT) + mm->locked_vm;
	int64_t overlap = 0;
	if (locked > limit && !capable_ipc_lock(t)) {
		if (s->sem->mlock_overlap_correction)
			overlap = (int64_t)count_mlocked_pages(mm, start, len);
		locked -= (uint64_t)overlap;
		if (locked > limit) {
			TP(s, TP_LIMIT, KFN_DO_MLOCK, .delta = (int64_t)(len >> PAGE_SHIFT),
			   .before = mm->locked_vm, .after = (uint64_t)overlap, .err = -KERR_ENOMEM);
			return -KERR_ENOMEM;
		}
	}
	TP(s, TP_LIMIT, KFN_DO_MLOCK, .delta = (int64_t)(len >> PAGE_SHIFT), .before = mm->locked_vm,
	   .after = (uint64_t)overlap);
	int err = apply_vma_lock_flags(s, t, start, len, flags);
	if (err)
		return err;
	err = mm_populate(s, t, start, len, false);
	return err < 0 ? posix_error(err) : 0;
}

int64_t vm_mlock(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len)
{
	return do_mlock(s, t, addr, len, VM_LOCKED);
}

int64_t vm_mlock2(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len, uint64_t flags)
{
	if (!s->sem->has_mlock2)
		return -KERR_ENOSYS;
	uint64_t onfault = s->af.mlock_onfault;
	if (flags & ~onfault)
		return -KERR_EINVAL;
	vm_flags_t vmf = VM_LOCKED;
	if (flags & onfault)
		vmf |= s->sem->onfault_bit;
	return do_mlock(s, t, addr, len, vmf);
}

int64_t vm_munlock(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len)
{
	len = PAGE_ALIGN(len + (addr & ~PAGE_MASK));
	addr &= PAGE_MASK;
	return apply_vma_lock_flags(s, t, addr, len, 0);
}

/* mm/mlock.c:apply_mlockall_flags() with the semantics' plan */
static void apply_mlockall(struct vmsys *s, struct task *t, const struct mlockall_plan *plan)
{
	struct mm *mm = t->mm;
	vm_flags_t old_def = mm->def_flags;
	mm->def_flags = (mm->def_flags & ~s->sem->lock_mask) | plan->def_set;
	TP(s, TP_VMA_FLAGS, KFN_APPLY_MLOCKALL, .kind = TPV_DEF_FLAGS, .old_flags = old_def,
	   .new_flags = mm->def_flags);
	if (!plan->walk_vmas)
		return;
	for (struct vma *v = mm->vmas.first; v; v = v->next) {
		vm_flags_t newflags = (v->flags & ~s->sem->lock_mask) | plan->vma_set;
		struct vma *cur = v;
		(void)mlock_fixup(s, t, &cur, v->start, v->end, newflags);
		v = cur; /* a merge may have absorbed v into its neighbour */
	}
}

int64_t vm_mlockall(struct vmsys *s, struct task *t, uint64_t flags)
{
	struct mlockall_plan plan;
	s->sem->mlockall_rules(s->sem, flags, &s->af.mcl, &plan);
	if (plan.err)
		return plan.err;
	if (!mm_can_do_mlock(t))
		return -KERR_EPERM;
	struct mm *mm = t->mm;
	if (flags & s->af.mcl.current) {
		bool over = mm->total_vm > rlimit_memlock_pages(t) && !capable_ipc_lock(t);
		/* the check is of total_vm, the whole address space */
		TP(s, TP_LIMIT, KFN_DO_MLOCKALL, .delta = (int64_t)mm->total_vm, .before = 0,
		   .err = over ? -KERR_ENOMEM : 0);
		if (over)
			return -KERR_ENOMEM;
	}
	apply_mlockall(s, t, &plan);
	if (plan.populate)
		mm_populate(s, t, 0, TASK_SIZE, true);
	return 0;
}

int64_t vm_munlockall(struct vmsys *s, struct task *t)
{
	struct mlockall_plan plan = { .walk_vmas = true };
	apply_mlockall(s, t, &plan);
	return 0;
}
