/*
 * fuzz_bounds.h - what the fuzz targets that run the model leave out of
 * an input: the events whose range exceeds 64 MiB (a SysV segment's size,
 * hugetlb ones too, included), numa_run() past a minute and the walks of a
 * whole address space (their cost is bounded_cost.sh's subject, not a
 * fuzzer's).  Included by fuzz_replay.c and fuzz_diff.c.
 */
#ifndef VMSIM_FUZZ_BOUNDS_H
#define VMSIM_FUZZ_BOUNDS_H

#include <stdbool.h>

#include "trace.h"

static inline bool too_big(const struct event *ev)
{
	if (ev->type != EV_CALL)
		return false;
	switch (ev->sys) {
	case SYS_MMAP: case SYS_MUNMAP: case SYS_MPROTECT: case SYS_MADVISE: case SYS_MSYNC:
	case SYS_MLOCK: case SYS_MLOCK2: case SYS_MUNLOCK: case SYS_TOUCH:
		return ev->args[1] > (64u << 20);
	case SYS_MREMAP:
		return ev->args[1] > (64u << 20) || ev->args[2] > (64u << 20);
	case SYS_FTRUNCATE:
		return ev->args[1] > (64u << 20);
	case SYS_FALLOCATE: case SYS_FADVISE64:
		return ev->args[2] > (1ULL << 40) || ev->args[3] > (64u << 20);
	case SYS_READ: case SYS_WRITE: case SYS_PREAD64: case SYS_PWRITE64:
		return ev->args[2] > (64u << 20) || ev->args[3] > (1ULL << 40);
	case SYS_RECLAIM: case SYS_INHERIT_FILE:
		return ev->args[0] > (64u << 20);
	case SYS_EVICT:
		return ev->args[1] > 4096;
	case SYS_SHMGET: /* a segment's size (hugetlb ones too) */
		return ev->args[1] > (64u << 20);
	case SYS_NUMA_RUN: /* a minute of scan passes at most */
		return ev->args[0] > 60000;
	case SYS_MLOCKALL: case SYS_BRK: case SYS_INHERIT:
		return true; /* whole address space walks / unbounded ranges */
	default:
		return false;
	}
}

#endif
