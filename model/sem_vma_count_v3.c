/*
 * sem_vma_count_v3.c - Linux 6.12 plus patch 1 of Kalesh Singh's "VMA
 * count limit" series as posted in v3 (linux-mm, October 2025): do_mmap()
 * and do_brk_flags() refuse a new VMA when mm->map_count >=
 * sysctl_max_map_count, where every release tests >.  The rest of the
 * series (the helper, the rename, the tracepoint) changes nothing vmsim
 * models.  In review Hugh Dickins showed the lenient test is intended - at
 * the limit an mmap or brk that merges into a neighbour makes no VMA and
 * must not fail - and v4 dropped the change; docs/studies/vma-count.md
 * shows what it would have done.
 *
 * Carried to 6.12 by hand: the two tests are the same lines in 6.12's
 * mm/mmap.c:do_mmap() and do_brk_flags() as in the mm-new tree the
 * series was posted against.
 */
#include "semantics.h"

SEM_PATCH(sem_vma_count_v3, sem_6_12)
{
	s->name = "vma-count-v3";
	s->description = "6.12 + VMA count limit v3 patch 1: do_mmap()/do_brk_flags() refuse at map_count >= max";
	s->order = sem_6_12.order + 1;
	/* mm/mmap.c:do_mmap(), do_brk_flags(): '>' becomes '>=' */
	s->new_vma_refused_at_max = true;
}
