/* Mappings made resident up front: MAP_LOCKED (locked and populated),
 * MAP_POPULATE (populated, not locked), MAP_POPULATE|MAP_NONBLOCK (not
 * populated since 2.6.23), and a locked shared file mapping. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	size_t len = 32 * 4096;
	char *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	char *b = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	char *c = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | MAP_NONBLOCK, -1, 0);
	if (a == MAP_FAILED || b == MAP_FAILED || c == MAP_FAILED)
		return 1;
	const char *path = "/tmp/vmsim-rp-populate.dat";
	unlink(path);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || ftruncate(fd, 8 * 4096))
		return 1;
	char *f = mmap(NULL, 8 * 4096, PROT_READ, MAP_SHARED | MAP_LOCKED | MAP_POPULATE, fd, 0);
	if (f == MAP_FAILED)
		return 1;
	a[0] = b[0] = c[0] = 1;
	int sum = f[4096];
	munmap(a, len);
	munmap(b, len);
	munmap(c, len);
	munmap(f, 8 * 4096);
	close(fd);
	unlink(path);
	return sum;
}
