/*
 * memory.c - page faults, get_user_pages-style populate, zap, and the
 * page allocator's front end.
 *
 * Fault paths follow mm/memory.c @ v6.1/v6.18:
 *   not present, anonymous     do_anonymous_page(): read maps the zero page
 *                              (unless the machine has none), write or no
 *                              zero page allocates a private page
 *   not present, file, read    do_read_fault(): fault-around maps the
 *                              cached neighbours (64 KiB window), then the
 *                              page itself; a page not cached is read in
 *                              (major) - shmem allocates it (minor)
 *   not present, file, write   private: do_cow_fault() copies into a new
 *                              anon page; shared: do_shared_fault()
 *   present, write, read-only  do_wp_page(): reuse an exclusive anon page,
 *                              otherwise copy (COW); shared file: mkwrite
 *   swap entry                 do_swap_page(): major
 * A new anonymous page goes through folio_add_lru_vma(): mlocked as NEW in
 * a locked VMA, otherwise the lru_add batch.
 */
#include "internal.h"

/* The trace's memcg is charged for page p (mem_cgroup_charge()). */
static void page_charge(struct vmsys *s, struct page *p)
{
	p->charged = 1;
	s->memcg_usage++;
	if (s->memcg_high_set && s->memcg_usage > s->memcg_high && !s->memcg_high_noted) {
		/* try_charge_memcg() @ v6.1: past memory.high the task reclaims
		 * on its return to user space (mem_cgroup_handle_over_high()),
		 * batch by batch of the per-CPU stock - not modelled */
		s->memcg_high_noted = true;
		vmsys_event_add(s, "memcg: a charge passed memory.high; the kernel reclaims on the return to "
				   "user space, which vmsim does not model (vm_memcg_high())");
	}
}

pfn_t alloc_page_for(struct vmsys *s, bool charge)
{
	if (charge && s->memcg_limited && !memcg_charge(s))
		return PFN_NONE;
	/* get_page_from_freelist() at the low watermark fails at or below it:
	 * the slow path (reclaim_for_alloc()) */
	if (physmem_avail(&s->pm) <= s->pm.wmark_low)
		reclaim_for_alloc(s);
	/* the local node first, then the zonelist's fallback */
	unsigned nid = s->pm.nr_nodes > 1 && s->current ? s->current->numa_node : 0;
	pfn_t pfn = physmem_alloc_node(&s->pm, nid, false);
	if (!pfn) {
		reclaim_for_alloc(s);
		pfn = physmem_alloc_node(&s->pm, nid, false);
	}
	if (pfn) {
		count_vm(s, PGALLOC, 1);
		count_vm(s, NR_FREE_PAGES, -1);
		if (charge)
			page_charge(s, spage(s, pfn));
	}
	return pfn;
}

pfn_t alloc_page(struct vmsys *s)
{
	return alloc_page_for(s, true);
}

void page_charge_moved(struct vmsys *s, struct page *from, struct page *to)
{
	if (from->charged) {
		page_uncharge(s, from);
		page_charge(s, to);
	}
}

/* The memcg's charge of a page that goes (mem_cgroup_uncharge()). */
void page_uncharge(struct vmsys *s, struct page *p)
{
	if (p->charged) {
		p->charged = 0;
		s->memcg_usage--;
	}
}

static pfn_t new_anon_page(struct vmsys *s, struct vma *v, uint64_t addr)
{
	pfn_t pfn = alloc_page(s);
	if (!pfn)
		return PFN_NONE;
	struct page *p = spage(s, pfn);
	p->flags |= PG_ANON | PG_SWAPBACKED | PG_UPTODATE;
	p->owner = v->anon_vma->id;
	page_set_index(p, linear_index(v, addr));
	return pfn;
}

/*
 * mm/huge_memory.c:do_huge_pmd_anonymous_page() (thp.c says when): a read
 * maps the huge zero page, else a THP - 512 new pages of one folio mapped
 * dirty and writable as the PMD would be, added to the LRU (or mlocked)
 * with the batches moved, as a large folio moves them.  Returns false to
 * fall back to a small page (VM_FAULT_FALLBACK: no room for the folio in
 * memory or the memcg); *oom on anon_vma_prepare()'s failure.
 */
static inline void note_hits(struct vmsys *s, struct mm *mm, uint64_t vpn, uint64_t pte);
static inline __attribute__((always_inline)) void set_pte(struct vmsys *s, struct mm *mm, uint64_t addr, uint64_t pte, int *oom);

static bool do_huge_anonymous(struct vmsys *s, struct vma *v, uint64_t addr, bool write, int *oom)
{
	struct mm *mm = v->mm;
	uint64_t haddr = addr & HPAGE_MASK, vpn = haddr >> PAGE_SHIFT;
	if (anon_vma_prepare(s, v)) {
		*oom = 1;
		return true;
	}
	if (!write && s->zero_page) {
		TP(s, TP_FAULT, KFN_DO_HUGE_ANON, .addr = addr, .kind = TPF_HUGE_ZERO);
		/* young, as the access leaves it: a uniform leaf that a read
		 * never has to unshare (radix.h) */
		uint64_t pte = mk_pte(PFN_ZERO, PTE_PRESENT | PTE_YOUNG);
		if (radix_fill_leaf(&mm->pt, vpn, pte) || thp_pmd_add(mm, haddr, true)) {
			*oom = 1;
			return true;
		}
		for (unsigned i = 0; mm->hm.slot && i < HPAGE_PAGES; i++)
			note_hits(s, mm, vpn + i, pte);
		return true;
	}
	if (physmem_avail(&s->pm) < HPAGE_PAGES + s->pm.wmark_low ||
	    (s->memcg_limited && s->memcg_usage + HPAGE_PAGES > s->memcg_limit))
		return false;
	TP(s, TP_FAULT, KFN_DO_HUGE_ANON, .addr = addr, .kind = TPF_THP);
	unsigned fl = PTE_PRESENT | PTE_YOUNG | PTE_EXCL | PTE_DIRTY;
	if (v->flags & VM_WRITE)
		fl |= PTE_WRITE;
	for (uint64_t i = 0; i < HPAGE_PAGES; i++) {
		uint64_t a = haddr + (i << PAGE_SHIFT);
		pfn_t pfn = new_anon_page(s, v, a);
		if (!pfn) {
			*oom = 1;
			return true;
		}
		spage(s, pfn)->folio_order = HPAGE_SHIFT - PAGE_SHIFT;
		set_pte(s, mm, a, mk_pte(pfn, fl), oom);
		if (*oom)
			return true;
		rmap_add(s, v, pfn, true);
	}
	lru_add_drain(s);
	if (thp_pmd_add(mm, haddr, false))
		*oom = 1;
	return true;
}

/*
 * mm/huge_memory.c:do_huge_pmd_wp_page() on the huge zero page: the PMD
 * mapping ends; 4.x (`alloc:`) and 6.18 (do_huge_zero_wp_pmd()) put a THP
 * in its place when they can (true), 6.1 and a failed allocation leave
 * the zero page's PTEs for do_wp() to copy one page (false, *ptep its
 * PTE again; 4.x: do_huge_pmd_wp_zero_page_fallback()).
 */
static bool wp_huge_zero(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t **ptep, int *oom)
{
	struct mm *mm = v->mm;
	uint64_t haddr = addr & HPAGE_MASK;
	thp_range_gone(mm, haddr, haddr + HPAGE_SIZE);
	if (!s->sem->thp_zero_cow_huge)
		return false;
	pte_changed(s);
	radix_drop_leaf(&mm->pt, haddr >> PAGE_SHIFT);
	if (do_huge_anonymous(s, v, addr, true, oom))
		return true;
	radix_fill_leaf(&mm->pt, haddr >> PAGE_SHIFT, mk_pte(PFN_ZERO, PTE_PRESENT | PTE_YOUNG));
	*ptep = radix_peek(&mm->pt, addr >> PAGE_SHIFT);
	return false;
}

/* A new, dirty anonymous page for addr in v (the target of a COW copy),
 * preparing v's anon_vma first; PFN_NONE (and *oom) when out of memory. */
static pfn_t new_cow_page(struct vmsys *s, struct vma *v, uint64_t addr, int *oom)
{
	pfn_t copy = PFN_NONE;
	if (!anon_vma_prepare(s, v))
		copy = new_anon_page(s, v, addr);
	if (!copy) {
		*oom = 1;
		return PFN_NONE;
	}
	spage(s, copy)->flags |= PG_DIRTY;
	return copy;
}

/* mm/memory.c:copy_present_page() @ v6.1, v6.18: fork() gives the child a
 * copy of a private anonymous page that may be DMA-pinned (it stays the
 * parent's alone, its PTE writable): the child's new page, dirty, mapped
 * writable if the VMA is, and on the LRU.  PFN_NONE when out of memory. */
pfn_t copy_pinned_page_for_child(struct vmsys *s, struct vma *dst, uint64_t addr, uint64_t *pte)
{
	int oom = 0;
	pfn_t copy = new_cow_page(s, dst, addr, &oom);
	if (!copy)
		return PFN_NONE;
	unsigned fl = PTE_PRESENT | PTE_YOUNG | PTE_DIRTY | PTE_EXCL;
	if (dst->flags & VM_WRITE)
		fl |= PTE_WRITE;
	*pte = mk_pte(copy, fl);
	return copy;
}

/* A PTE table is a page of its own (mm/memory.c:__pte_alloc() ->
 * pte_alloc_one() @ v6.18): allocating one may reclaim and, when nothing
 * can be freed, fail the fault with VM_FAULT_OOM (the OOM killer has run:
 * reclaim_for_alloc()).  So simulated RAM bounds the page tables too. */
bool pte_table_alloc(struct vmsys *s)
{
	if (physmem_avail(&s->pm) <= s->pm.wmark_low)
		reclaim_for_alloc(s);
	return physmem_avail(&s->pm) > 0;
}

/* The hit bits of a PTE just written (hitmap.h): once the hot loop has
 * made the mm's hit map, a fault's PTEs are hits for the accesses after
 * it, without another look at the PTE. */
static inline void note_hits(struct vmsys *s, struct mm *mm, uint64_t vpn, uint64_t pte)
{
	if (!mm->hm.slot)
		return;
	bool r = pte_permits(pte, false) && (pte & PTE_YOUNG);
	hitmap_note(&mm->hm, s->pt_gen, vpn, r, r && pte_permits(pte, true) && (pte & PTE_DIRTY));
}

static inline __attribute__((always_inline)) void set_pte(struct vmsys *s, struct mm *mm, uint64_t addr, uint64_t pte, int *oom)
{
	uint64_t vpn = addr >> PAGE_SHIFT;
	if (radix_get(&mm->pt, vpn))
		pte_changed(s); /* a PTE replaced (the zero page's, a COW) */
	if ((!radix_has_leaf(&mm->pt, vpn) && !pte_table_alloc(s)) || radix_set(&mm->pt, vpn, pte))
		*oom = 1;
	else
		note_hits(s, mm, vpn, pte);
}

/* mm/memory.c:vm_insert_pages() -> insert_page_into_pte_locked() @ v6.1,
 * v6.18: a driver's page mapped at addr with the VMA's protection (young,
 * writable in a shared writable VMA), counted in Rss and as a mapped file
 * page; not on any LRU, never mlocked (the VMA is VM_MIXEDMAP).  False when
 * a page table cannot be had. */
bool insert_driver_page(struct vmsys *s, struct vma *v, uint64_t addr, pfn_t pfn)
{
	int oom = 0;
	unsigned fl = PTE_PRESENT | PTE_YOUNG;
	if ((v->flags & (VM_SHARED | VM_WRITE)) == (VM_SHARED | VM_WRITE))
		fl |= PTE_WRITE;
	if (!(v->flags & VM_ACCESS_FLAGS))
		fl |= PTE_NOACCESS;
	set_pte(s, v->mm, addr, mk_pte(pfn, fl), &oom);
	if (oom)
		return false;
	rmap_add(s, v, pfn, false);
	return true;
}

/*
 * Map a whole large page-cache folio into v if it lies inside v and inside
 * one page table (2 MiB), as 6.18's finish_fault() and fault-around do:
 * every page not yet mapped gets a PTE with
 * flags fl; when this call mapped all of the folio into a locked VMA, the
 * folio is mlocked (folio_add_file_rmap_ptes() of the entire folio).
 * Returns false when the folio does not fit (the caller maps one page).
 */
static bool map_whole_folio(struct vmsys *s, struct vma *v, pfn_t pfn, unsigned fl, bool finish,
			    int *oom)
{
	struct page *p = spage(s, pfn);
	if (!p->folio_order || !s->sem->pagecache_large_folios || !v->file)
		return false;
	uint64_t nr = 1ULL << p->folio_order, head = page_index(p) & ~(nr - 1);
	if (head < v->pgoff || head + nr > v->pgoff + vma_pages(v))
		return false;
	/* 74207de2ba10 (6.18): never map whole a folio that runs
	 * past i_size (shmem excepted) */
	if (!v->file->shmem && head + nr > ((v->file->size + PAGE_SIZE - 1) >> PAGE_SHIFT))
		return false;
	uint64_t a0 = v->start + ((head - v->pgoff) << PAGE_SHIFT);
	if ((a0 >> 21) != ((a0 + (nr << PAGE_SHIFT) - 1) >> 21))
		return false;
	uint64_t mapped = 0;
	pfn_t pages[1u << 9];
	for (uint64_t i = 0; i < nr; i++) {
		pfn_t q = file_find_page(s, v->file, head + i);
		pages[i] = q;
		if (!q)
			return false;
		/* finish_fault() falls back to the faulting page alone when
		 * any PTE of the folio's range is set (needs_fallback) */
		if (finish && s->sem->finish_fault_none_range &&
		    radix_get(&v->mm->pt, (a0 >> PAGE_SHIFT) + i))
			return false;
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t a = a0 + (i << PAGE_SHIFT);
		if (radix_get(&v->mm->pt, a >> PAGE_SHIFT))
			continue;
		set_pte(s, v->mm, a, mk_pte(pages[i], fl), oom);
		if (*oom)
			return true;
		rmap_add(s, v, pages[i], false);
		if (fl & PTE_DIRTY)
			spage(s, pages[i])->flags &= ~PG_NOBUFS;
		if ((fl & PTE_DIRTY) && !(spage(s, pages[i])->flags & PG_DIRTY)) {
			spage(s, pages[i])->flags |= PG_DIRTY;
			if (file_dirty_accounted(v->file))
				count_vm(s, NR_DIRTY, 1);
		}
		mapped++;
	}
	if (mapped == nr && s->sem->page_model == PLM_MLOCK_COUNT)
		for (uint64_t i = 0; i < nr; i++)
			mlock_vma_folio(s, v, pages[i]);
	return true;
}

static void fault_around_range(struct vmsys *s, struct vma *v, uint64_t base, uint64_t from,
			       uint64_t to, uint64_t max_idx, int *oom);

/* Map the file pages around addr that are already cached
 * (mm/memory.c:do_fault_around() + mm/filemap.c:filemap_map_pages()). */
static void fault_around(struct vmsys *s, struct vma *v, uint64_t addr, int *oom)
{
	struct mm *mm = v->mm;
	struct file *f = v->file;
	if (f->special)
		return; /* a special mapping has no ->map_pages (mm/mmap.c:special_mapping_vmops) */
	if (f->shm || f->secretmem)
		return; /* nor has a SysV segment's (ipc/shm.c:shm_vm_ops @ v4.0, v6.18)
			 * or memfd_secret's (mm/secretmem.c:secretmem_vm_ops) */
	const uint64_t nr = 16; /* fault_around_bytes = 64 KiB */
	uint64_t pte_off = (addr >> PAGE_SHIFT) & 511;
	uint64_t vma_off = (addr - v->start) >> PAGE_SHIFT;
	uint64_t from = pte_off & ~(nr - 1);
	uint64_t lo = pte_off - (pte_off < vma_off ? pte_off : vma_off);
	if (lo > from)
		from = lo;
	uint64_t to = from + nr;
	if (to > 512)
		to = 512;
	uint64_t vend = pte_off + vma_pages(v) - vma_off;
	if (to > vend)
		to = vend;
	uint64_t base = (addr >> PAGE_SHIFT) - pte_off; /* vpn of pte 0 */
	uint64_t max_idx = (f->size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	uint64_t rss0 = mm->rss_file + mm->rss_shmem;
	fault_around_range(s, v, base, from, to, max_idx, oom);
	TP(s, TP_FAULT_AROUND, KFN_FAULT_AROUND, .addr = addr, .start = (base + from) << PAGE_SHIFT,
	   .end = (base + to) << PAGE_SHIFT, .delta = (int64_t)(mm->rss_file + mm->rss_shmem - rss0));
}

static void fault_around_range(struct vmsys *s, struct vma *v, uint64_t base, uint64_t from,
			       uint64_t to, uint64_t max_idx, int *oom)
{
	struct mm *mm = v->mm;
	struct file *f = v->file;
	struct file_ra *ra = file_ra_of(s, v->ofd);
	const int hits = s->sem->mmap_miss_hits;
	for (uint64_t i = from; i < to; i++) {
		uint64_t a = (base + i) << PAGE_SHIFT;
		uint64_t idx = linear_index(v, a);
		if (idx >= max_idx)
			break;
		bool mapped = radix_get(&mm->pt, base + i) != 0;
		if (mapped && hits == MMAP_HIT_MAPPED)
			continue;
		pfn_t pfn = file_find_page(s, f, idx);
		if (!pfn || !(spage(s, pfn)->flags & PG_UPTODATE))
			continue; /* next_uptodate_folio() */
		if (spage(s, pfn)->flags & PG_RECLAIM)
			continue; /* ... nor PG_readahead (= PG_reclaim); v4.0 too */
		/* a hit for readahead's mmap_miss (semantics.h) */
		if (ra && ra->mmap_miss && (hits != MMAP_HIT_FOUND_NOT_WORKINGSET ||
				     !(spage(s, pfn)->flags & PG_WORKINGSET)))
			ra->mmap_miss--;
		if (mapped)
			continue;
		/* x86 maps prefaulted PTEs young (arch_wants_old_prefaulted_pte()) */
		unsigned fl = PTE_PRESENT | PTE_YOUNG;
		if ((v->flags & (VM_SHARED | VM_WRITE)) == (VM_SHARED | VM_WRITE) && f->shmem)
			fl |= PTE_WRITE;
		if (map_whole_folio(s, v, pfn, fl, false, oom)) {
			if (*oom)
				return;
			continue;
		}
		set_pte(s, mm, a, mk_pte(pfn, fl), oom);
		if (*oom)
			return;
		rmap_add(s, v, pfn, false);
	}
}


/* mm/readahead.c:page_cache_ra_unbounded() via do_page_cache_ra(): order-0
 * folios for the missing pages of [idx, idx+nr) clipped to EOF; the one at
 * nr - lookahead is marked PG_readahead (= PG_reclaim) */
static bool ra_unbounded(struct vmsys *s, struct file *f, uint64_t idx, uint64_t nr,
			 uint64_t lookahead)
{
	if (!f->size || idx > (f->size - 1) >> PAGE_SHIFT)
		return true;
	if (nr > ((f->size - 1) >> PAGE_SHIFT) - idx)
		nr = ((f->size - 1) >> PAGE_SHIFT) - idx + 1;
	uint64_t mark = lookahead <= nr ? nr - lookahead : UINT64_MAX;
	for (uint64_t i = 0; i < nr; i++) {
		if (file_find_page(s, f, idx + i))
			continue;
		pfn_t q = file_add_page(s, f, idx + i, NULL);
		if (!q)
			return false;
		if (i == mark)
			spage(s, q)->flags |= PG_RECLAIM;
	}
	return true;
}

/* mm/readahead.c:page_cache_ra_order(): folios of ra_order (smaller where
 * unaligned or at EOF) from start, the one holding start + size - async_size
 * marked PG_readahead; at the first cached page (-EEXIST) the rest falls
 * back to do_page_cache_ra() */
static bool ra_order_read(struct vmsys *s, struct file *f, struct file_ra *ra, uint64_t start)
{
	if (s->sem->ra_window_trimmed_at_eof)
		return ra_unbounded(s, f, start, ra->size, ra->async);
	if (!f->size)
		return true;
	uint64_t limit = (f->size - 1) >> PAGE_SHIFT;
	if (ra->size && limit > start + ra->size - 1)
		limit = start + ra->size - 1;
	uint64_t mark = start + ra->size - ra->async, index = start;
	unsigned new_order = ra->order < 9 ? ra->order : 9; /* MAX_PAGECACHE_ORDER */
	if (ra->size && new_order > (unsigned)(63 - __builtin_clzll(ra->size)))
		new_order = (unsigned)(63 - __builtin_clzll(ra->size));
	ra->order = new_order;
	bool clash = false;
	while (index <= limit && !clash) {
		unsigned order = new_order;
		if (index & ((1ULL << order) - 1))
			order = (unsigned)__builtin_ctzll(index);
		while (order && index + (1ULL << order) - 1 > limit)
			order--;
		for (uint64_t i = 0; i < (1ULL << order) && !clash; i++)
			clash = file_find_page(s, f, index + i) != PFN_NONE;
		if (clash)
			break;
		bool ra_mark = index == (mark & ~((1ULL << order) - 1));
		for (uint64_t i = 0; i < (1ULL << order); i++) {
			pfn_t q = file_add_page(s, f, index + i, NULL);
			if (!q)
				return false;
			spage(s, q)->folio_order = (uint8_t)order;
			if (ra_mark)
				spage(s, q)->flags |= PG_RECLAIM;
		}
		index += 1ULL << order;
	}
	if (clash && ra->size > index - start)
		return ra_unbounded(s, f, index, ra->size - (index - start), ra->async);
	return true;
}

/* get_next_ra_size() */
static uint64_t next_ra_size(uint64_t cur, uint64_t max)
{
	return cur < max / 16 ? 4 * cur : cur <= max / 2 ? 2 * cur : max;
}

/* mm/filemap.c:page_cache_next_miss(): the first index from idx that holds
 * no page, looking at max pages; idx + max + 1 when there is none.  With
 * next_miss_tail_lag, the xas_next() walk that starts on a tail page of a
 * large folio (stored below the node level: order < 6) reads slot
 * index - (idx - head) and so reports the gap that many pages late; the
 * walk falls back in step where it leaves a 64-slot node (__xas_next()). */
static uint64_t page_cache_next_miss(struct vmsys *s, struct file *f, uint64_t idx, uint64_t max)
{
	uint64_t slot = idx;
	pfn_t first = file_find_page(s, f, idx);
	if (!first)
		return idx;
	if (s->sem->next_miss_tail_lag && spage(s, first)->folio_order &&
	    spage(s, first)->folio_order < 6)
		slot = idx & ~((1ULL << spage(s, first)->folio_order) - 1);
	for (uint64_t i = idx + 1; i <= idx + max; i++) {
		slot = (slot & 63) == 63 ? i : slot + 1;
		if (!file_find_page(s, f, slot))
			return i;
	}
	return idx + max + 1;
}

/* mm/readahead.c:page_cache_async_ra() for a fault on the PG_readahead
 * folio holding page idx (do_async_mmap_readahead()): the mark is cleared;
 * at the expected index the window moves on, otherwise it restarts at the
 * first missing page after idx; ra->order grows by 2 (large folios) */
static bool async_readahead_window(struct vmsys *s, struct file *f, struct file_ra *ra, uint64_t idx,
				   pfn_t pfn)
{
	const uint64_t max = s->ra_pages;
	uint64_t nr = 1ULL << spage(s, pfn)->folio_order, head = idx & ~(nr - 1);
	for (uint64_t i = 0; i < nr; i++) {
		pfn_t q = file_find_page(s, f, head + i);
		if (q)
			spage(s, q)->flags &= ~PG_RECLAIM;
	}
	uint64_t expected = (ra->start + ra->size - ra->async) & ~(nr - 1);
	if (idx == expected) {
		ra->start += ra->size;
		uint64_t n = next_ra_size(ra->size, max);
		if (n > ra->size)
			ra->size = n;
	} else {
		uint64_t start = page_cache_next_miss(s, f, idx + 1, max);
		if (start - idx > max)
			return true;
		ra->start = start;
		ra->size = next_ra_size(start - idx + max, max);
	}
	if (s->sem->pagecache_large_folios)
		ra->order += 2; /* only where the mapping takes large folios */
	uint64_t align = 1ULL << (ra->order < 11 ? ra->order : 11);
	uint64_t end = ra->start + ra->size, aligned_end = end & ~(align - 1);
	if (aligned_end > ra->start)
		ra->size -= end - aligned_end;
	ra->async = ra->size;
	return ra_order_read(s, f, ra, ra->start);
}

/* mm/readahead.c:get_init_ra_size() */
static uint64_t init_ra_size(uint64_t req, uint64_t max)
{
	uint64_t n = 1;
	while (n < req)
		n <<= 1;
	return n <= max / 32 ? n * 4 : n <= max / 4 ? n * 2 : max;
}

/* mm/readahead.c:page_cache_sync_ra() @ v6.18 for a buffered read that
 * found no page at idx, req pages wanted: from the start of the file, a
 * sequential miss or an oversized read, the initial window (async part
 * marked); else a read as is, or a window as long as the history the
 * page cache holds before idx (page_cache_prev_miss()). */
static bool sync_read_ra_window(struct vmsys *s, struct file *f, struct file_ra *ra, uint64_t idx,
				uint64_t req)
{
	uint64_t max = s->ra_pages;
	if (!max)
		return ra_unbounded(s, f, idx, 1, 0); /* force_page_cache_ra() of one page */
	uint64_t prev = ra->prev_pos >> PAGE_SHIFT;
	if (!idx || req > max || idx - prev <= 1) {
		ra->start = idx;
		ra->size = init_ra_size(req, max);
		ra->async = ra->size > req ? ra->size - req : ra->size >> 1;
		ra->order = 0;
		return ra_order_read(s, f, ra, idx);
	}
	uint64_t miss = idx - 1, seen = 0;
	while (seen < max && file_find_page(s, f, miss)) {
		seen++;
		if (!miss--)
			break;
	}
	uint64_t contig = seen;
	if (contig <= req)
		return ra_unbounded(s, f, idx, req, 0);
	if (seen < max && miss == UINT64_MAX)
		contig *= 2; /* cached from the start of the file */
	ra->start = idx;
	ra->size = contig + req < max ? contig + req : max;
	ra->async = 1;
	ra->order = 0;
	return ra_order_read(s, f, ra, idx);
}


/* The readahead steps with the file_ra_state they leave, for the listener */
static bool async_readahead(struct vmsys *s, struct file *f, struct file_ra *ra, uint64_t idx, pfn_t pfn)
{
	bool ok = async_readahead_window(s, f, ra, idx, pfn);
	TP(s, TP_READAHEAD, KFN_ASYNC_RA, .kind = 1, .addr = idx, .before = ra->start,
	   .delta = (int64_t)ra->size, .after = ra->async, .err = ok ? 0 : -KERR_ENOMEM);
	return ok;
}

static bool sync_read_ra(struct vmsys *s, struct file *f, struct file_ra *ra, uint64_t idx, uint64_t req)
{
	bool ok = sync_read_ra_window(s, f, ra, idx, req);
	TP(s, TP_READAHEAD, KFN_SYNC_RA, .kind = 0, .addr = idx, .before = ra->start,
	   .delta = (int64_t)ra->size, .after = ra->async, .err = ok ? 0 : -KERR_ENOMEM);
	return ok;
}
bool filemap_read_ra(struct vmsys *s, struct file *f, struct file_ra *ra, uint64_t first, uint64_t last)
{
	uint64_t idx = first;
	while (idx <= last) {
		if (!file_find_page(s, f, idx) && !sync_read_ra(s, f, ra, idx, last + 1 - idx))
			return false;
		/* the batch of cached pages from idx (filemap_get_read_batch());
		 * a PG_readahead folio ending it starts async readahead
		 * (filemap_readahead() -> page_cache_async_ra()) */
		uint64_t end = idx;
		while (end <= last && file_find_page(s, f, end))
			end++;
		if (end == idx)
			return true; /* beyond EOF or nothing to read: vm_file_io() adds it */
		pfn_t tail = file_find_page(s, f, end - 1);
		if ((spage(s, tail)->flags & PG_RECLAIM) && !async_readahead(s, f, ra, end - 1, tail))
			return false;
		idx = end;
	}
	return true;
}

/* A read fault that started I/O (read-around, async readahead) is retried
 * (VM_FAULT_RETRY) and the retry's fault-around (filemap_map_pages()) maps
 * the page when it is cached and uptodate: true when it did. */
static bool read_retry_maps(struct vmsys *s, struct vma *v, uint64_t addr, bool write, int *oom)
{
	if (write)
		return false;
	fault_around(s, v, addr, oom);
	return !*oom && radix_get(&v->mm->pt, addr >> PAGE_SHIFT);
}

/* 5.1+: filemap_fault() drops the mmap lock for I/O and returns
 * VM_FAULT_RETRY (maybe_unlock_mmap_for_io()), and the retry's fault-around
 * may map the page: VMF_MINOR or VMF_SIGBUS when the fault ends there,
 * VMF_NONE when it goes on in this run (4.x, or the page not mapped). */
static enum vm_fault_kind retry_for_io(struct vmsys *s, struct vma *v, uint64_t addr, bool write,
				       int *oom)
{
	if (!s->sem->filemap_retries_io)
		return VMF_NONE;
	s->fault_retried = true;
	if (read_retry_maps(s, v, addr, write, oom))
		return VMF_MINOR;
	return *oom ? VMF_SIGBUS : VMF_NONE;
}

static enum vm_fault_kind do_file_fault(struct vmsys *s, struct vma *v, uint64_t addr,
					bool write, int *oom)
{
	struct mm *mm = v->mm;
	struct file *f = v->file;
	struct file_ra *ra = file_ra_of(s, v->ofd); /* vmf->vma->vm_file->f_ra */
	if (!ra) {
		*oom = 1;
		return VMF_SIGBUS;
	}
	uint64_t idx = linear_index(v, addr);
	/* do_read_fault(): fault-around maps the cached neighbours (up to
	 * EOF) before the page itself is looked up - even when that page
	 * lies beyond EOF and the fault ends in SIGBUS */
	if (!write)
		fault_around(s, v, addr, oom);
	if (*oom)
		return VMF_SIGBUS;
	/* do_cow_fault() prepares the anon_vma before it looks for the page */
	if (write && !vma_is_shared(v) && anon_vma_prepare(s, v)) {
		*oom = 1;
		return VMF_SIGBUS;
	}
	if (idx >= (f->size + PAGE_SIZE - 1) >> PAGE_SHIFT)
		return VMF_SIGBUS;
	if (!write && radix_get(&mm->pt, addr >> PAGE_SHIFT))
		return VMF_MINOR; /* fault-around mapped it */
	bool major = false;
	pfn_t pfn = file_find_page(s, f, idx);
	/* ramfs: do_sync_mmap_readahead() stops at ra_pages 0 */
	bool read_around = !pfn && !f->shmem && !f->ramfs && !(v->flags & VM_RAND_READ);
	if (read_around && !(v->flags & VM_SEQ_READ) && s->ra_pages) {
		/* do_sync_mmap_readahead(): a miss; past MMAP_LOTSAMISS (100)
		 * no read-around, the fault reads only its page below */
		if (ra->mmap_miss < 1000)
			ra->mmap_miss++;
		if (ra->mmap_miss > 100)
			read_around = false;
	}
	if (pfn && !f->shmem && !(v->flags & VM_RAND_READ) && ra->mmap_miss)
		ra->mmap_miss--; /* do_async_mmap_readahead(): a hit */
	if (read_around) {
		/*
		 * filemap_fault(): a page missing from a disk file starts the
		 * mmap read-around (do_sync_mmap_readahead()) and the fault is
		 * retried once the I/O is done; the retry counts as one major
		 * fault (mm_account_fault(): FAULT_FLAG_TRIED) and, for a read,
		 * fault-around now finds the neighbours cached.  The window is
		 * ra_pages centred on the fault with the last quarter async
		 * (its first page marked PG_readahead); VM_SEQ_READ reads
		 * ra_pages from the fault (page_cache_sync_ra()); VM_EXEC on
		 * 6.16+ reads from the fault to the VMA's end, async_size 0.
		 * Same shape in v4.0 (ra_submit()) and v6.1
		 * (page_cache_ra_order()).
		 */
		uint64_t ra_pages = s->ra_pages;
		if (v->flags & VM_SEQ_READ) {
			if (!ra_unbounded(s, f, idx, ra_pages, 0)) {
				*oom = 1;
				return VMF_SIGBUS;
			}
		} else {
			ra->start = idx > ra_pages / 2 ? idx - ra_pages / 2 : 0;
			ra->size = ra_pages;
			ra->async = ra_pages / 4;
			if ((v->flags & VM_EXEC) && s->sem->exec_readahead_forward) {
				uint64_t vend = v->pgoff + vma_pages(v);
				ra->start = idx;
				ra->size = (idx + ra_pages < vend ? idx + ra_pages : vend) - idx;
				ra->async = 0;
			}
			ra->order = 0;
			if (!ra_order_read(s, f, ra, ra->start)) {
				*oom = 1;
				return VMF_SIGBUS;
			}
		}
		major = true;
		pfn = file_find_page(s, f, idx);
		/* lock_page_or_retry(): the page is still locked for its read, and
		 * the fault is retried - 5.1+ always (filemap_fault() dropped the
		 * mmap lock for the readahead); @ v4.0, v4.4 only when the read
		 * was I/O: a hole's page is uptodate and unlocked already
		 * (fileblocks.c), and this run maps it */
		if (s->sem->filemap_retries_io || file_has_block(f, idx)) {
			s->fault_retried = true;
			if (read_retry_maps(s, v, addr, write, oom))
				return VMF_MAJOR;
			if (*oom)
				return VMF_SIGBUS;
			pfn = file_find_page(s, f, idx);
		}
	}
	if (pfn && !major && (spage(s, pfn)->flags & PG_RECLAIM) && !(v->flags & VM_RAND_READ)) {
		/* filemap_fault() -> do_async_mmap_readahead() (not on the
		 * FAULT_FLAG_TRIED retry of a read-around): a PG_readahead folio
		 * starts async readahead (page_cache_async_ra() clears the mark).
		 * 5.1+ drop the mmap lock for it and retry the fault; for a
		 * read the retry's fault-around maps the page.  4.x go on and
		 * map the page in this run (filemap_fault() @ v4.4). */
		if (!async_readahead(s, f, ra, idx, pfn)) {
			*oom = 1;
			return VMF_SIGBUS;
		}
		enum vm_fault_kind rr = retry_for_io(s, v, addr, write, oom);
		if (rr != VMF_NONE)
			return rr;
	}
	if (!pfn) {
		if (!(pfn = file_add_page(s, f, idx, &major))) {
			*oom = 1;
			return VMF_SIGBUS;
		}
		/* no read-around (MADV_RANDOM): the one page is read, and
		 * the fault waits for it (4.x no_cached_page: page_cache_read()
		 * then lock_page_or_retry(), a hole's page already unlocked;
		 * 6.x page_not_uptodate) */
		if (major && (s->sem->filemap_retries_io || file_has_block(f, idx)))
			s->fault_retried = true;
	}
	if (!(spage(s, pfn)->flags & PG_UPTODATE) && f->shmem) {
		/* mm/shmem.c:shmem_get_folio_gfp(SGP_CACHE) @ v6.18: a
		 * fallocated folio is cleared and marked uptodate in the
		 * fault itself - no retry, no second fault-around */
		spage(s, pfn)->flags |= PG_UPTODATE;
	}
	if (!(spage(s, pfn)->flags & PG_UPTODATE)) {
		/* filemap_fault() page_not_uptodate: read it.  5.1+ retry the
		 * fault, and the retry's fault-around maps the neighbours;
		 * 4.x wait for the read and map the page in this run */
		spage(s, pfn)->flags |= PG_UPTODATE;
		enum vm_fault_kind rr = retry_for_io(s, v, addr, write, oom);
		if (rr != VMF_NONE)
			return rr;
	}
	/* no mark_page_accessed(): filemap_fault() takes the folio without
	 * FGP_ACCESSED (mm/filemap.c @ v4.4, v6.1); the young PTE is the
	 * reference reclaim sees */
	if (write && !vma_is_shared(v)) {
		/* do_cow_fault(): a private copy */
		pfn_t copy = new_cow_page(s, v, addr, oom);
		if (!copy)
			return VMF_SIGBUS;
		set_pte(s, mm, addr, mk_pte(copy, PTE_PRESENT | PTE_WRITE | PTE_DIRTY | PTE_YOUNG | PTE_EXCL), oom);
		rmap_add(s, v, copy, true);
		return major ? VMF_MAJOR : VMF_MINOR;
	}
	unsigned fl = PTE_PRESENT | PTE_YOUNG;
	if (write) {
		fl |= PTE_WRITE | PTE_DIRTY;
		struct page *p = spage(s, pfn);
		p->flags &= ~PG_NOBUFS; /* page_mkwrite dirties its block */
		if (!(p->flags & PG_DIRTY)) {
			p->flags |= PG_DIRTY;
			if (file_dirty_accounted(f))
				count_vm(s, NR_DIRTY, 1);
		}
		if (file_blocks_written(f, idx, idx)) {
			*oom = 1;
			return VMF_SIGBUS;
		}
	} else if (vma_is_shared(v) && (v->flags & VM_WRITE) && f->shmem) {
		fl |= PTE_WRITE; /* no write-notify on shmem */
	}
	/* finish_fault() @ v6.18 maps the entire folio when it fits */
	if (map_whole_folio(s, v, pfn, fl, true, oom))
		return *oom ? VMF_SIGBUS : (major ? VMF_MAJOR : VMF_MINOR);
	set_pte(s, mm, addr, mk_pte(pfn, fl), oom);
	rmap_add(s, v, pfn, false);
	return major ? VMF_MAJOR : VMF_MINOR;
}

/* do_wp_page(): write to a present, write-protected PTE */
static enum vm_fault_kind do_wp(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *ptep,
				int *oom)
{
	struct mm *mm = v->mm;
	pfn_t old = pte_pfn(*ptep);
	struct page *op = spage(s, old);
	if (vma_is_shared(v)) {
		/* wp_page_shared(): page_mkwrite, the page becomes dirty */
		*ptep |= PTE_WRITE | PTE_DIRTY | PTE_YOUNG;
		op->flags &= ~PG_NOBUFS;
		if (!(op->flags & PG_DIRTY)) {
			op->flags |= PG_DIRTY;
			if (page_dirty_accounted(s, op))
				count_vm(s, NR_DIRTY, 1);
		}
		if (v->file && file_blocks_written(v->file, linear_index(v, addr), linear_index(v, addr))) {
			*oom = 1;
			return VMF_SIGBUS;
		}
		return VMF_MINOR;
	}
	if (old != PFN_ZERO && (op->flags & PG_ANON) && op->mapcount == 1 &&
	    op->refcount - page_batch_refs(s, old) == 1u + ((op->flags & PG_SWAPCACHE) ? 1u : 0u)) {
		TP(s, TP_FAULT, KFN_DO_WP, .addr = addr, .kind = TPF_WP_REUSE, .pfn = old);
		/* wp_can_reuse_anon_folio(): ours alone */
		*ptep |= PTE_WRITE | PTE_DIRTY | PTE_YOUNG | PTE_EXCL;
		op->flags |= PG_DIRTY;
		return VMF_MINOR;
	}
	/* wp_page_copy() */
	TP(s, TP_FAULT, KFN_DO_WP, .addr = addr, .kind = TPF_WP_COPY, .pfn = old);
	pfn_t copy = new_cow_page(s, v, addr, oom);
	if (!copy)
		return VMF_SIGBUS;
	pte_changed(s);
	*ptep = mk_pte(copy, PTE_PRESENT | PTE_WRITE | PTE_DIRTY | PTE_YOUNG | PTE_EXCL);
	(void)mm;
	rmap_add(s, v, copy, true);
	if (old != PFN_ZERO) {
		if (s->sem->page_model == PLM_RMAP_WALK) {
			get_page(s, old); /* wp_page_copy() holds old_page */
			rmap_remove(s, v, old);
			munlock_cow_page_4x(s, v, old);
			put_page(s, old);
		} else {
			rmap_remove(s, v, old);
		}
	}
	return VMF_MINOR;
}

static enum vm_fault_kind do_swap(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *ptep,
				  bool write, int *oom)
{
	uint32_t slot = (uint32_t)pte_pfn(*ptep);
	if (anon_vma_prepare(s, v)) {
		*oom = 1;
		return VMF_SIGBUS;
	}
	pfn_t pfn = new_anon_page(s, v, addr);
	if (!pfn) {
		*oom = 1;
		return VMF_SIGBUS;
	}
	workingset_refault_anon(s, slot, pfn); /* __read_swap_cache_async() @ v6.1 */
	swap_free_slot(s, slot);
	s->fault_retried = true; /* lock_page_or_retry(): the read is not done yet */
	v->mm->swap_ents--;
	count_vm(s, PSWPIN, 1);
	unsigned fl = PTE_PRESENT | PTE_YOUNG | PTE_EXCL;
	if (v->flags & VM_WRITE)
		fl |= PTE_WRITE;
	if (write)
		fl |= PTE_DIRTY;
	pte_changed(s);
	*ptep = mk_pte(pfn, fl);
	if (s->sem->page_model == PLM_RMAP_WALK) {
		/* mm/memory.c:do_swap_page() @ v4.0: the page comes through the
		 * swap cache, already on the LRU (read_swap_cache_async() ->
		 * lru_cache_add_anon(): inactive), and do_page_add_anon_rmap()
		 * does not mlock it - in a VM_LOCKED VMA reclaim culls it later,
		 * in a LOCKONFAULT-only one of lof-v1 it stays evictable */
		rmap_add(s, v, pfn, false);
		folio_add_lru(s, pfn);
	} else {
		rmap_add(s, v, pfn, true);
	}
	return VMF_MAJOR;
}

static bool access_ok(const struct vma *v, int mode)
{
	if (mode & 2)
		return (v->flags & VM_WRITE) != 0;
	if (mode & 4)
		return (v->flags & VM_EXEC) != 0;
	return (v->flags & VM_ACCESS_FLAGS) != 0;
}

/* A fault's counts (semantics.h, fault accounting): vmstat pgfault per
 * run (handle_mm_fault() @ v6.1) or per fault (mm_account_fault() @
 * v6.18), a failed one too; pgmajfault once (filemap_fault(),
 * do_swap_page() on the first run); the task's min_flt/maj_flt only for
 * one that succeeded (mm_account_fault(), and in 4.x __do_page_fault()
 * and faultin_page() return on VM_FAULT_ERROR before they count) */
static inline void account_faults(struct vmsys *s, struct task *t, enum vm_fault_kind r, int mode,
			   uint64_t n)
{
	const struct semantics *sem = s->sem;
	bool retried = s->fault_retried, gup = (mode & FAULT_GUP) != 0, major = r == VMF_MAJOR;
	count_vm(s, PGFAULT, (retried && sem->pgfault_counts_each_run ? 2 : 1) * n);
	if (r != VMF_MINOR && r != VMF_MAJOR)
		return;
	if (major)
		count_vm(s, PGMAJFAULT, 1);
	if (sem->task_flt_counted_by_arch) {
		/* __do_page_fault() @ v4.4: once, major if a run was;
		 * faultin_page() @ v4.4: each run, the retry finds the page */
		if (major)
			t->maj_flt += n;
		else
			t->min_flt += n;
		if (gup && retried)
			t->min_flt += n;
	} else if (gup) {
		/* __mm_populate() starts a retried fault over without
		 * FAULT_FLAG_TRIED: the completing run finds the page */
		if (major && !retried)
			t->maj_flt += n;
		else
			t->min_flt += n;
	} else {
		/* mm_account_fault() @ v6.18: VM_FAULT_MAJOR or FAULT_FLAG_TRIED */
		bool tried = retried && (major || !sem->fault_tried_only_after_major);
		if (major || tried)
			t->maj_flt += n;
		else
			t->min_flt += n;
	}
}

static void account_fault(struct vmsys *s, struct task *t, enum vm_fault_kind r, int mode)
{
	account_faults(s, t, r, mode, 1);
}

#define STACK_RLIMIT (8ULL << 20) /* RLIMIT_STACK default */

/*
 * mm/mmap.c:acct_stack_growth() and the VMA update of expand_downwards()
 * @ v6.1, v4.4: v grows down to addr unless that exceeds RLIMIT_STACK
 * (4.x: not counting the guard page) or - for a VM_LOCKED stack -
 * RLIMIT_MEMLOCK (mlock_future_ok); a locked stack charges the growth to
 * locked_vm.  False: not grown.
 */
static bool grow_stack(struct vmsys *s, struct task *t, struct vma *v, uint64_t addr)
{
	struct mm *mm = t->mm;
	if (addr < MMAP_MIN_ADDR)
		return false; /* security_mmap_addr() */
	uint64_t grow = (v->start - addr) >> PAGE_SHIFT;
	uint64_t size = v->end - addr;
	if (s->sem->stack_guard_page)
		size -= PAGE_SIZE;
	if (size > STACK_RLIMIT)
		return false;
	/* expand_downwards() prepares the anon_vma first (so fork copies the
	 * stack's page tables even when only the zero page is mapped) */
	if (anon_vma_prepare(s, v))
		return false;
	/* acct_stack_growth() tests VM_LOCKED itself (4.x) or through
	 * mlock_future_ok() (6.x): the charged bits, not the future mask */
	if (!mlock_future_ok(s, t, v->flags & s->sem->charge_mask, grow << PAGE_SHIFT))
		return false;
	TP(s, TP_VMA_ADJUST, KFN_EXPAND_STACK, .old_start = v->start, .old_end = v->end,
	   .start = addr, .end = v->end, .new_flags = v->flags);
	vma_tree_erase(&mm->vmas, v);
	v->start = addr;
	v->pgoff -= grow;
	vma_tree_insert(&mm->vmas, v);
	if (v->flags & s->sem->charge_mask)
		locked_vm_add(s, mm, (int64_t)grow, KFN_EXPAND_STACK);
	mm->total_vm += grow;
	mm->stack_vm += grow;
	if (mm->total_vm > mm->hiwater_vm)
		mm->hiwater_vm = mm->total_vm;
	return true;
}

/*
 * An access just below a VM_GROWSDOWN VMA grows it (expand_downwards()
 * @ v6.1), unless that would come within the guard gap of the VMA below
 * (6.x only: 4.x has its guard page inside the VMA).  Returns the VMA now
 * containing addr, or NULL (the access is a SIGSEGV).
 */
static struct vma *expand_stack(struct vmsys *s, struct task *t, uint64_t addr)
{
	struct mm *mm = t->mm;
	struct vma *v = vma_find(&mm->vmas, addr);
	if (!v || !(v->flags & VM_GROWSDOWN) || addr >= v->start)
		return NULL;
	addr &= PAGE_MASK;
	struct vma *prev = v->prev;
	if (!s->sem->stack_guard_page && prev && !(prev->flags & VM_GROWSDOWN) &&
	    (prev->flags & VM_ACCESS_FLAGS) && addr - prev->end < STACK_GUARD_GAP)
		return NULL;
	if (prev && prev->end > addr)
		return NULL;
	return grow_stack(s, t, v, addr) ? v : NULL;
}

/* include/linux/mm.h:stack_guard_page_start() @ v4.4: addr is the guard
 * page of a stack - its first page, unless the VMA below is the same
 * stack split */
static bool stack_guard_page_start(const struct vmsys *s, const struct vma *v, uint64_t addr)
{
	return s->sem->stack_guard_page && (v->flags & VM_GROWSDOWN) && addr == v->start &&
	       !(v->prev && v->prev->end == addr && (v->prev->flags & VM_GROWSDOWN));
}

/* mm/memory.c:check_stack_guard_page() @ v4.4, at the start of
 * do_anonymous_page(): a fault on the guard page first grows the stack a
 * page, so that the stack keeps one; a VMA abutting below that is not
 * the same stack, or a growth refused, is a SIGSEGV */
static bool check_stack_guard_page(struct vmsys *s, struct task *t, struct vma *v, uint64_t addr)
{
	if (!stack_guard_page_start(s, v, addr))
		return true; /* not the guard page, or the same stack split below */
	if (v->prev && v->prev->end == addr)
		return false;
	return addr >= PAGE_SIZE && grow_stack(s, t, v, addr - PAGE_SIZE);
}

enum vm_fault_kind handle_fault(struct vmsys *s, struct task *t, struct vma *v,
				uint64_t addr, int mode)
{
	struct mm *mm = t->mm;
	bool write = (mode & 2) != 0;
	int oom = 0;
	enum vm_fault_kind r;
	addr &= PAGE_MASK;
	if (v->flags & VM_HUGETLB) {
		/* handle_mm_fault() -> hugetlb_fault(): page tables of its own
		 * (hugetlb.c); counted as any fault (mm_account_fault()) */
		if (hugetlb_mapped(mm, addr, write))
			return VMF_NONE;
		TP(s, TP_FAULT, KFN_HUGETLB_FAULT, .addr = addr, .kind = TPF_HUGETLB);
		r = v->file && v->file->huge ? hugetlb_fault(s, t, v, addr, write) : VMF_SIGBUS;
		if (r != VMF_NONE)
			account_fault(s, t, r, mode);
		return r;
	}
	uint64_t pte = radix_get(&mm->pt, addr >> PAGE_SHIFT);
	if ((pte & PTE_PRESENT) && !(pte & PTE_NUMA) && (!write || (pte & PTE_WRITE)))
		return VMF_NONE; /* nothing to do, and nothing written (radix_peek()) */
	uint64_t *ptep = pte ? radix_peek(&mm->pt, addr >> PAGE_SHIFT) : NULL;
	s->fault_retried = false;

	if (pte & PTE_NUMA) {
		/* pte_protnone(): a NUMA hinting fault (handle_pte_fault()) */
		TP(s, TP_FAULT, KFN_DO_NUMA_PAGE, .addr = addr, .kind = TPF_NUMA_HINT);
		r = do_numa_page(s, t, v, addr, ptep);
	} else if (pte & PTE_PRESENT) {
		if (!write)
			return VMF_NONE;
		if (pte & PTE_WRITE)
			return VMF_NONE;
		if (pte_pfn(pte) == PFN_ZERO && mm->thp && thp_pmd_state(mm, addr) == THP_PMD_ZERO &&
		    wp_huge_zero(s, v, addr, &ptep, &oom))
			r = VMF_MINOR;
		else
			r = do_wp(s, v, addr, ptep, &oom);
	} else if (pte & PTE_SWAP) {
		TP(s, TP_FAULT, KFN_DO_SWAP, .addr = addr, .kind = TPF_SWAP_IN, .major = true);
		r = do_swap(s, v, addr, ptep, write, &oom);
	} else if (v->flags & VM_PFNMAP) {
		/* a PFN mapping: [vvar] and [vvar_vclock] (vvar_fault() ->
		 * vmf_insert_pfn() @ v4.4 .. v6.18, arch/x86/entry/vdso/vma.c),
		 * a driver's: the PTE maps a frame with no struct page (
		 * vm_normal_page() is NULL) - no RSS, no LRU, no rmap, and
		 * mlock and GUP pass it by (VM_SPECIAL).  The model keeps no
		 * PTE for it: a later access faults again, minor */
		r = VMF_MINOR;
	} else if (v->file && v->file->ring) {
		/* a driver's mapping with no fault handler (io_uring's pages
		 * are inserted at mmap): vma_dummy_vm_ops, VM_FAULT_SIGBUS */
		r = VMF_SIGBUS;
	} else if (v->file) {
		TP(s, TP_FAULT, !write ? KFN_DO_READ : vma_is_shared(v) ? KFN_DO_SHARED : KFN_DO_COW,
		   .addr = addr,
		   .kind = !write ? TPF_FILE_READ : vma_is_shared(v) ? TPF_FILE_SHARED : TPF_COW);
		r = do_file_fault(s, v, addr, write, &oom);
	} else if (thp_fault_allowed(s, v, addr) && do_huge_anonymous(s, v, addr, write, &oom)) {
		r = VMF_MINOR;
	} else {
		TP(s, TP_FAULT, KFN_DO_ANON, .addr = addr,
		   .kind = !write && s->zero_page ? TPF_ZERO_PAGE : TPF_ANON);
		/* do_anonymous_page(): the zero page needs no anon_vma */
		if (!check_stack_guard_page(s, t, v, addr)) {
			r = VMF_SIGSEGV;
			goto out;
		} else if (!write && s->zero_page) {
			set_pte(s, mm, addr, mk_pte(PFN_ZERO, PTE_PRESENT), &oom);
		} else if (anon_vma_prepare(s, v)) {
			oom = 1;
		} else {
			pfn_t pfn = new_anon_page(s, v, addr);
			if (!pfn) {
				oom = 1;
			} else {
				unsigned fl = PTE_PRESENT | PTE_YOUNG | PTE_EXCL;
				if (v->flags & VM_WRITE)
					fl |= PTE_WRITE | PTE_DIRTY;
				set_pte(s, mm, addr, mk_pte(pfn, fl), &oom);
				if (!oom)
					rmap_add(s, v, pfn, true);
			}
		}
		r = VMF_MINOR;
	}
out:
	if (oom) {
		vmsys_event_add(s, "out of memory in fault at 0x%llx (pid %d)",
				(unsigned long long)addr, t->pid);
		r = VMF_SIGBUS;
	}
	if (r != VMF_NONE)
		account_fault(s, t, r, mode);
	return r;
}

/* The access bits a present, permitted PTE gets from an access (young,
 * and dirty for a write), stored only where missing: a read of a page
 * already young writes nothing, so a uniform leaf of them stays shared
 * (radix.h).  Returns the PTE it leaves. */
static inline uint64_t pte_mark_access(struct mm *mm, uint64_t vpn, uint64_t pte, bool write)
{
	uint64_t bits = write ? (PTE_YOUNG | PTE_DIRTY) : PTE_YOUNG;
	if ((pte & bits) != bits)
		pte = (*radix_peek(&mm->pt, vpn) |= bits);
	return pte;
}

/* The access itself after any fault, to the PTE the fault left at vpn:
 * hardware sets young (and dirty). */
static inline void touch_pte(struct vmsys *s, struct mm *mm, uint64_t vpn, uint64_t pte, bool write)
{
	if (pte & PTE_PRESENT)
		note_hits(s, mm, vpn, pte_mark_access(mm, vpn, pte, write));
}

enum vm_fault_kind vm_access(struct vmsys *s, struct task *t, uint64_t addr, int mode)
{
	s->nevents = 0;
	struct mm *mm = t->mm;
	struct vma *v = vma_lookup(&mm->vmas, addr);
	if (!v)
		v = expand_stack(s, t, addr);
	if (!v || !access_ok(v, mode))
		return VMF_SIGSEGV;
	enum vm_fault_kind r = handle_fault(s, t, v, addr, mode);
	if (r == VMF_NONE || r == VMF_MINOR || r == VMF_MAJOR)
		touch_pte(s, mm, addr >> PAGE_SHIFT, radix_get(&mm->pt, addr >> PAGE_SHIFT),
			  (mode & 2) != 0);
	return r;
}

/* vm_touch_hit() past its hit bits: the PTE (apart, so that the common
 * case saves no registers) */
__attribute__((noinline)) static bool touch_hit_pte(struct vmsys *s, struct mm *mm, uint64_t vpn,
						    bool write)
{
	uint64_t pte = radix_get(&mm->pt, vpn);
	if (!pte_permits(pte, write))
		return false;
	pte_mark_access(mm, vpn, pte, write);
	if (!mm->hm.slot) {
		/* the first hit makes the map, from every PTE there is (one pass
		 * in order: a populated mapping's pages are hits at once) */
		hitmap_make(&mm->hm);
		for (uint64_t k = 0; mm->hm.slot && radix_next(&mm->pt, &k, RADIX_KEY_MAX); k++)
			note_hits(s, mm, k, radix_get(&mm->pt, k));
	}
	note_hits(s, mm, vpn, radix_get(&mm->pt, vpn));
	return true;
}

bool vm_touch_hit(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len, int mode)
{
	if ((mode & 4) || !len || (addr & ~PAGE_MASK) + len > PAGE_SIZE)
		return false;
	uint64_t key = VM_HIT_KEY(addr, mode & 2);
	return vm_touch_hits(s, t, &key, sizeof(key), 1) == 1;
}

static inline void prefetch_vpn(struct mm *mm, uint64_t vpn)
{
	if (mm->hm.slot)
		hitmap_prefetch(&mm->hm, vpn);
	else
		radix_prefetch(&mm->pt, vpn);
}

void vm_prefetch_pte(const struct task *t, uint64_t addr)
{
	if (t->mm)
		prefetch_vpn(t->mm, addr >> PAGE_SHIFT);
}

/* vm_touch_hit() of each key in turn, the hit bits of the keys
 * VM_HITS_AHEAD on prefetched: one call and a dozen instructions a hit
 * where a call a hit took a hundred. */
#define VM_HITS_AHEAD 16
size_t vm_touch_hits(struct vmsys *s, struct task *t, const uint64_t *key, size_t stride, size_t n)
{
	struct mm *mm = t->mm;
	if (!mm)
		return 0;
	s->nevents = 0;
	const char *k0 = (const char *)key;
#define KEY(i) (*(const uint64_t *)(k0 + (i) * stride))
	if (!n)
		return 0;
	/* the first access alone first: after a miss the caller's full path
	 * takes it and calls again, so a stream of faults would prefetch the
	 * next VM_HITS_AHEAD pages for every access (a third of the cost of
	 * a fault, a random stream's fault-arounds included) */
	uint64_t k0key = KEY(0);
	if (k0key == VM_NOT_HIT ||
	    (!(mm->hm.slot && hitmap_test(mm->hm.slot, s->pt_gen, k0key >> 1, k0key & 1)) &&
	     !touch_hit_pte(s, mm, k0key >> 1, k0key & 1)))
		return 0;
	for (size_t k = 1; k <= VM_HITS_AHEAD && k < n; k++)
		prefetch_vpn(mm, KEY(k) >> 1);
	size_t i = 1;
	while (i < n && !mm->hm.slot) { /* the first hit makes the map */
		if (KEY(i) == VM_NOT_HIT || !touch_hit_pte(s, mm, KEY(i) >> 1, KEY(i) & 1))
			return i;
		i++;
	}
	/* the map and the generation stay as they are but where a PTE is read */
	const struct hitmap_slot *slot = mm->hm.slot;
	uint64_t gen = s->pt_gen;
	for (; i < n; i++) {
		if (i + VM_HITS_AHEAD < n)
			hitmap_prefetch(&mm->hm, KEY(i + VM_HITS_AHEAD) >> 1);
		uint64_t k = KEY(i), vpn = k >> 1;
		bool write = k & 1;
		if (hitmap_test(slot, gen, vpn, write))
			continue; /* young (and dirty) already: nothing to set; VM_NOT_HIT's
				   * page is past every table, never a hit here */
		if (k == VM_NOT_HIT || !touch_hit_pte(s, mm, vpn, write))
			break;
		slot = mm->hm.slot;
		gen = s->pt_gen;
	}
#undef KEY
	return i;
}

/*
 * A read of a whole empty page table of a private anonymous VMA with the
 * zero page on: RADIX_FAN faults of do_anonymous_page() @ v6.18 (the same
 * in every kernel modelled), each mapping the zero page, which the access
 * makes young - in one step: a PTE table taken without reclaim (above the
 * low watermark, as pte_table_alloc() would), filled by a uniform leaf
 * (radix.h), the faults counted as minor first runs.  A tracepoint
 * listener hears each fault, as from handle_fault(), the table filled
 * after the last (listeners note, they do not read the PTEs).  Returns
 * the pages mapped, or 0 when the page-by-page path must run.
 */
static uint64_t zero_fill_table(struct vmsys *s, struct task *t, struct vma *v, uint64_t a,
				uint64_t end, int mode)
{
	struct mm *mm = t->mm;
	uint64_t vpn = a >> PAGE_SHIFT, span = (uint64_t)RADIX_FAN << PAGE_SHIFT;
	if ((mode & 2) || !s->zero_page || v->file || (vpn & (RADIX_FAN - 1)) ||
	    thp_fault_allowed(s, v, a) || /* one fault maps the huge zero page */
	    end - a < span || v->end - a < span || stack_guard_page_start(s, v, a) ||
	    radix_has_leaf(&mm->pt, vpn) ||
	    physmem_avail(&s->pm) <= s->pm.wmark_low)
		return 0;
	uint64_t pte = mk_pte(PFN_ZERO, PTE_PRESENT | PTE_YOUNG);
	if (radix_fill_leaf(&mm->pt, vpn, pte))
		return 0;
	for (unsigned i = 0; s->tp_hook && i < RADIX_FAN; i++)
		TP(s, TP_FAULT, KFN_DO_ANON, .addr = a + ((uint64_t)i << PAGE_SHIFT), .kind = TPF_ZERO_PAGE);
	for (unsigned i = 0; mm->hm.slot && i < RADIX_FAN; i++)
		note_hits(s, mm, vpn + i, pte);
	s->fault_retried = false;
	account_faults(s, t, VMF_MINOR, mode, RADIX_FAN);
	return RADIX_FAN;
}

int64_t vm_touch(struct vmsys *s, struct task *t, uint64_t addr, uint64_t len, int mode,
		 enum vm_fault_kind *sig)
{
	s->nevents = 0;
	struct mm *mm = t->mm;
	int64_t faults = 0;
	enum vm_fault_kind sig_unused;
	if (!sig)
		sig = &sig_unused;
	*sig = VMF_NONE;
	if (!len)
		return 0;
	uint64_t end = addr + len;
	bool write = (mode & 2) != 0;
	for (uint64_t a = addr & PAGE_MASK; a < end; a += PAGE_SIZE) {
		struct vma *v = vma_lookup(&mm->vmas, a);
		if (!v)
			v = expand_stack(s, t, a);
		if (!v || !access_ok(v, mode)) {
			*sig = VMF_SIGSEGV;
			return -1;
		}
		/* fast path: present and permitted */
		uint64_t pte = radix_get(&mm->pt, a >> PAGE_SHIFT);
		if (pte_permits(pte, write)) {
			pte_mark_access(mm, a >> PAGE_SHIFT, pte, write);
			continue;
		}
		uint64_t n = zero_fill_table(s, t, v, a, end, mode);
		if (n) {
			faults += (int64_t)n;
			a += (n - 1) * PAGE_SIZE;
			continue;
		}
		/* the CPU retries the access after each fault: one that left the
		 * page present but not writable (a NUMA hinting fault without the
		 * preserved write bit) is followed by a write-protect fault.  Three
		 * runs at most: every fault path leaves the access permitted by then */
		for (int run = 0; run < 3; run++) {
			enum vm_fault_kind r = handle_fault(s, t, v, a, mode);
			if (!t->alive)
				return faults; /* the fault's allocation OOM-killed this process: mm is gone */
			if (r == VMF_SIGBUS || r == VMF_SIGSEGV) {
				*sig = r;
				return -1;
			}
			pte = radix_get(&mm->pt, a >> PAGE_SHIFT);
			if (r == VMF_NONE)
				break;
			faults++;
			if (pte_permits(pte, write) || !radix_has_leaf(&mm->pt, a >> PAGE_SHIFT))
				break;
		}
		touch_pte(s, mm, a >> PAGE_SHIFT, pte, write);
	}
	return faults;
}

/*
 * mm/gup.c:populate_vma_page_range() @ v6.1: GUP with FOLL_TOUCH, FOLL_WRITE
 * for private writable VMAs, FOLL_FORCE for accessible ones; a
 * VM_LOCKONFAULT VMA returns at once (6.x).  Returns 0 or -EFAULT/-ENOMEM.
 */
int populate_vma_range(struct vmsys *s, struct task *t, struct vma *v, uint64_t start,
		       uint64_t end)
{
	const struct semantics *sem = s->sem;
	struct mm *mm = t->mm;
	bool mlock_present = false;
	if (v->flags & sem->onfault_bit & (sem->onfault_skips_populate ? ~0ULL : 0))
		return 0;
	if ((v->flags & sem->onfault_bit) && sem->lockonfault_populates)
		mlock_present = true; /* 4.4: FOLL_MLOCK without FOLL_POPULATE */
	bool write = (v->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE;
	bool force = (v->flags & VM_ACCESS_FLAGS) != 0;
	/* check_vma_flags(), inside __get_user_pages(): the drain after GUP
	 * follows its EFAULT too (populate_vma_page_range() @ v6.1); GUP
	 * refuses memfd_secret's memory (vma_is_secretmem() @ v6.18), so
	 * mlock() of it ends in ENOMEM, MCL_CURRENT ignores it */
	if ((v->flags & (VM_IO | VM_PFNMAP)) || (v->file && v->file->secretmem) ||
	    (write && !(v->flags & VM_WRITE) && !force) ||
	    (!write && !(v->flags & VM_READ) && (!force || !(v->flags & VM_MAYREAD)))) {
		lru_add_drain(s);
		return -KERR_EFAULT;
	}
	if (v->flags & VM_HUGETLB) {
		/* follow_hugetlb_page() @ v4.0..v6.1, hugetlb_follow_page_mask()
		 * @ v6.18: one fault per huge page not mapped (as needed) */
		for (uint64_t a = start; a < end; a = (a & HPAGE_MASK) + HPAGE_SIZE) {
			if (hugetlb_mapped(mm, a, write))
				continue;
			enum vm_fault_kind r = handle_fault(s, t, v, a, (write ? 2 : 1) | FAULT_GUP);
			if (r == VMF_SIGBUS || r == VMF_SIGSEGV) {
				lru_add_drain(s);
				return -KERR_EFAULT;
			}
		}
		lru_add_drain(s);
		return 0;
	}
	bool mlock_pages = sem->page_model == PLM_RMAP_WALK &&
			   (v->flags & (VM_LOCKED | VM_SPECIAL)) == VM_LOCKED;
	for (uint64_t a = start; a < end; a += PAGE_SIZE) {
		uint64_t *ptep = radix_peek(&mm->pt, a >> PAGE_SHIFT);
		bool ok = ptep && (*ptep & PTE_PRESENT) && (!write || (*ptep & PTE_WRITE));
		if (!ok) {
			if (mlock_present || stack_guard_page_start(s, v, a))
				continue; /* faultin_page() -ENOENT: skip */
			enum vm_fault_kind r = handle_fault(s, t, v, a, (write ? 2 : 1) | FAULT_GUP);
			if (!t->alive)
				return -KERR_EFAULT; /* OOM-killed by its own fault: mm is gone */
			ptep = radix_peek(&mm->pt, a >> PAGE_SHIFT);
			if (r == VMF_SIGBUS || r == VMF_SIGSEGV || !ptep || !(*ptep & PTE_PRESENT)) {
				lru_add_drain(s);
				return -KERR_EFAULT;
			}
		}
		/* follow_page with FOLL_TOUCH */
		*ptep |= PTE_YOUNG;
		if (write)
			*ptep |= PTE_DIRTY;
		pfn_t pfn = pte_pfn(*ptep);
		if (pfn != PFN_ZERO) {
			mark_page_accessed(s, pfn);
			if (mlock_pages || (mlock_present && (v->flags & VM_LOCKED))) {
				/* follow_page_pte() @ v4.4: lru_add_drain() first */
				lru_add_drain(s);
				mlock_folio_4x(s, pfn);
			}
		}
	}
	lru_add_drain(s);
	return 0;
}

/* mm/gup.c:__mm_populate() */
int mm_populate(struct vmsys *s, struct task *t, uint64_t start, uint64_t len, bool ignore_errors)
{
	struct mm *mm = t->mm;
	uint64_t end = start + len;
	if (end < start)
		end = UINT64_MAX;
	for (uint64_t nstart = start; nstart < end;) {
		struct vma *v = vma_find(&mm->vmas, nstart);
		if (!v || v->start >= end)
			break;
		uint64_t nend = v->end < end ? v->end : end;
		if (v->flags & (VM_IO | VM_PFNMAP)) {
			nstart = nend;
			continue;
		}
		if (nstart < v->start)
			nstart = v->start;
		int ret = populate_vma_range(s, t, v, nstart, nend);
		if (!t->alive)
			return ret; /* OOM-killed while populating */
		if (ret < 0 && !ignore_errors)
			return ret;
		/* the walk may have merged or split nothing: continue past v */
		nstart = nend;
	}
	return 0;
}

/* What a zap does with one PTE it cleared (zap_present_ptes(),
 * zap_nonpresent_ptes()): a page's dirty and young bits go to the page,
 * its mapping goes; a swap entry's slot is freed.  z: what the zap has
 * seen so far. */
struct zap_state {
	uint64_t prev_vpn, prev_index;
	bool freed;
};

static inline void zap_one_pte(struct vmsys *s, struct mm *mm, struct vma *v, uint64_t vpn,
			       uint64_t pte, struct zap_state *z)
{
	if (pte & PTE_PRESENT) {
		pfn_t pfn = pte_pfn(pte);
		if (pfn == PFN_ZERO)
			return;
		z->freed = true;
		struct page *p = spage(s, pfn);
		if (!(p->flags & PG_ANON)) {
			if ((pte & PTE_DIRTY) && !(p->flags & PG_DIRTY)) {
				p->flags |= PG_DIRTY;
				if (page_dirty_accounted(s, p))
					count_vm(s, NR_DIRTY, 1);
			}
			if (pte & PTE_YOUNG)
				mark_page_accessed(s, pfn);
		}
		/* zap_present_ptes(): a batch is the run of PTEs mapping
		 * consecutive pages of one folio inside one page table */
		if (s->sem->large_folio_batch_per_pmd &&
		    (vpn != z->prev_vpn + 1 || !(vpn & 511) || page_index(p) != z->prev_index + 1))
			s->zap_folio_key = 0;
		z->prev_vpn = vpn;
		z->prev_index = page_index(p);
		rmap_remove(s, v, pfn);
	} else if (pte & PTE_SWAP) {
		swap_free_slot(s, (uint32_t)pte_pfn(pte));
		mm->swap_ents--;
	}
}

/* zap_page_range_single(): unmap the pages of [start,end) in v */
void zap_range(struct vmsys *s, struct mm *mm, struct vma *v, uint64_t start, uint64_t end)
{
	zap_range_filtered(s, mm, v, start, end, false);
}

void zap_range_filtered(struct vmsys *s, struct mm *mm, struct vma *v, uint64_t start,
			uint64_t end, bool skip_anon)
{
	uint64_t vpn = start >> PAGE_SHIFT, last = (end >> PAGE_SHIFT) - 1;
	if (end <= start)
		return;
	if (v->flags & VM_HUGETLB) {
		/* unmap_hugepage_range(): the huge pages, which no PTE of
		 * mm->pt holds; their mmu_gather flush drains on 6.1 and older
		 * as the small pages' does */
		uint64_t before = mm->hugetlb_pages;
		hugetlb_zap(s, mm, start, end);
		if (before != mm->hugetlb_pages && s->sem->zap_drains_lru)
			lru_add_drain(s);
		return;
	}
	/* zap_pmd_range(): a PMD inside the range goes whole, one it cuts is
	 * split first; either way it maps no more (thp.c) */
	if (mm->thp && !skip_anon)
		thp_pmds_end(s, v, start, end);
	s->zap_folio_key = 0;
	struct zap_state z = { .prev_vpn = UINT64_MAX };
	uint64_t keys[64], ptes[64];
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t pte;
		if (!(vpn & (RADIX_FAN - 1)) && last - vpn >= RADIX_FAN - 1 &&
		    radix_leaf_uniform(&mm->pt, vpn, &pte) && pte_pfn(pte) == PFN_ZERO) {
			/* a table of zero-page PTEs (zero_fill_table()): each
			 * would only be cleared */
			pte_changed(s);
			radix_drop_leaf(&mm->pt, vpn);
			vpn += RADIX_FAN;
			continue;
		}
		if (!skip_anon && !mm->thp) {
			/* zap_pte_range(): the PTEs of a run cleared, then their
			 * pages unmapped in order.  Nothing an rmap removal does
			 * reads this mm's other PTEs but a THP's PMD split (thp.c),
			 * so a run goes at once where the mm has no THP */
			unsigned n = radix_take_run(&mm->pt, &vpn, last, keys, ptes);
			pte_changed(s);
			for (unsigned i = 0; i < n; i++)
				zap_one_pte(s, mm, v, keys[i], ptes[i], &z);
			continue;
		}
		pte = radix_get(&mm->pt, vpn);
		if (skip_anon && (pte & PTE_PRESENT) && pte_pfn(pte) != PFN_ZERO &&
		    (spage(s, pte_pfn(pte))->flags & PG_ANON)) {
			vpn++;
			continue;
		}
		pte_changed(s);
		radix_clear(&mm->pt, vpn);
		zap_one_pte(s, mm, v, vpn, pte, &z);
		vpn++;
	}
	s->zap_folio_key = UINT64_MAX;
	/* tlb_finish_mmu() hands the unmapped pages to
	 * free_pages_and_swap_cache(), which on 6.1 and older starts with
	 * lru_add_drain(): the munlocks queued by the zap are applied before
	 * the call returns; 6.18 leaves them in the per-CPU batch */
	if (z.freed && s->sem->zap_drains_lru)
		lru_add_drain(s);
}
