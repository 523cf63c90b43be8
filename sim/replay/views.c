/*
 * views.c - /proc/PID/{maps,smaps,status}, /proc/{meminfo,vmstat} of the
 * model in the kernel's text, and two teaching views (pages, lru).
 *
 * The formats follow fs/proc/task_mmu.c, fs/proc/array.c,
 * fs/proc/meminfo.c and mm/vmstat.c of 6.x; they are checked byte for
 * byte against real 6.18 captures in traces/views/ (tests/unit/test_views.c).
 */
#include "replay.h"

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include "vmflags.h"
#include "vmstat.h"

#define VPAGE ((uint64_t)4096)
#define HPAGE_SMALL_PAGES ((uint64_t)512) /* a hugetlb page, 2 MiB, in small pages */

static const char *const view_names[VIEW_NR] = {
	"maps", "smaps", "status", "meminfo", "vmstat", "pages", "lru", "numa",
};

int view_find(const char *name)
{
	for (int i = 0; i < VIEW_NR; i++)
		if (!strcmp(name, view_names[i]))
			return i;
	return -1;
}

const char *view_name(enum view_kind v)
{
	return (unsigned)v < VIEW_NR ? view_names[v] : "?";
}

const char *view_list(void)
{
	return "maps smaps status meminfo vmstat pages lru numa";
}

bool view_is_global(enum view_kind v)
{
	return v == VIEW_MEMINFO || v == VIEW_VMSTAT || v == VIEW_LRU || v == VIEW_NUMA;
}

bool view_drains(enum view_kind v)
{
	return v == VIEW_PAGES || v == VIEW_LRU;
}

/* ------------------------------------------------------------ kernel */

/* The kernel version a semantics name stands for: "6.18" -> 6018; names
 * that are not a version (lof-v1, a patch on 4.0) count as 4.0. */
static unsigned kernel_version(const char *k)
{
	unsigned maj = 0, min = 0;
	if (!k || sscanf(k, "%u.%u", &maj, &min) != 2)
		return 4000;
	return maj * 1000 + min;
}

/* ------------------------------------------------------------- maps */

/* The kernel prints the columns with seq_put_hex_ll(.., 8): at least 8 hex
 * digits, more when needed (%08lx does the same). */
static int maps_prefix(FILE *f, uint64_t start, uint64_t end, uint64_t flags, uint64_t off,
		       uint64_t major, uint64_t minor, uint64_t ino)
{
	return fprintf(f, "%08" PRIx64 "-%08" PRIx64 " %c%c%c%c %08" PRIx64 " %02" PRIx64 ":%02" PRIx64
			  " %" PRIu64 " ",
		       start, end, (flags & VM_READ) ? 'r' : '-', (flags & VM_WRITE) ? 'w' : '-',
		       (flags & VM_EXEC) ? 'x' : '-', (flags & VM_MAYSHARE) ? 's' : 'p', off, major,
		       minor, ino);
}

/* seq_setwidth(25 + sizeof(void *) * 6 - 1) then seq_pad(' '): spaces up to
 * column 72, then one more space (always, even past the width). */
#define MAPS_PAD_WIDTH (25 + 8 * 6 - 1)

static void maps_pad(FILE *f, int written)
{
	if (written < MAPS_PAD_WIDTH)
		fprintf(f, "%*s", MAPS_PAD_WIDTH - written, "");
	fputc(' ', f);
}

/* a byte of a trace's text that a terminal would act on (ESC, BEL, CR):
 * a control byte other than the newline and tab its lines are made of */
static bool term_control(unsigned char c)
{
	return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
}

size_t term_escape(char *dst, size_t cap, const char *src)
{
	size_t o = 0;
	for (; *src && cap; src++) {
		unsigned char c = (unsigned char)*src;
		char e[5];
		size_t k = 1;
		e[0] = *src;
		if (term_control(c))
			k = (size_t)snprintf(e, sizeof(e), "\\%03o", c);
		if (o + k >= cap)
			break;
		memcpy(dst + o, e, k);
		o += k;
	}
	if (cap)
		dst[o] = '\0';
	return o;
}

void term_puts(FILE *f, const char *s)
{
	if (!isatty(fileno(f))) {
		fputs(s, f);
		return;
	}
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (term_control(c))
			fprintf(f, "\\%03o", c);
		else
			fputc(*s, f);
	}
}

/* seq_file_path(.., "\n"): a newline in a name prints as \012.  On a
 * terminal every other control byte is written as \ooo too: a trace's
 * path must not move the cursor or ring the bell (ESC, BEL); into a file
 * or a pipe the bytes are the kernel's */
static void put_path(FILE *f, const char *p)
{
	bool tty = isatty(fileno(f));
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '\n' || (tty && term_control(c)))
			fprintf(f, "\\%03o", c);
		else
			fputc(*p, f);
	}
}

static void maps_line(FILE *f, const struct vm_vma_info *vi)
{
	/* anonymous VMAs print offset 0 and 00:00 0 whatever their vm_pgoff */
	uint64_t off = vi->is_file ? vi->pgoff * VPAGE : 0;
	uint64_t maj = vi->is_file ? vi->dev_major : 0, min = vi->is_file ? vi->dev_minor : 0;
	uint64_t ino = vi->is_file ? vi->ino : 0;
	int n = maps_prefix(f, vi->start, vi->end, vi->flags, off, maj, min, ino);
	if (vi->path) {
		/* the kernel pads before file paths and [heap]/[stack] alike
		 * (file: seq_pad then path; names: seq_pad in the common exit) */
		maps_pad(f, n);
		put_path(f, vi->path);
	}
	fputc('\n', f);
}

/* The gate VMA: not in the mm, printed after it by every maps/smaps
 * reader (get_gate_vma()).  x86_64 has [vsyscall] (vsyscall=xonly, the
 * default since 5.x: --xp, VmFlags ex); the other arches vmsim knows have
 * none that shows in 6.x maps. */
static bool gate_vma(const struct view_ctx *c)
{
	return !c->arch || !strcmp(c->arch, "x86_64");
}

#define GATE_START 0xffffffffff600000ULL
#define GATE_END 0xffffffffff601000ULL

static void gate_line(FILE *f)
{
	int n = maps_prefix(f, GATE_START, GATE_END, VM_EXEC, 0, 0, 0, 0);
	maps_pad(f, n);
	fputs("[vsyscall]\n", f);
}

void view_maps(FILE *f, const struct view_ctx *c)
{
	struct vm_vma_info vi;
	if (c->task)
		for (const struct vma *v = vmsys_vma_next(c->sys, c->task, NULL, &vi); v;
		     v = vmsys_vma_next(c->sys, c->task, v, &vi))
			maps_line(f, &vi);
	if (gate_vma(c))
		gate_line(f);
}

/* ------------------------------------------------------------ smaps */

/* SEQ_PUT_DEC of task_mmu.c: the label is padded to 16 columns, the value
 * is right-aligned in 8 (Private_Hugetlb's 17-column label leaves 7). */
static void kb(FILE *f, const char *label, uint64_t bytes)
{
	int w = 24 - (int)strlen(label);
	if (w < 1)
		w = 1;
	fprintf(f, "%s%*" PRIu64 " kB\n", label, w, bytes >> 10);
}

static void smaps_entry(FILE *f, const struct view_ctx *c, const struct vm_vma_info *vi,
			bool gate)
{
	unsigned ver = kernel_version(c->kernel);
	uint64_t size = vi->end - vi->start;
	char vmf[512];
	if (gate)
		snprintf(vmf, sizeof(vmf), "ex ");
	else
		vmsys_vmflags_text(c->sys, vi->flags, vmf, sizeof(vmf));

	if (ver < 4019) {
		/* 4.x show_smap(): one seq_printf, page sizes after SwapPss */
		kb(f, "Size:", size);
		kb(f, "Rss:", vi->rss);
		kb(f, "Pss:", vi->pss);
		kb(f, "Shared_Clean:", vi->shared_clean);
		kb(f, "Shared_Dirty:", vi->shared_dirty);
		kb(f, "Private_Clean:", vi->private_clean);
		kb(f, "Private_Dirty:", vi->private_dirty);
		kb(f, "Referenced:", vi->referenced);
		kb(f, "Anonymous:", vi->anonymous);
		kb(f, "AnonHugePages:", vi->anon_huge);
		if (ver >= 4003) { /* hugetlb lines and SwapPss came in 4.3 */
			kb(f, "Shared_Hugetlb:", 0);
			kb(f, "Private_Hugetlb:", 0);
		}
		kb(f, "Swap:", vi->swap);
		if (ver >= 4003)
			kb(f, "SwapPss:", vi->swap); /* no swap sharing in the model */
		kb(f, "KernelPageSize:", VPAGE);
		kb(f, "MMUPageSize:", VPAGE);
		kb(f, "Locked:", vi->locked);
		fprintf(f, "VmFlags: %s\n", vmf);
		return;
	}
	kb(f, "Size:", size);
	kb(f, "KernelPageSize:", VPAGE);
	kb(f, "MMUPageSize:", VPAGE);
	kb(f, "Rss:", vi->rss);
	kb(f, "Pss:", vi->pss);
	if (ver >= 6000)
		kb(f, "Pss_Dirty:", vi->pss_dirty);
	kb(f, "Shared_Clean:", vi->shared_clean);
	kb(f, "Shared_Dirty:", vi->shared_dirty);
	kb(f, "Private_Clean:", vi->private_clean);
	kb(f, "Private_Dirty:", vi->private_dirty);
	kb(f, "Referenced:", vi->referenced);
	kb(f, "Anonymous:", vi->anonymous);
	if (ver >= 6006)
		kb(f, "KSM:", 0);           /* KSM is not modelled */
	kb(f, "LazyFree:", 0);              /* MADV_FREE'd pages are freed at once in the model */
	kb(f, "AnonHugePages:", 0);         /* no THP in the model */
	kb(f, "ShmemPmdMapped:", 0);
	kb(f, "FilePmdMapped:", 0);
	kb(f, "Shared_Hugetlb:", 0);
	kb(f, "Private_Hugetlb:", 0);
	kb(f, "Swap:", vi->swap);
	kb(f, "SwapPss:", vi->swap);        /* a swap entry is never shared in the model */
	kb(f, "Locked:", vi->locked);
	/* THP is not modelled: no VMA is eligible (true of the captures:
	 * none holds an aligned 2 MiB range). 6.1 prints the bare number,
	 * later kernels right-align it in 8 columns. */
	if (ver >= 6002)
		fprintf(f, "THPeligible:%12d\n", 0);
	else
		fprintf(f, "THPeligible:    %d\n", 0);
	/* ProtectionKey: only on CPUs with protection keys; not modelled and
	 * absent from the captures of this machine. */
	fprintf(f, "VmFlags: %s\n", vmf);
}

void view_smaps(FILE *f, const struct view_ctx *c)
{
	struct vm_vma_info vi;
	if (c->task)
		for (const struct vma *v = vmsys_vma_next(c->sys, c->task, NULL, &vi); v;
		     v = vmsys_vma_next(c->sys, c->task, v, &vi)) {
			maps_line(f, &vi);
			smaps_entry(f, c, &vi, false);
		}
	if (gate_vma(c)) {
		memset(&vi, 0, sizeof(vi));
		vi.start = GATE_START;
		vi.end = GATE_END;
		vi.flags = VM_EXEC;
		gate_line(f);
		smaps_entry(f, c, &vi, true);
	}
}

/* ----------------------------------------------------------- status */

static void status_kb(FILE *f, const char *name, uint64_t pages)
{
	fprintf(f, "%s:\t%8" PRIu64 " kB\n", name, pages * (VPAGE >> 10));
}

/* Page-table bytes (VmPTE), an approximation: one PTE table per 2 MiB,
 * one PMD table per 1 GiB and one PUD table per 512 GiB that holds a
 * present or swapped page now.  The kernel keeps tables after zapping
 * (MADV_DONTNEED, munlock+reclaim) until munmap frees them, and counts
 * the tables of the process's life before the trace (execve, stack). */
static uint64_t pte_pages(const struct view_ctx *c)
{
	uint64_t n = 0, last[3] = { UINT64_MAX, UINT64_MAX, UINT64_MAX };
	static const unsigned shift[3] = { 21, 30, 39 };
	struct vm_vma_info vi;
	for (const struct vma *v = vmsys_vma_next(c->sys, c->task, NULL, &vi); v;
	     v = vmsys_vma_next(c->sys, c->task, v, &vi)) {
		for (uint64_t a = vi.start; vmsys_next_page(c->sys, c->task, &a, vi.end); a += VPAGE) {
			struct vm_page_info pi;
			if (!vmsys_page(c->sys, c->task, a, &pi))
				continue;
			for (int l = 0; l < 3; l++) {
				if ((a >> shift[l]) != last[l]) {
					last[l] = a >> shift[l];
					n++;
				}
			}
		}
	}
	return n;
}

void view_status(FILE *f, const struct view_ctx *c)
{
	struct vm_status st;
	if (!c->task)
		return;
	vmsys_status(c->sys, c->task, &st);
	uint64_t rss = st.rss_anon + st.rss_file + st.rss_shmem;
	uint64_t peak = st.hiwater_vm > st.total_vm ? st.hiwater_vm : st.total_vm;
	uint64_t hwm = st.hiwater_rss > rss ? st.hiwater_rss : rss;
	status_kb(f, "VmPeak", peak);
	status_kb(f, "VmSize", st.total_vm);
	status_kb(f, "VmLck", st.locked_vm);
	status_kb(f, "VmPin", st.pinned_vm);
	status_kb(f, "VmHWM", hwm);
	status_kb(f, "VmRSS", rss);
	status_kb(f, "RssAnon", st.rss_anon);
	status_kb(f, "RssFile", st.rss_file);
	status_kb(f, "RssShmem", st.rss_shmem);
	status_kb(f, "VmData", st.data_vm);
	status_kb(f, "VmStk", st.stack_vm);
	/* VmExe/VmLib (approximation): the kernel splits exec_vm into the
	 * program's text (start_code..end_code) and the rest.  A trace starts
	 * after execve, the model never sees the program's segments, so every
	 * executable mapping it knows counts as a library: VmExe 0. */
	status_kb(f, "VmExe", 0);
	status_kb(f, "VmLib", st.exec_vm);
	/* VmPTE (approximation): see pte_pages() */
	status_kb(f, "VmPTE", pte_pages(c));
	status_kb(f, "VmSwap", st.swap_ents);
	status_kb(f, "HugetlbPages", st.hugetlb_pages);
}

/* ---------------------------------------------------------- meminfo */

static void mi_kb(FILE *f, const char *label, uint64_t pages)
{
	/* show_val_kb(): "Label:" padded to 16 columns, value in 8 */
	fprintf(f, "%-16s%8" PRIu64 " kB\n", label, pages * (VPAGE >> 10));
}

void view_meminfo(FILE *f, const struct view_ctx *c)
{
	struct vm_meminfo mi;
	vmsys_meminfo(c->sys, &mi);
	/* The kernel's subset the model keeps, in the kernel's order. */
	mi_kb(f, "MemTotal:", mi.total);
	mi_kb(f, "MemFree:", mi.free);
	mi_kb(f, "SwapCached:", (uint64_t)vmsys_vmstat(c->sys, NR_SWAPCACHE));
	mi_kb(f, "Active:", mi.active_anon + mi.active_file);
	mi_kb(f, "Inactive:", mi.inactive_anon + mi.inactive_file);
	mi_kb(f, "Active(anon):", mi.active_anon);
	mi_kb(f, "Inactive(anon):", mi.inactive_anon);
	mi_kb(f, "Active(file):", mi.active_file);
	mi_kb(f, "Inactive(file):", mi.inactive_file);
	mi_kb(f, "Unevictable:", mi.unevictable);
	mi_kb(f, "Mlocked:", mi.mlocked);
	mi_kb(f, "SwapTotal:", mi.swap_total);
	mi_kb(f, "SwapFree:", mi.swap_free);
	mi_kb(f, "Dirty:", mi.dirty);
	mi_kb(f, "Writeback:", (uint64_t)vmsys_vmstat(c->sys, NR_WRITEBACK)); /* vm_meminfo.writeback is never filled */
	mi_kb(f, "AnonPages:", mi.anon_pages);
	mi_kb(f, "AnonHugePages:", mi.anon_huge);
	mi_kb(f, "Mapped:", mi.mapped);
	mi_kb(f, "Shmem:", mi.shmem);
	mi_kb(f, "PageTables:", mi.page_tables);
	/* hugetlb_report_meminfo(): counts of the default size's pages */
	fprintf(f, "%-16s%8" PRIu64 "\n", "HugePages_Total:", mi.huge_total);
	fprintf(f, "%-16s%8" PRIu64 "\n", "HugePages_Free:", mi.huge_free);
	fprintf(f, "%-16s%8" PRIu64 "\n", "HugePages_Rsvd:", mi.huge_rsvd);
	fprintf(f, "%-16s%8d\n", "HugePages_Surp:", 0);
	mi_kb(f, "Hugepagesize:", HPAGE_SMALL_PAGES);
	mi_kb(f, "Hugetlb:", mi.huge_total * HPAGE_SMALL_PAGES);
}

/* ----------------------------------------------------------- vmstat */

void view_vmstat(FILE *f, const struct view_ctx *c)
{
	for (int i = 0; i < NR_VMSTAT_ITEMS; i++)
		fprintf(f, "%s %" PRId64 "\n", vmstat_name((enum vmstat_item)i),
			vmsys_vmstat(c->sys, i));
}

/* ------------------------------------------------------------ pages */

/* kpageflags names as tools/mm/page-types prints them */
static void page_flags(FILE *f, const struct vm_page_info *pi)
{
	const struct {
		bool on;
		const char *name;
	} fl[] = {
		{ pi->lru, "lru" },
		{ pi->active, "active" },
		{ pi->referenced, "referenced" },
		{ pi->unevictable, "unevictable" },
		{ pi->mlocked, "mlocked" },
		{ pi->dirty, "dirty" },
		{ pi->anon, "anonymous" },
		{ pi->swapbacked, "swapbacked" },
		{ pi->zero, "zero_page" },
		{ pi->swapcache, "swapcache" },
		{ pi->writeback, "writeback" },
	};
	bool any = false;
	for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
		if (!fl[i].on)
			continue;
		fprintf(f, "%s%s", any ? "," : "", fl[i].name);
		any = true;
	}
	if (!any)
		fputc('-', f);
}

void view_pages(FILE *f, const struct view_ctx *c)
{
	fputs("# each VMA (range, permissions, [VmFlags], path), then one line per present or\n"
	      "# swapped page of it\n"
	      "# pagemap: p present, s swapped, f file page or shared anon, x exclusively mapped\n"
	      "# map = mapcount, mlk = mlock_count, flags = kpageflags (page-types names)\n"
	      "#          vaddr        pfn  pagemap   map   mlk  flags\n",
	      f);
	if (!c->task)
		return;
	struct vm_vma_info vi;
	for (const struct vma *v = vmsys_vma_next(c->sys, c->task, NULL, &vi); v;
	     v = vmsys_vma_next(c->sys, c->task, v, &vi)) {
		char vmf[512];
		vmsys_vmflags_text(c->sys, vi.flags, vmf, sizeof(vmf));
		size_t l = strlen(vmf);
		if (l && vmf[l - 1] == ' ')
			vmf[l - 1] = 0;
		fprintf(f, "VMA %08" PRIx64 "-%08" PRIx64 " %c%c%c%c [%s]%s", vi.start, vi.end,
			(vi.flags & VM_READ) ? 'r' : '-', (vi.flags & VM_WRITE) ? 'w' : '-',
			(vi.flags & VM_EXEC) ? 'x' : '-', (vi.flags & VM_MAYSHARE) ? 's' : 'p', vmf,
			vi.path ? " " : "");
		if (vi.path)
			put_path(f, vi.path);
		fputc('\n', f);
		for (uint64_t a = vi.start; vmsys_next_page(c->sys, c->task, &a, vi.end); a += VPAGE) {
			struct vm_page_info pi;
			if (!vmsys_page(c->sys, c->task, a, &pi))
				continue;
			if (pi.swapped && !pi.present) {
				fprintf(f, "%16" PRIx64 " %10s  %c%c%c%c  %5s %5s  %s\n", a, "-", '-', 's',
					'-', '-', "-", "-", "-");
				continue;
			}
			char pfn[24];
			snprintf(pfn, sizeof(pfn), "%#" PRIx32, pi.pfn);
			fprintf(f, "%16" PRIx64 " %10s  %c%c%c%c  %5" PRIu32 " %5" PRIu32 "  ", a, pfn,
				pi.present ? 'p' : '-', pi.swapped ? 's' : '-', pi.file ? 'f' : '-',
				pi.exclusive ? 'x' : '-', pi.mapcount, pi.mlock_count);
			page_flags(f, &pi);
			fputc('\n', f);
		}
	}
}

/* -------------------------------------------------------------- lru */

/* the kernel's enum lru_list order (include/linux/mmzone.h) */
static const char *const lru_names[5] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

struct lru_print {
	FILE *f;
	unsigned long i;
};

static void lru_one(void *ctx, uint32_t pfn, const struct vm_page_info *pi)
{
	struct lru_print *lp = ctx;
	char p[24];
	snprintf(p, sizeof(p), "%#" PRIx32, pfn);
	fprintf(lp->f, "  %6lu %10s  %5" PRIu32 " %5" PRIu32 "  ", lp->i++, p, pi->mapcount,
		pi->mlock_count);
	page_flags(lp->f, pi);
	fputc('\n', lp->f);
}

void view_lru(FILE *f, const struct view_ctx *c)
{
	fputs("# the five LRU lists, each from head (most recently added) to tail (scanned next)\n"
	      "# taken after the per-CPU batches were drained; map = mapcount, mlk = mlock_count\n"
	      "#     pos        pfn    map   mlk  flags\n",
	      f);
	if (!vmsys_lru_linked(c->sys, 4))
		fputs("# the unevictable list is a count, not a list, on this kernel (lruvec_add_folio()\n"
		      "# links no unevictable folio, whose lru.prev holds its mlock_count): pfn order\n", f);
	for (int l = 0; l < 5; l++) {
		uint64_t n = vmsys_lru_size(c->sys, l);
		fprintf(f, "%s: %" PRIu64 " page%s\n", lru_names[l], n, n == 1 ? "" : "s");
		struct lru_print lp = { f, 0 };
		vmsys_lru_walk(c->sys, l, lru_one, &lp);
	}
}

/* ------------------------------------------------------------ numa */

void view_numa(FILE *f, const struct view_ctx *c)
{
	struct vmsys *s = c->sys;
	unsigned nn = vmsys_numa_nodes(s);
	fputs("# NUMA nodes (free frames), the balancing counters, and per process the node it\n"
	      "# runs on and the present pages of each VMA per node (N0= N1= ..., as numa_maps);\n"
	      "# protnone = PTEs the scan made PROT_NONE, waiting for a hinting fault; the scan\n"
	      "# clock counts jiffies of HZ 250 and moves only in numa_run() and numa_scan()\n",
	      f);
	for (unsigned n = 0; n < nn; n++)
		fprintf(f, "node %u: %" PRIu64 " frames free\n", n, vmsys_node_free(s, n));
	static const char *const names[] = { "numa_pte_updates", "numa_hint_faults",
		"numa_hint_faults_local", "numa_pages_migrated", "pgmigrate_success", "pgmigrate_fail" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int k = vmstat_find(names[i], (unsigned)strlen(names[i]));
		fprintf(f, "%s%s %" PRId64, i ? ", " : "", names[i], k < 0 ? 0 : vmsys_vmstat(s, k));
	}
	fputc('\n', f);
	uint64_t counts[64]; /* a machine has at most 64 nodes (vmsys_numa_nodes()) */
	for (struct task *t = vmsys_task_next(s, NULL); t; t = vmsys_task_next(s, t)) {
		if (!task_alive(t))
			continue;
		int pref;
		uint64_t migrated = 0;
		struct numa_clock ck;
		vmsys_numa_clock(s, t, &ck);
		fprintf(f, "pid %d: runs on node %u", task_pid(t), vmsys_task_node(t));
		if (numa_task_info(t, &pref, &migrated) && pref >= 0)
			fprintf(f, ", preferred node %d", pref);
		fprintf(f, ", %" PRIu64 " pages migrated; scan at %#" PRIx64 ", sequence %" PRIu64
			", period %" PRIu64 " ms, next scan at jiffy %" PRIu64 " (now %" PRIu64 ", %" PRIu64
			" ms of CPU time run)\n",
			migrated, ck.offset, ck.seq, ck.period_ms, ck.next_scan, ck.jiffies, ck.runtime_ms);
		struct vm_vma_info vi;
		for (const struct vma *v = vmsys_vma_next(s, t, NULL, &vi); v; v = vmsys_vma_next(s, t, v, &vi)) {
			uint64_t pn;
			vmsys_range_nodes(s, t, vi.start, vi.end, counts, nn, &pn);
			uint64_t any = pn;
			for (unsigned n = 0; n < nn; n++)
				any += counts[n];
			if (!any)
				continue;
			fprintf(f, "  [%#" PRIx64 ", %#" PRIx64 ")", vi.start, vi.end);
			for (unsigned n = 0; n < nn; n++)
				if (counts[n])
					fprintf(f, " N%u=%" PRIu64, n, counts[n]);
			if (pn)
				fprintf(f, " protnone=%" PRIu64, pn);
			fputc('\n', f);
		}
	}
}

/* ------------------------------------------------------------ any */

int view_print(FILE *f, enum view_kind v, const struct view_ctx *c)
{
	if (!view_is_global(v) && !c->task)
		return -1;
	switch (v) {
	case VIEW_MAPS: view_maps(f, c); break;
	case VIEW_SMAPS: view_smaps(f, c); break;
	case VIEW_STATUS: view_status(f, c); break;
	case VIEW_MEMINFO: view_meminfo(f, c); break;
	case VIEW_VMSTAT: view_vmstat(f, c); break;
	case VIEW_PAGES: view_pages(f, c); break;
	case VIEW_LRU: view_lru(f, c); break;
	case VIEW_NUMA: view_numa(f, c); break;
	default: return -1;
	}
	return 0;
}
