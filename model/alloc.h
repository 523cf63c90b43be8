/*
 * alloc.h - every heap allocation of vmsim goes through here.
 *
 * A failed allocation returns NULL as malloc does (callers handle it), and
 * sets vm_host_oom: the host, not the simulated machine, ran out of
 * memory, so what the model answered since is not a kernel's answer.  The
 * commands test the flag and exit with status 3 and an "out of memory"
 * message (distinct from 1, a divergence, and 2, bad input).
 *
 * A build with -DVMSIM_FAILALLOC fails the Nth allocation when the
 * environment has VMSIM_FAIL_AT=N (and counts allocations into
 * VMSIM_ALLOC_COUNT's file at exit), for the allocation-failure sweep of
 * the test suite.
 *
 *
 * Owns: every heap allocation of vmsim and the host-OOM exit (status 3).
 * May call: nothing.
 */
#ifndef VMSIM_ALLOC_H
#define VMSIM_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

extern bool vm_host_oom;

void *vm_malloc(size_t n);
void *vm_calloc(size_t n, size_t size);
void *vm_realloc(void *p, size_t n);
char *vm_strdup(const char *s);
/* Room for need elements of size bytes in the array p of capacity *cap:
 * p itself when it has the room, else p reallocated to twice its capacity
 * (at least 16 and need) with *cap updated; NULL on failure, p unchanged. */
void *vm_grow(void *p, size_t *cap, size_t need, size_t size);

/* Address space for n bytes that holds no memory yet (an anonymous
 * PROT_NONE mapping, MAP_NORESERVE): NULL on failure.  vm_commit() makes a
 * part of it readable and writable, zero-filled, before its first use
 * (false on failure); vm_unreserve() returns the whole.  For one large
 * array used from its start, as the page frames are: indexing it needs no
 * table of chunks, and only what is committed counts against the host. */
void *vm_reserve(size_t n);
bool vm_commit(void *p, size_t n);
void vm_unreserve(void *p, size_t n);
/* n bytes, zero-filled, their pages given by the host at once
 * (MAP_POPULATE), returned with vm_unreserve(): for a table that will be
 * written through soon after it is made, where a page fault a page costs
 * more than the filling (a fault is microseconds on a paravirtual host). */
void *vm_alloc_populated(size_t n);

#endif
