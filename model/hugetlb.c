/*
 * hugetlb.c - the hugetlb pool of the default 2 MiB page size, the
 * hugetlbfs files that MAP_HUGETLB and SHM_HUGETLB make, their
 * reservations, faults and teardown.
 *
 * The pool (struct hstate's nr_huge_pages, free_huge_pages,
 * resv_huge_pages: HugePages_Total, _Free, _Rsvd) is the header's
 * `# hugetlb-pages: N`, all free when the trace begins; no surplus pages
 * (nr_overcommit_hugepages 0, the default), no other page size.
 *
 * A hugetlbfs file (fs/hugetlbfs/inode.c:hugetlb_file_setup() @ v4.0,
 * v4.4, v6.1, v6.18) is "/anon_hugepage (deleted)" for MAP_HUGETLB and
 * "/SYSV%08x (deleted)" for SHM_HUGETLB; its size is rounded up to the
 * huge page.  Reservations (mm/hugetlb.c:hugetlb_reserve_pages()):
 *  - SHM_HUGETLB reserves the whole file when it is made, unless
 *    SHM_NORESERVE; a mapping of it reserves nothing more (region_chg()
 *    finds the range reserved);
 *  - MAP_HUGETLB's file is made with VM_NORESERVE; the mmap reserves its
 *    range (hugetlbfs_file_mmap()), unless MAP_NORESERVE.  A private
 *    mapping's reservation belongs to the VMA that made it
 *    (HPAGE_RESV_OWNER): a fork child's or an mremap-moved VMA has none;
 *  - a reservation needs free - reserved >= the pages asked
 *    (hugetlb_acct_memory() -> gather_surplus_pages() with no surplus),
 *    else ENOMEM.
 * A fault (mm/hugetlb.c:hugetlb_fault() -> hugetlb_no_page()) takes the
 * page of a shared file's cache, or allocates one: against a reservation
 * if the index has one (the mapping's own for private), else from the
 * unreserved free pages (alloc_hugetlb_folio()); none left is SIGBUS
 * (-ENOSPC -> VM_FAULT_SIGBUS).  A private read fault maps the page
 * read-only; a write maps it writable (hugetlb_wp() at once), copying a
 * page shared since fork.  Closing a private owner VMA
 * (hugetlb_vm_op_close()) returns its unconsumed reservations; a shared
 * file's pages and reservations go with the file (hugetlbfs_evict_inode()
 * -> remove_inode_hugepages()).
 *
 * The pages are on no LRU and never locked: mlock_fixup() and mmap leave
 * VM_LOCKED off and uncounted (vma_supports_mlock(), mlock.c), but
 * populate faults them in.  They are not in VmRSS or smaps Rss; status's
 * HugetlbPages (mm->hugetlb_usage) counts the mm's mapped ones.  A split
 * at an address that is not huge-page aligned is EINVAL
 * (hugetlb_vm_op_split() @ v6.1, v6.18; __split_vma() @ v4.0, v4.4).
 *
 * Not modelled: hugetlbfs mounts and files opened there, 1 GiB pages
 * (MAP_HUGE_1GB is EINVAL: no such hstate on the machine), the owner's
 * stealing of a page from a fork child when the pool is empty at a COW
 * (unmap_ref_private(): the faulting process gets SIGBUS instead), the
 * pool's pages in MemFree, hugetlb cgroups, PMD sharing.
 *
 * May call: internal (files, VMAs, fault accounting), alloc.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "radix.h"

enum { HST_NONE, HST_RESERVED, HST_CONSUMED };

/* A file's indexes are sparse: only an index with a reservation state
 * other than HST_NONE or a cached page is stored, as page id << 2 |
 * state, so a file of terabytes made with NORESERVE costs what is used
 * of it, and every walk visits only the stored indexes.  An index past
 * RADIX_KEY_MAX (2^36 huge pages, 2^57 bytes) cannot be mapped in a
 * 47-bit address space and is never stored. */
struct hugetlb_inode {
	uint64_t nr;           /* size in huge pages */
	struct radix map;      /* index -> page id << 2 | HST_* */
	bool shared_cache;     /* pages live in the file (shared mappings, SysV) */
	struct mm *owner_mm;   /* private: the VMA that owns the reservation */
	uint32_t owner_serial;
	bool has_owner;
};

struct hugetlb_pte {           /* one mapped huge page of an mm */
	uint64_t haddr;
	uint32_t id;
	bool writable;
};

struct hugetlb_ptes {
	struct hugetlb_pte *e;
	size_t n, cap;
};

int hugetlb_pool_init(struct vmsys *s, uint64_t pages)
{
	struct hugetlb_pool *hp = &s->hp;
	memset(hp, 0, sizeof(*hp));
	if (!pages)
		return 0;
	if (pages > UINT32_MAX - 1)
		return -1;
	hp->ref = vm_calloc(pages + 1, sizeof(*hp->ref));
	hp->free_ids = vm_calloc(pages, sizeof(*hp->free_ids));
	if (!hp->ref || !hp->free_ids) {
		free(hp->ref);
		free(hp->free_ids);
		hp->ref = hp->free_ids = NULL;
		return -1;
	}
	hp->total = hp->free = pages;
	/* handed out lowest id first */
	for (uint64_t i = 0; i < pages; i++)
		hp->free_ids[i] = (uint32_t)(pages - i);
	hp->nfree_ids = pages;
	return 0;
}

void hugetlb_pool_release(struct vmsys *s)
{
	free(s->hp.ref);
	free(s->hp.free_ids);
	memset(&s->hp, 0, sizeof(s->hp));
}

/* a page from the pool: against a reservation, or from the unreserved
 * free pages (mm/hugetlb.c:dequeue_hugetlb_folio_vma()); 0 if none */
static uint32_t page_alloc(struct vmsys *s, bool reserved)
{
	struct hugetlb_pool *hp = &s->hp;
	if (!reserved && hp->free <= hp->resv)
		return 0;
	if (!hp->nfree_ids)
		return 0;
	uint32_t id = hp->free_ids[--hp->nfree_ids];
	hp->free--;
	if (reserved)
		hp->resv--;
	hp->ref[id] = 1;
	return id;
}

static void page_put(struct vmsys *s, uint32_t id)
{
	struct hugetlb_pool *hp = &s->hp;
	if (--hp->ref[id])
		return;
	hp->free_ids[hp->nfree_ids++] = id;
	hp->free++;
}

/* ---- files --------------------------------------------------------------- */

bool hugetlb_sizelog_ok(uint64_t sizelog)
{
	/* hstate_sizelog(): 0 is the default size; 2 MiB is the only hstate */
	return sizelog == 0 || sizelog == HPAGE_SHIFT;
}

static unsigned idx_state(struct hugetlb_inode *hi, uint64_t i)
{
	return i > RADIX_KEY_MAX ? HST_NONE : (unsigned)(radix_get(&hi->map, i) & 3);
}

static uint32_t idx_page(struct hugetlb_inode *hi, uint64_t i)
{
	return i > RADIX_KEY_MAX ? 0 : (uint32_t)(radix_get(&hi->map, i) >> 2);
}

/* index i's state and page; false when the map could not grow */
static bool idx_set(struct hugetlb_inode *hi, uint64_t i, unsigned st, uint32_t page)
{
	uint64_t v = (uint64_t)page << 2 | st;
	if (i > RADIX_KEY_MAX)
		return !v;
	if (!v) {
		radix_clear(&hi->map, i);
		return true;
	}
	return radix_set(&hi->map, i, v) == 0;
}

/* the indexes of [from, to) in a state other than HST_NONE, visiting the
 * stored ones only */
static uint64_t stated_in(struct hugetlb_inode *hi, uint64_t from, uint64_t to)
{
	uint64_t n = 0, last = to - 1 < RADIX_KEY_MAX ? to - 1 : RADIX_KEY_MAX;
	for (uint64_t k = from; from < to && k <= last && radix_next(&hi->map, &k, last); k++)
		if (radix_get(&hi->map, k) & 3)
			n++;
	return n;
}

/* reserve [from, to) of f: region_chg() counts the indexes not yet
 * reserved (shared) or all of them (private); hugetlb_acct_memory().  The
 * count and the pool's answer come before any index is marked, so what
 * is marked is bounded by the pool */
static int reserve_range(struct vmsys *s, struct hugetlb_inode *hi, uint64_t from, uint64_t to)
{
	uint64_t need = to - from - stated_in(hi, from, to);
	struct hugetlb_pool *hp = &s->hp;
	if (need > hp->free - hp->resv)
		return -KERR_ENOMEM;
	uint64_t done = 0;
	for (uint64_t i = from; i < to && done < need; i++)
		if (idx_state(hi, i) == HST_NONE) {
			if (!idx_set(hi, i, HST_RESERVED, idx_page(hi, i))) {
				hp->resv += done;
				return -KERR_ENOMEM;
			}
			done++;
		}
	hp->resv += need;
	return 0;
}

struct file *hugetlb_file_setup(struct vmsys *s, const char *name, size_t n, uint64_t size,
				bool shared_cache, bool reserve, int *err)
{
	uint64_t nr = size >> HPAGE_SHIFT;
	*err = -KERR_ENOMEM;
	struct hugetlb_inode *hi = vm_calloc(1, sizeof(*hi));
	if (!hi)
		return NULL;
	hi->nr = nr;
	hi->shared_cache = shared_cache;
	radix_init(&hi->map);
	if (reserve && reserve_range(s, hi, 0, nr))
		goto fail; /* hugetlb_file_setup(): ENOMEM, before anything is sized by nr */
	struct file *f = file_new(s, name, n, false);
	if (!f) {
		if (reserve)
			s->hp.resv -= nr;
		goto fail;
	}
	f->size = size;
	f->size_known = true;
	f->huge = hi;
	file_set_unlinked(s, f);
	*err = 0;
	return f;
fail:
	radix_destroy(&hi->map);
	free(hi);
	return NULL;
}

/* hugetlbfs_evict_inode(): the file's pages and the reservations still
 * unconsumed go back to the pool (file_put()) */
void hugetlb_file_release(struct vmsys *s, struct file *f)
{
	struct hugetlb_inode *hi = f->huge;
	for (uint64_t k = 0; radix_next(&hi->map, &k, RADIX_KEY_MAX); k++) {
		uint64_t v = radix_get(&hi->map, k);
		if ((v & 3) == HST_RESERVED) /* an owner's close cleared its own */
			s->hp.resv--;
		if (v >> 2)
			page_put(s, (uint32_t)(v >> 2));
		if (k == RADIX_KEY_MAX)
			break;
	}
	radix_destroy(&hi->map);
	free(hi);
	f->huge = NULL;
}

/* ---- mmap ---------------------------------------------------------------- */

int hugetlb_mmap_check(uint64_t addr, uint64_t len, uint64_t pgoff, bool fixed)
{
	/* hugetlb_get_unmapped_area(): the length, and a fixed address,
	 * huge-page aligned (prepare_hugepage_range()); hugetlbfs_file_mmap():
	 * the offset too */
	if (len & (HPAGE_SIZE - 1))
		return -KERR_EINVAL;
	if (fixed && (addr & (HPAGE_SIZE - 1)))
		return -KERR_EINVAL;
	if (pgoff & (HPAGE_PAGES - 1))
		return -KERR_EINVAL;
	return 0;
}

int hugetlb_mmap_reserve(struct vmsys *s, struct file *f, uint64_t pgoff, uint64_t len,
			 vm_flags_t *vmfp)
{
	struct hugetlb_inode *hi = f->huge;
	*vmfp |= VM_HUGETLB | VM_DONTEXPAND;
	vm_flags_t vmf = *vmfp;
	uint64_t from = pgoff / HPAGE_PAGES, to = from + (len >> HPAGE_SHIFT);
	if (to > hi->nr) {
		/* a mapping past the file's end: hugetlbfs grows i_size to it
		 * (hugetlbfs_file_mmap()) */
		hi->nr = to;
	}
	if (vmf & VM_NORESERVE)
		return 0;
	if (!(vmf & VM_MAYSHARE)) {
		/* a private mapping reserves every page of its range, its own */
		uint64_t need = to - from;
		if (need > s->hp.free - s->hp.resv)
			return -KERR_ENOMEM;
		for (uint64_t i = from; i < to; i++)
			if (!idx_set(hi, i, HST_RESERVED, idx_page(hi, i))) {
				for (uint64_t j = from; j < i; j++)
					idx_set(hi, j, HST_NONE, idx_page(hi, j));
				return -KERR_ENOMEM;
			}
		s->hp.resv += need;
		return 0;
	}
	return reserve_range(s, hi, from, to);
}

void hugetlb_mmap_owner(struct file *f, const struct vma *v)
{
	struct hugetlb_inode *hi = f->huge;
	if ((v->flags & (VM_MAYSHARE | VM_NORESERVE)) || hi->has_owner)
		return;
	hi->has_owner = true;
	hi->owner_mm = v->mm;
	hi->owner_serial = v->serial;
}

static bool is_owner(const struct hugetlb_inode *hi, const struct vma *v)
{
	return hi->has_owner && hi->owner_mm == v->mm && hi->owner_serial == v->serial;
}

static uint64_t vma_hindex(const struct vma *v, uint64_t haddr)
{
	return ((haddr - v->start) >> HPAGE_SHIFT) + v->pgoff / HPAGE_PAGES;
}

/* ---- the mm's huge mappings ------------------------------------------------ */

/* the first entry at or after haddr */
static size_t pte_find(const struct hugetlb_ptes *p, uint64_t haddr)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (p->e[mid].haddr < haddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct hugetlb_pte *pte_lookup(struct mm *mm, uint64_t haddr)
{
	struct hugetlb_ptes *p = mm->huge;
	if (!p)
		return NULL;
	size_t i = pte_find(p, haddr);
	return i < p->n && p->e[i].haddr == haddr ? &p->e[i] : NULL;
}

static int pte_insert(struct mm *mm, uint64_t haddr, uint32_t id, bool writable)
{
	struct hugetlb_ptes *p = mm->huge;
	if (!p) {
		p = vm_calloc(1, sizeof(*p));
		if (!p)
			return -1;
		mm->huge = p;
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 8;
		struct hugetlb_pte *e = vm_realloc(p->e, cap * sizeof(*e));
		if (!e)
			return -1;
		p->e = e;
		p->cap = cap;
	}
	size_t i = pte_find(p, haddr);
	memmove(&p->e[i + 1], &p->e[i], (p->n - i) * sizeof(*p->e));
	p->e[i] = (struct hugetlb_pte){ .haddr = haddr, .id = id, .writable = writable };
	p->n++;
	mm->hugetlb_pages += HPAGE_PAGES;
	return 0;
}

bool hugetlb_mapped(struct mm *mm, uint64_t addr, bool write)
{
	struct hugetlb_pte *e = pte_lookup(mm, addr & HPAGE_MASK);
	return e && (!write || e->writable);
}

void hugetlb_ptes_free(struct mm *mm)
{
	if (mm->huge) {
		free(mm->huge->e);
		free(mm->huge);
		mm->huge = NULL;
	}
}

/* ---- faults -------------------------------------------------------------- */

enum vm_fault_kind hugetlb_fault(struct vmsys *s, struct task *t, struct vma *v, uint64_t addr,
				 bool write)
{
	struct mm *mm = t->mm;
	struct hugetlb_inode *hi = v->file->huge;
	uint64_t haddr = addr & HPAGE_MASK;
	uint64_t idx = vma_hindex(v, haddr);
	bool shared = (v->flags & VM_MAYSHARE) != 0;
	struct hugetlb_pte *e = pte_lookup(mm, haddr);
	if (e && (!write || e->writable))
		return VMF_NONE;
	if (idx >= hi->nr)
		return VMF_SIGBUS; /* past i_size (hugetlb_no_page()) */
	if (e) {
		/* hugetlb_wp(): a private page mapped read-only.  Reused when
		 * nobody else maps it, else copied - from the owner's
		 * reservation if its index still has one */
		if (shared || s->hp.ref[e->id] == 1) {
			e->writable = true;
			return VMF_MINOR;
		}
		bool resv = is_owner(hi, v) && idx_state(hi, idx) == HST_RESERVED;
		uint32_t id = page_alloc(s, resv);
		if (!id)
			return VMF_SIGBUS;
		if (resv)
			idx_set(hi, idx, HST_CONSUMED, idx_page(hi, idx)); /* a stored index: no allocation */
		page_put(s, e->id);
		e->id = id;
		e->writable = true;
		return VMF_MINOR;
	}
	uint32_t id;
	if (shared) {
		id = idx_page(hi, idx);
		if (!id) {
			bool resv = idx_state(hi, idx) == HST_RESERVED;
			id = page_alloc(s, resv);
			if (!id)
				return VMF_SIGBUS;
			if (!idx_set(hi, idx, HST_CONSUMED, id)) { /* the page cache's reference */
				page_put(s, id);
				if (resv)
					s->hp.resv++;
				return VMF_SIGBUS;
			}
		}
		s->hp.ref[id]++;
	} else {
		/* hugetlb_no_page(): a private page is anonymous */
		if (anon_vma_prepare(s, v))
			return VMF_SIGBUS;
		bool resv = is_owner(hi, v) && idx_state(hi, idx) == HST_RESERVED;
		id = page_alloc(s, resv);
		if (!id)
			return VMF_SIGBUS;
		if (resv)
			idx_set(hi, idx, HST_CONSUMED, idx_page(hi, idx)); /* a stored index: no allocation */
	}
	/* hugetlb_no_page(): writable if shared and VM_WRITE; a private
	 * write fault goes on to hugetlb_wp() in the same fault */
	bool writable = (v->flags & VM_WRITE) && (shared || write);
	if (pte_insert(mm, haddr, id, writable)) {
		page_put(s, id);
		return VMF_SIGBUS;
	}
	return VMF_MINOR;
}

/* ---- teardown, protection, fork ------------------------------------------ */

void hugetlb_zap(struct vmsys *s, struct mm *mm, uint64_t start, uint64_t end)
{
	struct hugetlb_ptes *p = mm->huge;
	if (!p || !p->n)
		return;
	size_t i = pte_find(p, start), j = i;
	while (j < p->n && p->e[j].haddr < end) {
		page_put(s, p->e[j].id);
		mm->hugetlb_pages -= HPAGE_PAGES;
		j++;
	}
	memmove(&p->e[i], &p->e[j], (p->n - j) * sizeof(*p->e));
	p->n -= j - i;
}

void hugetlb_vma_close(struct vmsys *s, struct vma *v)
{
	struct hugetlb_inode *hi = v->file->huge;
	if (!is_owner(hi, v))
		return;
	uint64_t from = vma_hindex(v, v->start), to = from + ((v->end - v->start) >> HPAGE_SHIFT);
	if (to > hi->nr)
		to = hi->nr;
	if (from >= to || from > RADIX_KEY_MAX)
		return;
	uint64_t last = to - 1 < RADIX_KEY_MAX ? to - 1 : RADIX_KEY_MAX;
	for (uint64_t k = from; k <= last && radix_next(&hi->map, &k, last); k++)
		if (idx_state(hi, k) == HST_RESERVED) {
			idx_set(hi, k, HST_NONE, idx_page(hi, k));
			s->hp.resv--;
		}
}

void hugetlb_change_protection(struct mm *mm, const struct vma *v)
{
	/* hugetlb_change_protection(): the new protection of the VMA; a
	 * private writable mapping's pages stay read-only (COW) */
	struct hugetlb_ptes *p = mm->huge;
	if (!p)
		return;
	bool w = (v->flags & VM_WRITE) && (v->flags & VM_MAYSHARE);
	for (size_t i = pte_find(p, v->start); i < p->n && p->e[i].haddr < v->end; i++)
		p->e[i].writable = w;
}

int hugetlb_copy_range(struct vmsys *s, struct mm *dst, const struct vma *src)
{
	/* copy_hugetlb_page_range(): the child maps the parent's pages; a
	 * private page becomes read-only in both (COW) */
	struct hugetlb_ptes *p = src->mm->huge;
	if (!p)
		return 0;
	bool shared = (src->flags & VM_MAYSHARE) != 0;
	for (size_t i = pte_find(p, src->start); i < p->n && p->e[i].haddr < src->end; i++) {
		if (!shared)
			p->e[i].writable = false;
		s->hp.ref[p->e[i].id]++;
		if (pte_insert(dst, p->e[i].haddr, p->e[i].id, p->e[i].writable)) {
			s->hp.ref[p->e[i].id]--;
			return -KERR_ENOMEM;
		}
	}
	return 0;
}
