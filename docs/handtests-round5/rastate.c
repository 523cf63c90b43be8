/* rastate.c - replay a small script of file operations on an ext4 file and
 * show the page-cache state the read-fault rules depend on.
 * Run as root on the 6.18 machine:
 *   gcc -O0 -Wall rastate.c -o rastate && ./rastate CMD...
 * The file is /tmp/ht5-ra-ext4 (O_RDWR|O_CREAT|O_TRUNC), fd F.  Commands:
 *   trunc N            ftruncate(F, N)
 *   pwrite OFF LEN     pwrite LEN bytes of 'x' at OFF
 *   fall MODE OFF LEN  fallocate; MODE 0, k (KEEP_SIZE), p (PUNCH_HOLE|KEEP_SIZE)
 *   map S PGOFF N PROT FL   mmap slot S (0-9): N pages at page PGOFF,
 *                      PROT r|rw|rx|rwx, FL p (private) or s (shared)
 *   madv S PG N ADV    madvise on slot S: ADV random|seq|normal|willneed|dontneed|remove|popr
 *   touch S PG N r|w   touch N pages of slot S from page PG, print the faults
 *                      (minflt+majflt) each page took
 *   unmap S            munmap slot S
 *   pres S             pagemap present bits of slot S
 *   obs N              page-cache state of file pages 0..N-1 (see below)
 *   reopen             close F and open the file again (fresh file_ra_state)
 *   fsync | drop       fsync(F) | fsync + POSIX_FADV_DONTNEED
 * obs prints one letter per page: '.' not cached, 'n' cached but not uptodate
 * (cachestat counts it, mincore does not), 'u' uptodate, 'R' uptodate with
 * PG_readahead (kpageflags bit 9, KPF_RECLAIM: PG_readahead is PG_reclaim),
 * ('d' / 'r': the same, dirty (bit 4); 'W' under writeback (bit 8)),
 * then the folio layout: '|' before each folio head (kpageflags bit 15
 * COMPOUND_HEAD) and order-0 page.  It maps the file through a second open
 * file (own file_ra_state) with MADV_RANDOM, so filemap_fault() ->
 * do_async_mmap_readahead() returns early and the PG_readahead mark is not
 * consumed; it only faults in pages mincore reports uptodate.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif
struct cs_range { uint64_t off, len; };
struct cs { uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted; };

static const char *path = "/tmp/ht5-ra-ext4";
static int F;
static char *slot[10];
static long slotn[10];

static long faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

static uint64_t pagemap(void *a)
{
	static int fd = -1;
	uint64_t e = 0;
	if (fd < 0)
		fd = open("/proc/self/pagemap", O_RDONLY);
	pread(fd, &e, 8, (uintptr_t)a / 4096 * 8);
	return e;
}

static uint64_t kflags(uint64_t pfn)
{
	static int fd = -1;
	uint64_t f = 0;
	if (fd < 0)
		fd = open("/proc/kpageflags", O_RDONLY);
	pread(fd, &f, 8, pfn * 8);
	return f;
}

static void obs(long n)
{
	int fd = open(path, O_RDONLY);
	char *m = mmap(NULL, n * 4096, PROT_READ, MAP_SHARED, fd, 0);
	unsigned char mc[4096];
	char st[4096], lay[8192];
	int li = 0;
	madvise(m, n * 4096, MADV_RANDOM);
	mincore(m, n * 4096, mc);
	for (long i = 0; i < n; i++) {
		struct cs_range r = { i * 4096, 4096 };
		struct cs c = { 0 };
		syscall(__NR_cachestat, fd, &r, &c, 0);
		st[i] = (mc[i] & 1) ? 'u' : c.nr_cache ? 'n' : '.';
	}
	for (long i = 0; i < n; i++)
		if (st[i] == 'u')
			(void)*(volatile char *)(m + i * 4096);
	for (long i = 0; i < n; i++) {
		if (st[i] == 'u') {
			uint64_t e = pagemap(m + i * 4096);
			uint64_t f = (e >> 63) ? kflags(e & ((1ULL << 55) - 1)) : 0;
			if (f & (1ULL << 9))
				st[i] = 'R';
			if (f & (1ULL << 4)) /* dirty: lower case */
				st[i] = st[i] == 'R' ? 'r' : 'd';
			if (f & (1ULL << 8)) /* writeback */
				st[i] = 'W';
			if (!(f & (1ULL << 16)))
				lay[li++] = '|';
		} else {
			lay[li++] = '|';
		}
		lay[li++] = st[i];
	}
	st[n] = 0;
	lay[li] = 0;
	printf("obs %s\n", lay);
	munmap(m, n * 4096);
	close(fd);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	static char buf[1 << 20];
	memset(buf, 'x', sizeof(buf));
	F = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	for (int i = 1; i < argc; i++) {
		char *c = argv[i];
#define A(k) (argv[i + (k)])
#define N(k) strtol(argv[i + (k)], NULL, 0)
		if (!strcmp(c, "trunc")) {
			printf("trunc %ld = %d\n", N(1), ftruncate(F, N(1)));
			i += 1;
		} else if (!strcmp(c, "pwrite")) {
			printf("pwrite %ld %ld = %zd\n", N(1), N(2), pwrite(F, buf, N(2), N(1)));
			i += 2;
		} else if (!strcmp(c, "fall")) {
			int mode = A(1)[0] == 'k' ? FALLOC_FL_KEEP_SIZE :
				   A(1)[0] == 'p' ? FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE : 0;
			printf("fall %s %ld %ld = %d\n", A(1), N(2), N(3), fallocate(F, mode, N(2), N(3)));
			i += 3;
		} else if (!strcmp(c, "map")) {
			int s = N(1), prot = 0;
			for (char *p = A(4); *p; p++)
				prot |= *p == 'r' ? PROT_READ : *p == 'w' ? PROT_WRITE : *p == 'x' ? PROT_EXEC : 0;
			slot[s] = mmap(NULL, N(3) * 4096, prot, A(5)[0] == 's' ? MAP_SHARED : MAP_PRIVATE, F, N(2) * 4096);
			slotn[s] = N(3);
			printf("map %d pgoff %ld n %ld = %p\n", s, N(2), N(3), slot[s]);
			i += 5;
		} else if (!strcmp(c, "madv")) {
			const char *a = A(4);
			int adv = !strcmp(a, "random") ? MADV_RANDOM : !strcmp(a, "seq") ? MADV_SEQUENTIAL :
				  !strcmp(a, "willneed") ? MADV_WILLNEED : !strcmp(a, "dontneed") ? MADV_DONTNEED :
				  !strcmp(a, "remove") ? MADV_REMOVE : !strcmp(a, "popr") ? MADV_POPULATE_READ :
				  !strcmp(a, "cold") ? MADV_COLD : !strcmp(a, "pageout") ? MADV_PAGEOUT : MADV_NORMAL;
			long f0 = faults();
			int r = madvise(slot[N(1)] + N(2) * 4096, N(3) * 4096, adv);
			printf("madv %ld %ld %ld %s = %d (faults %ld)\n", N(1), N(2), N(3), a, r, faults() - f0);
			i += 4;
		} else if (!strcmp(c, "touch")) {
			char *b = slot[N(1)];
			int w = A(4)[0] == 'w';
			printf("touch %ld %ld %ld %s:", N(1), N(2), N(3), A(4));
			long tot = 0;
			for (long p = N(2); p < N(2) + N(3); p++) {
				long f0 = faults();
				if (w)
					*(volatile char *)(b + p * 4096) = 1;
				else
					(void)*(volatile char *)(b + p * 4096);
				long d = faults() - f0;
				tot += d;
				printf(" %ld", d);
			}
			printf(" = %ld\n", tot);
			i += 4;
		} else if (!strcmp(c, "unmap")) {
			munmap(slot[N(1)], slotn[N(1)] * 4096);
			i += 1;
		} else if (!strcmp(c, "pres")) {
			printf("pres %ld ", N(1));
			for (long p = 0; p < slotn[N(1)]; p++)
				putchar(pagemap(slot[N(1)] + p * 4096) >> 63 ? '1' : '0');
			putchar('\n');
			i += 1;
		} else if (!strcmp(c, "obs")) {
			obs(N(1));
			i += 1;
		} else if (!strcmp(c, "reopen")) {
			close(F);
			F = open(path, O_RDWR);
		} else if (!strcmp(c, "fsync")) {
			fsync(F);
		} else if (!strcmp(c, "drop")) {
			fsync(F);
			posix_fadvise(F, 0, 0, POSIX_FADV_DONTNEED);
		} else {
			fprintf(stderr, "bad command %s\n", c);
			return 2;
		}
	}
	return 0;
}
