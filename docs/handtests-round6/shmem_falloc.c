/* Hand test (vmsim triage round 6): what fallocate() leaves in a tmpfs
 * file's page cache on Linux 6.18, seen through read-fault counts,
 * fault-around, mincore() and MADV_PAGEOUT without swap.
 * Build: cc -O0 -o shmem_falloc shmem_falloc.c ; run as root (kpageflags). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define PG 4096L
#define NP 16
static const char *path = "/dev/shm/h15-falloc";

static long faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

static long touch(volatile char *p, long npages)
{
	long f0 = faults();
	long sum = 0;
	for (long i = 0; i < npages; i++)
		sum += p[i * PG];
	(void)sum;
	return faults() - f0;
}

/* one char per page: M mapped (pagemap present), c cached only, . absent;
 * then U/u uptodate or not, D/d dirty (kpageflags) for cached pages */
static void show(const char *what, char *p, int fd)
{
	unsigned char vec[NP];
	char line[3][NP + 1];
	mincore(p, NP * PG, vec);
	int pm = open("/proc/self/pagemap", O_RDONLY), kf = open("/proc/kpageflags", O_RDONLY);
	for (int i = 0; i < NP; i++) {
		uint64_t e = 0, fl = 0;
		pread(pm, &e, 8, ((uintptr_t)p / PG + i) * 8);
		int present = (e >> 63) & 1;
		line[0][i] = present ? 'M' : (vec[i] & 1) ? 'c' : '.';
		line[1][i] = line[2][i] = ' ';
		if (present && kf >= 0 && (e & ((1ULL << 55) - 1))) {
			pread(kf, &fl, 8, (e & ((1ULL << 55) - 1)) * 8);
			line[1][i] = (fl >> 3) & 1 ? 'U' : 'u';  /* KPF_UPTODATE */
			line[2][i] = (fl >> 4) & 1 ? 'D' : 'd';  /* KPF_DIRTY */
		}
	}
	line[0][NP] = line[1][NP] = line[2][NP] = 0;
	printf("  %-44s map/cache [%s] uptodate [%s] dirty [%s]\n", what, line[0], line[1], line[2]);
	close(pm);
	close(kf);
	(void)fd;
}

static int fresh(void)
{
	unlink(path);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ftruncate(fd, NP * PG);
	return fd;
}

static char *map(int fd, int flags)
{
	return mmap(NULL, NP * PG, PROT_READ, flags, fd, 0);
}

int main(void)
{
	char buf[NP * PG];
	memset(buf, 'x', sizeof buf);
	int fd;
	char *p;

	printf("A. written file (all pages uptodate): one read fault maps 16 by fault-around\n");
	fd = fresh();
	pwrite(fd, buf, NP * PG, 0);
	p = map(fd, MAP_SHARED);
	printf("  touch page 0: %ld fault(s)\n", touch(p, 1));
	show("after", p, fd);
	munmap(p, NP * PG); close(fd);

	printf("B. fallocate(0, 64K) on an empty file: pages cached but not uptodate\n");
	fd = fresh();
	printf("  fallocate = %d\n", fallocate(fd, 0, 0, NP * PG));
	p = map(fd, MAP_SHARED);
	show("after fallocate", p, fd);
	printf("  touch page 0: %ld fault(s)\n", touch(p, 1));
	show("after", p, fd);
	printf("  touch pages 0..15: %ld fault(s)\n", touch(p, NP));
	munmap(p, NP * PG); close(fd);

	printf("C. fallocate then read() of the whole file: read() leaves them not uptodate\n");
	fd = fresh();
	fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, NP * PG);
	printf("  read = %zd\n", pread(fd, buf, NP * PG, 0));
	p = map(fd, MAP_SHARED);
	printf("  touch page 0: %ld fault(s)\n", touch(p, 1));
	show("after", p, fd);
	munmap(p, NP * PG); close(fd);

	printf("D. fallocate then write() of pages 4..7: written pages become uptodate\n");
	fd = fresh();
	fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, NP * PG);
	memset(buf, 'y', 4 * PG);
	pwrite(fd, buf, 4 * PG, 4 * PG);
	pwrite(fd, buf, 100, 9 * PG); /* partial page */
	p = map(fd, MAP_SHARED);
	printf("  touch page 0: %ld fault(s)\n", touch(p, 1));
	show("after", p, fd);
	printf("  touch page 4: %ld fault(s)\n", touch(p + 4 * PG, 1));
	printf("  touch page 9: %ld fault(s)\n", touch(p + 9 * PG, 1));
	munmap(p, NP * PG); close(fd);

	printf("E. read-faulted (clean) pages, fallocate over 4..7, MADV_PAGEOUT (no swap)\n");
	fd = fresh();
	p = map(fd, MAP_SHARED);
	printf("  touch pages 0..15: %ld fault(s)\n", touch(p, NP));
	show("after read faults", p, fd);
	fallocate(fd, FALLOC_FL_KEEP_SIZE, 4 * PG, 4 * PG);
	show("after fallocate 4..7", p, fd);
	printf("  madvise PAGEOUT = %d\n", madvise(p, NP * PG, MADV_PAGEOUT));
	show("after pageout", p, fd);
	printf("  touch page 0: %ld fault(s)\n", touch(p, 1));
	show("after", p, fd);
	printf("  touch page 4: %ld fault(s)\n", touch(p + 4 * PG, 1));
	show("after", p, fd);
	munmap(p, NP * PG); close(fd);

	printf("F. private mapping, fallocated pages, read fault of page 2 (shmem_fault SGP_CACHE)\n");
	fd = fresh();
	fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, NP * PG);
	p = map(fd, MAP_PRIVATE);
	printf("  touch page 2: %ld fault(s)\n", touch(p + 2 * PG, 1));
	show("after", p, fd);
	printf("  madvise PAGEOUT = %d\n", madvise(p, NP * PG, MADV_PAGEOUT));
	show("after pageout", p, fd);
	printf("  touch pages 0..15: %ld fault(s)\n", touch(p, NP));
	show("after", p, fd);
	munmap(p, NP * PG); close(fd);

	printf("G. clean read-faulted pages then MADV_PAGEOUT (no fallocate): dropped?\n");
	fd = fresh();
	p = map(fd, MAP_SHARED);
	touch(p, NP);
	printf("  madvise PAGEOUT = %d\n", madvise(p, NP * PG, MADV_PAGEOUT));
	show("after pageout", p, fd);
	munmap(p, NP * PG); close(fd);

	printf("H. fallocate beyond EOF (KEEP_SIZE), then ftruncate up, fault\n");
	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ftruncate(fd, 4 * PG);
	fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, NP * PG);
	ftruncate(fd, NP * PG);
	p = map(fd, MAP_SHARED);
	show("after", p, fd);
	printf("  touch page 8: %ld fault(s)\n", touch(p + 8 * PG, 1));
	show("after", p, fd);
	munmap(p, NP * PG); close(fd);
	unlink(path);

	printf("I. read-faulted (clean) pages, ftruncate down to 5.5 pages, MADV_PAGEOUT\n");
	fd = fresh();
	p = map(fd, MAP_SHARED);
	touch(p, NP);
	ftruncate(fd, 5 * PG + 100);
	show("after ftruncate", p, fd);
	printf("  madvise PAGEOUT = %d\n", madvise(p, 6 * PG, MADV_PAGEOUT));
	show("after pageout", p, fd);
	printf("  touch pages 0..5: %ld fault(s)\n", touch(p, 6));
	munmap(p, NP * PG); close(fd);

	printf("J. read-faulted (clean) pages, punch hole [2.5, 6.5) pages, MADV_PAGEOUT\n");
	fd = fresh();
	p = map(fd, MAP_SHARED);
	touch(p, NP);
	fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 2 * PG + 2048, 4 * PG);
	show("after punch", p, fd);
	printf("  madvise PAGEOUT = %d\n", madvise(p, NP * PG, MADV_PAGEOUT));
	show("after pageout", p, fd);
	munmap(p, NP * PG); close(fd);

	printf("K. fallocate 0..7, then fallocate 4..11: the second call makes 4..7 uptodate\n");
	fd = fresh();
	fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 8 * PG);
	fallocate(fd, FALLOC_FL_KEEP_SIZE, 4 * PG, 8 * PG);
	p = map(fd, MAP_SHARED);
	printf("  touch page 0: %ld fault(s)\n", touch(p, 1));
	show("after", p, fd);
	printf("  touch pages 0..15: %ld fault(s)\n", touch(p, NP));
	munmap(p, NP * PG); close(fd);
	unlink(path);

	printf("M. read() of a tmpfs hole (not modelled): no page is added to the cache\n");
	fd = fresh();
	printf("  read = %zd\n", pread(fd, buf, NP * PG, 0));
	p = map(fd, MAP_SHARED);
	show("after read()", p, fd);
	printf("  touch pages 0..15: %ld fault(s)\n", touch(p, NP));
	munmap(p, NP * PG); close(fd);
	unlink(path);

	printf("L. ext4 (/tmp): written pages 4..7 (one large folio, dirty), page 3 read;\n"
	       "   MADV_REMOVE of pages 3..4 through a shared mapping; fault on page 4\n");
	{
		const char *ep = "/tmp/h15-ext4";
		unlink(ep);
		int efd = open(ep, O_RDWR | O_CREAT | O_TRUNC, 0600);
		ftruncate(efd, 13 * PG);
		memset(buf, 'x', 4 * PG);
		pwrite(efd, buf, 4 * PG, 4 * PG);
		char *q = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, efd, 3 * PG);
		printf("  touch pages 3..4: %ld fault(s)\n", touch(q, 2));
		printf("  madvise REMOVE = %d\n", madvise(q, 2 * PG, MADV_REMOVE));
		unsigned char v[2];
		mincore(q, 2 * PG, v);
		printf("  mincore after REMOVE: page3 %d page4 %d\n", v[0] & 1, v[1] & 1);
		printf("  touch page 4: %ld fault(s)\n", touch(q + PG, 1));
		mincore(q, 2 * PG, v);
		int pm = open("/proc/self/pagemap", O_RDONLY);
		uint64_t e3 = 0, e4 = 0;
		pread(pm, &e3, 8, ((uintptr_t)q / PG) * 8);
		pread(pm, &e4, 8, ((uintptr_t)q / PG + 1) * 8);
		printf("  after: mapped page3 %d page4 %d; cached page3 %d page4 %d\n",
		       (int)(e3 >> 63), (int)(e4 >> 63), v[0] & 1, v[1] & 1);
		close(pm);
		munmap(q, 2 * PG);
		close(efd);
		unlink(ep);
	}
	return 0;
}
