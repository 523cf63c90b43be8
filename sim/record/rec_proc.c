/* rec_proc.c - the live system's answers for `vmsim record`.  See record.h, section "rec_proc". */
#include "alloc.h"
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* "VmLck:     12 kB" of /proc/PID/status (or /proc/meminfo), -1 if absent */
static long status_kb(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[256];
	size_t kl = strlen(key);
	long v = -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			v = strtol(line + kl + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* the word in brackets of a sysfs choice ("always [madvise] never"), or ""
 * when the file cannot be read */
static void read_bracketed(const char *path, char *out, size_t len)
{
	out[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[128];
	if (fgets(line, sizeof(line), f)) {
		char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b && (size_t)(b - a - 1) < len) {
			memcpy(out, a + 1, (size_t)(b - a - 1));
			out[b - a - 1] = 0;
		}
	}
	fclose(f);
}

/* CONFIG_MEM_SOFT_DIRTY: smaps prints "sd" only with it, and every VMA
 * execve made is VM_SOFTDIRTY (fs/exec.c, mmap_region()); 1, 0 or -1 when
 * smaps cannot be read */
int rec_probe_soft_dirty(void)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[512];
	int sd = 0;
	while (!sd && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmFlags:", 8) && (strstr(line, " sd ") || strstr(line, " sd\n")))
			sd = 1;
	fclose(f);
	return sd;
}

/* kpageflags bit 24 (KPF_ZERO_PAGE) of the page an anonymous read fault
 * mapped; -1 when it cannot be seen (no root: pagemap shows no pfn) */
static int probe_zero_page(void)
{
	volatile char *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	(void)p[0];
	uint64_t e = 0, fl = 0;
	int rc = -1;
	int pm = open("/proc/self/pagemap", O_RDONLY), kf = open("/proc/kpageflags", O_RDONLY);
	if (pm >= 0 && kf >= 0 && pread(pm, &e, 8, (off_t)((uintptr_t)p / 4096) * 8) == 8) {
		uint64_t pfn = e & ((1ULL << 55) - 1);
		if ((e >> 63) && pfn && pread(kf, &fl, 8, (off_t)(pfn * 8)) == 8)
			rc = (int)((fl >> 24) & 1);
	}
	if (pm >= 0)
		close(pm);
	if (kf >= 0)
		close(kf);
	munmap((void *)p, 4096);
	return rc;
}

static void size_text(uint64_t v, char *buf, size_t n)
{
	if (v == RLIM_INFINITY)
		snprintf(buf, n, "unlimited");
	else if (v && v % (1 << 20) == 0)
		snprintf(buf, n, "%" PRIu64 "M", v >> 20);
	else if (v && v % 1024 == 0)
		snprintf(buf, n, "%" PRIu64 "K", v >> 10);
	else
		snprintf(buf, n, "%" PRIu64, v);
}

/* The running kernel's major and minor version, from uname() (0.0 when
 * it cannot be read) */
static void running_kernel(struct utsname *u, unsigned *maj, unsigned *min)
{
	*maj = *min = 0;
	if (uname(u) == 0)
		sscanf(u->release, "%u.%u", maj, min);
}

/* `# ramfs:` / `# tmpfs:`: the mount points of fstype the recorder's
 * namespace has (the tracee starts in it), from /proc/self/mountinfo: its
 * fifth field, already escaped (\040 a space), and a comma as \054 */
static void write_mounts(FILE *out, const char *fstype)
{
	FILE *mi = fopen("/proc/self/mountinfo", "r");
	if (!mi)
		return;
	static char line[8192], point[4096];
	bool any = false;
	while (fgets(line, sizeof(line), mi)) {
		/* ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER */
		const char *dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1 || point[0] != '/')
			continue;
		size_t tl = strcspn(dash + 3, " \n");
		if (tl != strlen(fstype) || strncmp(dash + 3, fstype, tl))
			continue;
		fprintf(out, any ? "," : "# %s: ", fstype);
		for (const char *c = point; *c; c++)
			if (*c == ',')
				fputs("\\054", out);
			else
				fputc(*c, out);
		any = true;
	}
	if (any)
		fputc('\n', out);
	fclose(mi);
}

void rec_write_header(FILE *out, int argc, char **argv)
{
	struct utsname u;
	unsigned maj, min;
	running_kernel(&u, &maj, &min);
	struct rlimit rl;
	getrlimit(RLIMIT_MEMLOCK, &rl);
	char rls[32];
	size_text(rl.rlim_cur, rls, sizeof(rls));
	uint64_t capeff = 0, capbnd = 0;
	bool capbnd_known = false;
	FILE *f = fopen("/proc/self/status", "r");
	if (f) {
		char line[256];
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "CapEff:", 7))
				capeff = strtoull(line + 7, NULL, 16);
			else if (!strncmp(line, "CapBnd:", 7))
				capbnd = strtoull(line + 7, NULL, 16), capbnd_known = true;
		fclose(f);
	}
	long mmc = read_long("/proc/sys/vm/max_map_count");
	long swap = status_kb("/proc/meminfo", "SwapTotal");
	long ram = status_kb("/proc/meminfo", "MemTotal");
	/* the hugetlb pool of the default size: the pages a program can
	 * still have (free, not reserved), counts rather than kB */
	long huge_total = status_kb("/proc/meminfo", "HugePages_Total");
	long huge_free = status_kb("/proc/meminfo", "HugePages_Free");
	long huge_rsvd = status_kb("/proc/meminfo", "HugePages_Rsvd");
	long huge = huge_free > huge_rsvd ? huge_free - huge_rsvd : 0;
	/* THP for anonymous memory: the 2 MiB size's own knob (6.8+) when it
	 * does not inherit, else the global one; the bracketed word */
	char thp[16] = "";
	read_bracketed("/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled", thp, sizeof(thp));
	if (!thp[0] || !strcmp(thp, "inherit"))
		read_bracketed("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp));
	long ra = -1;
	struct stat st;
	if (!stat(".", &st)) {
		char p[96];
		snprintf(p, sizeof(p), "/sys/class/bdi/%u:%u/read_ahead_kb", major(st.st_dev),
			 minor(st.st_dev));
		ra = read_long(p);
	}
	int zp = probe_zero_page();
	/* NUMA: the nodes with memory; balancing's state (the scanner's passes
	 * are not visible to a recorder: no tracepoint marks task_numa_work()) */
	long nodes = 0;
	for (int n = 0; n < 64; n++) {
		char p[80];
		snprintf(p, sizeof(p), "/sys/devices/system/node/node%d/meminfo", n);
		if (!access(p, R_OK))
			nodes++;
	}
	long balancing = read_long("/proc/sys/kernel/numa_balancing");
	fprintf(out, "# vmsim-trace: 1\n# arch: %s\n# kernel: %u.%u\n# page-size: %ld\n", u.machine, maj,
		min, sysconf(_SC_PAGESIZE));
	if (ram > 0)
		fprintf(out, "# ram: %ldK\n", ram);
	if (swap >= 0)
		fprintf(out, "# swap: %ldK\n", swap);
	fprintf(out, "# rlimit-memlock: %s\n", rls);
	fprintf(out, "# cap-ipc-lock: %s\n", (capeff >> 14) & 1 ? "yes" : "no");
	fprintf(out, "# cap-sys-resource: %s\n", (capeff >> 24) & 1 ? "yes" : "no");
	if (capbnd_known) /* what root's execve gives back (cap_bprm_creds_from_file()) */
		fprintf(out, "# cap-bounding: %016llx\n", (unsigned long long)capbnd);
	fprintf(out, "# uid: %u\n", (unsigned)getuid());
	if (mmc > 0)
		fprintf(out, "# max-map-count: %ld\n", mmc);
	if (ra >= 0)
		fprintf(out, "# read-ahead-kb: %ld\n", ra);
	if (zp >= 0)
		fprintf(out, "# zero-page: %s\n", zp ? "yes" : "no");
	if (rec_probe_soft_dirty() == 1)
		fprintf(out, "# soft-dirty: yes\n");
	if (nodes > 1)
		fprintf(out, "# numa-nodes: %ld\n", nodes);
	if (huge > 0)
		fprintf(out, "# hugetlb-pages: %ld\n", huge);
	if (!strcmp(thp, "always") || !strcmp(thp, "madvise") || !strcmp(thp, "never"))
		fprintf(out, "# thp: %s\n", thp);
	write_mounts(out, "ramfs");
	write_mounts(out, "tmpfs");
	static char cwd[1024];
	if (getcwd(cwd, sizeof(cwd)) && cwd[0] == '/') { /* the tracee starts here */
		fputs("# cwd: ", out);
		for (const char *c = cwd; *c; c++)
			if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\\' || *c == ',')
				fprintf(out, "\\%03o", (unsigned char)*c);
			else
				fputc(*c, out);
		fputc('\n', out);
	}
	fprintf(out, "# description: vmsim record --");
	for (int i = 0; i < argc; i++)
		fprintf(out, " %s", argv[i]);
	fprintf(out, "\n# recorded-by: vmsim record on Linux %s %s (%ld cpus)%s\n", u.release, u.machine,
		sysconf(_SC_NPROCESSORS_ONLN), geteuid() ? "" : ", as root");
	if (rl.rlim_cur != rl.rlim_max) {
		char h[32];
		size_text(rl.rlim_max, h, sizeof(h));
		fprintf(out, "# note: RLIMIT_MEMLOCK hard limit %s (the header gives the soft one)\n", h);
	}
	if (zp < 0)
		fprintf(out, "# note: whether the kernel maps the zero page could not be probed "
			     "(kpageflags needs root); replay assumes the semantics' default\n");
	if (ra < 0)
		fprintf(out, "# note: read_ahead_kb of the working directory's device not found\n");
	if (huge_total > huge)
		fprintf(out, "# note: %ld of the %ld hugetlb pages were in use or reserved when the "
			     "recording began: the header gives the rest\n", huge_total - huge, huge_total);
	if (balancing > 0)
		fprintf(out, "# note: kernel.numa_balancing is %ld: its scan passes are not recorded, so "
			     "a NUMA hinting fault in this trace has no numa_scan() line before it\n",
			balancing);
}

/* ---- the inherited address space ---------------------------------------- */

static void put_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 32)
			fprintf(out, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* "VmFlags: rd wr mr ... \n" -> "rd wr mr ..." into buf */
static void vmflags_value(const char *line, char *buf, size_t n)
{
	const char *fl = line + 8;
	while (*fl == ' ')
		fl++;
	snprintf(buf, n, "%s", fl);
	size_t l = strlen(buf);
	while (l && (buf[l - 1] == '\n' || buf[l - 1] == ' '))
		buf[--l] = 0;
}

static rec_file_fn on_file;
static void *on_file_ctx;

void rec_proc_on_file(rec_file_fn fn, void *ctx)
{
	on_file = fn;
	on_file_ctx = ctx;
}

/* Page index ranges as the trace writes them ("0-8,12"), built from a
 * bitmap: each set bit vec[i] & 1 is an index; malloc'd text or NULL. */
static char *ranges_text(const unsigned char *vec, uint64_t n)
{
	char *buf = NULL;
	size_t blen = 0;
	FILE *m = open_memstream(&buf, &blen);
	if (!m)
		return NULL;
	bool first = true;
	for (uint64_t i = 0; i < n;) {
		if (!(vec[i] & 1)) {
			i++;
			continue;
		}
		uint64_t j = i;
		while (j + 1 < n && (vec[j + 1] & 1))
			j++;
		fprintf(m, i == j ? "%s%" PRIu64 : "%s%" PRIu64 "-%" PRIu64, first ? "" : ",", i, j);
		first = false;
		i = j + 1;
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The page cache residency of a regular file, as "0-8,12" (malloc'd),
 * less the pages in skip[] (pages a major fault read in since: they were
 * not cached before); NULL when the file cannot be read. */
static char *residency(const char *path, uint64_t *size, const uint64_t *skip, size_t nskip)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	*size = (uint64_t)st.st_size;
	if (on_file)
		on_file(on_file_ctx, path, (uint32_t)(major(st.st_dev) << 20 | minor(st.st_dev)),
			(uint64_t)st.st_ino);
	size_t pages = ((uint64_t)st.st_size + 4095) / 4096;
	unsigned char *vec = vm_calloc(pages ? pages : 1, 1);
	void *map = pages ? mmap(NULL, pages * 4096, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	if (vec && map != MAP_FAILED && !mincore(map, pages * 4096, vec))
		for (size_t k = 0; k < nskip; k++)
			if (skip[k] < pages)
				vec[skip[k]] = 0;
	if (map != MAP_FAILED)
		munmap(map, pages * 4096);
	close(fd);
	char *text = vec ? ranges_text(vec, pages) : NULL;
	free(vec);
	return text;
}

static int write_file(FILE *out, pid_t pid, const char *path, const uint64_t *skip, size_t nskip)
{
	uint64_t size;
	char *ranges = path[0] == '/' ? residency(path, &size, skip, nskip) : NULL;
	if (!ranges)
		return 0;
	fprintf(out, "%d  inherit_file(", (int)pid);
	put_quoted(out, path);
	fprintf(out, ", %" PRIu64 ", ", size);
	put_quoted(out, ranges);
	fprintf(out, ") = 0\n");
	free(ranges);
	return 1;
}

void rec_note_file(const char *path)
{
	struct stat st;
	if (on_file && path[0] == '/' && !stat(path, &st) && S_ISREG(st.st_mode))
		on_file(on_file_ctx, path, (uint32_t)(major(st.st_dev) << 20 | minor(st.st_dev)),
			(uint64_t)st.st_ino);
}

int rec_write_file(FILE *out, pid_t pid, const char *path)
{
	return write_file(out, pid, path, NULL, 0);
}

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* len bytes at off of fd, through O_DIRECT when direct (whole aligned
 * blocks): the recorder's own read must not bring pages into the cache
 * the kernel is about to read, nor start their readahead. */
static bool read_at(int fd, bool direct, void *dst, size_t len, uint64_t off)
{
	if (!direct)
		return pread(fd, dst, len, (off_t)off) == (ssize_t)len;
	uint64_t lo = off & ~4095ULL, hi = (off + len + 4095) & ~4095ULL;
	void *b = NULL;
	if (posix_memalign(&b, 4096, hi - lo))
		return false;
	ssize_t got = pread(fd, b, hi - lo, (off_t)lo);
	bool ok = got >= 0 && (uint64_t)got >= off + len - lo;
	if (ok)
		memcpy(dst, (char *)b + (off - lo), len);
	free(b);
	return ok;
}

/* One file of the chain: its cache state now.  The next file of the
 * chain (the #! interpreter, or PT_INTERP: *next_interp) goes to next
 * (empty: none). */
static void exec_file_state(FILE *out, pid_t pid, const char *canon, bool interp, char *next,
			    size_t nextlen, bool *next_interp)
{
	next[0] = 0;
	*next_interp = false;
	bool direct = true;
	int fd = open(canon, O_RDONLY | O_CLOEXEC | O_DIRECT);
	if (fd < 0 && errno == EINVAL) { /* tmpfs: no O_DIRECT, and no readahead */
		direct = false;
		fd = open(canon, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return;
	struct stat st;
	unsigned char h[256];
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size ||
	    !write_file(out, pid, canon, NULL, 0)) {
		close(fd);
		return;
	}
	uint64_t size = (uint64_t)st.st_size;
	ssize_t n = (ssize_t)(size < sizeof(h) ? size : sizeof(h));
	if (!read_at(fd, direct, h, (size_t)n, 0))
		n = 0;
	if (!interp && n > 2 && h[0] == '#' && h[1] == '!') {
		/* fs/binfmt_script.c:load_script(): the interpreter's path */
		size_t i = 2, k = 0;
		while (i < (size_t)n && (h[i] == ' ' || h[i] == '\t'))
			i++;
		while (i < (size_t)n && k + 1 < nextlen && h[i] != ' ' && h[i] != '\t' && h[i] != '\n' && h[i])
			next[k++] = (char)h[i++];
		next[k] = 0;
	} else if (!interp && n >= 64 && !memcmp(h, "\177ELF", 4) && h[4] == 2 /* ELFCLASS64 */) {
		/* fs/binfmt_elf.c:load_elf_phdrs(), then PT_INTERP's path */
		uint64_t phoff = le(h + 0x20, 8), phent = le(h + 0x36, 2), phnum = le(h + 0x38, 2);
		uint64_t phsz = phent * phnum;
		if (phent == 56 && phnum && phnum <= 65536 / 56 && phoff < size && phsz <= size - phoff) {
			unsigned char *ph = vm_malloc(phsz);
			if (ph && read_at(fd, direct, ph, phsz, phoff)) {
				for (uint64_t i = 0; i < phnum; i++) {
					const unsigned char *e = ph + i * 56;
					uint64_t off = le(e + 8, 8), len = le(e + 32, 8);
					if (le(e, 4) != 3 /* PT_INTERP */ || len < 2 || len >= nextlen || off >= size)
						continue;
					if (!read_at(fd, direct, next, len, off))
						next[0] = 0;
					next[len - 1] = 0;
					*next_interp = true;
					break;
				}
			}
			free(ph);
		}
	}
	close(fd);
}

size_t rec_write_exec_reads(FILE *out, pid_t pid, const char *path, char **names, size_t max)
{
	char want[4200], canon[PATH_MAX];
	size_t n = 0;
	bool interp = false;
	snprintf(want, sizeof(want), "%s", path);
	/* fs/exec.c:search_binary_handler(): at most 5 levels (#! of #!) */
	for (int depth = 0; depth < 5 && want[0] && n < max; depth++) {
		char where[4300];
		if (want[0] == '/')
			snprintf(where, sizeof(where), "%s", want);
		else
			snprintf(where, sizeof(where), "/proc/%d/cwd/%s", (int)pid, want);
		if (!realpath(where, canon))
			break;
		bool seen = false;
		for (size_t i = 0; i < n && !seen; i++)
			seen = !strcmp(names[i], canon);
		if (seen)
			break;
		if (!(names[n] = vm_strdup(canon)))
			break;
		n++;
		bool was_interp = interp; /* an ELF interpreter is read, not searched */
		exec_file_state(out, pid, canon, was_interp, want, sizeof(want), &interp);
		if (was_interp)
			break;
	}
	return n;
}

/* the present pages of [start, end) of pid, from pagemap (bit 63; the
 * present bit needs no privilege), as "0-2,30" relative to start */
static char *present_pages(pid_t pid, uint64_t start, uint64_t end, const uint64_t *fault,
			   size_t nfault)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	uint64_t n = (end - start) / 4096;
	unsigned char *vec = vm_calloc(n ? n : 1, 1);
	for (uint64_t i = 0; vec && i < n; i++) {
		uint64_t e = 0;
		vec[i] = pread(fd, &e, 8, (off_t)((start / 4096 + i) * 8)) == 8 && (e >> 63);
		for (size_t k = 0; vec[i] && k < nfault; k++)
			if (fault[k] >> 12 == start / 4096 + i)
				vec[i] = 0; /* the execve's own fault made it: its line follows */
	}
	close(fd);
	char *text = vec ? ranges_text(vec, n) : NULL;
	free(vec);
	return text;
}

/* Before 4.12 show_map_vma() hides the guard page of a VM_GROWSDOWN VMA,
 * its first page (fs/proc/task_mmu.c @ v4.4: stack_guard_page_start()),
 * so maps and smaps show the stack a page shorter than the VMA that
 * mlock, locked_vm and the model count: its start is a page lower. */
static bool guard_page_hidden(const char *flags)
{
	static int before_4_12 = -1;
	if (before_4_12 < 0) {
		struct utsname u;
		unsigned maj, min;
		running_kernel(&u, &maj, &min);
		before_4_12 = maj && (maj < 4 || (maj == 4 && min < 12));
	}
	if (!before_4_12)
		return false;
	size_t n = strlen(flags);
	for (const char *p = flags; (p = strstr(p, "gd")) != NULL; p += 2)
		if ((p == flags || p[-1] == ' ') && (p + 2 == flags + n || p[2] == ' '))
			return true;
	return false;
}

struct inh_vma {
	char line[4096];
	char flags[4096];
	uint64_t start, end, pgoff;
	const char *path; /* into line, or NULL */
};

int rec_write_inherited(FILE *out, pid_t pid, const uint64_t *fault, const bool *major,
			size_t nfault, char *const *written, size_t nwritten)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	struct inh_vma *v = NULL;
	size_t nv = 0, cap = 0;
	char line[4096];
	int rc = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "VmFlags:", 8)) {
			if (nv) {
				struct inh_vma *e = &v[nv - 1];
				vmflags_value(line, e->flags, sizeof(e->flags));
				if (guard_page_hidden(e->flags)) {
					/* the line's address is rewritten: a page lower */
					size_t dash = strcspn(e->line, "-"), len = strlen(e->line);
					char addr[24];
					int w = snprintf(addr, sizeof(addr), "%08" PRIx64, e->start - 4096);
					if (w > 0 && len - dash + (size_t)w < sizeof(e->line)) {
						memmove(e->line + w, e->line + dash, len - dash + 1);
						memcpy(e->line, addr, (size_t)w);
						e->start -= 4096;
					}
				}
			}
			continue;
		}
		size_t w = strcspn(line, " ");
		if (!w || line[w - 1] == ':')
			continue; /* a field line */
		if (nv == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct inh_vma *nw = vm_realloc(v, nc * sizeof(*nw));
			if (!nw) {
				rc = -1;
				break;
			}
			v = nw;
			cap = nc;
		}
		struct inh_vma *e = &v[nv++];
		memset(e, 0, sizeof(*e));
		snprintf(e->line, sizeof(e->line), "%s", line);
		uint64_t off = 0;
		sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64, &e->start, &e->end, &off);
		e->pgoff = off / 4096;
		const char *p = e->line;
		for (int k = 0; k < 5 && *p; k++) {
			p += strcspn(p, " ");
			p += strspn(p, " ");
		}
		e->path = (*p == '/' && !strstr(p, " (deleted)")) ? p : NULL;
	}
	fclose(f);
	uint64_t *skip = nfault ? vm_malloc(nfault * sizeof(*skip)) : NULL;
	for (size_t i = 0; i < nv; i++) {
		if (v[i].path) {
			bool seen = false;
			for (size_t j = 0; j < i && !seen; j++)
				seen = v[j].path && !strcmp(v[j].path, v[i].path);
			for (size_t j = 0; j < nwritten && !seen; j++)
				seen = !strcmp(written[j], v[i].path);
			/* the file first, so the mapping finds its size and cache;
			 * pages its major faults read in were not cached before */
			size_t nskip = 0;
			for (size_t k = 0; !seen && skip && k < nfault; k++)
				for (size_t j = 0; major[k] && j < nv; j++)
					if (v[j].path && !strcmp(v[j].path, v[i].path) &&
					    fault[k] >= v[j].start && fault[k] < v[j].end) {
						skip[nskip++] = v[j].pgoff + (fault[k] - v[j].start) / 4096;
						break;
					}
			if (!seen)
				write_file(out, pid, v[i].path, skip, nskip);
		}
		fprintf(out, "%d  inherit(", (int)pid);
		put_quoted(out, v[i].line);
		fprintf(out, ", ");
		put_quoted(out, v[i].flags);
		/* the pages execve wrote into anonymous memory (the stack's argv,
		 * envp and auxv): present though no fault of the trace made them */
		const char *name = v[i].line + strlen(v[i].line);
		while (name > v[i].line && name[-1] != ' ')
			name--;
		if (!v[i].path && (!*name || !strcmp(name, "[stack]") || !strcmp(name, "[heap]"))) {
			char *present = present_pages(pid, v[i].start, v[i].end, fault, nfault);
			if (present && *present) {
				fprintf(out, ", ");
				put_quoted(out, present);
			}
			free(present);
		}
		fprintf(out, ") = 0\n");
	}
	free(skip);
	free(v);
	return rc;
}

/* ---- the kernel's answers ------------------------------------------------ */

struct smaps_vma {
	uint64_t start, end;
	long rss, pss, locked;
	char flags[4096];
};

/* lru_add_drain_all() from user space: migrate_pages() to the same node
 * drains every CPU's batches (mm/mempolicy.c:migrate_pages -> lru_cache_disable) */
static void drain(pid_t pid)
{
	unsigned long mask = 1;
	syscall(SYS_migrate_pages, pid, 2, &mask, &mask);
}

size_t rec_shm_attaches(pid_t pid, int shmid, uint64_t *start, uint64_t *end, size_t max)
{
	char path[64], line[4400];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		/* ipc/shm.c:newseg(): the segment's inode number is its id */
		unsigned long long a, b, ino;
		int name = 0;
		if (sscanf(line, "%llx-%llx %*s %*s %*s %llu %n", &a, &b, &ino, &name) == 3 && name &&
		    !strncmp(line + name, "/SYSV", 5) && ino == (unsigned long long)shmid) {
			start[n] = a;
			end[n++] = b;
		}
	}
	fclose(f);
	return n;
}

void rec_write_vmpin(FILE *out, pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	long kb = status_kb(path, "VmPin");
	if (kb >= 0)
		fprintf(out, "%d  expect(VmPin) = %ld kB\n", (int)pid, kb);
}

void rec_write_expect(FILE *out, pid_t pid, uint64_t addr, uint64_t len, bool pages,
		      unsigned max_pages)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	long vmlck = status_kb(path, "VmLck");
	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[4096];
	struct smaps_vma v;
	bool have = false;
	uint64_t end = len ? addr + len : UINT64_MAX;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Rss:", 4)) {
			v.rss = strtol(line + 4, NULL, 10);
		} else if (!strncmp(line, "Pss:", 4)) {
			v.pss = strtol(line + 4, NULL, 10);
		} else if (!strncmp(line, "Locked:", 7)) {
			v.locked = strtol(line + 7, NULL, 10);
		} else if (!strncmp(line, "VmFlags:", 8)) {
			vmflags_value(line, v.flags, sizeof(v.flags));
			if (have && guard_page_hidden(v.flags))
				v.start -= 4096;
			/* Locked: is proportional (fs/proc/task_mmu.c: pss_locked): pages
			 * that processes outside the trace map too (libc) count a share
			 * the trace cannot know, so it is checked only where Pss = Rss */
			char locked[48] = "";
			if (v.pss == v.rss)
				snprintf(locked, sizeof(locked), ", Locked=%ld kB", v.locked);
			if (have && v.start < end && v.end > addr && v.start < 0x800000000000ULL)
				fprintf(out, "%d  expect(vma, %#" PRIx64 ") = {start=%#" PRIx64 ", end=%#" PRIx64
					", Rss=%ld kB%s, VmFlags=\"%s\"}\n",
					(int)pid, v.start, v.start, v.end, v.rss, locked, v.flags);
			have = false;
		} else {
			size_t w = strcspn(line, " ");
			if (w && line[w - 1] != ':' &&
			    sscanf(line, "%" SCNx64 "-%" SCNx64, &v.start, &v.end) == 2) {
				have = true;
				v.rss = v.pss = v.locked = 0;
			}
		}
	}
	fclose(f);
	if (vmlck >= 0)
		fprintf(out, "%d  expect(VmLck) = %ld kB\n", (int)pid, vmlck);
	/* with a hugetlb pool: the process's huge pages and the pool's
	 * reservations (global counts: the recording machine is assumed
	 * otherwise idle, as the header's pool is) */
	if (status_kb("/proc/meminfo", "HugePages_Total") > 0) {
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		long hp = status_kb(path, "HugetlbPages");
		if (hp >= 0)
			fprintf(out, "%d  expect(HugetlbPages) = %ld kB\n", (int)pid, hp);
		fprintf(out, "%d  expect(HugePages_Free) = %ld\n", (int)pid,
			status_kb("/proc/meminfo", "HugePages_Free"));
		fprintf(out, "%d  expect(HugePages_Rsvd) = %ld\n", (int)pid,
			status_kb("/proc/meminfo", "HugePages_Rsvd"));
	}
	if (!pages || geteuid() != 0 || !len)
		return;
	drain(pid);
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	int pm = open(path, O_RDONLY), kf = open("/proc/kpageflags", O_RDONLY);
	if (pm >= 0 && kf >= 0) {
		uint64_t a = addr & ~4095ULL;
		for (unsigned i = 0; i < max_pages && a < addr + len; i++, a += 4096) {
			uint64_t e = 0, fl = 0;
			if (pread(pm, &e, 8, (off_t)(a / 4096) * 8) != 8)
				break;
			uint64_t pfn = e & ((1ULL << 55) - 1);
			if ((e >> 63) && pfn && pread(kf, &fl, 8, (off_t)(pfn * 8)) == 8)
				fprintf(out, "%d  expect(page, %#" PRIx64 ") = {present=1, mlocked=%d, "
					"unevictable=%d}\n", (int)pid, a, (int)(fl >> 33 & 1),
					(int)(fl >> 18 & 1));
			else
				fprintf(out, "%d  expect(page, %#" PRIx64 ") = {present=%d}\n", (int)pid, a,
					(int)(e >> 63));
		}
	}
	if (pm >= 0)
		close(pm);
	if (kf >= 0)
		close(kf);
}
