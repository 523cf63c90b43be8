/*
 * hugetlb_pool.c - a program that uses the hugetlb pool the ways databases
 * and packet processors do: MAP_HUGETLB private and shared, locked and
 * populated, a fork over them, SysV SHM_HUGETLB with SHM_LOCK, and the
 * requests the kernel refuses.  Recorded with vm.nr_hugepages=16 (see
 * record.sh); with a smaller pool the refusals come earlier, which a
 * replay with the header's pool follows too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#define HUGE (2UL << 20)
#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

static void say(const char *what, long r)
{
	printf("%-40s %ld%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerror(errno) : "");
}

int main(void)
{
	int anon = MAP_ANONYMOUS | MAP_HUGETLB;
	/* private, 4 MiB: two huge pages reserved, one written, one read */
	char *p = mmap(NULL, 2 * HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | anon, -1, 0);
	say("mmap private 2 huge pages", p == MAP_FAILED ? -1 : 0);
	if (p == MAP_FAILED)
		return 0;
	p[0] = 1;
	volatile char c = p[HUGE + 100];
	(void)c;
	p[HUGE + 100] = 2; /* the read mapped it read-only: a second fault */
	/* a lock of hugetlb memory: populated, but neither VM_LOCKED nor counted */
	say("mlock private", mlock(p, 2 * HUGE));
	say("munlock private", munlock(p, 2 * HUGE));
	/* splits: only at a huge page boundary */
	say("munmap inside a huge page", munmap(p + 4096, 4096));
	say("mprotect half, unaligned", mprotect(p, HUGE + 4096, PROT_READ));
	say("mprotect the first huge page", mprotect(p, HUGE, PROT_READ));
	say("munmap the second huge page", munmap(p + HUGE, HUGE));

	/* a length not a multiple of the huge page is rounded up */
	char *q = mmap(NULL, HUGE + 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | anon | MAP_LOCKED, -1, 0);
	say("mmap MAP_LOCKED, 2 MiB + 1", q == MAP_FAILED ? -1 : 0);

	/* shared, populated, then a fork that writes it */
	char *s = mmap(NULL, 2 * HUGE, PROT_READ | PROT_WRITE, MAP_SHARED | anon | MAP_POPULATE, -1, 0);
	say("mmap shared populated", s == MAP_FAILED ? -1 : 0);
	if (s != MAP_FAILED) {
		pid_t pid = fork();
		if (!pid) {
			s[0] = 3;
			if (q != MAP_FAILED)
				q[0] = 4; /* a private page: the child copies it from the pool */
			_exit(0);
		}
		waitpid(pid, NULL, 0);
		say("munmap shared", munmap(s, 2 * HUGE));
	}

	/* more than the pool holds: refused at mmap, unless MAP_NORESERVE */
	char *big = mmap(NULL, 64 * HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | anon, -1, 0);
	say("mmap 64 huge pages", big == MAP_FAILED ? -1 : 0);
	char *nr = mmap(NULL, 64 * HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | anon | MAP_NORESERVE,
			-1, 0);
	say("mmap 64 huge pages, MAP_NORESERVE", nr == MAP_FAILED ? -1 : 0);
	if (nr != MAP_FAILED) {
		nr[0] = 5; /* one page, while the pool has it */
		munmap(nr, 64 * HUGE);
	}
	/* page sizes the machine has not, and a file that is not hugetlbfs */
	void *g = mmap(NULL, HUGE, PROT_READ, MAP_PRIVATE | anon | (30 << MAP_HUGE_SHIFT), -1, 0);
	say("mmap MAP_HUGE_1GB", g == MAP_FAILED ? -1 : 0);
	int fd = open("/proc/self/exe", O_RDONLY);
	void *fm = mmap(NULL, HUGE, PROT_READ, MAP_PRIVATE | MAP_HUGETLB, fd, 0);
	say("mmap MAP_HUGETLB of a file", fm == MAP_FAILED ? -1 : 0);
	close(fd);

	/* SysV: the segment reserves its pages when it is made */
	int id = shmget(IPC_PRIVATE, 3 * HUGE / 2, IPC_CREAT | SHM_HUGETLB | 0600);
	say("shmget SHM_HUGETLB 3 MiB", id);
	if (id >= 0) {
		char *a = shmat(id, NULL, 0);
		say("shmat", a == (void *)-1 ? -1 : 0);
		if (a != (void *)-1) {
			a[0] = 6;
			a[HUGE] = 7;
			say("shmctl SHM_LOCK", shmctl(id, SHM_LOCK, NULL));
			struct shmid_ds ds;
			say("shmctl IPC_STAT", shmctl(id, IPC_STAT, &ds));
			say("shmctl SHM_UNLOCK", shmctl(id, SHM_UNLOCK, NULL));
			say("shmdt", shmdt(a));
		}
		say("shmctl IPC_RMID", shmctl(id, IPC_RMID, NULL));
	}
	int id2 = shmget(IPC_PRIVATE, 64 * HUGE, IPC_CREAT | SHM_HUGETLB | 0600);
	say("shmget SHM_HUGETLB 64 huge pages", id2);
	if (id2 >= 0)
		shmctl(id2, IPC_RMID, NULL);
	if (q != MAP_FAILED)
		munmap(q, 2 * HUGE);
	munmap(p, HUGE);
	return 0;
}
