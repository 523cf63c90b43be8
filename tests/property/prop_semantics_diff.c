/*
 * prop_semantics_diff.c - every row of docs/semantics.md, checked: run the
 * lockstep diff (sim/replay/diff.c) of two kernels over the row's trace in
 * traces/semantics/ and assert the difference the row states, and that
 * the kernels the row says agree do agree.
 *
 * A check names (trace, kernel A, kernel B, line, what) and the two values
 * it expects, or says "no difference of this kind at this line", or "the
 * kernels agree on the whole trace".
 */
#include <CUnit/Basic.h>

#include <stdio.h>
#include <string.h>

#include "replay.h"
#include "vmflags.h"

#define SEM_DIR VMSIM_SRCDIR "/traces/semantics/"
#define ANY INT64_MIN

enum check {
	C_DIFF,   /* an item (kind, what, pid) at line with values va / vb (ANY = any) */
	C_NONE,   /* no item of kind at line */
	C_AGREE,  /* the whole trace agrees */
	C_DIFFER, /* the kernels differ somewhere in the trace */
	C_TEXT,   /* item's a/b text contain the given strings */
};

struct row_check {
	const char *row;      /* the docs/semantics.md row */
	const char *trace;    /* file in traces/semantics/ */
	const char *ka, *kb;
	const char *arch;     /* NULL: the trace's */
	enum check check;
	unsigned long line;
	enum diff_kind kind;
	const char *what;     /* NULL: any */
	int pid;              /* -1: any */
	int64_t va, vb;
	const char *ta, *tb;  /* C_TEXT */
};

#define P(x) ((int64_t)(x))
/* page bits: 1 present, 2 mlocked, 4 unevictable, 8 lru */
#define PG_PLAIN 9
#define PG_LOCKED 15
#define PG_UNEVICTABLE_LRU 13 /* present, unevictable, on a list: not mlocked */
#define KB(n) ((int64_t)(n))
#define EINVAL_ (-22)
#define EBUSY_ (-16)
#define ENOMEM_ (-12)
#define EAGAIN_ (-11)
#define EPERM_ (-1)
#define ENOSYS_ (-38)
#define EFAULT_ (-14)

static const struct row_check checks[] = {
	/* mlockall flag combinations */
	{ "mlockall ONFAULT alone", "mlockall-onfault-alone.trace", "4.4", "6.1", NULL, C_DIFF, 9, DK_RESULT, "result", -1, 0, EINVAL_ },
	{ "mlockall ONFAULT alone", "mlockall-onfault-alone.trace", "4.4", "6.1", NULL, C_DIFF, 9, DK_VMLCK, "VmLck", -1, KB(0), KB(16) },
	{ "mlockall ONFAULT alone", "mlockall-onfault-alone.trace", "lof-v1", "4.0", NULL, C_DIFF, 9, DK_RESULT, "result", -1, 0, EINVAL_ },
	{ "mlockall ONFAULT alone", "mlockall-onfault-alone.trace", "lof-v1", "4.4", NULL, C_DIFF, 9, DK_VMLCK, "VmLck", -1, KB(16), KB(0) },
	{ "mlockall ONFAULT alone", "mlockall-onfault-alone.trace", "lof-v1", "4.4", NULL, C_DIFF, 9, DK_DEF_FLAGS, NULL, -1, P(VM_LOCKONFAULT), 0 },
	{ "mlockall ONFAULT alone", "mlockall-onfault-alone.trace", "4.0", "6.1", NULL, C_NONE, 9, DK_RESULT },
	{ "mlockall ONFAULT alone", "mlockall-onfault-alone.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "mlockall FUTURE|ONFAULT", "mlockall-future-onfault.trace", "lof-v1", "4.4", NULL, C_DIFF, 7, DK_RESULT, "result", -1, EINVAL_, 0 },
	{ "mlockall FUTURE|ONFAULT", "mlockall-future-onfault.trace", "lof-v1", "4.4", NULL, C_DIFF, 8, DK_VMLCK, "VmLck", -1, KB(0), KB(16) },
	{ "mlockall FUTURE|ONFAULT", "mlockall-future-onfault.trace", "4.0", "lof-v1", NULL, C_AGREE },
	{ "mlockall FUTURE|ONFAULT", "mlockall-future-onfault.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "mlockall CURRENT|ONFAULT", "mlockall-current-onfault-fork.trace", "lof-v1", "4.4", NULL, C_DIFF, 8, DK_VMFLAGS, "vma 0x7ffff7ffb000", 100, ANY, ANY },
	{ "mlockall CURRENT|ONFAULT", "mlockall-current-onfault-fork.trace", "lof-v1", "4.4", NULL, C_TEXT, 8, DK_VMFLAGS, "vma 0x7ffff7ffb000", 100, 0, 0, "\"rd wr mr mw me lo ac\"", "\"rd wr mr mw me lo ?? ac\"" },
	{ "mlockall CURRENT|ONFAULT", "mlockall-current-onfault-fork.trace", "lof-v1", "4.4", NULL, C_DIFF, 8, DK_DEF_FLAGS, NULL, 100, P(VM_LOCKONFAULT), 0 },
	{ "mlockall CURRENT|ONFAULT", "mlockall-current-onfault-fork.trace", "4.4", "6.1", NULL, C_AGREE },
	/* lock-on-fault v1: MAP_LOCKONFAULT */
	{ "MAP_LOCKONFAULT", "lof-map-lockonfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 7, DK_VMFLAGS, "vma 0x7ffff7ffb000", 100, ANY, ANY },
	{ "MAP_LOCKONFAULT", "lof-map-lockonfault.trace", "lof-v1", "4.0", NULL, C_NONE, 7, DK_VMLCK },
	{ "MAP_LOCKONFAULT", "lof-map-lockonfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 8, DK_PAGE, "page 0x7ffff7ffb000", 100, PG_LOCKED, PG_PLAIN },
	{ "munlock clears", "lof-map-lockonfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 9, DK_VMLCK, "VmLck", 100, KB(-16), KB(0) },
	{ "munlock clears", "lof-map-lockonfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 9, DK_VMFLAGS, "vma 0x7ffff7ffb000", 100, P(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | VM_ACCOUNT | VM_LOCKONFAULT), ANY },
	{ "fork clears", "lof-map-lockonfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 10, DK_VMFLAGS, "vma 0x7ffff7ffb000", 101, ANY, ANY },
	{ "fork clears", "lof-map-lockonfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 11, DK_PAGE, "page 0x7ffff7ffc000", 101, PG_LOCKED, PG_PLAIN },
	{ "fork clears", "mlockall-current-onfault-fork.trace", "lof-v1", "4.4", NULL, C_DIFF, 10, DK_VMFLAGS, "vma 0x7ffff7ff7000", 101, ANY, ANY },
	{ "mmap limit", "lof-map-lockonfault-limit.trace", "lof-v1", "4.0", NULL, C_DIFF, 7, DK_RESULT, "result", -1, EAGAIN_, ANY },
	{ "mmap limit", "lof-map-lockonfault-limit.trace", "lof-v1", "4.0", NULL, C_NONE, 8, DK_VMLCK },
	{ "mmap limit", "lof-map-lockonfault-limit.trace", "4.0", "4.4", NULL, C_AGREE },
	/* 6.1: the bit is MAP_SYNC - no limit check, VM_SYNC instead */
	{ "mmap limit", "lof-map-lockonfault-limit.trace", "4.4", "6.1", NULL, C_NONE, 7, DK_RESULT },
	/* mremap: vma_to_resize() tests VM_LOCKED only, on every kernel */
	{ "mremap grow", "lof-mremap-grow-onfault.trace", "lof-v1", "4.0", NULL, C_NONE, 8, DK_RESULT },
	{ "mremap grow", "lof-mremap-grow-onfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 8, DK_VMFLAGS, NULL, -1, ANY, ANY },
	{ "mremap grow", "lof-mremap-grow-onfault.trace", "lof-v1", "4.0", NULL, C_NONE, 10, DK_RESULT },
	{ "mmap EPERM", "lof-map-lockonfault-eperm.trace", "lof-v1", "4.0", NULL, C_DIFF, 7, DK_RESULT, "result", -1, EPERM_, ANY },
	{ "mmap EPERM", "lof-map-lockonfault-eperm.trace", "4.0", "4.4", NULL, C_AGREE },
	/* 0x80000 is MAP_SYNC on 4.15+: VM_SYNC (sf) on the private anonymous mapping */
	{ "mmap EPERM", "lof-map-lockonfault-eperm.trace", "4.0", "6.18", NULL, C_NONE, 7, DK_RESULT },
	{ "mmap EPERM", "lof-map-lockonfault-eperm.trace", "4.0", "6.18", NULL, C_TEXT, 7, DK_VMFLAGS, NULL, -1, 0, 0, "rd wr mr mw me ac", "rd wr mr mw me ac sf" },
	/* mlockall(MCL_ON_FAULT) in lof-v1 and the munlockall underflow */
	{ "munlockall underflow", "lof-mlockall-onfault-underflow.trace", "lof-v1", "4.0", NULL, C_DIFF, 7, DK_DEF_FLAGS, NULL, -1, P(VM_LOCKONFAULT), 0 },
	{ "munlockall underflow", "lof-mlockall-onfault-underflow.trace", "lof-v1", "4.0", NULL, C_DIFF, 9, DK_PAGE, "page 0x7ffff7ffb000", -1, PG_LOCKED, PG_PLAIN },
	{ "munlockall underflow", "lof-mlockall-onfault-underflow.trace", "lof-v1", "4.0", NULL, C_DIFF, 10, DK_VMLCK, "VmLck", -1, KB(-16), KB(0) },
	{ "munlockall underflow", "lof-mlockall-onfault-underflow.trace", "lof-v1", "4.0", NULL, C_DIFF, 11, DK_VMLCK, "VmLck", -1, KB(-32), KB(0) },
	{ "munlockall underflow", "lof-mlockall-onfault-underflow.trace", "4.0", "6.1", NULL, C_AGREE },
	/* charging */
	{ "relock charges", "lof-relock-munlock.trace", "lof-v1", "4.0", NULL, C_DIFF, 8, DK_VMLCK, "VmLck", -1, KB(32), KB(16) },
	{ "relock charges", "lof-relock-munlock.trace", "lof-v1", "4.0", NULL, C_DIFF, 9, DK_VMLCK, "VmLck", -1, KB(16), KB(0) },
	{ "relock charges", "lof-relock-munlock.trace", "lof-v1", "4.0", NULL, C_DIFF, 11, DK_VMLCK, "VmLck", -1, KB(16), KB(0) },
	/* munlockall discharges the never-charged LOCKONFAULT VMA: the excess
	 * of the relock and this deficit cancel; the bit stays */
	{ "munlock clears", "lof-relock-munlock.trace", "lof-v1", "4.0", NULL, C_NONE, 12, DK_VMLCK },
	{ "munlock clears", "lof-relock-munlock.trace", "lof-v1", "4.0", NULL, C_DIFF, 12, DK_VMFLAGS, "vma 0x7ffff7ff7000", -1, P(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | VM_ACCOUNT | VM_LOCKONFAULT), ANY },
	{ "relock charges", "lof-relock-munlock.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "relock charges", "mlock2-relock.trace", "4.4", "6.1", NULL, C_DIFF, 9, DK_VMLCK, "VmLck", -1, KB(32), KB(16) },
	{ "relock charges", "mlock2-relock.trace", "4.4", "6.1", NULL, C_DIFF, 10, DK_VMLCK, "VmLck", -1, KB(16), KB(0) },
	{ "mlock2 exists", "mlock2-relock.trace", "4.0", "4.4", NULL, C_DIFF, 8, DK_RESULT, "result", -1, ENOSYS_, 0 },
	{ "mlock2 exists", "mlock2-relock.trace", "4.0", "lof-v1", NULL, C_AGREE },
	{ "VmFlags", "mlock2-relock.trace", "4.4", "6.18", NULL, C_NONE, 8, DK_VMFLAGS },
	{ "mlock limit overlap", "mlock-limit-overlap.trace", "4.4", "6.1", NULL, C_DIFF, 9, DK_RESULT, "result", -1, ENOMEM_, 0 },
	{ "mlock limit overlap", "mlock-limit-overlap.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "mlock limit overlap", "mlock-limit-overlap.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "brk", "lof-brk-onfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 9, DK_RESULT, "result", -1, P(0x555555559000), P(0x555555565000) },
	{ "brk", "lof-brk-onfault.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "a stack's guard page", "stack-guard-page.trace", "4.4", "6.1", NULL, C_DIFF, 8, DK_PAGE, "page 0x7f0000010000", -1, 0, PG_LOCKED },
	{ "a stack's guard page", "stack-guard-page.trace", "4.4", "6.1", NULL, C_DIFF, 8, DK_VMSTAT, "nr_mlock", 0, 15, 16 },
	{ "a stack's guard page", "stack-guard-page.trace", "4.4", "6.1", NULL, C_DIFF, 11, DK_VMLCK, "VmLck", -1, KB(68), KB(64) },
	{ "a stack's guard page", "stack-guard-page.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "a stack's guard page", "stack-guard-page.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "stack growth", "lof-stack-growth.trace", "lof-v1", "4.0", NULL, C_NONE, 10, DK_RESULT },
	{ "stack growth", "lof-stack-growth.trace", "lof-v1", "4.0", NULL, C_NONE, 10, DK_VMLCK },
	{ "stack growth", "lof-stack-growth.trace", "lof-v1", "4.0", NULL, C_DIFF, 10, DK_PAGE, "page 0x7ffeffffd000", -1, PG_LOCKED, PG_PLAIN },
	{ "mremap DONTUNMAP", "mremap-dontunmap-locked.trace", "6.1", "6.18", NULL, C_DIFF, 8, DK_VMLCK, "VmLck", -1, KB(16), KB(32) },
	{ "mremap DONTUNMAP", "mremap-dontunmap-locked.trace", "4.4", "6.1", NULL, C_DIFF, 8, DK_RESULT, "result", -1, EINVAL_, ANY },
	{ "mremap DONTUNMAP", "mremap-dontunmap-locked.trace", "4.0", "4.4", NULL, C_AGREE },
	/* pages */
	{ "mprotect populate", "mprotect-locked-writable.trace", "4.0", "4.4", NULL, C_DIFF, 9, DK_PAGE, "page 0x7ffff7ffb000", -1, 1, PG_LOCKED },
	{ "mprotect populate", "mprotect-locked-writable.trace", "4.4", "6.1", NULL, C_NONE, 9, DK_PAGE },
	{ "mprotect write upgrade", "mprotect-write-fault.trace", "4.4", "6.1", NULL, C_DIFF, 9, DK_RESULT, "result", -1, 2, 0 },
	{ "mprotect write upgrade", "mprotect-write-fault.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "mprotect populate", "mprotect-locked-writable.trace", "4.0", "lof-v1", NULL, C_AGREE },
	{ "onfault populate", "onfault-populate-cow.trace", "4.4", "6.1", NULL, C_DIFF, 11, DK_PAGE, "page 0x7ffff7ffb000", 100, PG_PLAIN, PG_LOCKED },
	{ "onfault populate", "onfault-populate-cow.trace", "4.4", "6.1", NULL, C_NONE, 11, DK_VMLCK },
	{ "onfault populate", "onfault-populate-cow.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "file fault + reclaim", "file-fault-locked-reclaim.trace", "4.4", "6.1", NULL, C_DIFF, 11, DK_PAGE, "page 0x7ffff7ffb000", -1, PG_PLAIN, PG_LOCKED },
	{ "file fault + reclaim", "file-fault-locked-reclaim.trace", "4.4", "6.1", NULL, C_DIFF, 12, DK_VMSTAT, "unevictable_pgs_culled", 0, 4, 0 },
	{ "file fault + reclaim", "file-fault-locked-reclaim.trace", "4.4", "6.1", NULL, C_NONE, 12, DK_PAGE },
	{ "file fault + reclaim", "file-fault-locked-reclaim.trace", "6.1", "6.18", NULL, C_NONE, 11, DK_PAGE },
	{ "file fault + reclaim", "file-fault-locked-reclaim.trace", "6.1", "6.18", NULL, C_NONE, 12, DK_PAGE },
	{ "file fault + reclaim", "file-fault-locked-reclaim.trace", "6.1", "6.18", NULL, C_DIFF, 11, DK_VMSTAT, "pgfault", 0, 2, 1 },
	{ "major fault counting", "major-fault-retry-pgfault.trace", "4.4", "6.18", NULL, C_DIFF, 10, DK_VMSTAT, "pgfault", 0, 2, 1 },
	{ "retried faults, rusage", "rusage-retried-faults.trace", "6.1", "6.18", NULL, C_DIFF, 12, DK_RUSAGE, "majflt", 0, 1, 0 },
	{ "retried faults, rusage", "rusage-retried-faults.trace", "6.1", "6.18", NULL, C_DIFF, 12, DK_RUSAGE, "minflt", 0, 0, 1 },
	{ "retried faults, rusage", "rusage-retried-faults.trace", "6.1", "6.18", NULL, C_DIFF, 12, DK_VMSTAT, "pgfault", 0, 2, 1 },
	{ "retried faults, rusage", "rusage-retried-faults.trace", "6.1", "6.18", NULL, C_NONE, 11, DK_RUSAGE },
	{ "retried faults, rusage", "rusage-retried-faults.trace", "4.4", "6.1", NULL, C_DIFF, 12, DK_RUSAGE, "majflt", 0, 0, 1 },
	{ "retried faults, rusage", "rusage-retried-faults.trace", "4.4", "6.1", NULL, C_DIFF, 12, DK_VMSTAT, "pgfault", 0, 1, 2 },
	{ "retried faults, rusage", "rusage-retried-faults.trace", "4.4", "6.1", NULL, C_DIFF, 18, DK_RUSAGE, "majflt", 0, 1, 0 },
	{ "retried faults, rusage", "rusage-retried-faults.trace", "4.4", "6.1", NULL, C_NONE, 18, DK_VMSTAT },
	{ "retried faults, rusage", "rusage-retried-faults.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "retried faults, rusage", "rusage-retried-faults.trace", "lof-v1", "4.0", NULL, C_AGREE },
	{ "major fault counting", "major-fault-retry-pgfault.trace", "4.4", "6.18", NULL, C_NONE, 10, DK_PAGE },
	{ "major fault counting", "major-fault-retry-pgfault.trace", "6.1", "6.18", NULL, C_DIFF, 10, DK_VMSTAT, "pgfault", 0, 2, 1 },
	{ "major fault counting", "major-fault-retry-pgfault.trace", "6.1", "6.18", NULL, C_NONE, 10, DK_RESULT },
	{ "major fault counting", "major-fault-retry-pgfault.trace", "lof-v1", "4.0", NULL, C_AGREE },
	{ "major fault counting", "major-fault-retry-pgfault.trace", "4.0", "6.1", NULL, C_AGREE },
	/* madvise / msync */
	{ "madvise", "madvise-locked.trace", "4.4", "6.1", NULL, C_DIFF, 9, DK_RESULT, "result", -1, EINVAL_, 0 },
	{ "madvise", "madvise-locked.trace", "4.4", "6.1", NULL, C_NONE, 11, DK_RESULT },
	{ "madvise", "madvise-locked.trace", "4.4", "6.1", NULL, C_DIFF, 12, DK_RESULT, "result", -1, EINVAL_, 0 },
	{ "madvise", "madvise-locked.trace", "4.4", "6.1", NULL, C_NONE, 13, DK_RESULT },
	{ "madvise", "madvise-locked.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "madvise", "madvise-locked.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "lof madvise", "lof-madvise-dontneed.trace", "lof-v1", "4.0", NULL, C_NONE, 9, DK_RESULT },
	{ "lof madvise", "lof-madvise-dontneed.trace", "lof-v1", "4.0", NULL, C_DIFF, 9, DK_VMSTAT, "unevictable_pgs_cleared", 0, 1, 0 },
	/* swap-in: do_swap_page() @ v4.0 does not mlock the swap-cache page */
	{ "lof swap-in", "lof-swapin-onfault.trace", "lof-v1", "4.0", NULL, C_NONE, 13, DK_PAGE },
	{ "lof swap-in", "lof-swapin-onfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 13, DK_VMFLAGS, NULL, -1, ANY, ANY },
	/* munmap of a LOCKONFAULT-only VMA: clear_page_mlock() -> putback_lru_page() */
	{ "lof munmap rescued", "lof-munmap-rescued.trace", "lof-v1", "4.0", NULL, C_DIFF, 9, DK_VMSTAT, "unevictable_pgs_rescued", 0, 2, 0 },
	{ "lof munmap rescued", "lof-munmap-rescued.trace", "lof-v1", "4.0", NULL, C_DIFF, 9, DK_VMSTAT, "unevictable_pgs_cleared", 0, 2, 0 },
	{ "lof madvise", "lof-madvise-dontneed.trace", "lof-v1", "4.0", NULL, C_NONE, 10, DK_RESULT },
	/* VmFlags text and per-arch values */
	{ "VmFlags", "lof-relock-munlock.trace", "lof-v1", "4.0", NULL, C_TEXT, 7, DK_VMFLAGS, "vma 0x7ffff7ffb000", -1, 0, 0, "\"rd wr mr mw me ?? lo ac\"", "\"rd wr mr mw me lo ac\"" },
	{ "per-arch", "mips-map-lockonfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 6, DK_VMFLAGS, "vma 0x10000000", -1, ANY, ANY },
	{ "per-arch", "mips-map-lockonfault.trace", "lof-v1", "4.0", NULL, C_DIFF, 7, DK_PAGE, "page 0x10000000", -1, PG_LOCKED, PG_PLAIN },
	{ "per-arch", "mips-map-lockonfault.trace", "lof-v1", "4.0", "x86_64", C_AGREE },
	{ "per-arch", "mips-map-lockonfault.trace", "4.4", "6.1", NULL, C_AGREE },
	/* 6.1 vs 6.18, found by replaying traces recorded on 6.18 */
	{ "DONTUNMAP part of a locked VMA", "mremap-dontunmap-partial-locked.trace", "6.1", "6.18", NULL, C_DIFF, 8, DK_VMLCK, "VmLck", -1, KB(16), KB(24) },
	{ "DONTUNMAP part of a locked VMA", "mremap-dontunmap-partial-locked.trace", "6.1", "6.18", NULL, C_TEXT, 8, DK_VMAS, "vmas 0x7ffff7ffb000", -1, 0, 0, "[0x7ffff7ffb000, 0x7ffff7ffd000)", "[0x7ffff7ffb000, 0x7ffff7fff000)" },
	{ "DONTUNMAP part of a locked VMA", "mremap-dontunmap-partial-locked.trace", "6.18", "6.1", NULL, C_DIFF, 9, DK_VMLCK, "VmLck", -1, KB(16), KB(0) },
	{ "DONTUNMAP part of a locked VMA", "mremap-dontunmap-partial-locked.trace", "6.18", "6.1", NULL, C_DIFF, 9, DK_PAGE, "page 0x7ffff7ffd000", -1, PG_LOCKED, PG_PLAIN },
	{ "DONTUNMAP part of a locked VMA", "mremap-dontunmap-partial-locked.trace", "4.4", "6.1", NULL, C_DIFF, 8, DK_RESULT, "result", -1, EINVAL_, P(0x7ffff7ff9000) },
	{ "DONTUNMAP part of a locked VMA", "mremap-dontunmap-partial-locked.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "DONTUNMAP next to its unfaulted source", "mremap-dontunmap-self-merge.trace", "6.1", "6.18", NULL, C_TEXT, 9, DK_VMAS, "vmas 0x7ffff7ffd000", -1, 0, 0, "[0x7ffff7ffd000, 0x7ffff7ffe000)", "[0x7ffff7ffd000, 0x7ffff7fff000)" },
	{ "DONTUNMAP next to its unfaulted source", "mremap-dontunmap-self-merge.trace", "6.1", "6.18", NULL, C_DIFF, 9, DK_VMLCK, "VmLck", -1, KB(4), KB(8) },
	{ "DONTUNMAP next to its unfaulted source", "mremap-dontunmap-self-merge.trace", "6.18", "6.1", NULL, C_DIFF, 10, DK_VMSTAT, "nr_mlock", 0, 0, 1 },
	{ "DONTUNMAP next to its unfaulted source", "mremap-dontunmap-self-merge.trace", "4.0", "lof-v1", NULL, C_AGREE },
	{ "DONTUNMAP source unfaulted again", "mremap-dontunmap-pgoff.trace", "6.1", "6.18", NULL, C_TEXT, 12, DK_VMAS, "vmas 0x7ffff7fe0000", -1, 0, 0, "[0x7ffff7fe0000, 0x7ffff7fe1000) [0x7ffff7fe1000, 0x7ffff7fe2000)", "[0x7ffff7fe0000, 0x7ffff7fe2000)" },
	{ "DONTUNMAP source unfaulted again", "mremap-dontunmap-pgoff.trace", "6.1", "6.18", NULL, C_NONE, 11, DK_VMAS },
	{ "DONTUNMAP source unfaulted again", "mremap-dontunmap-pgoff.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "io_uring ring and VM_MAYEXEC", "io-uring-ring-mayexec.trace", "6.1", "6.18", NULL, C_TEXT, 8, DK_VMFLAGS, "vma 0x7ffff7ffe000", -1, 0, 0, "\"rd wr sh mr mw me ms de mm\"", "\"rd wr sh mr mw ms de mm\"" },
	{ "io_uring ring and VM_MAYEXEC", "io-uring-ring-mayexec.trace", "6.1", "6.18", NULL, C_DIFF, 9, DK_RESULT, "result", -1, ANY, EPERM_ },
	{ "readahead window trimmed at EOF", "readahead-mark-trimmed-at-eof.trace", "6.1", "6.18", NULL, C_DIFF, 9, DK_RESULT, "result", -1, 2, 1 },
	{ "readahead window trimmed at EOF", "readahead-mark-trimmed-at-eof.trace", "6.1", "4.4", NULL, C_DIFF, 9, DK_RESULT, "result", -1, 2, 1 },
	{ "readahead window trimmed at EOF", "readahead-mark-trimmed-at-eof.trace", "4.0", "lof-v1", NULL, C_AGREE },
	{ "mmap expands next first", "mmap-expand-next-first.trace", "6.1", "6.18", NULL, C_TEXT, 10, DK_VMAS, "vmas 0x7ffff7fd0000", -1, 0, 0, "[0x7ffff7fd0000, 0x7ffff7fd1000) [0x7ffff7fd1000, 0x7ffff7fd3000)", "[0x7ffff7fd0000, 0x7ffff7fd3000)" },
	{ "mmap expands next first", "mmap-expand-next-first.trace", "6.1", "6.18", NULL, C_TEXT, 15, DK_VMAS, "vmas 0x7ffff7fe0000", -1, 0, 0, "[0x7ffff7fe0000, 0x7ffff7fe1000) [0x7ffff7fe1000, 0x7ffff7fe3000)", "[0x7ffff7fe0000, 0x7ffff7fe2000) [0x7ffff7fe2000, 0x7ffff7fe3000)" },
	{ "mmap expands next first", "mmap-expand-next-first.trace", "4.4", "6.18", NULL, C_AGREE },
	{ "mmap expands next first", "mmap-expand-next-first.trace", "4.0", "lof-v1", NULL, C_AGREE },
	{ "fadvise on a ramfs file", "ramfs-fadvise-dontneed.trace", "4.4", "6.1", NULL, C_DIFF, 11, DK_RESULT, "result", -1, 2, 1 },
	{ "fadvise on a ramfs file", "ramfs-fadvise-dontneed.trace", "4.4", "6.1", NULL, C_DIFF, 11, DK_VMSTAT, "pgmajfault", -1, 1, 0 },
	{ "fadvise on a ramfs file", "ramfs-fadvise-dontneed.trace", "4.0", "6.18", NULL, C_DIFF, 11, DK_RESULT, "result", -1, 2, 1 },
	{ "fadvise on a ramfs file", "ramfs-fadvise-dontneed.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "fadvise on a ramfs file", "ramfs-fadvise-dontneed.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "mremap source check order", "mremap-fixed-efault-target.trace", "6.1", "6.18", NULL, C_NONE, 9, DK_RESULT },
	{ "mremap source check order", "mremap-fixed-efault-target.trace", "6.1", "6.18", NULL, C_TEXT, 9, DK_VMAS, "vmas 0x20000000", -1, 0, 0, "(none)", "[0x20000000, 0x20008000)" },
	{ "mremap source check order", "mremap-fixed-efault-target.trace", "6.18", "6.1", NULL, C_DIFF, 9, DK_VMLCK, "VmLck", -1, KB(32), KB(0) },
	{ "mremap source check order", "mremap-fixed-efault-target.trace", "6.18", "6.1", NULL, C_DIFF, 9, DK_VMSTAT, "nr_mlock", 0, 8, 0 },
	{ "mremap source check order", "mremap-fixed-efault-target.trace", "4.4", "6.1", NULL, C_NONE, 9, DK_VMAS },
	{ "mremap source check order", "mremap-fixed-efault-target.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "multi-VMA move", "mremap-fixed-multi-vma.trace", "6.1", "6.18", NULL, C_DIFF, 9, DK_RESULT, "result", -1, EFAULT_, P(0x20000000) },
	{ "multi-VMA move", "mremap-fixed-multi-vma.trace", "6.18", "6.1", NULL, C_TEXT, 9, DK_VMAS, "vmas 0x10000000", -1, 0, 0, "(none)", "[0x10000000, 0x10002000)" },
	{ "multi-VMA move", "mremap-fixed-multi-vma.trace", "6.18", "6.1", NULL, C_TEXT, 9, DK_VMAS, "vmas 0x20000000", -1, 0, 0, "[0x20000000, 0x20002000)", "(none)" },
	{ "multi-VMA move", "mremap-fixed-multi-vma.trace", "6.1", "6.18", NULL, C_NONE, 9, DK_VMLCK },
	{ "multi-VMA move", "mremap-fixed-multi-vma.trace", "6.1", "6.18", NULL, C_NONE, 10, DK_RESULT },
	{ "multi-VMA move", "mremap-fixed-multi-vma.trace", "6.18", "6.1", NULL, C_DIFF, 11, DK_RESULT, "result", -1, 0, ENOMEM_ },
	{ "multi-VMA move", "mremap-fixed-multi-vma.trace", "4.4", "6.1", NULL, C_NONE, 9, DK_RESULT },
	{ "multi-VMA move", "mremap-fixed-multi-vma.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "large page-cache folios", "pagecache-large-folio-mlock.trace", "6.1", "6.18", NULL, C_DIFF, 11, DK_PAGE, "page 0x7ffff7ffd000", -1, PG_LOCKED, PG_PLAIN },
	{ "large page-cache folios", "pagecache-large-folio-mlock.trace", "6.18", "6.1", NULL, C_DIFF, 11, DK_VMSTAT, "nr_mlock", 0, 0, 1 },
	{ "large page-cache folios", "pagecache-large-folio-mlock.trace", "6.1", "6.18", NULL, C_NONE, 14, DK_PAGE },
	{ "large page-cache folios", "pagecache-large-folio-mlock.trace", "6.18", "6.1", NULL, C_NONE, 14, DK_VMSTAT, "nr_mlock" },
	{ "large page-cache folios", "pagecache-large-folio-mlock.trace", "4.4", "6.1", NULL, C_NONE, 11, DK_PAGE },
	{ "exec readahead", "exec-readahead-forward.trace", "6.1", "6.18", NULL, C_DIFF, 11, DK_PAGE, "page 0x7ffff7ff0000", -1, PG_LOCKED, 0 },
	{ "exec readahead", "exec-readahead-forward.trace", "6.18", "6.1", NULL, C_DIFF, 11, DK_VMSTAT, "nr_mlock", 0, 8, 15 },
	{ "exec readahead", "exec-readahead-forward.trace", "6.1", "6.18", NULL, C_NONE, 11, DK_PAGE, "page 0x7ffff7ff7000" },
	/* 4.4 reads a hole without I/O: no retry, the faulted page alone */
	{ "exec readahead", "exec-readahead-forward.trace", "4.4", "6.1", NULL, C_DIFF, 11, DK_PAGE, "page 0x7ffff7ff0000", -1, 0, PG_LOCKED },
	{ "exec readahead", "exec-readahead-forward.trace", "4.4", "6.1", NULL, C_DIFF, 11, DK_PAGE, "page 0x7ffff7ff7000", -1, PG_PLAIN, PG_LOCKED },
	{ "exec readahead", "exec-readahead-forward.trace", "4.0", "lof-v1", NULL, C_AGREE },
	/* VMA merges and growth */
	{ "anon_vma merge", "anon-merge-faulted-into-unfaulted.trace", "6.1", "6.18", NULL, C_TEXT, 9, DK_VMAS, "vmas 0x7ffff7ffb000", -1, 0, 0, "[0x7ffff7ffb000, 0x7ffff7ffc000)", "[0x7ffff7ffb000, 0x7ffff7fff000)" },
	{ "anon_vma merge", "anon-merge-faulted-into-unfaulted.trace", "6.1", "6.18", NULL, C_NONE, 8, DK_VMAS },
	{ "anon_vma merge", "anon-merge-faulted-into-unfaulted.trace", "4.4", "6.1", NULL, C_NONE, 9, DK_VMAS },
	{ "anon_vma merge", "anon-merge-faulted-into-unfaulted.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "anon_vma merge", "anon-merge-faulted-into-unfaulted.trace", "4.0", "lof-v1", NULL, C_AGREE },
	{ "mremap grow merges", "mremap-grow-merges-next.trace", "4.4", "6.1", NULL, C_TEXT, 9, DK_VMAS, "vmas 0x7ffff7ffc000", -1, 0, 0, "[0x7ffff7ffc000, 0x7ffff7ffe000)", "[0x7ffff7ffc000, 0x7ffff7fff000)" },
	{ "mremap grow merges", "mremap-grow-merges-next.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "mremap grow merges", "mremap-grow-merges-next.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "mremap grow merges", "mremap-grow-merges-next.trace", "4.0", "lof-v1", NULL, C_AGREE },
	{ "mprotect read-only VM_ACCOUNT", "mprotect-readonly-keeps-account.trace", "6.1", "6.18", NULL, C_TEXT, 8, DK_VMFLAGS, "vma 0x7ffff7ffe000", -1, 0, 0, "\"rd mr mw me ac\"", "\"rd mr mw me\"" },
	{ "mprotect read-only VM_ACCOUNT", "mprotect-readonly-keeps-account.trace", "6.1", "6.18", NULL, C_NONE, 10, DK_VMFLAGS, "vma 0x7ffff7ffb000" },
	{ "mprotect read-only VM_ACCOUNT", "mprotect-readonly-keeps-account.trace", "4.4", "6.1", NULL, C_AGREE },
	{ "mprotect read-only VM_ACCOUNT", "mprotect-readonly-keeps-account.trace", "4.0", "4.4", NULL, C_AGREE },
	/* 4.0's try_to_munlock() skips the mm it holds for write */
	{ "munlock, other locked mapping", "munlock-other-locked-mapping-same-mm.trace", "4.0", "4.4", NULL, C_DIFF, 13, DK_PAGE, "page 0x7ffff7ffb000", -1, PG_PLAIN, PG_LOCKED },
	{ "munlock, other locked mapping", "munlock-other-locked-mapping-same-mm.trace", "4.0", "4.4", NULL, C_DIFF, 13, DK_VMSTAT, "nr_mlock", 0, 0, 2 },
	{ "munlock, other locked mapping", "munlock-other-locked-mapping-same-mm.trace", "4.0", "lof-v1", NULL, C_AGREE },
	{ "munlock, other locked mapping", "munlock-other-locked-mapping-same-mm.trace", "4.4", "6.1", NULL, C_NONE, 13, DK_PAGE },
	{ "munlock, other locked mapping", "munlock-other-locked-mapping-same-mm.trace", "6.1", "6.18", NULL, C_AGREE },
	/* 6.1 populates through the VMA walk */
	{ "populate over a hole", "populate-hole-then-readonly.trace", "6.1", "6.18", NULL, C_DIFF, 11, DK_RESULT, "result", -1, EINVAL_, ENOMEM_ },
	{ "populate over a hole", "populate-hole-then-readonly.trace", "6.1", "6.18", NULL, C_NONE, 11, DK_PAGE },
	{ "populate over a hole", "populate-hole-then-readonly.trace", "4.4", "6.1", NULL, C_NONE, 11, DK_RESULT },
	/* 4.x retries a file read fault only for I/O */
	{ "read fault on a hole", "file-read-fault-hole-no-retry.trace", "4.4", "6.1", NULL, C_DIFF, 10, DK_PAGE, "page 0x7ffff7ffc000", -1, 0, PG_PLAIN },
	{ "read fault on a hole", "file-read-fault-hole-no-retry.trace", "4.4", "6.1", NULL, C_DIFF, 10, DK_VMSTAT, "pgfault", 0, 1, 2 },
	{ "read fault on a hole", "file-read-fault-hole-no-retry.trace", "4.4", "6.1", NULL, C_NONE, 14, DK_VMSTAT, "pgfault" },
	{ "read fault on a hole", "file-read-fault-hole-no-retry.trace", "4.4", "6.1", NULL, C_NONE, 14, DK_PAGE, "page 0x7ffff7ff8000" },
	{ "read fault on a hole", "file-read-fault-hole-no-retry.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "read fault on a hole", "file-read-fault-hole-no-retry.trace", "4.0", "lof-v1", NULL, C_AGREE },
	{ "MAP_STACK", "map-stack-nohugepage.trace", "6.1", "6.18", NULL, C_DIFF, 7, DK_VMFLAGS, "vma 0x7ffff7ffb000", -1, P(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | VM_ACCOUNT), P(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | VM_ACCOUNT | VM_NOHUGEPAGE) },
	{ "MAP_STACK", "map-stack-nohugepage.trace", "6.1", "6.18", NULL, C_TEXT, 7, DK_VMFLAGS, "vma 0x7ffff7ffb000", -1, 0, 0, "\"rd wr mr mw me ac\"", "\"rd wr mr mw me ac nh\"" },
	{ "MAP_STACK", "map-stack-nohugepage.trace", "6.1", "6.18", NULL, C_TEXT, 8, DK_VMAS, "vmas 0x7ffff7ff7000", -1, 0, 0, "[0x7ffff7ff7000, 0x7ffff7fff000)", "[0x7ffff7ff7000, 0x7ffff7ffb000)" },
	{ "MAP_STACK", "map-stack-nohugepage.trace", "6.18", "6.1", NULL, C_TEXT, 9, DK_VMAS, "vmas 0x7ffff7ff7000", -1, 0, 0, "[0x7ffff7ff7000, 0x7ffff7ffb000)", "[0x7ffff7ff7000, 0x7ffff7fff000)" },
	{ "MAP_STACK", "map-stack-nohugepage.trace", "4.4", "6.1", NULL, C_NONE, 7, DK_VMFLAGS },
	{ "MAP_STACK", "map-stack-nohugepage.trace", "4.4", "6.1", NULL, C_NONE, 8, DK_VMAS },
	{ "MAP_STACK", "map-stack-nohugepage.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "zap drains", "zap-leaves-munlock-batched.trace", "6.1", "6.18", NULL, C_DIFF, 8, DK_PAGE, "page 0x7ffff7ffa000", -1, PG_LOCKED, PG_PLAIN },
	{ "zap drains", "zap-leaves-munlock-batched.trace", "6.18", "6.1", NULL, C_DIFF, 8, DK_VMSTAT, "nr_mlock", 0, 1, 7 },
	{ "zap drains", "zap-leaves-munlock-batched.trace", "6.1", "6.18", NULL, C_NONE, 8, DK_PAGE, "page 0x7ffff7ff9000" },
	{ "zap drains", "zap-leaves-munlock-batched.trace", "6.1", "6.18", NULL, C_NONE, 8, DK_VMFLAGS },
	{ "zap drains", "zap-leaves-munlock-batched.trace", "6.1", "6.18", NULL, C_NONE, 8, DK_VMLCK },
	{ "zap drains", "zap-leaves-munlock-batched.trace", "4.4", "6.1", NULL, C_AGREE },
	/* mmap_miss: what fault-around counts as a hit */
	{ "readahead's mmap_miss", "mmap-miss-hit-rules.trace", "4.4", "6.1", NULL, C_DIFF, 139, DK_VMSTAT, "pgmajfault", 0, 1, 0 },
	{ "readahead's mmap_miss", "mmap-miss-hit-rules.trace", "6.1", "6.18", NULL, C_NONE, 139, DK_VMSTAT, "pgmajfault" },
	{ "readahead's mmap_miss", "mmap-miss-hit-rules.trace", "4.0", "4.4", NULL, C_AGREE },
	/* reclaim: shrink_lruvec() stops at the target */
	{ "how much reclaim(N) frees", "reclaim-stops-at-target.trace", "4.4", "6.1", NULL, C_DIFF, 9, DK_RESULT, "result", -1, 32, 51 },
	{ "how much reclaim(N) frees", "reclaim-stops-at-target.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "how much reclaim(N) frees", "reclaim-stops-at-target.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "how many tries `reclaim(N)` makes (`memory.reclaim`)", "reclaim-proactive-batch.trace", "6.1", "6.18", NULL, C_DIFF, 9, DK_RESULT, "result", -1, 1011, 1026 },
	{ "how many tries `reclaim(N)` makes (`memory.reclaim`)", "reclaim-proactive-batch.trace", "4.4", "6.1", NULL, C_DIFF, 9, DK_RESULT, "result", -1, 1024, 1011 },
	{ "how many tries `reclaim(N)` makes (`memory.reclaim`)", "reclaim-proactive-batch.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "which young PTEs reclaim counts", "memcg-reclaim-recency.trace", "6.1", "6.18", NULL, C_DIFF, 17, DK_VMSTAT, "pgscan_file", 0, 128, 80 },
	{ "which young PTEs reclaim counts", "memcg-reclaim-recency.trace", "6.1", "6.18", NULL, C_DIFF, 17, DK_VMSTAT, "pgdeactivate", 0, 16, 0 },
	{ "what memcg reclaim counts", "memcg-reclaim-recency.trace", "4.4", "6.1", NULL, C_DIFF, 17, DK_VMSTAT, "pgrefill", 0, 16, 0 },
	{ "what memcg reclaim counts", "memcg-reclaim-recency.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "what memcg reclaim counts", "memcg-reclaim-recency.trace", "lof-v1", "4.0", NULL, C_AGREE },
	{ "a dirty file page in memcg reclaim", "memcg-reclaim-dirty.trace", "4.4", "6.1", NULL, C_DIFF, 13, DK_VMSTAT, "pgdeactivate", 0, 0, 373 },
	{ "a dirty file page in memcg reclaim", "memcg-reclaim-dirty.trace", "4.4", "6.1", NULL, C_DIFF, 13, DK_VMSTAT, "pgscan_file", 0, 1563, 501 },
	{ "a dirty file page in memcg reclaim", "memcg-reclaim-dirty.trace", "4.0", "4.4", NULL, C_AGREE },
	/* NUMA balancing (seed 003) */
	{ "which PTEs a pass makes PROT_NONE", "numa-hinting-write-bit.trace", "4.0", "6.1", NULL, C_DIFF, 12, DK_RESULT, "result", -1, 16, 0 },
	{ "which PTEs a pass makes PROT_NONE", "numa-hinting-write-bit.trace", "4.0", "6.1", NULL, C_DIFF, 12, DK_VMSTAT, "numa_pte_updates", 0, 16, 0 },
	{ "which PTEs a pass makes PROT_NONE", "numa-hinting-write-bit.trace", "4.0", "6.1", NULL, C_DIFF, 14, DK_VMSTAT, "numa_hint_faults_local", 0, 16, 0 },
	{ "which PTEs a pass makes PROT_NONE", "numa-hinting-write-bit.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "which PTEs a pass makes PROT_NONE", "numa-hinting-write-bit.trace", "lof-v1", "4.0", NULL, C_AGREE },
	{ "when a page moves", "numa-two-stage-filter.trace", "4.4", "6.1", NULL, C_DIFF, 14, DK_VMSTAT, "numa_pages_migrated", 0, 0, 16 },
	{ "when a page moves", "numa-two-stage-filter.trace", "4.4", "6.1", NULL, C_DIFF, 17, DK_VMSTAT, "numa_pages_migrated", 0, 16, 0 },
	{ "when a page moves", "numa-two-stage-filter.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "when a page moves", "numa-two-stage-filter.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "migration rate limit", "numa-migrate-ratelimit.trace", "4.4", "6.1", NULL, C_DIFF, 11, DK_VMSTAT, "numa_pages_migrated", 0, 32769, 40000 },
	{ "migration rate limit", "numa-migrate-ratelimit.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "the scan period at a placement", "numa-scan-period-ratio.trace", "4.4", "6.1", NULL, C_DIFF, 18, DK_RESULT, NULL, -1, 18, 7 },
	{ "the scan period at a placement", "numa-scan-period-ratio.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "the scan period at a placement", "numa-scan-period-ratio.trace", "6.1", "6.18", NULL, C_AGREE },
	{ "the scan period after a failed migration", "numa-scan-period-slowdown.trace", "4.4", "6.1", NULL, C_DIFF, 11, DK_VMSTAT, "numa_hint_faults_local", 0, 2048, 0 },
	{ "the scan period after a failed migration", "numa-scan-period-slowdown.trace", "4.4", "6.1", NULL, C_DIFF, 22, DK_RESULT, NULL, -1, 0, 3 },
	{ "the scan period after a failed migration", "numa-scan-period-slowdown.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "when a pass runs", "numa-scan-fork.trace", "4.4", "6.1", NULL, C_DIFF, 17, DK_RESULT, NULL, -1, 1, 0 },
	{ "when a pass runs", "numa-scan-fork.trace", "4.4", "6.1", NULL, C_DIFF, 18, DK_RESULT, NULL, -1, 0, 1 },
	{ "when a pass runs", "numa-scan-fork.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "the scan period across exec", "numa-scan-exec.trace", "4.4", "6.1", NULL, C_DIFF, 21, DK_RESULT, NULL, -1, 6, 3 },
	{ "the scan period across exec", "numa-scan-exec.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "the scan period across exec", "numa-scan-exec.trace", "6.1", "6.18", NULL, C_NONE, 21, DK_RESULT },
	{ "an mlocked page that migrates", "numa-migrate-mlocked.trace", "4.0", "4.4", NULL, C_DIFF, 12, DK_VMSTAT, "nr_mlock", 0, 0, 64 },
	{ "an mlocked page that migrates", "numa-migrate-mlocked.trace", "4.0", "4.4", NULL, C_DIFF, 12, DK_VMSTAT, "unevictable_pgs_rescued", 0, 64, 0 },
	{ "an mlocked page that migrates", "numa-migrate-mlocked.trace", "4.0", "4.4", NULL, C_DIFF, 12, DK_VMSTAT, "unevictable_pgs_mlocked", 0, 0, 64 },
	{ "an mlocked page that migrates", "numa-migrate-mlocked.trace", "4.0", "4.4", NULL, C_NONE, 12, DK_VMSTAT, "unevictable_pgs_stranded" },
	{ "an mlocked page that migrates", "numa-migrate-mlocked.trace", "4.4", "6.1", NULL, C_DIFF, 12, DK_VMSTAT, "unevictable_pgs_rescued", 0, 0, 64 },
	{ "an mlocked page that migrates", "numa-migrate-mlocked.trace", "4.4", "6.1", NULL, C_DIFF, 12, DK_VMSTAT, "unevictable_pgs_culled", 0, 0, 64 },
	{ "an mlocked page that migrates", "numa-migrate-mlocked.trace", "4.4", "6.1", NULL, C_DIFF, 12, DK_VMSTAT, "unevictable_pgs_cleared", 0, 64, 0 },
	{ "an mlocked page that migrates", "numa-migrate-mlocked.trace", "4.4", "6.1", NULL, C_NONE, 12, DK_VMSTAT, "nr_mlock" },
	/* kswapd */
	{ "kswapd (`balance_pgdat()`)", "kswapd-balance.trace", "4.4", "6.1", NULL, C_DIFF, 11, DK_VMSTAT, "pgscan_file", 0, 327763, 327759 },
	{ "kswapd (`balance_pgdat()`)", "kswapd-balance.trace", "4.4", "6.1", NULL, C_NONE, 11, DK_VMSTAT, "pageoutrun" },
	{ "kswapd (`balance_pgdat()`)", "kswapd-balance.trace", "4.0", "4.4", NULL, C_AGREE },
	/* the lru_add drain of a page of an unevictable mapping */
	{ "a page the per-CPU batch adds to an LRU list (SHM_LOCK'd segment)", "shm-lock-lru-add.trace", "4.4", "6.1", NULL, C_DIFF, 10, DK_PAGE, "page 0x7f0000000000", -1, PG_PLAIN, PG_UNEVICTABLE_LRU },
	{ "a page the per-CPU batch adds to an LRU list (SHM_LOCK'd segment)", "shm-lock-lru-add.trace", "4.4", "6.1", NULL, C_DIFF, 10, DK_VMSTAT, "unevictable_pgs_culled", 0, 0, 16 },
	{ "a page the per-CPU batch adds to an LRU list (SHM_LOCK'd segment)", "shm-lock-lru-add.trace", "4.4", "6.1", NULL, C_DIFF, 14, DK_VMSTAT, "unevictable_pgs_rescued", 0, 0, 16 },
	{ "a page the per-CPU batch adds to an LRU list (SHM_LOCK'd segment)", "shm-lock-lru-add.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "a page the per-CPU batch adds to an LRU list (SHM_LOCK'd segment)", "shm-lock-lru-add.trace", "6.1", "6.18", NULL, C_AGREE },
	/* mremap duplicating a private mapping */
	{ "mremap with old_size 0 of a private mapping (\"duplicate\")", "mremap-dup-private.trace", "4.4", "6.1", NULL, C_DIFF, 9, DK_RESULT, NULL, -1, ANY, EINVAL_ },
	{ "mremap with old_size 0 of a private mapping (\"duplicate\")", "mremap-dup-private.trace", "4.4", "6.1", NULL, C_TEXT, 9, DK_VMFLAGS, "vma 0x7f0000010000", -1, 0, 0, "\"rd wr mr mw me\"", "\"rd wr mr mw me ac\"" },
	{ "mremap with old_size 0 of a private mapping (\"duplicate\")", "mremap-dup-private.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "mremap with old_size 0 of a private mapping (\"duplicate\")", "mremap-dup-private.trace", "6.1", "6.18", NULL, C_AGREE },
	/* reclaim at a memcg's limit */
	{ "reclaim at a memcg's limit (`memcg_limit()`, `try_charge()`) and which pages it counts", "memcg-limit-batch.trace", "4.4", "6.1", NULL, C_DIFF, 12, DK_VMSTAT, "pgsteal_file", 0, 816, 836 },
	{ "reclaim at a memcg's limit (`memcg_limit()`, `try_charge()`) and which pages it counts", "memcg-limit-batch.trace", "6.1", "6.18", NULL, C_DIFF, 12, DK_VMSTAT, "pgsteal_file", 0, 836, 810 },
	{ "reclaim at a memcg's limit (`memcg_limit()`, `try_charge()`) and which pages it counts", "memcg-limit-batch.trace", "4.0", "4.4", NULL, C_AGREE },
	/* cgroup v2 memory.high / memory.max writes below the usage */
	{ "memory.high and memory.max written below the usage (cgroup v2: `memcg_high()`, `memcg_max()`)", "memcg-v2-writes.trace", "4.4", "6.1", NULL, C_DIFF, 12, DK_VMSTAT, "pgsteal_file", 0, 0, 543 },
	{ "memory.high and memory.max written below the usage (cgroup v2: `memcg_high()`, `memcg_max()`)", "memcg-v2-writes.trace", "4.4", "6.1", NULL, C_DIFF, 16, DK_RESULT, "result", -1, EBUSY_, 0 },
	{ "memory.high and memory.max written below the usage (cgroup v2: `memcg_high()`, `memcg_max()`)", "memcg-v2-writes.trace", "6.1", "6.18", NULL, C_DIFF, 12, DK_VMSTAT, "pgsteal_file", 0, 543, 726 },
	{ "memory.high and memory.max written below the usage (cgroup v2: `memcg_high()`, `memcg_max()`)", "memcg-v2-writes.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "memory.high and memory.max written below the usage (cgroup v2: `memcg_high()`, `memcg_max()`)", "memcg-v2-writes.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "a SysV shm VMA (`shm_vm_ops` has a `close()`) in a merge; shmctl's buffer", "shm-close-merge.trace", "6.1", "6.18", NULL, C_TEXT, 11, DK_VMAS, "vmas 0x7ffff7ffc000", -1, 0, 0, "[0x7ffff7ffc000, 0x7ffff7ffd000) [0x7ffff7ffd000, 0x7ffff7ffe000)", "[0x7ffff7ffc000, 0x7ffff7ffe000)" },
	{ "a SysV shm VMA (`shm_vm_ops` has a `close()`) in a merge; shmctl's buffer", "shm-close-merge.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "a SysV shm VMA (`shm_vm_ops` has a `close()`) in a merge; shmctl's buffer", "shm-close-merge.trace", "4.4", "6.1", NULL, C_AGREE },
	{ "a SysV shm VMA (`shm_vm_ops` has a `close()`) in a merge; shmctl's buffer", "shm-close-merge.trace", "6.12", "6.18", NULL, C_AGREE },
	/* refault detection */
	{ "refault distance (workingset shadows, `workingset_eviction()`)", "workingset-refault-distance.trace", "4.4", "6.1", NULL, C_DIFF, 13, DK_VMSTAT, "workingset_activate_file", 0, 1, 0 },
	{ "refault distance (workingset shadows, `workingset_eviction()`)", "workingset-refault-distance.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "refault distance (workingset shadows, `workingset_eviction()`)", "workingset-refault-distance.trace", "6.1", "6.18", NULL, C_NONE, 13, DK_VMSTAT, "workingset_activate_file" },
	{ "a page added to the cache to be written (`pwrite()` over an evicted page)", "workingset-refault-distance.trace", "6.1", "6.18", NULL, C_NONE, 16, DK_VMSTAT, "workingset_refault_file" },
	{ "a page added to the cache to be written (`pwrite()` over an evicted page)", "workingset-refault-distance.trace", "4.4", "6.1", NULL, C_DIFF, 16, DK_VMSTAT, "workingset_refault_file", 0, 1, 0 },
	{ "swapped-out anonymous pages and PG_workingset at a refault", "workingset-refault-anon.trace", "4.4", "6.1", NULL, C_DIFF, 20, DK_VMSTAT, "workingset_activate_file", 0, 1, 16 },
	{ "swapped-out anonymous pages and PG_workingset at a refault", "workingset-refault-anon.trace", "4.4", "6.1", NULL, C_DIFF, 20, DK_VMSTAT, "workingset_restore_file", 0, 0, 16 },
	{ "swapped-out anonymous pages and PG_workingset at a refault", "workingset-refault-anon.trace", "4.4", "6.1", NULL, C_DIFF, 24, DK_VMSTAT, "workingset_refault_anon", 0, 0, 32 },
	{ "swapped-out anonymous pages and PG_workingset at a refault", "workingset-refault-anon.trace", "4.0", "4.4", NULL, C_AGREE },
	{ "swapped-out anonymous pages and PG_workingset at a refault", "workingset-refault-anon.trace", "6.1", "6.18", NULL, C_NONE, 20, DK_VMSTAT, "workingset_restore_file" },
	{ "swapped-out anonymous pages and PG_workingset at a refault", "workingset-refault-anon.trace", "6.1", "6.18", NULL, C_NONE, 24, DK_VMSTAT, "workingset_refault_anon" },
	{ "what ages the workingset besides evictions", "workingset-refault-ages.trace", "4.4", "6.1", NULL, C_DIFF, 18, DK_VMSTAT, "workingset_activate_file", 0, 1, 0 },
	{ "what ages the workingset besides evictions", "workingset-refault-ages.trace", "6.1", "6.18", NULL, C_NONE, 18, DK_VMSTAT, "workingset_activate_file" },
	{ "what ages the workingset besides evictions", "workingset-refault-ages.trace", "6.1", "6.18", NULL, C_NONE, 31, DK_VMSTAT, "workingset_activate_file" },
	{ "an mlocked page that migrates", "numa-migrate-mlocked.trace", "4.0", "lof-v1", NULL, C_AGREE },
	/* vma_to_resize() @ v4.0 tests VM_LOCKED at an unchanged length */
	{ "mremap at the same size over the limit", "mremap-fixed-same-size-over-limit.trace", "4.0", "4.4", NULL, C_DIFF, 9, DK_RESULT, "result", -1, EAGAIN_, ANY },
	{ "mremap at the same size over the limit", "mremap-fixed-same-size-over-limit.trace", "lof-v1", "4.0", NULL, C_AGREE },
	{ "mremap at the same size over the limit", "mremap-fixed-same-size-over-limit.trace", "4.4", "6.1", NULL, C_NONE, 9, DK_RESULT },
	{ "mremap at the same size over the limit", "mremap-fixed-same-size-over-limit.trace", "6.1", "6.18", NULL, C_NONE, 9, DK_RESULT },
	/* patch semantics (docs/semantics.md, "Patches") */
	{ "vma-count-v3: a fourth VMA at max 3", "vma-count-at-the-limit.trace", "6.12", "vma-count-v3", NULL, C_DIFF, 12, DK_RESULT, "result", -1, 0x10001000, ENOMEM_ },
	{ "vma-count-v3: a merging mmap at the limit", "vma-count-at-the-limit.trace", "6.12", "vma-count-v3", NULL, C_DIFF, 14, DK_RESULT, "result", -1, 0x10003000, ENOMEM_ },
	{ "vma-count-v3: brk extending the heap at the limit", "vma-count-at-the-limit.trace", "6.12", "vma-count-v3", NULL, C_DIFF, 15, DK_RESULT, "result", -1, 0x55555555b000, 0x55555555a000 },
	{ "vma-count-v3: below the limit as 6.12", "vma-count-at-the-limit.trace", "6.12", "vma-count-v3", NULL, C_NONE, 11, DK_RESULT },
	{ "vma-count-v3: nothing else", "mremap-map-count-room.trace", "6.12", "vma-count-v3", NULL, C_AGREE },
	{ "mremap-count: MREMAP_FIXED with room for 4", "mremap-map-count-room.trace", "6.12", "mremap-count", NULL, C_DIFF, 10, DK_RESULT, "result", -1, ENOMEM_, 0x10020000 },
	{ "mremap-count: a move with room for 2", "mremap-map-count-room.trace", "6.12", "mremap-count", NULL, C_DIFF, 12, DK_RESULT, "result", -1, ENOMEM_, ANY },
	{ "mremap-count: nothing else", "vma-count-at-the-limit.trace", "6.12", "mremap-count", NULL, C_AGREE },
	{ "6.18-dontunmap-fix: no leak", "dontunmap-locked-leak-fix.trace", "6.18", "6.18-dontunmap-fix", NULL, C_DIFF, 8, DK_VMLCK, "VmLck", -1, KB(12), KB(8) },
	{ "6.18-dontunmap-fix: no leak", "dontunmap-locked-leak-fix.trace", "6.18", "6.18-dontunmap-fix", NULL, C_DIFF, 13, DK_VMLCK, "VmLck", -1, KB(24), KB(8) },
	{ "6.18-dontunmap-fix: what 6.12 does", "dontunmap-locked-leak-fix.trace", "6.12", "6.18-dontunmap-fix", NULL, C_AGREE },
	{ "6.18-dontunmap-fix: nothing else", "mremap-fixed-multi-vma.trace", "6.18", "6.18-dontunmap-fix", NULL, C_AGREE },
	/* 6.12 (docs/semantics.md, "6.12 between 6.1 and 6.18"): the kernel it
	 * agrees with on the row's trace, and the one it does not */
	{ "6.12: mremap DONTUNMAP of a locked VMA as 6.1", "mremap-dontunmap-locked.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: mremap DONTUNMAP of a locked VMA as 6.1", "mremap-dontunmap-locked.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: mremap DONTUNMAP of part of a locked VMA as 6.1", "mremap-dontunmap-partial-locked.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: mremap DONTUNMAP of part of a locked VMA as 6.1", "mremap-dontunmap-partial-locked.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: DONTUNMAP source pgoff as 6.1", "mremap-dontunmap-pgoff.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: DONTUNMAP source pgoff as 6.1", "mremap-dontunmap-pgoff.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: DONTUNMAP keeps the source apart as 6.1", "mremap-dontunmap-self-merge.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: DONTUNMAP keeps the source apart as 6.1", "mremap-dontunmap-self-merge.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: mremap MREMAP_FIXED checks after the unmap as 6.1", "mremap-fixed-efault-target.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: mremap MREMAP_FIXED checks after the unmap as 6.1", "mremap-fixed-efault-target.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: a move spans one VMA as 6.1", "mremap-fixed-multi-vma.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: a move spans one VMA as 6.1", "mremap-fixed-multi-vma.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: singular anon_vma_chain merge rule as 6.1", "anon-merge-faulted-into-unfaulted.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: singular anon_vma_chain merge rule as 6.1", "anon-merge-faulted-into-unfaulted.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: anon_inodefs not noexec as 6.1", "io-uring-ring-mayexec.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: anon_inodefs not noexec as 6.1", "io-uring-ring-mayexec.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: no large page-cache folios as 6.1", "pagecache-large-folio-mlock.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: no large page-cache folios as 6.1", "pagecache-large-folio-mlock.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: unmap drains the batches as 6.1", "zap-leaves-munlock-batched.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: unmap drains the batches as 6.1", "zap-leaves-munlock-batched.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: huge zero page write splits as 6.1", "thp-zero-write-6.12.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: huge zero page write splits as 6.1", "thp-zero-write-6.12.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: no guard regions as 6.1", "madvise-guard-6.12.trace", "6.12", "6.1", NULL, C_AGREE },
	{ "6.12: no guard regions as 6.1", "madvise-guard-6.12.trace", "6.12", "6.18", NULL, C_DIFFER },
	{ "6.12: PGFAULT once, 31-entry batches as 6.18", "file-fault-locked-reclaim.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: PGFAULT once, 31-entry batches as 6.18", "file-fault-locked-reclaim.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: no retry on a hole as 6.18", "file-read-fault-hole-no-retry.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: no retry on a hole as 6.18", "file-read-fault-hole-no-retry.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: kswapd as 6.18", "kswapd-balance.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: kswapd as 6.18", "kswapd-balance.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: swap-in of an onfault VMA as 6.18", "lof-swapin-onfault.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: swap-in of an onfault VMA as 6.18", "lof-swapin-onfault.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: PGFAULT once as 6.18", "major-fault-retry-pgfault.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: PGFAULT once as 6.18", "major-fault-retry-pgfault.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: MAP_STACK sets VM_NOHUGEPAGE as 6.18", "map-stack-nohugepage.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: MAP_STACK sets VM_NOHUGEPAGE as 6.18", "map-stack-nohugepage.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: memcg limit batches as 6.18", "memcg-limit-batch.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: memcg limit batches as 6.18", "memcg-limit-batch.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: memcg dirty reclaim as 6.18", "memcg-reclaim-dirty.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: memcg dirty reclaim as 6.18", "memcg-reclaim-dirty.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: memcg reclaim recency as 6.18", "memcg-reclaim-recency.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: memcg reclaim recency as 6.18", "memcg-reclaim-recency.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: vma_merge_new_range() prev first as 6.18", "mmap-expand-next-first.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: vma_merge_new_range() prev first as 6.18", "mmap-expand-next-first.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: mmap_miss hits skip PG_workingset as 6.18", "mmap-miss-hit-rules.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: mmap_miss hits skip PG_workingset as 6.18", "mmap-miss-hit-rules.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: read-around stops as 6.18", "mmap-miss-stops-read-around.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: read-around stops as 6.18", "mmap-miss-stops-read-around.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: mprotect gives VM_ACCOUNT back as 6.18", "mprotect-readonly-keeps-account.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: mprotect gives VM_ACCOUNT back as 6.18", "mprotect-readonly-keeps-account.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: madvise_populate() ENOMEM at a hole as 6.18", "populate-hole-then-readonly.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: madvise_populate() ENOMEM at a hole as 6.18", "populate-hole-then-readonly.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: readahead state per open file as 6.18", "readahead-state-per-open-file.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: readahead state per open file as 6.18", "readahead-state-per-open-file.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: memory.reclaim a quarter at a time as 6.18", "reclaim-proactive-batch.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: memory.reclaim a quarter at a time as 6.18", "reclaim-proactive-batch.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: rusage of retried faults as 6.18", "rusage-retried-faults.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: rusage of retried faults as 6.18", "rusage-retried-faults.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: shmem swap-out as 6.18", "shmem-swap-out.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: shmem swap-out as 6.18", "shmem-swap-out.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: refault aging as 6.18", "workingset-refault-ages.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: refault aging as 6.18", "workingset-refault-ages.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: anon refault as 6.18", "workingset-refault-anon.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: anon refault as 6.18", "workingset-refault-anon.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: refault distance as 6.18", "workingset-refault-distance.trace", "6.12", "6.18", NULL, C_AGREE },
	{ "6.12: refault distance as 6.18", "workingset-refault-distance.trace", "6.12", "6.1", NULL, C_DIFFER },
	{ "6.12: memfd_secret mmap not locked", "secretmem-mmap-lock-6.12.trace", "6.12", "6.18", NULL, C_DIFF, 9, DK_RESULT, "result", -1, ANY, EAGAIN_ },
	{ "6.12: ext4 zeroes the old EOF block when i_size grows", "ext4-grow-unaligned-eof-6.12.trace", "6.1", "6.12", NULL, C_DIFF, 11, DK_RESULT, "result", -1, 1, 2 },
	{ "6.12: ext4 zeroes the old EOF block when i_size grows", "ext4-grow-unaligned-eof-6.12.trace", "6.12", "6.18", NULL, C_AGREE },
	/* rows where 6.12 is neither 6.1 nor 6.18 */
	{ "6.12: exec read-around, PGFAULT once", "exec-readahead-forward.trace", "6.1", "6.12", NULL, C_DIFF, 11, DK_VMSTAT, "pgfault", 0, 2, 1 },
	{ "6.12: exec read-around, PGFAULT once", "exec-readahead-forward.trace", "6.1", "6.12", NULL, C_NONE, 11, DK_PAGE },
	{ "6.12: exec read-around, PGFAULT once", "exec-readahead-forward.trace", "6.12", "6.18", NULL, C_DIFF, 11, DK_PAGE, "page 0x7ffff7ff0000", -1, PG_LOCKED, 0 },
	{ "6.12: readahead mark trimmed at EOF", "readahead-mark-trimmed-at-eof.trace", "6.1", "6.12", NULL, C_DIFF, 9, DK_VMSTAT, "pgfault", 0, 4, 2 },
	{ "6.12: readahead mark trimmed at EOF", "readahead-mark-trimmed-at-eof.trace", "6.12", "6.18", NULL, C_DIFF, 9, DK_RESULT, "result", -1, 2, 1 },
	{ "6.12: io_uring_setup() flags", "io-uring-setup-flags-6.12.trace", "6.1", "6.12", NULL, C_DIFF, 7, DK_RESULT, "result", -1, EINVAL_, 0 },
	{ "6.12: io_uring_setup() flags", "io-uring-setup-flags-6.12.trace", "6.1", "6.12", NULL, C_NONE, 8, DK_RESULT },
	{ "6.12: io_uring_setup() flags", "io-uring-setup-flags-6.12.trace", "6.12", "6.18", NULL, C_DIFF, 8, DK_RESULT, "result", -1, EINVAL_, 1 },
	{ "6.12: no guard regions as 6.1", "madvise-guard-6.12.trace", "6.12", "6.18", NULL, C_DIFF, 8, DK_RESULT, "result", -1, EINVAL_, 0 },
	{ "6.12: MAP_DROPPABLE, lf, VM_ACCOUNT", "droppable-onfault-mnemonic-6.12.trace", "6.1", "6.12", NULL, C_DIFF, 7, DK_RESULT, "result", -1, EINVAL_, ANY },
	{ "6.12: MAP_DROPPABLE, lf, VM_ACCOUNT", "droppable-onfault-mnemonic-6.12.trace", "6.12", "6.18", NULL, C_AGREE },
};

static unsigned nfailed_rows;

/* the difference in effect after the row's line: listed there, or a
 * difference of state listed before it and not ended since (diff_at()) */
static const struct diff_item *find(const struct diff_result *r, const struct row_check *c)
{
	return diff_at(r, c->line, c->kind, c->what, c->pid);
}

static bool run_check(const struct row_check *c, char *why, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), SEM_DIR "%s", c->trace);
	struct diff_opts o = { c->ka, c->kb, c->arch, true };
	struct diff_result r;
	int rc = diff_trace(path, &o, &r);
	bool ok = true;
	if (rc == 2) {
		snprintf(why, len, "bad input: %.400s", r.err);
		ok = false;
	} else if (c->check == C_DIFFER) {
		if (rc != 1) {
			snprintf(why, len, "expected a difference; the kernels agree on the whole trace");
			ok = false;
		}
	} else if (c->check == C_AGREE) {
		if (rc != 0) {
			const struct diff_item *it = &r.items[0];
			snprintf(why, len, "expected agreement; line %lu %s: %s | %s", it->line, it->what,
				 it->a, it->b);
			ok = false;
		}
	} else {
		const struct diff_item *it = find(&r, c);
		if (c->check == C_NONE) {
			if (it) {
				snprintf(why, len, "expected no %s difference at line %lu; got %s | %s",
					 it->what, c->line, it->a, it->b);
				ok = false;
			}
		} else if (!it) {
			snprintf(why, len, "no difference '%s' at line %lu", c->what ? c->what : "?", c->line);
			ok = false;
		} else if (c->check == C_DIFF) {
			if ((c->va != ANY && it->va != c->va) || (c->vb != ANY && it->vb != c->vb)) {
				snprintf(why, len, "line %lu %s: got %s (%lld) | %s (%lld)", c->line, it->what,
					 it->a, (long long)it->va, it->b, (long long)it->vb);
				ok = false;
			}
		} else if (!strstr(it->a, c->ta) || !strstr(it->b, c->tb)) {
			snprintf(why, len, "line %lu %s: text %s | %s", c->line, it->what, it->a, it->b);
			ok = false;
		}
	}
	diff_result_free(&r);
	return ok;
}

static void test_rows(void)
{
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const struct row_check *c = &checks[i];
		char why[512] = "";
		bool ok = run_check(c, why, sizeof(why));
		CU_ASSERT(ok);
		if (!ok) {
			nfailed_rows++;
			fprintf(stderr, "row \"%s\": %s %s vs %s: %s\n", c->row, c->trace, c->ka, c->kb, why);
		}
	}
}

/* The command's exit codes: 0 agree, 1 differ, 2 bad input. */
static void test_exit_codes(void)
{
	struct diff_result r;
	struct diff_opts o = { "6.1", "6.18", NULL, false };
	CU_ASSERT(diff_trace(SEM_DIR "mlock-limit-overlap.trace", &o, &r) == 0);
	diff_result_free(&r);
	o = (struct diff_opts){ "4.4", "6.1", NULL, false };
	CU_ASSERT(diff_trace(SEM_DIR "mlock-limit-overlap.trace", &o, &r) == 1);
	CU_ASSERT(r.nevs == 1); /* first differing event only */
	diff_result_free(&r);
	o = (struct diff_opts){ "4.4", "no-such-kernel", NULL, false };
	CU_ASSERT(diff_trace(SEM_DIR "mlock-limit-overlap.trace", &o, &r) == 2);
	diff_result_free(&r);
	o = (struct diff_opts){ "4.4", "6.1", NULL, false };
	CU_ASSERT(diff_trace(SEM_DIR "no-such-file.trace", &o, &r) == 2);
	diff_result_free(&r);
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	CU_pSuite s = CU_add_suite("semantics table rows (vmsim diff)", NULL, NULL);
	CU_add_test(s, "every row's stated difference and agreement", test_rows);
	CU_add_test(s, "diff exit codes", test_exit_codes);
	CU_basic_set_mode(CU_BRM_SILENT);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures();
	unsigned run = CU_get_number_of_asserts();
	printf("prop_semantics_diff: %zu row checks, %u asserts, %u passed, %u failed\n",
	       sizeof(checks) / sizeof(checks[0]), run, run - failed, failed);
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
