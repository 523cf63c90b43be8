/*
 * semantics.h - what differs between the kernels vmsim models.
 *
 * One `struct semantics` per kernel (4.0, lof-v1, 4.4, 6.1, 6.12, 6.18), each in
 * its own file model/sem_<name>.c.  The core reads the data fields and
 * calls the hooks; it never compares version numbers.  Adding a patch's
 * semantics = one new file that copies its base and changes rows, plus one
 * line in sem_registry.c (see docs/new-semantics.md).
 *
 *
 * Owns: struct semantics: every difference between the modelled kernels,
 *   one file per kernel (sem_*.c).
 * May call: kerr, tracepoint, vmflags.
 */
#ifndef VMSIM_SEMANTICS_H
#define VMSIM_SEMANTICS_H

#include <stdbool.h>
#include <stdint.h>

#include "tracepoint.h"
#include "vmflags.h"

struct vmsys;

/* Internal advice numbers (the arch's MADV_* numbers are mapped to these
 * by name through the flag table). */
enum madv {
	MADV_X_NORMAL, MADV_X_RANDOM, MADV_X_SEQUENTIAL, MADV_X_WILLNEED,
	MADV_X_DONTNEED, MADV_X_FREE, MADV_X_REMOVE, MADV_X_DONTFORK,
	MADV_X_DOFORK, MADV_X_MERGEABLE, MADV_X_UNMERGEABLE, MADV_X_HUGEPAGE,
	MADV_X_NOHUGEPAGE, MADV_X_DONTDUMP, MADV_X_DODUMP, MADV_X_WIPEONFORK,
	MADV_X_KEEPONFORK, MADV_X_COLD, MADV_X_PAGEOUT, MADV_X_POPULATE_READ,
	MADV_X_POPULATE_WRITE, MADV_X_DONTNEED_LOCKED, MADV_X_COLLAPSE,
	MADV_X_HWPOISON, MADV_X_SOFT_OFFLINE, MADV_X_GUARD_INSTALL,
	MADV_X_GUARD_REMOVE,
	MADV_X_NR
};

/* One VmFlags mnemonic: the internal bit and what this kernel prints for
 * it; mnemonic "??" = a set bit the kernel has no name for. */
struct vmflag_name {
	vm_flags_t bit;
	const char *mnemonic;
	uint64_t kernel_value; /* the bit's value in this kernel's mm.h */
};

/* Refault detection (model/workingset.c): how reclaim's shadows of
 * evicted pages are stamped and judged (mm/workingset.c). */
struct workingset_rules {
	/* workingset_eviction() @ v6.1 reads the age, then ages it by the
	 * evicted page, so a page read back at once is at distance 1; 4.x
	 * stamps atomic_long_inc_return(&zone->inactive_age): distance 0,
	 * which even an empty active list admits (5.9, "mm: workingset: age
	 * nonresident information alongside anonymous pages") */
	bool stamp_before_tick;
	/* 6.1: an anonymous page written to swap leaves a shadow in the swap
	 * cache (__remove_mapping() -> __delete_from_swap_cache()), judged at
	 * swap-in (__read_swap_cache_async()); 4.x: file pages only */
	bool anon_shadows;
	/* workingset_refault() @ v6.1: the workingset is the active file
	 * list, plus the inactive file list for an anon refault, plus the
	 * active anon list (and for a file refault the inactive anon one)
	 * while there is free swap; 4.x: the zone's active file list */
	bool size_counts_anon;
	/* 6.1: the age also ticks for every active page move_folios_to_lru()
	 * puts back, and folio_mark_accessed() ages for an anon page too;
	 * 4.x mark_page_accessed() ages only for a file page and no putback does */
	bool putback_ages;
	bool anon_activation_ages;
	/* 4.20+ (workingset_refault() @ v6.1): a refaulting page that was
	 * PG_workingset when evicted is PG_workingset again, counted in
	 * workingset_restore_* and charged to its type's reclaim cost
	 * (lru_note_cost_folio()) */
	bool restore;
	/* filemap_add_folio() @ v6.1: no refault for a page added to be
	 * written (__GFP_WRITE); add_to_page_cache_lru() @ v4.4 judges all */
	bool write_skips_refault;
};

/* Automatic NUMA balancing (seed 003; model/numa.c): what task_numa_work()
 * marks, what a hinting fault (do_numa_page()) restores and what
 * migrate_misplaced_page() refuses. */
struct numa_rules {
	/* "mm: numa: preserve PTE write permissions across a NUMA hinting
	 * fault" (v4.0-rc5): change_pte_range() keeps the write bit of a PTE
	 * it makes PROT_NONE and do_numa_page() restores it; without it, a
	 * write after the hinting fault of a private page takes a second
	 * (write-protect) fault */
	bool preserve_write;
	/* task_numa_work() @ v4.0 sums nr_pte_updates: once one range of the
	 * pass updated a PTE, every later range counts against the 256 MB
	 * budget; 4.4+ count only the ranges that updated one */
	bool scan_budget_after_first_update;
	/* 4.4+: a pass also stops after 8 x the budget of virtual space */
	bool scan_virt_limit;
	/* change_pte_range() @ v6.1 skips a page of a COW mapping with
	 * page_count != 1 (so also one held by a per-CPU batch); by 6.15
	 * (prot_numa_skip(), as the context of Dev Jain's 2025-04-28
	 * refactoring shows it) one that folio_maybe_mapped_shared() or
	 * DMA-pinned */
	enum { NUMA_COW_ALL, NUMA_COW_SKIP_REFCOUNT, NUMA_COW_SKIP_MAPPED_SHARED } cow_skip;
	/* 6.1: also a dirty file page, and - in a private VMA of a
	 * single-threaded process - a page already on the task's node */
	bool skip_dirty_file, skip_on_task_node;
	/* should_numa_migrate_memory() @ v6.1: while the task has no preferred
	 * node, or in its first 4 scan sequences, a page last faulted by this
	 * task (or by none) migrates at its first hinting fault */
	bool early_migrate;
	/* do_numa_page() @ v6.1: a large folio is only made present again
	 * (no hinting fault counted) */
	bool large_folio_no_hint;
	/* migrate_misplaced_page() @ v6.1 refuses a dirty file page */
	bool no_migrate_dirty_file;
	/* numamigrate_update_ratelimit() @ v4.0/v4.4: at most this many pages
	 * (128 MB) migrate to one node per 100 ms window; 0 = no limit (6.x) */
	uint32_t migrate_ratelimit_pages;
	/* remove_migration_pte() @ v4.4 mlocks the new page in a VM_LOCKED
	 * VMA ("mm: page migration fix PageMlocked on migrated pages"); 4.0
	 * loses PG_mlocked: page_remove_rmap() cleared it before
	 * mlock_migrate_page() could move it, so the new page is evictable */
	bool migrate_relocks_4x;
	/* 6.0+ migration entries keep the PTE's young and dirty bits
	 * (remove_migration_pte() @ v6.1); 4.x maps the new page old and clean */
	bool migrate_keeps_pte_ad;
	/* migrate_pages() @ v6.1 counts a page that is still busy after its
	 * retries (-EAGAIN) in pgmigrate_fail; 4.x counts only hard failures */
	bool migrate_fail_counts_busy;
	/* update_task_scan_period(): how the faults since the last placement
	 * move the scan period.  4.x: by the local share alone, slower at 70%
	 * local, faster below (scaled by the private share).  6.1 (since
	 * "sched/numa: Slow down scan rate if shared faults dominate", v4.15):
	 * slower when 70% of the faults are private or 70% local, else faster
	 * by the larger share.  Both double the period after any failed
	 * migration, or without local and shared faults */
	enum { NUMA_PERIOD_BY_LOCALITY, NUMA_PERIOD_PRIVATE_OR_LOCAL } scan_period_rule;
	/* task_numa_fault() @ v6.1 runs task_numa_placement() only once the
	 * numa_migrate_retry jiffy has passed (numa_migrate_preferred() sets
	 * it a sixteenth of the scan period ahead); 4.x at every fault */
	bool placement_after_retry;
	/* init_numa_balancing() @ v6.1 starts a CLONE_VM child's node_stamp
	 * at min(task_scan_max(), period x users x NSEC_PER_MSEC) + 2 ticks
	 * (the first term in ms, the second in ns, as the code has it); 4.x
	 * at 0 */
	bool stagger_clone_vm;
	/* task_numa_free(p, false) @ v6.1 at exec zeroes the fault buffers
	 * and keeps numa_faults_locality[] (the failed-migration count with
	 * it); 4.x frees them, and the next hinting fault starts the
	 * locality counts from zero */
	bool exec_keeps_locality;
};

/* The outcome of mlockall()'s flag rules (hook mlockall_rules). */
struct mlockall_plan {
	int err;               /* negative errno, or 0 */
	vm_flags_t def_set;    /* def_flags after clearing the lock mask */
	bool walk_vmas;        /* apply vma_set to every VMA */
	vm_flags_t vma_set;    /* lock bits every VMA gets (0 = unlock) */
	bool populate;         /* mm_populate(0, TASK_SIZE) afterwards */
};

struct mlockall_flags { /* the arch's MCL_* values for this kernel (0 = absent) */
	uint64_t current, future, onfault;
};

enum page_lock_model {
	/* 6.x: PG_mlocked + mlock_count, per-CPU mlock batch, rmap hooks
	 * (mm/mlock.c @ v6.1, Hugh Dickins' 5.18 rework) */
	PLM_MLOCK_COUNT,
	/* 4.x: PG_mlocked only; munlock asks rmap whether another VM_LOCKED
	 * VMA maps the page (try_to_munlock, mm/rmap.c @ v4.4) */
	PLM_RMAP_WALK,
};

struct semantics {
	const char *name;        /* "6.18" */
	const char *flag_kernel; /* which flag tables (flagtab kernel name) */
	const char *description;
	unsigned order;          /* release order, for "newest not newer than" */

	/* --- lock bits --- */
	vm_flags_t lock_mask;        /* bits mlock/munlock replace (apply_vma_lock_flags) */
	vm_flags_t onfault_bit;      /* the lock-on-fault VMA bit (0 = none) */
	vm_flags_t charge_mask;      /* VMA bits that are charged to locked_vm by mmap/munmap/
				      * mremap/stack growth, and that their limit checks test */
	vm_flags_t future_check_mask;/* bits that make mlock_future_check() test the limit */
	vm_flags_t unlock_clear;     /* bits the munlock page path clears on the VMA */
	vm_flags_t fork_clear;       /* bits dup_mmap() clears on the child's VMAs */
	vm_flags_t madvise_locked;   /* VMA bits that make DONTNEED/FREE/... refuse (EINVAL) */
	vm_flags_t smaps_locked_mask;/* VMA bits that make smaps count Locked: */
	vm_flags_t fault_mlock_mask; /* VMA bits that put a new anon page straight on the
				      * unevictable list, mlocked (4.x mm/swap.c:
				      * lru_cache_add_active_or_unevictable(); 6.x
				      * folio_add_lru_vma()); VM_SPECIAL VMAs never */
	bool smaps_locked_per_page;  /* 6.x pss_locked per page; 4.x Pss of the VMA */

	/* --- mlock/mlock2 --- */
	bool has_mlock2;
	bool mlock_overlap_correction; /* count_mm_mlocked_page_nr() on limit miss (4.15+) */
	bool relock_charges_again;     /* 4.x mlock_fixup() charges +nr whenever the new flags
					* have VM_LOCKED, even if the VMA was locked already
					* (4.4: LOCKED<->LOCKED|ONFAULT; lof-v1: LOCKED|LOCKONFAULT
					* -> LOCKED) */
	bool fixup_writes_newflags_on_unlock; /* false = 4.0/lof-v1: unlock clears VM_LOCKED only */
	/* mm/rmap.c:try_to_unmap_one() @ v4.0: munlock's rmap walk
	 * (try_to_munlock()) re-mlocks a page for another VM_LOCKED VMA only
	 * after down_read_trylock() of that VMA's mmap_sem, which fails for
	 * the mm the munlocking call holds for write - a page also mapped by a
	 * locked VMA of the same process is munlocked; 4.4 ("mm: rmap use pte
	 * lock not mmap_sem to set PageMlocked") re-mlocks it */
	bool munlock_rmap_trylocks_mmap;

	/* --- mlockall --- */
	void (*mlockall_rules)(const struct semantics *s, uint64_t flags,
			       const struct mlockall_flags *mcl,
			       struct mlockall_plan *plan);

	/* --- mmap / populate --- */
	bool has_fixed_noreplace;
	bool has_shared_validate;
	bool has_droppable;
	/* memfd_secret(2) (mm/secretmem.c, 5.14+) answers: 6.18 (on by default
	 * since 6.5); 6.1 has it off by default (secretmem.enable=0: ENOSYS),
	 * 4.x has no such call */
	bool has_memfd_secret;
	/* mm/secretmem.c:secretmem_mmap_prepare() @ v6.18 makes a memfd_secret
	 * mapping VM_LOCKED (charged, against RLIMIT_MEMLOCK: EAGAIN past it,
	 * as 5.14 did); secretmem_mmap() @ v6.1, v6.12 sets VM_DONTDUMP only:
	 * no lock, no charge, no limit (its pages are unevictable all the same,
	 * the mapping is; recorded in Debian's 6.12 guest) */
	bool secretmem_mmap_locks;
	/* fs/hugetlbfs/inode.c:hugetlb_file_setup() @ v4.0, v4.4: SHM_HUGETLB
	 * without CAP_IPC_LOCK is charged to the user's locked_shm against
	 * RLIMIT_MEMLOCK until the segment goes (EPERM past it); 5.16+ refuses
	 * it with EPERM outright */
	bool shm_hugetlb_memlock;
	/* mm/memory.c:copy_page_range() @ v4.0, v4.4: fork copies every
	 * hugetlb VMA's page tables; 6.0+ (vma_needs_copy()) only those with
	 * an anon_vma (a private mapping that faulted), a shared one's child
	 * faults its pages in */
	bool fork_copies_hugetlb;
	/* mm/huge_memory.c:do_huge_pmd_wp_page() @ v4.0, v4.4: a write to the
	 * huge zero page allocates a THP (`alloc:`), and again @ v6.18
	 * (do_huge_zero_wp_pmd()); 6.1 splits the PMD and copies one small
	 * page (`fallback:`) */
	bool thp_zero_cow_huge;
	/* io_uring (io_uring/, 5.1+): the IORING_SETUP_* flags
	 * io_uring_setup() takes, 0 where the kernel has no io_uring (4.x:
	 * ENOSYS for the three calls) */
	uint32_t io_uring_setup_flags;
	/* io_uring/memmap.c:io_create_region() (6.13+): the ring and SQE pages
	 * are charged to the user's locked_vm, as registered buffers are;
	 * 6.1 allocates them without a charge (io_pages_map()) */
	bool io_uring_rings_charged;
	/* io_uring/rsrc.c:io_pin_pages() @ v6.1: a buffer in a file mapping
	 * other than shmem is EOPNOTSUPP, one across two files EINVAL; 6.5+
	 * leaves file mappings to GUP's FOLL_LONGTERM rules (a shared mapping
	 * that needs dirty tracking is EFAULT) */
	bool io_uring_pin_rejects_files;
	/* fs/anon_inodes.c (SB_I_NOEXEC by 6.18, not in 6.1): an io_uring ring's mmap
	 * loses VM_MAYEXEC and PROT_EXEC is EPERM (do_mmap()'s path_noexec());
	 * 6.1's anon_inodefs is not noexec, so the ring keeps VM_MAYEXEC */
	bool anon_inode_noexec;
	bool lockonfault_populates;  /* 4.4: populate mlocks present pages of ONFAULT VMAs */
	bool onfault_skips_populate; /* populate returns at once for LOCKONFAULT VMAs (6.x) */
	bool mmap_lockonfault_flag;  /* lof-v1 MAP_LOCKONFAULT exists */
	bool mprotect_populates_locked; /* mprotect adding write to a locked VMA faults it in */
	bool mprotect_writable_excl_anon; /* mprotect adding write makes the PTEs of exclusive
				   * anonymous pages writable (MM_CP_TRY_CHANGE_WRITABLE,
				   * can_change_pte_writable(), 5.19+); before, a private
				   * mapping's PTEs stay read-only (PAGE_COPY) and the
				   * next write to each page faults */
	/* mm/mprotect.c:mprotect_fixup() @ v6.18: an anonymous VMA never
	 * faulted (no anon_vma) gives VM_ACCOUNT back when it stops being
	 * writable; @ v4.0, v4.4, v6.1 the commit charged once stays, and so
	 * does VM_ACCOUNT */
	bool mprotect_unaccounts_unfaulted;

	/* --- mremap --- */
	bool has_dontunmap;
	bool dontunmap_charges_new;  /* 6.18: locked_vm += new_len on the DONTUNMAP path */
	bool dontunmap_keeps_source; /* 6.1.192 copy_vma(keep_source): a DONTUNMAP copy of
				      * an unfaulted anon VMA never merges with its source */
	bool dontunmap_splits_first; /* 6.1.y: split so only the moved range is unlocked;
				      * 6.18 unlocks the whole source VMA */
	bool dontunmap_resets_pgoff; /* 6.1.192 move_vma(): a whole anonymous source whose
				      * anon_vma links go takes the pgoff of its address
				      * (unfaulted again); 6.18 keeps it */
	bool mremap_checks_first;    /* 6.18 (vma_remap_struct rewrite): every source
				      * check before the MREMAP_FIXED target is unmapped */
	bool mremap_multi_vma;       /* 6.17+: a pure move (new address, same length)
				      * may span several VMAs, keeping the gaps */

	/* --- madvise --- */
	uint32_t madv_refuses_locked; /* bitmask over enum madv: EINVAL on madvise_locked VMAs */
	/* mm/madvise.c @ v6.1: MADV_POPULATE_READ/WRITE go through
	 * madvise_walk_vmas() like the other advice, one VMA at a time: a hole
	 * sets ENOMEM for the end and the walk goes on, so a later VMA's
	 * EINVAL (check_vma_flags()) is the result; 6.11+ (madvise_populate()
	 * @ v6.18) walk the range themselves and stop at the hole with ENOMEM */
	bool populate_in_vma_walk;

	/* --- page level --- */
	enum page_lock_model page_model;
	/* fs/proc/page.c:stable_page_flags() @ v6.18 reports the folio's
	 * flags for each of its pages; @ v4.0, v4.4, v6.1 it copies the
	 * page's own page->flags, and the LRU, active, referenced,
	 * unevictable, mlocked, dirty, uptodate, writeback and swapbacked
	 * bits live on the head (PF_HEAD, PF_NO_TAIL @ v6.1): a THP's tail
	 * pages show none of them in /proc/kpageflags */
	bool kpageflags_folio_flags;
	/* A THP mapped by PTEs (its PMD split) stays one folio on 6.x: the
	 * split of its PMD in a VM_LOCKED VMA munlocks all of it
	 * (__split_huge_pmd_locked() -> munlock_vma_page(compound) @ v6.1,
	 * folio_remove_rmap_pmd() -> munlock_vma_folio() @ v6.18), and then
	 * THP_PTE_SKIP (6.1): mlock_pte_range() passes over PTE-mapped THP
	 * pages and unmapping one munlocks nothing (PageTransCompound());
	 * THP_PTE_FOLIO (6.18): unmapping any page from a VM_LOCKED VMA
	 * munlocks the folio, munlock() takes it whole, mlock() only a folio
	 * wholly inside the range and mapped there whole
	 * (allow_mlock_munlock()); THP_PTE_SMALL (4.x): split_huge_page()
	 * leaves small pages that keep PG_mlocked, each its own */
	enum { THP_PTE_SMALL, THP_PTE_SKIP, THP_PTE_FOLIO } thp_pte_mlock;
	/* Writes to disk files create large page-cache folios (ext4 since
	 * 6.16): mapping one does not mlock it, mlock takes it only when the
	 * whole folio is mapped inside the range, unmapping any part munlocks
	 * it (mm/mlock.c:allow_mlock_munlock(), mm/rmap.c @ v6.18). */
	bool pagecache_large_folios;
	/* mm/readahead.c:page_cache_ra_order() @ v6.1: a mapping without
	 * large folios (every disk file on 6.1) falls back to
	 * do_page_cache_ra(), which trims the window to the page of EOF
	 * before page_cache_ra_unbounded() marks the page nr - lookahead of
	 * the trimmed count: near EOF the PG_readahead mark moves down, or is
	 * not set when the trimmed window is shorter than its async part.
	 * __do_page_cache_readahead() @ v4.0, v4.4 stops at EOF with the
	 * mark where the whole window puts it; 6.18's large-folio path marks
	 * start + size - async too (ra_alloc_folio()) */
	bool ra_window_trimmed_at_eof;
	/* mm/filemap.c:do_sync_mmap_readahead() @ v6.16+: a fault in a VM_EXEC
	 * mapping reads forward from the fault, within the VMA */
	bool exec_readahead_forward;
	/* include/linux/mman.h:calc_vm_flag_bits() @ v6.7+: MAP_STACK sets
	 * VM_NOHUGEPAGE (with THP configured) */
	bool map_stack_nohugepage;
	/* ext4 6.13+ (c7fc0366c656): growing a file past an unaligned EOF
	 * leaves the EOF page cached but not uptodate when it was not cached */
	bool eof_block_not_uptodate;
	/* mm/fadvise.c:generic_fadvise() @ v4.19+ (3a77d214807c): a file of a
	 * super block without a backing device (noop_backing_dev_info: ramfs)
	 * ignores the advice; fadvise64_64() @ v4.0, v4.4 invalidates the clean,
	 * unmapped pages of a ramfs file on POSIX_FADV_DONTNEED like any other */
	bool fadvise_skips_noop_bdi;
	/* munmap drains the per-CPU batches (unmap_region() and
	 * free_pages_and_swap_cache() start with lru_add_drain() in 6.1 and
	 * older): the munlocks a zap queued are applied when it returns.
	 * 6.18 leaves them queued. */
	bool zap_drains_lru;
	/* mm/madvise.c:madvise_cold_or_pageout_pte_range() @ v6.18 (and
	 * v6.1): MADV_PAGEOUT isolates an unevictable (mlocked) folio of a
	 * VMA without VM_LOCKED and puts it straight back
	 * (folio_putback_lru() -> folio_add_lru()); lru_add() then sets its
	 * mlock_count to 0, so one munlock fewer clears PG_mlocked (confirmed on
	 * 6.18.44, docs/fidelity.md).  4.x has no MADV_PAGEOUT. */
	bool pageout_putback_unevictable;
	/* mm/mlock.c:mlock_folio(), mlock_new_folio(), munlock_folio() and
	 * mm/swap.c:__folio_batch_add_and_move() @ v6.18 (and v6.1.y): a large
	 * folio is never left in a per-CPU batch (!folio_may_be_lru_cached()):
	 * queuing one moves the whole batch at once, so a zap's queued munlock
	 * of it cannot undo a later mlock (confirmed on
	 * 6.18.44, docs/fidelity.md).  The model has large folios on 6.18 only. */
	bool large_folio_moves_batch;
	/* mm/memory.c:zap_pte_range()/zap_present_ptes() and
	 * mm/mlock.c:mlock_pte_range()/folio_mlock_step() @ v6.18: the PTEs of
	 * a large folio are handled in batches that never cross a page table
	 * (2 MiB): zapping a folio mapped across that line in a VM_LOCKED VMA
	 * calls folio_remove_rmap_ptes() -> munlock_vma_folio() once per page
	 * table, so it loses two mlock_counts; mlock() of it is refused (a
	 * partial step) and munlock() munlocks it once per page table (confirmed on
	 * 6.18.44, docs/fidelity.md).  No large page-cache
	 * folios before 6.18 in the model; 6.1 has no PTE batching. */
	bool large_folio_batch_per_pmd;
	/* mm/filemap.c:page_cache_next_miss() @ v6.18 (the same xas_next()
	 * walk in v6.1): started on a tail page of a large folio, xas_load()
	 * leaves xa_offset on the folio's head slot while xa_index moves on,
	 * so the gap it reports is (index - head) pages past the real one,
	 * until the walk leaves the 64-slot node.  page_cache_async_ra()
	 * restarting after a fault on a marked folio reads from there (confirmed on
	 * 6.18.44, docs/fidelity.md).  Only matters with large
	 * page-cache folios (6.18 in the model). */
	bool next_miss_tail_lag;
	/* mm/memory.c:finish_fault() @ v6.18 (needs_fallback, since v6.14):
	 * it maps a whole large folio only when every PTE of the folio's
	 * range is none; when one is set (a page of the folio already
	 * mapped) it maps the faulting page alone.  Fault-around
	 * (filemap_map_folio_range()) still fills the none PTEs of a folio
	 * (confirmed on 6.18.44, docs/fidelity.md).  Only matters
	 * with large page-cache folios (6.18 in the model). */
	bool finish_fault_none_range;
	/* mm/truncate.c:truncate_inode_partial_folio() @ v6.18: the part of a
	 * large folio inside the hole is invalidated first (folio_invalidate()
	 * -> ext4's block_invalidate_folio() discards those blocks' dirty
	 * buffers), then the folio is split; the split fails
	 * (filemap_release_folio()) only while a block outside every hole
	 * punched so far still has a dirty buffer.  So a dirty folio punched
	 * on both sides, in two calls, splits on the second (confirmed on
	 * 6.18.44, docs/fidelity.md).  Large page-cache folios: 6.18. */
	bool partial_punch_cleans_blocks;
	/* include/linux/mm.h:folio_maybe_mapped_shared() @ v6.18 with
	 * CONFIG_MM_ID (6.15+, set on this machine): a large folio counts as
	 * shared only when mapped from more than one mm, not when two VMAs of
	 * one mm map it; so MADV_COLD/PAGEOUT
	 * (madvise_cold_or_pageout_pte_range()) splits such a folio - and a
	 * clean split file folio is left unmapped (confirmed on
	 * 6.18.44, docs/fidelity.md).  Large page-cache folios: 6.18 only. */
	bool folio_shared_by_mm;
	/* mm/vma.c:vma_merge_extend() @ v6.18: an mremap that grows a VMA in
	 * place merges it with the next VMA without a middle VMA, so the
	 * grown VMA's own fork history does not refuse the merge (fresh
	 * recording g3-8245, docs/fidelity.md) */
	bool extend_merge_no_middle;
	/* mm/mremap.c:SYSCALL_DEFINE5(mremap) @ v6.1 grows a VMA in place with
	 * vma_merge() of the extension, which may absorb the next VMA (6.18:
	 * vma_merge_extend()); @ v4.0, v4.4 with vma_adjust(), which never
	 * merges */
	bool mremap_expand_merges;
	/* vma_to_resize() @ v6.1 refuses to "duplicate" a private mapping
	 * (old_len 0) with EINVAL (4.17, "mm/mremap: fail map duplication
	 * attempts for private mappings"); 4.x makes a new VMA of new_len
	 * with the old one's flags, and move_vma()'s do_munmap() of 0 bytes
	 * fails, so the old VMA loses VM_ACCOUNT (mm/mremap.c @ v4.4) */
	bool mremap_refuses_private_dup;
	/* mm/mremap.c:vma_to_resize() @ v4.0 has no early return for an
	 * unchanged length: its VM_LOCKED test (locked_vm plus the growth
	 * against RLIMIT_MEMLOCK, without CAP_IPC_LOCK) runs for every call
	 * that reaches it, so mremap_to() moving a locked VMA of a process
	 * already over its limit (a lowered limit, a dropped capability) is
	 * EAGAIN even at the same size (confirmed on the live 4.0 and lof-v1
	 * kernels, issue 56); 4.4 returns at new_len == old_len first, and 6.x
	 * tests only growth */
	bool mremap_same_size_checks_lock;
	/* The map_count headroom mremap asks before a move (mm/mremap.c):
	 * move_vma() refuses with ENOMEM unless map_count + mremap_move_room
	 * <= sysctl_max_map_count, and mremap_to() (MREMAP_FIXED or
	 * DONTUNMAP, Oscar Salvador's 2019 early check) unless map_count +
	 * mremap_to_room <= it.  0 = the historic checks of every release
	 * (map_count >= max - 3, map_count + 2 >= max - 3: rooms 4 and 6);
	 * Lorenzo Stoakes' "mm/mremap: correct invalid map count check"
	 * (2026) asks 2 and 4 */
	uint8_t mremap_move_room, mremap_to_room;
	/* do_mmap() and do_brk_flags() refuse a new VMA when map_count >
	 * sysctl_max_map_count in every release (so max + 1 is reachable:
	 * docs/findings.md #2); Kalesh Singh's "VMA count limit" v3 patch 1
	 * (2025) makes it >= (true) */
	bool new_vma_refused_at_max;
	/* mm/mmap.c:is_mergeable_anon_vma() @ v4.0, v4.4, v6.1: when one side
	 * of a merge has no anon_vma, the existing neighbour must have exactly
	 * one anon_vma_chain entry (list_is_singular()) - an unfaulted
	 * neighbour has none, so a faulted range never merges into it.  6.16+
	 * (mm/vma.c:is_mergeable_anon_vma() @ v6.18, vma_had_uncowed_parents())
	 * lets it, the neighbour taking the range's anon_vma */
	bool anon_merge_needs_singular_chain;
	/* mm/mmap.c:is_mergeable_vma() @ v4.0, v4.4, v6.1: a VMA whose
	 * vm_ops has a close() (SysV shm's shm_close()) never merges with
	 * anything.  6.12+ (mm/vma.c:can_merge_remove_vma() @ v6.12) merge
	 * into it or shrink it, but never remove it: a change of a whole such
	 * VMA keeps it, a change at one end of it moves the boundary */
	bool close_never_merges;
	/* mm/mmap.c:__mmap_region() @ v6.1 (the maple-tree rewrite): a new
	 * mapping tries to expand next first, then tests prev against next's
	 * anon_vma (can_vma_merge_after(prev, ..., next->anon_vma)), so a
	 * faulted next keeps prev out unless both share one anon_vma, and the
	 * new range joins next.  vma_merge() @ v4.0, v4.4 and
	 * vma_merge_new_range() @ v6.18 try prev first and join next to it
	 * only when the two anon_vmas agree */
	bool mmap_expands_next_first;
	unsigned lru_batch;          /* per-CPU lru_add batch size (PAGEVEC_SIZE/FOLIO_BATCH_SIZE) */
	/* __pagevec_lru_add_fn() @ v4.0, v4.4 puts a page on the list its own
	 * flags name (page_lru()) without asking whether it is evictable: a
	 * page of a mapping SHM_LOCK made unevictable, or one mlocked while in
	 * the batch, reaches an evictable list and waits for reclaim to cull
	 * it.  4.16 ("mm, mlock, vmscan: no more skipping pagevecs") made the
	 * drain test it, as lru_add_fn() @ v6.1 does */
	bool lru_add_keeps_list;
	/* Before 4.12 a stack's guard is its own first page, inside the VMA
	 * (mm/memory.c:check_stack_guard_page() @ v4.4): an anonymous fault
	 * there first grows the stack a page, populate skips it
	 * (faultin_page(): stack_guard_page_start()), the RLIMIT_STACK test
	 * leaves it out (acct_stack_growth()), and nothing keeps a gap below
	 * the stack.  4.12 ("mm: larger stack guard gap, between vmas")
	 * moved it out: stack_guard_gap below the VMA, kept by
	 * expand_downwards() and unmapped_area_topdown() */
	bool stack_guard_page;
	unsigned mlock_batch;
	bool new_anon_active;        /* 4.x: new anon pages start on the active list */
	bool has_zero_page;          /* upstream maps the zero page on anon read faults */
	/* Fault accounting (seed 004).  A fault retries (VM_FAULT_RETRY, then
	 * a second run with FAULT_FLAG_TRIED) when it must wait for a read:
	 * read-around or a single-page read in filemap_fault() and a swap-in
	 * in do_swap_page() (lock_page_or_retry() finds the page locked for
	 * I/O; the model's reads are never complete by then), and on 5.1+ also
	 * when filemap_fault() drops the mmap lock for async readahead or to
	 * read a !uptodate page (maybe_unlock_mmap_for_io()). */
	bool filemap_retries_io;      /* 5.1+: those two retry; 4.x reads in the fault */
	/* mm/memory.c:handle_mm_fault() @ v4.4 and @ v6.1 counts PGFAULT on
	 * entry, so a retried fault counts 2; 6.4+ ("do not increment pgfault
	 * stats when page fault handler retries") count in mm_account_fault()
	 * @ v6.18, after the retry test: 1. */
	bool pgfault_counts_each_run;
	/* the task's min_flt/maj_flt (getrusage): 4.x, arch/x86/mm/fault.c:
	 * __do_page_fault() counts a user fault once, at the end, major if
	 * any run returned VM_FAULT_MAJOR; GUP's faultin_page() counts every
	 * run (a retried major read: 1 major + 1 minor).  5.9+
	 * mm_account_fault() counts the completed run only, major if it
	 * returned VM_FAULT_MAJOR or was retried (FAULT_FLAG_TRIED) - which a
	 * GUP retry from populate is not (__mm_populate() starts over). */
	bool task_flt_counted_by_arch;
	/* 6.4+ try a user fault under the per-VMA lock first; on
	 * VM_FAULT_RETRY do_user_addr_fault() @ v6.18 takes the mmap_lock and
	 * runs it again, with FAULT_FLAG_TRIED only if the first run returned
	 * VM_FAULT_MAJOR: a retried async readahead stays minor.  6.1 sets
	 * FAULT_FLAG_TRIED on every retry. */
	bool fault_tried_only_after_major;
	/* readahead's mmap_miss (seed 004): a read-around miss adds one
	 * (do_sync_mmap_readahead(), at most 1,000) and past 100 there is no
	 * read-around, only the one page; a fault that finds its page takes
	 * one off (do_async_mmap_readahead()), and so does each page
	 * fault-around finds (filemap_map_pages()): 4.x only the pages it
	 * maps; 6.1 every uptodate page in the window, mapped already or not;
	 * 6.18 those that are not PG_workingset (recently refaulted pages do
	 * not count as hits, so thrashing stops read-around) */
	enum { MMAP_HIT_MAPPED, MMAP_HIT_FOUND, MMAP_HIT_FOUND_NOT_WORKINGSET } mmap_miss_hits;
	struct numa_rules numa;
	const struct workingset_rules *ws; /* one of the tables below, shared by the versions alike */
	/* get_scan_count() and shrink_list() @ v4.0/v4.4: the anon/file
	 * balance from reclaim_stat's recent_scanned/recent_rotated; SCAN_FILE
	 * whenever the inactive file list is not smaller than the active one;
	 * memcg reclaim forces a second pass of up to SWAP_CLUSTER_MAX pages
	 * when every list rounds to 0 (force_scan); an active list is aged
	 * when its inactive list is low at that moment.  6.x: the cost model
	 * (lru_note_cost()), cache_trim_mode and file_is_tiny, may_deactivate
	 * decided once per pass */
	bool reclaim_scan_v4;
	/* memcg reclaim and PGREFILL: 4.4's shrink_active_list() counts it
	 * for any reclaim, 6.1's only for global reclaim (mm/vmscan.c) */
	bool cgroup_reclaim_counts_pgrefill;
	/* shrink_folio_list() @ v6.1 activates a dirty file folio that memcg
	 * reclaim may not write (goto activate_locked); shrink_page_list()
	 * @ v4.0/v4.4 keeps it on the inactive list (keep_locked).  Both set
	 * PG_reclaim, so it goes when written back. */
	bool dirty_file_reclaim_activates;
	/* folio_referenced() @ v6.18 (since 6.3, vma_has_recency()): VMAs
	 * with VM_SEQ_READ or VM_RAND_READ are skipped by the referenced walk;
	 * before, their young bits were cleared, and counted unless
	 * VM_SEQ_READ (mm/rmap.c:page_referenced_one() @ v4.4, v6.1) */
	bool referenced_skips_no_recency;
	/* the calls of try_to_free_mem_cgroup_pages() that may free nothing
	 * before memcg reclaim gives up: memory.force_empty
	 * (mm/memcontrol.c:mem_cgroup_force_empty()) and a charge past the
	 * limit (try_charge() @ v4.4, try_charge_memcg() @ v6.1):
	 * MEM_CGROUP_RECLAIM_RETRIES 5 @ v4.0, v4.4; MAX_RECLAIM_RETRIES 16 @ v6.1 */
	uint8_t memcg_reclaim_retries;
	/* how much of what reclaim(N) still misses each try asks
	 * try_to_free_mem_cgroup_pages() for (at least SWAP_CLUSTER_MAX there):
	 * all of it (mm/memcontrol.c:memory_reclaim() @ v6.1; the 4.x
	 * kernels have no memory.reclaim, and vmsim's reclaim(N) follows 6.1
	 * there) or a quarter (mm/vmscan.c:user_proactive_reclaim() @ v6.18) */
	bool proactive_reclaim_quarter;
	/* cgroup v2's memory.max and memory.high below the usage: a write
	 * reclaims down to the new value (mm/memcontrol.c:memory_max_write(),
	 * memory_high_write() @ v6.1: try_to_free_mem_cgroup_pages() of the
	 * excess, MAX_RECLAIM_RETRIES fruitless calls, then for memory.max the
	 * memcg OOM killer; the write succeeds).  Before 4.6 (Johannes
	 * Weiner's "reclaim and OOM kill when shrinking memory.max below
	 * usage", March 2016) memory.max was mem_cgroup_resize_limit(), v1's
	 * EBUSY path (memory_max_write() @ v4.4), and memory.high was only
	 * stored (memory_high_write() @ v4.4). */
	bool memcg_v2_write_reclaims;

	/* --- views --- */
	const struct vmflag_name *vmflag_names; /* in bit order, terminated by {0,NULL} */
	/* where this kernel's file or name of a cited function differs from
	 * 6.18's (tracepoint.c): rows ended by KFN_NONE, this kernel's own
	 * first, then those it shares (sem_common.c); the first match wins */
	const struct kfn_name *kfn_names[2];
	bool has_dontneed_locked;

	/* --- test-only breakage (model/sem_test.c; false in every real
	 * semantics): each makes the core break one documented rule so that
	 * `vmsim check` can show it catches the break --- */
	bool test_reclaim_ignores_locked; /* reclaim scans the unevictable list, ignores PG_mlocked and VM_LOCKED */
	bool test_skip_cull;              /* the mlock batch never moves a page to the unevictable list */
	bool test_rescue_wrong_list;      /* munlock's rescue leaves PG_active inconsistent with the list */
	bool test_ignore_max_map_count;   /* vma_split() ignores vm.max_map_count */
	bool test_lru_add_flips_active;   /* the lru_add drain leaves PG_active wrong for the list */
};

/*
 * A patch's semantics as its base plus the rows the patch changes:
 *
 *   SEM_PATCH(sem_my_fix, sem_6_12)
 *   {
 *           s->name = "my-fix";
 *           s->order = sem_6_12.order + 1;
 *           s->some_row = true;     (one line per hunk, citing it)
 *   }
 *
 * defines `struct semantics sem_my_fix`, a copy of the base made before
 * main() (a constructor) with the body's changes; list it in
 * sem_registry.c.  Rows the body does not name keep the base's values, so
 * a later fix to the base reaches the patch too.
 */
#define SEM_PATCH(var, base)                                                  \
	extern const struct semantics base;                                   \
	struct semantics var;                                                 \
	static void var##_rows(struct semantics *s);                          \
	__attribute__((constructor)) static void var##_init(void)             \
	{                                                                     \
		var = base;                                                   \
		var##_rows(&var);                                             \
	}                                                                     \
	static void var##_rows(struct semantics *s)

/* All semantics, NULL-terminated, in release order. */
extern const struct semantics *const semantics_all[];

/* Test-only semantics (model/sem_test.c): reachable by name ("test-broken-fork")
 * through semantics_find(), never listed in semantics_all.  semantics_test_at()
 * enumerates them (NULL past the end); semantics_test_target() names the
 * invariant each one breaks. */
const struct semantics *semantics_test_find(const char *name);
const struct semantics *semantics_test_at(unsigned i);
const char *semantics_test_target(const struct semantics *s);

/* Find by name ("6.18", "lof-v1"); also accepts a kernel version such as
 * "6.18.44" or "5.10" and returns the newest model not newer than it.
 * NULL when nothing fits. */
const struct semantics *semantics_find(const char *name);

/* The citations 4.x and 6.1 share (sem_common.c). */
extern const struct kfn_name kfn_names_v4[];
extern const struct kfn_name kfn_names_v6_1[];
/* 4.0's own rows, which lof-v1 shares (sem_4_0.c) */
extern const struct kfn_name kfn_names_4_0[];
/* The refault rules (sem_common.c): 4.x's (workingset.c since 3.15,
 * file pages and the zone's inactive_age), and those of 5.9 on, read in
 * 6.1 and kept by 6.18. */
extern const struct workingset_rules workingset_rules_v4, workingset_rules_v59;
/* The shared mlockall rule sets (sem_common.c). */
void mlockall_rules_v44(const struct semantics *s, uint64_t flags,
			const struct mlockall_flags *mcl, struct mlockall_plan *plan);
void mlockall_rules_v52(const struct semantics *s, uint64_t flags,
			const struct mlockall_flags *mcl, struct mlockall_plan *plan);

#endif
