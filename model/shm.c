/*
 * shm.c - SysV shared memory: shmget, shmat, shmdt, shmctl (vmsys.h), the
 * segments' shmem objects, SHM_LOCK and the user's locked_shm.
 *
 * A segment (ipc/shm.c: struct shmid_kernel) holds a shmem file
 * (newseg() -> shmem_kernel_file_setup(), "/SYSV%08x (deleted)" in maps).
 * Its attach count is its mappings: every VMA of the file (shm_open() on
 * each mmap, fork and split, shm_close() on each unmap), here the file's
 * i_mmap list.  IPC_RMID marks it SHM_DEST and destroys it now if nothing
 * is attached, else at the last detach (shm_may_destroy()).
 *
 * SHM_LOCK (shmctl_do_lock() -> shmem_lock() @ v4.4, v6.18) charges the
 * segment's size once to the user's locked_shm against RLIMIT_MEMLOCK
 * (user_shm_lock(): refused with ENOMEM past the limit unless
 * CAP_IPC_LOCK; with a limit of 0 shmctl refuses with EPERM first) and
 * makes the mapping unevictable (mapping_set_unevictable()): a page added
 * to the LRU after that is culled to the unevictable list, a page already
 * on a list is culled when reclaim meets it.  SHM_UNLOCK uncharges, clears
 * it, and shmem_unlock_mapping() -> check_move_unevictable_folios() moves
 * each page of the page cache back (unevictable_pgs_scanned counts every
 * page looked at, _rescued every page moved).  VmLck does not change: the
 * charge is the user's, not the mm's.  The machine has one user.
 *
 * SHM_HUGETLB makes the segment a hugetlbfs file of its size rounded up
 * to the huge page (hugetlb.c), the pool's pages reserved now unless
 * SHM_NORESERVE (ENOMEM); without CAP_IPC_LOCK it is EPERM on 5.16+,
 * charged to locked_shm on 4.x (semantics.h: shm_hugetlb_memlock).
 * SHM_LOCK and SHM_UNLOCK of it do nothing (shmctl_do_lock()).  The id of a new segment is the one the trace recorded (the
 * kernel's idr numbering is not modelled), else a new number.
 *
 * May call: internal (vma, file, lru, mmap helpers).
 */
#include "internal.h"

#include <stdlib.h>

#include "alloc.h"

struct shm_seg {
	int id;
	uint64_t key;            /* 0 (IPC_PRIVATE) once IPC_RMID ran */
	uint64_t size;           /* shm_segsz: bytes, as asked */
	struct file *file;
	unsigned mode;           /* the permission bits */
	bool locked;             /* SHM_LOCKED: its size is charged to locked_shm */
	bool dest;               /* SHM_DEST: IPC_RMID ran, destroyed at the last detach */
	uint64_t huge_charge;    /* 4.x SHM_HUGETLB: pages charged to locked_shm (mlock_user) */
	struct shm_seg *next;
};

#define IPC_CREAT 01000
#define IPC_EXCL 02000
#define SHM_HUGETLB 04000
#define SHM_NORESERVE 010000
#define SHM_RDONLY 010000
#define SHM_RND 020000
#define SHM_REMAP 040000
#define SHM_EXEC 0100000
#define IPC_RMID 0
#define IPC_SET 1
#define IPC_STAT 2
#define IPC_INFO 3
#define SHM_LOCK 11
#define SHM_UNLOCK 12
#define SHM_STAT 13
#define SHM_INFO 14
#define SHM_STAT_ANY 15
#define IPC_64 0x100
#define SHMLBA PAGE_SIZE              /* x86 and the generic arches */
#define SHMMAX (~0ULL - (1ULL << 24)) /* include/uapi/linux/shm.h @ v4.4, v6.18 */
#define IPCMNI_MASK 0x7fff
/* kernel.shmmni's default (include/uapi/linux/shm.h:SHMMNI @ v4.4, v6.18):
 * ipc/util.c:ipc_addid() answers ENOSPC once that many segments exist;
 * kernel.shmall's default, ULONG_MAX - 2^24 pages, never binds here */
#define SHMMNI 4096

static struct shm_seg *seg_by_id(struct vmsys *s, int64_t id)
{
	if (id < 0)
		return NULL;
	for (struct shm_seg *g = s->shm_segs; g; g = g->next)
		if (g->id == id)
			return g;
	return NULL;
}

static unsigned nattch(const struct shm_seg *g)
{
	unsigned n = 0;
	for (const struct vma *v = g->file->i_mmap; v; v = v->file_next)
		n++;
	return n;
}

/* mm/mlock.c:user_shm_lock() @ v6.18 (@ v4.4 the same against
 * user->locked_shm): pages charged to locked_shm unless that passes
 * RLIMIT_MEMLOCK without cap; err is what the caller answers a refusal
 * with (for the tracepoint) */
static bool user_shm_lock(struct vmsys *s, struct task *t, uint64_t pages, bool cap, int err)
{
	bool over = t->rlim_memlock_cur != UINT64_MAX && s->locked_shm + pages > rlimit_memlock_pages(t);
	TP(s, TP_LIMIT, KFN_USER_SHM_LOCK, .delta = (int64_t)pages, .before = s->locked_shm,
	   .limit = rlimit_memlock_pages(t), .cap = cap, .err = over && !cap ? err : 0);
	if (over && !cap)
		return false;
	s->locked_shm += pages;
	return true;
}

/* mm/mlock.c:user_shm_unlock() */
static void user_shm_unlock(struct vmsys *s, uint64_t pages)
{
	s->locked_shm -= pages < s->locked_shm ? pages : s->locked_shm;
}

/* mm/shmem.c:shmem_lock() with lock = 0: the charge and the flag go */
static void seg_unlock(struct vmsys *s, struct shm_seg *g)
{
	if (!g->locked)
		return;
	user_shm_unlock(s, (g->file->size + PAGE_SIZE - 1) >> PAGE_SHIFT);
	g->locked = false;
	g->file->unevictable = false;
	s->nr_unevictable_mappings--;
}

/* ipc/shm.c:shm_destroy(): unlocked, unlinked, its file let go */
static void seg_destroy(struct vmsys *s, struct shm_seg *g)
{
	seg_unlock(s, g);
	user_shm_unlock(s, g->huge_charge); /* shm_destroy() @ v4.4: SHM_HUGETLB's */
	for (struct shm_seg **pp = &s->shm_segs; *pp; pp = &(*pp)->next)
		if (*pp == g) {
			*pp = g->next;
			break;
		}
	g->file->shm = NULL;
	file_put(s, g->file);
	free(g);
	s->shm_nsegs--;
}

void shm_vma_gone(struct vmsys *s, struct file *f)
{
	struct shm_seg *g = f->shm;
	if (g && g->dest && !f->i_mmap)
		seg_destroy(s, g);
}

void shm_free_all(struct vmsys *s)
{
	while (s->shm_segs) {
		struct shm_seg *g = s->shm_segs;
		s->shm_segs = g->next;
		free(g);
	}
	s->shm_nsegs = 0;
}

/* ipc/shm.c:newseg()'s SHM_HUGETLB part: hstate_sizelog(), the size
 * rounded up, hugetlb_file_setup() with HUGETLB_SHMFS_INODE: the
 * capability test (can_do_hugetlb_shm(); the hugetlb_shm_group sysctl is
 * taken as a group the process is not in, gids not being modelled), then
 * the reservation */
static int newseg_hugetlb(struct vmsys *s, struct task *t, struct shm_seg *g, uint64_t key,
			  uint64_t size, uint64_t flags)
{
	if (!hugetlb_sizelog_ok((flags >> MAP_HUGE_SHIFT) & MAP_HUGE_MASK))
		return -KERR_EINVAL;
	uint64_t hugesize = HPAGE_ALIGN(size);
	uint64_t pages = hugesize >> PAGE_SHIFT;
	if (!capable_ipc_lock(t)) {
		if (!s->sem->shm_hugetlb_memlock)
			return -KERR_EPERM; /* @ v6.1, v6.18 */
		if (!user_shm_lock(s, t, pages, false, -KERR_EPERM))
			return -KERR_EPERM;
		g->huge_charge = pages;
	}
	char name[SHM_FILE_NAME_MAX];
	size_t n = shm_file_name(name, key);
	int err;
	g->file = hugetlb_file_setup(s, name, n, hugesize, true, !(flags & SHM_NORESERVE), &err);
	if (!g->file) {
		user_shm_unlock(s, g->huge_charge); /* the out_shm_unlock path */
		return err;
	}
	return 0;
}

/* ipc/shm.c:newseg() */
static int64_t newseg(struct vmsys *s, struct task *t, uint64_t key, uint64_t size, uint64_t flags,
		      int64_t id_hint)
{
	if (size < 1 || size > SHMMAX)
		return -KERR_EINVAL;
	struct shm_seg *g = vm_calloc(1, sizeof(*g));
	if (!g)
		return -KERR_ENOMEM;
	if (flags & SHM_HUGETLB) {
		int err = newseg_hugetlb(s, t, g, key, size, flags);
		if (err) {
			free(g);
			return err;
		}
	} else {
		g->file = shm_file_create(s, key, size);
	}
	if (!g->file) {
		free(g);
		return -KERR_ENOMEM;
	}
	/* ipc_addid() after the file is made (newseg() @ v4.4, v6.1): the
	 * file's errors come first, then ENOSPC past SHMMNI segments; the
	 * file goes again (fput(), a hugetlb file's reservation with it) */
	if (s->shm_nsegs >= SHMMNI) {
		file_put(s, g->file);
		user_shm_unlock(s, g->huge_charge);
		free(g);
		return -KERR_ENOSPC;
	}
	g->file->shm = g;
	g->key = key;
	g->size = size;
	g->mode = (unsigned)(flags & 0777);
	/* the recorded id, if it is not taken; else the next free number */
	if (id_hint >= 0 && id_hint <= 0x7fffffff && !seg_by_id(s, id_hint)) {
		g->id = (int)id_hint;
	} else {
		do
			g->id = s->next_shmid++;
		while (seg_by_id(s, g->id));
	}
	g->next = s->shm_segs;
	s->shm_segs = g;
	s->shm_nsegs++;
	return g->id;
}

int64_t vm_shmget(struct vmsys *s, struct task *t, uint64_t key, uint64_t size, uint64_t flags,
		  int64_t id_hint)
{
	s->nevents = 0;
	key &= 0xffffffffULL; /* key_t */
	if (!key)
		return newseg(s, t, 0, size, flags, id_hint); /* IPC_PRIVATE */
	struct shm_seg *g = NULL;
	for (struct shm_seg *h = s->shm_segs; h && !g; h = h->next)
		if (h->key == key)
			g = h;
	if (!g) {
		if (!(flags & IPC_CREAT))
			return -KERR_ENOENT;
		return newseg(s, t, key, size, flags, id_hint);
	}
	if ((flags & IPC_CREAT) && (flags & IPC_EXCL))
		return -KERR_EEXIST;
	if (g->size < size) /* shm_more_checks() */
		return -KERR_EINVAL;
	return g->id;
}

int64_t vm_shmat(struct vmsys *s, struct task *t, int64_t id, uint64_t addr, uint64_t flags,
		 bool has_placement, uint64_t placement)
{
	s->nevents = 0;
	if (id < 0)
		return -KERR_EINVAL;
	bool fixed = false;
	if (addr) {
		if (addr & (SHMLBA - 1)) {
			if (flags & SHM_RND) {
				addr &= ~(uint64_t)(SHMLBA - 1);
				if (!addr && (flags & SHM_REMAP))
					return -KERR_EINVAL;
			} else if (addr & ~PAGE_MASK) {
				return -KERR_EINVAL;
			}
		}
		fixed = true;
	} else if (flags & SHM_REMAP) {
		return -KERR_EINVAL;
	}
	struct shm_seg *g = seg_by_id(s, id);
	if (!g)
		return -KERR_EINVAL;
	const struct arch_flags *af = &s->af;
	uint64_t prot = af->prot_read | ((flags & SHM_RDONLY) ? 0 : af->prot_write) |
			((flags & SHM_EXEC) ? af->prot_exec : 0);
	/* do_shmat(): the file's i_size (a SHM_HUGETLB segment's is rounded
	 * up to the huge page) */
	uint64_t size = g->file->huge ? g->file->size : PAGE_ALIGN(g->size);
	if (fixed && !(flags & SHM_REMAP)) {
		if (addr + size < addr)
			return -KERR_EINVAL;
		if (vmsys_vma_count(s, t, addr, addr + size))
			return -KERR_EINVAL; /* find_vma_intersection() */
	}
	return mmap_shared_file(s, t, g->file, addr, size, prot, fixed, has_placement, placement);
}

static bool shm_vma_from(const struct vma *v, uint64_t addr)
{
	return v->file && v->file->shm && (v->start - addr) / PAGE_SIZE == v->pgoff;
}

/* ipc/shm.c:ksys_shmdt() @ v4.4, v6.18: the first shm VMA at or after
 * addr that maps its segment from addr is unmapped and names the
 * segment; then every VMA of that attach (the same file description)
 * that maps it from addr, up to the first VMA ending past addr + size */
int64_t vm_shmdt(struct vmsys *s, struct task *t, uint64_t addr)
{
	s->nevents = 0;
	if (addr & ~PAGE_MASK)
		return -KERR_EINVAL;
	struct mm *mm = t->mm;
	struct vma *v = vma_find(&mm->vmas, addr);
	while (v && !shm_vma_from(v, addr))
		v = v->next;
	if (!v)
		return -KERR_EINVAL;
	struct file *f = v->file;
	uint32_t ofd = v->ofd;
	uint64_t size = PAGE_ALIGN(f->size), next = v->end;
	file_get(f); /* its segment may go with the last of these */
	do_munmap(s, t, v->start, v->end - v->start);
	for (v = vma_find(&mm->vmas, next); v && v->end - addr <= size;) {
		if (shm_vma_from(v, addr) && v->file == f && v->ofd == ofd) {
			next = v->end;
			do_munmap(s, t, v->start, v->end - v->start);
			v = vma_find(&mm->vmas, next);
		} else {
			v = v->next;
		}
	}
	file_put(s, f);
	return 0;
}

/* mm/vmscan.c:check_move_unevictable_folios() @ v6.18
 * (check_move_unevictable_pages() @ v4.4) over the page cache of f */
static void move_unevictable(struct vmsys *s, struct file *f)
{
	uint64_t scanned = 0, rescued = 0;
	for (uint64_t idx = 0; radix_next(&f->cache, &idx, RADIX_KEY_MAX); idx++) {
		pfn_t pfn = (pfn_t)radix_get(&f->cache, idx);
		struct page *p = spage(s, pfn);
		scanned++;
		if (!(p->flags & PG_LRU))
			continue; /* in a per-CPU batch: folio_test_clear_lru() fails */
		if ((p->flags & PG_UNEVICTABLE) && folio_evictable(s, p)) {
			lru_del_page(s, pfn);
			p->flags &= ~PG_UNEVICTABLE;
			lru_add_page(s, pfn, page_lru(p));
			rescued++;
			TP(s, TP_PAGE, KFN_MOVE_UNEVICTABLE, .kind = TPP_RESCUE, .pfn = pfn,
			   .list_from = LRU_UNEVICTABLE, .list_to = (uint8_t)page_lru(p));
		}
	}
	count_vm(s, UNEVICTABLE_PGS_RESCUED, (int64_t)rescued);
	count_vm(s, UNEVICTABLE_PGS_SCANNED, (int64_t)scanned);
}

/* ipc/shm.c:ksys_shmctl() @ v6.1, v6.12 (sys_shmctl() and shmctl_down()
 * @ v4.0, v4.4): where the call copies its buffer.  IPC_SET copies it in
 * before the segment is looked up, so a bad buffer is EFAULT whatever the
 * id (past a negative id's EINVAL); IPC_STAT, SHM_STAT(_ANY), IPC_INFO and
 * SHM_INFO copy out once the lookup has succeeded.  buf 0 (NULL) is the one
 * address the model knows to be bad: any other is taken as good. */
int64_t vm_shmctl_buf(struct vmsys *s, struct task *t, int64_t id, uint64_t cmd, uint64_t buf)
{
	uint64_t c = cmd & ~(uint64_t)IPC_64;
	if (c == IPC_SET && !buf && id >= 0) {
		s->nevents = 0;
		return -KERR_EFAULT;
	}
	int64_t r = vm_shmctl(s, t, id, cmd);
	if (r >= 0 && !buf &&
	    (c == IPC_STAT || c == SHM_STAT || c == SHM_STAT_ANY || c == IPC_INFO || c == SHM_INFO))
		return -KERR_EFAULT;
	return r;
}

int64_t vm_shmctl(struct vmsys *s, struct task *t, int64_t id, uint64_t cmd)
{
	s->nevents = 0;
	cmd &= ~(uint64_t)IPC_64;
	/* ksys_shmctl() @ v6.1, v6.12 (sys_shmctl() @ v4.0, v4.4): a negative
	 * id is EINVAL before the command is looked at, IPC_INFO's too */
	if (id < 0)
		return -KERR_EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case SHM_INFO: {
		/* the highest index in use (ipc_get_maxidx()), 0 with none */
		int64_t max = 0;
		for (struct shm_seg *g = s->shm_segs; g; g = g->next)
			if ((g->id & IPCMNI_MASK) > max)
				max = g->id & IPCMNI_MASK;
		return max;
	}
	case SHM_STAT:
	case SHM_STAT_ANY:
		/* id is an index here: the segment's id */
		for (struct shm_seg *g = s->shm_segs; g; g = g->next)
			if ((g->id & IPCMNI_MASK) == id)
				return g->id;
		return -KERR_EINVAL;
	}
	struct shm_seg *g = seg_by_id(s, id);
	if (!g)
		return -KERR_EINVAL;
	switch (cmd) {
	case IPC_STAT:
	case IPC_SET:
		return 0;
	case IPC_RMID:
		/* ipc/shm.c:do_shm_rmid(): its key goes now, the segment with
		 * its last attach */
		g->key = 0;
		g->dest = true;
		if (!nattch(g))
			seg_destroy(s, g);
		return 0;
	case SHM_LOCK:
	case SHM_UNLOCK: {
		/* ipc/shm.c:shmctl_do_lock(): the owner (one user here) may; a
		 * limit of 0 refuses SHM_LOCK without CAP_IPC_LOCK */
		if (!capable_ipc_lock(t) && cmd == SHM_LOCK && !t->rlim_memlock_cur)
			return -KERR_EPERM;
		if (g->file->huge)
			return 0; /* is_file_hugepages(): nothing to lock */
		if (cmd == SHM_UNLOCK) {
			if (!g->locked)
				return 0;
			seg_unlock(s, g);
			move_unevictable(s, g->file); /* shmem_unlock_mapping() */
			return 0;
		}
		if (g->locked)
			return 0; /* charged once (shmem_lock(): info->flags & VM_LOCKED) */
		uint64_t pages = (g->file->size + PAGE_SIZE - 1) >> PAGE_SHIFT;
		if (!user_shm_lock(s, t, pages, capable_ipc_lock(t), -KERR_ENOMEM))
			return -KERR_ENOMEM;
		g->locked = true;
		g->file->unevictable = true; /* mapping_set_unevictable() */
		s->nr_unevictable_mappings++;
		return 0;
	}
	}
	return -KERR_EINVAL;
}
