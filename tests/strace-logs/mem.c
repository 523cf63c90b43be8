/* mem.c - exercise the syscalls vmsim models, for recording strace logs:
 *   strace -f -o mem.log -e trace=%memory,%process,openat,close,ftruncate,\
 *     fallocate,pread64,read,write,pwrite64,prlimit64,setrlimit,capset ./mem */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 8 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memset(p, 1, 2 * pg);
	mlock(p, 2 * pg);
	syscall(SYS_mlock2, p + 2 * pg, 2 * pg, MLOCK_ONFAULT);
	munlock(p, 4 * pg);
	mprotect(p, pg, PROT_READ);
	madvise(p + pg, pg, MADV_DONTNEED);
	msync(p, pg, MS_SYNC);
	p = mremap(p, 8 * pg, 16 * pg, MREMAP_MAYMOVE);
	mlockall(MCL_CURRENT | MCL_ONFAULT);
	munlockall();
	mlockall(0x8); /* invalid: strace prints 0x8 / * MCL_??? * / */
	mmap((void *)0x1000, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	munmap(p, 16 * pg);
	sbrk(0);

	struct rlimit rl = { 64 * 1024, RLIM_INFINITY };
	setrlimit(RLIMIT_MEMLOCK, &rl);
	prlimit(0, RLIMIT_MEMLOCK, NULL, &rl);

	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) == 0) {
		d[0].effective &= ~(1u << CAP_IPC_LOCK);
		syscall(SYS_capset, &h, d);
	}

	int fd = open("/tmp/vmsim-strace-test", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		char buf[64] = "hello \"world\"\n\t\001";
		ftruncate(fd, 4 * pg);
		fallocate(fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, 0, pg);
		pwrite(fd, buf, sizeof(buf), pg);
		pread(fd, buf, sizeof(buf), 0);
		write(fd, buf, 16);
		read(fd, buf, 16);
		char *f = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (f != MAP_FAILED) {
			f[0] = 1;
			munmap(f, 4 * pg);
		}
		close(fd);
		unlink("/tmp/vmsim-strace-test");
	}
	char *bad = mmap(NULL, 1UL << 60, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	(void)bad;

	pid_t c = fork();
	if (c == 0) {
		char *q = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (q != MAP_FAILED)
			q[0] = 1;
		_exit(3);
	}
	waitpid(c, NULL, 0);
	c = fork();
	if (c == 0) {
		volatile char *z = (volatile char *)16;
		*z = 1; /* SIGSEGV */
		_exit(0);
	}
	waitpid(c, NULL, 0);
	return 0;
}
