/*
 * statehash.c - the canonical hash of a machine's state (vmsys.h:
 * vmsys_state_hash()), for vmsim check --exhaustive: two machines with the
 * same hash behave alike under every later call and satisfy the same
 * invariants, so the search explores one of them.
 *
 * What is hashed, in a fixed walk:
 *   the machine: free frames, page-table frames, swap and memcg usage,
 *     the workingset age, the LRU cost statistics, every vmstat gauge
 *     (nr_*; the event counters only count and are left out), the pid the
 *     next process gets;
 *   each live process in creation order: pid, limits, capabilities, its
 *     fds, its mm (by the order it is first met, so threads share one);
 *   each mm: counters, def_flags, brk, then each VMA in address order
 *     (range, flags, pgoff, file, open file description, anon_vma and the
 *     anon_vmas of its chains), then each PTE in address order (its flag
 *     bits and its frame, or its swap slot);
 *   each file met (path, size, flags, refs, its page cache by index);
 *   the five LRU lists in order, the two per-CPU batches in order;
 *   each frame met, in the order met: flags, list, folio order, its
 *     mlock_count on the unevictable list, mapcount, refcount, owner,
 *     index, memcg charge.
 * Frames, files, anon_vmas, mms and open file descriptions are named by
 * the order in which the walk meets them, not by their ids: allocation
 * order (which frame the free list gave) makes no difference.  Left out
 * as well: VMA serials, pt_gen and the hit maps (caches), jiffies and the
 * NUMA state (a machine of one node, the only one the search builds).
 *
 * May call: internal (read-only).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "vmstat.h"

struct hasher {
	uint64_t a, b;
	/* names by order of first meeting; 0 = not met */
	uint32_t *pfn_name, npfn;
	uint32_t next_pfn;
	pfn_t *order;          /* the frames in the order met */
	const void **obj;      /* files, anon_vmas, mms, fd tables met (pointers) */
	uint8_t *kind;         /* enum obj_kind of each */
	size_t nobj, capobj, capkind;
	uint32_t *ofd;         /* open file descriptions met (ids) */
	size_t nofd, capofd;
	bool oom;
};

enum obj_kind { OBJ_FILE, OBJ_ANON_VMA, OBJ_MM, OBJ_FDTABLE };

static inline void mix(struct hasher *h, uint64_t w)
{
	/* two independent 64-bit lanes: a 128-bit hash (collisions in a
	 * search of 10^8 states stay below 10^-20) */
	h->a = (h->a ^ w) * 0x9e3779b97f4a7c15ULL;
	h->a ^= h->a >> 29;
	h->b = (h->b + w) * 0xc2b2ae3d27d4eb4fULL;
	h->b = (h->b << 31 | h->b >> 33) ^ w;
}

static void mix_str(struct hasher *h, const char *s)
{
	uint64_t w = 0;
	size_t n = s ? strlen(s) : 0;
	mix(h, n);
	for (size_t i = 0; i < n; i++) {
		w = w << 8 | (uint8_t)s[i];
		if (i % 8 == 7) {
			mix(h, w);
			w = 0;
		}
	}
	mix(h, w);
}

static uint32_t pfn_name(struct hasher *h, pfn_t pfn)
{
	if (!pfn || pfn >= h->npfn)
		return pfn == PFN_ZERO ? 0xffffffffu : 0;
	if (!h->pfn_name[pfn]) {
		h->pfn_name[pfn] = ++h->next_pfn;
		h->order[h->next_pfn - 1] = pfn;
	}
	return h->pfn_name[pfn];
}

/* the name of a file, anon_vma, mm or fd table: 1 + the order met (a
 * search's machines hold a handful: a linear lookup) */
static uint64_t obj_name(struct hasher *h, const void *p, enum obj_kind kind)
{
	if (!p)
		return 0;
	for (size_t i = 0; i < h->nobj; i++)
		if (h->obj[i] == p)
			return i + 1;
	const void **n = vm_grow(h->obj, &h->capobj, h->nobj + 1, sizeof(*n));
	uint8_t *k = n ? vm_grow(h->kind, &h->capkind, h->nobj + 1, sizeof(*k)) : NULL;
	if (n)
		h->obj = n;
	if (!k) {
		h->oom = true;
		return 0;
	}
	h->kind = k;
	h->obj[h->nobj] = p;
	h->kind[h->nobj++] = (uint8_t)kind;
	return h->nobj;
}

static uint64_t ofd_name(struct hasher *h, uint32_t ofd)
{
	if (!ofd)
		return 0;
	for (size_t i = 0; i < h->nofd; i++)
		if (h->ofd[i] == ofd)
			return i + 1;
	uint32_t *n = vm_grow(h->ofd, &h->capofd, h->nofd + 1, sizeof(*n));
	if (!n) {
		h->oom = true;
		return 0;
	}
	h->ofd = n;
	h->ofd[h->nofd++] = ofd;
	return h->nofd;
}

static void hash_file(struct hasher *h, struct file *f)
{
	mix_str(h, f->path);
	mix(h, f->size);
	mix(h, (uint64_t)f->shmem | (uint64_t)f->unlinked << 1 | (uint64_t)f->size_known << 2 |
		       (uint64_t)f->anon_inode << 3 | (uint64_t)f->no_cache << 4 | (uint64_t)f->special << 5 |
		       (uint64_t)f->unevictable << 6 | (uint64_t)(f->shm != NULL) << 7 |
		       (uint64_t)f->secretmem << 8 | (uint64_t)f->ramfs << 9);
	mix(h, f->sb);
	mix(h, f->refs);
	mix(h, f->blocks_below);
	mix(h, f->cache.count);
	for (uint64_t k = 0; radix_next(&f->cache, &k, RADIX_KEY_MAX); k++) {
		mix(h, k);
		mix(h, pfn_name(h, (pfn_t)radix_get(&f->cache, k)));
	}
	mix(h, f->swapped.count);
	mix(h, f->written.count);
	mix(h, f->holes.count);
}

static void hash_mm(struct hasher *h, struct mm *mm)
{
	mix(h, mm->map_count);
	mix(h, mm->total_vm);
	mix(h, mm->locked_vm);
	mix(h, mm->pinned_vm);
	mix(h, (uint64_t)mm->locked_vm_quirk);
	mix(h, mm->data_vm);
	mix(h, mm->exec_vm);
	mix(h, mm->stack_vm);
	mix(h, mm->rss_anon);
	mix(h, mm->rss_file);
	mix(h, mm->rss_shmem);
	mix(h, mm->swap_ents);
	mix(h, mm->def_flags);
	mix(h, mm->start_brk);
	mix(h, mm->brk);
	mix(h, mm->mmap_base);
	mix(h, mm->users);
	for (struct vma *v = mm->vmas.first; v; v = v->next) {
		mix(h, v->start);
		mix(h, v->end);
		mix(h, v->flags);
		mix(h, v->pgoff);
		mix(h, obj_name(h, v->file, OBJ_FILE));
		mix(h, ofd_name(h, v->ofd));
		mix(h, obj_name(h, v->anon_vma, OBJ_ANON_VMA));
		mix(h, v->navc);
		for (struct avc *c = v->avc_list; c; c = c->vma_next)
			mix(h, obj_name(h, c->av, OBJ_ANON_VMA));
	}
	mix(h, mm->pt.count);
	for (uint64_t k = 0; radix_next(&mm->pt, &k, RADIX_KEY_MAX); k++) {
		uint64_t pte = radix_get(&mm->pt, k);
		mix(h, k);
		mix(h, pte & 0xff);
		if (pte & PTE_PRESENT)
			mix(h, pfn_name(h, pte_pfn(pte)));
		else
			mix(h, pte >> PTE_SHIFT); /* a swap slot */
	}
}

void vmsys_state_hash(struct vmsys *s, uint64_t out[2])
{
	struct hasher h = { .a = 0x243f6a8885a308d3ULL, .b = 0x13198a2e03707344ULL };
	h.npfn = s->pm.nr_frames + 1;
	h.pfn_name = vm_calloc(h.npfn, sizeof(*h.pfn_name));
	h.order = vm_malloc(h.npfn * sizeof(*h.order));
	if (!h.pfn_name || !h.order) {
		free(h.pfn_name);
		free(h.order);
		out[0] = out[1] = 0; /* vm_host_oom is set */
		return;
	}
	/* the machine */
	mix(&h, s->pm.nr_free);
	mix(&h, s->locked_shm); /* the SysV segments themselves: by their files */
	mix(&h, s->pm.nr_pt);
	mix(&h, s->swap_free);
	mix(&h, s->memcg_usage);
	mix(&h, s->memcg_limited ? s->memcg_limit : UINT64_MAX);
	mix(&h, s->memcg_high_set ? s->memcg_high : UINT64_MAX);
	mix(&h, s->ws_age);
	mix(&h, s->lru.anon_cost);
	mix(&h, s->lru.file_cost);
	for (int i = 0; i < 2; i++) {
		mix(&h, s->lru.recent_scanned[i]);
		mix(&h, s->lru.recent_rotated[i]);
	}
	for (int i = 0; i < NR_VMSTAT_ITEMS; i++)
		if (!strncmp(vmstat_name((enum vmstat_item)i), "nr_", 3))
			mix(&h, (uint64_t)s->stat.v[i]);
	mix(&h, (uint64_t)s->next_pid);
	/* the processes: what they hold is hashed as the walk below meets it */
	for (struct task *t = s->live_head; t; t = t->live_next) {
		mix(&h, (uint64_t)t->pid);
		mix(&h, t->rlim_memlock_cur);
		mix(&h, t->rlim_memlock_max);
		mix(&h, (uint64_t)t->oom_killed << 2 | (uint64_t)t->pid_known << 3);
		mix(&h, t->cap_eff);
		mix(&h, t->cap_prm ^ t->cap_amb << 1);
		mix(&h, (uint64_t)t->ruid << 32 ^ (uint64_t)t->euid << 16 ^ t->suid);
		mix(&h, obj_name(&h, t->files, OBJ_FDTABLE));
		mix(&h, obj_name(&h, t->mm, OBJ_MM));
	}
	/* the lists and the batches */
	for (int l = 0; l < NR_LRU_LISTS; l++) {
		mix(&h, s->lru.size[l]);
		if (l == LRU_UNEVICTABLE && s->sem->page_model != PLM_RMAP_WALK)
			continue; /* 6.x does not link the unevictable list: its pages are met
				   * through the page tables, the caches and the batches */
		uint64_t n = 0;
		for (pfn_t p = s->lru.head[l]; p && n <= s->lru.size[l]; p = spage(s, p)->next, n++)
			mix(&h, pfn_name(&h, p));
	}
	const struct lru_batch *b[2] = { &s->lru.add_batch, &s->lru.mlock_batch };
	for (int k = 0; k < 2; k++) {
		mix(&h, b[k]->n);
		for (unsigned i = 0; i < b[k]->n; i++) {
			mix(&h, b[k]->tag[i]);
			mix(&h, pfn_name(&h, b[k]->pfn[i]));
		}
	}
	/* what was met, until nothing new is: an mm meets frames, files and
	 * anon_vmas, a frame its owner, a file its cached frames */
	size_t objs = 0;
	uint32_t frames = 0;
	while (!h.oom && (objs < h.nobj || frames < h.next_pfn)) {
		for (; objs < h.nobj; objs++) {
			mix(&h, h.kind[objs]);
			switch ((enum obj_kind)h.kind[objs]) {
			case OBJ_FILE:
				hash_file(&h, (struct file *)h.obj[objs]);
				break;
			case OBJ_ANON_VMA:
				mix(&h, ((const struct anon_vma *)h.obj[objs])->refs);
				break;
			case OBJ_MM:
				hash_mm(&h, (struct mm *)h.obj[objs]);
				break;
			case OBJ_FDTABLE: {
				const struct fdtable *ft = h.obj[objs];
				mix(&h, ft->refs);
				for (unsigned i = 0; i < ft->nfd; i++) {
					const struct fd_entry *e = &ft->fd[i];
					if (!e->file)
						continue;
					mix(&h, i);
					mix(&h, obj_name(&h, e->file, OBJ_FILE));
					mix(&h, ofd_name(&h, e->ofd));
					mix(&h, e->oflags);
					mix(&h, e->pos);
				}
				break;
			}
			}
		}
		for (; frames < h.next_pfn; frames++) {
			const struct page *p = spage(s, h.order[frames]);
			mix(&h, (uint64_t)p->flags | (uint64_t)p->lru << 16 | (uint64_t)p->folio_order << 19 |
					(uint64_t)p->charged << 23);
			if ((p->flags & (PG_LRU | PG_UNEVICTABLE)) == (PG_LRU | PG_UNEVICTABLE) &&
			    s->sem->page_model != PLM_RMAP_WALK)
				mix(&h, p->mlock_count);
			mix(&h, p->mapcount);
			mix(&h, p->refcount);
			mix(&h, page_index(p));
			/* its owner, by name: an anon_vma, or a file */
			if (p->flags & PG_ANON) {
				mix(&h, obj_name(&h, (const void *)(uintptr_t)radix_get(&s->anon_vmas, p->owner),
						 OBJ_ANON_VMA));
			} else {
				mix(&h, obj_name(&h, file_of_page(s, p), OBJ_FILE));
			}
		}
	}
	out[0] = h.a ^ (h.oom ? 1 : 0);
	out[1] = h.b;
	free(h.pfn_name);
	free(h.order);
	free(h.obj);
	free(h.kind);
	free(h.ofd);
}
