/*
 * vmsys.c - the machine: configuration, processes, and the read-only
 * queries behind /proc views.
 */
#include "alloc.h"
#include "internal.h"

#include <limits.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flagtab.h"

void vmsys_config_default(struct vmsys_config *c, const struct semantics *sem)
{
	memset(c, 0, sizeof(*c));
	c->sem = sem;
	c->arch = "x86_64";
	c->page_size = 4096;
	c->ram = 24ULL << 30;
	c->swap = 0;
	c->rlimit_memlock = 8ULL << 20;
	c->cap_ipc_lock = false;
	c->cap_bounding = UINT64_MAX;
	c->cap_sys_resource = -1;
	c->uid = -1;
	c->max_map_count = 65530;
	c->zero_page = -1;
	c->read_ahead_kb = 8192;
	c->mmap_base = 0;
	c->numa_nodes = 1;
}

static uint64_t fv(const struct flag_table *t, const char *name)
{
	return t ? flagtab_value(t, name) : 0;
}

static const char *const madv_names[MADV_X_NR] = {
	"MADV_NORMAL", "MADV_RANDOM", "MADV_SEQUENTIAL", "MADV_WILLNEED",
	"MADV_DONTNEED", "MADV_FREE", "MADV_REMOVE", "MADV_DONTFORK",
	"MADV_DOFORK", "MADV_MERGEABLE", "MADV_UNMERGEABLE", "MADV_HUGEPAGE",
	"MADV_NOHUGEPAGE", "MADV_DONTDUMP", "MADV_DODUMP", "MADV_WIPEONFORK",
	"MADV_KEEPONFORK", "MADV_COLD", "MADV_PAGEOUT", "MADV_POPULATE_READ",
	"MADV_POPULATE_WRITE", "MADV_DONTNEED_LOCKED", "MADV_COLLAPSE",
	"MADV_HWPOISON", "MADV_SOFT_OFFLINE", "MADV_GUARD_INSTALL",
	"MADV_GUARD_REMOVE",
};

static int load_arch_flags(struct vmsys *s, const char *arch, char *err, size_t errlen)
{
	const char *k = s->sem->flag_kernel;
	const struct flag_table *tm = flagtab_get(arch, k, FK_MMAP);
	const struct flag_table *tp = flagtab_get(arch, k, FK_PROT);
	if (!tm || !tp) {
		snprintf(err, errlen, "no flag tables for arch '%s' with kernel '%s'", arch, k);
		return -1;
	}
	const struct flag_table *tl = flagtab_get(arch, k, FK_MLOCKALL);
	const struct flag_table *t2 = flagtab_get(arch, k, FK_MLOCK2);
	const struct flag_table *tr = flagtab_get(arch, k, FK_MREMAP);
	const struct flag_table *ts = flagtab_get(arch, k, FK_MSYNC);
	const struct flag_table *ta = flagtab_get(arch, k, FK_MADVISE);
	struct arch_flags *af = &s->af;
	memset(af, 0, sizeof(*af));
	af->map_shared = fv(tm, "MAP_SHARED");
	af->map_private = fv(tm, "MAP_PRIVATE");
	af->map_shared_validate = fv(tm, "MAP_SHARED_VALIDATE");
	af->map_droppable = fv(tm, "MAP_DROPPABLE");
	af->map_type = fv(tm, "MAP_TYPE");
	if (!af->map_type)
		af->map_type = 0xf;
	af->map_fixed = fv(tm, "MAP_FIXED");
	af->map_anonymous = fv(tm, "MAP_ANONYMOUS");
	af->map_growsdown = fv(tm, "MAP_GROWSDOWN");
	af->map_denywrite = fv(tm, "MAP_DENYWRITE");
	af->map_executable = fv(tm, "MAP_EXECUTABLE");
	af->map_locked = fv(tm, "MAP_LOCKED");
	af->map_noreserve = fv(tm, "MAP_NORESERVE");
	af->map_populate = fv(tm, "MAP_POPULATE");
	af->map_nonblock = fv(tm, "MAP_NONBLOCK");
	af->map_stack = fv(tm, "MAP_STACK");
	af->map_hugetlb = fv(tm, "MAP_HUGETLB");
	af->map_sync = fv(tm, "MAP_SYNC");
	af->map_fixed_noreplace = fv(tm, "MAP_FIXED_NOREPLACE");
	af->map_uninitialized = fv(tm, "MAP_UNINITIALIZED");
	af->map_lockonfault = fv(tm, "MAP_LOCKONFAULT");
	af->map_32bit = fv(tm, "MAP_32BIT");
	af->map_above4g = fv(tm, "MAP_ABOVE4G");
	/* include/linux/mman.h: LEGACY_MAP_MASK */
	af->legacy_map_mask = af->map_shared | af->map_private | af->map_fixed | af->map_anonymous |
			      af->map_denywrite | af->map_executable | af->map_uninitialized |
			      af->map_growsdown | af->map_locked | af->map_noreserve |
			      af->map_populate | af->map_nonblock | af->map_stack | af->map_hugetlb |
			      (0x3fULL << 26);
	af->prot_read = fv(tp, "PROT_READ");
	af->prot_write = fv(tp, "PROT_WRITE");
	af->prot_exec = fv(tp, "PROT_EXEC");
	af->prot_sem = fv(tp, "PROT_SEM");
	af->prot_growsdown = fv(tp, "PROT_GROWSDOWN");
	af->prot_growsup = fv(tp, "PROT_GROWSUP");
	af->prot_arch = fv(tp, "PROT_SAO") | fv(tp, "PROT_ADI") | fv(tp, "PROT_BTI") | fv(tp, "PROT_MTE");
	af->mcl.current = fv(tl, "MCL_CURRENT");
	af->mcl.future = fv(tl, "MCL_FUTURE");
	af->mcl.onfault = fv(tl, "MCL_ONFAULT") | fv(tl, "MCL_ON_FAULT");
	af->mlock_onfault = fv(t2, "MLOCK_ONFAULT");
	af->mremap_maymove = fv(tr, "MREMAP_MAYMOVE");
	af->mremap_fixed = fv(tr, "MREMAP_FIXED");
	af->mremap_dontunmap = fv(tr, "MREMAP_DONTUNMAP");
	af->ms_async = fv(ts, "MS_ASYNC");
	af->ms_sync = fv(ts, "MS_SYNC");
	af->ms_invalidate = fv(ts, "MS_INVALIDATE");
	for (int i = 0; i < MADV_X_NR; i++) {
		uint64_t v;
		af->madv[i] = (ta && flagtab_lookup(ta, madv_names[i], strlen(madv_names[i]), &v) == 0)
				      ? (int64_t)v : -1;
	}
	return 0;
}

struct vmsys *vmsys_new(const struct vmsys_config *c, char *err, size_t errlen)
{
	if (c->page_size != 4096) {
		snprintf(err, errlen, "page size %llu is not supported (only 4096)",
			 (unsigned long long)c->page_size);
		return NULL;
	}
	struct vmsys *s = vm_calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->sem = c->sem;
	const char *arch = c->arch ? c->arch : "x86_64";
	snprintf(s->arch, sizeof(s->arch), "%s", arch);
	if (load_arch_flags(s, arch, err, errlen)) {
		free(s);
		return NULL;
	}
	s->zero_page = c->zero_page < 0 ? c->sem->has_zero_page : c->zero_page != 0;
	s->soft_dirty = c->soft_dirty;
	s->max_map_count = c->max_map_count;
	s->user_locked_vm_start = c->user_locked_vm;
	s->thp_mode = c->thp == 2 ? THP_ALWAYS : c->thp == 1 ? THP_MADVISE : THP_NEVER;
	if (hugetlb_pool_init(s, c->hugetlb_pages)) {
		free(s);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->ra_pages = c->read_ahead_kb / (PAGE_SIZE >> 10);
	if (!s->ra_pages)
		s->ra_pages = 1;
	s->default_mmap_base = c->mmap_base ? c->mmap_base : DEFAULT_MMAP_BASE;
	s->default_rlim = c->rlimit_memlock;
	s->default_cap = c->cap_ipc_lock;
	s->creds_unknown = c->creds_unknown;
	s->touches_unrecorded = c->touches_unrecorded;
	s->default_uid = c->uid >= 0 && c->uid < UINT32_MAX ? (uint32_t)c->uid : c->cap_ipc_lock ? 0 : 1000;
	s->default_cap_res = c->cap_sys_resource < 0 ? c->cap_ipc_lock : c->cap_sys_resource;
	s->default_cap_bnd = c->cap_bounding;
	if (physmem_init(&s->pm, c->ram >> PAGE_SHIFT, c->numa_nodes)) {
		physmem_destroy(&s->pm);
		hugetlb_pool_release(s);
		free(s);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->stat.v[NR_FREE_PAGES] = (int64_t)s->pm.nr_free;
	radix_init(&s->numa_cpupid);
	radix_init(&s->anon_vmas);
	radix_init(&s->file_ids);
	radix_pool_init(&s->pt_pool);
	objpool_init(&s->vma_pool, sizeof(struct vma));
	objpool_init(&s->avc_pool, sizeof(struct avc));
	objpool_init(&s->anon_vma_pool, sizeof(struct anon_vma));
	lru_init(&s->lru);
	s->swap_total = c->swap >> PAGE_SHIFT;
	if (s->swap_total) {
		s->swap_map = vm_calloc(s->swap_total, 1);
		if (!s->swap_map) {
			physmem_destroy(&s->pm);
			hugetlb_pool_release(s);
			free(s);
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		s->swap_free = s->swap_total - 1;
		s->swap_next = 1;
	}
	s->next_pid = 1;
	s->zap_folio_key = UINT64_MAX;
	return s;
}

/* room for entry i in a table of chunk pointers, the new ones NULL */
static bool ra_table_room(struct file_ra ***tab, size_t *n, size_t i)
{
	if (i < *n)
		return true;
	size_t old = *n;
	struct file_ra **t = vm_grow(*tab, n, i + 1, sizeof(*t));
	if (!t)
		return false;
	memset(t + old, 0, (*n - old) * sizeof(*t));
	*tab = t;
	return true;
}

/* Chunk c of the readahead states (file_ra_of()), zeroed.  The first is
 * the heap's, which the next machine of a run of them (vmsim check) takes
 * again without faults; the later ones, which only a long trace reaches,
 * are cut from slabs of RA_SLAB chunks populated when made (a fault a page
 * of them was 4% of the replay of a log of 200 python3 runs; populating
 * the first one too halved the speed of 1,000 check runs of 100 steps; a
 * munmap() a chunk at the end, each flushing the TLB, 1.9%). */
static struct file_ra *ra_chunk_new(struct vmsys *s, size_t c)
{
	if (!c)
		return vm_calloc(RA_CHUNK, sizeof(struct file_ra));
	size_t k = (c - 1) / RA_SLAB;
	if (!ra_table_room(&s->ra_slabs, &s->ra_nslabs, k))
		return NULL;
	if (!s->ra_slabs[k] && !(s->ra_slabs[k] = vm_alloc_populated(RA_SLAB * RA_CHUNK * sizeof(struct file_ra))))
		return NULL;
	return s->ra_slabs[k] + (c - 1) % RA_SLAB * RA_CHUNK;
}

static void ra_chunks_release(struct vmsys *s)
{
	if (s->ra_nchunks)
		free(s->ra_chunks[0]);
	free(s->ra_chunks);
	for (size_t k = 0; k < s->ra_nslabs; k++)
		if (s->ra_slabs[k])
			vm_unreserve(s->ra_slabs[k], RA_SLAB * RA_CHUNK * sizeof(struct file_ra));
	free(s->ra_slabs);
}

void vmsys_free(struct vmsys *s)
{
	if (!s)
		return;
	/* The machine goes, and nothing looks at its pages any more: each
	 * process's exit frees its VMAs, files and page tables, but no page is
	 * unmapped, munlocked or moved between lists one by one - the frames
	 * go with physmem_destroy() (a 5 GiB mapping took 46 ms to zap) */
	s->dying = true;
	s->tp_hook = NULL;
	for (struct task *t = s->tasks; t; t = t->next)
		vm_exit(s, t);
	free(s->tidx);
	while (s->tasks) {
		struct task *n = s->tasks->next;
		file_exec_reads_forget(s, s->tasks);
		numa_task_free(s->tasks);
		free(s->tasks);
		s->tasks = n;
	}
	shm_free_all(s); /* the segments' files go with the others */
	while (s->files) /* named files still in the namespace */
		file_put(s, s->files);
	mount_table_free(s);
	free(s->user_locked);
	free(s->swap_map);
	free(s->swap_shadow);
	radix_destroy(&s->numa_cpupid);
	radix_destroy(&s->anon_vmas);
	radix_destroy(&s->file_ids);
	free(s->fpath);
	objpool_release(&s->vma_pool);
	objpool_release(&s->avc_pool);
	objpool_release(&s->anon_vma_pool);
	radix_pool_release(&s->pt_pool);
	ra_chunks_release(s);
	physmem_destroy(&s->pm);
	hugetlb_pool_release(s);
	free(s);
}

const struct semantics *vmsys_semantics(const struct vmsys *s)
{
	return s->sem;
}

struct task *vmsys_task_new_internal(struct vmsys *s, int pid);

static size_t pid_slot(size_t cap, int pid)
{
	return ((size_t)(unsigned)pid * 0x9e3779b9u) & (cap - 1);
}

struct task *task_index_get(struct vmsys *s, int pid)
{
	if (!s->tidx_cap)
		return NULL;
	for (size_t i = pid_slot(s->tidx_cap, pid);; i = (i + 1) & (s->tidx_cap - 1)) {
		struct task *t = s->tidx[i];
		if (!t || t->pid == pid)
			return t;
	}
}

int task_index_put(struct vmsys *s, struct task *t)
{
	if ((s->tidx_n + 1) * 2 > s->tidx_cap) {
		size_t nc = s->tidx_cap ? s->tidx_cap * 2 : 64;
		struct task **n = vm_calloc(nc, sizeof(*n));
		if (!n)
			return -1;
		for (size_t i = 0; i < s->tidx_cap; i++)
			if (s->tidx[i]) {
				size_t j = pid_slot(nc, s->tidx[i]->pid);
				while (n[j])
					j = (j + 1) & (nc - 1);
				n[j] = s->tidx[i];
			}
		free(s->tidx);
		s->tidx = n;
		s->tidx_cap = nc;
	}
	size_t i = pid_slot(s->tidx_cap, t->pid);
	while (s->tidx[i] && s->tidx[i]->pid != t->pid)
		i = (i + 1) & (s->tidx_cap - 1);
	if (!s->tidx[i])
		s->tidx_n++;
	s->tidx[i] = t; /* the newest with that pid */
	return 0;
}

/* Remove pid's entry if it is t (backward-shift deletion: the probe runs
 * of the entries after it stay unbroken). */
static void task_index_del(struct vmsys *s, struct task *t)
{
	if (!s->tidx_cap)
		return;
	size_t mask = s->tidx_cap - 1, i = pid_slot(s->tidx_cap, t->pid);
	while (s->tidx[i] && s->tidx[i] != t)
		i = (i + 1) & mask;
	if (!s->tidx[i])
		return;
	for (size_t j = (i + 1) & mask; s->tidx[j]; j = (j + 1) & mask) {
		size_t home = pid_slot(s->tidx_cap, s->tidx[j]->pid);
		/* move j back to i unless its home lies in (i, j] */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			s->tidx[i] = s->tidx[j];
			i = j;
		}
	}
	s->tidx[i] = NULL;
	s->tidx_n--;
}

void vmsys_prefetch(struct vmsys *s, int pid, uint64_t addr)
{
	struct task *t = vmsys_task(s, pid, false);
	if (!t || !t->mm)
		return;
	vma_prefetch(&t->mm->vmas, addr);
	vm_prefetch_pte(t, addr);
}

void vm_release_task(struct vmsys *s, int pid)
{
	struct task *t = task_index_get(s, pid);
	if (!t || t->alive || t == s->tasks)
		return; /* running, unknown, or the trace's first process */
	task_index_del(s, t);
	if (t->prev)
		t->prev->next = t->next;
	else
		s->tasks = t->next;
	if (t->next)
		t->next->prev = t->prev;
	else
		s->tasks_tail = t->prev;
	file_exec_reads_forget(s, t);
	numa_task_free(t);
	free(t);
}

struct task *vmsys_task(struct vmsys *s, int pid, bool create)
{
	struct task *first = s->tasks;
	if (pid == 0) {
		if (first || !create)
			return first;
	} else {
		struct task *found = task_index_get(s, pid);
		if (found)
			return found;
		if (!create)
			return NULL;
		/* the first process seen only without a pid so far takes it */
		if (first && !first->pid_known && !first->next) {
			first->pid = pid;
			first->pid_known = true;
			if (task_index_put(s, first))
				return NULL;
			if (pid >= s->next_pid && pid < INT_MAX)
				s->next_pid = pid + 1;
			return first;
		}
	}
	struct task *t = vmsys_task_new_internal(s, pid);
	if (!t)
		return NULL;
	t->rlim_memlock_cur = t->rlim_memlock_max = s->default_rlim;
	numa_task_first(t);
	cred_init(t, s->default_uid, s->default_cap, s->default_cap_res, s->default_cap_bnd, s->creds_unknown);
	t->mm = mm_alloc(s);
	t->files = fdtable_dup(NULL);
	if (!t->mm || !t->files) {
		vm_exit(s, t);
		return NULL;
	}
	return t;
}

/* the files an execve reads are named by the lines right before it */
static void exec_reads_age(struct vmsys *s, struct task *t)
{
	if (!t->exec_reads_fresh)
		file_exec_reads_forget(s, t);
	t->exec_reads_fresh = false;
}

void vmsys_begin_call(struct vmsys *s, struct task *t)
{
	s->current = t;
	if (t->nexec_reads)
		exec_reads_age(s, t);
	pte_changed(s); /* a call may change any PTE: no hit bit is believed across it */
}

void vmsys_begin_access(struct vmsys *s, struct task *t)
{
	s->current = t; /* an access changes PTEs only where pte_changed() says so */
	if (t->nexec_reads)
		exec_reads_age(s, t);
}

void vmsys_end_call(struct vmsys *s, struct task *t)
{
	s->current = NULL;
	if (t && t->alive && t->oom_killed)
		vm_exit(s, t);
}

unsigned vmsys_live_tasks(const struct vmsys *s, unsigned max)
{
	unsigned n = 0;
	for (const struct task *t = s->live_head; t && n < max; t = t->live_next)
		n++;
	return n;
}

bool vmsys_mm_shared(const struct task *t)
{
	return t->mm && t->mm->users > 1;
}

/* the rmap walk of vmsys_frame_places_outside(): each PTE mapping the
 * frame outside the ranges of mm, as a place of another process */
struct outside {
	struct vmsys *s;
	const struct mm *mm;
	const uint64_t *lo, *hi;
	unsigned n, cap, nout;
	struct vm_place *out;
	bool unknown;
};

/* the live task that owns mm, if no other live task shares it (NULL
 * else) */
static const struct task *sole_task(struct vmsys *s, const struct mm *mm)
{
	if (!mm || mm->users != 1)
		return NULL;
	for_each_live_task(s, t)
		if (t->mm == mm)
			return t;
	return NULL;
}

static bool in_ranges(uint64_t addr, const uint64_t *lo, const uint64_t *hi, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (addr >= lo[i] && addr < hi[i])
			return true;
	return false;
}

/* a place of another process (false: one too many, or unknown) */
static bool place_add(struct outside *o, const struct task *u, uint64_t addr)
{
	if (!u || o->nout == o->cap) {
		o->unknown = true;
		return false;
	}
	o->out[o->nout++] = (struct vm_place){ u->pid, addr };
	return true;
}

static bool mapped_outside(struct vmsys *s, struct vma *v, uint64_t addr, uint64_t *pte, void *ctx)
{
	(void)pte;
	struct outside *o = ctx;
	if (v->mm == o->mm) {
		if (in_ranges(addr, o->lo, o->hi, o->n))
			return true;
		o->unknown = true; /* elsewhere in its own mm */
		return false;
	}
	return place_add(o, sole_task(s, v->mm), addr);
}

/*
 * Every PTE of the frame found without the rmap walk, which visits every
 * VMA chained to the page's anon_vma (thousands after a churn of splits):
 * the PTEs of mm inside the ranges, where each VMA there would map the
 * page's index (its place in the file or anon object; at most FAST_VMAS
 * VMAs looked at), then the same addresses in the other live processes
 * (a fork's copy maps its pages where its parent does, and keeps the page
 * its parent's copy-on-write fault replaced; at most FAST_TASKS of
 * them).  PTEs found, as many as the page's mapcount: they are all of
 * them.  False: not found that way; the caller walks the rmap.
 */
#define FAST_VMAS 16
#define FAST_TASKS 16
static bool places_fast(struct outside *o, struct mm *mm, const struct page *p, uint32_t pfn)
{
	uint64_t index = page_index(p), at[FAST_VMAS];
	unsigned seen = 0, nat = 0, found = 0, tasks = 0;
	for (unsigned i = 0; i < o->n; i++)
		for (struct vma *v = vma_find(&mm->vmas, o->lo[i]); v && v->start < o->hi[i]; v = v->next) {
			if (++seen > FAST_VMAS)
				return false;
			uint64_t addr;
			if (!vma_index_address(v, index, &addr) || addr < o->lo[i] || addr >= o->hi[i])
				continue;
			at[nat++] = addr; /* where a fork's copy would map it too */
			found += pte_maps_pfn(mm, addr, pfn);
		}
	if (!nat || found > p->mapcount)
		return false;
	for_each_live_task(o->s, u) {
		if (found == p->mapcount)
			break;
		if (u->mm == mm || !task_owns_mm(o->s, u))
			continue;
		if (++tasks > FAST_TASKS)
			return false;
		for (unsigned k = 0; k < nat; k++)
			if (pte_maps_pfn(u->mm, at[k], pfn)) {
				/* u owns its mm: it is the sole task unless threads share it */
				if (!place_add(o, u->mm->users == 1 ? u : NULL, at[k]))
					return true; /* unknown: the caller goes wide */
				found++;
			}
	}
	if (found == p->mapcount)
		return true;
	o->nout = 0; /* some elsewhere: the rmap walk finds them all */
	return false;
}

int vmsys_frame_places_outside(struct vmsys *s, const struct task *t, uint32_t pfn, const uint64_t *lo,
			       const uint64_t *hi, unsigned n, struct vm_place *out, unsigned cap)
{
	if (!pfn || pfn > s->pm.nr_frames)
		return 0;
	const struct page *p = spage(s, pfn);
	if (!p->mapcount || (p->flags & PG_ZERO))
		return 0;
	struct outside o = { s, t->mm, lo, hi, n, cap, 0, out, false };
	if (!t->mm || !places_fast(&o, t->mm, p, pfn))
		rmap_walk(s, pfn, mapped_outside, &o);
	return o.unknown ? -1 : (int)o.nout;
}

int task_pid(const struct task *t) { return t->pid; }
bool task_alive(const struct task *t) { return t->alive; }
bool task_oom_killed(const struct task *t) { return t->oom_killed; }

struct task *vmsys_task_next(struct vmsys *s, struct task *prev)
{
	return prev ? prev->next : s->tasks;
}

void vmsys_event_add(struct vmsys *s, const char *fmt, ...)
{
	if (s->nevents >= MAX_EVENTS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->events[s->nevents], sizeof(s->events[0]), fmt, ap);
	va_end(ap);
	s->nevents++;
}

unsigned vmsys_nevents(const struct vmsys *s) { return s->nevents; }
const char *vmsys_event(const struct vmsys *s, unsigned i)
{
	return i < s->nevents ? s->events[i] : "";
}

void vm_drain_all(struct vmsys *s)
{
	lru_add_drain(s);
}

/* ---------------------------------------------------------------- views */

void vmsys_status(struct vmsys *s, struct task *t, struct vm_status *st)
{
	(void)s;
	memset(st, 0, sizeof(*st));
	st->min_flt = t->min_flt;
	st->maj_flt = t->maj_flt;
	struct mm *mm = t->mm;
	if (!mm)
		return;
	st->total_vm = mm->total_vm;
	st->locked_vm = mm->locked_vm;
	st->pinned_vm = mm->pinned_vm;
	st->hugetlb_pages = mm->hugetlb_pages;
	st->rss_anon = mm->rss_anon;
	st->rss_file = mm->rss_file;
	st->rss_shmem = mm->rss_shmem;
	st->swap_ents = mm->swap_ents;
	st->data_vm = mm->data_vm;
	st->stack_vm = mm->stack_vm;
	st->exec_vm = mm->exec_vm;
	st->hiwater_rss = mm->hiwater_rss;
	st->hiwater_vm = mm->hiwater_vm;
}

/* fs/proc/task_mmu.c:smaps_account() with PSS_SHIFT fixed point */
#define PSS_SHIFT 12
/* what both vmsys_vma_glance() and fill_vma_info() tell: bounds, flags, name */
static void vma_name_info(const struct vma *v, struct vm_vma_info *info)
{
	struct mm *mm = v->mm;
	memset(info, 0, sizeof(*info));
	info->start = v->start;
	info->end = v->end;
	info->pgoff = v->pgoff;
	info->flags = v->flags;
	info->serial = v->serial;
	info->is_file = v->file != NULL;
	if (v->file) {
		info->path = v->file->path;
		info->ino = v->file->ino;
		info->dev_major = 0;
		info->dev_minor = v->file->shmem ? 1 : 2;
	} else if (mm->start_brk && v->start <= mm->brk && v->end >= mm->start_brk) {
		/* fs/proc/task_mmu.c:show_map_vma(): any VMA touching the heap */
		info->path = "[heap]";
	} else if (v->flags & VM_GROWSDOWN) {
		info->path = "[stack]";
	}
}

void vmsys_vma_glance(struct vmsys *s, const struct vma *v, struct vm_vma_info *info)
{
	(void)s;
	vma_name_info(v, info);
	struct mm *mm = v->mm;
	uint64_t vpn = v->start >> PAGE_SHIFT, last = (v->end >> PAGE_SHIFT) - 1;
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t pte = radix_get(&mm->pt, vpn);
		vpn++;
		if (pte_maps_own_page(pte))
			info->rss += PAGE_SIZE;
	}
}

static void fill_vma_info(struct vmsys *s, const struct vma *v, struct vm_vma_info *info)
{
	const struct semantics *sem = s->sem;
	struct mm *mm = v->mm;
	vma_name_info(v, info);
	bool locked_vma = (v->flags & sem->smaps_locked_mask) != 0;
	/* fs/proc/task_mmu.c:smap_gather_stats() @ v6.1: a shmem VMA's
	 * pages out on swap are the file's (shmem_swap_usage(): all of them
	 * when the VMA maps the file from 0 past i_size), except in a private
	 * writable one, where only indices with no PTE count (a COW copy
	 * hides the file's page: smaps_pte_entry(), smaps_pte_hole()) */
	struct file *sf = v->file && v->file->shmem && v->file->swapped.count ? v->file : NULL;
	if (sf && ((v->flags & VM_SHARED) || !(v->flags & VM_WRITE))) {
		info->swap += PAGE_SIZE * (!v->pgoff && v->end - v->start >= sf->size
						   ? sf->swapped.count
						   : shmem_swapped_pages(sf, v->pgoff, v->pgoff + vma_pages(v)));
	} else if (sf) {
		uint64_t idx = v->pgoff, end = v->pgoff + vma_pages(v);
		while (idx < end && radix_next(&sf->swapped, &idx, end - 1)) {
			if (!radix_get(&mm->pt, (v->start >> PAGE_SHIFT) + idx - v->pgoff))
				info->swap += PAGE_SIZE;
			idx++;
		}
	}
	uint64_t pss = 0, pss_dirty = 0, pss_locked = 0;
	uint64_t vpn = v->start >> PAGE_SHIFT, last = (v->end >> PAGE_SHIFT) - 1;
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t pte = radix_get(&mm->pt, vpn);
		vpn++;
		if (pte & PTE_SWAP) {
			info->swap += PAGE_SIZE;
			continue;
		}
		if (!pte_maps_own_page(pte))
			continue;
		struct page *p = spage(s, pte_pfn(pte));
		bool dirty = (pte & PTE_DIRTY) || (p->flags & PG_DIRTY);
		bool young = (pte & PTE_YOUNG) || (p->flags & PG_REFERENCED);
		info->rss += PAGE_SIZE;
		if (young)
			info->referenced += PAGE_SIZE;
		if (p->flags & PG_ANON)
			info->anonymous += PAGE_SIZE;
		uint64_t share = p->mapcount ? p->mapcount : 1;
		uint64_t part = (PAGE_SIZE << PSS_SHIFT) / share;
		if (share >= 2) {
			if (dirty)
				info->shared_dirty += PAGE_SIZE;
			else
				info->shared_clean += PAGE_SIZE;
		} else {
			if (dirty)
				info->private_dirty += PAGE_SIZE;
			else
				info->private_clean += PAGE_SIZE;
		}
		pss += part;
		if (dirty)
			pss_dirty += part;
		if (locked_vma && sem->smaps_locked_per_page)
			pss_locked += part;
	}
	info->pss = pss >> PSS_SHIFT;
	info->pss_dirty = pss_dirty >> PSS_SHIFT;
	info->anon_huge = mm->thp ? thp_anon_bytes(mm, v->start, v->end) : 0;
	info->locked = sem->smaps_locked_per_page ? pss_locked >> PSS_SHIFT
						  : (locked_vma ? info->pss : 0);
}

const struct vma *vmsys_vma_next(struct vmsys *s, struct task *t, const struct vma *prev,
				 struct vm_vma_info *info)
{
	if (!t->mm)
		return NULL;
	const struct vma *v = prev ? prev->next : t->mm->vmas.first;
	if (v && info)
		fill_vma_info(s, v, info);
	return v;
}

void vmsys_vma_brief(const struct vma *v, struct vm_vma_brief *b)
{
	b->start = v->start;
	b->end = v->end;
	b->flags = v->flags;
}

const struct vma *vmsys_vma_from(struct vmsys *s, struct task *t, uint64_t addr, struct vm_vma_info *info)
{
	if (!t->mm)
		return NULL;
	const struct vma *v = vma_find(&t->mm->vmas, addr);
	if (v && info)
		fill_vma_info(s, v, info);
	return v;
}

bool vmsys_vma_at(struct vmsys *s, struct task *t, uint64_t addr, struct vm_vma_info *info)
{
	if (!t->mm)
		return false;
	struct vma *v = vma_lookup(&t->mm->vmas, addr);
	if (!v)
		return false;
	if (info)
		fill_vma_info(s, v, info);
	return true;
}

uint64_t vmsys_vma_count(struct vmsys *s, struct task *t, uint64_t start, uint64_t end)
{
	(void)s;
	return t->mm ? vma_count_range(&t->mm->vmas, start, end) : 0;
}

uint64_t vmsys_map_count(struct vmsys *s, struct task *t)
{
	(void)s;
	return t->mm ? t->mm->map_count : 0;
}

uint64_t vmsys_def_flags(struct vmsys *s, struct task *t)
{
	(void)s;
	return t->mm ? t->mm->def_flags : 0;
}

/* fs/proc/task_mmu.c:show_smap_vma_flags() read backwards; "??" (a bit
 * with no name in this kernel) matches nothing */
uint64_t vmsys_vmflags_parse(const struct vmsys *s, const char *p, size_t n)
{
	uint64_t set = 0;
	size_t i = 0;
	while (i < n) {
		while (i < n && p[i] == ' ')
			i++;
		size_t j = i;
		while (j < n && p[j] != ' ')
			j++;
		for (const struct vmflag_name *m = s->sem->vmflag_names; j > i && m->mnemonic; m++)
			if (strlen(m->mnemonic) == j - i && !memcmp(m->mnemonic, p + i, j - i) &&
			    strcmp(m->mnemonic, "??")) {
				set |= m->bit;
				break;
			}
		i = j;
	}
	return set;
}

void vmsys_task_limits(const struct task *t, uint64_t *cur, uint64_t *max, bool *cap)
{
	*cur = t->rlim_memlock_cur;
	*max = t->rlim_memlock_max;
	*cap = capable_ipc_lock(t);
}

uint64_t vmsys_vmflags_kernel(const struct vmsys *s, uint64_t flags)
{
	uint64_t k = 0;
	for (const struct vmflag_name *n = s->sem->vmflag_names; n && n->mnemonic; n++)
		if (flags & n->bit)
			k |= n->kernel_value;
	return k;
}

size_t vmsys_vmflags_text(const struct vmsys *s, uint64_t flags, char *buf, size_t len)
{
	size_t n = 0;
	if (len)
		buf[0] = 0;
	uint64_t seen = 0;
	for (const struct vmflag_name *m = s->sem->vmflag_names; m->mnemonic; m++) {
		seen |= m->bit;
		if (!(flags & m->bit))
			continue;
		int w = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s ", m->mnemonic);
		n += (size_t)w;
	}
	/* set bits this kernel has no name for print as "??" (in bit order
	 * they would interleave; vmsim's internal-only bits are rare) */
	for (unsigned b = 0; b < 64; b++) {
		uint64_t bit = 1ULL << b;
		if ((flags & bit) && !(seen & bit) && bit != VM_SOFTDIRTY) {
			int w = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "?? ");
			n += (size_t)w;
		}
	}
	return n;
}

static void fill_page_info(struct vmsys *s, pfn_t pfn, struct vm_page_info *pi)
{
	struct page *p = spage(s, pfn);
	pi->pfn = pfn;
	pi->lru = (p->flags & PG_LRU) != 0;
	pi->active = (p->flags & PG_ACTIVE) != 0;
	pi->referenced = (p->flags & PG_REFERENCED) != 0;
	pi->unevictable = (p->flags & PG_UNEVICTABLE) != 0;
	pi->mlocked = (p->flags & PG_MLOCKED) != 0;
	pi->dirty = (p->flags & PG_DIRTY) != 0;
	pi->anon = (p->flags & PG_ANON) != 0;
	pi->swapbacked = (p->flags & PG_SWAPBACKED) != 0;
	pi->swapcache = (p->flags & PG_SWAPCACHE) != 0;
	pi->zero = (p->flags & PG_ZERO) != 0;
	pi->mmap = p->mapcount > 0;
	pi->writeback = (p->flags & PG_WRITEBACK) != 0;
	pi->uptodate = (p->flags & PG_UPTODATE) != 0;
	pi->mapcount = p->mapcount;
	pi->mlock_count = page_mlock_count(s, p);
	/* a tail page's own flags (stable_page_flags() @ v6.1): the folio's
	 * head is the page of its first index, as vmsys_folio_span() takes it */
	if (p->folio_order && !s->sem->kpageflags_folio_flags &&
	    (page_index(p) & ((1ULL << p->folio_order) - 1))) {
		pi->lru = pi->active = pi->referenced = pi->unevictable = pi->mlocked = false;
		pi->dirty = pi->swapbacked = pi->writeback = pi->uptodate = false;
	}
}

bool vmsys_next_page(struct vmsys *s, struct task *t, uint64_t *addr, uint64_t end)
{
	(void)s;
	if (!t->mm || *addr >= end)
		return false;
	uint64_t key = *addr >> PAGE_SHIFT;
	if (!radix_next(&t->mm->pt, &key, (end - 1) >> PAGE_SHIFT))
		return false;
	*addr = key << PAGE_SHIFT;
	return true;
}

static int pte_bits(struct vmsys *s, uint64_t pte)
{
	if (pte & PTE_SWAP)
		return 0;
	if (!(pte & PTE_PRESENT))
		return -1;
	const struct page *p = spage(s, pte_pfn(pte));
	return 1 | ((p->flags & PG_MLOCKED) ? 2 : 0) | ((p->flags & PG_UNEVICTABLE) ? 4 : 0) |
	       ((p->flags & PG_LRU) ? 8 : 0);
}

int vmsys_page_bits(struct vmsys *s, struct task *t, uint64_t addr)
{
	if (!t->mm)
		return -1;
	return pte_bits(s, radix_get(&t->mm->pt, addr >> PAGE_SHIFT));
}

int vmsys_next_page_bits(struct vmsys *s, struct task *t, uint64_t *addr, uint64_t end)
{
	if (!t->mm || *addr >= end)
		return -1;
	uint64_t key = *addr >> PAGE_SHIFT, last = (end - 1) >> PAGE_SHIFT;
	while (radix_next(&t->mm->pt, &key, last)) {
		int b = pte_bits(s, radix_get(&t->mm->pt, key));
		if (b >= 0) {
			*addr = key << PAGE_SHIFT;
			return b;
		}
		if (key == last)
			break;
		key++;
	}
	return -1;
}

bool vmsys_folio_span(struct vmsys *s, struct task *t, uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	if (!t->mm)
		return false;
	uint64_t pte = radix_get(&t->mm->pt, addr >> PAGE_SHIFT);
	if (!(pte & PTE_PRESENT))
		return false;
	const struct page *p = spage(s, pte_pfn(pte));
	uint64_t a = addr & ~(PAGE_SIZE - 1), nr = 1ULL << p->folio_order;
	uint64_t before = page_index(p) & (nr - 1);
	uint64_t span = (uint64_t)RADIX_FAN << PAGE_SHIFT;
	uint64_t table = a & ~(span - 1), table_end = table + span;
	*lo = a - (before << PAGE_SHIFT);
	*hi = *lo + (nr << PAGE_SHIFT);
	if (*lo < table || *lo > a)
		*lo = table;
	if (*hi > table_end || *hi <= a)
		*hi = table_end;
	return true;
}

bool vmsys_page(struct vmsys *s, struct task *t, uint64_t addr, struct vm_page_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	if (!t->mm)
		return false;
	if (t->mm->huge && hugetlb_mapped(t->mm, addr, false)) {
		/* a hugetlb page: present, on no LRU, never mlocked */
		pi->present = true;
		pi->pte_write = hugetlb_mapped(t->mm, addr, true);
		return true;
	}
	uint64_t pte = radix_get(&t->mm->pt, addr >> PAGE_SHIFT);
	if (pte & PTE_SWAP) {
		pi->swapped = true;
		return true;
	}
	if (!(pte & PTE_PRESENT))
		return false;
	pi->present = true;
	pi->pte_write = (pte & PTE_WRITE) != 0;
	pi->pte_young = (pte & PTE_YOUNG) != 0;
	pi->pte_dirty = (pte & PTE_DIRTY) != 0;
	fill_page_info(s, pte_pfn(pte), pi);
	pi->file = !pi->anon;
	pi->exclusive = pi->mapcount == 1;
	return true;
}

int64_t vmsys_vmstat(const struct vmsys *s, int item)
{
	if (item == NR_FREE_PAGES) /* page tables take free frames too */
		return s->stat.v[item] - (int64_t)s->pm.nr_pt;
	if (item == NR_PAGETABLE)
		return (int64_t)s->pm.nr_pt;
	return (item >= 0 && item < NR_VMSTAT_ITEMS) ? s->stat.v[item] : 0;
}

uint64_t vmsys_frames_used(const struct vmsys *s)
{
	uint64_t free = physmem_avail(&s->pm);
	return s->pm.nr_frames > free ? s->pm.nr_frames - free : 0;
}

void vmsys_meminfo(const struct vmsys *s, struct vm_meminfo *mi)
{
	memset(mi, 0, sizeof(*mi));
	mi->total = s->pm.nr_frames;
	mi->free = physmem_avail(&s->pm);
	mi->page_tables = s->pm.nr_pt;
	mi->inactive_anon = s->lru.size[LRU_INACTIVE_ANON];
	mi->active_anon = s->lru.size[LRU_ACTIVE_ANON];
	mi->inactive_file = s->lru.size[LRU_INACTIVE_FILE];
	mi->active_file = s->lru.size[LRU_ACTIVE_FILE];
	mi->unevictable = s->lru.size[LRU_UNEVICTABLE];
	mi->mlocked = (uint64_t)s->stat.v[NR_MLOCK];
	mi->swap_total = s->swap_total ? s->swap_total - 1 : 0;
	mi->swap_free = s->swap_free;
	mi->dirty = (uint64_t)s->stat.v[NR_DIRTY];
	mi->writeback = (uint64_t)s->stat.v[NR_WRITEBACK];
	mi->swap_cached = (uint64_t)s->stat.v[NR_SWAPCACHE];
	mi->anon_pages = (uint64_t)s->stat.v[NR_ANON_PAGES];
	mi->mapped = (uint64_t)s->stat.v[NR_MAPPED];
	mi->shmem = (uint64_t)s->stat.v[NR_SHMEM];
	mi->file_pages = (uint64_t)s->stat.v[NR_FILE_PAGES];
	mi->huge_total = s->hp.total;
	mi->huge_free = s->hp.free;
	mi->huge_rsvd = s->hp.resv;
	mi->anon_huge = thp_anon_pages(s);
}

bool vmsys_lru_linked(const struct vmsys *s, int list)
{
	return list < 0 || list >= NR_LRU_LISTS || lru_linked(s, (enum lru_list)list);
}

void vmsys_lru_walk(struct vmsys *s, int list, void (*fn)(void *ctx, uint32_t pfn,
		    const struct vm_page_info *pi), void *ctx)
{
	if (list < 0 || list >= NR_LRU_LISTS)
		return;
	for (pfn_t pfn = lru_first(s, list); pfn; pfn = lru_next(s, list, pfn)) {
		struct vm_page_info pi;
		memset(&pi, 0, sizeof(pi));
		fill_page_info(s, pfn, &pi);
		pi.present = true;
		fn(ctx, pfn, &pi);
	}
}

uint64_t vmsys_lru_size(const struct vmsys *s, int list)
{
	return (list >= 0 && list < NR_LRU_LISTS) ? s->lru.size[list] : 0;
}

void vmsys_set_tracepoint(struct vmsys *s, tp_fn fn, void *ctx)
{
	s->tp_hook = fn;
	s->tp_ctx = ctx;
}

void tp_emit(struct vmsys *s, struct tp_event *e)
{
	struct task *t = s->current;
	e->pid = t ? t->pid : 0;
	/* a charge or a check is against the calling task's limit */
	if ((e->id == TP_LOCKED_VM || e->id == TP_LIMIT) && t) {
		e->limit = rlimit_memlock_pages(t);
		e->cap = capable_ipc_lock(t);
	}
	s->tp_hook(s->tp_ctx, e);
}

void vmsys_batches(const struct vmsys *s, unsigned *lru_add, unsigned *lru_add_max, unsigned *mlock,
		   unsigned *mlock_max)
{
	*lru_add = s->lru.add_batch.n;
	*lru_add_max = s->sem->lru_batch;
	*mlock = s->lru.mlock_batch.n;
	*mlock_max = s->sem->mlock_batch;
}

unsigned vmsys_numa_nodes(const struct vmsys *s)
{
	return s->pm.nr_nodes;
}

uint64_t vmsys_node_free(const struct vmsys *s, unsigned nid)
{
	return nid < s->pm.nr_nodes ? s->pm.node[nid].nr_free : 0;
}

unsigned vmsys_task_node(const struct task *t)
{
	return t->numa_node;
}

void vmsys_numa_clock(const struct vmsys *s, const struct task *t, struct numa_clock *c)
{
	c->offset = t->mm ? t->mm->numa_scan_offset : 0;
	c->seq = t->mm ? t->mm->numa_scan_seq : 0;
	c->jiffies = s->jiffies;
	c->runtime_ms = t->numa_runtime_ns / 1000000u;
	c->period_ms = t->numa_scan_period;
	c->next_scan = t->mm ? t->mm->numa_next_scan : 0;
}

void vmsys_range_nodes(struct vmsys *s, struct task *t, uint64_t start, uint64_t end, uint64_t *counts,
		       unsigned nnodes, uint64_t *protnone)
{
	for (unsigned n = 0; n < nnodes; n++)
		counts[n] = 0;
	*protnone = 0;
	if (!t->mm || end <= start)
		return;
	struct mm *mm = t->mm;
	uint64_t vpn = start >> PAGE_SHIFT, last = (end >> PAGE_SHIFT) - 1;
	while (vpn <= last && radix_next(&mm->pt, &vpn, last)) {
		uint64_t pte = radix_get(&mm->pt, vpn++);
		if (!(pte & PTE_PRESENT) || pte_pfn(pte) == PFN_ZERO)
			continue;
		unsigned nid = pfn_to_nid(&s->pm, pte_pfn(pte));
		if (nid < nnodes)
			counts[nid]++;
		if (pte & PTE_NUMA)
			(*protnone)++;
	}
}

/* The readahead state of an open file description, ids given in order by
 * every open and mmap: in chunks (ra_chunk_new()), so that a long trace's
 * growing table is never cleared or copied again as a whole (a plain
 * strace log of 200 python3 runs opens 290,000 descriptions). */
struct file_ra *file_ra_of(struct vmsys *s, uint32_t ofd)
{
	size_t c = ofd / RA_CHUNK;
	if (!ra_table_room(&s->ra_chunks, &s->ra_nchunks, c))
		return NULL;
	if (!s->ra_chunks[c] && !(s->ra_chunks[c] = ra_chunk_new(s, c)))
		return NULL;
	return &s->ra_chunks[c][ofd % RA_CHUNK];
}

bool vmsys_touches_unrecorded(const struct vmsys *s) { return s->touches_unrecorded; }
