/* The kernel's on-fault-limit selftest, in other words, run as its runner
 * runs it: started as root, it gives up root (setresuid to nobody, as
 * `sudo -u nobody` does) and execs itself.  As nobody, with no
 * CAP_IPC_LOCK left after execve, mlockall(MCL_ONFAULT | MCL_FUTURE) makes
 * every later mapping count against RLIMIT_MEMLOCK: a populated mapping of
 * twice the hard limit must be refused (EAGAIN). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif

static int limit_test(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_max == RLIM_INFINITY)
		return 1;
	if (mlockall(MCL_ONFAULT | MCL_FUTURE))
		return 1;
	size_t len = 2 * rl.rlim_max;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	int refused = p == MAP_FAILED;
	if (!refused)
		munmap(p, len);
	munlockall();
	printf("mmap of twice the limit %s\n", refused ? "refused" : "allowed");
	return !refused;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "limit"))
		return limit_test();
	pid_t c = fork();
	if (c == 0) {
		if (setresuid(65534, 65534, 65534))
			_exit(1);
		execl("/proc/self/exe", argv[0], "limit", (char *)NULL);
		_exit(1);
	}
	int st;
	if (waitpid(c, &st, 0) != c)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
