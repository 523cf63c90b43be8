/*
 * explain.c - tracepoint events to steps in kernel terms (teach.h, section "explain").
 */
#include "teach.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "replay.h"
#include "kerr.h"
#include "semantics.h"

#define PAGE 4096ULL

/* a step's text is bounded (explain_step.text); a long flag list may be cut */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

void tp_log_hook(void *ctx, const struct tp_event *e)
{
	struct tp_log *l = ctx;
	if (l->n == l->cap) {
		if (l->cap >= TP_LOG_MAX) {
			l->dropped++;
			return;
		}
		struct tp_event *ev = vm_grow(l->ev, &l->cap, l->n + 1, sizeof(*ev));
		if (!ev) {
			l->dropped++;
			return;
		}
		l->ev = ev;
	}
	l->ev[l->n++] = *e;
}

void tp_log_free(struct tp_log *l)
{
	free(l->ev);
	*l = (struct tp_log){ 0 };
}

void explain_steps_free(struct explain_steps *st)
{
	free(st->s);
	*st = (struct explain_steps){ 0 };
}

const char *explain_version(const struct semantics *sem)
{
	if (!strcmp(sem->name, "lof-v1"))
		return "v4.0+lof-v1";
	static char buf[32];
	snprintf(buf, sizeof(buf), "v%s", sem->name);
	return buf;
}

static const char *const list_names[] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

static const char *list_name(unsigned l)
{
	return l < 5 ? list_names[l] : "no list";
}

/* the VM_* names a reader of mm.h knows, for the bits that change */
static const struct { vm_flags_t bit; const char *name; } vm_names[] = {
	{ VM_READ, "VM_READ" }, { VM_WRITE, "VM_WRITE" }, { VM_EXEC, "VM_EXEC" },
	{ VM_SHARED, "VM_SHARED" }, { VM_GROWSDOWN, "VM_GROWSDOWN" },
	{ VM_LOCKED, "VM_LOCKED" }, { VM_IO, "VM_IO" }, { VM_SEQ_READ, "VM_SEQ_READ" },
	{ VM_RAND_READ, "VM_RAND_READ" }, { VM_DONTCOPY, "VM_DONTCOPY" },
	{ VM_DONTEXPAND, "VM_DONTEXPAND" }, { VM_LOCKONFAULT, "VM_LOCKONFAULT" },
	{ VM_ACCOUNT, "VM_ACCOUNT" }, { VM_NORESERVE, "VM_NORESERVE" },
	{ VM_SYNC, "VM_SYNC" }, { VM_WIPEONFORK, "VM_WIPEONFORK" },
	{ VM_DONTDUMP, "VM_DONTDUMP" }, { VM_HUGEPAGE, "VM_HUGEPAGE" },
	{ VM_NOHUGEPAGE, "VM_NOHUGEPAGE" }, { VM_MERGEABLE, "VM_MERGEABLE" },
	{ VM_DROPPABLE, "VM_DROPPABLE" }, { VM_SEALED, "VM_SEALED" },
};

static void flag_names(char *buf, size_t n, vm_flags_t f)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(vm_names) / sizeof(vm_names[0]) && o < n; i++)
		if (f & vm_names[i].bit)
			o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? "|" : "", vm_names[i].name);
	if (!buf[0])
		snprintf(buf, n, "(none)");
}

static uint64_t pages(uint64_t a, uint64_t b) { return (b - a) / PAGE; }
static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }
static const char *yes_no(bool b) { return b ? "yes" : "no"; }

/* one event; n > 1 for a run folded into one step, [lo, hi] its pfns */
static void step_text(char *t, size_t len, const struct tp_event *e, unsigned n, uint64_t last_addr,
		      const struct vmsys *sys)
{
	char a[160], b[160];
	switch (e->id) {
	case TP_VMA_NEW: {
		vmsys_vmflags_text(sys, e->new_flags, a, sizeof(a));
		int o = snprintf(t, len, "vma [%#" PRIx64 ", %#" PRIx64 ") %s, %" PRIu64 " page%s, VmFlags %s"
				 " (map_count -> %" PRIu64 ")", e->start, e->end,
				 e->fn == KFN_DUP_MMAP ? "copied into the child" : "created",
				 pages(e->start, e->end), plural(pages(e->start, e->end)), a, e->after);
		size_t u = o < 0 ? 0 : (size_t)o < len ? (size_t)o : len;
		if (e->old_end)
			snprintf(t + u, len - u, ", moved from [%#" PRIx64 ", %#" PRIx64 ")", e->old_start,
				 e->old_end);
		else if (e->old_flags & ~e->new_flags) {
			flag_names(b, sizeof(b), e->old_flags & ~e->new_flags);
			snprintf(t + u, len - u, "; the parent's %s is not inherited", b);
		}
		return;
	}
	case TP_VMA_SPLIT:
		if (e->err)
			snprintf(t, len, "vma [%#" PRIx64 ", %#" PRIx64 ") not split at %#" PRIx64
				 ": map_count %" PRIu64 " has reached max_map_count %" PRIu64 " (%s)",
				 e->old_start, e->old_end, e->addr, e->before, e->limit, kerr_name(e->err));
		else
			snprintf(t, len, "vma [%#" PRIx64 ", %#" PRIx64 ") split at %#" PRIx64
				 " (map_count %" PRIu64 " -> %" PRIu64 ")", e->old_start, e->old_end,
				 e->addr, e->before, e->after);
		return;
	case TP_VMA_MERGE:
		snprintf(t, len, "vma [%#" PRIx64 ", %#" PRIx64 ") merged: the vma is now [%#" PRIx64
			 ", %#" PRIx64 ") (map_count %" PRIu64 " -> %" PRIu64 ")", e->old_start,
			 e->old_end, e->start, e->end, e->before, e->after);
		return;
	case TP_VMA_ADJUST:
		snprintf(t, len, "vma [%#" PRIx64 ", %#" PRIx64 ") becomes [%#" PRIx64 ", %#" PRIx64 ")",
			 e->old_start, e->old_end, e->start, e->end);
		return;
	case TP_VMA_UNLINK:
		snprintf(t, len, "vma [%#" PRIx64 ", %#" PRIx64 ") removed (map_count %" PRIu64
			 " -> %" PRIu64 ")", e->start, e->end, e->before, e->after);
		return;
	case TP_VMA_FLAGS: {
		vm_flags_t set = e->new_flags & ~e->old_flags, clr = e->old_flags & ~e->new_flags;
		flag_names(a, sizeof(a), set);
		flag_names(b, sizeof(b), clr);
		char where[80];
		if (e->kind == TPV_DEF_FLAGS)
			snprintf(where, sizeof(where), "mm->def_flags");
		else
			snprintf(where, sizeof(where), "[%#" PRIx64 ", %#" PRIx64 ")", e->start, e->end);
		if (!set && !clr)
			snprintf(t, len, "%s keeps its flags", where);
		else if (set && clr)
			snprintf(t, len, "%s set on %s, %s cleared", a, where, b);
		else if (set)
			snprintf(t, len, "%s set on %s", a, where);
		else
			snprintf(t, len, "%s cleared on %s", b, where);
		return;
	}
	case TP_LOCKED_VM:
		snprintf(t, len, "locked_vm %" PRIu64 " -> %" PRIu64 " pages (%+" PRId64 "; limit %"
			 PRIu64 " pages, CAP_IPC_LOCK %s)", e->before, e->after, e->delta, e->limit,
			 yes_no(e->cap));
		return;
	case TP_LIMIT:
		if (e->fn == KFN_IO_ACCOUNT_MEM) {
			/* .after: the creator's pinned_vm before the buffer */
			if (e->kind == 1)
				snprintf(t, len, "io_uring %s: %" PRId64 " + the user's locked_vm %" PRIu64
					 " = %" PRIu64 " pages %s limit %" PRIu64 "%s%s",
					 "rings (io_create_region())", e->delta, e->before,
					 (uint64_t)e->delta + e->before,
					 (uint64_t)e->delta + e->before > e->limit ? ">" : "<=", e->limit,
					 e->err ? ": " : "", e->err ? kerr_name(e->err) : "");
			else if (e->cap)
				snprintf(t, len, "io_uring buffer: %" PRId64 " page%s pinned, not charged "
					 "(CAP_IPC_LOCK at setup); pinned_vm %" PRIu64 " -> %" PRIu64,
					 e->delta, plural((uint64_t)e->delta), e->after,
					 e->after + (uint64_t)e->delta);
			else
				snprintf(t, len, "io_uring buffer: %" PRId64 " + the user's locked_vm %" PRIu64
					 " = %" PRIu64 " pages %s limit %" PRIu64 "%s%s", e->delta, e->before,
					 (uint64_t)e->delta + e->before,
					 (uint64_t)e->delta + e->before > e->limit ? ">" : "<=", e->limit,
					 e->err ? ": " : "; pinned_vm += the pages",
					 e->err ? kerr_name(e->err) : "");
		} else if (e->fn == KFN_USER_SHM_LOCK) {
			snprintf(t, len, "SHM_LOCK: %" PRId64 " + the user's locked_shm %" PRIu64 " = %" PRIu64
				 " pages %s limit %" PRIu64 " (CAP_IPC_LOCK %s)%s%s", e->delta, e->before,
				 (uint64_t)e->delta + e->before,
				 (uint64_t)e->delta + e->before > e->limit ? ">" : "<=", e->limit,
				 yes_no(e->cap), e->err ? ": " : "", e->err ? kerr_name(e->err) : "");
		} else if (e->fn == KFN_DO_MLOCKALL) {
			snprintf(t, len, "RLIMIT_MEMLOCK: total_vm %" PRId64 " pages %s limit %" PRIu64
				 " pages (CAP_IPC_LOCK %s)%s%s", e->delta, e->err ? ">" : "<=", e->limit,
				 yes_no(e->cap), e->err ? ": " : "", e->err ? kerr_name(e->err) : "");
		} else if (e->cap) {
			snprintf(t, len, "RLIMIT_MEMLOCK not checked: CAP_IPC_LOCK (asks %" PRId64
				 " page%s, locked_vm %" PRIu64 ")", e->delta, plural((uint64_t)e->delta),
				 e->before);
		} else {
			uint64_t want = (uint64_t)e->delta + e->before - e->after;
			snprintf(t, len, "RLIMIT_MEMLOCK: %" PRId64 " + locked_vm %" PRIu64 "%s = %" PRIu64
				 " pages %s limit %" PRIu64 "%s%s", e->delta, e->before,
				 e->after ? " - already locked" : "", want, e->err ? ">" : "<=", e->limit,
				 e->err ? ": " : "", e->err ? kerr_name(e->err) : "");
			if (e->after) {
				size_t o = strlen(t);
				snprintf(t + o, len - o, " (%" PRIu64 " already locked pages not counted twice)",
					 e->after);
			}
		}
		return;
	case TP_FAULT: {
		static const char *const path[] = {
			[TPF_ANON] = "new anonymous page", [TPF_ZERO_PAGE] = "the shared zero page",
			[TPF_FILE_READ] = "page cache read", [TPF_FILE_SHARED] = "shared file write",
			[TPF_COW] = "private copy of the file page", [TPF_WP_COPY] = "copy on write",
			[TPF_WP_REUSE] = "page reused (ours alone)", [TPF_SWAP_IN] = "swap-in",
			[TPF_SIGSEGV] = "SIGSEGV", [TPF_SIGBUS] = "SIGBUS",
			[TPF_NUMA_HINT] = "NUMA hinting fault (PROT_NONE of the scan)",
			[TPF_HUGETLB] = "huge page of the hugetlb pool",
			[TPF_THP] = "transparent huge page (512 pages)",
			[TPF_HUGE_ZERO] = "the huge zero page (512 PTEs)",
		};
		const char *p = e->kind <= TPF_HUGE_ZERO ? path[e->kind] : "?";
		if (n > 1)
			snprintf(t, len, "%u faults at %#" PRIx64 "..%#" PRIx64 ": %s", n, e->addr,
				 last_addr, p);
		else
			snprintf(t, len, "fault at %#" PRIx64 ": %s", e->addr, p);
		return;
	}
	case TP_FAULT_AROUND:
		snprintf(t, len, "fault-around [%#" PRIx64 ", %#" PRIx64 "): %" PRId64
			 " cached page%s mapped", e->start, e->end, e->delta, plural((uint64_t)e->delta));
		return;
	case TP_READAHEAD:
		snprintf(t, len, "%s readahead for page %" PRIu64 ": window [%" PRIu64 ", %" PRIu64
			 "), async tail %" PRIu64 "%s", e->kind ? "async" : "sync", e->addr, e->before,
			 e->before + (uint64_t)e->delta, e->after, e->err ? " (out of memory)" : "");
		return;
	case TP_LRU_ADD:
		if (e->list_from != TP_LIST_NONE)
			snprintf(t, len, "%u page%s %s -> %s", n, plural(n), list_name(e->list_from),
				 list_name(e->list_to));
		else
			snprintf(t, len, "%u page%s put on %s%s", n, plural(n), list_name(e->list_to),
				 e->kind ? " (at the tail)" : "");
		return;
	case TP_LRU_DEL:
		snprintf(t, len, "%u page%s taken off %s", n, plural(n), list_name(e->list_from));
		return;
	case TP_PAGE:
		switch (e->kind) {
		case TPP_MLOCK:
			snprintf(t, len, "%u page%s PG_mlocked", n, plural(n));
			return;
		case TPP_MLOCK_COUNT:
			snprintf(t, len, "%u page%s already mlocked: mlock_count raised%s", n, plural(n),
				 n == 1 ? "" : " on each");
			return;
		case TPP_CULL:
			snprintf(t, len, "%u page%s culled: %s -> unevictable", n, plural(n),
				 e->list_from == TP_LIST_NONE ? "new" : list_name(e->list_from));
			return;
		case TPP_MUNLOCK:
			snprintf(t, len, "%u page%s munlocked (PG_mlocked cleared)", n, plural(n));
			return;
		case TPP_MUNLOCK_COUNT:
			snprintf(t, len, "%u page%s: mlock_count lowered, still mlocked", n, plural(n));
			return;
		case TPP_RESCUE:
			snprintf(t, len, "%u page%s rescued: unevictable -> %s", n, plural(n),
				 list_name(e->list_to));
			return;
		case TPP_STRANDED:
			snprintf(t, len, "%u page%s munlocked while isolated (stranded)", n, plural(n));
			return;
		case TPP_STILL_LOCKED:
			snprintf(t, len, "%u page%s stay mlocked: another VM_LOCKED vma maps them "
				 "(try_to_munlock)", n, plural(n));
			return;
		}
		break;
	case TP_BATCH_ADD:
		snprintf(t, len, "%u page%s queued in the %s batch (%" PRIu64 " of %" PRIu64 ")", n,
			 plural(n), e->kind == TPB_MLOCK ? "per-CPU mlock" : "per-CPU lru_add", e->after,
			 e->limit);
		return;
	case TP_BATCH_DRAIN:
		snprintf(t, len, "%s batch drained: %" PRId64 " page%s", e->kind == TPB_MLOCK ?
			 "mlock" : "lru_add", e->delta, plural((uint64_t)e->delta));
		return;
	case TP_RECLAIM: {
		static const char *const why[] = {
			[TPR_RECLAIMED] = "reclaimed", [TPR_ACTIVATED] = "referenced: activated",
			[TPR_KEPT] = "referenced once: kept", [TPR_MLOCKED] = "mlocked: culled to unevictable",
			[TPR_NO_SWAP] = "anonymous, no swap: kept", [TPR_BUSY] = "still mapped: kept",
			[TPR_DIRTY] = "dirty: marked for reclaim, activated",
			[TPR_WRITEBACK] = "dirty: written back, rotated",
			[TPR_DIRTY_KEPT] = "dirty: marked for reclaim, kept",
		};
		snprintf(t, len, "%u page%s scanned: %s", n, plural(n),
			 e->kind <= TPR_DIRTY_KEPT ? why[e->kind] : "?");
		return;
	}
	case TP_RECLAIM_SCAN:
		if (n > 1)
			snprintf(t, len, "%s: %u passes of %" PRId64 " pages to scan, %" PRIu64
				 " reclaimed each", list_name(e->list_from), n, e->delta, e->after);
		else
			snprintf(t, len, "%s: %" PRId64 " pages to scan, %" PRIu64 " reclaimed",
				 list_name(e->list_from), e->delta, e->after);
		return;
	case TP_OOM_KILL:
		snprintf(t, len, "out of memory: pid %" PRIu64 " killed (badness %" PRId64 " pages)",
			 e->before, e->delta);
		return;
	case TP_NUMA_SCAN:
		if (n > 1)
			snprintf(t, len, "%u passes over [%#" PRIx64 ", %#" PRIx64 "): no PTE made PROT_NONE (every present one already is, or none is present); scan sequence now %" PRIu64,
				 n, e->start, e->end, e->limit + (uint64_t)(n - 1) * (e->limit - e->before));
		else if (e->limit != e->before)
			snprintf(t, len, "pass over [%#" PRIx64 ", %#" PRIx64 "): %" PRId64
				 " PTE%s made PROT_NONE; the end of the address space: the next pass starts over (scan sequence %" PRIu64 ")",
				 e->start, e->end, e->delta, plural((uint64_t)e->delta), e->limit);
		else
			snprintf(t, len, "pass over [%#" PRIx64 ", %#" PRIx64 "): %" PRId64
				 " PTE%s made PROT_NONE; the 256 MB budget is spent: the next pass starts at %#" PRIx64,
				 e->start, e->end, e->delta, plural((uint64_t)e->delta), e->after);
		return;
	case TP_NUMA_HINT: {
		static const char *const why[] = {
			[TPN_LOCAL] = "local, stays",
			[TPN_MIGRATED] = "migrated to the task's node",
			[TPN_FILTERED] = "stays: the last hinting fault came from another node (two-stage filter)",
			[TPN_NOT_COUNTED] = "not a hinting fault (zero page or large folio): only made present",
			[TPN_FULL] = "stays: the task's node is at its high watermark",
			[TPN_OFF_LRU] = "stays: in a per-CPU batch, not on an LRU list (isolation fails)",
			[TPN_RATELIMIT] = "stays: 128 MB already migrated to that node in this window",
			[TPN_DIRTY_FILE] = "stays: dirty file page",
			[TPN_SHARED_EXEC] = "stays: file text mapped more than once",
			[TPN_BUSY] = "stays: busy (writeback, or a batch's reference): pgmigrate_fail",
			[TPN_SWAPCACHE] = "stays: a swap-cache page (not migrated by the model)",
		};
		const char *w = e->kind <= TPN_SWAPCACHE ? why[e->kind] : "?";
		if (n > 1)
			snprintf(t, len, "%u pages: on node %" PRIu64 ", task on node %" PRIu64 ": %s", n,
				 e->before, e->after, w);
		else
			snprintf(t, len, "page %#" PRIx64 " on node %" PRIu64 ", task on node %" PRIu64 ": %s",
				 e->addr, e->before, e->after, w);
		return;
	}
	case TP_NUMA_PERIOD: {
		static const char *const why[] = {
			[TPS_IDLE] = "no local and no shared hinting faults: doubled",
			[TPS_FAILED] = "a migration failed since it last changed: doubled",
			[TPS_LOCAL] = "70% or more of the faults local: slower",
			[TPS_PRIVATE] = "70% or more of the faults private: slower",
			[TPS_FASTER] = "too few local faults: faster",
		};
		snprintf(t, len, "scan period %" PRIu64 " -> %" PRIu64 " ms (%s; %" PRIu64 " local, %" PRIu64
			 " remote, %" PRIu64 " private, %" PRIu64 " shared faults); next scan at jiffy %" PRIu64,
			 e->before, e->after, e->kind <= TPS_FASTER ? why[e->kind] : "?", e->start, e->end,
			 e->old_start, e->old_end, e->limit);
		return;
	}
	case TP_REFAULT: {
		static const char *const what[] = {
			[TPW_INACTIVE] = "beyond the workingset: inactive",
			[TPW_ACTIVATE] = "within the workingset: activated",
			[TPW_RESTORE] = "within the workingset, and it was in it when evicted: activated, PG_workingset",
		};
		const char *w = e->kind <= TPW_RESTORE ? what[e->kind] : "?";
		const char *type = e->before ? "file" : "anonymous";
		if (n > 1)
			snprintf(t, len, "%u %s pages refaulted, each %s (workingset %" PRIu64 " pages at the last)",
				 n, type, w, e->after);
		else
			snprintf(t, len, "%s page refaulted: distance %" PRId64 ", workingset %" PRIu64
				 " pages: %s", type, e->delta, e->after, w);
		return;
	}
	case TP_NR:
		break;
	}
	snprintf(t, len, "%s", tp_id_name(e->id));
}

/* steps of pages fold into one when they say the same about another page */
static bool foldable(const struct tp_event *a, const struct tp_event *b)
{
	switch (a->id) {
	case TP_LRU_ADD: case TP_LRU_DEL: case TP_PAGE: case TP_BATCH_ADD: case TP_RECLAIM:
	case TP_FAULT: case TP_NUMA_HINT: case TP_REFAULT:
		if (a->id == TP_REFAULT && a->before != b->before)
			return false;
		if (a->id == TP_NUMA_HINT && (a->before != b->before || a->after != b->after))
			return false;
		break;
	case TP_RECLAIM_SCAN: /* the same pass again */
		if (a->delta != b->delta || a->after != b->after)
			return false;
		break;
	case TP_NUMA_SCAN: /* passes of numa_run() that found nothing to mark */
		if (a->delta || b->delta || a->start != b->start || a->end != b->end)
			return false;
		break;
	default:
		return false;
	}
	if (a->id != b->id || a->fn != b->fn || a->kind != b->kind || a->err != b->err ||
	    a->list_from != b->list_from || a->list_to != b->list_to || a->pid != b->pid)
		return false;
	/* a run of faults is one of consecutive pages */
	return a->id != TP_FAULT || b->addr == a->addr + PAGE;
}

static bool push(struct explain_steps *st, const struct explain_step *s)
{
	struct explain_step *n = vm_grow(st->s, &st->cap, st->n + 1, sizeof(*n));
	if (!n)
		return false;
	st->s = n;
	st->s[st->n++] = *s;
	return true;
}

/* a page taken off one list and put on another is one move; a cull or
 * rescue right after it says the same thing: the events of l as items */
static struct tp_event *pair_moves(const struct tp_log *l, size_t *np)
{
	struct tp_event *it = vm_malloc((l->n ? l->n : 1) * sizeof(*it));
	if (!it)
		return NULL;
	size_t n = 0;
	for (size_t i = 0; i < l->n;) {
		struct tp_event e = l->ev[i++];
		/* put on a list, then told why: the why is the step */
		if (e.id == TP_LRU_ADD && i < l->n && l->ev[i].id == TP_PAGE && l->ev[i].pfn == e.pfn &&
		    (l->ev[i].kind == TPP_CULL || l->ev[i].kind == TPP_RESCUE)) {
			it[n++] = l->ev[i++];
			continue;
		}
		if (e.id == TP_LRU_DEL && i < l->n && l->ev[i].id == TP_LRU_ADD && l->ev[i].pfn == e.pfn) {
			const struct tp_event *add = &l->ev[i++];
			if (i < l->n && l->ev[i].id == TP_PAGE && l->ev[i].pfn == e.pfn &&
			    (l->ev[i].kind == TPP_CULL || l->ev[i].kind == TPP_RESCUE)) {
				e = l->ev[i++];
			} else {
				uint8_t from = e.list_from;
				e = *add;
				e.list_from = from;
			}
		}
		it[n++] = e;
	}
	*np = n;
	return it;
}

/* how many times the p items at i repeat, each on the next pages */
static size_t repeats(const struct tp_event *it, size_t n, size_t i, size_t p)
{
	size_t k = 1;
	while (i + (k + 1) * p <= n) {
		for (size_t j = 0; j < p; j++)
			if (!foldable(&it[i + (k - 1) * p + j], &it[i + k * p + j]))
				return k;
		k++;
	}
	return k;
}

bool explain_build(const struct tp_log *l, const struct vmsys *sys, struct explain_steps *out)
{
	const struct semantics *sem = vmsys_semantics(sys);
	out->n = 0;
	size_t n;
	struct tp_event *it = pair_moves(l, &n);
	if (!it)
		return false;
	bool ok = true;
	for (size_t i = 0; i < n && ok;) {
		/* the shortest pattern of 1 to 6 steps that repeats; a fault
		 * and its batch add, page after page, is one pattern, and so
		 * is a NUMA migration (the hinting fault, the isolation, the
		 * two batch adds, the decision: 5) */
		size_t p = 1, k = repeats(it, n, i, 1);
		for (size_t q = 2; q <= 6 && k == 1; q++) {
			size_t kq = i + 2 * q <= n ? repeats(it, n, i, q) : 1;
			if (kq > 1) {
				p = q;
				k = kq;
			}
		}
		for (size_t j = 0; j < p && ok; j++) {
			struct tp_event e = it[i + j];
			const struct tp_event *last = &it[i + (k - 1) * p + j];
			if (e.id == TP_BATCH_ADD)
				e.after = last->after;
			struct explain_step s = { .id = e.id, .fn = e.fn, .count = (unsigned)k };
			step_text(s.text, sizeof(s.text), &e, (unsigned)k, last->addr, sys);
			s.cite = tp_cite(sem, e.fn);
			ok = push(out, &s);
		}
		i += p * k;
	}
	free(it);
	if (ok && l->dropped) {
		struct explain_step s = { .id = TP_NR, .fn = KFN_NONE, .count = 0 };
		snprintf(s.text, sizeof(s.text), "(%zu more events not kept)", l->dropped);
		s.cite = "";
		ok = push(out, &s);
	}
	return ok;
}

void explain_print(FILE *f, const struct explain_steps *st, const struct semantics *sem,
		   const char *indent)
{
	for (size_t i = 0; i < st->n; i++) {
		const struct explain_step *s = &st->s[i];
		char fn[64];
		if (!s->cite[0]) {
			fprintf(f, "%s%s\n", indent, s->text);
			continue;
		}
		fprintf(f, "%s%s: %s  [%s @ %s]\n", indent, tp_fn_name(sem, s->fn, fn, sizeof(fn)),
			s->text, s->cite, explain_version(sem));
	}
}

void explain_json(FILE *f, const struct explain_steps *st, const struct semantics *sem)
{
	fputc('[', f);
	for (size_t i = 0; i < st->n; i++) {
		const struct explain_step *s = &st->s[i];
		char fn[64];
		fputs(i ? ", {" : "{", f);
		fputs("\"event\": ", f);
		json_str(f, s->id < TP_NR ? tp_id_name(s->id) : "dropped");
		json_kv_str(f, "fn", s->cite[0] ? tp_fn_name(sem, s->fn, fn, sizeof(fn)) : "");
		json_kv_str(f, "text", s->text);
		json_kv_str(f, "cite", s->cite);
		json_kv_u64(f, "count", s->count);
		fputc('}', f);
	}
	fputc(']', f);
}

bool explain_same(const struct explain_steps *a, const struct explain_steps *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->s[i].id != b->s[i].id || a->s[i].fn != b->s[i].fn ||
		    strcmp(a->s[i].text, b->s[i].text))
			return false;
	return true;
}
