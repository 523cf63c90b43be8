/*
 * radix.h - a sparse map from a 36-bit key to a non-zero 64-bit value.
 *
 *   root -> [512] -> [512] -> [512] -> leaf[512 values]
 *
 * Four levels of 512, like x86-64's page tables: the key is a virtual page
 * number (page tables) or a page index in a file (page cache).  Lookup is
 * four array reads; a one-entry leaf cache makes runs of neighbouring keys
 * one compare, and the leaves of keys prefetched ahead (radix_prefetch())
 * are found again in one.  Nodes are allocated on first store and freed when empty.
 *
 * A uniform leaf (radix_fill_leaf()) holds one value in all 512 slots and
 * is shared by every node slot filled with that value: a read touch of
 * terabytes of zero-page PTEs costs a pointer per 2 MiB, not 4 KiB.  It is
 * read like any leaf; the first store into it (radix_set(), radix_clear(),
 * radix_peek()) gives that slot a private copy first.  Only private leaves
 * enter the leaf cache and the prefetch hints, whose slots may be written.
 *
 * Owns: the sparse 4-level map used for page tables and page caches.
 * May call: nothing.
 */
#ifndef VMSIM_RADIX_H
#define VMSIM_RADIX_H

#include <stdbool.h>
#include <stdint.h>

#define RADIX_BITS 9
#define RADIX_FAN (1u << RADIX_BITS)
#define RADIX_KEY_BITS 36
#define RADIX_KEY_MAX ((1ULL << RADIX_KEY_BITS) - 1)

#define RADIX_OCC_WORDS (RADIX_FAN / 64)

/* occ: a bit per slot, set while it holds a value or a child, so that an
 * ordered walk (radix_next()) skips empty slots 64 at a time.  A value is
 * made non-zero or zero by radix_set()/radix_clear() only; a slot written
 * through radix_peek() stays non-zero. */
struct radix_leaf {
	uint64_t v[RADIX_FAN];
	uint64_t occ[RADIX_OCC_WORDS];
	uint32_t used;
	uint32_t sharers;         /* 0: a private leaf; n: a uniform leaf in n slots */
};

struct radix_node {
	void *slot[RADIX_FAN];
	uint64_t occ[RADIX_OCC_WORDS];
	uint32_t used;
};

/* The leaves radix_prefetch() found, by key >> 9 modulo RADIX_HINTS: a
 * lookup of a key prefetched shortly before finds its leaf in one load
 * instead of walking the tree again.  An entry goes when its leaf does. */
#define RADIX_HINTS 256
struct radix_hint {
	uint64_t base;            /* key >> 9, UINT64_MAX when empty */
	struct radix_leaf *leaf;
};

/* Empty leaves and nodes kept for the radixes that share the pool (a
 * machine's page tables, which fork and exit make and free by the
 * thousand): a node or leaf is freed only when empty, so a store takes one
 * back without clearing 4 KiB again.  Off (every block to free()) under
 * valgrind and ASan, which then see each block come and go. */
struct radix_pool {
	void *leaves, *nodes;     /* lists linked through the first word */
	bool off;
};
void radix_pool_init(struct radix_pool *p);
void radix_pool_release(struct radix_pool *p); /* free what it holds */

struct radix {
	struct radix_node *root;
	uint64_t count;           /* non-zero values stored */
	uint64_t cache_base;      /* key >> 9 of cache_leaf */
	struct radix_leaf *cache_leaf;
	struct radix_hint *hint;  /* RADIX_HINTS entries, from the first radix_prefetch() */
	uint64_t nleaves;
	uint64_t *leaf_charge;    /* if set, counts the leaves too (page tables:
				   * the frames PTE tables take, struct physmem) */
	struct radix_pool *pool;  /* if set, where empty leaves and nodes go and come from */
	struct radix_leaf *uniform; /* the last uniform leaf made, for the next fill of its value */
};

void radix_init(struct radix *r);
void radix_destroy(struct radix *r);

/* radix_get() and radix_peek() past the one-entry leaf cache */
uint64_t radix_get_walk(struct radix *r, uint64_t key);
uint64_t *radix_peek_walk(struct radix *r, uint64_t key);
/* The hits below are always inline: a caller as large as handle_fault()
 * had the compiler make them calls (about 25 instructions a fault). */
/* Value at key, 0 when absent.  Inline, the leaf cache's hit: a key past
 * RADIX_KEY_MAX never matches cache_base (UINT64_MAX when empty). */
static inline __attribute__((always_inline)) uint64_t radix_get(struct radix *r, uint64_t key)
{
	if (key >> RADIX_BITS == r->cache_base)
		return r->cache_leaf->v[key & (RADIX_FAN - 1)];
	return radix_get_walk(r, key);
}
/* Pointer to the slot for key, or NULL if its leaf does not exist; what
 * is stored through it must be non-zero (a zero goes by radix_clear()).
 * A uniform leaf is made private first (4 KiB): to read, radix_get(). */
static inline uint64_t *radix_peek(struct radix *r, uint64_t key)
{
	if (key >> RADIX_BITS == r->cache_base)
		return &r->cache_leaf->v[key & (RADIX_FAN - 1)];
	return radix_peek_walk(r, key);
}
/* A hint: key will be looked up soon.  Its slot is prefetched, if its
 * leaf exists, and the leaf remembered for that lookup; nothing else
 * changes (the one-entry leaf cache stays), nothing fails. */
void radix_prefetch(struct radix *r, uint64_t key);
/* radix_has_leaf(), radix_set() and radix_clear() past their inline hit */
bool radix_has_leaf_walk(struct radix *r, uint64_t key);
int radix_set_walk(struct radix *r, uint64_t key, uint64_t v);
void radix_clear_walk(struct radix *r, uint64_t key);
/* Whether the leaf that would hold key exists (a store there allocates nothing). */
static inline __attribute__((always_inline)) bool radix_has_leaf(struct radix *r, uint64_t key)
{
	return key >> RADIX_BITS == r->cache_base || radix_has_leaf_walk(r, key);
}
/* Store v (non-zero) at key; returns -1 on allocation failure.  Inline,
 * a store into the cached leaf when it is private (a page fault's PTE
 * beside the last one). */
static inline __attribute__((always_inline)) int radix_set(struct radix *r, uint64_t key, uint64_t v)
{
	if (key >> RADIX_BITS == r->cache_base && v && !r->cache_leaf->sharers) {
		struct radix_leaf *leaf = r->cache_leaf;
		unsigned i = (unsigned)(key & (RADIX_FAN - 1));
		if (!leaf->v[i]) {
			leaf->occ[i / 64] |= 1ULL << (i % 64);
			leaf->used++;
			r->count++;
		}
		leaf->v[i] = v;
		return 0;
	}
	return radix_set_walk(r, key, v);
}
/* Remove key (no-op if absent).  Inline, a value of the cached private
 * leaf that leaves it not empty. */
static inline __attribute__((always_inline)) void radix_clear(struct radix *r, uint64_t key)
{
	if (key >> RADIX_BITS == r->cache_base) {
		struct radix_leaf *leaf = r->cache_leaf;
		unsigned i = (unsigned)(key & (RADIX_FAN - 1));
		if (!leaf->v[i])
			return;
		if (!leaf->sharers && leaf->used > 1) {
			leaf->v[i] = 0;
			leaf->occ[i / 64] &= ~(1ULL << (i % 64));
			leaf->used--;
			r->count--;
			return;
		}
	}
	radix_clear_walk(r, key);
}
/* Make the leaf that would hold key, which must not exist, a uniform leaf
 * of v (non-zero) in all its RADIX_FAN slots: 0, or -1 if it exists or an
 * allocation failed.  It counts as one leaf (leaf_charge) like any other. */
int radix_fill_leaf(struct radix *r, uint64_t key, uint64_t v);
/* Whether the leaf holding key is a uniform one, and then its value */
bool radix_leaf_uniform(struct radix *r, uint64_t key, uint64_t *v);
/* Remove every value of the leaf holding key, and the leaf (no-op if none) */
void radix_drop_leaf(struct radix *r, uint64_t key);
/* radix_next() past its inline hit */
bool radix_next_walk(struct radix *r, uint64_t *key, uint64_t last);
/* First key >= *key and <= last holding a value; returns false if none.
 * Inline, the hit of an ordered walk: the next value in the same 64 slots
 * of the cached leaf. */
static inline bool radix_next(struct radix *r, uint64_t *key, uint64_t last)
{
	uint64_t k = *key;
	if (k >> RADIX_BITS == r->cache_base && k <= last) {
		const struct radix_leaf *leaf = r->cache_leaf;
		unsigned i = (unsigned)(k & (RADIX_FAN - 1));
		uint64_t w = leaf->occ[i / 64] >> (i % 64);
		if (w) {
			uint64_t n = k + (unsigned)__builtin_ctzll(w); /* in the same word: the same leaf */
			if (n <= last && leaf->v[n & (RADIX_FAN - 1)]) {
				*key = n;
				return true;
			}
		}
	}
	return radix_next_walk(r, key, last);
}
/* Remove the values from *key to last that share one word of occupancy
 * bits (at most 64 keys of one leaf) with the first key there holding one:
 * their keys into keys[], their values into vals[], in order; *key moves
 * past the last taken, an emptied leaf goes.  Returns how many (0: none
 * up to last).  A uniform leaf gives one value a call, as radix_clear()
 * makes it private.  What a page table's zap takes, a run at a time. */
unsigned radix_take_run(struct radix *r, uint64_t *key, uint64_t last, uint64_t keys[64],
			uint64_t vals[64]);
/* Whether every node's and leaf's occ bits and used count agree with its
 * slots (no empty node or leaf is kept) and count with the values: false
 * with *where the first key of the first that disagrees.  A full walk, for
 * the invariant checker and tests. */
bool radix_verify(const struct radix *r, uint64_t *where);

#endif
