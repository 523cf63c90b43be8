/*
 * cli.h - the vmsim command line and its subcommands; each returns the
 * process exit code (0 ok, 1 divergence/violation/difference, 2 bad input
 * or usage, 3 this machine ran out of memory).
 *
 * Owns: the vmsim command line (main.c, cli.c) and the subcommands
 *   (cmd_*.c) with their options, output forms and exit codes.
 * May call: checker, checkpoint (step's), flagtab, record, replay, semantics,
 *   teach, trace, vmsim (VMSIM_VERSION), vmstat.
 */
#ifndef VMSIM_CLI_H
#define VMSIM_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "trace.h"  /* struct outfile */
#include "vmsim.h" /* VMSIM_VERSION */

/* The whole command line (argv[0] the program, argv[1] the command), as
 * main() runs it; may be called again (the fuzz target does). */
int vmsim_main(int argc, char **argv);

/*
 * -o FILE of a command whose output can be large: standard output is FILE
 * from cli_output_begin() to cli_output_end() (NULL or "-": it stays).
 * FILE is whole or absent (trace.h, "Output files"): it is written beside
 * and renamed over FILE at the end, and not at all when the command ends
 * in an error (exit 2 or 3).  FILE must not be one of the ninputs paths of
 * inputs.  0, or 2 after a message.
 */
struct cli_output {
	int saved;             /* the standard output put aside, or -1 */
	const char *path;
	struct outfile file;   /* FILE's temporary */
};
int cli_output_begin(const char *cmd, const char *path, char *const *inputs, int ninputs,
		     struct cli_output *o);
/* Flush what was written; a write error (a full disk) is said on stderr.
 * Returns rc, or 2 when the output is incomplete and rc said less. */
int cli_output_end(const char *cmd, struct cli_output *o, int rc);

/* n bytes of p to fd, again after EINTR and a short write; false on an
 * error (errno) or a write of nothing. */
bool cli_write_all(int fd, const void *p, size_t n);
/* Where temporary files go: $TMPDIR, else /tmp. */
const char *cli_tmpdir(void);

int cmd_replay(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_flags(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_check_merge(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_step(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_convert(int argc, char **argv);
/* cmd_exhaustive.c: vmsim check --exhaustive, and check-merge of its shards */
int cmd_check_exhaustive(int argc, char **argv);
bool exh_is_shard(const char *path);
int exh_merge(char *const *paths, int n, const char *out, const char *output, bool json);

#endif
