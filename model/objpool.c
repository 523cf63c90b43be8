/* objpool.c - see objpool.h. */
#include "alloc.h"
#include "objpool.h"

#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_MALLOCLIKE_BLOCK
#define VALGRIND_MALLOCLIKE_BLOCK(addr, size, rz, zeroed) ((void)0)
#define VALGRIND_FREELIKE_BLOCK(addr, rz) ((void)0)
#define VALGRIND_MAKE_MEM_NOACCESS(addr, size) ((void)0)
#endif

#if defined(__SANITIZE_ADDRESS__)
#define OBJPOOL_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OBJPOOL_MALLOC 1
#endif
#endif

struct objpool_chunk {
	struct objpool_chunk *next;
	_Alignas(max_align_t) unsigned char obj[];
};

void objpool_init(struct objpool *p, size_t size)
{
	memset(p, 0, sizeof(*p));
	/* each object aligned as malloc() would */
	p->size = (size + _Alignof(max_align_t) - 1) & ~(size_t)(_Alignof(max_align_t) - 1);
}

void *objpool_get(struct objpool *p)
{
#ifdef OBJPOOL_MALLOC
	return vm_calloc(1, p->size);
#else
	if (!p->nfree) {
		/* room on the stack for every object stored first, so that a
		 * put never allocates */
		void *st = vm_grow(p->free, &p->capfree, p->nstored + OBJPOOL_CHUNK, sizeof(*p->free));
		if (!st)
			return NULL;
		p->free = st;
		struct objpool_chunk *c = vm_malloc(sizeof(*c) + OBJPOOL_CHUNK * p->size);
		if (!c)
			return NULL;
		c->next = p->chunks;
		p->chunks = c;
		p->nstored += OBJPOOL_CHUNK;
		for (size_t i = OBJPOOL_CHUNK; i--;) {
			void *o = c->obj + i * p->size;
			VALGRIND_MAKE_MEM_NOACCESS(o, p->size); /* not handed out yet */
			p->free[p->nfree++] = o;
		}
	}
	void *o = p->free[--p->nfree];
	VALGRIND_MALLOCLIKE_BLOCK(o, p->size, 0, 1);
	memset(o, 0, p->size);
	return o;
#endif
}

void objpool_put(struct objpool *p, void *obj)
{
#ifdef OBJPOOL_MALLOC
	(void)p;
	free(obj);
#else
	VALGRIND_FREELIKE_BLOCK(obj, 0);
	p->free[p->nfree++] = obj;
#endif
}

void objpool_release(struct objpool *p)
{
	while (p->chunks) {
		struct objpool_chunk *n = p->chunks->next;
		free(p->chunks);
		p->chunks = n;
	}
	free(p->free);
	p->free = NULL;
	p->nfree = p->capfree = p->nstored = 0;
}
