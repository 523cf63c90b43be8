/* inherit.c - the address space before the trace.  See inherit.h. */
#include "inherit.h"
#include "semantics.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void inherit_init(struct inherit_state *st, const struct trace_header *h, const char *maps_path)
{
	memset(st, 0, sizeof(*st));
	st->maps_path = maps_path;
	/* a vmsim trace (recorded or written by hand) shows its whole address
	 * space; a plain strace log starts after execve has mapped the
	 * program, its interpreter, the stack and the vdso */
	st->assume = !h->has_version && !maps_path;
	st->plain = !h->has_version;
}

static const char *hexnum(const char *p, const char *e, uint64_t *v)
{
	uint64_t x = 0;
	const char *s = p;
	for (; p < e; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		if (x >> 60)
			return NULL;
		x = x << 4 | d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

static const char *skip_blanks(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *skip_field(const char *p, const char *e)
{
	while (p < e && *p != ' ' && *p != '\t')
		p++;
	return skip_blanks(p, e);
}

#define BAD(at, what)                                          \
	do {                                                   \
		*col = (long)((at) - line) + 1;                \
		snprintf(err, errlen, "expected %s", what);    \
		return -1;                                     \
	} while (0)

/* The first word of a VmFlags text that no modelled kernel prints (a
 * mnemonic of another kernel than the one replayed is no error: a trace
 * recorded on 6.18 replays under 4.4), or NULL; its length in *n. */
static const char *unknown_mnemonic(const char *p, size_t len, size_t *n)
{
	for (size_t i = 0; i < len;) {
		while (i < len && p[i] == ' ')
			i++;
		size_t j = i;
		while (j < len && p[j] != ' ')
			j++;
		bool known = j - i == 2 && !memcmp(p + i, "??", 2);
		for (size_t k = 0; !known && j > i && semantics_all[k]; k++)
			for (const struct vmflag_name *m = semantics_all[k]->vmflag_names; m && m->mnemonic && !known;
			     m++)
				known = strlen(m->mnemonic) == j - i && !memcmp(m->mnemonic, p + i, j - i);
		if (j > i && !known) {
			*n = j - i;
			return p + i;
		}
		i = j;
	}
	return NULL;
}

/* fs/proc/task_mmu.c:show_map_vma() read backwards:
 * "START-END PERMS OFFSET MAJ:MIN INODE [PATH]" */
int inherit_apply_line(struct vmsys *s, struct task *t, const char *line, size_t len,
		       const char *vmflags, size_t flen, int64_t *result, char *err, size_t errlen,
		       long *col)
{
	const char *p = line, *e = line + len;
	struct vm_inherit m;
	memset(&m, 0, sizeof(m));
	p = skip_blanks(p, e);
	const char *q = hexnum(p, e, &m.start);
	if (!q || q >= e || *q != '-')
		BAD(q ? q : p, "START-END (hex) as /proc/PID/maps prints it");
	p = q + 1;
	q = hexnum(p, e, &m.end);
	if (!q || q >= e || *q != ' ')
		BAD(q ? q : p, "END (hex) and a blank");
	if (m.start >= m.end || (m.start | m.end) & 0xfff)
		BAD(line, "a page-aligned START < END");
	p = skip_blanks(q, e);
	if (e - p < 4 || !strchr("r-", p[0]) || !strchr("w-", p[1]) || !strchr("x-", p[2]) ||
	    !strchr("ps", p[3]))
		BAD(p, "permissions such as r-xp");
	memcpy(m.perms, p, 4);
	p = skip_blanks(p + 4, e);
	uint64_t off;
	q = hexnum(p, e, &off);
	if (!q)
		BAD(p, "the file offset (hex)");
	if (off > UINT64_MAX - (m.end - m.start))
		BAD(p, "a file offset whose mapping ends before 2^64");
	m.pgoff = off >> 12;
	p = skip_field(q, e);      /* offset's end */
	p = skip_field(p, e);      /* MAJ:MIN */
	p = skip_field(p, e);      /* inode */
	const char *path = p;
	size_t pl = (size_t)(e - p);
	while (pl && (path[pl - 1] == ' ' || path[pl - 1] == '\t'))
		pl--;
#define IS(str) (pl == sizeof(str) - 1 && !memcmp(path, str, pl))
	if (IS("[vsyscall]")) {
		*result = 0; /* the gate area: not a VMA of the mm (arch/x86/entry/vsyscall) */
		return 0;
	}
	if (!pl || (path[0] == '[' && !IS("[heap]") && !IS("[stack]") && !IS("[vdso]") &&
		    strncmp(path, "[vvar", 5) && strncmp(path, "[uprobes]", 9)))
		m.kind = VMI_ANON; /* also "[anon:NAME]" (prctl PR_SET_VMA_ANON_NAME) */
	else if (IS("[heap]"))
		m.kind = VMI_HEAP;
	else if (IS("[stack]"))
		m.kind = VMI_STACK;
	else if (IS("[vdso]") || IS("[uprobes]"))
		m.kind = VMI_VDSO;
	else if (!strncmp(path, "[vvar", 5))
		m.kind = VMI_VVAR;
	else
		m.kind = VMI_FILE;
#undef IS
	m.path = path;
	m.pathlen = pl;
	if (flen) {
		size_t un;
		const char *u = unknown_mnemonic(vmflags, flen, &un);
		if (u) {
			*col = 0; /* in the VmFlags text, not in this line */
			snprintf(err, errlen, "'%.*s' in VmFlags is no mnemonic a kernel's smaps prints",
				 (int)(un > 16 ? 16 : un), u);
			return -1;
		}
		m.flags = vmsys_vmflags_parse(s, vmflags, flen);
		m.flags_given = true;
	}
	*result = vm_inherit_vma(s, t, &m);
	return 0;
}

/* "0-8,12" into [a, b) pairs; false on malformed text, and on a page
 * number no address could have (2^52 pages of 4 KiB cover 2^64 bytes:
 * "0-18446744073709551615" would wrap b + 1) */
#define PAGE_NUMBER_MAX ((UINT64_C(1) << 52) - 1)
static bool parse_ranges(const char *p, const char *e, uint64_t *out, size_t max, size_t *n,
			 const char **stop)
{
	*n = 0;
	while (p < e && *n + 2 <= max) {
		char *q;
		errno = 0;
		uint64_t a = strtoull(p, &q, 10), b = a;
		if (q == p || errno)
			return false;
		if (q < e && *q == '-') {
			p = q + 1;
			b = strtoull(p, &q, 10);
			if (q == p || errno || b < a)
				return false;
		}
		if (b > PAGE_NUMBER_MAX)
			return false;
		out[(*n)++] = a;
		out[(*n)++] = b + 1;
		p = q;
		if (p < e && *p == ',')
			p++;
		else if (p < e)
			return false;
	}
	*stop = p;
	return true;
}

int inherit_apply_present(struct vmsys *s, struct task *t, const char *line, size_t len,
			  const char *ranges, size_t rlen, char *err, size_t errlen)
{
	uint64_t start = 0, end = 0;
	const char *q = hexnum(line, line + len, &start);
	if (!q || q >= line + len || *q != '-' || !hexnum(q + 1, line + len, &end) || end <= start) {
		snprintf(err, errlen, "inherit: expected START-END");
		return -1;
	}
	/* the cost is bounded by what the line describes: the pages of its
	 * VMA, each needing a frame of the simulated RAM */
	uint64_t vma_pages = (end - start) >> 12;
	struct vm_meminfo mi;
	vmsys_meminfo(s, &mi);
	const char *p = ranges, *e = ranges + rlen;
	uint64_t total = 0;
	while (p < e) {
		uint64_t r[64];
		size_t n;
		if (!parse_ranges(p, e, r, 64, &n, &p)) {
			snprintf(err, errlen, "inherit: expected present pages such as \"0-2,30\"");
			return -1;
		}
		for (size_t i = 0; i < n; i += 2) {
			if (r[i + 1] > vma_pages) {
				snprintf(err, errlen, "inherit: present page %" PRIu64 " is outside the VMA "
					 "(%" PRIu64 " pages)", r[i + 1] - 1, vma_pages);
				return -1;
			}
			total += r[i + 1] - r[i];
			if (total > mi.total) {
				snprintf(err, errlen, "inherit: %" PRIu64 " present pages, more than the "
					 "simulated RAM holds (%" PRIu64 " pages; # ram:)", total, mi.total);
				return -1;
			}
			for (uint64_t pg = r[i]; pg < r[i + 1]; pg++)
				vm_access(s, t, start + (pg << 12), 2);
		}
	}
	return 0;
}

int inherit_apply_file(struct vmsys *s, const struct event *ev, int64_t *result, char *err,
		       size_t errlen)
{
	const char *p = ev->str2.p, *e = p ? p + ev->str2.len : NULL;
	/* a cached page lies below the file's end, and the cache holds no
	 * more pages than the simulated RAM */
	uint64_t size = ev->args[0], file_pages = size / 4096 + (size % 4096 != 0), total = 0;
	struct vm_meminfo mi;
	vmsys_meminfo(s, &mi);
	*result = 0;
	do {
		uint64_t r[64];
		size_t n = 0;
		if (p && !parse_ranges(p, e, r, 64, &n, &p)) {
			snprintf(err, errlen, "inherit_file: expected page ranges such as \"0-8,12\"");
			return -1;
		}
		for (size_t i = 0; i < n; i += 2) {
			if (r[i + 1] > file_pages) {
				snprintf(err, errlen, "inherit_file: cached page %" PRIu64 " lies past the end "
					 "of a %" PRIu64 "-byte file", r[i + 1] - 1, size);
				return -1;
			}
			total += r[i + 1] - r[i];
			if (total > mi.total) {
				snprintf(err, errlen, "inherit_file: %" PRIu64 " cached pages, more than the "
					 "simulated RAM holds (%" PRIu64 " pages; # ram:)", total, mi.total);
				return -1;
			}
		}
		*result = vm_inherit_file(s, ev->str.p, ev->str.len, ev->args[0], r, n);
	} while (*result >= 0 && p && p < e);
	return 0;
}

/* --maps FILE: /proc/PID/maps lines, or smaps (its VmFlags lines give the
 * flags of the mapping above them; the other fields are ignored). */
static int apply_maps_file(struct inherit_state *st, struct vmsys *s, struct task *t, char *err,
			   size_t errlen)
{
	FILE *f = fopen(st->maps_path, "r");
	if (!f) {
		snprintf(err, errlen, "%s:1:1: error: %s", st->maps_path, strerror(errno));
		return -1;
	}
	struct stat sb;
	if (!fstat(fileno(f), &sb) && S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%s:1:1: error: a directory, not a saved /proc/PID/maps", st->maps_path);
		fclose(f);
		return -1;
	}
	char cur[4096], next[4096];
	bool have = false;
	unsigned long lineno = 0, curline = 0, mappings = 0;
	uint64_t prev_end = 0;
	int rc = 0;
	for (;;) {
		bool more = fgets(next, sizeof(next), f) != NULL;
		if (more) {
			lineno++;
			next[strcspn(next, "\n")] = 0;
		}
		const char *flags = NULL;
		if (more && !strncmp(next, "VmFlags:", 8)) {
			flags = next + 8;
			while (*flags == ' ')
				flags++;
		} else if (more && (!next[0] || (strcspn(next, " \t") && next[strcspn(next, " \t") - 1] == ':'))) {
			continue; /* an smaps field line ("Rss:   4 kB") or blank */
		}
		if (have && (flags || !more || next[0])) {
			/* /proc/PID/maps lists VMAs in address order, apart */
			uint64_t cs = 0, ce = 0;
			const char *cq = hexnum(cur, cur + strlen(cur), &cs);
			if (cq && *cq == '-')
				hexnum(cq + 1, cur + strlen(cur), &ce);
			if (cq && mappings && cs < prev_end) {
				snprintf(err, errlen, "%s:%lu:1: error: [0x%" PRIx64 ", 0x%" PRIx64 ") overlaps "
					 "or precedes the mapping above it (maps lists VMAs in address order)",
					 st->maps_path, curline, cs, ce);
				rc = -1;
				break;
			}
			int64_t res;
			long col = 0;
			if (inherit_apply_line(s, t, cur, strlen(cur), flags ? flags : "",
					       flags ? strlen(flags) : 0, &res, err, errlen, &col) < 0) {
				char msg[256];
				snprintf(msg, sizeof(msg), "%s", err);
				snprintf(err, errlen, "%s:%lu:%ld: error: %s", st->maps_path, curline, col, msg);
				rc = -1;
				break;
			}
			if (res < 0 && res != -17 /* EEXIST: the trace mapped it itself */) {
				snprintf(err, errlen, "%s:%lu:1: error: the model refused this mapping (%" PRId64 ")",
					 st->maps_path, curline, res);
				rc = -1;
				break;
			}
			if (ce > prev_end)
				prev_end = ce;
			mappings++;
			have = false;
		}
		if (!more)
			break;
		if (!flags) {
			snprintf(cur, sizeof(cur), "%s", next);
			curline = lineno;
			have = true;
		}
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "%s:%lu:1: error: %s", st->maps_path, lineno + 1, strerror(errno));
		rc = -1;
	}
	if (!rc && !mappings) {
		snprintf(err, errlen, "%s:1:1: error: no mapping in it: --maps takes a saved "
			 "/proc/PID/maps or smaps", st->maps_path);
		rc = -1;
	}
	fclose(f);
	return rc;
}

/* calls whose success proves [addr, addr+len) was mapped */
static bool proves_mapped(const struct event *ev, uint64_t *addr, uint64_t *len)
{
	if (ev->type != EV_CALL)
		return false;
	bool ok = ev->res == RES_VALUE;
	switch (ev->sys) {
	case SYS_MPROTECT: case SYS_MLOCK: case SYS_MLOCK2: case SYS_MUNLOCK:
	case SYS_MSYNC: case SYS_MADVISE:
		*addr = ev->args[0];
		*len = ev->args[1];
		return ok && ev->value == 0;
	case SYS_MREMAP:
		*addr = ev->args[0];
		*len = ev->args[1];
		return ok;
	case SYS_TOUCH:
		*addr = ev->args[0];
		*len = ev->args[1];
		return ok;
	case SYS_FAULT:
		*addr = ev->args[0];
		*len = 1;
		return ok && (ev->value == FR_MINOR || ev->value == FR_MAJOR);
	default:
		return false;
	}
}

static void note(struct inherit_state *st, const char *fmt, uint64_t a, uint64_t b, const char *why)
{
	if (st->nnotes < INHERIT_NOTE_MAX)
		snprintf(st->notes[st->nnotes++], sizeof(st->notes[0]), fmt, a, b, why);
}

int inherit_before(struct inherit_state *st, struct vmsys *s, const struct event *ev, char *err,
		   size_t errlen)
{
	st->nnotes = 0;
	if (ev->type == EV_CALL && (ev->sys == SYS_INHERIT || ev->sys == SYS_INHERIT_FILE)) {
		st->assume = false; /* the trace brings its own address space */
		return 0;
	}
	bool exec = ev->type == EV_CALL && ev->sys == SYS_EXECVE;
	/* --maps describes the image the log starts in; one a later execve
	 * maps is as unknown as any in a plain log: assume from here on */
	if (exec && st->plain && st->maps_applied)
		st->assume = true;
	if (st->maps_path && !st->maps_applied && !exec) {
		/* the trace starts after its process was set up */
		st->maps_applied = true;
		struct task *t0 = vmsys_task(s, ev->pid, true);
		if (!t0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		return apply_maps_file(st, s, t0, err, errlen);
	}
	/* the common case first: nothing to assume costs no task lookup */
	uint64_t addr, len;
	if (!st->assume || !proves_mapped(ev, &addr, &len))
		return 0;
	/* the first event of a log may be the one: its process starts here
	 * (a strace -p attach log begins with a call on memory mapped long
	 * before) */
	struct task *t = vmsys_task(s, ev->pid, true);
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	uint64_t hs, he;
	while (len && vmsys_hole_in(s, t, addr, addr + len, &hs, &he)) {
		struct vm_inherit m;
		memset(&m, 0, sizeof(m));
		m.start = hs;
		m.end = he;
		memcpy(m.perms, "rw-p", 4);
		m.kind = VMI_ANON;
		if (vm_inherit_vma(s, t, &m) < 0)
			break;
		st->assumed++;
		st->assumed_bytes += he - hs;
		note(st, "mapped before the trace began: [0x%" PRIx64 ", 0x%" PRIx64
		     ") first used by %s; assumed private read-write", hs, he, trace_sys_name(ev->sys));
	}
	return 0;
}

int inherit_after(struct inherit_state *st, struct vmsys *s, const struct event *ev, char *err,
		  size_t errlen)
{
	if (!st->maps_path || st->maps_applied || ev->type != EV_CALL || ev->sys != SYS_EXECVE ||
	    ev->res != RES_VALUE || ev->value != 0)
		return 0;
	st->maps_applied = true;
	struct task *t = vmsys_task(s, ev->pid, false);
	return t ? apply_maps_file(st, s, t, err, errlen) : 0;
}
