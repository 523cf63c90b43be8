/* pageout_shm.c - MADV_PAGEOUT of tmpfs page-cache folios without swap.
 * Build and run as root on 6.18 (no swap): gcc -O0 pageout_shm.c && ./a.out
 * Maps 8 pages of a tmpfs file MAP_SHARED; pages 0-3 are read-faulted
 * (holes: clean folios), pages 4-7 are written (dirty).  After MADV_PAGEOUT
 * mincore() shows which folios are still in the page cache.
 * 6.18 result: pages 0-3 gone (clean shmem folios are freed by
 * shrink_folio_list -> __remove_mapping), pages 4-7 still cached (dirty:
 * shmem_writeout needs swap, PAGE_ACTIVATE). Then a read touch of pages 0-3
 * takes one fault per page (nothing cached for fault-around).  All 8 pages
 * are unmapped; the dirty pages 4-7 stay cached, so the fault-around of those
 * re-reads maps them again (0 faults for 4-7).
 * Output on 6.18.44: before 11111111 / after 00001111 / mapped 00000000 /
 * faults 4 and 0. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
static long faults(void) { struct rusage u; getrusage(RUSAGE_SELF, &u); return u.ru_minflt + u.ru_majflt; }
int main(void)
{
	long P = 4096;
	int fd = open("/dev/shm/ht-pageout", O_RDWR | O_CREAT | O_TRUNC, 0600);
	unlink("/dev/shm/ht-pageout");
	ftruncate(fd, 8 * P);
	volatile char *p = mmap(NULL, 8 * P, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	unsigned char v[8];
	for (int i = 0; i < 4; i++) (void)p[i * P];
	for (int i = 4; i < 8; i++) p[i * P] = 1;
	mincore((void *)p, 8 * P, v);
	printf("before: "); for (int i = 0; i < 8; i++) printf("%d", v[i] & 1); printf("\n");
	int r = madvise((void *)p, 8 * P, MADV_PAGEOUT);
	mincore((void *)p, 8 * P, v);
	printf("pageout=%d after: ", r); for (int i = 0; i < 8; i++) printf("%d", v[i] & 1); printf("\n");
	int pm = open("/proc/self/pagemap", O_RDONLY);
	printf("mapped after pageout: ");
	for (int i = 0; i < 8; i++) { unsigned long long e = 0; pread(pm, &e, 8, ((unsigned long)p / P + i) * 8); printf("%d", (int)(e >> 63)); }
	printf("\n");
	long f0 = faults();
	for (int i = 0; i < 4; i++) (void)p[i * P];
	long f1 = faults();
	for (int i = 4; i < 8; i++) (void)p[i * P];
	printf("faults re-reading clean 0-3: %ld, dirty 4-7: %ld\n", f1 - f0, faults() - f1);
	return 0;
}
