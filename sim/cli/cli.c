/* cli.c - the vmsim command line: dispatch to a subcommand (see cli.h). */
#include "cli.h"

#include "alloc.h"
#include "flagtab.h"
#include "replay.h"
#include "semantics.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
	"usage: vmsim COMMAND [OPTION]... [ARG]...\n"
	"\n"
	"  replay [--kernel K] [--arch A] [--cap-ipc-lock yes|no] [--rlimit-memlock SIZE]\n"
	"         [--max-map-count N] [--hugetlb-pages N] [--thp MODE] [--maps FILE]\n"
	"         [--stop-at-first] [--check-invariants] [--invariant NAME] [-q|-v] TRACE...\n"
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
	"Kernels: 4.0 lof-v1 4.4 6.1 6.12 6.18; patches: vma-count-v3 mremap-count\n"
	"(on 6.12), 6.18-dontunmap-fix (on 6.18) - docs/semantics.md.\n"
	"Exit: 0 ok, 1 divergence, 2 bad input, 3 out of memory (of this machine, not the model's).\n"
	"`vmsim help COMMAND` or `vmsim COMMAND --help` describes one command.\n";

int cli_output_begin(const char *cmd, const char *path, char *const *inputs, int ninputs,
		     struct cli_output *o)
{
	o->saved = -1;
	o->path = path;
	o->file.fd = -1;
	o->file.tmp[0] = 0;
	if (!path || !strcmp(path, "-"))
		return 0;
	/* an input named again is refused: the output would replace it */
	struct stat out, in;
	if (!stat(path, &out))
		for (int i = 0; i < ninputs; i++)
			if (S_ISREG(out.st_mode) && !stat(inputs[i], &in) && in.st_dev == out.st_dev &&
			    in.st_ino == out.st_ino) {
				fprintf(stderr, "vmsim %s: -o %s is the input %s\n", cmd, path, inputs[i]);
				return 2;
			}
	char err[4200];
	int fd = outfile_open(&o->file, path, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "vmsim %s: %s\n", cmd, err);
		return 2;
	}
	if (fflush(stdout) || (o->saved = dup(STDOUT_FILENO)) < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		fprintf(stderr, "vmsim %s: %s: %s\n", cmd, path, strerror(errno));
		if (o->saved >= 0)
			close(o->saved);
		o->saved = -1;
		outfile_abort(&o->file);
		return 2;
	}
	return 0;
}

bool cli_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		c += w;
		n -= (size_t)w;
	}
	return true;
}

const char *cli_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}

int cli_output_end(const char *cmd, struct cli_output *o, int rc)
{
	int err = fflush(stdout) || ferror(stdout) ? (errno ? errno : EIO) : 0;
	if (o->saved >= 0) {
		dup2(o->saved, STDOUT_FILENO);
		close(o->saved);
		o->saved = -1;
	}
	clearerr(stdout);
	if (o->file.fd >= 0) {
		/* whole or absent: an output cut by an error (exit 2 or 3) is
		 * not kept, and the file it would have replaced stands */
		char why[4200];
		if (err || rc >= 2) {
			outfile_abort(&o->file);
		} else if (outfile_commit(&o->file, why, sizeof(why))) {
			fprintf(stderr, "vmsim %s: writing %s\n", cmd, why);
			return 2;
		}
	}
	if (!err)
		return rc;
	fprintf(stderr, "vmsim %s: writing %s: %s\n", cmd,
		o->path && strcmp(o->path, "-") ? o->path : "the standard output", strerror(err));
	return rc > 2 ? rc : 2;
}

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

/* the edit distance of a and b, for "did you mean" (short names only) */
static unsigned distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 31 || lb > 31)
		return 99;
	unsigned d[32][32];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			unsigned del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
			/* two letters swapped count one */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

static int run(const char *name, int argc, char **argv)
{
	size_t ncmd = sizeof(commands) / sizeof(commands[0]), best = ncmd;
	unsigned bestd = 3; /* at most two edits away */
	for (size_t i = 0; i < ncmd; i++) {
		if (!strcmp(name, commands[i].name))
			return commands[i].fn(argc, argv);
		unsigned d = distance(name, commands[i].name);
		if (d < bestd) {
			bestd = d;
			best = i;
		}
	}
	fprintf(stderr, "vmsim: unknown command '%s'", name);
	if (best < ncmd)
		fprintf(stderr, " (did you mean '%s'?)", commands[best].name);
	fprintf(stderr, "\nusage: vmsim COMMAND [OPTION]... [ARG]...\n"
			"Try 'vmsim --help' for the commands.\n");
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

static const char version_usage[] =
	"usage: vmsim version [--format text|json]\n"
	"\n"
	"The version of vmsim; a sanitizer build says so.  --format json: one\n"
	"\"version\" object with the kernel semantics and arches it models and the trace\n"
	"format versions it reads (docs/json.md).\n";

static int cmd_version(int argc, char **argv)
{
	bool json = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(version_usage, stdout);
			return 0;
		}
		const char *val = !strncmp(a, "--format=", 9) ? a + 9 : !strcmp(a, "--format") ? argv[i + 1] : NULL;
		if (!strcmp(a, "--format") && !val)
			return session_usage_error("version", version_usage, "--format needs a value");
		if (!val)
			return session_usage_error("version", version_usage, "unknown argument '%s'", a);
		if (!strcmp(a, "--format"))
			i++;
		if (json_format_arg("version", "--format", val, &json))
			return 2;
	}
	if (!json) {
		printf("vmsim %s%s\n", VMSIM_VERSION, build_note());
		return 0;
	}
	json_begin(stdout, "version");
	json_kv_str(stdout, "version", VMSIM_VERSION);
	json_key(stdout, "sanitize");
	fputs(*build_note() ? "\"address\"" : "null", stdout);
	json_key(stdout, "kernels");
	fputc('[', stdout);
	for (size_t k = 0; semantics_all[k]; k++) {
		fputs(k ? ", " : "", stdout);
		json_str(stdout, semantics_all[k]->name);
	}
	fputc(']', stdout);
	json_key(stdout, "arches");
	fputc('[', stdout);
	for (size_t k = 0; flagtab_arch_names[k]; k++) {
		fputs(k ? ", " : "", stdout);
		json_str(stdout, flagtab_arch_names[k]);
	}
	fputc(']', stdout);
	json_key(stdout, "trace_format");
	fputs("[1]", stdout); /* the `# vmsim-trace:` versions it reads */
	json_end(stdout);
	return fflush(stdout) || ferror(stdout) ? 2 : 0;
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
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V") || !strcmp(cmd, "version"))
		return cmd_version(argc - 1, argv + 1);
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
