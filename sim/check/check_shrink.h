/*
 * check_shrink.h - running generated sequences, shrinking a violation to
 * a short reproducer, and writing it as a contract trace.
 *
 *
 * Owns: running generated sequences, shrinking a violation, writing the
 *   reproducer.
 * May call: apply, check_gen, check_inv, internal (read-only), semantics.
 */
#ifndef VMSIM_CHECK_SHRINK_H
#define VMSIM_CHECK_SHRINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "check_gen.h"
#include "check_inv.h"
#include "semantics.h"

struct check_plan {
	const struct semantics *sem;
	const char *arch;
	uint32_t mask;                  /* invariants checked */
	unsigned steps;                 /* steps per run */
	const struct gen_weights *w;
};

struct run_out {
	uint32_t viol;                  /* invariants violated in the run */
	unsigned first[INV_NR];         /* step of each one's first violation */
	unsigned nsteps;                /* steps run */
	char msg[INV_NR][320];
};

/* One generated run of plan->steps steps with the run's seed; the steps
 * are kept in *buf (grown as needed; free() it).  Returns -1 when the
 * machine cannot be built (message in err). */
int check_run(const struct check_plan *p, uint64_t seed, struct run_out *ro, struct gstep **buf,
	      size_t *bufcap, char *err, size_t errlen);

/* Re-run steps[0..n) on a fresh machine checking only inv: the index of
 * the first step where inv fails, or -1. */
long check_replay_steps(const struct check_plan *p, const struct gen_machine *m,
			const struct gstep *steps, size_t n, unsigned inv, char *msg, size_t msglen);

/* Shrink steps[0..*n) (whose step *n-1 violates inv) in place: drop
 * chunks then single events, shrink lengths and addresses, simplify
 * flags, fold processes, as long as inv still fails first at a step of
 * the same call.  *n becomes the new length. */
void check_shrink(const struct check_plan *p, const struct gen_machine *m, struct gstep *steps,
		  size_t *n, unsigned inv);

/* Write a reproducer trace; explain (if non-NULL) receives the paragraph
 * describing the state at the failing step.  Returns 0 or -1. */
int check_write_repro(const char *path, const struct check_plan *p, const struct gen_machine *m,
		      uint64_t seed, const struct gstep *steps, size_t n, unsigned inv,
		      char *explain, size_t explen);

#endif
