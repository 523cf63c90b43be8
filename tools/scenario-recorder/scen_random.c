/*
 * scen_random.c - the random scenario generator of the vmsim recorder.
 *
 * `recorder -G VERSION -s FIRST[-LAST] -o DIR` records the random traces of
 * those seeds (`-s` alone is version 2, `-S` is version 3, as before).  Every
 * choice is made from the seed and the real /proc state, and every result
 * and expectation is the real kernel's.  The child never touches what would
 * kill it (unreadable pages, file pages beyond EOF, a stack growth the kernel
 * refuses) and never operates on its own image at 0x400000.
 *
 * The version is part of the scenario's identity: it is in the scenario name
 * (r2-NNNN, g3-NNNN), in the header's `# description:` line, and it selects
 * the parameters below, so a seed of an old version re-records byte for byte
 * as it first did.  A new version is a new `struct genver` and, where its
 * random stream differs, a branch on `g->ver`; never change an old one.
 *
 *  v2  anonymous and file (tmpfs /dev/shm, ext4 /tmp) mappings, private and
 *      shared, read-only fds, ftruncate/pwrite64/fallocate/close/unlink,
 *      every mmap flag of interest (and invalid ones), munmap / mprotect /
 *      mlock / munlock / madvise over partial ranges and across holes,
 *      mremap in all its forms, mlockall with every flag combination,
 *      prlimit64, up to two forks, touches; 60% of the seeds make no READ
 *      touch of an absent private anonymous page.
 *  v3  what v2 rarely reaches: MAP_GROWSDOWN mappings and growth touches
 *      below them (where expand_downwards() / acct_stack_growth() succeed,
 *      computed from smaps and VmLck), mremap of tmpfs, ext4 and shared
 *      mappings, long runs (200-400 steps) over a field of small adjacent
 *      VMAs with ranges over up to six of them, MADV_COLD / MADV_PAGEOUT
 *      and re-faults, MAP_POPULATE file mappings past EOF, read-only
 *      private file mappings made writable and written (COW), forks whose
 *      child works on what it inherited (up to three), mlockall(MCL_FUTURE
 *      [|MCL_ONFAULT]) followed by mmap and mremap growth; 40% of the seeds
 *      avoid anonymous read faults.
 *
 * Expectations: as the recorder writes them after every step, plus
 * expect(page) for the operated range and one page either side, and for the
 * pages of every VMA after lock-related steps.  The header says
 * `zero-page-sensitive: yes` when a snapshot ever saw the shared zero page
 * mapped, i.e. when the trace would differ on a kernel without it.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "recorder.h"

#define P 4096L
#define K 1024L
#define M (1024L * 1024L)
#define IMG_START 0x400000L
#define IMG_END 0x420000L
#define FILE_PAGES 16
#define GUARD_GAP (256 * P)      /* stack_guard_gap default */
#define STACK_LIMIT (8 * M)      /* RLIMIT_STACK the recorder runs with */
#define FIELD 0x7ffff0000000L    /* the small-VMA field */
#define STACKS 0x7fffe0000000L   /* growsdown mappings, far from everything */
#define MAXV 200

enum { F_SHM, F_EXT4 };

struct rfile {
	long fd;        /* -1 when closed */
	int kind;
	bool ro;
	unsigned long ino;
	long size;
	char path[64];
	bool linked;
};

struct rvma {
	long s, e, off;
	char perm[5];
	unsigned long ino;
	bool gd, lo;
	long rss;
};

/* what differs between versions and is only a number */
struct genver {
	int ver;
	const char *prefix;           /* scenario name r2- / g3- */
	const char *what;             /* for the description line */
	int maxv;                     /* VMAs the generator looks at */
	unsigned range_inside, range_span; /* pick_range(): % inside one VMA, % across up to range_span + 1 */
	long range_max;               /* longest range */
	unsigned fixed_kinds;         /* pick_fixed(): 3 without "just below" */
	int max_forks;
	unsigned noanonread_pct, file_pct;
};

static const struct genver genvers[] = {
	{ 2, "r2", "recorder generator v2 (touch avoids anonymous read faults in 60% of seeds)",
	  128, 55, 2, 64 * P, 3, 2, 60, 60 },
	{ 3, "g3", "recorder generator v3 (growsdown, file mremap, small-VMA fields, cold/pageout, COW, fork, MCL_FUTURE)",
	  MAXV, 45, 6, 96 * P, 4, 3, 40, 75 },
};

struct G {
	int ver;
	const struct genver *k;
	struct R *r;
	const struct scen *sc;
	struct rfile f[4];
	int nf;
	int depth;
	int forks;
	bool noanonread;
	bool cap;
	long rlim_cur, rlim_max; /* -1 infinity */
	struct rvma v[MAXV];
	int nv;
};

static unsigned long R(struct G *g, unsigned long n) { return rnd(g->r, n); }
static bool chance(struct G *g, unsigned pct) { return R(g, 100) < pct; }

static bool flag_in(const char *fl, const char *f)
{
	size_t l = strlen(f);
	for (const char *p = fl; (p = strstr(p, f)); p += l)
		if ((p == fl || p[-1] == ' ') && (p[l] == 0 || p[l] == ' ' || p[l] == '\n'))
			return true;
	return false;
}

static void load_vmas(struct G *g)
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%d/smaps", rec_pid(g->r));
	FILE *fp = fopen(path, "r");
	g->nv = 0;
	if (!fp) return;
	struct rvma *cur = NULL;
	while (fgets(line, sizeof line, fp)) {
		unsigned long s, e, off, ino;
		unsigned maj, min;
		char perm[5];
		long kb;
		if (sscanf(line, "%lx-%lx %4s %lx %x:%x %lu", &s, &e, perm, &off, &maj, &min, &ino) == 7) {
			cur = NULL;
			if (s >= 0x800000000000UL || (long)s == IMG_START || g->nv >= g->k->maxv) continue;
			cur = &g->v[g->nv++];
			memset(cur, 0, sizeof *cur);
			cur->s = (long)s; cur->e = (long)e; cur->off = (long)off; cur->ino = ino;
			memcpy(cur->perm, perm, 5);
		} else if (cur && sscanf(line, "Rss: %ld kB", &kb) == 1) {
			cur->rss = kb;
		} else if (cur && !strncmp(line, "VmFlags:", 8)) {
			cur->gd = flag_in(line + 8, "gd");
			cur->lo = flag_in(line + 8, "lo");
		}
	}
	fclose(fp);
}

static long vmlck_pages(struct G *g)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", rec_pid(g->r));
	FILE *f = fopen(path, "r");
	long v = 0;
	if (!f) return 0;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "VmLck:", 6)) v = strtol(line + 6, NULL, 10) / 4;
	fclose(f);
	return v;
}

static struct rfile *file_of(struct G *g, unsigned long ino)
{
	if (!ino) return NULL;
	for (int i = 0; i < g->nf; i++)
		if (g->f[i].ino == ino) return &g->f[i];
	return NULL;
}

static void check_zero(struct G *g)
{
	char path[64];
	load_vmas(g);
	snprintf(path, sizeof path, "/proc/%d/pagemap", rec_pid(g->r));
	int pm = open(path, O_RDONLY), kf = open("/proc/kpageflags", O_RDONLY);
	if (pm >= 0 && kf >= 0)
		for (int i = 0; i < g->nv; i++)
			for (long a = g->v[i].s; a < g->v[i].e; a += P) {
				uint64_t e = 0, fl = 0;
				if (pread(pm, &e, 8, (a / P) * 8) != 8 || !(e >> 63)) continue;
				uint64_t pfn = e & ((1ULL << 55) - 1);
				if (pread(kf, &fl, 8, (off_t)(pfn * 8)) == 8 && (fl >> 24 & 1)) rec_zero_page_seen(g->r);
			}
	if (pm >= 0) close(pm);
	if (kf >= 0) close(kf);
}

static bool all_present(struct G *g, long a, long len)
{
	char path[64];
	bool all = true;
	snprintf(path, sizeof path, "/proc/%d/pagemap", rec_pid(g->r));
	int pm = open(path, O_RDONLY);
	if (pm < 0) return false;
	for (long x = a; x < a + len; x += P) {
		uint64_t e = 0;
		if (pread(pm, &e, 8, (x / P) * 8) != 8 || !(e >> 63)) all = false;
	}
	close(pm);
	return all;
}

static void pages_range(struct G *g, long a, long len)
{
	if (len <= 0) return;
	long s = a - P, e = a + len + P;
	if (e - s > 40 * P) e = s + 40 * P;
	S_pages(g->r, s, e - s);
}

static void pages_all(struct G *g)
{
	load_vmas(g);
	int n = g->nv;
	long s[MAXV], l[MAXV];
	for (int i = 0; i < n; i++) {
		s[i] = g->v[i].s;
		l[i] = g->v[i].e - g->v[i].s;
		if (l[i] > 24 * P) l[i] = 24 * P;
	}
	for (int i = 0; i < n; i++) S_pages(g->r, s[i], l[i]);
}

/* ---- choices ---- */

static int pick_vma(struct G *g, bool (*pred)(struct G *, struct rvma *))
{
	load_vmas(g);
	int cand[MAXV], n = 0;
	for (int i = 0; i < g->nv; i++)
		if (!pred || pred(g, &g->v[i])) cand[n++] = i;
	if (!n) return -1;
	return cand[R(g, (unsigned long)n)];
}

static bool is_file(struct G *g, struct rvma *v) { (void)g; return v->ino != 0; }
static bool is_gd(struct G *g, struct rvma *v) { (void)g; return v->gd; }
static bool is_fileish(struct G *g, struct rvma *v) { (void)g; return v->ino != 0 || v->perm[3] == 's'; }
static bool is_priv_file(struct G *g, struct rvma *v) { (void)g; return v->ino != 0 && v->perm[3] == 'p'; }

/* a range inside one VMA, across VMAs and holes, or from a hole */
static void pick_range(struct G *g, long *addr, long *len)
{
	load_vmas(g);
	if (!g->nv) { *addr = 0x7ffff7ff0000L; *len = (1 + (long)R(g, 4)) * P; return; }
	int i = (int)R(g, (unsigned long)g->nv);
	struct rvma *v = &g->v[i];
	long pages = (v->e - v->s) / P;
	unsigned k = (unsigned)R(g, 100);
	if (k < g->k->range_inside) {
		long off = (long)R(g, (unsigned long)pages);
		*addr = v->s + off * P;
		*len = (1 + (long)R(g, (unsigned long)(pages - off))) * P;
		if (chance(g, 25)) { *addr = v->s; *len = v->e - v->s; }
	} else if (k < 85) {
		long off = (long)R(g, (unsigned long)pages);
		*addr = v->s + off * P;
		int j = i + 1 + (int)R(g, g->k->range_span);
		long end;
		if (j < g->nv) end = g->v[j].s + (long)(1 + R(g, (unsigned long)((g->v[j].e - g->v[j].s) / P))) * P;
		else end = v->e + (long)(1 + R(g, 3)) * P;
		*len = end - *addr;
	} else {
		long before = (long)(1 + R(g, 3)) * P;
		*addr = v->s - before;
		*len = before + (long)(1 + R(g, (unsigned long)pages)) * P;
	}
	if (*addr < IMG_END + 16 * P) { *addr = v->s; *len = v->e - v->s; }
	if (*len > g->k->range_max) *len = g->k->range_max;
}

static long pick_fixed(struct G *g, long len)
{
	load_vmas(g);
	if (!g->nv) return 0x7ffff7fe0000L;
	unsigned k = (unsigned)R(g, g->k->fixed_kinds);
	int i = (int)R(g, (unsigned long)g->nv);
	long a;
	if (k == 0) a = g->v[i].s + (long)R(g, (unsigned long)((g->v[i].e - g->v[i].s) / P)) * P;
	else if (k == 1) a = g->v[i].e + (long)R(g, 3) * P;
	else if (k == 2 && g->k->fixed_kinds > 3) a = g->v[i].s - len - (long)R(g, 2) * P; /* just below: may merge */
	else a = g->v[0].s - len - (long)R(g, 8) * P;
	if (a < IMG_END + 16 * P) a = 0x7ffff7fe0000L;
	return a;
}

static long anon_prot(struct G *g)
{
	static const long prots[] = {0, 1, 3, 3, 3, 5, 7, 2};
	long p = chance(g, 55) ? 3 : prots[R(g, 8)];
	if (g->noanonread && p && !(p & 2)) p = 3;
	return p;
}

static struct rfile *pick_file(struct G *g)
{
	if (!g->nf) return NULL;
	struct rfile *f = &g->f[R(g, (unsigned long)g->nf)];
	return f->fd >= 0 ? f : NULL;
}

/* ---- operations ---- */

static long do_mmap(struct G *g, long addr, long len, long prot, long fl, long fd, long off)
{
	long res = S_mmap(g->r, addr, len, prot, fl, fd, off);
	if (res < 0 && res > -4096) res = 0;
	if (res > 0) pages_range(g, res, len);
	else if (fl & 0x10) pages_range(g, addr, len);
	return res;
}

static const long prots[] = {0, 1, 3, 3, 3, 5, 7, 2};

/* v2: any mapping, often an invalid one */
static void op_mmap_v2(struct G *g)
{
	long np = 1 + (long)R(g, 12);
	long prot = prots[R(g, 8)];
	if (chance(g, 50)) prot = 3;
	long fl = 0, fd = -1, off = 0;
	struct rfile *f = NULL;
	unsigned kind = (unsigned)R(g, 10);
	if (kind >= 6 && g->nf) {
		f = &g->f[R(g, (unsigned long)g->nf)];
		if (f->fd < 0) f = NULL;
	}
	if (f) {
		fd = f->fd;
		fl = chance(g, 55) ? 0x01 : 0x02;
		off = (long)R(g, FILE_PAGES) * P;
		if (chance(g, 5)) off += 512; /* unaligned: EINVAL */
	} else {
		fl = (chance(g, 70) ? 0x02 : 0x01) | 0x20;
	}
	if (chance(g, 6) && (fl & 3) == 1) fl |= 0x03;            /* MAP_SHARED_VALIDATE */
	if (chance(g, 22)) fl |= 0x2000;                         /* MAP_LOCKED */
	if (chance(g, 15)) fl |= 0x8000;                         /* MAP_POPULATE */
	if (chance(g, 10)) fl |= 0x10000;                        /* MAP_NONBLOCK */
	if (chance(g, 8)) fl |= 0x4000;                          /* MAP_NORESERVE */
	long addr = 0;
	unsigned fx = (unsigned)R(g, 100);
	if (fx < 15) { fl |= 0x10; addr = pick_fixed(g, np * P); }
	else if (fx < 25) { fl |= 0x100000; addr = pick_fixed(g, np * P); }
	else if (fx < 28) addr = pick_fixed(g, np * P); /* hint */
	unsigned bad = (unsigned)R(g, 100);
	if (bad < 2) fl &= ~3L;                                  /* no type: EINVAL */
	else if (bad < 4 && (fl & 3) == 3) fl |= 0x800000;       /* unknown flag with VALIDATE */
	else if (bad < 5) np = 0;                                /* length 0: EINVAL */
	else if (bad < 6 && (fl & 0x10)) addr += 100;            /* unaligned fixed: EINVAL */
	do_mmap(g, addr, np * P, prot, fl, fd, off);
}

/* v3: mostly valid mappings, growsdown and MAP_STACK among them */
static void op_mmap(struct G *g)
{
	if (g->ver == 2) { op_mmap_v2(g); return; }
	long np = 1 + (long)R(g, chance(g, 60) ? 4 : 12);
	long prot, fl, fd = -1, off = 0;
	struct rfile *f = chance(g, 45) ? pick_file(g) : NULL;
	if (f) {
		static const long fprots[] = {1, 3, 3, 5, 0, 7};
		prot = fprots[R(g, 6)];
		fd = f->fd;
		fl = chance(g, 50) ? 0x01 : 0x02;
		off = (long)R(g, FILE_PAGES) * P;
		if (chance(g, 3)) off += 512;
		if (chance(g, 4)) fl |= 0x100; /* GROWSDOWN on a file: EINVAL */
	} else {
		prot = anon_prot(g);
		fl = (chance(g, 80) ? 0x02 : 0x01) | 0x20;
		if (chance(g, 12)) fl |= 0x100; /* MAP_GROWSDOWN (shared: EINVAL) */
		if (chance(g, 1) && !getenv("VMREC3_NO_MAP_STACK")) fl |= 0x20000; /* MAP_STACK (VM_NOHUGEPAGE on 6.7+); the variable keeps the random stream */
	}
	if (chance(g, 20)) fl |= 0x2000;
	if (chance(g, 15)) fl |= 0x8000;
	if (chance(g, 6)) fl |= 0x10000;
	if (chance(g, 6)) fl |= 0x4000;
	long addr = 0;
	unsigned fx = (unsigned)R(g, 100);
	if (fx < 20) { fl |= 0x10; addr = pick_fixed(g, np * P); }
	else if (fx < 32) { fl |= 0x100000; addr = pick_fixed(g, np * P); }
	else if (fx < 36) addr = pick_fixed(g, np * P);
	if (chance(g, 2)) np = 0;
	do_mmap(g, addr, np * P, prot, fl, fd, off);
}
/* a file mapping that runs past EOF, populated and maybe locked */
static void op_mmap_eof(struct G *g)
{
	struct rfile *f = pick_file(g);
	if (!f) return;
	long fpages = (f->size + P - 1) / P;
	long off = fpages > 0 ? (long)R(g, (unsigned long)fpages) * P : 0;
	long np = (fpages - off / P) + 1 + (long)R(g, 6);
	long fl = (chance(g, 50) ? 0x01 : 0x02) | 0x8000;
	if (chance(g, 40)) fl |= 0x2000;
	if (chance(g, 10)) fl |= 0x10000;
	long prot = f->ro ? (chance(g, 80) ? 1 : 3) : (chance(g, 70) ? 3 : 1);
	if (f->ro && (fl & 3) == 1) prot = 1;
	long addr = 0;
	if (chance(g, 30)) { fl |= 0x100000; addr = pick_fixed(g, np * P); }
	do_mmap(g, addr, np * P, prot, fl, f->fd, off);
}

static void op_munmap(struct G *g)
{
	long a, l;
	pick_range(g, &a, &l);
	if (chance(g, g->ver == 2 ? 4 : 3)) l = 0;
	S_munmap(g->r, a, l);
	pages_range(g, a, l);
}

static void op_mprotect(struct G *g)
{
	long a, l;
	pick_range(g, &a, &l);
	long p = prots[R(g, 8)];
	if (chance(g, g->ver == 2 ? 3 : 2)) p = 0x10; /* invalid bit */
	S_mprotect(g->r, a, l, p);
	pages_all(g);
}

static void op_mlock(struct G *g)
{
	long a, l;
	pick_range(g, &a, &l);
	unsigned k = (unsigned)R(g, 10);
	if (k < 4) S_mlock(g->r, a, l);
	else if (k < (g->ver == 2 ? 8u : 9u)) S_mlock2(g->r, a, l, chance(g, 50) ? 1 : 0);
	else if (g->ver == 2) {
		static const long bad[] = {2, 3, -1, 0x100};
		S_mlock2(g->r, a, l, bad[R(g, 4)]);
	} else S_mlock2(g->r, a, l, 2);
	pages_all(g);
}

static void op_munlock(struct G *g)
{
	long a, l;
	pick_range(g, &a, &l);
	S_munlock(g->r, a, l);
	pages_all(g);
}

static void op_madvise(struct G *g)
{
	/* the last four entries weigh the advice each version aims at */
	static const long adv2[] = {4, 24, 8, 3, 20, 21, 9, 10, 11, 18, 19, 0, 1, 2, 22, 23, 4, 24, 22, 23};
	static const long adv3[] = {4, 24, 8, 3, 20, 21, 9, 10, 11, 18, 19, 0, 1, 2, 22, 23, 4, 20, 21, 23};
	const long *adv = g->ver == 2 ? adv2 : adv3;
	long a, l;
	pick_range(g, &a, &l);
	long v = adv[R(g, sizeof adv2 / sizeof adv2[0])];
	if (g->ver == 2 && chance(g, 4)) v = chance(g, 50) ? 6 : 0x63; /* invalid advice */
	if (g->ver > 2 && v == 22 && g->noanonread) v = 23;
	S_madvise(g->r, a, l, v);
	pages_all(g);
}

/* touch pages of one VMA that the kernel serves without a signal */
static void touch_vma(struct G *g, struct rvma *v, long off, long len, int mode)
{
	if (v->perm[0] != 'r' && v->perm[1] != 'w' && v->perm[2] != 'x') return;
	if (mode == A_WRITE && v->perm[1] != 'w') mode = A_READ;
	if (v->ino) {
		struct rfile *f = file_of(g, v->ino);
		if (!f) return;
		long lim = v->s + (f->size - v->off + P - 1) / P * P;
		if (f->size <= v->off) return;
		if (v->s + off >= lim) return;
		if (v->s + off + len > lim) len = lim - v->s - off;
	}
	if (len <= 0) return;
	if (mode == A_READ && g->noanonread && !v->ino && v->perm[3] == 'p' &&
	    !all_present(g, v->s + off, len)) {
		if (v->perm[1] != 'w') return;
		mode = A_WRITE;
	}
	S_touch(g->r, v->s + off, len, mode);
	pages_range(g, v->s + off, len);
}

/* a random VMA (index, copy, pages) and a range [off, off + len) in it, in pages and bytes */
static int pick_vma_range(struct G *g, struct rvma *v, long *pages, long *off, long *len)
{
	int i = pick_vma(g, NULL);
	if (i < 0) return -1;
	*v = g->v[i];
	*pages = (v->e - v->s) / P;
	*off = (long)R(g, (unsigned long)*pages);
	*len = (1 + (long)R(g, (unsigned long)(*pages - *off))) * P;
	return i;
}

/* v2: a touch of a VMA that can be touched, clipped at EOF */
static void op_touch_v2(struct G *g)
{
	load_vmas(g);
	int cand[MAXV], n = 0;
	for (int i = 0; i < g->nv; i++) {
		struct rvma *v = &g->v[i];
		if (v->perm[0] != 'r' && v->perm[1] != 'w') continue;
		struct rfile *f = file_of(g, v->ino);
		if (v->ino && (!f || v->off >= f->size)) continue;
		cand[n++] = i;
	}
	if (!n) return;
	struct rvma *v = &g->v[cand[R(g, (unsigned long)n)]];
	long end = v->e;
	if (v->ino) {
		struct rfile *f = file_of(g, v->ino);
		long lim = v->s + (f->size - v->off + P - 1) / P * P;
		if (lim < end) end = lim;
	}
	long pages = (end - v->s) / P;
	long off = (long)R(g, (unsigned long)pages);
	long len = (1 + (long)R(g, (unsigned long)(pages - off))) * P;
	if (chance(g, 25)) { off = 0; len = pages * P; }
	int mode = A_READ;
	if (v->perm[1] == 'w' && (v->perm[0] != 'r' || chance(g, 55))) mode = A_WRITE;
	if (mode == A_READ && g->noanonread && !v->ino && v->perm[3] == 'p' &&
	    !all_present(g, v->s + off * P, len)) {
		if (v->perm[1] != 'w') return;
		mode = A_WRITE;
	}
	S_touch(g->r, v->s + off * P, len, mode);
	pages_range(g, v->s + off * P, len);
}

static void op_touch(struct G *g)
{
	if (g->ver == 2) { op_touch_v2(g); return; }
	struct rvma v;
	long pages, off, len;
	int i = pick_vma_range(g, &v, &pages, &off, &len);
	if (i < 0) return;
	if (chance(g, 25)) { off = 0; len = pages * P; }
	int mode = v.perm[1] == 'w' && (v.perm[0] != 'r' || chance(g, 55)) ? A_WRITE : A_READ;
	touch_vma(g, &v, off * P, len, mode);
}

/* can the kernel grow the growsdown VMA v down to addr? (expand_downwards,
 * acct_stack_growth, mlock_future_ok) */
static bool can_grow(struct G *g, int i, long addr)
{
	struct rvma *v = &g->v[i];
	if (addr >= v->s || addr < 0x10000) return false;
	if (i > 0) {
		struct rvma *p = &g->v[i - 1];
		if (p->e > addr) return false;
		bool acc = strncmp(p->perm, "---", 3) != 0;
		if (!p->gd && acc && addr - p->e < GUARD_GAP) return false;
	} else if (addr - IMG_END < GUARD_GAP) {
		return false; /* the image below is accessible */
	}
	if (v->e - addr > STACK_LIMIT) return false;
	long grow = (v->s - addr) / P;
	if (v->lo && !g->cap) {
		if (g->rlim_cur >= 0 && vmlck_pages(g) + grow > g->rlim_cur / P) return false;
	}
	return true;
}

/* a touch just below a growsdown VMA (stack growth), or inside it */
static void op_stack(struct G *g)
{
	int i = pick_vma(g, is_gd);
	if (i < 0) {
		/* make one: far from everything, or top-down */
		long np = 1 + (long)R(g, 4);
		long fl = 0x02 | 0x20 | 0x100;
		long addr = 0;
		if (chance(g, 70)) { fl |= chance(g, 50) ? 0x100000 : 0x10; addr = STACKS - (long)R(g, 8) * 0x400000L - np * P; }
		if (chance(g, 25)) fl |= 0x2000;
		if (chance(g, 10)) fl |= 0x8000;
		long prot = g->noanonread ? 3 : (chance(g, 85) ? 3 : 1);
		do_mmap(g, addr, np * P, prot, fl, -1, 0);
		return;
	}
	struct rvma v = g->v[i];
	unsigned k = (unsigned)R(g, 100);
	if (k < 60) {
		long below = (1 + (long)R(g, chance(g, 70) ? 4 : 40)) * P;
		long addr = v.s - below;
		if (!can_grow(g, i, addr)) {
			S_note(g->r, "growth below would fail (guard gap, RLIMIT_STACK or RLIMIT_MEMLOCK): touch inside");
			long pages = (v.e - v.s) / P;
			touch_vma(g, &v, 0, (1 + (long)R(g, (unsigned long)pages)) * P, A_WRITE);
			return;
		}
		if (v.perm[0] != 'r' && v.perm[1] != 'w') return;
		int mode = v.perm[1] == 'w' ? A_WRITE : A_READ;
		if (mode == A_WRITE && !g->noanonread && chance(g, 25) && v.perm[0] == 'r') mode = A_READ;
		if (mode == A_READ && g->noanonread) return;
		long len = below + (chance(g, 50) ? (long)R(g, (unsigned long)((v.e - v.s) / P + 1)) * P : 0);
		if (chance(g, 20)) len = P;
		S_touch(g->r, addr, len, mode);
		pages_range(g, addr, len);
	} else if (k < 70) {
		/* mprotect with PROT_GROWSDOWN from inside: extends to the VMA start */
		long pages = (v.e - v.s) / P;
		long off = (long)R(g, (unsigned long)pages);
		long p = chance(g, 50) ? 1 : 3;
		if (g->noanonread) p = 3;
		S_mprotect(g->r, v.s + off * P, P, p | 0x01000000);
		pages_all(g);
	} else if (k < 82) {
		long pages = (v.e - v.s) / P;
		long off = (long)R(g, (unsigned long)pages);
		if (chance(g, 50)) S_mlock(g->r, v.s + off * P, (pages - off) * P);
		else S_mlock2(g->r, v.s, v.e - v.s, chance(g, 50) ? 1 : 0);
		pages_all(g);
	} else if (k < 88) {
		S_munlock(g->r, v.s, v.e - v.s);
		pages_all(g);
	} else if (k < 94) {
		/* split it */
		long pages = (v.e - v.s) / P;
		if (pages < 2) return;
		long off = 1 + (long)R(g, (unsigned long)(pages - 1));
		if (chance(g, 50)) S_munmap(g->r, v.s + off * P, P);
		else S_munmap(g->r, v.s, off * P);
		pages_range(g, v.s, v.e - v.s);
	} else {
		/* mlock the hole below it: ENOMEM (GUP does not grow stacks) */
		S_mlock(g->r, v.s - 2 * P, 3 * P);
		pages_all(g);
	}
}

static void op_mremap_on(struct G *g, int i)
{
	struct rvma v = g->v[i];
	long pages = (v.e - v.s) / P;
	long off = chance(g, 60) ? 0 : (long)R(g, (unsigned long)pages);
	long old = v.s + off * P;
	long oldlen = (1 + (long)R(g, (unsigned long)(pages - off))) * P;
	bool v2 = g->ver == 2;
	if (chance(g, v2 ? 40 : 50)) oldlen = (pages - off) * P;
	if (chance(g, v2 ? 8 : 5)) oldlen += (long)(1 + R(g, 3)) * P; /* beyond the VMA: EFAULT */
	long newlen;
	/* v2: shrink, same, grow, grow in quarters; v3 in tenths */
	unsigned k = (unsigned)R(g, v2 ? 4 : 10);
	if (k < (v2 ? 1u : 3u)) newlen = oldlen > P ? oldlen - (long)(1 + R(g, (unsigned long)(oldlen / P - 1))) * P : oldlen;
	else if (k < (v2 ? 2u : 5u)) newlen = oldlen;
	else newlen = oldlen + (long)(1 + R(g, v2 ? 6 : 8)) * P;
	long fl = 0, na = 0;
	unsigned f = (unsigned)R(g, 100);
	if (f < 25) fl = 0;
	else if (f < 55) fl = 1;
	else if (f < 75) { fl = 3; na = pick_fixed(g, newlen); }
	else if (f < (v2 ? 87u : 92u)) { fl = 5; newlen = oldlen; if (chance(g, v2 ? 40 : 50)) { fl = 7; na = pick_fixed(g, newlen); } }
	else if (!v2 || f < 90) { fl = 1; oldlen = 0; old = v.s; } /* duplicate (shared only) */
	else if (f < 93) fl = 2;          /* FIXED without MAYMOVE: EINVAL */
	else if (f < 96) fl = 4;          /* DONTUNMAP without MAYMOVE: EINVAL */
	else if (f < 98) { fl = 5; newlen = oldlen + P; } /* DONTUNMAP with a different size: EINVAL */
	else fl = 8;                      /* unknown flag: EINVAL */
	if ((fl & 2) && na < IMG_END + 16 * P) na = 0x7ffff7fe0000L;
	long res = S_mremap(g->r, old, oldlen, newlen, fl, na);
	if (res < 0 && res > -4096) res = 0;
	if (res > 0) pages_range(g, res, newlen);
	pages_range(g, old, oldlen > newlen ? oldlen : newlen);
}

static void op_mremap(struct G *g)
{
	if (g->ver == 2) {
		load_vmas(g);
		if (g->nv) op_mremap_on(g, (int)R(g, (unsigned long)g->nv));
		return;
	}
	int i = pick_vma(g, chance(g, 65) ? is_fileish : NULL);
	if (i < 0) i = pick_vma(g, NULL);
	if (i < 0) return;
	op_mremap_on(g, i);
}

/* MADV_COLD / MADV_PAGEOUT, then maybe fault the range again */
static void op_cold(struct G *g)
{
	int i = pick_vma(g, chance(g, 60) ? is_file : NULL);
	if (i < 0) return;
	struct rvma v = g->v[i];
	long pages = (v.e - v.s) / P;
	long off = chance(g, 50) ? 0 : (long)R(g, (unsigned long)pages);
	long len = (pages - off) * P;
	if (chance(g, 30)) len = (1 + (long)R(g, (unsigned long)(pages - off))) * P;
	S_madvise(g->r, v.s + off * P, len, chance(g, 60) ? 21 : 20);
	pages_all(g);
	if (chance(g, 65)) {
		int mode = v.perm[1] == 'w' && chance(g, 40) ? A_WRITE : A_READ;
		touch_vma(g, &v, off * P, len, mode);
	}
}

/* a read-only private file mapping, faulted, maybe locked, made writable, written */
static void op_cow(struct G *g)
{
	int i = chance(g, 50) ? pick_vma(g, is_priv_file) : -1;
	struct rvma v;
	if (i < 0) {
		struct rfile *f = pick_file(g);
		if (!f || f->size < P) return;
		long fpages = (f->size + P - 1) / P;
		long off = (long)R(g, (unsigned long)fpages);
		long np = 1 + (long)R(g, (unsigned long)(fpages - off + (chance(g, 20) ? 2 : 0)));
		long fl = 0x02;
		if (chance(g, 25)) fl |= 0x2000;
		if (chance(g, 15)) fl |= 0x8000;
		long res = do_mmap(g, 0, np * P, 1, fl, f->fd, off * P);
		if (res <= 0) return;
		load_vmas(g);
		i = -1;
		for (int j = 0; j < g->nv; j++)
			if (g->v[j].s <= res && res < g->v[j].e) i = j;
		if (i < 0) return;
	}
	v = g->v[i];
	long pages = (v.e - v.s) / P;
	touch_vma(g, &v, 0, pages * P, A_READ);
	if (chance(g, 35)) {
		if (chance(g, 50)) S_mlock(g->r, v.s, v.e - v.s);
		else S_mlock2(g->r, v.s, v.e - v.s, 1);
		pages_all(g);
	}
	long off = chance(g, 50) ? 0 : (long)R(g, (unsigned long)pages);
	S_mprotect(g->r, v.s + off * P, (pages - off) * P, chance(g, 80) ? 3 : 7);
	pages_all(g);
	load_vmas(g);
	for (int j = 0; j < g->nv; j++)
		if (g->v[j].s <= v.s + off * P && v.s + off * P < g->v[j].e) {
			struct rvma w = g->v[j];
			long wp = (w.e - w.s) / P;
			long o = (long)R(g, (unsigned long)wp);
			touch_vma(g, &w, o * P, (1 + (long)R(g, (unsigned long)(wp - o))) * P, A_WRITE);
			break;
		}
	if (chance(g, 30)) {
		S_mprotect(g->r, v.s, v.e - v.s, 1);
		pages_all(g);
	}
}

/* mlockall(MCL_FUTURE[|MCL_ONFAULT]) and growth */
static void op_future(struct G *g)
{
	long f = 2;
	if (chance(g, 40)) f |= 4;
	if (chance(g, 30)) f |= 1;
	S_mlockall(g->r, f);
	pages_all(g);
	int n = 1 + (int)R(g, 3);
	for (int s = 0; s < n; s++) {
		unsigned k = (unsigned)R(g, 10);
		if (k < 4) {
			int i = pick_vma(g, NULL);
			if (i < 0) continue;
			struct rvma v = g->v[i];
			long pages = (v.e - v.s) / P;
			long fl = chance(g, 50) ? 1 : 0;
			long na = 0;
			if (chance(g, 15)) { fl = 3; na = pick_fixed(g, (pages + 4) * P); }
			long nl = (pages + 1 + (long)R(g, 6)) * P;
			long res = S_mremap(g->r, v.s, v.e - v.s, nl, fl, na);
			if (res < 0 && res > -4096) res = 0;
			if (res > 0) pages_range(g, res, nl);
			pages_range(g, v.s, nl);
		} else if (k < 8) {
			op_mmap(g);
		} else if (k < 9) {
			op_stack(g);
		} else {
			op_touch(g);
		}
	}
	if (chance(g, 35)) { S_munlockall(g->r); pages_all(g); }
}

static void op_file(struct G *g)
{
	struct rfile *f = pick_file(g);
	if (!f) return;
	unsigned k = (unsigned)R(g, 10);
	bool v2 = g->ver == 2;
	if (f->ro && !v2) k = 9;
	if (k < 3) {
		long sz = (long)R(g, FILE_PAGES + 1) * P;
		if (chance(g, 20)) sz += 100;
		if (S_ftruncate(g->r, f->fd, sz) == 0) {
			for (int i = 0; i < g->nf; i++)
				if (g->f[i].ino == f->ino) g->f[i].size = sz;
		}
		pages_all(g);
	} else if (k < 5) {
		long l = (1 + (long)R(g, 3)) * P, o = (long)R(g, FILE_PAGES) * P;
		long w = S_pwrite(g->r, f->fd, l, o);
		if (w > 0 && o + w > f->size)
			for (int i = 0; i < g->nf; i++)
				if (g->f[i].ino == f->ino) g->f[i].size = o + w;
		pages_all(g);
	} else if (k < 8) {
		long o = (long)R(g, FILE_PAGES) * P, l = (1 + (long)R(g, 4)) * P;
		unsigned m = (unsigned)R(g, 4);
		long mode = m < 2 ? 3 : m == 2 ? 1 : 0;
		if (S_fallocate(g->r, f->fd, mode, o, l) == 0 && !(mode & 1) && o + l > f->size)
			for (int i = 0; i < g->nf; i++)
				if (g->f[i].ino == f->ino) g->f[i].size = o + l;
		pages_all(g);
	} else if (k < 9 && g->depth == 0 && (v2 || chance(g, 30))) {
		S_close(g->r, f->fd);
		f->fd = -1;
	} else if (f->linked && g->depth == 0 && (v2 || chance(g, 30))) {
		S_unlink(g->r, f->path);
		f->linked = false;
	}
}

static void op_prlimit(struct G *g)
{
	static const long vals[] = {0, 4 * K, 16 * K, 64 * K, 256 * K, 8 * M};
	/* the recorder lacks CAP_SYS_RESOURCE: the hard limit is never raised
	 * (that would be EPERM, which the trace header cannot explain) */
	long cur = vals[R(g, 6)];
	long max = g->rlim_max;
	unsigned k = (unsigned)R(g, 10);
	if (k < 2) max = cur;
	if (g->ver == 2) {
		if (k == 2) max = vals[R(g, 6)];
		if (max > g->rlim_max) max = g->rlim_max;
		if (cur > max && !chance(g, 20)) cur = max; /* else EINVAL */
	} else {
		if (g->rlim_max >= 0 && max > g->rlim_max) max = g->rlim_max;
		if (max >= 0 && cur > max) cur = max;
	}
	if (S_prlimit(g->r, cur, max) == 0) { g->rlim_cur = cur; g->rlim_max = max; }
}

static void run_ops(struct G *g, int steps);

/* the child works on what it inherited */
static void child_step(struct G *g)
{
	struct rvma v;
	long pages, off, len;
	int i = pick_vma_range(g, &v, &pages, &off, &len);
	if (i < 0) return;
	unsigned k = (unsigned)R(g, 100);
	if (k < 15) { S_munmap(g->r, v.s + off * P, len); pages_range(g, v.s, v.e - v.s); }
	else if (k < 35) op_mremap_on(g, i);
	else if (k < 50) { S_mlock(g->r, v.s + off * P, len); pages_all(g); }
	else if (k < 57) { S_mlock2(g->r, v.s + off * P, len, 1); pages_all(g); }
	else if (k < 65) { S_munlock(g->r, v.s + off * P, len); pages_all(g); }
	else if (k < 80) touch_vma(g, &v, off * P, len, A_WRITE);
	else if (k < 85) { S_mlockall(g->r, (long)(1 + R(g, 7))); pages_all(g); }
	else if (k < 90) { S_madvise(g->r, v.s + off * P, len, chance(g, 50) ? 21 : 4); pages_all(g); }
	else if (k < 95) op_stack(g);
	else { S_mprotect(g->r, v.s + off * P, len, chance(g, 50) ? 1 : 3); pages_all(g); }
	check_zero(g);
}

static void op_fork(struct G *g)
{
	if (g->depth || g->forks >= g->k->max_forks) return;
	g->forks++;
	S_fork(g->r);
	pages_all(g);
	g->depth = 1;
	long saved_cur = g->rlim_cur, saved_max = g->rlim_max;
	if (g->ver == 2) {
		run_ops(g, 2 + (int)R(g, 6));
	} else {
		int n = 3 + (int)R(g, 10);
		for (int s = 0; s < n; s++) {
			if (chance(g, 75)) child_step(g);
			else run_ops(g, 1);
		}
	}
	g->depth = 0;
	g->rlim_cur = saved_cur;
	g->rlim_max = saved_max;
	S_child_exit(g->r);
	pages_all(g);
}

/* a field of small adjacent VMAs of mixed kinds */
static void make_field(struct G *g)
{
	int n = 8 + (int)R(g, 23);
	long a = FIELD - (long)R(g, 16) * 0x10000L;
	for (int i = 0; i < n; i++) {
		long np = 1 + (long)R(g, 4);
		long prot = anon_prot(g), fl = 0x02 | 0x20 | 0x100000, fd = -1, off = 0;
		struct rfile *f = chance(g, 35) ? pick_file(g) : NULL;
		if (f) {
			fd = f->fd;
			fl = (chance(g, 50) ? 0x01 : 0x02) | 0x100000;
			off = (long)R(g, FILE_PAGES) * P;
			prot = f->ro ? 1 : (chance(g, 60) ? 3 : 1);
			if (f->ro && (fl & 3) == 2 && chance(g, 50)) prot = 3;
		} else if (chance(g, 10)) {
			fl = 0x01 | 0x20 | 0x100000;
		}
		if (chance(g, 15)) fl |= 0x2000;
		if (chance(g, 5)) fl |= 0x100; /* a growsdown one inside the field */
		if (chance(g, 15)) a += P;     /* a one-page hole */
		S_mmap(g->r, a, np * P, prot, fl, fd, off);
		a += np * P;
	}
	pages_all(g);
}

static void op_mlockall_v2(struct G *g)
{
	long f = (long)R(g, 8);
	if (chance(g, 10)) f |= chance(g, 50) ? 8 : 0x10;
	S_mlockall(g->r, f);
	pages_all(g);
}

static void op_mlockall(struct G *g)
{
	S_mlockall(g->r, (long)R(g, 8));
	pages_all(g);
}

static void op_munlockall(struct G *g)
{
	S_munlockall(g->r);
	pages_all(g);
}

/* v3: a fork child touches instead of forking again */
static void op_fork_or_touch(struct G *g)
{
	if (g->depth) op_touch(g);
	else op_fork(g);
}

/* a step: the first entry whose bound exceeds a number in [0, 100) */
struct weighted_op {
	unsigned below;
	void (*op)(struct G *g);
};

static const struct weighted_op steps_v2[] = {
	{14, op_mmap}, {21, op_munmap}, {28, op_mprotect}, {40, op_mlock},
	{47, op_munlock}, {52, op_mlockall_v2}, {54, op_munlockall},
	{63, op_madvise}, {71, op_mremap}, {87, op_touch}, {93, op_file},
	{96, op_prlimit}, {100, op_fork},
};

static const struct weighted_op steps_v3[] = {
	{9, op_mmap}, {12, op_mmap_eof}, {18, op_munmap}, {24, op_mprotect},
	{33, op_mlock}, {38, op_munlock}, {41, op_mlockall}, {43, op_munlockall},
	{48, op_madvise}, {57, op_mremap}, {67, op_touch}, {75, op_stack},
	{80, op_cold}, {84, op_cow}, {87, op_future}, {92, op_file},
	{94, op_prlimit}, {97, op_fork_or_touch}, {100, op_touch},
};

static void run_ops(struct G *g, int steps)
{
	const struct weighted_op *t = g->ver == 2 ? steps_v2 : steps_v3;
	for (int i = 0; i < steps; i++) {
		unsigned k = (unsigned)R(g, 100);
		int j = 0;
		while (k >= t[j].below) j++;
		t[j].op(g);
		check_zero(g);
	}
}

static void sc_random(struct R *r, const struct scen *s)
{
	struct G *g = calloc(1, sizeof *g);
	if (!g) { S_note(r, "out of memory"); return; }
	g->ver = s->gen;
	g->k = &genvers[s->gen == 2 ? 0 : 1];
	bool v2 = g->ver == 2;
	g->r = r;
	g->sc = s;
	g->cap = s->cap;
	g->rlim_cur = g->rlim_max = s->rlimit;
	rec_full_pages(r, true);
	if (!v2)
		for (unsigned long k = s->seed % 7; k; k--) R(g, 2); /* decorrelate from v2's stream */
	g->noanonread = chance(g, g->k->noanonread_pct);
	/* files: tmpfs and ext4, maybe a read-only second fd of one */
	for (int kind = 0; kind < 2; kind++) {
		if (!chance(g, g->k->file_pct)) continue;
		struct rfile *f = &g->f[g->nf++];
		snprintf(f->path, sizeof f->path, "%s/vmrec%d-%s%04lu-%s", kind == F_SHM ? "/dev/shm" : "/tmp",
			 g->ver, v2 ? "r" : "g", s->seed, kind == F_SHM ? "shm" : "ext4");
		f->kind = kind;
		f->fd = S_openat(r, f->path, 02 | 0100 | 01000, 0600);
		f->linked = true;
		long sz = FILE_PAGES * P;
		if (v2 && chance(g, 20)) sz = (long)(4 + R(g, 12)) * P;
		else if (!v2 && chance(g, 35)) sz = (long)(2 + R(g, 12)) * P + (chance(g, 30) ? 100 : 0);
		if (S_ftruncate(r, f->fd, sz) == 0) f->size = sz;
		if (chance(g, 60)) {
			long l = (1 + (long)R(g, 4)) * P, o = (long)R(g, 12) * P;
			long w = S_pwrite(r, f->fd, l, o);
			if (!v2 && w > 0 && o + w > f->size) f->size = o + w;
		}
		char lp[80];
		struct stat sb;
		snprintf(lp, sizeof lp, "/proc/%d/fd/%ld", rec_pid(r), f->fd);
		f->ino = stat(lp, &sb) == 0 ? (unsigned long)sb.st_ino : 0;
		if ((v2 ? kind == F_EXT4 && chance(g, 35) : chance(g, 25)) && g->nf < 4) {
			struct rfile *o = &g->f[g->nf++];
			*o = *f;
			o->ro = true;
			o->linked = false;
			o->fd = S_openat(r, f->path, 0, 0);
		}
	}
	if (v2) {
		run_ops(g, 20 + (int)R(g, 40));
	} else {
		if (chance(g, 65)) make_field(g);
		if (chance(g, 50)) op_stack(g);
		bool lng = chance(g, 55);
		run_ops(g, lng ? 200 + (int)R(g, 201) : 40 + (int)R(g, 60));
	}
	pages_all(g);
	for (int i = 0; i < g->nf; i++)
		if (g->f[i].fd >= 0) S_close(r, g->f[i].fd);
	for (int i = 0; i < g->nf; i++)
		if (g->f[i].linked) S_unlink(r, g->f[i].path);
	free(g);
}

const struct scen *rec_random(int ver, unsigned long seed)
{
	/* RLIMIT_MEMLOCK and CAP_IPC_LOCK of a seed: a hash picks one of 8 */
	static const struct { long rl; bool cap; } cfg2[] = {
		{8 * M, true}, {8 * M, true}, {64 * K, false}, {0, false}, {256 * K, false},
		{64 * K, true}, {16 * K, false}, {8 * M, false},
	}, cfg3[] = {
		{8 * M, true}, {64 * K, false}, {0, false}, {256 * K, false},
		{64 * K, true}, {16 * K, false}, {8 * M, false}, {32 * K, false},
	};
	if (ver != 2 && ver != 3) return NULL;
	const struct genver *k = &genvers[ver == 2 ? 0 : 1];
	struct scen *s = calloc(1, sizeof *s);
	char *name = malloc(32), *desc = malloc(200);
	if (!s || !name || !desc) { free(s); free(name); free(desc); return NULL; }
	snprintf(name, 32, "%s-%04lu", k->prefix, seed);
	unsigned c = (unsigned)((seed * (ver == 2 ? 0x9E3779B97F4A7C15UL : 0xD1B54A32D192ED03UL)) >> 61);
	s->name = name;
	s->rlimit = ver == 2 ? cfg2[c].rl : cfg3[c].rl;
	s->cap = ver == 2 ? cfg2[c].cap : cfg3[c].cap;
	s->multi = true;
	s->seed = seed;
	s->gen = ver;
	s->fn = sc_random;
	snprintf(desc, 200, "random scenario, %s, seed %lu, rlimit %ld, %s CAP_IPC_LOCK", k->what,
		 seed, s->rlimit, s->cap ? "with" : "without");
	s->desc = desc;
	return s;
}
