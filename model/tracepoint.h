/*
 * tracepoint.h - what the model does, reported as structured events.
 *
 * The model calls one hook (vmsys_set_tracepoint()) with a struct
 * tp_event at each step a kernel developer would name: a VMA created,
 * split, merged, shrunk or removed, a VMA's flags changed by mlock_fixup()
 * or mprotect_fixup(), locked_vm charged or discharged, a limit checked, a
 * page fault and the path it took, fault-around and readahead, a page put
 * on or taken off an LRU list, mlocked or munlocked, a per-CPU batch filled
 * or drained, a page scanned by reclaim and what reclaim did with it.
 * Each event names the kernel function it models (enum kfn); which file
 * and which name that function has in the chosen kernel is data of the
 * semantics (tp_cite(), the semantics' kfn_names rows).
 *
 * Nobody listening costs one test of a pointer at each site (TP() below);
 * the replay hot path (a touch of a present page) has no site at all.
 * The model does no I/O here: sim/teach/explain.c turns events into text.
 *
 * Owns: struct tp_event, the tracepoint ids, the kernel function ids and
 *   their default citations (tracepoint.c).
 * May call: semantics, vmflags.
 */
#ifndef VMSIM_TRACEPOINT_H
#define VMSIM_TRACEPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include "vmflags.h"

struct semantics;

enum tp_id {
	TP_VMA_NEW,       /* [start,end) flags new_flags linked; after = map_count */
	TP_VMA_SPLIT,     /* [old_start,old_end) split at addr; before/after = map_count;
			   * err != 0: refused (max_map_count or no memory) */
	TP_VMA_MERGE,     /* [old_start,old_end) absorbed: the VMA is now [start,end);
			   * before/after = map_count */
	TP_VMA_ADJUST,    /* a boundary moved: [old_start,old_end) is now [start,end) */
	TP_VMA_UNLINK,    /* [start,end) removed by munmap/exit; after = map_count */
	TP_VMA_FLAGS,     /* [start,end) old_flags -> new_flags (fn: who); kind
			   * TPV_DEF_FLAGS: mm->def_flags, no range */
	TP_LOCKED_VM,     /* locked_vm before -> after (delta pages); limit, cap */
	TP_LIMIT,         /* a limit check: delta pages asked, before = locked_vm,
			   * limit, cap; err = the refusal or 0 */
	TP_FAULT,         /* a fault at addr: kind = enum tp_fault_path, major = flag */
	TP_FAULT_AROUND,  /* [start,end) mapped around the fault at addr; delta = pages */
	TP_READAHEAD,     /* file pages [before, before+delta) read; kind: 0 sync, 1 async */
	TP_LRU_ADD,       /* pfn put on list_to */
	TP_LRU_DEL,       /* pfn taken off list_from */
	TP_PAGE,          /* pfn: kind = enum tp_page_step; after = mlock_count */
	TP_BATCH_ADD,     /* pfn queued on batch kind (enum tp_batch); after = batch size */
	TP_BATCH_DRAIN,   /* batch kind drained; delta = pages */
	TP_RECLAIM,       /* pfn scanned by shrink_folio_list(): kind = enum tp_reclaim */
	TP_RECLAIM_SCAN,  /* list_from scanned: delta = pages asked, after = reclaimed */
	TP_OOM_KILL,      /* pid killed; delta = rss pages */
	TP_NUMA_SCAN,     /* a NUMA scan pass over [start,end): delta = PTEs made
			   * PROT_NONE, before/limit = the scan sequence before and
			   * after (a pass that reached the end starts a new one),
			   * after = where the next pass starts */
	TP_NUMA_HINT,     /* a hinting fault's decision on pfn at addr: kind =
			   * enum tp_numa, before = the page's node, after = the
			   * task's, limit = the node of the last hinting fault + 1 */
	TP_NUMA_PERIOD,   /* the scan period adapted at a placement: kind = enum
			   * tp_scan_period, before/after = the period in ms, delta =
			   * the change the ratios asked for (0 when doubled, which
			   * also moves the next scan), limit = the mm's next
			   * scan (jiffies); start/end = local/remote and
			   * old_start/old_end = private/shared hinting faults */
	TP_REFAULT,       /* pfn refaulted (workingset_refault()): kind = enum
			   * tp_refault, before = 1 for a file page, 0 for anon,
			   * delta = the refault distance, after = the workingset
			   * it was judged against (pages) */
	TP_NR
};

/* The kernel functions the model cites.  tp_cite() names them in a kernel. */
enum kfn {
	KFN_NONE,
	KFN_MMAP_REGION, KFN_VMA_MERGE_NEW, KFN_SPLIT_VMA, KFN_VMA_MODIFY, KFN_DO_MUNMAP,
	KFN_EXIT_MMAP, KFN_MLOCK_FIXUP, KFN_DO_MLOCK, KFN_MLOCK_FUTURE, KFN_DO_MLOCKALL,
	KFN_APPLY_MLOCKALL, KFN_MPROTECT_FIXUP, KFN_MADVISE_UPDATE, KFN_MREMAP,
	KFN_VMA_TO_RESIZE, KFN_EXPAND_STACK, KFN_BRK, KFN_DUP_MMAP, KFN_MUNLOCK_ALL_4X,
	KFN_DO_ANON, KFN_DO_READ, KFN_DO_COW, KFN_DO_SHARED, KFN_DO_WP, KFN_DO_SWAP,
	KFN_FAULT_AROUND, KFN_SYNC_RA, KFN_ASYNC_RA, KFN_FILE_READ,
	KFN_LRU_ADD, KFN_LRU_ADD_DRAIN, KFN_MLOCK_FOLIO, KFN_MLOCK_NEW_FOLIO, KFN_MUNLOCK_FOLIO,
	KFN_MLOCK_DRAIN, KFN_MLOCK_PAGE_4X, KFN_MUNLOCK_PAGE_4X, KFN_ACTIVATE, KFN_DEACTIVATE,
	KFN_SHRINK_LIST, KFN_SHRINK_INACTIVE, KFN_SHRINK_ACTIVE, KFN_PUTBACK, KFN_OOM_KILL,
	KFN_MADV_PAGEOUT, KFN_TRUNCATE, KFN_POPULATE, KFN_LRU_LINK, KFN_LRU_UNLINK,
	KFN_FOLIO_ADD_LRU, KFN_BATCH_MOVE,
	KFN_TASK_NUMA_WORK, KFN_DO_NUMA_PAGE, KFN_SHOULD_NUMA_MIGRATE, KFN_MIGRATE_MISPLACED,
	KFN_UPDATE_SCAN_PERIOD, KFN_WORKINGSET_REFAULT,
	KFN_USER_SHM_LOCK, KFN_MOVE_UNEVICTABLE,
	KFN_IO_ACCOUNT_MEM, KFN_HUGETLB_FAULT, KFN_DO_HUGE_ANON,
	KFN_NR
};

enum tp_fault_path {
	TPF_ANON,          /* a new zeroed anonymous page */
	TPF_ZERO_PAGE,     /* a read of anonymous memory: the shared zero page */
	TPF_FILE_READ,     /* a read of a file page (page cache) */
	TPF_FILE_SHARED,   /* a write to a shared file mapping */
	TPF_COW,           /* a write to a private file page: copied */
	TPF_WP_COPY,       /* write-protect fault that copied the page */
	TPF_WP_REUSE,      /* write-protect fault that reused the page */
	TPF_SWAP_IN,       /* the page comes back from swap */
	TPF_SIGSEGV, TPF_SIGBUS,
	TPF_NUMA_HINT,     /* a PROT_NONE PTE of the NUMA scan: made present again */
	TPF_HUGETLB,       /* a huge page of the hugetlb pool (hugetlb.c) */
	TPF_THP,           /* a new transparent huge page: 512 pages at once (thp.c) */
	TPF_HUGE_ZERO,     /* a read: the huge zero page (thp.c) */
};

enum tp_numa {
	TPN_LOCAL,         /* page and task on the same node */
	TPN_MIGRATED,      /* moved to the task's node */
	TPN_FILTERED,      /* two-stage filter: the last hinting fault came from another node */
	TPN_NOT_COUNTED,   /* the zero page or a large folio: no hinting fault counted */
	TPN_FULL,          /* refused: the target node is at its high watermark */
	TPN_OFF_LRU,       /* refused: the page is in a per-CPU batch, not on a list */
	TPN_RATELIMIT,     /* refused: 128 MB already went to the node this window (4.x) */
	TPN_DIRTY_FILE,    /* refused: a dirty file page (6.1) */
	TPN_SHARED_EXEC,   /* refused: file text mapped more than once */
	TPN_BUSY,          /* refused: under writeback or held by a batch (pgmigrate_fail) */
	TPN_SWAPCACHE,     /* not moved: swap-cache pages are not migrated by the model */
};

enum tp_scan_period {
	TPS_IDLE,          /* no local and no shared faults: doubled */
	TPS_FAILED,        /* a migration failed since the last change: doubled */
	TPS_LOCAL,         /* 70% or more local: slower */
	TPS_PRIVATE,       /* 70% or more private (6.x): slower */
	TPS_FASTER,        /* neither: faster */
};

enum tp_refault {
	TPW_INACTIVE,      /* distance beyond the workingset: joins the inactive list */
	TPW_ACTIVATE,      /* within it: joins the active list */
	TPW_RESTORE,       /* within it, and PG_workingset when evicted: active, PG_workingset again */
};

enum tp_page_step {
	TPP_MLOCK,         /* PG_mlocked set (mlock_count in after) */
	TPP_MLOCK_COUNT,   /* already mlocked: mlock_count raised */
	TPP_CULL,          /* moved to the unevictable list */
	TPP_MUNLOCK,       /* PG_mlocked cleared */
	TPP_MUNLOCK_COUNT, /* mlock_count lowered, still mlocked */
	TPP_RESCUE,        /* back from the unevictable list to an evictable one */
	TPP_STRANDED,      /* munlocked while off every list */
	TPP_STILL_LOCKED,  /* 4.x: another VM_LOCKED VMA maps it (try_to_munlock) */
};

enum { TPV_RANGE, TPV_DEF_FLAGS };

enum tp_batch { TPB_LRU_ADD, TPB_MLOCK };

enum tp_reclaim {
	TPR_RECLAIMED,     /* freed (or written to swap and freed) */
	TPR_ACTIVATED,     /* referenced: back to the active list */
	TPR_KEPT,          /* referenced once: kept on the inactive list */
	TPR_MLOCKED,       /* found in a VM_LOCKED VMA: culled to unevictable */
	TPR_NO_SWAP,       /* anonymous and no swap space */
	TPR_BUSY,          /* still mapped after try_to_unmap() (a locked mapping) */
	TPR_DIRTY,         /* dirty file page: marked for reclaim, activated */
	TPR_WRITEBACK,     /* dirty file page: written back, rotated to the tail */
	TPR_DIRTY_KEPT,    /* dirty file page: marked for reclaim, kept inactive (4.x) */
};

#define TP_LIST_NONE 0xff

struct tp_event {
	enum tp_id id;
	enum kfn fn;
	int pid;
	int err;                      /* negative errno of a refused step, or 0 */
	uint8_t kind;                 /* per id, see above */
	uint8_t list_from, list_to;   /* enum lru_list, TP_LIST_NONE */
	bool major, cap;
	uint64_t start, end, old_start, old_end, addr;
	vm_flags_t old_flags, new_flags;
	int64_t delta;
	uint64_t before, after, limit;
	uint32_t pfn;
};

typedef void (*tp_fn)(void *ctx, const struct tp_event *e);

/* "mm/mlock.c:mlock_fixup()" as the kernel of sem names it */
const char *tp_cite(const struct semantics *sem, enum kfn fn);
/* the short name: "mlock_fixup" */
const char *tp_fn_name(const struct semantics *sem, enum kfn fn, char *buf, unsigned n);
const char *tp_id_name(enum tp_id id);

/* One override of tp_cite() in a semantics (rows end with KFN_NONE). */
struct kfn_name {
	enum kfn fn;
	const char *cite;
};

/* Emit an event if anybody listens: TP(s, TP_VMA_SPLIT, KFN_SPLIT_VMA,
 * .start = ..., ...).  s is a struct vmsys *. */
#if defined(__clang__)
#define TP_OVERRIDE_OFF_ _Pragma("clang diagnostic ignored \"-Winitializer-overrides\"")
#else
#define TP_OVERRIDE_OFF_ _Pragma("GCC diagnostic ignored \"-Woverride-init\"")
#endif
/* the lists default to none; a site's .list_from/.list_to overrides that */
#define TP(s, ID, FN, ...)                                                             \
	do {                                                                               \
		if (__builtin_expect((s)->tp_hook != 0, 0)) {                              \
			_Pragma("GCC diagnostic push") TP_OVERRIDE_OFF_                    \
			struct tp_event tp_e_ = { .id = (ID), .fn = (FN),                  \
						  .list_from = TP_LIST_NONE,               \
						  .list_to = TP_LIST_NONE, __VA_ARGS__ };  \
			_Pragma("GCC diagnostic pop")                                      \
			tp_emit((s), &tp_e_);                                              \
		}                                                                          \
	} while (0)

#endif
