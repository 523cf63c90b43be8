/* session.c - a trace and the model built from its header.  See session.h. */
#include "session.h"

#include <stdio.h>
#include <string.h>

#include "flagtab.h"
#include "semantics.h"

void session_kernel_list(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned i = 0; semantics_all[i]; i++)
		n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%s",
				      i ? " " : "", semantics_all[i]->name);
}

const struct semantics *semantics_find_checked(const char *name)
{
	const struct semantics *sem = semantics_find(name);
	if (!sem) {
		char list[128];
		session_kernel_list(list, sizeof(list));
		fprintf(stderr, "vmsim: unknown kernel '%s' (known: %s)\n", name, list);
	}
	return sem;
}

struct vmsys *session_model(const struct trace_header *h, const char *kernel, const char *arch,
			    const struct semantics **semp, char *err, size_t errlen)
{
	const char *kname = kernel ? kernel : (h->has_kernel ? h->kernel : "6.18");
	const struct semantics *sem = semantics_find(kname);
	if (!sem) {
		char list[128];
		session_kernel_list(list, sizeof(list));
		snprintf(err, errlen, "unknown kernel '%s' (known: %s)", kname, list);
		return NULL;
	}
	const char *aname = arch ? arch : (h->has_arch ? h->arch : "x86_64");
	if (!flagtab_arch_family(aname)) {
		snprintf(err, errlen, "unknown arch '%s'", aname);
		return NULL;
	}
	struct vmsys_config c;
	vmsys_config_default(&c, sem);
	c.arch = aname;
	if (h->has_page_size)
		c.page_size = h->page_size;
	if (h->has_ram)
		c.ram = h->ram;
	if (h->has_swap)
		c.swap = h->swap;
	if (h->has_rlimit_memlock)
		c.rlimit_memlock = h->rlimit_memlock;
	if (h->has_cap_ipc_lock)
		c.cap_ipc_lock = h->cap_ipc_lock;
	if (h->has_max_map_count)
		c.max_map_count = h->max_map_count;
	if (h->has_zero_page)
		c.zero_page = h->zero_page;
	if (h->has_read_ahead_kb)
		c.read_ahead_kb = h->read_ahead_kb;
	*semp = sem;
	return vmsys_new(&c, err, errlen);
}

int session_open(struct session *ss, const char *path, const struct session_opts *o, char *err,
		 size_t errlen)
{
	memset(ss, 0, sizeof(*ss));
	ss->path = path;
	/*
	 * Symbolic flag names are the recording kernel's: they are decoded
	 * with the header's `kernel:` tables even when --kernel picks another
	 * model, which then interprets the numbers with its own tables (a
	 * 6.18 trace's MADV_FREE is advice 8, which 4.4 does not know).
	 * Without a `kernel:` header the --kernel tables decode the names.
	 */
	ss->reader = trace_open(path, o->arch, NULL, err, errlen);
	if (!ss->reader)
		return -1;
	/* read ahead one event so the header is complete */
	int r = trace_read(ss->reader, &ss->ev);
	if (o->kernel && !trace_header(ss->reader)->has_kernel && strcmp(path, "-")) {
		trace_close(ss->reader);
		/* a semantics named exactly (a test-only or patch one) reads flags
	 * with its own flag tables */
	const struct semantics *ks = o->kernel ? semantics_find(o->kernel) : NULL;
	const char *fk = (ks && !strcmp(ks->name, o->kernel)) ? ks->flag_kernel : o->kernel;
	ss->reader = trace_open(path, o->arch, fk, err, errlen);
		if (!ss->reader)
			return -1;
		r = trace_read(ss->reader, &ss->ev);
	}
	if (r < 0) {
		snprintf(err, errlen, "%s", trace_error(ss->reader));
		trace_close(ss->reader);
		ss->reader = NULL;
		return -1;
	}
	ss->have_event = r > 0;
	const struct trace_header *h = trace_header(ss->reader);
	char merr[256];
	ss->sys = session_model(h, o->kernel, o->arch, &ss->sem, merr, sizeof(merr));
	if (!ss->sys) {
		snprintf(err, errlen, "%s: error: %s", path, merr);
		trace_close(ss->reader);
		ss->reader = NULL;
		return -1;
	}
	snprintf(ss->arch, sizeof(ss->arch), "%s", o->arch ? o->arch : (h->has_arch ? h->arch : "x86_64"));
	return 0;
}

int session_next(struct session *ss, struct event **ev)
{
	*ev = &ss->ev;
	if (ss->have_event) {
		ss->have_event = false;
		return 1;
	}
	return trace_read(ss->reader, &ss->ev);
}

void session_close(struct session *ss)
{
	if (ss->reader)
		trace_close(ss->reader);
	vmsys_free(ss->sys);
	memset(ss, 0, sizeof(*ss));
}
