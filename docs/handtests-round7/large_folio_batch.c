/* Hand test (vmsim triage round 7): a large folio is never left in the
 * per-CPU mlock batch on 6.18 (mlock_folio()/munlock_folio():
 * !folio_may_be_lru_cached()).  A munmap() of a locked mapping queues a
 * munlock; a later fault in another locked mapping queues an mlock.  For a
 * small folio both wait in the batch and are applied in order (munlock
 * first: mlock_count 1 -> 0 clears PG_mlocked, then the mlock finds the
 * folio evictable and does nothing: the page ends munlocked although it is
 * mapped in a locked VMA).  For a large folio each is applied at once and
 * the page ends mlocked.
 * Build: cc -O0 -o large_folio_batch large_folio_batch.c ; run as root in a
 * directory on ext4. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PG 4096L

static void drain(void)
{
	unsigned long mask = 1;
	syscall(SYS_migrate_pages, 0, 2, &mask, &mask);
}

static void show(const char *what, char *p, int n)
{
	char a[64], b[64];
	drain();
	int pm = open("/proc/self/pagemap", O_RDONLY), kf = open("/proc/kpageflags", O_RDONLY);
	for (int i = 0; i < n; i++) {
		uint64_t e = 0, fl = 0;
		pread(pm, &e, 8, ((uintptr_t)p / PG + i) * 8);
		if (!((e >> 63) & 1)) { a[i] = '-'; b[i] = ' '; continue; }
		pread(kf, &fl, 8, (e & ((1ULL << 55) - 1)) * 8);
		a[i] = (fl >> 33) & 1 ? 'M' : (fl >> 18) & 1 ? 'u' : '.';
		b[i] = (fl >> 15) & 1 ? 'H' : (fl >> 16) & 1 ? 'T' : 's';
	}
	a[n] = b[n] = 0;
	printf("  %-40s mlocked [%s] folio [%s]\n", what, a, b);
	close(pm); close(kf);
}

static void run(const char *name, long len, int reps)
{
	char buf[2 * PG];
	memset(buf, 'x', sizeof buf);
	for (int r = 0; r < reps; r++) {
		unlink(name);
		int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
		pwrite(fd, buf, len, 0);  /* 4 KiB: small folio; 8 KiB: order-1 folio */
		fsync(fd);
		char *a = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_LOCKED, fd, 0);
		char *b = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		syscall(SYS_mlock2, b, len, 1 /* MLOCK_ONFAULT */);
		show("A locked, B locked-on-fault, unfaulted", a, (int)(len / PG));
		munmap(a, len);                      /* queues munlock */
		(void)*(volatile char *)b;           /* fault: queues mlock */
		show("after munmap(A), read fault in B", b, (int)(len / PG));
		munmap(b, len);
		close(fd);
	}
	unlink(name);
}

int main(void)
{
	cpu_set_t cs;
	CPU_ZERO(&cs); CPU_SET(0, &cs);
	sched_setaffinity(0, sizeof cs, &cs);
	printf("small folio (4 KiB file):\n");
	run("./h16-batch-small", PG, 3);
	printf("order-1 folio (8 KiB file):\n");
	run("./h16-batch-large", 2 * PG, 3);
	return 0;
}
