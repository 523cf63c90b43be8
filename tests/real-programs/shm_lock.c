/* SysV shared memory as a database server uses it.  As root: a segment
 * made with shmget, attached twice, locked with SHM_LOCK so reclaim leaves
 * it alone, touched, locked again (charged once), read back with IPC_STAT, unlocked, marked for removal
 * while still attached, then detached (the last detach destroys it).
 * Then without CAP_IPC_LOCK (capset) under a 64 KiB RLIMIT_MEMLOCK: a
 * keyed segment of 128 KiB cannot be locked (ENOMEM), one of 16 KiB can,
 * and with the limit at 0 SHM_LOCK is refused outright (EPERM). */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	size_t len = 16 * 4096 + 100;
	int id = shmget(IPC_PRIVATE, len, IPC_CREAT | 0600);
	if (id < 0)
		return 1;
	char *p = shmat(id, NULL, 0);
	if (p == (void *)-1)
		return 1;
	int lk = shmctl(id, SHM_LOCK, NULL);
	memset(p, 'x', 8 * 4096);
	shmctl(id, SHM_LOCK, NULL); /* again: charged once; the pages are unevictable */
	struct shmid_ds ds;
	shmctl(id, IPC_STAT, &ds);
	char *q = shmat(id, NULL, SHM_RDONLY);
	volatile char c = q != (void *)-1 ? q[4096] + q[10 * 4096] : 0;
	(void)c;
	shmctl(id, SHM_UNLOCK, NULL);
	shmctl(id, IPC_RMID, NULL);
	if (q != (void *)-1)
		shmdt(q);
	p[12 * 4096] = 'y';
	shmdt(p);
	int gone = shmctl(id, IPC_STAT, &ds); /* EINVAL: destroyed */

	struct rlimit rl = { 64 * 1024, 64 * 1024 };
	setrlimit(RLIMIT_MEMLOCK, &rl);
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	if (syscall(SYS_capset, &h, d))
		return 1;
	int big_id = shmget(0x5eed, 32 * 4096, IPC_CREAT | 0600);
	int big = shmctl(big_id, SHM_LOCK, NULL);           /* ENOMEM */
	int again = shmget(0x5eed, 4096, 0);                /* the same id */
	int excl = shmget(0x5eed, 4096, IPC_CREAT | IPC_EXCL | 0600); /* EEXIST */
	int small_id = shmget(IPC_PRIVATE, 4 * 4096, IPC_CREAT | 0600);
	char *s = shmat(small_id, NULL, 0);
	int small = shmctl(small_id, SHM_LOCK, NULL);       /* within */
	if (s != (void *)-1)
		memset(s, 's', 4 * 4096);
	rl.rlim_cur = rl.rlim_max = 0;
	setrlimit(RLIMIT_MEMLOCK, &rl);
	int zero = shmctl(big_id, SHM_LOCK, NULL);          /* EPERM */
	int unl = shmctl(small_id, SHM_UNLOCK, NULL);       /* allowed */
	shmctl(big_id, IPC_RMID, NULL);
	shmctl(small_id, IPC_RMID, NULL);
	shmdt(s);
	printf("%d %d %d %d %d %d %d %d\n", lk, gone, big, again == big_id, excl, small, zero, unl);
	return 0;
}
