/* cli.c - the vmsim command line: dispatch to a subcommand (see cli.h). */
#include "cli.h"

#include "alloc.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: vmsim COMMAND [OPTION]... [ARG]...\n"
	"\n"
	"  replay [--kernel K] [--arch A] [--cap-ipc-lock yes|no] [--rlimit-memlock SIZE]\n"
	"         [--max-map-count N] [--maps FILE] [--stop-at-first] [--check-invariants]\n"
	"         [--invariant NAME] [-q|-v] TRACE...\n"
	"  record [-o FILE] [--expect none|lock|all] [--faults] [--] PROGRAM [ARG]...\n"
	"  show   [--kernel K] [--arch A] [--at LINE] [--pid PID] [machine options] VIEW TRACE\n"
	"         VIEW: maps smaps status meminfo vmstat pages lru\n"
	"  diff   --kernel A --kernel B [--all] [machine options] TRACE...\n"
	"  flags  decode|encode|list --arch A --kernel K KIND VALUE\n"
	"         KIND: mmap prot mlockall mlock2 madvise mremap msync vm\n"
	"  check  --kernel K [--arch A] [--seed N] [--steps N] [--runs N] [--time SEC]\n"
	"         [--jobs N] [--out DIR] [--invariant NAME]... [--shard FILE]\n"
	"  check-merge [--out DIR] SHARD...   the shards of one campaign, reported as one run\n"
	"  explain [--kernel K] [--from LINE] [--to LINE] [--diff K2] [--all] TRACE\n"
	"         what the model did at each event, in kernel terms, with citations\n"
	"  step   [--kernel K] [--pid PID] [--width N] TRACE   walk a trace: next, back,\n"
	"         goto, until COND, show VIEW, explain, with pictures after each step\n"
	"  report [--kernel A [--kernel B]] -o OUT.html TRACE   one HTML page of pictures\n"
	"  convert [--to binary|text] IN OUT   a trace in its other form (the binary form\n"
	"         reads faster; every command reads both)\n"
	"  help [COMMAND]    this text, or one command's\n"
	"  version           the version (also --version, -V)\n"
	"\n"
	"Kernels: 4.0 lof-v1 4.4 6.1 6.18.\n"
	"Exit: 0 ok, 1 divergence, 2 bad input, 3 out of memory (of this machine, not the model's).\n"
	"`vmsim help COMMAND` or `vmsim COMMAND --help` describes one command.\n";

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "replay", cmd_replay }, { "record", cmd_record }, { "show", cmd_show },
	{ "diff", cmd_diff },     { "flags", cmd_flags },   { "check", cmd_check },
	{ "check-merge", cmd_check_merge }, { "explain", cmd_explain },
	{ "step", cmd_step },       { "report", cmd_report },
	{ "convert", cmd_convert },
};

static int run(const char *name, int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].fn(argc, argv);
	fprintf(stderr, "vmsim: unknown command '%s'\n\n%s", name, usage);
	return 2;
}

/* what --version adds about this build: a sanitizer build says so (the
 * suites read it: its memory is not the plain build's) */
static const char *build_note(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return " (sanitize: address)";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return " (sanitize: address)";
#else
	return "";
#endif
#else
	return "";
#endif
}

int vmsim_main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		if (!strcmp(cmd, "help") && argc > 2) {
			char help[] = "--help";
			char *av[] = { argv[2], help, NULL };
			return run(argv[2], 2, av);
		}
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V") || !strcmp(cmd, "version")) {
		printf("vmsim %s%s\n", VMSIM_VERSION, build_note());
		return 0;
	}
	vm_host_oom = false;
	int rc = run(cmd, argc - 1, argv + 1);
	if (vm_host_oom) {
		/* what the model answered after a failed allocation is not a
		 * kernel's answer: say so, with an exit status of its own */
		fflush(stdout);
		fprintf(stderr, "vmsim: error: out of memory: this machine could not allocate what "
				"the simulation needs (exit 3)\n");
		return 3;
	}
	return rc;
}
