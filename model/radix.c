/* radix.c - see radix.h. */
#include "alloc.h"
#include "radix.h"

#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RADIX_POOL_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RADIX_POOL_OFF 1
#endif
#endif
#ifndef RADIX_POOL_OFF
#define RADIX_POOL_OFF 0
#endif

void radix_pool_init(struct radix_pool *p)
{
	memset(p, 0, sizeof(*p));
	p->off = RADIX_POOL_OFF || RUNNING_ON_VALGRIND;
}

void radix_pool_release(struct radix_pool *p)
{
	void **lists[2] = { &p->leaves, &p->nodes };
	for (int i = 0; i < 2; i++)
		while (*lists[i]) {
			void *b = *lists[i];
			*lists[i] = *(void **)b;
			free(b);
		}
}

/* A zeroed leaf (leaf) or node: the pool's, else a new one */
static void *block_take(struct radix *r, bool leaf)
{
	void **head = r->pool ? (leaf ? &r->pool->leaves : &r->pool->nodes) : NULL;
	if (head && *head) {
		void *b = *head;
		*head = *(void **)b;
		*(void **)b = NULL; /* the link: the rest is zero already */
		return b;
	}
	return vm_calloc(1, leaf ? sizeof(struct radix_leaf) : sizeof(struct radix_node));
}

/* An empty (all zero) leaf or node given back */
static void block_give(struct radix *r, void *b, bool leaf)
{
	if (!r->pool || r->pool->off) {
		free(b);
		return;
	}
	void **head = leaf ? &r->pool->leaves : &r->pool->nodes;
	*(void **)b = *head;
	*head = b;
}

void radix_init(struct radix *r)
{
	memset(r, 0, sizeof(*r));
	r->cache_base = UINT64_MAX;
}

/* One slot lets go of a leaf: a private one, or a uniform one's share
 * (the leaf goes with its last); empty nodes and leaves go back zeroed. */
static void leaf_release(struct radix *r, struct radix_leaf *leaf)
{
	if (leaf->sharers && --leaf->sharers)
		return;
	if (r->uniform == leaf)
		r->uniform = NULL;
	memset(leaf, 0, sizeof(*leaf));
	block_give(r, leaf, true);
}

static void free_node(void *n, int level)
{
	if (!n)
		return;
	if (level == 3) {
		struct radix_leaf *leaf = n;
		if (leaf->sharers && --leaf->sharers)
			return;
	} else {
		struct radix_node *node = n;
		/* stop at the last child: a small tree has few in 512 slots */
		for (unsigned i = 0, left = node->used; left && i < RADIX_FAN; i++)
			if (node->slot[i]) {
				free_node(node->slot[i], level + 1);
				left--;
			}
	}
	free(n);
}

void radix_destroy(struct radix *r)
{
	free_node(r->root, 0);
	free(r->hint);
	if (r->leaf_charge)
		*r->leaf_charge -= r->nleaves;
	uint64_t *charge = r->leaf_charge;
	struct radix_pool *pool = r->pool;
	radix_init(r);
	r->leaf_charge = charge;
	r->pool = pool;
}

static inline unsigned idx(uint64_t key, int level)
{
	/* level 0 = top (bits 27..35), level 3 = leaf (bits 0..8) */
	return (unsigned)(key >> (RADIX_BITS * (3 - level))) & (RADIX_FAN - 1);
}

static inline void occ_set(uint64_t *occ, unsigned i) { occ[i / 64] |= 1ULL << (i % 64); }
static inline void occ_clear(uint64_t *occ, unsigned i) { occ[i / 64] &= ~(1ULL << (i % 64)); }

/* The first slot in [from, to) whose occ bit is set, or RADIX_FAN */
static inline unsigned occ_next(const uint64_t *occ, unsigned from, unsigned to)
{
	if (from >= to)
		return RADIX_FAN;
	unsigned w = from / 64, wend = (to + 63) / 64;
	uint64_t x = occ[w] & (~0ULL << (from % 64));
	while (!x) {
		if (++w >= wend)
			return RADIX_FAN;
		x = occ[w];
	}
	unsigned i = w * 64 + (unsigned)__builtin_ctzll(x);
	return i < to ? i : RADIX_FAN;
}

/* The leaf holding key's slot, or NULL; a private one becomes the cached leaf */
static struct radix_leaf *find_leaf(struct radix *r, uint64_t key)
{
	uint64_t base = key >> RADIX_BITS;
	if (base == r->cache_base)
		return r->cache_leaf;
	if (r->hint && r->hint[base % RADIX_HINTS].base == base) {
		r->cache_base = base;
		return r->cache_leaf = r->hint[base % RADIX_HINTS].leaf;
	}
	struct radix_node *n = r->root;
	for (int level = 0; n && level < 2; level++)
		n = n->slot[idx(key, level)];
	if (!n)
		return NULL;
	struct radix_leaf *leaf = n->slot[idx(key, 2)];
	if (leaf && !leaf->sharers) {
		r->cache_base = base;
		r->cache_leaf = leaf;
	}
	return leaf;
}

/* The node above the leaf of key, which exists */
static struct radix_node *leaf_parent(struct radix *r, uint64_t key)
{
	struct radix_node *n = r->root;
	for (int level = 0; level < 2; level++)
		n = n->slot[idx(key, level)];
	return n;
}

/* find_leaf() for a store: a uniform leaf is first copied into a private
 * one for key's slot (NULL, vm_host_oom set, if that allocation fails) */
static struct radix_leaf *find_leaf_to_write(struct radix *r, uint64_t key)
{
	struct radix_leaf *shared = find_leaf(r, key);
	if (!shared || !shared->sharers)
		return shared;
	struct radix_leaf *leaf = block_take(r, true);
	if (!leaf)
		return NULL;
	memcpy(leaf->v, shared->v, sizeof(leaf->v));
	memcpy(leaf->occ, shared->occ, sizeof(leaf->occ));
	leaf->used = shared->used;
	leaf_parent(r, key)->slot[idx(key, 2)] = leaf;
	leaf_release(r, shared);
	r->cache_base = key >> RADIX_BITS;
	r->cache_leaf = leaf;
	return leaf;
}

uint64_t radix_get_walk(struct radix *r, uint64_t key)
{
	if (key > RADIX_KEY_MAX)
		return 0;
	struct radix_leaf *leaf = find_leaf(r, key);
	return leaf ? leaf->v[key & (RADIX_FAN - 1)] : 0;
}

uint64_t *radix_peek_walk(struct radix *r, uint64_t key)
{
	if (key > RADIX_KEY_MAX)
		return NULL;
	struct radix_leaf *leaf = find_leaf_to_write(r, key);
	return leaf ? &leaf->v[key & (RADIX_FAN - 1)] : NULL;
}

void radix_prefetch(struct radix *r, uint64_t key)
{
	if (key > RADIX_KEY_MAX)
		return;
	uint64_t base = key >> RADIX_BITS;
	struct radix_leaf *leaf = NULL;
	if (base == r->cache_base) {
		leaf = r->cache_leaf;
	} else {
		if (!r->hint && (r->hint = vm_malloc(RADIX_HINTS * sizeof(*r->hint))))
			for (unsigned i = 0; i < RADIX_HINTS; i++)
				r->hint[i] = (struct radix_hint){ UINT64_MAX, NULL };
		struct radix_hint *h = r->hint ? &r->hint[base % RADIX_HINTS] : NULL;
		if (h && h->base == base) {
			leaf = h->leaf;
		} else {
			const struct radix_node *n = r->root;
			for (int level = 0; n && level < 2; level++)
				n = n->slot[idx(key, level)];
			if (n)
				leaf = n->slot[idx(key, 2)];
			if (leaf && h && !leaf->sharers)
				*h = (struct radix_hint){ base, leaf };
		}
	}
	if (leaf)
		__builtin_prefetch(&leaf->v[key & (RADIX_FAN - 1)], 1);
}

bool radix_has_leaf_walk(struct radix *r, uint64_t key)
{
	return key <= RADIX_KEY_MAX && find_leaf(r, key) != NULL;
}

int radix_set_walk(struct radix *r, uint64_t key, uint64_t v)
{
	if (key > RADIX_KEY_MAX)
		return -1;
	if (!v) {
		radix_clear(r, key);
		return 0;
	}
	struct radix_leaf *leaf = find_leaf(r, key);
	if (leaf && leaf->sharers && !(leaf = find_leaf_to_write(r, key)))
		return -1;
	if (!leaf) {
		if (!r->root && !(r->root = block_take(r, false)))
			return -1;
		struct radix_node *n = r->root;
		for (int level = 0; level < 2; level++) {
			struct radix_node **child = (struct radix_node **)&n->slot[idx(key, level)];
			if (!*child) {
				if (!(*child = block_take(r, false)))
					return -1;
				occ_set(n->occ, idx(key, level));
				n->used++;
			}
			n = *child;
		}
		if (!(leaf = block_take(r, true)))
			return -1;
		n->slot[idx(key, 2)] = leaf;
		occ_set(n->occ, idx(key, 2));
		n->used++;
		r->nleaves++;
		if (r->leaf_charge)
			(*r->leaf_charge)++;
		r->cache_base = key >> RADIX_BITS;
		r->cache_leaf = leaf;
	}
	uint64_t *slot = &leaf->v[key & (RADIX_FAN - 1)];
	if (!*slot) {
		occ_set(leaf->occ, (unsigned)(key & (RADIX_FAN - 1)));
		leaf->used++;
		r->count++;
	}
	*slot = v;
	return 0;
}

/* Take the leaf of key, whose values are gone from count already, out of
 * the tree, and any node it leaves empty */
static void leaf_remove(struct radix *r, uint64_t key, struct radix_leaf *leaf)
{
	struct radix_node *path[3]; /* the nodes above the leaf, which exist */
	path[0] = r->root;
	for (int level = 1; level < 3; level++)
		path[level] = path[level - 1]->slot[idx(key, level - 1)];
	if (r->cache_leaf == leaf) {
		r->cache_leaf = NULL;
		r->cache_base = UINT64_MAX;
	}
	if (r->hint && r->hint[(key >> RADIX_BITS) % RADIX_HINTS].leaf == leaf)
		r->hint[(key >> RADIX_BITS) % RADIX_HINTS] = (struct radix_hint){ UINT64_MAX, NULL };
	leaf_release(r, leaf);
	r->nleaves--;
	if (r->leaf_charge)
		(*r->leaf_charge)--;
	path[2]->slot[idx(key, 2)] = NULL;
	occ_clear(path[2]->occ, idx(key, 2));
	for (int level = 2; level >= 0; level--) {
		if (--path[level]->used)
			break;
		if (level == 0) {
			block_give(r, r->root, false);
			r->root = NULL;
		} else {
			path[level - 1]->slot[idx(key, level - 1)] = NULL;
			occ_clear(path[level - 1]->occ, idx(key, level - 1));
			block_give(r, path[level], false);
		}
	}
}

void radix_clear_walk(struct radix *r, uint64_t key)
{
	if (key > RADIX_KEY_MAX || !r->root)
		return;
	struct radix_leaf *leaf = find_leaf(r, key); /* the cached leaf: no descent */
	if (!leaf || !leaf->v[key & (RADIX_FAN - 1)])
		return;
	if (leaf->sharers && !(leaf = find_leaf_to_write(r, key)))
		return; /* vm_host_oom is set */
	leaf->v[key & (RADIX_FAN - 1)] = 0;
	occ_clear(leaf->occ, (unsigned)(key & (RADIX_FAN - 1)));
	leaf->used--;
	r->count--;
	if (!leaf->used) /* free the empty leaf and any parents it leaves empty */
		leaf_remove(r, key, leaf);
}

unsigned radix_take_run(struct radix *r, uint64_t *key, uint64_t last, uint64_t keys[64],
			uint64_t vals[64])
{
	uint64_t k = *key;
	if (k > last || !radix_next(r, &k, last))
		return 0;
	struct radix_leaf *leaf = find_leaf(r, k);
	if (leaf->sharers) {
		keys[0] = k;
		vals[0] = leaf->v[k & (RADIX_FAN - 1)];
		radix_clear_walk(r, k);
		*key = k + 1;
		return 1;
	}
	unsigned i = (unsigned)(k & (RADIX_FAN - 1)), word = i / 64;
	uint64_t w = leaf->occ[word] >> (i % 64) << (i % 64), base = k - i + word * 64;
	if (last - base < 63)
		w &= (2ULL << (last - base)) - 1; /* bits past last stay */
	unsigned n = 0;
	for (uint64_t bits = w; bits; bits &= bits - 1) {
		unsigned b = (unsigned)__builtin_ctzll(bits);
		keys[n] = base + b;
		vals[n] = leaf->v[word * 64 + b];
		leaf->v[word * 64 + b] = 0;
		n++;
	}
	leaf->occ[word] &= ~w;
	leaf->used -= n;
	r->count -= n;
	*key = keys[n - 1] + 1;
	if (!leaf->used)
		leaf_remove(r, k, leaf);
	return n;
}

int radix_fill_leaf(struct radix *r, uint64_t key, uint64_t v)
{
	if (key > RADIX_KEY_MAX || !v || find_leaf(r, key))
		return -1;
	struct radix_leaf *leaf = r->uniform;
	if (!leaf || leaf->v[0] != v) {
		if (!(leaf = block_take(r, true)))
			return -1;
		for (unsigned i = 0; i < RADIX_FAN; i++)
			leaf->v[i] = v;
		memset(leaf->occ, 0xff, sizeof(leaf->occ));
		leaf->used = RADIX_FAN;
	}
	/* the nodes above: radix_set() makes them on its way to a new leaf */
	if (!r->root && !(r->root = block_take(r, false)))
		goto fail;
	struct radix_node *n = r->root;
	for (int level = 0; level < 2; level++) {
		struct radix_node **child = (struct radix_node **)&n->slot[idx(key, level)];
		if (!*child) {
			if (!(*child = block_take(r, false)))
				goto fail;
			occ_set(n->occ, idx(key, level));
			n->used++;
		}
		n = *child;
	}
	n->slot[idx(key, 2)] = leaf;
	occ_set(n->occ, idx(key, 2));
	n->used++;
	leaf->sharers++;
	r->uniform = leaf;
	r->nleaves++;
	if (r->leaf_charge)
		(*r->leaf_charge)++;
	r->count += RADIX_FAN;
	return 0;
fail:
	/* nodes made on the way stay, empty below: radix_verify() would see
	 * them, but vm_host_oom ends the run first */
	if (!leaf->sharers) {
		memset(leaf, 0, sizeof(*leaf));
		block_give(r, leaf, true);
	}
	return -1;
}

bool radix_leaf_uniform(struct radix *r, uint64_t key, uint64_t *v)
{
	struct radix_leaf *leaf = key <= RADIX_KEY_MAX ? find_leaf(r, key) : NULL;
	if (!leaf || !leaf->sharers)
		return false;
	*v = leaf->v[0];
	return true;
}

void radix_drop_leaf(struct radix *r, uint64_t key)
{
	struct radix_leaf *leaf = key <= RADIX_KEY_MAX && r->root ? find_leaf(r, key) : NULL;
	if (!leaf)
		return;
	r->count -= leaf->used;
	leaf_remove(r, key, leaf);
}

bool radix_next_walk(struct radix *r, uint64_t *key, uint64_t last)
{
	uint64_t k = *key;
	if (last > RADIX_KEY_MAX)
		last = RADIX_KEY_MAX;
	while (k <= last) {
		struct radix_leaf *leaf = NULL;
		if ((k >> RADIX_BITS) == r->cache_base) {
			leaf = r->cache_leaf; /* a walk in order: no descent */
		} else {
			/* descend; a missing child sends k on to the next child of
			 * the same node (by its occ bits, up to last's slot when the
			 * node's range holds last), an exhausted node to the next
			 * range of its parent (from the root again: once per node
			 * passed) */
			struct radix_node *n = r->root;
			if (!n)
				return false;
			for (int level = 0;; level++) {
				unsigned i = idx(k, level);
				void *child = n->slot[i];
				if (!child) {
					unsigned shift = RADIX_BITS * (3 - level);
					uint64_t above = k >> shift >> RADIX_BITS; /* the node's own range */
					bool holds_last = (last >> shift >> RADIX_BITS) == above;
					i = occ_next(n->occ, i + 1, holds_last ? idx(last, level) + 1 : RADIX_FAN);
					if (i == RADIX_FAN) {
						if (holds_last || level == 0)
							return false;
						k = (above + 1) << RADIX_BITS << shift;
						break;
					}
					k = ((above << RADIX_BITS) | i) << shift;
					child = n->slot[i];
				}
				if (level == 2) {
					leaf = child;
					break;
				}
				n = child;
			}
			if (!leaf)
				continue; /* k moved past an exhausted node */
			if (!leaf->sharers) {
				r->cache_base = k >> RADIX_BITS;
				r->cache_leaf = leaf;
			}
		}
		bool holds_last = (last >> RADIX_BITS) == (k >> RADIX_BITS);
		unsigned to = holds_last ? (unsigned)(last & (RADIX_FAN - 1)) + 1 : RADIX_FAN;
		for (unsigned i = occ_next(leaf->occ, (unsigned)(k & (RADIX_FAN - 1)), to); i != RADIX_FAN;
		     i = occ_next(leaf->occ, i + 1, to))
			if (leaf->v[i]) {
				*key = (k & ~(uint64_t)(RADIX_FAN - 1)) | i;
				return true;
			}
		if (holds_last)
			return false;
		k = ((k >> RADIX_BITS) + 1) << RADIX_BITS; /* the next leaf */
	}
	return false;
}

/* verify_node(): whether n and what is below it agree with their occ bits
 * and used counts; *values counts the values found, *where is the first
 * key of a node or leaf that disagrees */
static bool verify_node(const void *b, int level, uint64_t base, uint64_t *values, uint64_t *where)
{
	unsigned used = 0;
	bool ok = true;
	if (level == 3) {
		const struct radix_leaf *leaf = b;
		for (unsigned w = 0; w < RADIX_OCC_WORDS; w++) {
			uint64_t nz = 0; /* the word's slots holding a value */
			for (unsigned j = 0; j < 64; j++)
				nz |= (uint64_t)(leaf->v[w * 64 + j] != 0) << j;
			ok &= nz == leaf->occ[w];
			used += (unsigned)__builtin_popcountll(nz);
		}
		*values += used;
		ok &= used == leaf->used;
	} else {
		const struct radix_node *n = b;
		for (unsigned i = 0; i < RADIX_FAN; i++) {
			bool bit = (n->occ[i / 64] >> (i % 64)) & 1;
			ok &= bit == (n->slot[i] != NULL);
			if (!n->slot[i])
				continue;
			used++;
			uint64_t key = base | (uint64_t)i << (RADIX_BITS * (3 - level));
			if (!verify_node(n->slot[i], level + 1, key, values, where))
				return false;
		}
		ok &= used == n->used && used;
	}
	if (!ok)
		*where = base;
	return ok;
}

bool radix_verify(const struct radix *r, uint64_t *where)
{
	uint64_t values = 0;
	*where = 0;
	if (r->root && !verify_node(r->root, 0, 0, &values, where))
		return false;
	return values == r->count;
}
