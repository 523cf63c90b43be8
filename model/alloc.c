/* alloc.c - allocations that record a host out-of-memory.  See alloc.h. */
#include "alloc.h"

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

bool vm_host_oom;

#ifdef VMSIM_FAILALLOC
static unsigned long alloc_count, fail_at;
static bool fail_init;

static void report_count(void)
{
	const char *path = getenv("VMSIM_ALLOC_COUNT");
	FILE *f = path ? fopen(path, "w") : NULL;
	if (f) {
		fprintf(f, "%lu\n", alloc_count);
		fclose(f);
	}
}

/* the sanitizers' stack printer, when linked in (VMSIM_FAIL_STACK=1) */
void __sanitizer_print_stack_trace(void) __attribute__((weak));

/* true when this allocation is to fail */
static bool injected(void)
{
	if (!fail_init) {
		fail_init = true;
		const char *s = getenv("VMSIM_FAIL_AT");
		fail_at = s ? strtoul(s, NULL, 10) : 0;
		if (getenv("VMSIM_ALLOC_COUNT"))
			atexit(report_count);
	}
	bool fail = ++alloc_count == fail_at;
	if (fail && getenv("VMSIM_FAIL_STACK") && __sanitizer_print_stack_trace)
		__sanitizer_print_stack_trace();
	return fail;
}
#else
static bool injected(void)
{
	return false;
}
#endif

static void *checked(void *p, size_t n)
{
	if (!p && n)
		vm_host_oom = true;
	return p;
}

void *vm_malloc(size_t n)
{
	return checked(injected() ? NULL : malloc(n), n ? n : 1);
}

void *vm_calloc(size_t n, size_t size)
{
	return checked(injected() ? NULL : calloc(n, size), n && size ? n : 1);
}

void *vm_realloc(void *p, size_t n)
{
	return checked(injected() ? NULL : realloc(p, n), n);
}

char *vm_strdup(const char *s)
{
	return checked(injected() ? NULL : strdup(s), 1);
}

void *vm_grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t n = *cap ? *cap * 2 : 16;
	if (n < need)
		n = need;
	void *q = vm_realloc(p, n * size);
	if (q)
		*cap = n;
	return q;
}

void *vm_reserve(size_t n)
{
	void *p = injected() ? MAP_FAILED
			     : mmap(NULL, n ? n : 1, PROT_NONE,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return checked(p == MAP_FAILED ? NULL : p, 1);
}

bool vm_commit(void *p, size_t n)
{
	/* whole host pages around [p, p + n): a neighbour's share is
	 * committed twice, which changes nothing */
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)p & ~(page - 1),
		  e = ((uintptr_t)p + n + page - 1) & ~(page - 1);
	bool ok = !injected() && mprotect((void *)a, e - a, PROT_READ | PROT_WRITE) == 0;
	return checked(ok ? p : NULL, 1) != NULL;
}

void *vm_alloc_populated(size_t n)
{
	void *p = injected() ? MAP_FAILED
			     : mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	return checked(p == MAP_FAILED ? NULL : p, 1);
}

void vm_unreserve(void *p, size_t n)
{
	if (p)
		munmap(p, n ? n : 1);
}
