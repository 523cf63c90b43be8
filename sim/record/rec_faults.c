/* rec_faults.c - page faults from perf events.  See record.h, section "rec_faults". */
#include "alloc.h"
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/capability.h>
#if __has_include(<linux/io_uring.h>)
#include <linux/io_uring.h>
#define HAVE_IO_URING_H 1
#endif
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { EV_MIN, EV_MAJ, EV_TP_USER, EV_TP_KERNEL, EV_EVICT, NEV };

#define RB_PAGES 1024 /* 4 MiB of samples per event and CPU between two drains */
#define MAXCPU 256

struct sample {
	uint64_t time, addr, error_code; /* EV_EVICT: addr = ino, error_code = index */
	uint32_t dev, order;
	uint32_t tid, pid;  /* thread, and its thread group (the mm) */
	unsigned char kind; /* EV_* */
};

/* a completed fault, to tell a fault that raced with another thread's */
struct done {
	uint64_t entry, end, page;
	uint32_t tid, pid;
};
#define NDONE 64
/* entry samples kept waiting for their accounting, over all threads */
#define TP_PENDING_MAX 4096

/* An inherited event cannot be mapped per task (kernel/events/core.c:
 * perf_mmap() refuses cpu == -1 with inherit), so each is opened once per
 * CPU: fd[kind * ncpu + cpu]. */
struct rec_faults {
	int ncpu;
	int fd[NEV * MAXCPU];
	void *rb[NEV * MAXCPU];
	size_t rblen;
	unsigned long lost;
	struct sample *s;    /* samples read, not yet written */
	size_t ns, caps;
	/* the entry tracepoint samples no MIN/MAJ has consumed yet, in time
	 * order: a flush may read a thread's next entries before their
	 * accounting samples (its rings are read one after the other) */
	struct sample *tp;
	size_t ntp, captp;
	rec_traced_fn traced; /* non-NULL: evictions by a traced task are not written */
	struct done done[NDONE];
	unsigned ndone;
	bool probed;      /* gift_in_locked_vm() asked */
	int gift_charged; /* its answer */
};

static long perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static long tracepoint_id(const char *name)
{
	char path[160];
	const char *roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/id", roots[i], name);
		FILE *f = fopen(path, "r");
		if (!f && i == 0 && errno == ENOENT && geteuid() == 0) {
			/* tracefs not mounted: mount it where the kernel expects it */
			mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
			f = fopen(path, "r");
		}
		if (f) {
			long id = -1;
			if (fscanf(f, "%ld", &id) != 1)
				id = -1;
			fclose(f);
			return id;
		}
	}
	return -1;
}

static unsigned long perf_gift(const struct rec_faults *rf)
{
	/* kernel/events/core.c:perf_mmap() @ v6.18: each buffer's pages and
	 * its header page go to the user's locked_vm up to perf_event_mlock_kb
	 * per online CPU, the rest to the recorder's pinned_vm */
	unsigned long pages = 0, limit = 516 / 4;
	for (int j = 0; j < NEV * MAXCPU; j++)
		if (rf->rb[j])
			pages += rf->rblen / (size_t)sysconf(_SC_PAGESIZE);
	FILE *f = fopen("/proc/sys/kernel/perf_event_mlock_kb", "r");
	unsigned long kb;
	if (f && fscanf(f, "%lu", &kb) == 1)
		limit = kb / 4;
	if (f)
		fclose(f);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	limit *= (unsigned long)(cpus > 0 ? cpus : 1);
	return pages < limit ? pages : limit;
}

/* Whether the perf buffers' gift of `pages` is in the user's locked_vm,
 * the counter io_uring charges (kernel/events/core.c:perf_mmap() @ v6.18
 * adds it to user->locked_vm; 6.1.191+ keeps it in user->perf_mlock, "perf:
 * Track the perf mlock gift separately").  Nothing shows either counter,
 * so a child of the same user asks io_uring: without CAP_IPC_LOCK and with
 * RLIMIT_MEMLOCK of exactly `pages`, a ring (charged 6.13+) and a one-page
 * buffer (io_uring/rsrc.c:__io_account_mem()) fit only if the gift is
 * elsewhere.  1: charged, 0: not, -1: unknown (no gift, or no io_uring
 * here: then no trace of this kernel can depend on it; the header keeps
 * the gift as 6.18 charges it). */
static int gift_in_locked_vm(unsigned long pages)
{
#if !defined(HAVE_IO_URING_H) || !defined(SYS_io_uring_setup) || !defined(SYS_io_uring_register)
	(void)pages;
	return -1; /* built without io_uring: unknown */
#else
	if (!pages)
		return -1;
	pid_t c = fork();
	if (c < 0)
		return -1;
	if (c == 0) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		if (syscall(SYS_capget, &h, d))
			_exit(2);
		d[0].effective &= ~(1u << CAP_IPC_LOCK);
		struct rlimit rl = { pages * (rlim_t)sysconf(_SC_PAGESIZE),
				     pages * (rlim_t)sysconf(_SC_PAGESIZE) };
		if (syscall(SYS_capset, &h, d) || setrlimit(RLIMIT_MEMLOCK, &rl))
			_exit(2);
		struct io_uring_params params;
		memset(&params, 0, sizeof(params));
		long fd = syscall(SYS_io_uring_setup, 1, &params);
		if (fd < 0)
			_exit(errno == ENOMEM ? 1 : 2);
		void *buf = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (buf == MAP_FAILED)
			_exit(2);
		struct iovec iov = { buf, (size_t)sysconf(_SC_PAGESIZE) };
		if (syscall(SYS_io_uring_register, fd, IORING_REGISTER_BUFFERS, &iov, 1))
			_exit(errno == ENOMEM ? 1 : 2);
		/* the charge goes back now (io_sqe_buffers_unregister() @ v6.1
		 * unaccounts before it returns), not when the ring is freed by
		 * a worker after exit, so the tracee does not meet it */
		syscall(SYS_io_uring_register, fd, IORING_UNREGISTER_BUFFERS, NULL, 0);
		_exit(0);
	}
	int st;
	while (waitpid(c, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st) > 1)
		return -1;
	return WEXITSTATUS(st) == 1;
#endif
}

unsigned long rec_faults_user_locked(struct rec_faults *rf)
{
	unsigned long gift = perf_gift(rf);
	if (!rf->probed) {
		rf->gift_charged = gift_in_locked_vm(gift);
		rf->probed = true;
	}
	return rf->gift_charged == 0 ? 0 : gift;
}

bool rec_faults_gift_apart(const struct rec_faults *rf)
{
	return rf->probed && rf->gift_charged == 0;
}

struct rec_faults *rec_faults_open(pid_t pid, char *why, size_t whylen)
{
	struct rec_faults *rf = vm_calloc(1, sizeof(*rf));
	if (!rf) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	rf->ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (rf->ncpu < 1 || rf->ncpu > MAXCPU)
		rf->ncpu = rf->ncpu < 1 ? 1 : MAXCPU;
	for (int i = 0; i < NEV * MAXCPU; i++)
		rf->fd[i] = -1;
	rf->rblen = (size_t)(RB_PAGES + 1) * (size_t)sysconf(_SC_PAGESIZE);
	long tpu = tracepoint_id("exceptions/page_fault_user");
	long tpk = tracepoint_id("exceptions/page_fault_kernel");
	long tpe = tracepoint_id("filemap/mm_filemap_delete_from_page_cache");
	if (tpu < 0 || tpk < 0) {
		snprintf(why, whylen, "the tracepoints exceptions:page_fault_user/kernel are not "
			 "available (tracefs at /sys/kernel/tracing, root, CONFIG_TRACING): the access "
			 "type of a fault cannot be recorded");
		rec_faults_close(rf);
		return NULL;
	}
	for (int j = 0; j < NEV * rf->ncpu; j++) {
		int i = j / rf->ncpu, cpu = j % rf->ncpu;
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		if (i == EV_MIN || i == EV_MAJ) {
			a.type = PERF_TYPE_SOFTWARE;
			a.config = i == EV_MIN ? PERF_COUNT_SW_PAGE_FAULTS_MIN : PERF_COUNT_SW_PAGE_FAULTS_MAJ;
			a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR;
		} else {
			a.type = PERF_TYPE_TRACEPOINT;
			a.config = (uint64_t)(i == EV_TP_USER ? tpu : i == EV_TP_KERNEL ? tpk : tpe);
			a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
		}
		a.sample_period = 1;
		if (i != EV_EVICT) {
			a.inherit = 1;
			a.enable_on_exec = 1;
			a.disabled = 1;
		}
		a.use_clockid = 1;
		a.clockid = CLOCK_MONOTONIC;
		a.wakeup_watermark = (uint32_t)(rf->rblen / 2);
		a.watermark = 1;
		if (i == EV_EVICT && tpe < 0)
			continue; /* no such tracepoint: evictions go unseen */
		rf->fd[j] = (int)perf_open(&a, i == EV_EVICT ? -1 : pid, cpu);
		if (rf->fd[j] < 0 && i == EV_EVICT)
			continue;
		if (rf->fd[j] < 0) {
			int e = errno;
			snprintf(why, whylen, "perf_event_open(%s) refused: %s%s",
				 i < 2 ? "page-faults" : "exceptions tracepoint", strerror(e),
				 e == EACCES || e == EPERM
					 ? " (run as root, or lower /proc/sys/kernel/perf_event_paranoid to -1)"
					 : "");
			rec_faults_close(rf);
			return NULL;
		}
		rf->rb[j] = mmap(NULL, rf->rblen, PROT_READ | PROT_WRITE, MAP_SHARED, rf->fd[j], 0);
		if (rf->rb[j] == MAP_FAILED) {
			rf->rb[j] = NULL;
			snprintf(why, whylen, "mmap of the perf ring buffer failed: %s (perf_event_mlock_kb)",
				 strerror(errno));
			rec_faults_close(rf);
			return NULL;
		}
	}
	return rf;
}

static int push(struct sample **v, size_t *n, size_t *cap, const struct sample *s)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		struct sample *w = vm_realloc(*v, nc * sizeof(*w));
		if (!w)
			return -1;
		*v = w;
		*cap = nc;
	}
	(*v)[(*n)++] = *s;
	return 0;
}

static void read_ring(struct rec_faults *rf, int j)
{
	int i = j / rf->ncpu;
	struct perf_event_mmap_page *mp = rf->rb[j];
	if (!mp || rf->fd[j] < 0)
		return;
	unsigned char *data = (unsigned char *)mp + mp->data_offset;
	uint64_t size = mp->data_size;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE), tail = mp->data_tail;
	unsigned char rec[512];
	while (tail < head) {
		struct perf_event_header h;
		for (size_t k = 0; k < sizeof(h); k++)
			((unsigned char *)&h)[k] = data[(tail + k) % size];
		if (h.size < sizeof(h) || h.size > sizeof(rec))
			break;
		for (size_t k = 0; k < h.size; k++)
			rec[k] = data[(tail + k) % size];
		tail += h.size;
		if (h.type == PERF_RECORD_LOST) {
			uint64_t n;
			memcpy(&n, rec + sizeof(h) + 8, 8);
			rf->lost += n;
			continue;
		}
		if (h.type != PERF_RECORD_SAMPLE)
			continue;
		struct sample s = { 0, 0, 0, 0, 0, 0, 0, (unsigned char)i };
		const unsigned char *p = rec + sizeof(h);
		uint32_t pidtid[2];
		memcpy(pidtid, p, 8);
		s.pid = pidtid[0];
		s.tid = pidtid[1];
		memcpy(&s.time, p + 8, 8);
		if (i == EV_MIN || i == EV_MAJ) {
			memcpy(&s.addr, p + 16, 8);
		} else if (i == EV_EVICT) {
			/* pfn, i_ino, index, s_dev, order after the common fields */
			unsigned char order;
			memcpy(&s.addr, p + 20 + 16, 8);
			memcpy(&s.error_code, p + 20 + 24, 8);
			memcpy(&s.dev, p + 20 + 32, 4);
			memcpy(&order, p + 20 + 36, 1);
			s.order = order;
		} else {
			/* RAW: u32 size, then the tracepoint record: common fields
			 * (8 bytes), address, ip, error_code */
			memcpy(&s.addr, p + 20 + 8, 8);
			memcpy(&s.error_code, p + 20 + 24, 8);
		}
		push(&rf->s, &rf->ns, &rf->caps, &s);
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

/* Every ring of every event and CPU, into rf->s. */
static void read_rings(struct rec_faults *rf)
{
	for (int j = 0; j < NEV * rf->ncpu; j++)
		read_ring(rf, j);
}

static int by_time(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* the tracepoint fires before the accounting of the same fault */
	return (int)y->kind - (int)x->kind;
}

static uint64_t fault_key(const struct sample *s)
{
	return (s->addr ^ ((uint64_t)s->tid << 47) ^ ((uint64_t)s->tid >> 17)) * 0x9E3779B97F4A7C15ull;
}

/* Whether some fault's accounting sample has no entry tracepoint sample
 * among those read (pending per thread, or still in rf->s): one pass with
 * a hash set of the entries (-1 when it cannot be built: then no waiting). */
static int entry_missing(const struct rec_faults *rf)
{
	size_t nent = rf->ntp, nacc = 0;
	for (size_t i = 0; i < rf->ns; i++) {
		if (rf->s[i].kind == EV_TP_USER || rf->s[i].kind == EV_TP_KERNEL)
			nent++;
		else if (rf->s[i].kind == EV_MIN || rf->s[i].kind == EV_MAJ)
			nacc++;
	}
	if (!nacc)
		return 0;
	size_t cap = 16;
	while (cap < 2 * nent + 2)
		cap *= 2;
	struct sample **set = vm_calloc(cap, sizeof(*set));
	if (!set)
		return -1;
	for (size_t i = 0; i < rf->ntp + rf->ns; i++) {
		struct sample *e = i < rf->ntp ? &rf->tp[i] : &rf->s[i - rf->ntp];
		if (i >= rf->ntp && e->kind != EV_TP_USER && e->kind != EV_TP_KERNEL)
			continue;
		size_t h = fault_key(e) & (cap - 1);
		while (set[h])
			h = (h + 1) & (cap - 1);
		set[h] = e;
	}
	int missing = 0;
	for (size_t i = 0; i < rf->ns && !missing; i++) {
		const struct sample *s = &rf->s[i];
		if (s->kind != EV_MIN && s->kind != EV_MAJ)
			continue;
		size_t h = fault_key(s) & (cap - 1);
		bool found = false;
		for (; set[h] && !found; h = (h + 1) & (cap - 1))
			found = set[h]->tid == s->tid && set[h]->addr == s->addr;
		missing = !found;
	}
	free(set);
	return missing;
}

/* A thread's faults are sequential: once the accounting sample of its
 * fault at index k is seen, its entries before k were faults that were
 * never accounted (a spurious or fixed-up fault) and will not be matched.
 * Drops entry k and those; keeps the others in order. */
static void take_entry(struct rec_faults *rf, size_t k)
{
	uint32_t tid = rf->tp[k].tid;
	size_t kept = 0;
	for (size_t i = 0; i < rf->ntp; i++)
		if (i > k || rf->tp[i].tid != tid)
			rf->tp[kept++] = rf->tp[i];
	rf->ntp = kept;
}

void rec_faults_skip_own_evictions(struct rec_faults *rf, rec_traced_fn traced)
{
	if (rf)
		rf->traced = traced;
}

void rec_faults_flush(struct rec_faults *rf, rec_sink_fn sink, rec_path_fn path_of, void *ctx)
{
	if (!rf)
		return;
	read_rings(rf);
	/* A fault's entry tracepoint is written to the ring of the CPU it
	 * entered on, its accounting to the one it left on; in a QEMU guest
	 * the first may show up a little later than the second (seen on
	 * Debian's 6.1 under TCG: three WRITE faults in a row written as
	 * READ).  Without it the access type is unknown: read the rings
	 * again, for up to 5 ms. */
	for (int tries = 0; tries < 10 && entry_missing(rf) > 0; tries++) {
		struct timespec ts = { 0, 500000 };
		nanosleep(&ts, NULL);
		read_rings(rf);
	}
	if (rf->ns)
		qsort(rf->s, rf->ns, sizeof(*rf->s), by_time);
	size_t kept = 0;
	for (size_t i = 0; i < rf->ns; i++) {
		struct sample *s = &rf->s[i];
		if (s->kind == NEV)
			continue; /* a tracepoint sample a fault already took (below) */
		if (s->kind == EV_EVICT) {
			if (rf->traced && s->tid && rf->traced(ctx, s->tid))
				continue; /* the trace's own memcg reclaim: the model's */
			const char *path = path_of(ctx, s->dev, s->addr);
			FILE *eo = path ? sink(ctx, 0, s->time) : NULL;
			if (eo) {
				fprintf(eo, "evict(\"");
				for (const char *c = path; *c; c++)
					fprintf(eo, (*c == '"' || *c == '\\') ? "\\%c" : "%c", *c);
				fprintf(eo, "\", %" PRIu64 ", %u) = 0\n", s->error_code, 1u << s->order);
			}
			continue;
		}
		FILE *out = sink(ctx, s->tid, s->time);
		if (!out) {
			rf->s[kept++] = *s;
			continue;
		}
		if (s->kind == EV_TP_USER || s->kind == EV_TP_KERNEL) {
			if (rf->ntp == TP_PENDING_MAX)
				take_entry(rf, 0);
			push(&rf->tp, &rf->ntp, &rf->captp, s);
			continue;
		}
		const char *mode = "READ";
		uint64_t entry = s->time;
		bool typed = false;
		/* its entry: the thread's latest at this address that is not
		 * later than the accounting (an earlier one there was a fault
		 * never accounted), else its first there (the clocks of two
		 * CPUs disagree) */
		size_t hit = rf->ntp;
		for (size_t k = 0; k < rf->ntp; k++)
			if (rf->tp[k].tid == s->tid && rf->tp[k].addr == s->addr &&
			    (hit == rf->ntp || rf->tp[k].time <= s->time))
				hit = k;
		if (hit < rf->ntp) {
			uint64_t ec = rf->tp[hit].error_code;
			mode = (ec & 16) ? "EXEC" : (ec & 2) ? "WRITE" : "READ";
			entry = rf->tp[hit].time;
			take_entry(rf, hit);
			typed = true;
		}
		/* The fault's entry tracepoint sorted after its accounting: the
		 * clocks of two CPUs' rings disagree (seen in QEMU guests, where
		 * the thread moved between vCPUs inside the fault); it is the
		 * next tracepoint sample of this thread at this address. */
		for (size_t j = i + 1; !typed && j < rf->ns; j++) {
			struct sample *u = &rf->s[j];
			if ((u->kind == EV_TP_USER || u->kind == EV_TP_KERNEL) && u->tid == s->tid) {
				if (u->addr == s->addr) {
					uint64_t ec = u->error_code;
					mode = (ec & 16) ? "EXEC" : (ec & 2) ? "WRITE" : "READ";
					u->kind = NEV;
				}
				typed = true; /* only the thread's next fault entry can be it */
			}
		}
		/* Another thread of the same mm was handling a fault within the
		 * fault-around window (64 KiB, mm/memory.c:fault_around_bytes)
		 * when this one entered: which of the two mapped the page is a
		 * race the trace cannot order, so the result is not given. */
		uint64_t page = s->addr >> 12;
		const struct done *raced = NULL;
		for (unsigned k = 0; k < rf->ndone && k < NDONE; k++) {
			const struct done *d = &rf->done[k];
			if (d->pid == s->pid && d->tid != s->tid && d->end > entry &&
			    (d->page > page ? d->page - page : page - d->page) < 16)
				raced = d;
		}
		if (raced)
			fprintf(out, "# fault of %" PRIu32 " raced with one of thread %" PRIu32
				" on a nearby page; its kind (%s) is not checked\n",
				s->tid, raced->tid, s->kind == EV_MAJ ? "MAJOR" : "MINOR");
		fprintf(out, "%" PRIu32 "  fault(%#" PRIx64 ", %s) = %s\n", s->tid, s->addr, mode,
			raced ? "?" : s->kind == EV_MAJ ? "MAJOR" : "MINOR");
		rf->done[rf->ndone++ % NDONE] = (struct done){ entry, s->time, page, s->tid, s->pid };
	}
	rf->ns = kept;
}

size_t rec_faults_between(struct rec_faults *rf, pid_t tgid, uint64_t t0, uint64_t t1,
			  uint64_t *addr, size_t max)
{
	if (!rf)
		return 0;
	read_rings(rf);
	size_t n = 0;
	for (size_t i = 0; i < rf->ns; i++)
		if ((rf->s[i].kind == EV_MAJ || rf->s[i].kind == EV_MIN) &&
		    rf->s[i].pid == (uint32_t)tgid && rf->s[i].time >= t0 && rf->s[i].time <= t1) {
			if (n < max)
				addr[n] = rf->s[i].addr;
			n++;
		}
	return n;
}

size_t rec_faults_pending(struct rec_faults *rf, unsigned tid, uint64_t *addr, bool *major,
			  size_t max)
{
	if (!rf)
		return 0;
	read_rings(rf);
	size_t n = 0;
	for (size_t i = 0; i < rf->ns && n < max; i++)
		if ((rf->s[i].kind == EV_MAJ || rf->s[i].kind == EV_MIN) && rf->s[i].tid == tid) {
			major[n] = rf->s[i].kind == EV_MAJ;
			addr[n++] = rf->s[i].addr;
		}
	return n;
}

unsigned long rec_faults_lost(const struct rec_faults *rf)
{
	return rf ? rf->lost : 0;
}

int rec_faults_fd(const struct rec_faults *rf)
{
	return rf ? rf->fd[EV_MIN] : -1;
}

void rec_faults_close(struct rec_faults *rf)
{
	if (!rf)
		return;
	for (int j = 0; j < NEV * MAXCPU; j++) {
		if (rf->rb[j])
			munmap(rf->rb[j], rf->rblen);
		if (rf->fd[j] >= 0)
			close(rf->fd[j]);
	}
	free(rf->s);
	free(rf->tp);
	free(rf);
}
