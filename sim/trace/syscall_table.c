/*
 * syscall_table.c - syscall names and the arch-independent symbolic
 * constants of the trace format (see syscall_table.h).
 */
#include "syscall_table.h"

#include <string.h>
#include <stdatomic.h>
#include <threads.h>

#include "flagtab.h"
#include "kerr.h"
#include "semantics.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- syscall names ---------------------------------------------------- */

static const char *const sys_names[SYS_NR] = {
	[SYS_UNKNOWN] = "?",
	[SYS_MMAP] = "mmap",           [SYS_MUNMAP] = "munmap",
	[SYS_MPROTECT] = "mprotect",   [SYS_MREMAP] = "mremap",
	[SYS_MADVISE] = "madvise",     [SYS_MSYNC] = "msync",
	[SYS_BRK] = "brk",             [SYS_MLOCK] = "mlock",
	[SYS_MLOCK2] = "mlock2",       [SYS_MUNLOCK] = "munlock",
	[SYS_MLOCKALL] = "mlockall",   [SYS_MUNLOCKALL] = "munlockall",
	[SYS_FORK] = "fork",           [SYS_VFORK] = "vfork",
	[SYS_CLONE] = "clone",         [SYS_CLONE3] = "clone3",
	[SYS_EXECVE] = "execve",       [SYS_EXIT] = "exit",
	[SYS_EXIT_GROUP] = "exit_group", [SYS_OPENAT] = "openat",
	[SYS_OPEN] = "open",           [SYS_CLOSE] = "close",
	[SYS_UNLINK] = "unlink",       [SYS_FTRUNCATE] = "ftruncate",
	[SYS_FALLOCATE] = "fallocate", [SYS_READ] = "read",
	[SYS_PREAD64] = "pread64",     [SYS_WRITE] = "write",
	[SYS_PWRITE64] = "pwrite64",   [SYS_SETRLIMIT] = "setrlimit",
	[SYS_PRLIMIT64] = "prlimit64", [SYS_CAPSET] = "capset",
	[SYS_FAULT] = "fault",         [SYS_TOUCH] = "touch",
	[SYS_RECLAIM] = "reclaim",     [SYS_DROP_CACHES] = "drop_caches",
	[SYS_FSTAT] = "fstat",         [SYS_NEWFSTATAT] = "newfstatat",
	[SYS_STAT] = "stat",           [SYS_STATX] = "statx",
	[SYS_DUP] = "dup",             [SYS_DUP2] = "dup2",
	[SYS_DUP3] = "dup3",           [SYS_FCNTL] = "fcntl",
	[SYS_FDNEW] = "eventfd2",      [SYS_PIPE] = "pipe",
	[SYS_PIPE2] = "pipe2",         [SYS_SOCKETPAIR] = "socketpair",
	[SYS_MEMFD_CREATE] = "memfd_create",
	[SYS_INHERIT] = "inherit",     [SYS_INHERIT_FILE] = "inherit_file",
	[SYS_EVICT] = "evict",         [SYS_FSYNC] = "fsync",
	[SYS_FADVISE64] = "fadvise64", [SYS_WAIT4] = "wait4",
	[SYS_NUMA_SCAN] = "numa_scan", [SYS_NUMA_NODE] = "numa_node", [SYS_NUMA_RUN] = "numa_run",
	[SYS_MEMCG_LIMIT] = "memcg_limit",
	[SYS_MEMCG_FORCE_EMPTY] = "memcg_force_empty",
	[SYS_SHMGET] = "shmget",       [SYS_SHMAT] = "shmat",
	[SYS_SHMDT] = "shmdt",         [SYS_SHMCTL] = "shmctl",
	[SYS_CREAT] = "creat",         [SYS_SETUID] = "setuid",
	[SYS_SETREUID] = "setreuid",   [SYS_SETRESUID] = "setresuid",
	[SYS_MEMFD_SECRET] = "memfd_secret",
	[SYS_IO_URING_SETUP] = "io_uring_setup", [SYS_IO_URING_REGISTER] = "io_uring_register",
	[SYS_IO_URING_ENTER] = "io_uring_enter",
	[SYS_MOUNT] = "mount",         [SYS_UMOUNT2] = "umount2",
	[SYS_UNSHARE] = "unshare",     [SYS_CHDIR] = "chdir",
	[SYS_FCHDIR] = "fchdir",
	[SYS_MEMCG_MAX] = "memcg_max",
	[SYS_MEMCG_HIGH] = "memcg_high",
};

const char *trace_sys_name(enum sysno s)
{
	if ((unsigned)s >= SYS_NR)
		return "?";
	return sys_names[s];
}

/* The names the reader knows, each in its entry (a lookup reads no
 * pointer more), found through syshash below. */
#define SYSNAME_MAX 20
static const struct {
	char name[SYSNAME_MAX];
	unsigned char len;
	unsigned char sys;
} sys_lookup_tab[] = {
#define S(n, s) { n, sizeof(n) - 1, s }
	/* (a name longer than SYSNAME_MAX does not compile) */
	S("mmap", SYS_MMAP), S("munmap", SYS_MUNMAP), S("mprotect", SYS_MPROTECT),
	S("mremap", SYS_MREMAP), S("madvise", SYS_MADVISE), S("msync", SYS_MSYNC),
	S("brk", SYS_BRK), S("mlock", SYS_MLOCK), S("mlock2", SYS_MLOCK2),
	S("munlock", SYS_MUNLOCK), S("mlockall", SYS_MLOCKALL),
	S("munlockall", SYS_MUNLOCKALL), S("fork", SYS_FORK), S("vfork", SYS_VFORK),
	S("clone", SYS_CLONE), S("clone3", SYS_CLONE3), S("execve", SYS_EXECVE),
	S("exit", SYS_EXIT), S("exit_group", SYS_EXIT_GROUP), S("openat", SYS_OPENAT),
	S("open", SYS_OPEN), S("close", SYS_CLOSE), S("unlink", SYS_UNLINK),
	S("ftruncate", SYS_FTRUNCATE), S("fallocate", SYS_FALLOCATE),
	S("read", SYS_READ), S("pread64", SYS_PREAD64), S("write", SYS_WRITE),
	S("pwrite64", SYS_PWRITE64), S("setrlimit", SYS_SETRLIMIT),
	S("prlimit64", SYS_PRLIMIT64), S("capset", SYS_CAPSET),
	S("fault", SYS_FAULT), S("touch", SYS_TOUCH), S("reclaim", SYS_RECLAIM),
	S("drop_caches", SYS_DROP_CACHES), S("numa_scan", SYS_NUMA_SCAN),
	S("numa_node", SYS_NUMA_NODE), S("memcg_force_empty", SYS_MEMCG_FORCE_EMPTY),
	S("numa_run", SYS_NUMA_RUN), S("memcg_limit", SYS_MEMCG_LIMIT),
	S("mmap2", SYS_MMAP), S("unlinkat", SYS_UNLINK),
	S("fstat", SYS_FSTAT), S("fstat64", SYS_FSTAT), S("newfstatat", SYS_NEWFSTATAT),
	S("fstatat64", SYS_NEWFSTATAT), S("stat", SYS_STAT), S("lstat", SYS_STAT),
	S("stat64", SYS_STAT), S("lstat64", SYS_STAT), S("statx", SYS_STATX),
	S("dup", SYS_DUP), S("dup2", SYS_DUP2), S("dup3", SYS_DUP3), S("fcntl", SYS_FCNTL),
	S("fcntl64", SYS_FCNTL), S("pipe", SYS_PIPE), S("pipe2", SYS_PIPE2),
	S("socketpair", SYS_SOCKETPAIR), S("memfd_create", SYS_MEMFD_CREATE),
	S("creat", SYS_CREAT), S("memfd_secret", SYS_MEMFD_SECRET), S("setuid", SYS_SETUID), S("setuid32", SYS_SETUID),
	S("setreuid", SYS_SETREUID), S("setreuid32", SYS_SETREUID), S("setresuid", SYS_SETRESUID),
	S("setresuid32", SYS_SETRESUID), S("shmget", SYS_SHMGET), S("shmat", SYS_SHMAT), S("shmdt", SYS_SHMDT), S("shmctl", SYS_SHMCTL),
	S("fsync", SYS_FSYNC), S("fdatasync", SYS_FSYNC), S("fadvise64", SYS_FADVISE64),
	S("wait4", SYS_WAIT4), S("waitpid", SYS_WAIT4),
	S("eventfd", SYS_FDNEW), S("eventfd2", SYS_FDNEW), S("epoll_create", SYS_FDNEW),
	S("epoll_create1", SYS_FDNEW), S("socket", SYS_FDNEW), S("signalfd", SYS_FDNEW),
	S("signalfd4", SYS_FDNEW), S("timerfd_create", SYS_FDNEW), S("inotify_init", SYS_FDNEW),
	S("inotify_init1", SYS_FDNEW), S("userfaultfd", SYS_FDNEW), S("pidfd_open", SYS_FDNEW),
	S("fanotify_init", SYS_FDNEW), S("perf_event_open", SYS_FDNEW),
	S("io_uring_setup", SYS_IO_URING_SETUP), S("io_uring_register", SYS_IO_URING_REGISTER),
	S("io_uring_enter", SYS_IO_URING_ENTER), S("accept", SYS_FDNEW), S("accept4", SYS_FDNEW),
	S("inherit", SYS_INHERIT), S("inherit_file", SYS_INHERIT_FILE), S("evict", SYS_EVICT),
	S("mount", SYS_MOUNT), S("umount2", SYS_UMOUNT2), S("umount", SYS_UMOUNT2),
	S("unshare", SYS_UNSHARE), S("chdir", SYS_CHDIR), S("fchdir", SYS_FCHDIR),
	S("memcg_max", SYS_MEMCG_MAX), S("memcg_high", SYS_MEMCG_HIGH),
#undef S
};

/* The names by a hash of their length and first and last letters, built
 * once (call_once(): libvmsim may be called from threads): a syscall name
 * costs a probe or two, where a walk of the table cost 7% of the replay of
 * a plain strace log.  256 slots of 24 bytes for 106 names: the 1,024 of
 * the first version missed the cache on most lookups. */
#define SYSHASH_SLOTS 256
_Static_assert(ARRAY_SIZE(sys_lookup_tab) * 2 <= SYSHASH_SLOTS, "syscall hash over half full");
/* a slot: the name's key (systab_name_key()) and length beside its
 * entry's index + 1, so that a lookup compares words, not bytes */
static struct sysslot {
	uint64_t key[2];
	uint16_t idx1;
	uint8_t len;
} syshash[SYSHASH_SLOTS];
static once_flag syshash_once = ONCE_FLAG_INIT;
static atomic_bool syshash_built; /* syshash_build() is done: call_once() skipped */

unsigned systab_name_hash(const char *name, size_t len)
{
	if (!len)
		return 0;
	return (unsigned)len * 131u + (unsigned char)name[0] * 31u + (unsigned char)name[len - 1] * 7u +
	       (len > 2 ? (unsigned char)name[len / 2] : 0u);
}

static unsigned syshash_of(const char *name, size_t len)
{
	return systab_name_hash(name, len) & (SYSHASH_SLOTS - 1);
}

static void syshash_build(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(sys_lookup_tab); i++) {
		unsigned h = syshash_of(sys_lookup_tab[i].name, sys_lookup_tab[i].len);
		while (syshash[h].idx1)
			h = (h + 1) & (SYSHASH_SLOTS - 1);
		struct sysslot *sl = &syshash[h];
		systab_name_key(sys_lookup_tab[i].name, sys_lookup_tab[i].len, sl->key);
		sl->idx1 = (uint16_t)(i + 1);
		sl->len = sys_lookup_tab[i].len;
	}
	atomic_store_explicit(&syshash_built, true, memory_order_release);
}

enum sysno systab_lookup(const char *name, size_t len)
{
	if (!len)
		return SYS_UNKNOWN;
	if (!atomic_load_explicit(&syshash_built, memory_order_acquire))
		call_once(&syshash_once, syshash_build);
	if (len > SYSNAME_MAX)
		return SYS_UNKNOWN;
	uint64_t key[2];
	systab_name_key(name, len, key);
	for (unsigned h = syshash_of(name, len); syshash[h].idx1; h = (h + 1) & (SYSHASH_SLOTS - 1)) {
		const struct sysslot *sl = &syshash[h];
		size_t i = sl->idx1 - 1u;
		if (sl->len == len && sl->key[0] == key[0] && sl->key[1] == key[1] &&
		    (len <= 16 || memcmp(sys_lookup_tab[i].name + 16, name + 16, len - 16) == 0))
			return (enum sysno)sys_lookup_tab[i].sys;
	}
	return SYS_UNKNOWN;
}

/* ---- symbolic constants ----------------------------------------------- */

#define B(n, v) { n, v, v, 0 }
#define A(n, v) { n, v, v, 1 }

/* O_*: composite flags (O_SYNC, O_TMPFILE) first so the writer prefers them. */
static const struct sym oflags_tab[] = {
	{ "O_RDONLY", 0, 3, 0 }, { "O_WRONLY", 1, 3, 0 }, { "O_RDWR", 2, 3, 0 },
	{ "O_ACCMODE", 3, 3, 1 },
	B("O_TMPFILE", 020200000), B("O_SYNC", 04010000),
	B("O_CREAT", 0100), B("O_EXCL", 0200), B("O_NOCTTY", 0400),
	B("O_TRUNC", 01000), B("O_APPEND", 02000), B("O_NONBLOCK", 04000),
	B("O_DSYNC", 010000), B("FASYNC", 020000), B("O_DIRECT", 040000),
	B("O_LARGEFILE", 0100000), B("O_DIRECTORY", 0200000),
	B("O_NOFOLLOW", 0400000), B("O_NOATIME", 01000000),
	B("O_CLOEXEC", 02000000), B("O_PATH", 010000000),
	A("O_NDELAY", 04000), A("O_FSYNC", 04010000), A("O_RSYNC", 04010000),
	A("O_ASYNC", 020000),
};

static const struct sym falloc_tab[] = {
	B("FALLOC_FL_KEEP_SIZE", 0x01), B("FALLOC_FL_PUNCH_HOLE", 0x02),
	B("FALLOC_FL_NO_HIDE_STALE", 0x04), B("FALLOC_FL_COLLAPSE_RANGE", 0x08),
	B("FALLOC_FL_ZERO_RANGE", 0x10), B("FALLOC_FL_INSERT_RANGE", 0x20),
	B("FALLOC_FL_UNSHARE_RANGE", 0x40), B("FALLOC_FL_WRITE_ZEROES", 0x80),
};

#define E(n, v) { n, v, 0, 0 }
static const struct sym rlimit_tab[] = {
	E("RLIMIT_CPU", 0), E("RLIMIT_FSIZE", 1), E("RLIMIT_DATA", 2),
	E("RLIMIT_STACK", 3), E("RLIMIT_CORE", 4), E("RLIMIT_RSS", 5),
	E("RLIMIT_NPROC", 6), E("RLIMIT_NOFILE", 7), E("RLIMIT_MEMLOCK", 8),
	E("RLIMIT_AS", 9), E("RLIMIT_LOCKS", 10), E("RLIMIT_SIGPENDING", 11),
	E("RLIMIT_MSGQUEUE", 12), E("RLIMIT_NICE", 13), E("RLIMIT_RTPRIO", 14),
	E("RLIMIT_RTTIME", 15),
	{ "RLIMIT_OFILE", 7, 0, 1 },
};

static const struct sym clone_tab[] = {
	B("CLONE_VM", 0x100), B("CLONE_FS", 0x200), B("CLONE_FILES", 0x400),
	B("CLONE_SIGHAND", 0x800), B("CLONE_PIDFD", 0x1000),
	B("CLONE_PTRACE", 0x2000), B("CLONE_VFORK", 0x4000),
	B("CLONE_PARENT", 0x8000), B("CLONE_THREAD", 0x10000),
	B("CLONE_NEWNS", 0x20000), B("CLONE_SYSVSEM", 0x40000),
	B("CLONE_SETTLS", 0x80000), B("CLONE_PARENT_SETTID", 0x100000),
	B("CLONE_CHILD_CLEARTID", 0x200000), B("CLONE_DETACHED", 0x400000),
	B("CLONE_UNTRACED", 0x800000), B("CLONE_CHILD_SETTID", 0x1000000),
	B("CLONE_NEWCGROUP", 0x2000000), B("CLONE_NEWUTS", 0x4000000),
	B("CLONE_NEWIPC", 0x8000000), B("CLONE_NEWUSER", 0x10000000),
	B("CLONE_NEWPID", 0x20000000), B("CLONE_NEWNET", 0x40000000),
	B("CLONE_IO", 0x80000000ULL),
	B("CLONE_CLEAR_SIGHAND", 0x100000000ULL),
	B("CLONE_INTO_CGROUP", 0x200000000ULL),
};

static const struct sym signal_tab[] = {
	E("SIGHUP", 1), E("SIGINT", 2), E("SIGQUIT", 3), E("SIGILL", 4),
	E("SIGTRAP", 5), E("SIGABRT", 6), E("SIGBUS", 7), E("SIGFPE", 8),
	E("SIGKILL", 9), E("SIGUSR1", 10), E("SIGSEGV", 11), E("SIGUSR2", 12),
	E("SIGPIPE", 13), E("SIGALRM", 14), E("SIGTERM", 15), E("SIGSTKFLT", 16),
	E("SIGCHLD", 17), E("SIGCONT", 18), E("SIGSTOP", 19), E("SIGTSTP", 20),
	E("SIGTTIN", 21), E("SIGTTOU", 22), E("SIGURG", 23), E("SIGXCPU", 24),
	E("SIGXFSZ", 25), E("SIGVTALRM", 26), E("SIGPROF", 27), E("SIGWINCH", 28),
	E("SIGIO", 29), E("SIGPWR", 30), E("SIGSYS", 31), E("SIGRTMIN", 32),
	{ "SIGIOT", 6, 0, 1 }, { "SIGPOLL", 29, 0, 1 }, { "SIGCLD", 17, 0, 1 },
	{ "SIGUNUSED", 31, 0, 1 },
};

static const struct sym cap_tab[] = {
	E("CAP_CHOWN", 0), E("CAP_DAC_OVERRIDE", 1), E("CAP_DAC_READ_SEARCH", 2),
	E("CAP_FOWNER", 3), E("CAP_FSETID", 4), E("CAP_KILL", 5),
	E("CAP_SETGID", 6), E("CAP_SETUID", 7), E("CAP_SETPCAP", 8),
	E("CAP_LINUX_IMMUTABLE", 9), E("CAP_NET_BIND_SERVICE", 10),
	E("CAP_NET_BROADCAST", 11), E("CAP_NET_ADMIN", 12), E("CAP_NET_RAW", 13),
	E("CAP_IPC_LOCK", 14), E("CAP_IPC_OWNER", 15), E("CAP_SYS_MODULE", 16),
	E("CAP_SYS_RAWIO", 17), E("CAP_SYS_CHROOT", 18), E("CAP_SYS_PTRACE", 19),
	E("CAP_SYS_PACCT", 20), E("CAP_SYS_ADMIN", 21), E("CAP_SYS_BOOT", 22),
	E("CAP_SYS_NICE", 23), E("CAP_SYS_RESOURCE", 24), E("CAP_SYS_TIME", 25),
	E("CAP_SYS_TTY_CONFIG", 26), E("CAP_MKNOD", 27), E("CAP_LEASE", 28),
	E("CAP_AUDIT_WRITE", 29), E("CAP_AUDIT_CONTROL", 30), E("CAP_SETFCAP", 31),
	E("CAP_MAC_OVERRIDE", 32), E("CAP_MAC_ADMIN", 33), E("CAP_SYSLOG", 34),
	E("CAP_WAKE_ALARM", 35), E("CAP_BLOCK_SUSPEND", 36), E("CAP_AUDIT_READ", 37),
	E("CAP_PERFMON", 38), E("CAP_BPF", 39), E("CAP_CHECKPOINT_RESTORE", 40),
};

static const struct sym access_tab[] = {
	B("READ", ACC_READ), B("WRITE", ACC_WRITE), B("EXEC", ACC_EXEC),
};

static const struct sym fadv_tab[] = {
	E("POSIX_FADV_NORMAL", 0), E("POSIX_FADV_RANDOM", 1), E("POSIX_FADV_SEQUENTIAL", 2),
	E("POSIX_FADV_WILLNEED", 3), E("POSIX_FADV_DONTNEED", 4), E("POSIX_FADV_NOREUSE", 5),
};

/* include/uapi/linux/ipc.h, shm.h (every arch): shmget's flags beside
 * the mode bits, shmat's, and shmctl's commands */
static const struct sym ipcflags_tab[] = {
	B("IPC_CREAT", 01000), B("IPC_EXCL", 02000), B("SHM_HUGETLB", 04000),
	B("SHM_NORESERVE", 010000), A("IPC_NOWAIT", 04000), { "IPC_PRIVATE", 0, 0, 1 },
};

static const struct sym shmat_tab[] = {
	B("SHM_RDONLY", 010000), B("SHM_RND", 020000), B("SHM_REMAP", 040000),
	B("SHM_EXEC", 0100000),
};

static const struct sym shmcmd_tab[] = {
	E("IPC_RMID", 0), E("IPC_SET", 1), E("IPC_STAT", 2), E("IPC_INFO", 3),
	E("SHM_LOCK", 11), E("SHM_UNLOCK", 12), E("SHM_STAT", 13), E("SHM_INFO", 14),
	E("SHM_STAT_ANY", 15), { "IPC_64", 0x100, 0x100, 1 },
};

/* include/uapi/linux/io_uring.h @ v6.18: io_uring_setup()'s flags and
 * io_uring_register()'s opcodes, as strace names them */
static const struct sym ioring_setup_tab[] = {
	B("IORING_SETUP_IOPOLL", 1u << 0), B("IORING_SETUP_SQPOLL", 1u << 1),
	B("IORING_SETUP_SQ_AFF", 1u << 2), B("IORING_SETUP_CQSIZE", 1u << 3),
	B("IORING_SETUP_CLAMP", 1u << 4), B("IORING_SETUP_ATTACH_WQ", 1u << 5),
	B("IORING_SETUP_R_DISABLED", 1u << 6), B("IORING_SETUP_SUBMIT_ALL", 1u << 7),
	B("IORING_SETUP_COOP_TASKRUN", 1u << 8), B("IORING_SETUP_TASKRUN_FLAG", 1u << 9),
	B("IORING_SETUP_SQE128", 1u << 10), B("IORING_SETUP_CQE32", 1u << 11),
	B("IORING_SETUP_SINGLE_ISSUER", 1u << 12), B("IORING_SETUP_DEFER_TASKRUN", 1u << 13),
	B("IORING_SETUP_NO_MMAP", 1u << 14), B("IORING_SETUP_REGISTERED_FD_ONLY", 1u << 15),
	B("IORING_SETUP_NO_SQARRAY", 1u << 16), B("IORING_SETUP_HYBRID_IOPOLL", 1u << 17),
	B("IORING_SETUP_CQE_MIXED", 1u << 18),
};

static const struct sym ioring_reg_tab[] = {
	E("IORING_REGISTER_BUFFERS", 0), E("IORING_UNREGISTER_BUFFERS", 1),
	E("IORING_REGISTER_FILES", 2), E("IORING_UNREGISTER_FILES", 3),
	E("IORING_REGISTER_EVENTFD", 4), E("IORING_UNREGISTER_EVENTFD", 5),
	E("IORING_REGISTER_FILES_UPDATE", 6), E("IORING_REGISTER_EVENTFD_ASYNC", 7),
	E("IORING_REGISTER_PROBE", 8), E("IORING_REGISTER_PERSONALITY", 9),
	E("IORING_UNREGISTER_PERSONALITY", 10), E("IORING_REGISTER_RESTRICTIONS", 11),
	E("IORING_REGISTER_ENABLE_RINGS", 12), E("IORING_REGISTER_FILES2", 13),
	E("IORING_REGISTER_FILES_UPDATE2", 14), E("IORING_REGISTER_BUFFERS2", 15),
	E("IORING_REGISTER_BUFFERS_UPDATE", 16), E("IORING_REGISTER_IOWQ_AFF", 17),
	E("IORING_UNREGISTER_IOWQ_AFF", 18), E("IORING_REGISTER_IOWQ_MAX_WORKERS", 19),
	E("IORING_REGISTER_RING_FDS", 20), E("IORING_UNREGISTER_RING_FDS", 21),
	E("IORING_REGISTER_PBUF_RING", 22), E("IORING_UNREGISTER_PBUF_RING", 23),
	E("IORING_REGISTER_SYNC_CANCEL", 24), E("IORING_REGISTER_FILE_ALLOC_RANGE", 25),
	E("IORING_REGISTER_PBUF_STATUS", 26), E("IORING_REGISTER_NAPI", 27),
	E("IORING_UNREGISTER_NAPI", 28), E("IORING_REGISTER_CLOCK", 29),
	E("IORING_REGISTER_CLONE_BUFFERS", 30), E("IORING_REGISTER_SEND_MSG_RING", 31),
	E("IORING_REGISTER_ZCRX_IFQ", 32), E("IORING_REGISTER_RESIZE_RINGS", 33),
	E("IORING_REGISTER_MEM_REGION", 34),
	{ "IORING_REGISTER_USE_REGISTERED_RING", 1u << 31, 1u << 31, 0 },
};

/* include/uapi/linux/mount.h */
static const struct sym mount_tab[] = {
	/* the magic old programs put in the high half, first: its bits are not flags */
	{ "MS_MGC_VAL", 0xc0ed0000u, 0xffff0000u, 0 },
	B("MS_RDONLY", 1), B("MS_NOSUID", 2), B("MS_NODEV", 4), B("MS_NOEXEC", 8),
	B("MS_SYNCHRONOUS", 16), B("MS_REMOUNT", 32), B("MS_MANDLOCK", 64),
	B("MS_DIRSYNC", 128), B("MS_NOSYMFOLLOW", 256), B("MS_NOATIME", 1024),
	B("MS_NODIRATIME", 2048), B("MS_BIND", 4096), B("MS_MOVE", 8192), B("MS_REC", 16384),
	B("MS_SILENT", 32768), B("MS_POSIXACL", 1u << 16), B("MS_UNBINDABLE", 1u << 17),
	B("MS_PRIVATE", 1u << 18), B("MS_SLAVE", 1u << 19), B("MS_SHARED", 1u << 20),
	B("MS_RELATIME", 1u << 21), B("MS_KERNMOUNT", 1u << 22), B("MS_I_VERSION", 1u << 23),
	B("MS_STRICTATIME", 1u << 24), B("MS_LAZYTIME", 1u << 25),
};

static const struct sym umount_tab[] = {
	B("MNT_FORCE", 1), B("MNT_DETACH", 2), B("MNT_EXPIRE", 4), B("UMOUNT_NOFOLLOW", 8),
};

static const struct sym faultres_tab[] = {
	E("MINOR", FR_MINOR), E("MAJOR", FR_MAJOR), E("SIGSEGV", FR_SIGSEGV),
	E("SIGBUS", FR_SIGBUS),
};
#undef B
#undef A
#undef E

static const struct {
	const struct sym *t;
	size_t n;
} sym_tabs[SK_NKINDS] = {
	[SK_OFLAGS] = { oflags_tab, ARRAY_SIZE(oflags_tab) },
	[SK_FALLOC] = { falloc_tab, ARRAY_SIZE(falloc_tab) },
	[SK_RLIMIT] = { rlimit_tab, ARRAY_SIZE(rlimit_tab) },
	[SK_CLONE] = { clone_tab, ARRAY_SIZE(clone_tab) },
	[SK_SIGNAL] = { signal_tab, ARRAY_SIZE(signal_tab) },
	[SK_CAP] = { cap_tab, ARRAY_SIZE(cap_tab) },
	[SK_ACCESS] = { access_tab, ARRAY_SIZE(access_tab) },
	[SK_FAULTRES] = { faultres_tab, ARRAY_SIZE(faultres_tab) },
	[SK_FADV] = { fadv_tab, ARRAY_SIZE(fadv_tab) },
	[SK_IPCFLAGS] = { ipcflags_tab, ARRAY_SIZE(ipcflags_tab) },
	[SK_SHMAT] = { shmat_tab, ARRAY_SIZE(shmat_tab) },
	[SK_SHMCMD] = { shmcmd_tab, ARRAY_SIZE(shmcmd_tab) },
	[SK_IORING_SETUP] = { ioring_setup_tab, ARRAY_SIZE(ioring_setup_tab) },
	[SK_IORING_REG] = { ioring_reg_tab, ARRAY_SIZE(ioring_reg_tab) },
	[SK_MOUNT] = { mount_tab, ARRAY_SIZE(mount_tab) },
	[SK_UMOUNT] = { umount_tab, ARRAY_SIZE(umount_tab) },
};

const struct sym *systab_table(enum symkind k, size_t *n)
{
	*n = sym_tabs[k].n;
	return sym_tabs[k].t;
}

const char *systab_sym_name(enum symkind k, uint64_t value)
{
	const struct sym *t = sym_tabs[k].t;
	for (size_t i = 0; i < sym_tabs[k].n; i++)
		if (!t[i].alias && t[i].value == value)
			return t[i].name;
	return NULL;
}

/* ---- errno ------------------------------------------------------------- */

static const struct {
	int err;
	const char *name;
	const char *text;
	int alias;
} errno_tab[] = {
	{ 1, "EPERM", "Operation not permitted", 0 },
	{ 2, "ENOENT", "No such file or directory", 0 },
	{ 3, "ESRCH", "No such process", 0 },
	{ 4, "EINTR", "Interrupted system call", 0 },
	{ 5, "EIO", "Input/output error", 0 },
	{ 6, "ENXIO", "No such device or address", 0 },
	{ 7, "E2BIG", "Argument list too long", 0 },
	{ 8, "ENOEXEC", "Exec format error", 0 },
	{ 9, "EBADF", "Bad file descriptor", 0 },
	{ 10, "ECHILD", "No child processes", 0 },
	{ 11, "EAGAIN", "Resource temporarily unavailable", 0 },
	{ 12, "ENOMEM", "Cannot allocate memory", 0 },
	{ 13, "EACCES", "Permission denied", 0 },
	{ 14, "EFAULT", "Bad address", 0 },
	{ 15, "ENOTBLK", "Block device required", 0 },
	{ 16, "EBUSY", "Device or resource busy", 0 },
	{ 17, "EEXIST", "File exists", 0 },
	{ 18, "EXDEV", "Invalid cross-device link", 0 },
	{ 19, "ENODEV", "No such device", 0 },
	{ 20, "ENOTDIR", "Not a directory", 0 },
	{ 21, "EISDIR", "Is a directory", 0 },
	{ 22, "EINVAL", "Invalid argument", 0 },
	{ 23, "ENFILE", "Too many open files in system", 0 },
	{ 24, "EMFILE", "Too many open files", 0 },
	{ 25, "ENOTTY", "Inappropriate ioctl for device", 0 },
	{ 26, "ETXTBSY", "Text file busy", 0 },
	{ 27, "EFBIG", "File too large", 0 },
	{ 28, "ENOSPC", "No space left on device", 0 },
	{ 29, "ESPIPE", "Illegal seek", 0 },
	{ 30, "EROFS", "Read-only file system", 0 },
	{ 31, "EMLINK", "Too many links", 0 },
	{ 32, "EPIPE", "Broken pipe", 0 },
	{ 33, "EDOM", "Numerical argument out of domain", 0 },
	{ 34, "ERANGE", "Numerical result out of range", 0 },
	{ 35, "EDEADLK", "Resource deadlock avoided", 0 },
	{ 36, "ENAMETOOLONG", "File name too long", 0 },
	{ 37, "ENOLCK", "No locks available", 0 },
	{ 38, "ENOSYS", "Function not implemented", 0 },
	{ 39, "ENOTEMPTY", "Directory not empty", 0 },
	{ 40, "ELOOP", "Too many levels of symbolic links", 0 },
	{ 75, "EOVERFLOW", "Value too large for defined data type", 0 },
	{ 95, "EOPNOTSUPP", "Operation not supported", 0 },
	{ 110, "ETIMEDOUT", "Connection timed out", 0 },
	{ 133, "EHWPOISON", "Memory page has hardware error", 0 },
	{ 512, "ERESTARTSYS", "To be restarted if SA_RESTART is set", 0 },
	{ 513, "ERESTARTNOINTR", "To be restarted", 0 },
	{ 514, "ERESTARTNOHAND", "To be restarted if no handler", 0 },
	{ 516, "ERESTART_RESTARTBLOCK", "Interrupted by signal", 0 },
	{ 11, "EWOULDBLOCK", NULL, 1 },
	{ 35, "EDEADLOCK", NULL, 1 },
	{ 95, "ENOTSUP", NULL, 1 },
};

/* The symbolic constants of every kind and the errno names, found by a
 * hash of (kind, name) built once, as the syscall names are: a plain
 * strace log names an O_ flag, a signal or an errno on most lines, and
 * walking the tables with strncmp() cost 5% of its replay.  Entries go in
 * table order, so that of two entries of one name the first is found
 * first, as the walk found it.  Kind SK_NKINDS is the errno names, each
 * with kerr_from_name()'s number where the model has one. */
#define SYMHASH_SLOTS 2048
struct symslot {
	uint16_t idx1;   /* 1 + the index in its table; 0: empty */
	uint8_t kind;
	uint8_t len;
};
static struct symslot symhash[SYMHASH_SLOTS];
static int errno_value[ARRAY_SIZE(errno_tab)];
static once_flag symhash_once = ONCE_FLAG_INIT;
static atomic_bool symhash_built; /* symhash_build() is done: call_once() skipped */

static unsigned symhash_of(unsigned kind, const char *name, size_t len)
{
	uint32_t h = 2166136261u ^ kind;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	return (h ^ h >> 15) & (SYMHASH_SLOTS - 1);
}

static const char *sym_name_at(unsigned kind, size_t i)
{
	return kind == SK_NKINDS ? errno_tab[i].name : sym_tabs[kind].t[i].name;
}

static void symhash_put(unsigned kind, size_t i)
{
	const char *name = sym_name_at(kind, i);
	size_t len = strlen(name);
	unsigned h = symhash_of(kind, name, len);
	while (symhash[h].idx1)
		h = (h + 1) & (SYMHASH_SLOTS - 1);
	symhash[h] = (struct symslot){ (uint16_t)(i + 1), (uint8_t)kind, (uint8_t)len };
}

static void symhash_build(void)
{
	for (unsigned k = 0; k < SK_NKINDS; k++)
		for (size_t i = 0; i < sym_tabs[k].n; i++)
			symhash_put(k, i);
	for (size_t i = 0; i < ARRAY_SIZE(errno_tab); i++) {
		int e = kerr_from_name(errno_tab[i].name, (unsigned)strlen(errno_tab[i].name));
		errno_value[i] = e ? e : errno_tab[i].err;
		symhash_put(SK_NKINDS, i);
	}
	atomic_store_explicit(&symhash_built, true, memory_order_release);
}

/* the index of (kind, name) in its table, or -1 */
static long symhash_find(unsigned kind, const char *name, size_t len)
{
	if (len == 0 || len > UINT8_MAX)
		return -1;
	if (!atomic_load_explicit(&symhash_built, memory_order_acquire))
		call_once(&symhash_once, symhash_build);
	for (unsigned h = symhash_of(kind, name, len); symhash[h].idx1;
	     h = (h + 1) & (SYMHASH_SLOTS - 1)) {
		const struct symslot *sl = &symhash[h];
		if (sl->kind == kind && sl->len == len &&
		    memcmp(sym_name_at(kind, sl->idx1 - 1u), name, len) == 0)
			return (long)sl->idx1 - 1;
	}
	return -1;
}

int systab_sym(enum symkind k, const char *name, size_t len, uint64_t *value)
{
	long i = symhash_find(k, name, len);
	if (i < 0)
		return -1;
	*value = sym_tabs[k].t[i].value;
	return 0;
}

int systab_errno(const char *name, size_t len)
{
	long i = symhash_find(SK_NKINDS, name, len);
	return i < 0 ? 0 : errno_value[i];
}

const char *systab_errno_name(int err)
{
	const char *n = kerr_name(err);
	if (n)
		return n;
	for (size_t i = 0; i < ARRAY_SIZE(errno_tab); i++)
		if (!errno_tab[i].alias && errno_tab[i].err == err)
			return errno_tab[i].name;
	return NULL;
}

const char *systab_strerror(int err)
{
	for (size_t i = 0; i < ARRAY_SIZE(errno_tab); i++)
		if (!errno_tab[i].alias && errno_tab[i].err == err)
			return errno_tab[i].text;
	return "Unknown error";
}

/* ---- flag tables for any kernel version ---------------------------------- */

/* "6.5" -> 6005, -1 when not a dotted version */
static long version_num(const char *s)
{
	long major = 0, minor = 0;
	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		major = major * 10 + (*s++ - '0');
		if (major > 999)
			return -1; /* no such kernel: and no overflow */
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			minor = minor * 10 + (*s++ - '0');
			if (minor > 999)
				return -1;
		}
	}
	if (*s && *s != '.' && *s != '-' && *s != '+')
		return -1;
	return major * 1000 + minor;
}

const struct flag_table *systab_flag_table(const char *arch, const char *kernel,
					   enum flag_kind kind)
{
	const struct flag_table *t = flagtab_get(arch, kernel, kind);
	if (t)
		return t;
	/* a patch's semantics (vma-count-v3) has its base's tables */
	const struct semantics *sem = semantics_find(kernel);
	if (sem && strcmp(sem->flag_kernel, kernel) && (t = flagtab_get(arch, sem->flag_kernel, kind)))
		return t;
	long want = version_num(kernel);
	if (want < 0)
		return NULL;
	const char *best = NULL;
	long bestv = -1;
	for (const char *const *k = flagtab_kernel_names; *k; k++) {
		long v = version_num(*k);
		if (v >= 0 && v <= want && v > bestv && flagtab_get(arch, *k, kind)) {
			best = *k;
			bestv = v;
		}
	}
	return best ? flagtab_get(arch, best, kind) : NULL;
}

/* "strace": a current strace names flags by the newest headers; vmsim's
 * newest table for the arch stands for them (kernel versions only: the
 * lof-v1 patch never reached a release, so no strace knows its names) */
const struct flag_table *systab_names_table(const char *arch, const char *names,
					    enum flag_kind kind)
{
	if (strcmp(names, "strace"))
		return systab_flag_table(arch, names, kind);
	const struct flag_table *best = NULL;
	long bestv = -1;
	for (const char *const *k = flagtab_kernel_names; *k; k++) {
		long v = version_num(*k);
		const struct flag_table *t = v >= 0 ? flagtab_get(arch, *k, kind) : NULL;
		if (t && v > bestv) {
			best = t;
			bestv = v;
		}
	}
	return best;
}

bool systab_names_known(const char *names)
{
	if (!strcmp(names, "strace"))
		return true;
	for (const char *const *k = flagtab_kernel_names; *k; k++)
		if (!strcmp(names, *k))
			return true;
	return false;
}

const char *trace_signal_name(uint64_t signo)
{
	return systab_sym_name(SK_SIGNAL, signo);
}
