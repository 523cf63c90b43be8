/*
 * workingset.c - refault detection (see workingset.h).
 *
 * A shadow is a radix value, so never 0: the age in bits 2 and up, the
 * evicted page's PG_workingset in bit 1, bit 0 always set.  The age is
 * one per machine: the model has one lruvec, which stands for the memcg
 * a recorded trace's processes ran alone in, and for 4.x's one zone.
 */
#include "alloc.h"
#include "internal.h"

#define SHADOW_WORKINGSET 2u

static uint64_t pack_shadow(uint64_t age, bool workingset)
{
	return age << 2 | (workingset ? SHADOW_WORKINGSET : 0) | 1u;
}

/* workingset_eviction() @ v4.4 (atomic_long_inc_return()) and @ v6.1
 * (read, then workingset_age_nonresident()): the stamp and the tick */
static uint64_t eviction_stamp(struct vmsys *s, const struct page *p)
{
	bool ws = s->sem->ws->restore && (p->flags & PG_WORKINGSET);
	uint64_t age = s->ws_age;
	s->ws_age++;
	return pack_shadow(s->sem->ws->stamp_before_tick ? age : s->ws_age, ws);
}

void workingset_evict_file(struct vmsys *s, struct file *f, uint64_t index, const struct page *p)
{
	/* __remove_mapping(): reclaimed, folio_is_file_lru() (4.x
	 * page_is_file_cache()), the mapping not exiting */
	if (f->shmem || !page_is_file_lru(p))
		return;
	/* no room for the shadow: the page is forgotten, as an xarray store
	 * that fails leaves no entry */
	(void)radix_set(&f->shadows, index, eviction_stamp(s, p));
}

void workingset_evict_anon(struct vmsys *s, uint32_t slot, const struct page *p)
{
	if (!s->sem->ws->anon_shadows || slot >= s->swap_total)
		return;
	if (!s->swap_shadow && !(s->swap_shadow = vm_calloc(s->swap_total, sizeof(*s->swap_shadow))))
		return;
	s->swap_shadow[slot] = eviction_stamp(s, p);
}

/* workingset_refault() @ v4.4 and @ v6.1 for a shadow just taken */
static void refault(struct vmsys *s, uint64_t shadow, pfn_t pfn, bool file)
{
	struct page *p = spage(s, pfn);
	const struct workingset_rules *r = s->sem->ws;
	const struct lruvec *lv = &s->lru;
	count_vm(s, file ? WORKINGSET_REFAULT_FILE : WORKINGSET_REFAULT_ANON, 1);
	uint64_t distance = s->ws_age - (shadow >> 2);
	uint64_t size = lv->size[LRU_ACTIVE_FILE];
	if (!file)
		size += lv->size[LRU_INACTIVE_FILE];
	if (r->size_counts_anon && s->swap_free) {
		size += lv->size[LRU_ACTIVE_ANON];
		if (file)
			size += lv->size[LRU_INACTIVE_ANON];
	}
	bool restore = r->restore && (shadow & SHADOW_WORKINGSET);
	TP(s, TP_REFAULT, KFN_WORKINGSET_REFAULT, .pfn = pfn, .before = file, .delta = (int64_t)distance,
	   .after = size, .kind = distance > size ? TPW_INACTIVE : restore ? TPW_RESTORE : TPW_ACTIVATE);
	if (distance > size)
		return;
	/* folio_set_active() (4.x SetPageActive() + workingset_activation()) */
	p->flags |= PG_ACTIVE;
	s->ws_age++;
	count_vm(s, file ? WORKINGSET_ACTIVATE_FILE : WORKINGSET_ACTIVATE_ANON, 1);
	if (restore) {
		p->flags |= PG_WORKINGSET;
		lru_note_cost(s, file, 1);
		count_vm(s, file ? WORKINGSET_RESTORE_FILE : WORKINGSET_RESTORE_ANON, 1);
	}
}

void workingset_refault_file(struct vmsys *s, struct file *f, uint64_t index, pfn_t pfn, bool for_write)
{
	uint64_t shadow = radix_get(&f->shadows, index);
	if (!shadow)
		return;
	radix_clear(&f->shadows, index); /* the page takes its slot */
	if (for_write && s->sem->ws->write_skips_refault)
		return;
	refault(s, shadow, pfn, true);
}

void workingset_refault_anon(struct vmsys *s, uint32_t slot, pfn_t pfn)
{
	if (!s->swap_shadow || slot >= s->swap_total || !s->swap_shadow[slot])
		return;
	uint64_t shadow = s->swap_shadow[slot];
	s->swap_shadow[slot] = 0;
	refault(s, shadow, pfn, false);
}

void workingset_activation(struct vmsys *s, const struct page *p)
{
	if (page_is_file_lru(p) || s->sem->ws->anon_activation_ages)
		s->ws_age++;
}

void workingset_putback_active(struct vmsys *s, uint64_t nr)
{
	if (s->sem->ws->putback_ages)
		s->ws_age += nr;
}

void workingset_forget_file(struct vmsys *s, struct file *f, uint64_t first, uint64_t last)
{
	(void)s;
	if (f->shmem)
		return; /* invalidate_exceptional_entry(): shmem keeps its own */
	uint64_t idx = first;
	while (idx <= last && radix_next(&f->shadows, &idx, last)) {
		radix_clear(&f->shadows, idx);
		idx++;
	}
}

void workingset_forget_slot(struct vmsys *s, uint32_t slot)
{
	if (s->swap_shadow && slot < s->swap_total)
		s->swap_shadow[slot] = 0;
}
