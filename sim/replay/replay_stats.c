/* replay_stats.c - `vmsim replay --stats` (see replay.h, section "replay_stats"). */
#include "replay.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "kerr.h"
#include "vmstat.h"

#define PRINT_PIDS 64 /* processes listed one by one; the rest only in the total */

struct pstat {
	int pid;
	bool used, exited;
	uint64_t events, calls, sigsegv, sig_lines, enomem, accesses;
	uint64_t minflt, majflt;       /* the task's min_flt/maj_flt, as getrusage() counts */
	uint64_t first_enomem_access;  /* accesses done before the first ENOMEM */
	unsigned long first_enomem_line;
	bool snap_pending;             /* take the state after the first ENOMEM's event */
	uint64_t enomem_map_count, enomem_vmlck_kb, enomem_sig_lines, enomem_faults;
	uint64_t map_count, peak_map_count, vmlck_kb, rss_kb;
};

struct rstats {
	struct pstat *p;
	size_t cap, n;
	uint64_t calls[SYS_NR];
	uint64_t pgpgin;               /* the machine's pgpgin (kB) after the last event */
	uint64_t read_before_access;   /* pages read in before the first touch or fault */
	bool accessed;
	uint64_t events;
	int order_pid[PRINT_PIDS];     /* the first processes, in order of appearance */
	size_t norder;
};

struct rstats *rstats_new(void)
{
	struct rstats *rs = vm_calloc(1, sizeof(*rs));
	if (rs && !(rs->p = vm_calloc(64, sizeof(*rs->p)))) {
		free(rs);
		return NULL;
	}
	if (rs)
		rs->cap = 64;
	return rs;
}

void rstats_free(struct rstats *rs)
{
	if (rs)
		free(rs->p);
	free(rs);
}

static size_t slot(size_t cap, int pid)
{
	return ((size_t)(unsigned)pid * 0x9e3779b9u) & (cap - 1);
}

/* pid's counts, created on first sight; NULL when out of memory */
static struct pstat *pst(struct rstats *rs, int pid)
{
	if ((rs->n + 1) * 2 > rs->cap) {
		size_t nc = rs->cap * 2;
		struct pstat *np = vm_calloc(nc, sizeof(*np));
		if (!np)
			return NULL;
		for (size_t i = 0; i < rs->cap; i++)
			if (rs->p[i].used) {
				size_t j = slot(nc, rs->p[i].pid);
				while (np[j].used)
					j = (j + 1) & (nc - 1);
				np[j] = rs->p[i];
			}
		free(rs->p);
		rs->p = np;
		rs->cap = nc;
	}
	size_t i = slot(rs->cap, pid);
	while (rs->p[i].used && rs->p[i].pid != pid)
		i = (i + 1) & (rs->cap - 1);
	if (!rs->p[i].used) {
		memset(&rs->p[i], 0, sizeof(rs->p[i]));
		rs->p[i].used = true;
		rs->p[i].pid = pid;
		rs->n++;
		if (rs->norder < PRINT_PIDS)
			rs->order_pid[rs->norder++] = pid;
	}
	return &rs->p[i];
}

static const struct pstat *pst_find(const struct rstats *rs, int pid)
{
	size_t i = slot(rs->cap, pid);
	while (rs->p[i].used && rs->p[i].pid != pid)
		i = (i + 1) & (rs->cap - 1);
	return rs->p[i].used ? &rs->p[i] : NULL;
}

void rstats_event(struct rstats *rs, struct vmsys *s, const struct event *ev, const struct outcome *out)
{
	struct pstat *p = pst(rs, ev->pid);
	rs->events++;
	uint64_t pgpgin_before = rs->pgpgin;
	rs->pgpgin = (uint64_t)vmsys_vmstat(s, PGPGIN);
	if (!p)
		return;
	p->events++;
	struct task *t = vmsys_task(s, ev->pid, false);
	bool alive = t && task_alive(t);
	struct vm_status st;
	if (alive) {
		vmsys_status(s, t, &st);
		p->minflt = st.min_flt;
		p->majflt = st.maj_flt;
	}
	if (ev->type == EV_CALL) {
		p->calls++;
		rs->calls[ev->sys]++;
		if (ev->sys == SYS_TOUCH || ev->sys == SYS_FAULT) {
			if (!rs->accessed) {
				rs->accessed = true;
				rs->read_before_access = pgpgin_before / 4; /* kB: 4 per page */
			}
			p->accesses++;
		}
		if (out->kind == OUT_ERROR && out->value == KERR_ENOMEM) {
			if (!p->enomem++) {
				p->first_enomem_access = p->accesses;
				p->first_enomem_line = ev->line;
				p->enomem_sig_lines = p->sig_lines;
				p->enomem_faults = p->minflt + p->majflt;
				p->snap_pending = true;
			}
		}
		if (out->kind == OUT_SIGNAL && out->value == VMF_SIGSEGV)
			p->sigsegv++;
	} else if (ev->type == EV_SIGNAL && ev->signo == 11) {
		p->sig_lines++;
	} else if (ev->type == EV_EXITED || ev->type == EV_KILLED) {
		p->exited = true;
	}
	if (alive) {
		p->map_count = vmsys_map_count(s, t);
		if (p->map_count > p->peak_map_count)
			p->peak_map_count = p->map_count;
		p->vmlck_kb = st.locked_vm * 4;
		p->rss_kb = (st.rss_anon + st.rss_file + st.rss_shmem) * 4;
		if (p->snap_pending) {
			/* where a program that gives up at its first ENOMEM stops */
			p->snap_pending = false;
			p->enomem_map_count = p->map_count;
			p->enomem_vmlck_kb = p->vmlck_kb;
		}
	}
}

void rstats_hits(struct rstats *rs, int pid, unsigned long n)
{
	struct pstat *p = pst(rs, pid);
	rs->events += n;
	if (!p || !n)
		return;
	p->events += n;
	p->calls += n;
	rs->calls[SYS_TOUCH] += n;
	if (!rs->accessed) {
		/* the first access a hit: pgpgin is what the last event left */
		rs->accessed = true;
		rs->read_before_access = rs->pgpgin / 4;
	}
	p->accesses += n;
}

static void sum(const struct rstats *rs, struct pstat *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < rs->cap; i++) {
		const struct pstat *p = &rs->p[i];
		if (!p->used)
			continue;
		t->events += p->events;
		t->calls += p->calls;
		t->minflt += p->minflt;
		t->majflt += p->majflt;
		t->sigsegv += p->sigsegv;
		t->sig_lines += p->sig_lines;
		t->enomem += p->enomem;
		t->accesses += p->accesses;
		t->map_count += p->exited ? 0 : p->map_count;
		if (p->peak_map_count > t->peak_map_count)
			t->peak_map_count = p->peak_map_count;
		t->vmlck_kb += p->exited ? 0 : p->vmlck_kb;
		t->rss_kb += p->exited ? 0 : p->rss_kb;
	}
}

static void json_pstat(FILE *f, const struct pstat *p, bool with_pid)
{
	fputc('{', f);
	fputs(with_pid ? "\"pid\": " : "\"processes\": ", f);
	fprintf(f, "%d", p->pid);
	json_kv_u64(f, "events", p->events);
	json_kv_u64(f, "calls", p->calls);
	json_kv_u64(f, "accesses", p->accesses);
	json_kv_u64(f, "minor_faults", p->minflt);
	json_kv_u64(f, "major_faults", p->majflt);
	json_kv_u64(f, "sigsegv", p->sigsegv);
	json_kv_u64(f, "sigsegv_lines", p->sig_lines);
	json_kv_u64(f, "enomem", p->enomem);
	if (p->enomem && with_pid) {
		json_kv_u64(f, "first_enomem_access", p->first_enomem_access);
		json_kv_u64(f, "first_enomem_line", p->first_enomem_line);
		json_kv_u64(f, "vmas_at_first_enomem", p->enomem_map_count);
		json_kv_u64(f, "VmLck_kB_at_first_enomem", p->enomem_vmlck_kb);
		json_kv_u64(f, "sigsegv_lines_at_first_enomem", p->enomem_sig_lines);
		json_kv_u64(f, "faults_at_first_enomem", p->enomem_faults);
	}
	json_kv_u64(f, "vmas", p->map_count);
	json_kv_u64(f, "peak_map_count", p->peak_map_count);
	json_kv_u64(f, "VmLck_kB", p->vmlck_kb);
	json_kv_u64(f, "RSS_kB", p->rss_kb);
	if (with_pid)
		json_kv_bool(f, "exited", p->exited);
	fputc('}', f);
}

static void text_pstat(FILE *f, const char *who, const struct pstat *p)
{
	fprintf(f, "  %s: %" PRIu64 " calls, %" PRIu64 " access%s (touch, fault); faults (rusage) %" PRIu64
		" minor, %" PRIu64 " major; SIGSEGV %" PRIu64 " (%" PRIu64 " in the trace); ENOMEM %" PRIu64, who,
		p->calls, p->accesses, p->accesses == 1 ? "" : "es", p->minflt, p->majflt, p->sigsegv,
		p->sig_lines, p->enomem);
	if (p->enomem && p->first_enomem_line)
		fprintf(f, " (the first after %" PRIu64 " accesses, line %lu: then %" PRIu64 " VMAs, VmLck %" PRIu64
			" kB)", p->first_enomem_access, p->first_enomem_line, p->enomem_map_count, p->enomem_vmlck_kb);
	fprintf(f, "; %sVMAs %" PRIu64 " (peak %" PRIu64 "), VmLck %" PRIu64 " kB, RSS %" PRIu64 " kB\n",
		p->exited ? "at exit " : "", p->map_count, p->peak_map_count, p->vmlck_kb, p->rss_kb);
}

void rstats_print(const struct rstats *rs, struct vmsys *s, struct trace_reader *r, const char *path,
		  double wall, bool json, FILE *f)
{
	struct pstat tot;
	sum(rs, &tot);
	struct vm_meminfo mi;
	vmsys_meminfo(s, &mi);
	const char *kernel = vmsys_semantics(s)->name;
	if (json) {
		json_begin(f, "stats");
		json_kv_str(f, "file", path);
		json_kv_str(f, "kernel", kernel);
		json_kv_u64(f, "events", rs->events);
		json_key(f, "wall_s");
		fprintf(f, "%.3f", wall);
		json_kv_u64(f, "pages_read_before_first_access", rs->read_before_access);
		json_kv_u64(f, "unevictable_pages", mi.unevictable);
		json_kv_u64(f, "page_cache_pages", mi.file_pages);
		json_kv_u64(f, "pgfault", (uint64_t)vmsys_vmstat(s, PGFAULT));
		json_kv_u64(f, "pgmajfault", (uint64_t)vmsys_vmstat(s, PGMAJFAULT));
		json_key(f, "processes");
		fputc('[', f);
		for (size_t i = 0; i < rs->norder; i++) {
			if (i)
				fputs(", ", f);
			json_pstat(f, pst_find(rs, rs->order_pid[i]), true);
		}
		fputc(']', f);
		json_kv_u64(f, "processes_total", rs->n);
		tot.pid = (int)rs->n;
		json_key(f, "total");
		json_pstat(f, &tot, false);
		json_key(f, "calls");
		fputc('{', f);
		bool first = true;
		for (int k = 1; k < SYS_NR; k++)
			if (rs->calls[k]) {
				fprintf(f, "%s", first ? "" : ", ");
				json_str(f, trace_sys_name((enum sysno)k));
				fprintf(f, ": %" PRIu64, rs->calls[k]);
				first = false;
			}
		fputc('}', f);
		json_key(f, "not_modelled");
		fputc('{', f);
		for (size_t i = 0; i < trace_unknown_count(r); i++) {
			unsigned long c;
			const char *n = trace_unknown_name(r, i, &c);
			fprintf(f, "%s", i ? ", " : "");
			json_str(f, n);
			fprintf(f, ": %lu", c);
		}
		fputc('}', f);
		json_end(f);
		return;
	}
	fprintf(f, "%s: stats (kernel %s): %" PRIu64 " events in %.3f s wall; %" PRIu64
		" pages read before the first access; at the end %" PRIu64 " unevictable pages, %" PRIu64
		" in the page cache; vmstat pgfault %" PRId64 ", pgmajfault %" PRId64 "\n",
		path, kernel, rs->events, wall, rs->read_before_access, mi.unevictable, mi.file_pages,
		vmsys_vmstat(s, PGFAULT), vmsys_vmstat(s, PGMAJFAULT));
	char who[32];
	for (size_t i = 0; i < rs->norder; i++) {
		const struct pstat *p = pst_find(rs, rs->order_pid[i]);
		snprintf(who, sizeof(who), "pid %d", p->pid);
		text_pstat(f, who, p);
	}
	if (rs->n > rs->norder)
		fprintf(f, "  (%zu more processes, in the total)\n", rs->n - rs->norder);
	snprintf(who, sizeof(who), "total, %zu process%s", rs->n, rs->n == 1 ? "" : "es");
	text_pstat(f, who, &tot);
	fprintf(f, "  calls:");
	for (int k = 1; k < SYS_NR; k++)
		if (rs->calls[k])
			fprintf(f, " %s %" PRIu64, trace_sys_name((enum sysno)k), rs->calls[k]);
	for (size_t i = 0; i < trace_unknown_count(r); i++) {
		unsigned long c;
		const char *n = trace_unknown_name(r, i, &c);
		fprintf(f, "%s %s %lu", i ? "," : "; not modelled:", n, c);
	}
	fputc('\n', f);
}
