/*
 * picture.h - text pictures of a model for a terminal: the address space
 * of a process as a ruler of its VMAs coloured by lock state with present
 * pages filled, and the LRU lists and per-CPU batches as bars.
 *
 * Owns: the ASCII ruler and the LRU diagram (vmsim step).
 * May call: semantics, vmflags, vmsys.
 */
#ifndef VMSIM_PICTURE_H
#define VMSIM_PICTURE_H

#include <stdio.h>

#include "vmsys.h"

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

#endif
