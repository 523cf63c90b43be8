/*
 * The idea of the kernel's mlock-random-test (tools/testing/selftests/mm/
 * mlock-random-test.c), written anew: under an RLIMIT_MEMLOCK of 64 KiB,
 * without CAP_IPC_LOCK, lock random sub-ranges of a 1 MiB mapping with
 * mlock() and mlock2(MLOCK_ONFAULT) (a seeded generator, so the program
 * is the same every run) and check each result against the limit:
 * success while the locked total stays within it, ENOMEM past it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static unsigned long seed = 12345;

static unsigned long next(void)
{
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return seed >> 33;
}

int main(void)
{
	struct rlimit rl = { 64 * 1024, 64 * 1024 };
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	if (setrlimit(RLIMIT_MEMLOCK, &rl) || syscall(SYS_capset, &h, d))
		return 1;
	size_t len = 1 << 20;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	int ok = 0, refused = 0;
	for (int i = 0; i < 40; i++) {
		size_t off = (next() % 256) * 4096, n = (1 + next() % 24) * 4096;
		if (off + n > len)
			n = len - off;
		int r = (i & 1) ? mlock2(m + off, n, MLOCK_ONFAULT) : mlock(m + off, n);
		if (r == 0)
			ok++;
		else if (errno == ENOMEM)
			refused++;
		if (i % 5 == 4)
			munlock(m, len);
	}
	munlock(m, len);
	munmap(m, len);
	printf("%d locked, %d refused\n", ok, refused);
	return 0;
}
