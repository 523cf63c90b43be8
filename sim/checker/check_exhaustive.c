/*
 * check_exhaustive.c - vmsim check --exhaustive (checker.h, section
 * "check_exhaustive"): every sequence of up to K calls of a finite
 * alphabet, breadth first, equal states explored once.
 *
 * A node is a sequence of alphabet symbols (its parent and its last
 * symbol).  The model has no copy of a machine, so a node's state is
 * built again for each of its children: a fresh machine, the node's
 * calls, then the child's call, under a checker that compares the state
 * before and after it.  The child's state is hashed
 * (vmsys_state_hash()); a hash met before ends that branch.  Breadth
 * first and in alphabet order, the first violation of an invariant that
 * the search meets is a shortest one, and of those the first in the
 * alphabet's order: what a shard finds is comparable with another's, so
 * shards (split by the first call) merge into the single run's answer.
 */
#include "checker.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "internal.h" /* the machine's advice numbers (struct arch_flags) */

#define K 1024ULL
#define PG 4096ULL
/* the default address space: two places of two pages, and a third of
 * one page for a mapping made into a hole */
#define PLACE_A 0x100000000ULL
#define PLACE_B (PLACE_A + 0x10000ULL)
#define PLACE_C (PLACE_A + 0x20000ULL)
#define TOP 0x7ffffffff000ULL /* the top of the x86_64 user address space */

void exh_default_machine(struct gen_machine *m)
{
	memset(m, 0, sizeof(*m));
	m->ram = 16ULL << 20;
	m->swap = 8ULL << 20;       /* reclaim may take shared anonymous pages */
	m->rlimit_memlock = 8 * K; /* two pages: it binds */
	m->max_map_count = 3;      /* it binds too: a fourth mapping is the limit's edge */
	m->cap_ipc_lock = false;
	m->zero_page = true;
	m->numa_nodes = 1;
}

static void sym_add(struct exh_alphabet *a, const struct gstep *st, const char *arch, const char *kernel)
{
	if (!a->sym || a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 32;
		struct exh_symbol *n = vm_realloc(a->sym, cap * sizeof(*n));
		if (!n)
			return; /* vm_host_oom */
		a->sym = n;
		a->cap = cap;
	}
	struct exh_symbol *y = &a->sym[a->n++];
	y->st = *st;
	struct event *ev = vm_calloc(1, sizeof(*ev));
	if (!ev) {
		y->text[0] = 0;
		return;
	}
	gstep_event(st, ev);
	trace_format_event(ev, arch, kernel, y->text, sizeof(y->text));
	free(ev);
}

static struct gstep step(uint8_t sys, int pid, unsigned nargs, uint64_t a0, uint64_t a1, uint64_t a2,
			 uint64_t a3, uint64_t a4, uint64_t a5)
{
	struct gstep st;
	memset(&st, 0, sizeof(st));
	st.sys = sys;
	st.pid = pid;
	st.nargs = (uint8_t)nargs;
	uint64_t v[6] = { a0, a1, a2, a3, a4, a5 };
	memcpy(st.args, v, sizeof(v));
	return st;
}

int exh_default_alphabet(const struct check_plan *p, const struct gen_machine *m, struct exh_alphabet *a,
			 char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	/* the arch's flag values, as the generator reads them */
	struct vmsys *s = gen_machine_new(m, p->sem, p->arch, err, errlen);
	if (!s)
		return -1;
	struct gen g;
	gen_init(&g, 1, p->w, s);
	int64_t madv_dontneed = s->af.madv[MADV_X_DONTNEED], madv_remove = s->af.madv[MADV_X_REMOVE];
	vmsys_free(s);
	const char *kn = p->sem->flag_kernel;
	int P = GEN_FIRST_PID, C = GEN_FIRST_PID + 1;
	uint64_t rw = g.prot_r | g.prot_w, anon = g.map_anon | g.map_fixed;
	uint64_t lof = g.map_lockonfault; /* lof-v1's MAP_LOCKONFAULT; 0 elsewhere */
	struct gstep v[] = {
		step(SYS_MMAP, P, 6, PLACE_A, 2 * PG, rw, g.map_private | anon, (uint64_t)-1, 0),
		step(SYS_MMAP, P, 6, PLACE_B, 2 * PG, rw, g.map_shared | anon, (uint64_t)-1, 0),
		step(SYS_MMAP, P, 6, PLACE_A, 2 * PG, rw, g.map_private | anon | g.map_locked, (uint64_t)-1, 0),
		step(SYS_MMAP, P, 6, PLACE_B, 2 * PG, rw, g.map_shared | anon | g.map_populate, (uint64_t)-1, 0),
		step(SYS_MMAP, P, 6, PLACE_A, 2 * PG, rw, g.map_private | anon | lof, (uint64_t)-1, 0),
		step(SYS_MMAP, P, 6, PLACE_B, PG, rw, g.map_shared | anon | g.map_populate | lof, (uint64_t)-1, 0),
		step(SYS_MMAP, P, 6, PLACE_C, PG, g.prot_r, g.map_private | anon, (uint64_t)-1, 0),
		step(SYS_MUNMAP, P, 2, PLACE_A, PG, 0, 0, 0, 0),
		step(SYS_MUNMAP, P, 2, PLACE_B, 2 * PG, 0, 0, 0, 0),
		step(SYS_MPROTECT, P, 3, PLACE_A, PG, g.prot_r, 0, 0, 0),
		step(SYS_MREMAP, P, 4, PLACE_A, 2 * PG, PG, 0, 0, 0),
		step(SYS_MREMAP, P, 4, PLACE_A, PG, 2 * PG, 0, 0, 0),
		step(SYS_MREMAP, P, 5, PLACE_A, 2 * PG, 2 * PG, g.mr_maymove | g.mr_fixed, PLACE_B, 0),
		/* 5.7+: the old range stays, emptied; before: a move elsewhere */
		step(SYS_MREMAP, P, 4, PLACE_A + PG, PG, PG, g.mr_maymove | g.mr_dontunmap, 0, 0),
		step(SYS_MLOCK, P, 2, PLACE_A, 2 * PG, 0, 0, 0, 0),
		step(SYS_MLOCK2, P, 3, PLACE_A, 2 * PG, g.mlock_onfault, 0, 0, 0),
		step(SYS_MLOCK, P, 2, PLACE_B, PG, 0, 0, 0, 0),
		step(SYS_MUNLOCK, P, 2, PLACE_A, PG, 0, 0, 0, 0),
		step(SYS_MLOCKALL, P, 1, g.mcl_current, 0, 0, 0, 0, 0),
		step(SYS_MLOCKALL, P, 1, g.mcl_future, 0, 0, 0, 0, 0),
		step(SYS_MLOCKALL, P, 1, g.mcl_future | g.mcl_onfault, 0, 0, 0, 0, 0),
		step(SYS_MUNLOCKALL, P, 0, 0, 0, 0, 0, 0, 0),
		step(SYS_MADVISE, P, 3, PLACE_B, 2 * PG, (uint64_t)madv_dontneed, 0, 0, 0),
		/* from the first place to the top: what mremap moved too */
		step(SYS_MADVISE, P, 3, PLACE_A, TOP - PLACE_A, (uint64_t)madv_remove, 0, 0, 0),
		step(SYS_TOUCH, P, 3, PLACE_A, 2 * PG, ACC_WRITE, 0, 0, 0),
		step(SYS_TOUCH, P, 3, PLACE_B, PG, ACC_READ, 0, 0, 0),
		step(SYS_RECLAIM, P, 1, 32, 0, 0, 0, 0, 0),
		step(SYS_FORK, P, 0, 0, 0, 0, 0, 0, 0),
		step(SYS_TOUCH, C, 3, PLACE_A, 2 * PG, ACC_WRITE, 0, 0, 0),
		step(SYS_MLOCK, C, 2, PLACE_B, 2 * PG, 0, 0, 0, 0),
		step(SYS_EXIT_GROUP, C, 1, 0, 0, 0, 0, 0, 0),
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (v[i].sys == SYS_FORK) {
			v[i].has_val = 1;
			v[i].value = C;
		}
		/* a flag this kernel has not (MAP_LOCKONFAULT, MCL_ONFAULT before
		 * 4.4) makes a symbol another one is already: once */
		bool dup = false;
		for (size_t j = 0; j < a->n && !dup; j++)
			dup = !memcmp(&a->sym[j].st, &v[i], sizeof(v[i]));
		if (!dup)
			sym_add(a, &v[i], p->arch, kn);
	}
	a->is_default = true;
	return vm_host_oom ? -1 : 0;
}

int exh_alphabet_add_event(struct exh_alphabet *a, const struct event *ev, const char *arch,
			   const char *kernel, char *err, size_t errlen)
{
	if (ev->type != EV_CALL || ev->sys == SYS_UNKNOWN) {
		snprintf(err, errlen, "not a call the model follows");
		return -1;
	}
	if (ev->str.len || ev->sys == SYS_OPENAT || ev->sys == SYS_OPEN) {
		snprintf(err, errlen, "a call with a path or string argument cannot be an alphabet symbol");
		return -1;
	}
	if (a->n >= EXH_MAX_SYMBOLS) {
		snprintf(err, errlen, "more than %u symbols", EXH_MAX_SYMBOLS);
		return -1;
	}
	struct gstep st;
	memset(&st, 0, sizeof(st));
	st.sys = (uint8_t)ev->sys;
	st.pid = ev->pid ? ev->pid : GEN_FIRST_PID;
	st.nargs = (uint8_t)(ev->nargs < 6 ? ev->nargs : 6);
	memcpy(st.args, ev->args, sizeof(st.args));
	if (ev->res == RES_VALUE && (ev->sys == SYS_FORK || ev->sys == SYS_VFORK || ev->sys == SYS_CLONE)) {
		st.has_val = 1;
		st.value = ev->value;
	}
	if (ev->has_rlim) {
		st.rlim_cur = ev->rlim_cur;
		st.rlim_max = ev->rlim_max;
	}
	if (ev->sys == SYS_CAPSET)
		st.args[0] = ev->cap_effective;
	sym_add(a, &st, arch, kernel);
	return vm_host_oom ? -1 : 0;
}

void exh_alphabet_free(struct exh_alphabet *a)
{
	free(a->sym);
	memset(a, 0, sizeof(*a));
}

uint64_t exh_alphabet_id(const struct exh_alphabet *a)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < a->n; i++)
		for (const char *c = a->sym[i].text; *c; c++)
			h = (h ^ (uint8_t)*c) * 1099511628211ULL;
	return h ^ a->n;
}

/* ---- the set of states met ---------------------------------------------- */

struct hset {
	uint64_t *k;           /* pairs; (0, 0) = empty */
	size_t cap, n;
};

static bool hset_put(struct hset *s, const uint64_t h[2], bool *added)
{
	uint64_t a = h[0], b = h[1] ? h[1] : 1; /* (x, 0) is never a key */
	if (2 * (s->n + 1) > s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 1 << 16;
		uint64_t *nk = vm_calloc(2 * nc, sizeof(*nk));
		if (!nk)
			return false;
		for (size_t i = 0; i < s->cap; i++)
			if (s->k[2 * i + 1]) {
				size_t j = s->k[2 * i] & (nc - 1);
				while (nk[2 * j + 1])
					j = (j + 1) & (nc - 1);
				nk[2 * j] = s->k[2 * i];
				nk[2 * j + 1] = s->k[2 * i + 1];
			}
		free(s->k);
		s->k = nk;
		s->cap = nc;
	}
	size_t j = a & (s->cap - 1);
	while (s->k[2 * j + 1]) {
		if (s->k[2 * j] == a && s->k[2 * j + 1] == b) {
			*added = false;
			return true;
		}
		j = (j + 1) & (s->cap - 1);
	}
	s->k[2 * j] = a;
	s->k[2 * j + 1] = b;
	s->n++;
	*added = true;
	return true;
}

/* ---- the search ----------------------------------------------------------- */

struct search {
	const struct check_plan *p;
	const struct gen_machine *m;
	const struct exh_alphabet *a;
	const struct exh_opts *o;
	struct exh_result *r;
	struct event *ev;
	uint32_t *parent;      /* per node: its parent (0 for the root) */
	uint16_t *sym;         /* per node: the symbol that made it */
	size_t nnodes, capnodes;
	struct hset seen;
	double t0, last_progress;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* the symbols of node's sequence into path[]; its depth */
static unsigned path_of(const struct search *x, size_t node, uint16_t *path)
{
	unsigned d = 0;
	uint16_t rev[EXH_MAX_DEPTH];
	while (node) {
		rev[d++] = x->sym[node];
		node = x->parent[node];
	}
	for (unsigned i = 0; i < d; i++)
		path[i] = rev[d - 1 - i];
	return d;
}

/* the fresh machine of the search, with its first process */
static struct vmsys *fresh_machine(const struct search *x, char *err, size_t errlen)
{
	struct vmsys *s = gen_machine_new(x->m, x->p->sem, x->p->arch, err, errlen);
	if (s && !vmsys_task(s, GEN_FIRST_PID, true)) {
		vmsys_free(s);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return s;
}

static bool task_live(struct vmsys *s, int pid)
{
	struct task *t = vmsys_task(s, pid, false);
	return t && task_alive(t);
}

/* Run path[0..d) then symbol y on a fresh machine: 1 with the child's
 * violations and hash, 0 when y cannot run there (its process does not
 * exist, a fork's pid is taken), -1 on an error */
static int transition(struct search *x, const uint16_t *path, unsigned d, unsigned y, uint32_t *viol,
		      uint64_t h[2], char *err, size_t errlen)
{
	const struct gstep *st = &x->a->sym[y].st;
	struct vmsys *s = fresh_machine(x, err, errlen);
	if (!s)
		return -1;
	struct outcome out;
	char e2[256];
	for (unsigned i = 0; i < d; i++) {
		gstep_event(&x->a->sym[path[i]].st, x->ev);
		if (apply_event(s, x->ev, &out, e2, sizeof(e2))) {
			vmsys_free(s); /* it ran when the node was made: cannot happen */
			snprintf(err, errlen, "the sequence of a state no longer runs: %s", e2);
			return -1;
		}
	}
	bool forks = st->sys == SYS_FORK || st->sys == SYS_VFORK || st->sys == SYS_CLONE;
	if (!task_live(s, st->pid) || (forks && st->has_val && vmsys_task(s, (int)st->value, false))) {
		vmsys_free(s);
		return 0;
	}
	struct check_inv *ci = check_inv_new(s, x->p->mask);
	if (!ci) {
		vmsys_free(s);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	check_inv_set_full_walks(ci, true);
	gstep_event(st, x->ev);
	check_inv_before(ci, x->ev);
	if (apply_event(s, x->ev, &out, e2, sizeof(e2))) {
		check_inv_free(ci);
		vmsys_free(s);
		return 0;
	}
	*viol = check_inv_after(ci, x->ev, &out);
	for (unsigned k = 0; k < INV_NR; k++)
		if ((*viol >> k & 1) && !x->r->inv[k].depth)
			snprintf(x->r->inv[k].msg, sizeof(x->r->inv[k].msg), "%s", check_inv_msg(ci, k));
	vmsys_state_hash(s, h);
	check_inv_free(ci);
	vmsys_free(s);
	return 1;
}

static bool node_add(struct search *x, size_t parent, unsigned y)
{
	if (x->nnodes == x->capnodes) {
		size_t nc = x->capnodes ? 2 * x->capnodes : 4096;
		uint32_t *np = vm_realloc(x->parent, nc * sizeof(*np));
		if (np)
			x->parent = np;
		uint16_t *ns = np ? vm_realloc(x->sym, nc * sizeof(*ns)) : NULL;
		if (!ns)
			return false;
		x->sym = ns;
		x->capnodes = nc;
	}
	x->parent[x->nnodes] = (uint32_t)parent;
	x->sym[x->nnodes] = (uint16_t)y;
	x->nnodes++;
	return true;
}

int exh_run(const struct check_plan *p, const struct gen_machine *m, const struct exh_alphabet *a,
	    const struct exh_opts *o, struct exh_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (!a->n || a->n > EXH_MAX_SYMBOLS || o->depth > EXH_MAX_DEPTH) {
		snprintf(err, errlen, "an alphabet of 1 to %u calls and a depth up to %u", EXH_MAX_SYMBOLS,
			 EXH_MAX_DEPTH);
		return -1;
	}
	struct search x = { .p = p, .m = m, .a = a, .o = o, .r = r };
	x.ev = vm_calloc(1, sizeof(*x.ev));
	int rc = -1;
	if (!x.ev || !node_add(&x, 0, 0))
		goto out;
	x.t0 = x.last_progress = now();
	/* the root: the fresh machine */
	{
		struct vmsys *s = fresh_machine(&x, err, errlen);
		if (!s)
			goto out;
		uint64_t h[2];
		bool added;
		vmsys_state_hash(s, h);
		vmsys_free(s);
		if (!hset_put(&x.seen, h, &added))
			goto out;
	}
	r->states = 1;
	size_t level_first = 0, level_end = 1;
	uint16_t path[EXH_MAX_DEPTH];
	for (unsigned depth = 0; depth < o->depth; depth++) {
		for (size_t node = level_first; node < level_end; node++) {
			unsigned d = path_of(&x, node, path);
			for (unsigned y = 0; y < a->n; y++) {
				/* a shard takes the first calls y with y % n == i - 1 */
				if (depth == 0 && o->shard_n > 1 && y % o->shard_n != o->shard_i - 1)
					continue;
				uint32_t viol = 0;
				uint64_t h[2];
				int t = transition(&x, path, d, y, &viol, h, err, errlen);
				if (t < 0)
					goto out;
				if (!t)
					continue;
				r->transitions++;
				for (unsigned k = 0; k < INV_NR; k++)
					if ((viol >> k & 1) && !r->inv[k].depth) {
						r->inv[k].depth = d + 1;
						for (unsigned i = 0; i < d; i++)
							r->inv[k].steps[i] = a->sym[path[i]].st;
						r->inv[k].steps[d] = a->sym[y].st;
					}
				bool added;
				if (!hset_put(&x.seen, h, &added) || (added && !node_add(&x, node, y))) {
					snprintf(err, errlen, "out of memory at %" PRIu64 " states", r->states);
					goto out;
				}
				r->states += added;
				if (o->progress && now() - x.last_progress >= 1.0) {
					x.last_progress = now();
					o->progress(o->ctx, depth + 1, r->states, r->transitions, x.last_progress - x.t0);
				}
			}
			if (o->time_budget > 0 && now() - x.t0 >= o->time_budget) {
				r->stopped = true;
				break;
			}
		}
		if (r->stopped)
			break;
		r->reached = depth + 1;
		level_first = level_end;
		level_end = x.nnodes;
		if (level_first == level_end)
			break; /* no new state: every longer sequence ends in a state met */
	}
	r->closed = level_first == level_end && !r->stopped;
	r->seconds = now() - x.t0;
	rc = 0;
out:
	free(x.ev);
	free(x.parent);
	free(x.sym);
	free(x.seen.k);
	if (rc && !err[0])
		snprintf(err, errlen, "out of memory");
	return rc;
}

bool exh_better(const struct exh_found *a, const struct exh_found *b, const struct exh_alphabet *al)
{
	if (!a->depth)
		return false;
	if (!b->depth || a->depth != b->depth)
		return !b->depth || a->depth < b->depth;
	/* the same depth: the first in the alphabet's order, call by call */
	for (unsigned i = 0; i < a->depth; i++) {
		size_t ia = 0, ib = 0;
		for (size_t k = 0; k < al->n; k++) {
			if (!memcmp(&al->sym[k].st, &a->steps[i], sizeof(struct gstep)))
				ia = k;
			if (!memcmp(&al->sym[k].st, &b->steps[i], sizeof(struct gstep)))
				ib = k;
		}
		if (ia != ib)
			return ia < ib;
	}
	return false;
}
