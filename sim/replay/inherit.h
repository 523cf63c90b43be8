/*
 * inherit.h - what a trace does not show: the address space a process had
 * before its first traced call.  Private to sim/replay/.
 *
 * Three sources, best first:
 *   - inherit(...) / inherit_file(...) lines of the trace (vmsim record
 *     writes them at start and after every execve);
 *   - a saved /proc/PID/maps or smaps given with `--maps FILE`, applied
 *     after the first process's first successful execve (or at its first
 *     event when the trace shows no execve);
 *   - for a plain strace log (no `# vmsim-trace:` header, no inherit
 *     lines): a range call the kernel let succeed on memory the model has
 *     no VMA for is taken as "mapped before the trace began" - an
 *     anonymous private read-write VMA over the hole - reported once per
 *     range as a note, never as a divergence.
 *
 * Uses the model's vm_inherit_*() calls and vmsys_hole_in(); no I/O but
 * reading the --maps file.
 *
 *
 * Owns: the address space a process had before its first traced call
 *   (inherit lines, --maps, plain logs).
 * May call: replay (struct inherit_state), semantics (the VmFlags mnemonics any kernel
 * knows), trace, vmsys.
 */
#ifndef VMSIM_INHERIT_H
#define VMSIM_INHERIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay.h"

void inherit_init(struct inherit_state *st, const struct trace_header *h, const char *maps_path);

/* Before the model applies ev: apply --maps when due, and fill the holes
 * of a successful range call (st->assume).  -1 with a message in err on a
 * bad --maps file (FILE:LINE:COL). */
int inherit_before(struct inherit_state *st, struct vmsys *s, const struct event *ev,
		   char *err, size_t errlen);

/* After the model applied ev: --maps after the first successful execve. */
int inherit_after(struct inherit_state *st, struct vmsys *s, const struct event *ev, char *err,
		  size_t errlen);

/* An inherit(...) line: the /proc/PID/maps line in ev->str, VmFlags in
 * ev->str2 (may be empty: flags then follow from the permissions and the
 * name, as fs/binfmt_elf.c and fs/exec.c set them).  Returns the model's
 * result, or -1 with err set when the line is malformed (col in *col). */
int inherit_apply_line(struct vmsys *s, struct task *t, const char *line, size_t len,
		       const char *vmflags, size_t flen, int64_t *result, char *err, size_t errlen,
		       long *col);
/* The present pages of an inherited anonymous VMA ("0-2,30": page
 * indexes from its start), as the kernel wrote them before the trace
 * began (argv and auxv on the stack): each is made present as a write
 * would make it. */
int inherit_apply_present(struct vmsys *s, struct task *t, const char *line, size_t len,
			  const char *ranges, size_t rlen, char *err, size_t errlen);
/* An inherit_file(...) line: size in ev->args[0], ranges "0-8,12" in str2 */
int inherit_apply_file(struct vmsys *s, const struct event *ev, int64_t *result, char *err,
		       size_t errlen);

#endif
