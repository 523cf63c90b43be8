/*
 * syscall_table.h - names the trace reader and writer share (private to
 * sim/trace/): syscall names, and the symbolic constants that do not
 * depend on the arch/kernel flag tables (O_*, FALLOC_FL_*, RLIMIT_*,
 * CLONE_*, signals, capabilities, errno names with strerror texts).  All values use Linux's generic
 * numbering (x86_64 for signals).
 *
 *
 * Owns: the names the reader and the writer share (syscalls, O_*, RLIMIT_*,
 *   signals, errnos).
 * May call: flagtab, kerr, semantics (a patch's flag tables are its
 *   base's), trace.
 */
#ifndef VMSIM_SYSCALL_TABLE_H
#define VMSIM_SYSCALL_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "flagtab.h"
#include "trace.h"

/* Syscall number of a name as strace writes it; SYS_UNKNOWN when unknown.
 * Aliases: mmap2 -> SYS_MMAP, unlinkat -> SYS_UNLINK. */
enum sysno systab_lookup(const char *name, size_t len);

enum symkind {
	SK_OFLAGS,   /* O_* (generic numbering); O_RDONLY/O_WRONLY/O_RDWR are the access mode */
	SK_FALLOC,   /* FALLOC_FL_* */
	SK_RLIMIT,   /* RLIMIT_* resource numbers */
	SK_CLONE,    /* CLONE_* flags */
	SK_SIGNAL,   /* SIG* numbers */
	SK_CAP,      /* CAP_* capability numbers (not bits) */
	SK_ACCESS,   /* READ WRITE EXEC (fault/touch modes) */
	SK_FAULTRES, /* MINOR MAJOR SIGSEGV SIGBUS */
	SK_FADV,     /* POSIX_FADV_* advice (generic numbering) */
	SK_IPCFLAGS, /* shmget: IPC_CREAT IPC_EXCL SHM_HUGETLB SHM_NORESERVE (with mode bits) */
	SK_SHMAT,    /* shmat: SHM_RDONLY SHM_RND SHM_REMAP SHM_EXEC */
	SK_SHMCMD,   /* shmctl commands: IPC_RMID ... SHM_LOCK SHM_UNLOCK (IPC_64 read, dropped) */
	SK_IORING_SETUP, /* io_uring_setup's IORING_SETUP_* flags */
	SK_IORING_REG,   /* io_uring_register's opcodes (IORING_REGISTER_USE_REGISTERED_RING a bit) */
	SK_MOUNT,        /* mount's MS_* flags */
	SK_UMOUNT,       /* umount2's MNT_* flags */
	SK_NKINDS
};

struct sym {
	const char *name;
	uint64_t value;
	uint64_t mask;   /* bits the entry occupies (== value for plain bit flags) */
	int alias;       /* accepted when reading, never written */
};

/* The table of one kind, in the order the writer decodes it. */
const struct sym *systab_table(enum symkind k, size_t *n);
/* a cheap hash of a syscall-like name (its length and three letters), for
 * tables that check what it finds */
unsigned systab_name_hash(const char *name, size_t len);
/* A key of the first min(n, 16) bytes at p (n >= 1) in two words: of two
 * names of one length, equal keys if and only if those bytes are equal.
 * Made of loads that overlap inside [p, p + n): the first and last 8
 * bytes, or 4, or three single bytes.  No memcpy() of a variable length,
 * whose byte stores and then a word load stalled the store forwarding (2%
 * of the replay of a plain strace log, in the memo of flag names). */
static inline void systab_name_key(const char *p, size_t n, uint64_t w[2])
{
	if (n > 16)
		n = 16;
	w[1] = 0;
	if (n >= 8) {
		memcpy(&w[0], p, 8);
		memcpy(&w[1], p + n - 8, 8);
	} else if (n >= 4) {
		uint32_t lo, hi;
		memcpy(&lo, p, 4);
		memcpy(&hi, p + n - 4, 4);
		w[0] = lo | (uint64_t)hi << 32;
	} else {
		w[0] = (uint64_t)(unsigned char)p[0] | (uint64_t)(unsigned char)p[n / 2] << 8 |
		       (uint64_t)(unsigned char)p[n - 1] << 16;
	}
}

/* 0 and *value on success, -1 when the name is not in the table. */
int systab_sym(enum symkind k, const char *name, size_t len, uint64_t *value);
/* Canonical name of a value in an enumerated kind (signals, caps,
 * rlimits, fault results); NULL if none. */
const char *systab_sym_name(enum symkind k, uint64_t value);

/* errno: number for a name (kerr's table first, then the extra names
 * strace prints: ESRCH, ECHILD, ERESTARTSYS ...); 0 when unknown. */
int systab_errno(const char *name, size_t len);
const char *systab_errno_name(int err);
/* strerror() text as strace prints it after the name. */
const char *systab_strerror(int err);

#endif
