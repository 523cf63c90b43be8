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
	if (!m)
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
