/* memcg_read - reads a file through a MADV_RANDOM mapping, page by page,
 * then locks its first MiB: under `vmsim record --memcg-max` smaller than
 * the file (this folder's record_memcg.sh), each page read past the limit
 * first reclaims the memory cgroup; the locked pages stay.
 *
 *   memcg_read FILE   (a file of 16 MiB, cold: its cache dropped before) */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const long len = 16L << 20;
	if (argc != 2) {
		fprintf(stderr, "usage: memcg_read FILE\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	madvise(p, len, MADV_RANDOM);
	volatile char sum = 0;
	for (long i = 0; i < len; i += 4096)
		sum += p[i];
	if (mlock(p, 1L << 20))
		perror("mlock");
	for (long i = 0; i < len; i += 4096)
		sum += p[i];
	munmap(p, len);
	close(fd);
	return 0;
}
