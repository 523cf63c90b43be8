/*
 * prop_trace_roundtrip.c - write -> read gives back the same events.
 *
 * Random events of every kind (calls of every known syscall, unknown
 * calls, pseudo-events, expects, signals, exits) are drawn from a fixed
 * seed, written with trace_format_event(), read back with trace_read(),
 * and compared field by field.  Some calls are written split into an
 * "<unfinished ...>" and a "<... NAME resumed>" half with another pid's
 * event in between, as strace -f does.  Random headers go through
 * trace_write_header() and back the same way.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "flagtab.h"
#include "trace.h"

#define NEV 20000

/* ---- random ------------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }
static bool coin(void) { return rnd() & 1; }

/* ---- string arena --------------------------------------------------------- */

static char *arena;
static size_t arena_len, arena_cap;

static struct strslice keep(const char *s, size_t n)
{
	if (arena_len + n > arena_cap) {
		/* never reallocated: slices point into it */
		CU_FAIL_FATAL("arena full");
	}
	memcpy(arena + arena_len, s, n);
	struct strslice r = { arena + arena_len, n };
	arena_len += n;
	return r;
}

static struct strslice keep_str(const char *s) { return keep(s, strlen(s)); }

static struct strslice rand_bytes(size_t maxlen)
{
	char tmp[64];
	size_t n = below(maxlen + 1);
	for (size_t i = 0; i < n; i++) {
		uint64_t k = below(10);
		tmp[i] = k < 7 ? (char)(' ' + below(95)) : (char)below(256);
	}
	return keep(tmp, n);
}

/* ---- flag values ----------------------------------------------------------- */

static const char *g_arch, *g_kernel;

static uint64_t rand_flags(enum flag_kind k)
{
	const struct flag_table *t = flagtab_get(g_arch, g_kernel, k);
	if (!t || !t->nentries)
		return below(8);
	uint64_t v = 0;
	unsigned n = (unsigned)below(4);
	if (k == FK_MADVISE)
		n = 1;
	for (unsigned i = 0; i < n; i++) {
		const struct flag_entry *e = &t->entries[below(t->nentries)];
		if (e->alias_of)
			continue;
		if (e->field)
			v = (v & ~e->field) | e->value;
		else if (k == FK_MADVISE)
			v = e->value;
		else
			v |= e->value;
	}
	return v;
}

static const char *const errnames[] = { "EPERM", "ENOENT", "EINTR", "EAGAIN", "ENOMEM",
					"EACCES", "EFAULT", "EINVAL", "EBADF", "ENOSPC" };
static const int errnums[] = { 1, 2, 4, 11, 12, 13, 14, 22, 9, 28 };

static void rand_result(struct event *ev, bool addr)
{
	uint64_t k = below(10);
	if (k == 0) {
		ev->res = RES_UNKNOWN;
	} else if (k <= 2) {
		unsigned i = (unsigned)below(sizeof(errnums) / sizeof(errnums[0]));
		ev->res = RES_ERROR;
		ev->err = errnums[i];
		(void)errnames;
	} else {
		ev->res = RES_VALUE;
		if (addr)
			ev->value = (int64_t)(below(UINT64_C(1) << 47) & ~UINT64_C(0xfff));
		else
			ev->value = (int64_t)below(2000000) - 1000;
	}
}

static uint64_t rand_addr(void)
{
	return coin() ? below(UINT64_C(1) << 47) & ~UINT64_C(0xfff) : below(1 << 20);
}

static uint64_t rand_len(void) { return coin() ? below(1 << 20) * 4096 : below(100000); }
static uint64_t rand_fd(void) { return coin() ? (uint64_t)-1 : below(100); }

static uint64_t rand_bits(uint64_t mask) { return rnd() & mask; }

static uint64_t rand_rlim(void)
{
	switch (below(4)) {
	case 0: return RLIM_INFINITY_VALUE;
	case 1: return below(1 << 20) * 1024;
	case 2: return below(UINT64_C(1) << 40);
	default: return 0;
	}
}

static const char *const unknown_names[] = { "getpid", "rt_sigtimedwait", "futex", "rt_sigaction", "arch_prctl" };
static const char *const unknown_args[] = {
	"", "2, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL",
	"0x7f00, FUTEX_WAIT_PRIVATE, 2, NULL", "SIGINT, {sa_handler=0x1, sa_mask=[], sa_flags=SA_RESTORER}, NULL, 8",
	"ARCH_SET_FS, 0x7f12", "\"a, b\\\"c\", [\"x\"...], 0x10 /* comment, with comma */",
};
static const char *const fields[] = { "VmLck", "VmRSS", "VmSize", "VmPin", "Mlocked", "nr_mlock", "Unevictable" };
static const char *const keys[] = { "start", "end", "Rss", "Locked", "VmFlags", "present", "mlocked",
				    "unevictable", "lru", "active", "Pss" };
static const char *const sicodes[] = { "SEGV_ACCERR", "SEGV_MAPERR", "BUS_ADRERR", "CLD_EXITED", "SI_USER" };
static const int signals[] = { 1, 2, 6, 7, 9, 11, 13, 15, 17, 19, 31 };

static void rand_kv(struct expect_kv *kv)
{
	char tmp[64];
	kv->key = keep_str(keys[below(sizeof(keys) / sizeof(keys[0]))]);
	switch (below(4)) {
	case 0: /* decimal, maybe with kB */
		kv->is_num = true;
		kv->num = below(1000000);
		if (coin()) {
			snprintf(tmp, sizeof(tmp), "%llu kB", (unsigned long long)kv->num);
			kv->num *= 1024;
		} else {
			snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)kv->num);
		}
		kv->text = keep_str(tmp);
		break;
	case 1: /* hex */
		kv->is_num = true;
		kv->num = rand_addr() | 0x1000;
		snprintf(tmp, sizeof(tmp), "0x%llx", (unsigned long long)kv->num);
		kv->text = keep_str(tmp);
		break;
	case 2:
		kv->is_str = true;
		kv->text = rand_bytes(20);
		break;
	default:
		kv->text = keep_str(coin() ? "yes" : "none_at_all");
		break;
	}
}

static void rand_event(struct event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->pid = coin() ? 0 : (int)below(100000) + 1;
	ev->timestamp = -1;
	if (below(4) == 0)
		ev->timestamp = (double)below(100000) + (double)below(1000000) / 1e6;
	uint64_t kind = below(20);
	if (kind == 0) {
		ev->type = EV_SIGNAL;
		ev->signo = signals[below(sizeof(signals) / sizeof(signals[0]))];
		if (coin())
			ev->si_code = keep_str(sicodes[below(5)]);
		if (coin()) {
			ev->has_si_addr = true;
			ev->si_addr = rand_addr();
		}
		return;
	}
	if (kind == 1) {
		ev->type = EV_EXITED;
		ev->exit_status = (int)below(256);
		return;
	}
	if (kind == 2) {
		ev->type = EV_KILLED;
		ev->signo = signals[below(sizeof(signals) / sizeof(signals[0]))];
		return;
	}
	if (kind <= 5) {
		struct expect *x = &ev->exp;
		ev->type = EV_EXPECT;
		x->kind = (enum expect_kind)below(5);
		switch (x->kind) {
		case EXP_FIELD:
			x->field = keep_str(fields[below(sizeof(fields) / sizeof(fields[0]))]);
			x->value_in_kb = coin();
			x->value = below(1 << 30);
			if (x->value_in_kb && coin())
				x->value = UINT64_MAX - below(64); /* a wrapped locked_vm */
			break;
		case EXP_VMAS:
			x->addr = rand_addr();
			x->end = rand_addr();
			x->value = below(70000);
			break;
		case EXP_VMA:
		case EXP_PAGE:
			x->addr = rand_addr();
			if (below(5) == 0) {
				x->none = true;
				break;
			}
			x->nkv = (unsigned)below(EXPECT_MAX_KV + 1);
			for (unsigned i = 0; i < x->nkv; i++)
				rand_kv(&x->kv[i]);
			break;
		case EXP_RUSAGE: /* counts only */
			x->nkv = (unsigned)below(3);
			for (unsigned i = 0; i < x->nkv; i++) {
				char tmp[32];
				struct expect_kv *kv = &x->kv[i];
				kv->key = keep_str(i ? "majflt" : "minflt");
				kv->is_num = true;
				kv->num = below(1u << 31);
				snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)kv->num);
				kv->text = keep_str(tmp);
			}
			break;
		}
		return;
	}
	ev->type = EV_CALL;
	ev->sys = (enum sysno)below(SYS_NR);
	uint64_t *a = ev->args;
	bool addr_result = false;
	switch (ev->sys) {
	case SYS_UNKNOWN:
		ev->name = keep_str(unknown_names[below(sizeof(unknown_names) / sizeof(unknown_names[0]))]);
		ev->args_text = keep_str(unknown_args[below(sizeof(unknown_args) / sizeof(unknown_args[0]))]);
		break;
	case SYS_MMAP:
		ev->nargs = 6;
		a[0] = rand_addr(); a[1] = rand_len(); a[2] = rand_flags(FK_PROT);
		a[3] = rand_flags(FK_MMAP); a[4] = rand_fd(); a[5] = below(1000) * 4096;
		addr_result = true;
		break;
	case SYS_MUNMAP: case SYS_MLOCK: case SYS_MUNLOCK:
		ev->nargs = 2; a[0] = rand_addr(); a[1] = rand_len();
		break;
	case SYS_MPROTECT:
		ev->nargs = 3; a[0] = rand_addr(); a[1] = rand_len(); a[2] = rand_flags(FK_PROT);
		break;
	case SYS_MREMAP:
		ev->nargs = coin() ? 5 : 4;
		a[0] = rand_addr(); a[1] = rand_len(); a[2] = rand_len(); a[3] = rand_flags(FK_MREMAP);
		if (ev->nargs == 5)
			a[4] = rand_addr();
		addr_result = true;
		break;
	case SYS_MADVISE:
		ev->nargs = 3; a[0] = rand_addr(); a[1] = rand_len(); a[2] = rand_flags(FK_MADVISE);
		break;
	case SYS_MSYNC:
		ev->nargs = 3; a[0] = rand_addr(); a[1] = rand_len(); a[2] = rand_flags(FK_MSYNC);
		break;
	case SYS_BRK:
		ev->nargs = 1; a[0] = rand_addr();
		addr_result = true;
		break;
	case SYS_MLOCK2:
		ev->nargs = 3; a[0] = rand_addr(); a[1] = rand_len(); a[2] = rand_flags(FK_MLOCK2);
		break;
	case SYS_MLOCKALL:
		ev->nargs = 1; a[0] = rand_flags(FK_MLOCKALL);
		break;
	case SYS_MUNLOCKALL: case SYS_FORK: case SYS_VFORK: case SYS_NUMA_SCAN: case SYS_MEMCG_FORCE_EMPTY:
		break;
	case SYS_NUMA_NODE:
		ev->nargs = 1; a[0] = below(64);
		break;
	case SYS_NUMA_RUN:
		ev->nargs = 1; a[0] = below(3600001);
		break;
	case SYS_MEMCG_LIMIT: case SYS_MEMCG_MAX: case SYS_MEMCG_HIGH:
		ev->nargs = 1; a[0] = coin() ? (uint64_t)-1 : rand_len();
		break;
	case SYS_CLONE: case SYS_CLONE3:
		ev->nargs = 1;
		a[0] = rand_bits(0x3ffffff00ULL) | (coin() ? 17 : below(64));
		break;
	case SYS_EXECVE: case SYS_UNLINK:
		ev->str = rand_bytes(40);
		break;
	case SYS_EXIT: case SYS_EXIT_GROUP: case SYS_CLOSE:
		ev->nargs = 1; a[0] = below(300);
		break;
	case SYS_OPENAT: case SYS_OPEN:
		ev->nargs = coin() ? 4 : 3;
		a[0] = ev->sys == SYS_OPEN || coin() ? (uint64_t)-100 : below(50);
		a[2] = rand_bits(037777777);
		if (ev->nargs == 4)
			a[3] = below(01000);
		ev->str = rand_bytes(40);
		break;
	case SYS_FTRUNCATE:
		ev->nargs = 2; a[0] = below(100); a[1] = rand_len();
		break;
	case SYS_FALLOCATE:
		ev->nargs = 4; a[0] = below(100); a[1] = rand_bits(0x1ff); a[2] = rand_len(); a[3] = rand_len();
		break;
	case SYS_READ: case SYS_WRITE:
		ev->nargs = 3; a[0] = below(100); a[2] = rand_len();
		break;
	case SYS_PREAD64: case SYS_PWRITE64:
		ev->nargs = 4; a[0] = below(100); a[2] = rand_len(); a[3] = rand_len();
		break;
	case SYS_SETRLIMIT:
		ev->nargs = 1; a[0] = below(17);
		ev->has_rlim = true;
		ev->rlim_cur = rand_rlim();
		ev->rlim_max = rand_rlim();
		break;
	case SYS_PRLIMIT64:
		ev->nargs = 2; a[0] = below(100); a[1] = below(17);
		ev->has_rlim = coin();
		if (ev->has_rlim) {
			ev->rlim_cur = rand_rlim();
			ev->rlim_max = rand_rlim();
		}
		break;
	case SYS_CAPSET:
		ev->cap_effective = rand_bits((UINT64_C(1) << 41) - 1);
		break;
	case SYS_FAULT:
		ev->nargs = 2; a[0] = rand_addr(); a[1] = 1 + below(7);
		break;
	case SYS_TOUCH:
		ev->nargs = 3; a[0] = rand_addr(); a[1] = rand_len(); a[2] = 1 + below(7);
		break;
	case SYS_RECLAIM: case SYS_DROP_CACHES:
		ev->nargs = 1; a[0] = below(1000);
		break;
	case SYS_FSTAT: case SYS_NEWFSTATAT: case SYS_STAT: case SYS_STATX:
		ev->nargs = 3;
		a[0] = ev->sys == SYS_STAT ? (uint64_t)-100 : ev->sys == SYS_FSTAT ? below(100)
		       : coin() ? (uint64_t)-100 : below(100);
		a[2] = coin();
		a[1] = a[2] ? rand_len() : 0;
		if (ev->sys != SYS_FSTAT)
			ev->str = rand_bytes(40);
		break;
	case SYS_DUP:
		ev->nargs = 1; a[0] = below(300);
		break;
	case SYS_DUP2: case SYS_DUP3:
		ev->nargs = 2; a[0] = below(300); a[1] = below(300);
		break;
	case SYS_FCNTL:
		ev->nargs = 3; a[0] = below(300);
		a[1] = below(3) == 0 ? FCNTL_OTHER : coin() ? 0 : 1030;
		a[2] = a[1] == FCNTL_OTHER ? 0 : below(300);
		break;
	case SYS_FDNEW:
		ev->name = keep_str(coin() ? "eventfd2" : "epoll_create1");
		ev->args_text = keep_str(coin() ? "0" : "EPOLL_CLOEXEC");
		break;
	case SYS_PIPE: case SYS_PIPE2: case SYS_SOCKETPAIR:
		ev->nargs = 2; a[0] = below(300); a[1] = below(300);
		break;
	case SYS_MEMFD_CREATE:
		ev->str = rand_bytes(20);
		break;
	case SYS_INHERIT:
		ev->str = keep_str("7f31a3456000-7f31a35ac000 r-xp 00026000 fe:00 332835 /usr/lib/libc.so.6");
		if (coin())
			ev->str2 = keep_str("rd ex mr mw me");
		if (ev->str2.p && coin())
			ev->str3 = keep_str("0-2,30");
		break;
	case SYS_INHERIT_FILE:
		ev->nargs = 1; a[0] = rand_len();
		ev->str = rand_bytes(30);
		if (coin())
			ev->str2 = keep_str("0-8,12");
		break;
	case SYS_FSYNC:
		ev->nargs = 1; a[0] = below(300);
		break;
	case SYS_WAIT4:
		ev->nargs = 1; a[0] = coin() ? (uint64_t)-1 : below(300);
		break;
	case SYS_FADVISE64:
		ev->nargs = 4; a[0] = below(300); a[1] = rand_len(); a[2] = rand_len(); a[3] = below(6);
		break;
	case SYS_EVICT:
		ev->nargs = 2; a[0] = below(100000); a[1] = 1 + below(512);
		ev->str = rand_bytes(30);
		break;
	case SYS_SHMGET:
		ev->nargs = 3; a[0] = coin() ? 0 : below(0x100000000ULL); a[1] = rand_len();
		a[2] = rand_bits(017777);
		break;
	case SYS_SHMAT:
		ev->nargs = 3; a[0] = below(1000); a[1] = coin() ? 0 : rand_addr();
		a[2] = rand_bits(0170000);
		break;
	case SYS_SHMDT:
		ev->nargs = 1; a[0] = rand_addr();
		break;
	case SYS_SHMCTL: {
		static const uint64_t cmds[] = { 0, 1, 2, 3, 11, 12, 13, 14, 15 };
		ev->nargs = 3; a[0] = below(1000); a[1] = cmds[below(9)];
		a[2] = coin() ? 0 : rand_addr(); /* the buffer: NULL or an address */
		break;
	}
	case SYS_MEMFD_SECRET:
		ev->nargs = 1; a[0] = coin() ? 0 : 02000000;
		break;
	case SYS_MOUNT: {
		static const char *const types[] = { "ramfs", "tmpfs", "ext4", "" };
		ev->nargs = 1;
		ev->str = rand_bytes(40);
		ev->str2 = coin() ? keep_str(types[below(4)]) : (struct strslice){ NULL, 0 };
		ev->str3 = coin() ? rand_bytes(20) : (struct strslice){ NULL, 0 };
		a[0] = rand_bits(0x3ffffff) | (coin() ? 0xc0ed0000u : 0);
		break;
	}
	case SYS_UMOUNT2:
		ev->nargs = 1; ev->str = rand_bytes(40); a[0] = rand_bits(0x1f);
		break;
	case SYS_UNSHARE:
		ev->nargs = 1; a[0] = rand_bits(0x7ffffff00ULL);
		break;
	case SYS_CHDIR:
		ev->str = rand_bytes(40);
		break;
	case SYS_FCHDIR:
		ev->nargs = 1; a[0] = below(300);
		break;
	case SYS_IO_URING_SETUP:
		ev->nargs = 3; a[0] = below(70000); a[1] = rand_bits(0x7ffff); a[2] = below(70000);
		break;
	case SYS_IO_URING_REGISTER: {
		/* an iovec array (what the model reads) or another argument */
		static const char *const other[] = { "NULL", "0x7ffc12345678", "[3, 4]",
						     "{nr=2, flags=0, data=0x1000, tags=NULL}" };
		ev->nargs = 4; a[0] = below(1000); a[1] = below(35) | (coin() ? 0 : 1u << 31);
		a[3] = below(20000);
		if (coin()) {
			char tmp[512];
			size_t n = 0, k = 1 + below(4);
			tmp[n++] = '[';
			for (size_t i = 0; i < k; i++) {
				uint64_t b = coin() ? 0 : rand_addr();
				char base[24] = "NULL";
				if (b)
					snprintf(base, sizeof(base), "0x%llx", (unsigned long long)b);
				n += (size_t)snprintf(tmp + n, sizeof(tmp) - n, "%s{iov_base=%s, iov_len=%llu}",
						      i ? ", " : "", base, (unsigned long long)below(1u << 31));
			}
			if (coin())
				n += (size_t)snprintf(tmp + n, sizeof(tmp) - n, ", ...");
			tmp[n++] = ']';
			ev->str = keep(tmp, n);
			a[2] = 1;
		} else {
			ev->str = keep_str(other[below(4)]);
		}
		break;
	}
	case SYS_IO_URING_ENTER:
		ev->nargs = 2; a[0] = below(1000); a[1] = coin();
		break;
	case SYS_SETUID: case SYS_SETREUID: case SYS_SETRESUID:
		ev->nargs = ev->sys == SYS_SETUID ? 1 : ev->sys == SYS_SETREUID ? 2 : 3;
		for (unsigned i = 0; i < ev->nargs; i++)
			a[i] = coin() ? 0xffffffffu : below(70000);
		break;
	case SYS_CREAT:
		ev->nargs = 4; a[0] = (uint64_t)-100; a[2] = CREAT_OFLAGS; a[3] = below(01000);
		ev->str = rand_bytes(40);
		break;
	case SYS_NR:
		break;
	}
	rand_result(ev, addr_result);
	if (ev->sys == SYS_FAULT && ev->res == RES_VALUE)
		ev->value = 1 + (int64_t)below(4);
}

/* ---- comparison ---------------------------------------------------------- */

static bool same_slice(struct strslice a, struct strslice b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0);
}

static const char *diff_event(const struct event *w, const struct event *g)
{
	if (w->type != g->type) return "type";
	if (w->pid != g->pid) return "pid";
	if (w->timestamp != g->timestamp) return "timestamp";
	switch (w->type) {
	case EV_SIGNAL:
		if (w->signo != g->signo) return "signo";
		if (w->has_si_addr != g->has_si_addr || w->si_addr != g->si_addr) return "si_addr";
		if (!same_slice(w->si_code, g->si_code)) return "si_code";
		return NULL;
	case EV_KILLED:
		return w->signo != g->signo ? "signo" : NULL;
	case EV_EXITED:
		return w->exit_status != g->exit_status ? "exit_status" : NULL;
	case EV_EXPECT: {
		const struct expect *a = &w->exp, *b = &g->exp;
		if (a->kind != b->kind) return "expect kind";
		if (!same_slice(a->field, b->field)) return "expect field";
		if (a->addr != b->addr || a->end != b->end) return "expect addr";
		if (a->none != b->none) return "expect none";
		if (a->value != b->value || a->value_in_kb != b->value_in_kb) return "expect value";
		if (a->nkv != b->nkv) return "expect nkv";
		for (unsigned i = 0; i < a->nkv; i++) {
			const struct expect_kv *x = &a->kv[i], *y = &b->kv[i];
			if (!same_slice(x->key, y->key)) return "kv key";
			if (!same_slice(x->text, y->text)) return "kv text";
			if (x->num != y->num || x->is_num != y->is_num || x->is_str != y->is_str)
				return "kv value";
		}
		return NULL;
	}
	case EV_CALL:
		break;
	}
	if (w->sys != g->sys) return "sys";
	if (w->nargs != g->nargs) return "nargs";
	for (int i = 0; i < 6; i++)
		if (w->args[i] != g->args[i]) return "args";
	if (!same_slice(w->str, g->str)) return "str";
	if (!same_slice(w->str2, g->str2)) return "str2";
	if (!same_slice(w->str3, g->str3)) return "str3";
	if (w->has_rlim != g->has_rlim) return "has_rlim";
	if (w->has_rlim && (w->rlim_cur != g->rlim_cur || w->rlim_max != g->rlim_max)) return "rlim";
	if (w->cap_effective != g->cap_effective) return "cap_effective";
	if (w->res != g->res) return "res";
	if (w->res == RES_VALUE && w->value != g->value) return "value";
	if (w->res == RES_ERROR && w->err != g->err) return "err";
	if (w->sys == SYS_UNKNOWN || w->sys == SYS_FDNEW) {
		if (!same_slice(w->name, g->name)) return "name";
		if (!same_slice(w->args_text, g->args_text)) return "args_text";
	}
	return NULL;
}

/* ---- the property ----------------------------------------------------- */

static char linebuf[1 << 16];

static const char *format(const struct event *ev)
{
	size_t n = trace_format_event(ev, g_arch, g_kernel, linebuf, sizeof(linebuf));
	CU_ASSERT_FATAL(n < sizeof(linebuf));
	return linebuf;
}

/* may ev be written as two halves? (a call with a pid, text with ", ") */
static bool splittable(const struct event *ev)
{
	return ev->type == EV_CALL && ev->pid != 0 && strstr(format(ev), ", ") != NULL;
}

static void roundtrip(const char *arch, const char *kernel, uint64_t seed)
{
	struct event *evs = calloc(NEV, sizeof(*evs));
	struct event **order = calloc(NEV, sizeof(*order));
	arena_cap = (size_t)NEV * EXPECT_MAX_KV * 40;
	arena = malloc(arena_cap);
	arena_len = 0;
	CU_ASSERT_FATAL(evs && order && arena);
	rng_state = seed;
	g_arch = arch;
	g_kernel = kernel;
	for (int i = 0; i < NEV; i++)
		rand_event(&evs[i]);

	struct trace_header h;
	memset(&h, 0, sizeof(h));
	h.has_arch = h.has_kernel = true;
	snprintf(h.arch, sizeof(h.arch), "%s", arch);
	snprintf(h.kernel, sizeof(h.kernel), "%s", kernel);
	/* some calls are written as two halves with the next event (of
	 * another pid) in between; the reader then returns that one first */
	FILE *f = tmpfile();
	CU_ASSERT_FATAL(f != NULL);
	trace_write_header(f, &h);
	rng_state = seed ^ 0x5555;
	int n = 0;
	unsigned nsplit = 0;
	for (int i = 0; i < NEV; i++) {
		if (i + 1 < NEV && below(4) == 0 && splittable(&evs[i]) &&
		    evs[i + 1].pid != evs[i].pid) {
			const char *s = format(&evs[i]);
			const char *open = strchr(s, '(');
			const char *name = open;
			while (name > s && name[-1] != ' ')
				name--;
			const char *cut = strstr(open, ", ");
			cut += 2 * coin();
			fprintf(f, "%.*s <unfinished ...>\n", (int)(cut - s), s);
			char rest[sizeof(linebuf)];
			int rl = snprintf(rest, sizeof(rest), "%.*s<... %.*s resumed>%s",
					  (int)(name - s), s, (int)(open - name), name, cut);
			CU_ASSERT_FATAL(rl > 0 && (size_t)rl < sizeof(rest));
			fprintf(f, "%s\n", format(&evs[i + 1]));
			fprintf(f, "%s\n", rest);
			order[n++] = &evs[i + 1];
			order[n++] = &evs[i];
			i++;
			nsplit++;
			continue;
		}
		fprintf(f, "%s\n", format(&evs[i]));
		order[n++] = &evs[i];
	}
	rewind(f);

	char err[256];
	struct trace_reader *r = trace_open_stream(f, "roundtrip", NULL, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(r != NULL);
	struct event got;
	int bad = 0;
	for (int i = 0; i < n; i++) {
		int rc = trace_read(r, &got);
		if (rc != 1) {
			fprintf(stderr, "event %d: rc %d: %s\n  wrote: %s\n", i, rc,
				trace_error(r), format(order[i]));
			bad++;
			break;
		}
		const char *d = diff_event(order[i], &got);
		if (d) {
			char again[4096];
			trace_format_event(&got, arch, kernel, again, sizeof(again));
			fprintf(stderr, "event %d differs in %s:\n  wrote: %s\n  read:  %s\n", i, d,
				format(order[i]), again);
			if (++bad > 5)
				break;
		}
	}
	if (!bad)
		CU_ASSERT_EQUAL(trace_read(r, &got), 0);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(nsplit > 100);
	const struct trace_header *rh = trace_header(r);
	CU_ASSERT_STRING_EQUAL(rh->arch, arch);
	trace_close(r);
	fclose(f);
	free(evs);
	free(order);
	free(arena);
	arena = NULL;
}

static void test_x86_64(void) { roundtrip("x86_64", "6.18", 1); }
static void test_mips(void) { roundtrip("mips", "6.18", 2); }
static void test_x86_64_old(void) { roundtrip("x86_64", "4.4", 3); }

static uint64_t rand_size(void)
{
	switch (below(4)) {
	case 0: return below(1000);
	case 1: return below(1000) << 10;
	case 2: return below(1000) << 20;
	default: return below(100) << 30;
	}
}

static void test_headers(void)
{
	rng_state = 99;
	for (int i = 0; i < 500; i++) {
		struct trace_header h;
		memset(&h, 0, sizeof(h));
		h.has_version = true;
		h.version = 1;
		if ((h.has_arch = coin()))
			strcpy(h.arch, coin() ? "x86_64" : "arm64");
		if ((h.has_kernel = coin()))
			strcpy(h.kernel, coin() ? "6.18" : "lof-v1");
		if ((h.has_page_size = coin()))
			h.page_size = 4096; /* the only page size modelled */
		if ((h.has_ram = coin()))
			h.ram = (16ULL << 20) + rand_size();
		if ((h.has_swap = coin()))
			h.swap = rand_size() % (64ULL << 30);
		if ((h.has_rlimit_memlock = coin()))
			h.rlimit_memlock = coin() ? RLIM_INFINITY_VALUE : rand_size();
		if ((h.has_cap_ipc_lock = coin()))
			h.cap_ipc_lock = coin();
		if ((h.has_cap_sys_resource = coin()))
			h.cap_sys_resource = coin();
		if ((h.has_cap_bounding = coin()))
			h.cap_bounding = rnd() >> below(64);
		if ((h.has_max_map_count = coin()))
			h.max_map_count = below(1000000);
		if ((h.has_zero_page = coin()))
			h.zero_page = coin();
		if ((h.has_read_ahead_kb = coin()))
			h.read_ahead_kb = below(1u << 20);
		if ((h.has_seed = coin()))
			h.seed = rnd();
		FILE *f = tmpfile();
		CU_ASSERT_FATAL(f != NULL);
		trace_write_header(f, &h);
		rewind(f);
		char err[256];
		struct event ev;
		struct trace_reader *r = trace_open_stream(f, "hdr", NULL, NULL, err, sizeof(err));
		CU_ASSERT_FATAL(r != NULL);
		int rc = trace_read(r, &ev);
		if (rc != 0)
			fprintf(stderr, "header %d: %s\n", i, trace_error(r));
		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT(memcmp(trace_header(r), &h, sizeof(h)) == 0);
		trace_close(r);
		fclose(f);
	}
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	CU_pSuite s = CU_add_suite("trace_roundtrip", NULL, NULL);
	if (!s || !CU_add_test(s, "x86_64/6.18 events", test_x86_64) ||
	    !CU_add_test(s, "mips/6.18 events", test_mips) ||
	    !CU_add_test(s, "x86_64/4.4 events", test_x86_64_old) ||
	    !CU_add_test(s, "headers", test_headers)) {
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
