/* diff.c - two models in lockstep over one trace.  See replay.h, section "diff". */
#include "alloc.h"
#include "replay.h"
#include "inherit.h"

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

static uint8_t page_bits(const struct vm_page_info *p)
{
	return (uint8_t)((p->present ? 1 : 0) | (p->mlocked ? 2 : 0) | (p->unevictable ? 4 : 0) |
			 (p->lru ? 8 : 0));
}

static void page_text(uint8_t b, char *buf, size_t len)
{
	if (!(b & 1))
		snprintf(buf, len, "present=0");
	else
		snprintf(buf, len, "present=1 mlocked=%d unevictable=%d lru=%d", (b >> 1) & 1,
			 (b >> 2) & 1, (b >> 3) & 1);
}

/* Pages of [start,end) in both processes (mapped on both sides). */
static unsigned cmp_pages(struct diff_result *r, unsigned long line, struct side *A, struct task *ta,
			  struct side *B, struct task *tb, uint64_t start, uint64_t end,
			  unsigned listed)
{
	for (uint64_t a = start; a < end; a += PAGE) {
		/* the next page either side has: the walk costs what is present */
		uint64_t na = a, nb = a;
		bool ma = vmsys_next_page(A->sys, ta, &na, end), mb = vmsys_next_page(B->sys, tb, &nb, end);
		if (!ma && !mb)
			break;
		a = !ma ? nb : !mb ? na : na < nb ? na : nb;
		struct vm_page_info pa, pb;
		bool ha = vmsys_page(A->sys, ta, a, &pa);
		bool hb = vmsys_page(B->sys, tb, a, &pb);
		if (!ha && !hb)
			continue;
		uint8_t ba = page_bits(&pa), bb = page_bits(&pb);
		if (ba == bb)
			continue;
		if (listed++ >= MAX_PAGE_ITEMS)
			continue;
		char what[48];
		snprintf(what, sizeof(what), "page 0x%" PRIx64, a);
		struct diff_item *it = add_item(r, line, DK_PAGE, task_pid(ta), a, what);
		if (!it)
			return listed;
		page_text(ba, it->a, sizeof(it->a));
		page_text(bb, it->b, sizeof(it->b));
		it->va = ba;
		it->vb = bb;
	}
	return listed;
}

/*
 * What an event touched, as the tracepoints of one model tell it: the page
 * tables (2 MiB each) its faults mapped into - fault-around and a whole
 * large folio stay inside one - or "wide": anything that can change pages
 * elsewhere, a VMA, locked_vm or a process (reclaim, the OOM killer, NUMA,
 * stack growth).  Comparing after an access, diff then looks at those page
 * tables only (cmp_state()).
 */
#define WATCH_TABLES 8
struct watch {
	bool wide;
	unsigned n;
	uint64_t table[WATCH_TABLES]; /* vpn >> 9 */
};

/* the tables stay in address order, as the full walk lists pages */
static void watch_table(struct watch *w, uint64_t addr)
{
	uint64_t t = addr >> 21;
	unsigned i = 0;
	while (i < w->n && w->table[i] < t)
		i++;
	if (i < w->n && w->table[i] == t)
		return;
	if (w->n == WATCH_TABLES) {
		w->wide = true;
		return;
	}
	memmove(&w->table[i + 1], &w->table[i], (w->n - i) * sizeof(w->table[0]));
	w->table[i] = t;
	w->n++;
}

static void watch_tp(void *ctx, const struct tp_event *e)
{
	struct watch *w = ctx;
	switch (e->id) {
	case TP_FAULT:
		watch_table(w, e->addr);
		break;
	case TP_FAULT_AROUND:
		watch_table(w, e->start);
		if (e->end > e->start)
			watch_table(w, e->end - 1);
		break;
	/* the faulted pages on their way to a list, the page cache filled
	 * (not mapped: not compared) and its refaults judged (counted), a
	 * limit checked */
	case TP_LRU_ADD: case TP_LRU_DEL: case TP_PAGE: case TP_BATCH_ADD: case TP_BATCH_DRAIN:
	case TP_READAHEAD: case TP_LIMIT: case TP_REFAULT:
		break;
	default:
		w->wide = true;
	}
}

/* only: compare the pages of these page tables alone (NULL: every VMA) */
static void cmp_task(struct diff_result *r, unsigned long line, struct side *A, struct task *ta,
		     struct side *B, struct task *tb, const struct watch *only)
{
	int pid = task_pid(ta);
	struct vm_status sa, sb;
	vmsys_status(A->sys, ta, &sa);
	vmsys_status(B->sys, tb, &sb);
	if (sa.locked_vm != sb.locked_vm) {
		struct diff_item *it = add_item(r, line, DK_VMLCK, pid, 0, "VmLck");
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
		struct diff_item *it = add_item(r, line, DK_DEF_FLAGS, pid, 0, "def_flags");
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
	unsigned pages_listed = 0;
	/* nothing touched a VMA (else the watch is wide): only these pages */
	for (unsigned i = 0; only && i < only->n; i++)
		pages_listed = cmp_pages(r, line, A, ta, B, tb, only->table[i] << 21,
					 (only->table[i] + 1) << 21, pages_listed);
	/* VMAs: walk both lists in address order */
	struct vm_vma_info va, vb;
	const struct vma *xa = only ? NULL : vmsys_vma_next(A->sys, ta, NULL, &va);
	const struct vma *xb = only ? NULL : vmsys_vma_next(B->sys, tb, NULL, &vb);
	bool layout_reported = false;
	while (xa || xb) {
		bool same = xa && xb && va.start == vb.start && va.end == vb.end;
		if (!same) {
			if (!layout_reported) {
				layout_reported = true;
				uint64_t at = xa && (!xb || va.start <= vb.start) ? va.start : vb.start;
				char what[48];
				snprintf(what, sizeof(what), "vmas 0x%" PRIx64, at);
				struct diff_item *it = add_item(r, line, DK_VMAS, pid, at, what);
				if (it) {
					if (xa)
						snprintf(it->a, sizeof(it->a), "[0x%" PRIx64 ", 0x%" PRIx64 ")",
							 va.start, va.end);
					else
						snprintf(it->a, sizeof(it->a), "(none)");
					if (xb)
						snprintf(it->b, sizeof(it->b), "[0x%" PRIx64 ", 0x%" PRIx64 ")",
							 vb.start, vb.end);
					else
						snprintf(it->b, sizeof(it->b), "(none)");
				}
			}
			/* the pages both sides map, though in VMAs of other bounds
			 * (a merge one kernel refuses): their state still differs */
			if (xa && xb) {
				uint64_t lo = va.start > vb.start ? va.start : vb.start;
				uint64_t hi = va.end < vb.end ? va.end : vb.end;
				if (lo < hi)
					pages_listed = cmp_pages(r, line, A, ta, B, tb, lo, hi, pages_listed);
			}
			/* advance the side that is behind, or both */
			if (xa && (!xb || va.end <= vb.end))
				xa = vmsys_vma_next(A->sys, ta, xa, &va);
			else
				xb = vmsys_vma_next(B->sys, tb, xb, &vb);
			continue;
		}
		if (va.flags != vb.flags) {
			char what[48];
			snprintf(what, sizeof(what), "vma 0x%" PRIx64, va.start);
			struct diff_item *it = add_item(r, line, DK_VMFLAGS, pid, va.start, what);
			if (it) {
				char fa[160], fb[160];
				flags_text(A->sys, va.flags, fa, sizeof(fa));
				flags_text(B->sys, vb.flags, fb, sizeof(fb));
				snprintf(it->a, sizeof(it->a), "VmFlags \"%s\"", fa);
				snprintf(it->b, sizeof(it->b), "VmFlags \"%s\"", fb);
				it->va = (int64_t)va.flags;
				it->vb = (int64_t)vb.flags;
			}
		}
		/* every VMA: one whose PTEs all map the zero page has an RSS of 0
		 * (the walk costs what is present, nothing for an empty VMA) */
		pages_listed = cmp_pages(r, line, A, ta, B, tb, va.start, va.end, pages_listed);
		xa = vmsys_vma_next(A->sys, ta, xa, &va);
		xb = vmsys_vma_next(B->sys, tb, xb, &vb);
	}
	if (pages_listed > MAX_PAGE_ITEMS) {
		struct diff_item *it = add_item(r, line, DK_PAGE, pid, 0, "pages");
		if (it) {
			snprintf(it->a, sizeof(it->a), "%u pages differ (first %d listed)", pages_listed,
				 MAX_PAGE_ITEMS);
			snprintf(it->b, sizeof(it->b), "%s", it->a);
			it->va = it->vb = pages_listed;
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

/* nr_mlock is state and compared as it stands; the unevictable_pgs_*
 * and fault events are compared by what this event added (else one early
 * difference would make every later event differ) */
static void cmp_state(struct diff_result *r, unsigned long line, struct side *A, struct side *B,
		      const int64_t *before_a, const int64_t *before_b, const struct watch *only)
{
	vm_drain_all(A->sys);
	vm_drain_all(B->sys);
	struct task *ta = vmsys_task_next(A->sys, NULL), *tb = vmsys_task_next(B->sys, NULL);
	while (ta || tb) {
		bool la = ta && task_alive(ta), lb = tb && task_alive(tb);
		if (!ta || !tb || task_pid(ta) != task_pid(tb) || la != lb) {
			int pid = ta ? task_pid(ta) : task_pid(tb);
			struct diff_item *it = add_item(r, line, DK_TASK, pid, 0, "process");
			if (it) {
				snprintf(it->a, sizeof(it->a), "%s", !ta ? "(none)" : la ? "alive" : "exited");
				snprintf(it->b, sizeof(it->b), "%s", !tb ? "(none)" : lb ? "alive" : "exited");
			}
			break; /* the process lists no longer line up */
		}
		if (la)
			cmp_task(r, line, A, ta, B, tb, only);
		ta = vmsys_task_next(A->sys, ta);
		tb = vmsys_task_next(B->sys, tb);
	}
	for (size_t i = 0; i < NCOUNTERS; i++) {
		int64_t ca = vmsys_vmstat(A->sys, counters[i]), cb = vmsys_vmstat(B->sys, counters[i]);
		bool event = counters[i] != NR_MLOCK;
		int64_t da = event ? ca - before_a[i] : ca, db = event ? cb - before_b[i] : cb;
		if (da == db)
			continue;
		struct diff_item *it = add_item(r, line, DK_VMSTAT, 0, 0, vmstat_name(counters[i]));
		if (it) {
			if (event) {
				snprintf(it->a, sizeof(it->a), "+%" PRId64 " (total %" PRId64 ")", da, ca);
				snprintf(it->b, sizeof(it->b), "+%" PRId64 " (total %" PRId64 ")", db, cb);
			} else {
				snprintf(it->a, sizeof(it->a), "%" PRId64, ca);
				snprintf(it->b, sizeof(it->b), "%" PRId64, cb);
			}
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
	/* the two models agreed after the last event compared: an access then
	 * needs only what it touched compared (else everything is) */
	bool agreed = true;
	struct watch wa, wb;
	if (!o->full) {
		vmsys_set_tracepoint(A.sys, watch_tp, &wa);
		vmsys_set_tracepoint(B.sys, watch_tp, &wb);
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
		if (!o->full && agreed && access && ev.sys == SYS_TOUCH && !ev.args_missing &&
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
		task_faults(A.sys, ev.pid, fa);
		task_faults(B.sys, ev.pid, fb);
		for (size_t i = 0; i < NCOUNTERS; i++) {
			ba[i] = vmsys_vmstat(A.sys, counters[i]);
			bb[i] = vmsys_vmstat(B.sys, counters[i]);
		}
		wa = (struct watch){ false, 0, { 0 } };
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
		/* what the access touched, if that is all it could have changed:
		 * both models agreed before, nothing wide happened, and one
		 * process only (a page another maps would show there too) */
		struct watch only = wa;
		for (unsigned i = 0; i < wb.n; i++)
			watch_table(&only, wb.table[i] << 21);
		bool narrow = !o->full && agreed && access && !wa.wide && !wb.wide && !only.wide &&
			      vmsys_live_tasks(A.sys, 2) == 1 && vmsys_live_tasks(B.sys, 2) == 1;
		size_t before = r->nitems;
		cmp_result(r, &ev, &oa, &ob);
		cmp_state(r, ev.line, &A, &B, ba, bb, narrow ? &only : NULL);
		cmp_rusage(r, &ev, &A, &B, fa, fb);
		agreed = r->nitems == before;
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
		if (!o->all)
			break;
	}
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

const struct diff_item *diff_find(const struct diff_result *r, unsigned long line,
				  enum diff_kind kind, const char *what)
{
	for (size_t i = 0; i < r->nitems; i++) {
		const struct diff_item *it = &r->items[i];
		if ((!line || it->line == line) && it->kind == kind && (!what || !strcmp(it->what, what)))
			return it;
	}
	return NULL;
}

void diff_print(const char *path, const struct diff_result *r, FILE *f)
{
	char la[24], lb[24];
	snprintf(la, sizeof(la), "%s:", r->kernel_a);
	snprintf(lb, sizeof(lb), "%s:", r->kernel_b);
	for (size_t e = 0; e < r->nevs; e++) {
		const struct diff_event *de = &r->evs[e];
		fprintf(f, "%s:%lu: differs: %s\n", path, de->line, de->text);
		for (size_t i = de->first; i < de->first + de->n; i++) {
			const struct diff_item *it = &r->items[i];
			char what[64];
			if (it->pid && it->kind != DK_VMSTAT)
				snprintf(what, sizeof(what), "%s (pid %d)", it->what, it->pid);
			else
				snprintf(what, sizeof(what), "%s", it->what);
			fprintf(f, "  %-24s %-7s %-36s |   %-7s %s\n", what, la, it->a, lb, it->b);
		}
	}
}
