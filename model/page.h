/*
 * page.h - page frames: struct page and the physical memory that holds them.
 *
 *   pfn 0 is never used ("no page"); pfn 1 is the shared zero page.
 *   Frames are handed out from a free list, then from never-used frames;
 *   the struct pages are one array indexed by pfn in address space
 *   reserved for the whole machine and committed 64K entries at a time on
 *   first use (vm_reserve(), vm_commit()), so a 24 GiB machine costs
 *   nothing until its pages are touched, pointers to a struct page stay
 *   valid, and finding a frame's struct page is one multiply and add.  A
 *   machine of one chunk (256 MiB or less) takes the array from the heap.
 *
 * Flags mirror the kernel's page flags that the mlock/LRU code reads
 * (include/linux/page-flags.h).  `refcount` counts every holder: PTE
 * mappings, the page cache, the swap cache and per-CPU batch entries; a
 * page is freed when it reaches 0.
 *
 *
 * Owns: struct page and the frames of simulated physical memory.
 * May call: nothing.
 */
#ifndef VMSIM_PAGE_H
#define VMSIM_PAGE_H

#include <stdbool.h>
#include <stdint.h>

typedef uint32_t pfn_t;
#define PFN_NONE 0u
#define PFN_ZERO 1u

enum page_flag {
	PG_LRU = 1u << 0,
	PG_ACTIVE = 1u << 1,
	PG_REFERENCED = 1u << 2,
	PG_UNEVICTABLE = 1u << 3,
	PG_MLOCKED = 1u << 4,
	PG_DIRTY = 1u << 5,
	PG_ANON = 1u << 6,
	PG_SWAPBACKED = 1u << 7,
	PG_SWAPCACHE = 1u << 8,
	PG_WRITEBACK = 1u << 9,
	PG_RECLAIM = 1u << 10,
	PG_WORKINGSET = 1u << 11,
	PG_UPTODATE = 1u << 12,
	PG_ZERO = 1u << 13,   /* the shared zero page */
	PG_INUSE = 1u << 14,  /* allocated (not on the free list) */
	PG_NOBUFS = 1u << 15, /* model-only: the page's block of a large ext4 folio
			       * was invalidated by a partial truncate/punch
			       * (block_invalidate_folio()): no dirty buffer left */
};
_Static_assert(PG_NOBUFS < 1u << 16, "the flags fit the 16 bits of page.flags");

enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS,
	LRU_NONE = 7 /* the 3 bits of page.lru all set */
};

struct page {
	/* one word: the flags and the small fields, as bitfields (the
	 * kernel keeps the LRU list and the folio order in its flags word
	 * too); the counts of per-CPU batch entries are not kept here but
	 * counted in the two batches when asked (page_batch_refs(), lru.h) */
	uint32_t flags : 16;       /* enum page_flag */
	uint32_t lru : 3;          /* list the page is on, LRU_NONE if none */
	uint32_t folio_order : 4;  /* page-cache folio of 2^order pages (aligned by index) */
	uint32_t index_hi : 8;     /* bits 32..39 of the index (page_index()) */
	uint32_t charged : 1;      /* charged to the memcg of the trace (memcg_charge()):
				    * every page the trace's processes allocate, not
				    * the page cache the trace inherits */
	union {
		pfn_t prev;    /* LRU list link (with next); free-list link when free */
		/* 6.x: valid while PG_lru and PG_unevictable.  The unevictable
		 * list is not linked there (lruvec_add_folio() @ v6.1 links no
		 * unevictable folio), and struct folio keeps the count in
		 * lru.prev's place: so does this */
		uint32_t mlock_count;
	};
	pfn_t next;
	uint32_t mapcount;     /* PTEs that map the page */
	uint32_t refcount;
	uint32_t owner;        /* anon_vma id (PG_ANON) or file id */
	uint32_t index_lo;     /* page offset in the file / linear anon index:
				* 40 bits, more than the 36 of any key the page
				* cache or a page table holds */
};                             /* 28 bytes: a swap cache, when modelled, keeps its
				* slots beside it (the field was never set) */

_Static_assert(sizeof(struct page) == 28, "a page frame is 28 bytes (docs/performance.md)");

static inline uint64_t page_index(const struct page *p)
{
	return (uint64_t)p->index_hi << 32 | p->index_lo;
}
static inline void page_set_index(struct page *p, uint64_t index)
{
	p->index_lo = (uint32_t)index;
	p->index_hi = (uint8_t)(index >> 32) & 0xff;
}

#define PAGE_CHUNK_SHIFT 16
#define PAGE_CHUNK (1u << PAGE_CHUNK_SHIFT)
#define MAX_NUMA_NODES 64

/* One NUMA node's share of the frames: pfns [first, end), a free list of
 * its own, its free count and its high watermark (the machine's, scaled
 * by the node's share as __setup_per_zone_wmarks() splits min_free_kbytes
 * over the zones by their managed pages). */
struct numa_node_mem {
	pfn_t first, end;
	pfn_t next_unused;
	pfn_t free_head;
	uint64_t nr_free;
	uint64_t wmark_high;
};

struct physmem {
	struct page *frames;   /* pfn 0 .. nr_frames + 1, reserved */
	uint8_t *chunk_ready;  /* per PAGE_CHUNK frames: committed */
	uint32_t nchunks;      /* one: frames from the heap, not reserved */
	pfn_t nr_frames;       /* frames in the machine (pfn 1 .. nr_frames) */
	uint64_t nr_free;      /* frames not holding a page; nr_pt of them hold page tables */
	uint64_t nr_pt;        /* PTE tables of every mm (one frame per 512 PTEs) */
	uint64_t wmark_min, wmark_low, wmark_high;
	unsigned nr_nodes;     /* 1 unless the trace says `# numa-nodes: N` */
	pfn_t node_frames;     /* frames per node (the last one takes the rest) */
	struct numa_node_mem node[MAX_NUMA_NODES];
};

/* Frames free for any use: not a page, not a page table. */
static inline uint64_t physmem_avail(const struct physmem *pm)
{
	return pm->nr_free > pm->nr_pt ? pm->nr_free - pm->nr_pt : 0;
}

/* nr_nodes (1..MAX_NUMA_NODES) split the frames into equal ranges, node 0
 * lowest, as a machine's nodes own ranges of physical memory. */
int physmem_init(struct physmem *pm, uint64_t nr_frames, unsigned nr_nodes);
void physmem_destroy(struct physmem *pm);

static inline struct page *pfn_page(const struct physmem *pm, pfn_t pfn)
{
	return &pm->frames[pfn];
}

/* The node whose range holds pfn (page_to_nid()). */
static inline unsigned pfn_to_nid(const struct physmem *pm, pfn_t pfn)
{
	if (pm->nr_nodes == 1)
		return 0;
	unsigned n = (unsigned)((pfn - 1) / pm->node_frames);
	return n < pm->nr_nodes ? n : pm->nr_nodes - 1;
}

/* A frame nm has ready without committing a chunk: the head of its free
 * list, else its next never-used frame if that frame's chunk is
 * committed; PFN_NONE otherwise, nm untouched. */
static inline pfn_t node_take_ready(struct physmem *pm, struct numa_node_mem *nm)
{
	pfn_t pfn = nm->free_head;
	if (pfn) {
		nm->free_head = pm->frames[pfn].next;
	} else {
		pfn = nm->next_unused;
		if (pfn >= nm->end || !pm->chunk_ready[pfn >> PAGE_CHUNK_SHIFT])
			return PFN_NONE;
		nm->next_unused++;
	}
	nm->nr_free--;
	return pfn;
}

/* Count a taken frame out of the machine's free frames and give it a
 * fresh struct page, stored whole (no memset() call a fault). */
static inline pfn_t frame_fresh(struct physmem *pm, pfn_t pfn)
{
	pm->nr_free--;
	pm->frames[pfn] = (struct page){ .flags = PG_INUSE, .lru = LRU_NONE };
	return pfn;
}

/* Take a free frame (zeroed struct page, PG_INUSE, refcount 0) from node
 * nid, or - unless thisnode (__GFP_THISNODE) - from the next nodes in
 * turn when nid has none (the zonelist's fallback); PFN_NONE when memory
 * is exhausted or a chunk cannot be allocated. One node with a frame
 * ready is the inline case; the walk commits chunks and tries nodes. */
pfn_t physmem_alloc_walk(struct physmem *pm, unsigned nid, bool thisnode);
static inline pfn_t physmem_alloc_node(struct physmem *pm, unsigned nid, bool thisnode)
{
	pfn_t pfn;
	if (pm->nr_nodes != 1 || !physmem_avail(pm) ||
	    !(pfn = node_take_ready(pm, &pm->node[0])))
		return physmem_alloc_walk(pm, nid, thisnode);
	return frame_fresh(pm, pfn);
}

/* Return a frame to its node's free list. */
static inline void physmem_free(struct physmem *pm, pfn_t pfn)
{
	struct numa_node_mem *nm = &pm->node[pfn_to_nid(pm, pfn)];
	pm->frames[pfn] = (struct page){ .lru = LRU_NONE, .next = nm->free_head };
	nm->free_head = pfn;
	nm->nr_free++;
	pm->nr_free++;
}

static inline bool page_is_file_lru(const struct page *p)
{
	return !(p->flags & PG_SWAPBACKED);
}

#endif
