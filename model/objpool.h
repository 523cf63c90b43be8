/*
 * objpool.h - storage for many small structures of one size (VMAs,
 * anon_vma chains, anon_vmas): chunks of OBJPOOL_CHUNK objects and a stack
 * of the free ones, so that the structures of one kind sit together and a
 * walk over them (fork, exit, vmsim check's rules, the rmap) stays in
 * cache, and freeing one never allocates.
 *
 * An object comes back zeroed.  valgrind is told of each object as a heap
 * block of its own (leaks, use after free and uninitialised reads are
 * found as with malloc()); an ASan build takes every object from
 * calloc() and gives it back to free(), so ASan sees them too.
 *
 * Owns: the chunks and the free stack of one kind of object.
 * May call: nothing (alloc.h).
 */
#ifndef VMSIM_OBJPOOL_H
#define VMSIM_OBJPOOL_H

#include <stddef.h>

#define OBJPOOL_CHUNK 64

struct objpool_chunk;

struct objpool {
	size_t size;                  /* bytes an object */
	struct objpool_chunk *chunks;
	void **free;                  /* the free objects */
	size_t nfree, capfree, nstored;
};

void objpool_init(struct objpool *p, size_t size);
/* A zeroed object, NULL when out of memory. */
void *objpool_get(struct objpool *p);
/* Give obj (from objpool_get() of p) back. */
void objpool_put(struct objpool *p, void *obj);
/* Free the chunks; every object must be back (or never used again). */
void objpool_release(struct objpool *p);

#endif
