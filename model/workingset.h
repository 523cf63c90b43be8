/*
 * workingset.h - refault detection: what reclaim remembers of the pages
 * it evicts, and what it makes of a page that comes back
 * (mm/workingset.c @ v4.4, v6.1).
 *
 *   evict:   shadow = the lruvec's age now (and, 6.x, PG_workingset)
 *   refault: distance = age then - shadow's age
 *            distance <= the workingset (the active file list, 6.x also
 *            the anon lists while swap is free) -> the page comes back
 *            active
 *
 * The age (4.x zone->inactive_age, 6.x lruvec->nonresident_age) ticks at
 * every eviction and every activation: a page evicted and read back
 * within fewer ticks than the active list holds would have stayed had
 * the inactive list been given that room, so it is treated as one that
 * was used twice.  A file page's shadow sits in its file's index (the
 * kernel keeps it in the page cache slot itself); on 6.x an anonymous
 * page's sits with its swap slot (the swap cache's slot), none on 4.x.
 * Truncation, hole punching and invalidation (fadvise DONTNEED,
 * drop_caches) forget the shadows of the range; freeing a swap slot
 * forgets its shadow.  The kernel's shrinker of shadow nodes, which
 * drops shadows when they outnumber what memory could ever refault, is
 * not modelled (docs/fidelity.md).  What differs between versions is the
 * semantics' workingset rules (semantics.h).
 *
 * Owns: the shadows of evicted pages and the workingset age.
 * May call: alloc, internal, lru, page, semantics, vmstat.
 */
#ifndef VMSIM_WORKINGSET_H
#define VMSIM_WORKINGSET_H

#include <stdbool.h>
#include <stdint.h>

#include "page.h"

struct vmsys;
struct file;

/* workingset_eviction() for a page reclaim takes out of f's cache at index:
 * a file-LRU page only (not shmem), as __remove_mapping() asks. */
void workingset_evict_file(struct vmsys *s, struct file *f, uint64_t index, const struct page *p);
/* workingset_eviction() for an anonymous page written to swap slot (6.x). */
void workingset_evict_anon(struct vmsys *s, uint32_t slot, const struct page *p);
/* workingset_refault() for page pfn, just added to f's cache at index and
 * not yet on an LRU list: counts the refault and may make it active (and
 * PG_workingset).  for_write: added to be written (6.x skips those,
 * filemap_add_folio()'s __GFP_WRITE test). */
void workingset_refault_file(struct vmsys *s, struct file *f, uint64_t index, pfn_t pfn, bool for_write);
/* workingset_refault() for page pfn read back from swap slot (6.x). */
void workingset_refault_anon(struct vmsys *s, uint32_t slot, pfn_t pfn);
/* workingset_activation(): a page activated because it was used twice. */
void workingset_activation(struct vmsys *s, const struct page *p);
/* move_folios_to_lru() putting back nr active pages (6.x ages by them). */
void workingset_putback_active(struct vmsys *s, uint64_t nr);
/* Forget f's shadows of pages [first, last] (truncation, invalidation). */
void workingset_forget_file(struct vmsys *s, struct file *f, uint64_t first, uint64_t last);
/* Forget swap slot's shadow (the slot is free). */
void workingset_forget_slot(struct vmsys *s, uint32_t slot);

#endif
