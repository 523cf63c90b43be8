/* Which neighbour a new anonymous mapping joins.  A gap of one page is
 * left between two private anonymous mappings, the one above it written
 * (so it has an anon_vma), then the gap is mapped: 6.1's __mmap_region()
 * expands the upper neighbour first and lets the lower one join only with
 * the upper one's anon_vma; 4.x's vma_merge() and 6.18's
 * vma_merge_new_range() try the lower one first.  Done twice: below an
 * unwritten and below a written neighbour.  Each pair is mapped in a
 * reserved region (PROT_NONE, then MAP_FIXED) so nothing else lies there,
 * then locked so that the recorder writes what it holds. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int gap_between(char *base, long pg, int write_low)
{
	int prot = PROT_READ | PROT_WRITE;
	int fl = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED;
	if (mmap(base + pg, pg, prot, fl, -1, 0) == MAP_FAILED ||
	    mmap(base + 3 * pg, pg, prot, fl, -1, 0) == MAP_FAILED)
		return 1;
	if (write_low)
		memset(base + pg, 1, pg);
	memset(base + 3 * pg, 2, pg);
	if (mmap(base + 2 * pg, pg, prot, fl, -1, 0) == MAP_FAILED)
		return 1;
	base[2 * pg] = 3;
	/* the recorder writes the smaps of what mlock touches: where the
	 * boundary fell (mlock merges neither way here: 6.1 refuses an
	 * unfaulted prev for a faulted range, and two anon_vmas never merge) */
	return mlock(base + pg, 3 * pg) != 0;
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *r = mmap(NULL, 16 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return 1;
	/* the region's first and last pages stay PROT_NONE: no merge there */
	if (gap_between(r, pg, 0) || gap_between(r + 6 * pg, pg, 1))
		return 1;
	return 0;
}
