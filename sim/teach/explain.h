/*
 * explain.h - the model's tracepoints (model/tracepoint.h) as sentences in
 * kernel terms, each with the kernel function it cites.
 *
 * A tp_log collects the events of one call (vmsys_set_tracepoint(sys,
 * tp_log_hook, &log)); explain_steps() turns them into steps: a pair of
 * LRU del + add of one page becomes one move, and runs of the same step on
 * consecutive pages become one step with a count ("16 pages ...").  Every
 * consumer (vmsim explain, vmsim step, vmsim report) reads these steps;
 * none looks at the model to find out what happened.
 *
 * Owns: the tracepoint log of one call and the text of its steps.
 * May call: json, kerr, semantics, tracepoint, vmsys.
 */
#ifndef VMSIM_EXPLAIN_H
#define VMSIM_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tracepoint.h"
#include "vmsys.h"

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

#endif
