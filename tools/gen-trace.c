/*
 * gen-trace.c - benchmark traces and the two measuring loops of
 * tools/bench.sh.  Built by bench.sh itself (not by the Makefile) against
 * build/libvmsim-sim.a and build/libvmsim-model.a.
 *
 *   gen-trace gen parse N      N lines of mixed events (calls, faults, expects)
 *   gen-trace gen touch GB     fault every page of a GB mapping, one line each
 *   gen-trace gen vmas N       grow the VMA count to N (mprotect every other page)
 *   gen-trace gen mlock GB     touch, then mlock a GB mapping
 *   gen-trace gen vmas-touch N M   N VMAs, then M random one-page reads over them
 *   gen-trace gen stream FILE MB   a dumped access stream (perf-baseline -d) as a trace
 *   gen-trace gen munson STRATEGY stride|random N MB [SEED [OTHER]]   seed 001's benchmark as
 *                              perf-baseline's eric runs it (strategies: locked mlock
 *                              onfault each plain segvN; GEN_KERNEL=lof-v1 for 2015's flags;
 *                              OTHER: the program's own VMAs, inherited)
 *   gen-trace gen mplay STRIDE LAST [random]   seed 004's stride-100 mplay as perf-baseline
 *                              runs it: a ~1 TB sparse ext4 file (read_ahead_kb 8192) mapped
 *                              shared read-only, one read every STRIDE pages up to page LAST
 *                              (random: MADV_RANDOM first)
 *   gen-trace gen minflt MODE [warm] [N]   seed 002's minor-fault program as
 *                              perf-baseline's minflt runs it: a /dev/shm file of N
 *                              (500,000) fallocate()d pages, then (MODE) fault: mmap
 *                              shared read-only and read a byte per page; populate:
 *                              the same with MAP_POPULATE; nonblock: with
 *                              MAP_POPULATE|MAP_NONBLOCK; pread: pread() every page.
 *                              warm: map, read and unmap the file first.  A line
 *                              `# setup-ends` marks where setup_minflt stops
 *   gen-trace gen reclaim      64 MiB of RAM, 512 MiB of file read through it
 *   gen-trace gen lof-random N GB   seed 001's benchmark: a GB file mlock2(ONFAULT)ed,
 *                              N random page reads (lof-stride: one page in 100)
 *   gen-trace parse FILE       read every event, nothing else: lines/s, MB/s
 *   gen-trace replay FILE      replay on the model (no result checks): events/s,
 *                              max RSS, resident simulated pages, bytes per page
 *
 * Generated traces go to stdout; figures are printed, never judged.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "replay.h"
#include "trace.h"
#include "vmstat.h"
#include "vmsys.h"

#define PG 4096ULL
#define BASE 0x100000000ULL

static const char *kernel_name = "6.18"; /* GEN_KERNEL in the environment */

static void header(const char *ram, const char *what)
{
	printf("# vmsim-trace: 1\n# arch: x86_64\n# kernel: %s\n# page-size: 4096\n", kernel_name);
	printf("# ram: %s\n# swap: 0\n# rlimit-memlock: unlimited\n# cap-ipc-lock: yes\n", ram);
	printf("# max-map-count: 65530\n# zero-page: no\n# description: bench: %s\n", what);
}

/* A deterministic mix over 64 slots of 16 pages: every line kind the
 * reader handles, results recorded (parse only: they need not be true). */
static void gen_parse(unsigned long n)
{
	header("24G", "parse throughput, mixed lines");
	uint64_t x = 88172645463325252ULL;
	for (unsigned long i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t a = BASE + (x % 64) * 16 * PG, len = (1 + (x >> 8) % 16) * PG;
		switch ((x >> 20) % 12) {
		case 0:
			printf("mmap(%#llx, %llu, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = %#llx\n",
			       (unsigned long long)a, (unsigned long long)len, (unsigned long long)a);
			break;
		case 1: printf("mlock(%#llx, %llu) = 0\n", (unsigned long long)a, (unsigned long long)len); break;
		case 2: printf("munlock(%#llx, %llu) = 0\n", (unsigned long long)a, (unsigned long long)len); break;
		case 3:
			printf("mlock2(%#llx, %llu, MLOCK_ONFAULT) = 0\n", (unsigned long long)a,
			       (unsigned long long)len);
			break;
		case 4:
			printf("mprotect(%#llx, %llu, PROT_READ) = -1 ENOMEM (Cannot allocate memory)\n",
			       (unsigned long long)a, (unsigned long long)len);
			break;
		case 5: printf("fault(%#llx, WRITE) = MINOR\n", (unsigned long long)a); break;
		case 6:
			printf("touch(%#llx, %llu, READ) = ?\n", (unsigned long long)a, (unsigned long long)len);
			break;
		case 7: printf("expect(VmLck) = %llu kB\n", (unsigned long long)(x % 4096) * 4); break;
		case 8:
			printf("expect(vma, %#llx) = {start=%#llx, Rss=8 kB, Locked=0 kB, VmFlags=\"rd wr mr mw me lo ac\"}\n",
			       (unsigned long long)a, (unsigned long long)a);
			break;
		case 9:
			printf("expect(page, %#llx) = {present=1, mlocked=1, unevictable=1, lru=1}\n",
			       (unsigned long long)a);
			break;
		case 10:
			printf("1234  12:00:00.%06lu munmap(%#llx, %llu) = 0\n", i % 1000000,
			       (unsigned long long)a, (unsigned long long)len);
			break;
		default:
			printf("mlockall(MCL_CURRENT|MCL_ONFAULT) = 0\n");
			break;
		}
	}
}

static void gen_touch(unsigned gb)
{
	uint64_t len = (uint64_t)gb << 30;
	header("24G", "fault in every page of a large mapping, one fault() line per page");
	printf("mmap(%#llx, %llu, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = %#llx\n",
	       (unsigned long long)BASE, (unsigned long long)len, (unsigned long long)BASE);
	for (uint64_t a = BASE; a < BASE + len; a += PG)
		printf("fault(%#llx, WRITE) = MINOR\n", (unsigned long long)a);
	printf("expect(VmRSS) = %llu kB\n", (unsigned long long)(len >> 10));
}

static void gen_vmas(unsigned n)
{
	header("24G", "grow the VMA count (mprotect every other page of one mapping)");
	printf("mmap(%#llx, %llu, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = %#llx\n",
	       (unsigned long long)BASE, (unsigned long long)(n * PG), (unsigned long long)BASE);
	for (unsigned i = 1; i < n; i += 2)
		printf("mprotect(%#llx, 4096, PROT_READ) = 0\n", (unsigned long long)(BASE + i * PG));
	printf("expect(vmas, 0, 0x800000000000) = %u\n", n);
}

/* n VMAs (as gen_vmas), each page faulted in, then m random one-page reads
 * over all of them: with m = 0 the setup, whose time bench.sh subtracts */
static void gen_vmas_touch(unsigned n, unsigned long m)
{
	gen_vmas(n);
	printf("touch(%#llx, %llu, READ) = ?\n", (unsigned long long)BASE, (unsigned long long)(n * PG));
	uint64_t x = 0x2545F4914F6CDD1DULL;
	for (unsigned long i = 0; i < m; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		printf("touch(%#llx, 4096, READ) = ?\n", (unsigned long long)(BASE + (x % n) * PG));
	}
}

static void gen_mlock(unsigned gb)
{
	uint64_t len = (uint64_t)gb << 30;
	header("24G", "fault in, then mlock a large mapping");
	printf("mmap(%#llx, %llu, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = %#llx\n",
	       (unsigned long long)BASE, (unsigned long long)len, (unsigned long long)BASE);
	printf("touch(%#llx, %llu, WRITE) = %llu\n", (unsigned long long)BASE, (unsigned long long)len,
	       (unsigned long long)(len / PG));
	printf("mlock(%#llx, %llu) = 0\n", (unsigned long long)BASE, (unsigned long long)len);
	printf("expect(VmLck) = %llu kB\n", (unsigned long long)(len >> 10));
	printf("munlock(%#llx, %llu) = 0\n", (unsigned long long)BASE, (unsigned long long)len);
	printf("mlock(%#llx, %llu) = 0\n", (unsigned long long)BASE, (unsigned long long)len);
}

/* Seed 001's lock-on-fault benchmark as a trace: a GB-sized file (cached,
 * as the benchmark's mkrand file is) mapped shared, mlock2(MLOCK_ONFAULT)
 * of all of it, then n random page reads in the order of an xorshift
 * stream; random == 0: a stride of one page per 100 instead. */
static void gen_lof(unsigned long n, unsigned gb, int random)
{
	uint64_t len = (uint64_t)gb << 30, pages = len / PG;
	header("24G", random ? "lock-on-fault benchmark: random reads" : "lock-on-fault benchmark: strided reads");
	printf("inherit_file(\"/tmp/lof-bench\", %llu, \"0-%llu\") = 0\n", (unsigned long long)len,
	       (unsigned long long)(pages - 1));
	printf("openat(AT_FDCWD, \"/tmp/lof-bench\", O_RDONLY) = 3\n");
	if (!strcmp(kernel_name, "lof-v1")) { /* the 2015 patch: mmap(MAP_LOCKONFAULT), no mlock2 */
		printf("mmap(%#llx, %llu, PROT_READ, MAP_SHARED|MAP_FIXED|MAP_LOCKONFAULT, 3, 0) = %#llx\n",
		       (unsigned long long)BASE, (unsigned long long)len, (unsigned long long)BASE);
	} else {
		printf("mmap(%#llx, %llu, PROT_READ, MAP_SHARED|MAP_FIXED, 3, 0) = %#llx\n", (unsigned long long)BASE,
		       (unsigned long long)len, (unsigned long long)BASE);
		printf("mlock2(%#llx, %llu, MLOCK_ONFAULT) = 0\n", (unsigned long long)BASE, (unsigned long long)len);
	}
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	for (unsigned long i = 0; i < n; i++) {
		uint64_t pg;
		if (random) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			pg = x % pages;
		} else {
			pg = (i * 100) % pages;
		}
		printf("touch(%#llx, 4096, READ) = ?\n", (unsigned long long)(BASE + pg * PG));
	}
}

/* A recorded access stream (one page offset a line, perf-baseline's -d) as
 * the trace of the program that made it: a cached MB-sized file mapped
 * private, mlock2(MLOCK_ONFAULT)ed (eric -s onfault), the reads in order. */
static int gen_stream(const char *path, unsigned long mb)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		return 1;
	}
	uint64_t len = (uint64_t)mb << 20, pages = len / PG;
	header("24G", "a real program's access stream (perf-baseline eric -s onfault -d)");
	printf("inherit_file(\"/dev/shm/lof-stream\", %llu, \"0-%llu\") = 0\n", (unsigned long long)len,
	       (unsigned long long)(pages - 1));
	printf("openat(AT_FDCWD, \"/dev/shm/lof-stream\", O_RDONLY) = 3\n");
	printf("mmap(%#llx, %llu, PROT_READ, MAP_PRIVATE|MAP_FIXED, 3, 0) = %#llx\n", (unsigned long long)BASE,
	       (unsigned long long)len, (unsigned long long)BASE);
	printf("mlock2(%#llx, %llu, MLOCK_ONFAULT) = 0\n", (unsigned long long)BASE, (unsigned long long)len);
	unsigned long long pg;
	while (fscanf(f, "%llu", &pg) == 1)
		printf("touch(%#llx, 4096, READ) = ?\n", (unsigned long long)(BASE + (pg % pages) * PG));
	fclose(f);
	return 0;
}

/* xorshift64* of perf-baseline's common.h: eric's random stream */
static uint64_t rng_next(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545F4914F6CDD1DULL;
}

/*
 * Seed 001's benchmark as the program perf-baseline/eric.c runs it, call for
 * call: a cached MB-sized file in /dev/shm mapped private by strategy -
 * locked (MAP_LOCKED), mlock (mlock() of all), onfault (mlock2(MLOCK_ONFAULT);
 * MAP_LOCKONFAULT with GEN_KERNEL=lof-v1), each (mlock() of each page before
 * its read), plain, or segvN (PROT_NONE, and a SIGSEGV handler that
 * mprotect()s and mlock()s N pages from the faulting one) - then n reads of
 * eric's stream (stride: i * pages / n; random: xorshift64* from seed).
 * The program's own control flow is followed as if every call succeeds
 * (a SIGSEGV where its handler has not yet opened the page); the model
 * decides the results, so `vmsim replay --stats` shows where the first
 * ENOMEM comes.
 */
static int gen_munson(const char *strat, const char *pattern, unsigned long n, unsigned long mb,
		      uint64_t seed, unsigned other)
{
	uint64_t len = (uint64_t)mb << 20, npages = len / PG;
	long batch = 0;
	if (!strncmp(strat, "segv", 4))
		batch = strtol(strat + 4, NULL, 10);
	if ((strncmp(strat, "segv", 4) || batch < 1) && strcmp(strat, "locked") && strcmp(strat, "mlock") &&
	    strcmp(strat, "onfault") && strcmp(strat, "each") && strcmp(strat, "plain")) {
		fprintf(stderr, "gen-trace: strategy locked|mlock|onfault|each|plain|segvN, not %s\n", strat);
		return 2;
	}
	if (strcmp(pattern, "stride") && strcmp(pattern, "random")) {
		fprintf(stderr, "gen-trace: pattern stride|random, not %s\n", pattern);
		return 2;
	}
	char what[160];
	snprintf(what, sizeof(what), "seed 001 benchmark (perf-baseline eric -s %s -p %s -n %lu), %lu MiB file",
		 strat, pattern, n, mb);
	header("24G", what);
	/* the program's own VMAs (eric's libc, stack, heap ... : its vmas -
	 * vmas_in), each apart: they count against max_map_count too */
	for (unsigned k = 0; k < other; k++)
		printf("inherit(\"%llx-%llx rw-p 00000000 00:00 0\") = 0\n",
		       (unsigned long long)(0x7f0000000000ULL + k * 0x10000ULL),
		       (unsigned long long)(0x7f0000000000ULL + k * 0x10000ULL + PG));
	printf("inherit_file(\"/dev/shm/eric-data\", %llu, \"0-%llu\") = 0\n", (unsigned long long)len,
	       (unsigned long long)(npages - 1));
	printf("openat(AT_FDCWD, \"/dev/shm/eric-data\", O_RDONLY) = 3\n");
	bool lof = !strcmp(kernel_name, "lof-v1");
	const char *prot = batch ? "PROT_NONE" : "PROT_READ";
	const char *extra = !strcmp(strat, "locked") ? "|MAP_LOCKED" :
			    (lof && !strcmp(strat, "onfault")) ? "|MAP_LOCKONFAULT" : "";
	printf("mmap(%#llx, %llu, %s, MAP_PRIVATE|MAP_FIXED%s, 3, 0) = %#llx\n", (unsigned long long)BASE,
	       (unsigned long long)len, prot, extra, (unsigned long long)BASE);
	if (!strcmp(strat, "mlock"))
		printf("mlock(%#llx, %llu) = ?\n", (unsigned long long)BASE, (unsigned long long)len);
	if (!strcmp(strat, "onfault") && !lof)
		printf("mlock2(%#llx, %llu, MLOCK_ONFAULT) = ?\n", (unsigned long long)BASE, (unsigned long long)len);
	uint8_t *open = batch ? calloc(npages, 1) : NULL; /* pages the handler made readable */
	if (batch && !open)
		return 1;
	for (unsigned long i = 0; i < n; i++) {
		uint64_t pg = pattern[0] == 's' ? (uint64_t)i * npages / n : rng_next(&seed) % npages;
		unsigned long long a = BASE + pg * PG;
		if (!strcmp(strat, "each"))
			printf("mlock(%#llx, 4096) = ?\n", a);
		if (batch && !open[pg]) {
			uint64_t k = (uint64_t)batch;
			if (pg + k > npages)
				k = npages - pg;
			printf("--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_ACCERR, si_addr=%#llx} ---\n", a);
			printf("mprotect(%#llx, %llu, PROT_READ) = ?\n", a, (unsigned long long)(k * PG));
			printf("mlock(%#llx, %llu) = ?\n", a, (unsigned long long)(k * PG));
			memset(open + pg, 1, k);
		}
		printf("touch(%#llx, 4096, READ) = ?\n", a);
	}
	free(open);
	return 0;
}

/* perf-baseline/mplay.c, call for call: the file of
 * `dd if=/dev/zero of=/tmp/pb-sparse-1t bs=1M count=1 seek=1024000`, its
 * pages dropped (-C), mapped MAP_SHARED|PROT_READ, read at 0, STRIDE, ... */
static int gen_mplay(unsigned long stride, unsigned long last, bool random)
{
	const unsigned long long size = 1073742872576ULL; /* 1,024,001 MiB */
	if (!stride || last >= size / PG) {
		fprintf(stderr, "gen-trace: mplay STRIDE >= 1, LAST < %llu\n", size / PG);
		return 2;
	}
	char what[160];
	snprintf(what, sizeof(what), "seed 004 mplay (perf-baseline mplay -s %lu -e %lu -C%s)", stride, last,
		 random ? " -R" : "");
	header("24G", what);
	printf("# read-ahead-kb: 8192\n");
	printf("inherit_file(\"/tmp/pb-sparse-1t\", %llu) = 0\n", size);
	printf("openat(AT_FDCWD, \"/tmp/pb-sparse-1t\", O_RDONLY) = 3\n");
	printf("mmap(%#llx, %llu, PROT_READ, MAP_SHARED|MAP_FIXED, 3, 0) = %#llx\n", (unsigned long long)BASE,
	       size & ~(PG - 1), (unsigned long long)BASE);
	if (random)
		printf("madvise(%#llx, %llu, MADV_RANDOM) = 0\n", (unsigned long long)BASE, size & ~(PG - 1));
	for (unsigned long pg = 0; pg <= last; pg += stride)
		printf("touch(%#llx, 1, READ) = ?\n", (unsigned long long)(BASE + pg * PG));
	return 0;
}

/* perf-baseline/minflt.c, call for call (the program's own buffer and
 * stack are not part of it).  The mapping address is not 64 KiB aligned,
 * as the kernel's randomised mmap_base is not in 15 runs of 16: so the
 * fault-around windows straddle it and a warm file takes N/16 + 1 faults,
 * the count perf-baseline measured (an aligned one takes N/16). */
static int gen_minflt(const char *mode, bool warm, unsigned long n)
{
	const char *flags = !strcmp(mode, "fault")      ? "MAP_SHARED"
			    : !strcmp(mode, "populate") ? "MAP_SHARED|MAP_POPULATE"
			    : !strcmp(mode, "nonblock") ? "MAP_SHARED|MAP_POPULATE|MAP_NONBLOCK"
			    : !strcmp(mode, "pread")    ? ""
							: NULL;
	if (!flags || !n || n > (1UL << 26)) {
		fprintf(stderr, "gen-trace: minflt fault|populate|nonblock|pread [warm] [N], N up to 2^26\n");
		return 2;
	}
	const unsigned long long len = n * PG, addr = 0x7ffe7ff3d000ULL - len;
	char what[160];
	snprintf(what, sizeof(what), "seed 002 minflt (perf-baseline minflt -m %s%s -n %lu)", mode,
		 warm ? " -W" : "", n);
	header("24G", what);
	printf("unlink(\"/dev/shm/pb-minflt\") = -1 ENOENT (No such file or directory)\n");
	printf("openat(AT_FDCWD, \"/dev/shm/pb-minflt\", O_RDWR|O_CREAT|O_EXCL, 0600) = 3\n");
	printf("fallocate(3, 0, 0, %llu) = 0\n", len);
	if (warm) {
		printf("mmap(NULL, %llu, PROT_READ, MAP_SHARED, 3, 0) = %#llx\n", len, addr);
		printf("touch(%#llx, %llu, READ) = ?\n", addr, len);
		printf("munmap(%#llx, %llu) = 0\n", addr, len);
	}
	if (!*flags) {
		printf("# setup-ends\n");
		for (unsigned long i = 0; i < n; i++)
			printf("pread64(3, \"\"..., 4096, %llu) = 4096\n", i * PG);
	} else {
		printf("mmap(NULL, %llu, PROT_READ, %s, 3, 0) = %#llx\n", len, flags, addr);
		printf("# setup-ends\n");
		printf("touch(%#llx, %llu, READ) = ?\n", addr, len); /* the loop */
		printf("touch(%#llx, %llu, READ) = 0\n", addr, len); /* the retouch: all mapped */
	}
	printf("unlink(\"/dev/shm/pb-minflt\") = 0\n");
	return 0;
}

static void gen_reclaim(void)
{
	header("64M", "reclaim under pressure: file pages through a small RAM");
	printf("openat(AT_FDCWD, \"/tmp/bench-big\", O_RDWR|O_CREAT, 0600) = 3\n");
	printf("ftruncate(3, 536870912) = 0\n");
	/* a locked working set that must survive */
	printf("mmap(%#llx, 8388608, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED|MAP_LOCKED|MAP_POPULATE, -1, 0) = %#llx\n",
	       (unsigned long long)BASE, (unsigned long long)BASE);
	for (int pass = 0; pass < 4; pass++)
		for (uint64_t off = 0; off < (512ULL << 20); off += 1 << 20)
			printf("pread64(3, \"\"..., 1048576, %llu) = 1048576\n", (unsigned long long)off);
	/* a mapped file pass: faults through page cache under pressure */
	printf("mmap(0x200000000, 134217728, PROT_READ, MAP_SHARED|MAP_FIXED, 3, 0) = 0x200000000\n");
	for (int pass = 0; pass < 4; pass++)
		printf("touch(0x200000000, 134217728, READ) = ?\n");
	printf("reclaim(16384) = ?\n");
	printf("expect(VmLck) = 8192 kB\n");
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long maxrss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static long cur_rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size = 0, res = 0;
	if (f) {
		if (fscanf(f, "%ld %ld", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * 4;
}

static int do_parse(const char *path)
{
	char err[512];
	struct trace_reader *r = trace_open(path, NULL, NULL, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	struct stat st;
	stat(path, &st);
	struct event ev;
	unsigned long n = 0;
	int rc;
	double t0 = now();
	while ((rc = trace_read(r, &ev)) > 0)
		n++;
	double dt = now() - t0;
	if (rc < 0)
		fprintf(stderr, "%s\n", trace_error(r));
	trace_close(r);
	printf("  parse: %lu events, %.1f MB in %.2f s: %.2f M lines/s, %.1f MB/s (max RSS %ld kB)\n", n,
	       st.st_size / 1e6, dt, n / dt / 1e6, st.st_size / 1e6 / dt, maxrss_kb());
	return rc < 0 ? 2 : 0;
}

static int do_replay(const char *path)
{
	char err[512];
	struct session ss;
	struct session_opts o = SESSION_OPTS_INIT;
	if (session_open(&ss, path, &o, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	long rss0 = cur_rss_kb();
	struct event *ev;
	unsigned long n = 0, bad = 0, div = 0;
	int rc;
	double t0 = now();
	while ((rc = session_next(&ss, &ev)) > 0) {
		n++;
		if (ev->type == EV_CALL && ev->sys == SYS_UNKNOWN)
			continue;
		struct outcome out;
		if (apply_event(ss.sys, ev, &out, err, sizeof(err))) {
			bad++;
			continue;
		}
		if (ev->type == EV_EXPECT) {
			char why[1024];
			unsigned checked;
			if (expect_check(ss.sys, ev, why, sizeof(why), &checked))
				div++;
		} else if (ev->type == EV_CALL) {
			char why[512];
			if (!outcome_matches(ev, &out, why, sizeof(why)))
				div++;
		}
	}
	double dt = now() - t0;
	if (rc < 0)
		fprintf(stderr, "%s\n", trace_error(ss.reader));
	struct vm_meminfo mi;
	vmsys_meminfo(ss.sys, &mi);
	uint64_t resident = mi.total - mi.free;
	uint64_t vmas = 0;
	for (struct task *t = vmsys_task_next(ss.sys, NULL); t; t = vmsys_task_next(ss.sys, t))
		vmas += vmsys_map_count(ss.sys, t);
	long maxrss = maxrss_kb();
	printf("  replay: %lu events in %.2f s: %.0f events/s; %llu VMAs; %llu resident simulated pages "
	       "(%llu unevictable)\n",
	       n, dt, n / dt, (unsigned long long)vmas, (unsigned long long)resident,
	       (unsigned long long)mi.unevictable);
	printf("  memory: max RSS %ld kB (%ld kB after opening the model)", maxrss, rss0);
	if (vmas > resident)
		printf("; %.1f bytes per VMA above the empty model", (maxrss - rss0) * 1024.0 / vmas);
	else if (resident)
		printf("; %.1f bytes per resident page (max RSS), %.1f above the empty model",
		       maxrss * 1024.0 / resident, (maxrss - rss0) * 1024.0 / resident);
	int64_t scan = vmsys_vmstat(ss.sys, PGSCAN_KSWAPD) + vmsys_vmstat(ss.sys, PGSCAN_DIRECT);
	int64_t steal = vmsys_vmstat(ss.sys, PGSTEAL_KSWAPD) + vmsys_vmstat(ss.sys, PGSTEAL_DIRECT);
	if (scan)
		printf("\n  reclaim: %lld pages scanned, %lld reclaimed, %lld OOM kills",
		       (long long)scan, (long long)steal, (long long)vmsys_vmstat(ss.sys, OOM_KILL));
	printf("\n  results: %lu divergences%s\n", div, bad ? " (some events could not be applied)" : "");
	session_close(&ss);
	return rc < 0 ? 2 : 0;
}

int main(int argc, char **argv)
{
	if (getenv("GEN_KERNEL"))
		kernel_name = getenv("GEN_KERNEL");
	if (argc >= 3 && !strcmp(argv[1], "parse"))
		return do_parse(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "replay"))
		return do_replay(argv[2]);
	if (argc >= 7 && !strcmp(argv[1], "gen") && !strcmp(argv[2], "munson"))
		return gen_munson(argv[3], argv[4], strtoul(argv[5], NULL, 0), strtoul(argv[6], NULL, 0),
				  argc > 7 ? strtoull(argv[7], NULL, 0) : 42,
				  argc > 8 ? (unsigned)strtoul(argv[8], NULL, 0) : 0) || fflush(stdout);
	if (argc >= 5 && !strcmp(argv[1], "gen") && !strcmp(argv[2], "mplay"))
		return gen_mplay(strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0),
				 argc > 5 && !strcmp(argv[5], "random")) || fflush(stdout);
	if (argc >= 4 && !strcmp(argv[1], "gen") && !strcmp(argv[2], "minflt")) {
		bool warm = argc > 4 && !strcmp(argv[4], "warm");
		const char *n = argc > 4 + warm ? argv[4 + warm] : "500000";
		return gen_minflt(argv[3], warm, strtoul(n, NULL, 0)) || fflush(stdout);
	}
	if (argc >= 5 && !strcmp(argv[1], "gen") && !strcmp(argv[2], "stream"))
		return gen_stream(argv[3], strtoul(argv[4], NULL, 0)) || fflush(stdout);
	if (argc >= 3 && !strcmp(argv[1], "gen")) {
		unsigned long n = argc > 3 ? strtoul(argv[3], NULL, 0) : 0;
		if (!strcmp(argv[2], "parse"))
			gen_parse(n ? n : 10000000);
		else if (!strcmp(argv[2], "touch"))
			gen_touch(n ? (unsigned)n : 5);
		else if (!strcmp(argv[2], "vmas"))
			gen_vmas(n ? (unsigned)n : 65530);
		else if (!strcmp(argv[2], "mlock"))
			gen_mlock(n ? (unsigned)n : 5);
		else if (!strcmp(argv[2], "reclaim"))
			gen_reclaim();
		else if (!strcmp(argv[2], "vmas-touch"))
			gen_vmas_touch(n ? (unsigned)n : 65530, argc > 4 ? strtoul(argv[4], NULL, 0) : 2000000);
		else if (!strcmp(argv[2], "lof-random") || !strcmp(argv[2], "lof-stride"))
			gen_lof(n ? n : 15000000, argc > 4 ? (unsigned)strtoul(argv[4], NULL, 0) : 5,
				!strcmp(argv[2], "lof-random"));
		else
			goto usage;
		return fflush(stdout) ? 1 : 0;
	}
usage:
	fprintf(stderr, "usage: gen-trace gen parse|touch|vmas|mlock|reclaim|lof-random|lof-stride [N [GB]]\n"
			"       gen-trace gen munson STRATEGY stride|random N MB [SEED [OTHER]]\n"
			"       gen-trace gen mplay STRIDE LAST [random]\n"
			"       gen-trace gen minflt fault|populate|nonblock|pread [warm] [N]\n"
			"       gen-trace parse|replay FILE\n");
	return 2;
}
