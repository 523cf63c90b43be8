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

#include "fuzz_bounds.h"
#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
