/*
 * sem_lof_v1.c - Linux 4.0 plus Eric B Munson's "[PATCH 0/3] Allow user
 * to request memory to be locked on page fault" (linux-mm, 8 May 2015;
 * ../shared/seeds/000_9f79fc5c4f2dfe48.txt): every line of its diff and
 * nothing more.  The patch adds
 *
 *   VM_LOCKONFAULT 0x1000        include/linux/mm.h (a bit of its own, not a
 *                                modifier of VM_LOCKED)
 *   MAP_LOCKONFAULT              calc_vm_flag_bits(); do_mmap_pgoff() EPERM
 *                                test; mlock_future_check() tests it too
 *   MCL_ON_FAULT                 sys_mlockall()/do_mlockall(): def_flags only
 *   lru_cache_add_active_or_unevictable()   new anon pages of a
 *                                LOCKONFAULT VMA go to the unevictable list
 *   do_mlock()/do_mlockall()     newflags clear both bits
 *
 * and leaves every other path testing VM_LOCKED alone: mmap_region()
 * charges only VM_LOCKED, munlock_vma_pages_range() clears only VM_LOCKED,
 * munmap/exit/mremap/stack growth/fork/madvise/msync/reclaim/GUP know
 * nothing of VM_LOCKONFAULT.  So a LOCKONFAULT-only VMA is checked against
 * the limit but never charged, survives munlock, munmap's munlock pass and
 * fork, and munlockall() discharges it anyway (locked_vm wraps).
 */
#include "semantics.h"

#include <stddef.h>

#include "kerr.h"

/* show_smap_vma_flags() @ v4.0 is unchanged by the patch: bit 12, the new
 * VM_LOCKONFAULT, has no mnemonic and prints "??" in its bit position. */
static const struct vmflag_name vmflags_lof_v1[] = {
	{ VM_READ, "rd", 0x1 }, { VM_WRITE, "wr", 0x2 }, { VM_EXEC, "ex", 0x4 },
	{ VM_SHARED, "sh", 0x8 }, { VM_MAYREAD, "mr", 0x10 },
	{ VM_MAYWRITE, "mw", 0x20 }, { VM_MAYEXEC, "me", 0x40 },
	{ VM_MAYSHARE, "ms", 0x80 }, { VM_GROWSDOWN, "gd", 0x100 },
	{ VM_PFNMAP, "pf", 0x400 }, { VM_MAYBE_GUARD, "dw", 0x800 },
	{ VM_LOCKONFAULT, "??", 0x1000 },
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
 * sys_mlockall()/do_mlockall() with patch 2/3: EINVAL for bits outside
 * CURRENT|FUTURE|ON_FAULT and for FUTURE together with ON_FAULT.
 * def_flags: VM_LOCKED iff FUTURE, VM_LOCKONFAULT iff ON_FAULT (any other
 * call clears it).  FUTURE alone or ON_FAULT alone stop there; otherwise
 * every VMA loses both bits and gets VM_LOCKED if CURRENT - never
 * VM_LOCKONFAULT - and CURRENT populates everything.
 */
static void mlockall_rules_lof_v1(const struct semantics *s, uint64_t flags,
				  const struct mlockall_flags *mcl, struct mlockall_plan *plan)
{
	*plan = (struct mlockall_plan){ 0 };
	if (!flags || (flags & ~(mcl->current | mcl->future | mcl->onfault)) ||
	    ((flags & mcl->future) && (flags & mcl->onfault))) {
		plan->err = -KERR_EINVAL;
		return;
	}
	if (flags & mcl->future)
		plan->def_set |= VM_LOCKED;
	if (flags & mcl->onfault)
		plan->def_set |= s->onfault_bit;
	if (flags == mcl->future || flags == mcl->onfault)
		return;
	plan->walk_vmas = true;
	plan->vma_set = (flags & mcl->current) ? VM_LOCKED : 0;
	plan->populate = (flags & mcl->current) != 0;
}

#define MADV_BIT(x) (1u << (x))

const struct semantics sem_lof_v1 = {
	.shm_hugetlb_memlock = true, /* hugetlb_file_setup() */
	.fork_copies_hugetlb = true,  /* copy_page_range() */
	.thp_zero_cow_huge = true,    /* do_huge_pmd_wp_page() */
	.name = "lof-v1",
	.mremap_same_size_checks_lock = true, /* mm/mremap.c:vma_to_resize() @ v4.0 */
	.flag_kernel = "lof-v1",
	.description = "4.0 + lock-on-fault v1 (May 2015): MAP_LOCKONFAULT, MCL_ON_FAULT, VM_LOCKONFAULT",
	.order = 40001,
	.lock_mask = VM_LOCKED | VM_LOCKONFAULT, /* do_mlock()/do_mlockall() newflags */
	.onfault_bit = VM_LOCKONFAULT,
	.charge_mask = VM_LOCKED,               /* mmap_region(), do_munmap(), mremap: unchanged */
	.future_check_mask = VM_LOCKED | VM_LOCKONFAULT, /* mlock_future_check() (patch 1/3) */
	.unlock_clear = VM_LOCKED,              /* munlock_vma_pages_range(): unchanged */
	.fork_clear = VM_LOCKED,                /* dup_mmap(): unchanged */
	.madvise_locked = VM_LOCKED,            /* madvise_dontneed/remove, msync: unchanged */
	.smaps_locked_mask = VM_LOCKED,         /* show_smap(): unchanged */
	.fault_mlock_mask = VM_LOCKED | VM_LOCKONFAULT, /* mm/swap.c (patch 1/3) */
	.smaps_locked_per_page = false,
	.has_mlock2 = false,
	.mlock_overlap_correction = false,
	.relock_charges_again = true,           /* mlock() over LOCKED|LOCKONFAULT */
	.fixup_writes_newflags_on_unlock = false,
	.mlockall_rules = mlockall_rules_lof_v1,
	.has_fixed_noreplace = false,
	.has_shared_validate = false,
	.has_droppable = false,
	.lockonfault_populates = false,         /* __mlock_vma_pages_range(): unchanged */
	.onfault_skips_populate = false,
	.mmap_lockonfault_flag = true,
	.mprotect_populates_locked = false,
	.mprotect_writable_excl_anon = false,
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
	/* NUMA balancing as of v4.0, which the patch does not touch (seed 003: the write bit is preserved;
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
	.vmflag_names = vmflags_lof_v1,
	.kfn_names = { kfn_names_4_0, kfn_names_v4 },
	.has_dontneed_locked = false,
};
