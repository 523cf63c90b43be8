/*
 * sem_4_4.c - Linux 4.4: lock-on-fault as merged (mlock2/MLOCK_ONFAULT,
 * MCL_ONFAULT, VM_LOCKONFAULT 0x80000 as a modifier of VM_LOCKED), before
 * the 2017 accounting fixes (no overlap correction, LOCKED<->ONFAULT
 * recharge) and before the 5.18 page model (PG_mlocked + rmap-walk
 * munlock, populate mlocks pages with FOLL_MLOCK).  Source read:
 * zanpocc/linux-4.4.1, see ../shared/notes/upstream-4.4-and-6.x.md.
 */
#include "semantics.h"

#include <stddef.h>

/* fs/proc/task_mmu.c:show_smap_vma_flags() @ v4.4: um/uw exist, bit 19
 * (VM_LOCKONFAULT) has no mnemonic and prints "??". */
static const struct vmflag_name vmflags_4_4[] = {
	{ VM_READ, "rd", 0x1 }, { VM_WRITE, "wr", 0x2 }, { VM_EXEC, "ex", 0x4 },
	{ VM_SHARED, "sh", 0x8 }, { VM_MAYREAD, "mr", 0x10 },
	{ VM_MAYWRITE, "mw", 0x20 }, { VM_MAYEXEC, "me", 0x40 },
	{ VM_MAYSHARE, "ms", 0x80 }, { VM_GROWSDOWN, "gd", 0x100 },
	{ VM_UFFD_MISSING, "um", 0x200 }, { VM_PFNMAP, "pf", 0x400 },
	{ VM_MAYBE_GUARD, "dw", 0x800 }, { VM_UFFD_WP, "uw", 0x1000 },
	{ VM_LOCKED, "lo", 0x2000 }, { VM_IO, "io", 0x4000 },
	{ VM_SEQ_READ, "sr", 0x8000 }, { VM_RAND_READ, "rr", 0x10000 },
	{ VM_DONTCOPY, "dc", 0x20000 }, { VM_DONTEXPAND, "de", 0x40000 },
	{ VM_LOCKONFAULT, "??", 0x80000 },
	{ VM_ACCOUNT, "ac", 0x100000 }, { VM_NORESERVE, "nr", 0x200000 },
	{ VM_HUGETLB, "ht", 0x400000 }, { VM_ARCH_1, "ar", 0x1000000 },
	{ VM_DONTDUMP, "dd", 0x4000000 }, { VM_SOFTDIRTY, "sd", 0x8000000 },
	{ VM_MIXEDMAP, "mm", 0x10000000 }, { VM_HUGEPAGE, "hg", 0x20000000 },
	{ VM_NOHUGEPAGE, "nh", 0x40000000 }, { VM_MERGEABLE, "mg", 0x80000000 },
	{ 0, NULL, 0 },
};

#define MADV_BIT(x) (1u << (x))

/* 4.4 splits do_mlockall() into apply_mlockall_flags() (mlock2 series) */
static const struct kfn_name kfn_names_4_4[] = {
	{ KFN_APPLY_MLOCKALL, "mm/mlock.c:apply_mlockall_flags()" },
	{ KFN_NONE, NULL },
};

const struct semantics sem_4_4 = {
	.shm_hugetlb_memlock = true, /* hugetlb_file_setup() */
	.fork_copies_hugetlb = true,  /* copy_page_range() */
	.thp_zero_cow_huge = true,    /* do_huge_pmd_wp_page() */
	.name = "4.4",
	.flag_kernel = "4.4",
	.description = "Linux 4.4: mlock2/MLOCK_ONFAULT/MCL_ONFAULT, PG_mlocked + rmap-walk munlock",
	.order = 40400,
	.lock_mask = VM_LOCKED | VM_LOCKONFAULT,  /* VM_LOCKED_CLEAR_MASK */
	.onfault_bit = VM_LOCKONFAULT,
	.charge_mask = VM_LOCKED,
	.future_check_mask = VM_LOCKED,
	.unlock_clear = VM_LOCKED | VM_LOCKONFAULT, /* munlock_vma_pages_range() @ v4.4 */
	.fork_clear = VM_LOCKED | VM_LOCKONFAULT,   /* dup_mmap() @ v4.4 (+UFFD bits) */
	.madvise_locked = VM_LOCKED,
	.smaps_locked_mask = VM_LOCKED,
	.fault_mlock_mask = VM_LOCKED,
	.smaps_locked_per_page = false,
	.has_mlock2 = true,
	.mlock_overlap_correction = false,
	.relock_charges_again = true,
	.fixup_writes_newflags_on_unlock = false,
	.mlockall_rules = mlockall_rules_v44,
	.has_fixed_noreplace = false,
	.has_shared_validate = false,
	.has_droppable = false,
	.lockonfault_populates = true,            /* mm/gup.c:populate_vma_page_range() @ v4.4 */
	.onfault_skips_populate = false,
	.mmap_lockonfault_flag = false,
	.mprotect_populates_locked = true,        /* mm/mprotect.c:mprotect_fixup() @ v4.4 */
	.mprotect_writable_excl_anon = false,     /* mm/mprotect.c:change_pte_range() @ v4.4 */
	.has_dontunmap = false,
	.dontunmap_charges_new = false,
	.madv_refuses_locked = MADV_BIT(MADV_X_DONTNEED) | MADV_BIT(MADV_X_REMOVE),
	.zap_drains_lru = true,
	.page_model = PLM_RMAP_WALK,
	.lru_batch = 14,
	.lru_add_keeps_list = true,         /* mm/swap.c:__pagevec_lru_add_fn() */
	.stack_guard_page = true,           /* mm/memory.c:check_stack_guard_page() */
	.mlock_batch = 14,
	.new_anon_active = true,
	.has_zero_page = true,
	.pgfault_counts_each_run = true, /* handle_mm_fault() counts every run (until 6.4) */
	/* NUMA balancing @ v4.4: task_numa_work() virtpages limit,
	 * remove_migration_pte() mlocks the new page */
	.reclaim_scan_v4 = true, /* mm/vmscan.c:get_scan_count() @ v4.0, v4.4 */
	.cgroup_reclaim_counts_pgrefill = true, /* mm/vmscan.c:shrink_active_list() @ v4.0, v4.4 */
	.ws = &workingset_rules_v4, /* mm/workingset.c @ v4.0, v4.4 (sem_common.c) */
	.memcg_reclaim_retries = 5, /* mm/memcontrol.c:MEM_CGROUP_RECLAIM_RETRIES @ v4.0, v4.4 */
	.numa = {
		.preserve_write = true,
		.scan_virt_limit = true,
		.migrate_ratelimit_pages = 32768,
		.migrate_relocks_4x = true,
	},
	.task_flt_counted_by_arch = true, /* __do_page_fault(), faultin_page() */
	.anon_merge_needs_singular_chain = true, /* mm/mmap.c:is_mergeable_anon_vma() */
	.close_never_merges = true, /* mm/mmap.c:is_mergeable_vma() @ v4.4: vm_ops->close */
	.vmflag_names = vmflags_4_4,
	.kfn_names = { kfn_names_4_4, kfn_names_v4 },
	.has_dontneed_locked = false,
};
