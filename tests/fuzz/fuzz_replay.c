/*
 * fuzz_replay.c - libFuzzer target: replay of any trace on the model.
 *
 * The input is a trace; its header builds the machine (RAM forced to 256
 * MiB so that a hostile input's cost is bounded by the simulated machine),
 * then at most 400 events are applied as `vmsim replay` applies them, with
 * the model's invariant walker after each.  Events whose range exceeds
 * 64 MiB are skipped: the cost of a walk over a huge range is the subject
 * of the bounded-cost work, not of this target.  Findings: crashes,
 * sanitizer reports, leaks, and a violated model invariant (abort).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool too_big(const struct event *ev)
{
	if (ev->type != EV_CALL)
		return false;
	switch (ev->sys) {
	case SYS_MMAP: case SYS_MUNMAP: case SYS_MPROTECT: case SYS_MADVISE: case SYS_MSYNC:
	case SYS_MLOCK: case SYS_MLOCK2: case SYS_MUNLOCK: case SYS_TOUCH:
		return ev->args[1] > (64u << 20);
	case SYS_MREMAP:
		return ev->args[1] > (64u << 20) || ev->args[2] > (64u << 20);
	case SYS_FTRUNCATE:
		return ev->args[1] > (64u << 20);
	case SYS_FALLOCATE: case SYS_FADVISE64:
		return ev->args[2] > (1ULL << 40) || ev->args[3] > (64u << 20);
	case SYS_READ: case SYS_WRITE: case SYS_PREAD64: case SYS_PWRITE64:
		return ev->args[2] > (64u << 20) || ev->args[3] > (1ULL << 40);
	case SYS_RECLAIM: case SYS_INHERIT_FILE:
		return ev->args[0] > (64u << 20);
	case SYS_EVICT:
		return ev->args[1] > 4096;
	case SYS_MLOCKALL: case SYS_BRK: case SYS_INHERIT:
		return true; /* whole address space walks / unbounded ranges */
	default:
		return false;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	char err[512];
	struct trace_reader *r = trace_open_stream(f, "fuzz", NULL, NULL, err, sizeof(err));
	if (!r) {
		fclose(f);
		return 0;
	}
	struct event ev;
	int k = trace_read(r, &ev);
	struct trace_header h = *trace_header(r);
	h.has_ram = true;
	h.ram = 256u << 20;
	const struct semantics *sem;
	struct vmsys *s = k > 0 ? session_model(&h, NULL, NULL, &sem, err, sizeof(err)) : NULL;
	for (unsigned n = 0; s && k > 0 && n < 400; n++, k = trace_read(r, &ev)) {
		if ((ev.type == EV_CALL && ev.sys == SYS_UNKNOWN) || too_big(&ev))
			continue;
		struct outcome out;
		if (apply_event(s, &ev, &out, err, sizeof(err)))
			break;
		char why[2048], msg[256];
		unsigned checked = 0;
		if (ev.type == EV_EXPECT)
			expect_check(s, &ev, why, sizeof(why), &checked);
		if (vmsys_check_invariants(s, msg, sizeof(msg))) {
			fprintf(stderr, "invariant violated at line %lu: %s\n", ev.line, msg);
			abort();
		}
	}
	vmsys_free(s);
	trace_close(r);
	fclose(f);
	return 0;
}
