/* radix.c - see radix.h. */
#include "alloc.h"
#include "radix.h"

#include <stdlib.h>
#include <string.h>

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
	radix_init(r);
	r->leaf_charge = charge;
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
		if (!r->root && !(r->root = vm_calloc(1, sizeof(struct radix_node))))
			return -1;
		struct radix_node *n = r->root;
		for (int level = 0; level < 2; level++) {
			struct radix_node **child = (struct radix_node **)&n->slot[idx(key, level)];
			if (!*child) {
				if (!(*child = vm_calloc(1, sizeof(struct radix_node))))
					return -1;
				n->used++;
			}
			n = *child;
		}
		if (!(leaf = vm_calloc(1, sizeof(struct radix_leaf))))
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
	free(leaf);
	r->nleaves--;
	if (r->leaf_charge)
		(*r->leaf_charge)--;
	path[2]->slot[idx(key, 2)] = NULL;
	for (int level = 2; level >= 0; level--) {
		if (--path[level]->used)
			break;
		if (level == 0) {
			free(r->root);
			r->root = NULL;
		} else {
			free(path[level]);
			path[level - 1]->slot[idx(key, level - 1)] = NULL;
		}
	}
}

bool radix_next(struct radix *r, uint64_t *key, uint64_t last)
{
	uint64_t k = *key;
	if (last > RADIX_KEY_MAX)
		last = RADIX_KEY_MAX;
	while (k <= last) {
		struct radix_node *n = r->root;
		int level = 0;
		uint64_t span = 0;
		if ((k >> RADIX_BITS) == r->cache_base) {
			n = (struct radix_node *)r->cache_leaf; /* a walk in order: no descent */
			level = 3;
		}
		for (; n && level < 3; level++) {
			void *child = n->slot[idx(k, level)];
			if (!child)
				break;
			n = child;
		}
		if (level == 3) {
			struct radix_leaf *leaf = (struct radix_leaf *)n;
			r->cache_base = k >> RADIX_BITS;
			r->cache_leaf = leaf;
			for (unsigned i = (unsigned)(k & (RADIX_FAN - 1)); i < RADIX_FAN; i++, k++) {
				/* eight empty slots at a time while they are all below last */
				while (!(i & 7) && k + 7 <= last &&
				       !(leaf->v[i] | leaf->v[i + 1] | leaf->v[i + 2] | leaf->v[i + 3] |
					 leaf->v[i + 4] | leaf->v[i + 5] | leaf->v[i + 6] | leaf->v[i + 7])) {
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
		next_leaf:
			continue; /* k now starts the next leaf */
		}
		/* no child at this level: skip the whole subtree */
		span = 1ULL << (RADIX_BITS * (3 - level));
		k = (k & ~(span - 1)) + span;
		if (!n)
			return false;
	}
	return false;
}
