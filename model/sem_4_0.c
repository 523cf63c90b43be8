/*
 * sem_4_0.c - Linux 4.0 as released: VM_LOCKED is the only lock bit, no
 * mlock2, no MCL_ONFAULT, PG_mlocked without mlock_count (munlock asks the
 * rmap whether another VM_LOCKED VMA still maps a page), pagevecs of 14.
 * Source read: AlecJY/linux-4.0 (a 4.0 release-tree import), see
 * ../shared/notes/v4.0-and-lof-v1.md.
 */
#include "semantics.h"

#include <stddef.h>

#include "kerr.h"

/* fs/proc/task_mmu.c:show_smap_vma_flags() @ v4.0, in bit order.  Bit 11
 * (the model's VM_MAYBE_GUARD) is VM_DENYWRITE here; VM_MPX (mp) needs
 * CONFIG_X86_INTEL_MPX and the model never sets it. */
static const struct vmflag_name vmflags_4_0[] = {
	{ VM_READ, "rd", 0x1 }, { VM_WRITE, "wr", 0x2 }, { VM_EXEC, "ex", 0x4 },
	{ VM_SHARED, "sh", 0x8 }, { VM_MAYREAD, "mr", 0x10 },
	{ VM_MAYWRITE, "mw", 0x20 }, { VM_MAYEXEC, "me", 0x40 },
	{ VM_MAYSHARE, "ms", 0x80 }, { VM_GROWSDOWN, "gd", 0x100 },
	{ VM_PFNMAP, "pf", 0x400 }, { VM_MAYBE_GUARD, "dw", 0x800 },
	{ VM_LOCKED, "lo", 0x2000 }, { VM_IO, "io", 0x4000 },
	{ VM_SEQ_READ, "sr", 0x8000 }, { VM_RAND_READ, "rr", 0x10000 },
	{ VM_DONTCOPY, "dc", 0x20000 }, { VM_DONTEXPAND, "de", 0x40000 },
	{ VM_ACCOUNT, "ac", 0x100000 }, { VM_NORESERVE, "nr", 0x200000 },
	{ VM_HUGETLB, "ht", 0x400000 }, { VM_ARCH_1, "ar", 0x1000000 },
	{ VM_DONTDUMP, "dd", 0x4000000 }, { VM_SOFTDIRTY, "sd", 0x8000000 },
	{ VM_MIXEDMAP, "mm", 0x10000000 }, { VM_HUGEPAGE, "hg", 0x20000000 },
	{ VM_NOHUGEPAGE, "nh", 0x40000000 }, { VM_MERGEABLE, "mg", 0x80000000 },
	{ 0, NULL, 0 },
};

/*
 * mm/mlock.c:sys_mlockall()/do_mlockall() @ v4.0: flags must be non-zero
 * and within CURRENT|FUTURE; def_flags gets VM_LOCKED iff FUTURE (so
 * mlockall(MCL_CURRENT) cancels an earlier FUTURE); FUTURE alone stops
 * there; otherwise every VMA is locked (CURRENT) and populated.
 */
static void mlockall_rules_v40(const struct semantics *s, uint64_t flags,
			       const struct mlockall_flags *mcl, struct mlockall_plan *plan)
{
	(void)s;
	*plan = (struct mlockall_plan){ 0 };
	if (!flags || (flags & ~(mcl->current | mcl->future))) {
		plan->err = -KERR_EINVAL;
		return;
	}
	if (flags & mcl->future)
		plan->def_set = VM_LOCKED;
	if (flags == mcl->future)
		return;
	plan->walk_vmas = true;
	plan->vma_set = (flags & mcl->current) ? VM_LOCKED : 0;
	plan->populate = (flags & mcl->current) != 0;
}

#define MADV_BIT(x) (1u << (x))

/* 4.0's own names: do_mlockall() (apply_mlockall_flags() came with
 * mlock2 in 4.4), deactivate_page() (renamed in 4.2) */
const struct kfn_name kfn_names_4_0[] = {
	{ KFN_APPLY_MLOCKALL, "mm/mlock.c:do_mlockall()" },
	{ KFN_DEACTIVATE, "mm/swap.c:deactivate_page()" },
	{ KFN_NONE, NULL },
};

const struct semantics sem_4_0 = {
	.shm_hugetlb_memlock = true, /* hugetlb_file_setup() */
	.fork_copies_hugetlb = true,  /* copy_page_range() */
	.thp_zero_cow_huge = true,    /* do_huge_pmd_wp_page() */
	.name = "4.0",
	.mremap_same_size_checks_lock = true, /* mm/mremap.c:vma_to_resize() @ v4.0 */
	.flag_kernel = "4.0",
	.description = "Linux 4.0: VM_LOCKED only, PG_mlocked + rmap-walk munlock",
	.order = 40000,
	.lock_mask = VM_LOCKED,             /* do_mlock(): vm_flags & ~VM_LOCKED */
	.onfault_bit = 0,
	.charge_mask = VM_LOCKED,
	.future_check_mask = VM_LOCKED,     /* mm/mmap.c:mlock_future_check() */
	.unlock_clear = VM_LOCKED,          /* mm/mlock.c:munlock_vma_pages_range() */
	.fork_clear = VM_LOCKED,            /* kernel/fork.c:dup_mmap() */
	.madvise_locked = VM_LOCKED,
	.smaps_locked_mask = VM_LOCKED,     /* show_smap(): Pss if VM_LOCKED */
	.fault_mlock_mask = VM_LOCKED,      /* mm/swap.c:lru_cache_add_active_or_unevictable() */
	.smaps_locked_per_page = false,
	.has_mlock2 = false,
	.mlock_overlap_correction = false,
	.relock_charges_again = true,       /* mlock_fixup(): +nr whenever lock */
	.fixup_writes_newflags_on_unlock = false,
	.mlockall_rules = mlockall_rules_v40,
	.has_fixed_noreplace = false,
	.has_shared_validate = false,
	.has_droppable = false,
	.lockonfault_populates = false,
	.onfault_skips_populate = false,
	.mmap_lockonfault_flag = false,
	.mprotect_populates_locked = false, /* mm/mprotect.c:mprotect_fixup() @ v4.0 */
	.mprotect_writable_excl_anon = false, /* mm/mprotect.c:change_pte_range() @ v4.0 */
	.has_dontunmap = false,
	.dontunmap_charges_new = false,
	/* mm/madvise.c:madvise_dontneed()/madvise_remove() @ v4.0 */
	.madv_refuses_locked = MADV_BIT(MADV_X_DONTNEED) | MADV_BIT(MADV_X_REMOVE),
	.zap_drains_lru = true,
	.page_model = PLM_RMAP_WALK,
	.lru_batch = 14,                    /* PAGEVEC_SIZE */
	.lru_add_keeps_list = true,         /* mm/swap.c:__pagevec_lru_add_fn() */
	.stack_guard_page = true,           /* mm/memory.c:check_stack_guard_page() */
	.mlock_batch = 14,
	.new_anon_active = true,
	.has_zero_page = true,
	.pgfault_counts_each_run = true, /* handle_mm_fault() counts every run (until 6.4) */
	/* NUMA balancing as of v4.0 (seed 003: the write bit is preserved;
	 * kernel/sched/fair.c:task_numa_work(), mm/migrate.c @ v4.0) */
	.reclaim_scan_v4 = true, /* mm/vmscan.c:get_scan_count() @ v4.0, v4.4 */
	.cgroup_reclaim_counts_pgrefill = true, /* mm/vmscan.c:shrink_active_list() @ v4.0, v4.4 */
	.ws = &workingset_rules_v4, /* mm/workingset.c @ v4.0, v4.4 (sem_common.c) */
	.memcg_reclaim_retries = 5, /* mm/memcontrol.c:MEM_CGROUP_RECLAIM_RETRIES @ v4.0, v4.4 */
	.numa = {
		.preserve_write = true,
		.scan_budget_after_first_update = true,
		.migrate_ratelimit_pages = 32768,
	},
	.task_flt_counted_by_arch = true, /* __do_page_fault(), faultin_page() */
	.anon_merge_needs_singular_chain = true, /* mm/mmap.c:is_mergeable_anon_vma() */
	.close_never_merges = true, /* mm/mmap.c:is_mergeable_vma() @ v4.0: vm_ops->close */
	.munlock_rmap_trylocks_mmap = true, /* mm/rmap.c:try_to_unmap_one() */
	.vmflag_names = vmflags_4_0,
	.kfn_names = { kfn_names_4_0, kfn_names_v4 },
	.has_dontneed_locked = false,
};
