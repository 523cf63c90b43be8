/*
 * rec_proc.h - what `vmsim record` reads from /proc and /sys of the live
 * system: the trace header, a process's address space as inherit lines,
 * and the kernel's own answers as expect lines.
 *
 * Writes trace text to the FILE it is given; reads /proc/PID/{maps,smaps,
 * status,pagemap}, /proc/kpageflags (root), /proc/sys/vm/max_map_count,
 * /sys/class/bdi/.../read_ahead_kb.
 *
 *
 * Owns: what vmsim record reads from /proc and /sys: header, inherit and
 *   expect lines.
 * May call: nothing.
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

/* The address space of pid as inherit(...) lines (maps line, VmFlags)
 * and inherit_file(...) lines for every mapped file (its size and the
 * pages the page cache holds: mincore), as they were before the execve's
 * own faults (fault[], major[i] for those that read a page in): its
 * major faults' pages were not cached, its faults' pages not present. */
int rec_write_inherited(FILE *out, pid_t pid, const uint64_t *fault, const bool *major,
			size_t nfault);

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

/* expect lines for [addr, addr+len) of pid (len 0: every VMA): VmLck,
 * the smaps of each VMA the range touches, and with pages the pagemap +
 * kpageflags state of up to max_pages pages after draining the per-CPU
 * batches (root only; silently skipped otherwise). */
void rec_write_expect(FILE *out, pid_t pid, uint64_t addr, uint64_t len, bool pages,
		      unsigned max_pages);

#endif
