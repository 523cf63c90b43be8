/* libvmsim.c - the library interface (include/vmsim.h) over the model and
 * the trace reader.  One reader per line given: a line is one event. */
#include "vmsim.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "replay.h"
#include "semantics.h"
#include "trace.h"
#include "vmstat.h"
#include "vmsys.h"

struct vmsim {
	struct vmsys *sys;
	const struct semantics *sem;
	char arch[32], kernel[32];
	unsigned long lines;
	void (*on_event)(void *ctx, const char *event);
	void *ctx;
	bool borrowed;         /* a trace's machine: its session frees sys */
};

struct vmsim_trace {
	struct session ss;
	struct vmsim m;
};

const char *vmsim_version(void)
{
	return VMSIM_VERSION;
}

struct vmsim *vmsim_new(const struct vmsim_config *c, char *err, size_t errlen)
{
	struct vmsim *m = vm_calloc(1, sizeof(*m));
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(m->kernel, sizeof(m->kernel), "%s", c && c->kernel ? c->kernel : "6.18");
	snprintf(m->arch, sizeof(m->arch), "%s", c && c->arch ? c->arch : "x86_64");
	m->sem = semantics_find(m->kernel);
	if (!m->sem) {
		snprintf(err, errlen, "unknown kernel '%s'", m->kernel);
		free(m);
		return NULL;
	}
	struct vmsys_config vc;
	vmsys_config_default(&vc, m->sem);
	vc.arch = m->arch;
	if (c && c->rlimit_memlock)
		vc.rlimit_memlock = c->rlimit_memlock;
	if (c)
		vc.cap_ipc_lock = c->cap_ipc_lock;
	if (c && c->ram)
		vc.ram = c->ram;
	m->sys = vmsys_new(&vc, err, errlen);
	if (!m->sys) {
		free(m);
		return NULL;
	}
	return m;
}

void vmsim_free(struct vmsim *m)
{
	if (!m || m->borrowed)
		return;
	vmsys_free(m->sys);
	free(m);
}

int vmsim_apply(struct vmsim *m, const char *line, struct vmsim_result *res, char *err,
		size_t errlen)
{
	memset(res, 0, sizeof(*res));
	res->agrees = true;
	m->lines++;
	size_t n = strlen(line);
	char *text = vm_malloc(n + 2);
	if (!text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(text, line, n);
	text[n] = '\n';
	text[n + 1] = 0;
	FILE *f = fmemopen(text, n + 1, "r");
	char name[32];
	snprintf(name, sizeof(name), "line %lu", m->lines);
	struct trace_reader *r = f ? trace_open_stream(f, name, m->arch, m->kernel, err, errlen) : NULL;
	int rc = 0;
	struct event ev;
	int k = r ? trace_read(r, &ev) : -1;
	if (k < 0) {
		if (r)
			snprintf(err, errlen, "%s", trace_error(r));
		else if (!f)
			snprintf(err, errlen, "out of memory");
		rc = -1;
	} else if (k > 0 && !(ev.type == EV_CALL && ev.sys == SYS_UNKNOWN)) {
		struct outcome out;
		if (apply_event(m->sys, &ev, &out, err, errlen)) {
			rc = -1;
		} else {
			res->applied = true;
			res->value = out.kind == OUT_ERROR ? -out.value : out.value;
			if (ev.type == EV_EXPECT) {
				unsigned checked = 0;
				res->agrees = expect_check(m->sys, &ev, res->text, sizeof(res->text), &checked) == 0;
			} else {
				res->agrees = outcome_matches(&ev, &out, res->text, sizeof(res->text));
			}
			for (unsigned i = 0; m->on_event && i < vmsys_nevents(m->sys); i++)
				m->on_event(m->ctx, vmsys_event(m->sys, i));
		}
	}
	if (r)
		trace_close(r);
	if (f)
		fclose(f);
	free(text);
	return rc;
}

int vmsim_view(struct vmsim *m, const char *view, int pid, FILE *out)
{
	int v = view_find(view);
	if (v < 0)
		return -1;
	struct view_ctx c = { m->sys, NULL, m->arch, m->sem->name };
	if (!view_is_global((enum view_kind)v)) {
		c.task = vmsys_task(m->sys, pid, false);
		if (!c.task)
			return -1;
	}
	if (view_drains((enum view_kind)v))
		vm_drain_all(m->sys);
	return view_print(out, (enum view_kind)v, &c);
}

int64_t vmsim_counter(const struct vmsim *m, const char *name)
{
	int item = vmstat_find(name, (unsigned)strlen(name));
	return item < 0 ? -1 : vmsys_vmstat(m->sys, item);
}

uint64_t vmsim_locked_pages(struct vmsim *m, int pid)
{
	struct task *t = vmsys_task(m->sys, pid, false);
	if (!t)
		return UINT64_MAX;
	struct vm_status st;
	vmsys_status(m->sys, t, &st);
	return st.locked_vm;
}

void vmsim_on_event(struct vmsim *m, void (*fn)(void *ctx, const char *event), void *ctx)
{
	m->on_event = fn;
	m->ctx = ctx;
}

/* ---- traces ------------------------------------------------------------- */

struct vmsim_trace *vmsim_trace_open(const char *path, const struct vmsim_config *c, char *err,
				     size_t errlen)
{
	struct vmsim_trace *t = vm_calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	struct session_opts o = SESSION_OPTS_INIT;
	if (c) {
		o.kernel = c->kernel;
		o.arch = c->arch;
		o.cap_ipc_lock = c->cap_ipc_lock ? 1 : -1;
		if (c->rlimit_memlock) {
			o.has_rlimit_memlock = true;
			o.rlimit_memlock = c->rlimit_memlock;
		}
	}
	if (session_open(&t->ss, path, &o, err, errlen)) {
		free(t);
		return NULL;
	}
	t->m.sys = t->ss.sys;
	t->m.sem = t->ss.sem;
	t->m.borrowed = true;
	snprintf(t->m.arch, sizeof(t->m.arch), "%s", t->ss.arch);
	snprintf(t->m.kernel, sizeof(t->m.kernel), "%s", t->ss.sem->name);
	return t;
}

void vmsim_trace_close(struct vmsim_trace *t)
{
	if (!t)
		return;
	session_close(&t->ss);
	free(t);
}

struct vmsim *vmsim_trace_machine(struct vmsim_trace *t)
{
	return &t->m;
}

int vmsim_trace_next(struct vmsim_trace *t, struct vmsim_event *ev, char *err, size_t errlen)
{
	memset(ev, 0, sizeof(*ev));
	struct event *e;
	int k = session_next(&t->ss, &e);
	if (k < 0) {
		snprintf(err, errlen, "%s", trace_error(t->ss.reader));
		return -1;
	}
	if (k == 0)
		return 0;
	ev->line = e->line;
	ev->pid = e->pid;
	size_t n = trace_format_event(e, t->ss.arch, trace_flag_names(t->ss.reader), ev->text,
				      sizeof(ev->text));
	if (n >= sizeof(ev->text))
		strcpy(ev->text + sizeof(ev->text) - 4, "...");
	ev->result.agrees = true;
	if (e->type == EV_CALL && e->sys == SYS_UNKNOWN)
		return 1; /* read and skipped, as replay does */
	struct outcome out;
	if (session_apply(&t->ss, e, &out, err, errlen))
		return -1;
	ev->result.applied = true;
	ev->result.value = out.kind == OUT_ERROR ? -out.value : out.value;
	if (e->type == EV_EXPECT) {
		unsigned checked = 0;
		ev->result.agrees = expect_check(t->ss.sys, e, ev->result.text, sizeof(ev->result.text),
						 &checked) == 0;
	} else {
		ev->result.agrees = outcome_matches(e, &out, ev->result.text, sizeof(ev->result.text));
	}
	if (ev->pid == 0)
		ev->pid = out.pid;
	for (unsigned i = 0; t->m.on_event && i < vmsys_nevents(t->ss.sys); i++)
		t->m.on_event(t->m.ctx, vmsys_event(t->ss.sys, i));
	return 1;
}

/* ---- state -------------------------------------------------------------- */

long vmsim_vmas(struct vmsim *m, int pid, struct vmsim_vma *out, size_t max)
{
	struct task *t = vmsys_task(m->sys, pid, false);
	if (!t)
		return -1;
	long n = 0;
	struct vm_vma_info vi;
	for (const struct vma *v = vmsys_vma_next(m->sys, t, NULL, &vi); v;
	     v = vmsys_vma_next(m->sys, t, v, &vi), n++) {
		if ((size_t)n >= max)
			continue;
		struct vmsim_vma *o = &out[n];
		memset(o, 0, sizeof(*o));
		o->start = vi.start;
		o->end = vi.end;
		o->pgoff = vi.pgoff;
		o->flags = vmsys_vmflags_kernel(m->sys, vi.flags);
		vmsys_vmflags_text(m->sys, vi.flags, o->vmflags, sizeof(o->vmflags));
		size_t l = strlen(o->vmflags);
		if (l && o->vmflags[l - 1] == ' ')
			o->vmflags[l - 1] = 0;
		snprintf(o->path, sizeof(o->path), "%s", vi.path ? vi.path : "");
		o->rss = vi.rss;
		o->locked = vi.locked;
	}
	return n;
}

int vmsim_page(struct vmsim *m, int pid, uint64_t addr, struct vmsim_page *out)
{
	memset(out, 0, sizeof(*out));
	struct task *t = vmsys_task(m->sys, pid, false);
	if (!t)
		return -1;
	vm_drain_all(m->sys);
	struct vm_page_info pi;
	if (!vmsys_page(m->sys, t, addr, &pi))
		return 0;
	out->present = pi.present;
	out->swapped = pi.swapped;
	out->anon = pi.anon;
	out->zero = pi.zero;
	out->dirty = pi.dirty;
	out->lru = pi.lru;
	out->active = pi.active;
	out->unevictable = pi.unevictable;
	out->mlocked = pi.mlocked;
	out->pfn = pi.pfn;
	out->mapcount = pi.mapcount;
	return 0;
}

const char *vmsim_counter_name(size_t i)
{
	return i < NR_VMSTAT_ITEMS ? vmstat_name((enum vmstat_item)i) : NULL;
}

/* ---- diff --------------------------------------------------------------- */

struct diff_sink {
	void (*fn)(void *ctx, const struct vmsim_difference *d);
	void *ctx;
};

/* each differing event handed on as it is found (diff_opts.each) */
static void diff_each(void *ctx, const struct diff_result *r, const struct diff_event *de)
{
	const struct diff_sink *k = ctx;
	for (size_t i = de->first; k->fn && i < de->first + de->n; i++) {
		const struct diff_item *it = &r->items[i];
		struct vmsim_difference d = { it->line, de->text, it->what, it->pid, it->a, it->b, it->ended };
		k->fn(k->ctx, &d);
	}
}

int vmsim_diff(const char *path, const char *kernel_a, const char *kernel_b, bool all,
	       void (*fn)(void *ctx, const struct vmsim_difference *d), void *ctx, char *err,
	       size_t errlen)
{
	struct diff_sink k = { fn, ctx };
	struct diff_opts o = { 0 };
	o.kernel_a = kernel_a;
	o.kernel_b = kernel_b;
	o.all = all;
	o.each = diff_each;
	o.each_ctx = &k;
	struct diff_result r;
	int rc = diff_trace(path, &o, &r);
	if (rc == 2) {
		snprintf(err, errlen, "%s", r.err);
		diff_result_free(&r);
		return -1;
	}
	diff_result_free(&r);
	return rc;
}
