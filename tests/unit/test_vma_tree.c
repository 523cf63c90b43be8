/*
 * test_vma_tree.c - the VMA tree (model/vma.c) stays an AVL tree through
 * random inserts and erases: in-order the same VMAs as the address-ordered
 * list, every parent link right, every height the true one, every
 * balance within one, and vma_find() answers as a scan of the list does.
 * rebalance() stops climbing where a subtree's height is unchanged; a
 * stop too early leaves a stale height or an unbalanced node, which this
 * finds (the lookups alone would not: they stay right in any shape).
 */
#include "check_run.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "vma.h"

#define SLOTS 3000

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* the subtree's height, or -1 if a link, an order, a height, a size or a
 * balance is wrong (plain tests: each ck_assert() marks a point in a file) */
static int check_subtree(const struct vma *n, const struct vma *parent, uint64_t lo, uint64_t hi,
			 size_t *count)
{
	if (!n)
		return 0;
	if (n->parent != parent || n->start < lo || n->end > hi)
		return -1;
	int l = check_subtree(n->left, n, lo, n->start, count);
	(*count)++;
	int r = check_subtree(n->right, n, n->end, hi, count);
	int h = (l > r ? l : r) + 1;
	if (l < 0 || r < 0 || n->height != h || l - r > 1 || r - l > 1)
		return -1;
	uint32_t size = 1 + (n->left ? n->left->size : 0) + (n->right ? n->right->size : 0);
	if (n->size != size)
		return -1;
	return h;
}

START_TEST(tree_stays_avl)
{
	struct vma *v = calloc(SLOTS, sizeof(*v));
	bool *in = calloc(SLOTS, sizeof(*in));
	ck_assert(v && in);
	struct vma_tree t;
	vma_tree_init(&t);
	size_t live = 0;
	for (unsigned step = 0; step < 60000; step++) {
		size_t i = next_rand() % SLOTS;
		/* runs of neighbours too, as fork and exit make them */
		unsigned run = (next_rand() % 8 == 0) ? 1 + (unsigned)(next_rand() % 64) : 1;
		for (unsigned k = 0; k < run && i + k < SLOTS; k++) {
			struct vma *x = &v[i + k];
			if (in[i + k]) {
				vma_tree_erase(&t, x);
				in[i + k] = false;
				live--;
			} else {
				memset(x, 0, sizeof(*x));
				x->start = (uint64_t)(i + k) * 2 * 4096;
				x->end = x->start + 4096;
				if ((!t.last || t.last->end <= x->start) && (next_rand() & 1))
					vma_tree_append(&t, x); /* above every VMA: fork's way */
				else
					vma_tree_insert(&t, x);
				in[i + k] = true;
				live++;
			}
		}
		if (step % 97 == 0 || step > 59900) {
			size_t count = 0;
			(void)vma_find(&t, 0); /* a lookup puts appended VMAs in the tree */
			if (check_subtree(t.root, NULL, 0, UINT64_MAX, &count) < 0)
				ck_abort_msg("step %u: not an AVL tree (%zu VMAs)", step, live);
			ck_assert_uint_eq(count, live);
			ck_assert_uint_eq(t.count, live);
			size_t n = 0;
			for (const struct vma *x = t.first; x; x = x->next, n++)
				if (x->next && x->next->start < x->end)
					ck_abort_msg("step %u: the list is out of order", step);
			ck_assert_uint_eq(n, live);
			uint64_t addr = next_rand() % ((uint64_t)SLOTS * 2 * 4096);
			const struct vma *want = NULL;
			for (const struct vma *x = t.first; x && !want; x = x->next)
				if (x->end > addr)
					want = x;
			ck_assert_ptr_eq(vma_find(&t, addr), want);
			/* vma_at(): the k-th on the list */
			size_t k = live ? next_rand() % live : 0, j = 0;
			const struct vma *kth = t.first;
			while (kth && j++ < k)
				kth = kth->next;
			ck_assert_ptr_eq(vma_at(&t, k), kth);
			ck_assert_ptr_null(vma_at(&t, live));
		}
	}
	vma_tree_release(&t);
	free(v);
	free(in);
}
END_TEST

/* Appends into an empty tree come out as one balanced tree; appends onto
 * a tree hang under its rightmost VMA; lookups, inserts and erases in
 * between find every VMA, and so do lookups while the first VMA goes
 * again and again (exit) */
START_TEST(appended_vmas_make_an_avl_tree)
{
	struct vma *v = calloc(SLOTS, sizeof(*v));
	ck_assert(v);
	for (size_t n = 0; n <= 300 && 2 * n <= SLOTS; n += 1 + n / 8) {
		struct vma_tree t;
		vma_tree_init(&t);
		memset(v, 0, SLOTS * sizeof(*v));
		for (size_t i = 0; i < 2 * n; i++) {
			v[i].start = (uint64_t)i * 8192;
			v[i].end = v[i].start + 4096;
		}
		for (size_t i = 0; i < n; i++)
			vma_tree_append(&t, &v[i]);
		ck_assert_uint_eq(t.count, n);
		ck_assert_ptr_eq(vma_find(&t, 0), n ? &v[0] : NULL);
		size_t count = 0;
		ck_assert_msg(check_subtree(t.root, NULL, 0, UINT64_MAX, &count) >= 0, "%zu appended: not AVL", n);
		ck_assert_uint_eq(count, n);
		/* onto a tree: then an erase before any lookup */
		for (size_t i = n; i < 2 * n; i++)
			vma_tree_append(&t, &v[i]);
		if (n)
			vma_tree_erase(&t, &v[n / 2]);
		count = 0;
		ck_assert_msg(check_subtree(t.root, NULL, 0, UINT64_MAX, &count) >= 0, "%zu more: not AVL", n);
		ck_assert_uint_eq(count, n ? 2 * n - 1 : 0);
		for (size_t i = 0; i < 2 * n; i++)
			ck_assert_ptr_eq(vma_find(&t, v[i].start), i == n / 2 ? &v[i + 1] : &v[i]);
		/* exit's way: the first goes, lookups of the rest stay right */
		for (size_t i = 0; i < 2 * n; i++) {
			if (i == n / 2 && n)
				continue;
			ck_assert_ptr_eq(t.first, &v[i]);
			vma_tree_erase_first(&t);
			if (t.count)
				ck_assert_ptr_eq(vma_at(&t, t.count - 1), t.last); /* the sizes follow */
			size_t j = i + 1 + (i + 1 == n / 2 && n);
			ck_assert_ptr_eq(vma_find(&t, 0), j < 2 * n ? &v[j] : NULL);
			if (j + 7 < 2 * n)
				ck_assert_ptr_eq(vma_find(&t, v[j + 7].start), j + 7 == n / 2 ? &v[j + 8] : &v[j + 7]);
		}
		ck_assert_uint_eq(t.count, 0);
		ck_assert_ptr_null(t.first);
		ck_assert_ptr_null(t.last);
		ck_assert_ptr_null(t.root);
		/* and from a tree that was never built */
		for (size_t i = 0; i < n; i++)
			vma_tree_append(&t, &v[i]);
		for (size_t i = 0; i < n; i++)
			vma_tree_erase_first(&t);
		ck_assert_uint_eq(t.count, 0);
		ck_assert_ptr_null(t.root);
		ck_assert_ptr_null(t.unplaced);
		vma_tree_release(&t);
	}
	free(v);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("vma_tree");
	TCase *tc = tcase_create("avl");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, tree_stays_avl);
	tcase_add_test(tc, appended_vmas_make_an_avl_tree);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
