/*
 * internal.h - the model's shared internals (like the kernel's
 * mm/internal.h): the machine, processes, address spaces, files, and the
 * functions the modules call in each other.  Not for sim/.
 *
 *
 * Owns: the machine, processes, address spaces, files and the functions the
 *   model modules call in each other.
 * May call: hitmap, kerr, lru, objpool, page, radix, semantics, tracepoint, vma, vmflags,
 *   vmstat, vmsys, workingset.
 */
#ifndef VMSIM_INTERNAL_H
#define VMSIM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "kerr.h"
#include "hitmap.h"
#include "lru.h"
#include "objpool.h"
#include "page.h"
#include "radix.h"
#include "semantics.h"
#include "tracepoint.h"
#include "vma.h"
#include "vmflags.h"
#include "vmstat.h"
#include "vmsys.h"
#include "workingset.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ULL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x) (((x) + PAGE_SIZE - 1) & PAGE_MASK)
/* the hugetlb pool's one page size, x86_64's PMD (hugetlb.c) */
#define HPAGE_SHIFT 21
#define HPAGE_SIZE (1ULL << HPAGE_SHIFT)
#define HPAGE_PAGES (HPAGE_SIZE >> PAGE_SHIFT)
#define HPAGE_MASK (~(HPAGE_SIZE - 1))
#define HPAGE_ALIGN(x) (((x) + HPAGE_SIZE - 1) & HPAGE_MASK)
#define TASK_SIZE 0x7ffffffff000ULL  /* x86-64 4-level user address space */
#define MMAP_MIN_ADDR 0x10000ULL     /* vm.mmap_min_addr default */
#define DEFAULT_MMAP_BASE 0x7ffff7fff000ULL
#define STACK_GUARD_GAP (256ULL << PAGE_SHIFT)

/* the file systems that differ for memory (mount.c) */
enum fs_kind { FS_DISK, FS_TMPFS, FS_RAMFS };
/* include/uapi/linux/sched.h, fcntl.h: what fork.c and mount.c test */
#define CLONE_FS_G 0x200u
#define CLONE_NEWNS_G 0x20000u
#define AT_FDCWD_G (-100)

/* --- page table entries ------------------------------------------------ */
/* A PTE is radix value: low byte flags, pfn (or swap slot) above. */
enum {
	PTE_PRESENT = 1u << 0,
	PTE_WRITE = 1u << 1,
	PTE_DIRTY = 1u << 2,
	PTE_YOUNG = 1u << 3,
	PTE_SWAP = 1u << 4,  /* not present: a swap entry */
	PTE_EXCL = 1u << 5,  /* anon page exclusive to this mm (PageAnonExclusive) */
	PTE_NUMA = 1u << 6,  /* with PTE_PRESENT: PROT_NONE for a NUMA hinting
			      * fault (pte_protnone()); PTE_WRITE is what the
			      * scan preserved (numa.c) */
	PTE_NOACCESS = 1u << 7, /* with PTE_PRESENT: the VMA is PROT_NONE
				 * (vm_page_prot PAGE_NONE: pte_present() but no
				 * access for the CPU); set exactly on the present
				 * PTEs of VMAs without VM_ACCESS_FLAGS (invariant
				 * pte-vma) */
};
#define PTE_SHIFT 8
static inline uint64_t mk_pte(uint64_t pfn, unsigned flags) { return (pfn << PTE_SHIFT) | flags; }
/* the hardware's test: present, not PROT_NONE (for NUMA or by the VMA's
 * protection), writable if a write */
static inline bool pte_permits(uint64_t pte, bool write)
{
	return (pte & (PTE_PRESENT | PTE_NUMA | PTE_NOACCESS)) == PTE_PRESENT &&
	       (!write || (pte & PTE_WRITE));
}
static inline pfn_t pte_pfn(uint64_t pte) { return (pfn_t)(pte >> PTE_SHIFT); }
/* a present PTE (not a swap entry) that maps a page of its own, not the
 * shared zero page: what smaps counts in Rss (smaps_pte_entry()) */
static inline bool pte_maps_own_page(uint64_t pte)
{
	return (pte & (PTE_PRESENT | PTE_SWAP)) == PTE_PRESENT && pte_pfn(pte) != PFN_ZERO;
}

/* --- arch flag values, resolved from the flag tables by name ----------- */
struct arch_flags {
	uint64_t map_type, map_shared, map_private, map_shared_validate, map_droppable;
	uint64_t map_fixed, map_anonymous, map_growsdown, map_denywrite, map_executable;
	uint64_t map_locked, map_noreserve, map_populate, map_nonblock, map_stack;
	uint64_t map_hugetlb, map_sync, map_fixed_noreplace, map_uninitialized;
	uint64_t map_lockonfault, map_32bit, map_above4g;
	uint64_t legacy_map_mask; /* flags MAP_SHARED_VALIDATE accepts */
	uint64_t prot_read, prot_write, prot_exec, prot_sem, prot_growsdown, prot_growsup;
	uint64_t prot_arch; /* arch extras (PROT_SAO, PROT_BTI, ...) */
	struct mlockall_flags mcl;
	uint64_t mlock_onfault;
	uint64_t mremap_maymove, mremap_fixed, mremap_dontunmap;
	uint64_t ms_async, ms_sync, ms_invalidate;
	int64_t madv[MADV_X_NR]; /* arch number per internal advice, -1 if absent */
};

/* --- files --------------------------------------------------------------- */
struct file {
	uint32_t id;
	uint32_t path_len;     /* strlen(path), for file_by_path() */
	char *path;
	bool shmem;            /* tmpfs/shmem: swap-backed, no writeback */
	bool unlinked;
	uint64_t size;         /* i_size in bytes */
	bool size_known;       /* size told by the trace or made by it; else a
				* guess (0) that an fstat line may correct */
	bool anon_inode;       /* pipe, eventfd, socket ...: no mmap */
	bool no_cache;         /* procfs, sysfs, devices: reads and writes use no page cache */
	bool special;          /* the vdso's pages: always present, no fault-around (inherit.c) */
	bool unevictable;      /* AS_UNEVICTABLE: a SHM_LOCKed segment's (shm.c), memfd_secret's */
	bool secretmem;        /* memfd_secret's (file.c): memory only like shmem, but not
				* swap-backed; its mappings are VM_LOCKED for good */
	bool ramfs;            /* on a ramfs (mount.c): an unevictable mapping with no
				* backing device - no readahead, no blocks, no
				* writeback, dirty pages not counted in NR_FILE_DIRTY */
	uint32_t sb;           /* the super block of the mount it was made under
				* (mount.c), 0 for the disk default */
	struct shm_seg *shm;   /* the SysV segment whose object it is (shm.c), or NULL */
	struct io_ring *ring;  /* an io_uring instance's file (io_uring.c), or NULL */
	struct hugetlb_inode *huge; /* a hugetlbfs file's reservations and pages (hugetlb.c), or NULL */
	uint32_t exec_ofd;     /* the open file description the ELF loader
				* mapped it through (inherit.c) */
	uint64_t ino;
	struct radix cache;    /* page index -> pfn */
	struct radix shadows;  /* page index -> shadow of an evicted page (workingset.c) */
	/* which pages have a block on the device (fileblocks.c): those below
	 * blocks_below but the holes, and those written */
	uint64_t blocks_below;
	struct radix holes, written;
	struct radix swapped;  /* shmem: page index -> swap slot + 1 of a page written
				* to swap (the swap entry mm/shmem.c leaves in the
				* mapping in the folio's place) */
	struct vma *i_mmap;    /* VMAs mapping the file */
	unsigned refs;         /* open fds + VMAs + being named */
	struct file *next_file, *prev_file; /* the machine's files, newest first */
};

/* struct file_ra_state: the readahead state of one open file description
 * (struct file's f_ra), not of the inode - two open()s of a file read
 * ahead apart (measured on 6.18: a fault through a second open reads
 * around while the first has stopped, docs/fidelity.md) */
struct file_ra {
	uint64_t start, size, async;  /* the last window and its async tail */
	uint64_t prev_pos;            /* where the last read ended */
	uint32_t mmap_miss;           /* read faults that missed, less hits */
	unsigned order;               /* folio order of the window */
};

struct fd_entry {
	struct file *file;
	uint32_t ofd;          /* open file description (shared by dup and fork) */
	uint64_t oflags;
	uint64_t pos;
	bool seen;             /* installed by a call the trace shows */
};

struct fdtable {
	struct fd_entry *fd;
	unsigned nfd;
	unsigned refs;
};

/* --- anon_vma (rmap for anonymous pages) -------------------------------- */
struct avc {                   /* anon_vma_chain: links one vma and one anon_vma */
	struct vma *vma;
	struct anon_vma *av;
	struct avc *vma_next;      /* next chain of the same vma */
	struct avc *av_prev, *av_next;
};

struct anon_vma {
	uint32_t id;
	struct avc *head;          /* chains of the VMAs that may map its pages */
	unsigned refs;             /* chains + pages */
};

/* --- address space ------------------------------------------------------- */
struct mm {
	struct vma_tree vmas;
	struct radix pt;           /* vpn -> pte */
	uint64_t map_count;
	uint64_t total_vm, locked_vm, pinned_vm, data_vm, exec_vm, stack_vm;
	/* locked_vm the kernel charges or discharges without a VMA to show
	 * for it (known accounting quirks of a semantics, e.g. 6.18's
	 * MREMAP_DONTUNMAP): the invariant walker allows exactly this much */
	int64_t locked_vm_quirk;
	uint64_t rss_anon, rss_file, rss_shmem, swap_ents, hiwater_rss, hiwater_vm;
	vm_flags_t def_flags;
	uint64_t start_brk, brk;
	uint64_t mmap_base;
	uint64_t start_stack;
	bool stack_guessed;        /* the stack is vm_execve()'s guess, not the trace's */
	bool has_pinned;           /* MMF_HAS_PINNED: a page of it was pinned (FOLL_PIN) */
	struct hugetlb_ptes *huge; /* its mapped hugetlb pages (hugetlb.c), NULL if none yet */
	uint64_t hugetlb_pages;    /* hugetlb_usage: HugetlbPages, in small pages */
	struct thp_pmds *thp;      /* its 2 MiB ranges mapped by a PMD (thp.c), NULL if none yet */
	unsigned users;            /* tasks sharing this mm */
	uint32_t id;
	uint64_t numa_scan_offset; /* where task_numa_work() goes on (numa.c) */
	uint64_t numa_scan_seq;    /* full passes over the address space */
	uint64_t numa_next_scan;   /* jiffies before which task_numa_work() does not
				    * scan (0: not set yet, as after exec) */
	struct hitmap hm;          /* the accesses that change nothing (hitmap.h) */
};

struct task {
	int pid;
	bool alive;
	bool pid_known;            /* false: pid 0 placeholder for the first process */
	struct mm *mm;
	struct fdtable *files;
	uint64_t rlim_memlock_cur, rlim_memlock_max;
	uint64_t cap_eff, cap_prm, cap_amb; /* effective, permitted, ambient (cred.c) */
	uint64_t cap_bnd;                  /* the bounding set (cred.c) */
	uint32_t ruid, euid, suid;
	bool creds_unknown;        /* cred.c: who ran the log is not known */
	bool oom_killed;           /* SIGKILL pending from the OOM killer */
	uint64_t min_flt, maj_flt; /* getrusage(): the faults it took (semantics.h) */
	unsigned numa_node;        /* the node of the CPU it runs on (numa_node()) */
	struct task_numa *numa;    /* NUMA fault statistics, from its first hinting fault */
	/* the NUMA scan's clock (numa.c): the CPU time it ran (numa_run(),
	 * numa_scan()), when task_tick_numa() next looks (node_stamp), the
	 * scan period in ms and its ceiling, and the jiffy after which a
	 * hinting fault may run the placement again (6.x) */
	uint64_t numa_runtime_ns, numa_node_stamp_ns, numa_migrate_retry;
	uint32_t numa_scan_period, numa_scan_period_max;
	/* the files its next execve reads (vm_exec_reads()), named by the
	 * inherit_file lines right before it; fresh: named by the last event */
	struct file *exec_reads[4];
	uint8_t nexec_reads;
	bool exec_reads_fresh;
	uint32_t mnt_ns;           /* its mount namespace (mount.c) */
	struct fs_cwd {            /* its fs_struct's working directory (mount.c):
				    * shared by CLONE_FS, NULL while unknown */
		unsigned refs;
		char *path;        /* absolute, normalised */
	} *fs;
	struct task *next, *prev;  /* the machine's processes, in creation order */
	struct task *live_next, *live_prev; /* the live ones only, in creation order */
};

#define MAX_EVENTS 8

struct vmsys {
	const struct semantics *sem;
	struct arch_flags af;
	char arch[32];
	bool zero_page;
	bool soft_dirty;           /* CONFIG_MEM_SOFT_DIRTY (vmsys_config) */
	uint64_t max_map_count;
	uint64_t ra_pages;      /* file_ra_state.ra_pages: bdi read_ahead_kb / 4 */
	uint64_t default_mmap_base;
	struct physmem pm;
	struct lruvec lru;
	struct vmstat stat;
	uint64_t swap_total, swap_free;   /* pages */
	uint8_t *swap_map;                /* per slot use count */
	uint64_t swap_next;
	uint64_t *swap_shadow;            /* per slot: shadow of the page swapped
					   * out there, 0 if none (workingset.c;
					   * from the first, 6.x only) */
	uint64_t memcg_usage;             /* pages charged to the trace's memcg (page.charged) */
	uint64_t memcg_limit;             /* its limit for them, pages, if memcg_limited (memcg_limit()) */
	bool memcg_limited;
	uint64_t memcg_high;              /* memory.high for the trace's pages, if memcg_high_set */
	bool memcg_high_set;
	bool memcg_high_noted;            /* the charge past memory.high was noted once */
	uint64_t memcg_events[3];         /* memory.events: max, oom, oom_kill (enum memcg_event) */
	uint64_t ws_age;                  /* workingset age: 4.x zone->inactive_age,
					   * 6.x lruvec->nonresident_age */
	struct task *tasks, *tasks_tail; /* in creation order */
	/* the live tasks, in creation order: walks that skip the exited (of
	 * which a long run makes thousands) do not visit them at all */
	struct task *live_head, *live_tail;
	/* pid -> the newest task with it (open addressing, never shrinks): a
	 * lookup does not walk the processes, exited ones included */
	struct task **tidx;
	size_t tidx_cap, tidx_n;
	struct file *files;
	/* the files by path (those the namespace names: not unlinked), and
	 * by id (a page's owner): file.c's lookups, not walks of the list */
	struct file **fpath;
	size_t fpath_cap, fpath_used, fpath_fill;
	struct radix file_ids;
	uint32_t next_file_id, next_anon_id, next_mm_id, next_serial, next_ofd;
	int next_pid;
	uint64_t next_ino;
	struct task *current;             /* the task whose call is running */
	uint64_t zap_folio_key;           /* large folio munlocked by the current zap */
	bool fault_retried;        /* the fault being handled returned VM_FAULT_RETRY once */
	unsigned nevents;
	char events[MAX_EVENTS][96];
	uint64_t default_rlim;
	bool default_cap;
	uint32_t default_uid;
	bool creds_unknown;        /* vmsys_config.creds_unknown */
	bool touches_unrecorded;   /* vmsys_config.touches_unrecorded */
	bool default_cap_res;      /* CAP_SYS_RESOURCE of new processes */
	uint64_t default_cap_bnd;  /* their bounding set */
	tp_fn tp_hook;             /* the tracepoint listener, or NULL (tracepoint.h) */
	/* NUMA balancing (numa.c): on with 2 or more nodes; page -> the last
	 * cpupid that took a hinting fault on it (page_cpupid_last()), as
	 * (pid & 0xff) << 8 | (node + 1), 0 = unset */
	struct radix numa_cpupid;
	/* every anon_vma by its id (the pages' owner), for rmap_walk() */
	struct radix anon_vmas;
	bool rmap_full_walk;       /* rmap_walk() of an anon page tests every VMA
				    * (vmsys_set_rmap_full_walk(): tests) */
	struct radix_pool pt_pool;  /* the empty page-table nodes and leaves (radix.h) */
	/* where VMAs, their anon_vma chains and anon_vmas live (objpool.h):
	 * those of all mms close together, so that walking an mm's (fork,
	 * exit, the rmap, vmsim check) stays in cache */
	struct objpool vma_pool, avc_pool, anon_vma_pool;
	/* the readahead state of each open file description, by its id (ofd 0:
	 * a mapping without one, e.g. a VMA the process had before the trace) */
	struct file_ra **ra_chunks;  /* by ofd, RA_CHUNK entries a chunk, each
				      * made zeroed when first needed */
#define RA_CHUNK 1024                /* 40 KB of file_ra: the first from the heap */
	size_t ra_nchunks;
	struct file_ra **ra_slabs;   /* the later chunks, RA_SLAB a slab */
#define RA_SLAB 16
	size_t ra_nslabs;
	uint32_t numa_migrate_nr[MAX_NUMA_NODES]; /* pages migrated to each node in this
						   * rate-limit window (4.x) */
	uint64_t jiffies;          /* the machine's clock: moved only by the ticks of
				    * numa_run() and numa_scan() (numa.c) */
	void *tp_ctx;
	bool dying;                /* vmsys_free() runs: nothing observes the pages */
	/* SysV shared memory (shm.c): the segments, the next id, the user's
	 * locked_shm (pages: user_shm_lock()), the files with AS_UNEVICTABLE */
	struct shm_seg *shm_segs;
	unsigned shm_nsegs;               /* in the list: at most SHMMNI (shm.c) */
	int next_shmid;
	uint64_t locked_shm;
	/* each user's locked_vm (struct user_struct, pages, by real uid): what
	 * io_uring charges against RLIMIT_MEMLOCK (io_uring.c), not the mm's;
	 * the first process's user starts at user_locked_vm_start */
	struct user_locked { uint32_t uid; uint64_t pages; } *user_locked;
	size_t nuser_locked, capuser_locked;
	uint64_t user_locked_vm_start;
	unsigned nr_unevictable_mappings;
	unsigned nr_ramfs_files;   /* files on a ramfs: 0 spares the dirty-accounting
				    * test its page lookup (page_dirty_accounted()) */
	/* the mounts of every mount namespace (mount.c): each namespace a
	 * list of mounts, newest first, whose tail a copy of the namespace
	 * shares; per super block, the mounts of it in any list */
	struct mount_table {
		struct mnt_ns {
			struct mount *head;
			uint32_t users;    /* its tasks; 0 is the first, never put */
			struct mnt_index *idx; /* its mount points by path (NULL:
						* not built yet; mount.c) */
			uint32_t scans;    /* lookups that walked its list */
		} *ns;
		uint32_t nr_ns, cap_ns;
		size_t idx_points;         /* mount points in all indexes */
		uint32_t *sb_mounts;       /* [sb]: the mounts (list nodes) of it */
		uint32_t next_sb, cap_sb;
	} mounts;
	char *path_buf;            /* path_resolve()'s result (mount.c) */
	size_t path_cap;
	int thp_mode;              /* THP_NEVER, THP_MADVISE, THP_ALWAYS (thp.c) */
	/* the hugetlb pool (hugetlb.c: struct hstate): huge pages in all,
	 * free, reserved; a refcount per page id (1..total), the free ids */
	struct hugetlb_pool {
		uint64_t total, free, resv;
		uint32_t *ref, *free_ids;
		uint64_t nfree_ids;
	} hp;
	uint64_t pt_gen;           /* PTE generation: the hit bits of every mm hold
				    * only while it stays (hitmap.h, pte_changed()) */
};

/* A PTE is about to lose something an access relies on - its presence,
 * its young, dirty or write bit, its pfn - or to become PROT_NONE: no hit
 * bit set before may be believed (hitmap.h).  Every such change calls
 * this first; adding a PTE or a bit need not. */
static inline void pte_changed(struct vmsys *s) { s->pt_gen++; }

/* hand e to the listener, with the current task's pid (vmsys.c) */
void tp_emit(struct vmsys *s, struct tp_event *e);

/* locked_vm += d on behalf of fn, reported to the tracepoint listener */
static inline void locked_vm_add(struct vmsys *s, struct mm *mm, int64_t d, enum kfn fn)
{
	uint64_t before = mm->locked_vm;
	mm->locked_vm += (uint64_t)d;
	TP(s, TP_LOCKED_VM, fn, .delta = d, .before = before, .after = mm->locked_vm);
}

/* mm/internal.h:folio_evictable() @ v6.18 (page_evictable() @ v4.4): not
 * mlocked, and not of an unevictable mapping (a SHM_LOCKed segment) */
bool mapping_unevictable_page(struct vmsys *s, const struct page *p); /* file.c */
static inline bool folio_evictable(struct vmsys *s, const struct page *p)
{
	if (p->flags & PG_MLOCKED)
		return false;
	return !s->nr_unevictable_mappings || (p->flags & PG_ANON) || !mapping_unevictable_page(s, p);
}

/* a page-cache page of f is swap-backed (shmem), not memfd_secret's */
static inline bool file_swapbacked(const struct file *f) { return f->shmem && !f->secretmem; }

/* ---- helpers shared between modules ---- */
static inline struct page *spage(struct vmsys *s, pfn_t pfn) { return pfn_page(&s->pm, pfn); }
static inline void count_vm(struct vmsys *s, enum vmstat_item i, int64_t d) { s->stat.v[i] += d; }
static inline uint64_t vma_pages(const struct vma *v) { return (v->end - v->start) >> PAGE_SHIFT; }
/* mm/internal.h:vma_address() @ v6.18 (vma_address() in mm/rmap.c @ v4.4):
 * where v maps the page at index of its object (file offset, or the anon
 * linear index); false when the index lies outside v */
static inline bool vma_index_address(const struct vma *v, uint64_t index, uint64_t *addr)
{
	if (index < v->pgoff || index - v->pgoff >= vma_pages(v))
		return false;
	*addr = v->start + ((index - v->pgoff) << PAGE_SHIFT);
	return true;
}
/* the PTE at addr of mm maps frame pfn (a present one) */
static inline bool pte_maps_pfn(struct mm *mm, uint64_t addr, pfn_t pfn)
{
	const uint64_t *pte = radix_peek(&mm->pt, addr >> PAGE_SHIFT);
	return pte && (*pte & PTE_PRESENT) && pte_pfn(*pte) == pfn;
}
/* the pid index (vmsys.c) */
int task_index_put(struct vmsys *s, struct task *t);
struct task *task_index_get(struct vmsys *s, int pid);

/* capable(CAP_IPC_LOCK), capable(CAP_SYS_RESOURCE): the effective set
 * (include/uapi/linux/capability.h numbers) */
#define CAP_IPC_LOCK_BIT 14
#define CAP_SYS_RESOURCE_BIT 24
static inline bool capable_ipc_lock(const struct task *t) { return (t->cap_eff >> CAP_IPC_LOCK_BIT) & 1; }
static inline bool capable_sys_resource(const struct task *t)
{
	return (t->cap_eff >> CAP_SYS_RESOURCE_BIT) & 1;
}
static inline uint64_t rlimit_memlock_pages(const struct task *t)
{
	return t->rlim_memlock_cur == UINT64_MAX ? UINT64_MAX >> PAGE_SHIFT
						 : t->rlim_memlock_cur >> PAGE_SHIFT;
}
static inline uint64_t linear_index(const struct vma *v, uint64_t addr)
{
	return v->pgoff + ((addr - v->start) >> PAGE_SHIFT);
}
static inline bool vma_is_anonymous(const struct vma *v) { return !v->file; }
static inline bool vma_is_shared(const struct vma *v) { return (v->flags & VM_SHARED) != 0; }
void vmsys_event_add(struct vmsys *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* fork.c: a task stops being live (exit, or a creation that failed) */
void task_mark_dead(struct vmsys *s, struct task *t);
#define for_each_live_task(s, t) for (struct task *t = (s)->live_head; t; t = t->live_next)

/* mm.c */
/* Is t the first live task using its mm (threads share one)? Walks that
 * visit every address space once use it. */
bool task_owns_mm(const struct vmsys *s, const struct task *t);
struct mm *mm_alloc(struct vmsys *s);
void mm_put(struct vmsys *s, struct mm *mm);  /* drop a user; exit_mmap at 0 */
bool mm_can_do_mlock(const struct task *t);   /* mm/mlock.c:can_do_mlock() */
bool mlock_future_ok(struct vmsys *s, struct task *t, vm_flags_t flags, uint64_t bytes);

/* vma_ops.c: creation, split, merge (mm/vma.c) */
struct vma *vma_new(struct vmsys *s, struct mm *mm, uint64_t start, uint64_t end,
		    vm_flags_t flags, struct file *f, uint64_t pgoff);
void vma_link(struct vmsys *s, struct mm *mm, struct vma *v);
/* vma_link() of a VMA above every VMA of mm (vma_tree_append()) */
void vma_link_last(struct vmsys *s, struct mm *mm, struct vma *v);
void vma_unlink_free(struct vmsys *s, struct mm *mm, struct vma *v);
/* vma_unlink_free() of mm's first VMA when all of them go (exit_mmap()):
 * the tree is not rebalanced (vma_tree_erase_first()) */
void vma_unlink_free_first(struct vmsys *s, struct mm *mm);
/* free a VMA that vma_new() made and nothing linked yet */
void vma_free_unlinked(struct vmsys *s, struct vma *v);
int vma_split(struct vmsys *s, struct mm *mm, struct vma *v, uint64_t addr,
	      bool check_limit, struct vma **newp);
/* vma_modify(): make [start,end) of v carry newflags, merging with
 * neighbours where the kernel would and splitting otherwise.  Returns the
 * VMA now covering exactly [start,end) or NULL with *err set. */
struct vma *vma_modify_flags(struct vmsys *s, struct mm *mm, struct vma *v,
			     uint64_t start, uint64_t end, vm_flags_t newflags, int *err);
/* Try to merge v with its neighbours after a change (mprotect-style). */
struct vma *vma_try_merge_neighbours(struct vmsys *s, struct mm *mm, struct vma *v);
/* merge b, which directly follows a and is mergeable with it, into a */
void vma_absorb_next(struct vmsys *s, struct mm *mm, struct vma *a, struct vma *b);
bool vma_mergeable(const struct vmsys *s, const struct vma *a, const struct vma *b);
bool vma_mergeable_extend(const struct vmsys *s, const struct vma *a, const struct vma *b);
/* include/linux/rmap.h:anon_vma_prepare(): inline where the VMA has one */
int anon_vma_prepare_new(struct vmsys *s, struct vma *v);
static inline int anon_vma_prepare(struct vmsys *s, struct vma *v)
{
	return v->anon_vma ? 0 : anon_vma_prepare_new(s, v);
}
/* drop every anon_vma chain of v (mm/rmap.c:unlink_anon_vmas()) */
void unlink_anon_vmas(struct vmsys *s, struct vma *v);
int anon_vma_clone(struct vmsys *s, struct vma *dst, const struct vma *src);
void anon_vma_put(struct vmsys *s, struct anon_vma *av);
void file_link_vma(struct file *f, struct vma *v);
void file_unlink_vma(struct file *f, struct vma *v);

/* memory.c: faults, populate, zap.  mode: 1 read, 2 write, 4 exec, and
 * FAULT_GUP when get_user_pages takes the fault (it is counted apart) */
#define FAULT_GUP 8
bool insert_driver_page(struct vmsys *s, struct vma *v, uint64_t addr, pfn_t pfn);
pfn_t copy_pinned_page_for_child(struct vmsys *s, struct vma *dst, uint64_t addr, uint64_t *pte);
enum vm_fault_kind handle_fault(struct vmsys *s, struct task *t, struct vma *v,
				uint64_t addr, int mode);
/* GUP-style populate of [start,end) (mm/gup.c:populate_vma_page_range()) */
int populate_vma_range(struct vmsys *s, struct task *t, struct vma *v,
		       uint64_t start, uint64_t end);
/* mm/gup.c:__mm_populate() */
int mm_populate(struct vmsys *s, struct task *t, uint64_t start, uint64_t len,
		bool ignore_errors);
/* Unmap the pages of [start,end) in v (zap_page_range) */
void zap_range(struct vmsys *s, struct mm *mm, struct vma *v, uint64_t start, uint64_t end);
/* zap_range(), leaving anonymous (COW) pages mapped when skip_anon */
void zap_range_filtered(struct vmsys *s, struct mm *mm, struct vma *v, uint64_t start,
			uint64_t end, bool skip_anon);
/* add_mm_counter() by the page's kind (MM_ANONPAGES, MM_SHMEMPAGES,
 * MM_FILEPAGES), and the RSS high-water mark (update_hiwater_rss()) */
static inline void mm_rss_add(struct mm *mm, const struct page *p, int64_t d)
{
	if (p->flags & PG_ANON)
		mm->rss_anon += (uint64_t)d;
	else if (p->flags & PG_SWAPBACKED)
		mm->rss_shmem += (uint64_t)d;
	else
		mm->rss_file += (uint64_t)d;
	uint64_t rss = mm->rss_anon + mm->rss_file + mm->rss_shmem;
	if (rss > mm->hiwater_rss)
		mm->hiwater_rss = rss;
}
pfn_t alloc_page(struct vmsys *s);
/* The same, charged to the trace's memcg only if charge (page cache the
 * trace inherits was read by someone else's). */
pfn_t alloc_page_for(struct vmsys *s, bool charge);
/* The trace's memcg's charge of page p goes (mem_cgroup_uncharge()). */
void page_uncharge(struct vmsys *s, struct page *p);
/* mem_cgroup_migrate(): the charge of from, if any, moves to to. */
void page_charge_moved(struct vmsys *s, struct page *from, struct page *to);
/* Room for a new PTE table (reclaim, then the OOM killer); false: none. */
bool pte_table_alloc(struct vmsys *s);
/* folio_put(): one reference fewer; the last frees the page
 * (free_page_last() in lru.c, apart, so that a reference dropped costs
 * no call). */
void free_page_last(struct vmsys *s, pfn_t pfn);
static inline void put_page(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if (!(p->flags & PG_ZERO) && !--p->refcount)
		free_page_last(s, pfn);
}
static inline void get_page(struct vmsys *s, pfn_t pfn) { spage(s, pfn)->refcount++; }

/* rmap.c */
void rmap_add(struct vmsys *s, struct vma *v, pfn_t pfn, bool new_anon);
void rmap_remove(struct vmsys *s, struct vma *v, pfn_t pfn);
/* Walk every (vma, addr) that maps pfn; fn returns false to stop. */
void rmap_walk(struct vmsys *s, pfn_t pfn,
	       bool (*fn)(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *pte, void *ctx),
	       void *ctx);

/* mlock.c: page-level mlock (mm/mlock.c) */
void mlock_folio(struct vmsys *s, pfn_t pfn);
void mlock_folio_4x(struct vmsys *s, pfn_t pfn);
void mlock_new_folio(struct vmsys *s, pfn_t pfn);
void munlock_folio(struct vmsys *s, pfn_t pfn);
void mlock_vma_folio(struct vmsys *s, struct vma *v, pfn_t pfn);
void munlock_vma_folio(struct vmsys *s, struct vma *v, pfn_t pfn);
void mlock_drain_local(struct vmsys *s);
/* the PMDs of the THPs meeting [start, end) of v end (thp_range_gone()),
 * in a VM_LOCKED VMA on 6.x the folio munlocked whole first */
void thp_pmds_end(struct vmsys *s, struct vma *v, uint64_t start, uint64_t end);
/* munlock (lock false) or mlock the anonymous large folio of page pfn,
 * mapped at vpn of mm by PTEs, as mlock_pte_range() @ v6.18 may: mlock
 * only when all its pages are mapped at vpns in [first, last] */
void thp_folio_mlock(struct vmsys *s, struct mm *mm, uint64_t vpn, pfn_t pfn, bool lock,
		     uint64_t first, uint64_t last);
int mlock_fixup(struct vmsys *s, struct task *t, struct vma **vp, uint64_t start,
		uint64_t end, vm_flags_t newflags);
bool vma_supports_mlock(const struct vma *v);
/* fileblocks.c: the pages of a disk file that have a block on the device */
void file_blocks_init(struct file *f);
void file_blocks_destroy(struct file *f);
bool file_has_block(const struct file *f, uint64_t idx);
void file_blocks_existing(struct file *f, uint64_t size);
int file_blocks_written(struct file *f, uint64_t first, uint64_t last);
int file_blocks_freed(struct file *f, uint64_t first, uint64_t last);
void file_blocks_truncate(struct file *f, uint64_t size);
void munlock_vma_pages_all(struct vmsys *s, struct vma *v, bool write_locked); /* 4.x page model */
void munlock_cow_page_4x(struct vmsys *s, struct vma *v, pfn_t pfn); /* 4.x page model */

/* file.c */
struct file *file_lookup_fd(struct task *t, int64_t fd, struct fd_entry **ent);
void file_get(struct file *f);
void file_put(struct vmsys *s, struct file *f);
pfn_t file_find_page(struct vmsys *s, struct file *f, uint64_t index);
/* The file whose page cache holds the (non-anonymous) page p, or NULL */
struct file *file_of_page(struct vmsys *s, const struct page *p);
/* the named file at path (not unlinked), NULL if none; special: only a
 * special mapping's file ([vdso], [vvar]...) */
struct file *file_by_path(struct vmsys *s, const char *path, size_t len, bool special);
/* f leaves the namespace: its name is gone (unlink, or a file that never
 * had one) */
void file_set_unlinked(struct vmsys *s, struct file *f);
pfn_t file_add_page(struct vmsys *s, struct file *f, uint64_t index, bool *major);
/* The same for a page added to be written (for_write: grab_cache_page_write_begin()'s
 * __GFP_WRITE) or read. */
pfn_t file_add_page_for(struct vmsys *s, struct file *f, uint64_t index, bool *major, bool for_write);
void file_remove_page(struct vmsys *s, struct file *f, uint64_t index);
/* shmem: whether page index of f is out on swap; reclaim writing the
 * isolated, unmapped, dirty shmem page pfn to swap (false: no slot, the
 * page stays) */
bool shmem_index_swapped(struct file *f, uint64_t index);
uint64_t shmem_swapped_pages(struct file *f, uint64_t first, uint64_t end); /* of [first, end) */
bool shmem_swap_out(struct vmsys *s, struct file *f, pfn_t pfn);
void file_split_folio(struct vmsys *s, struct file *f, uint64_t idx);
int file_punch_hole(struct vmsys *s, struct file *f, uint64_t off, uint64_t len); /* -1: no memory */
void file_unmap_folio(struct vmsys *s, struct file *f, uint64_t head, uint64_t nr);
void unmap_mapping_range(struct vmsys *s, struct file *f, uint64_t first, uint64_t last,
			 bool even_cows);
struct file *shmem_zero_setup(struct vmsys *s, uint64_t size);
/* a file named path on the file system namespace ns has over it
 * (mount.c), with the name's reference */
struct file *file_create_in(struct vmsys *s, uint32_t ns, const char *path, size_t len);
static inline struct file *file_create(struct vmsys *s, const char *path, size_t len)
{
	return file_create_in(s, 0, path, len);
}
/* mount.c: the kind of file system over path in namespace ns (*sb its
 * super block, 0 for the defaults; the lookup may build the namespace's
 * index of mount points, a cache); a task's namespace at its start
 * (first) or when it moves; the end of a task's stay in ns; the table's
 * memory */
enum fs_kind mount_lookup(struct vmsys *s, uint32_t ns, const char *path, size_t len,
			  uint32_t *sb);
int mount_ns_enter(struct vmsys *s, struct task *t, uint32_t ns, bool first);
/* path as the kernel resolves it for t (fs/namei.c:path_init()): a
 * relative one against dirfd's file (AT_FDCWD: t's working directory)
 * when that is known, with "." and ".." taken out; else path itself.
 * The result lives until the next call; NULL only without memory. */
const char *path_resolve(struct vmsys *s, struct task *t, int64_t dirfd, const char *path, size_t len,
			 size_t *outlen);
/* the working directory of a new task: its parent's, shared with
 * CLONE_FS (share) or copied; dropped at exit */
int fs_cwd_fork(struct task *c, const struct task *parent, bool share);
void fs_cwd_put(struct task *t);
void mount_ns_put(struct vmsys *s, uint32_t ns);
int64_t vm_unshare_mnt_ns(struct vmsys *s, struct task *t);
void mount_table_free(struct vmsys *s);
/* mm/page-writeback.c:folio_account_dirtied() runs only where the
 * mapping can write back (mapping_can_writeback(): a backing device with
 * writeback); shmem's, ramfs' and secretmem's dirty_folio is
 * noop_dirty_folio() @ v6.1 (__set_page_dirty_no_writeback() @ v4.4) */
static inline bool file_dirty_accounted(const struct file *f)
{
	return !f->shmem && !f->ramfs;
}
bool page_dirty_accounted(struct vmsys *s, const struct page *p); /* file.c */
struct file *file_new(struct vmsys *s, const char *path, size_t len, bool shmem);
/* io_uring.c: the instance of f goes with its file's last reference
 * (io_ring_ctx_free() after io_uring_release()): its buffers unpinned and
 * uncharged, its ring pages freed */
void io_ring_release(struct vmsys *s, struct file *f);
/* vm_mmap() of an io_uring file: io_uring_get_unmapped_area()'s checks and
 * the VMA's page offset for file offset off; then, with the VMA made,
 * io_uring_mmap()'s insertion of the pages */
int64_t io_ring_mmap_check(struct vmsys *s, struct file *f, uint64_t addr, uint64_t off,
			   uint64_t *pgoff);
int io_ring_mmap_insert(struct vmsys *s, struct vma *v);

/* A long-term pin (FOLL_PIN) adds this to the page's refcount, as
 * GUP_PIN_COUNTING_BIAS does (include/linux/mm.h); a page with at least
 * this many references may be DMA-pinned (folio_maybe_dma_pinned()). */
#define GUP_PIN_BIAS 1024u
static inline bool page_maybe_pinned(const struct page *p) { return p->refcount >= GUP_PIN_BIAS; }
pfn_t file_add_cached_page(struct vmsys *s, struct file *f, uint64_t index);
/* A buffered read of pages [first, last] of a disk file: sync readahead
 * at each missing page, async at a marked folio (mm/filemap.c:
 * filemap_get_pages() @ v6.18); memory.c. */
bool filemap_read_ra(struct vmsys *s, struct file *f, struct file_ra *ra, uint64_t first, uint64_t last);
/* fs/exec.c:prepare_binprm(): execve's read of a file's header, through
 * a struct file of its own (memory.c/file.c) */
bool file_exec_read(struct vmsys *s, struct file *f);
/* Drops the files t's next execve was to read (vm_exec_reads()) and the
 * references they hold (file.c) */
void file_exec_reads_forget(struct vmsys *s, struct task *t);
/* The readahead state of open file description ofd (vmsys.c); NULL only
 * when the table cannot grow (host out of memory). */
struct file_ra *file_ra_of(struct vmsys *s, uint32_t ofd);
int64_t fd_install(struct vmsys *s, struct task *t, int want_fd, struct file *f, uint32_t ofd,
		   uint64_t oflags);
void fdtable_put(struct vmsys *s, struct fdtable *ft);
struct fdtable *fdtable_dup(struct fdtable *ft);

/* mmap.c */
int do_munmap(struct vmsys *s, struct task *t, uint64_t start, uint64_t len);
/* mm/mmap.c:vm_stat_account(): total/exec/stack/data counters */
void vm_stat_account(struct mm *mm, vm_flags_t flags, int64_t pages);
uint64_t get_unmapped_area(struct vmsys *s, struct mm *mm, uint64_t len, uint64_t hint);
uint64_t get_unmapped_area_align(struct vmsys *s, struct mm *mm, uint64_t len, uint64_t hint,
				 uint64_t align);
/* the page size bits of mmap's and shmget's flags (MAP_HUGE_SHIFT, SHM_HUGE_SHIFT) */
#define MAP_HUGE_SHIFT 26
#define MAP_HUGE_MASK 0x3fULL
/* do_mmap() of a file MAP_SHARED for shmat (mmap.c) */
int64_t mmap_shared_file(struct vmsys *s, struct task *t, struct file *f, uint64_t addr, uint64_t len,
			 uint64_t prot, bool fixed, bool has_placement, uint64_t placement);
/* shm.c: a VMA of f (a SysV segment's) went away: a segment marked
 * destroyed goes with its last attach */
void shm_vma_gone(struct vmsys *s, struct file *f);
/* cred.c: a new process's credentials (uid 0: every capability, else
 * only those named), a forked child's, and what execve() leaves */
void cred_init(struct task *t, uint32_t uid, bool cap_ipc_lock, bool cap_sys_resource, uint64_t bounding,
	       bool unknown);
void cred_copy(struct task *dst, const struct task *src);
void cred_exec(struct task *t);
/* shm.c: the segments, at vmsys_free() */
void shm_free_all(struct vmsys *s);
/* file.c: the shmem object of a SysV segment ("/SYSV%08x (deleted)") */
struct file *shm_file_create(struct vmsys *s, uint64_t key, uint64_t size);
/* a segment's file name as maps shows it, "/SYSV%08x (deleted)"; its length */
#define SHM_FILE_NAME_MAX 40
size_t shm_file_name(char name[SHM_FILE_NAME_MAX], uint64_t key);

/* hugetlb.c: the pool, hugetlbfs files, their reservations and faults */
int hugetlb_pool_init(struct vmsys *s, uint64_t pages);
void hugetlb_pool_release(struct vmsys *s);
/* whether MAP_HUGE_* / SHM_HUGE_* size log names a page size the machine has */
bool hugetlb_sizelog_ok(uint64_t sizelog);
/* a file of size bytes (huge-page aligned); its pages live in it when
 * shared_cache; reserve: all of it now (SHM_HUGETLB without NORESERVE).
 * NULL with *err = -ENOMEM if the pool cannot */
struct file *hugetlb_file_setup(struct vmsys *s, const char *name, size_t n, uint64_t size,
				bool shared_cache, bool reserve, int *err);
void hugetlb_file_release(struct vmsys *s, struct file *f);
/* the alignment checks of a mapping of a hugetlbfs file */
int hugetlb_mmap_check(uint64_t addr, uint64_t len, uint64_t pgoff, bool fixed);
/* hugetlbfs_file_mmap(): the VMA's VM_HUGETLB | VM_DONTEXPAND into *vmf
 * and the reservation the new mapping makes (-ENOMEM), before its VMA
 * exists; hugetlb_mmap_owner() then names the VMA that owns a private one */
int hugetlb_mmap_reserve(struct vmsys *s, struct file *f, uint64_t pgoff, uint64_t len,
			 vm_flags_t *vmf);
void hugetlb_mmap_owner(struct file *f, const struct vma *v);
enum vm_fault_kind hugetlb_fault(struct vmsys *s, struct task *t, struct vma *v, uint64_t addr,
				 bool write);
/* whether addr's huge page is mapped in mm (and writable, if write) */
bool hugetlb_mapped(struct mm *mm, uint64_t addr, bool write);
void hugetlb_zap(struct vmsys *s, struct mm *mm, uint64_t start, uint64_t end);
/* a VMA of a hugetlbfs file goes: a private owner's unconsumed reservations */
void hugetlb_vma_close(struct vmsys *s, struct vma *v);
void hugetlb_change_protection(struct mm *mm, const struct vma *v);
int hugetlb_copy_range(struct vmsys *s, struct mm *dst, const struct vma *src);
void hugetlb_ptes_free(struct mm *mm);

/* thp.c: anonymous transparent huge pages */
enum { THP_NEVER, THP_MADVISE, THP_ALWAYS };
enum { THP_PMD_NONE, THP_PMD_FOLIO, THP_PMD_ZERO };
/* whether a fault at addr in v may map a PMD (create_huge_pmd()); the
 * mode is tested here so that a machine without THP pays no call on the
 * fault path */
bool thp_vma_fault_allowed(const struct vmsys *s, const struct vma *v, uint64_t addr);
static inline bool thp_fault_allowed(const struct vmsys *s, const struct vma *v, uint64_t addr)
{
	return s->thp_mode != THP_NEVER && thp_vma_fault_allowed(s, v, addr);
}
/* record haddr of mm as mapped by a PMD (of the huge zero page if zero) */
int thp_pmd_add(struct mm *mm, uint64_t haddr, bool zero);
/* THP_PMD_* of addr's 2 MiB range in mm */
int thp_pmd_state(const struct mm *mm, uint64_t addr);
/* the PMD mappings of every 2 MiB range meeting [start, end) end (zap, split) */
void thp_range_gone(struct mm *mm, uint64_t start, uint64_t end);
/* the first 2 MiB range at or above *haddr and below end that a PMD maps
 * a THP by (not the huge zero page), in *haddr */
bool thp_next_folio_pmd(const struct mm *mm, uint64_t *haddr, uint64_t end);
/* smaps AnonHugePages of [start, end) in mm, bytes */
uint64_t thp_anon_bytes(const struct mm *mm, uint64_t start, uint64_t end);
/* meminfo AnonHugePages: pages of the folios some PMD maps */
uint64_t thp_anon_pages(const struct vmsys *s);
void thp_fork(struct mm *dst, const struct mm *src, uint64_t start, uint64_t end);
void thp_pmds_free(struct mm *mm);
bool range_is_free(struct mm *mm, uint64_t start, uint64_t end);

/* reclaim.c */
bool reclaim_for_alloc(struct vmsys *s);
void shrink_page_list_one(struct vmsys *s, pfn_t pfn, bool ignore_refs);
/* Room in the trace's memcg for one more page, reclaiming it past its
 * limit (try_charge_memcg()); false: none even after the OOM killer. */
bool memcg_charge(struct vmsys *s);
/* lru_note_cost() @ v6.1: reclaiming nr pages of a type cost that much */
void lru_note_cost(struct vmsys *s, bool file, uint64_t nr);

/* numa.c */
enum vm_fault_kind do_numa_page(struct vmsys *s, struct task *t, struct vma *v, uint64_t addr,
				uint64_t *ptep);
void numa_page_freed(struct vmsys *s, pfn_t pfn);
void numa_task_free(struct task *t);
/* fork: c's scan clock, and what sched_fork() does to the parent's mm
 * (users: its count before the child) */
void numa_task_fork(struct vmsys *s, struct task *c, const struct task *parent, unsigned users,
		    bool clone_vm);
/* dup_mm(): a new mm starts with its parent's scan state */
void numa_mm_dup(struct mm *child, const struct mm *parent);
/* a process of the trace that was not forked in it: as after fork and exec */
void numa_task_first(struct task *t);
/* exec: what task_numa_free() does to t's fault statistics */
void numa_task_exec(struct vmsys *s, struct task *t);

/* swap.c */
bool swap_alloc(struct vmsys *s, uint32_t *slot);
void swap_free_slot(struct vmsys *s, uint32_t slot);

#endif
