/* Round 8 hand test: unmapping a large page-cache folio whose PTEs
 * straddle a page-table (2 MiB) boundary in a VM_LOCKED VMA munlocks it
 * once per page table (one folio_remove_rmap_ptes() batch each).
 * Run as root on an ext4 /tmp.  Build: cc -O2 -o straddle_munlock straddle_munlock.c */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PG 4096UL
static int pm, kpf;
static uint64_t flags_of(void *va)
{
	uint64_t e, f;
	if (pread(pm, &e, 8, ((uintptr_t)va / PG) * 8) != 8 || !(e >> 63))
		return 0;
	if (pread(kpf, &f, 8, (e & ((1ULL << 55) - 1)) * 8) != 8)
		return 0;
	return f;
}
static void show(const char *tag, void *va)
{
	uint64_t f = flags_of(va);
	printf("%-44s mlocked=%d unevictable=%d head=%d tail=%d\n", tag, (int)(f >> 33 & 1),
	       (int)(f >> 18 & 1), (int)(f >> 15 & 1), (int)(f >> 16 & 1));
}
static void drain(void)
{
	/* let the per-CPU batches drain: lru_add_drain_all() via this sysctl-free trick */
	int fd = open("/proc/sys/vm/compact_memory", O_WRONLY);
	if (fd >= 0) { (void)!write(fd, "1", 1); close(fd); }
}
/* reserve 4 MiB, return a 2 MiB-aligned address inside it */
static char *aligned_area(void)
{
	char *r = mmap(NULL, 8UL << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return (char *)(((uintptr_t)r + (2UL << 20)) & ~((2UL << 20) - 1));
}
static int newfile(void)
{
	char buf[8192];
	unlink("/tmp/h8-straddle");
	int fd = open("/tmp/h8-straddle", O_RDWR | O_CREAT | O_TRUNC, 0600);
	(void)!ftruncate(fd, 65536);
	memset(buf, 'x', sizeof buf);
	(void)!pwrite(fd, buf, 8192, 16384); /* one order-1 folio, index 4-5 */
	return fd;
}
static void run(const char *name, int straddle, int move)
{
	int fd = newfile();
	char *base = aligned_area();
	/* A: locked, whole folio inside one page table -> mlock_count 1 */
	char *a = mmap(base + (1UL << 20), 8192, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 16384);
	mlock(a, 8192);
	char *bpos = straddle && !move ? base + (2UL << 20) - PG : base + (1UL << 20) + 65536;
	char *b = mmap(bpos, 8192, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 16384);
	mlock(b, 8192);
	drain();
	printf("%s\n", name);
	show("  after mlock(A), mlock(B): A", a);
	if (move) {
		b = mremap(b, 8192, 8192, MREMAP_MAYMOVE | MREMAP_FIXED, base + (2UL << 20) - PG);
		drain();
		show("  after mremap(B) across the 2 MiB line: A", a);
	}
	munmap(b, 8192);
	drain();
	show("  after munmap(B): A", a);
	munlock(a, 8192);
	drain();
	show("  after munlock(A): A", a);
	munmap(a, 8192);
	close(fd);
}
int main(void)
{
	pm = open("/proc/self/pagemap", O_RDONLY);
	kpf = open("/proc/kpageflags", O_RDONLY);
	run("S: B in one page table", 0, 0);
	run("X: B straddles a page-table boundary", 1, 0);
	run("M: B mlocked whole, then mremap-moved to straddle", 1, 1);
	unlink("/tmp/h8-straddle");
	return 0;
}
