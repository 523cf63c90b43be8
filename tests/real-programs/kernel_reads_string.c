/* The kernel reads a string argument from memory the program never
 * touched: memfd_create()'s name and open()'s path lie in fresh pages of
 * an anonymous mapping, so the kernel's own copy (strncpy_from_user())
 * takes a read fault in kernel mode and maps the zero page there.  The
 * recorder must not hide that fault by mapping the page first with its
 * own read; an mprotect afterwards lets `--expect all` show the pages. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	char *p = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	int fd = memfd_create(p + 4096, 0);   /* an empty name, in page 1 */
	int f2 = open(p + 2 * 4096, O_RDONLY); /* an empty path: ENOENT, in page 2 */
	p[3 * 4096] = 1;
	mprotect(p, 4 * 4096, PROT_READ);
	if (fd >= 0)
		close(fd);
	if (f2 >= 0)
		close(f2);
	return 0;
}
