/*
 * teach.h - the whole interface of sim/teach/: what the teaching commands
 * show of a replay.
 *
 *   explain      the model's tracepoints of one call as text, each step
 *                citing the kernel function it models
 *   explain_run  a session that keeps the last event's steps
 *   picture      the ASCII ruler of an address space and the LRU bars
 *   report       the rows of the HTML report and the page
 *   lineedit     a line editor with history for `vmsim step` on a terminal
 *
 * Each section is one unit (UNIT.c).  Callers: sim/cli/
 * (docs/architecture.md).
 *
 *
 * Owns: the text of the model's steps, the ruler and LRU pictures, the
 *   HTML report, the line editor of step.
 * May call: kerr, replay, semantics, tracepoint, vmflags, vmsys.
 */
#ifndef VMSIM_TEACH_H
#define VMSIM_TEACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracepoint.h"
#include "vmsys.h"
#include "replay.h"

/* ==== explain ====
 * explain.h - the model's tracepoints (model/tracepoint.h) as sentences in
 * kernel terms, each with the kernel function it cites.
 *
 * A tp_log collects the events of one call (vmsys_set_tracepoint(sys,
 * tp_log_hook, &log)); explain_steps() turns them into steps: a pair of
 * LRU del + add of one page becomes one move, and runs of the same step on
 * consecutive pages become one step with a count ("16 pages ...").  Every
 * consumer (vmsim explain, vmsim step, vmsim report) reads these steps;
 * none looks at the model to find out what happened.
 */

struct tp_log {
	struct tp_event *ev;
	size_t n, cap;
	size_t dropped;        /* events past TP_LOG_MAX (not kept) */
};
#define TP_LOG_MAX (1u << 20)

/* tracepoint listener: ctx is a struct tp_log */
void tp_log_hook(void *ctx, const struct tp_event *e);
static inline void tp_log_clear(struct tp_log *l) { l->n = 0; l->dropped = 0; }
void tp_log_free(struct tp_log *l);

struct explain_step {
	enum tp_id id;
	enum kfn fn;
	unsigned count;        /* events folded into this step */
	char text[240];        /* "vma [0x7f..000, 0x7f..000) split at 0x7f..000 (map_count 3 -> 4)" */
	const char *cite;      /* "mm/vma.c:__split_vma()" */
};

struct explain_steps {
	struct explain_step *s;
	size_t n, cap;
};

/* the steps of the events in l under sys's semantics; false: out of memory */
bool explain_build(const struct tp_log *l, const struct vmsys *sys, struct explain_steps *out);
void explain_steps_free(struct explain_steps *st);
/* "v6.18", "v4.0+lof-v1" */
const char *explain_version(const struct semantics *sem);
/* "  FUNC: TEXT  [CITE @ VERSION]\n" per step */
void explain_print(FILE *f, const struct explain_steps *st, const struct semantics *sem,
		   const char *indent);
/* the steps as a JSON array of {"fn", "text", "cite", "count"} */
void explain_json(FILE *f, const struct explain_steps *st, const struct semantics *sem);
/* do the two runs take the same steps (citations aside)? */
bool explain_same(const struct explain_steps *a, const struct explain_steps *b);

/* ==== explain_run ====
 * explain_run.h - one replay of a trace with the model's tracepoints
 * listened to: the session, the log of the event being applied and its
 * explanation steps (what vmsim explain and vmsim report walk).
 */

struct explain_run {
	struct session ss;
	bool open;
	struct tp_log log;
	struct explain_steps steps;  /* of the last event applied with steps wanted */
	struct outcome out;          /* the model's outcome of the last event */
};

/* open path with o and listen; -1 with the message printed */
int explain_run_open(struct explain_run *x, const char *path, const struct session_opts *o);
/* apply ev (path names it in messages); build its steps when want, else
 * leave none; -1 with the message printed (bad input, out of memory) */
int explain_run_apply(struct explain_run *x, const char *path, struct event *ev, bool want);
/* The steps of the event last applied (from its tracepoints, kept until
 * the next apply), when explain_run_apply() was not asked for them. */
int explain_run_build(struct explain_run *x, const char *path, const struct event *ev);
void explain_run_close(struct explain_run *x);

/* ==== picture ====
 * picture.h - text pictures of a model for a terminal: the address space
 * of a process as a ruler of its VMAs coloured by lock state with present
 * pages filled, and the LRU lists and per-CPU batches as bars.
 */

/* The lock state a picture gives a VMA: none, VM_LOCKED, lock on fault
 * (VM_LOCKED|VM_LOCKONFAULT, or lof-v1's VM_LOCKONFAULT alone). */
enum lock_state { LOCK_NONE, LOCK_LOCKED, LOCK_ONFAULT };
enum lock_state picture_lock_state(const struct vmsys *s, uint64_t flags);

/*
 *   pid 1: 3 vmas, locked_vm 4 of 16 pages
 *   0x7ffff7ff7000 [##--|LLll|ffff] 0x7ffff7fff000
 *
 * One cell per page up to 32 pages a VMA, else 32 cells of equal share;
 * a cell is filled when a page in it is present.  '#' '-' unlocked,
 * 'L' 'l' locked, 'F' 'f' lock on fault; ' ~ ' a gap between VMAs.
 * Lines wrap at width columns.
 */
void picture_ruler(FILE *f, struct vmsys *s, struct task *t, unsigned width);

/*
 *   inactive_anon  ##########           10
 *   ...
 *   unevictable    ####                  4
 *   batches        lru_add 1 of 31, mlock 0 of 31
 */
void picture_lists(FILE *f, struct vmsys *s, unsigned width);
/* Write text (lines) wrapped to width columns at spaces: a continuation
 * line is indented by the line's own leading spaces plus indent. */
void picture_wrap(FILE *f, const char *text, unsigned width, unsigned indent);

/* ==== report ====
 * report.h - the HTML report of one trace replayed under one or two
 * kernels: what is kept of each event (a row) and the page made of them.
 *
 * The page is one self-contained file: inline SVG and CSS and a short
 * script (click an event to read its explanation), nothing fetched.  The
 * same rows give the same bytes.
 */

#define REPORT_ROWS_MAX 600
/* bytes of one event's explanation a row keeps (report.c: cut_explain()) */
#define REPORT_EXPLAIN_MAX 2048
/* VMAs kept per row: a process with more is kept as this many groups of
 * neighbouring VMAs (the picture cannot tell them apart anyway) */
#define REPORT_VMAS_MAX 256

struct report_vma {
	uint64_t start, end;
	uint64_t resident;     /* pages with a page of their own mapped (smaps Rss) */
	uint32_t count;        /* VMAs it stands for (1, or a group's) */
	uint16_t name;         /* index in report.names: 0 anonymous, else a path's
				* last part or [heap], [stack], [vdso] */
	uint8_t lock;          /* enum lock_state (picture.h); a group's: its most
				* locked VMA's */
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
	char **names;          /* the VMA names met ([0] is "anon") */
	size_t nnames, capnames;
};

/* Is the next event to get a row?  (true for one in `stride`; divergences
 * always.)  Halves the rows when they reach twice REPORT_ROWS_MAX. */
bool report_keep(struct report *r, bool diverged);
/* a new row, or NULL without memory */
struct report_row *report_add(struct report *r);
/* side k of row from the model (after the event); false without memory */
bool report_fill(struct report *r, struct report_side *side, struct vmsys *s, struct task *t,
		 const struct explain_steps *st, const char *result, bool diverged);
void report_write(FILE *f, const struct report *r);
/* The same rows as JSON Lines (docs/json.md): a "report" object, then a
 * "row" per row with each kernel's side (result, locked_vm, the lists,
 * the VMAs with their lock state, the explanation a step a line). */
void report_write_json(FILE *f, const struct report *r);
void report_free(struct report *r);

/* ==== lineedit ====
 * lineedit.h - reading command lines for an interactive command (vmsim
 * step) without a curses or readline dependency.
 *
 * On a terminal: raw mode with the usual keys - left/right and ^B/^F,
 * Home/End and ^A/^E, Backspace/^H, Delete, ^K (to end), ^U (to start),
 * ^W (word), up/down through the history, ^C drops the line, ^D on an
 * empty line ends the input, ^L redraws.  Elsewhere (a pipe, a file): plain
 * lines, read a byte at a time (nothing past the line is taken from the
 * input).  Either way the line comes back without its newline.
 */

struct lineedit {
	bool tty;
	char **hist;
	size_t nhist;
	char *buf;
	size_t cap;
};

void lineedit_init(struct lineedit *le);
void lineedit_free(struct lineedit *le);
/* the next line after printing prompt (on a terminal), or NULL at the end */
const char *lineedit_read(struct lineedit *le, const char *prompt);
/* the history as lines, and back (replacing it): a process that takes
 * over a session (vmsim step's checkpoints) gets its predecessor's; 0 or -1 */
int lineedit_hist_write(const struct lineedit *le, FILE *f);
int lineedit_hist_read(struct lineedit *le, FILE *f);

#endif
