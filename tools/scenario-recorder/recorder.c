/*
 * recorder.c - records golden vmsim traces on the running kernel.
 *
 * The recorder forks a freestanding static child (child.c), drives it one
 * syscall or page touch at a time over a pipe, and after every step reads
 * /proc/CHILD/{smaps,status,pagemap} and /proc/kpageflags (after draining the
 * per-cpu LRU batches with migrate_pages(child, node0 -> node0)) to write the
 * expect(...) lines.  The text is the canonical trace text, written here
 * directly in the style of shared/golden (sim/trace/trace_write.c was not there yet).
 *
 *   recorder [-o DIR] [-v VIEWDIR] [-l] [NAME...]
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "proto.h"
#include "recorder.h"

#define MAXP 4
#define MAXR 512

struct R {
	const struct scen *s;
	FILE *out;
	char *buf;
	size_t bufsz;
	pid_t pid[MAXP];   /* real pids; index+1 is the number in the trace */
	int np, cur;
	int parent_of[MAXP];
	int cmdw, repr;
	pid_t top;         /* the recorder's own child */
	long lk_start[MAXR], lk_end[MAXR]; /* ranges that were ever in a locked VMA */
	int nlk;
	unsigned long rs;  /* random state */
	const char *viewdir;
	bool fullpages;    /* expect(page) with full keys for every present page */
	bool zpseen;       /* a zero page was mapped at some snapshot (zpcheck scenarios) */
	char memcg[PATH_MAX]; /* the child's memcg directory, "" for none */
	int memcg_v;          /* its controller: 1 (cgroup v1) or 2 (cgroup v2) */
	long kmem0;           /* its kernel memory when S_memcg_limit() set the limit, bytes */
	long vm0[32];      /* /proc/vmstat event counters when the trace began */
};

static const char *outdir = "traces/golden";
static const char *viewdir = "traces/views";
/* -k NAME: the semantics the header's `kernel:` names (a patched kernel
 * reports its base version: lof-v1 is 4.0 to uname); default: the running
 * kernel's version */
static const char *kernel_name;

/* the running kernel's version as a number, 4.12 -> 4012 */
static long kernel_version(void)
{
	struct utsname u;
	unsigned maj = 0, min = 0;
	if (uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return 0;
	return (long)maj * 1000 + min;
}
static char child_path[PATH_MAX];

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "recorder: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

/* ---- output ---- */

static void emit(struct R *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(struct R *r, const char *fmt, ...)
{
	va_list ap;
	if (r->s->multi)
		fprintf(r->out, "%-5d ", r->cur + 1);
	va_start(ap, fmt);
	vfprintf(r->out, fmt, ap);
	va_end(ap);
	fputc('\n', r->out);
}

void S_note(struct R *r, const char *text)
{
	fprintf(r->out, "# %s\n", text);
}

struct fl { long v; const char *n; };

static const struct fl prot_fl[] = {
	{1, "PROT_READ"}, {2, "PROT_WRITE"}, {4, "PROT_EXEC"}, {0x01000000, "PROT_GROWSDOWN"}, {0, NULL}};
static const struct fl map_fl[] = {
	{0x10, "MAP_FIXED"}, {0x20, "MAP_ANONYMOUS"}, {0x4000, "MAP_NORESERVE"},
	{0x8000, "MAP_POPULATE"}, {0x10000, "MAP_NONBLOCK"}, {0x100, "MAP_GROWSDOWN"},
	{0x2000, "MAP_LOCKED"}, {0x20000, "MAP_STACK"}, {0x100000, "MAP_FIXED_NOREPLACE"},
	{0, NULL}};
static const struct fl mremap_fl[] = {
	{1, "MREMAP_MAYMOVE"}, {2, "MREMAP_FIXED"}, {4, "MREMAP_DONTUNMAP"}, {0, NULL}};
static const struct fl mcl_fl[] = {
	{1, "MCL_CURRENT"}, {2, "MCL_FUTURE"}, {4, "MCL_ONFAULT"}, {0, NULL}};
static const struct fl mlock2_fl[] = {{1, "MLOCK_ONFAULT"}, {0, NULL}};
static const struct fl open_fl[] = {
	{0100, "O_CREAT"}, {0200, "O_EXCL"}, {01000, "O_TRUNC"}, {02000000, "O_CLOEXEC"}, {0, NULL}};
static const struct fl madv_names[] = {
	{0, "MADV_NORMAL"}, {1, "MADV_RANDOM"}, {2, "MADV_SEQUENTIAL"}, {3, "MADV_WILLNEED"},
	{4, "MADV_DONTNEED"}, {8, "MADV_FREE"}, {9, "MADV_REMOVE"}, {10, "MADV_DONTFORK"},
	{11, "MADV_DOFORK"}, {20, "MADV_COLD"}, {21, "MADV_PAGEOUT"}, {22, "MADV_POPULATE_READ"},
	{23, "MADV_POPULATE_WRITE"}, {24, "MADV_DONTNEED_LOCKED"}, {18, "MADV_WIPEONFORK"},
	{19, "MADV_KEEPONFORK"}, {0, NULL}};

/* strace style: known bits joined by |, the rest in hex; unknown-only as
 * "0xN / * X_??? * /" */
static const char *flags(char *b, size_t n, unsigned long v, const struct fl *t, const char *unk)
{
	size_t o = 0;
	unsigned long rest = v;
	b[0] = 0;
	for (int i = 0; t[i].n; i++)
		if ((v & t[i].v) == (unsigned long)t[i].v && t[i].v) {
			o += snprintf(b + o, n - o, "%s%s", o ? "|" : "", t[i].n);
			rest &= ~(unsigned long)t[i].v;
		}
	if (rest && o)
		snprintf(b + o, n - o, "|%#lx", rest);
	else if (rest)
		snprintf(b, n, "%#lx /* %s */", rest, unk);
	else if (!o)
		snprintf(b, n, "0");
	return b;
}

static const char *prot_s(char *b, size_t n, long p)
{
	if (p == 0) { snprintf(b, n, "PROT_NONE"); return b; }
	return flags(b, n, p, prot_fl, "PROT_???");
}

static const char *mapflags_s(char *b, size_t n, long f)
{
	const char *type = (f & 3) == 1 ? "MAP_SHARED" : (f & 3) == 2 ? "MAP_PRIVATE" :
			   (f & 3) == 3 ? "MAP_SHARED_VALIDATE" : "0";
	char rest[200];
	if (f & ~3L) {
		flags(rest, sizeof rest, f & ~3L, map_fl, "MAP_???");
		snprintf(b, n, "%s|%s", type, rest);
	} else
		snprintf(b, n, "%s", type);
	return b;
}

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM"; case ENOENT: return "ENOENT"; case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN"; case ENOMEM: return "ENOMEM"; case EACCES: return "EACCES";
	case EFAULT: return "EFAULT"; case EBUSY: return "EBUSY"; case EEXIST: return "EEXIST";
	case EINVAL: return "EINVAL"; case ENODEV: return "ENODEV"; case EOVERFLOW: return "EOVERFLOW";
	case ENOSYS: return "ENOSYS"; case ESRCH: return "ESRCH";
	case EOPNOTSUPP: return "EOPNOTSUPP"; case EFBIG: return "EFBIG"; case ENXIO: return "ENXIO";
	case ETXTBSY: return "ETXTBSY"; case EMFILE: return "EMFILE";
	}
	return "E???";
}

/* the result text: hex for addresses, decimal otherwise */
static const char *res_s(char *b, size_t n, long v, bool hex)
{
	if (v < 0 && v >= -4095)
		snprintf(b, n, "-1 %s (%s)", errname((int)-v), strerror((int)-v));
	else if (hex)
		snprintf(b, n, "%#lx", v);
	else
		snprintf(b, n, "%ld", v);
	return b;
}

static const char *addr_s(char *b, size_t n, long a)
{
	if (a == 0) snprintf(b, n, "NULL"); else snprintf(b, n, "%#lx", a);
	return b;
}

/* ---- child control ---- */

static struct rec_reply call(struct R *r, long op, long nr, const long *a, const char *str)
{
	struct rec_cmd c;
	struct rec_reply rep;
	memset(&c, 0, sizeof c);
	c.op = op;
	c.nr = nr;
	for (int i = 0; i < 6 && a; i++) c.a[i] = a[i];
	if (str) snprintf(c.str, sizeof c.str, "%s", str);
	if (write(r->cmdw, &c, sizeof c) != (ssize_t)sizeof c) die("write to child: %s", strerror(errno));
	if (op == REC_EXIT) { memset(&rep, 0, sizeof rep); return rep; }
	size_t got = 0;
	while (got < sizeof rep) {
		ssize_t k = read(r->repr, (char *)&rep + got, sizeof rep - got);
		if (k <= 0) die("%s: child died (op %ld nr %ld)", r->s->name, op, nr);
		got += (size_t)k;
	}
	return rep;
}

static long sys(struct R *r, long nr, long a0, long a1, long a2, long a3, long a4, long a5, const char *str)
{
	long a[6] = {a0, a1, a2, a3, a4, a5};
	return call(r, REC_SYSCALL, nr, a, str).ret;
}

static void drain(struct R *r)
{
	unsigned long mask = 1;
	if (syscall(SYS_migrate_pages, r->pid[r->cur], 2, &mask, &mask) < 0)
		die("migrate_pages: %s", strerror(errno));
}

struct vma { long start, end, rss, locked, swap; char flags[128]; char perms[5]; };

static bool has_flag(const char *flags, const char *f);

static int read_smaps(struct R *r, struct vma *v, int max)
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%d/smaps", r->pid[r->cur]);
	FILE *f = fopen(path, "r");
	if (!f) die("%s: %s", path, strerror(errno));
	int n = -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long s, e;
		char perms[5];
		long kb;
		if (sscanf(line, "%lx-%lx %4s", &s, &e, perms) == 3 && strchr(line, '-') < strchr(line, ' ')) {
			if (s >= 0x800000000000UL) break; /* [vsyscall]: outside the checked range */
			if (++n >= max) die("too many vmas");
			memset(&v[n], 0, sizeof v[n]);
			v[n].start = (long)s; v[n].end = (long)e;
			memcpy(v[n].perms, perms, 5);
		} else if (n >= 0 && sscanf(line, "Rss: %ld kB", &kb) == 1) {
			v[n].rss = kb;
		} else if (n >= 0 && sscanf(line, "Locked: %ld kB", &kb) == 1) {
			v[n].locked = kb;
		} else if (n >= 0 && sscanf(line, "Swap: %ld kB", &kb) == 1) {
			v[n].swap = kb;
		} else if (n >= 0 && !strncmp(line, "VmFlags:", 8)) {
			char *p = line + 8;
			while (*p == ' ') p++;
			size_t l = strlen(p);
			while (l && (p[l - 1] == '\n' || p[l - 1] == ' ')) p[--l] = 0;
			snprintf(v[n].flags, sizeof v[n].flags, "%s", p);
			/* before 4.12 show_map_vma() hides a VM_GROWSDOWN VMA's
			 * guard page, its first: the VMA starts a page lower */
			if (kernel_version() < 4012 && has_flag(v[n].flags, "gd"))
				v[n].start -= 4096;
		}
	}
	fclose(f);
	return n + 1;
}

/* a field of /proc/PID/status in kB; unsigned, as the kernel prints it
 * (%lu): a wrapped VmLck is near 2^64, which strtol() would clip to
 * LONG_MAX */
static unsigned long status_kb(struct R *r, const char *key)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", r->pid[r->cur]);
	FILE *f = fopen(path, "r");
	if (!f) die("%s: %s", path, strerror(errno));
	unsigned long v = (unsigned long)-1;
	size_t kl = strlen(key);
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, kl) && line[kl] == ':')
			v = strtoul(line + kl + 1, NULL, 10);
	fclose(f);
	return v;
}

static bool has_flag(const char *flags, const char *f)
{
	size_t l = strlen(f);
	for (const char *p = flags; (p = strstr(p, f)); p += l)
		if ((p == flags || p[-1] == ' ') && (p[l] == 0 || p[l] == ' '))
			return true;
	return false;
}

static void note_locked(struct R *r, struct vma *v, int n)
{
	for (int i = 0; i < n; i++) {
		if (!has_flag(v[i].flags, "lo")) continue;
		int j;
		for (j = 0; j < r->nlk; j++)
			if (r->lk_start[j] == v[i].start && r->lk_end[j] == v[i].end) break;
		if (j == r->nlk && r->nlk < MAXR) {
			r->lk_start[r->nlk] = v[i].start;
			r->lk_end[r->nlk++] = v[i].end;
		}
	}
}

int rec_vmas(struct R *r, long *start, long *end, char (*perms)[5], int max)
{
	struct vma v[256];
	int n = read_smaps(r, v, 256), k = 0;
	for (int i = 0; i < n && k < max; i++) {
		if (v[i].start == REC_IMAGE) continue;
		start[k] = v[i].start; end[k] = v[i].end;
		memcpy(perms[k], v[i].perms, 5);
		k++;
	}
	return k;
}

/* expectations after a step: [VmLck], every VMA, the VMA count */
static void snapshot(struct R *r, bool vmlck, bool setup)
{
	struct vma v[256];
	/* no drain here: smaps does not depend on the per-CPU batches, and
	 * the trace format says the model drains only at expect(page) lines -
	 * a drain the trace does not show would make the kernel's page states
	 * unreproducible (S_pages drains before it reads kpageflags) */
	int n = read_smaps(r, v, 256);
	note_locked(r, v, n);
	if (vmlck && !setup)
		emit(r, "expect(VmLck) = %lu kB", status_kb(r, "VmLck"));
	for (int i = 0; i < n; i++)
		if (r->s->swap) /* and what smaps counts out on swap */
			emit(r, "expect(vma, %#lx) = {start=%#lx, end=%#lx, Rss=%ld kB, Swap=%ld kB, Locked=%ld kB, VmFlags=\"%s\"}",
			     v[i].start, v[i].start, v[i].end, v[i].rss, v[i].swap, v[i].locked, v[i].flags);
		else
			emit(r, "expect(vma, %#lx) = {start=%#lx, end=%#lx, Rss=%ld kB, Locked=%ld kB, VmFlags=\"%s\"}",
			     v[i].start, v[i].start, v[i].end, v[i].rss, v[i].locked, v[i].flags);
	emit(r, "expect(vmas, 0, 0x800000000000) = %d", n);
	if (setup)
		emit(r, "expect(VmLck) = %lu kB", status_kb(r, "VmLck"));
}

void S_pages(struct R *r, long addr, long len)
{
	char path[64];
	drain(r);
	snprintf(path, sizeof path, "/proc/%d/pagemap", r->pid[r->cur]);
	int pm = open(path, O_RDONLY), kf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kf < 0) die("pagemap/kpageflags: %s", strerror(errno));
	for (long a = addr; a < addr + len; a += 4096) {
		uint64_t e = 0, fl = 0;
		if (pread(pm, &e, 8, (a / 4096) * 8) != 8) die("pagemap read");
		bool present = e >> 63 & 1;
		bool related = false;
		for (int j = 0; j < r->nlk; j++)
			if (a >= r->lk_start[j] && a < r->lk_end[j]) related = true;
		if (present) {
			uint64_t pfn = e & ((1ULL << 55) - 1);
			if (pread(kf, &fl, 8, (off_t)(pfn * 8)) != 8) die("kpageflags read");
			if (fl >> 33 & 1 || fl >> 18 & 1) related = true;
		}
		if (present && (related || r->fullpages))
			emit(r, "expect(page, %#lx) = {present=1, mlocked=%d, unevictable=%d, lru=%d}", a,
			     (int)(fl >> 33 & 1), (int)(fl >> 18 & 1), (int)(fl >> 5 & 1));
		else
			emit(r, "expect(page, %#lx) = {present=%d}", a, present);
	}
	close(pm);
	close(kf);
}

int rec_pid(struct R *r) { return r->pid[r->cur]; }
void rec_full_pages(struct R *r, bool on) { r->fullpages = on; }
void rec_zero_page_seen(struct R *r) { r->zpseen = true; }

/* The /proc/vmstat event counters that pressure traces expect: exact
 * (summed per-CPU event counts, not the thresholded nr_* states), and on
 * an idle machine moved only by reclaim and mlock - the trace's.  Not
 * pgactivate: every read() of a cached file page by anyone (the recorder
 * reading its child's image) may activate one. */
static const char *const vm_counters[] = {
	"pgscan_file", "pgsteal_file", "pgscan_anon", "pgsteal_anon", "pgrefill", "pgdeactivate",
	"unevictable_pgs_culled", "unevictable_pgs_scanned", "unevictable_pgs_rescued",
	"unevictable_pgs_mlocked", "unevictable_pgs_munlocked", NULL,
};

static void read_vmstat(long *v)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char name[128];
	long x;
	if (!f) die("/proc/vmstat: %s", strerror(errno));
	for (int i = 0; vm_counters[i]; i++) v[i] = -1;
	while (fscanf(f, "%127s %ld", name, &x) == 2)
		for (int i = 0; vm_counters[i]; i++)
			if (!strcmp(name, vm_counters[i])) v[i] = x;
	fclose(f);
	/* a counter the running kernel does not have stays -1 and is never
	 * expected: 4.x counts reclaim scans per zone and has no pgscan_file */
}

void S_vmstat(struct R *r)
{
	long v[32];
	read_vmstat(v);
	for (int i = 0; vm_counters[i]; i++)
		if (v[i] >= 0 && r->vm0[i] >= 0)
			emit(r, "expect(%s) = %ld", vm_counters[i], v[i] - r->vm0[i]);
}

static void write_str(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) die("%s: %s", path, strerror(errno));
	ssize_t n = write(fd, text, strlen(text));
	if (n != (ssize_t)strlen(text)) die("write %s to %s: %s", text, path, n < 0 ? strerror(errno) : "short");
	close(fd);
}

/* The memcg's memory.stat values of keys (NULL-ended) into v (-1 when
 * absent; the memcg's own, not v1's total_ ones), with flushed after a
 * wait for the periodic flush: memory.stat folds the per-CPU counts only
 * past a threshold (mem_cgroup_flush_stats(): 64 updates a CPU); the
 * flusher takes them all every FLUSH_TIME, 2 s (flush_memcg_stats_dwork()
 * @ v6.18) */
static void memcg_stat_keys(struct R *r, const char *const *keys, long *v, bool flushed)
{
	char path[PATH_MAX + 32], name[128];
	long x;
	struct timespec ts = { 2, 500000000 };
	if (flushed)
		nanosleep(&ts, NULL);
	snprintf(path, sizeof path, "%s/memory.stat", r->memcg);
	FILE *f = fopen(path, "r");
	if (!f) die("%s: %s", path, strerror(errno));
	for (int i = 0; keys[i]; i++)
		v[i] = -1;
	while (fscanf(f, "%127s %ld", name, &x) == 2)
		for (int i = 0; keys[i]; i++)
			if (!strcmp(name, keys[i]) && v[i] < 0)
				v[i] = x;
	fclose(f);
}

/* mm/memcontrol.c:mem_cgroup_force_empty(): reclaims the memcg until
 * MAX_RECLAIM_RETRIES tries free nothing */
static long memcg_long(struct R *r, const char *file);

/* Under cgroup v2, which has no memory.force_empty, the same pressure is a
 * write to memory.reclaim of every page the memcg holds
 * (mm/memcontrol.c:memory_reclaim(): reclaim until that many are freed or
 * MAX_RECLAIM_RETRIES calls freed nothing, then EAGAIN - here always, as
 * the kernel's own pages and the locked ones stay): the trace's
 * reclaim(N), whose count the /proc/vmstat deltas after it check. */
void S_memcg_force_empty(struct R *r)
{
	char path[PATH_MAX + 32], text[32];
	if (!r->memcg[0]) die("%s: memcg_force_empty without a memcg (.memcg)", r->s->name);
	if (r->memcg_v == 2) {
		long pages = memcg_long(r, "memory.current") / 4096;
		snprintf(path, sizeof path, "%s/memory.reclaim", r->memcg);
		snprintf(text, sizeof text, "%ld", pages * 4096);
		int fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0) die("%s: %s", path, strerror(errno));
		ssize_t n = write(fd, text, strlen(text));
		int e = errno;
		close(fd);
		if (n < 0 && e != EAGAIN) die("write %s to %s: %s", text, path, strerror(e));
		emit(r, "# memcg: memory.reclaim of %ld pages: %s", pages,
		     n < 0 ? "EAGAIN (fewer were reclaimed)" : "all reclaimed");
		emit(r, "reclaim(%ld) = ?", pages);
	} else {
		snprintf(path, sizeof path, "%s/memory.force_empty", r->memcg);
		write_str(path, "0");
		emit(r, "memcg_force_empty() = 0");
	}
	snapshot(r, true, false);
	S_vmstat(r);
}

static void memcg_stat_read(struct R *r, long v[4])
{
	static const char *const keys[] = { "workingset_refault_file", "workingset_refault_anon",
					    "active_file", "inactive_file", NULL };
	if (!r->memcg[0]) die("%s: memcg_stat without a memcg (.memcg)", r->s->name);
	/* v2's: after the periodic flush (Debian's 6.1 showed 3 inactive
	 * pages of none without it) */
	memcg_stat_keys(r, keys, v, r->memcg_v == 2);
	/* the LRU sizes are in every memcg's memory.stat; the refault counts
	 * are not in 4.4's (memcg_stat_show() @ v4.4): there they stay -1 and
	 * are not written */
	for (int i = 2; keys[i]; i++)
		if (v[i] < 0) die("%s/memory.stat has no %s", r->memcg, keys[i]);
}

/* A first read of memory.stat, before the memcg's counters are first
 * wanted: without it, on 6.18.44, a memcg whose memory.stat was never
 * read showed its refaults as 0 at every later read (while its LRU sizes
 * moved), in six of six runs of a probe; with it, the counts were exact
 * in every run.  Its values are not written: the LRU sizes it shows lag
 * (1,000 or 1,023 of 1,024 pages in two runs). */
void S_memcg_stat_prime(struct R *r)
{
	long v[4];
	memcg_stat_read(r, v);
}

/* SwapTotal of /proc/meminfo, kB */
static long swap_total_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char name[128];
	long x, v = -1;
	if (!f) die("/proc/meminfo: %s", strerror(errno));
	while (fscanf(f, "%127s %ld kB", name, &x) == 2)
		if (!strcmp(name, "SwapTotal:"))
			v = x;
	fclose(f);
	if (v < 0) die("/proc/meminfo has no SwapTotal");
	return v;
}

void S_memcg_swap(struct R *r)
{
	const char *const *keys = (const char *const[]){ "shmem", "swap", NULL };
	long v[2] = { -1, -1 };
	if (!r->memcg[0] || !r->s->swap) die("%s: memcg_swap without a memcg and swap", r->s->name);
	/* v2's memory.stat has no swap: memory.swap.current is it */
	if (r->memcg_v == 2)
		keys = (const char *const[]){ "shmem", NULL };
	memcg_stat_keys(r, keys, v, true);
	if (r->memcg_v == 2)
		v[1] = memcg_long(r, "memory.swap.current");
	for (int i = 0; i < 2; i++)
		if (v[i] < 0) die("%s/memory.stat has no %s (swap accounting off?)", r->memcg, i ? "swap" : keys[i]);
	emit(r, "expect(nr_shmem) = %ld", v[0] / 4096);
	emit(r, "expect(SwapFree) = %ld kB", swap_total_kb() - v[1] / 1024);
}

void S_memcg_stat(struct R *r)
{
	long v[4];
	memcg_stat_read(r, v);
	if (v[0] >= 0)
		emit(r, "expect(workingset_refault_file) = %ld", v[0]);
	if (v[1] >= 0)
		emit(r, "expect(workingset_refault_anon) = %ld", v[1]);
	emit(r, "expect(nr_active_file) = %ld", v[2] / 4096);
	emit(r, "expect(nr_inactive_file) = %ld", v[3] / 4096);
}

static long memcg_long(struct R *r, const char *file)
{
	if (r->memcg_v == 2 && !strcmp(file, "memory.usage_in_bytes"))
		file = "memory.current";
	char path[PATH_MAX + 64];
	long v = -1;
	snprintf(path, sizeof path, "%s/%s", r->memcg, file);
	FILE *f = fopen(path, "r");
	if (!f || fscanf(f, "%ld", &v) != 1) die("%s: %s", path, f ? "no number" : strerror(errno));
	fclose(f);
	return v;
}

/* The memcg's kernel memory: 0 where the kernel has no kmem accounting
 * (CONFIG_MEMCG_KMEM off, no memory.kmem.* files): its usage is then the
 * pages alone */
static long memcg_kmem(struct R *r)
{
	char path[PATH_MAX + 64];
	if (r->memcg_v == 2) {
		/* v2 keeps no kmem counter: memory.stat's kernel (MEMCG_KMEM:
		 * slab, page tables, stacks) is it */
		long v;
		memcg_stat_keys(r, (const char *const[]){ "kernel", NULL }, &v, true);
		if (v < 0) die("%s/memory.stat has no kernel (a kernel before 5.18?)", r->memcg);
		return v;
	}
	snprintf(path, sizeof path, "%s/memory.kmem.usage_in_bytes", r->memcg);
	if (access(path, F_OK) && errno == ENOENT)
		return 0;
	return memcg_long(r, "memory.kmem.usage_in_bytes");
}

/* memory.limit_in_bytes set ROOM pages above the memcg's usage now.  The
 * trace says memcg_limit(BYTES) with BYTES the limit less the memcg's
 * kernel memory (memory.kmem.usage_in_bytes: page tables, slab): what the
 * trace's own pages may take.  The usage also counts the per-CPU stock of
 * precharged pages, but a charge meets the limit only once that stock is
 * spent, so the pages alone decide when reclaim starts.  The kernel
 * memory should not change while the limit binds; S_memcg_kmem_same()
 * writes a comment when it did. */
void S_memcg_limit(struct R *r, long room)
{
	char path[PATH_MAX + 32], text[32];
	if (!r->memcg[0]) die("%s: memcg_limit without a memcg (.memcg)", r->s->name);
	long usage = memcg_long(r, "memory.usage_in_bytes");
	r->kmem0 = memcg_kmem(r);
	long limit = usage + room * 4096;
	snprintf(path, sizeof path, "%s/%s", r->memcg, r->memcg_v == 2 ? "memory.max" : "memory.limit_in_bytes");
	snprintf(text, sizeof text, "%ld", limit);
	write_str(path, text);
	emit(r, "%s(%ld) = 0", r->memcg_v == 2 ? "memcg_max" : "memcg_limit", limit - r->kmem0);
	snapshot(r, true, false);
}

/* cgroup v2's memory.max or memory.high (FILE) set BELOW pages under the
 * memcg's usage now: the write reclaims the excess
 * (mm/memcontrol.c:memory_max_write(), memory_high_write() @ v6.1); the
 * trace says memcg_max(BYTES) or memcg_high(BYTES), BYTES less the kernel
 * memory as memcg_limit() */
void S_memcg_v2_below(struct R *r, const char *file, long below)
{
	char path[PATH_MAX + 32], text[32];
	if (r->memcg_v != 2) die("%s: %s needs cgroup v2", r->s->name, file);
	r->kmem0 = memcg_kmem(r);
	long usage = memcg_long(r, "memory.current");
	long value = usage - below * 4096;
	snprintf(path, sizeof path, "%s/%s", r->memcg, file);
	snprintf(text, sizeof text, "%ld", value);
	write_str(path, text);
	emit(r, "%s(%ld) = 0", strcmp(file, "memory.high") ? "memcg_max" : "memcg_high", value - r->kmem0);
	snapshot(r, true, false);
	S_vmstat(r);
}

/* memory.max or memory.high back to "max" */
void S_memcg_v2_unset(struct R *r, const char *file)
{
	char path[PATH_MAX + 32];
	if (r->memcg_v != 2) die("%s: %s needs cgroup v2", r->s->name, file);
	snprintf(path, sizeof path, "%s/%s", r->memcg, file);
	write_str(path, "max");
	emit(r, "%s(-1) = 0", strcmp(file, "memory.high") ? "memcg_max" : "memcg_high");
}

/* memory.events (v2): max and oom, as the trace's memcg_events_* */
void S_memcg_events(struct R *r)
{
	char path[PATH_MAX + 32], name[128];
	long x, mx = -1, oom = -1;
	if (r->memcg_v != 2) return; /* v1 has memory.failcnt, counted otherwise */
	snprintf(path, sizeof path, "%s/memory.events", r->memcg);
	FILE *f = fopen(path, "r");
	if (!f) die("%s: %s", path, strerror(errno));
	while (fscanf(f, "%127s %ld", name, &x) == 2) {
		if (!strcmp(name, "max")) mx = x;
		if (!strcmp(name, "oom")) oom = x;
	}
	fclose(f);
	if (mx < 0 || oom < 0) die("%s has no max or oom", path);
	emit(r, "expect(memcg_events_max) = %ld", mx);
	emit(r, "expect(memcg_events_oom) = %ld", oom);
}

void S_memcg_kmem_same(struct R *r)
{
	long k = memcg_kmem(r);
	if (k != r->kmem0)
		emit(r, "# memcg: its kernel memory moved from %ld to %ld bytes under the limit, which "
			"gave the trace's pages %ld bytes %s room from some point of the line above on",
		     r->kmem0, k, k < r->kmem0 ? r->kmem0 - k : k - r->kmem0, k < r->kmem0 ? "more" : "less");
	r->kmem0 = k;
}

void S_cold_file(struct R *r, const char *path, long npages)
{
	static char page[4096];
	memset(page, 'v', sizeof page);
	unlink(path);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) die("%s: %s", path, strerror(errno));
	for (long i = 0; i < npages; i++)
		if (write(fd, page, sizeof page) != (ssize_t)sizeof page) die("%s: write: %s", path, strerror(errno));
	if (fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) die("%s: fsync/fadvise", path);
	void *m = mmap(NULL, (size_t)npages * 4096, PROT_READ, MAP_SHARED, fd, 0);
	unsigned char *vec = malloc((size_t)npages);
	if (m == MAP_FAILED || !vec || mincore(m, (size_t)npages * 4096, vec)) die("%s: mincore", path);
	for (long i = 0; i < npages; i++)
		if (vec[i] & 1) die("%s: page %ld still cached after POSIX_FADV_DONTNEED", path, i);
	free(vec);
	munmap(m, (size_t)npages * 4096);
	close(fd);
	emit(r, "inherit_file(\"%s\", %ld) = 0", path, npages * 4096);
}

/* ---- scenario calls ---- */

#define B 256
long S_mmap(struct R *r, long addr, long len, long prot, long fl, long fd, long off)
{
	char a[B], p[B], f[B], o[B], res[B];
	long v = sys(r, SYS_mmap, addr, len, prot, fl, fd, off, NULL);
	if (off) snprintf(o, B, "%#lx", off); else snprintf(o, B, "0");
	emit(r, "mmap(%s, %ld, %s, %s, %ld, %s) = %s", addr_s(a, B, addr), len, prot_s(p, B, prot),
	     mapflags_s(f, B, fl), fd, o, res_s(res, B, v, true));
	snapshot(r, true, false);
	return v;
}

long S_munmap(struct R *r, long addr, long len)
{
	char res[B];
	long v = sys(r, SYS_munmap, addr, len, 0, 0, 0, 0, NULL);
	emit(r, "munmap(%#lx, %ld) = %s", addr, len, res_s(res, B, v, false));
	snapshot(r, true, false);
	return v;
}

long S_mprotect(struct R *r, long addr, long len, long prot)
{
	char p[B], res[B];
	long v = sys(r, SYS_mprotect, addr, len, prot, 0, 0, 0, NULL);
	emit(r, "mprotect(%#lx, %ld, %s) = %s", addr, len, prot_s(p, B, prot), res_s(res, B, v, false));
	snapshot(r, true, false);
	return v;
}

long S_mremap(struct R *r, long old, long oldlen, long newlen, long fl, long newaddr)
{
	char f[B], res[B];
	long v = sys(r, SYS_mremap, old, oldlen, newlen, fl, newaddr, 0, NULL);
	flags(f, B, fl, mremap_fl, "MREMAP_???");
	if (fl & 2)
		emit(r, "mremap(%#lx, %ld, %ld, %s, %#lx) = %s", old, oldlen, newlen, f, newaddr, res_s(res, B, v, true));
	else
		emit(r, "mremap(%#lx, %ld, %ld, %s) = %s", old, oldlen, newlen, f, res_s(res, B, v, true));
	snapshot(r, true, false);
	return v;
}

long S_madvise(struct R *r, long addr, long len, long adv)
{
	char res[B], an[64];
	const char *name = NULL;
	long v = sys(r, SYS_madvise, addr, len, adv, 0, 0, 0, NULL);
	for (int i = 0; madv_names[i].n; i++)
		if (madv_names[i].v == adv) name = madv_names[i].n;
	if (!name) { snprintf(an, sizeof an, "%#lx /* MADV_??? */", adv); name = an; }
	emit(r, "madvise(%#lx, %ld, %s) = %s", addr, len, name, res_s(res, B, v, false));
	snapshot(r, true, false);
	return v;
}

long S_mlock(struct R *r, long addr, long len)
{
	char res[B];
	long v = sys(r, SYS_mlock, addr, len, 0, 0, 0, 0, NULL);
	emit(r, "mlock(%#lx, %ld) = %s", addr, len, res_s(res, B, v, false));
	snapshot(r, true, false);
	return v;
}

long S_munlock(struct R *r, long addr, long len)
{
	char res[B];
	long v = sys(r, SYS_munlock, addr, len, 0, 0, 0, 0, NULL);
	emit(r, "munlock(%#lx, %ld) = %s", addr, len, res_s(res, B, v, false));
	snapshot(r, true, false);
	return v;
}

long S_mlock2(struct R *r, long addr, long len, long fl)
{
	char f[B], res[B];
	long v = sys(r, SYS_mlock2, addr, len, fl, 0, 0, 0, NULL);
	emit(r, "mlock2(%#lx, %ld, %s) = %s", addr, len, flags(f, B, (unsigned int)fl, mlock2_fl, "MLOCK_???"),
	     res_s(res, B, v, false));
	snapshot(r, true, false);
	return v;
}

long S_mlockall(struct R *r, long fl)
{
	char f[B], res[B];
	long v = sys(r, SYS_mlockall, fl, 0, 0, 0, 0, 0, NULL);
	emit(r, "mlockall(%s) = %s", flags(f, B, (unsigned int)fl, mcl_fl, "MCL_???"), res_s(res, B, v, false));
	snapshot(r, true, false);
	return v;
}

long S_munlockall(struct R *r)
{
	char res[B];
	long v = sys(r, SYS_munlockall, 0, 0, 0, 0, 0, 0, NULL);
	emit(r, "munlockall() = %s", res_s(res, B, v, false));
	snapshot(r, true, false);
	return v;
}

long S_touch(struct R *r, long addr, long len, int mode)
{
	long a[6] = {addr, len, mode};
	long nf = call(r, REC_TOUCH, 0, a, NULL).aux;
	emit(r, "touch(%#lx, %ld, %s) = %ld", addr, len, mode == A_WRITE ? "WRITE" : "READ", nf);
	snapshot(r, false, false);
	return nf;
}

long S_openat(struct R *r, const char *path, long fl, long mode)
{
	char f[B], res[B];
	long v = sys(r, SYS_openat, AT_FDCWD, REC_ARG_STR, fl, mode, 0, 0, path);
	const char *acc = (fl & 3) == 2 ? "O_RDWR" : (fl & 3) == 1 ? "O_WRONLY" : "O_RDONLY";
	if (fl & ~3L) {
		char g[B];
		snprintf(f, B, "%s|%s", acc, flags(g, B, fl & ~3L, open_fl, "O_???"));
	} else
		snprintf(f, B, "%s", acc);
	if (fl & 0100)
		emit(r, "openat(AT_FDCWD, \"%s\", %s, %04lo) = %s", path, f, mode, res_s(res, B, v, false));
	else
		emit(r, "openat(AT_FDCWD, \"%s\", %s) = %s", path, f, res_s(res, B, v, false));
	snapshot(r, false, false);
	return v;
}

long S_ftruncate(struct R *r, long fd, long len)
{
	char res[B];
	long v = sys(r, SYS_ftruncate, fd, len, 0, 0, 0, 0, NULL);
	emit(r, "ftruncate(%ld, %ld) = %s", fd, len, res_s(res, B, v, false));
	snapshot(r, false, false);
	return v;
}

long S_pwrite(struct R *r, long fd, long len, long off)
{
	char res[B];
	if (len > REC_XBUF) die("pwrite too long");
	long v = sys(r, SYS_pwrite64, fd, REC_ARG_XBUF, len, off, 0, 0, NULL);
	emit(r, "pwrite64(%ld, \"%.*s\"%s, %ld, %ld) = %s", fd, (int)(len < 32 ? len : 32),
	     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", len > 32 ? "..." : "", len, off, res_s(res, B, v, false));
	snapshot(r, false, false);
	return v;
}

long S_fadvise(struct R *r, long fd, long off, long len, long advice)
{
	char res[B];
	static const char *const adv[] = { "POSIX_FADV_NORMAL", "POSIX_FADV_RANDOM", "POSIX_FADV_SEQUENTIAL",
					   "POSIX_FADV_WILLNEED", "POSIX_FADV_DONTNEED", "POSIX_FADV_NOREUSE" };
	if (advice < 0 || advice > 5) die("fadvise advice %ld", advice);
	long v = sys(r, SYS_fadvise64, fd, off, len, advice, 0, 0, NULL);
	emit(r, "fadvise64(%ld, %ld, %ld, %s) = %s", fd, off, len, adv[advice], res_s(res, B, v, false));
	snapshot(r, false, false);
	return v;
}

long S_fallocate(struct R *r, long fd, long mode, long off, long len)
{
	char res[B], m[B];
	static const struct fl fa_fl[] = {{1, "FALLOC_FL_KEEP_SIZE"}, {2, "FALLOC_FL_PUNCH_HOLE"}, {0, NULL}};
	long v = sys(r, SYS_fallocate, fd, mode, off, len, 0, 0, NULL);
	emit(r, "fallocate(%ld, %s, %ld, %ld) = %s", fd, flags(m, B, mode, fa_fl, "FALLOC_FL_???"), off, len,
	     res_s(res, B, v, false));
	snapshot(r, false, false);
	return v;
}

long S_close(struct R *r, long fd)
{
	char res[B];
	long v = sys(r, SYS_close, fd, 0, 0, 0, 0, 0, NULL);
	emit(r, "close(%ld) = %s", fd, res_s(res, B, v, false));
	snapshot(r, false, false);
	return v;
}

long S_unlink(struct R *r, const char *path)
{
	char res[B];
	long v = sys(r, SYS_unlink, REC_ARG_STR, 0, 0, 0, 0, 0, path);
	emit(r, "unlink(\"%s\") = %s", path, res_s(res, B, v, false));
	snapshot(r, false, false);
	return v;
}

static const char *rlim_s(char *b, size_t n, long v)
{
	if (v < 0) snprintf(b, n, "RLIM64_INFINITY");
	else if (v && v % 1024 == 0) snprintf(b, n, "%ld*1024", v / 1024);
	else snprintf(b, n, "%ld", v);
	return b;
}

long S_prlimit(struct R *r, long cur, long max)
{
	char c[64], m[64], res[B];
	struct rec_cmd dummy;
	long lim[2] = {cur, max};
	(void)dummy;
	char str[REC_STRMAX];
	memset(str, 0, sizeof str);
	memcpy(str, lim, sizeof lim);
	/* the limit travels in the string buffer (binary, 16 bytes) */
	struct rec_cmd cc;
	memset(&cc, 0, sizeof cc);
	long a[6] = {0, RLIMIT_MEMLOCK, REC_ARG_STR, 0, 0, 0};
	struct rec_reply rep;
	{
		cc.op = REC_SYSCALL; cc.nr = SYS_prlimit64;
		memcpy(cc.a, a, sizeof a);
		memcpy(cc.str, str, sizeof cc.str);
		if (write(r->cmdw, &cc, sizeof cc) != (ssize_t)sizeof cc) die("write");
		size_t got = 0;
		while (got < sizeof rep) {
			ssize_t k = read(r->repr, (char *)&rep + got, sizeof rep - got);
			if (k <= 0) die("child died in prlimit");
			got += (size_t)k;
		}
	}
	emit(r, "prlimit64(0, RLIMIT_MEMLOCK, {rlim_cur=%s, rlim_max=%s}, NULL) = %s",
	     rlim_s(c, sizeof c, cur), rlim_s(m, sizeof m, max), res_s(res, B, rep.ret, false));
	snapshot(r, false, false);
	return rep.ret;
}

long S_fork(struct R *r)
{
	if (r->np >= MAXP) die("too many processes");
	struct rec_reply rep = call(r, REC_FORK, 0, NULL, NULL);
	int parent = r->cur;
	r->pid[r->np] = (pid_t)rep.self;
	r->parent_of[r->np] = parent;
	int num = r->np + 1;
	emit(r, "fork() = %d", num);
	emit(r, "expect(VmLck) = %lu kB", status_kb(r, "VmLck"));
	r->cur = r->np++;
	snapshot(r, true, false);
	return num;
}

void S_child_exit(struct R *r)
{
	long a[6] = {0};
	int child = r->cur;
	call(r, REC_EXIT, 0, a, NULL);
	emit(r, "exit_group(0) = ?");
	emit(r, "+++ exited with 0 +++");
	r->cur = r->parent_of[child];
	size_t got = 0;
	struct rec_reply rep;
	while (got < sizeof rep) {
		ssize_t k = read(r->repr, (char *)&rep + got, sizeof rep - got);
		if (k <= 0) die("parent died in wait4");
		got += (size_t)k;
	}
	if (rep.ret != r->pid[child] || rep.aux != 0) die("wait4: %ld status %ld", rep.ret, rep.aux);
	emit(r, "wait4(%d, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = %d", child + 1, child + 1);
	snapshot(r, true, false);
}

static void copy_file(const char *from, const char *to, const char *keys)
{
	FILE *f = fopen(from, "r"), *t = fopen(to, "w");
	char line[1024];
	if (!f || !t) die("capture %s -> %s: %s", from, to, strerror(errno));
	while (fgets(line, sizeof line, f)) {
		if (keys) {
			char k[64];
			const char *c = strchr(line, ':');
			if (!c || c - line >= 60) continue;
			snprintf(k, sizeof k, " %.*s ", (int)(c - line), line);
			if (!strstr(keys, k)) continue;
		}
		fputs(line, t);
	}
	fclose(f);
	fclose(t);
}

void S_capture(struct R *r)
{
	char from[64], to[PATH_MAX];
	pid_t pid = r->pid[r->cur];
	fflush(r->out);
	snprintf(to, sizeof to, "%s/%s.trace", r->viewdir, r->s->name);
	FILE *t = fopen(to, "w");
	if (!t) die("%s: %s", to, strerror(errno));
	fwrite(r->buf, 1, r->bufsz, t);
	fclose(t);
	snprintf(from, sizeof from, "/proc/%d/maps", pid);
	snprintf(to, sizeof to, "%s/%s.maps", r->viewdir, r->s->name);
	copy_file(from, to, NULL);
	snprintf(from, sizeof from, "/proc/%d/smaps", pid);
	snprintf(to, sizeof to, "%s/%s.smaps", r->viewdir, r->s->name);
	copy_file(from, to, NULL);
	snprintf(from, sizeof from, "/proc/%d/status", pid);
	snprintf(to, sizeof to, "%s/%s.status", r->viewdir, r->s->name);
	copy_file(from, to, " VmSize VmLck VmPin VmRSS RssAnon RssFile VmSwap ");
	S_note(r, "(the views of this point are in traces/views/)");
}

unsigned long rnd(struct R *r, unsigned long n)
{
	r->rs ^= r->rs << 13;
	r->rs ^= r->rs >> 7;
	r->rs ^= r->rs << 17;
	return n ? r->rs % n : 0;
}

/* ---- one scenario ---- */

/* Does an anonymous read fault map the shared zero page on this kernel?
 * (kpageflags bit 24 KPF_ZERO_PAGE of the page a read fault mapped.)
 * Upstream kernels do; kernels booted with pvm_no_zero_page=1 do not. */
/* read_ahead_kb of the bdi behind /tmp, where the scenarios' disk files
 * live (ra_pages of their file_ra_state); -1 when it cannot be read */
static long tmp_read_ahead_kb(void)
{
	struct stat st;
	if (stat("/tmp", &st))
		return -1;
	char path[96];
	snprintf(path, sizeof path, "/sys/class/bdi/%u:%u/read_ahead_kb", major(st.st_dev),
		 minor(st.st_dev));
	FILE *f = fopen(path, "r");
	long kb = -1;
	if (f) {
		if (fscanf(f, "%ld", &kb) != 1)
			kb = -1;
		fclose(f);
	}
	return kb;
}

static bool kernel_maps_zero_page(void)
{
	volatile char *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap probe: %s", strerror(errno));
	(void)p[0];
	uint64_t e = 0, fl = 0;
	int pm = open("/proc/self/pagemap", O_RDONLY), kf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kf < 0 || pread(pm, &e, 8, ((uintptr_t)p / 4096) * 8) != 8)
		die("zero-page probe: %s", strerror(errno));
	uint64_t pfn = e & ((1ULL << 55) - 1);
	if (pread(kf, &fl, 8, (off_t)(pfn * 8)) != 8)
		die("zero-page probe: kpageflags");
	close(pm);
	close(kf);
	munmap((void *)p, 4096);
	return (fl >> 24) & 1;
}

static void header(struct R *r)
{
	const struct scen *s = r->s;
	struct utsname u;
	char rl[64];
	uname(&u);
	if (s->rlimit < 0) snprintf(rl, sizeof rl, "unlimited");
	else if (s->rlimit == 0) snprintf(rl, sizeof rl, "0");
	else if (s->rlimit % (1024 * 1024) == 0) snprintf(rl, sizeof rl, "%ldM", s->rlimit >> 20);
	else if (s->rlimit % 1024 == 0) snprintf(rl, sizeof rl, "%ldK", s->rlimit >> 10);
	else snprintf(rl, sizeof rl, "%ld", s->rlimit);
	char rel[sizeof u.release];
	snprintf(rel, sizeof rel, "%s", u.release);
	char *dash = strchr(rel, '-');
	if (dash) *dash = 0;
	FILE *o = r->out;
	/* swap: 0, unless the scenario needs swap; a machine with swap would
	 * record other reclaim (anonymous pages scanned and swapped) */
	FILE *sw = fopen("/proc/swaps", "r");
	char swl[256];
	if (!sw || !fgets(swl, sizeof swl, sw)) die("/proc/swaps: %s", strerror(errno));
	bool swap_on = fgets(swl, sizeof swl, sw) != NULL;
	fclose(sw);
	if (swap_on && !s->swap) die("swap is on (/proc/swaps): the recorder writes swap: 0; swapoff -a first");
	if (!swap_on && s->swap) die("%s needs swap on (record-all.sh sets up a zram device)", s->name);
	fprintf(o, "# vmsim-trace: 1\n# arch: x86_64\n# kernel: %s\n# page-size: 4096\n",
		kernel_name ? kernel_name : rel);
	if (s->swap) {
		/* the device's size: SwapTotal leaves out its header page */
		long kb = swap_total_kb() + 4;
		if (kb % 1024) die("swap of %ld kB: not whole MiB", kb);
		fprintf(o, "# swap: %ldM\n", kb / 1024);
	}
	else
		fprintf(o, "# swap: 0\n");
	long rakb = tmp_read_ahead_kb();
	if (rakb >= 0)
		fprintf(o, "# read-ahead-kb: %ld\n", rakb);
	bool zp = kernel_maps_zero_page();
	/* CONFIG_MEM_SOFT_DIRTY: smaps prints "sd", and every VMA exec made has it */
	bool sd = false;
	{
		FILE *sm = fopen("/proc/self/smaps", "r");
		char l[512];
		while (sm && !sd && fgets(l, sizeof l, sm))
			sd = !strncmp(l, "VmFlags:", 8) && (strstr(l, " sd ") || strstr(l, " sd\n"));
		if (sm)
			fclose(sm);
	}
	if (sd)
		fprintf(o, "# soft-dirty: yes\n");
	/* run as root: only CAP_IPC_LOCK is ever dropped (from the bounding set) */
	fprintf(o, "# rlimit-memlock: %s\n# cap-ipc-lock: %s\n# cap-sys-resource: yes\n# zero-page: %s\n", rl,
		s->cap ? "yes" : "no", zp ? "yes" : "no");
	fprintf(o, "# scenario: golden/%s\n", s->name);
	if (s->gen >= 2) fprintf(o, "# zero-page-sensitive: @@@\n");
	if (s->seed) fprintf(o, "# seed: %lu\n", s->seed);
	fprintf(o, "# description: %s\n", s->desc);
	fprintf(o, "# recorded-by: vmsim-recorder 1 (tools/scenario-recorder) on Linux %s %s (%ld cpus), as root\n",
		rel, u.machine, sysconf(_SC_NPROCESSORS_ONLN));
	if (zp)
		fprintf(o, "# kernel-note: an anonymous read fault maps the shared zero page (probed with\n"
			   "# kernel-note: kpageflags before recording; this kernel lacks pvm_no_zero_page=1)\n");
	else
		fprintf(o, "# kernel-note: booted with pvm_no_zero_page=1: an anonymous read fault takes a\n"
			   "# kernel-note: private page, never the shared zero page (upstream maps the zero page)\n");
	/* the multi-gen LRU (mm/vmscan.c, CONFIG_LRU_GEN): vmsim models the
	 * classic lists, so reclaim recorded under MGLRU is not what it
	 * replays; Debian's 6.12 and 6.18 enable it by default */
	FILE *lg = fopen("/sys/kernel/mm/lru_gen/enabled", "r");
	unsigned long lgv = 0;
	if (lg) {
		if (fscanf(lg, "%lx", &lgv) != 1) lgv = 0;
		fclose(lg);
	}
	if (lgv) {
		if (s->memcg) die("%s: the multi-gen LRU is on (/sys/kernel/mm/lru_gen/enabled %#lx); vmsim models "
				  "the classic LRU: echo n > /sys/kernel/mm/lru_gen/enabled", s->name, lgv);
		fprintf(o, "# kernel-note: the multi-gen LRU was on (lru_gen %#lx); vmsim models the classic LRU\n", lgv);
	}
	if (s->memcg && r->memcg_v == 2)
		fprintf(o, "# memcg: the traced process runs alone in a fresh memory cgroup (v2), joined\n"
			   "# memcg: before its first page; reclaim(N) is a write of N pages to its\n"
			   "# memcg: memory.reclaim, memcg_max() and memcg_high() writes to memory.max and\n"
			   "# memcg: memory.high (less its kernel memory, memory.stat's kernel).\n"
			   "# memcg: expect(COUNTER) lines are /proc/vmstat deltas since the trace began\n"
			   "# memcg: (the machine was otherwise idle), memcg_events_* its memory.events\n");
	else if (s->memcg)
		fprintf(o, "# memcg: the traced process runs alone in a fresh memory cgroup (v1), joined\n"
			   "# memcg: before its first page; memcg_force_empty() is a write of 0 to its\n"
			   "# memcg: memory.force_empty. expect(COUNTER) lines are /proc/vmstat deltas\n"
			   "# memcg: since the trace began (the machine was otherwise idle)\n");
	if (s->pinned)
		fprintf(o, "# cpus: the traced process (and every process it forks) ran on CPU 0 alone:\n"
			   "# cpus: one CPU's per-CPU batches, drained only where its own code drains\n");
	if (s->loaded)
		fprintf(o, "# load: another process on the other CPUs called migrate_pages() in a loop\n"
			   "# load: (lru_cache_disable(): every CPU's batches drained, again and again)\n");
	if (s->swap)
		fprintf(o, "# swap-note: a zram device (synchronous writes: a page written to swap is freed in\n"
			   "# swap-note: the pass that wrote it); DAMON's pageout scheme was paused while it was on.\n"
			   "# swap-note: expect(nr_shmem) and expect(SwapFree) are the memcg's memory.stat shmem,\n"
			   "# swap-note: and the swap size less its swap\n");
	fprintf(o, "# page expectations are read after draining the per-cpu LRU batches\n"
		   "# page keys: present mlocked unevictable lru (active is not stable under load)\n"
		   "# recorder runtime: the traced process is a static program without libc. It copies\n"
		   "# its 131072-byte image into an anonymous mapping and moves that over the image\n"
		   "# (mmap, touch, mremap below), then unmaps the stack, vdso and vvar that execve\n"
		   "# made (munmap below; the model never saw them). The mapping at 0x400000 is then\n"
		   "# the only one, and all of its pages are present. The scenario follows.\n");
}

/* The memory controller this machine offers: 1 when v1's is mounted at
 * /sys/fs/cgroup/memory, 2 when cgroup2 at /sys/fs/cgroup has it, 0 none */
static int memcg_version(void)
{
	if (!access("/sys/fs/cgroup/memory/tasks", F_OK))
		return 1;
	FILE *f = fopen("/sys/fs/cgroup/cgroup.controllers", "r");
	char w[64];
	int v = 0;
	if (!f)
		return 0;
	while (fscanf(f, "%63s", w) == 1)
		if (!strcmp(w, "memory"))
			v = 2;
	fclose(f);
	return v;
}

static void setup(struct R *r)
{
	char res[B];
	long dst = sys(r, SYS_mmap, 0, REC_IMAGE_SIZE, 7, 0x22, -1, 0, NULL);
	emit(r, "mmap(NULL, %ld, PROT_READ|PROT_WRITE|PROT_EXEC, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = %s",
	     REC_IMAGE_SIZE, res_s(res, B, dst, true));
	long a[6] = {dst, REC_IMAGE_SIZE};
	struct rec_reply rep = call(r, REC_COPYMOVE, 0, a, NULL);
	emit(r, "touch(%#lx, %ld, WRITE) = %ld", dst, REC_IMAGE_SIZE, rep.aux);
	emit(r, "mremap(%#lx, %ld, %ld, MREMAP_MAYMOVE|MREMAP_FIXED, %#lx) = %s", dst, REC_IMAGE_SIZE,
	     REC_IMAGE_SIZE, REC_IMAGE, res_s(res, B, rep.ret, true));
	/* unmap everything else execve made: [vvar*], [vdso], [stack] */
	for (;;) {
		char path[64], line[512];
		snprintf(path, sizeof path, "/proc/%d/maps", r->pid[0]);
		FILE *f = fopen(path, "r");
		long s = 0, e = 0;
		while (fgets(line, sizeof line, f)) {
			unsigned long ls, le;
			sscanf(line, "%lx-%lx", &ls, &le);
			/* before 4.12 the stack's guard page is hidden: what is left
			 * of the stack after its shown part went shows as empty */
			if (ls == le)
				ls -= 4096;
			if ((long)ls == REC_IMAGE || ls >= 0x800000000000UL) continue; /* vsyscall */
			if (!s) { s = (long)ls; e = (long)le; }
			else if ((long)ls == e) e = (long)le;
		}
		fclose(f);
		if (!s) break;
		long v = sys(r, SYS_munmap, s, e - s, 0, 0, 0, 0, NULL);
		emit(r, "munmap(%#lx, %ld) = %s", s, e - s, res_s(res, B, v, false));
		if (v) die("munmap failed");
	}
	snapshot(r, true, true);
	fprintf(r->out, "# scenario begins\n");
}

static int run(const struct scen *s)
{
	struct R *r = calloc(1, sizeof *r);
	int cp[2], rp[2];
	r->s = s;
	r->viewdir = viewdir;
	r->rs = s->seed ? s->seed * 0x9E3779B97F4A7C15UL : 1;
	r->out = open_memstream(&r->buf, &r->bufsz);
	if (pipe(cp) || pipe(rp)) die("pipe");
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit rl = {(rlim_t)s->rlimit, (rlim_t)s->rlimit};
		if (s->rlimit < 0) rl.rlim_cur = rl.rlim_max = RLIM_INFINITY;
		if (setrlimit(RLIMIT_MEMLOCK, &rl)) _exit(120);
		if (personality(ADDR_NO_RANDOMIZE) < 0) _exit(121);
		if (!s->cap && prctl(PR_CAPBSET_DROP, CAP_IPC_LOCK, 0, 0, 0)) _exit(122);
		if (dup2(cp[0], 0) < 0 || dup2(rp[1], 1) < 0) _exit(123);
		syscall(SYS_close_range, 3, ~0U, 0);
		char *argv[] = {"rec-child", NULL}, *envp[] = {NULL};
		execve(child_path, argv, envp);
		_exit(124);
	}
	close(cp[0]);
	close(rp[1]);
	r->cmdw = cp[1];
	r->repr = rp[0];
	r->top = pid;
	r->pid[0] = pid;
	r->np = 1;
	struct rec_reply hello;
	if (read(r->repr, &hello, sizeof hello) != (ssize_t)sizeof hello) die("%s: no hello", s->name);
	if (s->pinned && !s->memcg) {
		/* one CPU: its per-CPU LRU and mlock batches are one queue in
		 * the trace's order, drained only where that CPU's code does */
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(0, &one);
		if (sched_setaffinity(pid, sizeof one, &one)) die("sched_setaffinity: %s", strerror(errno));
	}
	pid_t drainer = 0;
	if (s->loaded) {
		/* another CPU's drains, all the time: migrate_pages() calls
		 * lru_cache_disable() -> lru_add_drain_all() */
		drainer = fork();
		if (drainer == 0) {
			cpu_set_t rest;
			CPU_ZERO(&rest);
			for (int c = 1; c < CPU_SETSIZE && c < 64; c++)
				CPU_SET(c, &rest);
			sched_setaffinity(0, sizeof rest, &rest); /* one CPU only: shares CPU 0 */
			unsigned long mask = 1;
			for (;;)
				syscall(SYS_migrate_pages, 0, 2, &mask, &mask);
		}
		if (drainer < 0) die("fork: %s", strerror(errno));
	}
	if (s->memcg) {
		/* before the child's first page: everything the trace maps is
		 * charged to this memcg, and nothing else is */
		char tasks[PATH_MAX + 16], pidtext[32];
		/* the v1 controller where it is mounted, else v2's at
		 * /sys/fs/cgroup with the memory controller given to children */
		r->memcg_v = memcg_version();
		if (!r->memcg_v)
			die("%s: no memory controller (cgroup v1 at /sys/fs/cgroup/memory or v2 at /sys/fs/cgroup)",
			    s->name);
		if (s->memcg == 2 && r->memcg_v != 2)
			die("%s needs cgroup v2 (memory.max, memory.high); this machine's memory controller is v1",
			    s->name);
		if (r->memcg_v == 2) {
			write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
			snprintf(r->memcg, sizeof r->memcg, "/sys/fs/cgroup/vmrec-%d", (int)pid);
		} else
			snprintf(r->memcg, sizeof r->memcg, "/sys/fs/cgroup/memory/vmrec-%d", (int)pid);
		if (mkdir(r->memcg, 0755))
			die("%s: %s (memcg v1 at /sys/fs/cgroup/memory or v2 at /sys/fs/cgroup, as root)", r->memcg,
			    strerror(errno));
		snprintf(tasks, sizeof tasks, "%s/%s", r->memcg, r->memcg_v == 2 ? "cgroup.procs" : "tasks");
		snprintf(pidtext, sizeof pidtext, "%d", (int)pid);
		write_str(tasks, pidtext);
		/* one CPU: its per-CPU LRU and mlock batches are then one queue
		 * in the trace's order, not split by a migration mid-call */
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(0, &one);
		if (sched_setaffinity(pid, sizeof one, &one)) die("sched_setaffinity: %s", strerror(errno));
	}
	/* what an earlier process left in the per-CPU batches (the munlocks
	 * of its exit, say) would be counted when this trace's calls drain
	 * them: drain every CPU before the counters' baseline */
	if (s->memcg)
		drain(r);
	read_vmstat(r->vm0);
	header(r);
	setup(r);
	s->fn(r, s);
	long a[6] = {0};
	if (r->cur != 0) die("%s: forked child still driven at the end", s->name);
	call(r, REC_EXIT, 0, a, NULL);
	emit(r, "exit_group(0) = ?");
	emit(r, "+++ exited with 0 +++");
	int st;
	waitpid(pid, &st, 0);
	if (drainer > 0) {
		kill(drainer, SIGKILL);
		waitpid(drainer, NULL, 0);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) die("%s: child status %#x", s->name, st);
	if (r->memcg[0] && rmdir(r->memcg)) die("rmdir %s: %s", r->memcg, strerror(errno));
	fclose(r->out);
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s.trace", outdir, s->name);
	FILE *f = fopen(path, "w");
	if (!f) die("%s: %s", path, strerror(errno));
	char *zp = s->gen >= 2 ? strstr(r->buf, "# zero-page-sensitive: @@@\n") : NULL;
	if (zp) {
		fwrite(r->buf, 1, (size_t)(zp - r->buf), f);
		fprintf(f, "# zero-page-sensitive: %s\n", r->zpseen ? "yes" : "no");
		fwrite(zp + 27, 1, r->bufsz - (size_t)(zp + 27 - r->buf), f);
	} else
		fwrite(r->buf, 1, r->bufsz, f);
	fclose(f);
	close(r->cmdw);
	close(r->repr);
	free(r->buf);
	free(r);
	return 0;
}

int main(int argc, char **argv)
{
	int opt;
	bool list = false;
	unsigned long sfirst = 0, slast = 0, tfirst = 0, tlast = 0;
	int sgen = 2; /* -s records this generator version; -S is version 3 */
	while ((opt = getopt(argc, argv, "o:v:lG:s:S:k:")) != -1) {
		if (opt == 'G') {
			sgen = atoi(optarg);
			if (!rec_random(sgen, 1)) die("-G %s: the random generator has versions 2 and 3", optarg);
		} else if (opt == 's') {
			char *e;
			sfirst = slast = strtoul(optarg, &e, 10);
			if (*e == '-') slast = strtoul(e + 1, NULL, 10);
		} else if (opt == 'S') {
			char *e;
			tfirst = tlast = strtoul(optarg, &e, 10);
			if (*e == '-') tlast = strtoul(e + 1, NULL, 10);
		} else if (opt == 'o') outdir = optarg;
		else if (opt == 'v') viewdir = optarg;
		else if (opt == 'l') list = true;
		else if (opt == 'k') kernel_name = optarg;
		else die("usage: recorder [-o DIR] [-v VIEWDIR] [-k KERNEL] [-l] [-G VERSION] [-s SEED[-SEED]] [-S SEED[-SEED]] [NAME...]");
	}
	if (list) {
		for (unsigned i = 0; i < rec_nscenarios; i++)
			printf("%s\t%s\n", rec_scenarios[i].name, rec_scenarios[i].desc);
		return 0;
	}
	ssize_t n = readlink("/proc/self/exe", child_path, sizeof child_path - 16);
	if (n < 0) die("readlink");
	child_path[n] = 0;
	char *sl = strrchr(child_path, '/');
	strcpy(sl + 1, "rec-child");
	signal(SIGPIPE, SIG_IGN);
	/* the child reads its whole image when it copies it: a page of it
	 * missing from the page cache would be read then, and charged to a
	 * pressure scenario's memcg as a page the trace does not show */
	int img = open(child_path, O_RDONLY | O_CLOEXEC);
	static char imgbuf[1 << 16];
	if (img < 0) die("%s: %s", child_path, strerror(errno));
	while (read(img, imgbuf, sizeof imgbuf) > 0)
		;
	close(img);
	/* the scenarios' files have fixed names: one recorder at a time */
	int lk = open("/tmp/vmrec-recorder.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lk < 0 || flock(lk, LOCK_EX)) die("lock /tmp/vmrec-recorder.lock: %s", strerror(errno));
	int done = 0;
	if (tfirst) { /* -S FIRST[-LAST]: random scenarios of generator version 3 */
		for (unsigned long sd = tfirst; sd <= tlast; sd++) {
			const struct scen *rs = rec_random(3, sd);
			if (!rs) die("out of memory");
			run(rs);
			fprintf(stderr, "recorded %s\n", rs->name);
		}
		if (!sfirst) return 0;
	}
	if (sfirst) { /* -s FIRST[-LAST]: random scenarios of version -G (2) */
		for (unsigned long sd = sfirst; sd <= slast; sd++) {
			const struct scen *rs = rec_random(sgen, sd);
			if (!rs) die("out of memory");
			run(rs);
			fprintf(stderr, "recorded %s\n", rs->name);
		}
		return 0;
	}
	/* all scenarios: those of this swap state (with-swap.sh records the
	 * others); a scenario named is recorded or refused by header() */
	FILE *sw = fopen("/proc/swaps", "r");
	char swl[256];
	if (!sw || !fgets(swl, sizeof swl, sw)) die("/proc/swaps: %s", strerror(errno));
	bool swap_on = fgets(swl, sizeof swl, sw) != NULL;
	fclose(sw);
	for (unsigned i = 0; i < rec_nscenarios; i++) {
		bool want = optind == argc && rec_scenarios[i].swap == swap_on;
		for (int j = optind; j < argc; j++)
			if (!strcmp(argv[j], rec_scenarios[i].name)) want = true;
		if (!want) continue;
		run(&rec_scenarios[i]);
		fprintf(stderr, "recorded %s\n", rec_scenarios[i].name);
		done++;
	}
	if (!done) die("no scenario matched");
	return 0;
}
