/* A process without CAP_IPC_LOCK under a small RLIMIT_MEMLOCK: it drops
 * the capability (capset), lowers the limit to 64 KiB, and then locking
 * beyond it fails - ENOMEM from mlock(), EAGAIN from mmap(MAP_LOCKED) -
 * while locking within it works. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	struct rlimit rl = { 64 * 1024, 64 * 1024 };
	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		return 1;
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	if (syscall(SYS_capset, &h, d))
		return 1;
	size_t len = 32 * 4096;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	int ok = mlock(p, 8 * 4096);          /* 32 KiB: within */
	int big = mlock(p, len);              /* 128 KiB: ENOMEM */
	int e1 = errno;
	char *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	int e2 = errno;
	printf("%d %d %d %d\n", ok, big, e1 == ENOMEM, q == MAP_FAILED && e2 == EAGAIN);
	munlock(p, len);
	munmap(p, len);
	return 0;
}
