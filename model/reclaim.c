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
 *
 * How much is scanned (do_try_to_free_pages() -> shrink_lruvec() @ v4.4
 * and v6.1): priority 12 down to 0; at each, get_scan_count() gives every
 * list size >> priority pages, shared between anon and file by swappiness
 * and what reclaiming each has cost (4.x recent_scanned/rotated, 6.x
 * lru_note_cost()); the lists are scanned in rounds of SWAP_CLUSTER_MAX
 * and the pass stops after the round that reaches the target.
 */
#include "internal.h"

#include <string.h>

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
	/* 6.3+ invalid_folio_referenced_vma(): a VMA without recency
	 * (vma_has_recency(): VM_SEQ_READ or VM_RAND_READ) is not walked at
	 * all - its young bits stay, its VM_LOCKED is not seen here */
	if (s->sem->referenced_skips_no_recency && (v->flags & (VM_SEQ_READ | VM_RAND_READ)))
		return true;
	if ((v->flags & VM_LOCKED) && !s->sem->test_reclaim_ignores_locked) {
		if (s->sem->page_model == PLM_MLOCK_COUNT)
			mlock_vma_folio(s, v, pte_pfn(*pte));
		ctx->locked = true;
		return false;
	}
	if (*pte & PTE_YOUNG) {
		/* page_referenced_one() @ v4.4, folio_referenced_one() @ v6.1:
		 * the bit is cleared, but a reference through a sequentially
		 * read mapping does not count */
		pte_changed(s);
		*pte &= ~(uint64_t)PTE_YOUNG;
		if (!(v->flags & VM_SEQ_READ))
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
	if ((p->flags & PG_ANON) && (*pte & PTE_EXCL) && page_maybe_pinned(p)) {
		/* try_to_unmap_one() @ v6.1, v6.18: an exclusive anonymous page
		 * that may be pinned cannot be made shared
		 * (page_try_share_anon_rmap()): PTE kept, unmap fails */
		ctx->failed = true;
		return false;
	}
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
		if (page_dirty_accounted(s, p))
			count_vm(s, NR_DIRTY, 1);
	}
	if (ctx->to_swap) {
		pte_changed(s);
		*pte = mk_pte(ctx->slot, PTE_SWAP);
		s->swap_map[ctx->slot]++;
		v->mm->swap_ents++;
	} else {
		pte_changed(s);
		radix_clear(&v->mm->pt, addr >> PAGE_SHIFT);
	}
	rmap_remove(s, v, pfn);
	return true;
}

/* Put an isolated page back (move_folios_to_lru() / folio_putback_lru()). */
static void putback(struct vmsys *s, pfn_t pfn, bool activate, bool at_tail)
{
	struct page *p = spage(s, pfn);
	if (!folio_evictable(s, p)) {
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

/* may_write_file: the reclaim may write a dirty file page back - in the
 * kernel only kswapd may (and only once it met many); the model's kswapd
 * and direct reclaim write as the flusher threads would have (it has
 * none), memcg reclaim never does */
static bool shrink_one(struct vmsys *s, pfn_t pfn, bool ignore_refs, bool may_write_file)
{
	struct page *p = spage(s, pfn);
	if (!folio_evictable(s, p) && !s->sem->test_reclaim_ignores_locked) {
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
		workingset_evict_anon(s, uc.slot, p);
		swap_free_slot(s, uc.slot); /* the allocation's own count */
		count_vm(s, PSWPOUT, 1);
		count_vm(s, PGSTEAL_ANON, 1);
		put_page(s, pfn); /* isolation reference */
		VERDICT(TPR_RECLAIMED, true);
	}
	struct file *f = anon ? NULL : file_of_page(s, p);
	if (!anon && page_maybe_pinned(p)) {
		/* __remove_mapping(): folio_ref_freeze() fails while a
		 * long-term pin holds references: the page stays cached */
		putback(s, pfn, false, false);
		VERDICT(TPR_BUSY, false);
	}
	if (!anon && (p->flags & PG_SWAPBACKED) && (p->flags & PG_DIRTY)) {
		/* pageout() of dirty shmem, which is not file-LRU, so memcg
		 * reclaim writes it too: shmem_writepage() to swap (file.c);
		 * with no slot it is redirtied, AOP_WRITEPAGE_ACTIVATE, and
		 * stays in the page cache, unmapped (mm/vmscan.c:
		 * shrink_folio_list() @ v6.1, shrink_page_list() @ v4.4) */
		if (!f || !shmem_swap_out(s, f, pfn)) {
			putback(s, pfn, true, false);
			VERDICT(TPR_NO_SWAP, false);
		}
		count_vm(s, PSWPOUT, 1);
		count_vm(s, PGSTEAL_ANON, 1);
		put_page(s, pfn); /* isolation reference */
		VERDICT(TPR_RECLAIMED, true);
	}
	if (anon) {
		/* lazily freed anon page (MADV_FREE): clean, just drop it */
		count_vm(s, PGSTEAL_ANON, 1);
		put_page(s, pfn);
		VERDICT(TPR_RECLAIMED, true);
	}
	if ((p->flags & PG_DIRTY) && (ignore_refs || !may_write_file)) {
		/* shrink_folio_list(): only kswapd writes file folios; memcg
		 * reclaim and reclaim_pages() (MADV_PAGEOUT) leave a dirty one
		 * unmapped, still dirty, to go when written back
		 * (NR_VMSCAN_IMMEDIATE, PG_reclaim): activated on 6.x, kept on
		 * the inactive list on 4.x (shrink_page_list(): keep_locked) */
		p->flags |= PG_RECLAIM; /* folio_set_reclaim() (SetPageReclaim() in 4.x) */
		bool act = ignore_refs || s->sem->dirty_file_reclaim_activates;
		putback(s, pfn, act, false);
		VERDICT(act ? TPR_DIRTY : TPR_DIRTY_KEPT, false);
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
	if (f) {
		workingset_evict_file(s, f, page_index(p), p);
		radix_clear(&f->cache, page_index(p));
		count_vm(s, NR_FILE_PAGES, -1);
		if (f->shmem)
			count_vm(s, NR_SHMEM, -1); /* a clean shmem page is just dropped */
		p->refcount--; /* the cache's reference */
	}
	/* shrink_inactive_list() counts by the list: shmem is on the anon one */
	count_vm(s, page_is_file_lru(p) ? PGSTEAL_FILE : PGSTEAL_ANON, 1);
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
	if (!shrink_one(s, pfn, ignore_refs, false))
		put_page(s, pfn);
}

/* How a reclaim was asked for: the scan_control fields that matter.
 * Memcg reclaim (cgroup_reclaim(sc)) is left out of the global
 * pgscan/pgsteal_kswapd|direct counts in every version: 4.4 counts them
 * only for global_reclaim(), 6.1 only for !cgroup_reclaim()
 * (mm/vmscan.c:shrink_inactive_list() @ v4.4, v6.1); 6.1 counts
 * pgscan/pgsteal_anon|file for all. */
enum reclaim_mode {
	RM_CGROUP,  /* memcg reclaim: reclaim(N) (memory.reclaim), memcg_force_empty() */
	RM_KSWAPD,  /* kswapd balancing a node up to its high watermark */
	RM_DIRECT,  /* an allocation below the min watermark */
};

/* shrink_active_list(): move the tail of an active list to inactive;
 * returns the pages rotated (kept active: young executable file pages),
 * the cost lru_note_cost() charges to that type */
static uint64_t shrink_active(struct vmsys *s, enum lru_list l, uint64_t nr, enum reclaim_mode mode)
{
	uint64_t rotated = 0;
	for (uint64_t i = 0; i < nr && s->lru.tail[l]; i++) {
		pfn_t pfn = s->lru.tail[l];
		struct page *p = spage(s, pfn);
		lru_del_page(s, pfn);
		if (mode != RM_CGROUP || s->sem->cgroup_reclaim_counts_pgrefill)
			count_vm(s, PGREFILL, 1);
		if (!folio_evictable(s, p)) {
			putback(s, pfn, false, false);
			continue;
		}
		struct ref_ctx ctx = { 0, false, false };
		if (p->mapcount)
			rmap_walk(s, pfn, referenced_one, &ctx);
		/* 4.x shrink_active_list(): a VM_LOCKED mapping only stops the
		 * referenced walk; the page is deactivated like any other */
		if ((ctx.locked && s->sem->page_model == PLM_MLOCK_COUNT) || !folio_evictable(s, p)) {
			putback(s, pfn, false, false);
			continue;
		}
		if (ctx.young && ctx.exec && page_is_file_lru(p)) {
			lru_add_page(s, pfn, l);
			workingset_putback_active(s, 1); /* move_folios_to_lru(&l_active) */
			rotated++;
			continue;
		}
		p->flags &= ~PG_ACTIVE;
		p->flags |= PG_WORKINGSET;
		lru_add_page(s, pfn, page_lru(p));
		count_vm(s, PGDEACTIVATE, 1);
	}
	return rotated;
}

/* shrink_inactive_list(); *pageout = the pages written (swap or
 * writeback), the cost lru_note_cost() charges */
static uint64_t shrink_inactive(struct vmsys *s, enum lru_list l, uint64_t nr, enum reclaim_mode mode,
				uint64_t *pageout)
{
	uint64_t freed = 0, active = 0;
	int64_t out0 = s->stat.v[PSWPOUT] + s->stat.v[PGROTATED];
	for (uint64_t i = 0; i < nr && lru_tail(s, l); i++) {
		pfn_t pfn = lru_tail(s, l);
		struct page *p = spage(s, pfn);
		lru_del_page(s, pfn);
		p->refcount++;
		if (mode != RM_CGROUP)
			count_vm(s, mode == RM_DIRECT ? PGSCAN_DIRECT : PGSCAN_KSWAPD, 1);
		count_vm(s, page_is_file_lru(p) ? PGSCAN_FILE : PGSCAN_ANON, 1);
		if (shrink_one(s, pfn, false, mode != RM_CGROUP)) {
			freed++;
			if (mode != RM_CGROUP)
				count_vm(s, mode == RM_DIRECT ? PGSTEAL_DIRECT : PGSTEAL_KSWAPD, 1);
		} else {
			if ((p->flags & (PG_LRU | PG_ACTIVE)) == (PG_LRU | PG_ACTIVE))
				active++;
			put_page(s, pfn);
		}
	}
	/* move_folios_to_lru() puts the batch back after shrink_folio_list()
	 * has evicted what it could: the age ticks for the active pages then,
	 * after the shadows of the batch were stamped */
	workingset_putback_active(s, active);
	*pageout = (uint64_t)(s->stat.v[PSWPOUT] + s->stat.v[PGROTATED] - out0);
	TP(s, TP_RECLAIM_SCAN, KFN_SHRINK_INACTIVE, .list_from = (uint8_t)l, .delta = (int64_t)nr,
	   .after = freed);
	return freed;
}

#define SWAP_CLUSTER_MAX 32
#define DEF_PRIORITY 12
#define SWAPPINESS 60 /* vm.swappiness */
#define MAX_RECLAIM_RETRIES 16 /* mm/internal.h @ v6.1 */

/* inactive_is_low(): the inactive list is smaller than the active one
 * over the inactive ratio (sqrt(10 x GB), 1 below a GB) */
static bool inactive_is_low(const struct vmsys *s, enum lru_list inact)
{
	uint64_t inactive = s->lru.size[inact], active = s->lru.size[inact + 1];
	uint64_t gb = (inactive + active) >> (30 - PAGE_SHIFT), ratio = 1;
	if (gb)
		for (ratio = 1; (ratio + 1) * (ratio + 1) <= 10 * gb; ratio++)
			;
	return inactive * ratio < active;
}

/* lru_note_cost() @ v6.1: what reclaiming a type cost, halved once the
 * costs pass a quarter of the LRU pages */
void lru_note_cost(struct vmsys *s, bool file, uint64_t nr)
{
	struct lruvec *lv = &s->lru;
	if (file)
		lv->file_cost += nr;
	else
		lv->anon_cost += nr;
	uint64_t lrusize = lv->size[LRU_INACTIVE_ANON] + lv->size[LRU_ACTIVE_ANON] +
			   lv->size[LRU_INACTIVE_FILE] + lv->size[LRU_ACTIVE_FILE];
	if (lv->file_cost + lv->anon_cost > lrusize / 4) {
		lv->file_cost /= 2;
		lv->anon_cost /= 2;
	}
}

enum { DEACTIVATE_ANON = 1, DEACTIVATE_FILE = 2 };

/* get_scan_count() @ v4.4; true when it aged the reclaim_stat */
static bool get_scan_count_v4(struct vmsys *s, int prio, enum reclaim_mode mode,
			      uint64_t nr[NR_LRU_LISTS])
{
	struct lruvec *lv = &s->lru;
	enum { SCAN_EQUAL, SCAN_FRACT, SCAN_ANON, SCAN_FILE } balance;
	uint64_t fraction[2] = { 1, 1 }, denominator = 1;
	uint64_t file = lv->size[LRU_INACTIVE_FILE] + lv->size[LRU_ACTIVE_FILE];
	uint64_t anon = lv->size[LRU_INACTIVE_ANON] + lv->size[LRU_ACTIVE_ANON];
	/* memcg reclaim (and kswapd on an unreclaimable zone) may force a
	 * pass; the model's kswapd balances a reclaimable zone */
	bool force_scan = mode == RM_CGROUP, aged = false;
	if (!s->swap_free) {
		balance = SCAN_FILE;
	} else if (!prio) {
		balance = SCAN_EQUAL;
	} else if (mode != RM_CGROUP && file + physmem_avail(&s->pm) <= s->pm.wmark_high) {
		balance = SCAN_ANON;
	} else if (!(lv->size[LRU_ACTIVE_FILE] > lv->size[LRU_INACTIVE_FILE])) {
		balance = SCAN_FILE; /* enough inactive page cache: !inactive_file_is_low() */
	} else {
		balance = SCAN_FRACT;
		for (int f = 0; f < 2; f++)
			if (lv->recent_scanned[f] > (f ? file : anon) / 4) {
				lv->recent_scanned[f] /= 2;
				lv->recent_rotated[f] /= 2;
				aged = true;
			}
		fraction[0] = SWAPPINESS * (lv->recent_scanned[0] + 1) / (lv->recent_rotated[0] + 1);
		fraction[1] = (200 - SWAPPINESS) * (lv->recent_scanned[1] + 1) /
			      (lv->recent_rotated[1] + 1);
		denominator = fraction[0] + fraction[1] + 1;
	}
	bool some = false;
	for (int pass = 0; !some && pass < 2; pass++) {
		for (int l = LRU_INACTIVE_ANON; l <= LRU_ACTIVE_FILE; l++) {
			bool is_file = l >= LRU_INACTIVE_FILE;
			uint64_t size = lv->size[l], scan = size >> prio;
			if (!scan && pass && force_scan)
				scan = size < SWAP_CLUSTER_MAX ? size : SWAP_CLUSTER_MAX;
			if (balance == SCAN_FRACT)
				scan = scan * fraction[is_file] / denominator;
			else if ((balance == SCAN_FILE && !is_file) || (balance == SCAN_ANON && is_file))
				scan = 0;
			nr[l] = scan;
			some |= scan > 0; /* found something: no second pass */
		}
	}
	return aged;
}

/* get_scan_count() @ v6.1 for the one lruvec: the pages of each
 * evictable list to scan at this priority */
static void get_scan_count(struct vmsys *s, int prio, enum reclaim_mode mode, unsigned may_deactivate,
			   uint64_t nr[NR_LRU_LISTS])
{
	const struct lruvec *lv = &s->lru;
	enum { SCAN_EQUAL, SCAN_FRACT, SCAN_ANON, SCAN_FILE } balance;
	uint64_t fraction[2] = { 1, 1 }, denominator = 1;
	uint64_t file = lv->size[LRU_INACTIVE_FILE] + lv->size[LRU_ACTIVE_FILE];
	uint64_t anon = lv->size[LRU_INACTIVE_ANON] + lv->size[LRU_ACTIVE_ANON];
	if (!s->swap_free) {
		balance = SCAN_FILE;  /* can_reclaim_anon_pages(): no swap */
	} else if (!prio) {
		balance = SCAN_EQUAL;
	} else if (mode != RM_CGROUP && file + physmem_avail(&s->pm) <= s->pm.wmark_high &&
		   !(may_deactivate & DEACTIVATE_ANON) && (anon >> prio)) {
		balance = SCAN_ANON;  /* sc->file_is_tiny */
	} else if ((lv->size[LRU_INACTIVE_FILE] >> prio) && !(may_deactivate & DEACTIVATE_FILE)) {
		balance = SCAN_FILE;  /* sc->cache_trim_mode */
	} else {
		balance = SCAN_FRACT;
		uint64_t total = lv->anon_cost + lv->file_cost;
		uint64_t anon_cost = total + lv->anon_cost, file_cost = total + lv->file_cost;
		total = anon_cost + file_cost;
		fraction[0] = SWAPPINESS * (total + 1) / (anon_cost + 1);
		fraction[1] = (200 - SWAPPINESS) * (total + 1) / (file_cost + 1);
		denominator = fraction[0] + fraction[1];
	}
	for (int l = LRU_INACTIVE_ANON; l <= LRU_ACTIVE_FILE; l++) {
		bool is_file = l >= LRU_INACTIVE_FILE;
		uint64_t scan = lv->size[l] >> prio;
		if (balance == SCAN_FRACT)
			scan = scan ? scan * fraction[is_file] / denominator : 0; /* no division for nothing */
		else if ((balance == SCAN_FILE && !is_file) || (balance == SCAN_ANON && is_file))
			scan = 0;
		nr[l] = scan;
	}
}

/* shrink_lruvec() @ v6.1: the lists in rounds of SWAP_CLUSTER_MAX until
 * the targets are scanned or - unless proportional - enough is reclaimed;
 * then the other type's remaining scan is cut to the same proportion */
/* shrink_inactive_list() and shrink_active_list() begin with
 * lru_add_drain(): the per-CPU batches of the CPU the reclaim runs on,
 * the trace's (the model's one CPU) unless it is kswapd's.  The list
 * sizes get_scan_count() read before do not count what the drain adds
 * (mm/vmscan.c @ v4.4, v6.1). */
static void drain_local(struct vmsys *s, enum reclaim_mode mode)
{
	if (mode != RM_KSWAPD)
		lru_add_drain(s);
}

/* shrink_active_list() of n pages of active list l and what it cost:
 * 4.x's reclaim_stat (recent_scanned, recent_rotated), 6.x's
 * lru_note_cost() of the rotated */
static void age_active_list(struct vmsys *s, enum lru_list l, uint64_t n, enum reclaim_mode mode)
{
	bool file = l == LRU_ACTIVE_FILE;
	drain_local(s, mode);
	uint64_t taken = s->lru.size[l] < n ? s->lru.size[l] : n;
	uint64_t rotated = shrink_active(s, l, n, mode);
	if (s->sem->reclaim_scan_v4) {
		s->lru.recent_scanned[file] += taken;
		s->lru.recent_rotated[file] += rotated;
	} else {
		lru_note_cost(s, file, rotated);
	}
}

static uint64_t shrink_lruvec(struct vmsys *s, int prio, enum reclaim_mode mode, uint64_t nr_to_reclaim,
			      bool *idle)
{
	unsigned may_deactivate = (inactive_is_low(s, LRU_INACTIVE_ANON) ? DEACTIVATE_ANON : 0) |
				  (inactive_is_low(s, LRU_INACTIVE_FILE) ? DEACTIVATE_FILE : 0);
	uint64_t nr[NR_LRU_LISTS] = { 0 }, targets[NR_LRU_LISTS];
	bool v4 = s->sem->reclaim_scan_v4, aged = false;
	if (v4)
		aged = get_scan_count_v4(s, prio, mode, nr);
	else
		get_scan_count(s, prio, mode, may_deactivate, nr);
	memcpy(targets, nr, sizeof(nr));
	/* nothing to scan, nothing aged, no rebalance below: the pass read
	 * the state and left it as it was */
	*idle = !aged && !s->sem->test_reclaim_ignores_locked &&
		!(nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]);
	/* 4.x scan_adjusted, 6.x proportional_reclaim: global direct reclaim
	 * at the first priority scans what it targeted */
	bool proportional = mode == RM_DIRECT && prio == DEF_PRIORITY;
	uint64_t reclaimed = 0;
	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) {
		for (int l = LRU_INACTIVE_ANON; l <= LRU_ACTIVE_FILE; l++) {
			if (!nr[l])
				continue;
			uint64_t n = nr[l] < SWAP_CLUSTER_MAX ? nr[l] : SWAP_CLUSTER_MAX;
			nr[l] -= n;
			bool file = l >= LRU_INACTIVE_FILE, active = l == LRU_ACTIVE_ANON || l == LRU_ACTIVE_FILE;
			if (active) {
				/* shrink_list(): only when the inactive list is low
				 * (6.x: as it was when the pass began) */
				bool low = !v4 ? (may_deactivate & (file ? DEACTIVATE_FILE : DEACTIVATE_ANON)) != 0
					 : file ? s->lru.size[LRU_ACTIVE_FILE] > s->lru.size[LRU_INACTIVE_FILE]
						: s->swap_total && inactive_is_low(s, LRU_INACTIVE_ANON);
				if (!low)
					continue;
				age_active_list(s, (enum lru_list)l, n, mode);
			} else {
				drain_local(s, mode);
				uint64_t out, taken = s->lru.size[l] < n ? s->lru.size[l] : n;
				int64_t act0 = s->stat.v[PGACTIVATE];
				reclaimed += shrink_inactive(s, (enum lru_list)l, n, mode, &out);
				if (v4) {
					/* putback_inactive_pages(): activated pages rotate */
					s->lru.recent_scanned[file] += taken;
					s->lru.recent_rotated[file] += (uint64_t)(s->stat.v[PGACTIVATE] - act0);
				} else {
					lru_note_cost(s, file, out);
				}
			}
		}
		if (s->sem->test_reclaim_ignores_locked) { /* test-only: the unevictable list too */
			uint64_t out;
			reclaimed += shrink_inactive(s, LRU_UNEVICTABLE, s->lru.size[LRU_UNEVICTABLE], mode,
						     &out);
		}
		if (reclaimed < nr_to_reclaim || proportional)
			continue;
		uint64_t nr_file = nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE];
		uint64_t nr_anon = nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON];
		if (!nr_file || !nr_anon)
			break;
		int stop, other;
		uint64_t pct;
		if (nr_file > nr_anon) {
			pct = nr_anon * 100 / (targets[LRU_INACTIVE_ANON] + targets[LRU_ACTIVE_ANON] + 1);
			stop = LRU_INACTIVE_ANON;
			other = LRU_INACTIVE_FILE;
		} else {
			pct = nr_file * 100 / (targets[LRU_INACTIVE_FILE] + targets[LRU_ACTIVE_FILE] + 1);
			stop = LRU_INACTIVE_FILE;
			other = LRU_INACTIVE_ANON;
		}
		nr[stop] = nr[stop + 1] = 0;
		for (int l = other; l <= other + 1; l++) {
			uint64_t scanned = targets[l] - nr[l];
			nr[l] = targets[l] * (100 - pct) / 100;
			nr[l] -= nr[l] < scanned ? nr[l] : scanned;
		}
	}
	/* even with no anon scanned, rebalance its active/inactive ratio */
	if ((v4 ? s->swap_total : s->swap_free) && inactive_is_low(s, LRU_INACTIVE_ANON)) {
		*idle = false;
		uint64_t taken = s->lru.size[LRU_ACTIVE_ANON] < SWAP_CLUSTER_MAX ? s->lru.size[LRU_ACTIVE_ANON]
										 : SWAP_CLUSTER_MAX;
		uint64_t rotated = shrink_active(s, LRU_ACTIVE_ANON, SWAP_CLUSTER_MAX, mode);
		if (v4) {
			s->lru.recent_scanned[0] += taken;
			s->lru.recent_rotated[0] += rotated;
		} else {
			lru_note_cost(s, false, rotated);
		}
	}
	return reclaimed;
}

/* do_try_to_free_pages(): priority 12 down to 0, each a shrink_lruvec()
 * pass, until nr_to_reclaim pages are freed.  *idle when no pass changed
 * anything (so nothing was freed): a call again on the same state, as the
 * callers' retries make, does the same.  The callers skip those repeats,
 * which change nothing the model keeps or reports; the kernel runs them. */
static uint64_t do_reclaim_idle(struct vmsys *s, uint64_t want, enum reclaim_mode mode, bool *idle)
{
	uint64_t freed = 0;
	*idle = true;
	for (int prio = DEF_PRIORITY; prio >= 0 && freed < want; prio--) {
		bool pass_idle;
		freed += shrink_lruvec(s, prio, mode, want, &pass_idle);
		*idle &= pass_idle;
	}
	return freed;
}

static uint64_t do_reclaim(struct vmsys *s, uint64_t want, enum reclaim_mode mode)
{
	bool idle;
	return do_reclaim_idle(s, want, mode, &idle);
}

int64_t vm_reclaim(struct vmsys *s, uint64_t nr_pages)
{
	s->nevents = 0;
	/* mm/memcontrol.c:memory_reclaim() @ v6.1: try_to_free_mem_cgroup_pages()
	 * for what is still missing (at least SWAP_CLUSTER_MAX a call) until
	 * it is reclaimed or MAX_RECLAIM_RETRIES calls freed nothing; @ v6.18
	 * (mm/vmscan.c:user_proactive_reclaim()) for a quarter of it a call */
	uint64_t freed = 0;
	for (int retries = MAX_RECLAIM_RETRIES; freed < nr_pages;) {
		uint64_t want = nr_pages - freed;
		if (s->sem->proactive_reclaim_quarter)
			want /= 4;
		if (!retries)
			lru_add_drain(s); /* the last try: lru_add_drain_all() */
		bool idle;
		uint64_t got = do_reclaim_idle(s, want > SWAP_CLUSTER_MAX ? want : SWAP_CLUSTER_MAX, RM_CGROUP,
					       &idle);
		if (!got && !retries--)
			break;
		if (idle)
			retries = 0; /* the calls up to the last try would repeat this one */
		freed += got;
	}
	return (int64_t)freed;
}

/* memory.force_empty of memcg v1, the process's memcg
 * (mm/memcontrol.c:mem_cgroup_force_empty() @ v4.4, v6.1): every per-CPU
 * batch drained, then try_to_free_mem_cgroup_pages() of one page (a
 * SWAP_CLUSTER_MAX target) over and over while the memcg is charged -
 * always, here: its page tables and kernel objects stay charged - until
 * that many calls have freed nothing (MEM_CGROUP_RECLAIM_RETRIES, 5, in
 * 4.x; MAX_RECLAIM_RETRIES, 16, in 6.x; not reset by a call that frees).
 * The memcg holds the pages charged to it: the trace's, when its process
 * was the memcg's only one from the start. */
int64_t vm_memcg_force_empty(struct vmsys *s)
{
	s->nevents = 0;
	lru_add_drain(s);
	for (unsigned retries = s->sem->memcg_reclaim_retries; retries;) {
		bool idle;
		if (!do_reclaim_idle(s, SWAP_CLUSTER_MAX, RM_CGROUP, &idle))
			retries = idle ? 0 : retries - 1; /* idle: the rest would repeat it */
	}
	return 0;
}

static bool oom_kill(struct vmsys *s);

/* try_charge_memcg() @ v6.1 (try_charge() @ v4.4) for one page of the
 * trace's memcg: past its limit, try_to_free_mem_cgroup_pages() of one
 * page - a SWAP_CLUSTER_MAX target - then the charge again.  The per-CPU
 * stock of precharged pages is empty by then (a charge reaches the
 * counter only when the stock cannot serve it, and near the limit it
 * charges one page at a time), so the limit binds the pages themselves.
 * A reclaim that left no room is retried once after draining the stock,
 * again while it frees anything, then the semantics' retries
 * (MEM_CGROUP_RECLAIM_RETRIES 5 @ v4.4, MAX_RECLAIM_RETRIES 16 @ v6.1);
 * then the memcg OOM killer, and the charge starts over. */
bool memcg_charge(struct vmsys *s)
{
	if (!s->memcg_limited || s->memcg_usage < s->memcg_limit)
		return true;
	unsigned retries = s->sem->memcg_reclaim_retries;
	bool drained = false;
	for (;;) {
		bool idle;
		/* memory.events' max: one before each reclaim of the charge */
		s->memcg_events[MEMCG_EV_MAX]++;
		uint64_t got = do_reclaim_idle(s, SWAP_CLUSTER_MAX, RM_CGROUP, &idle);
		if (s->memcg_usage < s->memcg_limit)
			return true;
		if (idle) { /* the reclaims up to the OOM killer would repeat this one */
			s->memcg_events[MEMCG_EV_MAX] += (drained ? 0 : 1) + retries;
			drained = true;
			retries = 0;
		}
		if (!drained) {
			drained = true; /* drain_all_stock(): the stock is empty here */
			continue;
		}
		if (got)
			continue;
		if (retries--)
			continue;
		s->memcg_events[MEMCG_EV_OOM]++; /* mem_cgroup_oom() */
		if (!oom_kill(s))
			return false;
		if (s->memcg_usage < s->memcg_limit)
			return true;
		retries = s->sem->memcg_reclaim_retries;
		drained = false;
	}
}

int64_t vm_memcg_limit(struct vmsys *s, int64_t bytes)
{
	s->nevents = 0;
	if (bytes < 0) {
		s->memcg_limited = false;
		return 0;
	}
	uint64_t limit = (uint64_t)bytes >> PAGE_SHIFT;
	/* mem_cgroup_resize_max(): below the usage, the stock is drained and
	 * the memcg reclaimed a page's worth at a time until it fits; a
	 * reclaim that frees nothing gives EBUSY and leaves the old limit */
	while (s->memcg_usage > limit)
		if (!do_reclaim(s, SWAP_CLUSTER_MAX, RM_CGROUP))
			return -KERR_EBUSY;
	s->memcg_limit = limit;
	s->memcg_limited = true;
	return 0;
}

/* try_to_free_mem_cgroup_pages() asks at least SWAP_CLUSTER_MAX pages */
static uint64_t cluster_at_least(uint64_t nr)
{
	return nr > SWAP_CLUSTER_MAX ? nr : SWAP_CLUSTER_MAX;
}

/* memory_max_write(), memory_high_write() @ v6.1: while the usage
 * exceeds target, try_to_free_mem_cgroup_pages() of the excess, until
 * fruitless calls have freed nothing; whether it fits */
static bool reclaim_down_to(struct vmsys *s, uint64_t target, unsigned fruitless)
{
	while (s->memcg_usage > target && fruitless) {
		bool idle;
		if (!do_reclaim_idle(s, cluster_at_least(s->memcg_usage - target), RM_CGROUP, &idle))
			fruitless = idle ? 0 : fruitless - 1; /* idle: the rest would repeat it */
	}
	return s->memcg_usage <= target;
}

int64_t vm_memcg_max(struct vmsys *s, int64_t bytes)
{
	if (!s->sem->memcg_v2_write_reclaims || bytes < 0)
		return vm_memcg_limit(s, bytes); /* memory_max_write() @ v4.4 */
	s->nevents = 0;
	uint64_t max = (uint64_t)bytes >> PAGE_SHIFT;
	s->memcg_limit = max;
	s->memcg_limited = true;
	/* memory_max_write() @ v6.1: the limit first, then - the stock
	 * drained, which the model's usage never holds - reclaim of the
	 * excess, MAX_RECLAIM_RETRIES fruitless calls, then the memcg OOM
	 * killer (memory.events' oom) until it fits or finds no one */
	if (reclaim_down_to(s, max, MAX_RECLAIM_RETRIES))
		return 0;
	while (s->memcg_usage > max) {
		s->memcg_events[MEMCG_EV_OOM]++;
		if (!oom_kill(s))
			break;
	}
	return 0;
}

int64_t vm_memcg_high(struct vmsys *s, int64_t bytes)
{
	s->nevents = 0;
	if (bytes < 0) {
		s->memcg_high_set = false;
		return 0;
	}
	uint64_t high = (uint64_t)bytes >> PAGE_SHIFT;
	s->memcg_high = high;
	s->memcg_high_set = true;
	s->memcg_high_noted = false;
	if (!s->sem->memcg_v2_write_reclaims)
		return 0; /* memory_high_write() @ v4.4 stores it */
	/* memory_high_write() @ v6.1: it gives up when a call frees nothing
	 * with its MAX_RECLAIM_RETRIES already spent: one fruitless call more
	 * than memory.max's */
	reclaim_down_to(s, high, MAX_RECLAIM_RETRIES + 1);
	return 0;
}

uint64_t vmsys_memcg_event(const struct vmsys *s, enum memcg_event e)
{
	return (unsigned)e < NR_MEMCG_EVENTS ? s->memcg_events[e] : 0;
}

int memcg_event_find(const char *name, unsigned len)
{
	static const char *const names[NR_MEMCG_EVENTS] = { "memcg_events_max", "memcg_events_oom",
							    "memcg_events_oom_kill" };
	for (int i = 0; i < NR_MEMCG_EVENTS; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], name, len))
			return i;
	return -1;
}

/* The OOM killer's choice (mm/oom_kill.c:oom_badness() @ v6.18): the
 * process with the most resident pages plus swap entries plus page-table
 * pages; locked pages count like any. */
static bool oom_kill(struct vmsys *s)
{
	struct task *victim = NULL;
	uint64_t best = 0;
	for_each_live_task(s, t) {
		if (!t->mm)
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
	s->memcg_events[MEMCG_EV_OOM_KILL]++; /* __oom_kill_process(): the victim's memcg, the trace's */
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

/* kswapd_age_node() @ v6.1, age_active_anon() @ v4.4: with swap, the
 * active anon list is aged by SWAP_CLUSTER_MAX pages when the inactive
 * one is low */
static void kswapd_age_anon(struct vmsys *s)
{
	if (s->swap_total && inactive_is_low(s, LRU_INACTIVE_ANON))
		age_active_list(s, LRU_ACTIVE_ANON, SWAP_CLUSTER_MAX, RM_KSWAPD);
}

/* kswapd, woken by an allocation below the low watermark and run to
 * completion here (the kernel's runs beside the allocating task):
 * balance_pgdat() @ v4.4 and v6.1 for the machine's one zone.  From
 * DEF_PRIORITY down to 1, until the zone is balanced (free pages above
 * the high watermark): age the anon lists, then one shrink pass of
 * max(high watermark, SWAP_CLUSTER_MAX) pages at that priority; the
 * priority drops only after a pass that scanned less than that target
 * or reclaimed nothing (kswapd_shrink_node(), kswapd_shrink_zone()).
 * 4.4 ages the anon lists before the balance test, 6.1 after it. */
static uint64_t balance_pgdat(struct vmsys *s)
{
	struct physmem *pm = &s->pm;
	const uint64_t target = pm->wmark_high > SWAP_CLUSTER_MAX ? pm->wmark_high : SWAP_CLUSTER_MAX;
	bool age_first = s->sem->reclaim_scan_v4;
	uint64_t total = 0;
	count_vm(s, PAGEOUTRUN, 1);
	for (int prio = DEF_PRIORITY; prio >= 1;) {
		if (age_first)
			kswapd_age_anon(s);
		if (physmem_avail(pm) > pm->wmark_high) /* pgdat_balanced(), order 0 */
			break;
		if (!age_first)
			kswapd_age_anon(s);
		int64_t scanned = s->stat.v[PGSCAN_KSWAPD];
		bool idle;
		uint64_t got = shrink_lruvec(s, prio, RM_KSWAPD, target, &idle);
		total += got;
		bool raise = (uint64_t)(s->stat.v[PGSCAN_KSWAPD] - scanned) < target;
		if (raise || !got)
			prio--;
	}
	return total;
}

/* __alloc_pages_slowpath() for the model's order-0 allocations: below the
 * low watermark kswapd runs (balance_pgdat()); still at or below min,
 * direct reclaim of SWAP_CLUSTER_MAX pages (try_to_free_pages():
 * do_try_to_free_pages() with nr_to_reclaim 32); nothing freed and no
 * page left: the OOM killer. */
bool reclaim_for_alloc(struct vmsys *s)
{
	struct physmem *pm = &s->pm;
	if (physmem_avail(pm) > pm->wmark_low)
		return true;
	uint64_t got = balance_pgdat(s);
	if (physmem_avail(pm) <= pm->wmark_min)
		got += do_reclaim(s, SWAP_CLUSTER_MAX, RM_DIRECT);
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
			/* mapping_evict_folio() @ v6.1 (invalidate_inode_page() @ v4.4)
			 * does not ask whether the folio is evictable: a clean ramfs
			 * page goes (checked on 6.18.44) */
			if (!p->mapcount && !(p->flags & (PG_DIRTY | PG_WRITEBACK | PG_MLOCKED)) &&
			    !page_batch_refs(s, pfn))
				file_remove_page(s, f, idx);
			idx++;
		}
		/* invalidate_mapping_pages(): its shadows go too */
		workingset_forget_file(s, f, 0, RADIX_KEY_MAX);
	}
	return 0;
}
