/*
 * invariants.c - the debug walker: after any event, the model's state must
 * be internally consistent.  A violation names the rule and the objects.
 *
 *   vma-tree        sorted, non-overlapping, list = tree, map_count right,
 *                   map_count <= max_map_count
 *   lru-lists       every page on a list is on the list its flags say;
 *                   list lengths equal the nr_* counters
 *   nr-mlock        nr_mlock equals the pages with PG_mlocked
 *   mlocked-vma     (6.x page model) every present anonymous page mapped
 *                   only by a VM_LOCKED VMA is PG_mlocked; with the batches
 *                   drained, on the unevictable list.  Shared and
 *                   page-cache pages are exempt: the kernel's mlock_count
 *                   "errs low", and a munlock still queued in the per-CPU
 *                   batch cancels a later mlock of the same page (both seen
 *                   on 6.18: traces/golden/mlock-batch/munmap-leaves-munlock-batched*)
 *   locked-vm       locked_vm equals the pages of the VM_LOCKED VMAs, plus
 *                   what the semantics' documented accounting quirks add
 *   pte-vma         every present PTE lies in a VMA, is writable only if
 *                   the VMA is, PROT_NONE exactly when the VMA grants no
 *                   access (what vm_touch_hit() decides by)
 *   hitmap          every hit bit valid under the PTE generation is true
 *                   of its PTE (hitmap.h)
 *
 * vmsys_check_pages() applies the page rules to the pages one event
 * touched, and the list sizes, so that replay can check every access and
 * walk everything only every N events.
 */
#include "internal.h"

#include <stdio.h>

#define FAIL(...)                                                   \
	do {                                                        \
		if (!nv)                                            \
			snprintf(msg, len, __VA_ARGS__);            \
		nv++;                                               \
	} while (0)

/* hitmap: every hit bit that holds under the PTE generation is true of
 * its PTE (hitmap.h) - a change that forgot pte_changed() shows here */
struct hit_ctx {
	struct task *t;
	char *msg;
	size_t len;
	unsigned nv;
};

static void check_hit(void *ctx, uint64_t vpn, bool w)
{
	struct hit_ctx *c = ctx;
	char *msg = c->msg;
	size_t len = c->len;
	unsigned nv = c->nv;
	uint64_t pte = radix_get(&c->t->mm->pt, vpn);
	if (!pte_permits(pte, false) || !(pte & PTE_YOUNG) ||
	    (w && (!pte_permits(pte, true) || !(pte & PTE_DIRTY))))
		FAIL("hitmap: pid %d: the %s bit of 0x%llx holds, but its PTE is 0x%llx", c->t->pid,
		     w ? "write" : "read", (unsigned long long)(vpn << PAGE_SHIFT), (unsigned long long)pte);
	c->nv = nv;
}

/* pte-vma: no present PTE in [vpn, end) - a gap between VMAs */
static unsigned check_gap(struct task *t, uint64_t vpn, uint64_t end, char *msg, size_t len,
			  unsigned nv)
{
	struct mm *mm = t->mm;
	for (; vpn < end && radix_next(&mm->pt, &vpn, end - 1); vpn++)
		if (radix_get(&mm->pt, vpn) & PTE_PRESENT)
			FAIL("pte-vma: pid %d: a present PTE at 0x%llx outside every VMA", t->pid,
			     (unsigned long long)(vpn << PAGE_SHIFT));
	return nv;
}

/*
 * The PTEs of v, in one pass:
 *  - pte-vma: each is writable only if v is, and PROT_NONE (PTE_NOACCESS)
 *    exactly when v grants no access: the kernel's page tables never map
 *    beyond vm_page_prot (change_protection()), and the hit path
 *    (vm_touch_hit()) decides an access from the PTE alone;
 *  - mlocked-vma (6.x, a VM_LOCKED VMA): see the top of the file.
 */
/* A page of a THP that PTEs map (its PMD split) on 6.x: the folio stays
 * munlocked in a locked VMA by design (semantics thp_pte_mlock) */
static bool thp_by_ptes(const struct vmsys *s, const struct mm *mm, const struct page *p,
			uint64_t addr)
{
	return p->folio_order && s->sem->thp_pte_mlock != THP_PTE_SMALL &&
	       thp_pmd_state(mm, addr) != THP_PMD_FOLIO;
}

static unsigned check_vma_ptes(struct vmsys *s, struct task *t, struct vma *v, char *msg, size_t len,
			       unsigned nv)
{
	struct mm *mm = t->mm;
	uint64_t none = (v->flags & VM_ACCESS_FLAGS) ? 0 : PTE_NOACCESS;
	bool locked = s->sem->page_model == PLM_MLOCK_COUNT &&
		      (v->flags & (VM_LOCKED | VM_SPECIAL)) == VM_LOCKED;
	bool drained = !s->lru.add_batch.n && !s->lru.mlock_batch.n;
	uint64_t vpn = v->start >> PAGE_SHIFT, last = (v->end >> PAGE_SHIFT) - 1;
	for (; vpn <= last && radix_next(&mm->pt, &vpn, last); vpn++) {
		uint64_t pte = radix_get(&mm->pt, vpn);
		if (!(pte & PTE_PRESENT))
			continue;
		if ((pte & PTE_WRITE) && !(v->flags & VM_WRITE))
			FAIL("pte-vma: pid %d: a writable PTE at 0x%llx in VMA [0x%llx, 0x%llx) without VM_WRITE",
			     t->pid, (unsigned long long)(vpn << PAGE_SHIFT), (unsigned long long)v->start,
			     (unsigned long long)v->end);
		if ((pte & PTE_NOACCESS) != none)
			FAIL("pte-vma: pid %d: the PTE at 0x%llx is %sPROT_NONE in VMA [0x%llx, 0x%llx) %s access",
			     t->pid, (unsigned long long)(vpn << PAGE_SHIFT), none ? "not " : "",
			     (unsigned long long)v->start, (unsigned long long)v->end, none ? "without" : "with");
		pfn_t pfn = pte_pfn(pte);
		if (!locked || pfn == PFN_ZERO)
			continue;
		struct page *p = spage(s, pfn);
		/* 6.18 leaves a large folio not wholly inside the locked range
		 * unlocked, by design */
		if (!(p->flags & PG_ANON) || p->mapcount != 1 || thp_by_ptes(s, mm, p, vpn << PAGE_SHIFT))
			continue;
		if (!(p->flags & PG_MLOCKED))
			FAIL("mlocked-vma: pid %d: page at 0x%llx (pfn %u) in locked VMA [0x%llx, 0x%llx) is not mlocked",
			     t->pid, (unsigned long long)(vpn << PAGE_SHIFT), pfn,
			     (unsigned long long)v->start, (unsigned long long)v->end);
		else if (drained && !(p->flags & PG_UNEVICTABLE))
			FAIL("mlocked-vma: pid %d: mlocked page at 0x%llx (pfn %u) is not on the unevictable list after the batches drained",
			     t->pid, (unsigned long long)(vpn << PAGE_SHIFT), pfn);
	}
	return nv;
}

static unsigned check_mm(struct vmsys *s, struct task *t, char *msg, size_t len, unsigned nv)
{
	struct hit_ctx hc = { t, msg, len, nv };
	hitmap_walk(&t->mm->hm, s->pt_gen, check_hit, &hc);
	nv = hc.nv;
	struct mm *mm = t->mm;
	uint64_t n = 0, locked = 0, prev_end = 0, where;
	if (!radix_verify(&mm->pt, &where))
		FAIL("page-table: pid %d: the table's occupancy bits or counts disagree with its entries at vpn 0x%llx",
		     t->pid, (unsigned long long)where);
	for (struct vma *v = mm->vmas.first; v; v = v->next) {
		n++;
		if (v->start >= v->end || (v->start & ~PAGE_MASK) || (v->end & ~PAGE_MASK))
			FAIL("vma-tree: pid %d: bad VMA [0x%llx, 0x%llx)", t->pid,
			     (unsigned long long)v->start, (unsigned long long)v->end);
		if (v->start < prev_end)
			FAIL("vma-tree: pid %d: VMA [0x%llx, 0x%llx) overlaps or is out of order", t->pid,
			     (unsigned long long)v->start, (unsigned long long)v->end);
		if (vma_lookup(&mm->vmas, v->start) != v)
			FAIL("vma-tree: pid %d: tree lookup of 0x%llx does not find its VMA", t->pid,
			     (unsigned long long)v->start);
		if (vma_at(&mm->vmas, n - 1) != v)
			FAIL("vma-tree: pid %d: the subtree sizes do not make VMA 0x%llx number %llu", t->pid,
			     (unsigned long long)v->start, (unsigned long long)(n - 1));
		nv = check_gap(t, prev_end >> PAGE_SHIFT, v->start >> PAGE_SHIFT, msg, len, nv);
		prev_end = v->end;
		if (v->flags & VM_LOCKED)
			locked += vma_pages(v);
		nv = check_vma_ptes(s, t, v, msg, len, nv);
	}
	nv = check_gap(t, prev_end >> PAGE_SHIFT, RADIX_KEY_MAX + 1, msg, len, nv);
	if (n != mm->vmas.count || n != mm->map_count)
		FAIL("vma-tree: pid %d: %llu VMAs listed, tree counts %llu, map_count %llu", t->pid,
		     (unsigned long long)n, (unsigned long long)mm->vmas.count,
		     (unsigned long long)mm->map_count);
	/* mm/mmap.c:do_mmap() and do_brk_flags() refuse only when map_count >
	 * sysctl_max_map_count, so the kernel itself reaches max + 1 (the
	 * promise of the man page is broken: docs/findings.md #2); the model's
	 * own consistency allows exactly that */
	if (mm->map_count > s->max_map_count + 1)
		FAIL("vma-tree: pid %d: map_count %llu exceeds max_map_count + 1 = %llu", t->pid,
		     (unsigned long long)mm->map_count, (unsigned long long)s->max_map_count + 1);
	if (mm->locked_vm != locked + (uint64_t)mm->locked_vm_quirk)
		FAIL("locked-vm: pid %d: locked_vm %llu pages, but VM_LOCKED VMAs hold %llu (+%lld known quirk)",
		     t->pid, (unsigned long long)mm->locked_vm, (unsigned long long)locked,
		     (long long)mm->locked_vm_quirk);
	return nv;
}

unsigned vmsys_check_invariants(struct vmsys *s, char *msg, size_t len)
{
	unsigned nv = 0;
	if (len)
		msg[0] = 0;
	for_each_live_task(s, t) {
		if (task_owns_mm(s, t))
			nv = check_mm(s, t, msg, len, nv);
	}
	static const enum vmstat_item stat[NR_LRU_LISTS] = {
		NR_INACTIVE_ANON, NR_ACTIVE_ANON, NR_INACTIVE_FILE, NR_ACTIVE_FILE, NR_UNEVICTABLE,
	};
	/* a list not linked (6.x's unevictable) is counted in the frame walk below */
	uint64_t unlinked[NR_LRU_LISTS] = { 0 };
	for (int l = 0; l < NR_LRU_LISTS; l++) {
		uint64_t count = 0;
		pfn_t prev = PFN_NONE;
		if (!lru_linked(s, (enum lru_list)l))
			continue;
		for (pfn_t pfn = lru_first(s, (enum lru_list)l); pfn; pfn = lru_next(s, (enum lru_list)l, pfn)) {
			struct page *p = spage(s, pfn);
			count++;
			if (p->prev != prev)
				FAIL("lru-lists: broken back link at pfn %u", pfn);
			prev = pfn;
			if (!(p->flags & PG_LRU) || p->lru != l || page_lru(p) != (enum lru_list)l)
				FAIL("lru-lists: pfn %u is on list %d but its flags say list %d%s", pfn, l,
				     (int)page_lru(p), (p->flags & PG_LRU) ? "" : " (PG_lru clear)");
			if (count > s->pm.nr_frames)
				break;
		}
		if (count != s->lru.size[l] || (int64_t)count != s->stat.v[stat[l]])
			FAIL("lru-lists: list %d holds %llu pages; size says %llu, %s says %lld", l,
			     (unsigned long long)count, (unsigned long long)s->lru.size[l],
			     vmstat_name(stat[l]), (long long)s->stat.v[stat[l]]);
	}
	uint64_t mlocked = 0, node_free = 0;
	for (unsigned n = 0; n < s->pm.nr_nodes; n++) {
		const struct numa_node_mem *nm = &s->pm.node[n];
		node_free += nm->nr_free;
		for (pfn_t pfn = n ? nm->first : 2; pfn < nm->next_unused; pfn++) {
		struct page *p = spage(s, pfn);
		if (!(p->flags & PG_INUSE))
			continue;
		if (p->flags & PG_MLOCKED)
			mlocked++;
		if ((p->flags & PG_LRU) && p->lru == LRU_NONE)
			FAIL("lru-lists: pfn %u has PG_lru but is on no list", pfn);
		if (!(p->flags & PG_LRU) && p->lru != LRU_NONE)
			FAIL("lru-lists: pfn %u is on list %d without PG_lru", pfn, p->lru);
		if ((p->flags & PG_LRU) && p->lru < NR_LRU_LISTS && !lru_linked(s, (enum lru_list)p->lru)) {
			unlinked[p->lru]++;
			if (page_lru(p) != (enum lru_list)p->lru)
				FAIL("lru-lists: pfn %u is on list %d but its flags say list %d", pfn, p->lru,
				     (int)page_lru(p));
		}
		}
	}
	for (int l = 0; l < NR_LRU_LISTS; l++)
		if (!lru_linked(s, (enum lru_list)l) &&
		    (unlinked[l] != s->lru.size[l] || (int64_t)unlinked[l] != s->stat.v[stat[l]]))
			FAIL("lru-lists: list %d holds %llu pages; size says %llu, %s says %lld", l,
			     (unsigned long long)unlinked[l], (unsigned long long)s->lru.size[l],
			     vmstat_name(stat[l]), (long long)s->stat.v[stat[l]]);
	if (node_free != s->pm.nr_free)
		FAIL("numa-nodes: the nodes hold %llu free frames, the machine %llu",
		     (unsigned long long)node_free, (unsigned long long)s->pm.nr_free);
	if ((int64_t)mlocked != s->stat.v[NR_MLOCK])
		FAIL("nr-mlock: %llu pages are PG_mlocked but nr_mlock is %lld", (unsigned long long)mlocked,
		     (long long)s->stat.v[NR_MLOCK]);
	return nv;
}

/* the mlocked-vma rule for one anonymous page mapped once: its VMA */
struct one_map {
	struct vma *v;
	uint64_t addr;
};

static bool note_map(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *pte, void *ctx)
{
	(void)s;
	(void)pte;
	struct one_map *m = ctx;
	m->v = v;
	m->addr = addr;
	return false;
}

unsigned vmsys_check_pages(struct vmsys *s, const uint32_t *pfns, size_t n, char *msg, size_t len)
{
	unsigned nv = 0;
	if (len)
		msg[0] = 0;
	static const enum vmstat_item stat[NR_LRU_LISTS] = {
		NR_INACTIVE_ANON, NR_ACTIVE_ANON, NR_INACTIVE_FILE, NR_ACTIVE_FILE, NR_UNEVICTABLE,
	};
	for (int l = 0; l < NR_LRU_LISTS; l++)
		if ((int64_t)s->lru.size[l] != s->stat.v[stat[l]])
			FAIL("lru-lists: list %d size says %llu, %s says %lld", l,
			     (unsigned long long)s->lru.size[l], vmstat_name(stat[l]), (long long)s->stat.v[stat[l]]);
	bool drained = !s->lru.add_batch.n && !s->lru.mlock_batch.n;
	for (size_t i = 0; i < n; i++) {
		pfn_t pfn = pfns[i];
		if (pfn <= PFN_ZERO || pfn > s->pm.nr_frames)
			continue;
		struct page *p = spage(s, pfn);
		if (!(p->flags & PG_INUSE)) {
			if (p->lru != LRU_NONE || (p->flags & PG_LRU))
				FAIL("lru-lists: freed pfn %u is still on list %d", pfn, p->lru);
			continue;
		}
		if ((p->flags & PG_LRU) && p->lru == LRU_NONE)
			FAIL("lru-lists: pfn %u has PG_lru but is on no list", pfn);
		if (!(p->flags & PG_LRU) && p->lru != LRU_NONE)
			FAIL("lru-lists: pfn %u is on list %d without PG_lru", pfn, p->lru);
		if (p->flags & PG_LRU) {
			enum lru_list l = (enum lru_list)p->lru;
			if (page_lru(p) != l)
				FAIL("lru-lists: pfn %u is on list %d but its flags say list %d", pfn, l,
				     (int)page_lru(p));
			if (!lru_linked(s, l)) {
				/* a count only: the links' place holds the mlock_count */
			} else if (p->prev ? spage(s, p->prev)->next != pfn : s->lru.head[l] != pfn) {
				FAIL("lru-lists: broken back link at pfn %u", pfn);
			} else if (p->next ? spage(s, p->next)->prev != pfn : s->lru.tail[l] != pfn) {
				FAIL("lru-lists: broken forward link at pfn %u", pfn);
			}
		}
		if (s->sem->page_model != PLM_MLOCK_COUNT || !(p->flags & PG_ANON) || p->mapcount != 1)
			continue;
		struct one_map m = { NULL, 0 };
		rmap_walk(s, pfn, note_map, &m);
		if (!m.v || (m.v->flags & (VM_LOCKED | VM_SPECIAL)) != VM_LOCKED ||
		    thp_by_ptes(s, m.v->mm, p, m.addr))
			continue;
		if (!(p->flags & PG_MLOCKED))
			FAIL("mlocked-vma: pid %d: page at 0x%llx (pfn %u) in locked VMA [0x%llx, 0x%llx) is not mlocked",
			     s->current ? s->current->pid : 0, (unsigned long long)m.addr, pfn,
			     (unsigned long long)m.v->start, (unsigned long long)m.v->end);
		else if (drained && !(p->flags & PG_UNEVICTABLE))
			FAIL("mlocked-vma: mlocked page at 0x%llx (pfn %u) is not on the unevictable list after the batches drained",
			     (unsigned long long)m.addr, pfn);
	}
	return nv;
}
