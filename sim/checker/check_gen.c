/* check_gen.c - seeded call-sequence generator of `vmsim check`.  See checker.h, section "check_gen". */
#include "checker.h"

#include <string.h>

#include "flagtab.h"
#include "internal.h"

const struct gen_weights gen_weights_default = { {
	[GK_MMAP] = 12, [GK_MUNMAP] = 4, [GK_MPROTECT] = 5, [GK_MREMAP] = 6, [GK_MADVISE] = 6,
	[GK_BRK] = 3, [GK_MLOCK] = 6, [GK_MLOCK2] = 6, [GK_MUNLOCK] = 5, [GK_MLOCKALL] = 5,
	[GK_MUNLOCKALL] = 3, [GK_FORK] = 3, [GK_EXIT] = 2, [GK_TOUCH] = 8, [GK_FAULT] = 4,
	[GK_RECLAIM] = 4, [GK_DROP_CACHES] = 2, [GK_PRLIMIT] = 3, [GK_CAPSET] = 2, [GK_FILE_IO] = 2,
	[GK_NUMA_SCAN] = 3, [GK_NUMA_NODE] = 2, [GK_NUMA_RUN] = 2,
} };

static const char *const kind_names[GK_NR] = {
	"mmap", "munmap", "mprotect", "mremap", "madvise", "brk", "mlock", "mlock2", "munlock",
	"mlockall", "munlockall", "fork", "exit", "touch", "fault", "reclaim", "drop_caches",
	"prlimit64", "capset", "file_io", "numa_scan", "numa_node", "numa_run",
};

const char *gen_kind_name(enum gen_kind k) { return k < GK_NR ? kind_names[k] : "?"; }

/* the arena: 32 slots of 64 pages above 4 GiB, away from heap and stack */
#define ARENA 0x7f0000000000ULL
#define SLOT_PAGES 64ULL
#define NSLOTS 32ULL
#define PG 4096ULL
#define FILE_SIZE (256ULL * PG)

static const char *const paths[] = { "/tmp/vmsim-check-a", "/tmp/vmsim-check-b" };

/* ---- PRNG: splitmix64 seeding xoshiro256** ---- */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rnd(uint64_t st[4])
{
	uint64_t r = rotl(st[1] * 5, 7) * 9, t = st[1] << 17;
	st[2] ^= st[0];
	st[3] ^= st[1];
	st[1] ^= st[2];
	st[0] ^= st[3];
	st[2] ^= t;
	st[3] = rotl(st[3], 45);
	return r;
}

static void seed_state(uint64_t st[4], uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		st[i] = splitmix(&x);
}

#define R(n) (rnd(g->st) % (uint64_t)(n))
#define P(pct) (R(100) < (pct))

void gen_machine(uint64_t seed, struct gen_machine *m)
{
	uint64_t st[4];
	seed_state(st, seed ^ 0x6d616368696e65ULL);
	static const uint64_t rams[] = { 16ULL << 20, 32ULL << 20, 64ULL << 20 };
	static const uint64_t rl[] = { 64ULL << 10, 1ULL << 20, 8ULL << 20, 8ULL << 20, UINT64_MAX };
	m->ram = rams[rnd(st) % 3];
	m->swap = rnd(st) % 3 == 0 ? 8ULL << 20 : 0;
	m->rlimit_memlock = rl[rnd(st) % 5];
	m->cap_ipc_lock = rnd(st) % 4 == 0;
	m->max_map_count = rnd(st) % 4 == 0 ? 6 : 65530;
	m->zero_page = rnd(st) % 2;
	m->numa_nodes = rnd(st) % 4 == 0 ? 2 : 1; /* drawn last: the other choices stay */
	/* then the huge pages: a small pool on a machine in four, a THP mode */
	m->hugetlb_pages = rnd(st) % 4 == 0 ? 3 : 0;
	m->thp = (int)(rnd(st) % 3);
}

struct vmsys *gen_machine_new(const struct gen_machine *m, const struct semantics *sem, const char *arch,
			      char *err, size_t errlen)
{
	struct vmsys_config c;
	vmsys_config_default(&c, sem);
	c.arch = arch;
	c.ram = m->ram;
	c.swap = m->swap;
	c.rlimit_memlock = m->rlimit_memlock;
	c.cap_ipc_lock = m->cap_ipc_lock;
	c.max_map_count = m->max_map_count;
	c.zero_page = m->zero_page;
	c.numa_nodes = m->numa_nodes;
	c.hugetlb_pages = m->hugetlb_pages;
	c.thp = m->thp;
	return vmsys_new(&c, err, errlen);
}

void gen_header(const struct gen_machine *m, const char *arch, const char *kernel, uint64_t seed,
		struct trace_header *h)
{
	memset(h, 0, sizeof(*h));
	h->version = 1; h->has_version = true;
	snprintf(h->arch, sizeof(h->arch), "%s", arch); h->has_arch = true;
	snprintf(h->kernel, sizeof(h->kernel), "%s", kernel); h->has_kernel = true;
	h->ram = m->ram; h->has_ram = true;
	h->swap = m->swap; h->has_swap = true;
	h->rlimit_memlock = m->rlimit_memlock; h->has_rlimit_memlock = true;
	h->cap_ipc_lock = m->cap_ipc_lock; h->has_cap_ipc_lock = true;
	h->max_map_count = m->max_map_count; h->has_max_map_count = true;
	h->zero_page = m->zero_page; h->has_zero_page = true;
	h->seed = seed; h->has_seed = true;
	if (m->hugetlb_pages) {
		h->hugetlb_pages = m->hugetlb_pages;
		h->has_hugetlb_pages = true;
	}
	if (m->thp) {
		h->thp = m->thp;
		h->has_thp = true;
	}
	if (m->numa_nodes > 1) {
		h->numa_nodes = m->numa_nodes;
		h->has_numa_nodes = true;
	}
}

/* a bit in bits [lo, hi) that no entry of the table uses (0 if none) */
static uint64_t unused_bit(const struct flag_table *t, unsigned lo, unsigned hi)
{
	uint64_t used = 0;
	if (t)
		for (size_t i = 0; i < t->nentries; i++)
			used |= t->entries[i].value | t->entries[i].field;
	for (unsigned b = lo; b < hi; b++)
		if (!(used & (1ULL << b)))
			return 1ULL << b;
	return 0;
}

void gen_init(struct gen *g, uint64_t seed, const struct gen_weights *w, struct vmsys *s)
{
	memset(g, 0, sizeof(*g));
	seed_state(g->st, seed);
	bool numa = vmsys_numa_nodes(s) > 1;
	for (int k = 0; k < GK_NR; k++) {
		/* NUMA calls only where there is more than one node, so the
		 * sequences of one-node machines stay what they were */
		g->w[k] = (k == GK_NUMA_SCAN || k == GK_NUMA_NODE || k == GK_NUMA_RUN) && !numa ? 0 : w->w[k];
		g->wsum += g->w[k];
	}
	g->s = s;
	const char *k = s->sem->flag_kernel;
	const struct flag_table *tm = flagtab_get(s->arch, k, FK_MMAP);
	const struct flag_table *tl = flagtab_get(s->arch, k, FK_MLOCKALL);
	const struct flag_table *t2 = flagtab_get(s->arch, k, FK_MLOCK2);
	const struct flag_table *tr = flagtab_get(s->arch, k, FK_MREMAP);
	const struct arch_flags *af = &s->af;
	g->map_shared = af->map_shared;
	g->map_private = af->map_private;
	g->map_shared_validate = af->map_shared_validate;
	g->map_anon = af->map_anonymous;
	g->map_fixed = af->map_fixed;
	g->map_noreplace = af->map_fixed_noreplace;
	g->map_locked = af->map_locked;
	g->map_populate = af->map_populate;
	g->map_lockonfault = af->map_lockonfault;
	g->map_noreserve = af->map_noreserve;
	g->map_growsdown = af->map_growsdown;
	g->map_hugetlb = af->map_hugetlb;
	g->map_bad = unused_bit(tm, 8, 26);
	g->prot_r = af->prot_read;
	g->prot_w = af->prot_write;
	g->prot_x = af->prot_exec;
	g->mcl_current = af->mcl.current;
	g->mcl_future = af->mcl.future;
	g->mcl_onfault = af->mcl.onfault;
	g->mcl_bad = unused_bit(tl, 0, 16);
	g->mlock_onfault = af->mlock_onfault;
	g->mlock2_bad = unused_bit(t2, 0, 16);
	g->mr_maymove = af->mremap_maymove;
	g->mr_fixed = af->mremap_fixed;
	g->mr_dontunmap = af->mremap_dontunmap;
	g->mr_bad = unused_bit(tr, 0, 16);
	static const enum madv adv[] = {
		MADV_X_NORMAL, MADV_X_WILLNEED, MADV_X_DONTNEED, MADV_X_DONTNEED, MADV_X_FREE,
		MADV_X_REMOVE, MADV_X_DONTFORK, MADV_X_DOFORK, MADV_X_WIPEONFORK, MADV_X_COLD,
		MADV_X_PAGEOUT, MADV_X_PAGEOUT, MADV_X_POPULATE_READ, MADV_X_POPULATE_WRITE,
		MADV_X_DONTNEED_LOCKED, MADV_X_GUARD_INSTALL, MADV_X_GUARD_REMOVE, MADV_X_SEQUENTIAL,
	};
	for (unsigned i = 0; i < sizeof(adv) / sizeof(adv[0]); i++)
		if (af->madv[adv[i]] >= 0)
			g->madv[g->nmadv++] = af->madv[adv[i]];
	g->madv[g->nmadv++] = 999; /* no such advice */
	g->pids[0] = GEN_FIRST_PID;
	g->nprocs = 1;
	g->next_pid = GEN_FIRST_PID + 1;
}

static struct task *task_of(struct gen *g, int pid)
{
	struct task *t = vmsys_task(g->s, pid, false);
	return (t && t->alive && t->mm) ? t : NULL;
}

/* drop dead processes (OOM kills) from the list */
static void prune(struct gen *g)
{
	unsigned j = 0;
	for (unsigned i = 0; i < g->nprocs; i++)
		if (i == 0 || task_of(g, g->pids[i]))
			g->pids[j++] = g->pids[i];
	g->nprocs = j;
}

static uint64_t slot_addr(struct gen *g)
{
	return ARENA + R(NSLOTS) * SLOT_PAGES * PG;
}

static uint64_t small_len(struct gen *g)
{
	unsigned r = (unsigned)R(100);
	if (r < 30)
		return PG;
	if (r < 80)
		return (1 + R(8)) * PG;
	if (r < 95)
		return (1 + R(32)) * PG;
	return (1 + R(SLOT_PAGES * 2)) * PG;
}

/* A range aimed at the interesting places of t's address space:
 * VMA starts and ends, single pages, whole VMAs, spans over two VMAs
 * or into a hole, and now and then anywhere in the arena. */
static void pick_range(struct gen *g, struct task *t, uint64_t *addr, uint64_t *len)
{
	struct mm *mm = t ? t->mm : NULL;
	/* the tree's count is the list's length (vma.c keeps both) */
	unsigned n = mm ? (unsigned)mm->vmas.count : 0;
	if (!n || P(12)) {
		*addr = slot_addr(g) + R(SLOT_PAGES) * PG;
		*len = small_len(g);
		return;
	}
	/* the k-th VMA in address order */
	struct vma *v = vma_at(&mm->vmas, R(n));
	uint64_t vp = (v->end - v->start) / PG;
	unsigned r = (unsigned)R(100);
	uint64_t start;
	if (r < 40)
		start = v->start;
	else if (r < 65)
		start = v->start + R(vp) * PG;
	else if (r < 78)
		start = v->end - PG;
	else if (r < 88 && v->start > PG)
		start = v->start - PG * (1 + R(2));
	else
		start = v->start + (vp > 1 ? (1 + R(vp - 1)) * PG : 0);
	r = (unsigned)R(100);
	uint64_t l;
	if (r < 25)
		l = PG;
	else if (r < 45)
		l = v->end > start ? v->end - start : PG;
	else if (r < 60)
		l = v->end - v->start;
	else if (r < 72 && v->next)
		l = v->next->end > start ? v->next->end - start : PG; /* over the next VMA and any hole */
	else
		l = small_len(g);
	if (P(3))
		l += 1 + R(PG - 1); /* unaligned length */
	*addr = start;
	*len = l;
}

static int pick_pid(struct gen *g)
{
	return g->pids[R(g->nprocs)];
}

static uint64_t pick_prot(struct gen *g)
{
	unsigned r = (unsigned)R(10);
	if (r < 2)
		return g->prot_r;
	if (r < 8)
		return g->prot_r | g->prot_w;
	if (r < 9)
		return 0;
	return g->prot_r | g->prot_x;
}

static void set(struct gstep *st, enum sysno sys, int pid, unsigned nargs)
{
	memset(st, 0, sizeof(*st));
	st->sys = (uint8_t)sys;
	st->pid = pid;
	st->nargs = (uint8_t)nargs;
}

static enum gen_kind pick_kind(struct gen *g)
{
	uint64_t x = R(g->wsum ? g->wsum : 1);
	for (int k = 0; k < GK_NR; k++) {
		if (x < g->w[k])
			return (enum gen_kind)k;
		x -= g->w[k];
	}
	return GK_TOUCH;
}

void gen_next(struct gen *g, struct gstep *st)
{
	unsigned step = g->step++;
	/* the file the file mappings use: fd 3 of the first process */
	if (step == 0) {
		set(st, SYS_OPENAT, GEN_FIRST_PID, 4);
		st->args[0] = (uint64_t)-100;
		st->args[2] = 2 | 0100; /* O_RDWR|O_CREAT (generic numbering) */
		st->args[3] = 0600;
		st->path = 0;
		return;
	}
	if (step == 1) {
		set(st, SYS_FTRUNCATE, GEN_FIRST_PID, 2);
		st->args[0] = 3;
		st->args[1] = FILE_SIZE;
		return;
	}
	prune(g);
	int pid = pick_pid(g);
	struct task *t = task_of(g, pid);
	uint64_t addr, len;
	enum gen_kind k = pick_kind(g);
	switch (k) {
	case GK_MMAP: {
		set(st, SYS_MMAP, pid, 6);
		bool file = P(35);
		uint64_t type = P(65) ? g->map_private : (g->map_shared_validate && P(15) ? g->map_shared_validate : g->map_shared);
		uint64_t flags = type;
		if (!file)
			flags |= g->map_anon;
		unsigned r = (unsigned)R(100);
		if (r < 60 && g->map_noreplace)
			flags |= g->map_noreplace;
		else if (r < 85)
			flags |= g->map_fixed;
		addr = P(70) ? slot_addr(g) : slot_addr(g) + R(SLOT_PAGES) * PG;
		if (t && P(25)) {
			uint64_t l2;
			pick_range(g, t, &addr, &l2); /* next to, or over, an existing VMA */
		}
		len = small_len(g);
		if (P(30)) flags |= g->map_locked;
		if (P(15)) flags |= g->map_populate;
		if (g->map_lockonfault && P(25)) flags |= g->map_lockonfault;
		if (P(5)) flags |= g->map_noreserve;
		if (P(2)) flags |= g->map_growsdown;
		if (P(1)) flags |= g->map_hugetlb;
		if (g->map_bad && P(4)) flags |= g->map_bad;
		st->args[0] = addr;
		st->args[1] = len;
		st->args[2] = pick_prot(g);
		st->args[3] = flags;
		st->args[4] = file ? 3 : (uint64_t)-1;
		st->args[5] = file ? R(FILE_SIZE / PG + 8) * PG : 0;
		return;
	}
	case GK_MUNMAP:
		pick_range(g, t, &addr, &len);
		set(st, SYS_MUNMAP, pid, 2);
		st->args[0] = addr; st->args[1] = len;
		return;
	case GK_MPROTECT:
		pick_range(g, t, &addr, &len);
		set(st, SYS_MPROTECT, pid, 3);
		st->args[0] = addr; st->args[1] = len; st->args[2] = pick_prot(g);
		return;
	case GK_MREMAP: {
		pick_range(g, t, &addr, &len);
		len = (len + PG - 1) & ~(PG - 1);
		set(st, SYS_MREMAP, pid, 4);
		uint64_t nl;
		unsigned r = (unsigned)R(100);
		if (r < 30)
			nl = len + (1 + R(8)) * PG;
		else if (r < 50 && len > PG)
			nl = len - (1 + R(len / PG - 1)) * PG;
		else
			nl = len;
		uint64_t fl = 0, na = 0;
		r = (unsigned)R(100);
		if (r < 25) {
			fl = g->mr_maymove;
		} else if (r < 45) {
			fl = g->mr_maymove | g->mr_fixed;
			na = slot_addr(g);
		} else if (r < 75 && g->mr_dontunmap) {
			fl = g->mr_maymove | g->mr_dontunmap;
			nl = len;
			if (P(30)) {
				fl |= g->mr_fixed;
				na = slot_addr(g);
			}
		} else if (r < 82) { /* invalid combinations */
			unsigned b = (unsigned)R(3);
			fl = b == 0 ? g->mr_fixed : b == 1 ? (g->mr_dontunmap ? g->mr_dontunmap : g->mr_bad) : g->mr_bad;
			na = slot_addr(g);
		}
		st->args[0] = addr; st->args[1] = len; st->args[2] = nl; st->args[3] = fl;
		if (fl & g->mr_fixed) {
			st->nargs = 5;
			st->args[4] = na;
		}
		return;
	}
	case GK_MADVISE:
		pick_range(g, t, &addr, &len);
		set(st, SYS_MADVISE, pid, 3);
		st->args[0] = addr; st->args[1] = len; st->args[2] = (uint64_t)g->madv[R(g->nmadv)];
		return;
	case GK_BRK: {
		set(st, SYS_BRK, pid, 1);
		uint64_t cur = t ? t->mm->brk : 0;
		if (!cur || P(10)) {
			st->args[0] = 0;
			return;
		}
		int64_t d = (int64_t)(R(9) * PG) - (int64_t)(3 * PG);
		uint64_t nb = (uint64_t)((int64_t)cur + d);
		if (t && nb < t->mm->start_brk)
			nb = t->mm->start_brk;
		st->args[0] = nb;
		return;
	}
	case GK_MLOCK:
	case GK_MUNLOCK:
		pick_range(g, t, &addr, &len);
		set(st, k == GK_MLOCK ? SYS_MLOCK : SYS_MUNLOCK, pid, 2);
		st->args[0] = addr; st->args[1] = len;
		return;
	case GK_MLOCK2: {
		pick_range(g, t, &addr, &len);
		set(st, SYS_MLOCK2, pid, 3);
		unsigned r = (unsigned)R(100);
		st->args[0] = addr; st->args[1] = len;
		st->args[2] = r < 55 ? g->mlock_onfault : r < 92 ? 0 : (g->mlock2_bad | (P(50) ? g->mlock_onfault : 0));
		return;
	}
	case GK_MLOCKALL: {
		set(st, SYS_MLOCKALL, pid, 1);
		uint64_t f = 0;
		unsigned bits = (unsigned)R(8);
		if (bits & 1) f |= g->mcl_current;
		if (bits & 2) f |= g->mcl_future;
		if (bits & 4) f |= g->mcl_onfault;
		if (g->mcl_bad && P(8)) f |= g->mcl_bad;
		st->args[0] = f;
		return;
	}
	case GK_MUNLOCKALL:
		set(st, SYS_MUNLOCKALL, pid, 0);
		return;
	case GK_FORK:
		if (g->nprocs >= GEN_MAX_PROCS) {
			unsigned i = 1 + (unsigned)R(g->nprocs - 1);
			set(st, SYS_EXIT_GROUP, g->pids[i], 1);
			g->pids[i] = g->pids[--g->nprocs];
			return;
		}
		set(st, SYS_FORK, pid, 0);
		st->has_val = 1;
		st->value = g->next_pid;
		g->pids[g->nprocs++] = g->next_pid++;
		return;
	case GK_EXIT:
		if (g->nprocs > 1) {
			unsigned i = 1 + (unsigned)R(g->nprocs - 1);
			set(st, SYS_EXIT_GROUP, g->pids[i], 1);
			g->pids[i] = g->pids[--g->nprocs];
			return;
		}
		/* FALLTHROUGH: nobody to end */
		/* fall through */
	case GK_TOUCH:
		pick_range(g, t, &addr, &len);
		set(st, SYS_TOUCH, pid, 3);
		st->args[0] = addr; st->args[1] = len; st->args[2] = P(50) ? ACC_WRITE : ACC_READ;
		return;
	case GK_FAULT:
		pick_range(g, t, &addr, &len);
		set(st, SYS_FAULT, pid, 2);
		st->args[0] = addr + R(4) * 0x100; st->args[1] = P(50) ? ACC_WRITE : ACC_READ;
		return;
	case GK_RECLAIM: {
		static const uint64_t n[] = { 32, 256, 4096, 1 << 20 };
		set(st, SYS_RECLAIM, 0, 1);
		st->pid = pid;
		st->args[0] = n[R(4)];
		return;
	}
	case GK_DROP_CACHES:
		set(st, SYS_DROP_CACHES, pid, 1);
		st->args[0] = P(70) ? 3 : 1 + R(2);
		return;
	case GK_NUMA_SCAN:
		set(st, SYS_NUMA_SCAN, pid, 0);
		return;
	case GK_NUMA_NODE:
		set(st, SYS_NUMA_NODE, pid, 1);
		st->args[0] = R(vmsys_numa_nodes(g->s));
		return;
	case GK_NUMA_RUN: {
		/* under a scan period, about one, a few */
		static const uint64_t ms[] = { 100, 1004, 2500, 10000 };
		set(st, SYS_NUMA_RUN, pid, 1);
		st->args[0] = ms[R(4)];
		return;
	}
	case GK_PRLIMIT: {
		set(st, SYS_PRLIMIT64, pid, 2);
		st->args[0] = 0;
		st->args[1] = 8; /* RLIMIT_MEMLOCK */
		uint64_t cur = t ? t->rlim_memlock_cur : 0, max = t ? t->rlim_memlock_max : 0;
		unsigned r = (unsigned)R(100);
		if (r < 25) {
			st->rlim_cur = 0; /* zero */
		} else if (r < 55) {
			st->rlim_cur = cur == UINT64_MAX ? (1 + R(64)) * PG : (cur / PG / 2) * PG; /* lower */
		} else if (r < 85) {
			st->rlim_cur = max; /* raise to the hard limit */
		} else {
			st->rlim_cur = (1 + R(256)) * PG;
			max = P(50) ? st->rlim_cur : UINT64_MAX; /* maybe above the hard limit: EPERM */
		}
		if (st->rlim_cur > max)
			st->rlim_cur = max;
		st->rlim_max = max;
		if (P(10) && max != UINT64_MAX)
			st->rlim_max = st->rlim_cur; /* lower the hard limit too */
		return;
	}
	case GK_CAPSET:
		set(st, SYS_CAPSET, pid, 0);
		st->args[0] = 0; /* cap_effective: all dropped, CAP_IPC_LOCK among them */
		return;
	case GK_FILE_IO:
		set(st, SYS_PREAD64, pid, 4);
		st->args[0] = 3;
		st->args[2] = (1 + R(16)) * PG;
		st->args[3] = R(FILE_SIZE / PG) * PG;
		return;
	case GK_NR:
		break;
	}
	set(st, SYS_RECLAIM, pid, 1);
	st->args[0] = 32;
}

void gstep_event(const struct gstep *st, struct event *ev)
{
	ev->type = EV_CALL;
	ev->sys = (enum sysno)st->sys;
	ev->pid = st->pid;
	ev->timestamp = -1;
	ev->nargs = st->nargs;
	memcpy(ev->args, st->args, sizeof(ev->args));
	ev->res = st->has_val ? RES_VALUE : RES_UNKNOWN;
	ev->value = st->value;
	ev->has_rlim = st->sys == SYS_PRLIMIT64;
	ev->rlim_cur = st->rlim_cur;
	ev->rlim_max = st->rlim_max;
	ev->cap_effective = st->sys == SYS_CAPSET ? st->args[0] : 0;
	ev->cap_permitted = ev->cap_effective; /* as a program dropping a capability does */
	ev->has_cap_permitted = st->sys == SYS_CAPSET;
	if (st->sys == SYS_OPENAT) {
		ev->str.p = paths[st->path & 1];
		ev->str.len = strlen(paths[st->path & 1]);
	} else {
		ev->str.p = NULL;
		ev->str.len = 0;
	}
}
