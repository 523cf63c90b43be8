/* A shared file mapping locked with mlock(), then the file is truncated
 * under it: the pages beyond the new size go, the lock on the VMA stays. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	const char *path = "/tmp/vmsim-rp-truncate.dat";
	unlink(path);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return 1;
	char page[4096];
	memset(page, 'x', sizeof(page));
	for (int i = 0; i < 16; i++)
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
			return 1;
	char *m = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return 1;
	if (mlock(m, 16 * 4096)) {
		perror("mlock");
		return 1;
	}
	if (ftruncate(fd, 6 * 4096))
		return 1;
	m[0] = 'y';
	m[5 * 4096] = 'z';
	munlock(m, 16 * 4096);
	munmap(m, 16 * 4096);
	close(fd);
	unlink(path);
	return 0;
}
