/*
 * check_inv.c - the promise invariants of `vmsim check`.  See checker.h, section "check_inv"
 * and docs/invariants.md (one section per rule, with its source).
 *
 * The checker reads the model's state directly (model/internal.h,
 * read-only) because it runs after every generated step and must cost
 * about as much as the step itself: no allocation, no formatting unless a
 * rule fails.  What it reads is what /proc shows (VMAs and their flags,
 * locked_vm/total_vm, page table presence, page flags, the LRU lists);
 * the rules themselves are the documented promises, never a copy of a
 * version's code paths.
 */
#include "alloc.h"
#include "checker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const names[INV_NR] = {
	"locked-vm-accounting", "locked-vm-range", "rlimit-memlock", "unlock-complete",
	"fork-no-inherit", "onfault-no-prefault", "locked-never-reclaimed", "mlocked-pages",
	"lru-consistent", "vma-tree", "locked-madvise",
};

const char *inv_name(unsigned id) { return id < INV_NR ? names[id] : "?"; }

int inv_find(const char *name)
{
	for (unsigned i = 0; i < INV_NR; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

struct pref { struct task *t; uint64_t vpn; };

/* A locked VMA's range, as check_mm() walks its pages */
struct lrange { uint64_t start, end; };

/* A VMA as the memo keeps it */
struct vrange { uint64_t start, end; bool locked; };

/* One mm's VMAs as the last walk found them, brought up to date since
 * over the spans the calls named (respan()): every VMA, the locked ranges
 * and the locked pages they sum to, and the total_vm and map_count they
 * stand for */
struct vma_memo {
	uint32_t id;           /* the mm's id: an mm freed and another at its address is another */
	bool valid;            /* false: walk again (the walk found a rule broken,
				* whose message must come from a walk) */
	bool seen;             /* in this after-check's walk of the live mms */
	unsigned respans;      /* respan()s since the last full walk */
	uint64_t total_vm, map_count, locked;
	struct lrange *r;      /* the locked ones of all, apart: check_mm() walks
				* their pages after every step */
	size_t nr, cap;
	struct vrange *all;    /* every VMA, in address order */
	size_t nall, capall;
};

/* A full walk of an mm's VMAs after at most this many respan()s: a call
 * that changed a VMA outside the span it names (a model bug the spans
 * cannot see unless the VMA count or size moved) is found within as many
 * of that mm's calls */
#define RESPANS_PER_WALK 64

/* An address range a call names: the VMAs it may change lie in it or
 * next to it */
struct span { uint64_t lo, hi; };

struct check_inv {
	struct vmsys *s;
	uint32_t mask;
	vm_flags_t lockbits;   /* every VMA bit the semantics uses to mean "locked" */
	vm_flags_t never;      /* VMAs the kernel never locks */
	/* before-state of the current event */
	struct task *caller;
	uint32_t caller_mm;    /* the caller's mm->id before the event, 0 without one */
	bool caller_cap;
	uint64_t caller_rlim, caller_locked;
	uint64_t caller_brk, caller_start_brk; /* its mm's (start_brk 0: the heap's start unknown) */
	bool use_next;         /* this before-check reuses the last after-check's walk */
	bool onfault_req;      /* a lock-on-fault request: compare present pages */
	uint64_t of_lo, of_hi; /* its vpn range */
	bool reclaim_kind;     /* a step that must not take pages of locked VMAs */
	bool madv_refuse;      /* madvise(DONTNEED|FREE|REMOVE) over a locked VMA */
	uint64_t madv_lo, madv_hi;
	/* page snapshots */
	uint64_t *vpns; size_t nvpn, capvpn;
	struct pref *pr; size_t npr, cappr;
	/* per-pfn visit stamps for the LRU walk */
	uint32_t *stamp; size_t nstamp; uint32_t epoch;
	uint8_t *lockmap; /* pfn mapped by a locked VMA, this check */
	pfn_t *lockset; size_t nlock, caplock; /* the pfns set in lockmap */
	/* what check_inv_after() found, for check_inv_before_next(): the
	 * present PTEs of locked VMAs (the snapshot locked-never-reclaimed
	 * takes) and each mm's locked pages */
	struct pref *nx; size_t nnx, capnx;
	bool next_ok;          /* recording nx in this after-check */
	bool after_ran, snap_ok; /* memo (and nx, if snap_ok) describe the state now */
	/* what the last walk of each live mm's VMAs found (check_mm()), up to
	 * 64 mms: the after-check reuses it for the mms an event could not
	 * have changed, the before-check and the rlimit rule take the locked
	 * pages from it */
	struct vma_memo memo[64];
	unsigned nmemo;
	bool full_walks;       /* never reuse a memo (check_inv_set_full_walks()) */
	struct vrange *scr;    /* respan(): the live VMAs of the span */
	struct lrange *scrl;   /* and the locked ones among them */
	size_t capscr, capscrl;
	uint32_t quiet;        /* rules whose messages no one reads (check_inv_set_quiet()) */
	/* between walks of the LRU lists (lru_walk_due()): the pages the
	 * model's tracepoints named since the last after-check, while the
	 * hook is this checker's (note_pfn()) */
	pfn_t *tpp; size_t ntpp, captpp;
	bool tp_over;          /* more than LRU_NOTE_MAX: walk */
	uint8_t *mlk;          /* per pfn: counted in nr_mlock's sum (of the last walk, kept up) */
	uint8_t *inbatch;      /* per pfn: in a per-CPU batch (lru_walk_due() only) */
	uint64_t nmlk;         /* the pfns set in mlk */
	pfn_t *oldlock; size_t noldlock, capold; /* the last after-check's lockset */
	pfn_t prevbatch[2 * LRU_BATCH_MAX]; unsigned nprevbatch;
	unsigned lru_since;    /* after-checks since the last walk of the lists */
	uint32_t lru_found;    /* what the last walk found (a break stays until mended) */
	bool was_drained;      /* the batches were empty at the last after-check */
	uint64_t dormant;      /* the last walk's mlocked unevictable pages that no
				* locked VMA maps and nothing maps: a fault-around
				* maps pages unnamed, so walk while any is left */
	char msg[INV_NR][320];
};

#define LRU_NOTE_MAX (1u << 16) /* pages noted in one step before a walk is cheaper */

struct check_inv *check_inv_new(struct vmsys *s, uint32_t mask)
{
	struct check_inv *ci = vm_calloc(1, sizeof(*ci));
	if (!ci)
		return NULL;
	ci->s = s;
	ci->mask = mask;
	ci->lockbits = VM_LOCKED | s->sem->lock_mask | s->sem->onfault_bit;
	ci->never = VM_SPECIAL | VM_HUGETLB | VM_DROPPABLE;
	ci->nstamp = (size_t)s->pm.nr_frames + 2;
	ci->stamp = vm_calloc(ci->nstamp, sizeof(*ci->stamp));
	ci->lockmap = vm_calloc(ci->nstamp, 1);
	ci->mlk = vm_calloc(ci->nstamp, 1);
	ci->inbatch = vm_calloc(ci->nstamp, 1);
	if (!ci->stamp || !ci->lockmap || !ci->mlk || !ci->inbatch) {
		check_inv_free(ci);
		return NULL;
	}
	return ci;
}

static void note_pfn(void *ctx, const struct tp_event *e);

static bool tp_mine(const struct check_inv *ci)
{
	return ci->s->tp_hook == note_pfn && ci->s->tp_ctx == ci;
}

void check_inv_set_full_walks(struct check_inv *ci, bool on)
{
	ci->full_walks = on;
	if (on && tp_mine(ci))
		vmsys_set_tracepoint(ci->s, NULL, NULL);
}

void check_inv_set_quiet(struct check_inv *ci, uint32_t mask)
{
	ci->quiet = mask;
}

void check_inv_free(struct check_inv *ci)
{
	if (!ci)
		return;
	if (tp_mine(ci))
		vmsys_set_tracepoint(ci->s, NULL, NULL);
	free(ci->tpp);
	free(ci->mlk);
	free(ci->inbatch);
	free(ci->oldlock);
	for (unsigned i = 0; i < sizeof(ci->memo) / sizeof(ci->memo[0]); i++)
		free(ci->memo[i].r), free(ci->memo[i].all);
	free(ci->scr);
	free(ci->scrl);
	free(ci->vpns);
	free(ci->pr);
	free(ci->stamp);
	free(ci->lockmap);
	free(ci->lockset);
	free(ci->nx);
	free(ci);
}

const char *check_inv_msg(const struct check_inv *ci, unsigned id)
{
	return id < INV_NR ? ci->msg[id] : "";
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true; /* the common case, without a call */
	void *q = vm_grow(*p, cap, need, elem);
	if (q)
		*p = q;
	return q != NULL;
}

static bool vma_locked(const struct check_inv *ci, const struct vma *v)
{
	return (v->flags & ci->lockbits) && !(v->flags & ci->never);
}

static uint64_t mm_locked_pages(const struct check_inv *ci, const struct mm *mm)
{
	uint64_t n = 0;
	for (const struct vma *v = mm->vmas.first; v; v = v->next)
		if (vma_locked(ci, v))
			n += vma_pages(v);
	return n;
}

/* mm's memo, if one is kept */
static struct vma_memo *find_memo(struct check_inv *ci, const struct mm *mm)
{
	for (unsigned i = 0; i < ci->nmemo; i++)
		if (ci->memo[i].id == mm->id)
			return &ci->memo[i];
	return NULL;
}

/* mm's locked pages: the last after-check's sum when it stands (known:
 * nothing changed since, or this after-check made it), else a walk */
static uint64_t locked_pages(struct check_inv *ci, const struct mm *mm, bool known)
{
	const struct vma_memo *m = known ? find_memo(ci, mm) : NULL;
	return m ? m->locked : mm_locked_pages(ci, mm);
}

static bool pte_present(uint64_t pte) { return (pte & PTE_PRESENT) != 0; }

/* present vpns of mm in [lo, hi] into ci->vpns (appends) */
static void collect_present(struct check_inv *ci, struct mm *mm, uint64_t lo, uint64_t hi)
{
	uint64_t vpn = lo;
	while (vpn <= hi && radix_next(&mm->pt, &vpn, hi)) {
		if (pte_present(radix_get(&mm->pt, vpn)) && grow((void **)&ci->vpns, &ci->capvpn, ci->nvpn + 1,
							       sizeof(uint64_t)))
			ci->vpns[ci->nvpn++] = vpn;
		vpn++;
	}
}

static int64_t madv_num(const struct vmsys *s, enum madv a) { return s->af.madv[a]; }

static void before_impl(struct check_inv *ci, const struct event *ev);

void check_inv_before(struct check_inv *ci, const struct event *ev)
{
	ci->use_next = false;
	before_impl(ci, ev);
}

void check_inv_before_next(struct check_inv *ci, const struct event *ev)
{
	ci->use_next = ci->after_ran;
	before_impl(ci, ev);
}

static void before_impl(struct check_inv *ci, const struct event *ev)
{
	struct vmsys *s = ci->s;
	ci->after_ran = false; /* whatever happens next changes the state */
	ci->caller = NULL;
	ci->caller_mm = 0;
	ci->onfault_req = ci->reclaim_kind = ci->madv_refuse = false;
	ci->nvpn = ci->npr = 0;
	if (ev->type != EV_CALL)
		return;
	struct task *t = vmsys_task(s, ev->pid, false);
	if (t && (!t->alive || !t->mm))
		t = NULL;
	ci->caller = t;
	ci->caller_mm = t ? t->mm->id : 0;
	if (t) {
		ci->caller_cap = capable_ipc_lock(t);
		ci->caller_rlim = rlimit_memlock_pages(t);
		ci->caller_locked = locked_pages(ci, t->mm, ci->use_next);
		ci->caller_brk = t->mm->brk;
		ci->caller_start_brk = t->mm->start_brk;
	}
	const uint64_t *a = ev->args;
	const struct arch_flags *af = &s->af;
	/* onfault-no-prefault: mlock2(MLOCK_ONFAULT), mlockall(MCL_ONFAULT) */
	if (t && (ci->mask & (1u << INV_ONFAULT_NO_PREFAULT))) {
		if (ev->sys == SYS_MLOCK2 && af->mlock_onfault && (a[2] & af->mlock_onfault)) {
			uint64_t start = a[0] & PAGE_MASK, end = PAGE_ALIGN(a[0] + a[1]);
			if (end > start && end <= TASK_SIZE) {
				ci->onfault_req = true;
				ci->of_lo = start >> PAGE_SHIFT;
				ci->of_hi = (end >> PAGE_SHIFT) - 1;
			}
		} else if (ev->sys == SYS_MLOCKALL && af->mcl.onfault && (a[0] & af->mcl.onfault)) {
			ci->onfault_req = true;
			ci->of_lo = 0;
			ci->of_hi = RADIX_KEY_MAX;
		}
		if (ci->onfault_req)
			collect_present(ci, t->mm, ci->of_lo, ci->of_hi);
	}
	/* locked-madvise: the advices the man page says refuse locked ranges */
	if (t && ev->sys == SYS_MADVISE && (ci->mask & (1u << INV_LOCKED_MADVISE))) {
		int64_t adv = (int64_t)a[2];
		if (adv == madv_num(s, MADV_X_DONTNEED) || adv == madv_num(s, MADV_X_FREE) ||
		    adv == madv_num(s, MADV_X_REMOVE)) {
			uint64_t start = a[0], end = PAGE_ALIGN(a[0] + a[1]);
			if (!(start & ~PAGE_MASK) && end > start) {
				for (const struct vma *v = t->mm->vmas.first; v; v = v->next)
					if (v->end > start && v->start < end && (v->flags & ci->lockbits)) {
						ci->madv_refuse = true;
						uint64_t lo = v->start > start ? v->start : start;
						uint64_t hi = v->end < end ? v->end : end;
						collect_present(ci, t->mm, lo >> PAGE_SHIFT, (hi >> PAGE_SHIFT) - 1);
					}
				ci->madv_lo = start;
				ci->madv_hi = end;
			}
		}
	}
	/* locked-never-reclaimed: every step except those that legitimately
	 * remove mappings (unmap, move, replace, truncate, exit, discard) */
	if (ci->mask & (1u << INV_LOCKED_NEVER_RECLAIMED)) {
		bool kind = true;
		switch (ev->sys) {
		case SYS_MUNMAP: case SYS_MREMAP: case SYS_BRK: case SYS_EXIT: case SYS_EXIT_GROUP:
		case SYS_EXECVE: case SYS_FTRUNCATE: case SYS_FALLOCATE: case SYS_UNKNOWN:
			kind = false;
			break;
		case SYS_MMAP:
			kind = !(a[3] & af->map_fixed);
			break;
		case SYS_MADVISE: {
			int64_t adv = (int64_t)a[2];
			kind = !(adv == madv_num(s, MADV_X_DONTNEED) || adv == madv_num(s, MADV_X_FREE) ||
				 adv == madv_num(s, MADV_X_REMOVE) ||
				 adv == madv_num(s, MADV_X_DONTNEED_LOCKED) ||
				 adv == madv_num(s, MADV_X_GUARD_INSTALL));
			break;
		}
		default:
			break;
		}
		ci->reclaim_kind = kind;
		if (kind && ci->use_next && ci->snap_ok) {
			/* the snapshot check_inv_after() took of the same state */
			struct pref *p = ci->pr;
			size_t cap = ci->cappr;
			ci->pr = ci->nx;
			ci->cappr = ci->capnx;
			ci->npr = ci->nnx;
			ci->nx = p;
			ci->capnx = cap;
			ci->nnx = 0;
		} else if (kind) {
			for (struct task *u = s->live_head; u; u = u->live_next) {
				if (!task_owns_mm(s, u))
					continue;
				struct mm *mm = u->mm;
				for (const struct vma *v = mm->vmas.first; v; v = v->next) {
					if (!vma_locked(ci, v))
						continue;
					uint64_t vpn = v->start >> PAGE_SHIFT, last = (v->end >> PAGE_SHIFT) - 1;
					while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
						if (pte_present(radix_get(&mm->pt, vpn)) &&
						    grow((void **)&ci->pr, &ci->cappr, ci->npr + 1, sizeof(*ci->pr)))
							ci->pr[ci->npr++] = (struct pref){ u, vpn };
						vpn++;
					}
				}
			}
		}
	}
}

#define FAILV(id, ...)                                                      \
	do {                                                                \
		if (!((viol | ci->quiet) & (1u << (id))))                   \
			snprintf(ci->msg[id], sizeof(ci->msg[id]), __VA_ARGS__); \
		viol |= 1u << (id);                                         \
	} while (0)

#define ON(id) (ci->mask & (1u << (id)))
#define ULL(x) ((unsigned long long)(x))

/* The walk of mm's VMAs into m: the vma-tree rules, the locked pages, the
 * locked ranges; *kept false when m may not stand for the next walk (a
 * rule failed, whose message must come from a walk, or no memory). */
/* FAILV() in walk_vmas(), noting that a rule failed in this walk */
#define FAILW(id, ...)                   \
	do {                             \
		bad = true;              \
		FAILV(id, __VA_ARGS__);  \
	} while (0)

static uint32_t walk_vmas(struct check_inv *ci, struct task *t, struct vma_memo *m, uint32_t viol,
			  bool *kept)
{
	struct vmsys *s = ci->s;
	struct mm *mm = t->mm;
	uint64_t locked = 0, n = 0, prev_end = 0;
	bool bad = false; /* a rule failed here (viol may hold its bit already) */
	m->nr = m->nall = 0;
	m->respans = 0;
	const bool tree = ON(INV_VMA_TREE);
	for (const struct vma *v = mm->vmas.first; v; v = v->next) {
		n++;
		uint64_t start = v->start, end = v->end;
		if (tree && (start >= end || ((start | end) & ~PAGE_MASK) || start < prev_end)) {
			if (start >= end || (start & ~PAGE_MASK) || (end & ~PAGE_MASK))
				FAILW(INV_VMA_TREE, "pid %d: malformed VMA [0x%llx, 0x%llx)", t->pid,
				      ULL(start), ULL(end));
			if (start < prev_end)
				FAILW(INV_VMA_TREE, "pid %d: VMA [0x%llx, 0x%llx) overlaps or precedes its predecessor ending at 0x%llx",
				      t->pid, ULL(start), ULL(end), ULL(prev_end));
		}
		prev_end = end;
		bool lk = vma_locked(ci, v);
		if (grow((void **)&m->all, &m->capall, m->nall + 1, sizeof(*m->all)))
			m->all[m->nall++] = (struct vrange){ start, end, lk };
		else
			bad = true;
		if (!lk)
			continue;
		locked += vma_pages(v);
		if (grow((void **)&m->r, &m->cap, m->nr + 1, sizeof(*m->r)))
			m->r[m->nr++] = (struct lrange){ v->start, v->end };
		else
			bad = true;
	}
	if (ON(INV_VMA_TREE)) {
		if (n != mm->map_count)
			FAILW(INV_VMA_TREE, "pid %d: %llu VMAs but map_count %llu", t->pid, ULL(n),
			      ULL(mm->map_count));
		/* the promise of proc(5), "maximum number of memory map areas a
		 * process may have"; the kernels reach max + 1 through mmap and
		 * brk (do_mmap()/do_brk_flags() refuse only map_count > max; a
		 * split refuses map_count >= max): finding 2 of docs/findings.md */
		if (mm->map_count > s->max_map_count)
			FAILW(INV_VMA_TREE, "pid %d: map_count %llu exceeds max_map_count %llu (proc(5); the "
			      "kernel's do_mmap() allows max + 1)", t->pid, ULL(mm->map_count), ULL(s->max_map_count));
	}
	*kept = !bad; /* a failed rule's message must come again from a walk */
	m->id = mm->id;
	m->total_vm = mm->total_vm;
	m->map_count = mm->map_count;
	m->locked = locked;
	return viol;
}

/* Replace a[i0, i1) of the n elements of size elem by the k at src */
static bool splice(void **a, size_t *n, size_t *cap, size_t elem, size_t i0, size_t i1, const void *src,
		   size_t k)
{
	size_t m = *n - (i1 - i0) + k;
	if (m > *n && !grow(a, cap, m, elem))
		return false;
	char *b = *a;
	if (i1 < *n && k != i1 - i0)
		memmove(b + (i0 + k) * elem, b + i1 * elem, (*n - i1) * elem);
	if (k)
		memcpy(b + i0 * elem, src, k * elem);
	*n = m;
	return true;
}

/* The first of the sorted ranges from..n-1 (struct vrange or struct
 * lrange, by stride) that ends after x, or starts at or after x
 * (by_start); n when none.  By index: base is NULL while nothing was
 * stored, and NULL + 0 is undefined. */
static size_t range_search(const void *base, size_t from, size_t n, size_t stride, uint64_t x, bool by_start)
{
	size_t lo = from, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const uint64_t *r = (const uint64_t *)((const char *)base + mid * stride);
		if (by_start ? r[0] < x : r[1] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * m brought up to date over the span sp of a call alone: the memo's VMAs
 * there, with the VMA on each side of them (a call merges with its
 * neighbours: mm/mmap.c:vma_merge() @ v4.0, v6.1), are replaced by the
 * live ones.  False
 * when that cannot stand for a walk: a live VMA crosses the widened span's
 * edge (a change reached beyond it), a rule fails (its message must come
 * from a walk) or no memory.
 */
static bool respan(struct check_inv *ci, struct mm *mm, struct vma_memo *m, struct span sp)
{
	uint64_t lo = sp.lo, hi = sp.hi;
	size_t n = m->nall;
	size_t i0 = range_search(m->all, 0, n, sizeof(*m->all), lo, false);
	if (i0)
		i0--;
	size_t i1 = range_search(m->all, i0, n, sizeof(*m->all), hi, true);
	if (i1 < n)
		i1++;
	if (i0 < i1) {
		lo = m->all[i0].start < lo ? m->all[i0].start : lo;
		hi = m->all[i1 - 1].end > hi ? m->all[i1 - 1].end : hi;
	}
	uint64_t pages = 0, locked = 0;
	for (size_t i = i0; i < i1; i++) {
		uint64_t np = (m->all[i].end - m->all[i].start) >> PAGE_SHIFT;
		pages -= np;
		locked -= m->all[i].locked ? np : 0;
	}
	size_t k = 0, kl = 0;
	uint64_t prev = lo;
	for (const struct vma *v = vma_find(&mm->vmas, lo); v && v->start < hi; v = v->next) {
		uint64_t start = v->start, end = v->end;
		if (start < prev || end > hi || start >= end || ((start | end) & ~PAGE_MASK))
			return false;
		prev = end;
		bool lk = vma_locked(ci, v);
		if (!grow((void **)&ci->scr, &ci->capscr, k + 1, sizeof(*ci->scr)) ||
		    (lk && !grow((void **)&ci->scrl, &ci->capscrl, kl + 1, sizeof(*ci->scrl))))
			return false;
		ci->scr[k++] = (struct vrange){ start, end, lk };
		pages += vma_pages(v);
		if (lk) {
			ci->scrl[kl++] = (struct lrange){ start, end };
			locked += vma_pages(v);
		}
	}
	size_t j0 = range_search(m->r, 0, m->nr, sizeof(*m->r), lo, false);
	size_t j1 = range_search(m->r, j0, m->nr, sizeof(*m->r), hi, true);
	size_t was = i1 - i0;
	if (!splice((void **)&m->all, &m->nall, &m->capall, sizeof(*m->all), i0, i1, ci->scr, k) ||
	    !splice((void **)&m->r, &m->nr, &m->cap, sizeof(*m->r), j0, j1, ci->scrl, kl))
		return false;
	m->map_count += k - was;
	m->total_vm += pages;
	m->locked += locked;
	return true;
}

/* respan() over each span, or false: a full walk is due (RESPANS_PER_WALK)
 * or one would say more */
static bool respans(struct check_inv *ci, struct mm *mm, struct vma_memo *m, const struct span *sp, int nsp)
{
	if (++m->respans > RESPANS_PER_WALK)
		return false;
	for (int i = 0; i < nsp; i++)
		if (!respan(ci, mm, m, sp[i]))
			return false;
	return mm->map_count <= ci->s->max_map_count; /* the walk says so */
}

/*
 * One mm's VMA rules, locked pages and mlocked-pages rule.  The VMAs are
 * the memo's (reuse), brought up to date over the nsp spans sp of the
 * call, unless total_vm or map_count then disagree: the caller says which
 * mms the event may have changed and where (check_inv_after());
 * test_check_inv.c compares this with a full walk after every step.  The
 * pages of the locked ranges are walked every time: reclaim, migration
 * and other processes change them.
 */
static uint32_t check_mm(struct check_inv *ci, struct task *t, uint32_t viol, bool reuse, const struct span *sp,
			 int nsp)
{
	struct vmsys *s = ci->s;
	struct mm *mm = t->mm;
	struct vma_memo *m = find_memo(ci, mm), spare;
	if (!reuse || ci->full_walks || !m || !m->valid || (nsp && !respans(ci, mm, m, sp, nsp)) ||
	    m->total_vm != mm->total_vm || m->map_count != mm->map_count) {
		if (!m && ci->nmemo < sizeof(ci->memo) / sizeof(ci->memo[0]))
			m = &ci->memo[ci->nmemo++];
		if (!m) { /* more mms than memos: a walk of its own */
			spare = (struct vma_memo){ 0 };
			m = &spare;
		}
		viol = walk_vmas(ci, t, m, viol, &m->valid);
	}
	m->seen = true;
	uint64_t locked = m->locked;
	bool drained = !s->lru.add_batch.n && !s->lru.mlock_batch.n;
	for (size_t i = 0; ON(INV_MLOCKED_PAGES) && i < m->nr; i++) {
		const struct lrange *v = &m->r[i];
		uint64_t vpn = v->start >> PAGE_SHIFT, last = (v->end >> PAGE_SHIFT) - 1;
		while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
			uint64_t pte = radix_get(&mm->pt, vpn);
			pfn_t pfn = pte_pfn(pte);
			if (ci->next_ok && pte_present(pte)) {
				if (grow((void **)&ci->nx, &ci->capnx, ci->nnx + 1, sizeof(*ci->nx)))
					ci->nx[ci->nnx++] = (struct pref){ t, vpn };
				else
					ci->next_ok = false;
			}
			if (pte_present(pte) && pfn != PFN_ZERO) {
				const struct page *p = spage(s, pfn);
				if (pfn < ci->nstamp && !ci->lockmap[pfn] &&
				    grow((void **)&ci->lockset, &ci->caplock, ci->nlock + 1, sizeof(pfn_t))) {
					ci->lockmap[pfn] = 1;
					ci->lockset[ci->nlock++] = pfn;
				}
				if (!(p->flags & PG_MLOCKED))
					FAILV(INV_MLOCKED_PAGES, "pid %d: page 0x%llx (pfn %u) of locked VMA [0x%llx, 0x%llx) is not mlocked",
					      t->pid, ULL(vpn << PAGE_SHIFT), pfn, ULL(v->start), ULL(v->end));
				else if (drained && (p->flags & PG_LRU) && p->lru != LRU_UNEVICTABLE)
					FAILV(INV_MLOCKED_PAGES, "pid %d: mlocked page 0x%llx (pfn %u) of locked VMA [0x%llx, 0x%llx) is on evictable list %d with the batches drained",
					      t->pid, ULL(vpn << PAGE_SHIFT), pfn, ULL(v->start), ULL(v->end), p->lru);
			}
			vpn++;
		}
	}
	if (m == &spare)
		free(spare.r);
	if (ON(INV_LOCKED_VM_ACCOUNTING) && mm->locked_vm != locked)
		FAILV(INV_LOCKED_VM_ACCOUNTING, "pid %d: locked_vm is %lld pages but its locked VMAs hold %llu pages",
		      t->pid, (long long)mm->locked_vm, ULL(locked));
	if (ON(INV_LOCKED_VM_RANGE) && (mm->locked_vm > mm->total_vm || mm->locked_vm >> 62))
		FAILV(INV_LOCKED_VM_RANGE, "pid %d: locked_vm %lld pages is outside [0, total_vm = %llu]",
		      t->pid, (long long)mm->locked_vm, ULL(mm->total_vm));
	return viol;
}

static const enum vmstat_item lru_stat[NR_LRU_LISTS] = {
	NR_INACTIVE_ANON, NR_ACTIVE_ANON, NR_INACTIVE_FILE, NR_ACTIVE_FILE, NR_UNEVICTABLE,
};

/* What is wrong with page pfn as the walk of list l (after prev) meets
 * it, stamping it for this walk (ep): the lru-consistent and
 * mlocked-pages rules of one page, as bits; the messages are check_lru()'s */
enum { LF_TWICE = 1, LF_BACK = 2, LF_FLAGS = 4, LF_NOT_MLOCKED = 8, LF_NO_LOCKED_VMA = 16 };
static inline unsigned lru_page_faults(struct check_inv *ci, const struct page *p, pfn_t pfn, int l,
				       pfn_t prev, bool linked, bool unev_rules, uint32_t ep)
{
	unsigned f = 0;
	if (pfn < ci->nstamp) {
		if (ci->stamp[pfn] == ep)
			f |= LF_TWICE;
		ci->stamp[pfn] = ep;
	}
	if (linked && p->prev != prev)
		f |= LF_BACK;
	if (!(p->flags & PG_LRU) || p->lru != l || page_lru(p) != (enum lru_list)l)
		f |= LF_FLAGS;
	if (l == LRU_UNEVICTABLE && unev_rules) {
		if (!(p->flags & PG_MLOCKED))
			f |= LF_NOT_MLOCKED;
		else if (pfn < ci->nstamp && !ci->lockmap[pfn] && p->mapcount)
			f |= LF_NO_LOCKED_VMA;
	}
	return f;
}

/* pfn counted in nr_mlock's sum (ci->mlk) */
static inline void count_mlk(struct check_inv *ci, pfn_t pfn)
{
	if (pfn < ci->nstamp && !ci->mlk[pfn]) {
		ci->mlk[pfn] = 1;
		ci->nmlk++;
	}
}

/* the mlocked pages off the lists: those of the per-CPU batches not met
 * on a list in this walk (ep) */
static uint64_t batch_mlocked(struct check_inv *ci, uint32_t ep)
{
	struct vmsys *s = ci->s;
	const struct lru_batch *bs[2] = { &s->lru.add_batch, &s->lru.mlock_batch };
	uint64_t mlocked = 0;
	for (int b = 0; b < 2; b++)
		for (unsigned i = 0; i < bs[b]->n; i++) {
			pfn_t pfn = bs[b]->pfn[i];
			const struct page *p = spage(s, pfn);
			if (pfn < ci->nstamp && ci->stamp[pfn] != ep) {
				ci->stamp[pfn] = ep;
				if ((p->flags & PG_MLOCKED) && (p->flags & PG_INUSE)) {
					mlocked++;
					count_mlk(ci, pfn);
				}
			}
		}
	return mlocked;
}

/* The lists walked: the rules of every page on them, their lengths
 * against their sizes and counters, nr_mlock against the mlocked pages */
static uint32_t check_lru(struct check_inv *ci, uint32_t viol)
{
	struct vmsys *s = ci->s;
	bool unev_rules = !s->lru.add_batch.n && !s->lru.mlock_batch.n && ON(INV_MLOCKED_PAGES);
	uint32_t ep = ++ci->epoch;
	uint64_t mlocked = 0;
	memset(ci->mlk, 0, ci->nstamp); /* counted again, for lru_walk_due() */
	ci->nmlk = 0;
	ci->dormant = 0;
	for (int l = 0; l < NR_LRU_LISTS; l++) {
		uint64_t count = 0;
		pfn_t prev = PFN_NONE;
		bool linked = lru_linked(s, (enum lru_list)l);
		const struct page *p;
		/* a linked list by its links, the other by lru_next() */
		for (pfn_t pfn = lru_first(s, (enum lru_list)l); pfn;
		     pfn = linked ? p->next : lru_next(s, (enum lru_list)l, pfn)) {
			p = spage(s, pfn);
			if (++count > s->pm.nr_frames) {
				FAILV(INV_LRU_CONSISTENT, "list %d does not end", l);
				break;
			}
			unsigned f = lru_page_faults(ci, p, pfn, l, prev, linked, unev_rules, ep);
			if (__builtin_expect(f != 0, 0)) {
				if (f & LF_TWICE)
					FAILV(INV_LRU_CONSISTENT, "pfn %u is on two lists (or twice on list %d)", pfn, l);
				if (f & LF_BACK)
					FAILV(INV_LRU_CONSISTENT, "list %d: broken back link at pfn %u", l, pfn);
				if (f & LF_FLAGS)
					FAILV(INV_LRU_CONSISTENT, "pfn %u is on list %d but its flags say list %d%s", pfn, l,
					      (int)page_lru(p), (p->flags & PG_LRU) ? "" : " (PG_lru clear)");
				if (f & LF_NOT_MLOCKED)
					FAILV(INV_MLOCKED_PAGES, "pfn %u sits on the unevictable list but is not mlocked",
					      pfn);
				if (f & LF_NO_LOCKED_VMA)
					FAILV(INV_MLOCKED_PAGES, "pfn %u is mlocked and mapped (%u), but by no locked VMA",
					      pfn, p->mapcount);
			}
			prev = pfn;
			if (p->flags & PG_MLOCKED) {
				mlocked++;
				count_mlk(ci, pfn);
				ci->dormant += l == LRU_UNEVICTABLE && !p->mapcount &&
					       (pfn >= ci->nstamp || !ci->lockmap[pfn]);
			}
		}
		if (ON(INV_LRU_CONSISTENT) &&
		    (count != s->lru.size[l] || (int64_t)count != s->stat.v[lru_stat[l]]))
			FAILV(INV_LRU_CONSISTENT, "list %d holds %llu pages; its size says %llu, %s says %lld", l,
			      ULL(count), ULL(s->lru.size[l]), vmstat_name(lru_stat[l]),
			      (long long)s->stat.v[lru_stat[l]]);
	}
	mlocked += batch_mlocked(ci, ep);
	if (ON(INV_MLOCKED_PAGES) && (int64_t)mlocked != s->stat.v[NR_MLOCK])
		FAILV(INV_MLOCKED_PAGES, "nr_mlock is %lld but %llu pages are mlocked",
		      (long long)s->stat.v[NR_MLOCK], ULL(mlocked));
	return viol;
}

/* The tracepoint hook while no one else listens: the pages the model
 * names (put on or off a list, mlocked or munlocked, batched, scanned,
 * faulted), for lru_walk_due() */
static void note_pfn(void *ctx, const struct tp_event *e)
{
	struct check_inv *ci = ctx;
	switch (e->id) {
	case TP_LRU_ADD: case TP_LRU_DEL: case TP_PAGE: case TP_BATCH_ADD: case TP_RECLAIM:
	case TP_FAULT: case TP_NUMA_HINT: case TP_REFAULT:
		break;
	default:
		return;
	}
	if (!e->pfn || ci->tp_over || (ci->ntpp && ci->tpp[ci->ntpp - 1] == e->pfn))
		return;
	if (ci->ntpp < LRU_NOTE_MAX && grow((void **)&ci->tpp, &ci->captpp, ci->ntpp + 1, sizeof(pfn_t)))
		ci->tpp[ci->ntpp++] = e->pfn;
	else
		ci->tp_over = true;
}

/* Whether page pfn may break a rule of check_lru() (false: its rules
 * hold where one page can tell), its count in nr_mlock's sum brought up
 * to date (on a list and PG_mlocked, or batched, in use and PG_mlocked;
 * ci->inbatch marks the batches) */
static bool lru_page_suspect(struct check_inv *ci, pfn_t pfn, bool unev_rules)
{
	struct vmsys *s = ci->s;
	if (pfn >= ci->nstamp)
		return true;
	const struct page *p = spage(s, pfn);
	bool on = (p->flags & PG_LRU) != 0;
	bool counted = (p->flags & PG_MLOCKED) && (on || (ci->inbatch[pfn] && (p->flags & PG_INUSE)));
	if (counted != ci->mlk[pfn]) {
		ci->nmlk += counted ? 1 : (uint64_t)-1;
		ci->mlk[pfn] = counted;
	}
	if (!on)
		return p->lru != LRU_NONE; /* off the lists with a list */
	enum lru_list l = (enum lru_list)p->lru;
	if (l >= NR_LRU_LISTS || page_lru(p) != l)
		return true;
	if (lru_linked(s, l)) {
		const struct page *q;
		if (p->prev ? (q = spage(s, p->prev), !(q->flags & PG_LRU) || q->lru != l || q->next != pfn)
			    : s->lru.head[l] != pfn)
			return true;
		if (p->next ? (q = spage(s, p->next), !(q->flags & PG_LRU) || q->lru != l || q->prev != pfn)
			    : s->lru.tail[l] != pfn)
			return true;
	}
	/* one mapped by no locked VMA, or (dormant) by nothing yet */
	return l == LRU_UNEVICTABLE &&
	       ((unev_rules && !(p->flags & PG_MLOCKED)) || ((p->flags & PG_MLOCKED) && !ci->lockmap[pfn]));
}

/*
 * Whether check_lru() must walk the lists after this event.  Between
 * walks, what one event can break is checked where it acted: each page
 * its tracepoints named, each page in or just out of a per-CPU batch, each
 * page that left the locked VMAs (lockmap) - its rules, its links to its
 * neighbours, its count in nr_mlock's sum - and every list's size against
 * its counter.  Any doubt walks, and so does every CHECK_INV_LRU_WALK_EVERY-th
 * after-check, the first, one after the batches drained (the unevictable
 * rules start to apply), one after a walk found a break that is still
 * reported, every one while the last walk met an mlocked unevictable page
 * nothing maps (a fault-around maps pages without naming them), and every
 * one while the hook is not this checker's.  What a
 * walk would find at once is found here at once, except a change the
 * tracepoints do not name (the model's own slip, not a kernel's rule):
 * that waits for the next walk (test_check_inv.c compares this with a
 * walk after every event).
 */
static bool lru_walk_due(struct check_inv *ci)
{
	struct vmsys *s = ci->s;
	static const enum vmstat_item stat[NR_LRU_LISTS] = {
		NR_INACTIVE_ANON, NR_ACTIVE_ANON, NR_INACTIVE_FILE, NR_ACTIVE_FILE, NR_UNEVICTABLE,
	};
	bool drained = !s->lru.add_batch.n && !s->lru.mlock_batch.n;
	if (ci->full_walks || !tp_mine(ci) || ci->tp_over || ++ci->lru_since >= CHECK_INV_LRU_WALK_EVERY ||
	    (ci->lru_found & ci->mask & ~ci->quiet) || (drained && !ci->was_drained) || ci->dormant)
		return true;
	for (int l = 0; l < NR_LRU_LISTS; l++)
		if ((int64_t)s->lru.size[l] != s->stat.v[stat[l]])
			return true;
	bool unev_rules = drained && ON(INV_MLOCKED_PAGES), suspect = false;
	const struct lru_batch *bs[2] = { &s->lru.add_batch, &s->lru.mlock_batch };
	for (int b = 0; b < 2; b++)
		for (unsigned i = 0; i < bs[b]->n; i++)
			if (bs[b]->pfn[i] < ci->nstamp)
				ci->inbatch[bs[b]->pfn[i]] = 1;
	for (size_t i = 0; !suspect && i < ci->ntpp; i++)
		suspect = lru_page_suspect(ci, ci->tpp[i], unev_rules);
	for (unsigned i = 0; !suspect && i < ci->nprevbatch; i++)
		suspect = lru_page_suspect(ci, ci->prevbatch[i], unev_rules);
	for (int b = 0; b < 2; b++)
		for (unsigned i = 0; !suspect && i < bs[b]->n; i++)
			suspect = lru_page_suspect(ci, bs[b]->pfn[i], unev_rules);
	for (size_t i = 0; !suspect && i < ci->noldlock; i++)
		if (!ci->lockmap[ci->oldlock[i]])
			suspect = lru_page_suspect(ci, ci->oldlock[i], unev_rules);
	for (int b = 0; b < 2; b++)
		for (unsigned i = 0; i < bs[b]->n; i++)
			if (bs[b]->pfn[i] < ci->nstamp)
				ci->inbatch[bs[b]->pfn[i]] = 0;
	return suspect || (ON(INV_MLOCKED_PAGES) && (int64_t)ci->nmlk != s->stat.v[NR_MLOCK]);
}

/* check_lru() when lru_walk_due(); then what the next after-check starts from */
static uint32_t check_lists(struct check_inv *ci, uint32_t viol)
{
	struct vmsys *s = ci->s;
	if (lru_walk_due(ci)) {
		uint32_t before = viol;
		viol = check_lru(ci, viol);
		ci->lru_found = viol & ~before & ((1u << INV_LRU_CONSISTENT) | (1u << INV_MLOCKED_PAGES));
		ci->lru_since = 0;
	}
	ci->ntpp = 0;
	ci->tp_over = false;
	ci->was_drained = !s->lru.add_batch.n && !s->lru.mlock_batch.n;
	ci->nprevbatch = 0;
	const struct lru_batch *bs[2] = { &s->lru.add_batch, &s->lru.mlock_batch };
	for (int b = 0; b < 2; b++)
		for (unsigned i = 0; i < bs[b]->n; i++)
			ci->prevbatch[ci->nprevbatch++] = bs[b]->pfn[i];
	if (!ci->full_walks && !s->tp_hook && ci->lru_since == 0)
		vmsys_set_tracepoint(s, note_pfn, ci); /* in step with the walk just made */
	return viol;
}

/* Whether the kernel's implementation of the call may take the mmap lock
 * for writing, which every change to a VMA needs; the calls that never do
 * (reclaim reads VMAs under the rmap locks, NUMA scanning under the read
 * lock, the others touch no VMA) leave the caller's VMAs to the memo,
 * like an access: a moved total_vm or map_count still walks them */
static bool takes_mmap_write_lock(enum sysno sys)
{
	switch (sys) {
	case SYS_RECLAIM: case SYS_DROP_CACHES: case SYS_PRLIMIT64: case SYS_CAPSET: case SYS_READ:
	case SYS_PREAD64: case SYS_WRITE: case SYS_PWRITE64: case SYS_NUMA_SCAN: case SYS_NUMA_NODE:
	case SYS_NUMA_RUN:
		return false;
	default:
		return true;
	}
}

/* [start, start + len) widened to pages, or false when it wraps */
static bool page_span(uint64_t start, uint64_t len, struct span *sp)
{
	uint64_t end = start + len;
	if (end < start || end > UINT64_MAX - PAGE_SIZE)
		return false;
	*sp = (struct span){ start & PAGE_MASK, PAGE_ALIGN(end) };
	return true;
}

/*
 * Where the call ev (a call: the caller asks for no other) may have
 * changed its caller's VMAs: the spans its arguments and result name, or
 * -1 for anywhere (a call that changes every VMA or whose reach the
 * arguments do not say), 0 for nowhere (it never takes the mmap lock for
 * writing, or only reads the VMAs).  The kernels change only VMAs in the
 * range a call names, and split or merge at its edges (@ v6.1; 4.0 walks
 * the same range in do_mlock(), do_munmap(), ...):
 *   mm/mlock.c:apply_vma_lock_flags();
 *   mm/mprotect.c:do_mprotect_pkey() (PROT_GROWSDOWN/GROWSUP widen to the
 *     VMA: the neighbour respan() takes in);
 *   mm/madvise.c:madvise_walk_vmas();
 *   mm/mmap.c:do_munmap();
 *   mm/mmap.c:mmap_region() at the result (MAP_FIXED unmaps at the hint
 *     even when it fails; MAP_FIXED_NOREPLACE fails before any change);
 *   mm/mremap.c:SYSCALL_DEFINE5(mremap): the old range grown in place,
 *     the new one, MREMAP_FIXED's target unmapped first;
 *   mm/mmap.c:SYSCALL_DEFINE1(brk).
 * Fork only reads the parent's VMAs (kernel/fork.c:dup_mmap() @ v4.0,
 * v6.1).
 */
static int call_spans(const struct check_inv *ci, const struct event *ev, const struct outcome *out, struct span *sp)
{
	const uint64_t *a = ev->args;
	const struct arch_flags *af = &ci->s->af;
	bool ok = out->kind == OUT_VALUE;
	if (ev->sys == SYS_TOUCH || ev->sys == SYS_FAULT || !takes_mmap_write_lock(ev->sys))
		return 0;
	switch (ev->sys) {
	case SYS_MLOCK: case SYS_MLOCK2: case SYS_MUNLOCK: case SYS_MPROTECT: case SYS_MADVISE: case SYS_MUNMAP:
		return page_span(a[0], a[1], &sp[0]) ? 1 : -1;
	case SYS_MMAP:
		if (ok)
			return page_span((uint64_t)out->value, a[1], &sp[0]) ? 1 : -1;
		return (a[3] & (af->map_fixed | af->map_fixed_noreplace)) && page_span(a[0], a[1], &sp[0]) ? 1 : -1;
	case SYS_FORK: case SYS_VFORK: case SYS_CLONE: case SYS_CLONE3:
		return 0; /* the parent's VMAs are only read: dup_mmap() */
	case SYS_BRK: {
		/* between the old break and the new one
		 * (mm/mmap.c:SYSCALL_DEFINE1(brk) @ v6.1);
		 * the first brk of a replay finds the heap's start itself */
		uint64_t old = ci->caller_brk, want = a[0];
		if (!ci->caller_start_brk || want > UINT64_MAX - PAGE_SIZE)
			return -1;
		if (want < ci->caller_start_brk)
			want = old; /* below the heap: nothing moves */
		old = PAGE_ALIGN(old), want = PAGE_ALIGN(want);
		sp[0] = old < want ? (struct span){ old, want } : (struct span){ want, old };
		return 1;
	}
	case SYS_MREMAP: {
		uint64_t grown = a[2] > a[1] ? a[2] : a[1];
		if (!page_span(a[0], grown, &sp[0]))
			return -1;
		if (ok)
			return page_span((uint64_t)out->value, a[2], &sp[1]) ? 2 : -1;
		if (a[3] & af->mremap_fixed)
			return page_span(a[4], a[2], &sp[1]) ? 2 : -1;
		return 1;
	}
	default:
		return -1;
	}
}

uint32_t check_inv_after(struct check_inv *ci, const struct event *ev, const struct outcome *out)
{
	struct vmsys *s = ci->s;
	uint32_t viol = 0;
	const uint64_t *a = ev->args;
	bool ok = out->kind == OUT_VALUE;
	for (size_t i = 0; i < ci->nlock; i++)
		ci->lockmap[ci->lockset[i]] = 0;
	/* the last lockset, for lru_walk_due(): the pages that leave it */
	if (grow((void **)&ci->oldlock, &ci->capold, ci->nlock, sizeof(pfn_t))) {
		if (ci->nlock)
			memcpy(ci->oldlock, ci->lockset, ci->nlock * sizeof(pfn_t));
		ci->noldlock = ci->nlock;
	} else {
		ci->noldlock = 0;
		ci->tp_over = true; /* no memory to follow it: walk */
	}
	ci->nlock = 0;
	/* the snapshot for check_inv_before_next() comes from check_mm()'s
	 * walk of every locked VMA, which only runs for mlocked-pages */
	ci->next_ok = ON(INV_MLOCKED_PAGES) && ON(INV_LOCKED_NEVER_RECLAIMED);
	ci->nnx = 0;
	/* Which mms the event may have changed the VMAs of: a call, its
	 * caller's (an access only by growing a stack, which moves total_vm:
	 * check_mm() sees that; a call only if it may take the mmap write
	 * lock, and then where call_spans() says) and those it makes (fork,
	 * execve: no memo yet); an event that is not a call is not looked
	 * into: every mm */
	bool all = ev->type != EV_CALL;
	struct span sp[2] = { { 0, 0 }, { 0, 0 } };
	int nsp = all ? -1 : call_spans(ci, ev, out, sp);
	for (unsigned i = 0; i < ci->nmemo; i++)
		ci->memo[i].seen = false;
	for (struct task *t = s->live_head; t; t = t->live_next)
		if (task_owns_mm(s, t)) {
			bool mine = ci->caller_mm && t->mm->id == ci->caller_mm;
			viol = check_mm(ci, t, viol, !all && !(mine && nsp < 0), sp, mine && nsp > 0 ? nsp : 0);
		}
	/* the memos of mms gone go (an mm's memo is its own: mm->id) */
	unsigned k = 0;
	for (unsigned i = 0; i < ci->nmemo; i++)
		if (ci->memo[i].seen && k++ != i) {
			struct vma_memo m = ci->memo[k - 1];
			ci->memo[k - 1] = ci->memo[i];
			ci->memo[i] = m; /* its ranges' buffer stays for reuse */
		}
	ci->nmemo = k;
	ci->snap_ok = ci->next_ok;
	ci->after_ran = true;
	if (ON(INV_LRU_CONSISTENT) || ON(INV_MLOCKED_PAGES))
		viol = check_lists(ci, viol);
	if (ev->type != EV_CALL)
		return viol & ci->mask;
	struct task *t = ci->caller;
	bool alive = t && t->alive && t->mm;
	/* rlimit-memlock: a successful call of an unprivileged process that
	 * grew what it has locked beyond RLIMIT_MEMLOCK */
	if (ON(INV_RLIMIT_MEMLOCK) && alive && ok && !ci->caller_cap && ev->sys != SYS_FORK &&
	    ci->caller_rlim != UINT64_MAX >> PAGE_SHIFT) {
		uint64_t now = locked_pages(ci, t->mm, true); /* check_mm()'s sum, just made */
		if (now > ci->caller_locked && now > ci->caller_rlim)
			FAILV(INV_RLIMIT_MEMLOCK, "pid %d: %s succeeded without CAP_IPC_LOCK and raised the locked pages from %llu to %llu, over RLIMIT_MEMLOCK = %llu pages",
			      t->pid, trace_sys_name(ev->sys), ULL(ci->caller_locked), ULL(now), ULL(ci->caller_rlim));
	}
	/* unlock-complete */
	if (ON(INV_UNLOCK_COMPLETE) && alive && ok) {
		if (ev->sys == SYS_MUNLOCK) {
			uint64_t start = a[0] & PAGE_MASK, end = PAGE_ALIGN(a[0] + a[1]);
			/* the VMAs from the first ending above start (all when the
			 * range wraps) */
			bool wraps = end <= start;
			for (const struct vma *v = wraps ? t->mm->vmas.first : vma_find(&t->mm->vmas, start);
			     v && (wraps || v->start < end); v = v->next)
				if (v->end > start && v->start < end && (v->flags & ci->lockbits)) {
					FAILV(INV_UNLOCK_COMPLETE, "pid %d: after munlock(0x%llx, %llu) VMA [0x%llx, 0x%llx) keeps lock bits 0x%llx",
					      t->pid, ULL(a[0]), ULL(a[1]), ULL(v->start), ULL(v->end), ULL(v->flags & ci->lockbits));
					break;
				}
		} else if (ev->sys == SYS_MUNLOCKALL) {
			for (const struct vma *v = t->mm->vmas.first; v; v = v->next)
				if (v->flags & ci->lockbits) {
					FAILV(INV_UNLOCK_COMPLETE, "pid %d: after munlockall VMA [0x%llx, 0x%llx) keeps lock bits 0x%llx",
					      t->pid, ULL(v->start), ULL(v->end), ULL(v->flags & ci->lockbits));
					break;
				}
			if (t->mm->def_flags & ci->lockbits)
				FAILV(INV_UNLOCK_COMPLETE, "pid %d: after munlockall def_flags keep lock bits 0x%llx", t->pid,
				      ULL(t->mm->def_flags & ci->lockbits));
		}
	}
	/* fork-no-inherit */
	if (ON(INV_FORK_NO_INHERIT) && ok &&
	    (ev->sys == SYS_FORK || ev->sys == SYS_VFORK || ev->sys == SYS_CLONE || ev->sys == SYS_CLONE3)) {
		struct task *c = vmsys_task(s, (int)out->value, false);
		if (c && c->alive && c->mm && c != t && (!t || c->mm != t->mm)) {
			for (const struct vma *v = c->mm->vmas.first; v; v = v->next)
				if (v->flags & ci->lockbits) {
					FAILV(INV_FORK_NO_INHERIT, "child %d: VMA [0x%llx, 0x%llx) inherited lock bits 0x%llx",
					      c->pid, ULL(v->start), ULL(v->end), ULL(v->flags & ci->lockbits));
					break;
				}
			if (c->mm->locked_vm)
				FAILV(INV_FORK_NO_INHERIT, "child %d: locked_vm is %lld pages right after fork", c->pid,
				      (long long)c->mm->locked_vm);
			if (c->mm->def_flags & ci->lockbits)
				FAILV(INV_FORK_NO_INHERIT, "child %d: def_flags inherited lock bits 0x%llx", c->pid,
				      ULL(c->mm->def_flags & ci->lockbits));
		}
	}
	/* onfault-no-prefault */
	if (ON(INV_ONFAULT_NO_PREFAULT) && alive) {
		if (ci->onfault_req) {
			size_t before = ci->nvpn;
			struct mm *mm = t->mm;
			uint64_t vpn = ci->of_lo, hi = ci->of_hi, n = 0;
			size_t j = 0; /* ci->vpns holds the one range, in increasing order */
			while (vpn <= hi && radix_next(&mm->pt, &vpn, hi)) {
				if (pte_present(radix_get(&mm->pt, vpn))) {
					n++;
					while (j < before && ci->vpns[j] < vpn)
						j++;
					if (j == before || ci->vpns[j] != vpn) {
						FAILV(INV_ONFAULT_NO_PREFAULT, "pid %d: %s with the on-fault flag made page 0x%llx present",
						      t->pid, trace_sys_name(ev->sys), ULL(vpn << PAGE_SHIFT));
						break;
					}
				}
				vpn++;
			}
			if (!(viol & (1u << INV_ONFAULT_NO_PREFAULT)) && n != before)
				FAILV(INV_ONFAULT_NO_PREFAULT, "pid %d: %s with the on-fault flag changed the present pages from %llu to %llu",
				      t->pid, trace_sys_name(ev->sys), ULL(before), ULL(n));
		} else if (ev->sys == SYS_MMAP && ok && !(a[3] & (s->af.map_populate | s->af.map_locked))) {
			/* a mapping that comes out lock-on-fault (MCL_FUTURE|MCL_ONFAULT,
			 * MAP_LOCKONFAULT) starts with nothing present */
			uint64_t start = (uint64_t)out->value, end = start + PAGE_ALIGN(a[1]);
			struct vma *v = vma_find(&t->mm->vmas, start);
			if (v && v->start <= start && (v->flags & s->sem->onfault_bit)) {
				uint64_t vpn = start >> PAGE_SHIFT, hi = (end >> PAGE_SHIFT) - 1;
				if (radix_next(&t->mm->pt, &vpn, hi) && pte_present(radix_get(&t->mm->pt, vpn)))
					FAILV(INV_ONFAULT_NO_PREFAULT, "pid %d: the lock-on-fault mapping [0x%llx, 0x%llx) was populated (0x%llx present)",
					      t->pid, ULL(start), ULL(end), ULL(vpn << PAGE_SHIFT));
			}
		}
	}
	/* locked-madvise */
	if (ON(INV_LOCKED_MADVISE) && ci->madv_refuse) {
		if (ok)
			FAILV(INV_LOCKED_MADVISE, "pid %d: madvise(0x%llx, %llu, %llu) over a locked VMA succeeded", ev->pid,
			      ULL(a[0]), ULL(a[1]), ULL(a[2]));
		else if (alive)
			for (size_t i = 0; i < ci->nvpn; i++)
				if (!pte_present(radix_get(&t->mm->pt, ci->vpns[i]))) {
					FAILV(INV_LOCKED_MADVISE, "pid %d: the refused madvise still discarded locked page 0x%llx",
					      t->pid, ULL(ci->vpns[i] << PAGE_SHIFT));
					break;
				}
	}
	/* locked-never-reclaimed */
	if (ON(INV_LOCKED_NEVER_RECLAIMED) && ci->reclaim_kind) {
		for (size_t i = 0; i < ci->npr; i++) {
			struct task *u = ci->pr[i].t;
			if (!u->alive || !u->mm)
				continue; /* killed (OOM): its mappings are gone, not reclaimed */
			uint64_t addr = ci->pr[i].vpn << PAGE_SHIFT;
			struct vma *v = vma_lookup(&u->mm->vmas, addr);
			if (!v || !vma_locked(ci, v))
				continue;
			if (!pte_present(radix_get(&u->mm->pt, ci->pr[i].vpn))) {
				FAILV(INV_LOCKED_NEVER_RECLAIMED, "pid %d: page 0x%llx of locked VMA [0x%llx, 0x%llx) was present before %s and is gone after",
				      u->pid, ULL(addr), ULL(v->start), ULL(v->end), trace_sys_name(ev->sys));
				break;
			}
		}
	}
	return viol & ci->mask;
}
