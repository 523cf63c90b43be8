/*
 * snapshot.h - snapshots of the whole process taken and restored inside
 * it, without a fork: a fork's checkpoint restored in the same process.
 *
 * A snapshot is the process's writable private memory (the program's and
 * the libraries' data, the heap, every anonymous mapping and the stack),
 * the layout of its mappings, its program break, the offsets of its
 * regular files and its registers.  Restoring one puts all of them back
 * and returns a second time from the snap_take() that took it, with a
 * message: to the program it is exactly a fork's child resuming at a
 * checkpoint, but the pages stay the process's own.  Why: on this
 * project's paravirtual hosts the first write to a page after a fork
 * costs 15-25 microseconds, a fresh page 7; a copy into a page already
 * written 0.3.  A resumed fork copies every page the roll forward writes;
 * a restore copies the snapshot into pages that are already there
 * (docs/performance.md, "vmsim step's checkpoints").
 *
 * Storage: 4 KiB blocks in slabs of 2 MiB, shared between snapshots: a
 * page equal to the same page of the last snapshot taken or restored is
 * not stored again, and an anonymous page never touched (not present in
 * /proc/self/pagemap) is stored as none.  So snapshots close together cost
 * the pages that differ, and memory is bounded by the budget given to
 * snap_init() (a take that would exceed it fails); freed blocks are used
 * again before new ones, which this host gives slowly.
 *
 * What is not restored, on purpose: this module's own memory (the index of
 * snapshots, the blocks, the carry buffer that survives a restore), the
 * descriptors and terminal settings (only the offsets of regular files
 * open at the snapshot; descriptors opened since are closed), signal
 * dispositions, the process's identity and its clocks.  Single-threaded
 * programs only.  Not under AddressSanitizer or valgrind (their own
 * memory is in the process): snap_init() says so and the caller forks.
 *
 * Owns: the snapshots, their storage and the restore (which runs on a
 *   stack of its own, since it rewrites the one the program runs on).
 * May call: nothing of the project (POSIX, Linux /proc, ucontext).
 */
#ifndef VMSIM_SNAPSHOT_H
#define VMSIM_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SNAP_MAX 96     /* snapshots at once */
#define SNAP_MSG_MAX 2048

/* one snapshot as the index lists it */
struct snap_at {
	char kind; /* the caller's tag (vmsim step: spaced 'c', near 'n') */
	unsigned long pos, line;
};

/* set up, with budget bytes of storage at most: true if this process can
 * take snapshots; false with a reason in *why (ASan, valgrind, no
 * /proc/self/maps, a mapping too large to copy) */
bool snap_init(size_t budget, const char **why);

/*
 * Take a snapshot tagged kind, pos, line (pos is its key: one per pos).
 * 0: taken, the caller goes on; -1: not taken (errno: ENOMEM when the
 * budget or the host is out, EEXIST when pos has one).  1: this is the
 * snapshot being resumed by snap_restore(): *msg and *len are the message
 * it was given, valid until the next restore.
 * *cost_ns, on 0: the CPU time the taking cost.
 */
int snap_take(char kind, unsigned long pos, unsigned long line, uint64_t *cost_ns, const void **msg,
	      size_t *len);

/* restore the snapshot at pos with a message (len <= SNAP_MSG_MAX): does
 * not return if it could (snap_take() returns 1 there); -1 if there is
 * none or the process's mappings can no longer match it (nothing was
 * changed then) */
int snap_restore(unsigned long pos, const void *msg, size_t len);

/* the snapshots of kind (0: all), in position order, at most max: their
 * number */
size_t snap_list(char kind, struct snap_at *out, size_t max);

/* drop the snapshot at pos (its blocks no other uses become free) */
void snap_drop(unsigned long pos);

/* the process has grown to about bytes (its largest resident size): the
 * storage for the next snapshots is readied ahead, off the caller's
 * thread (cheap; call it as often as a few times a millisecond) */
void snap_expect(size_t bytes);

/* the bytes of storage in use, and the budget */
size_t snap_bytes(void);
size_t snap_budget(void);

/* a buffer that a restore does not touch, for what must outlive it (the
 * command history): its address and *cap its size; NULL before
 * snap_init() */
char *snap_carry(size_t *cap);

#endif
