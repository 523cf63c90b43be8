/* Round 8 hand test: page_cache_next_miss() started on a tail page of a
 * large folio reports the first gap one slot too far per page into the
 * folio (the xa_state offset stays on the folio's head slot while the
 * index moves on).  page_cache_async_ra() for a fault on a PG_readahead
 * (= PG_reclaim) order-1 folio at index 8 therefore restarts the window
 * at 12, not at the missing page 11, and page 11 stays out of the cache.
 * Run as root on an ext4 /tmp.  Build: cc -O2 -o next_miss_lag next_miss_lag.c */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define PG 4096UL
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
static void resident(const char *tag, int fd)
{
	unsigned char v[16];
	char *m = mmap(NULL, 16 * PG, PROT_READ, MAP_SHARED, fd, 0);
	mincore(m, 16 * PG, v);
	printf("%-40s cached:", tag);
	for (int i = 0; i < 16; i++)
		printf(" %d", v[i] & 1);
	printf("\n");
	munmap(m, 16 * PG);
}
static long faults(void)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	return r.ru_minflt + r.ru_majflt;
}
/* variant 0: the folio at 8-9 is large (one 8 KiB pwrite);
 * variant 1: two 4 KiB pwrites make two order-0 folios (control) */
static void run(int variant)
{
	char buf[8192];
	memset(buf, 'x', sizeof buf);
	unlink("/tmp/h8-nextmiss");
	int fd = open("/tmp/h8-nextmiss", O_RDWR | O_CREAT | O_TRUNC, 0600);
	(void)!ftruncate(fd, 16 * PG);
	if (variant == 0) {
		(void)!pwrite(fd, buf, 8192, 8 * PG);
	} else {
		(void)!pwrite(fd, buf, 4096, 8 * PG);
		(void)!pwrite(fd, buf, 4096, 9 * PG);
	}
	(void)!pwrite(fd, buf, 4096, 10 * PG);
	printf("variant %d (%s)\n", variant, variant ? "order-0 pages at 8, 9" : "order-1 folio at 8-9");
	resident("  after the writes", fd);
	/* map 8-9, fault them in, MADV_PAGEOUT: dirty -> PG_reclaim, unmapped */
	char *a = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, fd, 8 * PG);
	volatile char c = a[0] + a[PG];
	(void)c;
	madvise(a, 2 * PG, MADV_PAGEOUT);
	munmap(a, 2 * PG);
	/* a one-page mapping of page 8: the fault finds the PG_readahead bit
	 * and starts async readahead at page_cache_next_miss(9) */
	char *b = mmap(NULL, PG, PROT_READ, MAP_PRIVATE, fd, 8 * PG);
	long f0 = faults();
	c = b[0];
	printf("  read fault on page 8: %ld fault(s)\n", faults() - f0);
	resident("  after it", fd);
	munmap(b, PG);
	close(fd);
	unlink("/tmp/h8-nextmiss");
}
int main(void)
{
	run(0);
	run(1);
	return 0;
}
