/* ra_faults.c - read faults on a fresh ext4 mapping next to pwrite()n folios.
 * Run as root on the 6.18 machine: gcc -O0 ra_faults.c -o ra && ./ra [MODE]
 * MODE 0 (default): g3-0308 prefix: ftruncate(28772), pwrite 8K at 45056,
 *        mmap 8 pages at offset 3 pages (PROT_READ, MAP_PRIVATE), read them.
 * MODE 1: same without the pwrite (file all holes).
 * MODE 2: same, the file filled with data and fsync'ed + dropped from cache first.
 * MODE 3: ftruncate(28772) then ftruncate(53248) (size grown by truncate, no write).
 * MODE 4: ftruncate(28672) (block-aligned old EOF), pwrite 8K at 45056.
 * MODE 5: as 0, then mincore() and cachestat() of each file page before the
 *        mmap reads (cachestat counts a cached folio even when !uptodate).
 * MODE 6: ftruncate(28772), fallocate(mode 0, 45056, 8192) (size grown by fallocate).
 * MODE 7: ftruncate(28772), pwrite 8K at 45056, then mincore/cachestat only
 *        (with MODE 5 output: which page is cached but not uptodate).
 * Prints, per touched page, the faults it took (minflt+majflt) and the pagemap
 * present bits of the 8 pages afterwards; then /proc/self/smaps Rss. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static long faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}
static long majf(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_majflt;
}

static void present(volatile char *p, int n)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	for (int i = 0; i < n; i++) {
		uint64_t e;
		pread(fd, &e, 8, ((uintptr_t)p / 4096 + i) * 8);
		putchar(e >> 63 ? '1' : '0');
	}
	close(fd);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int mode = argc > 1 ? atoi(argv[1]) : 0;
	const char *path = "/tmp/ht4-ra-ext4";
	char buf[65536];
	memset(buf, 'x', sizeof(buf));
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (mode == 2) {
		pwrite(fd, buf, 53248, 0);
		fsync(fd);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	} else if (mode == 3) {
		ftruncate(fd, 28772);
		ftruncate(fd, 53248);
	} else if (mode == 6) {
		ftruncate(fd, 28772);
		fallocate(fd, 0, 45056, 8192);
	} else if (mode == 4) {
		ftruncate(fd, 28672);
		pwrite(fd, buf, 8192, 45056);
	} else {
		ftruncate(fd, 28772);
		if (mode == 0 || mode == 5)
			pwrite(fd, buf, 8192, 45056);
	}
	if (mode >= 5) {
		unsigned char mc[13];
		void *q = mmap(NULL, 13 * 4096, PROT_NONE, MAP_SHARED, fd, 0);
		mincore(q, 13 * 4096, mc);
		printf("mincore before: ");
		for (int i = 0; i < 13; i++)
			putchar('0' + (mc[i] & 1));
		putchar('\n');
		munmap(q, 13 * 4096);
		printf("cachestat cached/dirty: ");
		for (int i = 0; i < 13; i++) {
			struct { uint64_t off, len; } r = { i * 4096ull, 4096 };
			uint64_t cs[5] = { 0 };
			syscall(451, fd, &r, cs, 0);
			printf("%llu%llu ", (unsigned long long)cs[0], (unsigned long long)cs[1]);
		}
		putchar('\n');
	}
	volatile char *p = mmap(NULL, 8 * 4096, PROT_READ, MAP_PRIVATE, fd, 3 * 4096);
	long mj0 = majf();
	for (int i = 0; i < 8; i++) {
		long f0 = faults();
		(void)p[i * 4096];
		long f1 = faults();
		printf("touch page %d: %ld faults  present ", i, f1 - f0);
		present(p, 8);
		putchar('\n');
	}
	printf("major faults total %ld\n", majf() - mj0);
	unlink(path);
	return 0;
}
