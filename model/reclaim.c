/*
 * reclaim.c - page reclaim on the classic two-list LRU (mm/vmscan.c @ v6.1).
 *
 *   active lists  --shrink_active_list-->  inactive lists  --shrink_folio_list--> free
 *        ^  referenced twice / exec file                          |
 *        +--------------------- activate <------------------------+
 *
 * shrink_folio_list() looks at each page from the inactive tail:
 *  - not evictable (PG_mlocked): culled to the unevictable list;
 *  - folio_check_references(): the rmap walk clears and counts young PTEs;
 *    meeting a VM_LOCKED VMA it mlocks the page (an mlock that an earlier
 *    race lost is made good here) and activates it - the putback then culls it, since it
 *    is mlocked now.  Referenced twice (or by several PTEs) -> activate;
 *    once -> keep (second chance, PG_referenced); never -> reclaim;
 *  - anonymous pages need swap: add_to_swap() failing means activate;
 *  - mapped pages are unmapped (try_to_unmap(): again refused by a
 *    VM_LOCKED VMA, which mlocks the page);
 *  - dirty file pages are written back first and rotate to the tail;
 *    shmem without swap cannot be written and stays (unmapped);
 *  - clean unmapped pages leave the page cache and are freed.
 * A locked page is therefore never reclaimed.  MGLRU is not modelled.
 */
#include "internal.h"

enum ref_result { REF_RECLAIM, REF_RECLAIM_CLEAN, REF_KEEP, REF_ACTIVATE };

struct ref_ctx {
	unsigned young;
	bool locked;
	bool exec;
};

static bool referenced_one(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *pte, void *c)
{
	struct ref_ctx *ctx = c;
	(void)addr;
	if ((v->flags & VM_LOCKED) && !s->sem->test_reclaim_ignores_locked) {
		if (s->sem->page_model == PLM_MLOCK_COUNT)
			mlock_vma_folio(s, v, pte_pfn(*pte));
		ctx->locked = true;
		return false;
	}
	if (*pte & PTE_YOUNG) {
		*pte &= ~(uint64_t)PTE_YOUNG;
		ctx->young++;
	}
	if (v->flags & VM_EXEC)
		ctx->exec = true;
	return true;
}

/* folio_check_references() */
static enum ref_result check_references(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	struct ref_ctx ctx = { 0, false, false };
	if (p->mapcount)
		rmap_walk(s, pfn, referenced_one, &ctx);
	bool was_referenced = (p->flags & PG_REFERENCED) != 0;
	p->flags &= ~PG_REFERENCED;
	if (ctx.locked) {
		/* 4.x page_check_references(): "Mlock lost the isolation race
		 * with us.  Let try_to_unmap() move the page to the unevictable
		 * list" - PAGEREF_RECLAIM; try_to_unmap_one() then mlocks it and
		 * the putback culls it (mm/vmscan.c @ v4.4) */
		if (s->sem->page_model == PLM_RMAP_WALK)
			return REF_RECLAIM;
		return REF_ACTIVATE;
	}
	if (ctx.young) {
		if (was_referenced || ctx.young > 1)
			return REF_ACTIVATE;
		if (ctx.exec && page_is_file_lru(p))
			return REF_ACTIVATE;
		p->flags |= PG_REFERENCED;
		return REF_KEEP;
	}
	if (was_referenced && page_is_file_lru(p))
		return REF_RECLAIM_CLEAN;
	return REF_RECLAIM;
}

struct unmap_ctx {
	bool failed;
	uint32_t slot;
	bool to_swap;
};

static bool unmap_one(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *pte, void *c)
{
	struct unmap_ctx *ctx = c;
	pfn_t pfn = pte_pfn(*pte);
	if ((v->flags & VM_LOCKED) && !s->sem->test_reclaim_ignores_locked) {
		/* try_to_unmap_one(): mlock it and give up */
		if (s->sem->page_model == PLM_MLOCK_COUNT)
			mlock_vma_folio(s, v, pfn);
		else
			mlock_folio_4x(s, pfn);
		ctx->failed = true;
		return false;
	}
	struct page *p = spage(s, pfn);
	if ((p->flags & PG_ANON) && !(p->flags & PG_SWAPBACKED) &&
	    ((*pte & PTE_DIRTY) || (p->flags & PG_DIRTY))) {
		/* try_to_unmap_one(): a redirtied MADV_FREE folio is not
		 * discarded: PTE kept, swapbacked again, unmap fails */
		p->flags |= PG_SWAPBACKED | PG_DIRTY;
		ctx->failed = true;
		return false;
	}
	if ((*pte & PTE_DIRTY) && !(p->flags & PG_DIRTY)) {
		p->flags |= PG_DIRTY;
		if (!(p->flags & PG_SWAPBACKED))
			count_vm(s, NR_DIRTY, 1);
	}
	if (ctx->to_swap) {
		*pte = mk_pte(ctx->slot, PTE_SWAP);
		s->swap_map[ctx->slot]++;
		v->mm->swap_ents++;
	} else {
		radix_clear(&v->mm->pt, addr >> PAGE_SHIFT);
	}
	rmap_remove(s, v, pfn);
	return true;
}

/* Put an isolated page back (move_folios_to_lru() / folio_putback_lru()). */
static void putback(struct vmsys *s, pfn_t pfn, bool activate, bool at_tail)
{
	struct page *p = spage(s, pfn);
	if (!page_evictable(p)) {
		bool was = (p->flags & PG_UNEVICTABLE) != 0;
		p->flags &= ~PG_ACTIVE;
		p->flags |= PG_UNEVICTABLE;
		p->mlock_count = 0;
		if (!was)
			count_vm(s, UNEVICTABLE_PGS_CULLED, 1);
		lru_add_page(s, pfn, LRU_UNEVICTABLE);
		return;
	}
	if (activate && !(p->flags & PG_ACTIVE)) {
		p->flags |= PG_ACTIVE;
		count_vm(s, PGACTIVATE, 1);
	}
	if (at_tail)
		lru_add_page_tail(s, pfn, page_lru(p));
	else
		lru_add_page(s, pfn, page_lru(p));
}

/* shrink_folio_list() for one isolated page; returns true if freed */
#define VERDICT(why, freed)                                                                  \
	do {                                                                                 \
		TP(s, TP_RECLAIM, KFN_SHRINK_LIST, .pfn = pfn, .kind = (why));              \
		return (freed);                                                              \
	} while (0)

static bool shrink_one(struct vmsys *s, pfn_t pfn, bool ignore_refs)
{
	struct page *p = spage(s, pfn);
	if (!page_evictable(p) && !s->sem->test_reclaim_ignores_locked) {
		putback(s, pfn, false, false);
		VERDICT(TPR_MLOCKED, false);
	}
	enum ref_result ref = ignore_refs ? REF_RECLAIM : check_references(s, pfn);
	if (ignore_refs && p->mapcount) {
		/* reclaim_pages() still must not take a locked page */
		struct ref_ctx ctx = { 0, false, false };
		rmap_walk(s, pfn, referenced_one, &ctx);
		if (ctx.locked)
			ref = REF_ACTIVATE;
	}
	if (ref == REF_ACTIVATE) {
		putback(s, pfn, !(p->flags & PG_MLOCKED), false);
		VERDICT(TPR_ACTIVATED, false);
	}
	if (ref == REF_KEEP) {
		putback(s, pfn, false, false);
		VERDICT(TPR_KEPT, false);
	}
	bool anon = (p->flags & PG_ANON) != 0;
	struct unmap_ctx uc = { false, 0, false };
	if (anon && (p->flags & PG_SWAPBACKED)) {
		if (!swap_alloc(s, &uc.slot)) {
			putback(s, pfn, true, false);
			VERDICT(TPR_NO_SWAP, false);
		}
		uc.to_swap = true;
	}
	if (p->mapcount) {
		rmap_walk(s, pfn, unmap_one, &uc);
		if (uc.failed || p->mapcount) {
			if (uc.to_swap)
				swap_free_slot(s, uc.slot);
			putback(s, pfn, !(p->flags & PG_MLOCKED), false);
			/* try_to_unmap() met a VM_LOCKED VMA: 4.x mlocks the page */
			VERDICT((p->flags & PG_MLOCKED) ? TPR_MLOCKED : TPR_BUSY, false);
		}
	}
	if (uc.to_swap) {
		/* written to swap; the slot holds the data, the page goes */
		swap_free_slot(s, uc.slot); /* the allocation's own count */
		count_vm(s, PSWPOUT, 1);
		count_vm(s, PGSTEAL_ANON, 1);
		put_page(s, pfn); /* isolation reference */
		VERDICT(TPR_RECLAIMED, true);
	}
	if (!anon && (p->flags & PG_SWAPBACKED) && (p->flags & PG_DIRTY)) {
		/* dirty shmem must be written to swap (shmem_writeout()); without
		 * swap it stays in the page cache, unmapped */
		putback(s, pfn, true, false);
		VERDICT(TPR_NO_SWAP, false);
	}
	if (anon) {
		/* lazily freed anon page (MADV_FREE): clean, just drop it */
		count_vm(s, PGSTEAL_ANON, 1);
		put_page(s, pfn);
		VERDICT(TPR_RECLAIMED, true);
	}
	if ((p->flags & PG_DIRTY) && ignore_refs) {
		/* shrink_folio_list(): only kswapd writes file folios;
		 * reclaim_pages() (MADV_PAGEOUT) activates a dirty one, unmapped,
		 * still dirty (NR_VMSCAN_IMMEDIATE, PG_reclaim) */
		p->flags |= PG_RECLAIM; /* folio_set_reclaim() (SetPageReclaim() in 4.x) */
		putback(s, pfn, true, false);
		VERDICT(TPR_DIRTY, false);
	}
	if (p->flags & PG_DIRTY) {
		/* pageout(): write back, rotate to the tail for the next pass */
		p->flags &= ~PG_DIRTY;
		count_vm(s, NR_DIRTY, -1);
		count_vm(s, PGPGOUT, 4);
		count_vm(s, PGROTATED, 1);
		putback(s, pfn, false, true);
		VERDICT(TPR_WRITEBACK, false);
	}
	/* __remove_mapping(): out of the page cache */
	struct file *f = NULL;
	for (struct file *g = s->files; g; g = g->next_file)
		if (g->id == p->owner) {
			f = g;
			break;
		}
	if (f) {
		radix_clear(&f->cache, p->index);
		count_vm(s, NR_FILE_PAGES, -1);
		if (f->shmem)
			count_vm(s, NR_SHMEM, -1); /* a clean shmem page is just dropped */
		p->refcount--; /* the cache's reference */
	}
	count_vm(s, PGSTEAL_FILE, 1);
	put_page(s, pfn); /* isolation reference */
	VERDICT(TPR_RECLAIMED, true);
}
#undef VERDICT

void shrink_page_list_one(struct vmsys *s, pfn_t pfn, bool ignore_refs)
{
	struct page *p = spage(s, pfn);
	if (!(p->flags & PG_LRU) || (p->flags & PG_UNEVICTABLE))
		return;
	lru_del_page(s, pfn);
	p->refcount++; /* isolate_lru_folio() */
	if (!shrink_one(s, pfn, ignore_refs))
		put_page(s, pfn);
}

/* shrink_active_list(): move the tail of an active list to inactive */
static void shrink_active(struct vmsys *s, enum lru_list l, uint64_t nr)
{
	for (uint64_t i = 0; i < nr && s->lru.tail[l]; i++) {
		pfn_t pfn = s->lru.tail[l];
		struct page *p = spage(s, pfn);
		lru_del_page(s, pfn);
		count_vm(s, PGREFILL, 1);
		if (!page_evictable(p)) {
			putback(s, pfn, false, false);
			continue;
		}
		struct ref_ctx ctx = { 0, false, false };
		if (p->mapcount)
			rmap_walk(s, pfn, referenced_one, &ctx);
		/* 4.x shrink_active_list(): a VM_LOCKED mapping only stops the
		 * referenced walk; the page is deactivated like any other */
		if ((ctx.locked && s->sem->page_model == PLM_MLOCK_COUNT) || !page_evictable(p)) {
			putback(s, pfn, false, false);
			continue;
		}
		if (ctx.young && ctx.exec && page_is_file_lru(p)) {
			lru_add_page(s, pfn, l);
			continue;
		}
		p->flags &= ~PG_ACTIVE;
		p->flags |= PG_WORKINGSET;
		lru_add_page(s, pfn, page_lru(p));
		count_vm(s, PGDEACTIVATE, 1);
	}
}

static uint64_t shrink_inactive(struct vmsys *s, enum lru_list l, uint64_t nr, bool direct)
{
	uint64_t freed = 0;
	for (uint64_t i = 0; i < nr && s->lru.tail[l]; i++) {
		pfn_t pfn = s->lru.tail[l];
		struct page *p = spage(s, pfn);
		lru_del_page(s, pfn);
		p->refcount++;
		count_vm(s, direct ? PGSCAN_DIRECT : PGSCAN_KSWAPD, 1);
		count_vm(s, page_is_file_lru(p) ? PGSCAN_FILE : PGSCAN_ANON, 1);
		if (shrink_one(s, pfn, false)) {
			freed++;
			count_vm(s, direct ? PGSTEAL_DIRECT : PGSTEAL_KSWAPD, 1);
		} else {
			put_page(s, pfn);
		}
	}
	TP(s, TP_RECLAIM_SCAN, KFN_SHRINK_INACTIVE, .list_from = (uint8_t)l, .delta = (int64_t)nr,
	   .after = freed);
	return freed;
}

static uint64_t do_reclaim(struct vmsys *s, uint64_t want, bool direct)
{
	uint64_t freed = 0;
	lru_add_drain(s);
	bool can_swap = s->swap_free > 0;
	for (int prio = 12; prio >= 0 && freed < want; prio--) {
		for (int anon = 0; anon <= 1 && freed < want; anon++) {
			if (anon && !can_swap)
				continue; /* get_scan_count(): no swap, no anon scanning */
			enum lru_list inact = anon ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE;
			uint64_t size = s->lru.size[inact] + s->lru.size[inact + 1];
			uint64_t scan = size >> prio;
			if (!scan)
				scan = size < 32 ? size : 32;
			if (s->lru.size[inact] < s->lru.size[inact + 1])
				shrink_active(s, (enum lru_list)(inact + 1), scan);
			freed += shrink_inactive(s, inact, scan, direct);
		}
		if (s->sem->test_reclaim_ignores_locked) /* test-only: scan the unevictable list too */
			freed += shrink_inactive(s, LRU_UNEVICTABLE, s->lru.size[LRU_UNEVICTABLE], direct);
	}
	return freed;
}

int64_t vm_reclaim(struct vmsys *s, uint64_t nr_pages)
{
	s->nevents = 0;
	return (int64_t)do_reclaim(s, nr_pages, false);
}

/* The OOM killer's choice (mm/oom_kill.c:oom_badness() @ v6.18): the
 * process with the most resident pages plus swap entries plus page-table
 * pages; locked pages count like any. */
static bool oom_kill(struct vmsys *s)
{
	struct task *victim = NULL;
	uint64_t best = 0;
	for (struct task *t = s->tasks; t; t = t->next) {
		if (!t->alive || !t->mm)
			continue;
		/* rss + swap entries + page-table pages (mm_pgtables_bytes()) */
		uint64_t points = t->mm->rss_anon + t->mm->rss_file + t->mm->rss_shmem + t->mm->swap_ents +
				  t->mm->pt.nleaves;
		if (!victim || points > best) {
			victim = t;
			best = points;
		}
	}
	if (!victim)
		return false;
	vmsys_event_add(s, "oom-kill: pid %d (rss %llu pages, pgtables %llu pages)", victim->pid,
			(unsigned long long)(best - victim->mm->pt.nleaves),
			(unsigned long long)victim->mm->pt.nleaves);
	count_vm(s, OOM_KILL, 1);
	TP(s, TP_OOM_KILL, KFN_OOM_KILL, .before = (uint64_t)victim->pid, .delta = (int64_t)best);
	if (victim == s->current) {
		/* the faulting task itself: SIGKILL takes effect when its call
		 * returns (vmsys_end_call()); its memory cannot go from under
		 * the fault handler */
		victim->oom_killed = true;
		return false;
	}
	vm_exit(s, victim); /* the OOM reaper frees another task's memory */
	return true;
}

bool reclaim_for_alloc(struct vmsys *s)
{
	struct physmem *pm = &s->pm;
	uint64_t avail = physmem_avail(pm);
	if (avail > pm->wmark_low)
		return true;
	/* kswapd: up to the high watermark; direct reclaim below min */
	uint64_t want = pm->wmark_high - avail + 32;
	bool direct = avail <= pm->wmark_min;
	uint64_t got = do_reclaim(s, want, direct);
	if (got || physmem_avail(pm) > 0)
		return true;
	return oom_kill(s);
}

/* /proc/sys/vm/drop_caches: 1 drops clean, unmapped page cache */
int64_t vm_drop_caches(struct vmsys *s, int what)
{
	s->nevents = 0;
	if (what < 1 || what > 3)
		return -KERR_EINVAL;
	if (!(what & 1))
		return 0;
	lru_add_drain(s);
	for (struct file *f = s->files; f; f = f->next_file) {
		if (f->shmem)
			continue;
		uint64_t idx = 0;
		while (radix_next(&f->cache, &idx, RADIX_KEY_MAX)) {
			pfn_t pfn = (pfn_t)radix_get(&f->cache, idx);
			struct page *p = spage(s, pfn);
			if (!p->mapcount && !(p->flags & (PG_DIRTY | PG_WRITEBACK | PG_UNEVICTABLE | PG_MLOCKED)) &&
			    !p->in_batch)
				file_remove_page(s, f, idx);
			idx++;
		}
	}
	return 0;
}
