/*
 * mremap.c - resizing and moving mappings (mm/mremap.c @ v6.1, and the
 * vma_remap_struct rewrite of 6.16-6.18 where the semantics says so).
 *
 *   shrink        munmap of the tail (discharges locked pages)
 *   grow in place if nothing follows: locked_vm += delta, populate the new
 *                 part when VM_LOCKED
 *   move          copy the VMA (flags, lock bits and all) to the new place,
 *                 move the page tables, unmap the old range (discharge),
 *                 charge new_len when VM_LOCKED, populate the grown tail
 *   DONTUNMAP     the old VMA stays, emptied and unlocked; 6.1 splits it so
 *                 only the moved range is unlocked and leaves locked_vm
 *                 alone, 6.18 unlocks the whole source VMA and charges the
 *                 new range again (vrm_stat_account() on that path)
 *   pure move     (6.17+) MREMAP_FIXED/DONTUNMAP with old_len == new_len may
 *                 span several VMAs: each moves, the gaps between them kept
 * Growth of a VM_LOCKED VMA past RLIMIT_MEMLOCK is EAGAIN (mlock_future_ok).
 *
 * Check order differs: 6.1 unmaps the MREMAP_FIXED target and shrinks
 * before vma_to_resize() validates the source, so a failing call can still
 * have unmapped the target; 6.18's check_prep_vma() validates first.
 */
#include "internal.h"


struct remap {
	uint64_t addr, old_len, new_len, new_addr, flags;
	bool fixed, dontunmap, maymove;
	bool locked;           /* the moved/grown VMA is VM_LOCKED: populate after */
	bool has_placement;
	uint64_t placement;
};

/* check_prep_vma() (6.18) / vma_to_resize() (6.1): can [addr, old_len) of
 * v become new_len long? */
static int check_source(struct vmsys *s, struct task *t, struct vma *v, const struct remap *r)
{
	if (!v)
		return -KERR_EFAULT;
	/* duplicating a private mapping (old_len 0) makes no sense (4.17+) */
	if (!r->old_len && !(v->flags & (VM_SHARED | VM_MAYSHARE)) && s->sem->mremap_refuses_private_dup)
		return -KERR_EINVAL;
	if (r->dontunmap && (v->flags & (VM_DONTEXPAND | VM_PFNMAP)))
		return -KERR_EINVAL;
	/* a shrink may cross the VMA's end: only what is kept must lie in it
	 * (check_prep_vma() @ v6.18; 6.1 unmaps the tail first) */
	uint64_t kept = r->new_len < r->old_len ? r->new_len : r->old_len;
	if (kept > v->end - r->addr)
		return -KERR_EFAULT;
	if (r->new_len <= r->old_len) {
		if (s->sem->mremap_same_size_checks_lock && r->new_len == r->old_len &&
		    !mlock_future_ok(s, t, v->flags & s->sem->charge_mask, 0))
			return -KERR_EAGAIN;
		return 0;
	}
	uint64_t pgoff = linear_index(v, r->addr);
	if (pgoff + (r->new_len >> PAGE_SHIFT) < pgoff)
		return -KERR_EINVAL;
	if (v->flags & (VM_DONTEXPAND | VM_PFNMAP))
		return -KERR_EFAULT;
	/* mm/mremap.c:vma_to_resize() @ v4.0 (untouched by the lock-on-fault
	 * patch, as in 6.1) tests VM_LOCKED, the charged bit, not the bits
	 * mmap's mlock_future_check() tests: a LOCKONFAULT-only VMA of lof-v1
	 * grows past the limit, uncharged */
	if (!mlock_future_ok(s, t, v->flags & s->sem->charge_mask, r->new_len - r->old_len))
		return -KERR_EAGAIN;
	return 0;
}

/* Move the PTEs of [old, old+len) to new (move_page_tables()). */
static void move_ptes(struct vmsys *s, struct mm *mm, uint64_t old, uint64_t new, uint64_t len,
		      int *err)
{
	if (!len)
		return;
	pte_changed(s);
	uint64_t vpn = old >> PAGE_SHIFT, last = ((old + len) >> PAGE_SHIFT) - 1;
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t pte = radix_get(&mm->pt, vpn);
		radix_clear(&mm->pt, vpn);
		if (radix_set(&mm->pt, (new >> PAGE_SHIFT) + (vpn - (old >> PAGE_SHIFT)), pte))
			*err = -KERR_ENOMEM;
		vpn++;
	}
}

static uint64_t locked_pages(struct mm *mm)
{
	uint64_t n = 0;
	for (struct vma *w = mm->vmas.first; w; w = w->next)
		if (w->flags & VM_LOCKED)
			n += vma_pages(w);
	return n;
}

/* copy_vma() + move_page_tables() + unmap of the source (move_vma()) */
static int64_t move_vma(struct vmsys *s, struct task *t, struct vma *v, struct remap *r)
{
	struct mm *mm = t->mm;
	const struct semantics *sem = s->sem;
	/* mm/mremap.c:move_vma() (prep_move_vma() @ v6.18): map_count >=
	 * max - 3 refuses, in int arithmetic (sysctl_max_map_count is an int),
	 * so a max below 3 refuses every move; a patch may ask less room
	 * (mremap_move_room) */
	int64_t move_room = sem->mremap_move_room ? sem->mremap_move_room : 4;
	if ((int64_t)mm->map_count + move_room > (int64_t)s->max_map_count)
		return -KERR_ENOMEM;
	uint64_t old_addr = r->addr, old_len = r->old_len, new_len = r->new_len;
	uint64_t new_addr = r->new_addr;
	uint64_t lv0 = mm->locked_vm, lp0 = r->dontunmap ? locked_pages(mm) : 0;
	/* mm/mremap.c:move_vma() @ 6.1.192, v6.12: a locked source is split
	 * at the range's ends first (split_vma(), each under the map_count
	 * limit), so that only the moved range is unlocked; a split, never a
	 * merge with a neighbour */
	if (r->dontunmap && (v->flags & VM_LOCKED) && sem->dontunmap_splits_first) {
		struct vma *hi = NULL;
		int err = 0;
		if (v->start != old_addr) {
			err = vma_split(s, mm, v, old_addr, true, &hi);
			if (!err)
				v = hi;
		}
		if (!err && v->end != old_addr + old_len)
			err = vma_split(s, mm, v, old_addr + old_len, true, NULL);
		if (err)
			return err;
	}
	vm_flags_t flags = v->flags;
	uint64_t new_pgoff = linear_index(v, old_addr);
	/* copy_vma(): an anonymous VMA never faulted takes the pgoff of its
	 * new place, to merge more easily there */
	if (!v->file && !v->anon_vma)
		new_pgoff = new_addr >> PAGE_SHIFT;
	struct vma *nv = vma_new(s, mm, new_addr, new_addr + new_len, flags, v->file, new_pgoff);
	if (!nv)
		return -KERR_ENOMEM;
	nv->serial = v->serial;
	nv->ofd = v->ofd;
	if (anon_vma_clone(s, nv, v)) {
		vma_free_unlinked(s, nv);
		return -KERR_ENOMEM;
	}
	vma_link(s, mm, nv);
	TP(s, TP_VMA_NEW, KFN_MREMAP, .start = new_addr, .end = new_addr + new_len,
	   .old_start = old_addr, .old_end = old_addr + old_len, .new_flags = flags,
	   .old_flags = flags, .after = mm->map_count);
	int err = 0;
	/* move_huge_pmd() keeps an aligned PMD whole; the model splits it
	 * (thp.c: not modelled) */
	if (mm->thp)
		thp_range_gone(mm, old_addr, old_addr + old_len);
	move_ptes(s, mm, old_addr, new_addr, old_len, &err);
	if (err)
		return err;
	vm_stat_account(mm, flags, (int64_t)(new_len >> PAGE_SHIFT));
	if (r->dontunmap) {
		bool whole = v->start == old_addr && v->end == old_addr + old_len;
		/* copy_vma() merges the copy with its neighbours - the still
		 * locked source among them (an unfaulted anon VMA took the pgoff
		 * of its new place); dontunmap_complete() then unlocks whatever
		 * VMA holds the source range now */
		bool self_adjacent = !v->file && !v->anon_vma &&
				     (new_addr == v->end || v->start == new_addr + new_len);
		if (!(sem->dontunmap_keeps_source && self_adjacent))
			nv = vma_try_merge_neighbours(s, mm, nv);
		struct vma *src = vma_lookup(&mm->vmas, old_addr);
		if (sem->dontunmap_charges_new && (flags & VM_LOCKED))
			locked_vm_add(s, mm, (int64_t)(new_len >> PAGE_SHIFT), KFN_MREMAP); /* vrm_stat_account() */
		if (src) {
			src->flags &= ~sem->lock_mask;
			if (whole && src != nv) {
				unlink_anon_vmas(s, src); /* dontunmap_complete() */
				/* unfaulted again, so with the pgoff an unfaulted
				 * anonymous VMA has: its neighbours merge with it
				 * only where that lines up (move_vma() @ 6.1.192) */
				if (sem->dontunmap_resets_pgoff && !src->file)
					src->pgoff = src->start >> PAGE_SHIFT;
			}
		}
		/* what locked_vm holds without a locked VMA behind it */
		mm->locked_vm_quirk += (int64_t)(mm->locked_vm - lv0) - ((int64_t)locked_pages(mm) - (int64_t)lp0);
		return (int64_t)new_addr;
	}
	/* the old range's charge is dropped by munmap (a duplicate's, of 0
	 * bytes, fails: move_vma() @ v4.4) */
	if (old_len)
		do_munmap(s, t, old_addr, old_len);
	if (flags & VM_LOCKED) {
		locked_vm_add(s, mm, (int64_t)(new_len >> PAGE_SHIFT), KFN_MREMAP);
		r->locked = true;
	}
	nv = vma_lookup(&mm->vmas, new_addr);
	if (nv)
		vma_try_merge_neighbours(s, mm, nv);
	if (!old_len) {
		/* a duplicate (4.x): copy_vma() merged the copy with its
		 * neighbours - the source among them - before move_vma() @ v4.4
		 * concealed VM_ACCOUNT on the source's VMA, and the failed
		 * munmap leaves nothing to restore it */
		struct vma *src = vma_lookup(&mm->vmas, old_addr);
		if (src && (src->flags & VM_ACCOUNT)) {
			vm_flags_t of = src->flags;
			src->flags &= ~VM_ACCOUNT;
			TP(s, TP_VMA_FLAGS, KFN_MREMAP, .start = src->start, .end = src->end, .old_flags = of,
			   .new_flags = src->flags);
		}
	}
	return (int64_t)new_addr;
}

static uint64_t pick_new_addr(struct vmsys *s, struct mm *mm, const struct remap *r)
{
	if (r->has_placement && r->placement && !(r->placement & ~PAGE_MASK) &&
	    r->placement <= TASK_SIZE - r->new_len &&
	    range_is_free(mm, r->placement, r->placement + r->new_len))
		return r->placement;
	return get_unmapped_area(s, mm, r->new_len, r->dontunmap ? r->new_addr : 0);
}

/* mremap_to(): a new address is implied (MREMAP_FIXED or DONTUNMAP) */
static int64_t mremap_to(struct vmsys *s, struct task *t, struct remap *r)
{
	struct mm *mm = t->mm;
	const struct semantics *sem = s->sem;
	int64_t ret;
	if (sem->mremap_checks_first) {
		int err = check_source(s, t, vma_lookup(&mm->vmas, r->addr), r);
		if (err)
			return err;
	}
	if (r->fixed && (ret = do_munmap(s, t, r->new_addr, r->new_len)))
		return ret;
	if (r->old_len > r->new_len) {
		if ((ret = do_munmap(s, t, r->addr + r->new_len, r->old_len - r->new_len)))
			return ret;
		r->old_len = r->new_len;
	}
	struct vma *v = vma_lookup(&mm->vmas, r->addr);
	if (!sem->mremap_checks_first) {
		int err = check_source(s, t, v, r);
		if (err)
			return err;
	}
	if (!v)
		return -KERR_EFAULT;
	if (!r->fixed) {
		r->new_addr = pick_new_addr(s, mm, r);
		if (!r->new_addr)
			return -KERR_ENOMEM;
	}
	return move_vma(s, t, v, r);
}

/* remap_move() (6.17+): move every VMA of [addr, addr+len) keeping gaps */
static int64_t remap_move(struct vmsys *s, struct task *t, struct remap *r)
{
	struct mm *mm = t->mm;
	uint64_t start = r->addr, end = r->addr + r->old_len;
	uint64_t target = r->new_addr, last_end = 0;
	int64_t res = -KERR_EFAULT;
	bool seen = false, allowed = true;
	struct vma *v = vma_find(&mm->vmas, start);
	while (v && v->start < end) {
		uint64_t a = v->start > start ? v->start : start;
		uint64_t len = (v->end < end ? v->end : end) - a;
		if (!allowed)
			return -KERR_EFAULT;
		if (!seen && start < v->start)
			return -KERR_EFAULT; /* no gap at the start */
		uint64_t offset = seen ? v->start - last_end : 0;
		last_end = v->end;
		uint64_t next_start = v->end;
		/* vma_multi_allowed(): refused only for uffd, hugetlb and files
		 * with their own get_unmapped_area() - none modelled (6.18
		 * moves ext4 mappings this way, recorded) */
		allowed = !(v->flags & VM_HUGETLB);
		if (seen && !allowed)
			return -KERR_EFAULT;
		struct remap piece = *r;
		piece.addr = a;
		piece.old_len = piece.new_len = len;
		piece.new_addr = target + offset;
		if (seen || !r->fixed) {
			piece.has_placement = false;
		}
		if (seen && !r->fixed)
			piece.fixed = false;
		int64_t rv = mremap_to(s, t, &piece);
		if (rv < 0)
			return rv;
		if (!seen)
			res = rv;
		seen = true;
		target = (uint64_t)rv + len;
		v = vma_find(&mm->vmas, next_start);
	}
	return res;
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
	struct remap r = {
		.addr = addr, .old_len = old_len, .new_len = new_len, .new_addr = new_addr,
		.flags = flags, .fixed = (flags & fixedf) != 0, .maymove = (flags & maymove) != 0,
		.dontunmap = dontunmapf && (flags & dontunmapf), .has_placement = has_placement,
		.placement = placement,
	};
	bool implies_new = r.fixed || r.dontunmap;

	/* check_mremap_params() */
	if (flags & ~(maymove | fixedf | dontunmapf))
		return -KERR_EINVAL;
	if (r.fixed && !r.maymove)
		return -KERR_EINVAL;
	if (r.dontunmap && (!r.maymove || old_len != new_len))
		return -KERR_EINVAL;
	if (addr & ~PAGE_MASK)
		return -KERR_EINVAL;
	r.old_len = PAGE_ALIGN(old_len);
	r.new_len = PAGE_ALIGN(new_len);
	if (!r.new_len)
		return -KERR_EINVAL;
	/* mm/mremap.c:mremap_to() @ v6.1, v6.12 (check_mremap_params() and
	 * mremap_to() @ v6.18): with MREMAP_DONTUNMAP the fifth argument is
	 * read even without MREMAP_FIXED - as a hint, but it must be page
	 * aligned, fit below TASK_SIZE and not overlap the source, as a fixed
	 * target must (a trace without it, as strace writes DONTUNMAP, gives
	 * 0: no such check fails) */
	if (implies_new) {
		if (new_addr & ~PAGE_MASK)
			return -KERR_EINVAL;
		if (r.new_len > TASK_SIZE || new_addr > TASK_SIZE - r.new_len)
			return -KERR_EINVAL;
		if (addr + r.old_len > new_addr && new_addr + r.new_len > addr)
			return -KERR_EINVAL;
		/* mremap_to() (check_mremap_params() @ v6.18): map_count + 2 >=
		 * max - 3 refuses, the same int arithmetic; a patch may ask less
		 * room (mremap_to_room) */
		int64_t to_room = s->sem->mremap_to_room ? s->sem->mremap_to_room : 6;
		if ((int64_t)mm->map_count + to_room > (int64_t)s->max_map_count)
			return -KERR_ENOMEM;
	}

	int64_t ret;
	/* vrm_move_only(): MREMAP_FIXED with an unchanged length */
	if (sem->mremap_multi_vma && r.fixed && r.old_len == r.new_len) {
		ret = remap_move(s, t, &r);
		return ret;
	}
	struct vma *v = vma_lookup(&mm->vmas, addr);
	if (!v)
		return -KERR_EFAULT;
	if (implies_new) {
		ret = mremap_to(s, t, &r);
		goto out;
	}
	/* mremap_at() */
	if (r.old_len >= r.new_len) {
		ret = do_munmap(s, t, addr + r.new_len, r.old_len - r.new_len);
		if (ret && r.old_len != r.new_len)
			return ret;
		return (int64_t)addr;
	}
	int err = check_source(s, t, v, &r);
	if (err)
		return err;
	if (r.old_len == v->end - addr) {
		uint64_t delta = r.new_len - r.old_len;
		uint64_t nend = v->end + delta;
		bool room = nend > v->end && nend <= TASK_SIZE && (!v->next || v->next->start >= nend);
		if (room) {
			v->end = nend;
			uint64_t pages = delta >> PAGE_SHIFT;
			vm_stat_account(mm, v->flags, (int64_t)pages);
			if (v->flags & VM_LOCKED) {
				locked_vm_add(s, mm, (int64_t)pages, KFN_MREMAP);
				r.locked = true;
			}
			r.new_addr = addr;
			/* vma_merge_extend() @ v6.18, vma_merge() @ v6.1: the grown
			 * VMA may absorb its next neighbour, never merge back into
			 * the previous one; vma_adjust() @ v4.0, v4.4 never merges */
			if (s->sem->mremap_expand_merges && v->next && (s->sem->extend_merge_no_middle ? vma_mergeable_extend(s, v, v->next)
								      : vma_mergeable(s, v, v->next)))
				vma_absorb_next(s, mm, v, v->next);
			ret = (int64_t)addr;
			goto out;
		}
	}
	if (!r.maymove)
		return -KERR_ENOMEM;
	r.new_addr = pick_new_addr(s, mm, &r);
	if (!r.new_addr)
		return -KERR_ENOMEM;
	ret = move_vma(s, t, v, &r);
out:
	if (ret >= 0 && r.locked && r.new_len > r.old_len)
		mm_populate(s, t, r.new_addr + r.old_len, r.new_len - r.old_len, true);
	return ret;
}
