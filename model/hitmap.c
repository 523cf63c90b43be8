/* hitmap.c - see hitmap.h. */
#include "alloc.h"
#include "hitmap.h"

#include <stdlib.h>
#include <string.h>

void hitmap_make(struct hitmap *h)
{
	if (h->slot || !(h->slot = vm_malloc(HITMAP_SLOTS * sizeof(*h->slot))))
		return;
	for (unsigned i = 0; i < HITMAP_SLOTS; i++)
		h->slot[i] = (struct hitmap_slot){ .table = UINT64_MAX };
}

void hitmap_note(struct hitmap *h, uint64_t gen, uint64_t vpn, bool r, bool w)
{
	if (!r || !h->slot)
		return;
	struct hitmap_slot *sl = &h->slot[(vpn >> 9) % HITMAP_SLOTS];
	if (sl->table != vpn >> 9 || sl->gen != gen) {
		memset(sl->r, 0, sizeof(sl->r));
		memset(sl->w, 0, sizeof(sl->w));
		sl->table = vpn >> 9;
		sl->gen = gen;
	}
	unsigned i = (unsigned)(vpn & 511);
	sl->r[i >> 6] |= 1ULL << (i & 63);
	if (w)
		sl->w[i >> 6] |= 1ULL << (i & 63);
}

void hitmap_walk(const struct hitmap *h, uint64_t gen, void (*fn)(void *ctx, uint64_t vpn, bool w),
		 void *ctx)
{
	for (unsigned s = 0; h->slot && s < HITMAP_SLOTS; s++) {
		const struct hitmap_slot *sl = &h->slot[s];
		if (sl->table == UINT64_MAX || sl->gen != gen)
			continue;
		for (unsigned i = 0; i < 512; i++)
			if (sl->r[i >> 6] >> (i & 63) & 1)
				fn(ctx, sl->table << 9 | i, sl->w[i >> 6] >> (i & 63) & 1);
	}
}

void hitmap_free(struct hitmap *h)
{
	free(h->slot);
	h->slot = NULL;
}
