/*
 * fileblocks.c - which pages of a disk file have a block on the device, so
 * that reading them from a page-cache miss is I/O; a page in a hole (or an
 * unwritten extent) reads as zeros without any.
 *
 * The difference shows in 4.x faults: filemap_fault() @ v4.0, v4.4 starts
 * the read (do_sync_mmap_readahead(), page_cache_read()) and then asks
 * lock_page_or_retry() for the page.  A hole's page was zeroed, marked
 * uptodate and unlocked inside the read itself (fs/mpage.c:
 * do_mpage_readpage() @ v4.0, fs/ext4/readpage.c:ext4_mpage_readpages()
 * @ v4.4: a page whose first block is a hole), so the lock is taken and
 * the fault maps that one page in the same run; a page with a block is
 * still locked for its bio, the fault returns VM_FAULT_RETRY, and the
 * retry's fault-around maps it with its cached neighbours.  (5.1+ retry
 * after any read: the model's filemap_retries_io.)
 *
 * What the model knows: a file that existed before the trace has a block
 * for every page below the size it was first seen with (blocks_below),
 * but those a hole punch freed (holes); the trace's own writes - write(),
 * pwrite(), a write fault through a shared mapping - give pages blocks
 * (written: delayed allocation gives them their blocks at writeback, and a
 * dirty page is never read from the device before); truncation frees the
 * blocks past the new end.  shmem and the other cache-less files have no
 * blocks and never read.
 */
#include "internal.h"

static void clear_range(struct radix *r, uint64_t first, uint64_t last)
{
	uint64_t idx = first;
	while (idx <= last && radix_next(r, &idx, last)) {
		radix_clear(r, idx);
		idx++;
	}
}

void file_blocks_init(struct file *f)
{
	radix_init(&f->written);
	radix_init(&f->holes);
}

void file_blocks_destroy(struct file *f)
{
	radix_destroy(&f->written);
	radix_destroy(&f->holes);
}

bool file_has_block(const struct file *f, uint64_t idx)
{
	if (f->shmem || f->no_cache || f->ramfs) /* ramfs: simple_read_folio() zeroes */
		return false;
	if (idx < f->blocks_below)
		return !radix_get(&((struct file *)f)->holes, idx);
	return radix_get(&((struct file *)f)->written, idx) != 0;
}

/* The file as the trace first learns its size: every page of it on disk. */
void file_blocks_existing(struct file *f, uint64_t size)
{
	f->blocks_below = (size + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

int file_blocks_written(struct file *f, uint64_t first, uint64_t last)
{
	if (f->shmem || f->no_cache || f->ramfs) /* ramfs: no blocks (ramfs_aops) */
		return 0;
	for (uint64_t idx = first; idx <= last; idx++) {
		if (idx < f->blocks_below) {
			radix_clear(&f->holes, idx);
		} else if (!radix_get(&f->written, idx) && radix_set(&f->written, idx, 1)) {
			return -1;
		}
	}
	return 0;
}

/* ext4_punch_hole() and the unwritten extents of FALLOC_FL_ZERO_RANGE:
 * the whole pages of [first, last] read as zeros again */
int file_blocks_freed(struct file *f, uint64_t first, uint64_t last)
{
	if (f->shmem || f->no_cache || first > last)
		return 0;
	clear_range(&f->written, first, last);
	if (last + 1 >= f->blocks_below && first < f->blocks_below) {
		/* the hole reaches the end of what existed: shorten it */
		clear_range(&f->holes, first, f->blocks_below - 1);
		f->blocks_below = first;
		return 0;
	}
	for (uint64_t idx = first; idx <= last && idx < f->blocks_below; idx++)
		if (radix_set(&f->holes, idx, 1))
			return -1;
	return 0;
}

/* truncation to size: the blocks past its last page go (the last page
 * keeps its block when size cuts into it) */
void file_blocks_truncate(struct file *f, uint64_t size)
{
	uint64_t keep = (size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	clear_range(&f->written, keep, RADIX_KEY_MAX);
	clear_range(&f->holes, keep, RADIX_KEY_MAX);
	if (f->blocks_below > keep)
		f->blocks_below = keep;
}
