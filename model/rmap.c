/*
 * rmap.c - reverse mapping: from a page to the PTEs that map it.
 *
 * Anonymous pages belong to an anon_vma and carry a linear index
 * (vma->pgoff + page number in the VMA, mm/rmap.c:__page_set_anon_rmap());
 * every VMA chained to that anon_vma (the VMA itself, its splits and its
 * fork copies) may map the page at start + (index - pgoff) pages.  File
 * pages are found through the file's i_mmap list the same way.  Adding and
 * removing a mapping runs the mlock hooks of mm/rmap.c @ v6.1.
 */
#include "internal.h"

/*
 * page_add_anon_rmap()/page_add_file_rmap() + the new-page path
 * folio_add_lru_vma() (mm/swap.c @ v6.1): a new anonymous page in a locked
 * VMA is mlocked as NEW and never sees the evictable lists; an existing
 * page mapped into a locked VMA is mlocked through the batch.
 */
void rmap_add(struct vmsys *s, struct vma *v, pfn_t pfn, bool new_page)
{
	struct page *p = spage(s, pfn);
	if (p->flags & PG_ZERO)
		return;
	p->mapcount++;
	p->refcount++;
	mm_rss_add(v->mm, p, 1);
	if (p->mapcount == 1)
		count_vm(s, (p->flags & PG_ANON) ? NR_ANON_PAGES : NR_MAPPED, 1);
	if (new_page) {
		bool fault_lock = (v->flags & s->sem->fault_mlock_mask) && !(v->flags & VM_SPECIAL);
		if (s->sem->page_model == PLM_MLOCK_COUNT && fault_lock) {
			mlock_new_folio(s, pfn);
		} else if (s->sem->page_model == PLM_RMAP_WALK && fault_lock &&
			   (p->flags & PG_ANON)) {
			/* 4.x lru_cache_add_active_or_unevictable(): straight onto
			 * the unevictable list, mlocked, no cull event */
			p->flags |= PG_MLOCKED | PG_UNEVICTABLE;
			count_vm(s, NR_MLOCK, 1);
			count_vm(s, UNEVICTABLE_PGS_MLOCKED, 1);
			TP(s, TP_PAGE, KFN_MLOCK_NEW_FOLIO, .kind = TPP_MLOCK, .pfn = pfn);
			lru_add_page(s, pfn, LRU_UNEVICTABLE);
		} else {
			if (s->sem->new_anon_active && (p->flags & PG_ANON))
				p->flags |= PG_ACTIVE;
			folio_add_lru(s, pfn);
		}
	} else if (s->sem->page_model == PLM_MLOCK_COUNT &&
		   !(p->folio_order && s->sem->pagecache_large_folios && !(p->flags & PG_ANON))) {
		/* __folio_add_file_rmap(): only small folios are mlocked when mapped */
		mlock_vma_folio(s, v, pfn);
	}
}

/* Every page of pfn's page-cache folio (just pfn for a small one). */
static unsigned folio_pages(struct vmsys *s, struct vma *v, pfn_t pfn, pfn_t *out, unsigned max)
{
	struct page *p = spage(s, pfn);
	if (!p->folio_order || !v->file) {
		out[0] = pfn;
		return 1;
	}
	uint64_t nr = 1ULL << p->folio_order, head = page_index(p) & ~(nr - 1);
	unsigned n = 0;
	for (uint64_t i = head; i < head + nr && n < max; i++) {
		pfn_t q = file_find_page(s, v->file, i);
		if (q)
			out[n++] = q;
	}
	return n;
}

/* Whether p's large folio is met for the first time in the batch of PTEs
 * the current zap unmaps (zap_folio_key; outside a zap, always) */
static bool first_in_zap_batch(struct vmsys *s, const struct page *p)
{
	uint64_t key = ((uint64_t)p->owner << 40) ^ (page_index(p) >> p->folio_order) ^
		       ((uint64_t)p->folio_order << 36) ^ ((p->flags & PG_ANON) ? 1ULL << 63 : 0);
	if (s->zap_folio_key == key + 1)
		return false;
	if (s->zap_folio_key != UINT64_MAX) /* inside a zap */
		s->zap_folio_key = key + 1;
	return true;
}

/* page_remove_rmap(): the munlock hook runs for every unmapping from a
 * VM_LOCKED VMA (6.x); 4.x clears PG_mlocked when the last mapping goes
 * (clear_page_mlock()). */
void rmap_remove(struct vmsys *s, struct vma *v, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if (p->flags & PG_ZERO)
		return;
	uint64_t thp_addr = 0;
	if ((p->flags & PG_ANON) && p->folio_order) {
		thp_addr = v->start + ((page_index(p) - v->pgoff) << PAGE_SHIFT);
		/* a THP page unmapped: its PMD was split first
		 * (try_to_unmap_one()'s TTU_SPLIT_HUGE_PMD, the fallback of
		 * do_huge_pmd_wp_page()); the folio is mlocked and listed page
		 * by page here (thp.c) */
		if (v->mm->thp)
			thp_pmds_end(s, v, thp_addr, thp_addr + 1);
	}
	p->mapcount--;
	mm_rss_add(v->mm, p, -1);
	if (p->mapcount == 0)
		count_vm(s, (p->flags & PG_ANON) ? NR_ANON_PAGES : NR_MAPPED, -1);
	if (s->sem->page_model == PLM_MLOCK_COUNT) {
		bool large_file = p->folio_order && s->sem->pagecache_large_folios &&
				  !(p->flags & PG_ANON);
		if (large_file || (thp_addr && s->sem->thp_pte_mlock == THP_PTE_FOLIO)) {
			/* folio_remove_rmap_ptes() -> munlock_vma_folio() @ v6.18:
			 * unmapping any part of a large folio from a VM_LOCKED VMA
			 * munlocks all of it, once per batch of its PTEs */
			if ((v->flags & VM_LOCKED) && first_in_zap_batch(s, p)) {
				if (large_file) {
					pfn_t pages[1u << 9];
					unsigned n = folio_pages(s, v, pfn, pages, 1u << 9);
					for (unsigned i = 0; i < n; i++)
						munlock_folio(s, pages[i]);
				} else {
					thp_folio_mlock(s, v->mm, thp_addr >> PAGE_SHIFT, pfn, false, 0, 0);
					munlock_folio(s, pfn); /* no longer mapped: not found above */
				}
			}
		} else if (thp_addr && s->sem->thp_pte_mlock == THP_PTE_SKIP) {
			/* page_remove_rmap() @ v6.1: munlock_vma_page() leaves a
			 * page of a PTE-mapped THP alone (PageTransCompound()) */
		} else {
			munlock_vma_folio(s, v, pfn);
		}
	} else if (p->mapcount == 0 && (p->flags & PG_MLOCKED)) {
		/* mm/mlock.c:clear_page_mlock() @ v4.0 from page_remove_rmap():
		 * the last unmap of a page still mlocked (a LOCKONFAULT-only VMA
		 * of lof-v1, which munmap does not munlock) puts it back, and
		 * putback_lru_page() counts the rescue */
		p->flags &= ~PG_MLOCKED;
		count_vm(s, NR_MLOCK, -1);
		count_vm(s, UNEVICTABLE_PGS_CLEARED, 1);
		if (p->flags & PG_LRU) {
			bool was_unevictable = (p->flags & PG_UNEVICTABLE) != 0;
			lru_del_page(s, pfn);
			p->flags &= ~PG_UNEVICTABLE;
			lru_add_page(s, pfn, page_lru(p));
			if (was_unevictable)
				count_vm(s, UNEVICTABLE_PGS_RESCUED, 1);
		} else if (p->flags & PG_UNEVICTABLE) {
			count_vm(s, UNEVICTABLE_PGS_STRANDED, 1);
		}
	}
	put_page(s, pfn);
}

static bool walk_one(struct vmsys *s, struct vma *v, uint64_t index, pfn_t pfn,
		     bool (*fn)(struct vmsys *, struct vma *, uint64_t, uint64_t *, void *),
		     void *ctx)
{
	uint64_t addr;
	if (!vma_index_address(v, index, &addr) || !pte_maps_pfn(v->mm, addr, pfn))
		return true;
	return fn(s, v, addr, radix_peek(&v->mm->pt, addr >> PAGE_SHIFT), ctx);
}

/*
 * The anon rmap through the page's anon_vma (mm/rmap.c:rmap_walk_anon():
 * the chains of its anon_vma): the VMAs chained whose range covers the
 * page's index, visited in the order of the full walk below - the live
 * tasks' mms in list order, each mm's VMAs by address - so that what a
 * walk that stops early (a VM_LOCKED VMA) has done is the same.  False:
 * too many candidates to sort here; the caller walks every VMA.
 */
#define ANON_WALK_MAX 32
static bool anon_walk(struct vmsys *s, const struct page *p, pfn_t pfn,
		      bool (*fn)(struct vmsys *, struct vma *, uint64_t, uint64_t *, void *), void *ctx)
{
	const struct anon_vma *av = (const struct anon_vma *)(uintptr_t)radix_get(&s->anon_vmas, p->owner);
	if (!av)
		return true; /* gone: no VMA is chained to it */
	uint64_t index = page_index(p);
	struct vma *cand[ANON_WALK_MAX];
	unsigned pos[ANON_WALK_MAX], n = 0;
	for (const struct avc *c = av->head; c; c = c->av_next) {
		struct vma *v = c->vma;
		if (index < v->pgoff || index >= v->pgoff + vma_pages(v))
			continue;
		bool dup = false; /* two chains of one VMA: visited once */
		for (unsigned i = 0; i < n; i++)
			dup |= cand[i] == v;
		if (dup)
			continue;
		if (n == ANON_WALK_MAX)
			return false;
		pos[n] = UINT32_MAX;
		cand[n++] = v;
	}
	if (!n)
		return true;
	unsigned k = 0, left = n;
	for_each_live_task(s, t) {
		if (!task_owns_mm(s, t))
			continue;
		for (unsigned i = 0; i < n; i++)
			if (pos[i] == UINT32_MAX && cand[i]->mm == t->mm) {
				pos[i] = k;
				left--;
			}
		k++;
		if (!left)
			break;
	}
	/* insertion sort by (mm's place, address); an mm with no live
	 * owner is not walked (UINT32_MAX sorts last and is skipped) */
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j && (pos[j] < pos[j - 1] ||
					   (pos[j] == pos[j - 1] && cand[j]->start < cand[j - 1]->start)); j--) {
			struct vma *tv = cand[j];
			unsigned tp = pos[j];
			cand[j] = cand[j - 1];
			pos[j] = pos[j - 1];
			cand[j - 1] = tv;
			pos[j - 1] = tp;
		}
	for (unsigned i = 0; i < n && pos[i] != UINT32_MAX; i++)
		if (!walk_one(s, cand[i], index, pfn, fn, ctx))
			return true;
	return true;
}

void rmap_walk(struct vmsys *s, pfn_t pfn,
	       bool (*fn)(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *pte, void *ctx),
	       void *ctx)
{
	struct page *p = spage(s, pfn);
	if ((p->flags & PG_ANON) && !s->rmap_full_walk && anon_walk(s, p, pfn, fn, ctx))
		return;
	if (p->flags & PG_ANON) {
		/* more candidates than anon_walk() sorts (or the tests' full
		 * walk): every VMA of every live mm, in order, tested for a
		 * chain to the page's anon_vma */
		for_each_live_task(s, t) {
			if (!task_owns_mm(s, t))
				continue; /* threads share an mm: visit it once */
			for (struct vma *v = t->mm->vmas.first; v; v = v->next) {
				bool chained = false;
				for (struct avc *c = v->avc_list; c; c = c->vma_next)
					if (c->av->id == p->owner)
						chained = true;
				if (chained && !walk_one(s, v, page_index(p), pfn, fn, ctx))
					return;
			}
		}
		return;
	}
	struct file *f = file_of_page(s, p);
	for (struct vma *v = f ? f->i_mmap : NULL; v; v = v->file_next)
		if (!walk_one(s, v, page_index(p), pfn, fn, ctx))
			return;
}

void vmsys_set_rmap_full_walk(struct vmsys *s, bool on)
{
	s->rmap_full_walk = on;
}
