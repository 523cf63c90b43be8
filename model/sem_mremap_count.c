/*
 * sem_mremap_count.c - Linux 6.12 plus Lorenzo Stoakes' "[PATCH 1/3]
 * mm/mremap: correct invalid map count check" (linux-mm, March 2026).
 * move_vma() asked for room for 4 more mappings (map_count >= max - 3
 * refuses) since before 2.6.12, although a move makes at most 2 (the copy,
 * and one net split of the source on unmap) since munmap stopped checking
 * the count before each split (659ace584e7a); the patch asks for 2.
 * mremap_to()'s early check (Oscar Salvador, 2019: both ends may split
 * before the move, 2 more) goes from 6 to 4 accordingly.
 *
 * Carried to 6.12 by hand: the patch is against the vma_remap_struct
 * rewrite (prep_move_vma(), check_mremap_params()); in 6.12 the same two
 * tests stand in mm/mremap.c:move_vma() and mremap_to(), before the same
 * work, so the carry changes the two comparisons and nothing else.
 * Patches 2 and 3 (READ_ONCE() of the sysctl, the check under the mmap
 * lock) change no result a single-threaded trace can show.
 */
#include "semantics.h"

SEM_PATCH(sem_mremap_count, sem_6_12)
{
	s->name = "mremap-count";
	s->description = "6.12 + mm/mremap: correct invalid map count check (headroom 2 and 4)";
	s->order = sem_6_12.order + 2;
	/* mm/mremap.c:move_vma(): room for 2 mappings, not 4 */
	s->mremap_move_room = 2;
	/* mm/mremap.c:mremap_to(): room for 4, not 6 */
	s->mremap_to_room = 4;
}
