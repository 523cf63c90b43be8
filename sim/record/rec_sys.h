/*
 * rec_sys.h - `vmsim record`'s syscall decoder: a stopped tracee's
 * registers and memory into a trace event (trace.h), x86_64 only.
 *
 * At syscall entry rec_sys_enter() keeps what only the entry shows (the
 * arguments, strings and structs the call reads); at exit rec_sys_exit()
 * adds the result and what the call wrote (stat buffers, pipe fds).  The
 * event is then written with trace_write_event(), so a recording is in
 * the canonical notation of the trace writer.
 *
 * Uses process_vm_readv() on the tracee; no other I/O.
 *
 *
 * Owns: vmsim record's x86_64 syscall decoder.
 * May call: trace.
 */
#ifndef VMSIM_REC_SYS_H
#define VMSIM_REC_SYS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace.h"

/* What one in-flight call of one tracee needs between entry and exit. */
struct rec_call {
	long nr;               /* syscall number, -1 when not in a call */
	uint64_t a[6];         /* raw arguments */
	struct event ev;       /* decoded so far; str/str2 point into buf */
	char buf[4096 + 256];  /* strings read from the tracee */
	bool modelled;         /* the model follows this call (else not written) */
};

/* Whether this build can decode syscalls of the machine it runs on. */
bool rec_sys_supported(void);
/* Decode the entry of syscall nr with arguments a[] of tid.  Returns true
 * when the call is one a trace records. */
bool rec_sys_enter(struct rec_call *c, pid_t tid, long nr, const uint64_t a[6]);
/* The call returned ret: finish c->ev (result, output structs). */
void rec_sys_exit(struct rec_call *c, pid_t tid, int64_t ret);
/* The x86_64 numbers of the calls that end or replace the process image. */
bool rec_sys_is_execve(long nr);

#endif
