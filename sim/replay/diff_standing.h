/*
 * diff_standing.h - the differences that stand between two models from one
 * event to the next.  Private to sim/replay/ (diff.c).
 *
 * A difference of state - a process, the VMA layout, a VMA's flags, VmLck,
 * def_flags, a page, nr_mlock - lasts until an event ends it.  diff lists
 * it when it begins, when its values change and when it ends; an event
 * that leaves it as it stood does not list it again.  So `diff --all`
 * costs and prints what each event changed, not the whole difference
 * after every event (a 6.1 vs 6.18 VM_ACCOUNT difference on 4,000 VMAs was
 * listed again after each of 10^6 touches: 24 GB, and killed).
 *
 * Each comparison is an epoch (standing_epoch()): what it finds is noted
 * (standing_note(), standing_note_page()), and what it looked at but did
 * not find again has ended (standing_end_one(), standing_end_range()).
 * The address-keyed differences of a process (layout, VMA flags, pages)
 * are kept in address order, so that ending those of a range costs what
 * stands there.
 *
 * Owns: the set of standing differences, by process and address.
 * May call: radix (the ordered maps), alloc.
 */
#ifndef VMSIM_DIFF_STANDING_H
#define VMSIM_DIFF_STANDING_H

#include <stdbool.h>
#include <stdint.h>

enum sd_kind {
	SD_TASK,        /* a process exists or lives on one side only (key 0) */
	SD_VMAS,        /* the layout of a region, by its start address */
	SD_VMFLAGS,     /* a VMA's flags, by its start address */
	SD_VMLCK,       /* locked_vm (key 0) */
	SD_DEF_FLAGS,   /* def_flags (key 0) */
	SD_PAGE,        /* a page, by its address */
	SD_NR_MLOCK,    /* the machine's nr_mlock (pid 0, key 0) */
};

struct standing;

/* NULL when out of memory */
struct standing *standing_new(void);
void standing_free(struct standing *st);

/* A comparison begins: every note from here on belongs to it. */
void standing_epoch(struct standing *st);

/* The difference (kind, pid, key) stands with the two values a, b (a page:
 * its two sides' bits).  1: it is new or its values changed (list it), 0:
 * it stood as it is, -1: no memory. */
int standing_note(struct standing *st, enum sd_kind kind, int pid, uint64_t key, uint64_t a,
		  uint64_t b);

/* Called for each difference that ended. */
typedef void (*standing_end_fn)(void *ctx, enum sd_kind kind, int pid, uint64_t key);

/* The one difference of a kind keyed 0 (SD_TASK, SD_VMLCK, SD_DEF_FLAGS,
 * SD_NR_MLOCK): ended if it stands and this epoch did not note it. */
void standing_end_one(struct standing *st, enum sd_kind kind, int pid, standing_end_fn fn, void *ctx);

/* The differences of pid of kind (SD_VMAS, SD_VMFLAGS or SD_PAGE) keyed in
 * [lo, hi) that this epoch did not note: ended, in address order. */
void standing_end_range(struct standing *st, enum sd_kind kind, int pid, uint64_t lo, uint64_t hi,
			standing_end_fn fn, void *ctx);

/* Drop every difference of pid without a word (its process is gone on
 * both sides). */
void standing_forget(struct standing *st, int pid);

/* Calls fn for each process with a difference standing (fn may forget it). */
void standing_each_pid(struct standing *st, void (*fn)(void *ctx, int pid), void *ctx);

/* Whether any difference stands. */
bool standing_any(const struct standing *st);

/* How many SD_TASK differences stand. */
unsigned standing_tasks(const struct standing *st);

#endif
