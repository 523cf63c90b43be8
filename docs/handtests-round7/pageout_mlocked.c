/* Hand test (vmsim triage round 7): MADV_PAGEOUT on a page that is mlocked
 * (PG_mlocked, unevictable LRU) but mapped in a VMA without VM_LOCKED.
 * Hypothesis: madvise_cold_or_pageout_pte_range() isolates it, sees it
 * unevictable and folio_putback_lru()s it; lru_add() then sets
 * mlock_count = 0 ("errs low"), so one munlock fewer frees it.
 * Build: cc -O0 -o pageout_mlocked pageout_mlocked.c ; run as root. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif
#define PG 4096L

static void drain(void)
{
	unsigned long mask = 1; /* migrate_pages -> lru_add_drain_all(), as the recorder */
	syscall(SYS_migrate_pages, 0, 2, &mask, &mask);
}

static const char *st(void *addr)
{
	static char buf[64];
	drain();
	int pm = open("/proc/self/pagemap", O_RDONLY), kf = open("/proc/kpageflags", O_RDONLY);
	uint64_t e = 0, fl = 0;
	pread(pm, &e, 8, ((uintptr_t)addr / PG) * 8);
	if (!((e >> 63) & 1)) { close(pm); close(kf); return "absent"; }
	pread(kf, &fl, 8, (e & ((1ULL << 55) - 1)) * 8);
	snprintf(buf, sizeof buf, "pfn=%#llx mlocked=%d unevictable=%d",
		 (unsigned long long)(e & ((1ULL << 55) - 1)),
		 (int)((fl >> 33) & 1), (int)((fl >> 18) & 1));
	close(pm); close(kf);
	return buf;
}

/* a stranded mlocked page: MAP_LOCKED anon, then MREMAP_DONTUNMAP of the
 * rest clears VM_LOCKED on the old VMA without munlocking its pages */
static char *stranded(void)
{
	char *p = mmap(NULL, 5 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	memset(p, 1, 5 * PG);
	char *q = (char *)syscall(SYS_mremap, p + PG, 4 * PG, 4 * PG, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, 0L);
	if (q == MAP_FAILED) perror("mremap");
	munmap(q, 4 * PG);
	return p;
}

int main(void)
{
	char *p;
	printf("A0 control: stranded page, mlock+munlock\n");
	p = stranded();
	printf("  stranded:            %s\n", st(p));
	mlock(p, PG);   printf("  after mlock:         %s\n", st(p));
	munlock(p, PG); printf("  after munlock:       %s\n", st(p));
	munmap(p, 5 * PG);

	printf("A1: stranded page, MADV_PAGEOUT, mlock+munlock\n");
	p = stranded();
	printf("  stranded:            %s\n", st(p));
	printf("  madvise PAGEOUT = %d\n", madvise(p, PG, MADV_PAGEOUT));
	printf("  after PAGEOUT:       %s\n", st(p));
	mlock(p, PG);   printf("  after mlock:         %s\n", st(p));
	munlock(p, PG); printf("  after munlock:       %s\n", st(p));
	munmap(p, 5 * PG);

	printf("A2: stranded page, MADV_COLD, mlock+munlock\n");
	p = stranded();
	printf("  madvise COLD = %d\n", madvise(p, PG, MADV_COLD));
	mlock(p, PG);   printf("  after mlock:         %s\n", st(p));
	munlock(p, PG); printf("  after munlock:       %s\n", st(p));
	munmap(p, 5 * PG);

	/* B: shmem page mapped by two locked VMAs (count 2) and one unlocked */
	for (int shared_pageout = 0; shared_pageout < 2; shared_pageout++) {
		printf("B%d: shmem page locked in X1,X2, %s on unlocked Y, munlock X1\n",
		       shared_pageout, shared_pageout ? "MADV_PAGEOUT" : "nothing");
		int fd = open("/dev/shm/h16-pageout", O_RDWR | O_CREAT | O_TRUNC, 0600);
		ftruncate(fd, PG);
		char *x1 = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		char *x2 = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		char *y = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		y[0] = 1;
		drain();
		mlock(x1, PG); mlock(x2, PG);
		printf("  locked twice:        %s\n", st(x1));
		if (shared_pageout)
			printf("  madvise PAGEOUT = %d  y: %s\n", madvise(y, PG, MADV_PAGEOUT), st(y));
		printf("  x1 after:            %s\n", st(x1));
		munlock(x1, PG); printf("  after munlock x1:    %s\n", st(x2));
		munlock(x2, PG); printf("  after munlock x2:    %s\n", st(x2));
		munmap(x1, PG); munmap(x2, PG); munmap(y, PG); close(fd);
		unlink("/dev/shm/h16-pageout");
	}
	return 0;
}
