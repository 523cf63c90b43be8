/*
 * numa.c - automatic NUMA balancing: the PTE scan, the hinting fault and
 * the migration of a misplaced page (seed 003).
 *
 *   numa_run(MS)  the task runs MS ms on its CPU: each scheduler tick
 *                 (HZ 250) runs task_tick_numa(), which queues
 *                 task_numa_work() once a scan period of CPU time has
 *                 passed and the mm's next scan is due; a pass makes up
 *                 to 256 MB of present PTEs PROT_NONE from where the last
 *                 one stopped (change_prot_numa())
 *   numa_scan()   the task runs until its next pass, and that pass
 *   an access     to such a PTE is a hinting fault (do_numa_page()): the
 *                 PTE is made present again, numa_hint_faults counts, and
 *                 the page moves to the faulting task's node when
 *                 mpol_misplaced() wants it there and
 *                 migrate_misplaced_page() can
 *   numa_node(N)  the scheduler runs the task on node N from now on
 *
 * The scan period adapts at each placement (update_task_scan_period()):
 * it doubles after a failed migration, and otherwise follows the share of
 * local and private hinting faults.
 *
 * The differences between kernels are struct numa_rules (semantics.h).
 * Not modelled: numa groups (tasks that share pages are never grouped, so
 * a shared fault is judged as a private one of a task without a group),
 * the scheduler's own task moves towards the preferred node
 * (numa_migrate_preferred(): the trace says where a task runs, so the
 * scan period is never reset for such a move), per-node LRU lists and
 * reclaim (one machine-wide lruvec), and migration of swap-cache pages
 * (they stay where they are).  Exec: numa_task_exec().  Time passes only in numa_run() and
 * numa_scan(); every other event takes none.
 */
#include "alloc.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define NUMA_SCAN_MB 256 /* sysctl_numa_balancing_scan_size */
#define NUMA_SCAN_PAGES ((uint64_t)NUMA_SCAN_MB << (20 - PAGE_SHIFT))

/* kernel/sched/fair.c @ v4.0 .. v6.1: the scan's sysctls and constants */
#define SCAN_DELAY_MS 1000      /* sysctl_numa_balancing_scan_delay */
#define SCAN_PERIOD_MIN_MS 1000 /* sysctl_numa_balancing_scan_period_min */
#define SCAN_PERIOD_MAX_MS 60000
#define MAX_SCAN_WINDOW_MB 2560
#define PERIOD_SLOTS 10         /* NUMA_PERIOD_SLOTS */
#define PERIOD_THRESHOLD 7      /* NUMA_PERIOD_THRESHOLD */
/* the scheduler tick: CONFIG_HZ=250, as on the recording machine and in
 * the distributions' x86_64 kernels */
#define NUMA_HZ 250
#define TICK_NS (1000000000ULL / NUMA_HZ)
#define MS_PER_TICK (1000 / NUMA_HZ)
/* numa_run() runs at most an hour at a time (longer is EINVAL) */
#define NUMA_RUN_MAX_MS 3600000u

/* per task: task_struct's numa_faults[] (memory faults per node, private
 * and shared, decayed at each placement) and what placement decided */
struct task_numa {
	uint64_t mem[MAX_NUMA_NODES][2];
	uint64_t membuf[MAX_NUMA_NODES][2];
	/* numa_faults_locality[]: remote, local and failed-migration faults
	 * since the scan period last adapted */
	uint64_t locality[3];
	uint64_t scan_seq;         /* p->numa_scan_seq */
	int preferred_nid;         /* p->numa_preferred_nid, -1 = none */
	uint64_t pages_migrated;   /* p->numa_pages_migrated */
};

/* ----------------------------------------------------------- last cpupid */

static unsigned cpupid_make(const struct task *t)
{
	return ((unsigned)t->pid & 0xffu) << 8 | (t->numa_node + 1);
}

static unsigned cpupid_get(struct vmsys *s, pfn_t pfn)
{
	return (unsigned)radix_get(&s->numa_cpupid, pfn);
}

static void cpupid_set(struct vmsys *s, pfn_t pfn, unsigned v)
{
	if (v)
		(void)radix_set(&s->numa_cpupid, pfn, v); /* a failed store leaves it unset */
	else
		radix_clear(&s->numa_cpupid, pfn);
}

/* mm/page_alloc.c:free_pages_prepare() resets the last cpupid */
void numa_page_freed(struct vmsys *s, pfn_t pfn)
{
	radix_clear(&s->numa_cpupid, pfn);
}

void numa_task_free(struct task *t)
{
	free(t->numa);
	t->numa = NULL;
}

/* ----------------------------------------------------------- the clock */

/* msecs_to_jiffies() at HZ 250: rounded up */
static uint64_t ms_to_jiffies(uint64_t ms)
{
	return (ms + MS_PER_TICK - 1) / MS_PER_TICK;
}

static bool time_before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

/* task_nr_scan_windows(): the 256 MB windows the resident set fills */
static uint64_t nr_scan_windows(const struct mm *mm)
{
	uint64_t rss = mm->rss_anon + mm->rss_file + mm->rss_shmem;
	if (!rss)
		rss = NUMA_SCAN_PAGES;
	return (rss + NUMA_SCAN_PAGES - 1) / NUMA_SCAN_PAGES;
}

/* task_scan_min(), task_scan_max() (task_scan_start() is task_scan_min()
 * for a task without a numa group) */
static uint32_t task_scan_min(const struct task *t)
{
	uint32_t floor = 1000 / (MAX_SCAN_WINDOW_MB / NUMA_SCAN_MB);
	uint32_t scan = (uint32_t)(SCAN_PERIOD_MIN_MS / nr_scan_windows(t->mm));
	return scan > floor ? scan : floor;
}

static uint32_t task_scan_max(const struct task *t)
{
	uint32_t smin = task_scan_min(t), smax = (uint32_t)(SCAN_PERIOD_MAX_MS / nr_scan_windows(t->mm));
	return smax > smin ? smax : smin;
}

/* __sched_fork() @ v4.0/v4.4, init_numa_balancing() @ v6.1, at fork
 * before copy_mm(): c->mm is still the parent's mm, and users its count
 * then.  A single-threaded parent's scan restarts (next scan a delay
 * away, scan sequence 0), and a new mm is a copy of it. */
void numa_task_fork(struct vmsys *s, struct task *c, const struct task *parent, unsigned users,
		    bool clone_vm)
{
	c->numa_scan_period = SCAN_DELAY_MS;
	c->numa_node_stamp_ns = c->numa_runtime_ns = c->numa_migrate_retry = 0;
	struct mm *mm = parent->mm;
	if (!mm)
		return;
	if (users == 1) {
		mm->numa_next_scan = s->jiffies + ms_to_jiffies(SCAN_DELAY_MS);
		mm->numa_scan_seq = 0;
	}
	if (clone_vm && s->sem->numa.stagger_clone_vm) {
		/* min_t(unsigned int, ...): the product is cut to 32 bits */
		uint32_t delay = (uint32_t)((uint64_t)parent->numa_scan_period * users * 1000000u);
		uint32_t smax = task_scan_max(parent);
		c->numa_node_stamp_ns = (uint64_t)(delay < smax ? delay : smax) + 2 * TICK_NS;
	}
}

/* kernel/fork.c:dup_mm() copies the whole mm_struct and mm_init() resets
 * none of the scan's fields: the child's scan goes on where the parent's is */
void numa_mm_dup(struct mm *child, const struct mm *parent)
{
	child->numa_next_scan = parent->numa_next_scan;
	child->numa_scan_seq = parent->numa_scan_seq;
	child->numa_scan_offset = parent->numa_scan_offset;
}

/* fs/exec.c -> task_numa_free(): the fault statistics go (4.x) or are
 * zeroed (6.1); the preferred node, the migrated count and the task's
 * scan sequence are task_struct fields and stay */
void numa_task_exec(struct vmsys *s, struct task *t)
{
	struct task_numa *tn = t->numa;
	if (!tn)
		return;
	memset(tn->mem, 0, sizeof(tn->mem));
	memset(tn->membuf, 0, sizeof(tn->membuf));
	if (!s->sem->numa.exec_keeps_locality)
		memset(tn->locality, 0, sizeof(tn->locality));
}

void numa_task_first(struct task *t)
{
	t->numa_scan_period = SCAN_DELAY_MS; /* a process of the trace: as after fork and exec */
}

/* ------------------------------------------------------------------ scan */

/* vm_normal_page() and the skips of change_pte_range() for prot_numa */
static bool numa_skip_page(struct vmsys *s, struct vma *v, pfn_t pfn, int target_node)
{
	const struct numa_rules *r = &s->sem->numa;
	if (pfn == PFN_ZERO)
		return true;
	struct page *p = spage(s, pfn);
	if ((v->flags & (VM_SHARED | VM_MAYWRITE)) == VM_MAYWRITE &&
	    ((r->cow_skip == NUMA_COW_SKIP_REFCOUNT && p->refcount != 1) ||
	     (r->cow_skip == NUMA_COW_SKIP_MAPPED_SHARED && p->mapcount > 1)))
		return true; /* is_cow_mapping() and shared */
	if (r->skip_dirty_file && page_is_file_lru(p) && (p->flags & PG_DIRTY))
		return true;
	if (target_node >= 0 && pfn_to_nid(&s->pm, pfn) == (unsigned)target_node)
		return true;
	return false;
}

/* mm/mempolicy.c:change_prot_numa() over [start, end) of v: the PTEs made
 * PROT_NONE, counted in numa_pte_updates */
static uint64_t change_prot_numa(struct vmsys *s, struct task *t, struct vma *v, uint64_t start,
				 uint64_t end)
{
	const struct numa_rules *r = &s->sem->numa;
	struct mm *mm = v->mm;
	int target_node = r->skip_on_task_node && !vma_is_shared(v) && mm->users == 1
				  ? (int)t->numa_node : -1;
	uint64_t vpn = start >> PAGE_SHIFT, last = (end >> PAGE_SHIFT) - 1, n = 0;
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t *ptep = radix_peek(&mm->pt, vpn);
		uint64_t pte = *ptep;
		vpn++;
		if (!(pte & PTE_PRESENT) || (pte & PTE_NUMA))
			continue; /* "avoid TLB flush if possible" */
		if (numa_skip_page(s, v, pte_pfn(pte), target_node))
			continue;
		pte |= PTE_NUMA;
		if (!r->preserve_write)
			pte &= ~(uint64_t)PTE_WRITE;
		pte_changed(s);
		*ptep = pte;
		n++;
	}
	count_vm(s, NUMA_PTE_UPDATES, (int64_t)n);
	return n;
}

/* the VMAs task_numa_work() passes over */
static bool numa_scan_skips_vma(const struct vma *v)
{
	if (v->flags & (VM_IO | VM_PFNMAP | VM_HUGETLB | VM_MIXEDMAP))
		return true; /* !vma_migratable(), hugetlb, mixed maps */
	if (v->file && (v->file->special || (v->flags & (VM_READ | VM_WRITE)) == VM_READ))
		return true; /* shared library text, the vdso */
	return !(v->flags & (VM_READ | VM_EXEC | VM_WRITE)); /* inaccessible */
}

static void reset_ptenuma_scan(struct mm *mm)
{
	mm->numa_scan_seq++;
	mm->numa_scan_offset = 0;
}

/* the pass of task_numa_work(), past its gates: the PTEs it changed */
static uint64_t numa_pass(struct vmsys *s, struct task *t)
{
	const struct numa_rules *r = &s->sem->numa;
	struct mm *mm = t->mm;
	uint64_t start = mm->numa_scan_offset, total = 0, nr_updates = 0, first = UINT64_MAX;
	uint64_t seq = mm->numa_scan_seq;
	int64_t pages = (int64_t)NUMA_SCAN_PAGES, virtpages = pages * 8;
	struct vma *v = vma_find(&mm->vmas, start);
	if (!v) {
		reset_ptenuma_scan(mm);
		start = 0;
		v = mm->vmas.first;
	}
	for (; v; v = v->next) {
		if (numa_scan_skips_vma(v))
			continue;
		uint64_t end;
		do {
			if (start < v->start)
				start = v->start;
			if (first == UINT64_MAX)
				first = start;
			end = HPAGE_ALIGN(start + ((uint64_t)pages << PAGE_SHIFT));
			if (end > v->end)
				end = v->end;
			uint64_t n = change_prot_numa(s, t, v, start, end);
			total += n;
			nr_updates = r->scan_budget_after_first_update ? nr_updates + n : n;
			int64_t len = (int64_t)((end - start) >> PAGE_SHIFT);
			if (nr_updates)
				pages -= len;
			virtpages -= len;
			start = end;
			if (pages <= 0 || (r->scan_virt_limit && virtpages <= 0))
				goto out;
		} while (end != v->end);
	}
out:
	if (v)
		mm->numa_scan_offset = start;
	else
		reset_ptenuma_scan(mm);
	TP(s, TP_NUMA_SCAN, KFN_TASK_NUMA_WORK, .start = first == UINT64_MAX ? 0 : first,
	   .end = first == UINT64_MAX ? 0 : start, .delta = (int64_t)total, .before = seq,
	   .after = mm->numa_scan_offset, .limit = mm->numa_scan_seq);
	/* the rate limit's 100 ms windows: passes are at least
	 * scan_period_min (1,000 ms) apart, so each starts a new one */
	for (unsigned n = 0; n < MAX_NUMA_NODES; n++)
		s->numa_migrate_nr[n] = 0;
	return total;
}

/* task_numa_work(): its time gates, then the pass; false if a gate held */
static bool task_numa_work(struct vmsys *s, struct task *t, uint64_t *ptes)
{
	struct mm *mm = t->mm;
	uint64_t now = s->jiffies;
	if (!mm->numa_next_scan)
		mm->numa_next_scan = now + ms_to_jiffies(SCAN_DELAY_MS);
	if (time_before(now, mm->numa_next_scan))
		return false;
	if (!t->numa_scan_period) {
		t->numa_scan_period_max = task_scan_max(t);
		t->numa_scan_period = task_scan_min(t);
	}
	mm->numa_next_scan = now + ms_to_jiffies(t->numa_scan_period);
	t->numa_node_stamp_ns += 2 * TICK_NS; /* let another task of the mm win next time */
	*ptes += numa_pass(s, t);
	return true;
}

/* One scheduler tick of t: its CPU time and the machine's clock move on,
 * and task_tick_numa() queues task_numa_work() (run on the way back to
 * user space, so at once) when a scan period of CPU time has passed since
 * node_stamp and the mm's next scan is due.  True if a pass ran. */
static bool numa_tick(struct vmsys *s, struct task *t, uint64_t *ptes)
{
	s->jiffies++;
	t->numa_runtime_ns += TICK_NS;
	uint64_t period = (uint64_t)t->numa_scan_period * 1000000u;
	if (t->numa_runtime_ns <= t->numa_node_stamp_ns + period)
		return false;
	if (!t->numa_node_stamp_ns)
		t->numa_scan_period = task_scan_min(t);
	t->numa_node_stamp_ns += period;
	if (time_before(s->jiffies, t->mm->numa_next_scan))
		return false;
	return task_numa_work(s, t, ptes);
}

/* The ticks from now, at most max, that end at numa_tick()'s first test
 * (the runtime not past the node stamp's period): in them only the clock
 * and the task's runtime move, so they are taken at once. */
static uint64_t numa_quiet_ticks(struct vmsys *s, struct task *t, uint64_t max)
{
	uint64_t due = t->numa_node_stamp_ns + (uint64_t)t->numa_scan_period * 1000000u;
	uint64_t n = t->numa_runtime_ns < due ? (due - t->numa_runtime_ns) / TICK_NS : 0;
	if (n > max)
		n = max;
	s->jiffies += n;
	t->numa_runtime_ns += n * TICK_NS;
	return n;
}

/* The longest a pass can be away: a node_stamp period and a next-scan
 * period, each at most scan_period_max (60 s), and the scan delay. */
#define NUMA_SCAN_MAX_TICKS (3 * SCAN_PERIOD_MAX_MS / MS_PER_TICK)

int64_t vm_numa_scan(struct vmsys *s, struct task *t)
{
	s->nevents = 0;
	uint64_t ptes = 0;
	for (uint64_t i = 0; i < NUMA_SCAN_MAX_TICKS; i++) {
		i += numa_quiet_ticks(s, t, NUMA_SCAN_MAX_TICKS - i);
		if (i == NUMA_SCAN_MAX_TICKS)
			break;
		if (numa_tick(s, t, &ptes))
			return (int64_t)ptes;
	}
	/* unreachable by the bound above; the pass still runs, as the
	 * trace says it did */
	return (int64_t)numa_pass(s, t);
}

int64_t vm_numa_run(struct vmsys *s, struct task *t, uint64_t ms)
{
	s->nevents = 0;
	if (ms > NUMA_RUN_MAX_MS)
		return -KERR_EINVAL;
	uint64_t ptes = 0, passes = 0;
	for (uint64_t i = ms_to_jiffies(ms); i; i--) {
		i -= numa_quiet_ticks(s, t, i);
		if (!i)
			break;
		passes += numa_tick(s, t, &ptes);
	}
	return (int64_t)passes;
}

int64_t vm_numa_node(struct vmsys *s, struct task *t, uint64_t node)
{
	s->nevents = 0;
	if (node >= s->pm.nr_nodes)
		return -KERR_EINVAL;
	t->numa_node = (unsigned)node;
	return 0;
}

/* ------------------------------------------------------- the placement */

/* update_task_scan_period()'s slower step for a ratio (in tenths) at or
 * above the threshold: a slot of the period per tenth above it, at least one */
static int64_t slower(int64_t ratio, int64_t slot_ms)
{
	return (ratio > PERIOD_THRESHOLD ? ratio - PERIOD_THRESHOLD : 1) * slot_ms;
}

/* kernel/sched/fair.c:update_task_scan_period(): shared and private are
 * the hinting faults since the last placement */
static void update_task_scan_period(struct vmsys *s, struct task *t, uint64_t shared, uint64_t private)
{
	struct task_numa *tn = t->numa;
	uint64_t remote = tn->locality[0], local = tn->locality[1];
	uint32_t old = t->numa_scan_period;
	int64_t diff = 0;
	uint8_t kind;
	if (local + shared == 0 || tn->locality[2]) {
		/* idle, or migrating too fast: slower; the counts stay */
		kind = tn->locality[2] ? TPS_FAILED : TPS_IDLE;
		uint32_t twice = old << 1;
		t->numa_scan_period = twice < t->numa_scan_period_max ? twice : t->numa_scan_period_max;
		t->mm->numa_next_scan = s->jiffies + ms_to_jiffies(t->numa_scan_period);
	} else {
		int64_t slot_ms = (old + PERIOD_SLOTS - 1) / PERIOD_SLOTS;
		/* local + remote >= private + shared > 0: every fault counts in both */
		int64_t lr = (int64_t)(local * PERIOD_SLOTS / (local + remote));
		if (s->sem->numa.scan_period_rule == NUMA_PERIOD_BY_LOCALITY) {
			if (lr >= PERIOD_THRESHOLD) {
				diff = slower(lr, slot_ms);
				kind = TPS_LOCAL;
			} else {
				int64_t pr = (int64_t)((private * PERIOD_SLOTS + private + shared) /
						       (private + shared + 1));
				/* C division: towards zero */
				diff = -(PERIOD_THRESHOLD - lr) * slot_ms * pr / PERIOD_SLOTS;
				kind = TPS_FASTER;
			}
		} else {
			int64_t ps = private + shared ? (int64_t)(private * PERIOD_SLOTS / (private + shared)) : 0;
			if (ps >= PERIOD_THRESHOLD) {
				diff = slower(ps, slot_ms);
				kind = TPS_PRIVATE;
			} else if (lr >= PERIOD_THRESHOLD) {
				diff = slower(lr, slot_ms);
				kind = TPS_LOCAL;
			} else {
				diff = -(PERIOD_THRESHOLD - (lr > ps ? lr : ps)) * slot_ms;
				kind = TPS_FASTER;
			}
		}
		/* clamp() of the unsigned period + diff */
		uint32_t v = old + (uint32_t)diff, lo = task_scan_min(t), hi = task_scan_max(t);
		t->numa_scan_period = v < lo ? lo : v > hi ? hi : v;
		tn->locality[0] = tn->locality[1] = tn->locality[2] = 0;
	}
	TP(s, TP_NUMA_PERIOD, KFN_UPDATE_SCAN_PERIOD, .kind = kind, .before = old,
	   .after = t->numa_scan_period, .delta = diff, .limit = t->mm->numa_next_scan, .start = local,
	   .end = remote, .old_start = private, .old_end = shared);
}

/* kernel/sched/fair.c:task_numa_placement(), the memory side: on the first
 * hinting fault of a new scan sequence the buffered faults are folded
 * into the decayed ones and the node with most becomes preferred */
static void task_numa_placement(struct vmsys *s, struct task *t)
{
	struct task_numa *tn = t->numa;
	if (tn->scan_seq == t->mm->numa_scan_seq)
		return;
	tn->scan_seq = t->mm->numa_scan_seq;
	t->numa_scan_period_max = task_scan_max(t);
	uint64_t max_faults = 0, fault_types[2] = { 0, 0 };
	int max_nid = -1;
	for (unsigned nid = 0; nid < s->pm.nr_nodes; nid++) {
		uint64_t faults = 0;
		for (int priv = 0; priv < 2; priv++) {
			fault_types[priv] += tn->membuf[nid][priv];
			tn->mem[nid][priv] = tn->mem[nid][priv] - tn->mem[nid][priv] / 2 +
					     tn->membuf[nid][priv];
			tn->membuf[nid][priv] = 0;
			faults += tn->mem[nid][priv];
		}
		if (faults > max_faults) {
			max_faults = faults;
			max_nid = (int)nid;
		}
	}
	if (max_faults)
		tn->preferred_nid = max_nid;
	update_task_scan_period(s, t, fault_types[0], fault_types[1]);
}

/* numa_migrate_preferred() @ v6.1, the part the model keeps: the next
 * placement waits a sixteenth of the scan period (at most a second).  The
 * task's move to its preferred node is the trace's (numa_node()). */
static void numa_migrate_retry(struct vmsys *s, struct task *t)
{
	if (t->numa->preferred_nid < 0)
		return;
	uint64_t interval = ms_to_jiffies(t->numa_scan_period) / 16;
	t->numa_migrate_retry = s->jiffies + (interval < NUMA_HZ ? interval : NUMA_HZ);
}

/* kernel/sched/fair.c:task_numa_fault(): first accesses are private,
 * then private while the same pid faults; local: the page was on the
 * task's node at the fault; failed: it should have moved and did not */
static void task_numa_fault(struct vmsys *s, struct task *t, unsigned last_cpupid, unsigned mem_node,
			    bool migrated, bool local, bool failed)
{
	struct task_numa *tn = t->numa;
	int priv = !last_cpupid || (last_cpupid >> 8) == ((unsigned)t->pid & 0xffu);
	bool gated = s->sem->numa.placement_after_retry;
	if (!gated || time_before(t->numa_migrate_retry, s->jiffies)) { /* time_after(jiffies, retry) */
		task_numa_placement(s, t);
		if (gated)
			numa_migrate_retry(s, t);
	}
	if (migrated)
		tn->pages_migrated++;
	if (failed)
		tn->locality[2]++;
	tn->membuf[mem_node][priv]++;
	tn->locality[local]++;
}

/* should_numa_migrate_memory(): the two-stage filter - a page moves to
 * this node when the previous hinting fault on it came from here too
 * (or from this task, early in its life on 6.x) */
static bool should_numa_migrate_memory(struct vmsys *s, struct task *t, pfn_t pfn)
{
	unsigned this_cpupid = cpupid_make(t), last = cpupid_get(s, pfn);
	cpupid_set(s, pfn, this_cpupid);
	bool pid_match = last && (last >> 8) == (this_cpupid >> 8);
	if (s->sem->numa.early_migrate && (t->numa->preferred_nid < 0 || t->numa->scan_seq <= 4) &&
	    (!last || pid_match))
		return true;
	if (last && (last & 0xffu) != (this_cpupid & 0xffu))
		return false;
	return true; /* this pid, or no numa group to ask */
}

/* ------------------------------------------------------------ migration */

struct mapping {
	struct vma *v;
	uint64_t addr;
	uint64_t pte;
};

struct mappings {
	struct mapping *m;
	size_t n, cap;
	bool oom;
};

static bool collect_mapping(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *pte, void *ctx)
{
	(void)s;
	struct mappings *ms = ctx;
	struct mapping *m = vm_grow(ms->m, &ms->cap, ms->n + 1, sizeof(*m));
	if (!m) {
		ms->oom = true;
		return false;
	}
	ms->m = m;
	ms->m[ms->n++] = (struct mapping){ v, addr, *pte };
	return true;
}

/* a page taken from the target node only (alloc_misplaced_dst_page():
 * __GFP_THISNODE, no reclaim) */
static pfn_t alloc_page_on_node(struct vmsys *s, unsigned nid)
{
	pfn_t pfn = physmem_alloc_node(&s->pm, nid, true);
	if (pfn) {
		count_vm(s, PGALLOC, 1);
		count_vm(s, NR_FREE_PAGES, -1);
	}
	return pfn;
}

/* mm/vmscan.c:putback_lru_page() @ v4.4 */
static void putback_lru_page_4x(struct vmsys *s, pfn_t pfn)
{
	struct page *p = spage(s, pfn);
	bool was_unevictable = (p->flags & PG_UNEVICTABLE) != 0;
	p->flags &= ~PG_UNEVICTABLE;
	if (folio_evictable(s, p)) {
		folio_add_lru(s, pfn);
		if (was_unevictable)
			count_vm(s, UNEVICTABLE_PGS_RESCUED, 1);
	} else {
		p->flags &= ~PG_ACTIVE;
		p->flags |= PG_UNEVICTABLE;
		lru_add_page(s, pfn, LRU_UNEVICTABLE);
		if (!was_unevictable)
			count_vm(s, UNEVICTABLE_PGS_CULLED, 1);
	}
}

/* Move the isolated page old to new: every PTE, the page-cache slot and
 * the page state (migrate_pages() -> unmap, move_to_new_folio(),
 * remove_migration_ptes(), the LRU putback of each version). */
static void move_page(struct vmsys *s, pfn_t old, pfn_t new, const struct mappings *ms)
{
	const struct semantics *sem = s->sem;
	bool v6 = sem->page_model == PLM_MLOCK_COUNT;
	struct page *op = spage(s, old), *np = spage(s, new);
	/* try_to_migrate_one(): each PTE becomes a migration entry; a dirty
	 * PTE dirties the page; 6.x drains the munlock after each */
	for (size_t i = 0; i < ms->n; i++) {
		const struct mapping *m = &ms->m[i];
		if ((m->pte & PTE_DIRTY) && !(op->flags & PG_DIRTY)) {
			op->flags |= PG_DIRTY;
			if (page_dirty_accounted(s, op))
				count_vm(s, NR_DIRTY, 1);
		}
		get_page(s, old); /* the migration entry keeps the page */
		rmap_remove(s, m->v, old);
		if (v6 && (m->v->flags & VM_LOCKED))
			mlock_drain_local(s);
	}
	/* folio_migrate_mapping() + folio_migrate_flags() */
	np->flags |= op->flags & (PG_ANON | PG_SWAPBACKED | PG_DIRTY | PG_UPTODATE | PG_REFERENCED |
				  PG_WORKINGSET);
	if (op->flags & PG_ACTIVE)
		np->flags |= PG_ACTIVE;
	else if (op->flags & PG_UNEVICTABLE)
		np->flags |= PG_UNEVICTABLE;
	op->flags &= ~(PG_ACTIVE | PG_UNEVICTABLE | PG_DIRTY);
	if (!v6 && (op->flags & PG_MLOCKED)) {
		/* mlock_migrate_page() @ v4.x: only if still set */
		op->flags &= ~PG_MLOCKED;
		np->flags |= PG_MLOCKED;
	}
	np->owner = op->owner;
	page_set_index(np, page_index(op));
	page_charge_moved(s, op, np);
	cpupid_set(s, new, cpupid_get(s, old));
	if (!(op->flags & PG_ANON)) {
		struct file *f = file_of_page(s, op);
		if (f && !radix_set(&f->cache, page_index(op), new)) {
			get_page(s, new);
			put_page(s, old);
		}
	}
	if (v6) {
		/* migrate_folio_move() @ v6.1: onto the LRU now, so that the
		 * remapping builds the mlock_count */
		folio_add_lru(s, new);
		lru_add_drain(s);
	}
	for (size_t i = 0; i < ms->n; i++) {
		const struct mapping *m = &ms->m[i];
		uint64_t *ptep = radix_peek(&m->v->mm->pt, m->addr >> PAGE_SHIFT);
		unsigned fl = PTE_PRESENT | (unsigned)(m->pte & (PTE_WRITE | PTE_EXCL));
		/* remove_migration_pte() builds the PTE from vm_page_prot: a
		 * PROT_NONE VMA that maps the page too gets PAGE_NONE */
		if (!(m->v->flags & VM_ACCESS_FLAGS))
			fl |= PTE_NOACCESS;
		if (sem->numa.migrate_keeps_pte_ad)
			fl |= (unsigned)(m->pte & (PTE_YOUNG | PTE_DIRTY));
		pte_changed(s);
		if (ptep)
			*ptep = mk_pte(new, fl);
		rmap_add(s, m->v, new, false);
		if (v6 && (m->v->flags & VM_LOCKED))
			mlock_drain_local(s);
		else if (!v6 && sem->numa.migrate_relocks_4x &&
			 (m->v->flags & (VM_LOCKED | VM_SPECIAL)) == VM_LOCKED)
			mlock_folio_4x(s, new);
		put_page(s, old); /* the migration entry is gone */
	}
	if (!v6) {
		/* unmap_and_move() @ v4.4 puts the old page back first: it is
		 * evictable now and takes its last trip through the lru_add
		 * pagevec, which frees it when drained */
		folio_add_lru(s, old);
		putback_lru_page_4x(s, new);
	}
	count_vm(s, PGMIGRATE_SUCCESS, 1);
	count_vm(s, NUMA_PAGES_MIGRATED, 1);
}

/* mm/migrate.c:migrate_misplaced_page(): TPN_MIGRATED when pfn moved to
 * node, else why not */
static enum tp_numa migrate_misplaced_page(struct vmsys *s, struct vma *v, pfn_t pfn, unsigned node)
{
	const struct numa_rules *r = &s->sem->numa;
	struct page *p = spage(s, pfn);
	if (p->mapcount != 1 && page_is_file_lru(p) && (v->flags & VM_EXEC))
		return TPN_SHARED_EXEC;
	if (r->no_migrate_dirty_file && page_is_file_lru(p) && (p->flags & PG_DIRTY))
		return TPN_DIRTY_FILE;
	if (r->migrate_ratelimit_pages) {
		if (s->numa_migrate_nr[node] > r->migrate_ratelimit_pages)
			return TPN_RATELIMIT;
		s->numa_migrate_nr[node]++;
	}
	/* numamigrate_isolate_page(): migrate_balanced_pgdat() wants the
	 * target above its high watermark by the page, isolate_lru_page()
	 * a page on a list (not in a per-CPU batch) */
	const struct numa_node_mem *nm = &s->pm.node[node];
	if (nm->nr_free <= nm->wmark_high + 1)
		return TPN_FULL;
	if (!(p->flags & PG_LRU))
		return TPN_OFF_LRU;
	if (p->flags & PG_SWAPCACHE)
		return TPN_SWAPCACHE; /* not modelled (see above) */
	if ((p->flags & PG_WRITEBACK) || page_batch_refs(s, pfn)) {
		/* -EBUSY under writeback; a batch's reference makes the
		 * reference count wrong (-EAGAIN until the retries run out) */
		if ((p->flags & PG_WRITEBACK) || r->migrate_fail_counts_busy)
			count_vm(s, PGMIGRATE_FAIL, 1);
		return TPN_BUSY;
	}
	pfn_t new = alloc_page_on_node(s, node);
	if (!new)
		return TPN_FULL;
	struct mappings ms = { 0 };
	rmap_walk(s, pfn, collect_mapping, &ms);
	if (ms.oom) {
		free(ms.m);
		put_page(s, new);
		return TPN_FULL;
	}
	get_page(s, new); /* the allocation's reference, dropped when done */
	get_page(s, pfn); /* the isolation */
	lru_del_page(s, pfn);
	move_page(s, pfn, new, &ms);
	put_page(s, pfn);
	put_page(s, new);
	free(ms.m);
	return TPN_MIGRATED;
}

/* ---------------------------------------------------------- the fault */

/* vma->vm_page_prot allows writing: a shared writable mapping without
 * write-notify (mm/mmap.c:vma_wants_writenotify() is false for shmem and
 * shared anonymous memory, which have no page_mkwrite), as
 * vma_set_page_prot() builds it */
static bool vm_page_prot_writable(const struct vma *v)
{
	return (v->flags & (VM_SHARED | VM_WRITE)) == (VM_SHARED | VM_WRITE) && v->file &&
	       v->file->shmem;
}

enum vm_fault_kind do_numa_page(struct vmsys *s, struct task *t, struct vma *v, uint64_t addr,
				uint64_t *ptep)
{
	const struct numa_rules *r = &s->sem->numa;
	pfn_t pfn = pte_pfn(*ptep);
	bool was_writable = (*ptep & PTE_WRITE) != 0;
	/* make it present again: vm_page_prot, young, the preserved write */
	uint64_t pte = (*ptep & ~(uint64_t)(PTE_NUMA | PTE_WRITE)) | PTE_YOUNG;
	if (was_writable || vm_page_prot_writable(v))
		pte |= PTE_WRITE;
	pte_changed(s);
	*ptep = pte;
	struct page *p = spage(s, pfn);
	if (pfn == PFN_ZERO || (r->large_folio_no_hint && p->folio_order)) {
		TP(s, TP_NUMA_HINT, KFN_DO_NUMA_PAGE, .addr = addr, .pfn = pfn, .kind = TPN_NOT_COUNTED,
		   .before = pfn_to_nid(&s->pm, pfn), .after = t->numa_node);
		return VMF_MINOR;
	}
	if (!t->numa) {
		t->numa = vm_calloc(1, sizeof(*t->numa));
		if (!t->numa)
			return VMF_MINOR; /* the kernel, too, skips the statistics then */
		t->numa->preferred_nid = -1;
	}
	unsigned last_cpupid = cpupid_get(s, pfn), page_nid = pfn_to_nid(&s->pm, pfn);
	/* numa_migrate_prep() */
	count_vm(s, NUMA_HINT_FAULTS, 1);
	if (page_nid == t->numa_node)
		count_vm(s, NUMA_HINT_FAULTS_LOCAL, 1);
	/* mpol_misplaced() with the default policy (MPOL_F_MOF | MPOL_F_MORON):
	 * towards the node of the faulting CPU */
	unsigned from = page_nid;
	enum tp_numa what = TPN_LOCAL;
	if (!should_numa_migrate_memory(s, t, pfn))
		what = page_nid == t->numa_node ? TPN_LOCAL : TPN_FILTERED;
	else if (page_nid != t->numa_node)
		what = migrate_misplaced_page(s, v, pfn, t->numa_node);
	if (what == TPN_MIGRATED)
		page_nid = t->numa_node;
	TP(s, TP_NUMA_HINT,
	   what == TPN_LOCAL ? KFN_DO_NUMA_PAGE : what == TPN_FILTERED ? KFN_SHOULD_NUMA_MIGRATE
								     : KFN_MIGRATE_MISPLACED,
	   .addr = addr, .pfn = pfn, .kind = (uint8_t)what, .before = from, .after = t->numa_node,
	   .limit = last_cpupid & 0xffu);
	task_numa_fault(s, t, last_cpupid, page_nid, what == TPN_MIGRATED, from == t->numa_node,
			what != TPN_LOCAL && what != TPN_FILTERED && what != TPN_MIGRATED);
	return VMF_MINOR;
}

bool numa_task_info(const struct task *t, int *preferred_nid, uint64_t *pages_migrated)
{
	if (!t->numa)
		return false;
	*preferred_nid = t->numa->preferred_nid;
	*pages_migrated = t->numa->pages_migrated;
	return true;
}
