/*
 * checkpoint.h - checkpoints of the whole process, for a command that
 * walks a trace forward and is asked to go back (vmsim step).
 *
 * Two ways, the same to the caller:
 *
 * In memory (the default): snapshots of the process taken and restored
 * inside it (snapshot.h).  Going back restores one and returns a second
 * time from the ckpt_take() that took it, which calls the resumed() hook
 * with the message.  A restore is a copy of the memory into pages the
 * process already has (about 5 ms for the 46 MB of a model of 1.3 M cached
 * pages here) and the roll forward runs at the replay's own speed; the
 * storage is shared between snapshots page by page, at most
 * VMSIM_STEP_CHECKPOINT_MB (default CKPT_MEM_MB) MiB, and a thread of the
 * process writes it ahead of need (a page's first write is the dear part
 * on a paravirtual host).  No near checkpoints: each would cost a pass
 * over the memory, more than the roll forward they save.  Not under
 * AddressSanitizer or valgrind, or with VMSIM_STEP_CHECKPOINTS=fork: then
 *
 * By fork: a checkpoint is a frozen copy of the process made by fork(): the kernel
 * shares its pages with the running process until one of them writes, so
 * taking one costs the page tables, not the model.  Going back to a
 * checkpoint hands the session over: the checkpoint forks again (it stays
 * a checkpoint), the new process calls the resumed() hook with the
 * message it was given, and the process that asked exits.  Exactly one
 * process is active at a time, the one that reads the commands.
 *
 * The processes:
 *   - the supervisor: the process the shell started.  At the first
 *     checkpoint it forks the first active process and from then on only
 *     waits (it is their child subreaper, PR_SET_CHILD_SUBREAPER): when
 *     the active process exits, it exits with the same status (or dies of
 *     the same signal), and every other process of the session dies with
 *     it (PR_SET_PDEATHSIG).  It never reads or writes.
 *   - the active process, and the frozen checkpoints, each blocked on its
 *     FIFO in a private directory ($TMPDIR or /tmp, vmsim-ckpt.XXXXXX)
 *     named after its position: c<POS>-<LINE>.
 *
 * What is shared and what is not: the standard input, output and error
 * are the same open files for all (so the commands must be read without
 * a user-space buffer: lineedit does, and the output is flushed before
 * every fork); every other regular file keeps, in each checkpoint, the
 * offset it had when the checkpoint was taken (they are restored on
 * resume: the trace readers' FILE buffers stay true).
 *
 * When: at a position that is a multiple of `every`, once the process
 * has spent min_ns of user CPU time since the last checkpoint, and at
 * least as much as its system time since then (min_ns 0: at every
 * multiple).  After a fork the first write to each page copies it (a
 * fault, counted as system time: tens of microseconds each on a
 * paravirtual machine), so a checkpoint costs about the pages the model
 * writes until the next (at most the resident pages it shared); waiting
 * until the replay's own time has caught up keeps checkpoints under about
 * half of the time, whatever the size of the model.  How many: at most CKPT_MAX.  When one more would exceed it,
 * every other one is dropped and min_ns (or, without it, every) doubles.
 * So going to a position rolls forward at most about the larger of min_ns
 * of CPU (times the doublings) and what the copies after one fork cost -
 * up to the whole model's pages at a fault each - (or every positions),
 * and the memory is at most
 * CKPT_MAX copies of the pages the model wrote between checkpoints,
 * never more than CKPT_MAX + CKPT_NEAR + 2 copies of the process.
 *
 * Near checkpoints are taken on the way to a known destination, just
 * before it (vmsim step's goto, back and next N: 256, 32, 4 and 1 events
 * or lines before), whatever the time, so that going back a little from
 * where a command ended rolls forward a few events, not up to the
 * spacing.  They are not spaced and not thinned: at most CKPT_NEAR are
 * kept, and one more drops the one farthest from it.  Being close to each
 * other, they share nearly all their pages.
 *
 * In memory, when: as by fork, min_ns of user CPU since the last and at
 * least half of what the last one cost to take (so snapshots take at most
 * about a third of the time); at CKPT_MAX, or three quarters of the
 * budget, every other one is dropped and min_ns doubles.  A back, goto or
 * until then rolls forward at most about that CPU time (or every
 * positions) after a copy of the memory.
 *
 * Owns: the checkpoint processes, their directory and the hand-over
 *   protocol, and when snapshots are due.
 * May call: snapshot.
 */
#ifndef VMSIM_CHECKPOINT_H
#define VMSIM_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CKPT_MAX 64
#define CKPT_NEAR 12
#define CKPT_MSG_MAX 1024 /* bytes of a resume message's payload */
#define CKPT_MEM_MB 1024  /* snapshots' storage, MiB (VMSIM_STEP_CHECKPOINT_MB) */

/* called in the new active process at a checkpoint; must not return
 * (it longjmps to the command loop) */
typedef void (*ckpt_resumed_fn)(void *ctx, const void *msg, size_t len);

struct ckpt {
	unsigned long every;      /* 0: no checkpoints (ckpt_take() is never due) */
	uint64_t min_ns;          /* user CPU time between two, 0: by position alone */
	uint64_t last_user, last_sys; /* the CPU clocks at the last one */
	uint64_t last_minflt;     /* the minor faults then */
	uint64_t shared_pages;    /* the resident pages it shared */
	bool started;             /* the supervisor and the directory exist, or (mem) the snapshots */
	bool mem;                 /* snapshots in this process (snapshot.h), not processes */
	uint64_t last_cost;       /* mem: the CPU time the last snapshot took */
	int sup;                  /* the supervisor's pid */
	char dir[256];
	ckpt_resumed_fn resumed;
	void *ctx;
};

/* every: positions a checkpoint may be at (its multiples; 0 = none);
 * min_ns: the CPU time between two.  The environment variable
 * VMSIM_STEP_CHECKPOINT_EVERY=N overrides both (every N positions, no
 * time rule; 0 turns checkpoints off: a program that runs vmsim_main()
 * inside itself, a fuzzer) */
/* The environment that tunes the checkpoints, checked before they start:
 * VMSIM_STEP_CHECKPOINTS (memory or fork), VMSIM_STEP_CHECKPOINT_MB (1 to
 * 2^20) and VMSIM_STEP_CHECKPOINT_EVERY (0 to 10^8), each unset, empty or
 * that; false with why (the variable's name and what it takes). */
bool ckpt_env_check(char *why, size_t len);
void ckpt_init(struct ckpt *ck, unsigned long every, uint64_t min_ns, ckpt_resumed_fn resumed, void *ctx);

/* is a checkpoint due at position pos (one is not there yet)? */
bool ckpt_due(const struct ckpt *ck, unsigned long pos);

/* take one at pos (trace line line); returns in the active process, 0 or
 * -1 if it could not (errno; the session goes on without it) */
int ckpt_take(struct ckpt *ck, unsigned long pos, unsigned long line);

/* take a near checkpoint at pos (none if one is there already, or
 * checkpoints are off or not started): 0, or -1 */
int ckpt_take_near(struct ckpt *ck, unsigned long pos, unsigned long line);

/* the position of the checkpoint with the greatest position <= pos
 * (by_line: the greatest whose line <= pos); false if none */
bool ckpt_best(const struct ckpt *ck, unsigned long pos, bool by_line, unsigned long *at);

/* hand the session to the checkpoint at position at with the message msg
 * (len <= CKPT_MSG_MAX).  Does not return if it could (this process
 * exits); -1 if that checkpoint is gone (the caller goes on itself). */
int ckpt_resume(struct ckpt *ck, unsigned long at, const void *msg, size_t len);

/* a stream for what a hand-over must carry to the process or snapshot
 * that goes on (the command history): written before ckpt_resume(), read
 * after the resumed() hook; NULL if none */
FILE *ckpt_carry_open(const struct ckpt *ck, bool write);

/* can the caller fork a throw-away copy of itself (the drained views)? */
bool ckpt_can_fork(const struct ckpt *ck);

#endif
