/*
 * lru.h - the five LRU lists and the per-CPU batches that feed them.
 *
 *   head (most recently added) ... tail (next to be scanned)
 *
 * Lists are intrusive and doubly linked through struct page (prev/next
 * pfns), so add, delete and move are O(1) and per-list sizes are exact.
 * One exception, as in the kernel: with the 6.x page model (mlock_count)
 * the unevictable "list" is a count only - lruvec_add_folio() @ v6.1
 * links no unevictable folio, whose lru.prev holds its mlock_count - so
 * its pages are found by their flags (lru_first()/lru_next()).  Order on
 * it means nothing there; the walk gives pfn order.
 * The model has one CPU: one lru_add batch and one mlock batch
 * (mm/swap.c:folio_batch_add_and_move(), mm/mlock.c:mlock_folio_batch()),
 * drained where the kernel calls lru_add_drain().  MGLRU is not modelled:
 * the kernels modelled run the classic two-list LRU (CONFIG_LRU_GEN off or
 * not enabled).
 *
 *
 * Owns: the five LRU lists, the unevictable list and the per-CPU batches
 *   that feed them.
 * May call: internal, page.
 */
#ifndef VMSIM_LRU_H
#define VMSIM_LRU_H

#include <stdbool.h>
#include <stdint.h>

#include "page.h"

#define LRU_BATCH_MAX 31

enum batch_tag { BATCH_LRU_ADD, BATCH_MLOCK_LRU, BATCH_MLOCK_NEW, BATCH_MUNLOCK };

struct lru_batch {
	pfn_t pfn[LRU_BATCH_MAX];
	uint8_t tag[LRU_BATCH_MAX];
	unsigned n;
};

struct lruvec {
	pfn_t head[NR_LRU_LISTS], tail[NR_LRU_LISTS];
	uint64_t size[NR_LRU_LISTS];
	struct lru_batch add_batch;   /* cpu_fbatches.lru_add */
	struct lru_batch mlock_batch; /* mlock_fbatch */
	uint64_t anon_cost, file_cost; /* what reclaiming each type cost
					* (lru_note_cost() @ v6.1, reclaim.c) */
	uint64_t recent_scanned[2], recent_rotated[2]; /* zone_reclaim_stat @ v4.4,
							* [0] anon, [1] file */
};

struct vmsys;

void lru_init(struct lruvec *l);
/* The list a page belongs on by its flags (include/linux/mm_inline.h:folio_lru_list()). */
static inline enum lru_list page_lru(const struct page *p)
{
	if (p->flags & PG_UNEVICTABLE)
		return LRU_UNEVICTABLE;
	enum lru_list l = page_is_file_lru(p) ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
	return (p->flags & PG_ACTIVE) ? (enum lru_list)(l + 1) : l;
}
void lru_add_page(struct vmsys *s, pfn_t pfn, enum lru_list l);     /* at head, PG_lru set */
void lru_add_page_tail(struct vmsys *s, pfn_t pfn, enum lru_list l);
void lru_del_page(struct vmsys *s, pfn_t pfn);                       /* PG_lru cleared */
/* Whether list l is linked (else a count: the 6.x unevictable list). */
bool lru_linked(const struct vmsys *s, enum lru_list l);
/* The pages of list l, head to tail (pfn order for a list not linked):
 * for (pfn = lru_first(s, l); pfn; pfn = lru_next(s, l, pfn)). */
pfn_t lru_first(struct vmsys *s, enum lru_list l);
pfn_t lru_next(struct vmsys *s, enum lru_list l, pfn_t pfn);
/* The page reclaim takes next from list l: its tail (any page of a list
 * not linked, which only a test-only semantics scans); 0 if empty. */
pfn_t lru_tail(struct vmsys *s, enum lru_list l);
/* Its mlock_count as the kernel keeps it: valid on 6.x while PG_lru and
 * PG_unevictable, 0 otherwise (4.x has none). */
uint32_t page_mlock_count(const struct vmsys *s, const struct page *p);
/* How many references the per-CPU batches hold on page pfn (its entries
 * in both; the kernel reads them as part of the reference count). */
unsigned page_batch_refs(const struct vmsys *s, pfn_t pfn);
/* folio_add_lru(): through the lru_add batch. */
void folio_add_lru(struct vmsys *s, pfn_t pfn);
/* lru_add_drain(): both batches of the (single) CPU. */
void lru_add_drain(struct vmsys *s);
/* folio_mark_accessed() (mm/swap.c) */
void mark_page_accessed(struct vmsys *s, pfn_t pfn);
/* move an evictable page between its active/inactive lists */
void lru_activate(struct vmsys *s, pfn_t pfn);
void lru_deactivate(struct vmsys *s, pfn_t pfn);
/* folio_evictable(): not mlocked (and mapping not unevictable) */
static inline bool page_evictable(const struct page *p)
{
	return !(p->flags & PG_MLOCKED);
}

#endif
