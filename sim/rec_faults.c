/* rec_faults.c - page faults from perf events.  See rec_faults.h. */
#include "rec_faults.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { EV_MIN, EV_MAJ, EV_TP_USER, EV_TP_KERNEL, NEV };

#define RB_PAGES 1024 /* 4 MiB of samples per event and CPU between two drains */
#define MAXCPU 256

struct sample {
	uint64_t time, addr, error_code;
	uint32_t tid;
	unsigned char kind; /* EV_* */
};

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
	/* the latest tracepoint sample per tid that no MIN/MAJ has consumed */
	struct sample *tp;
	size_t ntp, captp;
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
		snprintf(path, sizeof(path), "%s/events/exceptions/%s/id", roots[i], name);
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

struct rec_faults *rec_faults_open(pid_t pid, char *why, size_t whylen)
{
	struct rec_faults *rf = calloc(1, sizeof(*rf));
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
	long tpu = tracepoint_id("page_fault_user"), tpk = tracepoint_id("page_fault_kernel");
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
			a.config = (uint64_t)(i == EV_TP_USER ? tpu : tpk);
			a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
		}
		a.sample_period = 1;
		a.inherit = 1;
		a.enable_on_exec = 1;
		a.disabled = 1;
		a.use_clockid = 1;
		a.clockid = CLOCK_MONOTONIC;
		a.wakeup_watermark = (uint32_t)(rf->rblen / 2);
		a.watermark = 1;
		rf->fd[j] = (int)perf_open(&a, pid, cpu);
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
		struct sample *w = realloc(*v, nc * sizeof(*w));
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
	if (!mp)
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
		struct sample s = { 0, 0, 0, 0, (unsigned char)i };
		const unsigned char *p = rec + sizeof(h);
		uint32_t pidtid[2];
		memcpy(pidtid, p, 8);
		s.tid = pidtid[1];
		memcpy(&s.time, p + 8, 8);
		if (i == EV_MIN || i == EV_MAJ) {
			memcpy(&s.addr, p + 16, 8);
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

static int by_time(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* the tracepoint fires before the accounting of the same fault */
	return (int)y->kind - (int)x->kind;
}

void rec_faults_flush(struct rec_faults *rf, FILE *out)
{
	if (!rf)
		return;
	for (int j = 0; j < NEV * rf->ncpu; j++)
		read_ring(rf, j);
	qsort(rf->s, rf->ns, sizeof(*rf->s), by_time);
	for (size_t i = 0; i < rf->ns; i++) {
		struct sample *s = &rf->s[i];
		if (s->kind == EV_TP_USER || s->kind == EV_TP_KERNEL) {
			size_t k;
			for (k = 0; k < rf->ntp && rf->tp[k].tid != s->tid; k++)
				;
			if (k < rf->ntp)
				rf->tp[k] = *s;
			else
				push(&rf->tp, &rf->ntp, &rf->captp, s);
			continue;
		}
		const char *mode = "READ";
		for (size_t k = 0; k < rf->ntp; k++)
			if (rf->tp[k].tid == s->tid && rf->tp[k].addr == s->addr) {
				uint64_t ec = rf->tp[k].error_code;
				mode = (ec & 16) ? "EXEC" : (ec & 2) ? "WRITE" : "READ";
				rf->tp[k] = rf->tp[--rf->ntp];
				break;
			}
		fprintf(out, "%" PRIu32 "  fault(%#" PRIx64 ", %s) = %s\n", s->tid, s->addr, mode,
			s->kind == EV_MAJ ? "MAJOR" : "MINOR");
	}
	rf->ns = 0;
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
