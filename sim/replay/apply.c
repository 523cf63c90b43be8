/* apply.c - trace events to model calls.  See replay.h, section "apply". */
#include "replay.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inherit.h"
#include "kerr.h"

#define RLIMIT_MEMLOCK_G 8
#define CLONE_VM_G 0x100u
#define CLONE_VFORK_G 0x4000u
#define SIGCHLD_G 17u

static struct outcome from_ret(int64_t r, int pid)
{
	struct outcome o = { r < 0 ? OUT_ERROR : OUT_VALUE, r < 0 ? -r : r, pid };
	return o;
}

static int apply_call(struct vmsys *s, struct task *t, const struct event *ev,
		      struct outcome *out, char *err, size_t errlen);

/* What the trace says the call returned: its value, -errno, or 0. */
static int64_t trace_result(const struct event *ev)
{
	if (ev->res == RES_VALUE)
		return ev->value;
	if (ev->res == RES_ERROR)
		return -(int64_t)ev->err;
	return 0;
}

/* io_uring_register(): the iovec array of the event's text, if any */
static int apply_uring_register(struct vmsys *s, struct task *t, const struct event *ev,
				struct outcome *out, char *err, size_t errlen)
{
	const uint64_t *a = ev->args;
	struct vm_iovec small[16], *iov = small;
	size_t n = 0, cap = sizeof(small) / sizeof(small[0]);
	bool cut = false;
	if (a[2]) {
		const char *p = ev->str.p, *end = ev->str.p + ev->str.len;
		uint64_t base, len;
		while (trace_iovec_next(&p, end, &base, &len, &cut)) {
			if (n == cap) {
				size_t ncap = cap * 2;
				struct vm_iovec *bigger = malloc(ncap * sizeof(*bigger));
				if (!bigger) {
					if (iov != small)
						free(iov);
					snprintf(err, errlen, "out of memory for %zu iovecs", ncap);
					return -1;
				}
				memcpy(bigger, iov, n * sizeof(*iov));
				if (iov != small)
					free(iov);
				iov = bigger;
				cap = ncap;
			}
			iov[n++] = (struct vm_iovec){ base, len };
		}
	}
	/* strace's "..." (an array longer than it prints): the buffers it
	 * did not show are unknown, so the model registers what it saw and
	 * the trace's answer stands for the call */
	int64_t r = vm_io_uring_register(s, t, (int64_t)a[0], a[1], iov, n, a[2] != 0,
					 cut ? n : a[3], trace_result(ev));
	if (iov != small)
		free(iov);
	*out = from_ret(cut && r >= 0 ? trace_result(ev) : r, out->pid);
	return 0;
}

int apply_event(struct vmsys *s, const struct event *ev, struct outcome *out, char *err,
		size_t errlen)
{
	*out = (struct outcome){ OUT_NONE, 0, ev->pid };
	/* interrupted before it took effect: the restarted call follows
	 * (kernel/signal.c, arch signal code: -ERESTART* never reaches user
	 * space, the syscall is re-entered) */
	if (ev->type == EV_CALL && ev->res == RES_RESTART)
		return 0;
	if (ev->type == EV_EXPECT) {
		if (ev->exp.kind == EXP_PAGE)
			vm_drain_all(s);
		return 0;
	}
	if (ev->type == EV_CALL && ev->sys == SYS_EVICT) {
		/* the machine's page cache, whichever process is current */
		vm_evict_cached(s, ev->str.p, ev->str.len, ev->args[0], ev->args[1]);
		return 0;
	}
	struct task *t = vmsys_task(s, ev->pid, true);
	if (!t) {
		snprintf(err, errlen, "out of memory creating process %d", ev->pid);
		return -1;
	}
	out->pid = task_pid(t);
	if (!task_alive(t)) {
		/* the model's OOM killer ended it: that was reported as an event
		 * when it happened, and the kernel's process went on */
		if (task_oom_killed(t) || ev->type == EV_EXITED || ev->type == EV_KILLED)
			return 0;
		/* the trace ended it itself (exit, +++ exited): a call after that
		 * is not a trace of a real process */
		snprintf(err, errlen, "process %d has exited (earlier in the trace) and makes this call",
			 task_pid(t));
		return -1;
	}
	/* what a call without its arguments did is not known: nothing to run
	 * (its process ended, or the trace did, half way through the line) */
	if (ev->type == EV_CALL && ev->args_missing)
		return 0;
	if (ev->type == EV_CALL && (ev->sys == SYS_TOUCH || ev->sys == SYS_FAULT))
		vmsys_begin_access(s, t);
	else
		vmsys_begin_call(s, t);
	int rc = apply_call(s, t, ev, out, err, errlen);
	vmsys_end_call(s, t);
	return rc;
}

static int apply_call(struct vmsys *s, struct task *t, const struct event *ev,
		      struct outcome *out, char *err, size_t errlen)
{
	if (ev->type == EV_EXITED || ev->type == EV_KILLED) {
		vm_exit(s, t);
		return 0;
	}
	if (ev->type == EV_SIGNAL) {
		if (ev->signo == 11 && ev->has_si_addr) {
			/* a refused fault: the model must refuse it too */
			struct vm_vma_info vi;
			bool mapped = vmsys_vma_at(s, t, ev->si_addr, &vi);
			bool maperr = ev->si_code.len && !memcmp(ev->si_code.p, "SEGV_MAPERR", 11);
			out->kind = OUT_VALUE;
			out->value = maperr ? !mapped : mapped;
		}
		return 0;
	}
	const uint64_t *a = ev->args;
	bool trace_ok = ev->res == RES_VALUE || ev->res == RES_UNKNOWN;
	bool has_val = ev->res == RES_VALUE;
	switch (ev->sys) {
	case SYS_MMAP:
		*out = from_ret(vm_mmap(s, t, a[0], a[1], a[2], a[3], (int64_t)a[4], a[5], has_val,
					(uint64_t)ev->value), out->pid);
		break;
	case SYS_MUNMAP: *out = from_ret(vm_munmap(s, t, a[0], a[1]), out->pid); break;
	case SYS_SHMGET:
		/* the id the kernel gave is the segment's (its idr is not modelled) */
		*out = from_ret(vm_shmget(s, t, a[0], a[1], a[2], has_val ? ev->value : -1), out->pid);
		break;
	case SYS_SHMAT:
		*out = from_ret(vm_shmat(s, t, (int64_t)a[0], a[1], a[2], has_val, (uint64_t)ev->value),
				out->pid);
		break;
	case SYS_SHMDT: *out = from_ret(vm_shmdt(s, t, a[0]), out->pid); break;
	case SYS_SHMCTL: *out = from_ret(vm_shmctl_buf(s, t, (int64_t)a[0], a[1], a[2]), out->pid); break;
	case SYS_MPROTECT: *out = from_ret(vm_mprotect(s, t, a[0], a[1], a[2]), out->pid); break;
	case SYS_MREMAP:
		*out = from_ret(vm_mremap(s, t, a[0], a[1], a[2], a[3], a[4], has_val,
					  (uint64_t)ev->value), out->pid);
		break;
	case SYS_MADVISE: *out = from_ret(vm_madvise(s, t, a[0], a[1], a[2]), out->pid); break;
	case SYS_MSYNC: *out = from_ret(vm_msync(s, t, a[0], a[1], a[2]), out->pid); break;
	case SYS_BRK:
		if (has_val)
			vm_brk_init(s, t, (uint64_t)ev->value);
		*out = from_ret(vm_brk(s, t, a[0]), out->pid);
		break;
	case SYS_MLOCK: *out = from_ret(vm_mlock(s, t, a[0], a[1]), out->pid); break;
	case SYS_MLOCK2: *out = from_ret(vm_mlock2(s, t, a[0], a[1], a[2]), out->pid); break;
	case SYS_MUNLOCK: *out = from_ret(vm_munlock(s, t, a[0], a[1]), out->pid); break;
	case SYS_MLOCKALL: *out = from_ret(vm_mlockall(s, t, a[0]), out->pid); break;
	case SYS_MUNLOCKALL: *out = from_ret(vm_munlockall(s, t), out->pid); break;
	case SYS_FORK:
	case SYS_VFORK:
	case SYS_CLONE:
	case SYS_CLONE3: {
		if (!trace_ok)
			break; /* a failed fork changes no memory */
		uint64_t cf = ev->sys == SYS_FORK    ? SIGCHLD_G
			      : ev->sys == SYS_VFORK ? (CLONE_VM_G | CLONE_VFORK_G | SIGCHLD_G)
						     : a[0];
		int child = has_val ? (int)ev->value : 0;
		*out = from_ret(vm_fork(s, t, cf, child), out->pid);
		break;
	}
	case SYS_EXECVE:
		if (ev->res == RES_VALUE && ev->value == 0)
			*out = from_ret(vm_execve(s, t), out->pid);
		break;
	case SYS_EXIT:
	case SYS_EXIT_GROUP:
		vm_exit(s, t);
		break;
	case SYS_OPENAT:
	case SYS_OPEN:
	case SYS_CREAT:
		if (!trace_ok)
			break; /* the file system's errors are not modelled */
		*out = from_ret(vm_openat(s, t, (int64_t)a[0], ev->str.p, ev->str.len, a[2],
					  has_val ? (int)ev->value : -1),
				out->pid);
		break;
	case SYS_CLOSE:
		/* a descriptor the process had before the trace (0-2, or from
		 * its parent) is unknown to the model: nothing to check */
		if (trace_ok && vm_fd_seen(t, (int64_t)a[0]))
			*out = from_ret(vm_close(s, t, (int64_t)a[0]), out->pid);
		break;
	case SYS_FSTAT:
	case SYS_NEWFSTATAT:
	case SYS_STAT:
	case SYS_STATX:
		/* the kernel's i_size of a file the trace did not create */
		if (has_val && ev->value == 0 && a[2]) {
			bool by_fd = ev->sys == SYS_FSTAT || (ev->str.p && ev->str.len == 0);
			vm_learn_file_size(s, t, by_fd ? (int64_t)a[0] : -1, ev->str.p, ev->str.len, a[1]);
		}
		break;
	case SYS_DUP:
	case SYS_DUP2:
	case SYS_DUP3:
	case SYS_FCNTL:
		if (has_val && ev->value >= 0 && (ev->sys != SYS_FCNTL || a[1] != FCNTL_OTHER)) {
			int64_t r = vm_dup(s, t, (int64_t)a[0], (int)ev->value);
			if (r == -KERR_EBADF) /* duplicating a descriptor from before the trace */
				r = vm_fd_new(s, t, (int)ev->value, "inherited", 9, false);
			if (r < 0)
				*out = from_ret(r, out->pid);
		}
		break;
	case SYS_FDNEW:
	case SYS_MEMFD_CREATE:
		if (has_val && ev->value >= 0) {
			bool memfd = ev->sys == SYS_MEMFD_CREATE;
			int64_t r = vm_fd_new(s, t, (int)ev->value, memfd ? ev->str.p : ev->name.p,
					      memfd ? ev->str.len : ev->name.len, memfd);
			if (r < 0)
				*out = from_ret(r, out->pid);
		}
		break;
	case SYS_PIPE:
	case SYS_PIPE2:
	case SYS_SOCKETPAIR:
		if (has_val && ev->value == 0) {
			for (int k = 0; k < 2; k++) {
				int64_t r = vm_fd_new(s, t, (int)a[k], trace_sys_name(ev->sys),
						      strlen(trace_sys_name(ev->sys)), false);
				if (r < 0)
					*out = from_ret(r, out->pid);
			}
		}
		break;
	case SYS_INHERIT: {
		int64_t r;
		long col;
		if (inherit_apply_line(s, t, ev->str.p, ev->str.len, ev->str2.p, ev->str2.p ? ev->str2.len : 0,
				       &r, err, errlen, &col) < 0)
			return -1;
		if (r == 0 && ev->str3.p && inherit_apply_present(s, t, ev->str.p, ev->str.len, ev->str3.p,
								  ev->str3.len, err, errlen) < 0)
			return -1;
		*out = from_ret(r, out->pid);
		break;
	}
	case SYS_WAIT4:
		/* kernel/exit.c:wait_task_zombie() -> release_task(): the
		 * reaped child is gone; a zombie nobody waits for stays */
		if (has_val && ev->value > 0 && ev->value <= INT_MAX)
			vm_release_task(s, (int)ev->value);
		break;
	case SYS_FSYNC:
		if (has_val && ev->value == 0)
			vm_fsync(s, t, (int64_t)a[0]);
		break;
	case SYS_FADVISE64:
		if (has_val && ev->value == 0)
			vm_fadvise(s, t, (int64_t)a[0], a[1], a[2], a[3]);
		break;
	/* what a mount changes is applied once it succeeded: the model does
	 * not compute its result (permissions, the target's existence) */
	case SYS_MOUNT:
		if (has_val && ev->value == 0)
			vm_mount(s, t, ev->str.p, ev->str.len, ev->str2.p ? ev->str2.p : "", ev->str2.len,
				 ev->str3.p ? ev->str3.p : "", ev->str3.len, a[0]);
		break;
	case SYS_UMOUNT2:
		if (has_val && ev->value == 0)
			vm_umount(s, t, ev->str.p, ev->str.len, a[0]);
		break;
	case SYS_UNSHARE:
		if (has_val && ev->value == 0)
			vm_unshare(s, t, a[0]);
		break;
	case SYS_CHDIR:
		if (has_val && ev->value == 0) {
			/* the model computes only what no kernel allows: a name
			 * too long (ENAMETOOLONG) */
			int64_t r = vm_chdir(s, t, ev->str.p, ev->str.len);
			if (r < 0)
				*out = from_ret(r, out->pid);
		}
		break;
	case SYS_FCHDIR:
		if (has_val && ev->value == 0)
			vm_fchdir(s, t, (int64_t)a[0]);
		break;
	case SYS_EVICT: /* handled in apply_event() */
		break;
	case SYS_INHERIT_FILE: {
		int64_t r;
		if (inherit_apply_file(s, ev, &r, err, errlen) < 0)
			return -1;
		*out = from_ret(r, out->pid);
		if (r >= 0)
			vm_exec_reads(s, t, ev->str.p, ev->str.len);
		break;
	}
	case SYS_UNLINK:
		if (trace_ok)
			vm_unlink(s, t, ev->str.p, ev->str.len);
		break;
	case SYS_FTRUNCATE: *out = from_ret(vm_ftruncate(s, t, (int64_t)a[0], a[1]), out->pid); break;
	case SYS_FALLOCATE:
		*out = from_ret(vm_fallocate(s, t, (int64_t)a[0], a[1], a[2], a[3]), out->pid);
		break;
	case SYS_READ:
	case SYS_WRITE:
	case SYS_PREAD64:
	case SYS_PWRITE64: {
		if (!trace_ok)
			break;
		if (has_val && (uint64_t)ev->value > a[2]) {
			/* read(2) and write(2) transfer at most count bytes */
			snprintf(err, errlen, "%s returned %" PRId64 ", more than the %" PRIu64 " bytes asked for",
				 trace_sys_name(ev->sys), ev->value, a[2]);
			return -1;
		}
		bool w = ev->sys == SYS_WRITE || ev->sys == SYS_PWRITE64;
		bool positional = ev->sys == SYS_PREAD64 || ev->sys == SYS_PWRITE64;
		int64_t r = vm_file_io(s, t, (int64_t)a[0], w, positional ? (int64_t)a[3] : -1, a[2],
				       has_val ? ev->value : -1);
		if (r != -KERR_EBADF) /* I/O on fds the model never saw opened is not memory */
			*out = from_ret(r, out->pid);
		break;
	}
	case SYS_SETRLIMIT:
		if (a[0] == RLIMIT_MEMLOCK_G && ev->has_rlim)
			*out = from_ret(vm_setrlimit_memlock(s, t, ev->rlim_cur, ev->rlim_max), out->pid);
		break;
	case SYS_PRLIMIT64:
		if (a[1] == RLIMIT_MEMLOCK_G && ev->has_rlim) {
			struct task *target = a[0] ? vmsys_task(s, (int)a[0], false) : t;
			if (!target)
				*out = from_ret(-KERR_ESRCH, out->pid);
			else
				*out = from_ret(vm_setrlimit_memlock(s, target, ev->rlim_cur, ev->rlim_max),
						out->pid);
		}
		break;
	case SYS_CAPSET:
		if (trace_ok)
			*out = from_ret(vm_capset(s, t, ev->cap_effective,
						  ev->has_cap_permitted ? ev->cap_permitted
									 : vmsys_cap_permitted(t)),
					out->pid);
		break;
	case SYS_IO_URING_SETUP:
		*out = from_ret(vm_io_uring_setup(s, t, a[0], a[1], a[2],
						  has_val && ev->value >= 0 && ev->value <= INT_MAX
						  ? (int)ev->value : -1),
				out->pid);
		break;
	case SYS_IO_URING_REGISTER:
		return apply_uring_register(s, t, ev, out, err, errlen);
	case SYS_IO_URING_ENTER:
		*out = from_ret(vm_io_uring_enter(s, t, (int64_t)a[0], a[1] != 0, trace_result(ev)),
				out->pid);
		break;
	case SYS_MEMFD_SECRET:
		*out = from_ret(vm_memfd_secret(s, t, a[0], has_val && ev->value >= 0 && ev->value <= INT_MAX
								 ? (int)ev->value : -1),
				out->pid);
		break;
	case SYS_SETUID: case SYS_SETREUID: case SYS_SETRESUID:
		if (trace_ok) {
			enum setuid_kind k = ev->sys == SYS_SETUID ? SETUID_ONE
					     : ev->sys == SYS_SETREUID ? SETUID_RE : SETUID_RES;
			*out = from_ret(vm_setuid(s, t, k, (uint32_t)a[0], (uint32_t)a[1],
						  ev->sys == SYS_SETRESUID ? (uint32_t)a[2] : UINT32_MAX),
					out->pid);
		}
		break;
	case SYS_FAULT: {
		enum vm_fault_kind k = vm_access(s, t, a[0], access_mode(a[1]));
		*out = (struct outcome){ OUT_FAULT, k, out->pid };
		break;
	}
	case SYS_TOUCH: {
		enum vm_fault_kind sig;
		int64_t n = vm_touch(s, t, a[0], a[1], access_mode(a[2]), &sig);
		*out = n < 0 ? (struct outcome){ OUT_SIGNAL, sig, out->pid }
			     : (struct outcome){ OUT_VALUE, n, out->pid };
		break;
	}
	case SYS_RECLAIM: *out = from_ret(vm_reclaim(s, a[0]), out->pid); break;
	case SYS_DROP_CACHES: *out = from_ret(vm_drop_caches(s, (int)a[0]), out->pid); break;
	case SYS_NUMA_SCAN: *out = from_ret(vm_numa_scan(s, t), out->pid); break;
	case SYS_NUMA_NODE: *out = from_ret(vm_numa_node(s, t, a[0]), out->pid); break;
	case SYS_NUMA_RUN: *out = from_ret(vm_numa_run(s, t, a[0]), out->pid); break;
	case SYS_MEMCG_LIMIT: *out = from_ret(vm_memcg_limit(s, (int64_t)a[0]), out->pid); break;
	case SYS_MEMCG_MAX: *out = from_ret(vm_memcg_max(s, (int64_t)a[0]), out->pid); break;
	case SYS_MEMCG_HIGH: *out = from_ret(vm_memcg_high(s, (int64_t)a[0]), out->pid); break;
	case SYS_MEMCG_FORCE_EMPTY: *out = from_ret(vm_memcg_force_empty(s), out->pid); break;
	default:
		break;
	}
	return 0;
}

static const char *fault_name(int64_t k)
{
	switch (k) {
	case VMF_NONE: return "no fault";
	case VMF_MINOR: return "MINOR";
	case VMF_MAJOR: return "MAJOR";
	case VMF_SIGSEGV: return "SIGSEGV";
	case VMF_SIGBUS: return "SIGBUS";
	}
	return "?";
}

static bool is_addr_result(enum sysno s)
{
	return s == SYS_MMAP || s == SYS_MREMAP || s == SYS_BRK;
}

void outcome_text(const struct event *ev, const struct outcome *out, char *buf, size_t len)
{
	switch (out->kind) {
	case OUT_NONE: snprintf(buf, len, "(not modelled)"); break;
	case OUT_VALUE:
		if (ev->type == EV_SIGNAL)
			snprintf(buf, len, "%s", out->value ? "refused" : "allowed");
		else if (is_addr_result(ev->sys))
			snprintf(buf, len, "0x%" PRIx64, out->value);
		else
			snprintf(buf, len, "%" PRId64, out->value);
		break;
	case OUT_ERROR: {
		const char *n = kerr_name((int)out->value);
		snprintf(buf, len, "-1 %s", n ? n : "E?");
		break;
	}
	case OUT_FAULT: snprintf(buf, len, "%s", fault_name(out->value)); break;
	case OUT_SIGNAL: snprintf(buf, len, "%s", fault_name(out->value)); break;
	}
}

static void recorded_text(const struct event *ev, char *buf, size_t len)
{
	if (ev->res == RES_ERROR) {
		const char *n = kerr_name(ev->err);
		snprintf(buf, len, "-1 %s", n ? n : "E?");
	} else if (ev->res == RES_VALUE && ev->sys == SYS_FAULT) {
		snprintf(buf, len, "%s", fault_name(ev->value));
	} else if (ev->res == RES_VALUE && is_addr_result(ev->sys)) {
		snprintf(buf, len, "0x%" PRIx64, (uint64_t)ev->value);
	} else if (ev->res == RES_VALUE) {
		snprintf(buf, len, "%" PRId64, ev->value);
	} else {
		snprintf(buf, len, "?");
	}
}

bool outcome_matches(const struct event *ev, const struct outcome *out, char *why, size_t len)
{
	char exp[64], got[96];
	if (ev->type == EV_SIGNAL) {
		if (out->kind == OUT_VALUE && !out->value) {
			snprintf(why, len, "the kernel refused an access at 0x%" PRIx64
				 " (%.*s) but the model would allow it",
				 ev->si_addr, (int)ev->si_code.len, ev->si_code.p);
			return false;
		}
		return true;
	}
	if (ev->type != EV_CALL || out->kind == OUT_NONE || ev->res == RES_UNKNOWN ||
	    ev->res == RES_NONE)
		return true;
	bool ok;
	switch (out->kind) {
	case OUT_VALUE: ok = ev->res == RES_VALUE && ev->value == out->value; break;
	case OUT_ERROR: ok = ev->res == RES_ERROR && ev->err == out->value; break;
	case OUT_FAULT:
		ok = ev->res == RES_VALUE && ev->value == out->value;
		break;
	case OUT_SIGNAL: ok = false; break;
	default: ok = true;
	}
	if (!ok) {
		recorded_text(ev, exp, sizeof(exp));
		outcome_text(ev, out, got, sizeof(got));
		snprintf(why, len, "expected %s, model %s", exp, got);
	}
	return ok;
}
