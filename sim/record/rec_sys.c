/* rec_sys.c - syscalls of a stopped tracee as trace events.  See record.h, section "rec_sys". */
#include "record.h"
#include <inttypes.h>
#include <stdlib.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

#if defined(__x86_64__)
#define REC_X86_64 1
#else
#define REC_X86_64 0
#endif

bool rec_sys_supported(void)
{
	return REC_X86_64;
}

/* Tracee memory is read with process_vm_readv(); a kernel built without
 * CONFIG_CROSS_MEMORY_ATTACH answers ENOSYS, and every path, string and
 * struct of the trace came out empty (a 4.4 guest).  Then, and when
 * VMSIM_RECORD_PEEK=1 asks for it (rec_sys_use_peek(), for the tests),
 * it is read a word at a time with PTRACE_PEEKDATA: the tracee is
 * stopped and ours.  Both fault the pages they read in
 * (access_remote_vm(), pin_user_pages_remote()). */
static bool use_peek;

void rec_sys_use_peek(void)
{
	use_peek = true;
}

static size_t peek_mem(pid_t tid, uint64_t addr, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		uint64_t a = addr + got, word = a & ~(uint64_t)7;
		errno = 0;
		long w = ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)word, NULL);
		if (w == -1 && errno)
			break;
		size_t off = (size_t)(a - word), k = 8 - off;
		if (k > n - got)
			k = n - got;
		memcpy((char *)buf + got, (const char *)&w + off, k);
		got += k;
	}
	return got;
}

static ssize_t vm_read(pid_t tid, void *buf, uint64_t addr, size_t n)
{
	if (!use_peek) {
		struct iovec l = { buf, n }, r = { (void *)(uintptr_t)addr, n };
		ssize_t got = process_vm_readv(tid, &l, 1, &r, 1, 0);
		if (got >= 0 || errno != ENOSYS)
			return got;
		use_peek = true;
	}
	size_t got = peek_mem(tid, addr, buf, n);
	return got ? (ssize_t)got : -1;
}

/* tracee memory (n bytes, fewer where it cannot be read) */
static size_t read_mem(pid_t tid, uint64_t addr, void *buf, size_t n)
{
	if (!addr)
		return 0;
	ssize_t got = vm_read(tid, buf, addr, n);
	if (got <= 0) {
		/* a string may end before a page the tracee cannot give: read
		 * up to the page end only */
		size_t to_page = 4096 - (addr & 4095);
		if (to_page < n)
			got = vm_read(tid, buf, addr, to_page);
	}
	return got > 0 ? (size_t)got : 0;
}

/* Whether tid has a PTE (present or swapped) for the page of addr, from
 * /proc/PID/pagemap (bits 63 and 62); true when it cannot be read. */
static bool page_mapped(pid_t tid, uint64_t addr)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	uint64_t e = 0;
	ssize_t n = pread(fd, &e, sizeof(e), (off_t)((addr >> 12) * sizeof(e)));
	close(fd);
	return n != (ssize_t)sizeof(e) || (e >> 62) != 0;
}

/* A NUL-terminated string argument, read a page at a time up to its NUL
 * (as the kernel's strncpy_from_user() reads it, and no further: a read
 * past it would map pages the kernel never touches).  A page not mapped
 * before is one the kernel's copy faults: noted in c->kfault. */
static struct strslice read_str(struct rec_call *c, size_t at, pid_t tid, uint64_t addr, size_t max)
{
	struct strslice s = { c->buf + at, 0 };
	size_t got = 0;
	while (addr && got + 1 < max) {
		uint64_t a = addr + got;
		size_t chunk = 4096 - (a & 4095);
		if (chunk > max - 1 - got)
			chunk = max - 1 - got;
		if (!page_mapped(tid, a) && c->nkfault < sizeof(c->kfault) / sizeof(c->kfault[0]))
			c->kfault[c->nkfault++] = a;
		size_t n = read_mem(tid, a, c->buf + at + got, chunk);
		bool nul = memchr(c->buf + at + got, 0, n) != NULL;
		got += n;
		if (n < chunk || nul)
			break;
	}
	c->buf[at + got] = 0;
	s.len = strnlen(c->buf + at, got);
	return s;
}

static uint64_t sext32(uint64_t v)
{
	return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
}

/* x86_64 syscall numbers (arch/x86/entry/syscalls/syscall_64.tbl) */
enum {
	NR_read = 0, NR_write = 1, NR_open = 2, NR_close = 3, NR_stat = 4, NR_fstat = 5,
	NR_lstat = 6, NR_mmap = 9, NR_mprotect = 10, NR_munmap = 11, NR_brk = 12,
	NR_pread64 = 17, NR_pwrite64 = 18, NR_pipe = 22, NR_mremap = 25, NR_msync = 26,
	NR_madvise = 28, NR_shmget = 29, NR_shmat = 30, NR_shmctl = 31, NR_shmdt = 67,
	NR_creat = 85, NR_memfd_secret = 447, NR_setuid = 105, NR_setreuid = 113, NR_setresuid = 117, NR_dup = 32, NR_dup2 = 33, NR_socket = 41, NR_accept = 43,
	NR_socketpair = 53, NR_clone = 56, NR_fork = 57, NR_vfork = 58, NR_execve = 59,
	NR_exit = 60, NR_fcntl = 72, NR_ftruncate = 77, NR_unlink = 87, NR_capset = 126,
	NR_mlock = 149, NR_munlock = 150, NR_mlockall = 151, NR_munlockall = 152,
	NR_setrlimit = 160, NR_epoll_create = 213, NR_exit_group = 231, NR_inotify_init = 253,
	NR_openat = 257, NR_newfstatat = 262, NR_unlinkat = 263, NR_signalfd = 282,
	NR_timerfd_create = 283, NR_eventfd = 284, NR_fallocate = 285, NR_accept4 = 288,
	NR_signalfd4 = 289, NR_eventfd2 = 290, NR_epoll_create1 = 291, NR_dup3 = 292,
	NR_pipe2 = 293, NR_inotify_init1 = 294, NR_perf_event_open = 298,
	NR_fanotify_init = 300, NR_prlimit64 = 302, NR_memfd_create = 319, NR_execveat = 322,
	NR_userfaultfd = 323, NR_mlock2 = 325, NR_statx = 332, NR_io_uring_setup = 425,
	NR_io_uring_enter = 426, NR_io_uring_register = 427,
	NR_pidfd_open = 434, NR_clone3 = 435, NR_fsync = 74, NR_fdatasync = 75, NR_fadvise64 = 221,
	NR_mount = 165, NR_umount2 = 166, NR_unshare = 272, NR_chdir = 80, NR_fchdir = 81,
};

bool rec_sys_is_execve(long nr)
{
	return nr == NR_execve || nr == NR_execveat;
}

static const char *fd_maker(long nr)
{
	switch (nr) {
	case NR_socket: return "socket";
	case NR_accept: return "accept";
	case NR_accept4: return "accept4";
	case NR_epoll_create: return "epoll_create";
	case NR_epoll_create1: return "epoll_create1";
	case NR_inotify_init: return "inotify_init";
	case NR_inotify_init1: return "inotify_init1";
	case NR_signalfd: return "signalfd";
	case NR_signalfd4: return "signalfd4";
	case NR_timerfd_create: return "timerfd_create";
	case NR_eventfd: return "eventfd";
	case NR_eventfd2: return "eventfd2";
	case NR_perf_event_open: return "perf_event_open";
	case NR_fanotify_init: return "fanotify_init";
	case NR_userfaultfd: return "userfaultfd";
	case NR_pidfd_open: return "pidfd_open";
	default: return NULL;
	}
}

void rec_call_free(struct rec_call *c)
{
	free(c->iov_text);
	c->iov_text = NULL;
	c->iov_cap = 0;
}

/* io_uring_register(IORING_REGISTER_BUFFERS)'s array of n struct iovec at
 * addr as strace prints it, into c->iov_text; false if it cannot be read */
static bool read_iovecs(struct rec_call *c, pid_t tid, uint64_t addr, uint64_t n)
{
	size_t need = 2 + n * 64;
	if (need > c->iov_cap) {
		char *t = realloc(c->iov_text, need);
		if (!t)
			return false;
		c->iov_text = t;
		c->iov_cap = need;
	}
	size_t len = 0;
	c->iov_text[len++] = '[';
	for (uint64_t i = 0; i < n; i++) {
		uint64_t iov[2];
		if (read_mem(tid, addr + i * 16, iov, sizeof(iov)) != sizeof(iov))
			return false;
		char base[24] = "NULL";
		if (iov[0])
			snprintf(base, sizeof(base), "0x%" PRIx64, iov[0]);
		int w = snprintf(c->iov_text + len, c->iov_cap - len, "%s{iov_base=%s, iov_len=%" PRIu64 "}",
				 i ? ", " : "", base, iov[1]);
		if (w < 0 || (size_t)w >= c->iov_cap - len)
			return false;
		len += (size_t)w;
	}
	c->iov_text[len++] = ']';
	c->iov_text[len] = 0;
	c->ev.str = (struct strslice){ c->iov_text, len };
	return true;
}

#define O_CREAT_G 0100u
#define O_TMPFILE_G 020000000u
#define MREMAP_FIXED_G 2u
#define MREMAP_DONTUNMAP_G 4u

bool rec_sys_enter(struct rec_call *c, pid_t tid, long nr, const uint64_t a[6])
{
	struct event *ev = &c->ev;
	memset(ev, 0, sizeof(*ev));
	c->nkfault = 0;
	ev->type = EV_CALL;
	ev->pid = (int)tid;
	ev->timestamp = -1;
	ev->res = RES_UNKNOWN;
	c->nr = nr;
	memcpy(c->a, a, sizeof(c->a));
	c->modelled = true;
	uint64_t *x = ev->args;
	const char *maker = fd_maker(nr);
	if (maker) {
		ev->sys = SYS_FDNEW;
		ev->name.p = maker;
		ev->name.len = strlen(maker);
		ev->args_text.p = "";
		return true;
	}
	switch (nr) {
	case NR_mmap:
		ev->sys = SYS_MMAP; ev->nargs = 6;
		memcpy(x, a, 6 * sizeof(*x));
		x[4] = sext32(a[4]);
		break;
	case NR_munmap: ev->sys = SYS_MUNMAP; ev->nargs = 2; x[0] = a[0]; x[1] = a[1]; break;
	case NR_mprotect:
		ev->sys = SYS_MPROTECT; ev->nargs = 3; memcpy(x, a, 3 * sizeof(*x)); break;
	case NR_mremap:
		ev->sys = SYS_MREMAP;
		/* the kernel reads new_address with MREMAP_FIXED and with
		 * MREMAP_DONTUNMAP (a hint it checks: mremap_to()) */
		ev->nargs = (a[3] & (MREMAP_FIXED_G | MREMAP_DONTUNMAP_G)) ? 5 : 4;
		memcpy(x, a, 5 * sizeof(*x));
		if (ev->nargs == 4)
			x[4] = 0;
		break;
	case NR_madvise: ev->sys = SYS_MADVISE; ev->nargs = 3; memcpy(x, a, 3 * sizeof(*x)); break;
	case NR_msync: ev->sys = SYS_MSYNC; ev->nargs = 3; memcpy(x, a, 3 * sizeof(*x)); break;
	case NR_brk: ev->sys = SYS_BRK; ev->nargs = 1; x[0] = a[0]; break;
	case NR_mlock: ev->sys = SYS_MLOCK; ev->nargs = 2; x[0] = a[0]; x[1] = a[1]; break;
	case NR_mlock2: ev->sys = SYS_MLOCK2; ev->nargs = 3; memcpy(x, a, 3 * sizeof(*x)); break;
	case NR_munlock: ev->sys = SYS_MUNLOCK; ev->nargs = 2; x[0] = a[0]; x[1] = a[1]; break;
	case NR_mlockall: ev->sys = SYS_MLOCKALL; ev->nargs = 1; x[0] = a[0]; break;
	case NR_munlockall: ev->sys = SYS_MUNLOCKALL; break;
	case NR_fork: ev->sys = SYS_FORK; break;
	case NR_vfork: ev->sys = SYS_VFORK; break;
	case NR_clone: ev->sys = SYS_CLONE; ev->nargs = 1; x[0] = a[0]; break;
	case NR_clone3: {
		uint64_t ca[5] = { 0 };
		read_mem(tid, a[0], ca, sizeof(ca)); /* struct clone_args: flags @0, exit_signal @32 */
		ev->sys = SYS_CLONE3; ev->nargs = 1;
		x[0] = ca[0] | (ca[4] & 0xff);
		break;
	}
	case NR_execve:
	case NR_execveat:
		ev->sys = SYS_EXECVE;
		ev->str = read_str(c, 0, tid, nr == NR_execve ? a[0] : a[1], 4096);
		break;
	case NR_exit: ev->sys = SYS_EXIT; ev->nargs = 1; x[0] = sext32(a[0]); break;
	case NR_exit_group: ev->sys = SYS_EXIT_GROUP; ev->nargs = 1; x[0] = sext32(a[0]); break;
	case NR_open:
	case NR_openat: {
		bool at = nr == NR_openat;
		ev->sys = at ? SYS_OPENAT : SYS_OPEN;
		x[0] = at ? sext32(a[0]) : (uint64_t)-100;
		ev->str = read_str(c, 0, tid, at ? a[1] : a[0], 4096);
		x[2] = at ? a[2] : a[1];
		x[3] = at ? a[3] : a[2];
		ev->nargs = (x[2] & (O_CREAT_G | O_TMPFILE_G)) ? 4 : 3;
		if (ev->nargs == 3)
			x[3] = 0;
		break;
	}
	case NR_creat: /* fs/open.c: creat() is open(O_CREAT|O_WRONLY|O_TRUNC) */
		ev->sys = SYS_CREAT; ev->nargs = 4;
		x[0] = (uint64_t)-100;
		ev->str = read_str(c, 0, tid, a[0], 4096);
		x[2] = CREAT_OFLAGS;
		x[3] = a[1] & 07777;
		break;
	case NR_io_uring_setup: {
		/* struct io_uring_params: sq_entries @0, cq_entries @4, flags @8 */
		uint32_t p[3] = { 0, 0, 0 };
		read_mem(tid, a[1], p, sizeof(p));
		ev->sys = SYS_IO_URING_SETUP; ev->nargs = 3;
		x[0] = a[0] & 0xffffffffu; x[1] = p[2]; x[2] = p[1];
		break;
	}
	case NR_io_uring_register: {
		ev->sys = SYS_IO_URING_REGISTER; ev->nargs = 4;
		x[0] = sext32(a[0]); x[1] = a[1] & 0xffffffffu; x[3] = a[3] & 0xffffffffu;
		if ((x[1] & 0x7fffffffu) == 0 && a[2] && x[3] <= (1u << 14) && read_iovecs(c, tid, a[2], x[3])) {
			x[2] = 1;
		} else {
			int w = a[2] ? snprintf(c->buf, sizeof(c->buf), "0x%" PRIx64, a[2])
				     : snprintf(c->buf, sizeof(c->buf), "NULL");
			ev->str = (struct strslice){ c->buf, (size_t)w };
		}
		break;
	}
	case NR_io_uring_enter:
		ev->sys = SYS_IO_URING_ENTER; ev->nargs = 2;
		x[0] = sext32(a[0]); x[1] = (a[3] & 0x10) != 0; /* IORING_ENTER_REGISTERED_RING */
		break;
	case NR_memfd_secret:
		ev->sys = SYS_MEMFD_SECRET; ev->nargs = 1;
		x[0] = a[0] & 0xffffffffu; /* O_CLOEXEC is the generic 02000000 on x86_64 */
		break;
	case NR_setuid: ev->sys = SYS_SETUID; ev->nargs = 1; x[0] = a[0] & 0xffffffffu; break;
	case NR_setreuid:
		ev->sys = SYS_SETREUID; ev->nargs = 2;
		x[0] = a[0] & 0xffffffffu; x[1] = a[1] & 0xffffffffu;
		break;
	case NR_setresuid:
		ev->sys = SYS_SETRESUID; ev->nargs = 3;
		for (int i = 0; i < 3; i++)
			x[i] = a[i] & 0xffffffffu;
		break;
	case NR_close: ev->sys = SYS_CLOSE; ev->nargs = 1; x[0] = sext32(a[0]); break;
	case NR_unlink:
	case NR_unlinkat:
		ev->sys = SYS_UNLINK;
		ev->str = read_str(c, 0, tid, nr == NR_unlink ? a[0] : a[1], 4096);
		break;
	case NR_ftruncate: ev->sys = SYS_FTRUNCATE; ev->nargs = 2; x[0] = sext32(a[0]); x[1] = a[1]; break;
	case NR_fallocate:
		ev->sys = SYS_FALLOCATE; ev->nargs = 4;
		x[0] = sext32(a[0]); x[1] = a[1]; x[2] = a[2]; x[3] = a[3];
		break;
	case NR_read: case NR_write:
		ev->sys = nr == NR_read ? SYS_READ : SYS_WRITE; ev->nargs = 3;
		x[0] = sext32(a[0]); x[2] = a[2];
		break;
	case NR_pread64: case NR_pwrite64:
		ev->sys = nr == NR_pread64 ? SYS_PREAD64 : SYS_PWRITE64; ev->nargs = 4;
		x[0] = sext32(a[0]); x[2] = a[2]; x[3] = a[3];
		break;
	case NR_setrlimit:
	case NR_prlimit64: {
		bool pl = nr == NR_prlimit64;
		ev->sys = pl ? SYS_PRLIMIT64 : SYS_SETRLIMIT;
		ev->nargs = pl ? 2 : 1;
		if (pl) {
			x[0] = sext32(a[0]);
			x[1] = a[1];
		} else {
			x[0] = a[0];
		}
		uint64_t r[2];
		uint64_t p = pl ? a[2] : a[1];
		if (p && read_mem(tid, p, r, sizeof(r)) == sizeof(r)) {
			ev->has_rlim = true;
			ev->rlim_cur = r[0];
			ev->rlim_max = r[1];
		}
		break;
	}
	case NR_capset: {
		uint32_t d[6] = { 0 }; /* two __user_cap_data_struct {effective, permitted, inheritable} */
		read_mem(tid, a[1], d, sizeof(d));
		ev->sys = SYS_CAPSET;
		ev->cap_effective = (uint64_t)d[0] | (uint64_t)d[3] << 32;
		ev->cap_permitted = (uint64_t)d[1] | (uint64_t)d[4] << 32;
		ev->has_cap_permitted = true;
		break;
	}
	case NR_fstat: ev->sys = SYS_FSTAT; ev->nargs = 3; x[0] = sext32(a[0]); break;
	case NR_stat: case NR_lstat:
		ev->sys = SYS_STAT; ev->nargs = 3; x[0] = (uint64_t)-100;
		ev->str = read_str(c, 0, tid, a[0], 4096);
		break;
	case NR_newfstatat: case NR_statx:
		ev->sys = nr == NR_statx ? SYS_STATX : SYS_NEWFSTATAT; ev->nargs = 3;
		x[0] = sext32(a[0]);
		ev->str = read_str(c, 0, tid, a[1], 4096);
		break;
	case NR_dup: ev->sys = SYS_DUP; ev->nargs = 1; x[0] = sext32(a[0]); break;
	case NR_dup2: case NR_dup3:
		ev->sys = nr == NR_dup2 ? SYS_DUP2 : SYS_DUP3; ev->nargs = 2;
		x[0] = sext32(a[0]); x[1] = sext32(a[1]);
		break;
	case NR_fcntl:
		if (a[1] != 0 && a[1] != 1030)
			return c->modelled = false; /* no descriptor made */
		ev->sys = SYS_FCNTL; ev->nargs = 3;
		x[0] = sext32(a[0]); x[1] = a[1]; x[2] = sext32(a[2]);
		break;
	case NR_fsync: case NR_fdatasync:
		ev->sys = SYS_FSYNC; ev->nargs = 1; x[0] = sext32(a[0]);
		break;
	case NR_fadvise64:
		ev->sys = SYS_FADVISE64; ev->nargs = 4;
		x[0] = sext32(a[0]); x[1] = a[1]; x[2] = a[2]; x[3] = a[3];
		break;
	case NR_pipe: ev->sys = SYS_PIPE; ev->nargs = 2; break;
	case NR_pipe2: ev->sys = SYS_PIPE2; ev->nargs = 2; break;
	case NR_socketpair: ev->sys = SYS_SOCKETPAIR; ev->nargs = 2; break;
	/* SysV shared memory: key_t, int flags and ids are 32-bit */
	case NR_shmget:
		ev->sys = SYS_SHMGET; ev->nargs = 3;
		x[0] = a[0] & 0xffffffffu; x[1] = a[1]; x[2] = a[2] & 0xffffffffu;
		break;
	case NR_shmat:
		ev->sys = SYS_SHMAT; ev->nargs = 3;
		x[0] = sext32(a[0]); x[1] = a[1]; x[2] = a[2] & 0xffffffffu;
		break;
	case NR_shmdt: ev->sys = SYS_SHMDT; ev->nargs = 1; x[0] = a[0]; break;
	case NR_shmctl:
		/* the buffer's address: NULL is EFAULT where the kernel copies it */
		ev->sys = SYS_SHMCTL; ev->nargs = 3;
		x[0] = sext32(a[0]); x[1] = a[1] & 0xffffffffu; x[2] = a[2];
		break;
	case NR_memfd_create:
		ev->sys = SYS_MEMFD_CREATE;
		ev->str = read_str(c, 0, tid, a[0], 256);
		break;
	/* fs/namespace.c: mount's target, type and source are strings the
	 * kernel copies (the data page is not read here) */
	case NR_mount:
		ev->sys = SYS_MOUNT; ev->nargs = 1;
		ev->str = read_str(c, 0, tid, a[1], 2048);
		ev->str2 = a[2] ? read_str(c, 2048, tid, a[2], 256) : (struct strslice){ NULL, 0 };
		ev->str3 = a[0] ? read_str(c, 2304, tid, a[0], 2048) : (struct strslice){ NULL, 0 };
		x[0] = a[3];
		break;
	case NR_umount2:
		ev->sys = SYS_UMOUNT2; ev->nargs = 1;
		ev->str = read_str(c, 0, tid, a[0], 4096);
		x[0] = a[1] & 0xffffffffu;
		break;
	case NR_unshare: ev->sys = SYS_UNSHARE; ev->nargs = 1; x[0] = a[0] & 0xffffffffu; break;
	case NR_chdir: ev->sys = SYS_CHDIR; ev->str = read_str(c, 0, tid, a[0], 4096); break;
	case NR_fchdir: ev->sys = SYS_FCHDIR; ev->nargs = 1; x[0] = sext32(a[0]); break;
	default:
		return c->modelled = false;
	}
	return true;
}

void rec_sys_exit(struct rec_call *c, pid_t tid, int64_t ret)
{
	struct event *ev = &c->ev;
	if (ret < 0 && ret >= -4095) {
		int e = (int)-ret;
		ev->res = (e >= 512 && e <= 516) ? RES_RESTART : RES_ERROR;
		ev->err = e;
		return;
	}
	ev->res = RES_VALUE;
	ev->value = ret;
	switch (ev->sys) {
	case SYS_FSTAT: case SYS_STAT: case SYS_NEWFSTATAT: case SYS_STATX: {
		/* st_size at offset 48 of x86_64 struct stat; stx_size at 40 of struct statx */
		uint64_t buf = ev->sys == SYS_FSTAT || ev->sys == SYS_STAT ? c->a[1]
			       : ev->sys == SYS_STATX ? c->a[4] : c->a[2];
		uint64_t off = ev->sys == SYS_STATX ? 40 : 48, size;
		if (ret == 0 && read_mem(tid, buf + off, &size, sizeof(size)) == sizeof(size)) {
			ev->args[1] = size;
			ev->args[2] = 1;
		}
		break;
	}
	case SYS_PIPE: case SYS_PIPE2: case SYS_SOCKETPAIR: {
		int fds[2] = { -1, -1 };
		read_mem(tid, ev->sys == SYS_SOCKETPAIR ? c->a[3] : c->a[0], fds, sizeof(fds));
		ev->args[0] = (uint64_t)(int64_t)fds[0];
		ev->args[1] = (uint64_t)(int64_t)fds[1];
		break;
	}
	default:
		break;
	}
}
