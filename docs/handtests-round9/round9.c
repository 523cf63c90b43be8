/* Hand tests of triage round 9 (Linux 6.18, ext4 /tmp, run as root).
 * A finish_fault() fallback, B punch twice, C MADV_COLD split in one mm.
 * Prints which pages of a range are present (pagemap) and resident (mincore). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG 4096
static int pm;

static void present(const char *tag, char *a, int n)
{
	printf("%-34s present:", tag);
	for (int i = 0; i < n; i++) {
		uint64_t e = 0;
		pread(pm, &e, 8, ((uintptr_t)a / PG + i) * 8);
		printf("%c", (e >> 63) ? 'P' : '.');
	}
	printf("\n");
}

static void resident(const char *tag, int fd, int n)
{
	char *m = mmap(NULL, n * PG, PROT_READ, MAP_SHARED, fd, 0);
	unsigned char v[64];
	mincore(m, n * PG, v);
	printf("%-34s cached: ", tag);
	for (int i = 0; i < n; i++)
		printf("%c", (v[i] & 1) ? 'C' : '.');
	printf("\n");
	munmap(m, n * PG);
}

static int newfile(const char *p, int pages)
{
	int fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0600);
	char *buf = malloc(pages * PG);
	memset(buf, 'x', pages * PG);
	if (pwrite(fd, buf, pages * PG, 0) != pages * PG)
		exit(1);
	free(buf);
	return fd;
}

int main(void)
{
	pm = open("/proc/self/pagemap", O_RDONLY);
	/* A: a write fault on a large folio one of whose PTEs is set maps
	 * only the faulting page (finish_fault() needs_fallback) */
	int fd = newfile("/tmp/r9-a", 4);
	char *a = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	a[0] = 1;
	present("A write fault page 0", a, 4);
	madvise(a + PG, 3 * PG, MADV_DONTNEED);
	present("A after DONTNEED 1-3", a, 4);
	a[2 * PG] = 1;
	present("A write fault page 2", a, 4);
	munmap(a, 4 * PG);
	close(fd);
	unlink("/tmp/r9-a");

	/* B: a dirty order-1 folio punched on page 1, then on page 0 */
	fd = newfile("/tmp/r9-b", 2);
	resident("B after pwrite 8 KiB", fd, 2);
	fallocate(fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, PG, PG);
	resident("B after punch page 1", fd, 2);
	fallocate(fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, 0, PG);
	resident("B after punch page 0", fd, 2);
	close(fd);
	unlink("/tmp/r9-b");

	/* C: a clean order-2 folio mapped by two VMAs of one mm (C1) or of
	 * two mms (C2); MADV_COLD on half of it in the first VMA */
	for (int two = 0; two < 2; two++) {
		fd = newfile("/tmp/r9-c", 4);
		fsync(fd);
		char *x = mmap(NULL, 4 * PG, PROT_READ, MAP_SHARED, fd, 0);
		char *y = mmap(NULL, 4 * PG, PROT_READ, MAP_SHARED, fd, 0);
		for (int i = 0; i < 4; i++)
			(void)*(volatile char *)(x + i * PG), (void)*(volatile char *)(y + i * PG);
		int p[2];
		pipe(p);
		pid_t c = -1;
		if (two) {
			munmap(y, 4 * PG);
			c = fork();
			if (!c) {
				char *z = mmap(NULL, 4 * PG, PROT_READ, MAP_SHARED, fd, 0);
				for (int i = 0; i < 4; i++)
					(void)*(volatile char *)(z + i * PG);
				write(p[1], "r", 1);
				pause();
				_exit(0);
			}
			char r;
			read(p[0], &r, 1);
		}
		madvise(x, 2 * PG, MADV_COLD);
		present(two ? "C2 (other mm) x after COLD 0-1" : "C1 (same mm) x after COLD 0-1", x, 4);
		if (!two)
			present("C1 (same mm) y after COLD", y, 4);
		if (two) {
			kill(c, 9);
			waitpid(c, NULL, 0);
		}
		close(fd);
		unlink("/tmp/r9-c");
	}
	return 0;
}
