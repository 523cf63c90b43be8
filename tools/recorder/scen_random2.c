/*
 * scen_random2.c - random scenario generator v2 of the vmsim recorder.
 *
 * `recorder -s FIRST[-LAST] -o DIR` records the traces r2-NNNN of those
 * seeds.  Every choice is made from the seed and the real /proc state; every
 * result and expectation is the real kernel's.  It covers what the shared
 * random samples do and more: anonymous and file (tmpfs /dev/shm, ext4 /tmp)
 * mappings, private and shared, read-only fds, ftruncate/pwrite64/fallocate/
 * close/unlink, every mmap flag of interest (and invalid ones), munmap /
 * mprotect / mlock / munlock / madvise over partial ranges and across holes,
 * mremap in all its forms, mlockall with every flag combination, prlimit64,
 * fork with operations in the child, and touches.  The child process never
 * touches what would kill it (unreadable pages, file pages beyond EOF) and
 * never operates on its own image at 0x400000.
 *
 * Expectations: as the recorder writes them after every step, plus
 * expect(page) (full keys for present pages) for the operated range and one
 * page either side, and for all pages of every VMA after lock-related steps.
 * The header says `zero-page-sensitive: yes` when a snapshot ever saw the
 * shared zero page mapped (an anonymous read fault on this kernel), i.e. when
 * the trace would differ on a kernel booted with pvm_no_zero_page=1.
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

enum { F_SHM, F_EXT4 };

struct rfile {
	long fd;        /* -1 when closed */
	int kind;
	bool ro;        /* opened O_RDONLY */
	unsigned long ino;
	long size;      /* bytes */
	char path[64];
	bool linked;
};

struct rvma {
	long s, e, off;
	char perm[5];
	unsigned long ino;
};

struct G {
	struct R *r;
	const struct scen *sc;
	struct rfile f[4];
	int nf;
	int depth;      /* 0 parent, 1 forked child */
	int forks;
	bool noanonread; /* no touch READ of absent pages of private anonymous VMAs */
	long rlim_max;  /* -1 infinity */
	struct rvma v[128];
	int nv;
};

static unsigned long R(struct G *g, unsigned long n) { return rnd(g->r, n); }
static bool chance(struct G *g, unsigned pct) { return R(g, 100) < pct; }

static void load_vmas(struct G *g)
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%d/maps", rec_pid(g->r));
	FILE *fp = fopen(path, "r");
	g->nv = 0;
	if (!fp) return;
	while (fgets(line, sizeof line, fp) && g->nv < 128) {
		unsigned long s, e, off, ino;
		unsigned maj, min;
		char perm[5];
		if (sscanf(line, "%lx-%lx %4s %lx %x:%x %lu", &s, &e, perm, &off, &maj, &min, &ino) != 7) continue;
		if (s >= 0x800000000000UL) continue;
		if ((long)s == IMG_START) continue;
		struct rvma *v = &g->v[g->nv++];
		v->s = (long)s; v->e = (long)e; v->off = (long)off; v->ino = ino;
		memcpy(v->perm, perm, 5);
	}
	fclose(fp);
}

static struct rfile *file_of(struct G *g, unsigned long ino)
{
	if (!ino) return NULL;
	for (int i = 0; i < g->nf; i++)
		if (g->f[i].ino == ino) return &g->f[i];
	return NULL;
}

/* was the zero page mapped anywhere in the process? */
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
	for (int i = 0; i < g->nv; i++) {
		long l = g->v[i].e - g->v[i].s;
		S_pages(g->r, g->v[i].s, l > 24 * P ? 24 * P : l);
	}
}

/* ---- ranges ---- */

/* a page-aligned range: inside one VMA, across VMAs and holes, or starting
 * in a hole; never near the image */
static void pick_range(struct G *g, long *addr, long *len)
{
	load_vmas(g);
	if (!g->nv) { *addr = 0x7ffff7ff0000L; *len = (1 + (long)R(g, 4)) * P; return; }
	int i = (int)R(g, (unsigned long)g->nv);
	struct rvma *v = &g->v[i];
	long pages = (v->e - v->s) / P;
	unsigned k = (unsigned)R(g, 100);
	if (k < 55) {
		long off = (long)R(g, (unsigned long)pages);
		*addr = v->s + off * P;
		*len = (1 + (long)R(g, (unsigned long)(pages - off))) * P;
		if (chance(g, 25)) { *addr = v->s; *len = v->e - v->s; }
	} else if (k < 85) {
		long off = (long)R(g, (unsigned long)pages);
		*addr = v->s + off * P;
		long end = v->e;
		int j = i + 1 + (int)R(g, 2);
		if (j < g->nv) end = g->v[j].s + (long)(1 + R(g, (unsigned long)((g->v[j].e - g->v[j].s) / P))) * P;
		else end = v->e + (long)(1 + R(g, 3)) * P;
		*len = end - *addr;
	} else {
		long before = (long)(1 + R(g, 3)) * P;
		*addr = v->s - before;
		*len = before + (long)(1 + R(g, (unsigned long)pages)) * P;
	}
	if (*addr < IMG_END + 16 * P) { *addr = v->s; *len = v->e - v->s; }
	if (*len > 64 * P) *len = 64 * P;
}

/* a fixed address for MAP_FIXED / MREMAP_FIXED: over a VMA, in a hole, below all */
static long pick_fixed(struct G *g, long len)
{
	load_vmas(g);
	if (!g->nv) return 0x7ffff7fe0000L;
	unsigned k = (unsigned)R(g, 3);
	int i = (int)R(g, (unsigned long)g->nv);
	long a;
	if (k == 0) a = g->v[i].s + (long)R(g, (unsigned long)((g->v[i].e - g->v[i].s) / P)) * P;
	else if (k == 1) a = g->v[i].e + (long)R(g, 3) * P;
	else a = g->v[0].s - len - (long)R(g, 8) * P;
	if (a < IMG_END + 16 * P) a = 0x7ffff7fe0000L;
	return a;
}

/* ---- operations ---- */

static const long prots[] = {0, 1, 3, 3, 3, 5, 7, 2};

static void op_mmap(struct G *g)
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
	long res = S_mmap(g->r, addr, np * P, prot, fl, fd, off);
	if (res > 0 && res < -4095L) res = 0;
	if (res > 0) pages_range(g, res, np * P);
	else if (fl & 0x10) pages_range(g, addr, np * P);
}

static void op_munmap(struct G *g)
{
	long a, l;
	pick_range(g, &a, &l);
	if (chance(g, 4)) l = 0;
	S_munmap(g->r, a, l);
	pages_range(g, a, l);
}

static void op_mprotect(struct G *g)
{
	long a, l;
	pick_range(g, &a, &l);
	long p = prots[R(g, 8)];
	if (chance(g, 3)) p = 0x10; /* invalid bit */
	S_mprotect(g->r, a, l, p);
	pages_all(g);
}

static void op_mlock(struct G *g)
{
	long a, l;
	pick_range(g, &a, &l);
	unsigned k = (unsigned)R(g, 10);
	if (k < 4) S_mlock(g->r, a, l);
	else if (k < 8) S_mlock2(g->r, a, l, chance(g, 50) ? 1 : 0);
	else {
		static const long bad[] = {2, 3, -1, 0x100};
		S_mlock2(g->r, a, l, bad[R(g, 4)]);
	}
	pages_all(g);
}

static void op_munlock(struct G *g)
{
	long a, l;
	pick_range(g, &a, &l);
	S_munlock(g->r, a, l);
	pages_all(g);
}

static void op_mlockall(struct G *g)
{
	long f = (long)R(g, 8);
	if (chance(g, 10)) f |= chance(g, 50) ? 8 : 0x10;
	S_mlockall(g->r, f);
	pages_all(g);
}

static void op_madvise(struct G *g)
{
	static const long adv[] = {4, 24, 8, 3, 20, 21, 9, 10, 11, 18, 19, 0, 1, 2, 22, 23, 4, 24, 22, 23};
	long a, l;
	pick_range(g, &a, &l);
	long v = adv[R(g, sizeof adv / sizeof adv[0])];
	if (chance(g, 4)) v = chance(g, 50) ? 6 : 0x63; /* invalid advice */
	S_madvise(g->r, a, l, v);
	pages_all(g);
}

static void op_mremap(struct G *g)
{
	load_vmas(g);
	if (!g->nv) return;
	struct rvma *v = &g->v[R(g, (unsigned long)g->nv)];
	long pages = (v->e - v->s) / P;
	long off = chance(g, 60) ? 0 : (long)R(g, (unsigned long)pages);
	long old = v->s + off * P;
	long oldlen = (1 + (long)R(g, (unsigned long)(pages - off))) * P;
	if (chance(g, 40)) oldlen = (pages - off) * P;
	if (chance(g, 8)) oldlen += (long)(1 + R(g, 3)) * P; /* beyond the VMA: EFAULT */
	long newlen;
	unsigned k = (unsigned)R(g, 4);
	if (k == 0) newlen = oldlen > P ? oldlen - (long)(1 + R(g, (unsigned long)(oldlen / P - 1))) * P : oldlen;
	else if (k == 1) newlen = oldlen;
	else newlen = oldlen + (long)(1 + R(g, 6)) * P;
	long fl = 0, na = 0;
	unsigned f = (unsigned)R(g, 100);
	if (f < 25) fl = 0;
	else if (f < 55) fl = 1;
	else if (f < 75) { fl = 3; na = pick_fixed(g, newlen); }
	else if (f < 87) { fl = 5; newlen = oldlen; if (chance(g, 40)) { fl = 7; na = pick_fixed(g, newlen); } }
	else if (f < 90) { fl = 1; oldlen = 0; old = v->s; } /* duplicate (shared only) */
	else if (f < 93) fl = 2;          /* FIXED without MAYMOVE: EINVAL */
	else if (f < 96) fl = 4;          /* DONTUNMAP without MAYMOVE: EINVAL */
	else if (f < 98) { fl = 5; newlen = oldlen + P; } /* DONTUNMAP with a different size: EINVAL */
	else fl = 8;                      /* unknown flag: EINVAL */
	if ((fl & 2) && na < IMG_END + 16 * P) na = 0x7ffff7fe0000L;
	long res = S_mremap(g->r, old, oldlen, newlen, fl, na);
	if (res > 0 && res < -4095L) res = 0;
	if (res > 0) pages_range(g, res, newlen);
	pages_range(g, old, oldlen > newlen ? oldlen : newlen);
}

static void op_touch(struct G *g)
{
	load_vmas(g);
	int cand[128], n = 0;
	for (int i = 0; i < g->nv; i++) {
		struct rvma *v = &g->v[i];
		if (v->perm[0] != 'r' && v->perm[1] != 'w') continue;
		if (v->ino) {
			struct rfile *f = file_of(g, v->ino);
			if (!f || v->off >= f->size) continue;
		}
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

static void op_file(struct G *g)
{
	if (!g->nf) return;
	struct rfile *f = &g->f[R(g, (unsigned long)g->nf)];
	if (f->fd < 0) return;
	unsigned k = (unsigned)R(g, 10);
	if (k < 3) {
		long sz = (long)R(g, FILE_PAGES + 1) * P;
		if (chance(g, 20)) sz += 100;
		if (S_ftruncate(g->r, f->fd, sz) == 0) f->size = sz;
		pages_all(g);
	} else if (k < 5) {
		long l = (1 + (long)R(g, 3)) * P, o = (long)R(g, FILE_PAGES) * P;
		long w = S_pwrite(g->r, f->fd, l, o);
		if (w > 0 && o + w > f->size) f->size = o + w;
		pages_all(g);
	} else if (k < 8) {
		long o = (long)R(g, FILE_PAGES) * P, l = (1 + (long)R(g, 4)) * P;
		unsigned m = (unsigned)R(g, 4);
		long mode = m < 2 ? 3 : m == 2 ? 1 : 0;
		if (S_fallocate(g->r, f->fd, mode, o, l) == 0 && !(mode & 1) && o + l > f->size) f->size = o + l;
		pages_all(g);
	} else if (k < 9 && g->depth == 0) {
		S_close(g->r, f->fd);
		f->fd = -1;
	} else if (f->linked && g->depth == 0) {
		S_unlink(g->r, f->path);
		f->linked = false;
	}
}

static void op_prlimit(struct G *g)
{
	/* the recorder lacks CAP_SYS_RESOURCE: the hard limit is never raised
	 * (that would be EPERM, which the trace header cannot explain) */
	static const long vals[] = {0, 4 * K, 16 * K, 64 * K, 256 * K, 8 * M};
	long cur = vals[R(g, 6)];
	long max = g->rlim_max;
	unsigned k = (unsigned)R(g, 10);
	if (k < 2) max = cur;
	else if (k < 3) max = vals[R(g, 6)];
	if (max > g->rlim_max) max = g->rlim_max;
	if (cur > max && !chance(g, 20)) cur = max; /* else EINVAL */
	long res = S_prlimit(g->r, cur, max);
	if (res == 0) g->rlim_max = max;
}

static void run_ops(struct G *g, int steps);

static void op_fork(struct G *g)
{
	if (g->depth || g->forks >= 2) return;
	g->forks++;
	S_fork(g->r);
	pages_all(g);
	g->depth = 1;
	long saved = g->rlim_max;
	run_ops(g, 2 + (int)R(g, 6));
	g->depth = 0;
	g->rlim_max = saved;
	S_child_exit(g->r);
	pages_all(g);
}

static void run_ops(struct G *g, int steps)
{
	for (int i = 0; i < steps; i++) {
		unsigned k = (unsigned)R(g, 100);
		if (k < 14) op_mmap(g);
		else if (k < 21) op_munmap(g);
		else if (k < 28) op_mprotect(g);
		else if (k < 40) op_mlock(g);
		else if (k < 47) op_munlock(g);
		else if (k < 52) op_mlockall(g);
		else if (k < 54) { S_munlockall(g->r); pages_all(g); }
		else if (k < 63) op_madvise(g);
		else if (k < 71) op_mremap(g);
		else if (k < 87) op_touch(g);
		else if (k < 93) op_file(g);
		else if (k < 96) op_prlimit(g);
		else op_fork(g);
		check_zero(g);
	}
}

static void sc_random2(struct R *r, const struct scen *s)
{
	struct G *g = calloc(1, sizeof *g);
	g->r = r;
	g->sc = s;
	g->rlim_max = s->rlimit;
	rec_full_pages(r, true);
	g->noanonread = chance(g, 60);
	/* files: tmpfs and ext4, maybe a read-only second fd of one */
	for (int kind = 0; kind < 2; kind++) {
		if (!chance(g, 60)) continue;
		struct rfile *f = &g->f[g->nf++];
		snprintf(f->path, sizeof f->path, kind == F_SHM ? "/dev/shm/vmrec2-r%04lu-shm" : "/tmp/vmrec2-r%04lu-ext4",
			 s->seed);
		f->kind = kind;
		f->fd = S_openat(r, f->path, 02 | 0100 | 01000, 0600);
		f->linked = true;
		long sz = FILE_PAGES * P;
		if (chance(g, 20)) sz = (long)(4 + R(g, 12)) * P;
		if (S_ftruncate(r, f->fd, sz) == 0) f->size = sz;
		if (chance(g, 60)) {
			long l = (1 + (long)R(g, 4)) * P, o = (long)R(g, 12) * P;
			S_pwrite(r, f->fd, l, o);
		}
		char lp[80];
		struct stat sb;
		snprintf(lp, sizeof lp, "/proc/%d/fd/%ld", rec_pid(r), f->fd);
		f->ino = stat(lp, &sb) == 0 ? (unsigned long)sb.st_ino : 0;
		if (kind == F_EXT4 && chance(g, 35) && g->nf < 4) {
			struct rfile *o = &g->f[g->nf++];
			*o = *f;
			o->ro = true;
			o->linked = false;
			o->fd = S_openat(r, f->path, 0, 0);
		}
	}
	run_ops(g, 20 + (int)R(g, 40));
	pages_all(g);
	for (int i = 0; i < g->nf; i++)
		if (g->f[i].fd >= 0) S_close(r, g->f[i].fd);
	for (int i = 0; i < g->nf; i++)
		if (g->f[i].linked) S_unlink(r, g->f[i].path);
	free(g);
}

const struct scen *rec_random2(unsigned long seed)
{
	static const struct { long rl; bool cap; } cfg[] = {
		{8 * M, true}, {8 * M, true}, {64 * K, false}, {0, false}, {256 * K, false},
		{64 * K, true}, {16 * K, false}, {8 * M, false},
	};
	struct scen *s = calloc(1, sizeof *s);
	char *name = malloc(32), *desc = malloc(160);
	snprintf(name, 32, "r2-%04lu", seed);
	unsigned c = (unsigned)((seed * 0x9E3779B97F4A7C15UL) >> 61);
	s->name = name;
	s->rlimit = cfg[c].rl;
	s->cap = cfg[c].cap;
	s->multi = true;
	s->seed = seed;
	s->fn = sc_random2;
	snprintf(desc, 160, "random scenario, recorder generator v2 (touch avoids anonymous read faults in 60%% of seeds), seed %lu, rlimit %ld, %s CAP_IPC_LOCK", seed,
		 s->rlimit, s->cap ? "with" : "without");
	s->desc = desc;
	return s;
}

bool rec_zpcheck(const struct scen *s) { return s->fn == sc_random2; }
