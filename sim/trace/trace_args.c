/*
 * trace_args.c - a call's arguments and result (see trace_args.h).
 */
#include "alloc.h"
#include "trace_reader.h"
#include "trace_args.h"
#include "trace_expect.h"
#include "trace_lex.h"


#include "syscall_table.h"

/* An unknown syscall name is counted, once per name, for the summary. */
static int count_unknown(struct trace_reader *r, const char *name, size_t len)
{
	if (r->parent)
		r = r->parent; /* a merged log counts in one place */
	unsigned h = systab_name_hash(name, len); /* a guess, checked below */
	uint16_t *memo = &r->unk_memo[(h ^ h >> 8) & 255];
	if (*memo) {
		struct unk *u = &r->unk[*memo - 1];
		if (u->len == len && memcmp(u->name, name, len) == 0) {
			u->count++;
			return 0;
		}
	}
	for (size_t i = 0; i < r->nunk; i++)
		if (r->unk[i].len == len && memcmp(r->unk[i].name, name, len) == 0) {
			r->unk[i].count++;
			if (i < UINT16_MAX)
				*memo = (uint16_t)(i + 1);
			return 0;
		}
	if (r->nunk < UINT16_MAX)
		*memo = (uint16_t)(r->nunk + 1);
	if (r->nunk == r->capunk) {
		size_t nc = r->capunk ? r->capunk * 2 : 16;
		struct unk *u = vm_realloc(r->unk, nc * sizeof(*u));
		if (!u)
			return -1;
		r->unk = u;
		r->capunk = nc;
	}
	char *s = vm_malloc(len + 1);
	if (!s)
		return -1;
	memcpy(s, name, len);
	s[len] = '\0';
	r->unk[r->nunk++] = (struct unk){ s, len, 1 };
	return 0;
}

/* ---- flags ------------------------------------------------------------ */

/* what: an enum flag_kind (flag tables of the arch/kernel), or one of these */
enum {
	W_OFLAGS = 32, W_FALLOC, W_CLONE, W_ACCESS, W_CAP, W_RLIMIT, W_SIGNAL, W_FADV,
	W_IPCFLAGS, W_SHMAT, W_SHMCMD, W_IORING_SETUP, W_IORING_REG, W_MOUNT, W_UMOUNT,
};

#define CAP_ALL ((UINT64_C(1) << 41) - 1)

/* The names table of kind (the trace's flag-names), and in *kernel_t the
 * kernel's own table, for names the first lacks (NULL when the same). */
static const struct flag_table *flag_table(struct trace_reader *r, int kind,
					   const struct flag_table **kernel_t)
{
	if (!r->ft_done[kind]) {
		r->ft[kind] = systab_names_table(r->arch, r->names, (enum flag_kind)kind);
		r->ft_kernel[kind] = systab_flag_table(r->arch, r->kernel, (enum flag_kind)kind);
		if (r->ft_kernel[kind] == r->ft[kind])
			r->ft_kernel[kind] = NULL;
		r->ft_done[kind] = true;
	}
	*kernel_t = r->ft_kernel[kind];
	return r->ft[kind];
}

/* value of one name; for W_CAP the capability number */
static int flag_name(struct trace_reader *r, int what, char *p, size_t n,
		     uint64_t *v)
{
	switch (what) {
	case W_OFLAGS:
		if (systab_sym(SK_OFLAGS, p, n, v) == 0)
			return 0;
		break;
	case W_FALLOC:
		if (systab_sym(SK_FALLOC, p, n, v) == 0)
			return 0;
		break;
	case W_CLONE:
		if (systab_sym(SK_CLONE, p, n, v) == 0 ||
		    systab_sym(SK_SIGNAL, p, n, v) == 0)
			return 0;
		break;
	case W_FADV: case W_IPCFLAGS: case W_SHMAT: case W_SHMCMD: case W_SIGNAL: case W_ACCESS:
	case W_CAP: case W_RLIMIT: case W_IORING_SETUP: case W_IORING_REG: case W_MOUNT:
	case W_UMOUNT: {
		/* one table of names each; an unknown name is an error naming
		 * what was expected */
		static const struct { int what; enum symkind k; const char *noun, *hint; } named[] = {
			{ W_FADV, SK_FADV, "advice", "" },
			{ W_IPCFLAGS, SK_IPCFLAGS, "shmget flag", "" },
			{ W_SHMAT, SK_SHMAT, "shmat flag", "" },
			{ W_SHMCMD, SK_SHMCMD, "shmctl command", "" },
			{ W_IORING_SETUP, SK_IORING_SETUP, "io_uring_setup flag", "" },
			{ W_IORING_REG, SK_IORING_REG, "io_uring_register opcode", "" },
			{ W_MOUNT, SK_MOUNT, "mount flag", "" },
			{ W_UMOUNT, SK_UMOUNT, "umount2 flag", "" },
			{ W_SIGNAL, SK_SIGNAL, "signal", "" },
			{ W_ACCESS, SK_ACCESS, "access mode", "; expected READ, WRITE or EXEC" },
			{ W_CAP, SK_CAP, "capability", "" },
			{ W_RLIMIT, SK_RLIMIT, "resource", "" },
		};
		size_t i = 0;
		while (named[i].what != what)
			i++;
		if (systab_sym(named[i].k, p, n, v) == 0)
			return 0;
		/* strace writes a huge page size as N<<SHM_HUGE_SHIFT
		 * (include/uapi/linux/shm.h: HUGETLB_FLAG_ENCODE_SHIFT, 26) */
		if (what == W_IPCFLAGS && word_is(p, n, "SHM_HUGE_SHIFT")) {
			*v = 26;
			return 0;
		}
		return tr_fail(r, p, "unknown %s '%.*s'%s", named[i].noun, (int)n, p, named[i].hint);
	}
	default: {
		/* docs/trace-format.md, "Flag names and numbers": the name by the
		 * trace's table of names, else by the kernel's own */
		const struct flag_table *kt, *t = flag_table(r, what, &kt);
		if (!t && !kt)
			return tr_fail(r, p, "no %s flag table for %s/%s",
				    flagtab_kind_name((enum flag_kind)what), r->arch,
				    r->kernel);
		if ((t && flagtab_lookup(t, p, n, v) == 0) || (kt && flagtab_lookup(kt, p, n, v) == 0))
			return 0;
		if (what == FK_MMAP && word_is(p, n, "MAP_HUGE_SHIFT")) {
			*v = 26;
			return 0;
		}
		break;
	}
	}
	if (what < FK_NKINDS)
		return tr_fail(r, p, "unknown flag '%.*s' for %s: not a name of %s%s or of kernel %s",
			    (int)n, p, r->arch, r->names, strcmp(r->names, "strace") ? "" : "'s tables",
			    r->kernel);
	return tr_fail(r, p, "unknown flag '%.*s' for %s/%s", (int)n, p, r->arch,
		    r->kernel);
}

/* flag_name() through r->flag_memo: a name of at most 16 bytes read before
 * costs a hash of two words, not the tables' lookups (a plain strace log
 * names a flag on most lines).  Only names found are kept, so every
 * message still comes from flag_name(). */
static int flag_name_memo(struct trace_reader *r, int what, char *p, size_t n, uint64_t *v)
{
	if (n == 0 || n > 16)
		return flag_name(r, what, p, n, v);
	uint64_t w[2];
	systab_name_key(p, n, w);
	uint64_t h = (w[0] * UINT64_C(0x9e3779b97f4a7c15)) ^ (w[1] * UINT64_C(0xc2b2ae3d27d4eb4f)) ^
		     (uint64_t)what;
	struct flag_memo *m = &r->flag_memo[(h ^ h >> 29) >> 56];
	if (m->len == n && m->what == what && m->w[0] == w[0] && m->w[1] == w[1]) {
		*v = m->value;
		return 0;
	}
	if (flag_name(r, what, p, n, v) < 0)
		return -1;
	*m = (struct flag_memo){ { w[0], w[1] }, *v, (uint8_t)what, (uint8_t)n };
	return 0;
}

/* NAME|NAME|0x10, N<<NAME, 1<<CAP_X, (..), ~(..); trailing comment allowed. */
static int arg_flags(struct trace_reader *r, char *s, char *e, int what,
		     uint64_t *out)
{
	uint64_t v = 0;
	char *p = s;
	for (;;) {
		bool compl = false, paren = false, ovf;
		uint64_t piece;
		p = skip_ws(p);
		if (*p == '~') {
			compl = true;
			p = skip_ws(p + 1);
		}
		if (*p == '(') {
			paren = true;
			p = skip_ws(p + 1);
		}
		size_t n = id_len(p);
		if (is_digit(*p)) {
			char *q = tr_scan_u64(p, &piece, &ovf);
			if (!q || ovf)
				return tr_fail(r, p, "expected a number");
			p = q;
			if (p[0] == '<' && p[1] == '<') {
				uint64_t sh;
				p += 2;
				n = id_len(p);
				if (n) {
					if (flag_name_memo(r, what, p, n, &sh) < 0)
						return -1;
					p += n;
				} else {
					q = tr_scan_u64(p, &sh, &ovf);
					if (!q || ovf)
						return tr_fail(r, p, "expected a shift count");
					p = q;
				}
				if (sh >= 64)
					return tr_fail(r, p, "shift count too large");
				piece <<= sh;
			}
		} else if (n) {
			if (flag_name_memo(r, what, p, n, &piece) < 0)
				return -1;
			if (what == W_CAP) {
				if (piece >= 64)
					return tr_fail(r, p, "capability out of range");
				piece = UINT64_C(1) << piece;
			}
			p += n;
		} else {
			return tr_fail(r, p, "expected a flag name or number");
		}
		p = skip_ws(p);
		if (paren) {
			if (*p != ')')
				return tr_fail(r, p, "expected ')'");
			p = skip_ws(p + 1);
		}
		if (compl)
			piece = ~piece & (what == W_CAP ? CAP_ALL : UINT64_MAX);
		v |= piece;
		/* strace names a bit it has no name for: 0x8 followed by a
		 * MAP_??? comment, then |MAP_ANONYMOUS */
		if (p < e && p[0] == '/' && p[1] == '*' && (p = tr_comment_end(r, p)) == NULL)
			return -1;
		if (p < e && *p == '|') {
			p++;
			continue;
		}
		break;
	}
	*out = v;
	return tr_arg_end(r, p, e);
}

/* ---- structs ------------------------------------------------------------ */

/* {key=value, ...} at s; returns the position after '}' in *after. */
int tr_struct_fields(struct trace_reader *r, char *s, field_fn fn, void *ctx,
			 char **after)
{
	if (*s != '{')
		return tr_fail(r, s, "expected '{'");
	char *p = s + 1;
	for (;;) {
		p = skip_ws(p);
		if (*p == '}')
			break;
		char *key = p;
		size_t kl = id_len(p);
		char *q = tr_scan_item(r, p + kl);
		if (!q)
			return -1;
		char *ve = q;
		while (ve > p && is_ws(ve[-1]))
			ve--;
		if (kl && p[kl] == '=') {
			char *vs = skip_ws(p + kl + 1);
			if (vs == ve)
				return tr_fail(r, vs, "expected a value");
			if (fn(r, ctx, key, kl, vs, ve) < 0)
				return -1;
		}
		/* elements without "key=" ("...", flag words) carry nothing we use */
		if (*q == ',') {
			p = q + 1;
			continue;
		}
		if (*q == '}') {
			p = q;
			break;
		}
		return tr_fail(r, q, *q ? "expected '}'" : "expected '}' before the end of the line");
	}
	*after = p + 1;
	return 0;
}

static int rlim_value(struct trace_reader *r, char *s, char *e, uint64_t *v)
{
	char *p = s;
	uint64_t x = 1;
	for (;;) {
		size_t n = id_len(p);
		uint64_t t;
		bool ovf;
		if (n) {
			if (word_is(p, n, "RLIM64_INFINITY") || word_is(p, n, "RLIM_INFINITY")) {
				*v = RLIM_INFINITY_VALUE;
				return tr_arg_end(r, p + n, e);
			}
			return tr_fail(r, p, "expected a number or RLIM64_INFINITY");
		}
		char *q = tr_scan_u64(p, &t, &ovf);
		if (!q)
			return tr_fail(r, p, "expected a number or RLIM64_INFINITY");
		if (ovf || (t && x > UINT64_MAX / t))
			return tr_fail(r, p, "number too large");
		x *= t;
		p = skip_ws(q);
		if (p < e && *p == '*') {
			p = skip_ws(p + 1);
			continue;
		}
		break;
	}
	*v = x;
	return tr_arg_end(r, p, e);
}

struct rlim_ctx {
	struct event *ev;
	unsigned seen; /* 1 rlim_cur, 2 rlim_max */
};

static int rlim_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
		      char *vs, char *ve)
{
	struct rlim_ctx *c = ctx;
	if (word_is(key, kl, "rlim_cur")) {
		c->seen |= 1;
		return rlim_value(r, vs, ve, &c->ev->rlim_cur);
	}
	if (word_is(key, kl, "rlim_max")) {
		c->seen |= 2;
		return rlim_value(r, vs, ve, &c->ev->rlim_max);
	}
	return tr_fail(r, key, "unexpected '%.*s' in a struct rlimit", (int)kl, key);
}

static int arg_rlim(struct trace_reader *r, char *s, char *e, struct event *ev)
{
	size_t n = id_len(s);
	if (n && word_is(s, n, "NULL"))
		return tr_arg_end(r, s + n, e);
	if (is_digit(*s)) {
		uint64_t addr; /* an address strace could not read: no limit known */
		return tr_arg_num(r, s, e, &addr);
	}
	if (*s != '{')
		return tr_fail(r, s, "expected '{rlim_cur=..., rlim_max=...}' or NULL");
	char *after;
	struct rlim_ctx c = { ev, 0 };
	ev->has_rlim = true;
	if (tr_struct_fields(r, s, rlim_field, &c, &after) < 0)
		return -1;
	if (c.seen != 3)
		return tr_fail(r, s, "expected both rlim_cur and rlim_max in a struct rlimit");
	return tr_arg_end(r, after, e);
}

static int cap_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
		     char *vs, char *ve)
{
	struct event *ev = ctx;
	if (word_is(key, kl, "effective"))
		return arg_flags(r, vs, ve, W_CAP, &ev->cap_effective);
	if (word_is(key, kl, "permitted")) {
		ev->has_cap_permitted = true;
		return arg_flags(r, vs, ve, W_CAP, &ev->cap_permitted);
	}
	return 0;
}

struct clone3_ctx {
	uint64_t flags, sig;
};

static int clone3_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
			char *vs, char *ve)
{
	struct clone3_ctx *c = ctx;
	if (word_is(key, kl, "flags"))
		return arg_flags(r, vs, ve, W_CLONE, &c->flags);
	if (word_is(key, kl, "exit_signal"))
		return arg_flags(r, vs, ve, W_SIGNAL, &c->sig);
	return 0;
}

/* ---- per-syscall argument layout ----------------------------------------- */

enum akind {
	K_SKIP, K_NUM, K_STR, K_PROT, K_MMAP, K_MREMAP, K_MADV, K_MSYNC, K_MLOCK2,
	K_MCL, K_OFLAGS, K_FALLOC, K_RES, K_RLIM, K_CAPDATA, K_ACC,
	K_STAT,   /* a stat/statx struct: st_size or stx_size into args[1], args[2] = 1 */
	K_FDPAIR, /* "[3, 4]": args[0], args[1] */
	K_STR2,   /* a second string argument (ev->str2) */
	K_STR3,   /* a third (ev->str3) */
	K_FADV,   /* POSIX_FADV_* */
	K_IPCKEY, /* shmget's key: IPC_PRIVATE or a number */
	K_IPCFLAGS, K_SHMAT, K_SHMCMD,
	K_NSTR2, K_NSTR3, /* str2, str3 or NULL (mount's fstype and source) */
	K_MOUNTF, K_UMOUNTF, K_CLONEF, /* MS_*, MNT_*, CLONE_* flags */
	K_URING_PARAMS, /* io_uring_setup's params: flags into args[1], cq_entries into args[2] */
	K_URING_REG,    /* io_uring_register's opcode */
	K_URING_ARG,    /* its argument, as written, in ev->str; an iovec array sets args[2] */
	K_URING_ENTER,  /* io_uring_enter's flags: IORING_ENTER_REGISTERED_RING into args[1] */
	K_BUF,          /* a buffer's address: NULL 0, a number itself, a struct strace
			 * read ({...}) 1 - the model asks only whether it is NULL */
};

struct aspec {
	unsigned char kind;
	signed char slot;
};

static const struct layout {
	unsigned char min, max, nslots;
	struct aspec a[6];
} layouts[SYS_NR] = {
#define N(s) { K_NUM, s }
	[SYS_MMAP] = { 6, 6, 6, { N(0), N(1), { K_PROT, 2 }, { K_MMAP, 3 }, N(4), N(5) } },
	[SYS_MUNMAP] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_MPROTECT] = { 3, 3, 3, { N(0), N(1), { K_PROT, 2 } } },
	[SYS_MREMAP] = { 4, 5, 4, { N(0), N(1), N(2), { K_MREMAP, 3 }, N(4) } },
	[SYS_MADVISE] = { 3, 3, 3, { N(0), N(1), { K_MADV, 2 } } },
	[SYS_MSYNC] = { 3, 3, 3, { N(0), N(1), { K_MSYNC, 2 } } },
	[SYS_BRK] = { 1, 1, 1, { N(0) } },
	[SYS_MLOCK] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_MLOCK2] = { 3, 3, 3, { N(0), N(1), { K_MLOCK2, 2 } } },
	[SYS_MUNLOCK] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_MLOCKALL] = { 1, 1, 1, { { K_MCL, 0 } } },
	[SYS_MUNLOCKALL] = { 0, 0, 0, { { 0, 0 } } },
	[SYS_FORK] = { 0, 0, 0, { { 0, 0 } } },
	[SYS_VFORK] = { 0, 0, 0, { { 0, 0 } } },
	[SYS_EXECVE] = { 1, 8, 0, { { K_STR, -1 } } },
	[SYS_EXIT] = { 1, 1, 1, { N(0) } },
	[SYS_EXIT_GROUP] = { 1, 1, 1, { N(0) } },
	[SYS_OPENAT] = { 3, 4, 3, { N(0), { K_STR, -1 }, { K_OFLAGS, 2 }, N(3) } },
	[SYS_OPEN] = { 2, 3, 3, { { K_STR, -1 }, { K_OFLAGS, 2 }, N(3) } },
	[SYS_CREAT] = { 2, 2, 4, { { K_STR, -1 }, N(3) } },
	[SYS_SETUID] = { 1, 1, 1, { N(0) } },
	[SYS_MEMFD_SECRET] = { 1, 1, 1, { { K_OFLAGS, 0 } } },
	[SYS_SETREUID] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_SETRESUID] = { 3, 3, 3, { N(0), N(1), N(2) } },
	[SYS_CLOSE] = { 1, 1, 1, { N(0) } },
	[SYS_UNLINK] = { 1, 1, 0, { { K_STR, -1 } } },
	[SYS_FTRUNCATE] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_FALLOCATE] = { 4, 4, 4, { N(0), { K_FALLOC, 1 }, N(2), N(3) } },
	[SYS_READ] = { 3, 3, 3, { N(0), { K_SKIP, -1 }, N(2) } },
	[SYS_WRITE] = { 3, 3, 3, { N(0), { K_SKIP, -1 }, N(2) } },
	[SYS_PREAD64] = { 4, 4, 4, { N(0), { K_SKIP, -1 }, N(2), N(3) } },
	[SYS_PWRITE64] = { 4, 4, 4, { N(0), { K_SKIP, -1 }, N(2), N(3) } },
	[SYS_SETRLIMIT] = { 2, 2, 1, { { K_RES, 0 }, { K_RLIM, -1 } } },
	[SYS_PRLIMIT64] = { 4, 4, 2, { N(0), { K_RES, 1 }, { K_RLIM, -1 }, { K_SKIP, -1 } } },
	[SYS_CAPSET] = { 2, 2, 0, { { K_SKIP, -1 }, { K_CAPDATA, -1 } } },
	[SYS_FAULT] = { 2, 2, 2, { N(0), { K_ACC, 1 } } },
	[SYS_TOUCH] = { 3, 3, 3, { N(0), N(1), { K_ACC, 2 } } },
	[SYS_RECLAIM] = { 1, 1, 1, { N(0) } },
	[SYS_DROP_CACHES] = { 1, 1, 1, { N(0) } },
	[SYS_NUMA_SCAN] = { 0, 0, 0, { { 0, 0 } } },
	[SYS_MEMCG_FORCE_EMPTY] = { 0, 0, 0, { { 0, 0 } } },
	[SYS_NUMA_NODE] = { 1, 1, 1, { N(0) } },
	[SYS_NUMA_RUN] = { 1, 1, 1, { N(0) } },
	[SYS_MEMCG_LIMIT] = { 1, 1, 1, { N(0) } },
	[SYS_MEMCG_MAX] = { 1, 1, 1, { N(0) } },
	[SYS_MEMCG_HIGH] = { 1, 1, 1, { N(0) } },
	[SYS_FSTAT] = { 2, 2, 3, { N(0), { K_STAT, -1 } } },
	[SYS_NEWFSTATAT] = { 4, 4, 3, { N(0), { K_STR, -1 }, { K_STAT, -1 }, { K_SKIP, -1 } } },
	[SYS_STAT] = { 2, 2, 3, { { K_STR, -1 }, { K_STAT, -1 } } },
	[SYS_STATX] = { 5, 5, 3, { N(0), { K_STR, -1 }, { K_SKIP, -1 }, { K_SKIP, -1 },
				     { K_STAT, -1 } } },
	[SYS_DUP] = { 1, 1, 1, { N(0) } },
	[SYS_DUP2] = { 2, 2, 2, { N(0), N(1) } },
	[SYS_DUP3] = { 3, 3, 2, { N(0), N(1), { K_SKIP, -1 } } },
	[SYS_FDNEW] = { 0, 6, 0, { { K_SKIP, -1 }, { K_SKIP, -1 }, { K_SKIP, -1 },
				   { K_SKIP, -1 }, { K_SKIP, -1 }, { K_SKIP, -1 } } },
	[SYS_PIPE] = { 1, 1, 2, { { K_FDPAIR, -1 } } },
	[SYS_PIPE2] = { 2, 2, 2, { { K_FDPAIR, -1 }, { K_SKIP, -1 } } },
	[SYS_SOCKETPAIR] = { 4, 4, 2, { { K_SKIP, -1 }, { K_SKIP, -1 }, { K_SKIP, -1 },
					{ K_FDPAIR, -1 } } },
	[SYS_MEMFD_CREATE] = { 2, 2, 0, { { K_STR, -1 }, { K_SKIP, -1 } } },
	[SYS_INHERIT] = { 1, 3, 0, { { K_STR, -1 }, { K_STR2, -1 }, { K_STR3, -1 } } },
	[SYS_INHERIT_FILE] = { 2, 3, 1, { { K_STR, -1 }, N(0), { K_STR2, -1 } } },
	[SYS_EVICT] = { 3, 3, 2, { { K_STR, -1 }, N(0), N(1) } },
	[SYS_FSYNC] = { 1, 1, 1, { N(0) } },
	[SYS_FADVISE64] = { 4, 4, 4, { N(0), N(1), N(2), { K_FADV, 3 } } },
	/* the pid waited for (-1 any); status, options, rusage as strace prints them */
	[SYS_WAIT4] = { 2, 4, 1, { N(0), { K_SKIP, -1 }, { K_SKIP, -1 }, { K_SKIP, -1 } } },
	[SYS_SHMGET] = { 3, 3, 3, { { K_IPCKEY, 0 }, N(1), { K_IPCFLAGS, 2 } } },
	[SYS_SHMAT] = { 3, 3, 3, { N(0), N(1), { K_SHMAT, 2 } } },
	[SYS_SHMDT] = { 1, 1, 1, { N(0) } },
	/* the buffer (NULL, an address, or the struct of IPC_STAT) is not read */
	[SYS_SHMCTL] = { 3, 3, 3, { N(0), { K_SHMCMD, 1 }, { K_BUF, 2 } } },
	[SYS_IO_URING_SETUP] = { 2, 2, 3, { N(0), { K_URING_PARAMS, -1 } } },
	[SYS_IO_URING_REGISTER] = { 4, 4, 4, { N(0), { K_URING_REG, 1 }, { K_URING_ARG, -1 }, N(3) } },
	/* fd, to_submit, min_complete, flags, then (5.11+) argp and argsz */
	[SYS_IO_URING_ENTER] = { 4, 6, 2, { N(0), { K_SKIP, -1 }, { K_SKIP, -1 }, { K_URING_ENTER, -1 },
					     { K_SKIP, -1 }, { K_SKIP, -1 } } },
	/* source, target, fstype, flags, data (not read) */
	[SYS_MOUNT] = { 5, 5, 1, { { K_NSTR3, -1 }, { K_STR, -1 }, { K_NSTR2, -1 }, { K_MOUNTF, 0 },
				    { K_SKIP, -1 } } },
	[SYS_UMOUNT2] = { 1, 2, 1, { { K_STR, -1 }, { K_UMOUNTF, 0 } } },
	[SYS_UNSHARE] = { 1, 1, 1, { { K_CLONEF, 0 } } },
	[SYS_CHDIR] = { 1, 1, 0, { { K_STR, -1 } } },
	[SYS_FCHDIR] = { 1, 1, 1, { N(0) } },
#undef N
};

static int stat_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
		      char *vs, char *ve)
{
	struct event *ev = ctx;
	if (!word_is(key, kl, "st_size") && !word_is(key, kl, "stx_size"))
		return 0;
	ev->args[2] = 1;
	return tr_arg_num(r, vs, ve, &ev->args[1]);
}

/* A struct strace printed ("{key=value, ...}", each pair to fn), or an
 * address when the call failed or strace could not read it: nothing. */
static int arg_struct(struct trace_reader *r, char *s, char *e, field_fn fn, struct event *ev)
{
	if (*s != '{')
		return 0;
	char *after;
	if (tr_struct_fields(r, s, fn, ev, &after) < 0)
		return -1;
	return tr_arg_end(r, after, e);
}

/* "[3, 4]" (with -y: "[3<pipe:[77]>, 4<pipe:[77]>]"); an address when the
 * call failed */
static int arg_fdpair(struct trace_reader *r, char *s, char *e, struct event *ev)
{
	if (*s != '[')
		return 0;
	char *p = skip_ws(s + 1);
	for (unsigned i = 0; i < 2; i++) {
		char *q = tr_scan_item(r, p);
		if (!q)
			return -1;
		char *end = q;
		while (end > p && is_ws(end[-1]))
			end--;
		if (tr_arg_num(r, p, end, &ev->args[i]) < 0)
			return -1;
		if (*q != (i ? ']' : ','))
			return tr_fail(r, q, i ? "expected ']'" : "expected ','");
		p = skip_ws(q + 1);
	}
	return tr_arg_end(r, p, e);
}

/* io_uring_setup's params as strace prints them after the call: flags and
 * cq_entries are what the kernel was given (the rest it wrote) */
static int uring_params_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
			      char *vs, char *ve)
{
	struct event *ev = ctx;
	if (word_is(key, kl, "flags"))
		return arg_flags(r, vs, ve, W_IORING_SETUP, &ev->args[1]);
	if (word_is(key, kl, "cq_entries"))
		return tr_arg_num(r, vs, ve, &ev->args[2]);
	return 0;
}

/* One "{iov_base=B, iov_len=L}" at p: its end (after '}') or NULL. */
static const char *iovec_at(const char *p, const char *end, uint64_t *base, uint64_t *len)
{
	static const char k1[] = "{iov_base=", k2[] = "iov_len=";
	if ((size_t)(end - p) < sizeof(k1) - 1 || memcmp(p, k1, sizeof(k1) - 1))
		return NULL;
	bool ovf = false;
	char *q = (char *)p + sizeof(k1) - 1;
	if (end - q >= 4 && !memcmp(q, "NULL", 4)) {
		*base = 0;
		q += 4;
	} else {
		q = tr_scan_u64(q, base, &ovf);
	}
	if (!q || ovf || q >= end || *q != ',')
		return NULL;
	q++;
	while (q < end && *q == ' ')
		q++;
	if ((size_t)(end - q) < sizeof(k2) - 1 || memcmp(q, k2, sizeof(k2) - 1))
		return NULL;
	q = tr_scan_u64(q + sizeof(k2) - 1, len, &ovf);
	if (!q || ovf || q >= end || *q != '}')
		return NULL;
	return q + 1;
}

bool trace_iovec_next(const char **p, const char *end, uint64_t *base, uint64_t *len, bool *cut)
{
	const char *q = *p;
	while (q < end && (*q == '[' || *q == ',' || *q == ' '))
		q++;
	if (end - q >= 3 && !memcmp(q, "...", 3)) {
		*cut = true;
		return false;
	}
	const char *after = iovec_at(q, end, base, len);
	if (!after)
		return false;
	*p = after;
	return true;
}

/* io_uring_register's argument: kept as written (ev->str).  An iovec array
 * (IORING_REGISTER_BUFFERS) is checked and sets args[2]; any other shape
 * (an fd array, a struct, NULL, an address) belongs to an opcode the model
 * does not follow. */
static int arg_uring_arg(struct trace_reader *r, char *s, char *e, struct event *ev)
{
	ev->str = (struct strslice){ s, (size_t)(e - s) };
	if (e - s < 10 || memcmp(s, "[{iov_base", 10))
		return 0;
	const char *p = s + 1;
	for (;;) {
		uint64_t b, l;
		const char *after = iovec_at(p, e, &b, &l);
		if (!after)
			return tr_fail(r, (char *)p, "expected {iov_base=ADDR, iov_len=N}");
		p = after;
		if (p >= e)
			return tr_fail(r, (char *)p, "expected ']' to end the iovec array");
		if (*p == ']')
			break;
		if (*p != ',')
			return tr_fail(r, (char *)p, "expected ',' or ']' after an iovec");
		p++;
		while (*p == ' ')
			p++;
		if (e - p >= 4 && !memcmp(p, "...", 3)) {
			p += 3;
			if (*p != ']')
				return tr_fail(r, (char *)p, "expected ']' after '...'");
			break;
		}
	}
	ev->args[2] = 1;
	return tr_arg_end(r, (char *)p + 1, e);
}

/* io_uring_enter's flags: only whether fd is a registered ring's index */
static int arg_uring_enter(struct trace_reader *r, char *s, char *e, struct event *ev)
{
	(void)r;
	static const char reg[] = "IORING_ENTER_REGISTERED_RING";
	for (char *p = s; p + sizeof(reg) - 1 <= e; p++)
		if (!memcmp(p, reg, sizeof(reg) - 1)) {
			ev->args[1] = 1;
			return 0;
		}
	uint64_t v;
	bool ovf = false;
	char *q = tr_scan_u64(s, &v, &ovf);
	if (q && !ovf && (v & 0x10)) /* IORING_ENTER_REGISTERED_RING */
		ev->args[1] = 1;
	return 0;
}

static int decode_arg(struct trace_reader *r, struct event *ev, unsigned kind,
		      char *s, char *e, uint64_t *v)
{
	/* the kinds most arguments have, tested before the jump table: its
	 * indirect branch mispredicted on most arguments of a plain log.
	 * Their cases stay in the switch as well: without them gcc 12 made
	 * code that replayed a log of python3 runs 5% slower. */
	if (kind == K_SKIP)
		return 0;
	if (kind == K_NUM)
		return tr_arg_num(r, s, e, v);
	switch (kind) {
	case K_SKIP: return 0;
	case K_NUM: return tr_arg_num(r, s, e, v);
	case K_STR: return tr_arg_str(r, s, e, &ev->str);
	case K_PROT: return arg_flags(r, s, e, FK_PROT, v);
	case K_MMAP: return arg_flags(r, s, e, FK_MMAP, v);
	case K_MREMAP: return arg_flags(r, s, e, FK_MREMAP, v);
	case K_MADV: return arg_flags(r, s, e, FK_MADVISE, v);
	case K_MSYNC: return arg_flags(r, s, e, FK_MSYNC, v);
	case K_MLOCK2: return arg_flags(r, s, e, FK_MLOCK2, v);
	case K_MCL: return arg_flags(r, s, e, FK_MLOCKALL, v);
	case K_OFLAGS: return arg_flags(r, s, e, W_OFLAGS, v);
	case K_FALLOC: return arg_flags(r, s, e, W_FALLOC, v);
	case K_RES: return arg_flags(r, s, e, W_RLIMIT, v);
	case K_ACC: return arg_flags(r, s, e, W_ACCESS, v);
	case K_RLIM: return arg_rlim(r, s, e, ev);
	case K_STR2: return tr_arg_str(r, s, e, &ev->str2);
	case K_STR3: return tr_arg_str(r, s, e, &ev->str3);
	case K_NSTR2:
	case K_NSTR3: {
		struct strslice *out = kind == K_NSTR2 ? &ev->str2 : &ev->str3;
		if (*s != '"') { /* NULL, or an address strace could not read */
			uint64_t addr;
			*out = (struct strslice){ NULL, 0 };
			return tr_arg_num(r, s, e, &addr);
		}
		return tr_arg_str(r, s, e, out);
	}
	case K_BUF:
		if (*s == '{' || *s == '[') { /* a struct strace read or wrote */
			*v = 1;
			return 0;
		}
		return tr_arg_num(r, s, e, v);
	case K_MOUNTF: return arg_flags(r, s, e, W_MOUNT, v);
	case K_UMOUNTF: return arg_flags(r, s, e, W_UMOUNT, v);
	case K_CLONEF: return arg_flags(r, s, e, W_CLONE, v);
	case K_FADV: return arg_flags(r, s, e, W_FADV, v);
	case K_IPCKEY:
	case K_IPCFLAGS: return arg_flags(r, s, e, W_IPCFLAGS, v);
	case K_SHMAT: return arg_flags(r, s, e, W_SHMAT, v);
	case K_SHMCMD: return arg_flags(r, s, e, W_SHMCMD, v);
	case K_URING_PARAMS: return arg_struct(r, s, e, uring_params_field, ev);
	case K_URING_REG: return arg_flags(r, s, e, W_IORING_REG, v);
	case K_URING_ARG: return arg_uring_arg(r, s, e, ev);
	case K_URING_ENTER: return arg_uring_enter(r, s, e, ev);
	case K_STAT: return arg_struct(r, s, e, stat_field, ev);
	case K_FDPAIR: return arg_fdpair(r, s, e, ev);
	case K_CAPDATA: {
		size_t n = id_len(s);
		char *after;
		if (n && word_is(s, n, "NULL"))
			return tr_arg_end(r, s + n, e);
		if (tr_struct_fields(r, s, cap_field, ev, &after) < 0)
			return -1;
		return tr_arg_end(r, after, e);
	}
	}
	return 0;
}

/* named argument "name=value": the value's start, or NULL */
static char *named(char *s, char *e, const char *name)
{
	size_t n = id_len(s);
	if (n && s + n < e && s[n] == '=' && word_is(s, n, name))
		return s + n + 1;
	return NULL;
}

static int decode_clone(struct trace_reader *r, struct event *ev, struct argv *a)
{
	unsigned lim = a->n < MAXARGS ? a->n : MAXARGS;
	for (unsigned i = 0; i < lim; i++) {
		char *v = named(a->s[i], a->e[i], "flags");
		if (v)
			return arg_flags(r, v, a->e[i], W_CLONE, &ev->args[0]);
	}
	if (lim) {
		size_t n = id_len(a->s[0]);
		if (!(n && a->s[0][n] == '='))
			return arg_flags(r, a->s[0], a->e[0], W_CLONE, &ev->args[0]);
		return tr_fail(r, a->s[0], "expected 'flags=' in clone arguments");
	}
	return tr_fail(r, r->cbase, "expected 'flags=' in clone arguments");
}

static int decode_clone3(struct trace_reader *r, struct event *ev, struct argv *a)
{
	struct clone3_ctx c = { 0, 0 };
	char *after;
	if (a->n < 1)
		return tr_fail(r, r->cbase, "expected clone3 arguments");
	if (tr_struct_fields(r, a->s[0], clone3_field, &c, &after) < 0)
		return -1;
	/* "{...} => {parent_tid=[..]}": the part after => is output */
	after = skip_ws(after);
	if (!(after[0] == '=' && after[1] == '>') && after < a->e[0])
		return tr_arg_end(r, after, a->e[0]);
	ev->args[0] = c.flags | (c.sig & 0xff);
	return 0;
}

/* fcntl(fd, F_DUPFD, N) / F_DUPFD_CLOEXEC make a descriptor; any other
 * command (its argument has many shapes) is FCNTL_OTHER */
static int decode_fcntl(struct trace_reader *r, struct event *ev, struct argv *a)
{
	if (a->n < 2 || a->n > 3)
		return tr_fail(r, a->n ? a->s[0] : r->cbase, "expected 2 or 3 arguments for fcntl");
	ev->nargs = 3;
	if (tr_arg_num(r, a->s[0], a->e[0], &ev->args[0]) < 0)
		return -1;
	size_t n = id_len(a->s[1]);
	bool dupfd = n && word_is(a->s[1], n, "F_DUPFD");
	bool dupcl = n && word_is(a->s[1], n, "F_DUPFD_CLOEXEC");
	ev->args[1] = dupfd ? 0 : dupcl ? 1030 : FCNTL_OTHER;
	if ((dupfd || dupcl) && a->n == 3)
		return tr_arg_num(r, a->s[2], a->e[2], &ev->args[2]);
	return 0;
}

static int decode_args(struct trace_reader *r, struct event *ev, struct argv *a,
		       char *open, bool partial)
{
	enum sysno s = ev->sys;
	if (s == SYS_CLONE) {
		ev->nargs = 1;
		return decode_clone(r, ev, a);
	}
	if (s == SYS_CLONE3) {
		ev->nargs = 1;
		return decode_clone3(r, ev, a);
	}
	if (s == SYS_FCNTL)
		return decode_fcntl(r, ev, a);
	const struct layout *l = &layouts[s];
	const struct aspec *sp = l->a;
	unsigned n = a->n;
	unsigned char min = l->min, max = l->max;
	if (s == SYS_UNLINK && ev->name.len == 8) { /* unlinkat(dirfd, path, flags) */
		static const struct aspec at[3] = { { K_SKIP, -1 }, { K_STR, -1 }, { K_SKIP, -1 } };
		sp = at;
		min = max = 3;
	}
	if ((n < min && !partial) || n > max) {
		char *at = n > max ? a->s[max < MAXARGS ? max : MAXARGS - 1] : open;
		return tr_fail(r, at, "expected %u%s argument%s for %.*s", min,
			    min != max ? " or more" : "", min == 1 ? "" : "s",
			    (int)ev->name.len, ev->name.p);
	}
	ev->nargs = l->nslots;
	ev->args_missing = n < min;
	if (s == SYS_OPEN || s == SYS_STAT || s == SYS_CREAT)
		ev->args[0] = (uint64_t)-100;
	if (s == SYS_CREAT)
		ev->args[2] = CREAT_OFLAGS;
	for (unsigned i = 0; i < n && i < 6 && i < MAXARGS; i++) {
		uint64_t v = 0;
		if (decode_arg(r, ev, sp[i].kind, a->s[i], a->e[i], &v) < 0)
			return -1;
		if (sp[i].kind != K_SKIP && sp[i].slot >= 0) {
			ev->args[sp[i].slot] = v;
			if ((unsigned)sp[i].slot >= ev->nargs)
				ev->nargs = (unsigned)sp[i].slot + 1;
		}
	}
	if (s == SYS_SETUID || s == SYS_SETREUID || s == SYS_SETRESUID)
		for (unsigned i = 0; i < 3; i++)
			ev->args[i] &= 0xffffffffu; /* uid_t: -1 is 4294967295 */
	return 0;
}

/* ---- results ----------------------------------------------------------- */

/* After a result strace may print an annotation: "(Timeout)", "<0.000036>"
 * (-T), "</dev/shm/x>" (-y), "([{fd=3, revents=POLLIN}])", or an errno name
 * after "?" ("= ? ERESTARTSYS (...)").  Anything else is an error. */
static int result_end(struct trace_reader *r, char *p, bool after_unknown)
{
	if (*p && !is_ws(*p) && *p != '<')
		return tr_fail(r, p, "unexpected '%c' after the result", *p);
	p = skip_ws(p);
	if (!*p || *p == '(' || *p == '<')
		return 0;
	if (after_unknown) {
		size_t n = id_len(p);
		if (n && systab_errno(p, n))
			return 0;
	}
	return tr_fail(r, p, "unexpected '%c' after the result", *p);
}

static int parse_result(struct trace_reader *r, char *p, struct event *ev)
{
	p = skip_ws(p);
	if (*p != '=')
		return tr_fail(r, p, *p ? "expected '='" : "expected '= RESULT'");
	p = skip_ws(p + 1);
	if (*p == '?') {
		ev->res = RES_UNKNOWN;
		char *e = skip_ws(p + 1);
		size_t n = id_len(e);
		int err = n ? systab_errno(e, n) : 0;
		if (err >= 512 && err <= 516) { /* ERESTARTSYS .. ERESTART_RESTARTBLOCK */
			ev->res = RES_RESTART;
			ev->err = err;
		}
		return result_end(r, p + 1, true);
	}
	if (*p == '-' || is_digit(*p)) {
		bool neg = *p == '-', ovf;
		uint64_t v;
		char *q = tr_scan_u64(p + neg, &v, &ovf);
		if (!q)
			return tr_fail(r, p, "expected a number");
		if (ovf)
			return tr_fail(r, p, "number too large");
		if (neg && v == 1) {
			char *e = skip_ws(q);
			size_t n = id_len(e);
			if (n && e[0] == 'E') {
				int err = systab_errno(e, n);
				if (!err)
					return tr_fail(r, e, "unknown errno name '%.*s'", (int)n, e);
				ev->res = RES_ERROR;
				ev->err = err;
				return result_end(r, e + n, false);
			}
		}
		if (neg && v > (uint64_t)INT64_MAX + 1)
			return tr_fail(r, p, "number too large (below -2^63)");
		ev->res = RES_VALUE;
		ev->value = neg ? (int64_t)(0 - v) : (int64_t)v;
		return result_end(r, q, false);
	}
	size_t n = id_len(p);
	if (n && ev->sys == SYS_FAULT) {
		uint64_t v;
		if (systab_sym(SK_FAULTRES, p, n, &v) == 0) {
			ev->res = RES_VALUE;
			ev->value = (int64_t)v;
			return result_end(r, p + n, false);
		}
		return tr_fail(r, p, "expected MINOR, MAJOR, SIGSEGV, SIGBUS or '?'");
	}
	return tr_fail(r, p, "expected a result");
}


/* ---- events ------------------------------------------------------------- */

void tr_ev_clear(struct event *ev)
{
	/* in pieces of 64 bytes, which the compiler stores inline: one memset()
	 * of the whole became "rep stos", which starts slowly (4% of the
	 * replay of a plain strace log) */
	char *b = (char *)ev;
	size_t n = offsetof(struct event, exp), i = 0;
	for (; i + 64 <= n; i += 64)
		memset(b + i, 0, 64);
	memset(b + i, 0, n - i);
	ev->exp.nkv = 0;
	ev->signo = 0;
	ev->si_addr = 0;
	ev->has_si_addr = false;
	ev->si_code.p = NULL;
	ev->si_code.len = 0;
	ev->exit_status = 0;
}

/* NAME(ARGS) = RESULT at p.  Returns 1, or -1. */
int tr_parse_call(struct trace_reader *r, char *p, struct event *ev, bool partial)
{
	size_t n = 0;
	while (is_id(p[n]) || p[n] == '?')
		n++;
	if (n == 0)
		return tr_fail(r, p, *p ? "expected a syscall name" : "expected an event");
	char *open = p + n;
	if (*open != '(')
		return tr_fail(r, open, "expected '('");
	ev->type = EV_CALL;
	ev->name.p = p;
	ev->name.len = n;
	if (n == 6 && memcmp(p, "expect", 6) == 0)
		return tr_parse_expect(r, open, ev);
	ev->sys = systab_lookup(p, n);
	struct argv a;
	char *q = tr_split_args(r, open, &a);
	if (!q)
		return -1;
	ev->args_text.p = open + 1;
	ev->args_text.len = (size_t)(q - 1 - (open + 1));
	if (ev->sys != SYS_UNKNOWN) {
		if (decode_args(r, ev, &a, open, partial) < 0)
			return -1;
		/* a touch's range ends at 2^64 at most: one that wraps would
		 * be taken as two, one of them touching nothing */
		if (ev->sys == SYS_TOUCH && ev->nargs >= 2 && ev->args[0] && ev->args[1] > -ev->args[0])
			return tr_fail(r, a.n > 1 ? a.s[1] : open + 1, "a touch range that wraps past 2^64");
	} else if (count_unknown(r, p, n) < 0) {
		return tr_fail(r, p, "out of memory");
	}
	if (parse_result(r, q, ev) < 0)
		return -1;
	return 1;
}

