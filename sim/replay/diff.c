/* diff.c - two models in lockstep over one trace.  See replay.h, section "diff". */
#include "alloc.h"
#include "replay.h"
#include "inherit.h"
#include "diff_standing.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kerr.h"
#include "trace.h"
#include "vmstat.h"
#include "vmsys.h"

#define PAGE 4096ULL
/* per event and process, at most this many differing pages are listed */
#define MAX_PAGE_ITEMS 8

struct side {
	struct vmsys *sys;
	const struct semantics *sem;
};

static struct diff_item *add_item(struct diff_result *r, unsigned long line, enum diff_kind k,
				  int pid, uint64_t addr, const char *what)
{
	struct diff_item *n = vm_grow(r->items, &r->cap_items, r->nitems + 1, sizeof(*n));
	if (!n)
		return NULL;
	r->items = n;
	struct diff_item *it = &r->items[r->nitems++];
	memset(it, 0, sizeof(*it));
	it->line = line;
	it->kind = k;
	it->pid = pid;
	it->addr = addr;
	snprintf(it->what, sizeof(it->what), "%s", what);
	return it;
}

/* the differing event whose items begin at first joins the groups of
 * what it differs in: by kind, counters and rusage by name too */
static void group_event(struct diff_result *r, size_t first)
{
	uint64_t joined = 0; /* the groups this event counts in, once each */
	_Static_assert(DIFF_GROUPS <= 64, "a group is a bit of joined");
	for (size_t i = first; i < r->nitems; i++) {
		const struct diff_item *it = &r->items[i];
		const char *what = it->kind == DK_VMSTAT || it->kind == DK_RUSAGE ? it->what : "";
		unsigned g = 0;
		while (g < r->ngroups && (r->groups[g].kind != it->kind || strcmp(r->groups[g].what, what)))
			g++;
		if (g == r->ngroups) {
			if (g == DIFF_GROUPS)
				continue; /* cannot happen: the kinds and names are fewer */
			r->groups[g] = (struct diff_group){ it->kind, "", 0, it->line };
			snprintf(r->groups[g].what, sizeof(r->groups[g].what), "%s", what);
			r->ngroups++;
		}
		if (!(joined >> g & 1))
			r->groups[g].events++;
		joined |= 1ULL << g;
	}
}

static void flags_text(const struct vmsys *s, uint64_t flags, char *buf, size_t len)
{
	size_t n = vmsys_vmflags_text(s, flags, buf, len);
	if (n && n <= len && buf[n - 1] == ' ')
		buf[n - 1] = 0;
}

/* ---- comparisons --------------------------------------------------- */

static void cmp_result(struct diff_result *r, const struct event *ev, const struct outcome *oa,
		       const struct outcome *ob)
{
	if (oa->kind == ob->kind && oa->value == ob->value)
		return;
	struct diff_item *it = add_item(r, ev->line, DK_RESULT, oa->pid, 0, "result");
	if (!it)
		return;
	outcome_text(ev, oa, it->a, sizeof(it->a));
	outcome_text(ev, ob, it->b, sizeof(it->b));
	it->va = oa->kind == OUT_ERROR ? -oa->value : oa->value;
	it->vb = ob->kind == OUT_ERROR ? -ob->value : ob->value;
}

static void page_text(uint8_t b, char *buf, size_t len)
{
	if (!(b & 1))
		snprintf(buf, len, "present=0");
	else
		snprintf(buf, len, "present=1 mlocked=%d unevictable=%d lru=%d", (b >> 1) & 1,
			 (b >> 2) & 1, (b >> 3) & 1);
}

/* ---- what an event may have changed -------------------------------- */

/*
 * What an event may have changed in its own process, as the tracepoints
 * of one model tell it, with the call's own ranges: address ranges - the
 * page tables (2 MiB) its faults mapped into, the VMAs it made, split,
 * merged, moved, unlinked or changed (vmas) - and the frames whose state
 * it changed.  wide: anything else (reclaim, the OOM killer, NUMA, a
 * process made or gone, more ranges or frames than kept): everything is
 * compared.
 */
#define SCOPE_RANGES 16
#define SCOPE_FRAMES 64
#define SCOPE_FILE_FAULTS 6
#define SCOPE_PLACES 16
struct scope {
	bool wide, vmas, frames_lost;
	unsigned n, nframes, nfile, nplaces;
	uint64_t file_fault[SCOPE_FILE_FAULTS]; /* file faults: their folios join after the event */
	uint64_t lo[SCOPE_RANGES], hi[SCOPE_RANGES]; /* sorted, apart */
	uint32_t frame[SCOPE_FRAMES];
	/* pages of other processes that map a frame the event changed (a
	 * fork's copies): compared too, each alone */
	struct vm_place place[SCOPE_PLACES];
};

/* [lo, hi) rounded out to pages joins the ranges */
static void scope_add(struct scope *sc, uint64_t lo, uint64_t hi)
{
	lo &= ~(PAGE - 1);
	hi = hi > UINT64_MAX - (PAGE - 1) ? UINT64_MAX : (hi + PAGE - 1) & ~(PAGE - 1);
	if (hi <= lo)
		return;
	unsigned i = 0;
	while (i < sc->n && sc->hi[i] < lo)
		i++;
	unsigned j = i;
	for (; j < sc->n && sc->lo[j] <= hi; j++) {
		lo = sc->lo[j] < lo ? sc->lo[j] : lo;
		hi = sc->hi[j] > hi ? sc->hi[j] : hi;
	}
	if (i == j) {
		if (sc->n == SCOPE_RANGES) {
			sc->wide = true;
			return;
		}
		memmove(&sc->lo[i + 1], &sc->lo[i], (sc->n - i) * sizeof(sc->lo[0]));
		memmove(&sc->hi[i + 1], &sc->hi[i], (sc->n - i) * sizeof(sc->hi[0]));
		sc->n++;
	} else if (j > i + 1) {
		memmove(&sc->lo[i + 1], &sc->lo[j], (sc->n - j) * sizeof(sc->lo[0]));
		memmove(&sc->hi[i + 1], &sc->hi[j], (sc->n - j) * sizeof(sc->hi[0]));
		sc->n -= j - i - 1;
	}
	sc->lo[i] = lo;
	sc->hi[i] = hi;
}

/* the page table (2 MiB) of addr */
static void scope_table(struct scope *sc, uint64_t addr)
{
	uint64_t t = addr & ~((1ULL << 21) - 1);
	scope_add(sc, t, t > UINT64_MAX - (1ULL << 21) ? UINT64_MAX : t + (1ULL << 21));
}

static void scope_frame(struct scope *sc, uint32_t pfn)
{
	if (sc->nframes && sc->frame[sc->nframes - 1] == pfn)
		return;
	if (sc->nframes == SCOPE_FRAMES) {
		sc->frames_lost = true;
		return;
	}
	sc->frame[sc->nframes++] = pfn;
}

static void watch_tp(void *ctx, const struct tp_event *e)
{
	struct scope *sc = ctx;
	switch (e->id) {
	case TP_FAULT:
		/* an anonymous page, a write-protect fault, a swap-in: that page
		 * alone; a file page may map its whole large folio, which one
		 * page table holds (finish_fault() @ v6.18): after the event, the
		 * folio mapped there (a copy-on-write of a file page: the page
		 * table, as the copy hides the folio it came from) */
		if (e->kind == TPF_ANON || e->kind == TPF_ZERO_PAGE || e->kind == TPF_WP_COPY ||
		    e->kind == TPF_WP_REUSE || e->kind == TPF_SWAP_IN)
			scope_add(sc, e->addr, e->addr + 1);
		else if ((e->kind == TPF_FILE_READ || e->kind == TPF_FILE_SHARED) &&
			 sc->nfile < SCOPE_FILE_FAULTS)
			sc->file_fault[sc->nfile++] = e->addr; /* scope_folios() */
		else
			scope_table(sc, e->addr);
		break;
	case TP_FAULT_AROUND:
		/* the pages it looked at, and the large folios that may run past
		 * either end of them, mapped whole (scope_folios()) */
		if (e->end > e->start && sc->nfile + 2 <= SCOPE_FILE_FAULTS) {
			scope_add(sc, e->start, e->end);
			sc->file_fault[sc->nfile++] = e->start;
			sc->file_fault[sc->nfile++] = e->end - 1;
		} else {
			scope_table(sc, e->start);
			if (e->end > e->start)
				scope_table(sc, e->end - 1);
		}
		break;
	case TP_VMA_NEW: case TP_VMA_UNLINK:
		scope_add(sc, e->start, e->end);
		sc->vmas = true;
		break;
	case TP_VMA_SPLIT:
		scope_add(sc, e->old_start, e->old_end);
		sc->vmas = true;
		break;
	case TP_VMA_MERGE: case TP_VMA_ADJUST:
		scope_add(sc, e->old_start, e->old_end);
		scope_add(sc, e->start, e->end);
		sc->vmas = true;
		break;
	case TP_VMA_FLAGS:
		if (e->kind != TPV_DEF_FLAGS) { /* def_flags is compared after every event */
			scope_add(sc, e->start, e->end);
			sc->vmas = true;
		}
		break;
	/* a frame's state changed: on its way to or off a list, mlocked,
	 * munlocked or queued */
	case TP_LRU_ADD: case TP_LRU_DEL: case TP_PAGE: case TP_BATCH_ADD:
		scope_frame(sc, e->pfn);
		break;
	/* locked_vm (compared after every event), a limit checked, the page
	 * cache filled (not mapped: not compared) and its refaults judged
	 * (counted), a batch drained (its frames told one by one) */
	case TP_LOCKED_VM: case TP_LIMIT: case TP_BATCH_DRAIN: case TP_READAHEAD: case TP_REFAULT:
		break;
	default:
		sc->wide = true;
	}
}

/* After the event: the folio each file fault mapped, as one side has it
 * (the page alone if it mapped none) */
static void scope_folios(struct vmsys *s, const struct scope *side, struct scope *sc, int pid)
{
	struct task *t = vmsys_task(s, pid, false);
	for (unsigned i = 0; i < side->nfile; i++) {
		uint64_t lo, hi, a = side->file_fault[i];
		if (t && vmsys_folio_span(s, t, a, &lo, &hi))
			scope_add(sc, lo, hi);
		else
			scope_add(sc, a, a + 1);
	}
}

/*
 * The calls whose effects the scope covers: an access, the calls on an
 * address range (their range joins the scope), brk, and the calls that
 * change nothing diff compares.  Any other may change what no tracepoint
 * of the calling process tells (a truncate unmaps pages in every process,
 * exit and fork change the processes): everything is compared after it.
 */
static bool call_scoped(const struct vmsys *a, const struct vmsys *b, const struct event *ev,
			struct scope *sc)
{
	if (ev->type != EV_CALL || ev->args_missing)
		return false;
	switch (ev->sys) {
	case SYS_MADVISE: /* each kernel numbers the advice its way */
		if (vmsys_madvise_beyond_range(a, ev->args[2]) || vmsys_madvise_beyond_range(b, ev->args[2]))
			return false;
		/* fall through */
	case SYS_MUNMAP: case SYS_MPROTECT: case SYS_MSYNC: case SYS_MLOCK:
	case SYS_MLOCK2: case SYS_MUNLOCK: case SYS_MREMAP: case SYS_MMAP:
		if (ev->args[0] > UINT64_MAX - ev->args[1])
			return false;
		if (ev->sys != SYS_MMAP || ev->args[0])
			scope_add(sc, ev->args[0], ev->args[0] + ev->args[1]);
		return true;
	case SYS_TOUCH: case SYS_FAULT: case SYS_BRK:
	case SYS_OPENAT: case SYS_OPEN: case SYS_CREAT: case SYS_CLOSE: case SYS_DUP: case SYS_DUP2:
	case SYS_DUP3: case SYS_FCNTL: case SYS_FDNEW: case SYS_PIPE: case SYS_PIPE2:
	case SYS_SOCKETPAIR: case SYS_MEMFD_CREATE: case SYS_FSTAT: case SYS_NEWFSTATAT:
	case SYS_STAT: case SYS_STATX: case SYS_SETRLIMIT: case SYS_PRLIMIT64: case SYS_CAPSET:
	case SYS_SETUID: case SYS_SETREUID: case SYS_SETRESUID: case SYS_MEMFD_SECRET:
	case SYS_IO_URING_SETUP: case SYS_IO_URING_ENTER:
		return true;
	default:
		return false;
	}
}

/* a page of another process joins the scope's places (false: too many) */
static bool place_join(struct scope *sc, struct vm_place pl)
{
	for (unsigned i = 0; i < sc->nplaces; i++)
		if (sc->place[i].pid == pl.pid && sc->place[i].addr == pl.addr)
			return true;
	if (sc->nplaces == SCOPE_PLACES)
		return false;
	sc->place[sc->nplaces++] = pl;
	return true;
}

/* The event of pid changed nothing another process shows but the pages
 * that join sc's places, nor its own pages outside the scope: no other
 * live process shares its mm, and each frame whose state it changed is
 * mapped inside the scope's ranges or at a place of another process with
 * an mm of its own. */
static bool scope_private(struct vmsys *s, const struct scope *side, struct scope *sc, int pid)
{
	struct task *t = vmsys_task(s, pid, false);
	if (!t || !task_alive(t) || vmsys_mm_shared(t) || side->frames_lost)
		return false;
	for (unsigned i = 0; i < side->nframes; i++) {
		struct vm_place pl[SCOPE_PLACES];
		int n = vmsys_frame_places_outside(s, t, side->frame[i], sc->lo, sc->hi, sc->n, pl, SCOPE_PLACES);
		if (n < 0)
			return false;
		for (int k = 0; k < n; k++)
			if (!place_join(sc, pl[k]))
				return false;
	}
	return true;
}

/* each place's process is alive on both sides under its pid */
static bool places_known(struct vmsys *a, struct vmsys *b, const struct scope *sc)
{
	for (unsigned i = 0; i < sc->nplaces; i++) {
		struct task *ta = vmsys_task(a, sc->place[i].pid, false), *tb = vmsys_task(b, sc->place[i].pid, false);
		if (!ta || !tb || !task_alive(ta) || !task_alive(tb) || task_pid(ta) != sc->place[i].pid ||
		    task_pid(tb) != sc->place[i].pid)
			return false;
	}
	return true;
}

/* ---- comparisons of state --------------------------------------------- */

/* one VMA's bounds, for a region of differing layout */
struct extent {
	uint64_t start, end;
};

struct extents {
	struct extent *v;
	size_t n, cap;
};

/*
 * One comparison after one event: the two sides, the differences that
 * stood before it (diff_standing.h), and what it has listed so far.  A
 * difference of state is listed when it begins, changes or ends; the
 * event's own (its result, what it added to a counter, its faults) every
 * time.
 */
struct cmp {
	struct diff_result *r;
	struct standing *st;
	unsigned long line;
	struct side *A, *B;
	int pid;                /* the process cmp_task() compares */
	unsigned listed;        /* its page items listed */
	unsigned changed;       /* its page differences that began, changed or ended */
	struct extents ea, eb;  /* the region cmp_window() is at */
	bool failed;            /* out of memory */
};

static const enum diff_kind dk_of[] = {
	[SD_TASK] = DK_TASK, [SD_VMAS] = DK_VMAS, [SD_VMFLAGS] = DK_VMFLAGS, [SD_VMLCK] = DK_VMLCK,
	[SD_DEF_FLAGS] = DK_DEF_FLAGS, [SD_PAGE] = DK_PAGE, [SD_NR_MLOCK] = DK_VMSTAT,
};

static void what_text(enum sd_kind k, uint64_t key, char *buf, size_t len)
{
	switch (k) {
	case SD_TASK: snprintf(buf, len, "process"); break;
	case SD_VMAS: snprintf(buf, len, "vmas 0x%" PRIx64, key); break;
	case SD_VMFLAGS: snprintf(buf, len, "vma 0x%" PRIx64, key); break;
	case SD_VMLCK: snprintf(buf, len, "VmLck"); break;
	case SD_DEF_FLAGS: snprintf(buf, len, "def_flags"); break;
	case SD_PAGE: snprintf(buf, len, "page 0x%" PRIx64, key); break;
	case SD_NR_MLOCK: snprintf(buf, len, "%s", vmstat_name(NR_MLOCK)); break;
	}
}

/* A difference of state (kind, pid, key) with these two values: its item
 * when it is new or changed, NULL when it stood as it is. */
static struct diff_item *state_item(struct cmp *c, enum sd_kind k, int pid, uint64_t key,
				    uint64_t va, uint64_t vb)
{
	int n = standing_note(c->st, k, pid, key, va, vb);
	if (n == 0)
		return NULL;
	if (n < 0)
		c->failed = true;
	char what[48];
	what_text(k, key, what, sizeof(what));
	struct diff_item *it = add_item(c->r, c->line, dk_of[k], pid, key, what);
	if (!it)
		c->failed = true;
	else
		it->state = true;
	return it;
}

/* A page difference began, changed or ended: counted, and whether it is
 * among the first MAX_PAGE_ITEMS of this process and event, which are listed */
static bool list_page(struct cmp *c)
{
	c->changed++;
	if (c->listed >= MAX_PAGE_ITEMS)
		return false;
	c->listed++;
	return true;
}

/* A difference that stood has ended: both sides agree there again.  Its
 * item says what they agree on where that is one number or page. */
static void ended(void *ctx, enum sd_kind kind, int pid, uint64_t key)
{
	struct cmp *c = ctx;
	if (kind == SD_PAGE && !list_page(c))
		return;
	char what[48];
	what_text(kind, key, what, sizeof(what));
	struct diff_item *it = add_item(c->r, c->line, dk_of[kind], pid, key, what);
	if (!it) {
		c->failed = true;
		return;
	}
	it->state = it->ended = true;
	struct task *t = pid ? vmsys_task(c->A->sys, pid, false) : NULL;
	if (kind == SD_PAGE && t) {
		int x = vmsys_page_bits(c->A->sys, t, key);
		uint8_t b = x < 0 ? 0 : (uint8_t)x;
		page_text(b, it->a, sizeof(it->a));
		it->va = it->vb = b;
	} else if (kind == SD_VMLCK && t) {
		struct vm_status st;
		vmsys_status(c->A->sys, t, &st);
		snprintf(it->a, sizeof(it->a), "%" PRIu64 " kB", st.locked_vm * 4);
		it->va = it->vb = (int64_t)(st.locked_vm * 4);
	} else if (kind == SD_NR_MLOCK) {
		it->va = it->vb = vmsys_vmstat(c->A->sys, NR_MLOCK);
		snprintf(it->a, sizeof(it->a), "%" PRId64, it->va);
	} else {
		snprintf(it->a, sizeof(it->a), "the same");
	}
	snprintf(it->b, sizeof(it->b), "%s", it->a);
}

/* Pages of [start,end) in both processes (mapped on both sides): the walk
 * goes from one present page of either side to the next, so it costs what
 * is present, nothing for an empty range */
static void cmp_pages(struct cmp *c, struct task *ta, struct task *tb, uint64_t start, uint64_t end)
{
	struct vmsys *sa = c->A->sys, *sb = c->B->sys;
	uint64_t na = start, nb = start;
	int ya = vmsys_next_page_bits(sa, ta, &na, end), yb = vmsys_next_page_bits(sb, tb, &nb, end);
	while (ya >= 0 || yb >= 0) {
		uint64_t a = ya < 0 ? nb : yb < 0 ? na : na < nb ? na : nb;
		bool at_a = ya >= 0 && na == a, at_b = yb >= 0 && nb == a;
		int xa = at_a ? ya : -1, xb = at_b ? yb : -1;
		/* the next page of the side(s) just read */
		bool last = a >= end - PAGE;
		if (at_a)
			ya = last ? -1 : (na = a + PAGE, vmsys_next_page_bits(sa, ta, &na, end));
		if (at_b)
			yb = last ? -1 : (nb = a + PAGE, vmsys_next_page_bits(sb, tb, &nb, end));
		uint8_t ba = xa < 0 ? 0 : (uint8_t)xa, bb = xb < 0 ? 0 : (uint8_t)xb;
		if (ba == bb)
			continue;
		int n = standing_note(c->st, SD_PAGE, c->pid, a, ba, bb);
		if (n == 0)
			continue;
		if (n < 0)
			c->failed = true;
		if (!list_page(c))
			continue;
		char what[48];
		what_text(SD_PAGE, a, what, sizeof(what));
		struct diff_item *it = add_item(c->r, c->line, DK_PAGE, c->pid, a, what);
		if (!it) {
			c->failed = true;
			return;
		}
		it->state = true;
		page_text(ba, it->a, sizeof(it->a));
		page_text(bb, it->b, sizeof(it->b));
		it->va = ba;
		it->vb = bb;
	}
}

/* the pages of [lo, hi) that lie in the scope's ranges */
static void cmp_pages_in(struct cmp *c, struct task *ta, struct task *tb, uint64_t lo, uint64_t hi,
			 const struct scope *sc)
{
	for (unsigned i = 0; i < sc->n && sc->lo[i] < hi; i++) {
		uint64_t l = lo > sc->lo[i] ? lo : sc->lo[i], h = hi < sc->hi[i] ? hi : sc->hi[i];
		if (l < h)
			cmp_pages(c, ta, tb, l, h);
	}
}

/* The first VMA of t from addr on that starts below end (NULL if none). */
static const struct vma *vma_from(struct vmsys *s, struct task *t, uint64_t addr, uint64_t end,
				  struct vm_vma_brief *b)
{
	const struct vma *v = vmsys_vma_from(s, t, addr, NULL);
	if (!v)
		return NULL;
	vmsys_vma_brief(v, b);
	return b->start < end ? v : NULL;
}

static const struct vma *vma_next(struct vmsys *s, struct task *t, const struct vma *v, uint64_t end,
				  struct vm_vma_brief *b)
{
	v = vmsys_vma_next(s, t, v, NULL);
	if (!v)
		return NULL;
	vmsys_vma_brief(v, b);
	return b->start < end ? v : NULL;
}

static int extent_push(struct extents *e, uint64_t start, uint64_t end)
{
	struct extent *n = vm_grow(e->v, &e->cap, e->n + 1, sizeof(*n));
	if (!n)
		return -1;
	e->v = n;
	e->v[e->n++] = (struct extent){ start, end };
	return 0;
}

/* The pages in the scope that both c->ea's and c->eb's VMAs cover (each
 * list in address order): a page only one side maps has its difference
 * in the layout. */
static void cmp_common_pages(struct cmp *c, struct task *ta, struct task *tb, const struct scope *sc)
{
	for (size_t i = 0, j = 0; i < c->ea.n && j < c->eb.n;) {
		const struct extent *p = &c->ea.v[i], *q = &c->eb.v[j];
		uint64_t l = p->start > q->start ? p->start : q->start, h = p->end < q->end ? p->end : q->end;
		if (l < h)
			cmp_pages_in(c, ta, tb, l, h, sc);
		if (p->end <= q->end)
			i++;
		if (q->end <= p->end)
			j++;
	}
}

/* The pages of [lo, hi) inside a VMA on both sides (an access: its VMAs
 * did not change). */
static void cmp_overlaps(struct cmp *c, struct task *ta, struct task *tb, uint64_t lo, uint64_t hi,
			 const struct scope *sc)
{
	struct vm_vma_brief b;
	c->ea.n = c->eb.n = 0;
	for (const struct vma *v = vma_from(c->A->sys, ta, lo, hi, &b); v; v = vma_next(c->A->sys, ta, v, hi, &b))
		c->failed |= extent_push(&c->ea, b.start > lo ? b.start : lo, b.end < hi ? b.end : hi) != 0;
	for (const struct vma *v = vma_from(c->B->sys, tb, lo, hi, &b); v; v = vma_next(c->B->sys, tb, v, hi, &b))
		c->failed |= extent_push(&c->eb, b.start > lo ? b.start : lo, b.end < hi ? b.end : hi) != 0;
	cmp_common_pages(c, ta, tb, sc);
}

/* The nearest address at or below x (up: at or above) that no VMA of
 * either side straddles: where a region of differing layout may begin
 * (end). */
static uint64_t sync_point(struct cmp *c, struct task *ta, struct task *tb, uint64_t x, bool up)
{
	for (bool moved = true; moved;) {
		moved = false;
		for (int side = 0; side < 2; side++) {
			struct vm_vma_brief b;
			const struct vma *v = side ? vmsys_vma_from(c->B->sys, tb, x, NULL)
						   : vmsys_vma_from(c->A->sys, ta, x, NULL);
			if (v && (vmsys_vma_brief(v, &b), b.start < x)) {
				x = up ? b.end : b.start;
				moved = true;
			}
		}
	}
	return x;
}

static uint64_t extents_hash(const struct extents *e)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < e->n; i++)
		h = (h ^ e->v[i].start) * 0x100000001b3ULL ^ (e->v[i].end * 0x9e3779b97f4a7c15ULL);
	return h + e->n;
}

/* the region's VMAs of one side, the first few of them */
#define EXTENTS_SHOWN 4
static void extents_text(const struct extents *e, char *buf, size_t len)
{
	if (!e->n) {
		snprintf(buf, len, "(none)");
		return;
	}
	size_t at = 0;
	for (size_t i = 0; i < e->n && i < EXTENTS_SHOWN && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s[0x%" PRIx64 ", 0x%" PRIx64 ")", i ? " " : "",
				       e->v[i].start, e->v[i].end);
	if (e->n > EXTENTS_SHOWN && at < len)
		snprintf(buf + at, len - at, " ... (%zu VMAs)", e->n);
}

/*
 * The VMAs of [x, y), where x and y are addresses no VMA of either side
 * straddles, in regions: a VMA both sides have with the same bounds
 * (compared by its flags and pages), or a region of differing layout,
 * from the lowest start to the next address no VMA straddles (one item,
 * keyed by its start; the pages that both sides map in it compared).
 */
static void cmp_window(struct cmp *c, struct task *ta, struct task *tb, uint64_t x, uint64_t y,
		       const struct scope *sc)
{
	struct side *A = c->A, *B = c->B;
	int pid = c->pid;
	struct vm_vma_brief a, b;
	const struct vma *xa = vma_from(A->sys, ta, x, y, &a), *xb = vma_from(B->sys, tb, x, y, &b);
	while (xa || xb) {
		if (xa && xb && a.start == b.start && a.end == b.end) {
			if (a.flags != b.flags) {
				struct diff_item *it = state_item(c, SD_VMFLAGS, pid, a.start, a.flags, b.flags);
				if (it) {
					char fa[160], fb[160];
					flags_text(A->sys, a.flags, fa, sizeof(fa));
					flags_text(B->sys, b.flags, fb, sizeof(fb));
					snprintf(it->a, sizeof(it->a), "VmFlags \"%s\"", fa);
					snprintf(it->b, sizeof(it->b), "VmFlags \"%s\"", fb);
					it->va = (int64_t)a.flags;
					it->vb = (int64_t)b.flags;
				}
			}
			/* one whose PTEs all map the zero page has an RSS of 0 (the
			 * walk costs what is present, nothing for an empty VMA) */
			cmp_pages_in(c, ta, tb, a.start, a.end, sc);
			xa = vma_next(A->sys, ta, xa, y, &a);
			xb = vma_next(B->sys, tb, xb, y, &b);
			continue;
		}
		/* a region of differing layout: every VMA of either side that
		 * starts before the region's end so far */
		uint64_t r0 = !xb || (xa && a.start < b.start) ? a.start : b.start, end = r0;
		c->ea.n = c->eb.n = 0;
		for (;;) {
			if (xa && (a.start < end || a.start == r0)) {
				c->failed |= extent_push(&c->ea, a.start, a.end) != 0;
				end = a.end > end ? a.end : end;
				xa = vma_next(A->sys, ta, xa, y, &a);
			} else if (xb && (b.start < end || b.start == r0)) {
				c->failed |= extent_push(&c->eb, b.start, b.end) != 0;
				end = b.end > end ? b.end : end;
				xb = vma_next(B->sys, tb, xb, y, &b);
			} else {
				break;
			}
		}
		struct diff_item *it = state_item(c, SD_VMAS, pid, r0, extents_hash(&c->ea), extents_hash(&c->eb));
		if (it) {
			extents_text(&c->ea, it->a, sizeof(it->a));
			extents_text(&c->eb, it->b, sizeof(it->b));
		}
		/* the pages both sides map, though in VMAs of other bounds (a
		 * merge one kernel refuses): their state still differs */
		cmp_common_pages(c, ta, tb, sc);
	}
}

/* Everything of one process that the scope says may have changed. */
static void cmp_task(struct cmp *c, struct task *ta, struct task *tb, const struct scope *sc)
{
	int pid = task_pid(ta);
	c->pid = pid;
	c->listed = c->changed = 0;
	struct side *A = c->A, *B = c->B;
	struct vm_status sa, sb;
	vmsys_status(A->sys, ta, &sa);
	vmsys_status(B->sys, tb, &sb);
	if (sa.locked_vm != sb.locked_vm) {
		struct diff_item *it = state_item(c, SD_VMLCK, pid, 0, sa.locked_vm, sb.locked_vm);
		if (it) {
			/* unsigned like /proc: a wrapped count prints huge */
			snprintf(it->a, sizeof(it->a), "%" PRIu64 " kB", sa.locked_vm * 4);
			snprintf(it->b, sizeof(it->b), "%" PRIu64 " kB", sb.locked_vm * 4);
			it->va = (int64_t)(sa.locked_vm * 4);
			it->vb = (int64_t)(sb.locked_vm * 4);
		}
	}
	uint64_t da = vmsys_def_flags(A->sys, ta), db = vmsys_def_flags(B->sys, tb);
	if (da != db) {
		struct diff_item *it = state_item(c, SD_DEF_FLAGS, pid, 0, da, db);
		if (it) {
			char fa[96], fb[96];
			flags_text(A->sys, da, fa, sizeof(fa));
			flags_text(B->sys, db, fb, sizeof(fb));
			/* as each kernel numbers the bits (lof-v1's VM_LOCKONFAULT is
			 * 0x1000, the model's 6.x bit 0x80000); va/vb keep the
			 * model's numbering, so the comparison is by meaning */
			snprintf(it->a, sizeof(it->a), "0x%" PRIx64 " (%s)", vmsys_vmflags_kernel(A->sys, da), fa);
			snprintf(it->b, sizeof(it->b), "0x%" PRIx64 " (%s)", vmsys_vmflags_kernel(B->sys, db), fb);
			it->va = (int64_t)da;
			it->vb = (int64_t)db;
		}
	}
	/* the windows: each range grown to addresses no VMA straddles, so
	 * that a region of differing layout is seen whole, and by the region
	 * beyond each end, which was one with the range's before the event
	 * cut it there */
	uint64_t wx[SCOPE_RANGES], wy[SCOPE_RANGES];
	unsigned nw = 0;
	for (unsigned i = 0; sc->vmas && i < sc->n; i++) {
		uint64_t x = sync_point(c, ta, tb, sc->lo[i], false), y = sync_point(c, ta, tb, sc->hi[i], true);
		if (x)
			x = sync_point(c, ta, tb, x - 1, false);
		if (y != UINT64_MAX)
			y = sync_point(c, ta, tb, y + 1, true);
		if (nw && x <= wy[nw - 1]) {
			wy[nw - 1] = y > wy[nw - 1] ? y : wy[nw - 1];
		} else {
			wx[nw] = x;
			wy[nw++] = y;
		}
	}
	for (unsigned i = 0; i < nw; i++)
		cmp_window(c, ta, tb, wx[i], wy[i], sc);
	/* an access changed no VMA: the pages of its ranges that both sides map */
	for (unsigned i = 0; !sc->vmas && i < sc->n; i++)
		cmp_overlaps(c, ta, tb, sc->lo[i], sc->hi[i], sc);
	/* what stood there and was not found again has ended */
	for (unsigned i = 0; i < nw; i++)
		standing_end_range(c->st, SD_VMAS, pid, wx[i], wy[i], ended, c);
	for (unsigned i = 0; i < nw; i++)
		standing_end_range(c->st, SD_VMFLAGS, pid, wx[i], wy[i], ended, c);
	for (unsigned i = 0; i < sc->n; i++)
		standing_end_range(c->st, SD_PAGE, pid, sc->lo[i], sc->hi[i], ended, c);
	standing_end_one(c->st, SD_VMLCK, pid, ended, c);
	standing_end_one(c->st, SD_DEF_FLAGS, pid, ended, c);
	if (c->changed > c->listed) {
		struct diff_item *it = add_item(c->r, c->line, DK_PAGE, pid, 0, "pages");
		if (it) {
			snprintf(it->a, sizeof(it->a), "%u page differences began, changed or ended (%u listed)",
				 c->changed, c->listed);
			snprintf(it->b, sizeof(it->b), "%s", it->a);
			it->va = it->vb = c->changed;
		}
	}
}

static const enum vmstat_item counters[] = {
	NR_MLOCK, UNEVICTABLE_PGS_CULLED, UNEVICTABLE_PGS_SCANNED, UNEVICTABLE_PGS_RESCUED,
	UNEVICTABLE_PGS_MLOCKED, UNEVICTABLE_PGS_MUNLOCKED, UNEVICTABLE_PGS_CLEARED,
	UNEVICTABLE_PGS_STRANDED, PGFAULT, PGMAJFAULT,
	NUMA_PTE_UPDATES, NUMA_HINT_FAULTS, NUMA_HINT_FAULTS_LOCAL, NUMA_PAGES_MIGRATED,
	PGMIGRATE_FAIL, PGSCAN_FILE, PGSTEAL_FILE, PGSCAN_ANON, PGSTEAL_ANON, PGREFILL, PGDEACTIVATE,
	WORKINGSET_REFAULT_ANON, WORKINGSET_REFAULT_FILE, WORKINGSET_ACTIVATE_ANON,
	WORKINGSET_ACTIVATE_FILE, WORKINGSET_RESTORE_ANON, WORKINGSET_RESTORE_FILE, PAGEOUTRUN,
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

/* f = the min_flt, maj_flt of pid's task (0, 0 when there is none) */
static void task_faults(struct vmsys *s, int pid, uint64_t f[2])
{
	struct task *t = vmsys_task(s, pid, false);
	f[0] = f[1] = 0;
	if (t && task_alive(t)) {
		struct vm_status st;
		vmsys_status(s, t, &st);
		f[0] = st.min_flt;
		f[1] = st.maj_flt;
	}
}

/* the faults getrusage() would count for this event, by its process */
static void cmp_rusage(struct diff_result *r, const struct event *ev, struct side *A, struct side *B,
		       const uint64_t *before_a, const uint64_t *before_b)
{
	uint64_t fa[2], fb[2];
	task_faults(A->sys, ev->pid, fa);
	task_faults(B->sys, ev->pid, fb);
	static const char *const names[2] = { "minflt", "majflt" };
	for (int i = 0; i < 2; i++) {
		int64_t da = (int64_t)(fa[i] - before_a[i]), db = (int64_t)(fb[i] - before_b[i]);
		if (da == db)
			continue;
		struct diff_item *it = add_item(r, ev->line, DK_RUSAGE, ev->pid, 0, names[i]);
		if (it) {
			snprintf(it->a, sizeof(it->a), "+%" PRId64 " (total %" PRIu64 ")", da, fa[i]);
			snprintf(it->b, sizeof(it->b), "+%" PRId64 " (total %" PRIu64 ")", db, fb[i]);
			it->va = da;
			it->vb = db;
		}
	}
}

/* a wide comparison's scope: one range over the whole address space */
static const struct scope everything = { .vmas = true, .n = 1, .lo = { 0 }, .hi = { UINT64_MAX } };

/* a process both sides have and neither runs takes its differences with
 * it; so does the first process's pid 0 once the trace named it (its
 * differences are listed again under its pid) */
static void forget_gone(void *ctx, int pid)
{
	struct cmp *c = ctx;
	struct task *ta = vmsys_task(c->A->sys, pid, false), *tb = vmsys_task(c->B->sys, pid, false);
	if ((ta && tb && !task_alive(ta) && !task_alive(tb)) ||
	    (!pid && (!ta || !tb || task_pid(ta) != 0 || task_pid(tb) != 0)))
		standing_forget(c->st, pid);
}

/* nr_mlock is state and compared as it stands; the unevictable_pgs_*
 * and fault events are compared by what this event added (else one early
 * difference would make every later event differ).  sc: what the event
 * of process pid may have changed (NULL: everything of every process). */
static void cmp_state(struct cmp *c, const int64_t *before_a, const int64_t *before_b,
		      const struct scope *sc, int pid)
{
	struct side *A = c->A, *B = c->B;
	vm_drain_all(A->sys);
	vm_drain_all(B->sys);
	if (sc && !sc->nplaces) {
		cmp_task(c, vmsys_task(A->sys, pid, false), vmsys_task(B->sys, pid, false), sc);
	} else if (sc) {
		/* the event's process and the places' processes, in the order of
		 * the process list, as a wide comparison lists them */
		for (struct task *ta = vmsys_task_next(A->sys, NULL); ta; ta = vmsys_task_next(A->sys, ta)) {
			int tpid = task_pid(ta);
			if (!task_alive(ta))
				continue;
			if (tpid == pid) {
				cmp_task(c, ta, vmsys_task(B->sys, pid, false), sc);
				continue;
			}
			struct scope ps = { 0 };
			for (unsigned i = 0; i < sc->nplaces; i++)
				if (sc->place[i].pid == tpid)
					scope_add(&ps, sc->place[i].addr, sc->place[i].addr + 1);
			if (ps.n)
				cmp_task(c, ta, vmsys_task(B->sys, tpid, false), &ps);
		}
	} else {
		struct task *ta = vmsys_task_next(A->sys, NULL), *tb = vmsys_task_next(B->sys, NULL);
		while (ta || tb) {
			bool la = ta && task_alive(ta), lb = tb && task_alive(tb);
			int tpid = ta ? task_pid(ta) : task_pid(tb);
			if (!ta || !tb || task_pid(ta) != task_pid(tb) || la != lb) {
				struct diff_item *it = state_item(c, SD_TASK, tpid, 0, !ta ? 0 : la ? 1 : 2,
								  !tb ? 0 : lb ? 1 : 2);
				if (it) {
					snprintf(it->a, sizeof(it->a), "%s", !ta ? "(none)" : la ? "alive" : "exited");
					snprintf(it->b, sizeof(it->b), "%s", !tb ? "(none)" : lb ? "alive" : "exited");
				}
				break; /* the process lists no longer line up */
			}
			standing_end_one(c->st, SD_TASK, tpid, ended, c);
			if (la)
				cmp_task(c, ta, tb, &everything);
			ta = vmsys_task_next(A->sys, ta);
			tb = vmsys_task_next(B->sys, tb);
		}
		standing_each_pid(c->st, forget_gone, c);
	}
	for (size_t i = 0; i < NCOUNTERS; i++) {
		int64_t ca = vmsys_vmstat(A->sys, counters[i]), cb = vmsys_vmstat(B->sys, counters[i]);
		if (counters[i] == NR_MLOCK) {
			struct diff_item *it = ca == cb ? NULL
					       : state_item(c, SD_NR_MLOCK, 0, 0, (uint64_t)ca, (uint64_t)cb);
			if (it) {
				snprintf(it->a, sizeof(it->a), "%" PRId64, ca);
				snprintf(it->b, sizeof(it->b), "%" PRId64, cb);
				it->va = ca;
				it->vb = cb;
			}
			standing_end_one(c->st, SD_NR_MLOCK, 0, ended, c);
			continue;
		}
		int64_t da = ca - before_a[i], db = cb - before_b[i];
		if (da == db)
			continue;
		struct diff_item *it = add_item(c->r, c->line, DK_VMSTAT, 0, 0, vmstat_name(counters[i]));
		if (it) {
			snprintf(it->a, sizeof(it->a), "+%" PRId64 " (total %" PRId64 ")", da, ca);
			snprintf(it->b, sizeof(it->b), "+%" PRId64 " (total %" PRId64 ")", db, cb);
			it->va = da;
			it->vb = db;
		}
	}
}

/* ---- the lockstep loop --------------------------------------------- */

static int open_reader(const char *path, const struct diff_opts *o, struct trace_reader **rd,
		       struct event *ev, int *first, struct diff_result *r)
{
	/* names the trace's table of names lacks decode with the header's kernel;
	 * without one, with kernel A */
	*rd = trace_open(path, o->arch, NULL, r->err, sizeof(r->err));
	if (!*rd)
		return -1;
	*first = trace_read(*rd, ev);
	if (*first >= 0 && !trace_header(*rd)->has_kernel && strcmp(path, "-")) {
		trace_close(*rd);
		*rd = trace_open(path, o->arch, o->kernel_a, r->err, sizeof(r->err));
		if (!*rd)
			return -1;
		*first = trace_read(*rd, ev);
	}
	if (*first < 0) {
		snprintf(r->err, sizeof(r->err), "%s", trace_error(*rd));
		trace_close(*rd);
		*rd = NULL;
		return -1;
	}
	return 0;
}

int diff_trace(const char *path, const struct diff_opts *o, struct diff_result *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->kernel_a, sizeof(r->kernel_a), "%s", o->kernel_a ? o->kernel_a : "?");
	snprintf(r->kernel_b, sizeof(r->kernel_b), "%s", o->kernel_b ? o->kernel_b : "?");
	if (!o->kernel_a || !o->kernel_b) {
		snprintf(r->err, sizeof(r->err), "two kernels are needed");
		return 2;
	}
	struct trace_reader *rd;
	static struct event ev;
	int more;
	if (open_reader(path, o, &rd, &ev, &more, r))
		return 2;
	const struct trace_header *h = trace_header(rd);
	struct session_opts mo = SESSION_OPTS_INIT;
	if (o->machine)
		mo = *o->machine;
	if (!mo.arch)
		mo.arch = o->arch;
	struct side A = { 0 }, B = { 0 };
	struct inherit_state ia, ib;
	inherit_init(&ia, h, mo.maps);
	inherit_init(&ib, h, mo.maps);
	char merr[256];
	A.sys = session_model(h, o->kernel_a, &mo, &A.sem, merr, sizeof(merr));
	if (!A.sys) {
		snprintf(r->err, sizeof(r->err), "%s: %s", path, merr);
		trace_close(rd);
		return 2;
	}
	B.sys = session_model(h, o->kernel_b, &mo, &B.sem, merr, sizeof(merr));
	if (!B.sys) {
		snprintf(r->err, sizeof(r->err), "%s: %s", path, merr);
		vmsys_free(A.sys);
		trace_close(rd);
		return 2;
	}
	snprintf(r->kernel_a, sizeof(r->kernel_a), "%s", A.sem->name);
	snprintf(r->kernel_b, sizeof(r->kernel_b), "%s", B.sem->name);
	const char *arch = mo.arch ? mo.arch : (h->has_arch ? h->arch : "x86_64");
	const char *names = trace_flag_names(rd);
	int rc = 0;
	struct scope wa, wb;
	if (!o->full) {
		vmsys_set_tracepoint(A.sys, watch_tp, &wa);
		vmsys_set_tracepoint(B.sys, watch_tp, &wb);
	}
	struct cmp c = { .r = r, .A = &A, .B = &B, .st = standing_new() };
	if (!c.st) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		rc = 2;
		more = 0;
	}
	for (; more > 0; more = trace_read(rd, &ev)) {
		r->events++;
		if (ev.type == EV_CALL && ev.sys == SYS_UNKNOWN)
			continue;
		struct outcome oa, ob;
		char err[256];
		int64_t ba[NCOUNTERS], bb[NCOUNTERS];
		uint64_t fa[2], fb[2];
		bool access = ev.type == EV_CALL && (ev.sys == SYS_TOUCH || ev.sys == SYS_FAULT);
		/* a hit in both models changes nothing diff compares: the page
		 * stays present, young and dirty are not compared, no counter
		 * moves (the replay's hot path, vm_touch_hit()) */
		bool ha = false, hb = false;
		if (!o->full && access && ev.sys == SYS_TOUCH && !ev.args_missing &&
		    ev.res != RES_RESTART && !(ia.maps_path && !ia.maps_applied)) {
			struct task *xa = vmsys_task(A.sys, ev.pid, false), *xb = vmsys_task(B.sys, ev.pid, false);
			int mode = access_mode(ev.args[2]);
			ha = xa && task_alive(xa) && vm_touch_hit(A.sys, xa, ev.args[0], ev.args[1], mode);
			hb = xb && task_alive(xb) && vm_touch_hit(B.sys, xb, ev.args[0], ev.args[1], mode);
			if (ha && hb)
				continue;
			if (ha)
				oa = (struct outcome){ OUT_VALUE, 0, task_pid(xa) };
			if (hb)
				ob = (struct outcome){ OUT_VALUE, 0, task_pid(xb) };
		}
		/* a process the event makes (or names: the first one's pid 0)
		 * moves its differences: everything is compared after it */
		struct task *ka = vmsys_task(A.sys, ev.pid, false), *kb = vmsys_task(B.sys, ev.pid, false);
		bool known = ka && kb && task_pid(ka) == ev.pid && task_pid(kb) == ev.pid;
		task_faults(A.sys, ev.pid, fa);
		task_faults(B.sys, ev.pid, fb);
		for (size_t i = 0; i < NCOUNTERS; i++) {
			ba[i] = vmsys_vmstat(A.sys, counters[i]);
			bb[i] = vmsys_vmstat(B.sys, counters[i]);
		}
		wa = (struct scope){ 0 };
		wb = wa;
		if ((!ha && (inherit_before(&ia, A.sys, &ev, err, sizeof(err)) ||
			     apply_event(A.sys, &ev, &oa, err, sizeof(err)))) ||
		    (!hb && (inherit_before(&ib, B.sys, &ev, err, sizeof(err)) ||
			     apply_event(B.sys, &ev, &ob, err, sizeof(err)))) ||
		    (!ha && inherit_after(&ia, A.sys, &ev, err, sizeof(err))) ||
		    (!hb && inherit_after(&ib, B.sys, &ev, err, sizeof(err)))) {
			snprintf(r->err, sizeof(r->err), "%s:%lu: %s", path, ev.line, err);
			rc = 2;
			break;
		}
		if (ev.type == EV_EXPECT)
			continue; /* an observation: it changes nothing to compare */
		/* what the event may have changed, on either side, if that is
		 * all: nothing wide happened, no process differs, and it changed
		 * no frame mapped outside its ranges (in another process, or
		 * elsewhere in its own) */
		struct scope sc = { .vmas = wa.vmas || wb.vmas, .wide = wa.wide || wb.wide };
		for (unsigned i = 0; i < wa.n; i++)
			scope_add(&sc, wa.lo[i], wa.hi[i]);
		for (unsigned i = 0; i < wb.n; i++)
			scope_add(&sc, wb.lo[i], wb.hi[i]);
		scope_folios(A.sys, &wa, &sc, ev.pid);
		scope_folios(B.sys, &wb, &sc, ev.pid);
		bool scoped = !o->full && known && !sc.wide && call_scoped(A.sys, B.sys, &ev, &sc) && !sc.wide &&
			      !standing_tasks(c.st) && scope_private(A.sys, &wa, &sc, ev.pid) &&
			      scope_private(B.sys, &wb, &sc, ev.pid) && places_known(A.sys, B.sys, &sc);
		if (scoped && !access)
			sc.vmas = true; /* a call's ranges: its VMAs too */
		r->narrowed += scoped;
		size_t before = r->nitems;
		standing_epoch(c.st);
		c.line = ev.line;
		cmp_result(r, &ev, &oa, &ob);
		cmp_state(&c, ba, bb, scoped ? &sc : NULL, ev.pid);
		cmp_rusage(r, &ev, &A, &B, fa, fb);
		if (c.failed) {
			snprintf(r->err, sizeof(r->err), "out of memory");
			rc = 2;
			break;
		}
		if (r->nitems == before)
			continue;
		struct diff_event *grown = vm_grow(r->evs, &r->cap_evs, r->nevs + 1, sizeof(*grown));
		if (!grown) {
			snprintf(r->err, sizeof(r->err), "out of memory");
			rc = 2;
			break;
		}
		r->evs = grown;
		struct diff_event *de = &r->evs[r->nevs++];
		r->differing++;
		group_event(r, before);
		if (!r->parted_line)
			r->parted_line = ev.line;
		if (!standing_any(c.st))
			r->parted_line = 0; /* nothing stands after it */
		de->line = ev.line;
		de->first = before;
		de->n = r->nitems - before;
		/* the event as the trace has it, but without its recorded
		 * result: diff does not compare with it */
		struct event shown = ev;
		if (shown.type == EV_CALL)
			shown.res = RES_UNKNOWN;
		size_t n = trace_format_event(&shown, arch, names, de->text, sizeof(de->text));
		if (n >= sizeof(de->text))
			strcpy(de->text + sizeof(de->text) - 4, "...");
		rc = 1;
		if (o->each) {
			/* streamed: the event goes out and its items with it */
			o->each(o->each_ctx, r, de);
			r->nitems = r->nevs = 0;
		}
		if (!o->all)
			break;
	}
	standing_free(c.st);
	free(c.ea.v);
	free(c.eb.v);
	if (more < 0 && rc != 2) {
		snprintf(r->err, sizeof(r->err), "%s", trace_error(rd));
		rc = 2;
	}
	vmsys_free(A.sys);
	vmsys_free(B.sys);
	trace_close(rd);
	return rc;
}

void diff_result_free(struct diff_result *r)
{
	free(r->items);
	free(r->evs);
	r->items = NULL;
	r->evs = NULL;
	r->nitems = r->nevs = r->cap_items = r->cap_evs = 0;
}

const struct diff_item *diff_at(const struct diff_result *r, unsigned long line,
				enum diff_kind kind, const char *what, int pid)
{
	const struct diff_item *best = NULL;
	for (size_t i = 0; i < r->nitems; i++) {
		const struct diff_item *it = &r->items[i];
		if (it->line > line || it->kind != kind || (what && strcmp(it->what, what)) ||
		    (pid >= 0 && it->pid != pid))
			continue;
		if (it->line != line && !it->state)
			continue; /* an event's own difference: its line's only */
		if (!best || it->line >= best->line)
			best = it;
	}
	return best && best->ended ? NULL : best;
}

void diff_print_event(const char *path, const struct diff_result *r, const struct diff_event *de, FILE *f)
{
	diff_print_event_max(path, r, de, SIZE_MAX, f);
}

void diff_print_event_max(const char *path, const struct diff_result *r, const struct diff_event *de,
			  size_t max, FILE *f)
{
	char la[24], lb[24];
	snprintf(la, sizeof(la), "%s:", r->kernel_a);
	snprintf(lb, sizeof(lb), "%s:", r->kernel_b);
	fprintf(f, "%s:%lu: differs: %s\n", path, de->line, de->text);
	if (de->n > max)
		fprintf(f, "  (%zu items, the first %zu here)\n", de->n, max);
	for (size_t i = de->first; i < de->first + (de->n > max ? max : de->n); i++) {
		const struct diff_item *it = &r->items[i];
		char what[64];
		if (it->pid && it->kind != DK_VMSTAT)
			snprintf(what, sizeof(what), "%s (pid %d)", it->what, it->pid);
		else
			snprintf(what, sizeof(what), "%s", it->what);
		if (it->ended)
			fprintf(f, "  %-24s agree again: %s\n", what, it->a);
		else
			fprintf(f, "  %-24s %-7s %-36s |   %-7s %s\n", what, la, it->a, lb, it->b);
	}
}

void diff_print(const char *path, const struct diff_result *r, FILE *f)
{
	for (size_t e = 0; e < r->nevs; e++)
		diff_print_event(path, r, &r->evs[e], f);
}
