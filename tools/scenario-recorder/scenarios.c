/* scenarios.c - the recorded scenarios (see traces/golden/PROGRAMS.md).
 * Each function only says what the process does; results and expectations
 * come from the real kernel through the S_* calls of recorder.c. */
#include <stddef.h>
#include "recorder.h"

#define PR 1
#define PW 2
#define RW (PR | PW)
#define MS 0x01
#define MP 0x02
#define MF 0x10
#define MA 0x20
#define MLOCKED 0x2000
#define MPOP 0x8000
#define MNB 0x10000
#define MFNR 0x100000
#define K 1024L
#define M (1024L * 1024L)
#define P 4096L
#define ONFAULT 1
#define MCL_CURRENT 1
#define MCL_FUTURE 2
#define MCL_ONFAULT 4
#define O_RDWR 2
#define O_CREAT 0100
#define O_TRUNC 01000
#define OCRT (O_RDWR | O_CREAT | O_TRUNC)
#define MADV_WILLNEED 3
#define MADV_DONTNEED 4
#define MADV_FREE 8
#define MADV_REMOVE 9
#define MADV_COLD 20
#define MADV_PAGEOUT 21
#define MADV_DONTNEED_LOCKED 24
#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED 2
#define MREMAP_DONTUNMAP 4
#define MADV_POPULATE_READ 22

#define anon(r, n) S_mmap(r, 0, (n) * P, RW, MP | MA, -1, 0)

static void sc_mlock_basic(struct R *r, const struct scen *s)
{
	long a = anon(r, 4);
	S_mlock(r, a, 4 * P);
	S_pages(r, a, 4 * P);
	S_munlock(r, a, 4 * P);
	S_pages(r, a, 4 * P);
	if (s->capture) {
		long b = anon(r, 4);
		S_mlock2(r, b, 4 * P, ONFAULT);
		S_touch(r, b + P, 2 * P, A_WRITE);
		S_mlock(r, a + P, P);
		S_capture(r);
	}
}

static void sc_mlock2_flags(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 8);
	S_mlock2(r, a, 2 * P, 0);
	S_mlock2(r, a + 2 * P, 2 * P, ONFAULT);
	S_mlock2(r, a + 4 * P, 2 * P, 2);
	S_mlock2(r, a + 4 * P, 2 * P, -1);
	S_mlock2(r, a + 4 * P, 2 * P, 3);
	S_pages(r, a, 8 * P);
	S_touch(r, a + 2 * P, P, A_READ);
	S_touch(r, a + 3 * P, P, A_WRITE);
	S_pages(r, a, 8 * P);
	/* mlock2(0) over the onfault part populates it and clears lf */
	S_mlock2(r, a, 6 * P, 0);
	S_pages(r, a, 8 * P);
}

static void sc_munlock_partial_hole(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 8);
	S_mlock(r, a, 8 * P);
	S_munlock(r, a + 2 * P, 2 * P);
	S_pages(r, a, 8 * P);
	S_munmap(r, a + 5 * P, P);
	/* across the hole: ENOMEM, the part before the hole is unlocked */
	S_munlock(r, a + 4 * P, 3 * P);
	S_pages(r, a, 8 * P);
	S_munlock(r, a, 8 * P);
	S_munlock(r, a + 6 * P, 2 * P);
	S_pages(r, a, 8 * P);
}

static void sc_mlock_split_merge(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 8);
	S_mlock(r, a + 2 * P, 2 * P);
	S_mlock(r, a + 6 * P, P);
	S_mlock(r, a + 4 * P, 2 * P);
	S_mlock(r, a, 8 * P);
	S_munlock(r, a + 7 * P, P);
	S_munlock(r, a, 7 * P);
	S_pages(r, a, 8 * P);
}

static void sc_mlockall_invalid(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 4);
	S_mlockall(r, 0);
	S_mlockall(r, MCL_ONFAULT);
	S_mlockall(r, 8);
	S_mlockall(r, MCL_CURRENT | 8);
	S_mlockall(r, MCL_FUTURE | MCL_ONFAULT | 0x10);
	S_mlockall(r, -1);
	anon(r, 4);
	S_pages(r, a - 4 * P, 8 * P);
}

static void sc_mlockall_current(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 4);
	S_mlockall(r, MCL_CURRENT);
	S_pages(r, a, 4 * P);
	long b = anon(r, 4);
	S_touch(r, b, P, A_WRITE);
	S_pages(r, b, 4 * P);
	S_munlockall(r);
	S_pages(r, a, 4 * P);
}

static void sc_mlockall_current_onfault(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 4);
	S_touch(r, a, P, A_WRITE);
	S_mlockall(r, MCL_CURRENT | MCL_ONFAULT);
	S_pages(r, a, 4 * P);
	S_touch(r, a + P, 2 * P, A_READ);
	S_pages(r, a, 4 * P);
	/* MCL_CURRENT without ONFAULT populates the rest and clears lf */
	S_mlockall(r, MCL_CURRENT);
	S_pages(r, a, 4 * P);
	S_munlockall(r);
}

static void sc_mlockall_future(struct R *r, const struct scen *s)
{
	(void)s;
	S_mlockall(r, MCL_FUTURE);
	long a = anon(r, 4);
	S_pages(r, a, 4 * P);
	long b = S_mmap(r, 0, 4 * P, PR, MP | MA, -1, 0);
	S_pages(r, b, 4 * P);
	/* MCL_FUTURE alone keeps the existing VMAs' locks: nothing changes */
	S_mlockall(r, MCL_FUTURE);
	S_munlockall(r);
	long c = anon(r, 2);
	S_pages(r, c, 2 * P);
	S_mlockall(r, MCL_CURRENT | MCL_FUTURE);
	long d = anon(r, 2);
	S_pages(r, d, 2 * P);
	/* MCL_CURRENT alone clears the future flag */
	S_mlockall(r, MCL_CURRENT);
	long e = anon(r, 2);
	S_pages(r, e, 2 * P);
	S_munlockall(r);
}

static void sc_mlockall_future_onfault(struct R *r, const struct scen *s)
{
	(void)s;
	S_mlockall(r, MCL_FUTURE | MCL_ONFAULT);
	long a = anon(r, 4);
	S_pages(r, a, 4 * P);
	S_touch(r, a, 2 * P, A_WRITE);
	S_pages(r, a, 4 * P);
	long b = S_mmap(r, 0, 2 * P, RW, MP | MA | MPOP, -1, 0);
	S_pages(r, b, 2 * P);
	S_mlockall(r, MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT);
	S_munlockall(r);
	S_pages(r, a, 4 * P);
}

static void sc_mmap_locked_populate(struct R *r, const struct scen *s)
{
	(void)s;
	long a = S_mmap(r, 0, 4 * P, RW, MP | MA | MLOCKED, -1, 0);
	S_pages(r, a, 4 * P);
	long b = S_mmap(r, 0, 4 * P, RW, MP | MA | MPOP, -1, 0);
	S_pages(r, b, 4 * P);
	long c = S_mmap(r, 0, 4 * P, RW, MP | MA | MPOP | MNB, -1, 0);
	S_pages(r, c, 4 * P);
	long d = S_mmap(r, 0, 4 * P, RW, MP | MA | MLOCKED | MNB, -1, 0);
	S_pages(r, d, 4 * P);
	long e = S_mmap(r, 0, 4 * P, RW, MS | MA | MLOCKED | MPOP, -1, 0);
	S_pages(r, e, 4 * P);
	long f = S_mmap(r, 0, 2 * P, PR, MP | MA | MLOCKED, -1, 0);
	S_pages(r, f, 2 * P);
}

static void sc_mmap_fixed_over_locked(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 8);
	S_mlock(r, a, 8 * P);
	S_mmap(r, a + 2 * P, 2 * P, RW, MP | MA | MF, -1, 0);
	S_pages(r, a, 8 * P);
	S_mmap(r, a + 4 * P, 2 * P, RW, MP | MA | MFNR, -1, 0);
	S_mmap(r, a + 2 * P, P, RW, MP | MA | MFNR, -1, 0);
	S_mmap(r, a + 6 * P, 2 * P, RW, MP | MA | MF | MLOCKED, -1, 0);
	S_pages(r, a, 8 * P);
	S_munmap(r, a, 8 * P);
	S_mmap(r, a + 2 * P, 2 * P, RW, MP | MA | MFNR | MLOCKED, -1, 0);
	S_pages(r, a + 2 * P, 2 * P);
}

static void sc_rlimit_mlock_nocap(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 32);
	S_mlock(r, a, 32 * P);
	S_mlock(r, a, 16 * P);
	S_mlock(r, a + 16 * P, P);
	S_mlock2(r, a + 16 * P, 4 * P, ONFAULT);
	S_mlock(r, a + 4 * P, 8 * P);
	S_munlock(r, a, 4 * P);
	S_mlock2(r, a + 16 * P, 4 * P, ONFAULT);
	S_mlock2(r, a + 20 * P, P, ONFAULT);
	S_pages(r, a + 14 * P, 8 * P);
}

static void sc_rlimit_map_locked_eagain(struct R *r, const struct scen *s)
{
	(void)s;
	S_mmap(r, 0, 32 * P, RW, MP | MA | MLOCKED, -1, 0);
	long a = S_mmap(r, 0, 16 * P, RW, MP | MA | MLOCKED, -1, 0);
	S_mmap(r, 0, P, RW, MP | MA | MLOCKED, -1, 0);
	S_mmap(r, 0, P, RW, MP | MA, -1, 0);
	S_munmap(r, a, 4 * P);
	S_mmap(r, 0, 4 * P, RW, MP | MA | MLOCKED | MPOP, -1, 0);
}

static void sc_rlimit_mremap_grow_eagain(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 12);
	S_munmap(r, a + 8 * P, 4 * P);
	S_mlock(r, a, 8 * P);
	S_mremap(r, a, 8 * P, 16 * P, 0, 0);
	S_mremap(r, a, 8 * P, 16 * P, MREMAP_MAYMOVE, 0);
	S_mremap(r, a, 8 * P, 12 * P, 0, 0);
	S_mremap(r, a, 8 * P, 4 * P, 0, 0);
	S_mremap(r, a, 4 * P, 16 * P, 0, 0);
	S_mremap(r, a, 4 * P, 12 * P, 0, 0);
	S_pages(r, a, 16 * P);
}

static void sc_rlimit_mlockall_enomem(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 4);
	/* total_vm (128K image + 16K) is above the 64K limit */
	S_mlockall(r, MCL_CURRENT);
	S_mlockall(r, MCL_CURRENT | MCL_ONFAULT);
	S_mlockall(r, MCL_CURRENT | MCL_FUTURE);
	S_mlockall(r, MCL_FUTURE);
	S_mmap(r, 0, 8 * P, RW, MP | MA, -1, 0);
	long b = anon(r, 16);
	(void)b;
	S_mmap(r, 0, P, RW, MP | MA, -1, 0);
	S_munlockall(r);
	long c = anon(r, 4);
	S_pages(r, a, 4 * P);
	S_pages(r, c, 4 * P);
}

static void sc_rlimit_zero_eperm(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 4);
	S_mlock(r, a, P);
	S_prlimit(r, 0, 64 * K);
	S_mlock(r, a + P, P);
	S_mlock2(r, a + P, P, ONFAULT);
	S_mlockall(r, MCL_CURRENT);
	S_mlockall(r, MCL_FUTURE);
	S_mmap(r, 0, P, RW, MP | MA | MLOCKED, -1, 0);
	S_munlock(r, a, P);
	S_munlockall(r);
	S_prlimit(r, 8 * K, 64 * K);
	S_mlock(r, a, 2 * P);
	S_mlock(r, a, 3 * P);
	S_prlimit(r, 4 * K, 64 * K);
	S_mlock(r, a, 2 * P);
	S_pages(r, a, 4 * P);
}

static void sc_rlimit_onfault_charges(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 16);
	S_mlock2(r, a, 16 * P, ONFAULT);
	long b = anon(r, 2);
	S_mlock(r, b, P);
	S_touch(r, a, P, A_WRITE);
	S_munlock(r, a + 8 * P, 8 * P);
	S_mlock(r, b, P);
	S_mlock(r, b + P, P);
	S_pages(r, a, 2 * P);
}

static void sc_protnone_mlock(struct R *r, const struct scen *s)
{
	(void)s;
	long a = S_mmap(r, 0, 4 * P, 0, MP | MA, -1, 0);
	S_mlock(r, a, 4 * P);
	S_pages(r, a, 4 * P);
	S_mprotect(r, a, 2 * P, RW);
	S_pages(r, a, 4 * P);
	S_mprotect(r, a + 2 * P, 2 * P, PR);
	S_pages(r, a, 4 * P);
	S_mprotect(r, a, 4 * P, 0);
	S_pages(r, a, 4 * P);
	S_munlock(r, a, 4 * P);
	S_pages(r, a, 4 * P);
}

static void sc_mprotect_locked(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 8);
	S_mlock(r, a, 8 * P);
	S_mprotect(r, a + 2 * P, 2 * P, PR);
	S_mprotect(r, a + 4 * P, 2 * P, 0);
	S_pages(r, a, 8 * P);
	S_mprotect(r, a, 8 * P, RW);
	S_pages(r, a, 8 * P);
	long b = anon(r, 4);
	S_mlock2(r, b, 4 * P, ONFAULT);
	S_mprotect(r, b, 4 * P, PR);
	S_touch(r, b, 2 * P, A_READ);
	S_mprotect(r, b, 4 * P, RW);
	S_pages(r, b, 4 * P);
}

static void sc_mremap_locked(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 8);
	S_munmap(r, a + 6 * P, 2 * P);
	S_mlock(r, a, 4 * P);
	S_mremap(r, a, 4 * P, 2 * P, 0, 0);
	S_mremap(r, a, 2 * P, 4 * P, 0, 0);
	S_pages(r, a, 4 * P);
	long b = S_mremap(r, a, 4 * P, 8 * P, MREMAP_MAYMOVE, 0);
	S_pages(r, b, 8 * P);
	long c = anon(r, 16);
	S_mremap(r, b, 8 * P, 8 * P, MREMAP_MAYMOVE | MREMAP_FIXED, c + 4 * P);
	S_pages(r, c + 4 * P, 8 * P);
	long d = anon(r, 4);
	S_mlock2(r, d, 4 * P, ONFAULT);
	S_touch(r, d, P, A_WRITE);
	long e = S_mremap(r, d, 4 * P, 8 * P, MREMAP_MAYMOVE, 0);
	S_pages(r, e, 8 * P);
}

static void sc_mremap_dontunmap_locked(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 4);
	S_mlock(r, a, 4 * P);
	long b = S_mremap(r, a, 4 * P, 4 * P, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, 0);
	S_pages(r, a, 4 * P);
	S_pages(r, b, 4 * P);
	S_touch(r, a, P, A_WRITE);
	S_pages(r, a, 4 * P);
	S_munlock(r, a, 4 * P);
	S_munlock(r, b, 4 * P);
	S_munmap(r, a, 4 * P);
	S_munmap(r, b, 4 * P);
}

static void sc_madvise_locked(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 8);
	S_mlock(r, a, 8 * P);
	S_madvise(r, a, 2 * P, MADV_DONTNEED);
	S_madvise(r, a, 2 * P, MADV_FREE);
	S_madvise(r, a, 2 * P, MADV_COLD);
	S_madvise(r, a, 2 * P, MADV_PAGEOUT);
	S_madvise(r, a, 2 * P, MADV_REMOVE);
	S_madvise(r, a, 2 * P, MADV_WILLNEED);
	S_pages(r, a, 8 * P);
	S_madvise(r, a + 2 * P, 2 * P, MADV_DONTNEED_LOCKED);
	S_pages(r, a, 8 * P);
	S_touch(r, a + 2 * P, P, A_WRITE);
	S_pages(r, a + 2 * P, 2 * P);
	long b = anon(r, 4);
	S_mlock2(r, b, 4 * P, ONFAULT);
	S_madvise(r, b, 4 * P, MADV_WILLNEED);
	S_pages(r, b, 4 * P);
	long c = anon(r, 4);
	S_touch(r, c, 4 * P, A_WRITE);
	S_madvise(r, c, 2 * P, MADV_DONTNEED);
	S_madvise(r, c + 2 * P, 2 * P, MADV_DONTNEED_LOCKED);
	S_pages(r, c, 4 * P);
}

static void sc_file_private(struct R *r, const struct scen *s)
{
	(void)s;
	const char *path = "/tmp/vmrec-file-private";
	long fd = S_openat(r, path, OCRT, 0600);
	S_ftruncate(r, fd, 8 * P);
	S_pwrite(r, fd, 2 * P, 0);
	long a = S_mmap(r, 0, 8 * P, RW, MP, fd, 0);
	S_mlock(r, a, 4 * P);
	S_pages(r, a, 8 * P);
	S_touch(r, a, P, A_WRITE);
	S_pages(r, a, 4 * P);
	S_mlock2(r, a + 4 * P, 4 * P, ONFAULT);
	S_touch(r, a + 4 * P, P, A_READ);
	S_touch(r, a + 5 * P, P, A_WRITE);
	S_pages(r, a + 4 * P, 4 * P);
	long b = S_mmap(r, 0, 4 * P, PR, MP, fd, 0);
	S_touch(r, b, 4 * P, A_READ);
	S_pages(r, b, 4 * P);
	S_munlock(r, a, 8 * P);
	S_pages(r, a, 8 * P);
	S_pages(r, b, 4 * P);
	S_close(r, fd);
	S_unlink(r, path);
}

/* MAP_SYNC (0x80000 on x86, the old MAP_LOCKONFAULT value) with every
 * mapping type: calc_vm_flag_bits() sets VM_SYNC (smaps "sf") before the
 * type is looked at, shmem takes it, ext4's ->mmap refuses it without DAX,
 * MAP_SHARED_VALIDATE refuses it where the file does not support it */
#define MSYNC_FLAG 0x80000
#define MSV 0x03
static void sc_map_sync(struct R *r, const struct scen *s)
{
	(void)s;
	long a = S_mmap(r, 0, 2 * P, RW, MP | MA | MSYNC_FLAG, -1, 0);
	S_touch(r, a, P, A_WRITE);
	long b = S_mmap(r, 0, 2 * P, RW, MS | MA | MSYNC_FLAG, -1, 0);
	S_touch(r, b, P, A_WRITE);
	const char *paths[] = { "/tmp/vmrec-map-sync-ext4", "/dev/shm/vmrec-map-sync-shm" };
	for (int i = 0; i < 2; i++) {
		long fd = S_openat(r, paths[i], OCRT, 0600);
		S_ftruncate(r, fd, 2 * P);
		S_mmap(r, 0, 2 * P, RW, MP | MSYNC_FLAG, fd, 0);
		S_mmap(r, 0, 2 * P, RW, MS | MSYNC_FLAG, fd, 0);
		S_mmap(r, 0, 2 * P, RW, MSV | MSYNC_FLAG, fd, 0);
		S_close(r, fd);
		S_unlink(r, paths[i]);
	}
	S_mlock(r, a, 2 * P);
	S_pages(r, a, 2 * P);
}

static void sc_file_shared(struct R *r, const struct scen *s)
{
	(void)s;
	const char *path = "/dev/shm/vmrec-file-shared";
	long fd = S_openat(r, path, OCRT, 0600);
	S_ftruncate(r, fd, 8 * P);
	S_pwrite(r, fd, P, 3 * P);
	long a = S_mmap(r, 0, 8 * P, RW, MS, fd, 0);
	S_mlock(r, a, 4 * P);
	S_pages(r, a, 8 * P);
	S_mlock2(r, a + 4 * P, 4 * P, ONFAULT);
	S_touch(r, a + 4 * P, 2 * P, A_READ);
	S_pages(r, a + 4 * P, 4 * P);
	long b = S_mmap(r, 0, 8 * P, PR, MS, fd, 0);
	S_touch(r, b, 8 * P, A_READ);
	S_pages(r, b, 8 * P);
	S_munmap(r, a, 8 * P);
	S_pages(r, b, 8 * P);
	long c = S_mmap(r, 0, 8 * P, RW, MS | MLOCKED, fd, 0);
	S_pages(r, c, 8 * P);
	S_close(r, fd);
	S_unlink(r, path);
	S_munlockall(r);
	S_pages(r, b, 8 * P);
}

static void sc_file_ext4_shared(struct R *r, const struct scen *s)
{
	(void)s;
	const char *path = "/tmp/vmrec-file-ext4-shared";
	long fd = S_openat(r, path, OCRT, 0600);
	S_ftruncate(r, fd, 8 * P);
	long a = S_mmap(r, 0, 8 * P, RW, MS, fd, 0);
	S_mlock2(r, a, 8 * P, ONFAULT);
	S_touch(r, a, 2 * P, A_READ);
	S_touch(r, a + 2 * P, 2 * P, A_WRITE);
	S_pages(r, a, 8 * P);
	S_mlock(r, a, 8 * P);
	S_pages(r, a, 8 * P);
	S_munlock(r, a + 4 * P, 4 * P);
	S_pages(r, a, 8 * P);
	S_close(r, fd);
	S_unlink(r, path);
}

static void sc_ext4_truncate_eof(struct R *r, const struct scen *s)
{
	(void)s;
	const char *path = "/tmp/vmrec-ext4-truncate-eof";
	long fd = S_openat(r, path, OCRT, 0600);
	S_ftruncate(r, fd, 10 * P);
	S_ftruncate(r, fd, P + 100); /* new EOF page: cached, not uptodate */
	long a = S_mmap(r, 0, 2 * P, PR, MP, fd, 0);
	S_touch(r, a, 2 * P, A_READ);  /* fault-around skips the EOF page */
	S_pages(r, a, 2 * P);
	S_munmap(r, a, 2 * P);
	S_pwrite(r, fd, 3 * P, 0);     /* grows it to 3 pages, all uptodate */
	S_ftruncate(r, fd, 2 * P + 100); /* EOF page cached: stays uptodate */
	long b = S_mmap(r, 0, 3 * P, PR, MP, fd, 0);
	S_touch(r, b, 3 * P, A_READ);
	S_pages(r, b, 3 * P);
	S_close(r, fd);
	S_unlink(r, path);
}

/* read the file through the mmap read-around: with ra_pages 32 (read_ahead_kb
 * 128) the window is pages 0-31 with page 24 marked PG_readahead, which
 * fault-around skips and whose fault starts async readahead; with 2048 the
 * whole file is read at once and nothing is marked */
static void sc_ext4_readahead_window(struct R *r, const struct scen *s)
{
	(void)s;
	const char *path = "/tmp/vmrec-ext4-ra-window";
	long fd = S_openat(r, path, OCRT, 0600);
	S_ftruncate(r, fd, 64 * P);
	long a = S_mmap(r, 0, 64 * P, PR, MS, fd, 0);
	S_touch(r, a, P, A_READ);
	S_pages(r, a, 32 * P);
	S_touch(r, a + 16 * P, 16 * P, A_READ);
	S_pages(r, a + 16 * P, 16 * P);
	S_touch(r, a + 32 * P, 32 * P, A_READ);
	S_pages(r, a + 32 * P, 32 * P);
	S_close(r, fd);
	S_unlink(r, path);
}

static void sc_fork_locks(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 4);
	S_mlock(r, a, 4 * P);
	long b = anon(r, 4);
	S_mlock2(r, b, 4 * P, ONFAULT);
	S_touch(r, b, 2 * P, A_WRITE);
	long c = S_mmap(r, 0, 4 * P, RW, MS | MA | MLOCKED, -1, 0);
	S_fork(r);
	S_pages(r, a, 4 * P);
	S_pages(r, b, 4 * P);
	S_pages(r, c, 4 * P);
	S_touch(r, a, 2 * P, A_WRITE);
	S_pages(r, a, 4 * P);
	S_mlock(r, b, 4 * P);
	S_pages(r, b, 4 * P);
	S_child_exit(r);
	S_pages(r, a, 4 * P);
	S_pages(r, b, 4 * P);
	S_pages(r, c, 4 * P);
}

static void sc_fork_mlockall_future(struct R *r, const struct scen *s)
{
	(void)s;
	S_mlockall(r, MCL_CURRENT | MCL_FUTURE);
	long a = anon(r, 2);
	S_fork(r);
	long b = anon(r, 2);
	S_pages(r, b, 2 * P);
	S_pages(r, a, 2 * P);
	S_mlockall(r, MCL_FUTURE | MCL_ONFAULT);
	long c = anon(r, 2);
	S_pages(r, c, 2 * P);
	S_child_exit(r);
	long d = anon(r, 2);
	S_pages(r, d, 2 * P);
	S_munlockall(r);
}

static void sc_reclaim_pageout(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 4);
	S_touch(r, a, 4 * P, A_WRITE);
	S_madvise(r, a, 4 * P, MADV_PAGEOUT);
	S_pages(r, a, 4 * P);
	S_madvise(r, a, 4 * P, MADV_COLD);
	S_pages(r, a, 4 * P);
	const char *path = "/tmp/vmrec-reclaim-pageout";
	long fd = S_openat(r, path, OCRT, 0600);
	S_ftruncate(r, fd, 8 * P);
	long f = S_mmap(r, 0, 8 * P, PR, MS, fd, 0);
	S_touch(r, f, 8 * P, A_READ);
	S_mlock(r, f + 4 * P, 4 * P);
	S_pages(r, f, 8 * P);
	/* clean ext4 page-cache pages are reclaimed; locked ones are not */
	S_madvise(r, f, 4 * P, MADV_PAGEOUT);
	S_pages(r, f, 8 * P);
	S_madvise(r, f + 4 * P, 4 * P, MADV_PAGEOUT);
	S_madvise(r, f, 8 * P, MADV_PAGEOUT);
	S_pages(r, f, 8 * P);
	S_touch(r, f, 2 * P, A_READ);
	S_madvise(r, f, 2 * P, MADV_COLD);
	S_pages(r, f, 4 * P);
	const char *spath = "/dev/shm/vmrec-reclaim-pageout";
	long sfd = S_openat(r, spath, OCRT, 0600);
	S_ftruncate(r, sfd, 4 * P);
	long g = S_mmap(r, 0, 4 * P, RW, MS, sfd, 0);
	S_touch(r, g, 4 * P, A_WRITE);
	S_madvise(r, g, 4 * P, MADV_PAGEOUT);
	S_pages(r, g, 4 * P);
	S_close(r, sfd);
	S_unlink(r, spath);
	S_close(r, fd);
	S_unlink(r, path);
}

/* Memory pressure in the child's own memcg (scenarios with .memcg):
 * memory.force_empty reclaims it with try_to_free_mem_cgroup_pages()
 * until MAX_RECLAIM_RETRIES tries free nothing.  No swap here, so only
 * the file lists are scanned; the files are cold and exist before the
 * trace, so every page of them in the memcg is the trace's.  Pages come
 * in by faults on MADV_RANDOM mappings, one synchronous read each:
 * read-around's asynchronous reads would leave pages locked under I/O
 * when reclaim meets them (scanned again and again, a count that depends
 * on the disk) and make what fault-around maps depend on the disk too. */
#define MADV_RANDOM 1

/* A cold file of NPAGES pages opened (*fd) and mapped shared with
 * MADV_RANDOM, every page faulted in by one synchronous read: the
 * mapping's address */
static long cached_by_random_faults(struct R *r, const char *path, long npages, long *fd)
{
	S_cold_file(r, path, npages);
	*fd = S_openat(r, path, 0, 0);
	long a = S_mmap(r, 0, npages * P, PR, MS, *fd, 0);
	S_madvise(r, a, npages * P, MADV_RANDOM);
	S_touch(r, a, npages * P, A_READ);
	return a;
}

static void sc_memcg_force_empty_locked(struct R *r, const struct scen *s)
{
	(void)s;
	long fd;
	long a = cached_by_random_faults(r, "/tmp/vmrec-memcg-locked", 1024, &fd);
	S_mlock(r, a, 64 * P);
	S_mlock2(r, a + 512 * P, 64 * P, ONFAULT);
	S_vmstat(r);
	/* the locked pages stay; every other page goes, each scanned once */
	S_memcg_force_empty(r);
	S_pages(r, a, 1024 * P);
	/* munlock rescues 64 pages to the evictable lists; they go next */
	S_munlock(r, a, 64 * P);
	S_vmstat(r);
	S_memcg_force_empty(r);
	S_pages(r, a, 128 * P);
	/* faulted in again, some through a second mapping too */
	long b = S_mmap(r, 0, 128 * P, PR, MS, fd, 0);
	S_madvise(r, b, 128 * P, MADV_RANDOM);
	S_touch(r, a + 256 * P, 128 * P, A_READ);
	S_touch(r, b, 128 * P, A_READ);
	S_touch(r, a, 64 * P, A_READ);
	S_memcg_force_empty(r);
	S_pages(r, a, 384 * P);
	S_munmap(r, b, 128 * P);
	S_munmap(r, a, 1024 * P);
	S_vmstat(r);
	S_close(r, fd);
}

static void sc_memcg_force_empty_referenced(struct R *r, const struct scen *s)
{
	(void)s;
	long fd;
	long a = cached_by_random_faults(r, "/tmp/vmrec-memcg-referenced", 1024, &fd);
	/* a plain private mapping of the cached file: minor faults, each
	 * mapping 16 pages young (fault-around) */
	long b = S_mmap(r, 0, 1024 * P, PR, MP, fd, 0);
	for (long i = 0; i < 512; i += 16)
		S_touch(r, b + i * P, P, A_READ);
	/* locked through b: young or not, they stay */
	S_mlock(r, b + 128 * P, 64 * P);
	S_vmstat(r);
	/* young pages of b get a second chance (PG_referenced) and go on
	 * the next look; the others go at once */
	S_memcg_force_empty(r);
	S_pages(r, b, 1024 * P);
	S_munlock(r, b + 128 * P, 32 * P);
	S_memcg_force_empty(r);
	S_pages(r, b + 128 * P, 64 * P);
	S_munmap(r, b, 1024 * P);
	S_munmap(r, a, 1024 * P);
	S_vmstat(r);
	S_close(r, fd);
}

/* Refault detection in the child's memcg (mm/workingset.c): force_empty
 * evicts every page of a cold file and leaves a shadow for each
 * (workingset_eviction()); a page read back is a refault, counted in the
 * memcg's memory.stat.  None comes back active: the memcg has no active
 * file page, and the last page evicted refaults at distance 1 (6.x ages
 * after stamping, 4.x before, where it would come back active).  A page
 * added to be written is not judged (filemap_add_folio(): __GFP_WRITE);
 * fadvise(DONTNEED) and truncation forget the shadows of their range. */
#define POSIX_FADV_DONTNEED 4

static void sc_memcg_refault(struct R *r, const struct scen *s)
{
	(void)s;
	long fd;
	const char *path = "/tmp/vmrec-memcg-refault";
	long a = cached_by_random_faults(r, path, 1024, &fd);
	S_memcg_stat_prime(r);
	S_memcg_force_empty(r);
	S_memcg_stat(r);
	/* the last 64 evicted, most recent first, then 16 of the first */
	for (long i = 1023; i >= 960; i--)
		S_touch(r, a + i * P, P, A_READ);
	S_touch(r, a, 16 * P, A_READ);
	S_pages(r, a, 16 * P);
	S_memcg_stat(r);
	/* invalidation forgets the shadows: no refault for these */
	S_fadvise(r, fd, 64 * P, 192 * P, POSIX_FADV_DONTNEED);
	S_touch(r, a + 64 * P, 32 * P, A_READ);
	/* pages added to be written are not judged */
	long w = S_openat(r, path, 2, 0);
	S_pwrite(r, w, 4 * P, 512 * P);
	/* truncation forgets the shadows beyond the new end; the pages
	 * there read back as holes */
	S_ftruncate(r, w, 768 * P);
	S_ftruncate(r, w, 1024 * P);
	S_touch(r, a + 800 * P, 16 * P, A_READ);
	S_touch(r, a + 600 * P, 16 * P, A_READ);
	S_pages(r, a, 16 * P);
	S_memcg_stat(r);
	S_munmap(r, a, 1024 * P);
	S_close(r, w);
	S_close(r, fd);
	S_unlink(r, path);
}

/* Dirty shmem under memcg reclaim, with swap (scenarios with .swap run
 * under with-swap.sh: a zram device).  Shmem is not file-LRU, so
 * force_empty writes it to swap (pageout() -> shmem_writeout()); clean
 * shmem is dropped.  A fault on a page out on swap is a major fault
 * (shmem_swapin_folio()); the page comes back dirty and goes to swap
 * again; truncation, a hole punched and the last unmap free the slots. */
#define FALLOC_FL_KEEP_SIZE 1
#define FALLOC_FL_PUNCH_HOLE 2

static void sc_memcg_shmem_swap(struct R *r, const struct scen *s)
{
	(void)s;
	/* the image locked: force_empty would swap it out, and the child's
	 * next command fault it back in behind the trace's back */
	S_mlock(r, 0x400000, 128 * K);
	long a = S_mmap(r, 0, 64 * P, RW, MS | MA, -1, 0);
	S_touch(r, a, 32 * P, A_WRITE);
	S_touch(r, a + 32 * P, 32 * P, A_READ);
	S_memcg_swap(r);
	S_memcg_force_empty(r);
	S_pages(r, a, 64 * P);
	S_memcg_swap(r);
	S_touch(r, a, 32 * P, A_READ);
	S_memcg_swap(r);
	S_touch(r, a + 32 * P, 32 * P, A_READ);
	S_memcg_force_empty(r);
	S_memcg_swap(r);
	/* a tmpfs file: written, fallocated, mapped */
	const char *path = "/dev/shm/vmrec-shmem-swap";
	long fd = S_openat(r, path, OCRT, 0600);
	for (long i = 0; i < 16; i += 4)
		S_pwrite(r, fd, 4 * P, i * P);
	S_fallocate(r, fd, 0, 16 * P, 16 * P);
	long b = S_mmap(r, 0, 32 * P, RW, MS, fd, 0);
	S_touch(r, b + 24 * P, 8 * P, A_READ);
	S_memcg_force_empty(r);
	S_pages(r, b, 32 * P);
	S_memcg_swap(r);
	S_touch(r, b, 8 * P, A_WRITE);
	S_memcg_swap(r);
	S_fallocate(r, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 8 * P, 8 * P);
	S_memcg_swap(r);
	S_ftruncate(r, fd, 24 * P);
	S_memcg_swap(r);
	S_munmap(r, b, 32 * P);
	S_close(r, fd);
	S_unlink(r, path);
	S_memcg_swap(r);
	S_munmap(r, a, 64 * P);
	S_memcg_swap(r);
}

/* Reclaim at the memcg's limit (mm/memcontrol.c:try_charge_memcg()): a
 * page charged past memory.limit_in_bytes first reclaims the memcg, a
 * SWAP_CLUSTER_MAX target each time (try_to_free_mem_cgroup_pages() of
 * one page).  The file's page tables exist before the limit is set and
 * no VMA is made under it, so the memcg's kernel memory stays as it was
 * (checked) and the limit binds the pages alone.  64 locked pages stay
 * through it all, and once munlocked are reclaimed like the rest. */
static void sc_memcg_limit(struct R *r, const struct scen *s)
{
	(void)s;
	long fd;
	const char *path = "/tmp/vmrec-memcg-limit";
	long a = cached_by_random_faults(r, path, 2048, &fd);
	S_mlock(r, a + 1024 * P, 64 * P);
	S_memcg_stat_prime(r);
	S_memcg_force_empty(r);
	S_memcg_limit(r, 512);
	S_touch(r, a, 2048 * P, A_READ);
	S_memcg_kmem_same(r);
	S_vmstat(r);
	S_pages(r, a + 1008 * P, 96 * P);
	S_memcg_stat(r);
	S_munlock(r, a + 1024 * P, 64 * P);
	S_touch(r, a, 1024 * P, A_READ);
	S_memcg_kmem_same(r);
	S_vmstat(r);
	S_pages(r, a + 1008 * P, 96 * P);
	S_memcg_stat(r);
	S_munmap(r, a, 2048 * P);
	S_close(r, fd);
}

/* cgroup v2's memory.max below the usage (mm/memcontrol.c:memory_max_write()
 * @ v6.1): the write itself reclaims the excess - not v1's page a time and
 * EBUSY - and then each page charged past it reclaims the memcg, one
 * memory.events max each time (try_charge_memcg()).  64 locked pages stay
 * through it all. */
static void sc_memcg_max_shrink(struct R *r, const struct scen *s)
{
	(void)s;
	long fd;
	long a = cached_by_random_faults(r, "/tmp/vmrec-memcg-max", 1024, &fd);
	S_mlock(r, a + 512 * P, 64 * P);
	S_memcg_stat_prime(r);
	S_memcg_events(r);
	S_memcg_v2_below(r, "memory.max", 256);
	S_pages(r, a + 496 * P, 96 * P);
	S_memcg_events(r);
	S_touch(r, a, 1024 * P, A_READ);
	S_memcg_kmem_same(r);
	S_vmstat(r);
	S_pages(r, a + 496 * P, 96 * P);
	S_memcg_events(r);
	S_memcg_v2_unset(r, "memory.max");
	S_munmap(r, a, 1024 * P);
	S_close(r, fd);
}

/* cgroup v2's memory.high below the usage (memory_high_write() @ v6.1):
 * the write reclaims the excess and never fails; asked for more than can
 * go (the locked pages, the child's image), it gives up after
 * MAX_RECLAIM_RETRIES fruitless calls.  With memory.high back at max the
 * file is read again without pressure. */
static void sc_memcg_high_shrink(struct R *r, const struct scen *s)
{
	(void)s;
	long fd;
	long a = cached_by_random_faults(r, "/tmp/vmrec-memcg-high", 1024, &fd);
	S_mlock(r, a, 64 * P);
	S_memcg_stat_prime(r);
	S_memcg_v2_below(r, "memory.high", 512);
	S_pages(r, a, 96 * P);
	S_memcg_v2_unset(r, "memory.high");
	S_touch(r, a, 1024 * P, A_READ);
	S_vmstat(r);
	S_memcg_v2_below(r, "memory.high", 1000);
	S_pages(r, a, 96 * P);
	S_memcg_events(r);
	S_memcg_v2_unset(r, "memory.high");
	S_munmap(r, a, 1024 * P);
	S_close(r, fd);
}

static void sc_onfault_touch(struct R *r, const struct scen *s)
{
	(void)s;
	long a = anon(r, 8);
	S_mlock2(r, a, 8 * P, ONFAULT);
	S_touch(r, a, P, A_READ);
	S_touch(r, a + P, P, A_WRITE);
	S_touch(r, a, 2 * P, A_WRITE);
	S_pages(r, a, 8 * P);
	S_munlock(r, a + 4 * P, 4 * P);
	S_touch(r, a + 4 * P, 2 * P, A_WRITE);
	S_pages(r, a, 8 * P);
	S_mlock(r, a, 8 * P);
	S_pages(r, a, 8 * P);
	S_mlock2(r, a, 8 * P, ONFAULT);
	S_munlock(r, a, 8 * P);
	S_pages(r, a, 8 * P);
}

/* randomised: seeded choices over a few regions; every choice is made from
 * the real /proc state, every result is the real one */
static void sc_random(struct R *r, const struct scen *s)
{
	char path[64];
	long fd = -1;
	const char *pfx = "/dev/shm/vmrec-random-";
	int pl = 0;
	while (pfx[pl]) { path[pl] = pfx[pl]; pl++; }
	path[pl++] = (char)('0' + s->seed % 10);
	path[pl] = 0;
	if (rnd(r, 2)) {
		fd = S_openat(r, path, OCRT, 0600);
		S_ftruncate(r, fd, 16 * P);
	}
	for (int step = 0; step < 24; step++) {
		long st[64], en[64];
		char pm[64][5];
		int n = rec_vmas(r, st, en, pm, 64);
		unsigned op = (unsigned)rnd(r, n ? 14 : 1);
		if (n == 0) op = 0;
		int v = n ? (int)rnd(r, (unsigned long)n) : 0;
		long pages = n ? (en[v] - st[v]) / P : 0;
		long off = pages ? (long)rnd(r, (unsigned long)pages) : 0;
		long len = pages ? 1 + (long)rnd(r, (unsigned long)(pages - off)) : 1;
		long addr = n ? st[v] + off * P : 0;
		switch (op) {
		case 0: case 1: {
			long np = 1 + (long)rnd(r, 8);
			long fl = rnd(r, 4) == 0 ? MLOCKED : 0;
			if (fd >= 0 && rnd(r, 3) == 0)
				S_mmap(r, 0, np * P, rnd(r, 2) ? RW : PR, MS | fl, fd, (long)rnd(r, 16 - np + 1) * P);
			else
				S_mmap(r, 0, np * P, rnd(r, 5) ? RW : PR, (rnd(r, 4) ? MP : MS) | MA | fl, -1, 0);
			break;
		}
		case 2: S_mlock(r, addr, len * P); break;
		case 3: S_mlock2(r, addr, len * P, rnd(r, 2) ? ONFAULT : 0); break;
		case 4: S_munlock(r, addr, len * P); break;
		case 5: case 6:
			if (pm[v][0] == 'r')
				S_touch(r, addr, len * P, pm[v][1] == 'w' && rnd(r, 2) ? A_WRITE : A_READ);
			break;
		case 7: S_mprotect(r, addr, len * P, rnd(r, 3) ? RW : PR); break;
		case 8: S_munmap(r, addr, len * P); break;
		case 9: {
			static const long adv[] = {MADV_DONTNEED, MADV_WILLNEED, MADV_COLD, MADV_PAGEOUT, MADV_DONTNEED_LOCKED, MADV_FREE};
			S_madvise(r, addr, len * P, adv[rnd(r, 6)]);
			break;
		}
		case 10:
			if (off == 0)
				S_mremap(r, addr, len * P, (len + (long)rnd(r, 4) - 1 > 0 ? len + (long)rnd(r, 4) - 1 : 1) * P,
					 rnd(r, 2) ? MREMAP_MAYMOVE : 0, 0);
			else
				S_mremap(r, addr, len * P, len * P, MREMAP_MAYMOVE, 0);
			break;
		case 11: {
			static const long f[] = {MCL_CURRENT, MCL_FUTURE, MCL_CURRENT | MCL_ONFAULT,
						 MCL_FUTURE | MCL_ONFAULT, MCL_CURRENT | MCL_FUTURE, MCL_ONFAULT};
			S_mlockall(r, f[rnd(r, 6)]);
			break;
		}
		case 12: S_munlockall(r); break;
		case 13: S_prlimit(r, (long)(16 + rnd(r, 64)) * K, s->cap ? 8 * M : s->rlimit); break;
		}
	}
	long st[64], en[64];
	char pm[64][5];
	int n = rec_vmas(r, st, en, pm, 64);
	for (int i = 0; i < n; i++)
		S_pages(r, st[i], en[i] - st[i] > 16 * P ? 16 * P : en[i] - st[i]);
	if (fd >= 0) {
		S_close(r, fd);
		S_unlink(r, path);
	}
}


/*
 * The per-CPU batch family (issue 34): a child mlocks a page of a shared
 * file and exits - its zap only queues the munlock (6.18) - and the parent
 * then faults the page into its own VM_LOCKED (lock-on-fault) VMA, which
 * queues an mlock behind it.  One drain applies both in order: the munlock
 * finds mlock_count 0 and clears PG_mlocked, the mlock then finds the
 * folio evictable and does nothing (mlocked=0).  A drain between the exit
 * and the fault (another CPU's, or a call of the parent that drains)
 * applies the munlock first: the fault then mlocks the page (mlocked=1).
 * `between` is the parent's call in between.
 */
static void batch_family(struct R *r, int between)
{
	const char *path = "/dev/shm/vmrec-batch-family";
	long fd = S_openat(r, path, OCRT, 0600);
	S_ftruncate(r, fd, 2 * P);
	S_pwrite(r, fd, P, 0);
	long a = S_mmap(r, 0, 2 * P, PR, MS, fd, 0);
	S_mlock2(r, a, 2 * P, ONFAULT);
	long u = anon(r, 2);
	S_touch(r, u, 2 * P, A_WRITE);
	long h = anon(r, 1);
	S_munmap(r, h, P); /* a hole */
	S_pages(r, a, 2 * P); /* the batches empty before the fork */
	S_fork(r);
	S_mlock(r, a, P);
	S_child_exit(r);
	switch (between) {
	case 1: S_mlock(r, h, P); break;                           /* ENOMEM: no drain */
	case 2: S_madvise(r, h, P, MADV_WILLNEED); break;          /* ENOMEM: no drain */
	case 3: S_munlock(r, u, P); break;                         /* no change: no drain */
	case 4: S_mlock(r, u, P); break;                           /* mlock_fixup drains */
	case 5: S_madvise(r, h, P, MADV_POPULATE_READ); break;     /* 6.18: drains on a hole */
	case 6: S_madvise(r, u, 2 * P, MADV_POPULATE_READ); break; /* drains */
	case 7: S_munmap(r, u, 2 * P); break;                      /* 6.18 no drain, 6.1 drains */
	case 8: S_madvise(r, u, 2 * P, MADV_WILLNEED); break;      /* anon swap-in: drains */
	}
	S_touch(r, a, P, A_READ);
	S_pages(r, a, 2 * P);
	S_close(r, fd);
	S_unlink(r, path);
}

#define FAMILY(n) \
	static void sc_batch_family_##n(struct R *r, const struct scen *s) { (void)s; batch_family(r, n); }
FAMILY(0) FAMILY(1) FAMILY(2) FAMILY(3) FAMILY(4) FAMILY(5) FAMILY(6) FAMILY(7) FAMILY(8)

#define NOCAP false
#define CAP true
const struct scen rec_scenarios[] = {
	{"mlock-basic", "mlock populates and locks an anonymous mapping; munlock clears both", 8 * M, CAP, false, 0, sc_mlock_basic, false, 0},
	{"views-mlock-onfault", "mlock, munlock, lock-on-fault with a partial touch, and a split; the /proc views of the end state are in traces/views", 8 * M, CAP, false, 0, sc_mlock_basic, true, 0},
	{"mlock2-flags", "mlock2 with 0 (populate), MLOCK_ONFAULT (no populate), invalid flags 2, -1, 3 (EINVAL, no change); read and write faults in an onfault range; mlock2(0) over it", 8 * M, CAP, false, 0, sc_mlock2_flags, false, 0},
	{"munlock-partial-hole", "munlock of a middle part splits the VMA; munlock across a hole fails with ENOMEM after unlocking the part before the hole", 8 * M, CAP, false, 0, sc_munlock_partial_hole, false, 0},
	{"mlock-split-merge", "mlock of pieces splits the VMA, locking the gaps merges it back; munlock pieces", 8 * M, CAP, false, 0, sc_mlock_split_merge, false, 0},
	{"mlockall-invalid", "invalid mlockall flags fail with EINVAL and change nothing: 0, MCL_ONFAULT alone, unknown bits, -1", 8 * M, CAP, false, 0, sc_mlockall_invalid, false, 0},
	{"mlockall-current", "mlockall(MCL_CURRENT) locks and populates every VMA (the image too); a later mmap is not locked; munlockall", 8 * M, CAP, false, 0, sc_mlockall_current, false, 0},
	{"mlockall-current-onfault", "mlockall(MCL_CURRENT|MCL_ONFAULT) marks every VMA lo lf without populating; faults lock pages; mlockall(MCL_CURRENT) then populates", 8 * M, CAP, false, 0, sc_mlockall_current_onfault, false, 0},
	{"mlockall-future", "mlockall(MCL_FUTURE) locks and populates later mmaps (also read-only ones) without touching current VMAs; munlockall clears it; MCL_CURRENT|MCL_FUTURE; MCL_CURRENT alone clears MCL_FUTURE", 8 * M, CAP, false, 0, sc_mlockall_future, false, 0},
	{"mlockall-future-onfault", "mlockall(MCL_FUTURE|MCL_ONFAULT): later mmaps get lo lf and are not populated (MAP_POPULATE still populates); munlockall", 8 * M, CAP, false, 0, sc_mlockall_future_onfault, false, 0},
	{"mmap-locked-populate", "mmap with MAP_LOCKED, MAP_POPULATE, MAP_POPULATE|MAP_NONBLOCK, MAP_LOCKED|MAP_NONBLOCK, shared MAP_LOCKED|MAP_POPULATE, read-only MAP_LOCKED", 8 * M, CAP, false, 0, sc_mmap_locked_populate, false, 0},
	{"mmap-fixed-over-locked", "MAP_FIXED over part of a locked VMA replaces it unlocked; MAP_FIXED_NOREPLACE over a mapping fails with EEXIST; MAP_FIXED|MAP_LOCKED; MAP_FIXED_NOREPLACE|MAP_LOCKED into a hole", 8 * M, CAP, false, 0, sc_mmap_fixed_over_locked, false, 0},
	{"rlimit-mlock-nocap", "without CAP_IPC_LOCK, mlock and mlock2(MLOCK_ONFAULT) beyond RLIMIT_MEMLOCK (64K) fail with ENOMEM; relocking locked pages is not counted twice", 64 * K, NOCAP, false, 0, sc_rlimit_mlock_nocap, false, 0},
	{"rlimit-map-locked-eagain", "without CAP_IPC_LOCK, mmap(MAP_LOCKED) beyond RLIMIT_MEMLOCK (64K) fails with EAGAIN", 64 * K, NOCAP, false, 0, sc_rlimit_map_locked_eagain, false, 0},
	{"rlimit-mremap-grow-eagain", "without CAP_IPC_LOCK, growing a locked VMA with mremap beyond RLIMIT_MEMLOCK (48K) fails with EAGAIN, in place or moving; shrinking frees locked_vm", 48 * K, NOCAP, false, 0, sc_rlimit_mremap_grow_eagain, false, 0},
	{"rlimit-mlockall-enomem", "without CAP_IPC_LOCK, mlockall(MCL_CURRENT) with total_vm above RLIMIT_MEMLOCK (64K) fails with ENOMEM; mlockall(MCL_FUTURE) succeeds, then mmaps beyond the limit fail with EAGAIN", 64 * K, NOCAP, false, 0, sc_rlimit_mlockall_enomem, false, 0},
	{"rlimit-zero-eperm", "without CAP_IPC_LOCK, RLIMIT_MEMLOCK 0 (set with prlimit64) makes mlock, mlock2, mlockall and MAP_LOCKED fail with EPERM; munlock still works; small limits give ENOMEM", 64 * K, NOCAP, false, 0, sc_rlimit_zero_eperm, false, 0},
	{"rlimit-onfault-charges-range", "without CAP_IPC_LOCK, mlock2(MLOCK_ONFAULT) charges the whole range against RLIMIT_MEMLOCK (64K), faulted or not", 64 * K, NOCAP, false, 0, sc_rlimit_onfault_charges, false, 0},
	{"rlimit-cap-ignores-limit", "with CAP_IPC_LOCK, RLIMIT_MEMLOCK (64K) does not limit mlockall(MCL_CURRENT) nor the mmaps locked by mlockall(MCL_FUTURE) (same program as rlimit-mlockall-enomem)", 64 * K, CAP, false, 0, sc_rlimit_mlockall_enomem, false, 0},
	{"protnone-mlock", "mlock of a PROT_NONE mapping fails with ENOMEM but the VMA is locked (nothing populated); mprotect to readable populates the locked part", 8 * M, CAP, false, 0, sc_protnone_mlock, false, 0},
	{"mprotect-locked", "mprotect of parts of a locked VMA splits it and keeps pages locked; mprotect back merges; mprotect of an onfault VMA", 8 * M, CAP, false, 0, sc_mprotect_locked, false, 0},
	{"mremap-locked", "mremap of locked VMAs: shrink, grow in place (populates the new part), grow by moving, MREMAP_FIXED move over a mapping, onfault grow", 8 * M, CAP, false, 0, sc_mremap_locked, false, 0},
	{"mremap-dontunmap-locked", "MREMAP_DONTUNMAP of a locked VMA: the old VMA stays (lo cleared), the new one is locked; VmLck as the real 6.18 kernel counts it", 8 * M, CAP, false, 0, sc_mremap_dontunmap_locked, false, 0},
	{"madvise-locked", "madvise on locked ranges: DONTNEED, FREE, COLD, PAGEOUT, REMOVE fail with EINVAL; WILLNEED works; DONTNEED_LOCKED zaps locked pages; on onfault and unlocked ranges", 8 * M, CAP, false, 0, sc_madvise_locked, false, 0},
	{"file-private-mlock", "private mapping of an ext4 file in /tmp: mlock, write faults (COW), lock-on-fault, a second unlocked mapping, munlock, close, unlink", 8 * M, CAP, false, 0, sc_file_private, false, 0},
	{"map-sync", "MAP_SYNC with anonymous private and shared, ext4 and tmpfs private, shared and shared-validate mappings: VM_SYNC (sf) where the mapping is made, EOPNOTSUPP from ext4 (no DAX) and from MAP_SHARED_VALIDATE on tmpfs", 8 * M, CAP, false, 0, sc_map_sync, false, 0},
	{"file-shared-mlock", "shared mapping of a tmpfs file in /dev/shm: mlock, lock-on-fault, a second unlocked mapping sees mlocked pages, munmap, MAP_LOCKED shared, close, unlink", 8 * M, CAP, false, 0, sc_file_shared, false, 0},
	{"ext4-truncate-eof-not-uptodate", "ext4 file truncated down to an unaligned size: the new EOF page is cached but not uptodate, so fault-around skips it and a read of it faults (6.18); when it was cached it stays uptodate", 8 * M, CAP, false, 0, sc_ext4_truncate_eof, false, 0},
	{"ext4-readahead-window", "64-page ext4 file read through a shared mapping: the read-around window (ra_pages = read_ahead_kb / 4), its PG_readahead page skipped by fault-around, async readahead on it", 8 * M, CAP, false, 0, sc_ext4_readahead_window, false, 0},
	{"file-ext4-shared-onfault", "shared mapping of a sparse ext4 file in /tmp: lock-on-fault read and write faults, mlock populates, partial munlock", 8 * M, CAP, false, 0, sc_file_ext4_shared, false, 0},
	{"fork-locks-not-inherited", "the child of fork() has no lo/lf and VmLck 0 but shares the mlocked pages; COW in the child; the child's own mlock; the parent after wait4", 8 * M, CAP, true, 0, sc_fork_locks, false, 0},
	{"fork-mlockall-future", "mlockall(MCL_CURRENT|MCL_FUTURE) is not inherited by a fork child: its mmaps are not locked until it calls mlockall itself", 8 * M, CAP, true, 0, sc_fork_mlockall_future, false, 0},
	{"memcg-force-empty-locked", "memory.force_empty on a memcg of the traced process alone: a 1,024-page cold ext4 file mapped shared with MADV_RANDOM, 128 pages locked (mlock, mlock2 ONFAULT); the unlocked pages are reclaimed, the locked stay; munlock rescues 64 pages that the next force_empty reclaims; faulted in again through two MADV_RANDOM mappings and reclaimed", 8 * M, CAP, false, 0, sc_memcg_force_empty_locked, false, 0, true},
	{"memcg-limit", "reclaim at a memcg's limit: a 2,048-page cold ext4 file cached through a MADV_RANDOM mapping, 64 pages of it mlocked, then evicted by memory.force_empty; memory.limit_in_bytes set 512 pages above the usage, and the file read again: each page past the limit first reclaims the memcg (32 pages a time); the locked pages stay; munlocked, they go like the rest", 8 * M, CAP, false, 0, sc_memcg_limit, false, 0, true},
	{"memcg-shmem-swap", "dirty shmem under memcg reclaim with swap on (a zram device): the image locked; memory.force_empty writes the written half of a 64-page shared anonymous mapping to swap and drops the clean half; read back, the written pages are major faults and go to swap again; a tmpfs file written, fallocated and mapped goes the same way, and a write fault, a punched hole, a truncation and the last unmap free its slots", 8 * M, CAP, false, 0, sc_memcg_shmem_swap, false, 0, true, true},
	{"memcg-refault", "refault detection in a memcg of the traced process alone: memory.force_empty evicts a 1,024-page cold ext4 file cached through a MADV_RANDOM mapping; 80 pages read back are refaults (the memcg's workingset_refault_file), none active; fadvise(DONTNEED) and a truncation forget the shadows of their ranges, and pages written (pwrite) are not judged", 8 * M, CAP, false, 0, sc_memcg_refault, false, 0, true},
	{"memcg-max-shrink", "cgroup v2's memory.max written 256 pages below a memcg's usage: a 1,024-page cold ext4 file cached through a MADV_RANDOM mapping, 64 pages of it mlocked; the write reclaims the excess (not v1's EBUSY); the file read again, each page past memory.max reclaims the memcg (memory.events max); the locked pages stay", 8 * M, CAP, false, 0, sc_memcg_max_shrink, false, 0, 2},
	{"memcg-high-shrink", "cgroup v2's memory.high written below a memcg's usage: a 1,024-page cold ext4 file cached through a MADV_RANDOM mapping, 64 pages mlocked; the write reclaims 512 pages; back at max, the file is read again; then memory.high below what can be reclaimed: the write gives up after its retries, the locked pages stay", 8 * M, CAP, false, 0, sc_memcg_high_shrink, false, 0, 2},
	{"memcg-force-empty-referenced", "memory.force_empty on a memcg of the traced process alone: a 1,024-page cold ext4 file cached through a MADV_RANDOM mapping, then half of it faulted (fault-around) through a plain private mapping, 64 pages of that mlocked; young pages get a second chance before they go, the locked stay; munlock of half and force_empty again", 8 * M, CAP, false, 0, sc_memcg_force_empty_referenced, false, 0, true},
	{"reclaim-pageout", "MADV_PAGEOUT/MADV_COLD on the real kernel: anonymous pages stay mapped (no swap), clean ext4 page-cache pages are unmapped and reclaimed, tmpfs pages are unmapped (pagemap present=0), locked pages stay (PAGEOUT on a range with a locked VMA is EINVAL); COLD unmaps nothing", 8 * M, CAP, false, 0, sc_reclaim_pageout, false, 0},
	{"onfault-touch", "lock-on-fault: read and write faults lock single pages; munlock part then touch; mlock populates; mlock2(MLOCK_ONFAULT) over populated pages", 8 * M, CAP, false, 0, sc_onfault_touch, false, 0},
	{"batch-exit-fault", "a child mlocks a shared tmpfs page and exits (its zap queues the munlock); the parent faults the page into its lock-on-fault VMA: one drain applies the munlock, then the mlock finds the page evictable (mlocked=0)", 8 * M, CAP, true, 0, sc_batch_family_0, false, 0, false, false, true},
	{"batch-exit-mlock-hole-fault", "as batch-exit-fault, with the parent's mlock of a hole (ENOMEM, no drain) between the exit and the fault", 8 * M, CAP, true, 0, sc_batch_family_1, false, 0, false, false, true},
	{"batch-exit-willneed-hole-fault", "as batch-exit-fault, with MADV_WILLNEED of a hole (ENOMEM, no drain) between", 8 * M, CAP, true, 0, sc_batch_family_2, false, 0, false, false, true},
	{"batch-exit-munlock-unlocked-fault", "as batch-exit-fault, with munlock of an unlocked VMA (no change, no drain) between", 8 * M, CAP, true, 0, sc_batch_family_3, false, 0, false, false, true},
	{"batch-exit-mlock-fault", "as batch-exit-fault, with an mlock that locks an anonymous VMA between: mlock_fixup() drains, the munlock comes first, the fault mlocks the page (mlocked=1)", 8 * M, CAP, true, 0, sc_batch_family_4, false, 0, false, false, true},
	{"batch-exit-populate-hole-fault", "as batch-exit-fault, with MADV_POPULATE_READ of a hole between: ENOMEM, but faultin_page_range() drains (6.18)", 8 * M, CAP, true, 0, sc_batch_family_5, false, 0, false, false, true},
	{"batch-exit-populate-fault", "as batch-exit-fault, with MADV_POPULATE_READ of an anonymous VMA between: it drains (mlocked=1)", 8 * M, CAP, true, 0, sc_batch_family_6, false, 0, false, false, true},
	{"batch-exit-munmap-fault", "as batch-exit-fault, with munmap of a touched anonymous VMA between: 6.18 leaves the batches (mlocked=0), 6.1 drains them in free_pages_and_swap_cache()", 8 * M, CAP, true, 0, sc_batch_family_7, false, 0, false, false, true},
	{"batch-exit-willneed-fault", "as batch-exit-fault, with MADV_WILLNEED of an anonymous VMA between: the swap-in walk ends with a drain (mlocked=1)", 8 * M, CAP, true, 0, sc_batch_family_8, false, 0, false, false, true},
	{"batch-exit-fault-loaded", "batch-exit-fault while another process drains every CPU's batches all the time: the munlock is mostly applied before the fault (mlocked=1) - an outcome the kernel allows that the trace cannot show; replays clean unless --strict-timing", 8 * M, CAP, true, 0, sc_batch_family_0, false, 0, false, false, true, true},
	{"batch-exit-munlock-unlocked-fault-loaded", "batch-exit-munlock-unlocked-fault under the same load (mlocked=1 mostly)", 8 * M, CAP, true, 0, sc_batch_family_3, false, 0, false, false, true, true},
	{"random-r1", "random scenario, recorder generator v1, 24 steps, choices from the real /proc state", 8 * M, CAP, false, 1, sc_random, false, 1},
	{"random-r2", "random scenario, recorder generator v1, 24 steps, choices from the real /proc state", 8 * M, CAP, false, 2, sc_random, false, 1},
	{"random-r3", "random scenario, recorder generator v1, 24 steps, choices from the real /proc state, without CAP_IPC_LOCK", 256 * K, NOCAP, false, 3, sc_random, false, 1},
};
const unsigned rec_nscenarios = sizeof rec_scenarios / sizeof rec_scenarios[0];
