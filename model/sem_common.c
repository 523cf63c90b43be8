/* sem_common.c - rule sets shared by several semantics. */
#include "semantics.h"

#include <stddef.h>

#include "kerr.h"

/*
 * mlockall() flag rules of 4.4 (mm/mlock.c:sys_mlockall()/apply_mlockall_flags()
 * @ v4.4): flags must be non-zero and within CURRENT|FUTURE|ONFAULT.
 * def_flags always loses both lock bits; FUTURE puts VM_LOCKED (+ONFAULT)
 * back; FUTURE without CURRENT stops there.  Otherwise every VMA gets
 * CURRENT ? LOCKED(+ONFAULT) : nothing - so MCL_ONFAULT alone unlocks all.
 */
void mlockall_rules_v44(const struct semantics *s, uint64_t flags,
			const struct mlockall_flags *mcl, struct mlockall_plan *plan)
{
	uint64_t known = mcl->current | mcl->future | mcl->onfault;

	*plan = (struct mlockall_plan){ 0 };
	if (!flags || (flags & ~known)) {
		plan->err = -KERR_EINVAL;
		return;
	}
	vm_flags_t onf = (mcl->onfault && (flags & mcl->onfault)) ? s->onfault_bit : 0;
	if (flags & mcl->future)
		plan->def_set = VM_LOCKED | onf;
	if ((flags & mcl->future) && !(flags & mcl->current))
		return;
	plan->walk_vmas = true;
	plan->vma_set = (flags & mcl->current) ? (VM_LOCKED | onf) : 0;
	plan->populate = (flags & mcl->current) != 0;
}

/*
 * Since 5.2 (commit dedca63504a2, mm/mlock.c:sys_mlockall()) MCL_ONFAULT
 * alone is EINVAL; otherwise as 4.4.
 */
void mlockall_rules_v52(const struct semantics *s, uint64_t flags,
			const struct mlockall_flags *mcl, struct mlockall_plan *plan)
{
	if (mcl->onfault && flags == mcl->onfault) {
		*plan = (struct mlockall_plan){ .err = -KERR_EINVAL };
		return;
	}
	mlockall_rules_v44(s, flags, mcl, plan);
}

/*
 * Where 4.0/4.4 (and the lof-v1 patch on 4.0) name or file the cited
 * functions differently from 6.18: the VMA code lives in mm/mmap.c, the
 * page-level mlock is mlock_vma_page()/munlock_vma_page() with
 * try_to_munlock(), pagevecs instead of folio batches.
 */
const struct kfn_name kfn_names_v4[] = {
	{ KFN_MMAP_REGION, "mm/mmap.c:mmap_region()" },
	{ KFN_VMA_MERGE_NEW, "mm/mmap.c:vma_merge()" },
	{ KFN_SPLIT_VMA, "mm/mmap.c:__split_vma()" },
	{ KFN_VMA_MODIFY, "mm/mmap.c:vma_merge()" },
	{ KFN_DO_MUNMAP, "mm/mmap.c:do_munmap()" },
	{ KFN_MLOCK_FUTURE, "mm/mmap.c:mlock_future_check()" },
	{ KFN_APPLY_MLOCKALL, "mm/mlock.c:do_mlockall()" },
	{ KFN_MADVISE_UPDATE, "mm/madvise.c:madvise_behavior()" },
	{ KFN_VMA_TO_RESIZE, "mm/mremap.c:vma_to_resize()" },
	{ KFN_EXPAND_STACK, "mm/mmap.c:acct_stack_growth()" },
	{ KFN_DUP_MMAP, "kernel/fork.c:dup_mmap()" },
	{ KFN_SYNC_RA, "mm/readahead.c:page_cache_sync_readahead()" },
	{ KFN_ASYNC_RA, "mm/readahead.c:page_cache_async_readahead()" },
	{ KFN_FILE_READ, "mm/filemap.c:do_generic_file_read()" },
	{ KFN_LRU_ADD, "mm/swap.c:__pagevec_lru_add_fn()" },
	{ KFN_MLOCK_FOLIO, "mm/mlock.c:mlock_vma_page()" },
	{ KFN_MLOCK_NEW_FOLIO, "mm/swap.c:lru_cache_add_active_or_unevictable()" },
	{ KFN_MUNLOCK_FOLIO, "mm/mlock.c:munlock_vma_page()" },
	{ KFN_ACTIVATE, "mm/swap.c:activate_page()" },
	{ KFN_DEACTIVATE, "mm/swap.c:deactivate_file_page()" },
	{ KFN_SHRINK_LIST, "mm/vmscan.c:shrink_page_list()" },
	{ KFN_PUTBACK, "mm/vmscan.c:putback_lru_page()" },
	{ KFN_LRU_LINK, "include/linux/mm_inline.h:add_page_to_lru_list()" },
	{ KFN_LRU_UNLINK, "include/linux/mm_inline.h:del_page_from_lru_list()" },
	{ KFN_FOLIO_ADD_LRU, "mm/swap.c:__lru_cache_add()" },
	{ KFN_BATCH_MOVE, "mm/swap.c:__pagevec_lru_add()" },
	{ KFN_MIGRATE_MISPLACED, "mm/migrate.c:migrate_misplaced_page()" },
	{ KFN_MOVE_UNEVICTABLE, "mm/vmscan.c:check_move_unevictable_pages()" },
	{ KFN_NONE, NULL },
};

/* 6.1: the VMA code is still in mm/mmap.c, on the maple tree. */
const struct kfn_name kfn_names_v6_1[] = {
	{ KFN_MMAP_REGION, "mm/mmap.c:mmap_region()" },
	{ KFN_VMA_MERGE_NEW, "mm/mmap.c:vma_merge()" },
	{ KFN_SPLIT_VMA, "mm/mmap.c:__split_vma()" },
	{ KFN_VMA_MODIFY, "mm/mmap.c:vma_merge()" },
	{ KFN_DO_MUNMAP, "mm/mmap.c:do_mas_align_munmap()" },
	{ KFN_MLOCK_FUTURE, "mm/mmap.c:mlock_future_check()" },
	{ KFN_VMA_TO_RESIZE, "mm/mremap.c:vma_to_resize()" },
	{ KFN_EXPAND_STACK, "mm/mmap.c:acct_stack_growth()" },
	{ KFN_DUP_MMAP, "kernel/fork.c:dup_mmap()" },
	{ KFN_LRU_ADD, "mm/swap.c:lru_add_fn()" },
	{ KFN_SHRINK_LIST, "mm/vmscan.c:shrink_page_list()" },
	{ KFN_MIGRATE_MISPLACED, "mm/migrate.c:migrate_misplaced_page()" },
	{ KFN_NONE, NULL },
};

/* mm/workingset.c, mm/vmscan.c, mm/swap.c, mm/filemap.c @ v4.0 and v4.4:
 * file shadows only, stamped after the eviction's tick, judged against
 * the active file list; only evictions, refault activations and
 * mark_page_accessed() of a file page age the zone */
const struct workingset_rules workingset_rules_v4 = {
	.stamp_before_tick = false,
	.anon_shadows = false,
	.size_counts_anon = false,
	.putback_ages = false,
	.anon_activation_ages = false,
	.restore = false,
	.write_skips_refault = false,
};

/* the same files @ v6.1 (5.9's "mm: workingset: age nonresident
 * information alongside anonymous pages", 4.20's PG_workingset restore,
 * filemap_add_folio()'s __GFP_WRITE test), and swap_state.c; 6.18 is read
 * as 6.1 (no 6.18 tree here; 6.5 moved the distance test into
 * workingset_test_recent(), which decides alike) */
const struct workingset_rules workingset_rules_v59 = {
	.stamp_before_tick = true,
	.anon_shadows = true,
	.size_counts_anon = true,
	.putback_ages = true,
	.anon_activation_ages = true,
	.restore = true,
	.write_skips_refault = true,
};
