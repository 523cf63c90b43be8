/*
 * inherit.c - what a process had before its trace began: the mappings
 * that execve() and the ELF loader made (fs/binfmt_elf.c:load_elf_binary(),
 * fs/exec.c:setup_arg_pages(), arch/x86/entry/vdso/vma.c:map_vdso()),
 * the files they map with their size and cached pages, and the holes a
 * plain strace log only reveals by using them.
 *
 * Nothing here runs a kernel path: these calls set state the trace says
 * existed, so that later calls find what the kernel found.  Owns no state
 * of its own; calls the VMA, file and LRU units.
 */
#include "internal.h"

#include <string.h>

/* fs/exec.c:setup_arg_pages(): the stack vm_execve() guessed, replaced by
 * an inherited [stack] line. */
static void drop_guessed_stack(struct vmsys *s, struct task *t)
{
	struct mm *mm = t->mm;
	if (!mm->stack_guessed)
		return;
	mm->stack_guessed = false;
	for (struct vma *v = mm->vmas.first; v; v = v->next)
		if (v->flags & VM_GROWSDOWN) {
			do_munmap(s, t, v->start, v->end - v->start);
			return;
		}
}

static struct file *special_file(struct vmsys *s, const char *name, size_t len, uint64_t size)
{
	struct file *f = file_by_path(s, name, len, true);
	if (!f) {
		f = file_create(s, name, len);
		if (!f)
			return NULL;
		f->special = true;
		f->no_cache = false;
		f->size_known = true;
	}
	if (f->size < size)
		f->size = size;
	for (uint64_t i = 0; i < size >> PAGE_SHIFT; i++)
		if (!file_find_page(s, f, i) && !file_add_cached_page(s, f, i))
			return NULL;
	return f;
}

static struct file *inherit_file_lookup(struct vmsys *s, const char *path, size_t len)
{
	struct file *g = file_by_path(s, path, len, false);
	return g ? g : file_create(s, path, len);
}

/* The flags a mapping made before the trace has, from what /proc/PID/maps
 * shows of it: fs/binfmt_elf.c:elf_map() maps segments MAP_PRIVATE (so
 * VM_MAY* all set, VM_ACCOUNT when writable: mm/mmap.c:accountable_mapping()),
 * set_brk()/vm_brk_flags() the heap and .bss, fs/exec.c:setup_arg_pages()
 * the stack (VM_STACK_FLAGS: VM_GROWSDOWN, accounted),
 * arch/x86/entry/vdso/vma.c:map_vdso() the vvar pages (VM_IO|VM_PFNMAP|
 * VM_DONTEXPAND|VM_DONTDUMP) and the vdso (VM_MAY*, VM_DONTEXPAND) @ v6.18. */
static vm_flags_t inherit_flags(const struct vm_inherit *m)
{
	vm_flags_t f = 0;
	bool shared = m->perms[3] == 's';
	if (m->perms[0] == 'r')
		f |= VM_READ;
	if (m->perms[1] == 'w')
		f |= VM_WRITE;
	if (m->perms[2] == 'x')
		f |= VM_EXEC;
	switch (m->kind) {
	case VMI_VVAR:
		return f | VM_MAYREAD | VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP;
	case VMI_VDSO:
		return f | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | VM_DONTEXPAND;
	case VMI_STACK:
		f |= VM_GROWSDOWN;
		break;
	default:
		break;
	}
	if (shared)
		/* a shared file mapping: VM_MAYWRITE only if opened for writing,
		 * which /proc does not show; a writable one was */
		return f | VM_SHARED | VM_MAYSHARE | VM_MAYREAD | VM_MAYEXEC |
		       ((f & VM_WRITE) ? VM_MAYWRITE : 0);
	f |= VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;
	if ((f & VM_WRITE) || m->kind == VMI_STACK || m->kind == VMI_HEAP)
		f |= VM_ACCOUNT;
	return f;
}

int64_t vm_inherit_vma(struct vmsys *s, struct task *t, const struct vm_inherit *m)
{
	struct mm *mm = t->mm;
	if (!mm || m->start >= m->end || (m->start | m->end) & ~PAGE_MASK)
		return -KERR_EINVAL;
	if (m->kind == VMI_STACK)
		drop_guessed_stack(s, t);
	if (!range_is_free(mm, m->start, m->end))
		return -KERR_EEXIST;
	struct file *f = NULL;
	uint32_t ofd = 0;
	if (m->kind == VMI_VDSO) {
		/* arch/x86/entry/vdso/vma.c: the vdso image's pages, the same
		 * for every process, mapped one by one by special_mapping_fault()
		 * and counted in Rss as file pages: a file of the model whose
		 * pages are all resident, without readahead or fault-around */
		f = special_file(s, m->path, m->pathlen, m->end - m->start);
		if (!f)
			return -KERR_ENOMEM;
	} else if (m->kind == VMI_FILE) {
		f = inherit_file_lookup(s, m->path, m->pathlen);
		if (!f)
			return -KERR_ENOMEM;
		/* the loader maps every segment of one ELF file through one
		 * open file description, so neighbouring segments can merge */
		if (!f->exec_ofd)
			f->exec_ofd = ++s->next_ofd;
		ofd = f->exec_ofd;
	}
	vm_flags_t flags = m->flags_given ? m->flags : inherit_flags(m);
	struct vma *v = vma_new(s, mm, m->start, m->end, flags, f, f ? m->pgoff : m->start >> PAGE_SHIFT);
	if (!v)
		return -KERR_ENOMEM;
	v->ofd = ofd;
	vma_link(s, mm, v);
	vm_stat_account(mm, flags, (int64_t)vma_pages(v));
	if (flags & VM_LOCKED)
		mm->locked_vm += vma_pages(v);
	if (m->kind == VMI_HEAP) {
		mm->start_brk = m->start;
		mm->brk = m->end;
	} else if (m->kind == VMI_STACK) {
		mm->start_stack = m->end;
	}
	return 0;
}

int64_t vm_inherit_file(struct vmsys *s, const char *path, size_t pathlen, uint64_t size,
			const uint64_t *cached, size_t ncached)
{
	struct file *f = inherit_file_lookup(s, path, pathlen);
	if (!f)
		return -KERR_ENOMEM;
	f->size = size;
	f->size_known = true;
	file_blocks_existing(f, size);
	/* pages the page cache held before the trace: clean, uptodate, on the
	 * inactive file list, read long ago (no pgpgin now) */
	for (size_t i = 0; i + 1 < ncached; i += 2)
		for (uint64_t idx = cached[i]; idx < cached[i + 1]; idx++) {
			if (file_find_page(s, f, idx))
				continue;
			if (!file_add_cached_page(s, f, idx))
				return -KERR_ENOMEM;
		}
	return 0;
}

int64_t vm_learn_file_size(struct vmsys *s, struct task *t, int64_t fd, const char *path,
			   size_t pathlen, uint64_t size)
{
	struct file *f = NULL;
	if (fd >= 0) {
		f = file_lookup_fd(t, fd, NULL);
	} else if (path) {
		if (!(path = path_resolve(s, t, AT_FDCWD_G, path, pathlen, &pathlen)))
			return -KERR_ENOMEM;
		f = file_by_path(s, path, pathlen, false);
	}
	if (!f || f->size_known)
		return 0;
	/* a file the trace did not create: the kernel's i_size is the truth,
	 * and nothing of it is cached that the trace did not read */
	f->size = size;
	f->size_known = true;
	file_blocks_existing(f, size);
	return 1;
}

int64_t vm_evict_cached(struct vmsys *s, const char *path, size_t pathlen, uint64_t index,
			uint64_t nr)
{
	struct file *f = file_by_path(s, path, pathlen, false);
	if (!f)
		return 0;
	int64_t n = 0;
	for (uint64_t i = index; i < index + nr; i++) {
		pfn_t pfn = file_find_page(s, f, i);
		/* reclaim never takes an mlocked page (mm/vmscan.c: folio_evictable()):
		 * the model keeps it, and a later fault shows who was right */
		if (!pfn || (spage(s, pfn)->flags & PG_MLOCKED))
			continue;
		file_remove_page(s, f, i);
		n++;
	}
	return n;
}

bool vmsys_hole_in(struct vmsys *s, struct task *t, uint64_t start, uint64_t end,
		   uint64_t *hs, uint64_t *he)
{
	(void)s;
	struct mm *mm = t->mm;
	if (!mm)
		return false;
	start &= PAGE_MASK;
	end = PAGE_ALIGN(end);
	uint64_t at = start;
	for (struct vma *v = vma_find(&mm->vmas, start); at < end; v = v->next) {
		if (!v || v->start > at) {
			*hs = at;
			*he = (v && v->start < end) ? v->start : end;
			return true;
		}
		at = v->end;
		if (!v->next && at < end) {
			*hs = at;
			*he = end;
			return true;
		}
	}
	return false;
}
