/*
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
 *
 *
 * Owns: vmsim record --faults: perf page-fault events to fault lines.
 * May call: nothing.
 */
#ifndef VMSIM_REC_FAULTS_H
#define VMSIM_REC_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

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
/* The addresses of tid's faults sampled and not yet written (the faults
 * of an execve in progress), at most max into addr; major[i] says which
 * were major. */
size_t rec_faults_pending(struct rec_faults *rf, unsigned tid, uint64_t *addr, bool *major,
			  size_t max);
/* Samples the kernel dropped (ring buffer full), for a note. */
unsigned long rec_faults_lost(const struct rec_faults *rf);
/* poll(2) descriptors to wait on with the tracees (may be -1). */
int rec_faults_fd(const struct rec_faults *rf);
void rec_faults_close(struct rec_faults *rf);

#endif
