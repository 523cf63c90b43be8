/*
 * vmsys.h - the model's public interface: one simulated machine (physical
 * memory, LRU lists, counters, files) with its processes, driven one call
 * at a time.  This is the narrow interface the replay driver, `vmsim
 * check` and the tests use; everything else in model/ is internal.
 *
 * Calls return what the kernel's syscall returns: a value >= 0, or a
 * negative errno (-KERR_ENOMEM).  Addresses and lengths are bytes; flag
 * arguments are the numbers of the machine's arch/kernel flag tables.
 * The model never prints; observations are read with the vmsys_* queries
 * below and formatted by sim/replay/views.c.
 *
 *
 * Owns: the model's public interface: a machine, its processes, one call at
 *   a time, and the read-only queries views are built from.
 * May call: flagtab, internal, measured, semantics.
 */
#ifndef VMSIM_VMSYS_H
#define VMSIM_VMSYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measured.h"
#include "semantics.h"

struct vmsys;
struct task;
struct vma;

struct vmsys_config {
	const struct semantics *sem;
	const char *arch;         /* flag-table arch; NULL = x86_64 */
	uint64_t page_size;       /* 4096 (only value supported) */
	uint64_t ram;             /* bytes of RAM, default 24 GiB */
	uint64_t swap;            /* bytes of swap, default 0 */
	uint64_t rlimit_memlock;  /* bytes; UINT64_MAX = unlimited; default 8 MiB */
	bool cap_ipc_lock;        /* default false */
	int64_t uid;              /* real, effective and saved uid of the first
				   * process; -1 (default): 0 with cap_ipc_lock,
				   * else 1000 */
	bool touches_unrecorded;  /* the trace has no fault lines (`# faults: no`):
				   * the model sees a subset of the program's
				   * touches, so residency is a lower bound
				   * (vmsys_touches_unrecorded(), for checkers) */
	bool creds_unknown;       /* a log that does not say who ran it (plain
				   * strace): any permitted set, and capset and
				   * the setuid family do what the trace says */
	int cap_sys_resource;     /* -1 (default): as cap_ipc_lock; 0 no, 1 yes */
	uint64_t cap_bounding;    /* the bounding set (/proc/PID/status CapBnd),
				   * bit n capability n; default every one: what
				   * root's execve gives back (cred.c) */
	uint64_t max_map_count;   /* default 65530 */
	int zero_page;            /* -1 = the semantics' default, 0 no, 1 yes */
	uint64_t read_ahead_kb;   /* the file system's bdi read_ahead_kb (ra_pages =
				   * kb / 4); default 8192, the machines that
				   * recorded the samples (the kernel's own default
				   * is 128) */
	uint64_t mmap_base;       /* top of the top-down mmap area; 0 = default */
	bool soft_dirty;          /* CONFIG_MEM_SOFT_DIRTY: new and expanded VMAs are
				   * VM_SOFTDIRTY ("sd" in smaps); default off, as on
				   * the machines that recorded the samples (Debian's
				   * own kernels have it on) */
	int thp;                  /* transparent_hugepage/enabled: 0 never (default),
				   * 1 madvise, 2 always (thp.c) */
	uint64_t hugetlb_pages;   /* the hugetlb pool: 2 MiB pages, all free at the
				   * start (vm.nr_hugepages); default 0 (hugetlb.c) */
	uint64_t user_locked_vm;  /* pages of the user's locked_vm when the machine
				   * starts (io_uring.c); default 0 */
	unsigned numa_nodes;      /* NUMA nodes (1..64), RAM split evenly; default 1.
				   * With 2 or more, automatic NUMA balancing is on,
				   * as the kernel enables it by default on such a
				   * machine (check_numabalancing_enable()) */
};

void vmsys_config_default(struct vmsys_config *c, const struct semantics *sem);

/* A new machine with no process yet.  NULL with a message in err on a
 * bad configuration (unknown arch, no flag table for arch+kernel) or
 * allocation failure. */
struct vmsys *vmsys_new(const struct vmsys_config *c, char *err, size_t errlen);
void vmsys_free(struct vmsys *s);
const struct semantics *vmsys_semantics(const struct vmsys *s);

/* The process with this pid; pid 0 means "the first process".  A pid never
 * seen before becomes a new process with a fresh mm (as if started by
 * execve), unless create is false: then NULL. */
struct task *vmsys_task(struct vmsys *s, int pid, bool create);
int task_pid(const struct task *t);
/* Bracket each call made on behalf of t: the OOM killer may pick the
 * calling task, which then dies when its call ends (vmsys_end_call). */
void vmsys_begin_call(struct vmsys *s, struct task *t);
/* The same for an access (touch, fault): it keeps the hit bits that
 * the hot loop's vm_touch_hit() relies on (hitmap.h). */
void vmsys_begin_access(struct vmsys *s, struct task *t);
void vmsys_end_call(struct vmsys *s, struct task *t);
bool task_alive(const struct task *t);
/* The live processes, counted up to max (the machine's live list: exited
 * ones cost nothing). */
unsigned vmsys_live_tasks(const struct vmsys *s, unsigned max);
/* What one task's event can change in the view of others (vmsim diff's
 * scoped compare): whether another live task shares t's mm (a thread);
 * and the places outside the n ranges [lo, hi) of t's mm where a PTE maps
 * frame pfn: the number of them, each a page of another process with an
 * mm of its own, written to out (at most cap), or -1 when one is
 * elsewhere in t's mm, in an mm that threads share, or past cap.  0 for a
 * frame mapped nowhere, for the zero page, whose state never changes,
 * and for a pfn out of range. */
bool vmsys_mm_shared(const struct task *t);
struct vm_place {
	int pid;
	uint64_t addr;
};
int vmsys_frame_places_outside(struct vmsys *s, const struct task *t, uint32_t pfn, const uint64_t *lo,
			       const uint64_t *hi, unsigned n, struct vm_place *out, unsigned cap);
/* Whether madvise(advice) may change mappings outside its own range: a
 * hole punched in the file (MADV_REMOVE unmaps it from every mapping,
 * mm/madvise.c:madvise_remove()), a large folio split by MADV_COLD or
 * MADV_PAGEOUT (unmapped from every mapping:
 * madvise_cold_or_pageout_pte_range() @ v6.18), or an advice this kernel
 * has not. */
bool vmsys_madvise_beyond_range(const struct vmsys *s, uint64_t advice);
/* the model's OOM killer ended it (not the trace) */
bool task_oom_killed(const struct task *t);

/* --- calls ----------------------------------------------------------- */
/* `placement` (if has_placement) is the address the trace says mmap/mremap
 * returned: used instead of the model's own choice when that range is free. */
int64_t vm_mmap(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len,
		uint64_t prot, uint64_t flags, int64_t fd, uint64_t off,
		bool has_placement, uint64_t placement);
VMSIM_MEASURED int64_t vm_munmap(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len);
/* SysV shared memory (shm.c): shmget's id_hint is the id the trace
 * recorded (-1: none), shmat's placement the address it returned (as
 * vm_mmap()'s); shmctl's buffer is not modelled */
int64_t vm_shmget(struct vmsys *s, struct task *t, uint64_t key, uint64_t size, uint64_t flags,
		  int64_t id_hint);
int64_t vm_shmat(struct vmsys *s, struct task *t, int64_t id, uint64_t addr, uint64_t flags,
		 bool has_placement, uint64_t placement);
int64_t vm_shmdt(struct vmsys *s, struct task *t, uint64_t addr);
int64_t vm_shmctl(struct vmsys *s, struct task *t, int64_t id, uint64_t cmd);
/* the same with the call's buffer address: NULL is EFAULT where the kernel
 * copies it (before the lookup for IPC_SET, after it for the others) */
int64_t vm_shmctl_buf(struct vmsys *s, struct task *t, int64_t id, uint64_t cmd, uint64_t buf);
int64_t vm_mprotect(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len, uint64_t prot);
int64_t vm_mremap(struct vmsys *s, struct task *t, uint64_t old_addr, uint64_t old_len,
		  uint64_t new_len, uint64_t flags, uint64_t new_addr,
		  bool has_placement, uint64_t placement);
int64_t vm_madvise(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len, uint64_t advice);
int64_t vm_msync(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len, uint64_t flags);
int64_t vm_brk(struct vmsys *s, struct task *t, uint64_t addr);
/* Tell the model where the heap starts when the trace shows it (the
 * result of the first brk); no-op once known. */
void vm_brk_init(struct vmsys *s, struct task *t, uint64_t start);
int64_t vm_mlock(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len);
int64_t vm_mlock2(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len, uint64_t flags);
int64_t vm_munlock(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len);
int64_t vm_mlockall(struct vmsys *s, struct task *t, uint64_t flags);
int64_t vm_munlockall(struct vmsys *s, struct task *t);
/* fork/vfork/clone: child_pid from the trace (<= 0: the model picks one).
 * CLONE_VM makes a thread sharing the mm.  Returns the child's pid. */
int64_t vm_fork(struct vmsys *s, struct task *t, uint64_t clone_flags, int child_pid);
int64_t vm_execve(struct vmsys *s, struct task *t);
void vm_exit(struct vmsys *s, struct task *t);
/* wait4() reaped pid: an exited process is forgotten (its pid may come
 * again); a running or unknown one, and the first process, stay. */
void vm_release_task(struct vmsys *s, int pid);
/* A hint: pid will soon access addr; its page-table entry is prefetched
 * (no state changes, nothing allocated). */
void vmsys_prefetch(struct vmsys *s, int pid, uint64_t addr);
int64_t vm_open(struct vmsys *s, struct task *t, const char *path, size_t pathlen,
		uint64_t oflags, int want_fd);
/* openat(dirfd, ...): a relative path against dirfd's file (mount.c) */
int64_t vm_openat(struct vmsys *s, struct task *t, int64_t dirfd, const char *path, size_t pathlen,
		  uint64_t oflags, int want_fd);
int64_t vm_close(struct vmsys *s, struct task *t, int64_t fd);
int64_t vm_unlink(struct vmsys *s, struct task *t, const char *path, size_t pathlen);
int64_t vm_ftruncate(struct vmsys *s, struct task *t, int64_t fd, uint64_t len);
int64_t vm_fallocate(struct vmsys *s, struct task *t, int64_t fd, uint64_t mode,
		     uint64_t off, uint64_t len);
/* read/pread64/write/pwrite64: `done` is what the call transferred
 * (its result in the trace), or count when unknown; off < 0 = file position. */
int64_t vm_file_io(struct vmsys *s, struct task *t, int64_t fd, bool write,
		   int64_t off, uint64_t count, int64_t done);
/* An inherit_file line right before an execve line of the same process:
 * a file that execve reads to start the new image (the program, a #!
 * interpreter, the ELF interpreter; docs/trace-format.md), its cache
 * before the call.  vm_execve() reads the first page of each as
 * fs/exec.c does; any other event of the process forgets them. */
void vm_exec_reads(struct vmsys *s, struct task *t, const char *path, size_t pathlen);
/* fsync/fdatasync: the file's dirty pages are written back (clean now) */
int64_t vm_fsync(struct vmsys *s, struct task *t, int64_t fd);
/* fadvise64(fd, off, len, advice): POSIX_FADV_DONTNEED (4) drops the
 * clean, unmapped, unlocked pages of the range; other advice changes
 * nothing the model follows */
int64_t vm_fadvise(struct vmsys *s, struct task *t, int64_t fd, uint64_t off, uint64_t len,
		   uint64_t advice);
int64_t vm_setrlimit_memlock(struct vmsys *s, struct task *t, uint64_t cur, uint64_t max);
/* capset(): the effective and permitted sets, bit n = capability n
 * (cred.c: EPERM if permitted grows or effective is not within it) */
int64_t vm_capset(struct vmsys *s, struct task *t, uint64_t effective, uint64_t permitted);
/* setuid(r), setreuid(r, e), setresuid(r, e, sv); 0xffffffff (-1) leaves
 * that uid; the capabilities follow (cred.c) */
enum setuid_kind { SETUID_ONE, SETUID_RE, SETUID_RES };
/* the configuration's touches_unrecorded */
bool vmsys_touches_unrecorded(const struct vmsys *s);
/* t's permitted capabilities now (a capset line without them keeps them) */
uint64_t vmsys_cap_permitted(const struct task *t);
int64_t vm_setuid(struct vmsys *s, struct task *t, enum setuid_kind kind, uint32_t r, uint32_t e,
		  uint32_t sv);

/* descriptors: dup/dup2/dup3/F_DUPFD share the open file description
 * (newfd < 0: lowest free); vm_fd_new() installs fd for a call the model
 * does not follow otherwise (pipe2, eventfd2, socket ...: not mappable,
 * ENODEV) or memfd_create (memfd: a mappable shmem file). */
int64_t vm_dup(struct vmsys *s, struct task *t, int64_t oldfd, int newfd);
/* io_uring (io_uring.c): io_uring_setup(entries, params) as descriptor fd
 * (< 0: the lowest free), with the params' flags and cq_entries;
 * io_uring_register(fd, opcode, arg, nr_args), arg an iovec array (iov_known
 * false: a pointer the trace could not show); an opcode the model does not
 * follow (anything but IORING_(UN)REGISTER_BUFFERS), like io_uring_enter(),
 * answers other_result / result once the descriptor is checked. */
struct vm_iovec {
	uint64_t base, len;
};
#define VM_IORING_REGISTER_BUFFERS 0u
#define VM_IORING_UNREGISTER_BUFFERS 1u
int64_t vm_io_uring_setup(struct vmsys *s, struct task *t, uint64_t entries, uint64_t flags,
			  uint64_t cq_entries, int fd);
int64_t vm_io_uring_register(struct vmsys *s, struct task *t, int64_t fd, uint64_t opcode,
			     const struct vm_iovec *iov, size_t niov, bool iov_known,
			     uint64_t nr_args, int64_t other_result);
int64_t vm_io_uring_enter(struct vmsys *s, struct task *t, int64_t fd, bool registered_fd,
			  int64_t result);
/* Mounts (mount.c), applied once the call has succeeded (the model does
 * not compute their result): a mount of fstype ("ramfs", "tmpfs", any
 * other: a disk file system) on target, or with MS_BIND of source's;
 * umount of target's top mount; unshare(CLONE_NEWNS, CLONE_FS).  vmsys_mount() is
 * a mount the trace began with (`# ramfs:`, `# tmpfs:`), fstype a C
 * string. */
int vmsys_mount(struct vmsys *s, const char *path, size_t len, const char *fstype);
int64_t vm_mount(struct vmsys *s, struct task *t, const char *target, size_t tlen, const char *fstype,
		 size_t flen, const char *source, size_t slen, uint64_t flags);
int64_t vm_umount(struct vmsys *s, struct task *t, const char *target, size_t tlen, uint64_t flags);
int64_t vm_unshare(struct vmsys *s, struct task *t, uint64_t flags);
/* chdir(path) and fchdir(fd), once they succeeded: the working directory
 * relative paths resolve against (mount.c); vmsys_cwd() is the first
 * process's when the trace began (`# cwd:`).  vm_chdir() computes only
 * -KERR_ENAMETOOLONG (an argument of PATH_MAX bytes, a component over
 * NAME_MAX); a directory deeper than PATH_MAX is let go of (unknown) */
int64_t vm_chdir(struct vmsys *s, struct task *t, const char *path, size_t len);
int64_t vm_fchdir(struct vmsys *s, struct task *t, int64_t fd);
int vmsys_cwd(struct vmsys *s, const char *path, size_t len);
/* memfd_secret(flags) as descriptor fd (< 0: the lowest free) */
int64_t vm_memfd_secret(struct vmsys *s, struct task *t, uint64_t flags, int fd);
int64_t vm_fd_new(struct vmsys *s, struct task *t, int fd, const char *name, size_t namelen,
		  bool memfd);
/* whether fd was installed by a call of the trace (an fd the process
 * inherited is unknown to the model) */
bool vm_fd_seen(struct task *t, int64_t fd);

/* --- what existed before the trace (model/inherit.c) ----------------- */
enum vm_inherit_kind { VMI_ANON, VMI_FILE, VMI_HEAP, VMI_STACK, VMI_VDSO, VMI_VVAR };
struct vm_inherit {
	uint64_t start, end;       /* page aligned */
	uint64_t flags;            /* internal VM_* bits (vmsys_vmflags_parse), if flags_given */
	bool flags_given;          /* else they follow from perms and kind */
	char perms[5];             /* "r-xp" as /proc/PID/maps prints it */
	uint64_t pgoff;            /* VMI_FILE: page offset in the file */
	enum vm_inherit_kind kind;
	const char *path;          /* VMI_FILE */
	size_t pathlen;
};
/* A VMA the process had when the trace began (made by execve and the ELF
 * loader).  -EEXIST when the range is not free; an inherited [stack]
 * replaces the stack vm_execve() guessed. */
int64_t vm_inherit_vma(struct vmsys *s, struct task *t, const struct vm_inherit *m);
/* A file's size and the page ranges [cached[2i], cached[2i+1]) the page
 * cache held when the trace began. */
int64_t vm_inherit_file(struct vmsys *s, const char *path, size_t pathlen, uint64_t size,
			const uint64_t *cached, size_t ncached);
/* An fstat/newfstatat/statx of fd (or of path when fd < 0) showed size:
 * the model takes it for a file whose size it did not know.  1 learned,
 * 0 nothing to learn. */
int64_t vm_learn_file_size(struct vmsys *s, struct task *t, int64_t fd, const char *path,
			   size_t pathlen, uint64_t size);
/* Pages [index, index+nr) of the file named path left the page cache by
 * something outside the trace (memory pressure of other processes, the
 * host; recorded from the tracepoint filemap:mm_filemap_delete_from_page_cache):
 * unmapped everywhere and dropped, as shrink_folio_list() does with a
 * clean page.  Returns the number dropped. */
int64_t vm_evict_cached(struct vmsys *s, const char *path, size_t pathlen, uint64_t index,
			uint64_t nr);
/* The first hole (no VMA) in [start, end), page aligned: true with it in
 * [*hs, *he). */
bool vmsys_hole_in(struct vmsys *s, struct task *t, uint64_t start, uint64_t end,
		   uint64_t *hs, uint64_t *he);
/* VmFlags mnemonics ("rd wr mr mw me ac") to internal bits under the
 * machine's semantics; unknown mnemonics are ignored. */
uint64_t vmsys_vmflags_parse(const struct vmsys *s, const char *text, size_t len);
/* RLIMIT_MEMLOCK (bytes) and CAP_IPC_LOCK of a process, for reports */
void vmsys_task_limits(const struct task *t, uint64_t *cur, uint64_t *max, bool *cap);

/* --- pseudo-events --------------------------------------------------- */
enum vm_fault_kind { VMF_NONE = 0, VMF_MINOR = 1, VMF_MAJOR, VMF_SIGSEGV, VMF_SIGBUS };
/* One access at addr (mode: 1 read, 2 write, 4 exec): VMF_NONE when the
 * access did not fault, else the fault's kind. */
enum vm_fault_kind vm_access(struct vmsys *s, struct task *t, uint64_t addr, int mode);
/* Access every page of [addr, addr+len): number of faults, or -1 when an
 * access hit SIGSEGV/SIGBUS (*sig says which; the pages before it were
 * accessed; sig may be NULL). */
VMSIM_MEASURED int64_t vm_touch(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len, int mode,
		 enum vm_fault_kind *sig);
/*
 * The MMU's side of vm_touch(), for a replay's hot loop: a read or write
 * within one page whose PTE is present and permits it sets the PTE's
 * accessed (and, for a write, dirty) bit and returns true - exactly what
 * vm_touch() does for it, returning 0 faults.  Decided from the PTE alone,
 * as the CPU decides: a present PTE lies in a VMA that grants at least
 * what the PTE permits (invariant pte-vma).  Anything else (an exec, more
 * than one page, a PTE absent or not permitting the access) changes
 * nothing and returns false: then vm_touch() is the call.
 */
bool vm_touch_hit(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len, int mode);
/* A hint: t will soon access addr (its PTE is prefetched; no state changes). */
void vm_prefetch_pte(const struct task *t, uint64_t addr);
/* vm_touch_hit() for a run of t's accesses, each a read or write within
 * one page given by its key VM_HIT_KEY(), the i-th at byte i * stride from
 * key (the keys of an array of larger records), in order until the first
 * that is not a hit or whose key is VM_NOT_HIT: how many were (applied,
 * as vm_touch_hit() applies them); that one and the rest are untouched. */
#define VM_PAGE_SHIFT 12 /* the model's pages: 4 KiB (internal.h's PAGE_SHIFT) */
#define VM_HIT_KEY(addr, write) ((addr) >> VM_PAGE_SHIFT << 1 | (uint64_t)((write) != 0))
#define VM_NOT_HIT UINT64_MAX
VMSIM_MEASURED size_t vm_touch_hits(struct vmsys *s, struct task *t, const uint64_t *key, size_t stride, size_t n);
int64_t vm_reclaim(struct vmsys *s, uint64_t nr_pages);
/* memcg_force_empty(): memory.force_empty written for the memcg that the
 * trace's processes alone were charged to: reclaim until nothing more
 * goes (the semantics' memcg_reclaim_retries fruitless tries); 0. */
int64_t vm_memcg_force_empty(struct vmsys *s);
/* memcg_limit(BYTES): memory.limit_in_bytes of that memcg set to what
 * its kernel memory leaves for the trace's pages, BYTES (rounded down to
 * pages; -1: no limit).  Past it a new page first reclaims the memcg
 * (memcg_charge()); a limit below what is charged now reclaims down to
 * it first (mem_cgroup_resize_max()).  0, or -KERR_EBUSY when that
 * reclaim frees nothing (the limit stays as it was). */
int64_t vm_memcg_limit(struct vmsys *s, int64_t bytes);
/* memcg_max(BYTES): cgroup v2's memory.max of that memcg set, BYTES as
 * memcg_limit()'s (-1: "max").  A charge past it reclaims as past
 * memcg_limit() (the same page counter).  Below the usage, 6.x reclaims
 * the excess at the write, and after MAX_RECLAIM_RETRIES fruitless
 * calls runs the memcg OOM killer until it fits or no one is left; the
 * write returns 0 (mm/memcontrol.c:memory_max_write() @ v6.1).  4.x is
 * memcg_limit() (mem_cgroup_resize_limit(): -KERR_EBUSY). */
int64_t vm_memcg_max(struct vmsys *s, int64_t bytes);
/* memcg_high(BYTES): memory.high set (-1: "max").  6.x reclaims the
 * excess at the write, giving up after MAX_RECLAIM_RETRIES fruitless
 * calls (memory_high_write() @ v6.1); 4.x only stores it.  A charge past
 * it is not throttled here: the kernel reclaims on the return to user
 * space, in steps of the per-CPU charge batch whose phase depends on
 * kernel allocations the trace does not show (try_charge_memcg(),
 * mem_cgroup_handle_over_high()); the model notes it as an event. */
int64_t vm_memcg_high(struct vmsys *s, int64_t bytes);
/* memory.events of the trace's memcg (mm/memcontrol.c:memory_events_show()) */
enum memcg_event { MEMCG_EV_MAX, MEMCG_EV_OOM, MEMCG_EV_OOM_KILL, NR_MEMCG_EVENTS };
uint64_t vmsys_memcg_event(const struct vmsys *s, enum memcg_event e);
/* The memory.events name (memcg_events_max, memcg_events_oom,
 * memcg_events_oom_kill) as an enum memcg_event, or -1. */
int memcg_event_find(const char *name, unsigned len);
/* numa_scan(): t runs until its next pass of the NUMA balancing PTE scan
 * (task_tick_numa(), task_numa_work()) and that pass runs; returns the
 * PTEs it made PROT_NONE. */
int64_t vm_numa_scan(struct vmsys *s, struct task *t);
/* numa_run(MS): t runs MS ms on its CPU (ticks of HZ 250): the passes
 * that come due run; returns how many ran. */
int64_t vm_numa_run(struct vmsys *s, struct task *t, uint64_t ms);
/* numa_node(N): t runs on a CPU of node N from now on (its faults
 * allocate there, hinting faults pull pages there); -EINVAL past the
 * machine's nodes. */
int64_t vm_numa_node(struct vmsys *s, struct task *t, uint64_t node);
/* The NUMA statistics of a task that took a hinting fault: its preferred
 * node (-1 none) and the pages migrated for it; false before any. */
bool numa_task_info(const struct task *t, int *preferred_nid, uint64_t *pages_migrated);
/* The machine's NUMA nodes (1 to 64) and the frames free on node nid. */
unsigned vmsys_numa_nodes(const struct vmsys *s);
uint64_t vmsys_node_free(const struct vmsys *s, unsigned nid);
unsigned vmsys_task_node(const struct task *t);
/* The NUMA scan of t: where it goes on in t's mm and how many full passes
 * it made; its clock - the machine's jiffies (HZ 250), t's CPU time in ms,
 * its scan period in ms and the jiffy the mm's next scan is due (0: not
 * set yet). */
struct numa_clock { uint64_t offset, seq, jiffies, runtime_ms, period_ms, next_scan; };
void vmsys_numa_clock(const struct vmsys *s, const struct task *t, struct numa_clock *c);
/* The present pages of [start, end) of t per node (counts[nid], nid <
 * nnodes) and how many of them are PROT_NONE for a hinting fault. */
void vmsys_range_nodes(struct vmsys *s, struct task *t, uint64_t start, uint64_t end, uint64_t *counts,
		       unsigned nnodes, uint64_t *protnone);
int64_t vm_drop_caches(struct vmsys *s, int what);
/* How full the per-CPU batches are: pages queued and the size at which
 * each is moved (lru_add, mlock). */
void vmsys_batches(const struct vmsys *s, unsigned *lru_add, unsigned *lru_add_max, unsigned *mlock,
		   unsigned *mlock_max);
/* lru_add_drain_all(): empty every per-CPU batch. */
void vm_drain_all(struct vmsys *s);
/* statehash.c: a 128-bit hash of everything that decides what later
 * calls do and which invariants hold - processes, mms, VMAs, PTEs, pages,
 * files, the lists and batches, the gauges - with frames, files,
 * anon_vmas and mms named by the order a fixed walk meets them, so that
 * two machines alike but for allocation order hash alike.  The event
 * counters are left out.  For vmsim check --exhaustive. */
void vmsys_state_hash(struct vmsys *s, uint64_t out[2]);

/* --- observation ------------------------------------------------------ */
struct vm_status {           /* /proc/PID/status, in pages */
	uint64_t total_vm, locked_vm, pinned_vm, rss_anon, rss_file, rss_shmem, swap_ents;
	uint64_t data_vm, stack_vm, exec_vm, hiwater_rss, hiwater_vm;
	uint64_t min_flt, maj_flt; /* the task's, as getrusage() counts them (not pages) */
	uint64_t hugetlb_pages;    /* HugetlbPages: its mapped hugetlb pages, in small pages */
};
void vmsys_status(struct vmsys *s, struct task *t, struct vm_status *st);

struct vm_vma_info {         /* one VMA as smaps shows it; sizes in bytes */
	uint64_t start, end, pgoff;
	uint64_t flags;          /* internal VM_* bits */
	uint64_t rss, pss, pss_dirty, shared_clean, shared_dirty, private_clean,
		private_dirty, referenced, anonymous, swap, locked;
	uint64_t anon_huge;      /* AnonHugePages: its ranges a THP's PMD maps */
	uint64_t dev_major, dev_minor, ino;
	const char *path;        /* file path, "[heap]", "[stack]", or NULL */
	bool is_file;
	uint32_t serial;
};
/* Iterate a process's VMAs in address order: pass NULL first, then the
 * previous result.  fill info for each. */
const struct vma *vmsys_vma_next(struct vmsys *s, struct task *t, const struct vma *prev,
				 struct vm_vma_info *info);
/* The first VMA that ends above addr (find_vma()), filled into info, or
 * NULL: where an iteration from addr starts without walking the VMAs below
 * (go on with vmsys_vma_next()). */
const struct vma *vmsys_vma_from(struct vmsys *s, struct task *t, uint64_t addr, struct vm_vma_info *info);
/* A VMA's bounds and internal flags alone, without the smaps figures that
 * info's walk of its pages computes (from vmsys_vma_next() or
 * vmsys_vma_from() called with a NULL info). */
struct vm_vma_brief {
	uint64_t start, end, flags;
};
void vmsys_vma_brief(const struct vma *v, struct vm_vma_brief *b);
/* A VMA as a picture needs it: info's bounds, pgoff, flags, name (path,
 * is_file, dev, ino, serial) and rss - the PTEs that map a page of their
 * own - and nothing else of smaps (left 0): no struct page is read. */
void vmsys_vma_glance(struct vmsys *s, const struct vma *v, struct vm_vma_info *info);
/* The VMA containing addr, filled into info; false if none. */
bool vmsys_vma_at(struct vmsys *s, struct task *t, uint64_t addr, struct vm_vma_info *info);
uint64_t vmsys_vma_count(struct vmsys *s, struct task *t, uint64_t start, uint64_t end);
uint64_t vmsys_map_count(struct vmsys *s, struct task *t);
uint64_t vmsys_def_flags(struct vmsys *s, struct task *t);

/* VM_* bits in the model's numbering as this machine's kernel numbers them
 * (its include/linux/mm.h, struct semantics' table): what /proc and the
 * kernel's own messages would show; a bit the kernel has not is left out. */
uint64_t vmsys_vmflags_kernel(const struct vmsys *s, uint64_t flags);
/* VmFlags text of internal flags under the machine's semantics. */
size_t vmsys_vmflags_text(const struct vmsys *s, uint64_t flags, char *buf, size_t len);

struct vm_page_info {        /* pagemap + kpageflags of one virtual page */
	bool present, swapped, file, exclusive, soft_dirty;
	uint32_t pfn;
	bool lru, active, referenced, unevictable, mlocked, dirty, anon, swapbacked,
		swapcache, zero, mmap, writeback, uptodate;
	uint32_t mapcount, mlock_count;
	bool pte_write, pte_young, pte_dirty;
};
/* false if addr is not mapped by any PTE or swap entry (info->present = 0). */
bool vmsys_page(struct vmsys *s, struct task *t, uint64_t addr, struct vm_page_info *info);
/* What vmsim diff compares of a page, without the rest of vmsys_page():
 * -1 if addr has no PTE or swap entry, else bits 1 present, 2 mlocked,
 * 4 unevictable, 8 lru (0 for a page out on swap). */
int vmsys_page_bits(struct vmsys *s, struct task *t, uint64_t addr);
/* The same for the first page at or above *addr and below end that has a
 * PTE or swap entry, its address in *addr: one walk of the page table
 * where vmsys_next_page() and vmsys_page_bits() take two; -1 if none. */
int vmsys_next_page_bits(struct vmsys *s, struct task *t, uint64_t *addr, uint64_t end);
/* The addresses [*lo, *hi) at which the folio of the page mapped at addr
 * would be mapped whole, within addr's page table (2 MiB): the page alone
 * for a small folio; false when addr maps nothing. */
bool vmsys_folio_span(struct vmsys *s, struct task *t, uint64_t addr, uint64_t *lo, uint64_t *hi);
/* The first page address >= *addr and < end that has a PTE or swap entry:
 * true with it in *addr.  Walks the page table, so a walk over a mapping
 * costs what is present in it, not its size. */
bool vmsys_next_page(struct vmsys *s, struct task *t, uint64_t *addr, uint64_t end);

/* Tests: the reverse map of an anonymous page walks every VMA of every
 * live mm instead of its anon_vma's chains (model/rmap.c; the same
 * answers, which tests/unit/test_rmap.c compares). */
void vmsys_set_rmap_full_walk(struct vmsys *s, bool on);

/* Global counters (vmstat.h items) and memory totals in pages. */
int64_t vmsys_vmstat(const struct vmsys *s, int item);
struct vm_meminfo {
	uint64_t total, free, active_anon, inactive_anon, active_file, inactive_file,
		unevictable, mlocked, swap_total, swap_free, dirty, writeback, anon_pages,
		mapped, shmem, file_pages, swap_cached, page_tables;
	/* the hugetlb pool, in huge pages (HugePages_Total, _Free, _Rsvd) */
	uint64_t huge_total, huge_free, huge_rsvd;
	uint64_t anon_huge;        /* AnonHugePages, pages (NR_ANON_THPS) */
};
void vmsys_meminfo(const struct vmsys *s, struct vm_meminfo *mi);
/* MemTotal - MemFree of vmsys_meminfo(), in pages, without the rest */
uint64_t vmsys_frames_used(const struct vmsys *s);

/* Whether LRU list `list` is linked; the 6.x unevictable list is a count
 * only, and vmsys_lru_walk() gives its pages in pfn order. */
bool vmsys_lru_linked(const struct vmsys *s, int list);
/* LRU walk for the `lru` view: calls fn for every page on list l in order
 * from head (most recent) to tail. */
void vmsys_lru_walk(struct vmsys *s, int list, void (*fn)(void *ctx, uint32_t pfn,
		    const struct vm_page_info *pi), void *ctx);
uint64_t vmsys_lru_size(const struct vmsys *s, int list);

/* Events the model raised during the last call (OOM kills, SIGSEGV from
 * stack growth ...), as short texts; cleared at each call. */
unsigned vmsys_nevents(const struct vmsys *s);
const char *vmsys_event(const struct vmsys *s, unsigned i);

/* Listen to the model's tracepoints (tracepoint.h): fn(ctx, e) for every
 * step of every later call, until it is set again (fn NULL = nobody). */
void vmsys_set_tracepoint(struct vmsys *s, tp_fn fn, void *ctx);

/* --- invariants ------------------------------------------------------- */
/* Check the model's internal consistency (tree, lists, counters, mlock
 * state, locked_vm).  Returns the number of violations; writes the first
 * into msg. */
unsigned vmsys_check_invariants(struct vmsys *s, char *msg, size_t len);
/* The same rules where one access can break them: the LRU list sizes
 * against their counters, and - for each of the n pages an event
 * touched (the pfns its tracepoints named) - the page's list and links,
 * and the mlocked-vma rule.  O(n), for the events between full walks. */
unsigned vmsys_check_pages(struct vmsys *s, const uint32_t *pfns, size_t n, char *msg, size_t len);

/* Iterate processes: pass NULL first. */
struct task *vmsys_task_next(struct vmsys *s, struct task *prev);

#endif
