/*
 * fuzz_diff.c - libFuzzer target: vmsim diff's scoped comparison against
 * its full one.
 *
 * The input is a trace.  Its events are read and written again, in
 * canonical form, to a file whose header forces 256 MiB of RAM (a hostile
 * input's cost is the simulated machine's) and keeps at most 300 events;
 * those whose range exceeds 64 MiB are left out, as fuzz_replay leaves
 * them.  Then `diff --all` of that file runs twice under a pair of
 * semantics picked by the input's length: comparing after each event only
 * what it changed (the default), and everything (diff_opts.full).  The
 * two must print the same (sim/replay/diff.c: a scope that missed a change
 * shows as a difference listed by one and not the other).  Findings:
 * crashes, sanitizer reports, leaks, and the two outputs differing
 * (abort, with both on stderr).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_bounds.h"
#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *diff_text(const char *path, const char *ka, const char *kb, bool full, int *rc)
{
	struct diff_opts o = { ka, kb, NULL, true, NULL, full, NULL, NULL };
	struct diff_result r;
	*rc = diff_trace(path, &o, &r);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		diff_result_free(&r);
		return NULL;
	}
	fprintf(f, "rc %d\n", *rc);
	if (*rc != 2)
		diff_print(path, &r, f);
	fclose(f);
	diff_result_free(&r);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const pairs[][2] = { { "4.0", "lof-v1" }, { "4.0", "4.4" }, { "4.4", "6.1" },
						{ "6.1", "6.18" }, { "lof-v1", "6.18" } };
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	char err[512];
	struct trace_reader *r = trace_open_stream(in, "fuzz", NULL, NULL, err, sizeof(err));
	if (!r) {
		fclose(in);
		return 0;
	}
	char path[] = "/tmp/vmsim-fuzz-diff-XXXXXX";
	int fd = mkstemp(path);
	FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!out) {
		if (fd >= 0)
			close(fd);
		trace_close(r);
		fclose(in);
		return 0;
	}
	struct event ev;
	int k = trace_read(r, &ev);
	if (k > 0) {
		struct trace_header h = *trace_header(r);
		h.has_ram = true;
		h.ram = 256u << 20;
		const char *arch = h.has_arch ? h.arch : "x86_64";
		trace_write_header(out, &h);
		for (unsigned n = 0; k > 0 && n < 300; n++, k = trace_read(r, &ev)) {
			if ((ev.type == EV_CALL && ev.sys == SYS_UNKNOWN) || too_big(&ev))
				continue;
			char line[4096];
			size_t len = trace_format_event(&ev, arch, trace_flag_names(r), line, sizeof(line));
			if (len < sizeof(line))
				fprintf(out, "%s\n", line);
		}
	}
	fclose(out);
	trace_close(r);
	fclose(in);
	const char *const *pk = pairs[size % 5];
	int ra, rb;
	char *a = diff_text(path, pk[0], pk[1], false, &ra);
	char *b = diff_text(path, pk[0], pk[1], true, &rb);
	if (a && b && strcmp(a, b)) {
		fprintf(stderr, "%s vs %s: the scoped diff differs from the full one\n-- scoped --\n%s\n-- full --\n%s\n",
			pk[0], pk[1], a, b);
		abort();
	}
	free(a);
	free(b);
	unlink(path);
	return 0;
}
