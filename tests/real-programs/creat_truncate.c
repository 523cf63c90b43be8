/* creat() as older programs and tar use it: a file made with creat(),
 * written, mapped and read through the mapping, then made again with
 * creat() (truncated to nothing under its live private mapping) and
 * closed.  Every descriptor creat() returns must be known to the model,
 * or each close() after it diverges with EBADF. */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	const char *path = "/tmp/vmsim-creat-truncate.out";
	char buf[3 * 4096];
	memset(buf, 'c', sizeof(buf));
	int fd = creat(path, 0644);
	if (fd < 0 || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return 1;
	close(fd);
	fd = open(path, O_RDONLY);
	char *p = mmap(NULL, sizeof(buf), PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	volatile char c = p[4096];
	close(fd);
	fd = creat(path, 0600);
	close(fd);
	(void)c;
	munmap(p, sizeof(buf)); /* the pages beyond the new end went at the truncation */
	unlink(path);
	return 0;
}
