/* memfd_secret(2), as a key store uses it: memory removed from the kernel's
 * direct map, locked for as long as it is mapped.  The size is set once
 * (a second ftruncate is EINVAL), a private mapping is refused (EINVAL), a
 * shared one is VM_LOCKED and counted in VmLck from the start without
 * being populated, mlock and munlock leave it as it is, and without
 * CAP_IPC_LOCK under a 64 KiB limit a 128 KiB mapping is refused (EAGAIN).
 * Where the kernel has no memfd_secret (ENOSYS) it says so and stops. */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_memfd_secret
#define SYS_memfd_secret 447
#endif

int main(void)
{
	int fd = (int)syscall(SYS_memfd_secret, 0);
	if (fd < 0) {
		printf("memfd_secret: not available\n");
		return 0;
	}
	size_t len = 16 * 4096;
	int first = ftruncate(fd, (off_t)len);
	int again = ftruncate(fd, (off_t)(2 * len)); /* EINVAL: set once */
	void *priv = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	memcpy(p, "secret", 7);
	p[5 * 4096] = 1;
	int lk = mlock(p, len);      /* changes nothing */
	int ul = munlock(p, len);    /* nor does this: still locked */
	volatile char c = p[9 * 4096];
	(void)c;
	munmap(p, len);
	struct rlimit rl = { 64 * 1024, 64 * 1024 };
	setrlimit(RLIMIT_MEMLOCK, &rl);
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	syscall(SYS_capset, &h, d);
	int fd2 = (int)syscall(SYS_memfd_secret, 0);
	ftruncate(fd2, 32 * 4096);
	void *big = mmap(NULL, 32 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, 0); /* EAGAIN */
	printf("%d %d %s %d %d %s\n", first, again, priv == MAP_FAILED ? "private refused" : "private ok",
	       lk, ul, big == MAP_FAILED ? "over the limit refused" : "over the limit ok");
	return 0;
}
