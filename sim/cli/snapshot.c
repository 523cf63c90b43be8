/*
 * snapshot.c - snapshots of the whole process, inside it (snapshot.h).
 *
 * The restore rewrites the memory every function of the program uses,
 * libc's included, so it runs on a stack of its own and calls only what
 * keeps no state in that memory: system calls, memcpy() and memcmp().
 * Nothing of it allocates; everything it needs is in the control block,
 * one mapping of this module's that no snapshot covers.
 */
#include "snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

/* glibc does not say it; the compiler must know (as for setjmp()) */
extern int getcontext(ucontext_t *ucp) __attribute__((returns_twice));

#define PAGE 4096u
#define CHUNK 512u                 /* blocks the helper readies at a time */
#define MAX_REG 4096u              /* mappings of the process */
#define MAX_EXCL (SNAP_MAX + 4)
#define HELPER_STACK (64u * 1024)
#define MAPS_BYTES (1u << 20)
#define ALT_STACK (256u * 1024)
#define CARRY_BYTES (1u << 20)
#define MAX_FDS 64
#define FD_WORDS 16 /* descriptors 0 to 1,023 */
/* a mapping larger than this is not copied: the process is not one whose
 * memory is its own (a sanitizer's shadow) */
#define MAX_MAPPING ((uintptr_t)1 << 36)

/* one mapping, or a part of one: what /proc/self/maps says */
struct region {
	uintptr_t start, end;
	uint64_t off, ino;
	int prot;
	char kind;      /* 'A' anonymous, 'H' the heap, 'S' the stack, 'F' a file */
	uint32_t first; /* writable: the index of its first page's block */
};

struct snap {
	bool used;
	char kind;
	unsigned long pos, line;
	ucontext_t uc;
	uintptr_t brk;
	uint32_t nreg;
	size_t npages;
	struct region *reg; /* in meta */
	uint32_t *page;     /* a block a writable page (0: never touched) */
	void *meta;
	size_t metalen;
	int nfd;
	int fd[MAX_FDS];
	off_t off[MAX_FDS];
	uint64_t fdset[FD_WORDS];
};

struct excl {
	uintptr_t start, end;
};

struct control {
	size_t budget;
	char *store;        /* the blocks: budget bytes reserved */
	uint32_t *refs;     /* a count a block */
	uint32_t nblocks;
	uint32_t fresh;     /* the blocks never used yet start after this one */
	uint32_t free_head; /* the free blocks, linked through their first word */
	size_t used;        /* blocks in use */
	uint32_t largest;   /* blocks of the largest snapshot taken */
	/* the helper thread that writes the blocks before they are used
	 * (a page's first write is the dear part on a paravirtual host): it
	 * readies chunks up to want; a chunk is the first to claim it's */
	bool helper;
	_Atomic uint32_t want, claimed;
	_Atomic uint32_t helper_waits;
	_Atomic unsigned char *ready; /* a flag a chunk */
	int maps_fd, pagemap_fd, fd_dir;
	int ref; /* the snapshot the memory was last equal to, -1 none */
	struct snap snap[SNAP_MAX];
	int target;
	volatile int resuming;
	size_t msglen;
	char msg[SNAP_MSG_MAX];
	ucontext_t back, rc;
	uint32_t nexcl;
	struct excl excl[MAX_EXCL];
	uint32_t ncur;
	struct region cur[MAX_REG];
	uint64_t pm[CHUNK];
	char maps[MAPS_BYTES];
	char carry[CARRY_BYTES];
	_Alignas(16) char stack[ALT_STACK];
	_Alignas(16) char helper_stack[HELPER_STACK];
};

static struct control *ctl;

static uint64_t cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* not the helper's */
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* ---- the ranges of this module's own memory ---- */

static bool excl_add(uintptr_t start, uintptr_t end)
{
	if (ctl->nexcl == MAX_EXCL)
		return false;
	uint32_t i = ctl->nexcl;
	while (i && ctl->excl[i - 1].start > start) {
		ctl->excl[i] = ctl->excl[i - 1];
		i--;
	}
	ctl->excl[i] = (struct excl){ start, end };
	ctl->nexcl++;
	return true;
}

static void excl_remove(uintptr_t start)
{
	for (uint32_t i = 0; i < ctl->nexcl; i++)
		if (ctl->excl[i].start == start) {
			memmove(&ctl->excl[i], &ctl->excl[i + 1], (ctl->nexcl - i - 1) * sizeof(ctl->excl[0]));
			ctl->nexcl--;
			return;
		}
}

/* ---- reading /proc/self/maps without allocating ---- */

static uint64_t hex(const char **p)
{
	uint64_t v = 0;
	for (;;) {
		char c = **p;
		if (c >= '0' && c <= '9')
			v = v * 16 + (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uint64_t)(c - 'a' + 10);
		else
			return v;
		(*p)++;
	}
}

static uint64_t dec(const char **p)
{
	uint64_t v = 0;
	while (**p >= '0' && **p <= '9')
		v = v * 10 + (uint64_t)(*(*p)++ - '0');
	return v;
}

static bool add_cur(const struct region *r)
{
	if (r->end <= r->start)
		return true;
	if (ctl->ncur == MAX_REG)
		return false;
	ctl->cur[ctl->ncur++] = *r;
	return true;
}

/* the mapping r without this module's ranges (sorted, as the maps are) */
static bool add_outside_excl(struct region r)
{
	for (uint32_t i = 0; i < ctl->nexcl && r.start < r.end; i++) {
		const struct excl *x = &ctl->excl[i];
		if (x->end <= r.start || x->start >= r.end)
			continue;
		if (x->start > r.start) {
			struct region left = r;
			left.end = x->start;
			if (!add_cur(&left))
				return false;
		}
		if (r.kind == 'F')
			r.off += (x->end > r.start ? x->end - r.start : 0);
		r.start = x->end;
	}
	return add_cur(&r);
}

/* the process's private mappings into ctl->cur, sorted, this module's
 * memory and the kernel's own pages left out: 0, or -1 */
static int read_maps(void)
{
	size_t n = 0;
	if (lseek(ctl->maps_fd, 0, SEEK_SET) != 0)
		return -1;
	for (;;) {
		if (n == MAPS_BYTES - 1)
			return -1;
		ssize_t k = read(ctl->maps_fd, ctl->maps + n, MAPS_BYTES - 1 - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		n += (size_t)k;
	}
	ctl->maps[n] = 0;
	ctl->ncur = 0;
	const char *p = ctl->maps;
	while (*p) {
		struct region r = { 0 };
		r.start = (uintptr_t)hex(&p);
		if (*p++ != '-')
			return -1;
		r.end = (uintptr_t)hex(&p);
		if (*p++ != ' ')
			return -1;
		const char *perm = p;
		p += 4;
		if (*p++ != ' ')
			return -1;
		r.prot = (perm[0] == 'r' ? PROT_READ : 0) | (perm[1] == 'w' ? PROT_WRITE : 0) |
			 (perm[2] == 'x' ? PROT_EXEC : 0);
		r.off = hex(&p);
		p++;
		hex(&p); /* device: major */
		p++;
		hex(&p); /* minor */
		p++;
		r.ino = dec(&p);
		while (*p == ' ')
			p++;
		const char *path = p;
		while (*p && *p != '\n')
			p++;
		size_t plen = (size_t)(p - path);
		if (*p)
			p++;
		if (perm[3] != 'p')
			continue; /* shared: the same in every snapshot, not copied */
		if (plen && path[0] == '[') {
			if (plen == 6 && !memcmp(path, "[heap]", 6))
				r.kind = 'H';
			else if (plen == 7 && !memcmp(path, "[stack]", 7))
				r.kind = 'S';
			else if (plen > 6 && !memcmp(path, "[anon:", 6))
				r.kind = 'A';
			else
				continue; /* [vdso], [vvar], [vsyscall], [uprobes]: the kernel's */
		} else {
			r.kind = r.ino || plen ? 'F' : 'A';
		}
		if (!add_outside_excl(r))
			return -1;
	}
	return 0;
}

/* ---- blocks ---- */

static char *block(uint32_t b)
{
	return ctl->store + (size_t)(b - 1) * PAGE;
}

static uint32_t *refcount(uint32_t b)
{
	return &ctl->refs[b - 1];
}

/* ---- the helper: a thread of this process that runs no libc (it shares
 * the main thread's thread pointer, so errno is not its own) ---- */

#if defined(__x86_64__)
#define HAVE_HELPER 1
static long raw4(long n, long a, long b, long c, long d)
{
	long r;
	register long r10 __asm__("r10") = d;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
	return r;
}

static int helper_main(void *arg)
{
	(void)arg;
	for (;;) {
		uint32_t want = atomic_load(&ctl->want);
		uint32_t c = atomic_load(&ctl->claimed);
		if (c >= want) {
			atomic_fetch_add(&ctl->helper_waits, 1);
			raw4(SYS_futex, (long)&ctl->want, FUTEX_WAIT_PRIVATE, (long)want, 0);
			continue;
		}
		if (!atomic_compare_exchange_weak(&ctl->claimed, &c, c + CHUNK))
			continue;
		/* written, not populated: MADV_POPULATE_WRITE leaves the host's
		 * part of the fault to the first write */
		volatile char *p = ctl->store + (size_t)c * PAGE;
		for (uint32_t i = 0; i < CHUNK; i++)
			p[(size_t)i * PAGE] = 0;
		atomic_store(&ctl->ready[c / CHUNK], 1);
	}
	return 0;
}
#else
#define HAVE_HELPER 0
#endif

/* the main thread is about to use block b (1-based) for the first time:
 * its chunk is ready, or claimed by this thread (then its first write is
 * the fault) */
static void chunk_enter(uint32_t b)
{
	uint32_t k = (b - 1) / CHUNK;
	if ((b - 1) % CHUNK)
		return;
	uint32_t c = k * CHUNK;
	if (!ctl->helper || atomic_compare_exchange_strong(&ctl->claimed, &c, c + CHUNK))
		return;
	while (!atomic_load(&ctl->ready[k]))
		sched_yield();
}

/* the helper readies blocks up to twice the largest snapshot (or the
 * process, snap_expect()) ahead */
static void helper_ahead(void)
{
	if (!ctl->helper)
		return;
	uint64_t w = (uint64_t)ctl->fresh + 2u * (ctl->largest > CHUNK ? ctl->largest : CHUNK);
	if (w > ctl->nblocks)
		w = ctl->nblocks / CHUNK * CHUNK;
	if (w > atomic_load(&ctl->want)) {
		atomic_store(&ctl->want, (uint32_t)w);
		syscall(SYS_futex, &ctl->want, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
}

void snap_expect(size_t bytes)
{
	if (!ctl)
		return;
	/* the blocks the helper has written are the process's too */
	size_t mine = (size_t)atomic_load(&ctl->claimed) * PAGE;
	size_t pages = bytes > mine ? (bytes - mine) / PAGE : 0;
	if (pages > ctl->largest) {
		ctl->largest = pages < ctl->nblocks ? (uint32_t)pages : ctl->nblocks;
		helper_ahead();
	}
}

static uint32_t block_new(void)
{
	uint32_t b = ctl->free_head;
	if (b) {
		memcpy(&ctl->free_head, block(b), sizeof(uint32_t));
	} else {
		if (ctl->fresh == ctl->nblocks)
			return 0;
		b = ++ctl->fresh;
		chunk_enter(b);
	}
	*refcount(b) = 1;
	ctl->used++;
	return b;
}

static void block_put(uint32_t b)
{
	if (b && !--*refcount(b)) {
		memcpy(block(b), &ctl->free_head, sizeof(uint32_t));
		ctl->free_head = b;
		ctl->used--;
	}
}

/* ---- the index ---- */

static int find(unsigned long pos)
{
	for (int i = 0; i < SNAP_MAX; i++)
		if (ctl->snap[i].used && ctl->snap[i].pos == pos)
			return i;
	return -1;
}

static void release(struct snap *s)
{
	for (size_t i = 0; i < s->npages; i++)
		block_put(s->page[i]);
	if (s->meta) {
		excl_remove((uintptr_t)s->meta);
		munmap(s->meta, s->metalen);
	}
	s->meta = NULL;
	s->npages = 0;
	s->used = false;
}

void snap_drop(unsigned long pos)
{
	if (!ctl)
		return;
	int i = find(pos);
	if (i < 0)
		return;
	release(&ctl->snap[i]);
	if (ctl->ref == i)
		ctl->ref = -1;
}

size_t snap_list(char kind, struct snap_at *out, size_t max)
{
	struct snap_at all[SNAP_MAX];
	size_t n = 0;
	if (!ctl)
		return 0;
	for (int i = 0; i < SNAP_MAX; i++) {
		const struct snap *s = &ctl->snap[i];
		if (!s->used || (kind && s->kind != kind))
			continue;
		size_t j = n++;
		while (j && all[j - 1].pos > s->pos) {
			all[j] = all[j - 1];
			j--;
		}
		all[j] = (struct snap_at){ s->kind, s->pos, s->line };
	}
	memcpy(out, all, (n < max ? n : max) * sizeof(all[0]));
	return n;
}

size_t snap_bytes(void)
{
	return ctl ? ctl->used * PAGE : 0;
}

size_t snap_budget(void)
{
	return ctl ? ctl->budget : 0;
}

char *snap_carry(size_t *cap)
{
	if (!ctl)
		return NULL;
	*cap = sizeof(ctl->carry);
	return ctl->carry;
}

/* ---- taking ---- */

/* the block of the reference snapshot's page at address a, 0 if none */
static uint32_t ref_block(uintptr_t a)
{
	if (ctl->ref < 0)
		return 0;
	const struct snap *s = &ctl->snap[ctl->ref];
	uint32_t lo = 0, hi = s->nreg;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		const struct region *r = &s->reg[mid];
		if (a < r->start)
			hi = mid;
		else if (a >= r->end)
			lo = mid + 1;
		else
			return r->prot & PROT_WRITE ? s->page[r->first + (a - r->start) / PAGE] : 0;
	}
	return 0;
}

/* the descriptors open now: the offsets of the regular files among them
 * (getdents64 on a descriptor kept open: no allocation) */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* fn(fd) for each descriptor open now but this module's own */
static int each_fd(void (*fn)(int fd, void *arg), void *arg)
{
	if (lseek(ctl->fd_dir, 0, SEEK_SET) != 0)
		return -1;
	char *buf = ctl->maps; /* free between uses */
	for (;;) {
		long n = syscall(SYS_getdents64, ctl->fd_dir, buf, (size_t)MAPS_BYTES);
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		for (long o = 0; o < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + o);
			o += d->d_reclen;
			const char *q = d->d_name;
			if (*q < '0' || *q > '9')
				continue;
			uint64_t fd = dec(&q);
			if (fd > 1 << 20 || (int)fd == ctl->maps_fd || (int)fd == ctl->pagemap_fd ||
			    (int)fd == ctl->fd_dir)
				continue;
			fn((int)fd, arg);
		}
	}
}

static void note_fd(int fd, void *arg)
{
	struct snap *s = arg;
	if (fd < FD_WORDS * 64)
		s->fdset[fd / 64] |= (uint64_t)1 << (fd % 64);
	if (fd < 3 || s->nfd == MAX_FDS)
		return;
	off_t off = lseek(fd, 0, SEEK_CUR);
	int fl = fcntl(fd, F_GETFL);
	if (off >= 0 && fl >= 0 && !(fl & O_APPEND)) {
		s->fd[s->nfd] = fd;
		s->off[s->nfd] = off;
		s->nfd++;
	}
}

/* pagemap entries of the pages [a, a + n pages) into ctl->pm (n <= 512) */
static bool present_bits(uintptr_t a, size_t n)
{
	size_t want = n * sizeof(uint64_t);
	ssize_t k = pread(ctl->pagemap_fd, ctl->pm, want, (off_t)(a / PAGE * sizeof(uint64_t)));
	return k == (ssize_t)want;
}

/* the memory of the process into s: 0, or -1 (ENOMEM) with nothing kept */
static int capture(struct snap *s)
{
	memset(s->fdset, 0, sizeof(s->fdset));
	s->nfd = 0;
	if (each_fd(note_fd, s) || read_maps())
		return -1;
	s->brk = (uintptr_t)syscall(SYS_brk, 0);
	size_t npages = 0;
	for (uint32_t i = 0; i < ctl->ncur; i++) {
		const struct region *r = &ctl->cur[i];
		if (r->end - r->start > MAX_MAPPING && (r->prot & PROT_WRITE)) {
			errno = EFBIG;
			return -1;
		}
		if (r->prot & PROT_WRITE)
			npages += (r->end - r->start) / PAGE;
	}
	size_t metalen = ctl->ncur * sizeof(struct region) + npages * sizeof(uint32_t);
	metalen = (metalen + PAGE - 1) / PAGE * PAGE;
	void *meta = mmap(NULL, metalen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (meta == MAP_FAILED)
		return -1;
	if (!excl_add((uintptr_t)meta, (uintptr_t)meta + metalen)) {
		munmap(meta, metalen);
		errno = ENOMEM;
		return -1;
	}
	s->meta = meta;
	s->metalen = metalen;
	s->nreg = ctl->ncur;
	s->reg = meta;
	s->page = (uint32_t *)(s->reg + s->nreg);
	s->npages = 0;
	memcpy(s->reg, ctl->cur, ctl->ncur * sizeof(struct region));
	for (uint32_t i = 0; i < s->nreg; i++) {
		struct region *r = &s->reg[i];
		r->first = (uint32_t)s->npages;
		if (!(r->prot & PROT_WRITE))
			continue;
		bool anon = r->kind != 'F';
		for (uintptr_t a = r->start; a < r->end; a += (uintptr_t)CHUNK * PAGE) {
			size_t n = (r->end - a) / PAGE < CHUNK ? (r->end - a) / PAGE : CHUNK;
			if (anon && !present_bits(a, n))
				anon = false; /* then read them all */
			for (size_t j = 0; j < n; j++) {
				const char *m = (const char *)(a + j * PAGE);
				uint32_t b = 0;
				/* bit 63 present, 62 swapped */
				if (!anon || (ctl->pm[j] >> 62)) {
					uint32_t rb = ref_block((uintptr_t)m);
					if (rb && !memcmp(block(rb), m, PAGE)) {
						b = rb;
						(*refcount(b))++;
					} else {
						b = block_new();
						if (!b) {
							release(s);
							errno = ENOMEM;
							return -1;
						}
						memcpy(block(b), m, PAGE);
					}
				}
				s->page[s->npages++] = b;
			}
		}
	}
	return 0;
}

int snap_take(char kind, unsigned long pos, unsigned long line, uint64_t *cost_ns, const void **msg,
	      size_t *len)
{
	if (!ctl) {
		errno = ENOSYS;
		return -1;
	}
	if (find(pos) >= 0) {
		errno = EEXIST;
		return -1;
	}
	int i = 0;
	while (i < SNAP_MAX && ctl->snap[i].used)
		i++;
	if (i == SNAP_MAX) {
		errno = ENOMEM;
		return -1;
	}
	uint64_t t0 = cpu_now();
	struct snap *s = &ctl->snap[i];
	ctl->resuming = 0;
	ctl->target = i;
	if (getcontext(&s->uc))
		return -1;
	if (ctl->resuming) {
		/* restored: the memory is this snapshot's again */
		ctl->resuming = 0;
		*msg = ctl->msg;
		*len = ctl->msglen;
		return 1;
	}
	if (capture(s))
		return -1;
	s->kind = kind;
	s->pos = pos;
	s->line = line;
	s->used = true;
	ctl->ref = ctl->target;
	if (s->npages > ctl->largest)
		ctl->largest = (uint32_t)s->npages;
	helper_ahead();
	*cost_ns = cpu_now() - t0;
	return 0;
}

/* ---- restoring ---- */

/* a restore that changed the process and cannot finish: it cannot go on */
static _Noreturn void broken(const char *what)
{
	static const char a[] = "vmsim: a snapshot could not be restored (";
	ssize_t w = write(2, a, sizeof(a) - 1);
	w = write(2, what, strlen(what));
	w = write(2, ")\n", 2);
	(void)w;
	_exit(3);
}

/* the region of s (of a kind that is not a file's) holding a, or NULL;
 * *next the start of the first one after a */
static const struct region *anon_at(const struct snap *s, uintptr_t a, uintptr_t *next)
{
	*next = UINTPTR_MAX;
	for (uint32_t i = 0; i < s->nreg; i++) {
		const struct region *r = &s->reg[i];
		if (r->kind != 'A' && r->kind != 'H')
			continue;
		if (a >= r->start && a < r->end)
			return r;
		if (r->start > a && r->start < *next)
			*next = r->start;
	}
	return NULL;
}

static bool same_file(const struct region *a, const struct region *b)
{
	return a->start == b->start && a->end == b->end && a->prot == b->prot && a->ino == b->ino &&
	       a->off == b->off;
}

/* the file mapping of s that is r exactly */
static bool has_file(const struct snap *s, const struct region *r)
{
	for (uint32_t i = 0; i < s->nreg; i++)
		if (s->reg[i].kind == 'F' && same_file(&s->reg[i], r))
			return true;
	return false;
}

struct fdclose {
	const struct snap *s;
};

static void close_new(int fd, void *arg)
{
	const struct snap *s = arg;
	bool was = fd < FD_WORDS * 64 && (s->fdset[fd / 64] >> (fd % 64) & 1);
	if (!was && fd > 2)
		close(fd);
}

static void restorer(void)
{
	struct snap *s = &ctl->snap[ctl->target];
	/* what cannot be made again: the files mapped then, the break */
	if (read_maps())
		setcontext(&ctl->back);
	for (uint32_t i = 0; i < s->nreg; i++) {
		const struct region *r = &s->reg[i];
		if (r->kind != 'F')
			continue;
		bool found = false;
		for (uint32_t j = 0; j < ctl->ncur && !found; j++)
			found = ctl->cur[j].kind == 'F' && same_file(&ctl->cur[j], r);
		if (!found)
			setcontext(&ctl->back);
	}
	if ((uintptr_t)syscall(SYS_brk, s->brk) != s->brk)
		setcontext(&ctl->back);
	/* from here on the process is changed */
	if (read_maps())
		broken("reading /proc/self/maps");
	/* unmap what was not there, protect again what was protected
	 * otherwise (emptied when it was not writable: memory given back,
	 * and read as zero when made writable again, as it was) */
	for (uint32_t i = 0; i < ctl->ncur; i++) {
		const struct region *c = &ctl->cur[i];
		if (c->kind == 'S')
			continue;
		if (c->kind == 'F') {
			if (!has_file(s, c) && munmap((void *)c->start, c->end - c->start))
				broken("munmap");
			continue;
		}
		for (uintptr_t a = c->start; a < c->end;) {
			uintptr_t next;
			const struct region *r = anon_at(s, a, &next);
			if (!r) {
				uintptr_t b = next < c->end ? next : c->end;
				if (munmap((void *)a, b - a))
					broken("munmap");
				a = b;
				continue;
			}
			uintptr_t b = r->end < c->end ? r->end : c->end;
			if (r->prot != c->prot) {
				if (mprotect((void *)a, b - a, r->prot))
					broken("mprotect");
				if (!(r->prot & PROT_WRITE) && madvise((void *)a, b - a, MADV_DONTNEED))
					broken("madvise");
			}
			a = b;
		}
	}
	/* map again what was unmapped since */
	if (read_maps())
		broken("reading /proc/self/maps");
	for (uint32_t i = 0; i < s->nreg; i++) {
		const struct region *r = &s->reg[i];
		if (r->kind != 'A' && r->kind != 'H')
			continue;
		uintptr_t a = r->start;
		for (uint32_t j = 0; j < ctl->ncur && a < r->end; j++) {
			const struct region *c = &ctl->cur[j];
			if (c->end <= a || c->start >= r->end)
				continue;
			if (c->start > a &&
			    mmap((void *)a, c->start - a, r->prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE,
				 -1, 0) != (void *)a)
				broken("mmap");
			a = c->end;
		}
		if (a < r->end && mmap((void *)a, r->end - a, r->prot,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0) != (void *)a)
			broken("mmap");
	}
	/* the contents */
	for (uint32_t i = 0; i < s->nreg; i++) {
		const struct region *r = &s->reg[i];
		if (!(r->prot & PROT_WRITE))
			continue;
		size_t n = (r->end - r->start) / PAGE;
		const uint32_t *pg = s->page + r->first;
		for (size_t j = 0; j < n;) {
			char *m = (char *)(r->start + j * PAGE);
			if (pg[j]) {
				memcpy(m, block(pg[j]), PAGE);
				j++;
				continue;
			}
			size_t k = j;
			while (k < n && !pg[k])
				k++;
			if (madvise(m, (k - j) * PAGE, MADV_DONTNEED))
				broken("madvise");
			j = k;
		}
	}
	/* the descriptors */
	if (each_fd(close_new, s))
		broken("reading /proc/self/fd");
	for (int i = 0; i < s->nfd; i++)
		lseek(s->fd[i], s->off[i], SEEK_SET);
	ctl->ref = ctl->target;
	ctl->resuming = 1;
	setcontext(&s->uc);
	broken("setcontext");
}

int snap_restore(unsigned long pos, const void *msg, size_t len)
{
	if (!ctl || len > SNAP_MSG_MAX)
		return -1;
	int i = find(pos);
	if (i < 0)
		return -1;
	memcpy(ctl->msg, msg, len);
	ctl->msglen = len;
	ctl->target = i;
	if (getcontext(&ctl->rc))
		return -1;
	ctl->rc.uc_stack.ss_sp = ctl->stack;
	ctl->rc.uc_stack.ss_size = sizeof(ctl->stack);
	ctl->rc.uc_link = NULL;
	makecontext(&ctl->rc, restorer, 0);
	if (swapcontext(&ctl->back, &ctl->rc))
		return -1;
	/* back here: the restore found it could not, and changed nothing */
	return -1;
}

/* ---- setting up ---- */

bool snap_init(size_t budget, const char **why)
{
	if (ctl)
		return true;
#if defined(__SANITIZE_ADDRESS__)
	*why = "built with AddressSanitizer";
	return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
	*why = "built with a sanitizer";
	return false;
#endif
#endif
	const char *pre = getenv("LD_PRELOAD");
	if (pre && strstr(pre, "vgpreload")) {
		*why = "running under valgrind";
		return false;
	}
	size_t len = (sizeof(struct control) + PAGE - 1) / PAGE * PAGE;
	struct control *c = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c == MAP_FAILED) {
		*why = "no memory for the index";
		return false;
	}
	c->maps_fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	c->pagemap_fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	c->fd_dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->maps_fd < 0 || c->pagemap_fd < 0 || c->fd_dir < 0) {
		if (c->maps_fd >= 0)
			close(c->maps_fd);
		if (c->pagemap_fd >= 0)
			close(c->pagemap_fd);
		if (c->fd_dir >= 0)
			close(c->fd_dir);
		munmap(c, len);
		*why = "no /proc/self/maps, pagemap or fd";
		return false;
	}
	c->budget = budget / PAGE * PAGE;
	c->nblocks = (uint32_t)(budget / PAGE < UINT32_MAX - CHUNK ? budget / PAGE : UINT32_MAX - CHUNK) / CHUNK * CHUNK;
	size_t store_len = (size_t)c->nblocks * PAGE;
	size_t aux_len = ((size_t)c->nblocks * sizeof(uint32_t) + c->nblocks / CHUNK + PAGE) / PAGE * PAGE;
	c->store = store_len ? mmap(NULL, store_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
			     : MAP_FAILED;
	void *aux = mmap(NULL, aux_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c->store == MAP_FAILED || aux == MAP_FAILED) {
		if (c->store != MAP_FAILED)
			munmap(c->store, store_len);
		if (aux != MAP_FAILED)
			munmap(aux, aux_len);
		close(c->maps_fd);
		close(c->pagemap_fd);
		close(c->fd_dir);
		munmap(c, len);
		*why = "no address space for the storage";
		return false;
	}
	c->refs = aux;
	c->ready = (_Atomic unsigned char *)(c->refs + c->nblocks);
	c->ref = -1;
	ctl = c;
	excl_add((uintptr_t)c, (uintptr_t)c + len);
	excl_add((uintptr_t)c->store, (uintptr_t)c->store + store_len);
	excl_add((uintptr_t)aux, (uintptr_t)aux + aux_len);
#if HAVE_HELPER
	/* every signal blocked in it: the thread it inherits the mask of */
	const char *h = getenv("VMSIM_SNAPSHOT_HELPER");
	if (!h || strcmp(h, "0")) {
		sigset_t all, old;
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		int t = clone(helper_main, c->helper_stack + sizeof(c->helper_stack),
			      CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		c->helper = t > 0;
	}
#endif
	return true;
}
