/*
 * diff.h - replay one trace under two kernel semantics in lockstep and list
 * where the two models differ (`vmsim diff`, tests/property/prop_semantics_diff).
 *
 * One reader feeds every event to two models built from the same header
 * (session_model()).  After each event the two are compared:
 *
 *   result      the outcome (value, errno, address, fault kind)
 *   vmas        per process: the VMA layout, and the flags of each VMA by
 *               their internal bits (so "??" and "lf" for VM_LOCKONFAULT
 *               are the same flag)
 *   VmLck       locked_vm, in kB (unsigned: a wrapped count shows as such)
 *   def_flags   mm->def_flags, internal bits
 *   page        after both models drained their per-CPU batches: present,
 *               mlocked, unevictable, lru of every page of every VMA both
 *               sides have
 *   vmstat      unevictable_pgs_* and nr_mlock
 *
 * Results the trace records are not compared: diff compares the models.
 * Draining after every event is part of the comparison (both sides alike).
 *
 *
 * Owns: replaying one trace under two semantics in lockstep and the list of
 *   their differences.
 * May call: apply, kerr, session, trace, vmstat, vmsys.
 */
#ifndef VMSIM_DIFF_H
#define VMSIM_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "session.h"

/* What one difference is about. */
enum diff_kind {
	DK_RESULT,     /* the event's outcome */
	DK_TASK,       /* a process exists/is alive on one side only */
	DK_VMAS,       /* VMA layout (start/end) */
	DK_VMFLAGS,    /* flags of a VMA present on both sides */
	DK_VMLCK,      /* locked_vm */
	DK_DEF_FLAGS,  /* def_flags */
	DK_PAGE,       /* page state of one address */
	DK_VMSTAT,     /* a counter */
	DK_RUSAGE,     /* the event's process's minflt/majflt, as this event moved them */
};

struct diff_item {
	unsigned long line;     /* trace line of the event */
	enum diff_kind kind;
	int pid;                /* process (0 for global counters) */
	uint64_t addr;          /* DK_VMFLAGS / DK_VMAS / DK_PAGE: the address */
	char what[48];          /* "result", "VmLck", "vma 0x...", "page 0x...", counter name */
	char a[192], b[192];    /* the two sides' values as text */
	int64_t va, vb;         /* numbers where meaningful: kB, counter, errno/value,
				 * internal VM_* bits, page bits (1 present 2 mlocked
				 * 4 unevictable 8 lru) */
};

struct diff_event {             /* one event where the models differ */
	unsigned long line;
	char text[256];         /* trace_format_event() */
	size_t first, n;        /* its items: result->items[first .. first+n) */
};

struct diff_result {
	char kernel_a[16], kernel_b[16];
	unsigned long events;
	struct diff_item *items;
	size_t nitems, cap_items;
	struct diff_event *evs;
	size_t nevs, cap_evs;
	char err[512];          /* bad input */
};

struct diff_opts {
	const char *kernel_a, *kernel_b;
	const char *arch;       /* NULL: the trace's header, else x86_64 */
	bool all;               /* every differing event, not just the first */
	const struct session_opts *machine; /* --cap-ipc-lock ... (NULL: the header's);
				 * its arch, if set, wins over arch above */
	bool full;              /* compare everything after every event, never only
				 * what the event touched (tests compare the two) */
};

/* Replay path under both kernels.  Returns 0 when the models agree on
 * the whole trace, 1 when they differ (r lists the differences), 2 on bad
 * input (r->err says why).  Free r with diff_result_free() in every case. */
int diff_trace(const char *path, const struct diff_opts *o, struct diff_result *r);
void diff_result_free(struct diff_result *r);

/* The first item of kind (and what, if non-NULL) at line (0 = any line),
 * or NULL. */
const struct diff_item *diff_find(const struct diff_result *r, unsigned long line,
				  enum diff_kind kind, const char *what);

/* Print r the way `vmsim diff` does (FILE:LINE, event, side by side). */
void diff_print(const char *path, const struct diff_result *r, FILE *f);

#endif
