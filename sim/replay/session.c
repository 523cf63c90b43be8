/* session.c - a trace and the model built from its header.  See replay.h, section "session". */
#include "replay.h"
#include "inherit.h"

#include <getopt.h>
#include <stdarg.h>
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

int session_kernel_pair(const char *cmd, const char *arg, const char *k[2])
{
	if (!semantics_find_checked(arg))
		return 2;
	if (k[0] && k[1]) {
		fprintf(stderr, "vmsim %s: at most two --kernel\n", cmd);
		return 2;
	}
	k[k[0] ? 1 : 0] = arg;
	return 0;
}

int session_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "vmsim %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	/* the synopsis: the usage text up to its first blank line */
	const char *end = strstr(usage, "\n\n");
	int n = end ? (int)(end - usage) : (int)strcspn(usage, "\n");
	fprintf(stderr, "\n%.*s\nTry 'vmsim %s --help' for more information.\n", n, usage, cmd);
	return 2;
}

int session_opt_error(const char *cmd, int c, char **argv, const char *usage)
{
	if (c == ':')
		return session_usage_error(cmd, usage, "%s needs a value", argv[optind - 1]);
	return session_usage_error(cmd, usage, "unknown option '%s'", argv[optind - 1]);
}

int session_getopt(struct session_opts *o, int argc, char **argv, const char *shortopts,
		   const struct option *longopts, const char *cmd, const char *usage,
		   const char *kernel_pair[2])
{
	opterr = 0;
	for (;;) {
		int c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c == -1)
			return -1;
		if (c == 'k' && kernel_pair) {
			if (session_kernel_pair(cmd, optarg, kernel_pair))
				return SESSION_GETOPT_BAD;
			continue;
		}
		int r = session_opt(o, c, optarg, cmd);
		if (r < 0)
			return SESSION_GETOPT_BAD;
		if (r > 0)
			continue;
		if (c == 'h') {
			fputs(usage, stdout);
			return SESSION_GETOPT_HELP;
		}
		if (c == '?' || c == ':') {
			session_opt_error(cmd, c, argv, usage);
			return SESSION_GETOPT_BAD;
		}
		return c;
	}
}

int session_opt(struct session_opts *o, int code, const char *arg, const char *cmd)
{
	switch (code) {
	case 'k':
		if (!semantics_find_checked(arg))
			return -1;
		o->kernel = arg;
		return 1;
	case 0x100:
		if (!flagtab_arch_family(arg)) {
			fprintf(stderr, "vmsim %s: unknown arch '%s'\n", cmd, arg);
			return -1;
		}
		o->arch = arg;
		return 1;
	case 0x101:
	case 0x105: {
		int *dst = code == 0x101 ? &o->cap_ipc_lock : &o->cap_sys_resource;
		if (!strcmp(arg, "yes") || !strcmp(arg, "1") || !strcmp(arg, "true")) {
			*dst = 1;
		} else if (!strcmp(arg, "no") || !strcmp(arg, "0") || !strcmp(arg, "false")) {
			*dst = 0;
		} else {
			fprintf(stderr, "vmsim %s: %s takes yes or no, not '%s'\n", cmd,
				code == 0x101 ? "--cap-ipc-lock" : "--cap-sys-resource", arg);
			return -1;
		}
		return 1;
	}
	case 0x102:
		if (!strcmp(arg, "unlimited") || !strcmp(arg, "infinity")) {
			o->rlimit_memlock = RLIM_INFINITY_VALUE;
		} else if (!trace_parse_size(arg, &o->rlimit_memlock)) {
			fprintf(stderr, "vmsim %s: --rlimit-memlock takes a size (65536, 64K, 8M) or "
					"unlimited, not '%s'\n", cmd, arg);
			return -1;
		}
		o->has_rlimit_memlock = true;
		return 1;
	case 0x103:
		if (!trace_parse_size(arg, &o->max_map_count) || o->max_map_count > INT32_MAX) {
			fprintf(stderr, "vmsim %s: --max-map-count takes a number up to 2147483647, not '%s'\n",
				cmd, arg);
			return -1;
		}
		o->has_max_map_count = true;
		return 1;
	case 0x104:
		o->maps = arg;
		return 1;
	case 0x107:
		if (!strcmp(arg, "never")) {
			o->thp = 0;
		} else if (!strcmp(arg, "madvise")) {
			o->thp = 1;
		} else if (!strcmp(arg, "always")) {
			o->thp = 2;
		} else {
			fprintf(stderr, "vmsim %s: --thp takes always, madvise or never, not '%s'\n", cmd, arg);
			return -1;
		}
		return 1;
	case 0x106:
		if (!trace_parse_size(arg, &o->hugetlb_pages) || o->hugetlb_pages > (1ULL << 24)) {
			fprintf(stderr, "vmsim %s: --hugetlb-pages takes a number up to 16777216, not '%s'\n",
				cmd, arg);
			return -1;
		}
		o->has_hugetlb_pages = true;
		return 1;
	}
	return 0;
}

/* One path of a mount or cwd header from p up to a ',' or the end, with
 * mountinfo's octal escapes (\040 a space) undone, into path (cap bytes):
 * its length; *end is where it stopped */
static size_t header_path(const char *p, char *path, size_t cap, const char **end)
{
	size_t n = 0;
	for (; *p && *p != ','; p++) {
		char c = *p;
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' && p[3] >= '0' &&
		    p[3] <= '7') {
			c = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 3;
		}
		if (n < cap)
			path[n++] = c;
	}
	*end = p;
	return n;
}

/* `# ramfs:` and `# tmpfs:`: mount points separated by commas */
static int header_mounts(struct vmsys *s, const char *list, const char *fstype)
{
	char path[sizeof(((struct trace_header *)0)->tmpfs)];
	for (const char *p = list;; p++) {
		size_t n = header_path(p, path, sizeof(path), &p);
		if (n && vmsys_mount(s, path, n, fstype))
			return -1;
		if (!*p)
			return 0;
	}
}

/* `# cwd:`: one path */
static int header_cwd(struct vmsys *s, const char *text)
{
	char path[sizeof(((struct trace_header *)0)->cwd)];
	const char *end;
	return vmsys_cwd(s, path, header_path(text, path, sizeof(path), &end));
}

struct vmsys *session_model(const struct trace_header *h, const char *kernel,
			    const struct session_opts *o, const struct semantics **semp, char *err,
			    size_t errlen)
{
	const char *arch = o ? o->arch : NULL;
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
	if (h->has_cap_sys_resource)
		c.cap_sys_resource = h->cap_sys_resource;
	else if (h->recorded_as_root)
		c.cap_sys_resource = 1; /* root keeps CAP_SYS_RESOURCE (docs/trace-format.md) */
	if (h->has_cap_bounding)
		c.cap_bounding = h->cap_bounding;
	if (h->has_max_map_count)
		c.max_map_count = h->max_map_count;
	c.creds_unknown = !h->has_version;
	c.touches_unrecorded = h->has_faults && !h->faults; /* a plain log says nothing of its uid */
	if (h->has_uid)
		c.uid = (int64_t)h->uid;
	else if (h->recorded_as_root)
		c.uid = 0;
	if (h->has_zero_page)
		c.zero_page = h->zero_page;
	if (h->has_soft_dirty)
		c.soft_dirty = h->soft_dirty;
	if (h->has_read_ahead_kb)
		c.read_ahead_kb = h->read_ahead_kb;
	if (h->has_hugetlb_pages)
		c.hugetlb_pages = h->hugetlb_pages;
	if (h->has_thp)
		c.thp = h->thp;
	if (h->has_user_locked_vm)
		c.user_locked_vm = h->user_locked_vm;
	if (h->has_numa_nodes)
		c.numa_nodes = (unsigned)h->numa_nodes;
	/* the command line overrides the header (the trace contract) */
	if (o && o->cap_ipc_lock >= 0)
		c.cap_ipc_lock = o->cap_ipc_lock;
	if (o && o->cap_sys_resource >= 0)
		c.cap_sys_resource = o->cap_sys_resource;
	if (o && o->has_rlimit_memlock)
		c.rlimit_memlock = o->rlimit_memlock;
	if (o && o->has_max_map_count)
		c.max_map_count = o->max_map_count;
	if (o && o->has_hugetlb_pages)
		c.hugetlb_pages = o->hugetlb_pages;
	if (o && o->thp >= 0)
		c.thp = o->thp;
	*semp = sem;
	struct vmsys *s = vmsys_new(&c, err, errlen);
	if (s && ((h->has_ramfs && header_mounts(s, h->ramfs, "ramfs")) ||
		  (h->has_tmpfs && header_mounts(s, h->tmpfs, "tmpfs")) ||
		  (h->has_cwd && header_cwd(s, h->cwd)))) {
		vmsys_free(s);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return s;
}

/* the flag tables that decode names when the trace has no `kernel:`
 * header: --kernel's (a semantics named exactly, a test-only or patch one,
 * reads flags with its own tables) */
static const char *flag_kernel_of(const char *kernel)
{
	const struct semantics *ks = kernel ? semantics_find(kernel) : NULL;
	return (ks && !strcmp(ks->name, kernel)) ? ks->flag_kernel : kernel;
}

static int session_finish(struct session *ss, int r, const struct session_opts *o, char *err,
			  size_t errlen);

int session_open_paths(struct session *ss, const char *const *paths, size_t n,
		       const struct session_opts *o, char *err, size_t errlen)
{
	if (n == 1)
		return session_open(ss, paths[0], o, err, errlen);
	memset(ss, 0, sizeof(*ss));
	ss->reader = trace_open_merged(paths, n, o->arch, flag_kernel_of(o->kernel), err, errlen);
	if (!ss->reader)
		return -1;
	ss->path = trace_name(ss->reader);
	return session_finish(ss, trace_read(ss->reader, &ss->ev), o, err, errlen);
}

int session_open(struct session *ss, const char *path, const struct session_opts *o, char *err,
		 size_t errlen)
{
	memset(ss, 0, sizeof(*ss));
	const char *name = o->name ? o->name : path;
	ss->path = name;
	/*
	 * Symbolic flag names are the recording kernel's: they are decoded
	 * with the header's `kernel:` tables even when --kernel picks another
	 * model, which then interprets the numbers with its own tables (a
	 * 6.18 trace's MADV_FREE is advice 8, which 4.4 does not know).
	 * Without a `kernel:` header the --kernel tables decode the names.
	 */
	ss->reader = trace_open_as(path, name, o->arch, NULL, err, errlen);
	if (!ss->reader)
		return -1;
	/* read ahead one event so the header is complete */
	int r = trace_read(ss->reader, &ss->ev);
	if (o->kernel && !trace_header(ss->reader)->has_kernel && strcmp(path, "-")) {
		trace_close(ss->reader);
		ss->reader = trace_open_as(path, name, o->arch, flag_kernel_of(o->kernel), err, errlen);
		if (!ss->reader)
			return -1;
		r = trace_read(ss->reader, &ss->ev);
	}
	return session_finish(ss, r, o, err, errlen);
}

static int session_finish(struct session *ss, int r, const struct session_opts *o, char *err,
			  size_t errlen)
{
	const char *path = ss->path;
	if (r < 0) {
		snprintf(err, errlen, "%s", trace_error(ss->reader));
		trace_close(ss->reader);
		ss->reader = NULL;
		return -1;
	}
	ss->have_event = r > 0;
	const struct trace_header *h = trace_header(ss->reader);
	char merr[256];
	ss->sys = session_model(h, o->kernel, o, &ss->sem, merr, sizeof(merr));
	if (!ss->sys) {
		snprintf(err, errlen, "%s: error: %s", path, merr);
		trace_close(ss->reader);
		ss->reader = NULL;
		return -1;
	}
	snprintf(ss->arch, sizeof(ss->arch), "%s", o->arch ? o->arch : (h->has_arch ? h->arch : "x86_64"));
	inherit_init(&ss->inh, h, o->maps);
	/* a version vmsim has no semantics of (from --kernel or the header)
	 * runs on the newest not newer one, and says so */
	size_t nl = strlen(ss->sem->name);
	const char *asked = o->kernel ? o->kernel : (h->has_kernel ? h->kernel : NULL);
	if (asked && !(strncmp(asked, ss->sem->name, nl) == 0 &&
		       (!asked[nl] || strchr(".-+", asked[nl]))))
		snprintf(ss->note, sizeof(ss->note),
			 "kernel %s is replayed with the %s model (the newest not newer; "
			 "what changed since is not modelled)", asked, ss->sem->name);
	return 0;
}

int session_apply(struct session *ss, const struct event *ev, struct outcome *out, char *err,
		  size_t errlen)
{
	/* another CPU drained the batches after an earlier event (timing.c):
	 * the hits since then touched no batch, so it is done here */
	while (ss->next_drain < ss->ndrains && ss->drains[ss->next_drain] < ss->consumed) {
		vm_drain_all(ss->sys);
		ss->next_drain++;
	}
	if (inherit_before(&ss->inh, ss->sys, ev, err, errlen) < 0)
		return -1;
	/* a stream of touches: while this one runs, the next one's page-table
	 * entry is on its way to the cache (a miss a random stream takes on
	 * nearly every event) */
	uint64_t next;
	if (ev->type == EV_CALL && (ev->sys == SYS_TOUCH || ev->sys == SYS_FAULT) &&
	    ss->hot_i == ss->hot_n && /* else the hot loop prefetched what follows */
	    trace_peek_addr(ss->reader, &next))
		vmsys_prefetch(ss->sys, ev->pid, next);
	if (apply_event(ss->sys, ev, out, err, errlen) < 0)
		return -1;
	return inherit_after(&ss->inh, ss->sys, ev, err, errlen);
}

int session_next(struct session *ss, struct event **ev)
{
	*ev = &ss->ev;
	if (ss->have_event) {
		ss->have_event = false;
		ss->consumed++;
		return 1;
	}
	int r = trace_read(ss->reader, &ss->ev);
	ss->consumed += r > 0;
	return r;
}

void session_unread(struct session *ss)
{
	ss->have_event = true;
	ss->consumed--;
}

/* the reader's hit keys are the model's (trace.h, vmsys.h) */
_Static_assert(ACCESS_NOT_HIT == VM_NOT_HIT && VM_PAGE_SHIFT == 12,
	       "access_hit_key() makes the keys of VM_HIT_KEY()");

int session_next_hot(struct session *ss, struct event **ev, unsigned long *hits,
		     unsigned long *checks, int *hit_pid)
{
	unsigned long hits0 = *hits;
	for (;;) {
		if (ss->hot_i == ss->hot_n) {
			ss->hot_i = ss->hot_n = 0;
			/* the read-ahead event, and --maps before the first access */
			if (ss->have_event || (ss->inh.maps_path && !ss->inh.maps_applied))
				return session_next(ss, ev);
			ss->hot_n = trace_read_accesses(ss->reader, ss->hot, SESSION_HOT_BATCH);
			if (!ss->hot_n)
				return session_next(ss, ev);
		}
		const struct access_rec *a = ss->hot;
		size_t i = ss->hot_i, n = ss->hot_n;
		/* the hits of one call are one process's: another's access ends
		 * the run (it goes the full way, the next call goes on) */
		int pid = *hits != hits0 ? *hit_pid : a[i].pid;
		struct task *t = vmsys_task(ss->sys, pid, false);
		if (t && task_alive(t)) {
			/* the batch is one process's (trace_read_accesses()); its
			 * keys say which accesses to try as hits */
			size_t h = 0;
			if (ss->hit_skip) {
				ss->hit_skip--;
			} else if (a[i].pid == pid) {
				h = vm_touch_hits(ss->sys, t, &a[i].hit_key, sizeof(*a), n - i);
				if (h)
					ss->miss_run = 0;
				else if (++ss->miss_run >= 4)
					ss->hit_skip = ss->miss_run < 64 ? ss->miss_run : 64;
			}
			if (h) {
				*hits += h;
				ss->consumed += h;
				*hit_pid = pid;
				for (size_t j = i; j < i + h; j++)
					*checks += a[j].res == RES_VALUE;
				i += h;
			}
		}
		if (i < n) {
			ss->hot_i = i + 1;
			trace_access_event(&a[i], &ss->hot_ev);
			*ev = &ss->hot_ev;
			ss->consumed++;
			return 1;
		}
		ss->hot_i = n;
	}
}

void session_close(struct session *ss)
{
	if (ss->reader)
		trace_close(ss->reader);
	vmsys_free(ss->sys);
	memset(ss, 0, sizeof(*ss));
}
