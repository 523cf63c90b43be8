/*
 * fuzz_merge.c - libFuzzer target: `vmsim check-merge` of shard files.
 *
 * The input is up to four shard files separated by the line "--next--"
 * (a random campaign's, "vmsim-check-shard 1", or an exhaustive search's),
 * written into a fresh temporary directory and merged there as
 * `vmsim check-merge --out co -o report s0 s1 ...`, which reads them,
 * checks that they belong to one campaign and rebuilds the reproducers of
 * what they found.  Findings: crashes, sanitizer reports, leaks, and an
 * exit status other than 0, 1 and 2.  The seeds (tests/fuzz/corpus-merge)
 * are shards of real campaigns of both kinds.  Bounded by the input: a
 * shard's step records are its own lines.  Standard output is discarded;
 * the directory is removed when the fuzzer exits.
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz_workdir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAXSHARDS 4
static const char sep[] = "--next--\n";

static char *argv0;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	argv0 = (*argv)[0];
	fuzz_workdir_enter("merge");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char names[MAXSHARDS][8];
	char *argv[8 + MAXSHARDS];
	int argc = 0;
	argv[argc++] = argv0;
	static char cmd[] = "check-merge", out[] = "--out", co[] = "co", o[] = "-o", rep[] = "report";
	argv[argc++] = cmd;
	argv[argc++] = out;
	argv[argc++] = co;
	argv[argc++] = o;
	argv[argc++] = rep;
	size_t i = 0;
	for (int k = 0; k < MAXSHARDS && i <= size; k++) {
		const uint8_t *end = memmem(data + i, size - i, sep, sizeof(sep) - 1);
		size_t n = end ? (size_t)(end - (data + i)) : size - i;
		snprintf(names[k], sizeof(names[k]), "s%d", k);
		FILE *f = fopen(names[k], "w");
		if (!f || fwrite(data + i, 1, n, f) != n || fclose(f)) {
			perror("fuzz_merge: a shard");
			abort();
		}
		argv[argc++] = names[k];
		if (!end)
			break;
		i += n + sizeof(sep) - 1;
	}
	argv[argc] = NULL;
	int rc = vmsim_main(argc, argv);
	fflush(stdout);
	if (rc < 0 || rc > 2)
		abort();
	return 0;
}
