/*
 * sem_6_18.c - Linux 6.18 (what these machines run): 6.1 plus the `lf`
 * mnemonic (6.2), MAP_DROPPABLE (6.11), guard regions (6.13), 31-entry
 * folio batches, and the mremap rewrite whose MREMAP_DONTUNMAP path
 * charges locked_vm for the new range while unlocking the old one
 * (mm/mremap.c:vrm_stat_account(); observed on 6.18.44, notes §1.11).
 */
#include "semantics.h"

#include <stddef.h>

static const struct vmflag_name vmflags_6_18[] = {
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
	{ VM_DROPPABLE, "dp", 1ULL << 40 }, { VM_UFFD_MINOR, "ui", 1ULL << 41 },
	{ VM_SEALED, "sl", 1ULL << 42 },
	{ 0, NULL, 0 },
};

#define MADV_BIT(x) (1u << (x))

const struct semantics sem_6_18 = {
	.thp_zero_cow_huge = true,    /* do_huge_zero_wp_pmd() (6.13+; 6.12.118 still splits) */
	.name = "6.18",
	.fadvise_skips_noop_bdi = true,
	.flag_kernel = "6.18",
	.description = "Linux 6.18: 6.1 plus lf mnemonic, MAP_DROPPABLE, guard regions, mremap rewrite",
	.order = 61800,
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
	.has_droppable = true,
	.has_memfd_secret = true,
	.secretmem_mmap_locks = true,  /* mm/secretmem.c:secretmem_mmap_prepare() */
	/* IORING_SETUP_FLAGS @ v6.18: IOPOLL .. CQE_MIXED (bit 18) */
	.io_uring_setup_flags = 0x7ffff,
	.io_uring_rings_charged = true,
	.io_uring_pin_rejects_files = false,
	.anon_inode_noexec = true,
	.lockonfault_populates = false,
	.onfault_skips_populate = true,
	.mmap_lockonfault_flag = false,
	.mprotect_populates_locked = true,
	.mprotect_writable_excl_anon = true,
	.has_dontunmap = true,
	.dontunmap_charges_new = true,
	.dontunmap_splits_first = false,
	.dontunmap_resets_pgoff = false,           /* dontunmap_complete(): a live test here
						    * (6.18.44) merges the source back */
	.mremap_checks_first = true,
	.mremap_multi_vma = true,
	.madv_refuses_locked = MADV_BIT(MADV_X_DONTNEED) | MADV_BIT(MADV_X_FREE) |
			       MADV_BIT(MADV_X_REMOVE) | MADV_BIT(MADV_X_COLD) |
			       MADV_BIT(MADV_X_PAGEOUT) | MADV_BIT(MADV_X_GUARD_INSTALL),
	.page_model = PLM_MLOCK_COUNT,
	.thp_pte_mlock = THP_PTE_FOLIO, /* mm/mlock.c:allow_mlock_munlock(), mm/rmap.c:__folio_remove_rmap() */
	.pagecache_large_folios = true,
	.finish_fault_none_range = true,
	.partial_punch_cleans_blocks = true,
	.folio_shared_by_mm = true,
	.exec_readahead_forward = true,
	.map_stack_nohugepage = true,
	.eof_block_not_uptodate = true,
	.lru_batch = 31,
	.mlock_batch = 31,
	.new_anon_active = false,
	.pageout_putback_unevictable = true,
	.large_folio_moves_batch = true,
	.next_miss_tail_lag = true,
	.large_folio_batch_per_pmd = true,
	.mprotect_unaccounts_unfaulted = true, /* mm/mprotect.c:mprotect_fixup() */
	.kpageflags_folio_flags = true, /* fs/proc/page.c:stable_page_flags() */
	.extend_merge_no_middle = true,
	.has_zero_page = true,
	.filemap_retries_io = true, /* maybe_unlock_mmap_for_io(); pgfault counted once */
	.fault_tried_only_after_major = true, /* per-VMA lock, do_user_addr_fault() */
	.mmap_miss_hits = MMAP_HIT_FOUND_NOT_WORKINGSET, /* filemap_map_folio_range() */
	.memcg_reclaim_retries = 16, /* mm/memcontrol.c:mem_cgroup_force_empty() @ v6.1 */
	.memcg_v2_write_reclaims = true, /* as 6.12; checked by the v2 recordings of Debian 6.18.15 */
	.proactive_reclaim_quarter = true, /* mm/vmscan.c:user_proactive_reclaim() @ v6.18 */
	.dirty_file_reclaim_activates = true, /* mm/vmscan.c:shrink_folio_list() @ v6.1 */
	.referenced_skips_no_recency = true, /* mm/rmap.c:invalid_folio_referenced_vma() @ v6.18 */
	/* NUMA balancing: 6.1's rules but the COW skip, which is by mapping
	 * (prot_numa_skip() as of 6.15, the context lines of Dev Jain's
	 * refactoring patch, linux-kernel 2025-04-28).  No 6.18 tree here,
	 * and this machine has one node: 6.4+'s per-VMA scan delay and
	 * access-PID filter (vma_is_accessed()) and large-folio migration are
	 * not modelled (docs/fidelity.md) */
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
	.ws = &workingset_rules_v59, /* mm/workingset.c @ v6.1 (sem_common.c) */
	.mremap_expand_merges = true, /* mm/mremap.c: vma_merge_extend() of the extension */
	.mremap_refuses_private_dup = true, /* mm/mremap.c:vma_to_resize() */
	.vmflag_names = vmflags_6_18,
	.has_dontneed_locked = true,
};
