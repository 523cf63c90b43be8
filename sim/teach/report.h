/*
 * report.h - the HTML report of one trace replayed under one or two
 * kernels: what is kept of each event (a row) and the page made of them.
 *
 * The page is one self-contained file: inline SVG and CSS and a short
 * script (click an event to read its explanation), nothing fetched.  The
 * same rows give the same bytes.
 *
 * Owns: the rows of a report and their HTML.
 * May call: explain, picture, vmsys.
 */
#ifndef VMSIM_REPORT_H
#define VMSIM_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "explain.h"
#include "vmsys.h"

#define REPORT_ROWS_MAX 600

struct report_vma {
	uint64_t start, end;
	uint64_t resident;     /* pages with a page of their own mapped (smaps Rss) */
	uint8_t lock;          /* enum lock_state (picture.h) */
};

/* what one kernel's model showed after one event */
struct report_side {
	char *result;          /* "0", "-1 ENOMEM", "MINOR" */
	bool diverged;         /* the trace says otherwise */
	char *explain;         /* the explanation steps, one per line */
	char *steps;           /* the same without citations: what two kernels compare */
	struct report_vma *vma;
	unsigned nvma;
	uint64_t lru[5];       /* inactive_anon .. unevictable, pages */
	uint64_t locked_vm;    /* of the event's process, pages */
	uint64_t limit;        /* its RLIMIT_MEMLOCK, pages (UINT64_MAX: unlimited) */
};

struct report_row {
	unsigned long line;
	int pid;
	char *event;           /* the event as the trace writer prints it */
	struct report_side side[2];
};

struct report {
	const char *trace;
	const char *kernel[2];
	unsigned nkernels;
	struct report_row *row;
	size_t n, cap;
	unsigned long events;  /* events shown in the trace */
	unsigned long stride;  /* 1: every event has a row; k: one in k kept */
	unsigned long seen;    /* events offered to report_keep() */
};

/* Is the next event to get a row?  (true for one in `stride`; divergences
 * always.)  Halves the rows when they reach twice REPORT_ROWS_MAX. */
bool report_keep(struct report *r, bool diverged);
/* a new row, or NULL without memory */
struct report_row *report_add(struct report *r);
/* side k of row from the model (after the event); false without memory */
bool report_fill(struct report_side *side, struct vmsys *s, struct task *t,
		 const struct explain_steps *st, const char *result, bool diverged);
void report_write(FILE *f, const struct report *r);
void report_free(struct report *r);

#endif
