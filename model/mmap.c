/*
 * mmap.c - mmap, munmap, brk and where new mappings are placed.
 *
 * do_mmap() checks in the kernel's order (mm/mmap.c @ v6.1): length,
 * overflow, map_count, placement (EEXIST for MAP_FIXED_NOREPLACE), then
 * the VMA flags (prot | MAP_* bits | def_flags), MAP_LOCKED's can_do_mlock
 * (EPERM), mlock_future_ok (EAGAIN), the mapping type, and mmap_region():
 * unmap what MAP_FIXED replaces, merge or create the VMA, charge locked_vm
 * for a VM_LOCKED one (or strip the lock bits where locking is not
 * supported).  Populate runs afterwards with errors ignored, for VM_LOCKED
 * or for MAP_POPULATE without MAP_NONBLOCK.
 *
 * Placement: a trace records the address the kernel chose (ASLR makes it
 * vary); the replay passes it in and the mapping goes there if that range
 * is free.  Without it the model searches top-down below mm->mmap_base
 * (mm/mmap.c:unmapped_area_topdown()), keeping the stack guard gap.
 */
#include "internal.h"

/* do_mmap() and do_brk_flags(): a new VMA is refused when map_count >
 * sysctl_max_map_count (every release: the limit + 1 is reachable), or
 * when it is >= under Kalesh Singh's VMA count v3 patch 1 */
static bool map_count_refuses_new(const struct vmsys *s, const struct mm *mm)
{
	if (s->sem->new_vma_refused_at_max)
		return mm->map_count >= s->max_map_count;
	return mm->map_count > s->max_map_count;
}

bool range_is_free(struct mm *mm, uint64_t start, uint64_t end)
{
	struct vma *v = vma_find(&mm->vmas, start);
	return !v || v->start >= end;
}

uint64_t get_unmapped_area(struct vmsys *s, struct mm *mm, uint64_t len, uint64_t hint)
{
	return get_unmapped_area_align(s, mm, len, hint, PAGE_SIZE);
}

/* the same for a mapping that must start on an align boundary:
 * hugetlb_get_unmapped_area() @ v4.0 .. v6.18 (the hint rounded up, then
 * the top-down search with align_mask) */
uint64_t get_unmapped_area_align(struct vmsys *s, struct mm *mm, uint64_t len, uint64_t hint,
				 uint64_t align)
{
	/* vm_start_gap() @ v6.1: a stack's gap below it is kept free;
	 * unmapped_area_topdown() @ v4.4 keeps none (its guard page is inside
	 * the VMA) */
	uint64_t stack_gap = s->sem->stack_guard_page ? 0 : STACK_GUARD_GAP;
	if (len > TASK_SIZE - MMAP_MIN_ADDR)
		return 0;
	if (hint) {
		hint = (hint + align - 1) & ~(align - 1);
		if (hint >= MMAP_MIN_ADDR && hint <= TASK_SIZE - len && range_is_free(mm, hint, hint + len))
			return hint;
	}
	/* top-down: the highest gap below mmap_base that fits */
	uint64_t high = mm->mmap_base;
	struct vma *v = vma_find(&mm->vmas, high);
	struct vma *below = v ? v->prev : mm->vmas.last;
	for (;;) {
		uint64_t gap_end = high;
		if (v && v->start < gap_end)
			gap_end = v->start;
		if (v && (v->flags & VM_GROWSDOWN))
			gap_end = gap_end > stack_gap ? gap_end - stack_gap : 0;
		uint64_t gap_start = below ? below->end : MMAP_MIN_ADDR;
		uint64_t at = gap_end >= len ? (gap_end - len) & ~(align - 1) : 0;
		if (gap_end >= len && at >= gap_start && at >= MMAP_MIN_ADDR)
			return at;
		if (!below)
			return 0;
		v = below;
		below = below->prev;
		high = v->start;
	}
}

void vm_stat_account(struct mm *mm, vm_flags_t flags, int64_t pages)
{
	mm->total_vm += (uint64_t)pages;
	if ((flags & (VM_EXEC | VM_WRITE)) == VM_EXEC)
		mm->exec_vm += (uint64_t)pages;
	else if (flags & VM_GROWSDOWN)
		mm->stack_vm += (uint64_t)pages;
	else if ((flags & (VM_WRITE | VM_SHARED | VM_GROWSDOWN)) == VM_WRITE)
		mm->data_vm += (uint64_t)pages;
	if (mm->total_vm > mm->hiwater_vm)
		mm->hiwater_vm = mm->total_vm;
}

/*
 * mm/mmap.c:do_vmi_align_munmap() @ v6.1: split at the ends (the first
 * split refused at max_map_count when the range is strictly inside one
 * VMA), discharge the VM_LOCKED VMAs, zap, remove.
 */
int do_munmap(struct vmsys *s, struct task *t, uint64_t start, uint64_t len)
{
	struct mm *mm = t->mm;
	if ((start & ~PAGE_MASK) || start > TASK_SIZE || len > TASK_SIZE - start)
		return -KERR_EINVAL;
	len = PAGE_ALIGN(len);
	uint64_t end = start + len;
	if (!len)
		return -KERR_EINVAL;
	struct vma *v = vma_find(&mm->vmas, start);
	if (!v || v->start >= end)
		return 0;
	if (start > v->start) {
		if (end < v->end && mm->map_count >= s->max_map_count)
			return -KERR_ENOMEM;
		struct vma *n;
		int err = vma_split(s, mm, v, start, false, &n);
		if (err)
			return err;
		v = n;
	}
	struct vma *last = v;
	while (last->next && last->next->start < end)
		last = last->next;
	if (last->end > end) {
		int err = vma_split(s, mm, last, end, false, NULL);
		if (err)
			return err;
	}
	if (s->sem->zap_drains_lru)
		lru_add_drain(s); /* unmap_region() @ v6.1; 6.18's vms_clear_ptes() does not */
	const struct semantics *sem = s->sem;
	/* discharge: 6.x sums VM_LOCKED VMAs; 4.x only if locked_vm != 0
	 * (tested once, before the walk), and munlocks each first
	 * (munlock_vma_pages_all()) */
	bool discharge = sem->page_model != PLM_RMAP_WALK || mm->locked_vm;
	for (struct vma *w = v; w && w->start < end; w = w->next) {
		if (!(w->flags & sem->charge_mask))
			continue;
		if (!discharge) {
			/* locked_vm already 0 (a 4.x accounting quirk drove it
			 * there): the locked VMA goes without a discharge */
			mm->locked_vm_quirk += (int64_t)vma_pages(w);
		} else if (sem->page_model == PLM_RMAP_WALK) {
			locked_vm_add(s, mm, -(int64_t)vma_pages(w), KFN_DO_MUNMAP);
			munlock_vma_pages_all(s, w, true); /* mm/mmap.c:do_munmap() @ v4.0 */
		} else {
			locked_vm_add(s, mm, -(int64_t)vma_pages(w), KFN_DO_MUNMAP);
		}
	}
	while (v && v->start < end) {
		struct vma *next = v->next;
		zap_range(s, mm, v, v->start, v->end);
		vm_stat_account(mm, v->flags, -(int64_t)vma_pages(v));
		TP(s, TP_VMA_UNLINK, KFN_DO_MUNMAP, .start = v->start, .end = v->end,
		   .old_flags = v->flags, .before = mm->map_count, .after = mm->map_count - 1);
		vma_unlink_free(s, mm, v);
		v = next;
	}
	return 0;
}

int64_t vm_munmap(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len)
{
	s->nevents = 0;
	return do_munmap(s, t, addr, len);
}

static vm_flags_t calc_prot_bits(const struct arch_flags *af, uint64_t prot)
{
	vm_flags_t f = 0;
	if (prot & af->prot_read)
		f |= VM_READ;
	if (prot & af->prot_write)
		f |= VM_WRITE;
	if (prot & af->prot_exec)
		f |= VM_EXEC;
	return f;
}

/* Create [addr, addr+len) with flags: mm/mmap.c:mmap_region() @ v6.1 */
static int64_t mmap_region(struct vmsys *s, struct task *t, struct file *f, uint32_t ofd,
			   uint64_t addr, uint64_t len, vm_flags_t flags, uint64_t pgoff)
{
	struct mm *mm = t->mm;
	const struct semantics *sem = s->sem;
	uint64_t end = addr + len;
	int err = do_munmap(s, t, addr, len);
	if (err)
		return -KERR_ENOMEM;
	/* accountable_mapping(): private writable memory is committed */
	if ((flags & (VM_NORESERVE | VM_SHARED | VM_WRITE)) == VM_WRITE && !(flags & VM_HUGETLB))
		flags |= VM_ACCOUNT;

	struct vma *v = NULL;
	bool shared_anon = !f && (flags & VM_SHARED);
	if (!shared_anon && !(flags & VM_SPECIAL)) {
		/* vma_merge_new_range() @ v6.18, vma_merge() @ v4.x,
		 * __mmap_region()'s vma_expand() @ v6.1: expand a neighbour */
		struct vma *next = vma_find(&mm->vmas, addr);
		struct vma *prev = next ? next->prev : mm->vmas.last;
		if (next && next->start != end)
			next = NULL;
		if (prev && prev->end != addr)
			prev = NULL;
		bool mp = prev && !((prev->flags ^ flags) & ~VM_IGNORE_MERGE) && prev->file == f &&
			  prev->ofd == ofd &&
			  prev->pgoff + vma_pages(prev) == pgoff && (prev->navc <= 1);
		bool mn = next && !((next->flags ^ flags) & ~VM_IGNORE_MERGE) && next->file == f &&
			  next->ofd == ofd &&
			  pgoff + (len >> PAGE_SHIFT) == next->pgoff && (next->navc <= 1);
		/* 6.1: next is expanded first, and prev may join only with
		 * next's anon_vma (is_mergeable_anon_vma(next's, prev's, prev):
		 * an unfaulted prev has an empty chain) - __mmap_region() @ v6.1 */
		if (sem->mmap_expands_next_first && mp && mn && next->anon_vma)
			mp = prev->anon_vma == next->anon_vma;
		if (mp && mn && prev->anon_vma && next->anon_vma && prev->anon_vma != next->anon_vma)
			mn = false;
		if (mp) {
			TP(s, TP_VMA_ADJUST, KFN_VMA_MERGE_NEW, .old_start = prev->start,
			   .old_end = prev->end, .start = prev->start, .end = end, .new_flags = flags);
			prev->end = end;
			v = prev;
			if (mn) {
				uint64_t nend = next->end;
				if (!prev->anon_vma && next->anon_vma)
					anon_vma_clone(s, prev, next);
				TP(s, TP_VMA_MERGE, KFN_VMA_MERGE_NEW, .old_start = next->start,
				   .old_end = next->end, .start = prev->start, .end = nend,
				   .before = mm->map_count, .after = mm->map_count - 1,
				   .new_flags = flags);
				vma_unlink_free(s, mm, next);
				prev->end = nend;
			}
		} else if (mn) {
			TP(s, TP_VMA_ADJUST, KFN_VMA_MERGE_NEW, .old_start = next->start,
			   .old_end = next->end, .start = addr, .end = next->end, .new_flags = flags);
			vma_tree_erase(&mm->vmas, next);
			next->start = addr;
			next->pgoff = pgoff;
			vma_tree_insert(&mm->vmas, next);
			v = next;
		}
	}
	if (!v) {
		if (shared_anon) {
			f = shmem_zero_setup(s, len);
			if (!f)
				return -KERR_ENOMEM;
			pgoff = 0;
		}
		v = vma_new(s, mm, addr, end, flags, f, pgoff);
		if (!v)
			return -KERR_ENOMEM;
		v->ofd = ofd;
		vma_link(s, mm, v);
		TP(s, TP_VMA_NEW, KFN_MMAP_REGION, .start = addr, .end = end, .new_flags = flags,
		   .after = mm->map_count);
	}
	/* a new or expanded VMA is soft-dirty (mmap_region(), do_brk_flags()
	 * @ v4.0, v6.1, v6.18, CONFIG_MEM_SOFT_DIRTY); merges ignore the bit */
	if (s->soft_dirty)
		v->flags |= VM_SOFTDIRTY;
	vm_stat_account(mm, flags, (int64_t)(len >> PAGE_SHIFT));
	if (flags & sem->charge_mask) {
		if (!vma_supports_mlock(v))
			v->flags &= ~sem->unlock_clear;
		else
			locked_vm_add(s, mm, (int64_t)(len >> PAGE_SHIFT), KFN_MMAP_REGION);
	}
	return (int64_t)addr;
}

int64_t vm_mmap(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len, uint64_t prot,
		uint64_t flags, int64_t fd, uint64_t off, bool has_placement, uint64_t placement)
{
	const struct arch_flags *af = &s->af;
	const struct semantics *sem = s->sem;
	struct mm *mm = t->mm;
	s->nevents = 0;

	/* arch/x86/kernel/sys_x86_64.c:SYSCALL_DEFINE6(mmap) */
	if (off & ~PAGE_MASK)
		return -KERR_EINVAL;
	struct file *f = NULL;
	struct fd_entry *fe = NULL;
	bool huge_anon = false;
	if (!(flags & af->map_anonymous)) {
		f = file_lookup_fd(t, fd, &fe);
		if (!f)
			return -KERR_EBADF;
		/* mm/mmap.c:do_mmap(): a file without ->mmap (pipe, eventfd,
		 * socket) is -ENODEV */
		if (f->anon_inode)
			return -KERR_ENODEV;
		/* ksys_mmap_pgoff(): a hugetlbfs file's length in huge pages;
		 * MAP_HUGETLB of any other file is EINVAL */
		if (f->huge)
			len = HPAGE_ALIGN(len);
		else if (flags & af->map_hugetlb)
			return -KERR_EINVAL;
	} else if (flags & af->map_hugetlb) {
		/* ksys_mmap_pgoff(): the size the MAP_HUGE_* bits name (the
		 * default if none), the length rounded up to it; the file is
		 * made below, once the address is known (hugetlb.c) */
		if (!hugetlb_sizelog_ok((flags >> MAP_HUGE_SHIFT) & MAP_HUGE_MASK))
			return -KERR_EINVAL;
		huge_anon = true;
		len = HPAGE_ALIGN(len);
	}
	bool huge = huge_anon || (f && f->huge);
	if (!len)
		return -KERR_EINVAL;
	uint64_t pgoff = off >> PAGE_SHIFT;
	len = PAGE_ALIGN(len);
	if (!len)
		return -KERR_ENOMEM;
	if (pgoff + (len >> PAGE_SHIFT) < pgoff)
		return -KERR_EOVERFLOW;
	if (map_count_refuses_new(s, mm))
		return -KERR_ENOMEM;
	if (f && f->ring) {
		/* io_uring_get_unmapped_area() runs even for MAP_FIXED */
		int64_t err = io_ring_mmap_check(s, f, addr, off, &pgoff);
		if (err)
			return err;
	}

	bool noreplace = sem->has_fixed_noreplace && af->map_fixed_noreplace &&
			 (flags & af->map_fixed_noreplace);
	bool fixed = (flags & af->map_fixed) || noreplace;
	if (huge) {
		int err = hugetlb_mmap_check(addr, len, pgoff, fixed);
		if (err)
			return err;
	}
	uint64_t align = huge ? HPAGE_SIZE : PAGE_SIZE;
	if (fixed) {
		if (addr & ~PAGE_MASK)
			return -KERR_EINVAL;
		if (len > TASK_SIZE || addr > TASK_SIZE - len)
			return -KERR_ENOMEM;
		if (noreplace && !range_is_free(mm, addr, addr + len))
			return -KERR_EEXIST;
	} else if (has_placement && !(placement & (align - 1)) && placement >= MMAP_MIN_ADDR &&
		   placement <= TASK_SIZE - len && range_is_free(mm, placement, placement + len)) {
		addr = placement;
	} else {
		addr = get_unmapped_area_align(s, mm, len, addr, align);
		if (!addr)
			return -KERR_ENOMEM;
	}

	vm_flags_t vmf = calc_prot_bits(af, prot) | mm->def_flags | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;
	if (flags & af->map_growsdown)
		vmf |= VM_GROWSDOWN;
	if (flags & af->map_locked)
		vmf |= VM_LOCKED;
	if (sem->map_stack_nohugepage && af->map_stack && (flags & af->map_stack))
		vmf |= VM_NOHUGEPAGE;
	if (sem->mmap_lockonfault_flag && af->map_lockonfault && (flags & af->map_lockonfault))
		vmf |= sem->onfault_bit;
	/* include/linux/mman.h:calc_vm_flag_bits() @ v6.18: MAP_SYNC becomes
	 * VM_SYNC (smaps "sf") before the mapping type is looked at, for
	 * anonymous memory too (recorded: traces/golden/mmap/map-sync.trace) */
	if (af->map_sync && (flags & af->map_sync))
		vmf |= VM_SYNC;
	bool lock_req = (flags & af->map_locked) ||
			(sem->mmap_lockonfault_flag && af->map_lockonfault && (flags & af->map_lockonfault));
	if (lock_req && !mm_can_do_mlock(t))
		return -KERR_EPERM;
	if (!mlock_future_ok(s, t, vmf & sem->future_check_mask, len))
		return -KERR_EAGAIN;

	vm_flags_t secret_lock = 0; /* memfd_secret's (below) */
	uint64_t type = flags & af->map_type;
	if (f) {
		uint64_t acc = fe->oflags & 3;
		bool can_write = acc == 1 || acc == 2;
		bool can_read = acc == 0 || acc == 2;
		if (type == af->map_shared || (sem->has_shared_validate && type == af->map_shared_validate)) {
			/* mm/mmap.c:do_mmap(): MAP_SHARED_VALIDATE takes the legacy
			 * flags and what the file's f_op->mmap_supported_flags
			 * names - MAP_SYNC for ext4, nothing for shmem */
			uint64_t supported = af->legacy_map_mask | (f->shmem ? 0 : af->map_sync);
			if (type == af->map_shared_validate && (flags & ~supported))
				return -KERR_EOPNOTSUPP;
			if ((prot & af->prot_write) && !can_write)
				return -KERR_EACCES;
			vmf |= VM_SHARED | VM_MAYSHARE;
			if (!can_write)
				vmf &= ~(VM_MAYWRITE | VM_SHARED);
			if (!can_read)
				return -KERR_EACCES;
		} else if (type == af->map_private) {
			if (!can_read)
				return -KERR_EACCES;
		} else {
			return -KERR_EINVAL;
		}
		if (vmf & VM_GROWSDOWN)
			return -KERR_EINVAL;
		/* fs/ext4/file.c:ext4_file_mmap() @ v6.18: VM_SYNC needs DAX
		 * (daxdev_mapping_supported()), which no modelled disk has */
		if ((vmf & VM_SYNC) && !f->shmem)
			return -KERR_EOPNOTSUPP;
		/* an io_uring file lives on anon_inodefs, noexec where the
		 * kernel says SB_I_NOEXEC: do_mmap()'s path_noexec() test */
		if (f->ring && s->sem->anon_inode_noexec) {
			if (vmf & VM_EXEC)
				return -KERR_EPERM;
			vmf &= ~VM_MAYEXEC;
		}
		/* mm/secretmem.c:secretmem_mmap_prepare() @ v6.18: shared only,
		 * and locked for good, against the limit as a lock is;
		 * secretmem_mmap() @ v6.1, v6.12: shared only, not locked */
		if (f->secretmem) {
			/* its pseudo fs is noexec (SB_I_NOEXEC): do_mmap()'s
			 * path_noexec() test */
			if (vmf & VM_EXEC)
				return -KERR_EPERM;
			vmf &= ~VM_MAYEXEC;
			if (!(vmf & VM_MAYSHARE))
				return -KERR_EINVAL;
			secret_lock = VM_DONTDUMP;
			if (s->sem->secretmem_mmap_locks) {
				if (!mlock_future_ok(s, t, VM_LOCKED, len))
					return -KERR_EAGAIN;
				secret_lock |= VM_LOCKED;
			}
		}
	} else if (huge_anon) {
		/* do_mmap() of the hugetlbfs file ksys_mmap_pgoff() made:
		 * shared or private as asked, the offset as given */
		if (vmf & VM_GROWSDOWN)
			return -KERR_EINVAL;
		if (type == af->map_shared)
			vmf |= VM_SHARED | VM_MAYSHARE;
		else if (type != af->map_private)
			return -KERR_EINVAL;
	} else {
		if (type == af->map_shared) {
			if (vmf & VM_GROWSDOWN)
				return -KERR_EINVAL;
			pgoff = 0;
			vmf |= VM_SHARED | VM_MAYSHARE;
		} else if (sem->has_droppable && af->map_droppable && type == af->map_droppable) {
			if (flags & af->map_locked)
				return -KERR_EINVAL;
			if (vmf & VM_GROWSDOWN)
				return -KERR_EINVAL;
			vmf |= VM_DROPPABLE | VM_NORESERVE | VM_WIPEONFORK | VM_DONTDUMP;
			pgoff = addr >> PAGE_SHIFT;
		} else if (type == af->map_private) {
			pgoff = addr >> PAGE_SHIFT;
		} else {
			return -KERR_EINVAL;
		}
	}
	if (flags & af->map_noreserve)
		vmf |= VM_NORESERVE;
	/* io_uring_mmap() -> vm_insert_pages(): VM_DONTEXPAND, VM_MIXEDMAP */
	if (f && f->ring)
		vmf |= VM_DONTEXPAND | VM_MIXEDMAP;

	uint32_t ofd = fe ? fe->ofd : 0;
	struct file *made = NULL;
	if (huge) {
		if (huge_anon) {
			static const char name[] = "/anon_hugepage (deleted)";
			int err;
			made = f = hugetlb_file_setup(s, name, sizeof(name) - 1, len,
						      (vmf & VM_MAYSHARE) != 0, false, &err);
			if (!f)
				return err;
			ofd = ++s->next_ofd;
		}
		int err = hugetlb_mmap_reserve(s, f, pgoff, len, &vmf);
		if (err) {
			if (made)
				file_put(s, made);
			return err;
		}
	}
	/* do_mmap() decided to populate from the flags before the file's
	 * mmap hook ran: a memfd_secret mapping is locked, not populated */
	int64_t r = mmap_region(s, t, f, ofd, addr, len, vmf | secret_lock, pgoff);
	if (huge && r >= 0)
		hugetlb_mmap_owner(f, vma_find(&mm->vmas, (uint64_t)r));
	if (made)
		file_put(s, made); /* the mapping holds it now, or nothing does */
	if (r < 0)
		return r;
	if (f && f->ring) {
		struct vma *v = vma_find(&mm->vmas, (uint64_t)r);
		int err = io_ring_mmap_insert(s, v);
		if (err) {
			/* mmap_region()'s error path unmaps the new VMA */
			do_munmap(s, t, (uint64_t)r, len);
			return err;
		}
	}
	bool populate = (vmf & VM_LOCKED) ||
			(flags & (af->map_populate | af->map_nonblock)) == af->map_populate;
	if (populate && af->map_populate)
		mm_populate(s, t, addr, len, true);
	else if (vmf & VM_LOCKED)
		mm_populate(s, t, addr, len, true);
	return r;
}

/*
 * ipc/shm.c:do_shmat() -> do_mmap() of a segment's file, MAP_SHARED (with
 * MAP_FIXED at addr when fixed), opened read-write unless prot lacks
 * PROT_WRITE: the flags do_mmap() makes of it with the mm's def_flags,
 * the future-lock limit, then the populate of a VM_LOCKED mapping
 * (mlockall(MCL_FUTURE)).  The address, or a negative errno.
 */
int64_t mmap_shared_file(struct vmsys *s, struct task *t, struct file *f, uint64_t addr, uint64_t len,
			 uint64_t prot, bool fixed, bool has_placement, uint64_t placement)
{
	const struct arch_flags *af = &s->af;
	struct mm *mm = t->mm;
	len = PAGE_ALIGN(len);
	if (!len)
		return -KERR_EINVAL;
	if (map_count_refuses_new(s, mm))
		return -KERR_ENOMEM;
	uint64_t align = f->huge ? HPAGE_SIZE : PAGE_SIZE;
	if (f->huge) {
		int err = hugetlb_mmap_check(addr, len, 0, fixed);
		if (err)
			return err;
	}
	if (fixed) {
		if (len > TASK_SIZE || addr > TASK_SIZE - len)
			return -KERR_ENOMEM;
	} else if (has_placement && !(placement & (align - 1)) && placement >= MMAP_MIN_ADDR &&
		   placement <= TASK_SIZE - len && range_is_free(mm, placement, placement + len)) {
		addr = placement; /* where the recorded kernel put it, as vm_mmap() */
	} else {
		addr = get_unmapped_area_align(s, mm, len, 0, align);
		if (!addr)
			return -KERR_ENOMEM;
	}
	vm_flags_t vmf = calc_prot_bits(af, prot) | mm->def_flags | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC |
			 VM_SHARED | VM_MAYSHARE;
	if (!(prot & af->prot_write))
		vmf &= ~(VM_MAYWRITE | VM_SHARED); /* opened O_RDONLY */
	if (!mlock_future_ok(s, t, vmf & s->sem->future_check_mask, len))
		return -KERR_EAGAIN;
	if (f->huge) {
		int err = hugetlb_mmap_reserve(s, f, 0, len, &vmf);
		if (err)
			return err;
	}
	/* each attach opens a file of its own (ipc/shm.c:do_shmat():
	 * alloc_file_clone()): two attaches never merge */
	int64_t r = mmap_region(s, t, f, ++s->next_ofd, addr, len, vmf, 0);
	if (r >= 0 && (vmf & VM_LOCKED))
		mm_populate(s, t, addr, len, true);
	return r;
}

/*
 * brk (mm/mmap.c:SYSCALL_DEFINE1(brk) @ v6.1): shrinking unmaps, growing
 * checks the future-lock limit against def_flags and populates when
 * def_flags has VM_LOCKED.  Failure returns the old break, never an errno.
 */
void vm_brk_init(struct vmsys *s, struct task *t, uint64_t start)
{
	(void)s;
	if (!t->mm->start_brk && start)
		t->mm->start_brk = t->mm->brk = start;
}

int64_t vm_brk(struct vmsys *s, struct task *t, uint64_t brk)
{
	struct mm *mm = t->mm;
	s->nevents = 0;
	if (!mm->start_brk) {
		/* the heap starts where the trace first asks (set by execve in a
		 * real process; unknown to a replay) */
		struct vma *last = NULL;
		for (struct vma *v = mm->vmas.first; v && v->start < 0x100000000ULL; v = v->next)
			last = v;
		mm->start_brk = mm->brk = last ? last->end : 0x555555559000ULL;
	}
	if (!brk || brk < mm->start_brk)
		return (int64_t)mm->brk;
	uint64_t newbrk = PAGE_ALIGN(brk), oldbrk = PAGE_ALIGN(mm->brk);
	if (oldbrk == newbrk) {
		mm->brk = brk;
		return (int64_t)mm->brk;
	}
	if (brk <= mm->brk) {
		if (do_munmap(s, t, newbrk, oldbrk - newbrk))
			return (int64_t)mm->brk;
		mm->brk = brk;
		return (int64_t)brk;
	}
	/* check_brk_limits() + do_brk_flags() */
	if (!range_is_free(mm, oldbrk, newbrk + PAGE_SIZE))
		return (int64_t)mm->brk;
	uint64_t len = newbrk - oldbrk;
	if (!mlock_future_ok(s, t, mm->def_flags & s->sem->future_check_mask, len))
		return (int64_t)mm->brk;
	/* do_brk_flags() @ v6.1, v6.12 (do_brk() @ v4.0, v4.4) tests the map
	 * count before it tries to expand the heap VMA: past the limit even a
	 * growth that would only extend it is refused (seen on the live 6.1
	 * and 6.12, issue 56) */
	if (map_count_refuses_new(s, mm))
		return (int64_t)mm->brk;
	vm_flags_t flags = VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | VM_ACCOUNT |
			   mm->def_flags;
	int64_t r = mmap_region(s, t, NULL, 0, oldbrk, len, flags, oldbrk >> PAGE_SHIFT);
	if (r < 0)
		return (int64_t)mm->brk;
	mm->brk = brk;
	if (mm->def_flags & VM_LOCKED)
		mm_populate(s, t, oldbrk, len, true);
	return (int64_t)brk;
}
