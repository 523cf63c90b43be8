/*
 * record.h - the whole interface of sim/record/: what `vmsim record` reads
 * of a live process on this machine's kernel.
 *
 *   rec_sys     the x86_64 syscall decoder: registers at a ptrace stop to
 *               the trace's event
 *   rec_proc    /proc and /sys: the header, inherit and expect lines
 *   rec_faults  perf page-fault events (--faults) to fault lines
 *   rec_memcg   --memcg: the program alone in a fresh memory cgroup
 *
 * Each section is one unit (UNIT.c).  The ptrace loop that drives them is
 * `vmsim record` (sim/cli/cmd_record.c).  Callers: sim/cli/
 * (docs/architecture.md).
 *
 *
 * Owns: vmsim record's syscall decoder, its /proc and /sys readers, its
 *   perf fault reader and its memory cgroup.
 * May call: trace.
 */
#ifndef VMSIM_RECORD_H
#define VMSIM_RECORD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "trace.h"

/* ==== rec_sys ====
 * rec_sys.h - `vmsim record`'s syscall decoder: a stopped tracee's
 * registers and memory into a trace event (trace.h), x86_64 only.
 *
 * At syscall entry rec_sys_enter() keeps what only the entry shows (the
 * arguments, strings and structs the call reads); at exit rec_sys_exit()
 * adds the result and what the call wrote (stat buffers, pipe fds).  The
 * event is then written with trace_write_event(), so a recording is in
 * the canonical notation of the trace writer.
 *
 * Uses process_vm_readv() on the tracee; no other I/O.
 */

/* What one in-flight call of one tracee needs between entry and exit. */
struct rec_call {
	long nr;               /* syscall number, -1 when not in a call */
	uint64_t a[6];         /* raw arguments */
	struct event ev;       /* decoded so far; str/str2 point into buf */
	char buf[4096 + 256];  /* strings read from the tracee */
	bool modelled;         /* the model follows this call (else not written) */
	/* pages of a string argument the tracee had no PTE for: the kernel's
	 * own copy of it faults them (a READ, in kernel mode), but the
	 * recorder's read maps them first, so no fault is seen: the
	 * recorder writes these as fault lines before the call */
	uint64_t kfault[4];
	unsigned nkfault;
	/* io_uring_register()'s iovec array as text (ev.str), grown as needed;
	 * rec_call_free() frees it */
	char *iov_text;
	size_t iov_cap;
};

/* The heap memory of a call record (its iovec text). */
void rec_call_free(struct rec_call *c);

/* Whether this build can decode syscalls of the machine it runs on. */
bool rec_sys_supported(void);
/* Decode the entry of syscall nr with arguments a[] of tid.  Returns true
 * when the call is one a trace records. */
bool rec_sys_enter(struct rec_call *c, pid_t tid, long nr, const uint64_t a[6]);
/* The call returned ret: finish c->ev (result, output structs). */
void rec_sys_exit(struct rec_call *c, pid_t tid, int64_t ret);
/* The x86_64 numbers of the calls that end or replace the process image. */
bool rec_sys_is_execve(long nr);
/* Read tracee memory with PTRACE_PEEKDATA, as on a kernel without
 * process_vm_readv() (CONFIG_CROSS_MEMORY_ATTACH), which is found at the
 * first ENOSYS; this asks for it from the start (VMSIM_RECORD_PEEK=1). */
void rec_sys_use_peek(void);

/* ==== rec_proc ====
 * rec_proc.h - what `vmsim record` reads from /proc and /sys of the live
 * system: the trace header, a process's address space as inherit lines,
 * and the kernel's own answers as expect lines.
 *
 * Writes trace text to the FILE it is given; reads /proc/PID/{maps,smaps,
 * status,pagemap}, /proc/kpageflags (root), /proc/sys/vm/max_map_count,
 * /sys/class/bdi/.../read_ahead_kb.
 */

/* The header of a recording made now by this process (whose limits and
 * capabilities the traced program inherits), with notes on what could not
 * be probed.  cmdline is the program and its arguments, for the
 * description. */
void rec_write_header(FILE *out, int argc, char **argv);
/* Whether the running kernel has CONFIG_MEM_SOFT_DIRTY (smaps prints "sd"
 * on this process's VMAs): 1, 0, or -1 when smaps cannot be read. */
int rec_probe_soft_dirty(void);

/* The address space of pid as inherit(...) lines (maps line, VmFlags)
 * and inherit_file(...) lines for every mapped file (its size and the
 * pages the page cache holds: mincore), as they were before the execve's
 * own faults (fault[], major[i] for those that read a page in): its
 * major faults' pages were not cached, its faults' pages not present.
 * The files in written[] have their line already (rec_write_exec_reads()). */
int rec_write_inherited(FILE *out, pid_t pid, const uint64_t *fault, const bool *major,
			size_t nfault, char *const *written, size_t nwritten);

/* The files an execve(path) by pid makes the kernel read before the new
 * image runs (fs/exec.c: the file, a #! script's interpreter in turn, the
 * ELF's PT_INTERP), each as an inherit_file line of its page cache now:
 * call it at the execve's entry, and write the lines right before the
 * execve's line (docs/trace-format.md: the model reads their first page).
 * The recorder reads their headers with O_DIRECT, which brings nothing
 * into the cache.  Their canonical paths go to names[] (malloc'd, at most
 * max) for rec_write_inherited() to leave out; returns how many. */
size_t rec_write_exec_reads(FILE *out, pid_t pid, const char *path, char **names, size_t max);

/* Called for every file an inherit_file line names, with its device
 * (kernel encoding, major << 20 | minor) and inode: the recorder's map
 * from the page-cache tracepoints' (dev, ino) to the trace's path. */
typedef void (*rec_file_fn)(void *ctx, const char *path, uint32_t dev, uint64_t ino);
void rec_proc_on_file(rec_file_fn fn, void *ctx);

/* An inherit_file(...) line for path (a regular file: its size and the
 * pages of it the page cache holds); 0 when it is not one. */
int rec_write_file(FILE *out, pid_t pid, const char *path);

/* Tell the recorder's file map about path (a file the trace creates)
 * without writing anything. */
void rec_note_file(const char *path);

/* The VMAs of pid that map SysV segment shmid (its /SYSV lines in maps,
 * whose inode number is the id): up to max, in start[] and end[]. */
size_t rec_shm_attaches(pid_t pid, int shmid, uint64_t *start, uint64_t *end, size_t max);

/* expect lines for [addr, addr+len) of pid (len 0: every VMA): VmLck,
 * the smaps of each VMA the range touches, and with pages the pagemap +
 * kpageflags state of up to max_pages pages after draining the per-CPU
 * batches (root only; silently skipped otherwise). */
/* expect(VmPin) of pid now (pages pinned long-term: io_uring buffers). */
void rec_write_vmpin(FILE *out, pid_t pid);
void rec_write_expect(FILE *out, pid_t pid, uint64_t addr, uint64_t len, bool pages,
		      unsigned max_pages);

/* ==== rec_faults ====
 * rec_faults.h - `vmsim record --faults`: every page fault of the traced
 * processes as a fault(ADDR, MODE) = MINOR|MAJOR line, from perf events.
 *
 * Four sampled events per recording, inherited by every child and thread
 * (their samples land in the first process's ring buffers):
 *   PERF_COUNT_SW_PAGE_FAULTS_MIN / _MAJ   the fault's address and kind
 *     (mm/memory.c:mm_account_fault() @ 6.x, once per fault, after the
 *     retry if there was one), and
 *   the tracepoints exceptions:page_fault_user / page_fault_kernel
 *     (arch/x86/mm/fault.c:trace_page_fault_entries()) for the access
 *     type, which the software events do not carry: error_code bit 1 is a
 *     write, bit 4 an instruction fetch.
 * A kernel-mode fault on user memory (copy_to_user() in read()) is a fault
 * of the process too, ordered before the call's line.  All times are
 * CLOCK_MONOTONIC.  Faults that the kernel refused (no MIN/MAJ follows)
 * are not written: the SIGSEGV line says it.
 *
 * A fifth, system-wide, samples filemap:mm_filemap_delete_from_page_cache:
 * the page cache changing under the program's feet.
 *
 * Uses perf_event_open(2) and tracefs; writes fault lines to a FILE.
 */

struct rec_faults;

/* Open the events on pid (stopped, not yet exec'd; counting starts at its
 * execve).  NULL with the reason and what to do in why. */
struct rec_faults *rec_faults_open(pid_t pid, char *why, size_t whylen);
/* Write every completed fault sampled so far, in time order, each to the
 * stream sink(ctx, tid, time in CLOCK_MONOTONIC ns) names; a NULL sink keeps that tid's faults for a
 * later flush (a child whose fork line is not written yet). */
typedef FILE *(*rec_sink_fn)(void *ctx, unsigned tid, uint64_t time_ns);
/* The trace's name of the file (dev, ino) (kernel encoding: major << 20 |
 * minor), or NULL for a file the trace does not know. */
typedef const char *(*rec_path_fn)(void *ctx, uint32_t dev, uint64_t ino);
/* Pages leaving the page cache of a file the trace knows (system-wide:
 * other processes' memory pressure, the host) are written as
 * evict("PATH", INDEX, NR) lines, to sink(ctx, 0, time). */
void rec_faults_flush(struct rec_faults *rf, rec_sink_fn sink, rec_path_fn path_of, void *ctx);
/* Whether tid is one of the traced tasks. */
typedef bool (*rec_traced_fn)(void *ctx, unsigned tid);
/* From now on an eviction that a traced task itself did is not written:
 * with the program alone in a limited memory cgroup (--memcg-max) it is
 * the reclaim of a charge past the limit, which the model runs itself
 * from the trace's memcg_max()/memcg_limit() line; written, it would
 * empty the cache before the model's own reclaim could. */
void rec_faults_skip_own_evictions(struct rec_faults *rf, rec_traced_fn traced);
/* The faults of process tgid (any of its threads) that completed between
 * t0 and t1 (CLOCK_MONOTONIC ns), reading the rings first: how many, and
 * the addresses of the first max of them in addr. */
size_t rec_faults_between(struct rec_faults *rf, pid_t tgid, uint64_t t0, uint64_t t1,
			  uint64_t *addr, size_t max);
/* The addresses of tid's faults sampled and not yet written (the faults
 * of an execve in progress), at most max into addr; major[i] says which
 * were major. */
size_t rec_faults_pending(struct rec_faults *rf, unsigned tid, uint64_t *addr, bool *major,
			  size_t max);
/* Samples the kernel dropped (ring buffer full), for a note. */
unsigned long rec_faults_lost(const struct rec_faults *rf);
/* Pages the perf buffers of rf charged to the user's locked_vm (as far as
 * the recorder knows: it assumes no other charge of the user), 0 when a
 * probe finds the kernel keeps them apart (6.1.191+: user->perf_mlock);
 * the first call forks the probe. */
unsigned long rec_faults_user_locked(struct rec_faults *rf);
/* Whether that probe found the perf buffers kept out of locked_vm. */
bool rec_faults_gift_apart(const struct rec_faults *rf);
/* poll(2) descriptors to wait on with the tracees (may be -1). */
int rec_faults_fd(const struct rec_faults *rf);
void rec_faults_close(struct rec_faults *rf);

/* ==== rec_memcg ====
 * `vmsim record --memcg [--memcg-max BYTES]`: a fresh memory cgroup of
 * the machine's controller (v2 at /sys/fs/cgroup, else v1 at
 * /sys/fs/cgroup/memory) that the program joins before its exec, with
 * the limit BYTES (-1: none) set while it holds nothing.  Needs root.
 */
struct rec_memcg {
	int version;          /* 1 or 2 */
	bool made;            /* dir exists: rec_memcg_close() removes it */
	long max;             /* the limit, bytes; -1 none */
	char dir[PATH_MAX];
};
/* Makes the cgroup, sets the limit and moves CHILD (stopped before its
 * exec) into it: 0, or -1 with why. */
int rec_memcg_open(struct rec_memcg *m, pid_t child, long max_bytes, char *why, size_t len);
/* The header's `# memcg:` lines. */
void rec_memcg_header(const struct rec_memcg *m, FILE *out);
/* The limit as the trace's first line of PID: memcg_max(BYTES) (v2) or
 * memcg_limit(BYTES) (v1); nothing without a limit. */
void rec_memcg_first_line(const struct rec_memcg *m, FILE *out, pid_t pid);
/* After the last task: memory.events as expect lines of PID (v2), the
 * kernel memory's peak as a comment (v1), then the cgroup removed.  OUT
 * may be NULL (only removes). */
void rec_memcg_close(struct rec_memcg *m, FILE *out, pid_t pid);

#endif
