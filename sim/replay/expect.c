/*
 * expect.c - evaluating expect(...) lines against the model, and the
 * state dump that explains a divergence.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "replay.h"
#include "semantics.h"
#include "vmstat.h"

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	if (n + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static bool sl_is(struct strslice s, const char *w)
{
	return s.len == strlen(w) && !memcmp(s.p, w, s.len);
}

/* A trace without its fault lines (`# faults: no`): the model saw only
 * the touches the calls made (populate, mlock), so what depends on
 * residency holds if the model has no more than the kernel had. */
static bool lower_bound_holds(struct vmsys *s, uint64_t got, uint64_t want)
{
	return vmsys_touches_unrecorded(s) && got <= want;
}

/* the smaps fields that count resident (or swapped) pages */
static bool residency_key(struct strslice k)
{
	static const char *const keys[] = {
		"Rss", "Pss", "Pss_Dirty", "Locked", "Anonymous", "AnonHugePages", "Swap", "Referenced",
		"Shared_Clean", "Shared_Dirty", "Private_Clean", "Private_Dirty",
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (sl_is(k, keys[i]))
			return true;
	return false;
}

/* /proc/PID/status fields, in kB */
static bool status_field(struct vmsys *s, struct task *t, struct strslice f, uint64_t *kb)
{
	struct vm_status st;
	vmsys_status(s, t, &st);
	static const struct { const char *name; int which; } fields[] = {
		{ "VmLck", 0 }, { "VmPin", 1 }, { "VmRSS", 2 }, { "VmSize", 3 }, { "RssAnon", 4 },
		{ "RssFile", 5 }, { "RssShmem", 6 }, { "VmSwap", 7 }, { "VmData", 8 },
		{ "VmStk", 9 }, { "VmExe", 10 }, { "VmHWM", 11 }, { "VmPeak", 12 },
		{ "HugetlbPages", 13 },
	};
	for (unsigned i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (!sl_is(f, fields[i].name))
			continue;
		uint64_t pages = 0;
		switch (fields[i].which) {
		case 0: pages = st.locked_vm; break;
		case 1: pages = st.pinned_vm; break;
		case 2: pages = st.rss_anon + st.rss_file + st.rss_shmem; break;
		case 3: pages = st.total_vm; break;
		case 4: pages = st.rss_anon; break;
		case 5: pages = st.rss_file; break;
		case 6: pages = st.rss_shmem; break;
		case 7: pages = st.swap_ents; break;
		case 8: pages = st.data_vm; break;
		case 9: pages = st.stack_vm; break;
		case 10: pages = st.exec_vm; break;
		case 11: pages = st.hiwater_rss; break;
		case 12: pages = st.hiwater_vm; break;
		case 13: pages = st.hugetlb_pages; break;
		}
		*kb = pages * 4;
		return true;
	}
	return false;
}

static bool meminfo_field(struct vmsys *s, struct strslice f, uint64_t *kb)
{
	struct vm_meminfo mi;
	vmsys_meminfo(s, &mi);
	static const struct { const char *name; size_t off; } fields[] = {
		{ "MemTotal", offsetof(struct vm_meminfo, total) },
		{ "MemFree", offsetof(struct vm_meminfo, free) },
		{ "Mlocked", offsetof(struct vm_meminfo, mlocked) },
		{ "Unevictable", offsetof(struct vm_meminfo, unevictable) },
		{ "Active(anon)", offsetof(struct vm_meminfo, active_anon) },
		{ "Inactive(anon)", offsetof(struct vm_meminfo, inactive_anon) },
		{ "Active(file)", offsetof(struct vm_meminfo, active_file) },
		{ "Inactive(file)", offsetof(struct vm_meminfo, inactive_file) },
		{ "SwapTotal", offsetof(struct vm_meminfo, swap_total) },
		{ "SwapFree", offsetof(struct vm_meminfo, swap_free) },
		{ "Dirty", offsetof(struct vm_meminfo, dirty) },
		{ "AnonPages", offsetof(struct vm_meminfo, anon_pages) },
		{ "Mapped", offsetof(struct vm_meminfo, mapped) },
		{ "Shmem", offsetof(struct vm_meminfo, shmem) },
		{ "AnonHugePages", offsetof(struct vm_meminfo, anon_huge) },
	};
	for (unsigned i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (sl_is(f, fields[i].name)) {
			*kb = *(const uint64_t *)((const char *)&mi + fields[i].off) * 4;
			return true;
		}
	return false;
}

/* /proc/meminfo's hugetlb pool counts (hugetlb_report_meminfo()): pages
 * of the pool, not kB */
static bool hugepages_field(struct vmsys *s, struct strslice f, uint64_t *n)
{
	struct vm_meminfo mi;
	if (!sl_is(f, "HugePages_Total") && !sl_is(f, "HugePages_Free") && !sl_is(f, "HugePages_Rsvd"))
		return false;
	vmsys_meminfo(s, &mi);
	*n = sl_is(f, "HugePages_Total") ? mi.huge_total : sl_is(f, "HugePages_Free") ? mi.huge_free : mi.huge_rsvd;
	return true;
}

/* whether every word of a VmFlags text is one of this kernel's mnemonics
 * or "??": the text was printed by the kernel the model runs (a trace
 * replayed under another kernel compares flags by meaning only) */
static bool own_mnemonics(struct vmsys *s, const char *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		while (i < n && p[i] == ' ')
			i++;
		size_t j = i;
		while (j < n && p[j] != ' ')
			j++;
		if (j > i && !(j - i == 2 && p[i] == '?' && p[i + 1] == '?') && !vmsys_vmflags_parse(s, p + i, j - i))
			return false;
		i = j;
	}
	return true;
}

/* the "??" words of a VmFlags text */
static unsigned count_qq(const char *p, size_t n)
{
	unsigned c = 0;
	for (size_t i = 0; i + 1 < n; i++)
		if (p[i] == '?' && p[i + 1] == '?' && (i == 0 || p[i - 1] == ' ') &&
		    (i + 2 == n || p[i + 2] == ' '))
			c++;
	return c;
}

static unsigned check_vma(struct vmsys *s, struct task *t, const struct event *ev, char *why,
			  size_t len, unsigned *nchecked)
{
	const struct expect *e = &ev->exp;
	struct vm_vma_info vi;
	bool found = vmsys_vma_at(s, t, e->addr, &vi);
	(*nchecked)++;
	if (e->none) {
		if (found) {
			append(why, len, "  vma at 0x%" PRIx64 ": expected none, model [0x%" PRIx64 ", 0x%" PRIx64 ")\n",
			       e->addr, vi.start, vi.end);
			return 1;
		}
		return 0;
	}
	if (!found) {
		append(why, len, "  vma at 0x%" PRIx64 ": expected a VMA, model has none\n", e->addr);
		return 1;
	}
	unsigned bad = 0;
	for (unsigned i = 0; i < e->nkv; i++) {
		const struct expect_kv *kv = &e->kv[i];
		uint64_t got;
		bool bytes = true;
		(*nchecked)++;
		if (sl_is(kv->key, "VmFlags")) {
			uint64_t want = vmsys_vmflags_parse(s, kv->text.p, kv->text.len);
			char txt[256];
			vmsys_vmflags_text(s, vi.flags, txt, sizeof(txt));
			uint64_t have = vmsys_vmflags_parse(s, txt, strlen(txt));
			/* "??" names no flag, so it parses to nothing: a bit the kernel
			 * prints as "??" (lof-v1's VM_LOCKONFAULT) is checked by the
			 * count of "??" words, where the text is in this kernel's
			 * mnemonics */
			bool qq = own_mnemonics(s, kv->text.p, kv->text.len) &&
				  count_qq(kv->text.p, kv->text.len) != count_qq(txt, strlen(txt));
			if (want != have || qq) {
				size_t tl = strlen(txt);
				if (tl && txt[tl - 1] == ' ')
					txt[tl - 1] = 0;
				append(why, len, "  VmFlags: expected \"%.*s\", model \"%s\"\n", (int)kv->text.len,
				       kv->text.p, txt);
				bad++;
			}
			continue;
		}
		if (sl_is(kv->key, "start")) { got = vi.start; bytes = false; }
		else if (sl_is(kv->key, "end")) { got = vi.end; bytes = false; }
		else if (sl_is(kv->key, "Size")) got = vi.end - vi.start;
		else if (sl_is(kv->key, "Rss")) got = vi.rss;
		else if (sl_is(kv->key, "Pss")) got = vi.pss;
		else if (sl_is(kv->key, "Pss_Dirty")) got = vi.pss_dirty;
		else if (sl_is(kv->key, "Locked")) got = vi.locked;
		else if (sl_is(kv->key, "Anonymous")) got = vi.anonymous;
		else if (sl_is(kv->key, "AnonHugePages")) got = vi.anon_huge;
		else if (sl_is(kv->key, "Swap")) got = vi.swap;
		else if (sl_is(kv->key, "Referenced")) got = vi.referenced;
		else if (sl_is(kv->key, "Shared_Clean")) got = vi.shared_clean;
		else if (sl_is(kv->key, "Shared_Dirty")) got = vi.shared_dirty;
		else if (sl_is(kv->key, "Private_Clean")) got = vi.private_clean;
		else if (sl_is(kv->key, "Private_Dirty")) got = vi.private_dirty;
		else if (sl_is(kv->key, "pgoff") || sl_is(kv->key, "offset")) { got = vi.pgoff << 12; bytes = false; }
		else {
			(*nchecked)--;
			continue; /* a key the model does not know: not checked */
		}
		if (residency_key(kv->key) && lower_bound_holds(s, got >> 10, kv->num >> 10))
			continue;
		if (bytes ? (got >> 10) != (kv->num >> 10) : got != kv->num) {
			if (bytes)
				append(why, len, "  %.*s: expected %" PRIu64 " kB, model %" PRIu64 " kB\n",
				       (int)kv->key.len, kv->key.p, kv->num / 1024, got / 1024);
			else
				append(why, len, "  %.*s: expected 0x%" PRIx64 ", model 0x%" PRIx64 "\n",
				       (int)kv->key.len, kv->key.p, kv->num, got);
			bad++;
		}
	}
	return bad;
}

static unsigned check_page(struct vmsys *s, struct task *t, const struct event *ev, char *why,
			   size_t len, unsigned *nchecked)
{
	const struct expect *e = &ev->exp;
	struct vm_page_info pi;
	vmsys_page(s, t, e->addr, &pi);
	unsigned bad = 0;
	bool partial = vmsys_touches_unrecorded(s);
	for (unsigned i = 0; i < e->nkv; i++) {
		const struct expect_kv *kv = &e->kv[i];
		uint64_t got;
		/* without the touches, a page the model lacks may be one the
		 * program touched: nothing about it can be checked; of one both
		 * have, its lock state */
		if (partial && !pi.present && !pi.swapped)
			break;
		if (partial && !sl_is(kv->key, "present") && !sl_is(kv->key, "mlocked") &&
		    !sl_is(kv->key, "unevictable"))
			continue;
		(*nchecked)++;
		if (sl_is(kv->key, "present")) got = pi.present;
		else if (sl_is(kv->key, "swapped")) got = pi.swapped;
		else if (sl_is(kv->key, "mlocked")) got = pi.mlocked;
		else if (sl_is(kv->key, "unevictable")) got = pi.unevictable;
		else if (sl_is(kv->key, "lru")) got = pi.lru;
		else if (sl_is(kv->key, "active")) got = pi.active;
		else if (sl_is(kv->key, "referenced")) got = pi.referenced;
		else if (sl_is(kv->key, "dirty")) got = pi.dirty;
		else if (sl_is(kv->key, "anon")) got = pi.anon;
		else if (sl_is(kv->key, "swapbacked")) got = pi.swapbacked;
		else if (sl_is(kv->key, "file")) got = pi.present && pi.file;
		else if (sl_is(kv->key, "exclusive")) got = pi.exclusive;
		else if (sl_is(kv->key, "zero")) got = pi.zero;
		else if (sl_is(kv->key, "mapcount")) got = pi.mapcount;
		else if (sl_is(kv->key, "mlock_count")) got = pi.mlock_count;
		else if (sl_is(kv->key, "mmap")) got = pi.mmap;
		else {
			(*nchecked)--;
			continue;
		}
		if (got != kv->num) {
			append(why, len, "  page 0x%" PRIx64 " %.*s: expected %" PRIu64 ", model %" PRIu64 "\n",
			       e->addr, (int)kv->key.len, kv->key.p, kv->num, got);
			bad++;
		}
	}
	return bad;
}

/* getrusage(RUSAGE_SELF)'s fault counts, since the process's first line
 * (the model's task counters: semantics.h, fault accounting) */
static unsigned check_rusage(struct vmsys *s, struct task *t, const struct event *ev, char *why,
			     size_t len, unsigned *nchecked)
{
	const struct expect *e = &ev->exp;
	struct vm_status st;
	vmsys_status(s, t, &st);
	unsigned bad = 0;
	for (unsigned i = 0; i < e->nkv; i++) {
		const struct expect_kv *kv = &e->kv[i];
		uint64_t got;
		if (sl_is(kv->key, "minflt") || sl_is(kv->key, "ru_minflt"))
			got = st.min_flt;
		else if (sl_is(kv->key, "majflt") || sl_is(kv->key, "ru_majflt"))
			got = st.maj_flt;
		else
			continue; /* not a count the model keeps */
		(*nchecked)++;
		if (kv->is_num && lower_bound_holds(s, got, kv->num))
			continue;
		if (!kv->is_num || got != kv->num) {
			append(why, len, "  rusage %.*s: expected %.*s, model %" PRIu64 "\n", (int)kv->key.len,
			       kv->key.p, (int)kv->text.len, kv->text.p, got);
			bad++;
		}
	}
	return bad;
}

unsigned expect_check(struct vmsys *s, const struct event *ev, char *why, size_t len,
		      unsigned *nchecked)
{
	const struct expect *e = &ev->exp;
	struct task *t = vmsys_task(s, ev->pid, true);
	why[0] = 0;
	if (!t)
		return 0;
	switch (e->kind) {
	case EXP_VMA: return check_vma(s, t, ev, why, len, nchecked);
	case EXP_PAGE: return check_page(s, t, ev, why, len, nchecked);
	case EXP_RUSAGE: return check_rusage(s, t, ev, why, len, nchecked);
	case EXP_VMAS: {
		(*nchecked)++;
		uint64_t n = vmsys_vma_count(s, t, e->addr, e->end);
		if (n != e->value) {
			append(why, len, "  VMAs in [0x%" PRIx64 ", 0x%" PRIx64 "): expected %" PRIu64 ", model %" PRIu64 "\n",
			       e->addr, e->end, e->value, n);
			return 1;
		}
		return 0;
	}
	case EXP_FIELD: {
		uint64_t kb;
		(*nchecked)++;
		if (status_field(s, t, e->field, &kb) || meminfo_field(s, e->field, &kb)) {
			uint64_t want = e->value;
			/* 9223372036854775807 kB is what a recorder that read the
			 * field with strtol() writes for any value of 2^63 kB or
			 * more - a wrapped locked_vm (docs/trace-format.md) */
			bool saturated = want == (uint64_t)INT64_MAX && kb >= want;
			/* the address space's sizes do not depend on touches */
			bool sized = sl_is(e->field, "VmLck") || sl_is(e->field, "VmPin") ||
				     sl_is(e->field, "VmSize") || sl_is(e->field, "VmData") ||
				     sl_is(e->field, "VmStk") || sl_is(e->field, "VmExe") ||
				     sl_is(e->field, "VmPeak");
			if (!sized && lower_bound_holds(s, kb, want))
				return 0;
			if (kb != want && !saturated) {
				append(why, len, "  %.*s: expected %" PRIu64 " kB, model %" PRIu64 " kB\n",
				       (int)e->field.len, e->field.p, want, kb);
				return 1;
			}
			return 0;
		}
		int item = vmstat_find(e->field.p, (unsigned)e->field.len);
		if (item >= 0) {
			int64_t v = vmsys_vmstat(s, item);
			if (v >= 0 && lower_bound_holds(s, (uint64_t)v, e->value))
				return 0;
			if ((uint64_t)v != e->value) {
				append(why, len, "  %.*s: expected %" PRIu64 ", model %" PRId64 "\n",
				       (int)e->field.len, e->field.p, e->value, v);
				return 1;
			}
			return 0;
		}
		int mev = memcg_event_find(e->field.p, (unsigned)e->field.len);
		if (mev >= 0) {
			uint64_t n = vmsys_memcg_event(s, (enum memcg_event)mev);
			if (n != e->value) {
				append(why, len, "  %.*s: expected %" PRIu64 ", model %" PRIu64 "\n",
				       (int)e->field.len, e->field.p, e->value, n);
				return 1;
			}
			return 0;
		}
		uint64_t huge;
		if (hugepages_field(s, e->field, &huge)) {
			if (huge != e->value) {
				append(why, len, "  %.*s: expected %" PRIu64 ", model %" PRIu64 "\n",
				       (int)e->field.len, e->field.p, e->value, huge);
				return 1;
			}
			return 0;
		}
		if (sl_is(e->field, "map_count")) {
			uint64_t n = vmsys_map_count(s, t);
			if (n != e->value) {
				append(why, len, "  map_count: expected %" PRIu64 ", model %" PRIu64 "\n", e->value, n);
				return 1;
			}
			return 0;
		}
		(*nchecked)--;
		append(why, len, "  %.*s: not a field the model knows (not checked)\n", (int)e->field.len,
		       e->field.p);
		return 0;
	}
	}
	return 0;
}

static void describe_vma(struct vmsys *s, const struct vm_vma_info *vi, char *buf, size_t len)
{
	char fl[256];
	vmsys_vmflags_text(s, vi->flags, fl, sizeof(fl));
	append(buf, len, "  vma [0x%" PRIx64 ", 0x%" PRIx64 ") %s Rss=%" PRIu64 " kB Locked=%" PRIu64 " kB VmFlags: %s\n",
	       vi->start, vi->end, vi->path ? vi->path : (vi->is_file ? "file" : "anon"), vi->rss / 1024,
	       vi->locked / 1024, fl);
}

/* calls whose result may come from can_do_mlock()/mlock_future_ok() */
static bool limit_checked(struct vmsys *s, const struct event *ev)
{
	(void)s;
	if (ev->type != EV_CALL)
		return false;
	switch (ev->sys) {
	case SYS_MLOCK: case SYS_MLOCK2: case SYS_MLOCKALL: case SYS_MMAP: case SYS_MREMAP:
	case SYS_BRK: case SYS_SETRLIMIT: case SYS_PRLIMIT64:
		return true;
	default:
		return false;
	}
}

static void limit_text(uint64_t v, char *buf, size_t len)
{
	if (v == RLIM_INFINITY_VALUE)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%" PRIu64 " bytes (%" PRIu64 " pages)", v, v >> 12);
}

void explain_state(struct vmsys *s, const struct event *ev, char *buf, size_t len)
{
	buf[0] = 0;
	struct task *t = vmsys_task(s, ev->pid, false);
	if (!t) {
		append(buf, len, "  (no such process in the model)\n");
		return;
	}
	uint64_t addr = 0, end = 0;
	if (ev->type == EV_EXPECT) {
		addr = ev->exp.addr;
		end = ev->exp.kind == EXP_VMAS ? ev->exp.end : addr + 1;
	} else if (ev->type == EV_CALL) {
		switch (ev->sys) {
		case SYS_MMAP: addr = ev->res == RES_VALUE ? (uint64_t)ev->value : ev->args[0];
			end = addr + ev->args[1]; break;
		case SYS_MUNMAP: case SYS_MPROTECT: case SYS_MREMAP: case SYS_MADVISE: case SYS_MSYNC:
		case SYS_MLOCK: case SYS_MLOCK2: case SYS_MUNLOCK: case SYS_TOUCH:
			addr = ev->args[0]; end = addr + ev->args[1]; break;
		case SYS_FAULT: addr = ev->args[0]; end = addr + 1; break;
		default: break; /* no address argument (fds, flags, limits) */
		}
	}
	struct vm_status st;
	vmsys_status(s, t, &st);
	append(buf, len, "  pid %d: locked_vm=%" PRIu64 " pages (VmLck %" PRIu64 " kB), total_vm=%" PRIu64
	       ", map_count=%" PRIu64 ", def_flags=0x%" PRIx64 "\n", /* the kernel's numbering */
	       task_pid(t), st.locked_vm, st.locked_vm * 4, st.total_vm, vmsys_map_count(s, t),
	       vmsys_vmflags_kernel(s, vmsys_def_flags(s, t)));
	if (limit_checked(s, ev)) {
		uint64_t cur, max;
		bool cap;
		vmsys_task_limits(t, &cur, &max, &cap);
		char c[64], m[64];
		limit_text(cur, c, sizeof(c));
		limit_text(max, m, sizeof(m));
		append(buf, len, "  limit check: RLIMIT_MEMLOCK %s (hard %s), CAP_IPC_LOCK %s"
		       " (--rlimit-memlock, --cap-ipc-lock or the header set them)\n", c, m,
		       cap ? "yes" : "no");
	}
	if (!addr && !end)
		return;
	if (end <= addr)
		end = addr + 1;
	struct vm_vma_info vi;
	unsigned shown = 0;
	/* from the VMA below addr's page, not from the first: a divergence
	 * among 10^5 VMAs costs a lookup, not a walk */
	const struct vma *v = vmsys_vma_from(s, t, addr > 0x1000 ? addr - 0x1000 : 0, &vi);
	for (; v && shown < 6; v = vmsys_vma_next(s, t, v, &vi)) {
		if (vi.end <= addr && vi.end + 0x1000 < addr)
			continue;
		if (vi.start >= end + 0x1000)
			break;
		describe_vma(s, &vi, buf, len);
		shown++;
	}
	if (!shown)
		append(buf, len, "  no VMA near 0x%" PRIx64 "\n", addr);
	if (ev->type == EV_EXPECT && ev->exp.kind == EXP_PAGE) {
		struct vm_page_info pi;
		if (vmsys_page(s, t, addr, &pi))
			append(buf, len, "  page 0x%" PRIx64 ": pfn %u mapcount %u mlock_count %u flags%s%s%s%s%s%s%s\n",
			       addr, pi.pfn, pi.mapcount, pi.mlock_count, pi.lru ? " lru" : "",
			       pi.active ? " active" : "", pi.unevictable ? " unevictable" : "",
			       pi.mlocked ? " mlocked" : "", pi.anon ? " anon" : " file",
			       pi.dirty ? " dirty" : "", pi.referenced ? " referenced" : "");
		else
			append(buf, len, "  page 0x%" PRIx64 ": not present\n", addr);
	}
}

bool event_diverged(struct vmsys *s, const struct event *ev, const struct outcome *out, char *why,
		    size_t len, unsigned *nchecked)
{
	if (len)
		why[0] = 0;
	if (ev->type == EV_EXPECT)
		return expect_check(s, ev, why, len, nchecked) > 0;
	if (ev->type != EV_CALL && ev->type != EV_SIGNAL)
		return false;
	if (out->kind != OUT_NONE &&
	    (ev->res == RES_VALUE || ev->res == RES_ERROR || ev->type == EV_SIGNAL))
		++*nchecked;
	char w[512];
	if (outcome_matches(ev, out, w, sizeof(w)))
		return false;
	snprintf(why, len, "  %s\n", w);
	return true;
}
