/*
 * fork.c - processes: fork/vfork/clone, execve, exit, and the per-task
 * limits (RLIMIT_MEMLOCK, CAP_IPC_LOCK).
 *
 * fork (kernel/fork.c:dup_mm()/dup_mmap() @ v6.1): the child's mm starts
 * with locked_vm = 0 and def_flags masked to VM_INIT_DEF_MASK, so
 * MCL_FUTURE is not inherited; each VMA is copied without the lock bits the
 * semantics clears (VM_LOCKED|VM_LOCKONFAULT since 4.4); VM_DONTCOPY VMAs
 * are skipped; VM_WIPEONFORK ones start empty.  Page tables are copied
 * only for VMAs that may hold anonymous pages (copy_page_range()): those
 * pages become COW-shared (write-protected in both) and stay mlocked on
 * behalf of the parent only.
 */
#include "alloc.h"
#include "internal.h"

#include <limits.h>

#include <stdlib.h>

static int copy_ptes(struct vmsys *s, struct vma *src, struct vma *dst)
{
	struct mm *smm = src->mm, *dmm = dst->mm;
	uint64_t vpn = src->start >> PAGE_SHIFT, last = (src->end >> PAGE_SHIFT) - 1;
	while (vpn <= last && radix_next(&smm->pt, &vpn, last)) {
		uint64_t *ptep = radix_peek(&smm->pt, vpn);
		uint64_t pte = *ptep;
		if (pte & PTE_SWAP) {
			s->swap_map[pte_pfn(pte)]++;
			dmm->swap_ents++;
		} else if (pte & PTE_PRESENT) {
			pfn_t pfn = pte_pfn(pte);
			struct page *p = spage(s, pfn);
			if (pfn != PFN_ZERO && (p->flags & PG_ANON) && !vma_is_shared(src) &&
			    smm->has_pinned && page_maybe_pinned(p)) {
				/* copy_present_pte(): a page that may be pinned,
				 * in an mm that has pinned (folio_needs_cow_for_dma()),
				 * is copied now, not shared (only the kernels with
				 * io_uring pin long-term here) */
				uint64_t npte;
				pfn_t copy = copy_pinned_page_for_child(s, dst, vpn << PAGE_SHIFT, &npte);
				if (!copy)
					return -KERR_ENOMEM;
				if ((!radix_has_leaf(&dmm->pt, vpn) && !pte_table_alloc(s)) ||
				    radix_set(&dmm->pt, vpn, npte))
					return -KERR_ENOMEM;
				rmap_add(s, dst, copy, true);
				vpn++;
				continue;
			}
			if ((p->flags & PG_ANON) && !vma_is_shared(src)) {
				/* COW: both sides lose write */
				pte_changed(s);
				*ptep &= ~(uint64_t)(PTE_WRITE | PTE_EXCL);
				pte = *ptep;
			}
			if (pfn != PFN_ZERO) {
				p->mapcount++;
				p->refcount++;
				mm_rss_add(dmm, p, 1);
			}
		}
		if (pte & PTE_PRESENT) {
			/* copy_present_pte(): the child's copy is old, and clean
			 * when shared */
			pte &= ~(uint64_t)PTE_YOUNG;
			if (vma_is_shared(src))
				pte &= ~(uint64_t)PTE_DIRTY;
		}
		/* copy_pte_range(): the child's PTE table is allocated first */
		if ((!radix_has_leaf(&dmm->pt, vpn) && !pte_table_alloc(s)) ||
		    radix_set(&dmm->pt, vpn, pte))
			return -KERR_ENOMEM;
		vpn++;
	}
	return 0;
}

void task_mark_dead(struct vmsys *s, struct task *t)
{
	if (!t->alive)
		return;
	t->alive = false;
	mount_ns_put(s, t->mnt_ns);
	fs_cwd_put(t);
	if (t->live_prev)
		t->live_prev->live_next = t->live_next;
	else
		s->live_head = t->live_next;
	if (t->live_next)
		t->live_next->live_prev = t->live_prev;
	else
		s->live_tail = t->live_prev;
	t->live_next = t->live_prev = NULL;
}

static struct task *task_new(struct vmsys *s, int pid)
{
	struct task *t = vm_calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	if (mount_ns_enter(s, t, 0, true)) { /* the trace's first namespace */
		free(t);
		return NULL;
	}
	t->alive = true;
	t->live_prev = s->live_tail;
	if (s->live_tail)
		s->live_tail->live_next = t;
	else
		s->live_head = t;
	s->live_tail = t;
	t->pid_known = pid != 0;
	/* append: tasks stay in creation order */
	t->prev = s->tasks_tail;
	if (s->tasks_tail)
		s->tasks_tail->next = t;
	else
		s->tasks = t;
	s->tasks_tail = t;
	if (pid && task_index_put(s, t)) {
		task_mark_dead(s, t); /* still listed (freed with the machine), not indexed */
		return NULL;
	}
	if (pid >= s->next_pid && pid < INT_MAX)
		s->next_pid = pid + 1;
	return t;
}

static int dup_mmap(struct vmsys *s, struct mm *old, struct mm *mm)
{
	const struct semantics *sem = s->sem;
	mm->def_flags = old->def_flags & VM_INIT_DEF_MASK;
	mm->total_vm = old->total_vm;
	mm->data_vm = old->data_vm;
	mm->exec_vm = old->exec_vm;
	mm->stack_vm = old->stack_vm;
	mm->start_brk = old->start_brk;
	mm->brk = old->brk;
	mm->mmap_base = old->mmap_base;
	mm->hiwater_vm = old->hiwater_vm;
	for (struct vma *v = old->vmas.first; v; v = v->next) {
		if (v->flags & VM_DONTCOPY) {
			uint64_t pages = vma_pages(v);
			mm->total_vm -= pages;
			continue;
		}
		struct vma *n = vma_new(s, mm, v->start, v->end, v->flags & ~sem->fork_clear, v->file,
					v->pgoff);
		if (!n)
			return -KERR_ENOMEM;
		n->serial = ++s->next_serial;
		n->ofd = v->ofd;
		vma_link_last(s, mm, n); /* in address order: the tree is built once */
		TP(s, TP_VMA_NEW, KFN_DUP_MMAP, .start = n->start, .end = n->end, .old_flags = v->flags,
		   .new_flags = n->flags, .after = mm->map_count);
		if (v->flags & VM_WIPEONFORK)
			continue;
		if (v->anon_vma) {
			/* anon_vma_fork(): the parent's chains plus a new anon_vma */
			if (anon_vma_clone(s, n, v))
				return -KERR_ENOMEM;
			if (n->anon_vma)
				anon_vma_put(s, n->anon_vma);
			n->anon_vma = NULL;
			if (anon_vma_prepare(s, n))
				return -KERR_ENOMEM;
		}
		if (v->flags & VM_HUGETLB) {
			if ((v->anon_vma || sem->fork_copies_hugetlb) && hugetlb_copy_range(s, mm, v))
				return -KERR_ENOMEM;
		} else if (v->anon_vma || (v->flags & (VM_PFNMAP | VM_MIXEDMAP))) {
			if (copy_ptes(s, v, n))
				return -KERR_ENOMEM;
			if (old->thp)
				thp_fork(mm, old, v->start, v->end);
		}
	}
	return 0;
}

#define CLONE_VM_G 0x100u
#define CLONE_FILES_G 0x400u
#define CLONE_VFORK_G 0x4000u

int64_t vm_fork(struct vmsys *s, struct task *t, uint64_t clone_flags, int child_pid)
{
	s->nevents = 0;
	if (child_pid <= 0)
		child_pid = s->next_pid > 1 ? s->next_pid : 2;
	struct task *old = vmsys_task(s, child_pid, false);
	if (old && old->alive)
		return -KERR_EAGAIN;
	struct task *c = task_new(s, child_pid);
	if (!c)
		return -KERR_ENOMEM;
	c->rlim_memlock_cur = t->rlim_memlock_cur;
	c->rlim_memlock_max = t->rlim_memlock_max;
	cred_copy(c, t);
	/* kernel/nsproxy.c:copy_namespaces(): the parent's, or a copy of it;
	 * copy_fs(): the working directory shared with CLONE_FS, else copied */
	if (mount_ns_enter(s, c, t->mnt_ns, false) || fs_cwd_fork(c, t, (clone_flags & CLONE_FS_G) != 0) ||
	    ((clone_flags & CLONE_NEWNS_G) && vm_unshare_mnt_ns(s, c))) {
		task_mark_dead(s, c);
		return -KERR_ENOMEM;
	}
	c->numa_node = t->numa_node; /* the parent's CPU; no NUMA statistics yet */
	if (clone_flags & CLONE_FILES_G) {
		c->files = t->files;
		if (c->files)
			c->files->refs++;
	} else {
		c->files = fdtable_dup(t->files);
		if (!c->files) {
			task_mark_dead(s, c);
			return -KERR_ENOMEM;
		}
	}
	numa_task_fork(s, c, t, t->mm ? t->mm->users : 0, (clone_flags & CLONE_VM_G) != 0);
	if (clone_flags & CLONE_VM_G) {
		c->mm = t->mm;
		t->mm->users++;
		return child_pid;
	}
	c->mm = mm_alloc(s);
	if (!c->mm) {
		vm_exit(s, c); /* drops the fd table it already has */
		return -KERR_ENOMEM;
	}
	numa_mm_dup(c->mm, t->mm); /* dup_mm() copies the scan state */
	/* no drain: kernel/fork.c:dup_mmap() @ v4.0 .. v6.18 drains no batch */
	if (dup_mmap(s, t->mm, c->mm)) {
		vm_exit(s, c);
		return -KERR_ENOMEM;
	}
	return child_pid;
}

/* fs/exec.c: a fresh mm with a stack VMA; locks and MCL_FUTURE are gone */
int64_t vm_execve(struct vmsys *s, struct task *t)
{
	s->nevents = 0;
	/* the files it reads before the point of no return */
	for (unsigned i = 0; i < t->nexec_reads; i++)
		if (!file_exec_read(s, t->exec_reads[i])) {
			file_exec_reads_forget(s, t);
			return -KERR_ENOMEM;
		}
	file_exec_reads_forget(s, t);
	struct mm *old = t->mm;
	struct mm *mm = mm_alloc(s);
	if (!mm)
		return -KERR_ENOMEM;
	mm->def_flags = old ? old->def_flags & VM_INIT_DEF_MASK : 0;
	uint64_t top = 0x7ffffffff000ULL, bottom = 0x7ffffffde000ULL;
	struct vma *st = vma_new(s, mm, bottom, top,
				 VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC |
					 VM_GROWSDOWN | VM_ACCOUNT | mm->def_flags,
				 NULL, bottom >> PAGE_SHIFT);
	if (!st) {
		mm_put(s, mm);
		return -KERR_ENOMEM;
	}
	vma_link(s, mm, st);
	mm->total_vm = mm->stack_vm = vma_pages(st);
	mm->start_stack = top;
	mm->stack_guessed = true;
	t->mm = mm;
	if (old)
		mm_put(s, old);
	numa_task_exec(s, t);
	cred_exec(t); /* the capabilities a plain file leaves (cred.c) */
	return 0;
}

void vm_exit(struct vmsys *s, struct task *t)
{
	if (!t->alive)
		return;
	task_mark_dead(s, t);
	if (t->mm) {
		mm_put(s, t->mm);
		t->mm = NULL;
	}
	fdtable_put(s, t->files);
	t->files = NULL;
	file_exec_reads_forget(s, t);
}

int64_t vm_setrlimit_memlock(struct vmsys *s, struct task *t, uint64_t cur, uint64_t max)
{
	(void)s;
	if (cur > max)
		return -KERR_EINVAL;
	/* kernel/sys.c:do_prlimit(): raising the hard limit needs
	 * CAP_SYS_RESOURCE (header cap-sys-resource, default: as cap-ipc-lock) */
	if (max > t->rlim_memlock_max && !capable_sys_resource(t))
		return -KERR_EPERM;
	t->rlim_memlock_cur = cur;
	t->rlim_memlock_max = max;
	return 0;
}

struct task *vmsys_task_new_internal(struct vmsys *s, int pid);
struct task *vmsys_task_new_internal(struct vmsys *s, int pid)
{
	return task_new(s, pid);
}
