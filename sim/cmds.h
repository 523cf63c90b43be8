/*
 * cmds.h - the vmsim subcommands; each returns the process exit code
 * (0 ok, 1 divergence/violation/difference, 2 bad input or usage).
 *
 *   rec_faults, rec_proc, rec_sys, semantics, session, syscall_table,
 *   trace, views.
 *
 * Owns: the vmsim subcommands and their exit codes (main.c and cmd_*.c).
 * May call: apply, check_gen, check_inv, check_shrink, diff, flagtab,
 *   rec_faults, rec_proc, rec_sys, semantics, session, syscall_table,
 *   trace, views.
 */
#ifndef VMSIM_CMDS_H
#define VMSIM_CMDS_H

int cmd_replay(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_flags(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_check_merge(int argc, char **argv);

#define VMSIM_VERSION "0.1.0"

#endif
