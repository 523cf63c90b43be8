/*
 * fuzz_cli.c - libFuzzer target: the vmsim command line.
 *
 * The input is an argument vector: words separated by NUL bytes (at most
 * 24 words of at most 256 bytes), run as `vmsim WORD...` through the same
 * vmsim_main() the program runs.  The word "@T" stands for a small bundled
 * trace and "@S" for a check shard, both copied into the working directory
 * (a fresh temporary directory, fuzz_workdir.h), so that the commands get past option
 * parsing into real work.  Findings: crashes, sanitizer reports, leaks,
 * and an exit status other than 0, 1 and 2 (3, out of memory, cannot
 * happen here).
 *
 * Bounded by construction, so that no input is a hang: `record` (it runs
 * programs) and `--jobs` (it forks) are not run, step takes no checkpoint
 * (they fork: VMSIM_STEP_CHECKPOINT_EVERY=0), numbers above 400 are
 * rejected (--runs, --steps, --at ...), as are --time and every word with
 * a / in it (a path elsewhere: the commands write where they are told,
 * -o/x and --output=/x included).  `check` gets
 * `--runs 4` first and no other --runs: its default of 1,000 runs under
 * ASan outlasts the 10 s a unit may take (an input found by the 12:38
 * campaign of 2026-12-01, `check --kernel 7.0 --steps 389`).  The corpus and
 * artifact paths given to the target must be absolute (make fuzz does so).  Standard input
 * is /dev/null, standard output is discarded.  The directory, with what the
 * commands wrote in it, is removed when the fuzzer exits.
 */
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz_workdir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAXW 24
#define MAXLEN 256

static const char trace_text[] =
	"# vmsim-trace: 1\n# arch: x86_64\n# kernel: 6.18\n# rlimit-memlock: 64K\n"
	"mmap(NULL, 16384, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7ffff7ffb000\n"
	"mlock2(0x7ffff7ffb000, 8192, MLOCK_ONFAULT) = 0\n"
	"touch(0x7ffff7ffb000, 4096, WRITE) = 1\n"
	"expect(vma, 0x7ffff7ffb000) = {Locked=4 kB}\n"
	"fork() = 2\n2 munlockall() = 0\n2 +++ exited with 0 +++\n"
	"wait4(2, NULL, 0, NULL) = 2\nmunmap(0x7ffff7ffb000, 16384) = 0\n";

static char *argv0;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	argv0 = (*argv)[0];
	/* vmsim step's checkpoints are processes (fork): none inside the
	 * fuzzer; the variable overrides --checkpoint-every */
	setenv("VMSIM_STEP_CHECKPOINT_EVERY", "0", 1);
	fuzz_workdir_enter("cli");
	FILE *f = fopen("t.trace", "w");
	if (!f || fputs(trace_text, f) < 0 || fclose(f)) {
		perror("fuzz_cli: t.trace");
		exit(1);
	}
	/* a shard for check-merge: the real one of a short campaign */
	char *av[] = { argv0, "check", "--kernel", "lof-v1", "--runs", "64", "--steps", "20",
		       "--out", "co", "--shard", "s.shard", NULL };
	vmsim_main(12, av);
	return 0;
}

/* a word that would make the run unbounded or write outside the directory */
static int refused(const char *w)
{
	if (!strcmp(w, "record") || !strncmp(w, "--j", 3) || !strncmp(w, "--ti", 4) || strchr(w, '/') ||
	    strstr(w, ".."))
		return 1;
	unsigned long v = 0;
	for (const char *p = w; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			v = v * 10 + (unsigned long)(*p - '0');
			if (v > 400)
				return 1;
		} else {
			v = 0;
		}
		if (*p == 'x' && p > w && p[-1] == '0')
			return 1; /* 0x...: the numbers above in hex */
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char words[MAXW][MAXLEN + 1];
	char *argv[MAXW + 4];
	int argc = 0;
	argv[argc++] = argv0;
	size_t i = 0, nw = 0;
	while (i < size) {
		if (nw >= MAXW)
			return 0;
		size_t n = 0;
		while (i + n < size && data[i + n])
			n++;
		if (n > MAXLEN)
			return 0;
		char *w = words[nw++];
		memcpy(w, data + i, n);
		w[n] = 0;
		if (!strcmp(w, "@T"))
			strcpy(w, "t.trace");
		else if (!strcmp(w, "@S"))
			strcpy(w, "s.shard");
		if (refused(w))
			return 0;
		if (argc > 1 && !strcmp(argv[1], "check") && !strncmp(w, "--r", 3))
			return 0; /* the run count is ours */
		argv[argc++] = w;
		if (argc == 2 && !strcmp(w, "check")) {
			static char runs[] = "--runs", four[] = "4";
			argv[argc++] = runs;
			argv[argc++] = four;
		}
		i += n + 1;
	}
	argv[argc] = NULL;
	int rc = vmsim_main(argc, argv);
	fflush(stdout);
	if (rc < 0 || rc > 2)
		abort();
	return 0;
}
