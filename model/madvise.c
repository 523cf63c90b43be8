/*
 * madvise.c - madvise() (mm/madvise.c @ v6.1/v6.18).
 *
 * The walk visits every VMA of the range; the first error from a VMA is
 * returned at once (earlier VMAs keep what was done), a hole only makes
 * the final result ENOMEM.  Advice that would drop or move locked pages
 * (DONTNEED, FREE, REMOVE, COLD, PAGEOUT, and GUARD_INSTALL on 6.13+)
 * refuses a VM_LOCKED VMA with EINVAL - the semantics lists which;
 * DONTNEED_LOCKED (5.18+) zaps even locked pages and leaves the VMA locked.
 */
#include "internal.h"

static int madv_flags(struct vmsys *s, struct task *t, struct vma **vp, uint64_t start,
		      uint64_t end, enum madv adv)
{
	struct vma *v = *vp;
	vm_flags_t nf = v->flags;
	switch (adv) {
	case MADV_X_NORMAL: nf &= ~(VM_RAND_READ | VM_SEQ_READ); break;
	case MADV_X_SEQUENTIAL: nf = (nf & ~VM_RAND_READ) | VM_SEQ_READ; break;
	case MADV_X_RANDOM: nf = (nf & ~VM_SEQ_READ) | VM_RAND_READ; break;
	case MADV_X_DONTFORK: nf |= VM_DONTCOPY; break;
	case MADV_X_DOFORK:
		if (v->flags & VM_IO)
			return -KERR_EINVAL;
		nf &= ~VM_DONTCOPY;
		break;
	case MADV_X_WIPEONFORK:
		if (v->file || (v->flags & VM_SHARED))
			return -KERR_EINVAL;
		nf |= VM_WIPEONFORK;
		break;
	case MADV_X_KEEPONFORK: nf &= ~VM_WIPEONFORK; break;
	case MADV_X_DONTDUMP: nf |= VM_DONTDUMP; break;
	case MADV_X_DODUMP:
		if (!(v->flags & VM_HUGETLB) && (nf & VM_SPECIAL))
			return -KERR_EINVAL;
		nf &= ~VM_DONTDUMP;
		break;
	case MADV_X_MERGEABLE:
		if (!(nf & (VM_SHARED | VM_MAYSHARE | VM_SPECIAL | VM_HUGETLB)))
			nf |= VM_MERGEABLE;
		break;
	case MADV_X_UNMERGEABLE: nf &= ~VM_MERGEABLE; break;
	case MADV_X_HUGEPAGE: nf = (nf & ~VM_NOHUGEPAGE) | VM_HUGEPAGE; break;
	case MADV_X_NOHUGEPAGE: nf = (nf & ~VM_HUGEPAGE) | VM_NOHUGEPAGE; break;
	default: return 0;
	}
	if (nf == v->flags)
		return 0;
	int err = 0;
	vm_flags_t of = v->flags;
	v = vma_modify_flags(s, t->mm, v, start, end, nf, &err);
	if (!v)
		return err;
	v->flags = nf;
	TP(s, TP_VMA_FLAGS, KFN_MADVISE_UPDATE, .start = start, .end = end, .old_flags = of,
	   .new_flags = nf);
	*vp = v;
	return 0;
}

/* mm/madvise.c:madvise_cold_or_pageout_pte_range() @ v6.18: MADV_PAGEOUT
 * isolates the folio; an unevictable one goes straight back through
 * folio_putback_lru() (the lru_add batch: lru_add() recounts mlock_count
 * from 0), the others to reclaim_pages() */
static void pageout_one(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	if (s->sem->pageout_putback_unevictable && (p->flags & PG_UNEVICTABLE) &&
	    (p->flags & PG_LRU)) {
		lru_del_page(s, pfn);
		folio_add_lru(s, pfn);
		return;
	}
	shrink_page_list_one(s, pfn, true);
}

struct mm_seen {
	struct mm *mm;
	bool other;
};

static bool note_mm(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *pte, void *ctx)
{
	(void)s; (void)addr; (void)pte;
	struct mm_seen *seen = ctx;
	if (v->mm != seen->mm)
		seen->other = true;
	return !seen->other;
}

/* folio_maybe_mapped_shared() with CONFIG_MM_ID: some page of the folio
 * [head, head+nr) is mapped from an mm other than mm */
static bool folio_mapped_by_other_mm(struct vmsys *s, struct file *f, struct mm *mm,
				     uint64_t head, uint64_t nr)
{
	struct mm_seen seen = { mm, false };
	for (uint64_t i = head; i < head + nr && !seen.other; i++) {
		pfn_t x = file_find_page(s, f, i);
		if (x && spage(s, x)->mapcount)
			rmap_walk(s, x, note_mm, &seen);
	}
	return seen.other;
}

/* MADV_COLD / MADV_PAGEOUT on the pages mapped here once */
static void madv_cold_pageout(struct vmsys *s, struct mm *mm, uint64_t start, uint64_t end,
			      bool pageout)
{
	lru_add_drain(s);
	uint64_t vpn = start >> PAGE_SHIFT, last = (end >> PAGE_SHIFT) - 1;
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t *ptep = radix_peek(&mm->pt, vpn);
		if ((*ptep & PTE_PRESENT) && pte_pfn(*ptep) != PFN_ZERO) {
			pfn_t pfn = pte_pfn(*ptep);
			struct page *p = spage(s, pfn);
			struct vma *fv = NULL;
			if (p->folio_order && !(p->flags & PG_ANON) && s->sem->pagecache_large_folios)
				fv = vma_lookup(&mm->vmas, vpn << PAGE_SHIFT);
			if (fv && fv->file) {
				/* madvise_cold_or_pageout_pte_range(): a large
				 * folio not wholly mapped by consecutive PTEs inside the
				 * range is split first; split_folio() of a dirty ext4
				 * folio fails (filemap_release_folio(): dirty buffers) and
				 * the batch is skipped; a clean one is split, and the split
				 * leaves every page of it unmapped (remap_page() skips file
				 * folios) - nothing is reclaimed */
				uint64_t fnr = 1ULL << p->folio_order, head = page_index(p) & ~(fnr - 1);
				uint64_t nr = 0;
				while (vpn + nr <= last && page_index(p) + nr < head + fnr) {
					uint64_t *q = radix_peek(&mm->pt, vpn + nr);
					if (!q || !(*q & PTE_PRESENT) ||
					    pte_pfn(*q) != file_find_page(s, fv->file, page_index(p) + nr))
						break;
					nr++;
				}
				if (nr < fnr) {
					bool shared = false, dirty = false;
					for (uint64_t i = head; i < head + fnr; i++) {
						pfn_t x = file_find_page(s, fv->file, i);
						if (!x)
							continue;
						if (spage(s, x)->mapcount > 1 && !s->sem->folio_shared_by_mm)
							shared = true;
						if (spage(s, x)->flags & PG_DIRTY)
							dirty = true;
					}
					if (s->sem->folio_shared_by_mm)
						shared = folio_mapped_by_other_mm(s, fv->file, mm, head, fnr);
					if (shared || dirty) {
						vpn += nr ? nr : 1;
						continue;
					}
					file_unmap_folio(s, fv->file, head, fnr);
					vpn++;
					continue;
				}
				/* whole folio in the range: reclaim all its pages */
				uint64_t sum = 0;
				for (uint64_t i = 0; i < nr; i++)
					sum += spage(s, pte_pfn(*radix_peek(&mm->pt, vpn + i)))->mapcount;
				if (sum == nr) {
					for (uint64_t i = 0; i < nr; i++) {
						uint64_t *q = radix_peek(&mm->pt, vpn + i);
						pfn_t x = pte_pfn(*q);
						pte_changed(s);
						*q &= ~(uint64_t)PTE_YOUNG;
						spage(s, x)->flags &= ~PG_REFERENCED;
						if (pageout)
							pageout_one(s, x);
						else
							lru_deactivate(s, x);
					}
				}
				vpn += nr;
				continue;
			}
			if (p->mapcount == 1) {
				pte_changed(s);
				*ptep &= ~(uint64_t)PTE_YOUNG;
				p->flags &= ~PG_REFERENCED;
				if (pageout)
					pageout_one(s, pfn);
				else
					lru_deactivate(s, pfn);
			}
		}
		vpn++;
	}
}

static void madv_willneed(struct vmsys *s, struct vma *v, uint64_t start, uint64_t end)
{
	struct file *f = v->file;
	if (!f || f->shmem) {
		/* anon: swap readahead (force_swapin_readahead() @ v4.4,
		 * madvise_willneed() @ v6.1), shmem: its swap entries; both
		 * end with lru_add_drain(); no hole is filled */
		lru_add_drain(s);
		return;
	}
	uint64_t max_idx = (f->size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	for (uint64_t a = start; a < end; a += PAGE_SIZE) {
		uint64_t idx = linear_index(v, a);
		if (idx >= max_idx)
			break;
		if (!file_find_page(s, f, idx))
			file_add_page(s, f, idx, NULL);
	}
}

/*
 * mm/madvise.c:madvise_populate() @ v6.18: fault the range in, in order,
 * with GUP; it does not walk VMAs like other advice: a hole stops it with
 * ENOMEM, a VMA that cannot be read (or written) stops it with EINVAL, a
 * SIGBUS with EFAULT.  Pages populated before the stop stay.
 */
/* MADV_POPULATE_READ/WRITE of [start, end): VMA after VMA, ENOMEM at the
 * first hole (mm/madvise.c:madvise_populate() @ v6.18); 6.1 calls it for
 * one VMA's part at a time from madvise_walk_vmas() (vma_only: [start,
 * end) lies in one VMA), so a hole only sets the walk's ENOMEM and a later
 * VMA's EINVAL wins (populate_in_vma_walk) */
static int64_t madv_populate(struct vmsys *s, struct task *t, uint64_t start, uint64_t end,
			     bool write)
{
	struct mm *mm = t->mm;
	uint64_t a = start;
	int64_t r = 0;
	while (a < end && !r) {
		struct vma *v = vma_lookup(&mm->vmas, a);
		if (!v) {
			r = -KERR_ENOMEM;
			break;
		}
		/* check_vma_flags() as EINVAL: 6.1's faultin_vma_page_range()
		 * before GUP (and its drain), 6.18's inside __get_user_pages() */
		if ((v->flags & (VM_IO | VM_PFNMAP)) || (write ? !(v->flags & VM_WRITE) : !(v->flags & VM_READ))) {
			if (s->sem->populate_in_vma_walk)
				return -KERR_EINVAL;
			r = -KERR_EINVAL;
			break;
		}
		uint64_t vend = v->end < end ? v->end : end;
		for (; a < vend; a += PAGE_SIZE) {
			uint64_t *ptep = radix_peek(&mm->pt, a >> PAGE_SHIFT);
			/* no FOLL_FORCE: a PROT_NONE hinting PTE faults (FOLL_NUMA) */
			bool ok = ptep && pte_permits(*ptep, write);
			if (!ok) {
				enum vm_fault_kind f = handle_fault(s, t, v, a, (write ? 2 : 1) | FAULT_GUP);
				if (f == VMF_SIGBUS || f == VMF_SIGSEGV) {
					r = -KERR_EFAULT;
					break;
				}
				ptep = radix_peek(&mm->pt, a >> PAGE_SHIFT);
			}
			if (ptep && (*ptep & PTE_PRESENT)) {
				*ptep |= PTE_YOUNG | (write ? PTE_DIRTY : 0);
				if (pte_pfn(*ptep) != PFN_ZERO)
					mark_page_accessed(s, pte_pfn(*ptep));
			}
		}
	}
	/* faultin_page_range() @ v6.18 (faultin_vma_page_range() @ v6.1)
	 * drains after GUP whatever GUP returned: a hole's ENOMEM too */
	lru_add_drain(s);
	return r;
}

static int madv_vma(struct vmsys *s, struct task *t, struct vma **vp, uint64_t start,
		    uint64_t end, enum madv adv)
{
	struct vma *v = *vp;
	struct mm *mm = t->mm;
	const struct semantics *sem = s->sem;
	if ((sem->madv_refuses_locked >> adv & 1) && (v->flags & sem->madvise_locked))
		return -KERR_EINVAL;
	switch (adv) {
	case MADV_X_POPULATE_READ:
	case MADV_X_POPULATE_WRITE:
		/* 6.1: madvise_vma_behavior() -> madvise_populate() for this
		 * VMA's part of the range */
		return (int)madv_populate(s, t, start, end, adv == MADV_X_POPULATE_WRITE);
	case MADV_X_WILLNEED:
		madv_willneed(s, v, start, end);
		return 0;
	case MADV_X_DONTNEED:
	case MADV_X_DONTNEED_LOCKED:
		if (v->flags & (VM_PFNMAP | VM_HUGETLB))
			return -KERR_EINVAL;
		lru_add_drain(s);
		zap_range(s, mm, v, start, end);
		return 0;
	case MADV_X_FREE:
		if (v->flags & (VM_PFNMAP | VM_HUGETLB))
			return -KERR_EINVAL;
		if (v->file)
			return -KERR_EINVAL;
		/* lazy free: without reclaim the pages stay; model them as clean
		 * lazyfree anon (they move to the inactive file list) */
		lru_add_drain(s);
		for (uint64_t a = start; a < end; a += PAGE_SIZE) {
			uint64_t *ptep = radix_peek(&mm->pt, a >> PAGE_SHIFT);
			if (!ptep || !(*ptep & PTE_PRESENT) || pte_pfn(*ptep) == PFN_ZERO)
				continue;
			struct page *p = spage(s, pte_pfn(*ptep));
			if (p->mapcount != 1 || !(p->flags & PG_ANON) || (p->flags & PG_UNEVICTABLE))
				continue;
			pte_changed(s);
			*ptep &= ~(uint64_t)(PTE_DIRTY | PTE_YOUNG);
			if (p->flags & PG_LRU) {
				lru_del_page(s, pte_pfn(*ptep));
				p->flags &= ~(PG_ACTIVE | PG_REFERENCED | PG_SWAPBACKED | PG_DIRTY);
				lru_add_page(s, pte_pfn(*ptep), page_lru(p));
				count_vm(s, PGLAZYFREE, 1);
			}
		}
		return 0;
	case MADV_X_REMOVE: {
		if (v->flags & VM_HUGETLB)
			return -KERR_EINVAL;
		if (!v->file)
			return -KERR_EINVAL;
		/* mm/madvise.c:madvise_remove() @ v6.18 */
		if ((v->flags & (VM_SHARED | VM_MAYWRITE)) != (VM_SHARED | VM_MAYWRITE))
			return -KERR_EACCES;
		/* vfs_fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE):
		 * the same partial-folio rules as fallocate() */
		if (file_punch_hole(s, v->file, linear_index(v, start) << PAGE_SHIFT, end - start))
			return -KERR_ENOMEM;
		return 0;
	}
	case MADV_X_COLD:
	case MADV_X_PAGEOUT:
		if (v->flags & (VM_PFNMAP | VM_HUGETLB))
			return -KERR_EINVAL;
		madv_cold_pageout(s, mm, start, end, adv == MADV_X_PAGEOUT);
		return 0;
	case MADV_X_GUARD_INSTALL:
		if (v->flags & (VM_SPECIAL | VM_HUGETLB) || v->file)
			return -KERR_EINVAL;
		zap_range(s, mm, v, start, end);
		return 0;
	case MADV_X_GUARD_REMOVE:
	case MADV_X_COLLAPSE:
	case MADV_X_HWPOISON:
	case MADV_X_SOFT_OFFLINE:
		return 0;
	default:
		return madv_flags(s, t, vp, start, end, adv);
	}
}

/* the advice's MADV_X_* in this kernel's numbering, -1 if it has none */
static int madv_index(const struct vmsys *s, uint64_t advice)
{
	for (int i = 0; i < MADV_X_NR; i++)
		if (s->af.madv[i] >= 0 && (uint64_t)s->af.madv[i] == advice)
			return i;
	return -1;
}

int64_t vm_madvise(struct vmsys *s, struct task *t, uint64_t start, uint64_t len, uint64_t advice)
{
	struct mm *mm = t->mm;
	s->nevents = 0;
	int adv = madv_index(s, advice);
	if (adv < 0)
		return -KERR_EINVAL;
	if (adv == MADV_X_DONTNEED_LOCKED && !s->sem->has_dontneed_locked)
		return -KERR_EINVAL;
	if (start & ~PAGE_MASK)
		return -KERR_EINVAL;
	uint64_t alen = PAGE_ALIGN(len);
	if (len && !alen)
		return -KERR_EINVAL;
	uint64_t end = start + alen;
	if (end < start)
		return -KERR_EINVAL;
	if (end == start)
		return 0;
	if ((adv == MADV_X_POPULATE_READ || adv == MADV_X_POPULATE_WRITE) &&
	    !s->sem->populate_in_vma_walk)
		return madv_populate(s, t, start, end, adv == MADV_X_POPULATE_WRITE);
	int unmapped = 0;
	struct vma *v = vma_find(&mm->vmas, start);
	for (;;) {
		if (!v)
			return -KERR_ENOMEM;
		if (start < v->start) {
			unmapped = -KERR_ENOMEM;
			start = v->start;
			if (start >= end)
				break;
		}
		uint64_t tmp = v->end < end ? v->end : end;
		struct vma *cur = v;
		int err = madv_vma(s, t, &cur, start, tmp, (enum madv)adv);
		if (err)
			return err;
		start = tmp;
		if (start < cur->end)
			start = cur->end;
		if (start >= end)
			break;
		v = vma_find(&mm->vmas, start);
	}
	return unmapped;
}

int64_t vm_msync(struct vmsys *s, struct task *t, uint64_t start, uint64_t len, uint64_t flags)
{
	const struct arch_flags *af = &s->af;
	struct mm *mm = t->mm;
	s->nevents = 0;
	if (flags & ~(af->ms_async | af->ms_invalidate | af->ms_sync))
		return -KERR_EINVAL;
	if ((flags & af->ms_async) && (flags & af->ms_sync))
		return -KERR_EINVAL;
	if (start & ~PAGE_MASK)
		return -KERR_EINVAL;
	len = PAGE_ALIGN(len);
	uint64_t end = start + len;
	if (end < start)
		return -KERR_ENOMEM;
	if (end == start)
		return 0;
	int unmapped = 0;
	struct vma *v = vma_find(&mm->vmas, start);
	for (;;) {
		if (!v)
			return -KERR_ENOMEM;
		if (start < v->start) {
			unmapped = -KERR_ENOMEM;
			start = v->start;
			if (start >= end)
				return unmapped;
		}
		/* mm/msync.c: MS_INVALIDATE on a locked VMA is EBUSY */
		if ((flags & af->ms_invalidate) && (v->flags & s->sem->madvise_locked))
			return -KERR_EBUSY;
		start = v->end;
		if (start >= end)
			return unmapped;
		v = v->next;
	}
}

bool vmsys_madvise_beyond_range(const struct vmsys *s, uint64_t advice)
{
	int i = madv_index(s, advice);
	return i < 0 || i == MADV_X_REMOVE || i == MADV_X_COLD || i == MADV_X_PAGEOUT;
}
