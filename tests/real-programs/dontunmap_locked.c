/* MREMAP_DONTUNMAP of locked memory, the two shapes vmsim check found:
 *
 * 1. Part of a locked VMA.  Two written pages, the upper one mlocked, then
 *    both locked on fault (one VMA, VM_LOCKED|VM_LOCKONFAULT), then the
 *    lower page moved with MREMAP_DONTUNMAP, then mlockall(MCL_CURRENT).
 *    6.1.192 and 6.12 split the source first (move_vma()): only the moved
 *    page loses VM_LOCKED, the copy keeps it, locked_vm stays 2 pages and
 *    equals the locked VMAs.  6.18 unlocks the whole source VMA and
 *    charges the copy again.
 * 2. One locked page moved with DONTUNMAP again and again, its copy
 *    unmapped each time: 6.1 and 6.12 leave VmLck at one page; 6.18 adds
 *    a page each round (the source is unlocked but locked_vm is not
 *    given back), so VmLck grows without bound.
 *
 * The fifth argument is given: with MREMAP_DONTUNMAP the kernel reads it
 * (a hint that must be page aligned), whatever glibc passes otherwise.
 * Each region lies in a reservation (PROT_NONE, then MAP_FIXED) so that
 * no other mapping merges with it. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif

static int part_of_locked_vma(char *base, long pg)
{
	if (mmap(base + pg, 2 * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		return 1;
	memset(base + pg, 1, 2 * pg);
	if (mlock(base + 2 * pg, pg) || mlock2(base + pg, 2 * pg, MLOCK_ONFAULT))
		return 1;
	void *copy = mremap(base + pg, pg, pg, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	if (copy == MAP_FAILED)
		return 1;
	return mlockall(MCL_CURRENT) != 0;
}

static int moved_again_and_again(char *base, long pg, int rounds)
{
	if (mmap(base + pg, pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_LOCKED, -1, 0) == MAP_FAILED)
		return 1;
	for (int i = 0; i < rounds; i++) {
		base[pg] = (char)i;
		void *copy = mremap(base + pg, pg, pg, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
		if (copy == MAP_FAILED || munmap(copy, pg))
			return 1;
		/* lock it again, as a program that keeps its key locked would */
		if (mlock(base + pg, pg))
			return 1;
	}
	return 0;
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *r = mmap(NULL, 16 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return 1;
	if (part_of_locked_vma(r, pg))
		return 2;
	if (munlockall())
		return 3;
	if (moved_again_and_again(r + 6 * pg, pg, 8))
		return 4;
	return 0;
}
