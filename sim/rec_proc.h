/*
 * rec_proc.h - what `vmsim record` reads from /proc and /sys of the live
 * system: the trace header, a process's address space as inherit lines,
 * and the kernel's own answers as expect lines.
 *
 * Writes trace text to the FILE it is given; reads /proc/PID/{maps,smaps,
 * status,pagemap}, /proc/kpageflags (root), /proc/sys/vm/max_map_count,
 * /sys/class/bdi/.../read_ahead_kb.
 */
#ifndef VMSIM_REC_PROC_H
#define VMSIM_REC_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* The header of a recording made now by this process (whose limits and
 * capabilities the traced program inherits), with notes on what could not
 * be probed.  cmdline is the program and its arguments, for the
 * description. */
void rec_write_header(FILE *out, int argc, char **argv);

/* The address space of pid as inherit(...) lines (maps line, VmFlags,
 * present pages of anonymous VMAs) and inherit_file(...) lines for every
 * mapped file (its size and the pages the page cache holds: mincore). */
int rec_write_inherited(FILE *out, pid_t pid, double ts);

/* An inherit_file(...) line for path (a regular file: its size and the
 * pages of it the page cache holds); 0 when it is not one. */
int rec_write_file(FILE *out, pid_t pid, const char *path);

/* expect lines for [addr, addr+len) of pid (len 0: every VMA): VmLck,
 * the smaps of each VMA the range touches, and with pages the pagemap +
 * kpageflags state of up to max_pages pages after draining the per-CPU
 * batches (root only; silently skipped otherwise). */
void rec_write_expect(FILE *out, pid_t pid, uint64_t addr, uint64_t len, bool pages,
		      unsigned max_pages);

#endif
