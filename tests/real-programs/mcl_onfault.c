/* mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT): every mapping, present
 * and future, is locked as it is touched; then munlockall(). */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>

int main(void)
{
	if (mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) {
		perror("mlockall");
		return 1;
	}
	size_t len = 1 << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (size_t off = 0; off < len / 2; off += 4096)
		p[off] = 3;
	munlockall();
	p[len - 1] = 4;
	munmap(p, len);
	return 0;
}
