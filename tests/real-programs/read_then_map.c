/* Buffered reads of a file, then a mapping of it: the reads' readahead
 * fills the page cache (mm/filemap.c:filemap_get_pages()), so faults on the
 * mapping are minor where the window reached and major beyond it.  The
 * file is written and dropped from the cache first (fdatasync +
 * POSIX_FADV_DONTNEED), so the run starts from a known cache. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	const char *path = "/tmp/vmsim-rp-readahead.dat";
	unlink(path);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return 1;
	char page[4096];
	memset(page, 'r', sizeof(page));
	for (int i = 0; i < 64; i++)
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
			return 1;
	if (fdatasync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		return 1;
	close(fd);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 1;
	char buf[512];
	if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return 1;
	if (pread(fd, buf, sizeof(buf), 5 * 4096) != (ssize_t)sizeof(buf))
		return 1;
	const volatile char *m = mmap(NULL, 64 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return 1;
	int sum = 0;
	for (int i = 0; i < 64; i += 3)
		sum += m[i * 4096];
	if (mlock((const void *)m, 64 * 4096))
		return 1;
	munmap((void *)m, 64 * 4096);
	close(fd);
	unlink(path);
	return sum == 0;
}
