/* vma.c - AVL tree + sorted list of VMAs.  See vma.h. */
#include "vma.h"

#include <stddef.h>

void vma_tree_init(struct vma_tree *t)
{
	t->root = t->first = t->last = t->cache = NULL;
	t->count = 0;
}

static inline int height(const struct vma *v)
{
	return v ? v->height : 0;
}

static inline void update(struct vma *v)
{
	int l = height(v->left), r = height(v->right);
	v->height = (l > r ? l : r) + 1;
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

static void rebalance(struct vma_tree *t, struct vma *n)
{
	while (n) {
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
		n = n->parent;
	}
}

void vma_tree_insert(struct vma_tree *t, struct vma *v)
{
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

struct vma *vma_find(struct vma_tree *t, uint64_t addr)
{
	struct vma *c = t->cache;
	if (c && c->start <= addr && addr < c->end)
		return c;
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

uint64_t vma_count_range(struct vma_tree *t, uint64_t start, uint64_t end)
{
	uint64_t n = 0;
	for (struct vma *v = vma_find(t, start); v && v->start < end; v = v->next)
		n++;
	return n;
}
