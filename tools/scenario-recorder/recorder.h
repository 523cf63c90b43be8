/* recorder.h - the scenario API of the vmsim recorder.  Every S_* call makes
 * the freestanding child do one thing on the real kernel, writes the strace
 * line with the real result and then the expectations read from /proc. */
#ifndef REC_RECORDER_H
#define REC_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

struct R;

struct scen {
	const char *name;
	const char *desc;
	long rlimit;          /* RLIMIT_MEMLOCK (soft = hard) at start, bytes; -1 = unlimited */
	bool cap;             /* keeps CAP_IPC_LOCK */
	bool multi;           /* forks: every line carries a pid */
	unsigned long seed;   /* nonzero: randomised scenario */
	void (*fn)(struct R *r, const struct scen *s);
	bool capture;         /* also write traces/views/NAME.{trace,maps,smaps,status} */
	int gen;              /* random generator version: 1 sc_random() of scenarios.c, 2 and up scen_random.c; 0 for the others */
	unsigned char memcg;  /* the child runs alone in a fresh memcg: 1 v1's (/sys/fs/cgroup/memory/vmrec-PID)
			       * or v2's (/sys/fs/cgroup/vmrec-PID), whichever the machine has; 2 v2's only */
	bool swap;            /* needs swap on (record-all.sh: a zram device); the others need it off */
	bool pinned;          /* the child (and its forks) on CPU 0 alone: one CPU's batches */
	bool loaded;          /* a process on the other CPUs drains every CPU's batches all
			       * the time (migrate_pages() in a loop: lru_add_drain_all()) */
};

extern const struct scen rec_scenarios[];
extern const unsigned rec_nscenarios;

#define A_READ 1
#define A_WRITE 2

long S_mmap(struct R *r, long addr, long len, long prot, long flags, long fd, long off);
long S_munmap(struct R *r, long addr, long len);
long S_mprotect(struct R *r, long addr, long len, long prot);
long S_mremap(struct R *r, long old, long oldlen, long newlen, long flags, long newaddr);
long S_madvise(struct R *r, long addr, long len, long advice);
long S_mlock(struct R *r, long addr, long len);
long S_munlock(struct R *r, long addr, long len);
long S_mlock2(struct R *r, long addr, long len, long flags);
long S_mlockall(struct R *r, long flags);
long S_munlockall(struct R *r);
long S_touch(struct R *r, long addr, long len, int mode);
long S_openat(struct R *r, const char *path, long flags, long mode);
long S_ftruncate(struct R *r, long fd, long len);
long S_pwrite(struct R *r, long fd, long len, long off);
long S_fadvise(struct R *r, long fd, long off, long len, long advice);
long S_close(struct R *r, long fd);
long S_fallocate(struct R *r, long fd, long mode, long off, long len);
long S_unlink(struct R *r, const char *path);
long S_prlimit(struct R *r, long cur, long max); /* -1 = infinity */
long S_fork(struct R *r);        /* afterwards the forked child is driven */
void S_child_exit(struct R *r);  /* the forked child exits; the parent's wait4 */
void S_pages(struct R *r, long addr, long len);
void S_note(struct R *r, const char *text);
void S_capture(struct R *r);
/* memory pressure (scenarios with .memcg): memory.force_empty of the
 * child's memcg, then the reclaim counters */
void S_memcg_force_empty(struct R *r);
/* the child's memcg's refault count (memory.stat workingset_refault_file
 * and _anon: since the memcg was made, so the trace's) and its file LRU
 * sizes (pages; read after S_pages() drained the batches) */
void S_memcg_stat(struct R *r);
/* memory.limit_in_bytes ROOM pages above the usage, as memcg_limit(BYTES
 * the trace's pages may take); then a comment in the trace if the kernel
 * memory is not what it was when the limit was set (or last checked) */
void S_memcg_limit(struct R *r, long room);
/* cgroup v2: memory.max or memory.high ("memory.max", "memory.high") set
 * BELOW pages under the usage (the write reclaims), or back to "max" */
void S_memcg_v2_below(struct R *r, const char *file, long below);
void S_memcg_v2_unset(struct R *r, const char *file);
/* cgroup v2: expect(memcg_events_max) and expect(memcg_events_oom) from
 * memory.events; nothing under v1 */
void S_memcg_events(struct R *r);
void S_memcg_kmem_same(struct R *r);
/* a read of memory.stat whose values are not written (see recorder.c) */
void S_memcg_stat_prime(struct R *r);
/* (scenarios with .swap) the child's memcg's shmem pages and the swap it
 * holds, from memory.stat: expect(nr_shmem), and expect(SwapFree) as the
 * swap size less the memcg's swap (the trace's machine is the memcg) */
void S_memcg_swap(struct R *r);
/* expect(COUNTER) = delta since the trace began, for the reclaim and
 * unevictable counters of /proc/vmstat (exact: event counters) */
void S_vmstat(struct R *r);
/* a regular file of NPAGES pages that exists before the trace, none of
 * it cached (written, fsync'ed and dropped by the recorder, outside the
 * child's memcg): the trace's inherit_file line */
void S_cold_file(struct R *r, const char *path, long npages);

/* the random generator (scen_random.c): the scenario of one seed of
 * version VER (2 or 3), NULL for another version or out of memory; its
 * traces carry the header line zero-page-sensitive */
const struct scen *rec_random(int ver, unsigned long seed);
int rec_pid(struct R *r);                    /* real pid of the driven process */
void rec_full_pages(struct R *r, bool on);   /* expect(page) full keys for every present page */
void rec_zero_page_seen(struct R *r);        /* header: zero-page-sensitive: yes */

/* randomness for seeded scenarios */
unsigned long rnd(struct R *r, unsigned long n); /* 0..n-1 */
/* VMAs of the current process (not the image), for random choices */
int rec_vmas(struct R *r, long *start, long *end, char (*perms)[5], int max);

#endif
