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

static void free_node(void *n, int level)
{
	if (!n)
		return;
	if (level < 3) {
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
	if (leaf) {
		r->cache_base = base;
		r->cache_leaf = leaf;
	}
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
	struct radix_leaf *leaf = find_leaf(r, key);
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
			if (leaf && h)
				*h = (struct radix_hint){ base, leaf };
		}
	}
	if (leaf)
		__builtin_prefetch(&leaf->v[key & (RADIX_FAN - 1)], 1);
}

bool radix_has_leaf(struct radix *r, uint64_t key)
{
	return key <= RADIX_KEY_MAX && find_leaf(r, key) != NULL;
}

int radix_set(struct radix *r, uint64_t key, uint64_t v)
{
	if (key > RADIX_KEY_MAX)
		return -1;
	if (!v) {
		radix_clear(r, key);
		return 0;
	}
	struct radix_leaf *leaf = find_leaf(r, key);
	if (!leaf) {
		if (!r->root && !(r->root = block_take(r, false)))
			return -1;
		struct radix_node *n = r->root;
		for (int level = 0; level < 2; level++) {
			struct radix_node **child = (struct radix_node **)&n->slot[idx(key, level)];
			if (!*child) {
				if (!(*child = block_take(r, false)))
					return -1;
				n->used++;
			}
			n = *child;
		}
		if (!(leaf = block_take(r, true)))
			return -1;
		n->slot[idx(key, 2)] = leaf;
		n->used++;
		r->nleaves++;
		if (r->leaf_charge)
			(*r->leaf_charge)++;
		r->cache_base = key >> RADIX_BITS;
		r->cache_leaf = leaf;
	}
	uint64_t *slot = &leaf->v[key & (RADIX_FAN - 1)];
	if (!*slot) {
		leaf->used++;
		r->count++;
	}
	*slot = v;
	return 0;
}

void radix_clear(struct radix *r, uint64_t key)
{
	if (key > RADIX_KEY_MAX || !r->root)
		return;
	struct radix_node *path[3];
	struct radix_node *n = r->root;
	for (int level = 0; level < 3; level++) {
		if (!n)
			return;
		path[level] = n;
		if (level < 2)
			n = n->slot[idx(key, level)];
	}
	struct radix_leaf *leaf = path[2]->slot[idx(key, 2)];
	if (!leaf)
		return;
	uint64_t *slot = &leaf->v[key & (RADIX_FAN - 1)];
	if (!*slot)
		return;
	*slot = 0;
	leaf->used--;
	r->count--;
	if (leaf->used)
		return;
	/* free the empty leaf and any parents it leaves empty */
	if (r->cache_leaf == leaf) {
		r->cache_leaf = NULL;
		r->cache_base = UINT64_MAX;
	}
	if (r->hint && r->hint[(key >> RADIX_BITS) % RADIX_HINTS].leaf == leaf)
		r->hint[(key >> RADIX_BITS) % RADIX_HINTS] = (struct radix_hint){ UINT64_MAX, NULL };
	block_give(r, leaf, true);
	r->nleaves--;
	if (r->leaf_charge)
		(*r->leaf_charge)--;
	path[2]->slot[idx(key, 2)] = NULL;
	for (int level = 2; level >= 0; level--) {
		if (--path[level]->used)
			break;
		if (level == 0) {
			block_give(r, r->root, false);
			r->root = NULL;
		} else {
			path[level - 1]->slot[idx(key, level - 1)] = NULL;
			block_give(r, path[level], false);
		}
	}
}

bool radix_next(struct radix *r, uint64_t *key, uint64_t last)
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
			 * the same node, an exhausted node to the next range of its
			 * parent (from the root again: once per node passed) */
			struct radix_node *n = r->root;
			if (!n)
				return false;
			int level = 0;
			while (level < 3) {
				unsigned i = idx(k, level);
				void *child = n->slot[i];
				if (!child) {
					unsigned shift = RADIX_BITS * (3 - level);
					while (++i < RADIX_FAN && !n->slot[i])
						;
					uint64_t above = k >> shift >> RADIX_BITS; /* the node's own range */
					if (i == RADIX_FAN) {
						if (level == 0)
							return false;
						k = (above + 1) << RADIX_BITS << shift;
						break;
					}
					k = ((above << RADIX_BITS) | i) << shift;
					if (k > last)
						return false;
					child = n->slot[i];
				}
				if (level == 2) {
					leaf = child;
					break;
				}
				n = child;
				level++;
			}
			if (!leaf)
				continue; /* k moved past an exhausted node */
			r->cache_base = k >> RADIX_BITS;
			r->cache_leaf = leaf;
		}
		for (unsigned i = (unsigned)(k & (RADIX_FAN - 1)); i < RADIX_FAN; i++, k++) {
			/* eight empty slots at a time while they are all below last */
			while (!(i & 7) && k + 7 <= last &&
			       !(leaf->v[i] | leaf->v[i + 1] | leaf->v[i + 2] | leaf->v[i + 3] | leaf->v[i + 4] |
				 leaf->v[i + 5] | leaf->v[i + 6] | leaf->v[i + 7])) {
				i += 8;
				k += 8;
				if (i == RADIX_FAN)
					goto next_leaf;
			}
			if (k > last)
				return false;
			if (leaf->v[i]) {
				*key = k;
				return true;
			}
		}
	next_leaf:; /* k now starts the next leaf */
	}
	return false;
}
