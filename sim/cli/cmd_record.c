/*
 * cmd_record.c - `vmsim record`: run a program under ptrace and write the
 * trace of what it did to memory, with the kernel's own answers.
 *
 * The program runs as a child (with this process's limits and
 * capabilities).  Every process and thread it makes is traced
 * (PTRACE_O_TRACEFORK/VFORK/CLONE).  At each syscall exit the calls the
 * model follows are written through the trace writer (rec_sys.c); after a
 * successful execve, the address space the kernel built (rec_proc.c:
 * inherit lines); with --faults, before each line the page faults that
 * happened since the last one (rec_faults.c); with --expect, the kernel's
 * state after the calls that lock or unlock memory (or after every memory
 * call).  Lines are in the order the tracer saw the calls return; so that
 * this is the order the calls took effect in, the memory calls of the
 * threads of one process are serialized: a thread that enters one while
 * another thread of its process is inside one waits at its entry stop
 * until that call has returned (the kernel would have serialized them on
 * mmap_lock anyway, in an order the trace could not tell).
 *
 * A syscall stop is read with PTRACE_GET_SYSCALL_INFO (5.3+); on an older
 * kernel that answers it with EIO, with PTRACE_GETREGS: the call number in
 * orig_rax, the arguments in rdi rsi rdx r10 r8 r9, the result in rax,
 * and entry and exit told apart by alternation, as strace did before 5.3
 * (VMSIM_RECORD_REGS=1 takes that path on any kernel, for the tests).
 */
#include "alloc.h"
#include "cli.h"
#include "replay.h"
#include "record.h"
#include "trace.h"

#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <stdio.h>
#include <stdio_ext.h> /* __fpending() */
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char record_usage[] =
	"usage: vmsim record [-o FILE] [--expect none|lock|all] [--faults] [--format text|json]\n"
	"                    [--memcg] [--memcg-max BYTES] [--] PROGRAM [ARG]...\n"
	"\n"
	"Runs PROGRAM under ptrace and writes a trace of it: every syscall the model\n"
	"follows (memory, processes, files, limits) with its result, the address space\n"
	"execve left (inherit lines: the ELF segments, ld.so, stack, vdso, heap, and the\n"
	"size and page-cache residency of each mapped or opened file), and the header\n"
	"from this machine (arch, kernel, page size, RLIMIT_MEMLOCK, CAP_IPC_LOCK,\n"
	"max_map_count, read_ahead_kb, whether the zero page is mapped).\n"
	"\n"
	"  -o FILE          write the trace to FILE (default: standard output)\n"
	"  --format json    with -o FILE: a \"record\" object on standard output at the\n"
	"                   end, saying what was recorded (docs/json.md)\n"
	"  --expect MODE    the kernel's answers from /proc: none; lock (default) after\n"
	"                   every call that locks or unlocks memory (mlock*, munlock*,\n"
	"                   mmap MAP_LOCKED, shmctl SHM_LOCK/SHM_UNLOCK, io_uring buffer\n"
	"                   (un)registration): VmLck (and VmPin), the smaps of the\n"
	"                   VMAs it touched, and (as root) the pages through\n"
	"                   pagemap + kpageflags after draining the per-CPU batches;\n"
	"                   all: after every memory call\n"
	"  --faults         also every page fault (address, access, minor/major), from\n"
	"                   perf page-fault events and the exceptions tracepoints\n"
	"                   (root or perf_event_paranoid -1)\n"
	"  --memcg          run the program alone in a fresh memory cgroup (cgroup v2's\n"
	"                   where /sys/fs/cgroup has the memory controller, else v1's),\n"
	"                   joined before its exec; under v2 its memory.events end the\n"
	"                   trace (root)\n"
	"  --memcg-max BYTES  --memcg with that limit (memory.max, v1's\n"
	"                   limit_in_bytes), written as the trace's first line\n"
	"Exit: the program's exit status; 2 when recording is impossible.\n";

enum expect_mode { EXP_NONE, EXP_LOCK, EXP_ALL };

struct tracee {
	pid_t tid;
	bool started;          /* its first stop was seen */
	bool exited;
	uint64_t exec_entry_ns; /* when its execve entered (CLOCK_MONOTONIC) */
	/* the lines of the files its execve reads, taken at the entry and
	 * written before the execve's line when it succeeds */
	char *exec_reads;
	size_t exec_readslen;
	char *exec_files[5];
	size_t nexec_files;
	pid_t tgid;            /* its process (threads share the mm) */
	bool mem_busy;         /* inside a memory call */
	bool parked;           /* stopped at the entry of one, waiting its turn */
	bool fork_line;        /* its parent's fork-like line is written (maybe held) */
	pid_t parent;
	bool announced;        /* the fork-like line that made it is written: until
				* then its lines wait in held (the model must see
				* the clone before the child's calls) */
	char *held;
	size_t heldlen;
	FILE *hold;
	bool in_call;
	bool regs_in_syscall;  /* GETREGS path: the last syscall stop was an entry */
	struct rec_call call;
};

struct known_file {
	uint32_t dev;
	uint64_t ino;
	char *path;
};

struct recorder {
	FILE *out;
	struct known_file *files; /* (dev, ino) -> path, for evict lines */
	size_t nfiles, capfiles;
	const char *arch;
	char kernel[32];
	enum expect_mode expect;
	struct rec_faults *rf;
	struct tracee *t;
	size_t nt, capt;
	size_t seen;           /* tasks traced in all (threads and processes) */
	bool regs;             /* no PTRACE_GET_SYSCALL_INFO (before 5.3): GETREGS */
	uint64_t flush_before; /* a flush writes the faults before this time (ns) only */
};

static struct tracee *tracee(struct recorder *r, pid_t tid, bool create)
{
	for (size_t i = 0; i < r->nt; i++)
		if (r->t[i].tid == tid)
			return &r->t[i];
	if (!create)
		return NULL;
	struct tracee *n = vm_grow(r->t, &r->capt, r->nt + 1, sizeof(*n));
	if (!n)
		return NULL;
	r->t = n;
	struct tracee *t = &r->t[r->nt++];
	r->seen++;
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->call.nr = -1;
	return t;
}

/* tracees still running (an exited child whose fork line is not written
 * yet stays in the table, holding its lines) */
static bool live(const struct recorder *r)
{
	for (size_t i = 0; i < r->nt; i++)
		if (!r->t[i].exited)
			return true;
	return false;
}

static void forget(struct recorder *r, pid_t tid)
{
	for (size_t i = 0; i < r->nt; i++)
		if (r->t[i].tid == tid) {
			if (r->t[i].hold)
				fclose(r->t[i].hold);
			free(r->t[i].held);
			rec_call_free(&r->t[i].call);
			r->t[i] = r->t[--r->nt];
			return;
		}
}

/* where a tracee's lines go now: the trace, or its hold until announced */
static FILE *sink_of(struct recorder *r, struct tracee *t)
{
	if (!t || t->announced)
		return r->out;
	if (!t->hold)
		t->hold = open_memstream(&t->held, &t->heldlen);
	return t->hold ? t->hold : r->out;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void file_seen(void *ctx, const char *path, uint32_t dev, uint64_t ino)
{
	struct recorder *r = ctx;
	for (size_t i = 0; i < r->nfiles; i++)
		if (r->files[i].dev == dev && r->files[i].ino == ino)
			return;
	struct known_file *n = vm_grow(r->files, &r->capfiles, r->nfiles + 1, sizeof(*n));
	if (!n)
		return;
	r->files = n;
	char *p = vm_strdup(path);
	if (p)
		r->files[r->nfiles++] = (struct known_file){ dev, ino, p };
}

static const char *file_path(void *ctx, uint32_t dev, uint64_t ino)
{
	struct recorder *r = ctx;
	for (size_t i = 0; i < r->nfiles; i++)
		if (r->files[i].dev == dev && r->files[i].ino == ino)
			return r->files[i].path;
	return NULL;
}

static FILE *fault_sink(void *ctx, unsigned tid, uint64_t time)
{
	struct recorder *r = ctx;
	if (!tid)
		return r->out; /* the machine's: page-cache evictions */
	struct tracee *t = tracee(r, (pid_t)tid, true);
	/* the faults an execve in progress made in its new image wait: they
	 * belong after its inherit lines */
	if (!t || (t->in_call && t->call.ev.sys == SYS_EXECVE && time >= t->exec_entry_ns) ||
	    time >= r->flush_before)
		return NULL;
	/* an unannounced child's go with its other lines, held until its
	 * parent's fork line: every line is written after a flush of the
	 * rings, so they stay in time order there (held back as a whole, they
	 * came after its exit when it exited before its parent's fork
	 * returned) */
	return sink_of(r, t);
}

static bool is_traced(void *ctx, unsigned tid)
{
	return tracee(ctx, (pid_t)tid, false) != NULL;
}

static void flush_faults(struct recorder *r)
{
	rec_faults_flush(r->rf, fault_sink, file_path, r);
}

/* flush_faults() of the faults that completed before t only; the later
 * ones wait for the next flush */
static void flush_faults_before(struct recorder *r, uint64_t t)
{
	r->flush_before = t;
	flush_faults(r);
	r->flush_before = UINT64_MAX;
}

/* the fork-like call of parent returned child: the child's held lines
 * follow it */
static void announce(struct recorder *r, pid_t child)
{
	struct tracee *t = tracee(r, child, true);
	if (!t || t->announced)
		return;
	t->announced = true;
	if (t->hold) {
		fclose(t->hold);
		t->hold = NULL;
		fwrite(t->held, 1, t->heldlen, r->out);
		free(t->held);
		t->held = NULL;
	}
	/* children whose fork lines were in the text just written */
	for (size_t i = 0; i < r->nt; i++)
		if (r->t[i].parent == child && r->t[i].fork_line && !r->t[i].announced)
			announce(r, r->t[i].tid);
	flush_faults(r);
}

static void emit(struct recorder *r, struct tracee *t, struct event *ev)
{
	/* the faults of a successful execve are in the new image, which its
	 * inherit lines describe: they follow them */
	if (!(ev->sys == SYS_EXECVE && ev->res == RES_VALUE && ev->value == 0))
		flush_faults(r);
	/* the faults the kernel's copy of a string argument took, which the
	 * recorder's own read pre-empted (rec_sys.c:read_str()) */
	if (r->rf && ev->sys != SYS_EXECVE)
		for (unsigned i = 0; i < t->call.nkfault; i++)
			fprintf(sink_of(r, t),
				"# the kernel's read of a string argument faults this page (the recorder's read mapped it first)\n"
				"%d  fault(%#" PRIx64 ", READ) = ?\n",
				(int)t->tid, t->call.kfault[i]);
	trace_write_event(sink_of(r, t), ev, r->arch, "strace");
	bool forks = ev->sys == SYS_FORK || ev->sys == SYS_VFORK || ev->sys == SYS_CLONE ||
		     ev->sys == SYS_CLONE3;
	if (forks && ev->res == RES_VALUE && ev->value > 0) {
		struct tracee *c = tracee(r, (pid_t)ev->value, true);
		if (c) {
			c->fork_line = true;
			c->parent = t ? t->tid : 0;
		}
		if (!t || t->announced)
			announce(r, (pid_t)ev->value);
	}
}

/* which calls get the kernel's answers */
static bool wants_expect(const struct recorder *r, const struct event *ev)
{
	if (r->expect == EXP_NONE || ev->res != RES_VALUE)
		return false;
	switch (ev->sys) {
	case SYS_MLOCK: case SYS_MLOCK2: case SYS_MUNLOCK: case SYS_MLOCKALL: case SYS_MUNLOCKALL:
		return true;
	case SYS_SHMCTL: /* SHM_LOCK, SHM_UNLOCK */
		return ev->args[1] == 11 || ev->args[1] == 12 || r->expect == EXP_ALL;
	case SYS_SHMAT: case SYS_SHMDT:
		return r->expect == EXP_ALL;
	case SYS_IO_URING_REGISTER: /* buffers pinned or unpinned: VmPin */
		return (ev->args[1] & 0x7fffffffu) <= 1 || r->expect == EXP_ALL;
	case SYS_MMAP: /* MAP_LOCKED (x86_64 0x2000) locks as mlock() does */
		return r->expect == EXP_ALL || (ev->args[3] & 0x2000);
	case SYS_MUNMAP: case SYS_MPROTECT: case SYS_MREMAP: case SYS_MADVISE:
	case SYS_BRK:
		return r->expect == EXP_ALL;
	default:
		return false;
	}
}

static void exec_reads_drop(struct tracee *t)
{
	free(t->exec_reads);
	t->exec_reads = NULL;
	t->exec_readslen = 0;
	for (size_t i = 0; i < t->nexec_files; i++)
		free(t->exec_files[i]);
	t->nexec_files = 0;
}

/* at an execve's entry, what the kernel is about to read and how much of
 * it the page cache holds now (rec_proc.c:rec_write_exec_reads()) */
static void exec_reads_take(struct tracee *t)
{
	exec_reads_drop(t);
	char path[4200];
	const struct event *ev = &t->call.ev;
	if (!ev->str.len || ev->str.len >= sizeof(path))
		return;
	memcpy(path, ev->str.p, ev->str.len);
	path[ev->str.len] = 0;
	FILE *ms = open_memstream(&t->exec_reads, &t->exec_readslen);
	if (!ms)
		return;
	t->nexec_files = rec_write_exec_reads(ms, t->tid, path, t->exec_files, 5);
	if (fclose(ms))
		exec_reads_drop(t);
}

/* The expectations after ev: the VMAs it touched with their pages, or
 * VmLck and every VMA, read from /proc now. */
static void read_expectations(FILE *out, struct tracee *t, const struct event *ev)
{
	uint64_t addr = 0, len = 0;
	if (ev->sys == SYS_MMAP) {
		addr = (uint64_t)ev->value;
		len = ev->args[1];
	} else if (ev->sys == SYS_SHMAT) {
		addr = (uint64_t)ev->value; /* the attach's VMA and its first page */
		len = 4096;
	} else if (ev->sys != SYS_MLOCKALL && ev->sys != SYS_MUNLOCKALL && ev->sys != SYS_BRK &&
		   ev->sys != SYS_SHMCTL && ev->sys != SYS_SHMDT) {
		addr = ev->args[0];
		len = ev->sys == SYS_MREMAP ? ev->args[2] : ev->args[1];
		if (ev->sys == SYS_MREMAP)
			addr = (uint64_t)ev->value;
	}
	if (ev->sys == SYS_IO_URING_REGISTER) {
		/* the buffers' VMAs, VmLck and VmPin */
		rec_write_expect(out, t->tid, 0, 0, false, 64);
		rec_write_vmpin(out, t->tid);
		return;
	}
	/* a segment's lock: its attaches in this process, page by page */
	uint64_t as[8], ae[8];
	size_t na = ev->sys == SYS_SHMCTL ? rec_shm_attaches(t->tid, (int)ev->args[0], as, ae, 8) : 0;
	for (size_t i = 0; i < na; i++)
		rec_write_expect(out, t->tid, as[i], ae[i] - as[i], true, 64);
	if (na)
		return;
	/* else (a detach, or none attached here): VmLck and every VMA */
	if (ev->sys == SYS_MLOCKALL || ev->sys == SYS_MUNLOCKALL || ev->sys == SYS_BRK ||
	    ev->sys == SYS_SHMCTL || ev->sys == SYS_SHMDT || len)
		rec_write_expect(out, t->tid, addr, len, len != 0, 64);
}

/* Whether one of the n addresses lies in [start, end). */
static bool any_in(const uint64_t *addr, size_t n, uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < n; i++)
		if (addr[i] >= start && addr[i] < end)
			return true;
	return false;
}

/* Write the expectation text, leaving out what a fault at one of the n
 * addresses may have changed while it was read: the Rss and Locked of
 * its VMA, the line of its page. */
static void write_unraced(FILE *out, char *text, const uint64_t *addr, size_t n)
{
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		unsigned long long a, start, end;
		const char *page = strstr(line, "expect(page, "), *vma = strstr(line, "= {start=");
		char *rss = strstr(line, ", Rss="), *fl = strstr(line, ", VmFlags=");
		if (page && sscanf(page, "expect(page, %llx)", &a) == 1 && any_in(addr, n, a, a + 4096))
			continue;
		if (vma && rss && fl && rss < fl && strstr(line, "expect(vma, ") &&
		    sscanf(vma, "= {start=%llx, end=%llx", &start, &end) == 2 && any_in(addr, n, start, end))
			memmove(rss, fl, strlen(fl) + 1);
		fprintf(out, "%s\n", line);
	}
}

/* The other threads of the process run while /proc is read: a fault one
 * of them takes meanwhile may or may not be in what was read, and its line
 * would come after the expectations (Rss one page over the model's, seen
 * in a 4.4 guest: threads_mmap).  So the expectations are read into
 * memory between two clock readings, again (up to 4 times) while a fault
 * of the process fell between them, and written after the faults taken
 * before the first reading (later ones follow them).  What the faults of
 * a last, still raced reading may have changed is left out. */
static void write_expectations(struct recorder *r, struct tracee *t, const struct event *ev)
{
	char *text = NULL;
	size_t len = 0, nraced = 1;
	uint64_t t0 = 0, raced[64];
	for (int tries = 0; tries < 4 && nraced; tries++) {
		free(text);
		text = NULL;
		FILE *m = open_memstream(&text, &len);
		if (!m)
			return;
		t0 = now_ns();
		read_expectations(m, t, ev);
		uint64_t t1 = now_ns();
		if (fclose(m)) {
			free(text);
			return;
		}
		nraced = rec_faults_between(r->rf, t->tgid, t0, t1, raced, 64);
	}
	flush_faults_before(r, t0);
	FILE *out = sink_of(r, t);
	if (nraced > 64) {
		/* too many to tell: nothing read is certain */
		fprintf(out, "# %zu faults of other threads raced with the expectations here: left out\n",
			nraced);
	} else if (nraced) {
		fprintf(out, "# %zu faults of other threads raced with these expectations: their VMAs' Rss and their pages left out\n",
			nraced);
		write_unraced(out, text, raced, nraced);
	} else {
		fwrite(text, 1, len, out);
	}
	free(text);
}

static void after_call(struct recorder *r, struct tracee *t)
{
	struct event *ev = &t->call.ev;
	if (ev->res == RES_VALUE && (ev->sys == SYS_OPENAT || ev->sys == SYS_OPEN || ev->sys == SYS_CREAT) &&
	    ev->str.len) {
		char path[4200];
		snprintf(path, sizeof(path), "%.*s", (int)ev->str.len, ev->str.p);
		if (ev->args[2] & 0200 /* O_EXCL */) {
			rec_note_file(path); /* made now: the model knows all of it */
		} else {
			/* a file that existed: its size and cached pages before the call */
			flush_faults(r);
			rec_write_file(sink_of(r, t), t->tid, path);
		}
	}
	bool execd = ev->sys == SYS_EXECVE && ev->res == RES_VALUE && ev->value == 0;
	if (execd && t->exec_readslen)
		fwrite(t->exec_reads, 1, t->exec_readslen, sink_of(r, t));
	emit(r, t, ev);
	if (execd) {
		uint64_t fault[256];
		bool major[256];
		size_t nfault = rec_faults_pending(r->rf, (unsigned)t->tid, fault, major, 256);
		rec_write_inherited(sink_of(r, t), t->tid, fault, major, nfault, t->exec_files,
				    t->nexec_files);
		flush_faults(r);
	}
	if (ev->sys == SYS_EXECVE)
		exec_reads_drop(t);
	if (wants_expect(r, ev))
		write_expectations(r, t, ev);
}

static pid_t tgid_of(pid_t tid)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	FILE *f = fopen(path, "r");
	pid_t g = tid;
	if (!f)
		return g;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			g = (pid_t)atoi(line + 5);
			break;
		}
	fclose(f);
	return g;
}

/* calls that change or read the VMA tree of the mm (mmap_lock) */
static bool mem_call(enum sysno s)
{
	switch (s) {
	case SYS_MMAP: case SYS_MUNMAP: case SYS_MPROTECT: case SYS_MREMAP: case SYS_MADVISE:
	case SYS_MSYNC: case SYS_BRK: case SYS_MLOCK: case SYS_MLOCK2: case SYS_MUNLOCK:
	case SYS_MLOCKALL: case SYS_MUNLOCKALL: case SYS_FORK: case SYS_CLONE: case SYS_CLONE3:
	case SYS_SHMAT: case SYS_SHMDT:
	case SYS_IO_URING_REGISTER: /* GUP faults the buffers in */
		return true;
	default:
		return false;
	}
}

static bool group_busy(const struct recorder *r, const struct tracee *t)
{
	for (size_t i = 0; i < r->nt; i++)
		if (&r->t[i] != t && r->t[i].tgid == t->tgid && r->t[i].mem_busy)
			return true;
	return false;
}

/* t's memory call returned: let the next waiting thread of its process in */
static void unpark_next(struct recorder *r, pid_t tgid)
{
	for (size_t i = 0; i < r->nt; i++)
		if (r->t[i].tgid == tgid && r->t[i].parked) {
			r->t[i].parked = false;
			r->t[i].mem_busy = true;
			ptrace(PTRACE_SYSCALL, r->t[i].tid, NULL, NULL);
			return;
		}
}

/* The syscall stop of tid: PTRACE_GET_SYSCALL_INFO, or on a kernel
 * without it the registers.  0, or -1 when neither answers. */
static int syscall_info(struct recorder *r, struct tracee *t, pid_t tid,
			struct __ptrace_syscall_info *si)
{
	memset(si, 0, sizeof(*si));
	if (!r->regs) {
		if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof(*si), si) > 0)
			return 0;
		if (errno != EIO && errno != EINVAL)
			return -1;
		r->regs = true; /* an unknown request: a kernel before 5.3 */
		fprintf(r->out, "# note: no PTRACE_GET_SYSCALL_INFO (Linux 5.3+): syscalls read "
			"with PTRACE_GETREGS\n");
	}
#if defined(__x86_64__)
	struct user_regs_struct regs;
	if (ptrace(PTRACE_GETREGS, tid, NULL, &regs) < 0)
		return -1;
	if (!t->regs_in_syscall) {
		si->op = PTRACE_SYSCALL_INFO_ENTRY;
		si->entry.nr = regs.orig_rax;
		uint64_t a[6] = { regs.rdi, regs.rsi, regs.rdx, regs.r10, regs.r8, regs.r9 };
		memcpy(si->entry.args, a, sizeof(a));
	} else {
		si->op = PTRACE_SYSCALL_INFO_EXIT;
		si->exit.rval = (int64_t)regs.rax;
	}
	t->regs_in_syscall = !t->regs_in_syscall;
	return 0;
#else
	(void)t;
	return -1;
#endif
}

/* Returns false when tid must stay stopped (parked). */
static bool syscall_stop(struct recorder *r, pid_t tid)
{
	struct tracee *t = tracee(r, tid, true);
	if (!t)
		return true;
	if (!t->tgid)
		t->tgid = tgid_of(tid);
	struct __ptrace_syscall_info si;
	if (syscall_info(r, t, tid, &si))
		return true;
	if (si.op == PTRACE_SYSCALL_INFO_ENTRY) {
		uint64_t a[6];
		for (int i = 0; i < 6; i++)
			a[i] = si.entry.args[i];
		t->in_call = rec_sys_enter(&t->call, tid, (long)si.entry.nr, a);
		if (t->in_call && mem_call(t->call.ev.sys)) {
			if (group_busy(r, t)) {
				t->parked = true;
				return false;
			}
			t->mem_busy = true;
		}
		if (t->in_call && t->call.ev.sys == SYS_EXECVE) {
			/* faults until now were in the old image */
			t->exec_entry_ns = now_ns();
			flush_faults(r);
			exec_reads_take(t);
		}
		if (t->in_call && (t->call.ev.sys == SYS_EXIT || t->call.ev.sys == SYS_EXIT_GROUP)) {
			emit(r, t, &t->call.ev); /* no exit stop follows */
			t->in_call = false;
		}
	} else if (si.op == PTRACE_SYSCALL_INFO_EXIT && t->in_call) {
		t->in_call = false;
		rec_sys_exit(&t->call, tid, si.exit.rval);
		after_call(r, t);
		if (t->mem_busy) {
			t->mem_busy = false;
			unpark_next(r, t->tgid);
		}
	}
	return true;
}

static const char *sig_name(int sig)
{
	const char *n = trace_signal_name((uint64_t)sig);
	return n ? n : "SIG?";
}

static void signal_stop(struct recorder *r, pid_t tid, int sig, int *deliver)
{
	siginfo_t si;
	*deliver = sig;
	if (ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) < 0)
		return;
	flush_faults(r);
	FILE *out = sink_of(r, tracee(r, tid, false));
	if (sig == SIGSEGV || sig == SIGBUS) {
		const char *code = sig == SIGSEGV ? (si.si_code == SEGV_MAPERR   ? "SEGV_MAPERR"
						     : si.si_code == SEGV_ACCERR ? "SEGV_ACCERR"
										 : "SI_KERNEL")
						  : (si.si_code == BUS_ADRERR ? "BUS_ADRERR" : "BUS_OBJERR");
		fprintf(out, "%d  --- %s {si_signo=%s, si_code=%s, si_addr=%p} ---\n", (int)tid,
			sig_name(sig), sig_name(sig), code, si.si_addr);
	} else {
		fprintf(out, "%d  --- %s {si_signo=%s} ---\n", (int)tid, sig_name(sig), sig_name(sig));
	}
}

int cmd_record(int argc, char **argv)
{
	struct recorder r;
	memset(&r, 0, sizeof(r));
	r.expect = EXP_LOCK;
	r.flush_before = UINT64_MAX;
	const char *outpath = NULL;
	bool faults = false, json = false, memcg = false;
	long memcg_max = -1;
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "expect", required_argument, NULL, 'e' },
		{ "faults", no_argument, NULL, 'f' },
		{ "memcg", no_argument, NULL, 'm' },
		{ "memcg-max", required_argument, NULL, 'M' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	opterr = 0;
	int c;
	/* "+": the first non-option is the program; its options are its own */
	while ((c = getopt_long(argc, argv, "+:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'f': faults = true; break;
		case 'm': memcg = true; break;
		case 'M': {
			char *end;
			errno = 0;
			long long v = strtoll(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 4096 || v > (1LL << 52)) {
				fprintf(stderr, "vmsim record: --memcg-max '%s': bytes, from 4096 to 2^52\n", optarg);
				return 2;
			}
			memcg = true;
			memcg_max = (long)v;
			break;
		}
		case 'F':
			if (json_format_arg("record", "--format", optarg, &json))
				return 2;
			break;
		case 'e':
			if (!strcmp(optarg, "none"))
				r.expect = EXP_NONE;
			else if (!strcmp(optarg, "lock"))
				r.expect = EXP_LOCK;
			else if (!strcmp(optarg, "all"))
				r.expect = EXP_ALL;
			else {
				fprintf(stderr, "vmsim record: --expect takes none, lock or all, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'h': fputs(record_usage, stdout); return 0;
		case ':':
			session_opt_error("record", c, argv, record_usage);
			return 2;
		default:
			session_usage_error("record", record_usage, "unknown option '%s'", argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc) {
		session_usage_error("record", record_usage, "no program given");
		return 2;
	}
	if (json && (!outpath || !strcmp(outpath, "-")))
		return session_usage_error("record", record_usage,
					   "--format json needs -o FILE: the trace would share standard output");
	if (!rec_sys_supported()) {
		fprintf(stderr, "vmsim record: recording needs x86_64 (this build decodes only its "
				"syscalls); replay strace -f -o logs instead\n");
		return 2;
	}
	if (outpath && !strcmp(outpath, "-"))
		outpath = NULL;
	r.out = outpath ? fopen(outpath, "we") : stdout;
	if (!r.out) {
		fprintf(stderr, "vmsim record: %s: %s\n", outpath, strerror(errno));
		return 2;
	}
	r.arch = "x86_64";
	/* a reader that goes away (record ... | head) is a write error said
	 * below, not a silent death by SIGPIPE; the program keeps its own */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_pipe;
	sigaction(SIGPIPE, &ign, &old_pipe);
	/* the path of kernels before 5.3, taken on purpose (tests/live/record_replay.sh) */
	const char *regs = getenv("VMSIM_RECORD_REGS");
	r.regs = regs && !strcmp(regs, "1");
	/* the path of kernels without process_vm_readv(), on purpose (the same test) */
	const char *peek = getenv("VMSIM_RECORD_PEEK");
	bool peek_on = peek && !strcmp(peek, "1");
	if (peek_on)
		rec_sys_use_peek();

	/* a tracee's stop is a SIGCHLD: with --faults the loop below sleeps
	 * in poll() on it (a signalfd) and on the sample rings, instead of
	 * waking every few milliseconds to look */
	sigset_t chld, old_mask;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old_mask);
	pid_t child = fork();
	if (child < 0) {
		fprintf(stderr, "vmsim record: fork: %s\n", strerror(errno));
		return 2;
	}
	if (child == 0) {
		sigaction(SIGPIPE, &old_pipe, NULL);
		sigprocmask(SIG_SETMASK, &old_mask, NULL); /* the program's own mask */
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) {
			fprintf(stderr, "vmsim record: ptrace refused: %s (in a container, allow "
					"ptrace: CAP_SYS_PTRACE, kernel.yama.ptrace_scope <= 1)\n",
				strerror(errno));
			_exit(126);
		}
		raise(SIGSTOP);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "vmsim record: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	int st;
	if (waitpid(child, &st, 0) < 0 || !WIFSTOPPED(st)) {
		fprintf(stderr, "vmsim record: the program did not start under ptrace\n");
		return 2;
	}
	struct rec_memcg mc = { 0 };
	if (memcg) {
		char why[PATH_MAX + 128];
		if (rec_memcg_open(&mc, child, memcg_max, why, sizeof(why))) {
			fprintf(stderr, "vmsim record: --memcg: %s\n", why);
			kill(child, SIGKILL);
			waitpid(child, &st, 0);
			rec_memcg_close(&mc, NULL, child);
			return 2;
		}
	}
	rec_write_header(r.out, argc - optind, argv + optind);
	if (memcg)
		rec_memcg_header(&mc, r.out);
	if (r.regs)
		fprintf(r.out, "# note: syscalls read with PTRACE_GETREGS (VMSIM_RECORD_REGS=1)\n");
	if (peek_on)
		fprintf(r.out, "# note: tracee memory read with PTRACE_PEEKDATA (VMSIM_RECORD_PEEK=1)\n");
	rec_proc_on_file(file_seen, &r);
	snprintf(r.kernel, sizeof(r.kernel), "6.18");
	{
		/* the flag tables of the running kernel name the flags */
		FILE *f = fopen("/proc/sys/kernel/osrelease", "r");
		unsigned maj, min;
		if (f && fscanf(f, "%u.%u", &maj, &min) == 2)
			snprintf(r.kernel, sizeof(r.kernel), "%u.%u", maj, min);
		if (f)
			fclose(f);
	}
	if (faults) {
		char why[256];
		r.rf = rec_faults_open(child, why, sizeof(why));
		if (!r.rf) {
			fprintf(stderr, "vmsim record: --faults: %s; recording without fault lines\n", why);
			fprintf(r.out, "# note: no fault lines: %s\n", why);
		}
	}
	if (memcg && memcg_max >= 0)
		rec_faults_skip_own_evictions(r.rf, is_traced);
	/* replay checks residency as a lower bound when the touches are not
	 * in the trace (docs/trace-format.md) */
	fprintf(r.out, "# faults: %s\n", r.rf ? "yes" : "no");
	/* the last line is `# end`: a trace without it was cut by the
	 * recorder's death (the program may SIGKILL its own parent) */
	fprintf(r.out, "# end-mark: yes\n");
	/* io_uring charges the user's locked_vm, which the perf buffers hold
	 * too (docs/trace-format.md) */
	if (r.rf) {
		unsigned long ul = rec_faults_user_locked(r.rf);
		if (rec_faults_gift_apart(r.rf))
			fprintf(r.out, "# note: the perf buffers' pages are not in the user's "
				       "locked_vm on this kernel (an io_uring probe)\n");
		fprintf(r.out, "# user-locked-vm: %lu\n", ul);
	}
	if (ptrace(PTRACE_SETOPTIONS, child, NULL,
		   (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
				  PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)) < 0) {
		fprintf(stderr, "vmsim record: PTRACE_SETOPTIONS: %s\n", strerror(errno));
		kill(child, SIGKILL);
		return 2;
	}
	struct tracee *first = tracee(&r, child, true);
	first->started = first->announced = true;
	if (memcg)
		rec_memcg_first_line(&mc, r.out, child);
	int chld_fd = r.rf ? signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC) : -1;
	ptrace(PTRACE_SYSCALL, child, NULL, NULL);
	int status = 0;
	bool write_failed = false;
	while (live(&r)) {
		if (ferror(r.out)) {
			/* nobody reads the trace any more: stop the program */
			write_failed = true;
			kill(child, SIGKILL);
			break;
		}
		/* every line written so far reaches the file before the tracees
		 * run on: one of them may kill the recorder */
		if (__fpending(r.out) && fflush(r.out))
			continue; /* ferror() above stops the program */
		pid_t tid = waitpid(-1, &st, __WALL | (r.rf ? WNOHANG : 0));
		if (tid == 0) {
			/* the tracees run: sleep until one stops (its SIGCHLD, kept
			 * pending for the signalfd since before waitpid looked) or
			 * a sample ring is half full, then drain the rings */
			struct pollfd p[2] = { { chld_fd, POLLIN, 0 }, { rec_faults_fd(r.rf), POLLIN, 0 } };
			poll(p, 2, chld_fd >= 0 ? 1000 : 2);
			struct signalfd_siginfo si;
			while (chld_fd >= 0 && read(chld_fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
				;
			flush_faults(&r);
			continue;
		}
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			flush_faults(&r);
			FILE *out = sink_of(&r, tracee(&r, tid, false));
			if (WIFEXITED(st))
				fprintf(out, "%d  +++ exited with %d +++\n", (int)tid, WEXITSTATUS(st));
			else
				fprintf(out, "%d  +++ killed by %s%s +++\n", (int)tid, sig_name(WTERMSIG(st)),
					WCOREDUMP(st) ? " (core dumped)" : "");
			struct tracee *gone = tracee(&r, tid, false);
			if (gone && gone->mem_busy) {
				gone->mem_busy = false;
				unpark_next(&r, gone->tgid);
			}
			if (gone && !gone->announced) {
				gone->exited = true;
				continue; /* its lines wait for its parent's fork line */
			}
			if (tid == child)
				status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			forget(&r, tid);
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		int sig = WSTOPSIG(st), deliver = 0;
		unsigned event = (unsigned)st >> 16;
		struct tracee *tt = tracee(&r, tid, true);
		if (tt && !tt->started) {
			/* a new child or thread starts with a SIGSTOP of its own */
			tt->started = true;
			if (sig == SIGSTOP && tid != child)
				sig = 0;
		}
		if (sig == (SIGTRAP | 0x80)) {
			if (!syscall_stop(&r, tid))
				continue; /* waits at its entry for another thread's call */
		} else if (event) {
			if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
			    event == PTRACE_EVENT_CLONE) {
				unsigned long nt;
				if (!ptrace(PTRACE_GETEVENTMSG, tid, NULL, &nt))
					tracee(&r, (pid_t)nt, true);
			}
		} else if (sig) {
			signal_stop(&r, tid, sig, &deliver);
		}
		ptrace(PTRACE_SYSCALL, tid, NULL, (void *)(long)deliver);
	}
	flush_faults(&r);
	for (size_t i = 0; i < r.nt; i++)
		announce(&r, r.t[i].tid); /* parents that never returned from fork */
	if (memcg)
		rec_memcg_close(&mc, r.out, child);
	unsigned long lost = rec_faults_lost(r.rf);
	if (lost)
		fprintf(r.out, "# note: %lu page-fault samples were lost (ring buffer full)\n", lost);
	rec_faults_close(r.rf);
	fprintf(r.out, "# end\n");
	if (chld_fd >= 0)
		close(chld_fd);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	fflush(r.out);
	off_t bytes = ftello(r.out);
	size_t tasks = r.seen;
	for (size_t i = 0; i < r.nt; i++)
		rec_call_free(&r.t[i].call);
	free(r.t);
	for (size_t i = 0; i < r.nfiles; i++)
		free(r.files[i].path);
	free(r.files);
	int werr = write_failed || fflush(r.out) || ferror(r.out) ? errno : 0;
	if (outpath && fclose(r.out) && !werr)
		werr = errno;
	if (!werr && !write_failed)
		sigaction(SIGPIPE, &old_pipe, NULL); /* else exit()'s flush of stdout would raise it */
	if (werr || write_failed) {
		fprintf(stderr, "vmsim record: writing the trace to %s: %s%s\n", outpath ? outpath : "standard output",
			strerror(werr ? werr : EPIPE), write_failed ? " (the program was stopped)" : "");
		return 2;
	}
	if (json) {
		json_begin(stdout, "record");
		json_kv_str(stdout, "out", outpath);
		json_key(stdout, "program");
		fputc('[', stdout);
		for (int i = optind; i < argc; i++) {
			fputs(i > optind ? ", " : "", stdout);
			json_str(stdout, argv[i]);
		}
		fputc(']', stdout);
		json_kv_i64(stdout, "exit_status", status);
		json_kv_u64(stdout, "tasks", tasks);
		json_kv_str(stdout, "kernel", r.kernel);
		json_kv_str(stdout, "expect", r.expect == EXP_NONE ? "none" : r.expect == EXP_LOCK ? "lock" : "all");
		json_kv_bool(stdout, "faults", faults);
		json_kv_u64(stdout, "fault_samples_lost", lost);
		json_kv_u64(stdout, "bytes", bytes > 0 ? (uint64_t)bytes : 0);
		json_end(stdout);
		fflush(stdout);
	}
	return status;
}
