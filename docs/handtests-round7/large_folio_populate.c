/* Hand test (vmsim triage round 7): is a large ext4 page-cache folio
 * mlocked when a VM_LOCKED mapping populates it (MAP_POPULATE with
 * MAP_LOCKED or mlockall(MCL_FUTURE)), on Linux 6.18?  The model follows
 * __folio_add_file_rmap(): only small folios are mlocked when mapped.
 * Build: cc -O0 -o large_folio_populate large_folio_populate.c ; run as root
 * with the current directory on ext4. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sched.h>

#define PG 4096L
static const char *path = "./h16-large-folio";

static void drain(void)
{
	unsigned long mask = 1;
	syscall(SYS_migrate_pages, 0, 2, &mask, &mask);
}

/* per page: M mlocked / u unevictable only / . neither / - absent;
 * H compound head, T tail, s small */
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
	printf("  %-52s mlocked [%s] folio [%s]\n", what, a, b);
	close(pm); close(kf);
}

static int fresh(void)
{
	char buf[2 * PG];
	memset(buf, 'x', sizeof buf);
	unlink(path);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ftruncate(fd, 16 * PG);
	pwrite(fd, buf, 2 * PG, 10 * PG);   /* the trace's pwrite64(4, 8192, 40960) */
	return fd;
}

int main(void)
{
	int fd;
	char *p;

	printf("C0: pwrite 8 KiB at page 10, mmap SHARED|POPULATE (not locked)\n");
	fd = fresh();
	p = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	show("after mmap", p, 16);
	munmap(p, 16 * PG); close(fd);

	printf("C1: same, MAP_SHARED|MAP_POPULATE|MAP_LOCKED\n");
	fd = fresh();
	p = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE | MAP_LOCKED, fd, 0);
	show("after mmap", p, 16);
	munlock(p, 16 * PG);
	show("after munlock", p, 16);
	munmap(p, 16 * PG); close(fd);

	printf("C2: same, MAP_SHARED|MAP_LOCKED (no populate), then read every page\n");
	fd = fresh();
	p = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED, fd, 0);
	show("after mmap", p, 16);
	for (int i = 0; i < 16; i++) (void)*(volatile char *)(p + i * PG);
	show("after reads", p, 16);
	munmap(p, 16 * PG); close(fd);

	printf("C3: mlockall(MCL_FUTURE), mmap SHARED|POPULATE at offset 7 pages\n");
	fd = fresh();
	mlockall(MCL_FUTURE);
	p = mmap(NULL, 12 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 7 * PG);
	show("after mmap (pages 7..18)", p, 12);
	munlockall();
	munmap(p, 12 * PG); close(fd);

	printf("C4: mlock() of a plain mapping (mlock_pte_range)\n");
	fd = fresh();
	p = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	mlock(p, 16 * PG);
	show("after mlock", p, 16);
	munmap(p, 16 * PG); close(fd);

	printf("C5: mlock2(MLOCK_ONFAULT) on a fresh mapping, then read-fault each page\n");
	fd = fresh();
	p = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	syscall(SYS_mlock2, p, 16 * PG, 1 /* MLOCK_ONFAULT */);
	for (int i = 0; i < 16; i++) (void)*(volatile char *)(p + i * PG);
	show("after reads", p, 16);
	munmap(p, 16 * PG); close(fd);

	printf("C6: mlock2(MLOCK_ONFAULT), read-fault page 11 only (the tail)\n");
	fd = fresh();
	p = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	syscall(SYS_mlock2, p, 16 * PG, 1);
	(void)*(volatile char *)(p + 11 * PG);
	show("after read of page 11", p, 16);
	munmap(p, 16 * PG); close(fd);

	printf("C7: MAP_LOCKED populate of pages 11..15 only (folio 10-11 straddles the start)\n");
	fd = fresh();
	p = mmap(NULL, 5 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED, fd, 11 * PG);
	show("after mmap (pages 11..15)", p, 5);
	munmap(p, 5 * PG); close(fd);

	printf("C8: control: one read fault on page 10 of an unlocked mapping (the folio is mapped whole, not mlocked)\n");
	fd = fresh();
	p = mmap(NULL, 16 * PG, PROT_READ, MAP_SHARED, fd, 0);
	(void)*(volatile char *)(p + 10 * PG);
	show("read fault, unlocked", p, 16);
	munmap(p, 16 * PG); close(fd);

	printf("C9: MAP_LOCKED mapping, then mmap MAP_FIXED|MAP_POPULATE over it under mlockall(MCL_FUTURE)\n"
	       "    (pinned to one CPU; the order-1 folio at page 10 moves the mlock batch at once both in\n"
	       "    the zap and in the populate, so the small pages' queued munlocks never cancel their\n"
	       "    mlocks here: see large_folio_batch.c for the discriminating test)\n");
	{
		cpu_set_t cs; CPU_ZERO(&cs); CPU_SET(0, &cs); sched_setaffinity(0, sizeof cs, &cs);
	}
	for (int rep = 0; rep < 3; rep++) {
		fd = fresh();
		p = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED, fd, 0);
		show("old mapping, MAP_LOCKED", p, 16);
		mlockall(MCL_FUTURE);
		char *q = mmap(p, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_POPULATE, fd, 0);
		show(q == p ? "after MAP_FIXED|MAP_POPULATE remap" : "remap failed", p, 16);
		munlockall();
		munmap(p, 16 * PG); close(fd);
	}
	unlink(path);
	return 0;
}
