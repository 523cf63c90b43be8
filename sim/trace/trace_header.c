/*
 * trace_header.c - the trace header (see trace_header.h).
 */
#include "trace_reader.h"
#include "trace_header.h"
#include "trace_lex.h"

#include <errno.h>
#include <stdlib.h>

#include "semantics.h"

/* ---- header ---------------------------------------------------------- */

static bool parse_size(const char *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	if (n == 0 || !is_digit(p[0]))
		return false;
	while (i < n && is_digit(p[i])) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(p[i++] - '0');
	}
	unsigned shift = 0;
	if (i < n) {
		switch (p[i]) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		case 't': case 'T': shift = 40; break;
		case 'b': case 'B': shift = 0; i--; break;
		default: return false;
		}
		i++;
		if (i < n && p[i] == 'i')
			i++;
		if (i < n && (p[i] == 'B' || p[i] == 'b'))
			i++;
		if (i != n)
			return false;
	}
	if (shift && v > (UINT64_MAX >> shift))
		return false;
	*out = v << shift;
	return true;
}

bool trace_parse_size(const char *s, uint64_t *out)
{
	return parse_size(s, strlen(s), out);
}

/* 1 to 16 hex digits, as /proc/PID/status prints a capability set */
static bool parse_capset(const char *p, size_t n, uint64_t *out)
{
	if (n == 0 || n > 16)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned d = tr_hex_value1[(unsigned char)p[i]]; /* the digit + 1, 0 for none */
		if (!d)
			return false;
		v = v << 4 | (d - 1);
	}
	*out = v;
	return true;
}

static bool parse_bool(const char *p, size_t n, bool *out)
{
	if (word_is(p, n, "yes") || word_is(p, n, "true") || word_is(p, n, "1"))
		*out = true;
	else if (word_is(p, n, "no") || word_is(p, n, "false") || word_is(p, n, "0"))
		*out = false;
	else
		return false;
	return true;
}

/* mountinfo's octal escapes in a path value (docs/trace-format.md): a
 * backslash and exactly three octal digits of a byte from \001 to \377;
 * NULL when they all are, else where the first bad one starts */
static const char *bad_escape(const char *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i] != '\\')
			continue;
		if (i + 3 >= n)
			return v + i;
		unsigned x = 0;
		for (size_t k = 1; k <= 3; k++) {
			if (v[i + k] < '0' || v[i + k] > '7')
				return v + i;
			x = x * 8 + (unsigned)(v[i + k] - '0');
		}
		if (x == 0 || x > 0377)
			return v + i;
		i += 3;
	}
	return NULL;
}

int tr_header_line(struct trace_reader *r, char *p)
{
	struct trace_header *h = &r->hdr;
	p = skip_ws(p + 1);
	char *key = p;
	while (is_id(*p) || *p == '-')
		p++;
	size_t klen = (size_t)(p - key);
	if (klen == 0 || *p != ':')
		return 0;
	char *v = skip_ws(p + 1);
	size_t n = 0;
	while (v[n] && !is_ws(v[n]))
		n++;
	tr_ctx_plain(r);
	/* a key this reader knows (one KEY() of the chain below matched) takes
	 * one word; "# cap-sys-resource: yes yes" is an error, not yes */
	bool known = false;
#define KEY(s) (word_is(key, klen, s) && (known = true))
#define BAD(what) return tr_fail(r, v, "expected %s for '%.*s'", what, (int)klen, key)
	if (KEY("vmsim-trace")) {
		uint64_t x;
		if (!parse_size(v, n, &x) || x != 1)
			BAD("format version 1");
		h->version = 1;
		h->has_version = true;
	} else if (KEY("arch") || KEY("kernel")) {
		char *dst = KEY("arch") ? h->arch : h->kernel;
		if (n == 0 || n >= sizeof(h->arch))
			BAD("a name");
		memcpy(dst, v, n);
		dst[n] = '\0';
		if (KEY("arch")) {
			if (!flagtab_arch_family(dst))
				return tr_fail(r, v, "unknown arch '%s'", dst);
			h->has_arch = true;
		} else {
			if (!semantics_find(dst))
				return tr_fail(r, v, "unknown kernel '%s' (a version such as 6.18.44, or "
					    "4.0 lof-v1 4.4 6.1 6.12 6.18, or a patch: vma-count-v3 "
					    "mremap-count 6.18-dontunmap-fix)", dst);
			h->has_kernel = true;
		}
	} else if (KEY("flag-names")) {
		/* docs/trace-format.md, "Flag names and numbers" */
		if (n == 0 || n >= sizeof(h->flag_names))
			BAD("a table of flag names");
		memcpy(h->flag_names, v, n);
		h->flag_names[n] = '\0';
		if (!systab_names_known(h->flag_names))
			return tr_fail(r, v, "unknown table of flag names '%s' (strace, or a kernel's "
				    "own: 4.0 lof-v1 4.4 6.1 6.12 6.18)", h->flag_names);
		h->has_flag_names = true;
	} else if (KEY("page-size")) {
		if (!parse_size(v, n, &h->page_size) || h->page_size == 0 ||
		    (h->page_size & (h->page_size - 1)))
			BAD("a power-of-two size");
		if (h->page_size != 4096)
			return tr_fail(r, v, "page size %.*s is not modelled (only 4096)", (int)n, v);
		h->has_page_size = true;
	} else if (KEY("ram")) {
		/* the model numbers page frames in 32 bits: at most 16 TiB */
		if (!parse_size(v, n, &h->ram) || h->ram < (16u << 20) || h->ram > (16ULL << 40))
			BAD("a size from 16M to 16T");
		h->has_ram = true;
	} else if (KEY("swap")) {
		/* a byte of use count per slot: the model takes up to 64 GiB */
		if (!parse_size(v, n, &h->swap) || h->swap > (64ULL << 30))
			BAD("a size up to 64G (0 = none)");
		h->has_swap = true;
	} else if (KEY("rlimit-memlock")) {
		if (word_is(v, n, "unlimited") || word_is(v, n, "infinity") ||
		    word_is(v, n, "RLIM64_INFINITY") || word_is(v, n, "RLIM_INFINITY"))
			h->rlimit_memlock = RLIM_INFINITY_VALUE;
		else if (!parse_size(v, n, &h->rlimit_memlock))
			BAD("a size or 'unlimited'");
		h->has_rlimit_memlock = true;
	} else if (KEY("cap-ipc-lock")) {
		if (!parse_bool(v, n, &h->cap_ipc_lock))
			BAD("yes or no");
		h->has_cap_ipc_lock = true;
	} else if (KEY("cap-sys-resource")) {
		if (!parse_bool(v, n, &h->cap_sys_resource))
			BAD("yes or no");
		h->has_cap_sys_resource = true;
	} else if (KEY("cap-bounding")) {
		if (!parse_capset(v, n, &h->cap_bounding))
			BAD("a capability set in hex (CapBnd of /proc/PID/status)");
		h->has_cap_bounding = true;
	} else if (KEY("faults")) {
		if (!parse_bool(v, n, &h->faults))
			BAD("yes or no");
		h->has_faults = true;
	} else if (KEY("end-mark")) {
		if (!parse_bool(v, n, &h->end_mark))
			BAD("yes or no");
		h->has_end_mark = true;
	} else if (KEY("uid")) {
		if (!parse_size(v, n, &h->uid) || h->uid >= UINT32_MAX)
			BAD("a uid below 4294967295");
		h->has_uid = true;
	} else if (KEY("max-map-count")) {
		if (!parse_size(v, n, &h->max_map_count))
			BAD("a number");
		h->has_max_map_count = true;
	} else if (KEY("read-ahead-kb")) {
		/* a count of kB: no size suffix */
		if (!n || !is_digit(v[n - 1]) || !parse_size(v, n, &h->read_ahead_kb) ||
		    h->read_ahead_kb > (1u << 20))
			BAD("a number of kB up to 1048576");
		h->has_read_ahead_kb = true;
	} else if (KEY("user-locked-vm")) {
		/* a count of pages: no size suffix */
		if (!n || !is_digit(v[n - 1]) || !parse_size(v, n, &h->user_locked_vm) ||
		    h->user_locked_vm > (1ULL << 40))
			BAD("a number of pages up to 2^40");
		h->has_user_locked_vm = true;
	} else if (KEY("thp")) {
		/* /sys/kernel/mm/transparent_hugepage/enabled */
		if (n == 5 && !memcmp(v, "never", 5))
			h->thp = 0;
		else if (n == 7 && !memcmp(v, "madvise", 7))
			h->thp = 1;
		else if (n == 6 && !memcmp(v, "always", 6))
			h->thp = 2;
		else
			BAD("always, madvise or never");
		h->has_thp = true;
	} else if (KEY("ramfs") || KEY("tmpfs")) {
		/* mount points, absolute, separated by commas */
		bool ram = KEY("ramfs");
		char *dst = ram ? h->ramfs : h->tmpfs;
		size_t cap = ram ? sizeof(h->ramfs) : sizeof(h->tmpfs);
		if (n >= cap)
			return tr_fail(r, v, "too long a list of mount points (at most %zu bytes)", cap - 1);
		for (size_t i = 0; i < n; i++)
			if ((i == 0 || v[i - 1] == ',') && v[i] != '/')
				return tr_fail(r, v + i, "a mount point is an absolute path");
		if (bad_escape(v, n))
			return tr_fail(r, bad_escape(v, n), "an octal escape is a backslash and three octal digits "
					   "of a byte from \\001 to \\377");
		memcpy(dst, v, n);
		dst[n] = '\0';
		*(ram ? &h->has_ramfs : &h->has_tmpfs) = true;
	} else if (KEY("cwd")) {
		/* the first process's working directory: absolute, with
		 * mountinfo's octal escapes for a space */
		if (!n || v[0] != '/')
			return tr_fail(r, v, "a working directory is an absolute path");
		if (bad_escape(v, n))
			return tr_fail(r, bad_escape(v, n), "an octal escape is a backslash and three octal digits "
					   "of a byte from \\001 to \\377");
		if (n >= sizeof(h->cwd))
			return tr_fail(r, v, "too long a working directory (at most %zu bytes)", sizeof(h->cwd) - 1);
		memcpy(h->cwd, v, n);
		h->cwd[n] = '\0';
		h->has_cwd = true;
	} else if (KEY("hugetlb-pages")) {
		/* the pool's 2 MiB pages (vm.nr_hugepages): a count */
		if (!n || !is_digit(v[n - 1]) || !parse_size(v, n, &h->hugetlb_pages) ||
		    h->hugetlb_pages > (1ULL << 24))
			BAD("a number of huge pages up to 2^24");
		h->has_hugetlb_pages = true;
	} else if (KEY("numa-nodes")) {
		if (!n || !is_digit(v[n - 1]) || !parse_size(v, n, &h->numa_nodes) || !h->numa_nodes ||
		    h->numa_nodes > 64)
			BAD("a number of nodes from 1 to 64");
		h->has_numa_nodes = true;
	} else if (KEY("soft-dirty")) {
		if (!parse_bool(v, n, &h->soft_dirty))
			BAD("yes or no");
		h->has_soft_dirty = true;
	} else if (KEY("zero-page")) {
		if (!parse_bool(v, n, &h->zero_page))
			BAD("yes or no");
		h->has_zero_page = true;
	} else if (KEY("check-invariants")) {
		if (n == 0 || n >= sizeof(h->check_invariants))
			BAD("invariant names");
		memcpy(h->check_invariants, v, n);
		h->check_invariants[n] = '\0';
		h->has_check_invariants = true;
		tr_where(r, v, &h->check_invariants_line, &h->check_invariants_col);
	} else if (KEY("recorded-by")) {
		/* a comment for the reader, but for what it says of the process's
		 * capabilities: "..., as root" ends the scenario recorders' line */
		size_t len = strlen(v);
		while (len && is_ws(v[len - 1]))
			len--;
		h->recorded_as_root = len >= 7 && !memcmp(v + len - 7, "as root", 7);
	} else if (KEY("seed")) {
		char *end;
		if (n == 0 || !is_digit(v[0]))
			BAD("a number");
		errno = 0;
		h->seed = strtoull(v, &end, 0);
		if (errno || end != v + n)
			BAD("a number");
		h->has_seed = true;
	}
	if (known && !KEY("recorded-by")) { /* recorded-by: free text */
		char *rest = skip_ws(v + n);
		if (*rest && *rest != '\n' && *rest != '\r')
			return tr_fail(r, rest, "'%.*s' takes one value: unexpected '%.*s' after it", (int)klen, key,
				       (int)strcspn(rest, "\r\n"), rest);
	}
#undef KEY
#undef BAD
	return 0;
}

void tr_finish_header(struct trace_reader *r)
{
	r->hdr_done = true;
	if (!r->arch_ovr)
		strcpy(r->arch, r->hdr.has_arch ? r->hdr.arch : "x86_64");
	if (!r->kernel_ovr)
		strcpy(r->kernel, r->hdr.has_kernel ? r->hdr.kernel : "6.18");
	strcpy(r->names, r->hdr.has_flag_names ? r->hdr.flag_names : "strace");
}

