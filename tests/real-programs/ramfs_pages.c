/* ramfs(5), as an initramfs or a RAM-only scratch directory uses it: pages
 * that live only in the page cache, with no device to read them from or
 * write them back to.  In a private mount namespace (nothing outlives the
 * program) a ramfs is mounted on /tmp.  A file written there stays dirty,
 * every page of it is unevictable - the mapping is, not the page: mlock
 * marks them mlocked, munlock leaves them unevictable - a fault on a hole
 * of it is a major fault that reads nothing (no readahead either), and
 * fsync and fadvise(DONTNEED) leave it alone.  The first file is named
 * relative to the working directory, the ramfs.  A second file stays mapped
 * across a lazy umount of the file system and keeps its pages until it is
 * unmapped and closed.  Unprivileged (no CAP_SYS_ADMIN) the unshare fails
 * and it says so. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#define PG 4096

int main(void)
{
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		printf("no mount namespace of our own: nothing to do\n");
		return 0;
	}
	if (mount("none", "/tmp", "ramfs", 0, NULL)) {
		printf("no ramfs: nothing to do\n");
		return 0;
	}
	static char buf[16 * PG];
	memset(buf, 'r', sizeof(buf));
	if (chdir("/tmp")) /* a relative name from here on is on the ramfs */
		return 1;
	int fd = open("vmsim-ramfs-data", O_CREAT | O_RDWR, 0600);
	if (fd < 0 || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) || ftruncate(fd, 64 * PG))
		return 1;
	char *p = mmap(NULL, 64 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	volatile char c = 0;
	for (int i = 20; i < 28; i++) /* holes: zeroed pages, one major fault each */
		c += p[i * PG];
	p[40 * PG] = 'w';
	int lk = mlock(p, 64 * PG);   /* every page in, mlocked */
	int ul = munlock(p, 64 * PG); /* still unevictable: the mapping is */
	fsync(fd);                    /* nothing to write back */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); /* no backing device: ignored */
	munmap(p, 64 * PG);
	ssize_t got = pread(fd, buf, 4 * PG, 60 * PG);
	close(fd);

	int kept = open("/tmp/vmsim-ramfs-kept", O_CREAT | O_RDWR, 0600);
	if (kept < 0 || write(kept, buf, 4 * PG) != 4 * PG)
		return 1;
	char *q = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, kept, 0);
	if (q == MAP_FAILED)
		return 1;
	if (chdir("/"))
		return 1;
	int um = umount2("/tmp", MNT_DETACH); /* busy: only detached */
	int lk2 = mlock(q, 4 * PG);            /* the file lives on */
	int ul2 = munlock(q, 4 * PG);
	munmap(q, 8 * PG);
	close(kept);
	printf("%d %d %zd %d %d %d %d\n", lk, ul, got, um, lk2, ul2, c);
	return 0;
}
