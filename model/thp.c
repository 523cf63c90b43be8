/*
 * thp.c - transparent huge pages of anonymous memory: which faults may
 * map a PMD, and which 2 MiB ranges of an mm are mapped by one.
 *
 * The machine's mode is the header's `# thp: always|madvise|never`
 * (/sys/kernel/mm/transparent_hugepage/enabled; default never, what a trace
 * without the key replayed as before).  A fault may map a PMD
 * (__handle_mm_fault() -> create_huge_pmd() @ v4.0 .. v6.18) in a private
 * anonymous VMA (no vm_ops: shared anonymous memory is shmem, whose own
 * knob defaults to never) that is not VM_NOHUGEPAGE, VM_SPECIAL or hugetlb,
 * under `always` or under `madvise` with VM_HUGEPAGE
 * (hugepage_vma_check() @ v6.1, __thp_vma_allowable_orders() @ v6.18,
 * transparent_hugepage_enabled() @ v4.0), when the aligned 2 MiB range
 * lies inside the VMA (transhuge_vma_suitable()) and its PMD is none: no
 * page table there yet (the model: no PTE leaf in mm->pt).
 *
 * A read maps the huge zero page (do_huge_pmd_anonymous_page(): the zero
 * page's PTEs here, 512 of them); a write a new THP: 512 pages of one
 * folio (page.folio_order 9), mapped, dirty, writable, one fault.  A write
 * to the huge zero page allocates a THP on 4.x (do_huge_pmd_wp_page()'s
 * `alloc:`) and 6.18 (do_huge_zero_wp_pmd()), splits it and copies one
 * small page on 6.1 (`fallback:`).  The PMD mapping ends (smaps AnonHugePages, meminfo
 * AnonHugePages) when its range is zapped or split: a VMA split inside
 * it (vma_adjust_trans_huge()), any unmapping of one of its pages
 * (reclaim, COW), an mremap move.
 *
 * After a split the folio stays one mlock unit on 6.x (mlock.c:
 * thp_pmds_end(), thp_folio_mlock(); semantics thp_pte_mlock): the PMD's
 * end in a VM_LOCKED VMA munlocks all of it, and 6.1 then passes over its
 * pages, 6.18 locks it only whole.  Not modelled: the folio as one LRU
 * unit after a split (the model's pages are then listed one by one),
 * deferred split, khugepaged, THP swap-out whole, 4.x's COW of a THP into a new
 * THP, move_huge_pmd() for aligned mremap, page tables kept after a zap
 * (a later fault there takes a small page in the kernel), mTHP sizes,
 * shmem and file THPs, THP allocation failure by fragmentation (the
 * model falls back only when memory or the memcg cannot take 512 pages).
 *
 * May call: internal (the mm's page tables), alloc.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

struct thp_pmds {
	uint64_t *e;             /* haddr | THP_ZERO, sorted by haddr */
	size_t n, cap;
};

#define THP_ZERO 1ULL

bool thp_vma_fault_allowed(const struct vmsys *s, const struct vma *v, uint64_t addr)
{
	if (s->thp_mode == THP_NEVER || v->file)
		return false;
	if (v->flags & (VM_NOHUGEPAGE | VM_SPECIAL | VM_HUGETLB))
		return false;
	if (s->thp_mode == THP_MADVISE && !(v->flags & VM_HUGEPAGE))
		return false;
	uint64_t haddr = addr & HPAGE_MASK;
	if (haddr < v->start || haddr + HPAGE_SIZE > v->end)
		return false;
	return !radix_has_leaf(&v->mm->pt, haddr >> PAGE_SHIFT);
}

static size_t find(const struct thp_pmds *p, uint64_t haddr)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if ((p->e[mid] & ~THP_ZERO) < haddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int thp_pmd_add(struct mm *mm, uint64_t haddr, bool zero)
{
	struct thp_pmds *p = mm->thp;
	if (!p) {
		p = vm_calloc(1, sizeof(*p));
		if (!p)
			return -1;
		mm->thp = p;
	}
	size_t i = find(p, haddr);
	if (i < p->n && (p->e[i] & ~THP_ZERO) == haddr) {
		p->e[i] = haddr | (zero ? THP_ZERO : 0);
		return 0;
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 8;
		uint64_t *e = vm_realloc(p->e, cap * sizeof(*e));
		if (!e)
			return -1;
		p->e = e;
		p->cap = cap;
	}
	memmove(&p->e[i + 1], &p->e[i], (p->n - i) * sizeof(*p->e));
	p->e[i] = haddr | (zero ? THP_ZERO : 0);
	p->n++;
	return 0;
}

int thp_pmd_state(const struct mm *mm, uint64_t addr)
{
	const struct thp_pmds *p = mm->thp;
	if (!p)
		return 0;
	uint64_t haddr = addr & HPAGE_MASK;
	size_t i = find(p, haddr);
	if (i >= p->n || (p->e[i] & ~THP_ZERO) != haddr)
		return 0;
	return (p->e[i] & THP_ZERO) ? THP_PMD_ZERO : THP_PMD_FOLIO;
}

void thp_range_gone(struct mm *mm, uint64_t start, uint64_t end)
{
	struct thp_pmds *p = mm->thp;
	if (!p || !p->n || end <= start)
		return;
	size_t i = find(p, start & HPAGE_MASK), j = i;
	while (j < p->n && (p->e[j] & ~THP_ZERO) < end)
		j++;
	memmove(&p->e[i], &p->e[j], (p->n - j) * sizeof(*p->e));
	p->n -= j - i;
}

bool thp_next_folio_pmd(const struct mm *mm, uint64_t *haddr, uint64_t end)
{
	const struct thp_pmds *p = mm->thp;
	if (!p)
		return false;
	for (size_t i = find(p, *haddr & HPAGE_MASK); i < p->n && (p->e[i] & ~THP_ZERO) < end; i++)
		if (!(p->e[i] & THP_ZERO)) {
			*haddr = p->e[i];
			return true;
		}
	return false;
}

uint64_t thp_anon_bytes(const struct mm *mm, uint64_t start, uint64_t end)
{
	const struct thp_pmds *p = mm->thp;
	uint64_t n = 0;
	if (!p)
		return 0;
	for (size_t i = find(p, start); i < p->n && (p->e[i] & ~THP_ZERO) < end; i++)
		if (!(p->e[i] & THP_ZERO))
			n += HPAGE_SIZE;
	return n;
}

void thp_fork(struct mm *dst, const struct mm *src, uint64_t start, uint64_t end)
{
	/* copy_huge_pmd(): the child maps the folio (or the huge zero page)
	 * by a PMD too */
	const struct thp_pmds *p = src->thp;
	if (!p)
		return;
	for (size_t i = find(p, start); i < p->n && (p->e[i] & ~THP_ZERO) < end; i++)
		if (thp_pmd_add(dst, p->e[i] & ~THP_ZERO, (p->e[i] & THP_ZERO) != 0))
			return; /* out of memory: AnonHugePages undercounts */
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

uint64_t thp_anon_pages(const struct vmsys *s)
{
	/* NR_ANON_THPS: each folio once, however many PMDs map it (the
	 * first entire mapping counts it: __folio_add_rmap() @ v6.18) */
	size_t n = 0, cap = 0;
	uint32_t *heads = NULL;
	for (const struct task *t = s->live_head; t; t = t->live_next) {
		const struct mm *mm = t->mm;
		if (!mm || !mm->thp || !task_owns_mm(s, t))
			continue;
		for (size_t i = 0; i < mm->thp->n; i++) {
			uint64_t e = mm->thp->e[i];
			if (e & THP_ZERO)
				continue;
			if (n == cap) {
				size_t nc = cap ? 2 * cap : 16;
				uint32_t *h = vm_realloc(heads, nc * sizeof(*h));
				if (!h) {
					free(heads);
					return 0;
				}
				heads = h;
				cap = nc;
			}
			heads[n++] = (uint32_t)pte_pfn(radix_get((struct radix *)&mm->pt, e >> PAGE_SHIFT));
		}
	}
	if (n)
		qsort(heads, n, sizeof(*heads), cmp_u32);
	uint64_t folios = 0;
	for (size_t i = 0; i < n; i++)
		if (!i || heads[i] != heads[i - 1])
			folios++;
	free(heads);
	return folios * HPAGE_PAGES;
}

void thp_pmds_free(struct mm *mm)
{
	if (mm->thp) {
		free(mm->thp->e);
		free(mm->thp);
		mm->thp = NULL;
	}
}
