/* swap.c - swap slots: a use count per slot of the swap area. */
#include "internal.h"

bool swap_alloc(struct vmsys *s, uint32_t *slot)
{
	if (!s->swap_free)
		return false;
	for (uint64_t i = 0; i < s->swap_total; i++) {
		uint64_t k = (s->swap_next + i) % s->swap_total;
		if (k == 0)
			continue; /* slot 0 is the swap header */
		if (!s->swap_map[k]) {
			s->swap_map[k] = 1;
			s->swap_next = k + 1;
			s->swap_free--;
			*slot = (uint32_t)k;
			return true;
		}
	}
	return false;
}

void swap_free_slot(struct vmsys *s, uint32_t slot)
{
	if (slot < s->swap_total && s->swap_map[slot] && --s->swap_map[slot] == 0) {
		s->swap_free++;
		workingset_forget_slot(s, slot); /* swap_range_free() */
	}
}
