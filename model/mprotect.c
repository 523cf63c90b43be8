/*
 * mprotect.c - changing protection (mm/mprotect.c @ v6.1).
 *
 * Lock bits survive: mprotect keeps every non-RWX flag.  It splits and
 * merges like mlock (ENOMEM at max_map_count), stops at a hole with
 * ENOMEM after changing what came before, refuses protections beyond
 * VM_MAY* with EACCES, charges VM_ACCOUNT when a private mapping first
 * becomes writable, and - the one tie to mlock - faults in a locked
 * private range that becomes writable, to break COW now.
 */
#include "internal.h"

static void change_pte_range(struct vmsys *s, struct mm *mm, struct vma *v, uint64_t start,
			     uint64_t end)
{
	uint64_t vpn = start >> PAGE_SHIFT, last = (end >> PAGE_SHIFT) - 1;
	bool can_write = (v->flags & VM_WRITE) != 0;
	/* pte_modify() to vm_page_prot: PAGE_NONE for a VMA without access */
	uint64_t none = (v->flags & VM_ACCESS_FLAGS) ? 0 : PTE_NOACCESS;
	pte_changed(s);
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t *ptep = radix_peek(&mm->pt, vpn);
		if (*ptep & PTE_PRESENT) {
			/* pte_modify() drops a NUMA hinting PROT_NONE */
			*ptep = (*ptep & ~(uint64_t)(PTE_NUMA | PTE_NOACCESS)) | none;
			if (!can_write) {
				*ptep &= ~(uint64_t)PTE_WRITE;
			} else if (pte_pfn(*ptep) != PFN_ZERO) {
				/* mm/mprotect.c:change_pte_range() @ v6.1, MM_CP_TRY_CHANGE_WRITABLE
				 * (5.19+): exclusive anon pages and
				 * shared mappings without write-notify become writable */
				struct page *p = spage(s, pte_pfn(*ptep));
				/* can_change_pte_writable(): a shared mapping with
				 * write-notify upgrades a PTE that is already dirty;
				 * shmem has no write-notify at all */
				bool shared_ok = vma_is_shared(v) && v->file &&
						 (v->file->shmem || (*ptep & PTE_DIRTY));
				bool anon_ok = s->sem->mprotect_writable_excl_anon && (*ptep & PTE_EXCL) &&
					       (p->flags & PG_ANON) && p->mapcount == 1;
				/* pte_modify() to the VMA's page protection first: a
				 * private mapping's is read-only (PAGE_COPY), so a PTE
				 * neither rule upgrades loses its write bit and the
				 * next write faults (change_pte_range() @ v4.0, v6.1) */
				if (anon_ok || shared_ok)
					*ptep |= PTE_WRITE;
				else
					*ptep &= ~(uint64_t)PTE_WRITE;
			}
		}
		vpn++;
	}
}

static int mprotect_fixup(struct vmsys *s, struct task *t, struct vma **vp, uint64_t start,
			  uint64_t end, vm_flags_t newflags)
{
	struct mm *mm = t->mm;
	struct vma *v = *vp;
	vm_flags_t oldflags = v->flags;
	if (newflags == oldflags)
		return 0;
	if (newflags & VM_WRITE) {
		if (!(oldflags & (VM_ACCOUNT | VM_WRITE | VM_HUGETLB | VM_SHARED | VM_NORESERVE)))
			newflags |= VM_ACCOUNT;
	} else if ((oldflags & VM_ACCOUNT) && !v->file && !v->anon_vma &&
		   s->sem->mprotect_unaccounts_unfaulted) {
		/* an anonymous range never faulted gives its commit back when it
		 * stops being writable (mprotect_fixup() @ v6.18; 6.1 and older
		 * keep VM_ACCOUNT) */
		newflags &= ~VM_ACCOUNT;
	}
	int err = 0;
	v = vma_modify_flags(s, mm, v, start, end, newflags, &err);
	if (!v)
		return err;
	*vp = v;
	v->flags = newflags;
	TP(s, TP_VMA_FLAGS, KFN_MPROTECT_FIXUP, .start = start, .end = end, .old_flags = oldflags,
	   .new_flags = newflags);
	if (v->flags & VM_HUGETLB)
		hugetlb_change_protection(mm, v);
	else
		change_pte_range(s, mm, v, start, end);
	if ((oldflags & (VM_WRITE | VM_SHARED | VM_LOCKED)) == VM_LOCKED && (newflags & VM_WRITE) &&
	    s->sem->mprotect_populates_locked)
		populate_vma_range(s, t, v, start, end);
	uint64_t pages = (end - start) >> PAGE_SHIFT;
	/* vm_stat_account(old, -n) + (new, +n): only the per-type counters move */
	if ((oldflags & (VM_EXEC | VM_WRITE)) == VM_EXEC)
		mm->exec_vm -= pages;
	else if ((oldflags & (VM_WRITE | VM_SHARED | VM_GROWSDOWN)) == VM_WRITE)
		mm->data_vm -= pages;
	if ((newflags & (VM_EXEC | VM_WRITE)) == VM_EXEC)
		mm->exec_vm += pages;
	else if ((newflags & (VM_WRITE | VM_SHARED | VM_GROWSDOWN)) == VM_WRITE)
		mm->data_vm += pages;
	return 0;
}

int64_t vm_mprotect(struct vmsys *s, struct task *t, uint64_t start, uint64_t len, uint64_t prot)
{
	const struct arch_flags *af = &s->af;
	struct mm *mm = t->mm;
	s->nevents = 0;
	uint64_t grows = prot & (af->prot_growsdown | af->prot_growsup);
	prot &= ~grows;
	if (grows && grows == (af->prot_growsdown | af->prot_growsup))
		return -KERR_EINVAL;
	if (start & ~PAGE_MASK)
		return -KERR_EINVAL;
	if (!len)
		return 0;
	len = PAGE_ALIGN(len);
	uint64_t end = start + len;
	if (end <= start)
		return -KERR_ENOMEM;
	if (prot & ~(af->prot_read | af->prot_write | af->prot_exec | af->prot_sem | af->prot_arch))
		return -KERR_EINVAL;
	struct vma *v = vma_find(&mm->vmas, start);
	if (!v)
		return -KERR_ENOMEM;
	if (grows & af->prot_growsdown) {
		if (v->start >= end || !(v->flags & VM_GROWSDOWN))
			return -KERR_EINVAL;
		start = v->start;
	} else if (v->start > start) {
		return -KERR_ENOMEM;
	}
	vm_flags_t newprot = 0;
	if (prot & af->prot_read)
		newprot |= VM_READ;
	if (prot & af->prot_write)
		newprot |= VM_WRITE;
	if (prot & af->prot_exec)
		newprot |= VM_EXEC;
	/* x86: PROT_WRITE implies read access in the page tables, but VM_READ
	 * follows the request (calc_vm_prot_bits) */
	uint64_t nstart = start, tmp = v->start;
	int err = 0;
	for (; v && v->start < end; v = v->next) {
		if (v->start != tmp) {
			err = -KERR_ENOMEM;
			break;
		}
		vm_flags_t newflags = newprot | (v->flags & ~VM_ACCESS_FLAGS);
		if ((newflags & ~(newflags >> 4)) & VM_ACCESS_FLAGS) {
			err = -KERR_EACCES;
			break;
		}
		tmp = v->end < end ? v->end : end;
		struct vma *cur = v;
		err = mprotect_fixup(s, t, &cur, nstart, tmp, newflags);
		if (err)
			break;
		v = cur;
		tmp = v->end;
		nstart = tmp;
		if (nstart >= end)
			break;
	}
	if (!err && tmp < end)
		err = -KERR_ENOMEM;
	return err;
}
