/* mm.c - address spaces: creation, teardown, and the mlock permission and
 * limit checks every locking path shares. */
#include "alloc.h"
#include "internal.h"

#include <stdlib.h>

struct mm *mm_alloc(struct vmsys *s)
{
	struct mm *mm = vm_calloc(1, sizeof(*mm));
	if (!mm)
		return NULL;
	vma_tree_init(&mm->vmas);
	radix_init(&mm->pt);
	mm->pt.leaf_charge = &s->pm.nr_pt; /* PTE tables take frames */
	mm->pt.pool = &s->pt_pool;
	mm->mmap_base = s->default_mmap_base;
	mm->users = 1;
	mm->id = ++s->next_mm_id;
	return mm;
}

/* kernel/fork.c:mmput() -> mm/mmap.c:exit_mmap(): drain this CPU's
 * batches (lru_add_drain() first, @ v4.0 .. v6.18), unmap everything.  4.x
 * first munlocks every VM_LOCKED VMA (munlock_vma_pages_all()); 6.x lets
 * the zap munlock page by page.  locked_vm is not fixed up: the mm goes. */
void mm_put(struct vmsys *s, struct mm *mm)
{
	if (--mm->users)
		return;
	if (s->dying) { /* vmsys_free(): the structures only, no page is looked at */
		while (mm->vmas.first)
			vma_unlink_free_first(s, mm);
		goto free;
	}
	lru_add_drain(s); /* exit_mmap(): before tlb_gather_mmu_fullmm() */
	/* exit_mmap() @ v4.0/v4.4 tests locked_vm once, then munlocks every
	 * VM_LOCKED VMA without discharging it */
	bool munlock_first = s->sem->page_model == PLM_RMAP_WALK && mm->locked_vm;
	while (mm->vmas.first) {
		struct vma *v = mm->vmas.first;
		if (munlock_first && (v->flags & VM_LOCKED))
			munlock_vma_pages_all(s, v, false); /* exit_mmap(): no mmap_sem held */
		zap_range(s, mm, v, v->start, v->end);
		TP(s, TP_VMA_UNLINK, KFN_EXIT_MMAP, .start = v->start, .end = v->end,
		   .old_flags = v->flags, .before = mm->map_count, .after = mm->map_count - 1);
		vma_unlink_free_first(s, mm);
	}
	/* No drain after the zap: the munlocks it queued stay in this CPU's
	 * batches (6.18: tlb_finish_mmu() -> free_pages_and_swap_cache()
	 * drains nothing; 6.1 and 4.x drain there, zap_range()'s
	 * zap_drains_lru).  Whether another CPU drained them before a later
	 * event is the kernel's timing: replay's allowed drains
	 * (docs/fidelity.md) */
free:
	radix_destroy(&mm->pt);
	hugetlb_ptes_free(mm);
	thp_pmds_free(mm);
	hitmap_free(&mm->hm);
	vma_tree_release(&mm->vmas);
	free(mm);
}

bool task_owns_mm(const struct vmsys *s, const struct task *t)
{
	if (!t->alive || !t->mm)
		return false;
	if (t->mm->users == 1)
		return true; /* its only live user */
	for (const struct task *u = s->live_head; u != t; u = u->live_next)
		if (u->mm == t->mm)
			return false;
	return true;
}

/* mm/mlock.c:can_do_mlock() */
bool mm_can_do_mlock(const struct task *t)
{
	return t->rlim_memlock_cur != 0 || capable_ipc_lock(t);
}

/* mm/mmap.c:mlock_future_ok() (mlock_future_check() before 6.5) */
bool mlock_future_ok(struct vmsys *s, struct task *t, vm_flags_t flags, uint64_t bytes)
{
	if (!flags)
		return true;
	uint64_t locked = (bytes >> PAGE_SHIFT) + t->mm->locked_vm;
	bool ok = capable_ipc_lock(t) || locked <= rlimit_memlock_pages(t);
	TP(s, TP_LIMIT, KFN_MLOCK_FUTURE, .delta = (int64_t)(bytes >> PAGE_SHIFT),
	   .before = t->mm->locked_vm, .err = ok ? 0 : -KERR_EAGAIN);
	return ok;
}
