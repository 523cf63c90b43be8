/* What each call does at vm.max_map_count, as the "VMA count limit" v4
 * selftest (max_vma_count) asks, in our words, plus the mremap headroom of
 * "mm/mremap: correct invalid map count check":
 *
 * The process fills its address space to the limit with the splits
 * mprotect makes of one large mapping (split_vma() refuses at map_count >=
 * max, so the fill stops at max exactly), then at the limit:
 *   1. mmap of a page that can merge with nothing   (every release: made,
 *      max + 1; VMA count v3 patch 1: ENOMEM)
 *   2. mmap of a page that merges into its neighbour (made; v3: ENOMEM)
 *   3. brk growing the heap                          (made; v3: refused)
 *   4. mprotect of one page inside a VMA (a split)   (ENOMEM everywhere)
 *   5. munmap of one page inside a VMA               (ENOMEM everywhere)
 * then, with room made by unmapping,
 *   6. an mremap move at max - 3 and at max - 2       (6.12: ENOMEM; with the
 *      mremap patch, room for 2 suffices: moved)
 * Each step prints its result; the trace records them.  Runs as any user;
 * the limit is the machine's (/proc/sys/vm/max_map_count). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static long pg;

/* mm->map_count: the lines of /proc/self/maps but [vsyscall], which is
 * not a VMA of the mm (the gate area) */
static long map_count(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	long n = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += !strstr(line, "[vsyscall]");
	fclose(f);
	return n;
}

static long sysctl_max(void)
{
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	long v = -1;
	if (!f || fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

static void say(const char *what, long ok)
{
	printf("%-40s %s (%s)\n", what, ok ? "made" : "refused", ok ? "" : strerror(errno));
}

/* unmap one-page read-only VMAs of the fill (each between two read-write
 * ones: one VMA fewer each) until map_count is target */
static void down_to(char *big, long target, long *next_odd)
{
	for (long now = map_count(); now > target; now--) {
		munmap(big + *next_odd * pg, pg);
		*next_odd += 2;
	}
}

int main(void)
{
	pg = sysconf(_SC_PAGESIZE);
	long max = sysctl_max();
	if (max < 16 || max > (1L << 22))
		return 1;
	/* a reserved spot for the mappings made at the limit, far from the
	 * fill: PROT_NONE with holes at pages 4 (for a mapping that merges
	 * with nothing), 9 (beside a read-write page 8: a mapping that merges
	 * into it) and 12 (a target for MREMAP_FIXED) */
	char *spot = mmap(NULL, 16 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (spot == MAP_FAILED ||
	    mmap(spot + 8 * pg, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED ||
	    munmap(spot + 4 * pg, pg) || munmap(spot + 9 * pg, pg) || munmap(spot + 12 * pg, pg))
		return 2;
	/* the fill: one mapping, every other page made read-only, until the
	 * split is refused (split_vma(): map_count >= max): then map_count is
	 * max exactly */
	long pages = 2 * max + 64;
	char *big = mmap(NULL, pages * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (big == MAP_FAILED)
		return 2;
	long i;
	for (i = 1; i < pages - 16; i += 2)
		if (mprotect(big + i * pg, pg, PROT_READ))
			break;
	printf("filled: map_count %ld of %ld\n", map_count(), max);
	/* 1: a page that merges with nothing (PROT_NONE on both sides) */
	void *p = mmap(spot + 4 * pg, pg, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	say("1 mmap, no merge, at the limit", p != MAP_FAILED);
	if (p != MAP_FAILED)
		munmap(p, pg);
	/* 2: a page that merges into the read-write page below it */
	p = mmap(spot + 9 * pg, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	say("2 mmap merging into its neighbour", p != MAP_FAILED);
	if (p != MAP_FAILED)
		munmap(p, pg);
	/* 3: brk growing the heap */
	char *b = sbrk(0);
	say("3 brk growth", b != (char *)-1 && brk(b + pg) == 0);
	/* 4, 5: a split inside the fill's tail (pages i+1 .. end, one VMA) */
	char *end = big + pages * pg;
	say("4 mprotect split", mprotect(end - 8 * pg, pg, PROT_NONE) == 0);
	say("5 munmap in the middle", munmap(end - 6 * pg, pg) == 0);
	/* 6: mremap: a move made by growth (the next page is another VMA) at
	 * max - 3 and max - 2, and an MREMAP_FIXED move at max - 4 */
	long odd = 1;
	down_to(big, max - 3, &odd);
	void *m = mremap(big + (odd + 1) * pg, pg, 2 * pg, MREMAP_MAYMOVE);
	say("6a mremap growth move at max - 3", m != MAP_FAILED);
	down_to(big, max - 4, &odd);
	m = mremap(big + (odd + 3) * pg, pg, pg, MREMAP_MAYMOVE | MREMAP_FIXED, spot + 12 * pg);
	say("6b mremap MREMAP_FIXED at max - 4", m != MAP_FAILED);
	return 0;
}
