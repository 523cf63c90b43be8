/*
 * vma_ops.c - creating, splitting and merging VMAs by the kernel's rules.
 *
 * Merge (mm/vma.c:is_mergeable_vma(), is_mergeable_anon_vma(),
 * can_vma_merge_before/after() @ v6.18; mm/mmap.c:vma_merge() @ v6.1): two
 * adjacent ranges merge when their flags are equal apart from VM_SOFTDIRTY,
 * neither is VM_SPECIAL, they map the same file (or both none) at
 * contiguous page offsets, and their anon_vmas are compatible: equal, or
 * one missing while the other VMA is on a single anon_vma chain (a forked
 * child's VMA is on two and does not merge with a fresh neighbour).
 *
 * Split (mm/vma.c:split_vma()): refused with ENOMEM when map_count has
 * reached vm.max_map_count; munmap's internal split does not check.
 */
#include "alloc.h"
#include "internal.h"

static void absorb_next(struct vmsys *s, struct mm *mm, struct vma *a, struct vma *b);

struct vma *vma_new(struct vmsys *s, struct mm *mm, uint64_t start, uint64_t end,
		    vm_flags_t flags, struct file *f, uint64_t pgoff)
{
	struct vma *v = objpool_get(&s->vma_pool);
	if (!v)
		return NULL;
	v->start = start;
	v->end = end;
	v->flags = flags;
	v->file = f;
	v->pgoff = pgoff;
	v->mm = mm;
	v->serial = ++s->next_serial;
	if (f)
		file_get(f);
	return v;
}

void file_link_vma(struct file *f, struct vma *v)
{
	v->file_prev = NULL;
	v->file_next = f->i_mmap;
	if (f->i_mmap)
		f->i_mmap->file_prev = v;
	f->i_mmap = v;
}

void file_unlink_vma(struct file *f, struct vma *v)
{
	if (v->file_prev)
		v->file_prev->file_next = v->file_next;
	else
		f->i_mmap = v->file_next;
	if (v->file_next)
		v->file_next->file_prev = v->file_prev;
	v->file_prev = v->file_next = NULL;
}

/* what a VMA just put on mm's tree is counted and listed in */
static void vma_linked(struct mm *mm, struct vma *v)
{
	mm->map_count++;
	if (v->file)
		file_link_vma(v->file, v);
}

void vma_link(struct vmsys *s, struct mm *mm, struct vma *v)
{
	(void)s;
	vma_tree_insert(&mm->vmas, v);
	vma_linked(mm, v);
}

void vma_link_last(struct vmsys *s, struct mm *mm, struct vma *v)
{
	(void)s;
	vma_tree_append(&mm->vmas, v);
	vma_linked(mm, v);
}

void unlink_anon_vmas(struct vmsys *s, struct vma *v)
{
	struct avc *c = v->avc_list;
	while (c) {
		struct avc *next = c->vma_next;
		struct anon_vma *av = c->av;
		if (c->av_prev)
			c->av_prev->av_next = c->av_next;
		else
			av->head = c->av_next;
		if (c->av_next)
			c->av_next->av_prev = c->av_prev;
		objpool_put(&s->avc_pool, c);
		anon_vma_put(s, av);
		c = next;
	}
	v->avc_list = NULL;
	v->navc = 0;
	if (v->anon_vma) {
		anon_vma_put(s, v->anon_vma);
		v->anon_vma = NULL;
	}
}

/* A VMA made by vma_new() that was never linked (a split or copy that
 * failed half way): its file reference and the chains it got go, nothing
 * of the tree, the map count or the file's i_mmap list is touched (the
 * error paths of mm/vma.c:__split_vma() free the new VMA the same way). */
void vma_free_unlinked(struct vmsys *s, struct vma *v)
{
	if (v->file)
		file_put(s, v->file);
	unlink_anon_vmas(s, v);
	objpool_put(&s->vma_pool, v);
}

/* what a VMA just off its mm's tree holds */
static void vma_free_linked(struct vmsys *s, struct vma *v)
{
	if (v->file) {
		file_unlink_vma(v->file, v);
		if (v->file->shm && !s->dying)
			shm_vma_gone(s, v->file); /* ipc/shm.c:shm_close() */
		if (v->file->huge)
			hugetlb_vma_close(s, v); /* hugetlb_vm_op_close() */
		file_put(s, v->file);
	}
	unlink_anon_vmas(s, v);
	objpool_put(&s->vma_pool, v);
}

void vma_unlink_free(struct vmsys *s, struct mm *mm, struct vma *v)
{
	vma_tree_erase(&mm->vmas, v);
	mm->map_count--;
	vma_free_linked(s, v);
}

void vma_unlink_free_first(struct vmsys *s, struct mm *mm)
{
	struct vma *v = mm->vmas.first;
	vma_tree_erase_first(&mm->vmas);
	mm->map_count--;
	vma_free_linked(s, v);
}

/* ------------------------------------------------------------ anon_vma */

static int avc_link(struct vmsys *s, struct vma *v, struct anon_vma *av)
{
	struct avc *c = objpool_get(&s->avc_pool);
	if (!c)
		return -KERR_ENOMEM;
	c->vma = v;
	c->av = av;
	c->vma_next = v->avc_list;
	v->avc_list = c;
	v->navc++;
	c->av_next = av->head;
	if (av->head)
		av->head->av_prev = c;
	av->head = c;
	av->refs++;
	return 0;
}

void anon_vma_put(struct vmsys *s, struct anon_vma *av)
{
	if (--av->refs == 0) {
		radix_clear(&s->anon_vmas, av->id);
		objpool_put(&s->anon_vma_pool, av);
	}
}

/* mm/vma.c:anon_vma_compatible(): a and b (a just below b) could share
 * an anon_vma - adjacent, same file, contiguous pgoff, flags equal apart
 * from the access bits */
static bool anon_vma_compatible(const struct vma *a, const struct vma *b)
{
	return a->end == b->start && a->file == b->file && a->ofd == b->ofd &&
	       !((a->flags ^ b->flags) & ~(VM_ACCESS_FLAGS | VM_SOFTDIRTY)) &&
	       b->pgoff == a->pgoff + vma_pages(a);
}

/* mm/vma.c:find_mergeable_anon_vma(): reuse a neighbour's anon_vma when it
 * is on a single chain (reusable_anon_vma()), next first, then prev */
static struct anon_vma *find_mergeable_anon_vma(struct vma *v)
{
	struct vma *next = v->next, *prev = v->prev;
	if (next && anon_vma_compatible(v, next) && next->anon_vma && next->navc == 1)
		return next->anon_vma;
	if (prev && anon_vma_compatible(prev, v) && prev->anon_vma && prev->navc == 1)
		return prev->anon_vma;
	return NULL;
}

/* mm/rmap.c:__anon_vma_prepare(): first fault of an anonymous VMA */
int anon_vma_prepare_new(struct vmsys *s, struct vma *v)
{
	struct anon_vma *reuse = find_mergeable_anon_vma(v);
	if (reuse) {
		if (avc_link(s, v, reuse))
			return -KERR_ENOMEM;
		v->anon_vma = reuse;
		reuse->refs++;
		return 0;
	}
	struct anon_vma *av = objpool_get(&s->anon_vma_pool);
	if (!av)
		return -KERR_ENOMEM;
	av->id = ++s->next_anon_id;
	av->refs = 1; /* held by v->anon_vma */
	if (radix_set(&s->anon_vmas, av->id, (uint64_t)(uintptr_t)av)) {
		objpool_put(&s->anon_vma_pool, av);
		return -KERR_ENOMEM;
	}
	if (avc_link(s, v, av)) {
		radix_clear(&s->anon_vmas, av->id);
		objpool_put(&s->anon_vma_pool, av);
		return -KERR_ENOMEM;
	}
	v->anon_vma = av;
	return 0;
}

/* mm/rmap.c:anon_vma_clone(): dst gets every chain src has */
int anon_vma_clone(struct vmsys *s, struct vma *dst, const struct vma *src)
{
	(void)s;
	/* link in reverse so dst's list order matches src's */
	struct anon_vma *avs[64];
	unsigned n = 0;
	for (struct avc *c = src->avc_list; c && n < 64; c = c->vma_next)
		avs[n++] = c->av;
	while (n--)
		if (avc_link(s, dst, avs[n]))
			return -KERR_ENOMEM;
	dst->anon_vma = src->anon_vma;
	if (dst->anon_vma)
		dst->anon_vma->refs++;
	return 0;
}

/* ---------------------------------------------------------------- split */

int vma_split(struct vmsys *s, struct mm *mm, struct vma *v, uint64_t addr,
	      bool check_limit, struct vma **newp)
{
	if (check_limit && mm->map_count >= s->max_map_count && !s->sem->test_ignore_max_map_count) {
		TP(s, TP_VMA_SPLIT, KFN_SPLIT_VMA, .old_start = v->start, .old_end = v->end,
		   .addr = addr, .before = mm->map_count, .after = mm->map_count,
		   .limit = s->max_map_count, .err = -KERR_ENOMEM);
		return -KERR_ENOMEM;
	}
	/* hugetlb_vm_op_split() @ v6.1, v6.18 (__split_vma() itself @ v4.0,
	 * v4.4): a hugetlb VMA splits at a huge page boundary only */
	if ((v->flags & VM_HUGETLB) && (addr & (HPAGE_SIZE - 1)))
		return -KERR_EINVAL;
	struct vma *n = vma_new(s, mm, addr, v->end, v->flags, v->file,
				v->pgoff + ((addr - v->start) >> PAGE_SHIFT));
	if (!n)
		return -KERR_ENOMEM;
	/* vma_adjust_trans_huge() @ v4.0 .. v6.18: a PMD the split cuts is split */
	if ((addr & (HPAGE_SIZE - 1)) && mm->thp)
		thp_pmds_end(s, v, addr, addr + 1);
	n->serial = v->serial;
	n->ofd = v->ofd;
	if (anon_vma_clone(s, n, v)) {
		vma_free_unlinked(s, n);
		return -KERR_ENOMEM;
	}
	vma_tree_erase(&mm->vmas, v);
	uint64_t old_end = v->end;
	v->end = addr;
	vma_tree_insert(&mm->vmas, v);
	vma_link(s, mm, n);
	TP(s, TP_VMA_SPLIT, KFN_SPLIT_VMA, .old_start = v->start, .old_end = old_end, .addr = addr,
	   .before = mm->map_count - 1, .after = mm->map_count, .limit = s->max_map_count,
	   .new_flags = v->flags);
	if (newp)
		*newp = n;
	return 0;
}

/* ---------------------------------------------------------------- merge */

/* A VMA whose anon_vma came through fork (its chain is longer than one)
 * carries pages that may still be shared with the parent
 * (mm/vma.c:vma_had_uncowed_parents()). */
static bool had_uncowed_parents(const struct vma *v)
{
	return v && v->anon_vma && v->navc > 1;
}

/*
 * mm/vma.c:is_mergeable_anon_vma() @ v6.18: src (the range being changed,
 * with anon_vma src_anon) may join tgt if tgt has no anon_vma and src did
 * not come through fork, if only tgt has one and tgt did not come through
 * fork, or if both share one.
 */
static bool anon_mergeable(const struct vmsys *s, const struct anon_vma *src_anon,
			   const struct vma *src, const struct vma *tgt)
{
	/* mm/mmap.c:is_mergeable_anon_vma() @ v4.0, v4.4, v6.1: one side
	 * without an anon_vma merges only if tgt's chain is singular (an
	 * unfaulted tgt's is empty); else both must have the same */
	if (s->sem->anon_merge_needs_singular_chain) {
		if ((!src_anon || !tgt->anon_vma) && tgt->navc == 1)
			return true;
		return src_anon == tgt->anon_vma;
	}
	if (!tgt->anon_vma && src_anon)
		return !had_uncowed_parents(src);
	if (tgt->anon_vma && !src_anon)
		return !had_uncowed_parents(tgt);
	return src_anon == tgt->anon_vma;
}

/* whether v's vm_ops has a close(): SysV shm's shm_vm_ops (shm_close(),
 * ipc/shm.c @ v4.0 .. v6.18).  hugetlb_vm_ops has one too: its VMAs never
 * merge in any version modelled (VM_HUGETLB below; seen on 6.18.44 too,
 * where a change at one end of a hugetlb VMA still splits it) */
static bool vma_has_close(const struct vma *v)
{
	return v->file && v->file->shm;
}

/* 6.12+ (mm/vma.c:can_merge_remove_vma() @ v6.12): may a merge remove v? */
static bool merge_may_remove(const struct vmsys *s, const struct vma *v)
{
	return s->sem->close_never_merges || !vma_has_close(v);
}

/*
 * Can the range [start,end) of src, with (flags, file, pgoff), follow prev
 * (can_merge_after) or precede next (can_merge_before)?  src gives the
 * open file and the anon_vma; middle is the existing VMA the merge changes
 * (vmg->middle), whose fork history may refuse it, or NULL when the merge
 * has none (mm/vma.c:is_mergeable_anon_vma() @ v6.18).
 */
static bool can_merge_after(const struct vmsys *s, const struct vma *prev, vm_flags_t flags, const struct file *f,
			    uint64_t pgoff, const struct vma *src, const struct vma *middle)
{
	if (((prev->flags ^ flags) & ~VM_IGNORE_MERGE) || prev->file != f || prev->ofd != src->ofd)
		return false;
	if (s->sem->close_never_merges && vma_has_close(prev))
		return false; /* is_mergeable_vma() @ v4.0 .. v6.1 */
	if (flags & VM_HUGETLB)
		return false; /* hugetlb_vm_ops has ->close: is_mergeable_vma() */
	if (!anon_mergeable(s, src->anon_vma, middle, prev))
		return false;
	return prev->pgoff + vma_pages(prev) == pgoff;
}

static bool can_merge_before(const struct vmsys *s, const struct vma *next, vm_flags_t flags, const struct file *f,
			     uint64_t pgoff, uint64_t pages, const struct vma *src,
			     const struct vma *middle)
{
	if (((next->flags ^ flags) & ~VM_IGNORE_MERGE) || next->file != f || next->ofd != src->ofd)
		return false;
	if (flags & VM_HUGETLB)
		return false; /* hugetlb_vm_ops has ->close: is_mergeable_vma() */
	if (s->sem->close_never_merges && vma_has_close(next))
		return false; /* is_mergeable_vma() @ v4.0 .. v6.1 */
	if (!anon_mergeable(s, src->anon_vma, middle, next))
		return false;
	return pgoff + pages == next->pgoff;
}

bool vma_mergeable(const struct vmsys *s, const struct vma *a, const struct vma *b)
{
	if (a->end != b->start || (a->flags & VM_SPECIAL) || !merge_may_remove(s, b))
		return false;
	return can_merge_before(s, b, a->flags, a->file, a->pgoff, vma_pages(a), a, a);
}

/* mm/vma.c:vma_merge_extend() @ v6.18: mremap growing a in place may
 * absorb b; the merge has no middle VMA (vmg.middle = NULL), so a's own
 * fork history does not refuse it. */
bool vma_mergeable_extend(const struct vmsys *s, const struct vma *a, const struct vma *b)
{
	if (a->end != b->start || (a->flags & VM_SPECIAL) || !merge_may_remove(s, b))
		return false;
	return can_merge_before(s, b, a->flags, a->file, a->pgoff, vma_pages(a), a, NULL);
}

/* Move [v->start, new_start) of v into prev (prev grows, v shrinks). */
static void shift_boundary(struct vmsys *s, struct mm *mm, struct vma *lo, struct vma *hi,
			   uint64_t boundary)
{
	if (hi->start != boundary) {
		/* vma_adjust_trans_huge(): a PMD the new boundary cuts is split */
		if ((boundary & (HPAGE_SIZE - 1)) && mm->thp)
			thp_pmds_end(s, boundary >= hi->start ? hi : lo, boundary, boundary + 1);
		TP(s, TP_VMA_ADJUST, KFN_VMA_MODIFY, .old_start = hi->start, .old_end = hi->end,
		   .start = boundary, .end = hi->end, .addr = lo->start, .new_flags = hi->flags);
		vma_tree_erase(&mm->vmas, hi);
		hi->pgoff += (int64_t)(boundary - hi->start) >> PAGE_SHIFT;
		hi->start = boundary;
		lo->end = boundary;
		vma_tree_insert(&mm->vmas, hi);
	}
}

/* Absorb b (which directly follows a) into a. */
void vma_absorb_next(struct vmsys *s, struct mm *mm, struct vma *a, struct vma *b)
{
	absorb_next(s, mm, a, b);
}

static void absorb_next(struct vmsys *s, struct mm *mm, struct vma *a, struct vma *b)
{
	if (!a->anon_vma && b->anon_vma)
		anon_vma_clone(s, a, b);
	uint64_t end = b->end;
	TP(s, TP_VMA_MERGE, KFN_VMA_MODIFY, .old_start = b->start, .old_end = b->end,
	   .start = a->start, .end = end, .before = mm->map_count, .after = mm->map_count - 1,
	   .new_flags = a->flags);
	vma_unlink_free(s, mm, b);
	a->end = end;
}

/* Absorb a (which directly precedes b) into b: b grows down. */
static void absorb_prev(struct vmsys *s, struct mm *mm, struct vma *a, struct vma *b)
{
	if (!b->anon_vma && a->anon_vma)
		anon_vma_clone(s, b, a);
	uint64_t start = a->start, pgoff = a->pgoff;
	TP(s, TP_VMA_MERGE, KFN_VMA_MODIFY, .old_start = a->start, .old_end = a->end,
	   .start = start, .end = b->end, .before = mm->map_count, .after = mm->map_count - 1,
	   .new_flags = b->flags);
	vma_unlink_free(s, mm, a);
	vma_tree_erase(&mm->vmas, b);
	b->start = start;
	b->pgoff = pgoff;
	vma_tree_insert(&mm->vmas, b);
}

/*
 * mm/mmap.c:vma_merge() as mlock_fixup()/mprotect_fixup() call it
 * (6.1; vma_modify_flags() in 6.7+): merge [start,end) of v with newflags
 * into prev and/or next if allowed, else split it out of v.  Returns the
 * VMA now holding [start,end), whose flags the caller then sets.
 */
struct vma *vma_modify_flags(struct vmsys *s, struct mm *mm, struct vma *v,
			     uint64_t start, uint64_t end, vm_flags_t newflags, int *err)
{
	struct vma *prev = v->prev, *next = v->next;
	uint64_t pgoff = v->pgoff + ((start - v->start) >> PAGE_SHIFT);
	uint64_t pages = (end - start) >> PAGE_SHIFT;

	if (!(newflags & VM_SPECIAL)) {
		bool m_prev = prev && prev->end == start && start == v->start &&
			      can_merge_after(s, prev, newflags, v->file, pgoff, v, v);
		bool m_next = next && end == next->start && end == v->end &&
			      can_merge_before(s, next, newflags, v->file, pgoff, pages, v, v);
		/* merging both: prev's and next's anon_vmas must agree too */
		if (m_prev && m_next && prev->anon_vma && next->anon_vma &&
		    prev->anon_vma != next->anon_vma)
			m_next = false;
		/* mm/vma.c:vma_merge_existing_range() @ v6.12: a merge that
		 * would remove v (the whole of it changes) is given up when v
		 * has a close(); one that would remove next too is cut to prev */
		if ((m_prev || m_next) && start == v->start && end == v->end && !merge_may_remove(s, v))
			m_prev = m_next = false;
		if (m_prev && m_next && !merge_may_remove(s, next))
			m_next = false;
		if (m_prev && m_next) {
			absorb_next(s, mm, prev, v);
			absorb_next(s, mm, prev, next);
			return prev;
		}
		if (m_prev) {
			if (end == v->end)
				absorb_next(s, mm, prev, v);
			else {
				if (!prev->anon_vma && v->anon_vma)
					anon_vma_clone(s, prev, v);
				shift_boundary(s, mm, prev, v, end);
			}
			return prev;
		}
		if (m_next) {
			if (start == v->start)
				absorb_prev(s, mm, v, next);
			else {
				if (!next->anon_vma && v->anon_vma)
					anon_vma_clone(s, next, v);
				/* vma_adjust_trans_huge(): a PMD of v the new
				 * boundary cuts is split, as in shift_boundary() */
				if ((start & (HPAGE_SIZE - 1)) && mm->thp)
					thp_pmds_end(s, v, start, start + 1);
				TP(s, TP_VMA_ADJUST, KFN_VMA_MODIFY, .old_start = next->start,
				   .old_end = next->end, .start = start, .end = next->end,
				   .addr = v->start, .new_flags = next->flags);
				vma_tree_erase(&mm->vmas, next);
				next->pgoff -= (next->start - start) >> PAGE_SHIFT;
				next->start = start;
				v->end = start;
				vma_tree_insert(&mm->vmas, next);
			}
			return next;
		}
	}
	if (start != v->start) {
		struct vma *n;
		int e = vma_split(s, mm, v, start, true, &n);
		if (e) {
			*err = e;
			return NULL;
		}
		v = n;
	}
	if (end != v->end) {
		int e = vma_split(s, mm, v, end, true, NULL);
		if (e) {
			*err = e;
			return NULL;
		}
	}
	return v;
}

/* v, just made (copy_vma(), a fork's or an inherit's VMA), joins prev:
 * vma_merge() tests prev as the existing VMA (can_vma_merge_after()) and v
 * as the range with its anon_vma, which is what the 4.x/6.1 anon_vma rule
 * looks at (is_mergeable_anon_vma(): prev's chain must be singular) */
static bool mergeable_into_prev(const struct vmsys *s, const struct vma *prev, const struct vma *v)
{
	if (prev->end != v->start || (v->flags & VM_SPECIAL))
		return false;
	return can_merge_after(s, prev, v->flags, v->file, v->pgoff, v, v);
}

struct vma *vma_try_merge_neighbours(struct vmsys *s, struct mm *mm, struct vma *v)
{
	if (v->flags & VM_SPECIAL)
		return v;
	struct vma *prev = v->prev;
	if (prev && mergeable_into_prev(s, prev, v)) {
		absorb_next(s, mm, prev, v);
		v = prev;
	}
	struct vma *next = v->next;
	if (next && vma_mergeable(s, v, next))
		absorb_next(s, mm, v, next);
	return v;
}
