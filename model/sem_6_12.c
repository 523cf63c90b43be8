/*
 * sem_6_12.c - Linux 6.12 (LTS, Debian 13 and Debian 12's backports),
 * read from Debian's linux-source-6.12 (6.12.118).  Between 6.1 and 6.18:
 * mm/vma.c holds the VMA code (vma_merge_new_range(), copy_vma() with
 * keep_source), mlock works on folios (folio_mlock_step(),
 * allow_mlock_munlock()), faults run under the per-VMA lock, MAP_DROPPABLE
 * (6.11) and mseal (6.10) exist.  Still as in 6.1: move_vma()'s
 * MREMAP_DONTUNMAP path (split first, no new charge), the merge rules of
 * is_mergeable_anon_vma() (a singular anon_vma_chain), no large page-cache
 * folios on ext4, no guard regions, io_uring rings not charged.
 *
 * Each row below that differs from 6.1 or from 6.18 names the 6.12
 * function read; the release that made a change is given where the
 * source shows it (docs/semantics.md tabulates them).
 */
#include "semantics.h"

#include <stddef.h>

/* fs/proc/task_mmu.c:show_smap_vma_flags() @ v6.12 with the VM_* bits of
 * include/linux/mm.h @ v6.12: UFFD_MINOR is bit 38, DROPPABLE bit 40 and
 * SEALED bit 63 (6.18 moved them to 41, 40 and 42). */
static const struct vmflag_name vmflags_6_12[] = {
	{ VM_READ, "rd", 0x1 }, { VM_WRITE, "wr", 0x2 }, { VM_EXEC, "ex", 0x4 },
	{ VM_SHARED, "sh", 0x8 }, { VM_MAYREAD, "mr", 0x10 },
	{ VM_MAYWRITE, "mw", 0x20 }, { VM_MAYEXEC, "me", 0x40 },
	{ VM_MAYSHARE, "ms", 0x80 }, { VM_GROWSDOWN, "gd", 0x100 },
	{ VM_UFFD_MISSING, "um", 0x200 }, { VM_PFNMAP, "pf", 0x400 },
	{ VM_UFFD_WP, "uw", 0x1000 }, { VM_LOCKED, "lo", 0x2000 },
	{ VM_IO, "io", 0x4000 }, { VM_SEQ_READ, "sr", 0x8000 },
	{ VM_RAND_READ, "rr", 0x10000 }, { VM_DONTCOPY, "dc", 0x20000 },
	{ VM_DONTEXPAND, "de", 0x40000 }, { VM_LOCKONFAULT, "lf", 0x80000 },
	{ VM_ACCOUNT, "ac", 0x100000 }, { VM_NORESERVE, "nr", 0x200000 },
	{ VM_HUGETLB, "ht", 0x400000 }, { VM_SYNC, "sf", 0x800000 },
	{ VM_ARCH_1, "ar", 0x1000000 }, { VM_WIPEONFORK, "wf", 0x2000000 },
	{ VM_DONTDUMP, "dd", 0x4000000 }, { VM_SOFTDIRTY, "sd", 0x8000000 },
	{ VM_MIXEDMAP, "mm", 0x10000000 }, { VM_HUGEPAGE, "hg", 0x20000000 },
	{ VM_NOHUGEPAGE, "nh", 0x40000000 }, { VM_MERGEABLE, "mg", 0x80000000 },
	{ VM_UFFD_MINOR, "ui", 1ULL << 38 }, { VM_DROPPABLE, "dp", 1ULL << 40 },
	{ VM_SEALED, "sl", 1ULL << 63 },
	{ 0, NULL, 0 },
};

/* Where 6.12 cites another file or name than 6.18 (tracepoint.c): the
 * mmap and stack code still in mm/mmap.c, mremap's checks in
 * vma_to_resize(), fork in kernel/fork.c */
static const struct kfn_name kfn_names_6_12[] = {
	{ KFN_MMAP_REGION, "mm/mmap.c:__mmap_region()" },
	{ KFN_VMA_TO_RESIZE, "mm/mremap.c:vma_to_resize()" },
	{ KFN_EXPAND_STACK, "mm/mmap.c:acct_stack_growth()" },
	{ KFN_DUP_MMAP, "kernel/fork.c:dup_mmap()" },
	{ KFN_NONE, NULL },
};

#define MADV_BIT(x) (1u << (x))

const struct semantics sem_6_12 = {
	.name = "6.12",
	.flag_kernel = "6.12",
	.description = "Linux 6.12 LTS: mm/vma.c, folio mlock, MAP_DROPPABLE; 6.1's mremap",
	.order = 61200,
	.lock_mask = VM_LOCKED | VM_LOCKONFAULT,
	.onfault_bit = VM_LOCKONFAULT,
	.charge_mask = VM_LOCKED,
	.future_check_mask = VM_LOCKED,
	.unlock_clear = VM_LOCKED | VM_LOCKONFAULT,
	.fork_clear = VM_LOCKED | VM_LOCKONFAULT,
	.madvise_locked = VM_LOCKED,
	.smaps_locked_mask = VM_LOCKED,
	.fault_mlock_mask = VM_LOCKED,
	.smaps_locked_per_page = true,
	.has_mlock2 = true,
	.mlock_overlap_correction = true,
	.relock_charges_again = false,
	.fixup_writes_newflags_on_unlock = true,
	.mlockall_rules = mlockall_rules_v52,
	.has_fixed_noreplace = true,
	.has_shared_validate = true,
	.has_droppable = true,          /* mm/mmap.c:do_mmap() MAP_DROPPABLE (6.11) */
	.has_memfd_secret = true,       /* mm/secretmem.c: secretmem_enable = 1 (6.5+) */
	.fadvise_skips_noop_bdi = true,
	/* io_uring/io_uring.c:io_uring_setup() @ v6.12: IOPOLL .. NO_SQARRAY */
	.io_uring_setup_flags = 0x1ffff,
	.io_uring_rings_charged = false,     /* io_uring/memmap.c:io_pages_map(): no charge
					      * (io_create_region() is 6.13) */
	.io_uring_pin_rejects_files = false, /* io_uring/rsrc.c:io_pin_pages() @ v6.12 */
	.anon_inode_noexec = false,          /* fs/anon_inodes.c @ v6.12: no SB_I_NOEXEC */
	.lockonfault_populates = false,
	.onfault_skips_populate = true,
	.mmap_lockonfault_flag = false,
	.mprotect_populates_locked = true,
	.mprotect_writable_excl_anon = true,
	/* mm/mprotect.c:mprotect_fixup() @ v6.12: an anonymous VMA without
	 * an anon_vma drops VM_ACCOUNT when it stops being writable */
	.mprotect_unaccounts_unfaulted = true,
	/* mm/mremap.c:move_vma() @ v6.12: as 6.1.192 - a locked source is
	 * split first, only the moved range loses VM_LOCKED, locked_vm is
	 * not charged for the new range, a whole unfaulted-again anonymous
	 * source takes its address's pgoff; mm/vma.c:copy_vma(keep_source) */
	.has_dontunmap = true,
	.dontunmap_charges_new = false,
	.dontunmap_splits_first = true,
	.dontunmap_keeps_source = true,
	.dontunmap_resets_pgoff = true,
	.mremap_checks_first = false,   /* vma_to_resize() after mremap_to()'s unmap */
	.mremap_multi_vma = false,      /* one VMA a move (6.17 allows several) */
	/* mm/madvise.c @ v6.12: no guard regions yet (6.13) */
	.madv_refuses_locked = MADV_BIT(MADV_X_DONTNEED) | MADV_BIT(MADV_X_FREE) |
			       MADV_BIT(MADV_X_REMOVE) | MADV_BIT(MADV_X_COLD) |
			       MADV_BIT(MADV_X_PAGEOUT),
	/* mm/madvise.c:madvise_populate() @ v6.12 walks the range itself (6.11),
	 * so a hole is ENOMEM at once */
	.populate_in_vma_walk = false,
	/* mm/vma.c:unmap_region() @ v6.12 starts with lru_add_drain(), and
	 * mm/swap_state.c:free_pages_and_swap_cache() still does */
	.zap_drains_lru = true,
	.pageout_putback_unevictable = true,
	/* mm/mlock.c @ v6.12: mlock_folio(), mlock_new_folio(), munlock_folio()
	 * never leave a large folio in the batch (folio_may_be_lru_cached()) */
	.large_folio_moves_batch = true,
	.next_miss_tail_lag = true,
	/* mm/memory.c:zap_present_ptes() (PTE batches, 6.10) and
	 * mm/mlock.c:folio_mlock_step() @ v6.12 */
	.large_folio_batch_per_pmd = true,
	.page_model = PLM_MLOCK_COUNT,
	/* mm/mlock.c:allow_mlock_munlock(), mm/rmap.c:__folio_remove_rmap() @ v6.12 */
	.thp_pte_mlock = THP_PTE_FOLIO,
	/* ext4 has no large folios in 6.12 (6.16), so mm/readahead.c:
	 * page_cache_ra_order() falls back to do_page_cache_ra(), which trims
	 * at EOF as 6.1 does; no finish_fault() none-range rule (6.14), no
	 * partial-punch split rule, no CONFIG_MM_ID (6.15).  But ext4 zeroes
	 * an unaligned EOF block when i_size grows, as 6.18 does:
	 * fs/ext4/inode.c:ext4_write_end(), ext4_da_write_end(),
	 * ext4_setattr() and fs/ext4/extents.c:ext4_alloc_file_blocks() @
	 * 6.12.118 call ext4_zero_partial_blocks() / ext4_block_truncate_page()
	 * from the old size (6.13's c7fc0366c656, in 6.12.y; a recording of
	 * Debian's 6.12.118 faults on the EOF page as 6.18 does) */
	.pagecache_large_folios = false,
	.ra_window_trimmed_at_eof = true,
	.finish_fault_none_range = false,
	.partial_punch_cleans_blocks = false,
	.folio_shared_by_mm = false,
	.eof_block_not_uptodate = true,
	.exec_readahead_forward = false, /* do_sync_mmap_readahead() @ v6.12: read-around */
	.map_stack_nohugepage = true,    /* include/linux/mman.h:calc_vm_flag_bits() (6.7) */
	/* mm/huge_memory.c:do_huge_pmd_wp_page() @ v6.12: a write to the huge
	 * zero PMD still falls back to a split (do_huge_zero_wp_pmd() is 6.13) */
	.thp_zero_cow_huge = false,
	.kpageflags_folio_flags = true, /* fs/proc/page.c:stable_page_flags() reads folio->flags */
	/* mm/vma.c:vma_merge_extend() @ v6.12: no middle VMA */
	.extend_merge_no_middle = true,
	/* mm/vma.c:is_mergeable_anon_vma() @ v6.12: list_is_singular() */
	.anon_merge_needs_singular_chain = true,
	/* mm/mmap.c:__mmap_region() @ v6.12 -> vma_merge_new_range(): prev first */
	.mmap_expands_next_first = false,
	.mremap_expand_merges = true,
	.mremap_refuses_private_dup = true, /* mm/mremap.c:vma_to_resize() */
	.lru_batch = 31,   /* include/linux/pagevec.h: PAGEVEC_SIZE 31 (6.10) */
	.mlock_batch = 31,
	.new_anon_active = false,
	.has_zero_page = true,
	.filemap_retries_io = true,
	/* mm/memory.c:mm_account_fault() @ v6.12 counts PGFAULT once (6.4) */
	.pgfault_counts_each_run = false,
	/* arch/x86/mm/fault.c:do_user_addr_fault() @ v6.12: after a per-VMA
	 * lock retry, FAULT_FLAG_TRIED only if that run was major */
	.fault_tried_only_after_major = true,
	/* mm/filemap.c:filemap_map_folio_range() @ v6.12: PG_workingset
	 * pages are no hits */
	.mmap_miss_hits = MMAP_HIT_FOUND_NOT_WORKINGSET,
	.memcg_reclaim_retries = 16,
	.memcg_v2_write_reclaims = true, /* memory_max_write(), memory_high_write() @ v6.12: as 6.1 */
	/* mm/memcontrol.c:memory_reclaim() @ v6.12 asks a quarter of what is left */
	.proactive_reclaim_quarter = true,
	.dirty_file_reclaim_activates = true,
	.referenced_skips_no_recency = true, /* mm/rmap.c:folio_referenced() vma_has_recency() */
	/* NUMA balancing @ v6.12: mm/mprotect.c:change_pte_range() skips a
	 * COW folio that folio_likely_mapped_shared() (mapcount > 1 for a
	 * small folio) or DMA-pinned; the rest as 6.1 */
	.numa = {
		.preserve_write = true,
		.scan_virt_limit = true,
		.cow_skip = NUMA_COW_SKIP_MAPPED_SHARED,
		.skip_dirty_file = true,
		.skip_on_task_node = true,
		.early_migrate = true,
		.large_folio_no_hint = true,
		.no_migrate_dirty_file = true,
		.migrate_keeps_pte_ad = true,
		.migrate_fail_counts_busy = true,
		.scan_period_rule = NUMA_PERIOD_PRIVATE_OR_LOCAL,
		.placement_after_retry = true,
		.stagger_clone_vm = true,
		.exec_keeps_locality = true,
	},
	.ws = &workingset_rules_v59, /* mm/workingset.c @ v6.12, as 6.1 (sem_common.c) */
	.vmflag_names = vmflags_6_12,
	.kfn_names = { kfn_names_6_12, NULL },
	.has_dontneed_locked = true,
};
