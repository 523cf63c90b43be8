/* vma.c - AVL tree + sorted list of VMAs.  See vma.h. */
#include "vma.h"

#include <stddef.h>
#include <stdlib.h>

#include "alloc.h"

/* no flat index (nothing allocated) */
static void flat_none(struct vma_tree *t)
{
	t->flat = NULL;
	t->flat_end = NULL;
	t->ez_end = NULL;
	t->ez_pos = NULL;
	t->flat_n = t->flat_cap = 0;
	t->flat_stale = true;
	t->since_change = 0;
}

void vma_tree_init(struct vma_tree *t)
{
	t->root = t->first = t->last = t->cache = t->unplaced = NULL;
	t->count = 0;
	flat_none(t);
}

void vma_tree_release(struct vma_tree *t)
{
	free(t->flat);
	free(t->flat_end);
	free(t->ez_end);
	free(t->ez_pos);
	flat_none(t);
}

static void flat_changed(struct vma_tree *t)
{
	t->flat_stale = true;
	t->since_change = 0;
}

/* Eytzinger order: node k's children are 2k and 2k+1; an in-order walk of
 * that implicit tree takes the sorted entries in turn. */
static void ez_fill(struct vma_tree *t, size_t *next, size_t k)
{
	if (k > t->flat_n)
		return;
	ez_fill(t, next, 2 * k);
	t->ez_end[k] = t->flat_end[*next];
	t->ez_pos[k] = (uint32_t)*next;
	(*next)++;
	ez_fill(t, next, 2 * k + 1);
}

/* Rebuild the flat index from the list; on allocation failure the tree
 * keeps answering alone. */
static void flat_rebuild(struct vma_tree *t)
{
	if (t->flat_cap < t->count) {
		size_t nc = t->count + t->count / 4 + 16;
		struct vma **f = vm_realloc(t->flat, nc * sizeof(*f));
		if (!f)
			return;
		t->flat = f;
		uint64_t *e = vm_realloc(t->flat_end, nc * sizeof(*e));
		if (!e)
			return;
		t->flat_end = e;
		uint64_t *ez = vm_realloc(t->ez_end, (nc + 1) * sizeof(*ez));
		if (!ez)
			return;
		t->ez_end = ez;
		uint32_t *pos = vm_realloc(t->ez_pos, (nc + 1) * sizeof(*pos));
		if (!pos)
			return;
		t->ez_pos = pos;
		t->flat_cap = nc;
	}
	size_t n = 0;
	for (struct vma *v = t->first; v; v = v->next) {
		t->flat[n] = v;
		t->flat_end[n] = v->end;
		n++;
	}
	t->flat_n = n;
	size_t next = 0;
	ez_fill(t, &next, 1);
	t->flat_stale = false;
}

/* The first flat index whose end (as built) is > addr, or flat_n: down the
 * Eytzinger array (right where end <= addr), prefetching 16 nodes ahead */
static size_t flat_search(const struct vma_tree *t, uint64_t addr)
{
	const uint64_t *e = t->ez_end;
	size_t n = t->flat_n, k = 1;
	while (k <= n) {
		__builtin_prefetch(e + 16 * k);
		k = 2 * k + (e[k] <= addr);
	}
	k >>= __builtin_ctzll(~(unsigned long long)k) + 1; /* back up to the last left turn */
	return k ? t->ez_pos[k] : n;
}

void vma_prefetch(const struct vma_tree *t, uint64_t addr)
{
	if (t->flat_stale || !t->flat_n)
		return;
	size_t i = flat_search(t, addr);
	if (i < t->flat_n) {
		__builtin_prefetch(t->flat[i]);
		if (i)
			__builtin_prefetch(t->flat[i - 1]);
	}
}

/* The first flat entry whose end (as built) is > addr, checked against the
 * live VMAs (the set is the built one while the index is not stale: only
 * boundaries can have moved); NULL (and *ok false) when it cannot tell. */
static struct vma *flat_find(struct vma_tree *t, uint64_t addr, bool *ok)
{
	size_t lo = flat_search(t, addr);
	const uint64_t *e = t->flat_end;
	if (lo >= t->flat_n || e[lo] <= addr) {
		/* past the last end as built: only right if it still is */
		*ok = !t->last || t->last->end <= addr;
		return NULL;
	}
	struct vma *v = t->flat[lo];
	*ok = v->end > addr && (!lo || t->flat[lo - 1]->end <= addr);
	return *ok ? v : NULL;
}

static inline int height(const struct vma *v)
{
	return v ? v->height : 0;
}

static inline uint32_t size(const struct vma *v)
{
	return v ? v->size : 0;
}

static inline void update(struct vma *v)
{
	int l = height(v->left), r = height(v->right);
	v->height = (l > r ? l : r) + 1;
	v->size = size(v->left) + size(v->right) + 1;
}

static void replace_child(struct vma_tree *t, struct vma *parent,
			  struct vma *old, struct vma *new)
{
	if (!parent)
		t->root = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
	if (new)
		new->parent = parent;
}

static struct vma *rotate_left(struct vma_tree *t, struct vma *x)
{
	struct vma *y = x->right;
	replace_child(t, x->parent, x, y);
	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->left = x;
	x->parent = y;
	update(x);
	update(y);
	return y;
}

static struct vma *rotate_right(struct vma_tree *t, struct vma *x)
{
	struct vma *y = x->left;
	replace_child(t, x->parent, x, y);
	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->right = x;
	x->parent = y;
	update(x);
	update(y);
	return y;
}

/* Up from n after one insert or erase below it, until a subtree's height
 * is what its parent knew: nothing above can have changed then. */
static void rebalance(struct vma_tree *t, struct vma *n)
{
	while (n) {
		int was = n->height;
		update(n);
		int bal = height(n->left) - height(n->right);
		if (bal > 1) {
			if (height(n->left->left) < height(n->left->right))
				rotate_left(t, n->left);
			n = rotate_right(t, n);
		} else if (bal < -1) {
			if (height(n->right->right) < height(n->right->left))
				rotate_right(t, n->right);
			n = rotate_left(t, n);
		}
		if (n->height == was)
			break;
		n = n->parent;
	}
	/* above, the heights stand; the sizes all move */
	for (n = n ? n->parent : NULL; n; n = n->parent)
		n->size = size(n->left) + size(n->right) + 1;
}

/* The first n VMAs of the list from *cur as a balanced tree (sizes of
 * siblings differ by one at most, so heights do too), *cur moved past them */
static struct vma *build(struct vma **cur, size_t n)
{
	if (!n)
		return NULL;
	struct vma *left = build(cur, n / 2);
	struct vma *v = *cur;
	*cur = v->next;
	struct vma *right = build(cur, n - n / 2 - 1);
	v->left = left;
	v->right = right;
	v->parent = NULL;
	if (left)
		left->parent = v;
	if (right)
		right->parent = v;
	update(v);
	return v;
}

/* The VMAs appended since the tree was last needed, into it: all at once
 * when they are all there is, else each under the rightmost before it */
static void settle(struct vma_tree *t)
{
	struct vma *u = t->unplaced;
	if (!u)
		return;
	t->unplaced = NULL;
	if (u == t->first) {
		t->root = build(&u, t->count);
		return;
	}
	for (; u; u = u->next) { /* a leaf since vma_tree_append() */
		u->parent = u->prev; /* the rightmost placed VMA: no right child */
		u->prev->right = u;
		rebalance(t, u->prev);
	}
}

void vma_tree_append(struct vma_tree *t, struct vma *v)
{
	flat_changed(t);
	v->left = v->right = v->parent = NULL;
	v->height = 1;
	v->size = 1;
	v->prev = t->last;
	v->next = NULL;
	if (t->last)
		t->last->next = v;
	else
		t->first = v;
	t->last = v;
	if (!t->unplaced)
		t->unplaced = v;
	t->count++;
}

void vma_tree_insert(struct vma_tree *t, struct vma *v)
{
	settle(t);
	flat_changed(t);
	struct vma *parent = NULL, **link = &t->root;
	struct vma *pred = NULL, *succ = NULL;
	while (*link) {
		parent = *link;
		if (v->start < parent->start) {
			succ = parent;
			link = &parent->left;
		} else {
			pred = parent;
			link = &parent->right;
		}
	}
	v->left = v->right = NULL;
	v->parent = parent;
	v->height = 1;
	v->size = 1;
	*link = v;
	v->prev = pred;
	v->next = succ;
	if (pred)
		pred->next = v;
	else
		t->first = v;
	if (succ)
		succ->prev = v;
	else
		t->last = v;
	t->count++;
	rebalance(t, parent);
}

void vma_tree_erase(struct vma_tree *t, struct vma *v)
{
	settle(t);
	flat_changed(t);
	struct vma *fix;
	if (t->cache == v)
		t->cache = NULL;
	if (v->prev)
		v->prev->next = v->next;
	else
		t->first = v->next;
	if (v->next)
		v->next->prev = v->prev;
	else
		t->last = v->prev;
	t->count--;

	if (!v->left || !v->right) {
		struct vma *child = v->left ? v->left : v->right;
		fix = v->parent;
		replace_child(t, v->parent, v, child);
	} else {
		/* replace v by its in-order successor s */
		struct vma *s = v->right;
		while (s->left)
			s = s->left;
		if (s->parent != v) {
			fix = s->parent;
			replace_child(t, s->parent, s, s->right);
			s->right = v->right;
			s->right->parent = s;
		} else {
			fix = s;
		}
		replace_child(t, v->parent, v, s);
		s->left = v->left;
		s->left->parent = s;
		s->height = v->height;
	}
	v->left = v->right = v->parent = NULL;
	v->prev = v->next = NULL;
	rebalance(t, fix);
}

void vma_tree_erase_first(struct vma_tree *t)
{
	struct vma *v = t->first;
	if (!v)
		return;
	flat_changed(t);
	if (t->cache == v)
		t->cache = NULL;
	if (t->unplaced == v) {
		t->unplaced = v->next; /* never in the tree */
	} else {
		replace_child(t, v->parent, v, v->right); /* the leftmost: no left child */
		for (struct vma *a = v->parent; a; a = a->parent)
			a->size--; /* the heights are left as they were */
	}
	t->first = v->next;
	if (v->next)
		v->next->prev = NULL;
	else
		t->last = NULL;
	t->count--;
	v->left = v->right = v->parent = NULL;
	v->prev = v->next = NULL;
}

struct vma *vma_find(struct vma_tree *t, uint64_t addr)
{
	struct vma *c = t->cache;
	if (c && c->start <= addr && addr < c->end)
		return c;
	if (!t->flat_stale) {
		bool ok;
		struct vma *v = flat_find(t, addr, &ok);
		if (ok) {
			if (v)
				t->cache = v;
			return v;
		}
		flat_changed(t); /* a boundary moved: rebuild once lookups win again */
	} else if (t->count >= 64 && ++t->since_change > t->count / 4 + 64) {
		flat_rebuild(t);
	}
	settle(t);
	struct vma *n = t->root, *best = NULL;
	while (n) {
		if (addr < n->end) {
			best = n;
			if (addr >= n->start)
				break;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	if (best)
		t->cache = best;
	return best;
}

struct vma *vma_at(struct vma_tree *t, uint64_t k)
{
	if (k >= t->count)
		return NULL;
	settle(t);
	struct vma *n = t->root;
	while (n) {
		uint32_t l = size(n->left);
		if (k < l) {
			n = n->left;
		} else if (k == l) {
			return n;
		} else {
			k -= l + 1;
			n = n->right;
		}
	}
	return NULL;
}

uint64_t vma_count_range(struct vma_tree *t, uint64_t start, uint64_t end)
{
	uint64_t n = 0;
	for (struct vma *v = vma_find(t, start); v && v->start < end; v = v->next)
		n++;
	return n;
}
