/* A large sparse table locked on fault (mlock2(MLOCK_ONFAULT)): only the
 * pages touched are populated and locked, the whole range is charged to
 * RLIMIT_MEMLOCK. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>

int main(void)
{
	size_t len = 64UL << 20;
	char *t = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED)
		return 1;
	if (mlock2(t, len, MLOCK_ONFAULT)) {
		perror("mlock2");
		return 1;
	}
	for (size_t off = 0; off < len; off += 8UL << 20)
		t[off] = 1;
	char c = t[len - 1];
	munlock(t + (16UL << 20), 16UL << 20);
	munmap(t, len);
	printf("%d\n", c);
	return 0;
}
