/*
 * hitmap.h - the accesses that would change nothing: derived state of a
 * page table, for the replay's hot loop (vm_touch_hits()).
 *
 * A random stream over gigabytes misses the cache on nearly every PTE it
 * reads (10 MB of PTEs for 5 GB); two bits per page fit in 1/32 of that.
 *
 *   R  the PTE is present, permits a read and is young: a read of the
 *      page takes no fault and sets no bit - it changes nothing;
 *   W  the same for a write: also writable and dirty.
 *
 * The bits sit in slots of 512 pages (one PTE table), found by the table's
 * number modulo HITMAP_SLOTS (a slot taken by another table is simply
 * reused).  A bit is set from a PTE just read or written - by
 * vm_touch_hits(), and by the fault path's set_pte()/touch_pte() once the
 * hot loop made the map - and holds while the machine's PTE generation (vmsys.pt_gen) is
 * the one its slot was filled under.  Whatever can make a bit untrue -
 * clear a PTE, its young, dirty or write bit, change its pfn, mark it
 * PROT_NONE - moves the generation on first (pte_changed(), internal.h),
 * which empties every slot at once; so does the start of every call that
 * is not an access (vmsys_begin_call()).  The invariant walker checks each
 * bit against its PTE (invariant hitmap, model/invariants.c).
 *
 * Owns: the hit bits of one mm.
 * May call: nothing.
 */
#ifndef VMSIM_HITMAP_H
#define VMSIM_HITMAP_H

#include <stdbool.h>
#include <stdint.h>

#define HITMAP_SLOTS 4096u

struct hitmap_slot {
	uint64_t table;        /* vpn >> 9 of the PTE table it describes */
	uint64_t gen;          /* the PTE generation it was filled under */
	uint64_t r[8], w[8];   /* a bit per page of the table */
};

struct hitmap {
	struct hitmap_slot *slot; /* HITMAP_SLOTS of them, from the first hitmap_note() */
};

static inline const struct hitmap_slot *hitmap_slot_of(const struct hitmap *h, uint64_t vpn)
{
	return &h->slot[(vpn >> 9) % HITMAP_SLOTS];
}

/* Would an access (a write if write) of page vpn change nothing?  slot:
 * the slots of a map that has them (h->slot, kept in a register by the
 * caller's loop). */
static inline bool hitmap_test(const struct hitmap_slot *slot, uint64_t gen, uint64_t vpn,
			       bool write)
{
	const struct hitmap_slot *sl = &slot[(vpn >> 9) % HITMAP_SLOTS];
	unsigned i = (unsigned)(vpn & 511);
	const uint64_t *bits = write ? sl->w : sl->r;
	return sl->table == vpn >> 9 && sl->gen == gen && (bits[i >> 6] >> (i & 63) & 1);
}

/* A hint: page vpn will be tested soon (its slot's tag and its word are
 * prefetched: two cache lines at most). */
static inline void hitmap_prefetch(const struct hitmap *h, uint64_t vpn)
{
	if (!h->slot)
		return;
	const struct hitmap_slot *sl = hitmap_slot_of(h, vpn);
	__builtin_prefetch(&sl->table);
	__builtin_prefetch(&sl->r[(vpn & 511) >> 6]);
}

/* Allocate the slots (the hot loop's first hit does; an mm it never runs
 * keeps none, and nothing notes bits there).  Failure leaves none: the
 * bits are only a cache. */
void hitmap_make(struct hitmap *h);
/* What the PTE of page vpn, just read or written under generation gen,
 * says: r (a read changes nothing) and w (a write neither).  Nothing
 * without slots. */
void hitmap_note(struct hitmap *h, uint64_t gen, uint64_t vpn, bool r, bool w);
/* The bits valid under gen, one call per page that has R set:
 * fn(ctx, vpn, w).  For the invariant walker. */
void hitmap_walk(const struct hitmap *h, uint64_t gen, void (*fn)(void *ctx, uint64_t vpn, bool w),
		 void *ctx);
void hitmap_free(struct hitmap *h);

#endif
