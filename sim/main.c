/* main.c - the vmsim command: dispatch to a subcommand. */
#include "cmds.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: vmsim COMMAND [OPTIONS] ...\n"
	"\n"
	"  replay [--kernel NAME] [--arch NAME] [--stop-at-first] [--check-invariants] [-q|-v] TRACE...\n"
	"  show   [--kernel NAME] [--arch NAME] [--at LINE] VIEW TRACE\n"
	"         VIEW: maps smaps status meminfo vmstat pages lru\n"
	"  diff   --kernel A --kernel B [--all] TRACE...\n"
	"  flags  decode|encode --arch NAME --kernel NAME KIND VALUE\n"
	"         KIND: mmap prot mlockall mlock2 madvise mremap msync vm\n"
	"  check  --kernel NAME [--arch NAME] [--seed N] [--steps N] [--runs N] [--time SEC]\n"
	"         [--jobs N] [--out DIR] [--invariant NAME]...\n"
	"\n"
	"Kernels: 4.0 lof-v1 4.4 6.1 6.18.  Exit: 0 ok, 1 divergence, 2 bad input.\n"
	"`vmsim COMMAND --help` describes one command.\n";

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("vmsim %s\n", VMSIM_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "replay"))
		return cmd_replay(argc - 1, argv + 1);
	if (!strcmp(cmd, "show"))
		return cmd_show(argc - 1, argv + 1);
	if (!strcmp(cmd, "diff"))
		return cmd_diff(argc - 1, argv + 1);
	if (!strcmp(cmd, "flags"))
		return cmd_flags(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return cmd_check(argc - 1, argv + 1);
	fprintf(stderr, "vmsim: unknown command '%s'\n\n%s", cmd, usage);
	return 2;
}
