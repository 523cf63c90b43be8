/*
 * lru.c - LRU lists and the lru_add batch.
 *
 * A new page does not reach a list at once: folio_add_lru() parks it in
 * the per-CPU lru_add batch with a reference held, and only when the batch
 * is full or drained does lru_add_fn() place it - on the unevictable list if
 * it is mlocked by then (counting a cull), otherwise on the list its
 * PG_active/PG_swapbacked say (mm/swap.c @ v6.1: lru_add_fn()).  That is
 * why kpageflags can show a just-faulted page with PG_lru clear.
 */
#include "internal.h"

#include <string.h>

void lru_init(struct lruvec *l)
{
	memset(l, 0, sizeof(*l));
}

static const enum vmstat_item lru_stat[NR_LRU_LISTS] = {
	NR_INACTIVE_ANON, NR_ACTIVE_ANON, NR_INACTIVE_FILE, NR_ACTIVE_FILE, NR_UNEVICTABLE,
};

bool lru_linked(const struct vmsys *s, enum lru_list l)
{
	return l != LRU_UNEVICTABLE || s->sem->page_model != PLM_MLOCK_COUNT;
}

uint32_t page_mlock_count(const struct vmsys *s, const struct page *p)
{
	return s->sem->page_model == PLM_MLOCK_COUNT &&
	       (p->flags & (PG_LRU | PG_UNEVICTABLE)) == (PG_LRU | PG_UNEVICTABLE) ? p->mlock_count : 0;
}

/* the first page at or after pfn on the unlinked list l: by its flags,
 * over the frames each node has ever handed out */
static pfn_t scan_from(struct vmsys *s, enum lru_list l, pfn_t pfn)
{
	const struct physmem *pm = &s->pm;
	for (unsigned n = 0; n < pm->nr_nodes; n++) {
		const struct numa_node_mem *nm = &pm->node[n];
		for (pfn_t q = pfn > nm->first ? pfn : nm->first; q < nm->next_unused; q++) {
			const struct page *p = spage(s, q);
			if ((p->flags & PG_LRU) && p->lru == l)
				return q;
		}
	}
	return PFN_NONE;
}

pfn_t lru_first(struct vmsys *s, enum lru_list l)
{
	return lru_linked(s, l) ? s->lru.head[l] : s->lru.size[l] ? scan_from(s, l, 1) : PFN_NONE;
}

pfn_t lru_next(struct vmsys *s, enum lru_list l, pfn_t pfn)
{
	return lru_linked(s, l) ? spage(s, pfn)->next : scan_from(s, l, pfn + 1);
}

pfn_t lru_tail(struct vmsys *s, enum lru_list l)
{
	return lru_linked(s, l) ? s->lru.tail[l] : lru_first(s, l);
}

static inline void link_page(struct vmsys *s, pfn_t pfn, enum lru_list l, bool at_tail)
{
	struct lruvec *lv = &s->lru;
	struct page *p = spage(s, pfn);
	p->lru = (uint8_t)l;
	p->flags |= PG_LRU;
	if (!lru_linked(s, l)) {
		/* a count only; the links' place holds the mlock_count */
	} else if (at_tail) {
		p->next = PFN_NONE;
		p->prev = lv->tail[l];
		if (lv->tail[l])
			spage(s, lv->tail[l])->next = pfn;
		else
			lv->head[l] = pfn;
		lv->tail[l] = pfn;
	} else {
		p->prev = PFN_NONE;
		p->next = lv->head[l];
		if (lv->head[l])
			spage(s, lv->head[l])->prev = pfn;
		else
			lv->tail[l] = pfn;
		lv->head[l] = pfn;
	}
	lv->size[l]++;
	count_vm(s, lru_stat[l], 1);
	TP(s, TP_LRU_ADD, KFN_LRU_LINK, .pfn = pfn, .list_to = (uint8_t)l, .kind = at_tail,
	   .after = lv->size[l]);
}

void lru_add_page(struct vmsys *s, pfn_t pfn, enum lru_list l)
{
	link_page(s, pfn, l, false);
}

void lru_add_page_tail(struct vmsys *s, pfn_t pfn, enum lru_list l)
{
	link_page(s, pfn, l, true);
}

/* Off its LRU list (PG_lru cleared); a page on none is left as it is.
 * Always inline in this unit: free_page_last() runs it on every freed page. */
__attribute__((always_inline)) inline void lru_del_page(struct vmsys *s, pfn_t pfn)
{
	struct lruvec *lv = &s->lru;
	struct page *p = spage(s, pfn);
	if (p->lru == LRU_NONE)
		return;
	enum lru_list l = (enum lru_list)p->lru;
	if (lru_linked(s, l)) {
		if (p->prev)
			spage(s, p->prev)->next = p->next;
		else
			lv->head[l] = p->next;
		if (p->next)
			spage(s, p->next)->prev = p->prev;
		else
			lv->tail[l] = p->prev;
		p->prev = p->next = PFN_NONE;
	}
	p->lru = LRU_NONE;
	p->flags &= ~PG_LRU;
	lv->size[l]--;
	count_vm(s, lru_stat[l], -1);
	TP(s, TP_LRU_DEL, KFN_LRU_UNLINK, .pfn = pfn, .list_from = (uint8_t)l, .after = lv->size[l]);
}

/* folio_put()'s last reference frees the page (mm/swap.c:__folio_put():
 * off its LRU list, then freed); one still mlocked is counted as cleared
 * (mm/page_alloc.c:free_pages_prepare() @ v6.1).  Here beside the lists,
 * as in mm/swap.c, so that the unlink is inline. */
void free_page_last(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if (p->flags & PG_LRU)
		lru_del_page(s, pfn);
	if (p->flags & PG_MLOCKED) {
		count_vm(s, NR_MLOCK, -1);
		count_vm(s, UNEVICTABLE_PGS_CLEARED, 1);
	}
	if (s->numa_cpupid.count)
		numa_page_freed(s, pfn);
	page_uncharge(s, p);
	physmem_free(&s->pm, pfn);
	count_vm(s, PGFREE, 1);
	count_vm(s, NR_FREE_PAGES, 1);
}

/* mm/swap.c:lru_add_fn() @ v6.1; __pagevec_lru_add_fn() @ v4.4 trusts
 * the page's flags (semantics.h: lru_add_keeps_list) */
static void lru_add_fn(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if (s->sem->lru_add_keeps_list) {
		link_page(s, pfn, page_lru(p), false);
		return;
	}
	bool was_unevictable = (p->flags & PG_UNEVICTABLE) != 0;
	if (folio_evictable(s, p)) {
		if (was_unevictable) {
			p->flags &= ~PG_UNEVICTABLE;
			count_vm(s, UNEVICTABLE_PGS_RESCUED, 1);
		}
	} else {
		p->flags &= ~PG_ACTIVE;
		p->flags |= PG_UNEVICTABLE;
		/* lru_add(): the count starts at 0 on purpose, lower than the
		 * mappings may be: this page was never counted by mlock_folio() */
		p->mlock_count = 0;
		if (!was_unevictable)
			count_vm(s, UNEVICTABLE_PGS_CULLED, 1);
	}
	link_page(s, pfn, page_lru(p), false);
	if (s->sem->test_lru_add_flips_active && folio_evictable(s, p))
		p->flags ^= PG_ACTIVE; /* test-only breakage */
}

static void drain_add_batch(struct vmsys *s);

unsigned page_batch_refs(const struct vmsys *s, pfn_t pfn)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->lru.add_batch.n; i++)
		n += s->lru.add_batch.pfn[i] == pfn;
	for (unsigned i = 0; i < s->lru.mlock_batch.n; i++)
		n += s->lru.mlock_batch.pfn[i] == pfn;
	return n;
}

void folio_add_lru(struct vmsys *s, pfn_t pfn)
{
	struct lru_batch *b = &s->lru.add_batch;
	struct page *p = spage(s, pfn);
	p->refcount++;
	b->pfn[b->n] = pfn;
	b->tag[b->n] = BATCH_LRU_ADD;
	b->n++;
	TP(s, TP_BATCH_ADD, KFN_FOLIO_ADD_LRU, .kind = TPB_LRU_ADD, .pfn = pfn, .after = b->n,
	   .limit = s->sem->lru_batch);
	/* folio_batch_add_and_move(): a full batch is moved at once, and so
	 * is one holding a large folio (!folio_may_be_lru_cached() @ v6.18) */
	bool large = p->folio_order && s->sem->pagecache_large_folios &&
		     s->sem->large_folio_moves_batch;
	if (b->n >= s->sem->lru_batch || b->n >= LRU_BATCH_MAX || large)
		drain_add_batch(s);
}

static void drain_add_batch(struct vmsys *s)
{
	struct lru_batch *b = &s->lru.add_batch;
	while (b->n) {
		struct lru_batch copy = *b;
		b->n = 0;
		TP(s, TP_BATCH_DRAIN, KFN_BATCH_MOVE, .kind = TPB_LRU_ADD, .delta = copy.n);
		for (unsigned i = 0; i < copy.n; i++) {
			struct page *q = spage(s, copy.pfn[i]);
			if (!(q->flags & PG_LRU))
				lru_add_fn(s, copy.pfn[i]);
			put_page(s, copy.pfn[i]);
		}
	}
}

void lru_add_drain(struct vmsys *s)
{
	drain_add_batch(s);
	mlock_drain_local(s);
}

void lru_activate(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if ((p->flags & (PG_ACTIVE | PG_UNEVICTABLE)))
		return;
	if (p->flags & PG_LRU) {
		lru_del_page(s, pfn);
		p->flags |= PG_ACTIVE;
		lru_add_page(s, pfn, page_lru(p));
	} else {
		p->flags |= PG_ACTIVE;
	}
	count_vm(s, PGACTIVATE, 1);
}

void lru_deactivate(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if ((p->flags & PG_UNEVICTABLE) || !(p->flags & PG_LRU))
		return;
	bool was_active = (p->flags & PG_ACTIVE) != 0;
	lru_del_page(s, pfn);
	p->flags &= ~(PG_ACTIVE | PG_REFERENCED);
	lru_add_page(s, pfn, page_lru(p));
	if (was_active)
		count_vm(s, PGDEACTIVATE, 1);
}

/* mm/swap.c:folio_mark_accessed() */
void mark_page_accessed(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if (p->flags & PG_ZERO)
		return;
	if (p->flags & PG_UNEVICTABLE) {
		/* unevictable pages only get the referenced bit */
		p->flags |= PG_REFERENCED;
		return;
	}
	if (!(p->flags & PG_REFERENCED)) {
		p->flags |= PG_REFERENCED;
	} else if (!(p->flags & PG_ACTIVE)) {
		lru_activate(s, pfn);
		p->flags &= ~PG_REFERENCED;
		workingset_activation(s, p);
	}
}
