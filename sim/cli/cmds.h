/*
 * cmds.h - the vmsim command line and its subcommands; each returns the
 * process exit code (0 ok, 1 divergence/violation/difference, 2 bad input
 * or usage, 3 this machine ran out of memory).
 *
 * Owns: the vmsim command line (main.c, cli.c) and the subcommands
 *   (cmd_*.c) with their options, output forms and exit codes.
 * May call: apply, check_gen, check_inv, check_shrink, diff, explain, explain_run,
 *   flagtab, json, lineedit, picture, rec_faults, rec_proc, rec_sys, replay_stats,
 *   report, semantics, session, syscall_table, trace, trace_bin, views, vmstat.
 */
#ifndef VMSIM_CMDS_H
#define VMSIM_CMDS_H

/* The whole command line (argv[0] the program, argv[1] the command), as
 * main() runs it; may be called again (the fuzz target does). */
int vmsim_main(int argc, char **argv);

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

#define VMSIM_VERSION "0.1.0"

#endif
