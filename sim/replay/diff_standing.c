/* diff_standing.c - the differences that stand between two models.  See
 * diff_standing.h. */
#include "diff_standing.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "radix.h"

/* a difference with two values */
struct ent {
	uint64_t a, b;
	uint32_t epoch;
	bool stands;
};

/* A page's is packed in its radix slot: bit 63 (never zero), the epoch
 * that last noted it, its two sides' bits. */
#define PAGE_SLOT(epoch, a, b) (1ULL << 63 | (uint64_t)(epoch) << 16 | (uint64_t)(a) << 8 | (b))
#define PAGE_EPOCH(v) ((uint32_t)((v) >> 16))
#define PAGE_VALUE(v) ((uint16_t)(v))

/* the differences of one process */
struct prec {
	int pid;
	struct ent task, vmlck, def_flags;
	struct radix vmas, vmflags; /* vpn -> struct ent * */
	struct radix pages;         /* vpn -> PAGE_SLOT */
};

struct standing {
	uint32_t epoch;
	struct ent nr_mlock;
	struct prec **p;            /* open addressing by pid; NULL free */
	size_t cap, n;
	unsigned tasks;
	uint64_t stood;             /* differences standing, of every kind */
};

struct standing *standing_new(void)
{
	struct standing *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->cap = 16;
	st->p = calloc(st->cap, sizeof(*st->p));
	if (!st->p) {
		free(st);
		return NULL;
	}
	st->epoch = 1;
	return st;
}

static void free_ents(struct radix *r)
{
	uint64_t k = 0;
	while (radix_next(r, &k, RADIX_KEY_MAX)) {
		free((void *)(uintptr_t)radix_get(r, k));
		if (k == RADIX_KEY_MAX)
			break;
		k++;
	}
	radix_destroy(r);
}

static void prec_free(struct prec *p)
{
	free_ents(&p->vmas);
	free_ents(&p->vmflags);
	radix_destroy(&p->pages);
	free(p);
}

void standing_free(struct standing *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->cap; i++)
		if (st->p[i])
			prec_free(st->p[i]);
	free(st->p);
	free(st);
}

void standing_epoch(struct standing *st)
{
	st->epoch++;
}

bool standing_any(const struct standing *st)
{
	return st->stood != 0;
}

unsigned standing_tasks(const struct standing *st)
{
	return st->tasks;
}

static size_t slot_of(const struct standing *st, int pid)
{
	size_t i = ((uint32_t)pid * 0x9e3779b1u) & (st->cap - 1);
	while (st->p[i] && st->p[i]->pid != pid)
		i = (i + 1) & (st->cap - 1);
	return i;
}

static struct prec *prec_find(const struct standing *st, int pid)
{
	return st->p[slot_of(st, pid)];
}

static int grow(struct standing *st)
{
	size_t cap = st->cap * 2;
	struct prec **n = calloc(cap, sizeof(*n));
	if (!n)
		return -1;
	struct prec **old = st->p;
	size_t ocap = st->cap;
	st->p = n;
	st->cap = cap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i])
			st->p[slot_of(st, old[i]->pid)] = old[i];
	free(old);
	return 0;
}

static struct prec *prec_get(struct standing *st, int pid)
{
	struct prec *p = prec_find(st, pid);
	if (p)
		return p;
	if ((st->n + 1) * 2 > st->cap && grow(st))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	radix_init(&p->vmas);
	radix_init(&p->vmflags);
	radix_init(&p->pages);
	st->p[slot_of(st, pid)] = p;
	st->n++;
	return p;
}

/* the one-valued difference of kind */
static struct ent *one(struct standing *st, struct prec *p, enum sd_kind kind)
{
	switch (kind) {
	case SD_TASK: return &p->task;
	case SD_VMLCK: return &p->vmlck;
	case SD_DEF_FLAGS: return &p->def_flags;
	case SD_NR_MLOCK: return &st->nr_mlock;
	default: return NULL;
	}
}

static int note_ent(struct standing *st, struct ent *e, uint64_t a, uint64_t b)
{
	e->epoch = st->epoch;
	if (e->stands && e->a == a && e->b == b)
		return 0;
	st->stood += !e->stands;
	e->a = a;
	e->b = b;
	e->stands = true;
	return 1;
}

int standing_note(struct standing *st, enum sd_kind kind, int pid, uint64_t key, uint64_t a,
		  uint64_t b)
{
	if (kind == SD_NR_MLOCK)
		return note_ent(st, &st->nr_mlock, a, b);
	struct prec *p = prec_get(st, pid);
	if (!p)
		return -1;
	uint64_t vpn = key >> 12;
	if (kind == SD_PAGE) {
		if (vpn > RADIX_KEY_MAX)
			return 1; /* no page table holds it: listed, not kept */
		uint64_t old = radix_get(&p->pages, vpn);
		uint16_t v = (uint16_t)(a << 8 | b);
		if (radix_set(&p->pages, vpn, PAGE_SLOT(st->epoch, a, b)))
			return -1;
		st->stood += !old;
		return old && PAGE_VALUE(old) == v ? 0 : 1;
	}
	if (kind == SD_VMAS || kind == SD_VMFLAGS) {
		struct radix *r = kind == SD_VMAS ? &p->vmas : &p->vmflags;
		if (vpn > RADIX_KEY_MAX)
			return 1;
		struct ent *e = (struct ent *)(uintptr_t)radix_get(r, vpn);
		if (!e) {
			e = calloc(1, sizeof(*e));
			if (!e || radix_set(r, vpn, (uint64_t)(uintptr_t)e)) {
				free(e);
				return -1;
			}
		}
		return note_ent(st, e, a, b);
	}
	struct ent *e = one(st, p, kind);
	bool was = e->stands;
	int n = note_ent(st, e, a, b);
	if (kind == SD_TASK && !was)
		st->tasks++;
	return n;
}

void standing_end_one(struct standing *st, enum sd_kind kind, int pid, standing_end_fn fn, void *ctx)
{
	struct prec *p = kind == SD_NR_MLOCK ? NULL : prec_find(st, pid);
	if (!p && kind != SD_NR_MLOCK)
		return;
	struct ent *e = one(st, p, kind);
	if (!e || !e->stands || e->epoch == st->epoch)
		return;
	e->stands = false;
	st->stood--;
	if (kind == SD_TASK)
		st->tasks--;
	fn(ctx, kind, pid, 0);
}

void standing_end_range(struct standing *st, enum sd_kind kind, int pid, uint64_t lo, uint64_t hi,
			standing_end_fn fn, void *ctx)
{
	struct prec *p = prec_find(st, pid);
	if (!p || hi <= lo || (lo >> 12) > RADIX_KEY_MAX)
		return;
	struct radix *r = kind == SD_PAGE ? &p->pages : kind == SD_VMAS ? &p->vmas : &p->vmflags;
	if (!r->count)
		return;
	uint64_t k = lo >> 12, last = (hi - 1) >> 12;
	if (last > RADIX_KEY_MAX)
		last = RADIX_KEY_MAX;
	while (radix_next(r, &k, last)) {
		uint64_t v = radix_get(r, k);
		bool ended;
		if (kind == SD_PAGE) {
			ended = PAGE_EPOCH(v) != st->epoch;
		} else {
			struct ent *e = (struct ent *)(uintptr_t)v;
			ended = e->epoch != st->epoch;
			if (ended)
				free(e);
		}
		if (ended) {
			radix_clear(r, k);
			st->stood--;
			fn(ctx, kind, pid, k << 12);
		}
		if (k == last)
			break;
		k++;
	}
}

void standing_forget(struct standing *st, int pid)
{
	size_t i = slot_of(st, pid);
	struct prec *p = st->p[i];
	if (!p)
		return;
	if (p->task.stands)
		st->tasks--;
	/* a radix's vmas and vmflags entries all stand (note_ent()) */
	st->stood -= (uint64_t)p->task.stands + p->vmlck.stands + p->def_flags.stands + p->vmas.count +
		     p->vmflags.count + p->pages.count;
	prec_free(p);
	st->p[i] = NULL;
	st->n--;
	/* the entries after it in its probe run move up to where a lookup
	 * will find them */
	for (size_t j = (i + 1) & (st->cap - 1); st->p[j]; j = (j + 1) & (st->cap - 1)) {
		struct prec *q = st->p[j];
		st->p[j] = NULL;
		st->p[slot_of(st, q->pid)] = q;
	}
}

void standing_each_pid(struct standing *st, void (*fn)(void *ctx, int pid), void *ctx)
{
	if (!st->n)
		return;
	int *pids = malloc(st->n * sizeof(*pids));
	if (!pids)
		return;
	size_t n = 0;
	for (size_t i = 0; i < st->cap; i++)
		if (st->p[i])
			pids[n++] = st->p[i]->pid;
	for (size_t i = 0; i < n; i++)
		fn(ctx, pids[i]);
	free(pids);
}
