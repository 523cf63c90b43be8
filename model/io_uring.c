/*
 * io_uring.c - io_uring instances as the memory code sees them: the ring
 * and SQE pages a process maps, and the buffers it registers, which are
 * pinned and charged (vmsys.h: vm_io_uring_setup(), _register(), _enter()).
 *
 * io_uring_setup() (io_uring/io_uring.c:io_uring_create() @ v6.1, v6.18)
 * sizes the rings from the entries (a power of two; the CQ ring twice the
 * SQ ring unless IORING_SETUP_CQSIZE) and allocates two areas of kernel
 * pages: the rings (struct io_rings, the CQEs, the SQ index array:
 * rings_size()) and the SQEs.  Each is one compound allocation of
 * get_order(size) when that order is at most 10 (io_mem_alloc_compound()),
 * else single pages; the pages are charged to the memcg (GFP_KERNEL_ACCOUNT)
 * and on no LRU.  6.13+ (io_create_region()) also charges them to the
 * user's locked_vm against RLIMIT_MEMLOCK, unless CAP_IPC_LOCK.
 *
 * mmap of the instance's file at IORING_OFF_SQ_RING or IORING_OFF_CQ_RING
 * maps the ring pages (as many as the VMA holds), at IORING_OFF_SQES all
 * the SQE pages (EFAULT if the VMA is smaller: vm_insert_pages()).  The
 * pages are inserted by io_uring_mmap() itself, so the VMA is VM_MIXEDMAP
 * and VM_DONTEXPAND (never locked, never merged) and a fault in it is
 * SIGBUS.  io_uring_get_unmapped_area() refuses an address hint (EINVAL)
 * and an unknown offset (ENOMEM).  Both ring offsets map the same pages:
 * the model gives their VMAs page offset 0 (maps shows 0x8000000 for the
 * CQ ring), the SQE VMA 0x10000.
 *
 * IORING_REGISTER_BUFFERS (io_uring/rsrc.c:io_sqe_buffers_register())
 * pins each buffer's pages with pin_user_pages(FOLL_WRITE | FOLL_LONGTERM):
 * GUP write faults (breaking COW), a refcount bias per page (GUP_PIN_BIAS)
 * and, per buffer, io_account_mem(): the user's locked_vm against
 * RLIMIT_MEMLOCK (ENOMEM; unless CAP_IPC_LOCK, the instance has no user to
 * charge) and the creating mm's pinned_vm (VmPin).  A failure part way
 * undoes every buffer of the call.  IORING_UNREGISTER_BUFFERS undoes them
 * (ENXIO if none).  The last reference to the file (its descriptors and
 * its mappings) frees the instance; the kernel does that from a workqueue
 * (io_ring_exit_work()), the model at once.
 *
 * Not modelled: IORING_SETUP_NO_MMAP's user-provided rings, huge pages in
 * a buffer (counted whole once, headpage_already_acct()), the other
 * register opcodes and io_uring_enter()'s work, whose memory effects are
 * in the pages of registered buffers or in I/O the trace shows as faults:
 * the model checks their descriptor and takes the trace's result.  Users
 * are told apart by real uid (SysV shm's locked_shm is still the machine's
 * one user's).
 *
 * May call: internal (files, faults, page references).
 */
#include "internal.h"

#include <stdlib.h>

#include "alloc.h"

/* include/uapi/linux/io_uring.h */
#define IORING_OFF_SQ_RING 0ULL
#define IORING_OFF_CQ_RING 0x8000000ULL
#define IORING_OFF_SQES 0x10000000ULL
#define IORING_SETUP_SQPOLL (1u << 1)
#define IORING_SETUP_CQSIZE (1u << 3)
#define IORING_SETUP_CLAMP (1u << 4)
#define IORING_SETUP_COOP_TASKRUN (1u << 8)
#define IORING_SETUP_TASKRUN_FLAG (1u << 9)
#define IORING_SETUP_SQE128 (1u << 10)
#define IORING_SETUP_CQE32 (1u << 11)
#define IORING_SETUP_SINGLE_ISSUER (1u << 12)
#define IORING_SETUP_DEFER_TASKRUN (1u << 13)
#define IORING_SETUP_NO_MMAP (1u << 14)
#define IORING_SETUP_NO_SQARRAY (1u << 16)
#define IORING_MAX_ENTRIES 32768u
#define IORING_MAX_CQ_ENTRIES (2u * IORING_MAX_ENTRIES)
#define IORING_MAX_REG_BUFFERS (1u << 14)
#define IORING_REGISTER_USE_REGISTERED_RING (1u << 31)

#define SQES_INDEX (IORING_OFF_SQES >> PAGE_SHIFT)
#define MAX_COMPOUND_ORDER 10

struct ring_area {
	pfn_t *pfns;
	uint32_t nr_pages;  /* the area's pages (mapped) */
	uint32_t nr_alloc;  /* allocated: a compound allocation rounds up */
};

struct ring_buf {
	pfn_t *pfns;        /* the pinned pages */
	uint32_t nr_pages;
	uint64_t acct_pages;
};

struct io_ring {
	struct ring_area rings, sqes;
	bool user;          /* ctx->user: charged to the user's locked_vm */
	uint32_t uid;       /* that user's (the creator's real uid) */
	uint64_t charged;   /* pages of the areas charged to it (6.13+) */
	uint32_t mm_id;     /* ctx->mm_account: the creator's mm, for pinned_vm */
	struct ring_buf *bufs;
	uint32_t nr_bufs;
	bool bufs_set;      /* a buffer table is registered */
};

static uint32_t roundup_pow2(uint32_t x)
{
	uint32_t r = 1;
	while (r < x)
		r <<= 1;
	return r;
}

static unsigned get_order(uint64_t bytes)
{
	unsigned order = 0;
	while ((PAGE_SIZE << order) < bytes)
		order++;
	return order;
}

/* The locked_vm of uid's user_struct (kernel/user.c: one per real uid),
 * made at first use; NULL when out of memory. */
static uint64_t *user_locked_vm(struct vmsys *s, uint32_t uid)
{
	for (size_t i = 0; i < s->nuser_locked; i++)
		if (s->user_locked[i].uid == uid)
			return &s->user_locked[i].pages;
	struct user_locked *n = vm_grow(s->user_locked, &s->capuser_locked, s->nuser_locked + 1,
					sizeof(*n));
	if (!n)
		return NULL;
	s->user_locked = n;
	n[s->nuser_locked] = (struct user_locked){
		uid, uid == s->default_uid ? s->user_locked_vm_start : 0
	};
	return &n[s->nuser_locked++].pages;
}

/* io_uring/rsrc.c:__io_account_mem() @ v6.1: the user's locked_vm against
 * RLIMIT_MEMLOCK in pages (no CAP_IPC_LOCK test here: the instance has a
 * user to charge only without it) */
static int user_account(struct vmsys *s, struct task *t, uint32_t uid, uint64_t pages)
{
	if (!pages)
		return 0;
	uint64_t *locked = user_locked_vm(s, uid);
	if (!locked)
		return -KERR_ENOMEM;
	if (*locked + pages > rlimit_memlock_pages(t))
		return -KERR_ENOMEM;
	*locked += pages;
	return 0;
}

static void user_unaccount(struct vmsys *s, uint32_t uid, uint64_t pages)
{
	uint64_t *locked = user_locked_vm(s, uid);
	if (locked)
		*locked -= pages < *locked ? pages : *locked;
}

static struct mm *mm_by_id(struct vmsys *s, uint32_t id)
{
	for_each_live_task(s, t)
		if (t->mm && t->mm->id == id)
			return t->mm;
	return NULL; /* gone: the kernel's mmgrab()bed mm is no one's */
}

static void area_free(struct vmsys *s, struct ring_area *a)
{
	for (uint32_t i = 0; i < a->nr_alloc; i++)
		put_page(s, a->pfns[i]);
	free(a->pfns);
	a->pfns = NULL;
	a->nr_pages = a->nr_alloc = 0;
}

/* io_uring/io_uring.c:io_pages_map() @ v6.1 (io_region_allocate_pages() @
 * v6.18): the pages of an area of size bytes, owned by file f at page
 * index base, zeroed kernel pages on no list */
static int area_alloc(struct vmsys *s, struct file *f, struct ring_area *a, uint64_t size,
		      uint64_t base)
{
	uint32_t nr = (uint32_t)((size + PAGE_SIZE - 1) >> PAGE_SHIFT);
	unsigned order = get_order(size);
	uint32_t nalloc = order <= MAX_COMPOUND_ORDER ? 1u << order : nr;
	a->pfns = vm_calloc(nalloc, sizeof(*a->pfns));
	if (!a->pfns)
		return -KERR_ENOMEM;
	for (uint32_t i = 0; i < nalloc; i++) {
		pfn_t pfn = alloc_page_for(s, true);
		if (!pfn) {
			a->nr_alloc = i;
			area_free(s, a);
			return -KERR_ENOMEM;
		}
		struct page *p = spage(s, pfn);
		p->refcount = 1;
		p->owner = f->id;
		page_set_index(p, base + i);
		a->pfns[i] = pfn;
	}
	a->nr_pages = nr;
	a->nr_alloc = nalloc;
	return 0;
}

/* io_uring/io_uring.c:rings_size() @ v6.1, v6.18: struct io_rings (64
 * bytes) and the CQEs, cache-line aligned, then the SQ index array */
static uint64_t rings_size(uint32_t flags, uint32_t sq, uint32_t cq)
{
	uint64_t off = 64 + (uint64_t)cq * 16;
	if (flags & IORING_SETUP_CQE32)
		off <<= 1;
	off = (off + 63) & ~63ULL;
	if (!(flags & IORING_SETUP_NO_SQARRAY))
		off += 4ULL * sq;
	return off;
}

static void ring_free(struct vmsys *s, struct io_ring *r)
{
	area_free(s, &r->rings);
	area_free(s, &r->sqes);
	if (r->user)
		user_unaccount(s, r->uid, r->charged);
	free(r->bufs);
	free(r);
}

int64_t vm_io_uring_setup(struct vmsys *s, struct task *t, uint64_t entries, uint64_t flags,
			  uint64_t cq_entries, int fd)
{
	const struct semantics *sem = s->sem;
	s->nevents = 0;
	if (!sem->io_uring_setup_flags)
		return -KERR_ENOSYS;
	/* io_uring_setup(): flags this kernel does not know */
	if (flags & ~(uint64_t)sem->io_uring_setup_flags)
		return -KERR_EINVAL;
	/* io_uring_create() @ v6.1 (io_uring_fill_params() @ v6.18) */
	if (!entries || entries > UINT32_MAX)
		return -KERR_EINVAL;
	if (entries > IORING_MAX_ENTRIES) {
		if (!(flags & IORING_SETUP_CLAMP))
			return -KERR_EINVAL;
		entries = IORING_MAX_ENTRIES;
	}
	uint32_t sq = roundup_pow2((uint32_t)entries), cq;
	if (flags & IORING_SETUP_CQSIZE) {
		if (!cq_entries)
			return -KERR_EINVAL;
		if (cq_entries > IORING_MAX_CQ_ENTRIES) {
			if (!(flags & IORING_SETUP_CLAMP))
				return -KERR_EINVAL;
			cq_entries = IORING_MAX_CQ_ENTRIES;
		}
		cq = roundup_pow2((uint32_t)cq_entries);
		if (cq < sq)
			return -KERR_EINVAL;
	} else {
		cq = 2 * sq;
	}
	if (flags & IORING_SETUP_SQPOLL) {
		if (flags & (IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
			     IORING_SETUP_DEFER_TASKRUN))
			return -KERR_EINVAL;
	} else if (!(flags & IORING_SETUP_COOP_TASKRUN) && (flags & IORING_SETUP_TASKRUN_FLAG) &&
		   !(flags & IORING_SETUP_DEFER_TASKRUN)) {
		return -KERR_EINVAL;
	}
	if ((flags & IORING_SETUP_DEFER_TASKRUN) && !(flags & IORING_SETUP_SINGLE_ISSUER))
		return -KERR_EINVAL;

	struct io_ring *r = vm_calloc(1, sizeof(*r));
	if (!r)
		return -KERR_ENOMEM;
	static const char name[] = "anon_inode:[io_uring]";
	struct file *f = file_new(s, name, sizeof(name) - 1, false);
	if (!f) {
		free(r);
		return -KERR_ENOMEM;
	}
	file_set_unlinked(s, f);
	f->size_known = true;
	f->no_cache = true; /* io_uring_fops: no read or write */
	f->ring = r;
	r->user = !capable_ipc_lock(t);
	r->uid = t->ruid;
	r->mm_id = t->mm ? t->mm->id : 0;
	if (!(flags & IORING_SETUP_NO_MMAP)) {
		/* io_allocate_scq_urings(): the rings, then the SQEs; 6.13+
		 * charges each area before allocating it */
		uint64_t sizes[2] = { rings_size((uint32_t)flags, sq, cq),
				      (uint64_t)sq * ((flags & IORING_SETUP_SQE128) ? 128 : 64) };
		struct ring_area *areas[2] = { &r->rings, &r->sqes };
		uint64_t bases[2] = { 0, SQES_INDEX };
		for (int i = 0; i < 2; i++) {
			uint64_t pages = (sizes[i] + PAGE_SIZE - 1) >> PAGE_SHIFT;
			int err = 0;
			if (sem->io_uring_rings_charged && r->user) {
				uint64_t *ul = user_locked_vm(s, r->uid);
				uint64_t before = ul ? *ul : 0;
				err = user_account(s, t, r->uid, pages);
				TP(s, TP_LIMIT, KFN_IO_ACCOUNT_MEM, .kind = 1, .delta = (int64_t)pages,
				   .before = before, .limit = rlimit_memlock_pages(t), .err = err);
				if (!err)
					r->charged += pages;
			}
			if (!err)
				err = area_alloc(s, f, areas[i], sizes[i], bases[i]);
			if (err) {
				file_put(s, f); /* frees r */
				return err;
			}
		}
	}
	int64_t ret = fd_install(s, t, fd, f, ++s->next_ofd, 2 /* O_RDWR */);
	file_put(s, f); /* only the descriptor names it */
	return ret;
}

/* The ring file's part of mmap (vm_mmap()): io_uring_get_unmapped_area()
 * then, once the VMA exists, io_uring_mmap(). */
int64_t io_ring_mmap_check(struct vmsys *s, struct file *f, uint64_t addr, uint64_t off,
			   uint64_t *pgoff)
{
	(void)s;
	struct io_ring *r = f->ring;
	if (addr)
		return -KERR_EINVAL;
	switch (off) {
	case IORING_OFF_SQ_RING:
	case IORING_OFF_CQ_RING:
		if (!r->rings.nr_pages)
			return -KERR_ENOMEM;
		*pgoff = 0;
		return 0;
	case IORING_OFF_SQES:
		if (!r->sqes.nr_pages)
			return -KERR_ENOMEM;
		*pgoff = SQES_INDEX;
		return 0;
	default:
		return -KERR_ENOMEM;
	}
}

int io_ring_mmap_insert(struct vmsys *s, struct vma *v)
{
	struct io_ring *r = v->file->ring;
	bool sqes = v->pgoff == SQES_INDEX;
	struct ring_area *a = sqes ? &r->sqes : &r->rings;
	uint64_t n = a->nr_pages, vpages = vma_pages(v);
	if (!sqes && n > vpages)
		n = vpages;
	if (n > vpages)
		return -KERR_EFAULT; /* vm_insert_pages(): past the VMA's end */
	for (uint64_t i = 0; i < n; i++)
		if (!insert_driver_page(s, v, v->start + (i << PAGE_SHIFT), a->pfns[i]))
			return -KERR_ENOMEM;
	return 0;
}

/* check_vma_flags() for FOLL_WRITE | FOLL_LONGTERM @ v6.1, v6.18, with
 * io_pin_pages()'s own file test @ v6.1 */
static int pin_vma_ok(struct vmsys *s, struct vma *v, struct file **first, bool *have_first)
{
	if ((v->flags & (VM_IO | VM_PFNMAP)) || !(v->flags & VM_WRITE))
		return -KERR_EFAULT;
	if (v->file && v->file->secretmem)
		return -KERR_EFAULT;
	if (s->sem->io_uring_pin_rejects_files) {
		if (!*have_first) {
			*first = v->file;
			*have_first = true;
		}
		if (v->file != *first)
			return -KERR_EINVAL;
		if (v->file && !v->file->shmem)
			return -KERR_EOPNOTSUPP;
	} else if (v->file && vma_is_shared(v) && !v->file->shmem) {
		/* writable_file_mapping_allowed(): a shared mapping that
		 * needs dirty tracking cannot be pinned long-term */
		return -KERR_EFAULT;
	}
	return 0;
}

static void unpin_pages(struct vmsys *s, const pfn_t *pfns, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		spage(s, pfns[i])->refcount -= GUP_PIN_BIAS - 1;
		put_page(s, pfns[i]);
	}
}

/* io_pin_pages(): every page of [base, base+len) faulted in for write and
 * pinned; on any failure those pinned are let go (the faults stay) */
static int pin_buffer(struct vmsys *s, struct task *t, uint64_t base, uint64_t len,
		      struct ring_buf *b)
{
	struct mm *mm = t->mm;
	uint64_t first = base >> PAGE_SHIFT, last = (base + len + PAGE_SIZE - 1) >> PAGE_SHIFT;
	uint64_t nr = last - first;
	if (nr > UINT32_MAX)
		return -KERR_ENOMEM;
	b->pfns = vm_calloc(nr, sizeof(*b->pfns));
	if (!b->pfns)
		return -KERR_ENOMEM;
	struct file *ffile = NULL;
	bool have_first = false;
	uint32_t done = 0;
	int err = 0;
	for (uint64_t vpn = first; vpn < last; vpn++) {
		uint64_t addr = vpn << PAGE_SHIFT;
		struct vma *v = mm ? vma_find(&mm->vmas, addr) : NULL;
		if (!v || v->start > addr) {
			err = -KERR_EFAULT;
			break;
		}
		err = pin_vma_ok(s, v, &ffile, &have_first);
		if (err)
			break;
		uint64_t *ptep = radix_peek(&mm->pt, vpn);
		if (!ptep || !pte_permits(*ptep, true)) {
			enum vm_fault_kind r = handle_fault(s, t, v, addr, 2 /* write */ | FAULT_GUP);
			if (!t->alive) {
				err = -KERR_EFAULT;
				break;
			}
			ptep = radix_peek(&mm->pt, vpn);
			if (r == VMF_SIGBUS || r == VMF_SIGSEGV || !ptep || !pte_permits(*ptep, true)) {
				err = -KERR_EFAULT;
				break;
			}
		}
		/* follow_page_pte() with FOLL_TOUCH: young, and dirty for a write */
		*ptep |= PTE_YOUNG | PTE_DIRTY;
		pfn_t pfn = pte_pfn(*ptep);
		mark_page_accessed(s, pfn);
		spage(s, pfn)->refcount += GUP_PIN_BIAS;
		mm->has_pinned = true; /* mm_set_has_pinned_flag() */
		b->pfns[done++] = pfn;
	}
	/* a FOLL_LONGTERM pin of a page the kernel would migrate first (CMA,
	 * ZONE_MOVABLE) does not arise on the modelled machine */
	lru_add_drain(s);
	if (err) {
		unpin_pages(s, b->pfns, done);
		free(b->pfns);
		b->pfns = NULL;
		return err;
	}
	b->nr_pages = done;
	b->acct_pages = done; /* io_buffer_account_pin(): small pages, one each */
	return 0;
}

static void buffers_unregister(struct vmsys *s, struct io_ring *r)
{
	struct mm *mm = mm_by_id(s, r->mm_id);
	for (uint32_t i = 0; i < r->nr_bufs; i++) {
		struct ring_buf *b = &r->bufs[i];
		unpin_pages(s, b->pfns, b->nr_pages);
		if (r->user)
			user_unaccount(s, r->uid, b->acct_pages);
		if (mm)
			mm->pinned_vm -= b->acct_pages < mm->pinned_vm ? b->acct_pages : mm->pinned_vm;
		free(b->pfns);
	}
	free(r->bufs);
	r->bufs = NULL;
	r->nr_bufs = 0;
	r->bufs_set = false;
}

void io_ring_release(struct vmsys *s, struct file *f)
{
	struct io_ring *r = f->ring;
	f->ring = NULL;
	if (r->bufs_set)
		buffers_unregister(s, r);
	ring_free(s, r);
}

static struct io_ring *ring_of_fd(struct task *t, int64_t fd, int64_t *err)
{
	struct fd_entry *e;
	struct file *f = file_lookup_fd(t, fd, &e);
	if (!f) {
		*err = -KERR_EBADF;
		return NULL;
	}
	if (!f->ring) {
		*err = -KERR_EOPNOTSUPP; /* !io_is_uring_fops() */
		return NULL;
	}
	return f->ring;
}

int64_t vm_io_uring_register(struct vmsys *s, struct task *t, int64_t fd, uint64_t opcode,
			     const struct vm_iovec *iov, size_t niov, bool iov_known,
			     uint64_t nr_args, int64_t other_result)
{
	s->nevents = 0;
	if (!s->sem->io_uring_setup_flags)
		return -KERR_ENOSYS;
	if (opcode & IORING_REGISTER_USE_REGISTERED_RING)
		return other_result; /* fd indexes the task's registered rings */
	int64_t err = 0;
	struct io_ring *r = ring_of_fd(t, fd, &err);
	if (!r)
		return err;
	if (opcode == VM_IORING_UNREGISTER_BUFFERS) {
		/* io_sqe_buffers_unregister(); nr_args must be 0
		 * (__io_uring_register(): arg || nr_args is EINVAL) */
		if (nr_args || (iov_known && niov))
			return -KERR_EINVAL;
		if (!r->bufs_set)
			return -KERR_ENXIO;
		buffers_unregister(s, r);
		return 0;
	}
	if (opcode != VM_IORING_REGISTER_BUFFERS)
		return other_result;
	/* io_sqe_buffers_register() */
	if (r->bufs_set)
		return -KERR_EBUSY;
	if (!nr_args || nr_args > IORING_MAX_REG_BUFFERS)
		return -KERR_EINVAL;
	if (!iov_known)
		return -KERR_EFAULT; /* io_copy_iov() of a pointer strace could not read */
	r->bufs = vm_calloc(nr_args, sizeof(*r->bufs));
	if (!r->bufs)
		return -KERR_ENOMEM;
	r->bufs_set = true;
	struct mm *acct = mm_by_id(s, r->mm_id);
	for (uint64_t i = 0; i < nr_args; i++, r->nr_bufs++) {
		if (i >= niov) {
			err = -KERR_EFAULT; /* the array ended before nr_args entries */
			break;
		}
		uint64_t base = iov[i].base, len = iov[i].len;
		/* io_buffer_validate(): a NULL base with no length is a
		 * sparse slot */
		if (!base) {
			if (len) {
				err = -KERR_EFAULT;
				break;
			}
			continue;
		}
		if (!len || len > (1ULL << 30)) {
			err = -KERR_EFAULT;
			break;
		}
		if (base + len + PAGE_SIZE - 1 < base) {
			err = -KERR_EOVERFLOW;
			break;
		}
		struct ring_buf *b = &r->bufs[i];
		err = pin_buffer(s, t, base, len, b);
		if (err)
			break;
		/* io_buffer_account_pin() -> io_account_mem() */
		uint64_t *ul = r->user ? user_locked_vm(s, r->uid) : NULL;
		uint64_t before = ul ? *ul : 0;
		int aerr = r->user ? user_account(s, t, r->uid, b->acct_pages) : 0;
		TP(s, TP_LIMIT, KFN_IO_ACCOUNT_MEM, .delta = (int64_t)b->acct_pages, .before = before,
		   .after = acct ? acct->pinned_vm : 0, .limit = rlimit_memlock_pages(t), .cap = !r->user,
		   .err = aerr);
		if (aerr) {
			b->acct_pages = 0;
			err = aerr;
			r->nr_bufs++; /* its pins go with the others' */
			break;
		}
		if (acct)
			acct->pinned_vm += b->acct_pages;
	}
	if (err) {
		buffers_unregister(s, r);
		return err;
	}
	return 0;
}

int64_t vm_io_uring_enter(struct vmsys *s, struct task *t, int64_t fd, bool registered_fd,
			  int64_t result)
{
	s->nevents = 0;
	if (!s->sem->io_uring_setup_flags)
		return -KERR_ENOSYS;
	if (registered_fd)
		return result;
	int64_t err = 0;
	if (!ring_of_fd(t, fd, &err))
		return err;
	return result;
}
