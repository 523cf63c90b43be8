/*
 * trace_write.c - canonical text of events and headers.
 *
 * The canonical form is what strace prints for the same call (flags
 * symbolic, addresses in hex, lengths in decimal, errors as
 * "-1 ENAME (strerror text)"), so a written trace reads back into the same
 * events and looks like a recorded one.  Formatting goes into a caller's
 * buffer with snprintf semantics: the return value is the length needed.
 */
#include "alloc.h"
#include "trace.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "flagtab.h"
#include "syscall_table.h"

struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len < o->cap) {
		size_t room = o->cap - o->len;
		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static void puts_(struct out *o, const char *s) { put(o, s, strlen(s)); }

__attribute__((format(printf, 2, 3)))
static void putf(struct out *o, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		put(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

static void put_addr(struct out *o, uint64_t v)
{
	if (v)
		putf(o, "0x%" PRIx64, v);
	else
		puts_(o, "NULL");
}

static void put_hex0(struct out *o, uint64_t v)
{
	if (v)
		putf(o, "0x%" PRIx64, v);
	else
		puts_(o, "0");
}

static void put_u(struct out *o, uint64_t v) { putf(o, "%" PRIu64, v); }
static void put_s(struct out *o, uint64_t v) { putf(o, "%" PRId64, (int64_t)v); }

static void put_str(struct out *o, struct strslice s)
{
	put(o, "\"", 1);
	for (size_t i = 0; i < s.len; i++) {
		unsigned char c = (unsigned char)s.p[i];
		switch (c) {
		case '"': puts_(o, "\\\""); break;
		case '\\': puts_(o, "\\\\"); break;
		case '\n': puts_(o, "\\n"); break;
		case '\t': puts_(o, "\\t"); break;
		case '\r': puts_(o, "\\r"); break;
		case '\v': puts_(o, "\\v"); break;
		case '\f': puts_(o, "\\f"); break;
		default:
			if (c >= 0x20 && c < 0x7f) {
				char ch = (char)c;
				put(o, &ch, 1);
			} else {
				putf(o, "\\%03o", c);
			}
		}
	}
	put(o, "\"", 1);
}

static void put_flags(struct out *o, const char *arch, const char *names,
		      enum flag_kind kind, uint64_t v)
{
	const struct flag_table *t = systab_names_table(arch, names, kind);
	if (!t) {
		put_hex0(o, v);
		return;
	}
	char tmp[512];
	size_t n = flagtab_decode(t, v, tmp, sizeof(tmp));
	if (n < sizeof(tmp)) {
		put(o, tmp, n);
		return;
	}
	char *big = vm_malloc(n + 1);
	if (!big) {
		put_hex0(o, v);
		return;
	}
	flagtab_decode(t, v, big, n + 1);
	put(o, big, n);
	free(big);
}

/* Bit flags of one of our own tables: "A|B|0xREST", "0" for nothing. */
static void put_bits(struct out *o, enum symkind k, uint64_t v)
{
	size_t n;
	const struct sym *t = systab_table(k, &n);
	uint64_t rest = v;
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		if (t[i].alias)
			continue;
		if (t[i].mask != t[i].value) { /* a field: access mode */
			if ((v & t[i].mask) != t[i].value)
				continue;
			rest &= ~t[i].mask;
		} else {
			if (!t[i].value || (rest & t[i].value) != t[i].value)
				continue;
			rest &= ~t[i].value;
		}
		if (any)
			put(o, "|", 1);
		puts_(o, t[i].name);
		any = true;
	}
	if (rest || !any) {
		if (any)
			put(o, "|", 1);
		put_hex0(o, rest);
	}
}

static void put_clone(struct out *o, uint64_t v)
{
	size_t n;
	const struct sym *t = systab_table(SK_CLONE, &n);
	uint64_t rest = v;
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		if ((rest & t[i].value) != t[i].value)
			continue;
		rest &= ~t[i].value;
		if (any)
			put(o, "|", 1);
		puts_(o, t[i].name);
		any = true;
	}
	const char *sig = systab_sym_name(SK_SIGNAL, rest & 0xff);
	if (sig) {
		if (any)
			put(o, "|", 1);
		puts_(o, sig);
		any = true;
		rest &= ~UINT64_C(0xff);
	}
	if (rest || !any) {
		if (any)
			put(o, "|", 1);
		put_hex0(o, rest);
	}
}

static void put_caps(struct out *o, uint64_t v)
{
	bool any = false;
	for (unsigned b = 0; b < 64; b++) {
		if (!(v & (UINT64_C(1) << b)))
			continue;
		if (any)
			put(o, "|", 1);
		const char *name = systab_sym_name(SK_CAP, b);
		if (name)
			putf(o, "1<<%s", name);
		else
			putf(o, "1<<%u", b);
		any = true;
	}
	if (!any)
		puts_(o, "0");
}

static void put_enum(struct out *o, enum symkind k, uint64_t v)
{
	const char *name = systab_sym_name(k, v);
	if (name)
		puts_(o, name);
	else
		put_u(o, v);
}

static void put_rlim(struct out *o, uint64_t v)
{
	if (v == RLIM_INFINITY_VALUE) {
		puts_(o, "RLIM64_INFINITY");
		return;
	}
	/* strace's style: one factor of 1024 when it divides */
	if (v && v % 1024 == 0)
		putf(o, "%" PRIu64 "*1024", v / 1024);
	else
		put_u(o, v);
}

static void put_rlimit_struct(struct out *o, const struct event *ev)
{
	if (!ev->has_rlim) {
		puts_(o, "NULL");
		return;
	}
	puts_(o, "{rlim_cur=");
	put_rlim(o, ev->rlim_cur);
	puts_(o, ", rlim_max=");
	put_rlim(o, ev->rlim_max);
	puts_(o, "}");
}

static void put_result(struct out *o, const struct event *ev)
{
	puts_(o, " = ");
	switch (ev->res) {
	case RES_NONE:
	case RES_UNKNOWN:
		puts_(o, "?");
		return;
	case RES_RESTART:
		putf(o, "? %s (%s)", systab_errno_name(ev->err), systab_strerror(ev->err));
		return;
	case RES_ERROR: {
		const char *name = systab_errno_name(ev->err);
		if (name)
			putf(o, "-1 %s (%s)", name, systab_strerror(ev->err));
		else
			putf(o, "-1 E%d (Unknown error %d)", ev->err, ev->err);
		return;
	}
	case RES_VALUE:
		break;
	}
	if (ev->sys == SYS_FAULT) {
		const char *name = systab_sym_name(SK_FAULTRES, (uint64_t)ev->value);
		if (name) {
			puts_(o, name);
			return;
		}
	}
	if (ev->sys == SYS_MMAP || ev->sys == SYS_MREMAP || ev->sys == SYS_BRK ||
	    ev->sys == SYS_SHMAT)
		putf(o, "%#" PRIx64, (uint64_t)ev->value);
	else
		putf(o, "%" PRId64, ev->value);
}

#define SEP puts_(o, ", ")

static void put_dirfd(struct out *o, uint64_t fd)
{
	if ((int64_t)fd == -100)
		puts_(o, "AT_FDCWD");
	else
		put_s(o, fd);
}

/* a stat buffer with only its size: "{st_size=N, ...}" (a[1], if a[2]) */
static void put_stat(struct out *o, const char *key, const uint64_t *a)
{
	puts_(o, "{");
	if (a[2]) {
		puts_(o, key);
		putf(o, "=%" PRIu64 ", ", a[1]);
	}
	puts_(o, "...}");
}

static void put_call(struct out *o, const struct event *ev, const char *arch,
		     const char *names)
{
	const uint64_t *a = ev->args;
	if (ev->sys == SYS_WAIT4 && !ev->name.p) { /* made, not read: the canonical form */
		puts_(o, "wait4(");
		put_s(o, a[0]);
		puts_(o, ", NULL, 0, NULL)");
		put_result(o, ev);
		return;
	}
	if (ev->sys == SYS_UNKNOWN || ev->sys == SYS_FDNEW || ev->sys == SYS_WAIT4) {
		put(o, ev->name.p, ev->name.len);
		put(o, "(", 1);
		put(o, ev->args_text.p, ev->args_text.len);
		put(o, ")", 1);
		put_result(o, ev);
		return;
	}
	puts_(o, trace_sys_name(ev->sys));
	put(o, "(", 1);
	switch (ev->sys) {
	case SYS_MMAP:
		put_addr(o, a[0]); SEP; put_u(o, a[1]); SEP;
		put_flags(o, arch, names, FK_PROT, a[2]); SEP;
		put_flags(o, arch, names, FK_MMAP, a[3]); SEP;
		put_s(o, a[4]); SEP; put_hex0(o, a[5]);
		break;
	case SYS_MUNMAP: case SYS_MLOCK: case SYS_MUNLOCK:
		put_hex0(o, a[0]); SEP; put_u(o, a[1]);
		break;
	case SYS_MPROTECT:
		put_hex0(o, a[0]); SEP; put_u(o, a[1]); SEP;
		put_flags(o, arch, names, FK_PROT, a[2]);
		break;
	case SYS_MREMAP:
		put_hex0(o, a[0]); SEP; put_u(o, a[1]); SEP; put_u(o, a[2]); SEP;
		put_flags(o, arch, names, FK_MREMAP, a[3]);
		if (ev->nargs >= 5) {
			SEP; put_hex0(o, a[4]);
		}
		break;
	case SYS_MADVISE:
		put_hex0(o, a[0]); SEP; put_u(o, a[1]); SEP;
		put_flags(o, arch, names, FK_MADVISE, a[2]);
		break;
	case SYS_MSYNC:
		put_hex0(o, a[0]); SEP; put_u(o, a[1]); SEP;
		put_flags(o, arch, names, FK_MSYNC, a[2]);
		break;
	case SYS_BRK:
		put_addr(o, a[0]);
		break;
	case SYS_MLOCK2:
		put_hex0(o, a[0]); SEP; put_u(o, a[1]); SEP;
		put_flags(o, arch, names, FK_MLOCK2, a[2]);
		break;
	case SYS_MLOCKALL:
		put_flags(o, arch, names, FK_MLOCKALL, a[0]);
		break;
	case SYS_MUNLOCKALL: case SYS_FORK: case SYS_VFORK: case SYS_NUMA_SCAN: case SYS_MEMCG_FORCE_EMPTY:
		break;
	case SYS_CLONE:
		puts_(o, "child_stack=NULL, flags=");
		put_clone(o, a[0]);
		break;
	case SYS_CLONE3: {
		uint64_t sig = a[0] & 0xff;
		puts_(o, "{flags=");
		put_clone(o, a[0] & ~UINT64_C(0xff));
		puts_(o, ", exit_signal=");
		const char *name = systab_sym_name(SK_SIGNAL, sig);
		if (name)
			puts_(o, name);
		else
			put_u(o, sig);
		puts_(o, "}, 88");
		break;
	}
	case SYS_EXECVE:
		put_str(o, ev->str); puts_(o, ", [], NULL");
		break;
	case SYS_EXIT: case SYS_EXIT_GROUP: case SYS_CLOSE:
		put_s(o, a[0]);
		break;
	case SYS_OPENAT: case SYS_OPEN:
		if (ev->sys == SYS_OPENAT) {
			put_dirfd(o, a[0]);
			SEP;
		}
		put_str(o, ev->str); SEP;
		put_bits(o, SK_OFLAGS, a[2]);
		if (ev->nargs >= 4) {
			SEP; putf(o, "0%" PRIo64, a[3]);
		}
		break;
	case SYS_SETUID: case SYS_SETREUID: case SYS_SETRESUID:
		for (unsigned i = 0; i < ev->nargs; i++) {
			if (i)
				SEP;
			/* uid_t: -1 leaves it */
			if ((uint32_t)a[i] == UINT32_MAX)
				puts_(o, "-1");
			else
				put_u(o, (uint32_t)a[i]);
		}
		break;
	case SYS_MEMFD_SECRET:
		if (a[0])
			put_bits(o, SK_OFLAGS, a[0]);
		else
			puts_(o, "0");
		break;
	case SYS_CREAT:
		put_str(o, ev->str); SEP; putf(o, "0%" PRIo64, a[3]);
		break;
	case SYS_MOUNT:
		if (ev->str3.p)
			put_str(o, ev->str3);
		else
			puts_(o, "NULL");
		SEP; put_str(o, ev->str); SEP;
		if (ev->str2.p)
			put_str(o, ev->str2);
		else
			puts_(o, "NULL");
		SEP;
		if (a[0])
			put_bits(o, SK_MOUNT, a[0]);
		else
			puts_(o, "0");
		puts_(o, ", NULL");
		break;
	case SYS_UMOUNT2:
		put_str(o, ev->str); SEP;
		if (a[0])
			put_bits(o, SK_UMOUNT, a[0]);
		else
			puts_(o, "0");
		break;
	case SYS_UNSHARE:
		put_bits(o, SK_CLONE, a[0]);
		break;
	case SYS_CHDIR:
		put_str(o, ev->str);
		break;
	case SYS_FCHDIR:
		put_s(o, a[0]);
		break;
	case SYS_UNLINK:
		put_str(o, ev->str);
		break;
	case SYS_FTRUNCATE:
		put_s(o, a[0]); SEP; put_u(o, a[1]);
		break;
	case SYS_FALLOCATE:
		put_s(o, a[0]); SEP; put_bits(o, SK_FALLOC, a[1]); SEP;
		put_u(o, a[2]); SEP; put_u(o, a[3]);
		break;
	case SYS_READ: case SYS_WRITE:
		put_s(o, a[0]); puts_(o, ", \"\", "); put_u(o, a[2]);
		break;
	case SYS_PREAD64: case SYS_PWRITE64:
		put_s(o, a[0]); puts_(o, ", \"\", "); put_u(o, a[2]); SEP; put_u(o, a[3]);
		break;
	case SYS_SETRLIMIT:
		put_enum(o, SK_RLIMIT, a[0]); SEP; put_rlimit_struct(o, ev);
		break;
	case SYS_PRLIMIT64:
		put_s(o, a[0]); SEP; put_enum(o, SK_RLIMIT, a[1]); SEP;
		put_rlimit_struct(o, ev); puts_(o, ", NULL");
		break;
	case SYS_CAPSET:
		puts_(o, "{version=_LINUX_CAPABILITY_VERSION_3, pid=0}, {effective=");
		put_caps(o, ev->cap_effective);
		puts_(o, ", permitted=");
		put_caps(o, ev->has_cap_permitted ? ev->cap_permitted : ev->cap_effective);
		puts_(o, ", inheritable=0}");
		break;
	case SYS_FAULT:
		put_hex0(o, a[0]); SEP; put_bits(o, SK_ACCESS, a[1]);
		break;
	case SYS_TOUCH:
		put_hex0(o, a[0]); SEP; put_u(o, a[1]); SEP; put_bits(o, SK_ACCESS, a[2]);
		break;
	case SYS_RECLAIM: case SYS_DROP_CACHES: case SYS_NUMA_NODE: case SYS_NUMA_RUN:
		put_u(o, a[0]);
		break;
	case SYS_MEMCG_LIMIT: case SYS_MEMCG_MAX: case SYS_MEMCG_HIGH:
		put_s(o, a[0]);
		break;
	case SYS_FSTAT:
		put_s(o, a[0]); SEP; put_stat(o, "st_size", a);
		break;
	case SYS_NEWFSTATAT:
		put_dirfd(o, a[0]); SEP; put_str(o, ev->str); SEP; put_stat(o, "st_size", a);
		puts_(o, ", 0");
		break;
	case SYS_STAT:
		put_str(o, ev->str); SEP; put_stat(o, "st_size", a);
		break;
	case SYS_STATX:
		put_dirfd(o, a[0]); SEP; put_str(o, ev->str); puts_(o, ", 0, STATX_SIZE, ");
		put_stat(o, "stx_size", a);
		break;
	case SYS_DUP:
		put_s(o, a[0]);
		break;
	case SYS_DUP2: case SYS_DUP3:
		put_s(o, a[0]); SEP; put_s(o, a[1]);
		if (ev->sys == SYS_DUP3)
			puts_(o, ", 0");
		break;
	case SYS_FCNTL:
		put_s(o, a[0]);
		if (a[1] == FCNTL_OTHER) {
			puts_(o, ", F_GETFD");
		} else {
			puts_(o, a[1] ? ", F_DUPFD_CLOEXEC, " : ", F_DUPFD, ");
			put_s(o, a[2]);
		}
		break;
	case SYS_PIPE: case SYS_PIPE2: case SYS_SOCKETPAIR:
		if (ev->sys == SYS_SOCKETPAIR)
			puts_(o, "AF_UNIX, SOCK_STREAM, 0, ");
		puts_(o, "["); put_s(o, a[0]); SEP; put_s(o, a[1]); puts_(o, "]");
		if (ev->sys == SYS_PIPE2)
			puts_(o, ", 0");
		break;
	case SYS_MEMFD_CREATE:
		put_str(o, ev->str); puts_(o, ", 0");
		break;
	case SYS_INHERIT:
		put_str(o, ev->str);
		if (ev->str2.p || ev->str3.p) {
			SEP; put_str(o, ev->str2);
		}
		if (ev->str3.p) {
			SEP; put_str(o, ev->str3);
		}
		break;
	case SYS_INHERIT_FILE:
		put_str(o, ev->str); SEP; put_u(o, a[0]);
		if (ev->str2.p) {
			SEP; put_str(o, ev->str2);
		}
		break;
	case SYS_FSYNC:
		put_s(o, a[0]);
		break;
	case SYS_FADVISE64:
		put_s(o, a[0]); SEP; put_u(o, a[1]); SEP; put_u(o, a[2]); SEP; put_enum(o, SK_FADV, a[3]);
		break;
	case SYS_EVICT:
		put_str(o, ev->str); SEP; put_u(o, a[0]); SEP; put_u(o, a[1]);
		break;
	case SYS_SHMGET:
		/* as strace: the key, the size, the flags then the mode in octal */
		if (a[0])
			putf(o, "0x%" PRIx64, a[0]);
		else
			puts_(o, "IPC_PRIVATE");
		SEP; put_u(o, a[1]); SEP;
		if (a[2] & ~(uint64_t)0777) {
			put_bits(o, SK_IPCFLAGS, a[2] & ~(uint64_t)0777);
			if (a[2] & 0777)
				putf(o, "|0%" PRIo64, a[2] & 0777);
		} else {
			putf(o, "0%" PRIo64, a[2] & 0777);
		}
		break;
	case SYS_SHMAT:
		put_s(o, a[0]); SEP; put_addr(o, a[1]); SEP;
		if (a[2])
			put_bits(o, SK_SHMAT, a[2]);
		else
			puts_(o, "0");
		break;
	case SYS_SHMDT:
		put_addr(o, a[0]);
		break;
	case SYS_SHMCTL:
		put_s(o, a[0]); SEP; put_enum(o, SK_SHMCMD, a[1]); SEP;
		if (a[2])
			put_addr(o, a[2]); /* 0x1: a struct strace read */
		else
			puts_(o, "NULL");
		break;
	case SYS_IO_URING_SETUP:
		/* the params the model reads: what the kernel was given */
		put_u(o, a[0]); puts_(o, ", {flags=");
		if (a[1])
			put_bits(o, SK_IORING_SETUP, a[1]);
		else
			puts_(o, "0");
		puts_(o, ", cq_entries="); put_u(o, a[2]); puts_(o, "}");
		break;
	case SYS_IO_URING_REGISTER:
		put_s(o, a[0]); SEP;
		put_enum(o, SK_IORING_REG, a[1] & 0x7fffffffu);
		if (a[1] & 0x80000000u)
			puts_(o, "|IORING_REGISTER_USE_REGISTERED_RING");
		SEP;
		if (ev->str.len)
			put(o, ev->str.p, ev->str.len);
		else
			puts_(o, "NULL");
		SEP; put_u(o, a[3]);
		break;
	case SYS_IO_URING_ENTER:
		put_s(o, a[0]); puts_(o, ", 0, 0, ");
		puts_(o, a[1] ? "IORING_ENTER_REGISTERED_RING" : "0");
		break;
	case SYS_UNKNOWN: case SYS_FDNEW: case SYS_WAIT4: case SYS_NR:
		break;
	}
	put(o, ")", 1);
	put_result(o, ev);
}

static void put_expect(struct out *o, const struct expect *x)
{
	puts_(o, "expect(");
	switch (x->kind) {
	case EXP_FIELD:
		put(o, x->field.p, x->field.len);
		puts_(o, ") = ");
		if (x->value_in_kb)
			putf(o, "%" PRIu64 " kB", x->value);
		else
			put_u(o, x->value);
		return;
	case EXP_VMAS:
		puts_(o, "vmas, ");
		put_hex0(o, x->addr); SEP; put_hex0(o, x->end);
		puts_(o, ") = ");
		put_u(o, x->value);
		return;
	case EXP_VMA:
	case EXP_PAGE:
		puts_(o, x->kind == EXP_VMA ? "vma, " : "page, ");
		put_hex0(o, x->addr);
		puts_(o, ") = ");
		break;
	case EXP_RUSAGE:
		puts_(o, "rusage) = ");
		break;
	}
	if (x->none) {
		puts_(o, "none");
		return;
	}
	put(o, "{", 1);
	for (unsigned i = 0; i < x->nkv && i < EXPECT_MAX_KV; i++) {
		const struct expect_kv *kv = &x->kv[i];
		if (i)
			SEP;
		put(o, kv->key.p, kv->key.len);
		put(o, "=", 1);
		if (kv->is_str)
			put_str(o, kv->text);
		else if (kv->text.len)
			put(o, kv->text.p, kv->text.len);
		else
			put_u(o, kv->num);
	}
	put(o, "}", 1);
}

static void put_signame(struct out *o, int signo)
{
	const char *name = systab_sym_name(SK_SIGNAL, (uint64_t)signo);
	if (name)
		puts_(o, name);
	else
		putf(o, "SIG%d", signo);
}

size_t trace_format_event(const struct event *ev, const char *arch,
			  const char *names, char *buf, size_t buflen)
{
	struct out o = { buf, buflen, 0 };
	if (!arch)
		arch = "x86_64";
	if (!names)
		names = "strace";
	if (ev->pid)
		putf(&o, "%d ", ev->pid);
	if (ev->timestamp >= 0)
		putf(&o, "%.6f ", ev->timestamp);
	switch (ev->type) {
	case EV_CALL:
		put_call(&o, ev, arch, names);
		break;
	case EV_EXPECT:
		put_expect(&o, &ev->exp);
		break;
	case EV_SIGNAL:
		puts_(&o, "--- ");
		put_signame(&o, ev->signo);
		puts_(&o, " {si_signo=");
		put_signame(&o, ev->signo);
		if (ev->si_code.len) {
			puts_(&o, ", si_code=");
			put(&o, ev->si_code.p, ev->si_code.len);
		}
		if (ev->has_si_addr) {
			puts_(&o, ", si_addr=");
			put_addr(&o, ev->si_addr);
		}
		puts_(&o, "} ---");
		break;
	case EV_EXITED:
		putf(&o, "+++ exited with %d +++", ev->exit_status);
		break;
	case EV_KILLED:
		puts_(&o, "+++ killed by ");
		put_signame(&o, ev->signo);
		puts_(&o, " +++");
		break;
	}
	if (buflen)
		buf[o.len < buflen ? o.len : buflen - 1] = '\0';
	return o.len;
}

int trace_write_event(FILE *f, const struct event *ev, const char *arch,
		      const char *names)
{
	char tmp[1024];
	size_t n = trace_format_event(ev, arch, names, tmp, sizeof(tmp));
	char *p = tmp;
	if (n >= sizeof(tmp)) {
		p = vm_malloc(n + 1);
		if (!p)
			return -1;
		trace_format_event(ev, arch, names, p, n + 1);
	}
	p[n] = '\n';
	size_t w = fwrite(p, 1, n + 1, f);
	if (p != tmp)
		free(p);
	return w == n + 1 ? 0 : -1;
}

static void write_size(FILE *f, const char *key, uint64_t v)
{
	static const char suffix[] = "KMGT";
	int k = -1;
	while (k < 3 && v && v % 1024 == 0) {
		v /= 1024;
		k++;
	}
	if (k >= 0)
		fprintf(f, "# %s: %" PRIu64 "%c\n", key, v, suffix[k]);
	else
		fprintf(f, "# %s: %" PRIu64 "\n", key, v);
}

void trace_write_header(FILE *f, const struct trace_header *h)
{
	fprintf(f, "# vmsim-trace: %u\n", h->has_version && h->version ? h->version : 1);
	if (h->has_arch)
		fprintf(f, "# arch: %s\n", h->arch);
	if (h->has_kernel)
		fprintf(f, "# kernel: %s\n", h->kernel);
	if (h->has_flag_names)
		fprintf(f, "# flag-names: %s\n", h->flag_names);
	if (h->has_page_size)
		fprintf(f, "# page-size: %" PRIu64 "\n", h->page_size);
	if (h->has_ram)
		write_size(f, "ram", h->ram);
	if (h->has_swap)
		write_size(f, "swap", h->swap);
	if (h->has_rlimit_memlock) {
		if (h->rlimit_memlock == RLIM_INFINITY_VALUE)
			fprintf(f, "# rlimit-memlock: unlimited\n");
		else
			write_size(f, "rlimit-memlock", h->rlimit_memlock);
	}
	if (h->has_cap_ipc_lock)
		fprintf(f, "# cap-ipc-lock: %s\n", h->cap_ipc_lock ? "yes" : "no");
	if (h->has_soft_dirty)
		fprintf(f, "# soft-dirty: %s\n", h->soft_dirty ? "yes" : "no");
	if (h->has_cap_sys_resource)
		fprintf(f, "# cap-sys-resource: %s\n", h->cap_sys_resource ? "yes" : "no");
	if (h->has_cap_bounding)
		fprintf(f, "# cap-bounding: %016llx\n", (unsigned long long)h->cap_bounding);
	if (h->has_uid)
		fprintf(f, "# uid: %" PRIu64 "\n", h->uid);
	if (h->has_faults)
		fprintf(f, "# faults: %s\n", h->faults ? "yes" : "no");
	if (h->has_max_map_count)
		fprintf(f, "# max-map-count: %" PRIu64 "\n", h->max_map_count);
	if (h->has_zero_page)
		fprintf(f, "# zero-page: %s\n", h->zero_page ? "yes" : "no");
	if (h->has_read_ahead_kb)
		fprintf(f, "# read-ahead-kb: %llu\n", (unsigned long long)h->read_ahead_kb);
	if (h->has_numa_nodes)
		fprintf(f, "# numa-nodes: %llu\n", (unsigned long long)h->numa_nodes);
	if (h->has_thp)
		fprintf(f, "# thp: %s\n", h->thp == 2 ? "always" : h->thp == 1 ? "madvise" : "never");
	if (h->has_hugetlb_pages)
		fprintf(f, "# hugetlb-pages: %" PRIu64 "\n", h->hugetlb_pages);
	if (h->has_ramfs)
		fprintf(f, "# ramfs: %s\n", h->ramfs);
	if (h->has_tmpfs)
		fprintf(f, "# tmpfs: %s\n", h->tmpfs);
	if (h->has_cwd)
		fprintf(f, "# cwd: %s\n", h->cwd);
	if (h->has_user_locked_vm)
		fprintf(f, "# user-locked-vm: %" PRIu64 "\n", h->user_locked_vm);
	if (h->has_seed)
		fprintf(f, "# seed: %" PRIu64 "\n", h->seed);
	if (h->has_check_invariants)
		fprintf(f, "# check-invariants: %s\n", h->check_invariants);
}
