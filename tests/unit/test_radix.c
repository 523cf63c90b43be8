/*
 * test_radix.c - radix_next() against a plain sorted list of the keys
 * stored: the first key at or after a start, up to a last, over sparse
 * maps whose keys spread over every level of the tree (a key per leaf, a
 * run of keys, keys near 2^36), after stores and removals that free
 * leaves and nodes.  radix_next() skips empty slots 64 at a time by the
 * occupancy bits of leaves and nodes, up to last's slot when the node
 * holds last, and exhausted nodes by their parent's next range: each of
 * those edges is hit here, and radix_verify() holds after every round.
 * radix_take_run() takes in order what radix_next() and radix_clear()
 * would, key by key, and leaves the same tree.
 */
#include "check_run.h"
#include <check.h>
#include <stdlib.h>

#include "radix.h"

#define NKEYS 4000

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* a key from one of a few shapes of sparse map */
static uint64_t pick_key(unsigned shape)
{
	uint64_t r = next_rand();
	switch (shape) {
	case 0: return r & RADIX_KEY_MAX;                          /* anywhere */
	case 1: return 0x7f0000000ULL + (r % 4096);                /* a dense arena */
	case 2: return (r % 64) << 18 | (r >> 40) % 3;             /* one key or so per level-2 node */
	default: return RADIX_KEY_MAX - (r % 1024);                /* the top of the key space */
	}
}

static bool *present;
static uint64_t *keys;

static uint64_t brute_next(size_t n, uint64_t from, uint64_t last, bool *found)
{
	uint64_t best = UINT64_MAX;
	for (size_t i = 0; i < n; i++)
		if (present[i] && keys[i] >= from && keys[i] <= last && keys[i] < best)
			best = keys[i];
	*found = best != UINT64_MAX;
	return best;
}

START_TEST(next_finds_what_a_scan_of_the_keys_finds)
{
	keys = calloc(NKEYS, sizeof(*keys));
	present = calloc(NKEYS, sizeof(*present));
	ck_assert(keys && present);
	for (unsigned round = 0; round < 40; round++) {
		struct radix r;
		radix_init(&r);
		size_t n = 1 + next_rand() % NKEYS;
		for (size_t i = 0; i < n; i++) {
			keys[i] = pick_key((unsigned)(next_rand() % 4));
			present[i] = true;
			ck_assert_int_eq(radix_set(&r, keys[i], i + 1), 0);
		}
		/* remove about half: leaves and nodes go when empty */
		for (size_t i = 0; i < n; i++)
			if (next_rand() & 1) {
				radix_clear(&r, keys[i]);
				for (size_t j = 0; j < n; j++)
					if (keys[j] == keys[i])
						present[j] = false;
			}
		unsigned bad = 0;
		for (unsigned q = 0; q < 3000; q++) {
			uint64_t from = (q & 1) ? keys[next_rand() % n] - (next_rand() % 3) : pick_key(q % 4);
			from &= RADIX_KEY_MAX;
			uint64_t last = (q % 3 == 0) ? RADIX_KEY_MAX : from + next_rand() % (1u << (next_rand() % 30));
			bool want_found, got_found;
			uint64_t want = brute_next(n, from, last, &want_found), got = from;
			got_found = radix_next(&r, &got, last);
			if (got_found != want_found || (got_found && got != want))
				bad++;
			ck_assert_msg(!bad, "round %u: radix_next(0x%llx, last 0x%llx) = %d 0x%llx, want %d 0x%llx",
				      round, (unsigned long long)from, (unsigned long long)last, got_found,
				      (unsigned long long)got, want_found, (unsigned long long)want);
		}
		/* a full walk visits each key once, in order */
		uint64_t k = 0, prev = 0, seen = 0;
		bool first = true;
		while (radix_next(&r, &k, RADIX_KEY_MAX)) {
			ck_assert(first || k > prev);
			first = false;
			prev = k;
			seen++;
			if (k == RADIX_KEY_MAX)
				break;
			k++;
		}
		ck_assert_uint_eq(seen, r.count);
		uint64_t where;
		ck_assert_msg(radix_verify(&r, &where), "round %u: occ bits or counts disagree at 0x%llx", round,
			      (unsigned long long)where);
		radix_destroy(&r);
	}
	free(keys);
	free(present);
}
END_TEST

/* Nodes and leaves that go back to a pool come out of it again with no
 * stale occupancy bit, and radix_verify() sees a bit that lies */
START_TEST(occ_bits_follow_the_slots_through_a_pool)
{
	struct radix_pool pool;
	radix_pool_init(&pool);
	struct radix r;
	radix_init(&r);
	r.pool = &pool;
	uint64_t where;
	for (unsigned round = 0; round < 20; round++) {
		uint64_t base = (next_rand() % 64) << 18;
		for (uint64_t k = 0; k < 3000; k += 1 + next_rand() % 7)
			ck_assert_int_eq(radix_set(&r, base + k, k + 1), 0);
		ck_assert(radix_verify(&r, &where));
		for (uint64_t k = 0; k < 3000; k++)
			if (next_rand() % 4)
				radix_clear(&r, base + k);
		ck_assert(radix_verify(&r, &where));
		uint64_t k = base;
		bool some = radix_next(&r, &k, base + 2999);
		for (uint64_t j = base; j < base + 3000; j++)
			if (radix_get(&r, j)) {
				ck_assert(some && k == j); /* the first one left */
				break;
			}
		for (uint64_t j = 0; j < 3000; j++)
			radix_clear(&r, base + j);
		ck_assert_uint_eq(r.count, 0);
		ck_assert_ptr_null(r.root);
	}
	ck_assert_int_eq(radix_set(&r, 5, 1), 0);
	ck_assert(radix_verify(&r, &where));
	r.cache_leaf->occ[1] |= 1; /* slot 64 empty, its bit set */
	ck_assert(!radix_verify(&r, &where));
	r.cache_leaf->occ[1] = 0;
	ck_assert(radix_verify(&r, &where));
	radix_destroy(&r);
	radix_pool_release(&pool);
}
END_TEST

/* radix_take_run() over [from, last] against the same keys taken one at a
 * time by radix_next(), radix_get() and radix_clear() from a twin tree:
 * the same keys and values in order, then the same tree (a uniform leaf,
 * which it takes a value a call, among them) */
START_TEST(take_run_takes_what_next_and_clear_take)
{
	for (unsigned round = 0; round < 60; round++) {
		struct radix a, b;
		radix_init(&a);
		radix_init(&b);
		unsigned shape = round % 4;
		for (unsigned i = 0; i < 3000; i++) {
			uint64_t k = pick_key(shape), v = 1 + next_rand() % 1000;
			ck_assert_int_eq(radix_set(&a, k, v), 0);
			ck_assert_int_eq(radix_set(&b, k, v), 0);
		}
		if (round % 3 == 0) { /* a uniform leaf where no leaf is */
			uint64_t u = ((next_rand() % 64) << 18) | (1ULL << 30);
			if (radix_fill_leaf(&a, u, 7) == 0)
				ck_assert_int_eq(radix_fill_leaf(&b, u, 7), 0);
		}
		uint64_t from = (round % 8 == 7) ? 0 : pick_key(shape) & RADIX_KEY_MAX;
		uint64_t last = (round % 5 == 0) ? RADIX_KEY_MAX : from + next_rand() % (1u << (next_rand() % 21));
		if (last > RADIX_KEY_MAX)
			last = RADIX_KEY_MAX;
		uint64_t ka = from, kb = from, took[64], vals[64];
		unsigned n;
		while ((n = radix_take_run(&a, &ka, last, took, vals)) != 0) {
			ck_assert_uint_le(n, 64);
			for (unsigned i = 0; i < n; i++) {
				ck_assert(radix_next(&b, &kb, last));
				ck_assert_uint_eq(took[i], kb);
				ck_assert_uint_eq(vals[i], radix_get(&b, kb));
				ck_assert_uint_eq(radix_get(&a, kb), 0);
				radix_clear(&b, kb);
				kb++;
			}
			ck_assert_uint_eq(ka, kb);
			if (kb > last)
				break;
		}
		ck_assert(kb > last || !radix_next(&b, &kb, last));
		ck_assert_uint_eq(a.count, b.count);
		ck_assert_uint_eq(a.nleaves, b.nleaves);
		uint64_t where, k = 0;
		ck_assert_msg(radix_verify(&a, &where), "round %u: occ bits or counts disagree at 0x%llx",
			      round, (unsigned long long)where);
		while (radix_next(&b, &k, RADIX_KEY_MAX)) { /* what is left is the same */
			ck_assert_uint_eq(radix_get(&a, k), radix_get(&b, k));
			if (k++ == RADIX_KEY_MAX)
				break;
		}
		radix_destroy(&a);
		radix_destroy(&b);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("radix");
	TCase *tc = tcase_create("next");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, next_finds_what_a_scan_of_the_keys_finds);
	tcase_add_test(tc, occ_bits_follow_the_slots_through_a_pool);
	tcase_add_test(tc, take_run_takes_what_next_and_clear_take);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
