/*
 * fuzz_reader.c - libFuzzer target: the trace reader on any bytes.
 *
 * The input is a trace; every event is read until the end or the first
 * error, which must be a FILE:LINE:COL message.  Crashes, hangs, leaks and
 * sanitizer reports are the findings.  `make fuzz` builds and runs it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	char err[256];
	struct trace_reader *r = trace_open_stream(f, "fuzz", NULL, NULL, err, sizeof(err));
	if (!r) {
		fclose(f);
		return 0;
	}
	struct event ev;
	int k;
	unsigned long n = 0;
	while ((k = trace_read(r, &ev)) > 0 && n < 100000) {
		char buf[1024];
		trace_format_event(&ev, "x86_64", "6.18", buf, sizeof(buf));
		n++;
	}
	if (k < 0 && strncmp(trace_error(r), "fuzz:", 5))
		abort(); /* an error must name the input and its line */
	trace_close(r);
	fclose(f);
	return 0;
}
