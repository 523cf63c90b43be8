/*
 * vma.h - virtual memory areas and the per-mm tree that orders them.
 *
 * Each mm keeps its VMAs in an AVL tree keyed by vm_start (O(log n) lookup,
 * insert and erase) and threads them on a sorted doubly linked list for
 * ordered walks, as the kernel did before the maple tree.  VMAs appended
 * in address order (fork) wait on the list and go into the tree together,
 * as one balanced tree when there was none, when it is next needed.  A one-entry
 * cache of the last VMA found makes runs of accesses to one VMA O(1).
 * A flat index - the VMAs in address order with a copy of each end, built
 * once lookups outnumber changes - makes a lookup a search over one array
 * in Eytzinger order (the levels a search visits are adjacent, and four
 * levels ahead are prefetched) instead of a walk down the tree, so its cost
 * hardly grows with the VMA count; a boundary moved in place (a merge, stack growth) cannot
 * mislead it: every answer is checked against the live VMAs and the tree
 * answers when the check fails.
 *
 * This file knows geometry only; the kernel rules for splitting and
 * merging (what may merge, when a split is refused) live in vma_ops.c.
 *
 * Owns: struct vma and the per-mm tree that orders them.
 * May call: vmflags.
 */
#ifndef VMSIM_VMA_H
#define VMSIM_VMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vmflags.h"

struct mm;
struct file;
struct anon_vma;
struct avc;

struct vma {
	uint64_t start, end;     /* [start, end), page aligned */
	vm_flags_t flags;
	uint64_t pgoff;          /* page offset of start in the file (or linear anon index) */
	struct file *file;       /* NULL for anonymous memory (shared anon has a shmem file) */
	uint32_t ofd;            /* the open file description mapped (vma->vm_file): two
				  * opens of one file never merge; 0 for anonymous */
	struct anon_vma *anon_vma;
	struct avc *avc_list;    /* anon_vma chains this VMA is on */
	unsigned navc;
	struct mm *mm;
	uint32_t serial;         /* creation number, stable across splits of the same origin */
	/* --- private: tree and lists --- */
	struct vma *left, *right, *parent;
	int height;
	uint32_t size;                     /* VMAs in the subtree, this one included */
	struct vma *prev, *next;           /* address order within the mm */
	struct vma *file_prev, *file_next; /* the file's i_mmap list */
};

struct vma_tree {
	struct vma *root;
	struct vma *first, *last;
	struct vma *cache;
	struct vma *unplaced;     /* the first of the VMAs appended (vma_tree_append())
				   * and not yet in the tree: they and all after them
				   * are on the list only, until an operation needs the tree */
	uint64_t count;
	/* the flat index: flat[i] in address order, flat_end[i] its end when
	 * built; stale after an insert or erase until rebuilt */
	struct vma **flat;
	uint64_t *flat_end;
	uint64_t *ez_end;         /* flat_end in Eytzinger (BFS) order, 1-based */
	uint32_t *ez_pos;         /* the flat index of each ez_end entry */
	size_t flat_n, flat_cap;
	bool flat_stale;
	uint32_t since_change;    /* lookups since the last insert/erase */
};

void vma_tree_init(struct vma_tree *t);
/* Free what the tree itself holds (the flat index); the VMAs are the caller's. */
void vma_tree_release(struct vma_tree *t);
/* Insert v (which must not overlap any VMA already in t). */
void vma_tree_insert(struct vma_tree *t, struct vma *v);
void vma_tree_erase(struct vma_tree *t, struct vma *v);
/* Insert v after every VMA in t (v->start >= the last one's end): on the
 * list at once, into the tree when a lookup, insert or erase next needs it
 * - all at once as a balanced tree when t was empty (fork copies a whole
 * mm this way, without a rebalance). */
void vma_tree_append(struct vma_tree *t, struct vma *v);
/* Erase the first VMA without rebalancing, for a tree whose VMAs all go
 * this way (exit_mmap()): lookups stay right, the heights are not kept. */
void vma_tree_erase_first(struct vma_tree *t);
/* The first VMA with end > addr (kernel find_vma()), or NULL. */
struct vma *vma_find(struct vma_tree *t, uint64_t addr);
/* A hint: addr will be looked up soon (its VMA is prefetched). */
void vma_prefetch(const struct vma_tree *t, uint64_t addr);
/* The VMA containing addr (kernel vma_lookup()), or NULL. */
static inline struct vma *vma_lookup(struct vma_tree *t, uint64_t addr)
{
	struct vma *c = t->cache;
	if (c && c->start <= addr && addr < c->end)
		return c;
	struct vma *v = vma_find(t, addr);
	return (v && v->start <= addr) ? v : NULL;
}
/* The k-th VMA in address order (0: the first), or NULL: O(log n) by the
 * subtree sizes. */
struct vma *vma_at(struct vma_tree *t, uint64_t k);
/* Number of VMAs that intersect [start, end). */
uint64_t vma_count_range(struct vma_tree *t, uint64_t start, uint64_t end);

#endif
