/* The bounding set across execve, as a daemon in a container runs.  Run
 * as root where the bounding set lacks CAP_SYS_RESOURCE (a container, or
 * after PR_CAPBSET_DROP; this machine's root):
 *  - the first image lowers RLIMIT_MEMLOCK to 64 KiB (lowering needs no
 *    capability) and execs itself;
 *  - the second, still root, raises the hard limit to 128 KiB: execve gave
 *    root the bounding set, not every capability, so CAP_SYS_RESOURCE did
 *    not come back and prlimit is EPERM (do_prlimit());
 *  - mlock of 96 KiB, over the limit, works: CAP_IPC_LOCK is in the set.
 * Where the bounding set holds CAP_SYS_RESOURCE the raise works instead;
 * the recording says which (`# cap-bounding:`). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define KB 1024UL

int main(int argc, char **argv)
{
	if (argc < 2) {
		struct rlimit low = { 64 * KB, 64 * KB };
		if (setrlimit(RLIMIT_MEMLOCK, &low))
			return 1;
		char *again[] = { argv[0], "again", NULL };
		execv("/proc/self/exe", again);
		return 1;
	}
	struct rlimit high = { 128 * KB, 128 * KB };
	int raised = setrlimit(RLIMIT_MEMLOCK, &high);
	char *p = mmap(NULL, 96 * KB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	int locked = mlock(p, 96 * KB);
	printf("after exec: raise the hard limit %d, mlock 96K over 64K %d\n", raised, locked);
	munlock(p, 96 * KB);
	return 0;
}
