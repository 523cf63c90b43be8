/*
 * tracepoint.c - the kernel functions the model's events cite, as 6.18
 * names them; a semantics lists where its kernel differs (kfn_names).
 */
#include "tracepoint.h"

#include <stdio.h>
#include <string.h>

#include "semantics.h"

/* The 6.18 names (mm/vma.c took over mm/mmap.c's VMA code in 6.12). */
static const char *const cite_6_18[KFN_NR] = {
	[KFN_NONE] = "",
	[KFN_MMAP_REGION] = "mm/vma.c:__mmap_region()",
	[KFN_VMA_MERGE_NEW] = "mm/vma.c:vma_merge_new_range()",
	[KFN_SPLIT_VMA] = "mm/vma.c:__split_vma()",
	[KFN_VMA_MODIFY] = "mm/vma.c:vma_modify_flags()",
	[KFN_DO_MUNMAP] = "mm/vma.c:do_vmi_align_munmap()",
	[KFN_EXIT_MMAP] = "mm/mmap.c:exit_mmap()",
	[KFN_MLOCK_FIXUP] = "mm/mlock.c:mlock_fixup()",
	[KFN_DO_MLOCK] = "mm/mlock.c:do_mlock()",
	[KFN_MLOCK_FUTURE] = "mm/mmap.c:mlock_future_ok()",
	[KFN_DO_MLOCKALL] = "mm/mlock.c:SYSCALL_DEFINE1(mlockall)",
	[KFN_APPLY_MLOCKALL] = "mm/mlock.c:apply_mlockall_flags()",
	[KFN_MPROTECT_FIXUP] = "mm/mprotect.c:mprotect_fixup()",
	[KFN_MADVISE_UPDATE] = "mm/madvise.c:madvise_update_vma()",
	[KFN_MREMAP] = "mm/mremap.c:SYSCALL_DEFINE5(mremap)",
	[KFN_VMA_TO_RESIZE] = "mm/mremap.c:check_prep_vma()",
	[KFN_EXPAND_STACK] = "mm/vma.c:acct_stack_growth()",
	[KFN_BRK] = "mm/mmap.c:SYSCALL_DEFINE1(brk)",
	[KFN_DUP_MMAP] = "mm/mmap.c:dup_mmap()",
	[KFN_MUNLOCK_ALL_4X] = "mm/mlock.c:munlock_vma_pages_all()",
	[KFN_DO_ANON] = "mm/memory.c:do_anonymous_page()",
	[KFN_DO_READ] = "mm/memory.c:do_read_fault()",
	[KFN_DO_COW] = "mm/memory.c:do_cow_fault()",
	[KFN_DO_SHARED] = "mm/memory.c:do_shared_fault()",
	[KFN_DO_WP] = "mm/memory.c:do_wp_page()",
	[KFN_DO_SWAP] = "mm/memory.c:do_swap_page()",
	[KFN_FAULT_AROUND] = "mm/memory.c:do_fault_around()",
	[KFN_SYNC_RA] = "mm/readahead.c:page_cache_sync_ra()",
	[KFN_ASYNC_RA] = "mm/readahead.c:page_cache_async_ra()",
	[KFN_FILE_READ] = "mm/filemap.c:filemap_get_pages()",
	[KFN_LRU_ADD] = "mm/swap.c:lru_add()",
	[KFN_LRU_ADD_DRAIN] = "mm/swap.c:lru_add_drain()",
	[KFN_MLOCK_FOLIO] = "mm/mlock.c:mlock_folio()",
	[KFN_MLOCK_NEW_FOLIO] = "mm/mlock.c:mlock_new_folio()",
	[KFN_MUNLOCK_FOLIO] = "mm/mlock.c:munlock_folio()",
	[KFN_MLOCK_DRAIN] = "mm/mlock.c:mlock_drain_local()",
	[KFN_MLOCK_PAGE_4X] = "mm/mlock.c:mlock_vma_page()",
	[KFN_MUNLOCK_PAGE_4X] = "mm/mlock.c:munlock_vma_page()",
	[KFN_ACTIVATE] = "mm/swap.c:folio_activate()",
	[KFN_DEACTIVATE] = "mm/swap.c:deactivate_file_folio()",
	[KFN_SHRINK_LIST] = "mm/vmscan.c:shrink_folio_list()",
	[KFN_SHRINK_INACTIVE] = "mm/vmscan.c:shrink_inactive_list()",
	[KFN_SHRINK_ACTIVE] = "mm/vmscan.c:shrink_active_list()",
	[KFN_PUTBACK] = "mm/vmscan.c:folio_putback_lru()",
	[KFN_OOM_KILL] = "mm/oom_kill.c:oom_kill_process()",
	[KFN_MADV_PAGEOUT] = "mm/madvise.c:madvise_cold_or_pageout_pte_range()",
	[KFN_TRUNCATE] = "mm/truncate.c:truncate_inode_pages_range()",
	[KFN_POPULATE] = "mm/gup.c:__mm_populate()",
	[KFN_LRU_LINK] = "include/linux/mm_inline.h:lruvec_add_folio()",
	[KFN_LRU_UNLINK] = "include/linux/mm_inline.h:lruvec_del_folio()",
	[KFN_FOLIO_ADD_LRU] = "mm/swap.c:folio_add_lru()",
	[KFN_BATCH_MOVE] = "mm/swap.c:folio_batch_move_lru()",
	[KFN_TASK_NUMA_WORK] = "kernel/sched/fair.c:task_numa_work()",
	[KFN_DO_NUMA_PAGE] = "mm/memory.c:do_numa_page()",
	[KFN_SHOULD_NUMA_MIGRATE] = "kernel/sched/fair.c:should_numa_migrate_memory()",
	[KFN_MIGRATE_MISPLACED] = "mm/migrate.c:migrate_misplaced_folio()",
	[KFN_UPDATE_SCAN_PERIOD] = "kernel/sched/fair.c:update_task_scan_period()",
	[KFN_WORKINGSET_REFAULT] = "mm/workingset.c:workingset_refault()",
	[KFN_USER_SHM_LOCK] = "mm/mlock.c:user_shm_lock()",
	[KFN_MOVE_UNEVICTABLE] = "mm/vmscan.c:check_move_unevictable_folios()",
	[KFN_IO_ACCOUNT_MEM] = "io_uring/rsrc.c:__io_account_mem()",
	[KFN_HUGETLB_FAULT] = "mm/hugetlb.c:hugetlb_fault()",
	[KFN_DO_HUGE_ANON] = "mm/huge_memory.c:do_huge_pmd_anonymous_page()",
};

const char *tp_cite(const struct semantics *sem, enum kfn fn)
{
	if ((unsigned)fn >= KFN_NR)
		return "";
	for (unsigned i = 0; sem && i < 2; i++)
		for (const struct kfn_name *k = sem->kfn_names[i]; k && k->fn != KFN_NONE; k++)
			if (k->fn == fn)
				return k->cite;
	return cite_6_18[fn] ? cite_6_18[fn] : "";
}

const char *tp_fn_name(const struct semantics *sem, enum kfn fn, char *buf, unsigned n)
{
	const char *c = tp_cite(sem, fn), *colon = strchr(c, ':');
	const char *name = colon ? colon + 1 : c;
	size_t len = strcspn(name, "(");
	/* SYSCALL_DEFINE1(mlockall) is the system call mlockall */
	if (!strncmp(name, "SYSCALL_DEFINE", 14) && name[len]) {
		const char *arg = name + len + 1;
		snprintf(buf, n, "sys_%.*s", (int)strcspn(arg, ")"), arg);
	} else {
		snprintf(buf, n, "%.*s", (int)len, name);
	}
	return buf;
}

const char *tp_id_name(enum tp_id id)
{
	static const char *const names[TP_NR] = {
		[TP_VMA_NEW] = "vma_new", [TP_VMA_SPLIT] = "vma_split",
		[TP_VMA_MERGE] = "vma_merge", [TP_VMA_ADJUST] = "vma_adjust",
		[TP_VMA_UNLINK] = "vma_unlink", [TP_VMA_FLAGS] = "vma_flags",
		[TP_LOCKED_VM] = "locked_vm", [TP_LIMIT] = "limit",
		[TP_FAULT] = "fault", [TP_FAULT_AROUND] = "fault_around",
		[TP_READAHEAD] = "readahead", [TP_LRU_ADD] = "lru_add",
		[TP_LRU_DEL] = "lru_del", [TP_PAGE] = "page",
		[TP_BATCH_ADD] = "batch_add", [TP_BATCH_DRAIN] = "batch_drain",
		[TP_RECLAIM] = "reclaim", [TP_RECLAIM_SCAN] = "reclaim_scan",
		[TP_OOM_KILL] = "oom_kill", [TP_NUMA_SCAN] = "numa_scan", [TP_NUMA_HINT] = "numa_hint",
		[TP_NUMA_PERIOD] = "numa_period", [TP_REFAULT] = "refault",
	};
	return (unsigned)id < TP_NR ? names[id] : "?";
}
