/*
 * sem_test.c - test-only semantics: 6.18 with exactly one documented rule
 * broken each, so that `vmsim check` can be shown to catch every kind of
 * break (tests/property/prop_check.c).  Reachable by name through
 * semantics_find("test-...") and never listed with the real kernels.
 */
#include "semantics.h"

#include <stddef.h>
#include <string.h>

extern const struct semantics sem_6_18;

struct test_def {
	const char *name;
	const char *target; /* the invariant it breaks */
	const char *description;
	void (*breakit)(struct semantics *s);
};

#define MADV_BIT(x) (1u << (x))

/* mmap(MAP_LOCKED) and munmap no longer charge locked_vm (mlock still does) */
static void b_charge(struct semantics *s) { s->charge_mask = 0; }
/* relocking a locked range as on-fault (or back) charges it again */
static void b_relock(struct semantics *s) { s->relock_charges_again = true; }
/* mmap/brk/mremap skip the RLIMIT_MEMLOCK test of mlock_future_ok() */
static void b_rlimit(struct semantics *s) { s->future_check_mask = 0; }
/* the clear mask of mlock/munlock/munlockall narrowed to VM_LOCKED */
static void b_munlock(struct semantics *s) { s->lock_mask = VM_LOCKED; }
/* dup_mmap() clears only VM_LOCKED on the child's VMAs */
static void b_fork(struct semantics *s) { s->fork_clear = VM_LOCKED; }
/* populate does not skip lock-on-fault VMAs */
static void b_onfault(struct semantics *s) { s->onfault_skips_populate = false; }
static void b_reclaim(struct semantics *s) { s->test_reclaim_ignores_locked = true; }
static void b_cull(struct semantics *s) { s->test_skip_cull = true; }
static void b_lru(struct semantics *s) { s->test_rescue_wrong_list = true; }
static void b_mapcount(struct semantics *s) { s->test_ignore_max_map_count = true; }
/* the lru_add batch puts an evictable page on its list, then flips PG_active:
 * broken by a fault (an access), not by a call */
static void b_lru_add(struct semantics *s) { s->test_lru_add_flips_active = true; }
/* MADV_DONTNEED allowed on locked VMAs */
static void b_madvise(struct semantics *s) { s->madv_refuses_locked &= ~MADV_BIT(MADV_X_DONTNEED); }

static const struct test_def defs[] = {
	{ "test-broken-charge", "locked-vm-accounting", "6.18, mmap(MAP_LOCKED) charge dropped", b_charge },
	{ "test-broken-relock", "locked-vm-range", "6.18, relocking charges again", b_relock },
	{ "test-broken-rlimit", "rlimit-memlock", "6.18, mmap skips RLIMIT_MEMLOCK", b_rlimit },
	{ "test-broken-munlock", "unlock-complete", "6.18, munlock clears VM_LOCKED only", b_munlock },
	{ "test-broken-fork", "fork-no-inherit", "6.18, fork keeps VM_LOCKONFAULT", b_fork },
	{ "test-broken-onfault", "onfault-no-prefault", "6.18, lock-on-fault populates", b_onfault },
	{ "test-broken-reclaim", "locked-never-reclaimed", "6.18, reclaim ignores mlock", b_reclaim },
	{ "test-broken-cull", "mlocked-pages", "6.18, mlocked pages never culled", b_cull },
	{ "test-broken-lru", "lru-consistent", "6.18, munlock rescue flips PG_active", b_lru },
	{ "test-broken-map-count", "vma-tree", "6.18, splits ignore max_map_count", b_mapcount },
	{ "test-broken-madvise", "locked-madvise", "6.18, MADV_DONTNEED allowed on locked", b_madvise },
	{ "test-broken-lru-add", "lru-consistent", "6.18, the lru_add drain flips PG_active", b_lru_add },
};

#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static struct semantics built[NDEFS];
static bool ready;

static void build(void)
{
	if (ready)
		return;
	for (unsigned i = 0; i < NDEFS; i++) {
		built[i] = sem_6_18;
		built[i].name = defs[i].name;
		built[i].description = defs[i].description;
		built[i].order = 0; /* never chosen by version */
		defs[i].breakit(&built[i]);
	}
	ready = true;
}

const struct semantics *semantics_test_at(unsigned i)
{
	build();
	return i < NDEFS ? &built[i] : NULL;
}

const struct semantics *semantics_test_find(const char *name)
{
	build();
	for (unsigned i = 0; i < NDEFS; i++)
		if (!strcmp(built[i].name, name))
			return &built[i];
	return NULL;
}

const char *semantics_test_target(const struct semantics *s)
{
	for (unsigned i = 0; i < NDEFS; i++)
		if (s == &built[i])
			return defs[i].target;
	return NULL;
}
