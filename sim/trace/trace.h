/*
 * trace.h - events of the trace format (docs/trace-format.md), the
 * streaming reader that turns text into events, and the writer that turns
 * events back into canonical text.
 *
 * The reader streams: it holds one line (plus the pending halves of
 * <unfinished ...> calls, one per pid) and never the whole file, so memory
 * does not grow with trace length.  Strings inside an event (paths, expect
 * keys) point into the reader's buffers and stay valid until the next
 * trace_read() call.
 *
 * Argument conventions (args[] after decoding; flags are the numbers of the
 * trace's arch/kernel table, symbolic names already resolved):
 *   mmap       addr len prot flags fd off
 *   munmap     addr len            mprotect  addr len prot
 *   mremap     old_addr old_len new_len flags new_addr(0 if absent)
 *   madvise    addr len advice     msync     addr len flags
 *   brk        addr                mlock/munlock addr len
 *   mlock2     addr len flags      mlockall  flags      munlockall -
 *   fork/vfork -                   clone     clone_flags (CLONE_* generic values, SIGCHLD in low byte)
 *   clone3     clone_flags         execve    - (str = path)
 *   exit/exit_group status
 *   openat     dirfd - oflags mode (str = path; AT_FDCWD = -100; O_* in generic numbering)
 *   open       -100 - oflags mode  (same slots as openat)
 *   close      fd                  unlink    - (str = path)
 *   ftruncate  fd len              fallocate fd mode off len
 *   read/write fd - count          pread64/pwrite64 fd - count off
 *   setrlimit  resource            prlimit64 pid resource     (rlimit in ev->rlim)
 *   capset     -                   (effective, permitted sets in ev->cap_effective, cap_permitted)
 *   setuid     uid                 setreuid  ruid euid     setresuid ruid euid suid (-1: kept)
 *   fault      addr mode           touch     addr len mode
 *   shmget     key size flags      shmat     shmid addr flags
 *   shmdt      addr                shmctl    shmid cmd (the buffer is not read)
 *   memfd_secret flags (O_CLOEXEC) 
 *   io_uring_setup entries flags cq_entries (the params' fields)
 *   io_uring_register fd opcode iov_known nr_args (str = the argument as
 *              written: an iovec array, iov_known = 1, is read with
 *              trace_iovec_next())
 *   io_uring_enter fd registered_ring (IORING_ENTER_REGISTERED_RING given)
 *   creat      path (ev->str)      - O_CREAT|O_WRONLY|O_TRUNC in args[2], mode in args[3]
 *   mount      flags (MS_*)        (str = target, str2 = fstype, str3 = source;
 *              NULL: an empty string with a NULL pointer)
 *   umount2    flags (MNT_*)       (str = target; umount: flags 0)
 *   unshare    flags (CLONE_*)
 *   chdir      - (str = path)      fchdir    fd
 *   reclaim    nr_pages            drop_caches value
 *   numa_scan  -                   numa_node  node
 *   numa_run   ms
 *   memcg_force_empty -           memcg_limit bytes (-1: none)
 *   memcg_max bytes (-1: max)     memcg_high bytes (-1: max)
 *   fstat      fd size has_size    newfstatat/statx dirfd size has_size (str = path)
 *   stat/lstat -100 size has_size (str = path)
 *   dup        fd                  dup2/dup3 fd newfd
 *   fcntl      fd cmd arg          (cmd: 0 F_DUPFD, 1030 F_DUPFD_CLOEXEC, else FCNTL_OTHER)
 *   pipe/pipe2/socketpair  fd0 fd1 (the array strace prints)
 *   fsync/fdatasync fd             fadvise64 fd off len advice (POSIX_FADV_*)
 *   memfd_create - (str = name)    other fd makers (FDNEW): - (name = the call)
 *   inherit    - (str = /proc/PID/maps line, str2 = VmFlags text or empty,
 *              str3 = pages present in an anonymous VMA, "0-2,30", relative)
 *   inherit_file size - (str = path, str2 = cached page ranges "0-8,12")
 *   evict      index nr (str = path): pages that left the page cache from outside
 * Negative numbers (fd -1, AT_FDCWD) are stored two's complement.
 * Resource numbers use the generic numbering (RLIMIT_MEMLOCK = 8).
 *
 *   trace_reader, trace_strace.
 *
 * Owns: struct event, the streaming reader (trace_read.c and its units) and
 *   the canonical writer (trace_write.c).
 * May call: flagtab, measured, syscall_table, trace_args, trace_header, trace_lex,
 *   trace_bin, trace_reader, trace_strace.
 */
#ifndef VMSIM_TRACE_H
#define VMSIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "flagtab.h"
#include "measured.h"

enum ev_type {
	EV_CALL,        /* a syscall or a pseudo-call: NAME(ARGS) = RESULT */
	EV_EXPECT,      /* expect(...) = ... */
	EV_SIGNAL,      /* --- SIGxxx {si_signo=..., si_code=..., si_addr=...} --- */
	EV_EXITED,      /* +++ exited with N +++ */
	EV_KILLED,      /* +++ killed by SIGxxx [(core dumped)] +++ */
};

enum sysno {
	SYS_UNKNOWN = 0, /* any other syscall: read, counted, skipped */
	SYS_MMAP, SYS_MUNMAP, SYS_MPROTECT, SYS_MREMAP, SYS_MADVISE, SYS_MSYNC,
	SYS_BRK, SYS_MLOCK, SYS_MLOCK2, SYS_MUNLOCK, SYS_MLOCKALL, SYS_MUNLOCKALL,
	SYS_FORK, SYS_VFORK, SYS_CLONE, SYS_CLONE3, SYS_EXECVE, SYS_EXIT,
	SYS_EXIT_GROUP, SYS_OPENAT, SYS_OPEN, SYS_CLOSE, SYS_UNLINK, SYS_FTRUNCATE,
	SYS_FALLOCATE, SYS_READ, SYS_PREAD64, SYS_WRITE, SYS_PWRITE64,
	SYS_SETRLIMIT, SYS_PRLIMIT64, SYS_CAPSET,
	/* calls that only tell the model what it cannot see (file sizes) or
	 * make descriptors it must know exist */
	SYS_FSTAT, SYS_NEWFSTATAT, SYS_STAT, SYS_STATX,
	SYS_DUP, SYS_DUP2, SYS_DUP3, SYS_FCNTL,
	SYS_FDNEW, SYS_PIPE, SYS_PIPE2, SYS_SOCKETPAIR, SYS_MEMFD_CREATE,
	SYS_FSYNC, SYS_FADVISE64,
	SYS_WAIT4,       /* wait4/waitid: the parent reaps an exited child */
	/* pseudo-events */
	SYS_FAULT, SYS_TOUCH, SYS_RECLAIM, SYS_DROP_CACHES,
	SYS_INHERIT, SYS_INHERIT_FILE, SYS_EVICT,
	SYS_NUMA_SCAN, SYS_NUMA_NODE,
	SYS_MEMCG_FORCE_EMPTY,
	SYS_NUMA_RUN,
	SYS_MEMCG_LIMIT,
	/* SysV shared memory (added last: the numbers before stay) */
	SYS_SHMGET, SYS_SHMAT, SYS_SHMDT, SYS_SHMCTL,
	SYS_CREAT,  /* open(PATH, O_CREAT|O_WRONLY|O_TRUNC, MODE) */
	SYS_SETUID, SYS_SETREUID, SYS_SETRESUID,
	SYS_MEMFD_SECRET,
	SYS_IO_URING_SETUP, SYS_IO_URING_REGISTER, SYS_IO_URING_ENTER,
	SYS_MOUNT, SYS_UMOUNT2, SYS_UNSHARE, SYS_CHDIR, SYS_FCHDIR,
	SYS_MEMCG_MAX, SYS_MEMCG_HIGH, /* cgroup v2 memory.max, memory.high */
	SYS_NR
};

/* creat()'s open flags in the trace's (generic) O_ numbering */
#define CREAT_OFLAGS 01101u /* O_CREAT | O_TRUNC | O_WRONLY */


/* fault/touch access modes */
enum access_mode { ACC_READ = 1, ACC_WRITE = 2, ACC_EXEC = 4 };

/* pseudo-results of fault() */
enum fault_result { FR_MINOR = 1, FR_MAJOR, FR_SIGSEGV, FR_SIGBUS };

enum res_kind {
	RES_NONE,    /* no "= ..." at all (only for unfinished halves; never returned) */
	RES_UNKNOWN, /* "= ?" */
	RES_VALUE,   /* "= 0", "= 0x7f..", "= 32", "= MINOR" (value = enum fault_result) */
	RES_ERROR,   /* "= -1 ENOMEM (text)": err = 12 */
	RES_RESTART, /* "= ? ERESTARTNOINTR (To be restarted)": a signal interrupted
		      * the call before it took effect and the kernel restarts it
		      * (strace shows the restarted call again); err = 513 */
};

#define RLIM_INFINITY_VALUE UINT64_MAX
#define FCNTL_OTHER 0xffffu /* an fcntl command that makes no descriptor */

enum expect_kind {
	EXP_FIELD, /* expect(VmLck) = 32 kB; also meminfo/vmstat names */
	EXP_VMA,   /* expect(vma, ADDR) = {k=v, ...} | none */
	EXP_VMAS,  /* expect(vmas, START, END) = N */
	EXP_PAGE,  /* expect(page, ADDR) = {k=v, ...} */
	EXP_RUSAGE, /* expect(rusage) = {minflt=N, majflt=N} */
};

struct strslice {
	const char *p;
	size_t len;
};

struct expect_kv {
	struct strslice key;
	struct strslice text; /* the raw value text (string values without quotes) */
	uint64_t num;         /* numeric value, scaled to bytes when unit is kB/MB/... */
	bool is_num;
	bool is_str;          /* was a quoted string */
	int col;              /* column of the key, 1-based */
};

#define EXPECT_MAX_KV 32

struct expect {
	enum expect_kind kind;
	struct strslice field; /* EXP_FIELD: "VmLck" */
	uint64_t addr, end;    /* EXP_VMA/EXP_PAGE: addr; EXP_VMAS: addr..end */
	bool none;             /* "= none" */
	uint64_t value;        /* EXP_FIELD / EXP_VMAS numeric value; in kB when value_in_kb */
	bool value_in_kb;      /* EXP_FIELD value was given with "kB" (or MB/GB, converted) */
	unsigned nkv;
	struct expect_kv kv[EXPECT_MAX_KV];
};

struct event {
	enum ev_type type;
	int pid;               /* 0 when the line had none (the first process) */
	unsigned long line;    /* 1-based line of the event (of the "resumed" half for split calls) */
	unsigned long first_line; /* line where the call started (unfinished half) */
	double timestamp;      /* seconds; < 0 when absent */
	const char *src;       /* the file of a merged strace -ff log, else NULL */

	/* EV_CALL */
	enum sysno sys;
	struct strslice name;  /* the name as written (for SYS_UNKNOWN and messages) */
	unsigned nargs;
	bool args_missing;     /* an unfinished call that never resumed before the
				* arguments it needs were written: not applied */
	uint64_t args[6];
	struct strslice str;   /* path argument (openat, open, unlink, execve) */
	struct strslice str2;  /* second string (inherit, inherit_file) */
	struct strslice str3;  /* third string (inherit: present pages) */
	struct strslice args_text; /* raw text between the parentheses (the writer
				  * reproduces SYS_UNKNOWN calls from it) */
	bool has_rlim;         /* setrlimit/prlimit64 new limit given (not NULL) */
	uint64_t rlim_cur, rlim_max;
	uint64_t cap_effective;/* capset: effective set, bit n = capability n */
	uint64_t cap_permitted;/* capset: permitted set, when has_cap_permitted */
	bool has_cap_permitted;
	enum res_kind res;
	int64_t value;         /* RES_VALUE */
	int err;               /* RES_ERROR: positive errno number */

	/* EV_EXPECT */
	struct expect exp;

	/* EV_SIGNAL / EV_KILLED */
	int signo;
	uint64_t si_addr;
	bool has_si_addr;
	struct strslice si_code; /* "SEGV_ACCERR" */

	/* EV_EXITED */
	int exit_status;
};

/* Header keys (all optional); has_* says whether the trace gave the key. */
struct trace_header {
	unsigned version;            bool has_version;
	char arch[32];               bool has_arch;
	char kernel[32];             bool has_kernel;
	/* `# flag-names: TABLE`: whose names the flag arguments are written
	 * with - "strace" (a current strace's: the newest tables; the default)
	 * or a kernel's own ("4.0", "lof-v1", ...).  The numbers they stand
	 * for are then the semantics' to interpret. */
	char flag_names[32];         bool has_flag_names;
	uint64_t page_size;          bool has_page_size;
	uint64_t ram;                bool has_ram;     /* bytes */
	uint64_t swap;               bool has_swap;    /* bytes */
	uint64_t rlimit_memlock;     bool has_rlimit_memlock; /* bytes, RLIM_INFINITY_VALUE = unlimited */
	bool cap_ipc_lock;           bool has_cap_ipc_lock;
	bool cap_sys_resource;       bool has_cap_sys_resource; /* vmsim's own key */
	uint64_t cap_bounding;       bool has_cap_bounding; /* CapBnd, bit n capability n */
	/* `# recorded-by: ... as root`: a recorder run by uid 0, which keeps
	 * every capability it does not drop (cap-ipc-lock says whether it
	 * dropped CAP_IPC_LOCK); without cap-sys-resource, the process could
	 * raise a hard limit */
	bool recorded_as_root;
	bool faults;                 bool has_faults;  /* vmsim's own key: fault lines recorded */
	bool end_mark;               bool has_end_mark; /* vmsim's own key: the trace ends with `# end` */
	uint64_t uid;                bool has_uid;     /* vmsim's own key: the first process's uid */
	uint64_t max_map_count;      bool has_max_map_count;
	bool zero_page;              bool has_zero_page;
	bool soft_dirty;             bool has_soft_dirty;    /* vmsim's own key */
	uint64_t read_ahead_kb;      bool has_read_ahead_kb; /* vmsim's own key */
	uint64_t numa_nodes;         bool has_numa_nodes;    /* vmsim's own key */
	/* vmsim's own key: pages the user's locked_vm held when the trace
	 * began (the recorder's own perf buffers), which io_uring's charges
	 * add to */
	uint64_t user_locked_vm;     bool has_user_locked_vm;
	uint64_t hugetlb_pages;      bool has_hugetlb_pages; /* vmsim's own key */
	int thp;                     bool has_thp;           /* 0 never, 1 madvise, 2 always */
	/* vmsim's own keys: the mount points of ramfs and tmpfs file systems
	 * when the trace began, separated by commas (a space, a comma or a
	 * backslash in a path written \040, \054, \134: octal escapes, as
	 * /proc/self/mountinfo writes them) */
	char ramfs[1024];            bool has_ramfs;
	char tmpfs[2048];            bool has_tmpfs;
	/* vmsim's own key: the first process's working directory */
	char cwd[1024];              bool has_cwd;
	uint64_t seed;               bool has_seed;
	/* `# check-invariants: NAME,...`: promise invariants (vmsim check) that
	 * `replay --check-invariants` also checks on this trace ("all" = every one) */
	char check_invariants[256];  bool has_check_invariants;
	unsigned long check_invariants_line; long check_invariants_col; /* for messages */
};

struct trace_reader;

/* The next {iov_base=B, iov_len=L} of an iovec array's text (an
 * io_uring_register event's str, which the reader checked), from *p on:
 * true with *base, *len and *p moved past it; false at the array's end or
 * at strace's "..." (an array cut short: *cut set). */
bool trace_iovec_next(const char **p, const char *end, uint64_t *base, uint64_t *len, bool *cut);

/* Open path ("-" = stdin) for reading.  arch/kernel, if non-NULL, override
 * the header's choice of flag table.  Returns NULL with a message in err
 * (at most errlen bytes) on failure. */
struct trace_reader *trace_open(const char *path, const char *arch,
				const char *kernel, char *err, size_t errlen);
/* The same, but messages name the trace name, not path (a copy of a pipe
 * read from a file of its own). */
struct trace_reader *trace_open_as(const char *path, const char *name, const char *arch,
				   const char *kernel, char *err, size_t errlen);
/* Same over an already open stream (not closed by trace_close). */
struct trace_reader *trace_open_stream(FILE *f, const char *name,
				       const char *arch, const char *kernel,
				       char *err, size_t errlen);
void trace_close(struct trace_reader *r);
/* strace -ff -tt -o PREFIX: the files PREFIX.PID of every process, read as
 * one trace ordered by timestamp (a child's events after the fork-like call
 * that returned its pid).  Each file's events get the pid of its name. */
struct trace_reader *trace_open_merged(const char *const *paths, size_t n, const char *arch,
				       const char *kernel, char *err, size_t errlen);
/* Whether paths are the files of one strace -ff recording: PREFIX.PID,
 * the same PREFIX, at least two. */
bool trace_paths_are_ff(const char *const *paths, size_t n);

/* The header; complete once the first event was read (or at EOF). */
const struct trace_header *trace_header(struct trace_reader *r);

/* Read the next event.  Returns 1 with *ev filled, 0 at end of input,
 * -1 on malformed input: then trace_error() is
 * "FILE:LINE:COL: error: what was expected".  Unknown syscalls are returned
 * as SYS_UNKNOWN events (counted; the caller may skip them). */
VMSIM_MEASURED int trace_read(struct trace_reader *r, struct event *ev);
const char *trace_error(struct trace_reader *r);
/* After trace_read() returned -1: the input ends in the middle of a line
 * (the last one, without a newline, does not parse) or of a binary block -
 * a full disk, a writer killed - and the events before it were whole. */
bool trace_truncated(const struct trace_reader *r);
/* Whether the trace's header promised a last line `# end` (`# end-mark:
 * yes`, as vmsim record writes) that never came: the writer was killed.
 * trace_read() then fails at the end of the input, and trace_truncated()
 * is true too: what came before stands. */
bool trace_incomplete(const struct trace_reader *r);
const char *trace_name(struct trace_reader *r);

/* Unknown syscall names seen so far, with counts (for the once-per-name
 * warning and the summary). */
size_t trace_unknown_count(struct trace_reader *r);
/* on: read every line with the general parser, never the one-pass hot
 * path for touch/fault lines (the tests compare the two; default off). */
void trace_set_slow(struct trace_reader *r, bool on);
/* If the line after the current one is already buffered and is a touch or
 * fault of a 0x address, that address (to prefetch its page-table entry
 * while the current event runs); reads nothing, consumes nothing. */
bool trace_peek_addr(const struct trace_reader *r, uint64_t *addr);
/*
 * The hot path in bulk: a touch or fault line in its canonical form (what
 * the one-pass decoder of trace_read() takes) - with a "PID " prefix in a
 * trace whose lines have one, as vmsim record writes them - decoded into a
 * compact record.  trace_read_accesses() decodes up to max such lines that follow
 * in the input already buffered - never reading more, stopping before the
 * first line that is anything else or another process's - and returns how
 * many; 0 says the next event is trace_read()'s.  Each record is exactly
 * the event trace_read() would have returned for its line
 * (trace_access_event() makes that event of it), and the reader moves past
 * its lines as trace_read() would.
 */
struct access_rec {
	uint64_t hit_key;     /* access_hit_key() */
	uint64_t addr, len;   /* len: touch() only */
	int64_t value;        /* the result when res is RES_VALUE */
	unsigned long line;
	int pid;              /* its "PID " prefix (a trace whose lines have one), else 0 */
	uint8_t touch;        /* 1 touch(), 0 fault() */
	uint8_t mode;         /* enum access_mode */
	uint8_t res;          /* RES_UNKNOWN or RES_VALUE */
};
/* What a replay's hot loop tries as a hit (sim/replay/session.c): a touch()
 * within one page, READ or WRITE, recorded as 0 or ?, as the key
 * vm_touch_hits() takes (vmsys.h: VM_HIT_KEY(), the page number << 1 |
 * write, of 4 KiB pages); ACCESS_NOT_HIT for anything else. */
#define ACCESS_NOT_HIT UINT64_MAX
static inline uint64_t access_hit_key(const struct access_rec *a)
{
	if (!a->touch || (a->mode & ACC_EXEC) || !a->len || (a->addr & 4095) + a->len > 4096 ||
	    (a->res == RES_VALUE && a->value != 0))
		return ACCESS_NOT_HIT;
	return a->addr >> 12 << 1 | (uint64_t)((a->mode & ACC_WRITE) != 0);
}
VMSIM_MEASURED size_t trace_read_accesses(struct trace_reader *r, struct access_rec *a, size_t max);
void trace_access_event(const struct access_rec *a, struct event *ev);
const char *trace_unknown_name(struct trace_reader *r, size_t i, unsigned long *count);

/* A size as header keys take it: 65536, 64K, 8M, 1G (K/M/G/T, optional
 * "iB"/"B"); false when malformed or too large. */
bool trace_parse_size(const char *s, uint64_t *out);

/* Name of a syscall number ("mmap"). */
const char *trace_sys_name(enum sysno s);

/* Writer: canonical text of one event (without pid/timestamp unless the
 * event has them), flags named by the names table `names` of arch
 * (systab_names_table(): "strace", or a kernel's own, as a trace's
 * `# flag-names:` says; bits it has no name for as hex).  Returns the
 * length needed (like snprintf). */
size_t trace_format_event(const struct event *ev, const char *arch,
			  const char *names, char *buf, size_t buflen);
/* Header lines for h (only keys that are set). */
void trace_write_header(FILE *f, const struct trace_header *h);
int trace_write_event(FILE *f, const struct event *ev, const char *arch,
		      const char *names);

/* The table of flag names the trace is written with (its `# flag-names:`,
 * else "strace"), once the header has been read; the writer takes it. */
const char *trace_flag_names(struct trace_reader *r);
/* The table of kind whose names a names id ("strace", or a kernel table
 * such as "lof-v1") gives on arch: for "strace" the newest table vmsim
 * has for the arch (a current strace prints the names of the newest
 * headers); NULL if none.  Whether names is such an id: */
const struct flag_table *systab_names_table(const char *arch, const char *names,
					    enum flag_kind kind);
bool systab_names_known(const char *names);

/* Names that are no flag of the arch's tables: a signal's ("SIGSEGV"),
 * NULL for a number without one (syscall_table.c). */
const char *trace_signal_name(uint64_t signo);
/* The flag table of kind for arch and kernel, or for a kernel version
 * without a table of its own ("5.10") that of the newest kernel not newer
 * than it ("4.4"); NULL if none (syscall_table.c). */
const struct flag_table *systab_flag_table(const char *arch, const char *kernel,
					   enum flag_kind kind);

/* The binary form (docs/trace-format.md, "The binary form"; the layout is
 * private to the reader, trace_bin.h), converted whole (trace_convert.c):
 * TRACE_HEAD_BYTES read from the start of a file tell the form.  Each
 * conversion reads in after those head bytes, writes out, and gives 0, or
 * -1 with "IN:RECORD:1: error: ..." in err (a truncated or corrupt input,
 * an output that cannot be written).  Text -> binary -> text gives the
 * same bytes back. */
#define TRACE_HEAD_BYTES 24
bool trace_is_binary(const unsigned char *head, size_t n);
int trace_to_binary(FILE *in, const char *inname, const unsigned char *head, size_t nhead,
		    FILE *out, char *err, size_t errlen);
int trace_to_text(FILE *in, const char *inname, const unsigned char *head, FILE *out, char *err,
		  size_t errlen);

/*
 * Output files (outfile.c): whole or absent.  A regular file (or a new
 * one) is written to a temporary beside it (".NAME.vmsim-XXXXXX", the old
 * file's mode, else 0666 less the umask), which outfile_commit() syncs and
 * renames over PATH: until then the old file stands, after it the new one
 * is whole.  outfile_abort() removes the temporary; so do SIGHUP, SIGINT,
 * SIGTERM, SIGPIPE and SIGXFSZ while one is open, where those signals are
 * at their default.  A device, a FIFO or a terminal is written in place.
 * Each returns -1 with "PATH: why" in err on failure; the temporary is
 * gone then.  One output file is open at a time.
 */
struct outfile {
	int fd;              /* the descriptor written (outfile_open()'s), or -1 */
	char path[4096];     /* the file asked for */
	char tmp[4096 + 24]; /* the temporary, "" when written in place */
};
int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen);
int outfile_commit(struct outfile *o, char *err, size_t errlen);
void outfile_abort(struct outfile *o);
/* The same through a stdio stream; outfile_fclose() flushes and closes it,
 * then commits when keep (and nothing failed), else aborts. */
FILE *outfile_fopen(struct outfile *o, const char *path, const char *mode, char *err,
		    size_t errlen);
int outfile_fclose(struct outfile *o, FILE *f, bool keep, char *err, size_t errlen);

#endif
