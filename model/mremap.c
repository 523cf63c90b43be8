/*
 * mremap.c - resizing and moving mappings (mm/mremap.c @ v6.1; the 6.18
 * rewrite differs only where the semantics says so).
 *
 *   shrink        munmap of the tail (discharges locked pages)
 *   grow in place if nothing follows: locked_vm += delta, populate the new
 *                 part when VM_LOCKED
 *   move          copy the VMA (flags, lock bits and all) to the new place,
 *                 move the page tables, unmap the old range (discharge),
 *                 charge new_len when VM_LOCKED, populate the grown tail
 *   DONTUNMAP     the old VMA stays, emptied and unlocked; 6.1 leaves
 *                 locked_vm alone, 6.18 charges the new range again
 * Growth of a VM_LOCKED VMA past RLIMIT_MEMLOCK is EAGAIN
 * (mlock_future_ok() in vma_to_resize()).
 */
#include "internal.h"

/* vma_to_resize() */
static struct vma *vma_to_resize(struct vmsys *s, struct task *t, uint64_t addr,
				 uint64_t old_len, uint64_t new_len, int *err)
{
	struct mm *mm = t->mm;
	struct vma *v = vma_lookup(&mm->vmas, addr);
	if (!v) {
		*err = -KERR_EFAULT;
		return NULL;
	}
	if (old_len > v->end - addr) {
		*err = -KERR_EFAULT;
		return NULL;
	}
	if (new_len == old_len)
		return v;
	uint64_t pgoff = v->pgoff + ((addr - v->start) >> PAGE_SHIFT);
	if (pgoff + (new_len >> PAGE_SHIFT) < pgoff) {
		*err = -KERR_EINVAL;
		return NULL;
	}
	if (v->flags & (VM_DONTEXPAND | VM_PFNMAP)) {
		*err = -KERR_EFAULT;
		return NULL;
	}
	/* vma_to_resize(): VM_LOCKED only (lof-v1 left it unchanged) */
	if (!mlock_future_ok(t, v->flags & s->sem->charge_mask, new_len - old_len)) {
		*err = -KERR_EAGAIN;
		return NULL;
	}
	return v;
}

/* Move the PTEs of [old, old+len) to new (move_page_tables()). */
static void move_ptes(struct vmsys *s, struct mm *mm, uint64_t old, uint64_t new, uint64_t len,
		      int *err)
{
	(void)s;
	uint64_t vpn = old >> PAGE_SHIFT, last = ((old + len) >> PAGE_SHIFT) - 1;
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t pte = radix_get(&mm->pt, vpn);
		radix_clear(&mm->pt, vpn);
		if (radix_set(&mm->pt, (new >> PAGE_SHIFT) + (vpn - (old >> PAGE_SHIFT)), pte))
			*err = -KERR_ENOMEM;
		vpn++;
	}
}

/* copy_vma() + move_vma() */
static int64_t move_vma(struct vmsys *s, struct task *t, struct vma *v, uint64_t old_addr,
			uint64_t old_len, uint64_t new_len, uint64_t new_addr, bool *locked,
			bool dontunmap)
{
	struct mm *mm = t->mm;
	const struct semantics *sem = s->sem;
	if (mm->map_count >= s->max_map_count - 3)
		return -KERR_ENOMEM;
	/* 6.1.y: for a locked VMA, DONTUNMAP splits first so that exactly the
	 * moved range loses its lock bits */
	if (dontunmap && (v->flags & VM_LOCKED)) {
		int err = 0;
		v = vma_modify_flags(s, mm, v, old_addr, old_addr + old_len, v->flags, &err);
		if (!v)
			return err;
	}
	vm_flags_t flags = v->flags;
	uint64_t new_pgoff = v->pgoff + ((old_addr - v->start) >> PAGE_SHIFT);
	/* copy_vma(): an anonymous VMA never faulted takes the pgoff of its
	 * new place, to merge more easily there */
	if (!v->file && !v->anon_vma)
		new_pgoff = new_addr >> PAGE_SHIFT;
	struct vma *nv = vma_new(s, mm, new_addr, new_addr + new_len, flags, v->file, new_pgoff);
	if (!nv)
		return -KERR_ENOMEM;
	nv->serial = v->serial;
	if (anon_vma_clone(s, nv, v)) {
		vma_link(s, mm, nv);
		vma_unlink_free(s, mm, nv);
		return -KERR_ENOMEM;
	}
	vma_link(s, mm, nv);
	int err = 0;
	move_ptes(s, mm, old_addr, new_addr, old_len, &err);
	if (err)
		return err;
	vm_stat_account(mm, flags, (int64_t)(new_len >> PAGE_SHIFT));
	if (dontunmap) {
		v->flags &= ~sem->lock_mask;
		if (sem->dontunmap_charges_new && (flags & VM_LOCKED)) {
			mm->locked_vm += new_len >> PAGE_SHIFT;
			mm->locked_vm_quirk += (int64_t)(new_len >> PAGE_SHIFT);
		}
		nv = vma_try_merge_neighbours(s, mm, nv);
		return (int64_t)new_addr;
	}
	/* the old range's charge is dropped by munmap; VM_ACCOUNT is kept */
	do_munmap(s, t, old_addr, old_len);
	if (flags & VM_LOCKED) {
		mm->locked_vm += new_len >> PAGE_SHIFT;
		*locked = true;
	}
	nv = vma_lookup(&mm->vmas, new_addr);
	if (nv)
		vma_try_merge_neighbours(s, mm, nv);
	return (int64_t)new_addr;
}

int64_t vm_mremap(struct vmsys *s, struct task *t, uint64_t addr, uint64_t old_len,
		  uint64_t new_len, uint64_t flags, uint64_t new_addr, bool has_placement,
		  uint64_t placement)
{
	const struct arch_flags *af = &s->af;
	const struct semantics *sem = s->sem;
	struct mm *mm = t->mm;
	s->nevents = 0;
	uint64_t maymove = af->mremap_maymove, fixedf = af->mremap_fixed;
	uint64_t dontunmapf = sem->has_dontunmap ? af->mremap_dontunmap : 0;
	bool locked = false;
	int64_t ret;
	int err = 0;

	if (flags & ~(maymove | fixedf | dontunmapf))
		return -KERR_EINVAL;
	if ((flags & fixedf) && !(flags & maymove))
		return -KERR_EINVAL;
	if (dontunmapf && (flags & dontunmapf) && (!(flags & maymove) || old_len != new_len))
		return -KERR_EINVAL;
	if (addr & ~PAGE_MASK)
		return -KERR_EINVAL;
	old_len = PAGE_ALIGN(old_len);
	new_len = PAGE_ALIGN(new_len);
	if (!new_len)
		return -KERR_EINVAL;
	bool dontunmap = dontunmapf && (flags & dontunmapf);

	if ((flags & fixedf) || dontunmap) {
		/* mremap_to() */
		if (flags & fixedf) {
			if (new_addr & ~PAGE_MASK)
				return -KERR_EINVAL;
			if (new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
				return -KERR_EINVAL;
			if (addr + old_len > new_addr && new_addr + new_len > addr)
				return -KERR_EINVAL;
		}
		if (mm->map_count + 2 >= s->max_map_count - 3)
			return -KERR_ENOMEM;
		if (flags & fixedf) {
			if ((ret = do_munmap(s, t, new_addr, new_len)))
				return ret;
		}
		if (old_len > new_len) {
			if ((ret = do_munmap(s, t, addr + new_len, old_len - new_len)))
				return ret;
			old_len = new_len;
		}
		struct vma *v = vma_to_resize(s, t, addr, old_len, new_len, &err);
		if (!v)
			return err;
		if (dontunmap && (v->flags & (VM_DONTEXPAND | VM_PFNMAP)))
			return -KERR_EINVAL;
		if (!(flags & fixedf)) {
			if (has_placement && range_is_free(mm, placement, placement + new_len))
				new_addr = placement;
			else
				new_addr = get_unmapped_area(s, mm, new_len, 0);
			if (!new_addr)
				return -KERR_ENOMEM;
		}
		ret = move_vma(s, t, v, addr, old_len, new_len, new_addr, &locked, dontunmap);
		goto out;
	}

	if (old_len >= new_len) {
		ret = do_munmap(s, t, addr + new_len, old_len - new_len);
		if (ret && old_len != new_len)
			return ret;
		return (int64_t)addr;
	}
	struct vma *v = vma_to_resize(s, t, addr, old_len, new_len, &err);
	if (!v)
		return err;
	if (old_len == v->end - addr) {
		uint64_t delta = new_len - old_len;
		uint64_t nend = v->end + delta;
		bool room = nend > v->end && nend <= TASK_SIZE && (!v->next || v->next->start >= nend);
		if (room) {
			v->end = nend;
			uint64_t pages = delta >> PAGE_SHIFT;
			vm_stat_account(mm, v->flags, (int64_t)pages);
			if (v->flags & VM_LOCKED) {
				mm->locked_vm += pages;
				locked = true;
			}
			new_addr = addr;
			vma_try_merge_neighbours(s, mm, v);
			ret = (int64_t)addr;
			goto out;
		}
	}
	if (!(flags & maymove))
		return -KERR_ENOMEM;
	if (has_placement && placement && !(placement & ~PAGE_MASK) &&
	    range_is_free(mm, placement, placement + new_len))
		new_addr = placement;
	else
		new_addr = get_unmapped_area(s, mm, new_len, 0);
	if (!new_addr)
		return -KERR_ENOMEM;
	ret = move_vma(s, t, v, addr, old_len, new_len, new_addr, &locked, false);
out:
	if (ret >= 0 && locked && new_len > old_len)
		mm_populate(s, t, new_addr + old_len, new_len - old_len, true);
	return ret;
}
