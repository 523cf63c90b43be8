/* page.c - physical frames and their struct pages. */
#include "alloc.h"
#include "page.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The reservation for a machine's struct pages (pfns 0 .. nr_frames + 1). */
static size_t frames_bytes(const struct physmem *pm)
{
	return ((size_t)pm->nr_frames + 2) * sizeof(struct page);
}

/* Commit chunk c of the frames before its first use: PAGE_CHUNK entries,
 * or fewer for a machine's last, so that a small machine - a vmsim check
 * run has 16-64 MiB - does not take 64K pages' worth. */
static bool chunk_commit(struct physmem *pm, uint32_t c)
{
	uint64_t total = (uint64_t)pm->nr_frames + 2, first = (uint64_t)c << PAGE_CHUNK_SHIFT;
	size_t n = total - first < PAGE_CHUNK ? (size_t)(total - first) : PAGE_CHUNK;
	if (!vm_commit(pm->frames + first, n * sizeof(struct page)))
		return false;
	pm->chunk_ready[c] = 1;
	return true;
}

/* Watermarks as mm/page_alloc.c:__setup_per_zone_wmarks() derives them
 * for one zone: min = sqrt(16 * lowmem_kbytes) kB (min_free_kbytes,
 * clamped to [128 kB, 256 MB]), low = min + min/4 (watermark_scale_factor
 * 10 gives a larger gap on big machines; we take max of both), high = low + gap. */
static void set_watermarks(struct physmem *pm)
{
	uint64_t kb = (uint64_t)pm->nr_frames * 4;
	uint64_t min_kb = 1;
	while (min_kb * min_kb < kb * 16)
		min_kb++;
	if (min_kb < 128)
		min_kb = 128;
	if (min_kb > 262144)
		min_kb = 262144;
	uint64_t min = min_kb / 4;
	uint64_t gap = min / 4;
	uint64_t scale = (uint64_t)pm->nr_frames * 10 / 10000;
	if (scale > gap)
		gap = scale;
	pm->wmark_min = min;
	pm->wmark_low = min + gap;
	pm->wmark_high = min + 2 * gap;
}

int physmem_init(struct physmem *pm, uint64_t nr_frames, unsigned nr_nodes)
{
	memset(pm, 0, sizeof(*pm));
	if (nr_frames < 16)
		nr_frames = 16;
	if (nr_frames > 0xfffff000u)
		nr_frames = 0xfffff000u;
	if (nr_nodes < 1)
		nr_nodes = 1;
	if (nr_nodes > MAX_NUMA_NODES)
		nr_nodes = MAX_NUMA_NODES;
	pm->nr_frames = (pfn_t)nr_frames;
	pm->nchunks = (uint32_t)((nr_frames + 2 + PAGE_CHUNK - 1) >> PAGE_CHUNK_SHIFT);
	pm->chunk_ready = vm_calloc(pm->nchunks, 1);
	if (!pm->chunk_ready)
		return -1;
	if (pm->nchunks == 1) {
		/* a machine of one chunk (up to 256 MiB: vmsim check's) takes
		 * its struct pages from the heap, which the next machine of a
		 * run of them takes again without a page fault a page: a
		 * reservation is fresh memory every time (3.5x slower for
		 * 1,000 runs of 100 steps) */
		pm->frames = vm_calloc((size_t)nr_frames + 2, sizeof(struct page));
		if (!pm->frames)
			return -1;
		pm->chunk_ready[0] = 1;
	} else {
		pm->frames = vm_reserve(frames_bytes(pm));
		if (!pm->frames || !chunk_commit(pm, 0))
			return -1;
	}
	/* pfn 1: the shared zero page, never on an LRU, never freed */
	struct page *zp = pfn_page(pm, PFN_ZERO);
	zp->flags = PG_ZERO | PG_INUSE | PG_UPTODATE;
	zp->lru = LRU_NONE;
	zp->refcount = 1;
	pm->nr_free = nr_frames - 1;
	set_watermarks(pm);
	pm->nr_nodes = nr_nodes;
	pm->node_frames = (pfn_t)(nr_frames / nr_nodes);
	for (unsigned n = 0; n < nr_nodes; n++) {
		struct numa_node_mem *nm = &pm->node[n];
		nm->first = (pfn_t)(1 + (uint64_t)n * pm->node_frames);
		nm->end = n + 1 < nr_nodes ? (pfn_t)(1 + (uint64_t)(n + 1) * pm->node_frames)
					   : (pfn_t)(nr_frames + 1);
		nm->next_unused = n ? nm->first : 2; /* node 0 holds the zero page */
		nm->nr_free = nm->end - nm->next_unused;
		nm->wmark_high = pm->wmark_high * (nm->end - nm->first) / nr_frames;
	}
	return 0;
}

void physmem_destroy(struct physmem *pm)
{
	if (pm->nchunks == 1)
		free(pm->frames);
	else if (pm->frames)
		vm_unreserve(pm->frames, frames_bytes(pm));
	free(pm->chunk_ready);
	memset(pm, 0, sizeof(*pm));
}

/* A frame of nm, committing the chunk of its next never-used frame when
 * that is what it has left. */
static pfn_t node_take(struct physmem *pm, struct numa_node_mem *nm)
{
	pfn_t pfn = node_take_ready(pm, nm);
	if (!pfn && nm->next_unused < nm->end &&
	    chunk_commit(pm, nm->next_unused >> PAGE_CHUNK_SHIFT))
		pfn = node_take_ready(pm, nm);
	return pfn;
}

pfn_t physmem_alloc_walk(struct physmem *pm, unsigned nid, bool thisnode)
{
	if (!physmem_avail(pm))
		return PFN_NONE; /* what is left holds page tables */
	pfn_t pfn = PFN_NONE;
	for (unsigned i = 0; i < pm->nr_nodes && !pfn; i++) {
		pfn = node_take(pm, &pm->node[(nid + i) % pm->nr_nodes]);
		if (thisnode)
			break;
	}
	return pfn ? frame_fresh(pm, pfn) : PFN_NONE;
}

