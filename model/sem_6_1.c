/*
 * sem_6_1.c - Linux 6.1 (LTS): mlock2/MLOCK_ONFAULT/MCL_ONFAULT as merged
 * in 4.4, the 2017 accounting fixes, the 5.18 mlock_count page model.
 * Source read: Debian linux-source-6.1 (6.1.y), see the notes digest.
 */
#include "semantics.h"

#include <stddef.h>

/* fs/proc/task_mmu.c:show_smap_vma_flags() @ v6.1: VM_LOCKONFAULT has no
 * mnemonic yet ("??"), UFFD_MINOR is bit 37. */
static const struct vmflag_name vmflags_6_1[] = {
	{ VM_READ, "rd", 0x1 }, { VM_WRITE, "wr", 0x2 }, { VM_EXEC, "ex", 0x4 },
	{ VM_SHARED, "sh", 0x8 }, { VM_MAYREAD, "mr", 0x10 },
	{ VM_MAYWRITE, "mw", 0x20 }, { VM_MAYEXEC, "me", 0x40 },
	{ VM_MAYSHARE, "ms", 0x80 }, { VM_GROWSDOWN, "gd", 0x100 },
	{ VM_UFFD_MISSING, "um", 0x200 }, { VM_PFNMAP, "pf", 0x400 },
	{ VM_UFFD_WP, "uw", 0x1000 }, { VM_LOCKED, "lo", 0x2000 },
	{ VM_IO, "io", 0x4000 }, { VM_SEQ_READ, "sr", 0x8000 },
	{ VM_RAND_READ, "rr", 0x10000 }, { VM_DONTCOPY, "dc", 0x20000 },
	{ VM_DONTEXPAND, "de", 0x40000 }, { VM_LOCKONFAULT, "??", 0x80000 },
	{ VM_ACCOUNT, "ac", 0x100000 }, { VM_NORESERVE, "nr", 0x200000 },
	{ VM_HUGETLB, "ht", 0x400000 }, { VM_SYNC, "sf", 0x800000 },
	{ VM_ARCH_1, "ar", 0x1000000 }, { VM_WIPEONFORK, "wf", 0x2000000 },
	{ VM_DONTDUMP, "dd", 0x4000000 }, { VM_SOFTDIRTY, "sd", 0x8000000 },
	{ VM_MIXEDMAP, "mm", 0x10000000 }, { VM_HUGEPAGE, "hg", 0x20000000 },
	{ VM_NOHUGEPAGE, "nh", 0x40000000 }, { VM_MERGEABLE, "mg", 0x80000000 },
	{ VM_UFFD_MINOR, "ui", 1ULL << 37 },
	{ 0, NULL, 0 },
};

#define MADV_BIT(x) (1u << (x))

const struct semantics sem_6_1 = {
	.name = "6.1",
	.fadvise_skips_noop_bdi = true,
	.flag_kernel = "6.1",
	.description = "Linux 6.1 LTS: mlock2/MLOCK_ONFAULT, mlock_count page model",
	.order = 60100,
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
	.has_droppable = false,
	/* io_uring/io_uring.c:io_uring_setup() @ v6.1: IOPOLL .. DEFER_TASKRUN */
	.io_uring_setup_flags = 0x3fff,
	.io_uring_rings_charged = false,
	.io_uring_pin_rejects_files = true,
	.anon_inode_noexec = false,               /* fs/anon_inodes.c @ v6.1: no SB_I_NOEXEC */
	.lockonfault_populates = false,
	.onfault_skips_populate = true,
	.mmap_lockonfault_flag = false,
	.mprotect_populates_locked = true,
	.mprotect_writable_excl_anon = true,      /* mm/mprotect.c:can_change_pte_writable() @ v6.1 */
	.has_dontunmap = true,
	.dontunmap_charges_new = false,
	.dontunmap_splits_first = true,
	.dontunmap_keeps_source = true,
	.dontunmap_resets_pgoff = true,            /* mm/mremap.c:move_vma() @ 6.1.192 */
	.mremap_checks_first = false,
	.mremap_multi_vma = false,
	/* mm/madvise.c @ v6.1: madvise_dontneed_free_valid_vma(), can_madv_lru_vma(),
	 * madvise_remove() refuse VM_LOCKED */
	.madv_refuses_locked = MADV_BIT(MADV_X_DONTNEED) | MADV_BIT(MADV_X_FREE) |
			       MADV_BIT(MADV_X_REMOVE) | MADV_BIT(MADV_X_COLD) |
			       MADV_BIT(MADV_X_PAGEOUT),
	.zap_drains_lru = true,
	.pageout_putback_unevictable = true,
	.large_folio_moves_batch = true,
	.next_miss_tail_lag = true,
	.page_model = PLM_MLOCK_COUNT,
	.ra_window_trimmed_at_eof = true, /* mm/readahead.c:do_page_cache_ra() */
	.thp_pte_mlock = THP_PTE_SKIP, /* mm/mlock.c:mlock_pte_range(), mm/rmap.c:page_remove_rmap() */
	.lru_batch = 15,
	.mlock_batch = 15,
	.new_anon_active = false,
	.has_zero_page = true,
	.pgfault_counts_each_run = true, /* handle_mm_fault() counts every run (until 6.4) */
	.filemap_retries_io = true, /* maybe_unlock_mmap_for_io() */
	.mmap_miss_hits = MMAP_HIT_FOUND, /* filemap_map_pages() @ v6.1 */
	.memcg_reclaim_retries = 16, /* mm/memcontrol.c:mem_cgroup_force_empty() @ v6.1 */
	.memcg_v2_write_reclaims = true, /* mm/memcontrol.c:memory_max_write(), memory_high_write() @ v6.1 */
	.dirty_file_reclaim_activates = true, /* mm/vmscan.c:shrink_folio_list() @ v6.1 */
	/* NUMA balancing @ v6.1: change_pte_range() skips, early migration,
	 * no rate limit, migration entries keep young/dirty */
	.numa = {
		.preserve_write = true,
		.scan_virt_limit = true,
		.cow_skip = NUMA_COW_SKIP_REFCOUNT,
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
	.anon_merge_needs_singular_chain = true, /* mm/mmap.c:is_mergeable_anon_vma() */
	.close_never_merges = true, /* mm/mmap.c:is_mergeable_vma() @ v6.1: vm_ops->close */
	.mmap_expands_next_first = true, /* mm/mmap.c:__mmap_region() @ 6.1.192 */
	.mremap_expand_merges = true, /* mm/mremap.c: vma_merge() of the extension */
	.mremap_refuses_private_dup = true, /* mm/mremap.c:vma_to_resize() */
	.populate_in_vma_walk = true, /* mm/madvise.c:madvise_vma_behavior() */
	.vmflag_names = vmflags_6_1,
	.kfn_names = { NULL, kfn_names_v6_1 },
	.has_dontneed_locked = true,
};
