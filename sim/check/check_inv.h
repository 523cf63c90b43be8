/*
 * check_inv.h - the promise invariants of `vmsim check` (docs/invariants.md).
 *
 * Each invariant is a rule the man pages (mlock(2), mlockall(2), mmap(2),
 * mremap(2), fork(2), madvise(2)) or Documentation/mm/unevictable-lru.rst
 * promise to users, checked on the model's state after every event - never
 * derived from one kernel version's code, so a semantics may fail them.
 * Some rules compare the state before and after the event: call
 * check_inv_before() just before apply_event() and check_inv_after() just
 * after it.  The checker never changes the model; while the model's
 * tracepoint hook is free it listens there (see check_inv_set_full_walks()).
 *
 * Owns: the promise invariants of vmsim check and replay
 *   --check-invariants.
 * May call: apply, internal (read-only: the walker reads the model's
 *   structures directly), trace, vmsys.
 */
#ifndef VMSIM_CHECK_INV_H
#define VMSIM_CHECK_INV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apply.h"
#include "trace.h"
#include "vmsys.h"

enum inv_id {
	INV_LOCKED_VM_ACCOUNTING,
	INV_LOCKED_VM_RANGE,
	INV_RLIMIT_MEMLOCK,
	INV_UNLOCK_COMPLETE,
	INV_FORK_NO_INHERIT,
	INV_ONFAULT_NO_PREFAULT,
	INV_LOCKED_NEVER_RECLAIMED,
	INV_MLOCKED_PAGES,
	INV_LRU_CONSISTENT,
	INV_VMA_TREE,
	INV_LOCKED_MADVISE,
	INV_NR
};

#define INV_ALL ((1u << INV_NR) - 1)

const char *inv_name(unsigned id);
/* index of a name, or -1 */
int inv_find(const char *name);

struct check_inv;

/* A checker for one machine (flag values come from its semantics and arch).
 * mask: the invariants to check (INV_ALL). NULL on allocation failure. */
struct check_inv *check_inv_new(struct vmsys *s, uint32_t mask);
void check_inv_free(struct check_inv *ci);

void check_inv_before(struct check_inv *ci, const struct event *ev);
/* The same, for a caller that guarantees nothing changed the machine since
 * its last check_inv_after() (vmsim check's loops: the generator only
 * reads it): what that after-check's walk found stands in for a second
 * walk of the same state.  The result is what check_inv_before() gives. */
void check_inv_before_next(struct check_inv *ci, const struct event *ev);
/* Returns the set of invariants violated after ev (bit i = enum inv_id i);
 * the first violation of each is described in check_inv_msg(ci, i). */
uint32_t check_inv_after(struct check_inv *ci, const struct event *ev, const struct outcome *out);
/* The rules of mask are still checked and reported in check_inv_after()'s
 * result, but their messages are not written (check_inv_msg() is stale
 * for them): vmsim check's runs want a rule's message the first time only. */
void check_inv_set_quiet(struct check_inv *ci, uint32_t mask);
/* on: walk every mm's VMAs and every LRU list after every event.  Off
 * (the default), an after-check reuses the last walk of each mm the event
 * could not have changed the VMAs of (another process's, or any after an
 * access) and whose total_vm and map_count stayed; and, while the
 * machine's tracepoint hook is free (vmsys_set_tracepoint(); the checker
 * takes it and gives it back in check_inv_free()), it walks the LRU lists
 * only when a page the event's tracepoints named, a page in or just out of
 * a per-CPU batch or one that left the locked VMAs breaks a rule, a
 * list's size and counter disagree, or nr_mlock moved from the count kept
 * - and at least every CHECK_INV_LRU_WALK_EVERY after-checks.  The result
 * is the same (test_check_inv.c), except for a change to the lists that no
 * tracepoint names (a slip of the model itself, never a kernel's rule):
 * that is found by the next walk. */
#define CHECK_INV_LRU_WALK_EVERY 64
void check_inv_set_full_walks(struct check_inv *ci, bool on);
const char *check_inv_msg(const struct check_inv *ci, unsigned id);

#endif
