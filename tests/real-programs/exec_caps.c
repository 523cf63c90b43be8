/* Credentials across setuid and execve, as a daemon that drops root does.
 * Run as root:
 *  - mlockall(MCL_CURRENT|MCL_FUTURE), then a child gives up root with
 *    setresuid(65534, ...) - permitted and effective capabilities go - and
 *    execs itself: the new image is not locked (execve drops def_flags and
 *    the locks) and, without CAP_IPC_LOCK under a 64 KiB limit, mmap
 *    MAP_LOCKED of 128 KiB is EAGAIN while mlock of 32 KiB works;
 *  - the parent sets only its euid to 65534 (the effective set goes, the
 *    permitted stays): a 16 MiB mlock past the 8 MiB limit is ENOMEM;
 *    back to euid 0 the effective set returns and it works;
 *  - the parent drops CAP_IPC_LOCK from its effective set with capset and
 *    execs itself as root: execve gives root every capability again. */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define KB 1024UL

static int as_nobody(void)
{
	size_t len = 128 * KB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memset(p, 1, len); /* not locked: MCL_FUTURE did not survive execve */
	char *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	int small = mlock(p, 32 * KB);
	int all = mlockall(MCL_CURRENT);
	printf("nobody: map_locked %s, mlock 32K %d, mlockall %d\n", q == MAP_FAILED ? "refused" : "ok",
	       small, all);
	return 0;
}

static int as_root_again(void)
{
	size_t len = 16 * 1024 * KB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	int r = mlock(p, len); /* CAP_IPC_LOCK again after execve */
	printf("root after exec: mlock 16M %d\n", r);
	munlock(p, len);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "nobody"))
		return as_nobody();
	if (argc > 1 && !strcmp(argv[1], "root"))
		return as_root_again();
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		return 1;
	char *locked = mmap(NULL, 64 * KB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (locked == MAP_FAILED)
		return 1;
	pid_t c = fork();
	if (c == 0) {
		struct rlimit rl = { 64 * KB, 64 * KB };
		setrlimit(RLIMIT_MEMLOCK, &rl);
		if (setresuid(65534, 65534, 65534))
			_exit(1);
		execl("/proc/self/exe", argv[0], "nobody", (char *)NULL);
		_exit(1);
	}
	int st;
	waitpid(c, &st, 0);
	munlockall();
	size_t len = 16 * 1024 * KB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	setresuid(-1, 65534, -1);
	int off = mlock(p, len);
	setresuid(-1, 0, -1);
	int on = mlock(p, len);
	munlock(p, len);
	munmap(p, len);
	printf("root: euid 65534 mlock 16M %d, euid 0 %d\n", off, on);
	fflush(stdout);
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	if (syscall(SYS_capget, &h, d))
		return 1;
	d[0].effective &= ~(1u << CAP_IPC_LOCK);
	if (syscall(SYS_capset, &h, d))
		return 1;
	execl("/proc/self/exe", argv[0], "root", (char *)NULL);
	return 1;
}
