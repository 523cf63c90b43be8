/*
 * ra-per-open-file.c - is readahead state (file_ra_state, mmap_miss
 * included) kept per open file or per inode?  Run on the live kernel:
 *
 *   cc -O1 -o ra-per-open-file tools/probes/ra-per-open-file.c
 *   ./ra-per-open-file 0    # two open()s of one file
 *   ./ra-per-open-file 1    # one open(), mapped twice
 *
 * A sparse 2 GiB file in /var/tmp (ext4 here, read_ahead_kb 8192); 150
 * COW write faults 3,000 pages apart through the first open push its
 * mmap_miss past MMAP_LOTSAMISS (100 read-arounds of 2,048 pages, then
 * single pages); then one read fault far away through the second mapping.
 * Linux 6.18 here: two opens +2,048 pages cached, one open +1.  vmsim's
 * trace of the same calls: traces/semantics/readahead-state-per-open-file.trace.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096UL

static long cached(int fd, size_t len)
{
	void *p = mmap(NULL, len, PROT_NONE, MAP_SHARED, fd, 0);
	size_t n = len / PAGE;
	unsigned char *v = malloc(n);
	long c = 0;
	if (p != MAP_FAILED && v && !mincore(p, len, v))
		for (size_t i = 0; i < n; i++)
			c += v[i] & 1;
	if (p != MAP_FAILED)
		munmap(p, len);
	free(v);
	return c;
}

int main(int argc, char **argv)
{
	const char *path = "/var/tmp/vr/sparse";
	size_t len = 2UL << 30;
	int same = argc > 1 && atoi(argv[1]);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)len) || fsync(fd)) {
		perror(path);
		return 1;
	}
	posix_fadvise(fd, 0, (off_t)len, POSIX_FADV_DONTNEED);
	int fd1 = open(path, O_RDONLY), fd2 = same ? fd1 : open(path, O_RDONLY);
	char *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd1, 0);
	char *b = mmap(NULL, len, PROT_READ, MAP_SHARED, fd2, 0);
	if (fd1 < 0 || fd2 < 0 || a == MAP_FAILED || b == MAP_FAILED) {
		perror("open/mmap");
		return 1;
	}
	for (int k = 0; k < 150; k++)
		a[(size_t)(1000 + 3000 * k) * PAGE] = 1;
	long c0 = cached(fd, len);
	volatile char x = b[(size_t)500000 * PAGE];
	(void)x;
	long c1 = cached(fd, len);
	printf("%s: cached before %ld, after the second mapping's fault %ld (+%ld)\n",
	       same ? "one open" : "two opens", c0, c1, c1 - c0);
	unlink(path);
	return 0;
}
