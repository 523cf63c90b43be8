/*
 * cmd_show.c - `vmsim show`: replay a trace (up to a line) and print one of
 * the /proc views of the model (sim/replay/views.c).
 *
 * Exit: 0 printed, 2 bad usage or bad input (unknown view, unreadable or
 * malformed trace, no such process).  Divergences between the trace and
 * the model are not reported here (that is `vmsim replay`).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "cli.h"

static const char show_usage[] =
	"usage: vmsim show [OPTION]... VIEW TRACE\n"
	"\n"
	"Replays TRACE on the model up to and including the event at trace line LINE\n"
	"(default: the whole trace) and prints VIEW as the kernel would print it.\n"
	"\n"
	"  VIEW      maps      /proc/PID/maps (6.x text; x86_64 adds the [vsyscall] gate line)\n"
	"            smaps     /proc/PID/smaps (6.x line set of the kernel; 4.x traces get 4.x's)\n"
	"            status    the memory lines of /proc/PID/status (VmPeak..VmSwap;\n"
	"                      VmExe/VmLib/VmPTE are approximations)\n"
	"            meminfo   /proc/meminfo lines the model keeps (whole machine)\n"
	"            vmstat    every /proc/vmstat counter of the model (whole machine)\n"
	"            pages     per process: every present or swapped page with its pfn,\n"
	"                      pagemap bits, mapcount, mlock_count and kpageflags\n"
	"            lru       the five LRU lists head -> tail (whole machine)\n"
	"            numa      NUMA nodes, balancing counters, each process's node and\n"
	"                      the pages of each VMA per node (whole machine)\n"
	SESSION_OPTS_HELP
	"  --at LINE       stop after the last event that ends on or before trace line LINE\n"
	"                  (0 = before the first event)\n"
	"  --pid PID       the process to show (default: the first one of the trace)\n"
	"  --format json   JSON Lines: an object per VMA (maps, smaps) or page (pages,\n"
	"                  lru), one for status, meminfo, vmstat (docs/json.md)\n"
	"\n"
	"Per-CPU LRU batches: `pages` and `lru` are taken after draining them\n"
	"(lru_add_drain_all(), as the recorder does before reading pagemap and\n"
	"kpageflags), so every page is on its list.  maps, smaps and status are\n"
	"taken as they are, without draining, like the kernel's smaps (its counters\n"
	"do not depend on the batches); meminfo and vmstat are not drained either,\n"
	"so pages still in a batch are in no LRU count there.\n"
	"Exit: 0 ok, 2 bad input (unknown view, bad trace, no such process).\n";

static int parse_ulong(const char *opt, const char *s, unsigned long *v)
{
	char *end;
	errno = 0;
	unsigned long x = strtoul(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-') {
		fprintf(stderr, "vmsim show: %s needs a number, not '%s'\n", opt, s);
		return -1;
	}
	*v = x;
	return 0;
}


/* ---- --format json (docs/json.md) --------------------------------------- */

/* a maps line "START-END PERMS OFFSET DEV INODE [PATH]" as keys */
static bool maps_fields(const char *l)
{
	unsigned long long st, en, off, ino;
	char perms[8], dev[16];
	int n = 0;
	if (sscanf(l, "%llx-%llx %7s %llx %15s %llu%n", &st, &en, perms, &off, dev, &ino, &n) < 6)
		return false;
	while (l[n] == ' ' || l[n] == '\t')
		n++;
	json_kv_u64(stdout, "start", st);
	json_kv_u64(stdout, "end", en);
	json_kv_str(stdout, "perms", perms);
	json_kv_u64(stdout, "offset", off);
	json_kv_str(stdout, "dev", dev);
	json_kv_u64(stdout, "inode", ino);
	const char *path = l + n;
	size_t pl = strcspn(path, "\n");
	while (pl && (path[pl - 1] == ' ' || path[pl - 1] == '\n'))
		pl--;
	json_kv_strn(stdout, "path", path, pl);
	return true;
}

/* "Key:  N kB" or "name N": a number (kB values keep their unit in the key's
 * suffix _kB, as the kernel's counters are named), else the text */
static void kv_number(const char *key, size_t kl, const char *v)
{
	char k[64];
	unsigned long long n;
	char unit[8] = "", line[256], rest[8];
	snprintf(k, sizeof(k), "%.*s", (int)kl, key);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(v, "\n"), v);
	int got = sscanf(line, "%llu %7s %7s", &n, unit, rest);
	if (got == 1 || (got == 2 && !strcmp(unit, "kB"))) {
		if (!strcmp(unit, "kB"))
			strncat(k, "_kB", sizeof(k) - strlen(k) - 1);
		json_kv_u64(stdout, k, n);
	} else {
		size_t vl = strcspn(v, "\n");
		while (vl && v[vl - 1] == ' ')
			vl--;
		json_kv_strn(stdout, k, v, vl);
	}
}

/* the words of [s, end of line) as a JSON array */
static void words_array(const char *key, const char *s)
{
	json_key(stdout, key);
	fputc('[', stdout);
	bool first = true;
	while (*s && *s != '\n') {
		while (*s == ' ' || *s == ',')
			s++;
		size_t n = strcspn(s, " ,\n");
		if (!n)
			break;
		if (!first)
			fputs(", ", stdout);
		json_strn(stdout, s, n);
		first = false;
		s += n;
	}
	fputc(']', stdout);
}

/* the end of a page object: its counts and the flag words after them */
static void page_tail(unsigned map, unsigned mlk, const char *flags)
{
	json_kv_u64(stdout, "mapcount", map);
	json_kv_u64(stdout, "mlock_count", mlk);
	words_array("flags", flags + strspn(flags, " \t"));
	json_end(stdout);
}

/* the text of a view, as JSON Lines: one object per VMA (maps, smaps), per
 * page (pages, lru) or for the whole view (status, meminfo, vmstat) */
static void view_json(enum view_kind v, const char *text, int pid, const char *trace, unsigned long at)
{
	const char *name = view_name(v);
	bool open = false, kv = v == VIEW_STATUS || v == VIEW_MEMINFO || v == VIEW_VMSTAT;
	char list[32] = "";
	unsigned long long vma_start = 0;
	if (kv) {
		json_begin(stdout, name);
		json_kv_str(stdout, "file", trace);
		if (at)
			json_kv_u64(stdout, "at", at);
		if (v == VIEW_STATUS)
			json_kv_i64(stdout, "pid", pid);
		open = true;
	}
	for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		if (*l == '\n' || *l == '#')
			continue;
		if (kv) {
			size_t kl = strcspn(l, v == VIEW_VMSTAT ? " \n" : ":\n");
			const char *val = l + kl + (l[kl] == ':' || l[kl] == ' ');
			while (*val == ' ' || *val == '\t')
				val++;
			kv_number(l, kl, val);
			continue;
		}
		if (v == VIEW_MAPS) {
			json_begin(stdout, "vma");
			json_kv_i64(stdout, "pid", pid);
			maps_fields(l);
			json_end(stdout);
		} else if (v == VIEW_SMAPS) {
			size_t h = strspn(l, "0123456789abcdef");
			if (h && l[h] == '-' && strspn(l + h + 1, "0123456789abcdef") &&
			    l[h + 1 + strspn(l + h + 1, "0123456789abcdef")] == ' ') {
				if (open)
					json_end(stdout);
				json_begin(stdout, "vma");
				json_kv_i64(stdout, "pid", pid);
				maps_fields(l);
				open = true;
			} else if (open && !strncmp(l, "VmFlags:", 8)) {
				words_array("VmFlags", l + 8);
			} else if (open) {
				size_t kl = strcspn(l, ":\n");
				const char *val = l + kl + (l[kl] == ':');
				while (*val == ' ' || *val == '\t')
					val++;
				kv_number(l, kl, val);
			}
		} else if (v == VIEW_PAGES) {
			unsigned long long va, pfn;
			unsigned map, mlk;
			char pm[16];
			int n = 0;
			if (!strncmp(l, "VMA ", 4)) {
				sscanf(l + 4, "%llx", &vma_start);
			} else if (sscanf(l, "%llx %llx %15s %u %u%n", &va, &pfn, pm, &map, &mlk, &n) == 5) {
				json_begin(stdout, "page");
				json_kv_i64(stdout, "pid", pid);
				json_kv_u64(stdout, "vma", vma_start);
				json_kv_u64(stdout, "vaddr", va);
				json_kv_u64(stdout, "pfn", pfn);
				json_kv_str(stdout, "pagemap", pm);
				page_tail(map, mlk, l + n);
			}
		} else if (v == VIEW_LRU) {
			unsigned long long pos, pfn;
			unsigned map, mlk;
			int n = 0;
			if (isalpha((unsigned char)l[0])) {
				snprintf(list, sizeof(list), "%.*s", (int)strcspn(l, ":"), l);
			} else if (sscanf(l, "%llu %llx %u %u%n", &pos, &pfn, &map, &mlk, &n) == 4) {
				json_begin(stdout, "page");
				json_kv_str(stdout, "list", list);
				json_kv_u64(stdout, "pos", pos);
				json_kv_u64(stdout, "pfn", pfn);
				page_tail(map, mlk, l + n);
			}
		}
	}
	if (open)
		json_end(stdout);
}

int cmd_show(int argc, char **argv)
{
	struct session_opts o = SESSION_OPTS_INIT;
	bool have_at = false;
	unsigned long at = 0, pid = 0;
	bool json = false;
	static const struct option longopts[] = {
		SESSION_LONGOPTS,
		{ "at", required_argument, NULL, 'a' },
		{ "pid", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	int c;
	while ((c = session_getopt(&o, argc, argv, ":h", longopts, "show", show_usage,
				    NULL)) >= 0) {
		switch (c) {
		case 'a':
			if (parse_ulong("--at", optarg, &at))
				return 2;
			have_at = true;
			break;
		case 'p':
			if (parse_ulong("--pid", optarg, &pid))
				return 2;
			if (pid == 0 || pid > 0x7fffffff) {
				fprintf(stderr, "vmsim show: --pid needs a pid > 0\n");
				return 2;
			}
			break;
		case 'F':
			if (json_format_arg("show", "--format", optarg, &json))
				return 2;
			break;
		}
	}
	if (c != -1)
		return session_getopt_exit(c);
	const char *pos[2] = { NULL, NULL };
	unsigned npos = 0;
	for (int i = optind; i < argc; i++) {
		if (npos >= 2) {
			fprintf(stderr, "vmsim show: too many arguments ('%s')\n%s", argv[i], show_usage);
			return 2;
		}
		pos[npos++] = argv[i];
	}
	if (npos < 2) {
		fprintf(stderr, "vmsim show: %s\n%s", npos ? "no trace given" : "no view given",
			show_usage);
		return 2;
	}
	int view = view_find(pos[0]);
	if (view < 0) {
		fprintf(stderr, "vmsim show: unknown view '%s' (views: %s)\n", pos[0], view_list());
		return 2;
	}
	char err[512];
	struct session ss;
	if (session_open(&ss, pos[1], &o, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	struct event *ev;
	int r, rc = 0;
	while (true) {
		/* the first event that ends after LINE is read but not applied */
		r = session_next(&ss, &ev);
		if (r <= 0)
			break;
		if (have_at && ev->line > at)
			break;
		if (ev->type == EV_CALL && ev->sys == SYS_UNKNOWN)
			continue;
		struct outcome out;
		if (session_apply(&ss, ev, &out, err, sizeof(err))) {
			fprintf(stderr, "%s:%lu:1: error: %s\n", pos[1], ev->line, err);
			rc = 2;
			break;
		}
	}
	if (r < 0) {
		fprintf(stderr, "%s\n", trace_error(ss.reader));
		rc = 2;
	}
	if (rc == 0) {
		struct view_ctx vc = { ss.sys, NULL, ss.arch, ss.sem->name };
		if (!view_is_global((enum view_kind)view)) {
			vc.task = vmsys_task(ss.sys, (int)pid, false);
			if (!vc.task) {
				if (pid)
					fprintf(stderr, "vmsim show: %s: no process %lu%s\n", pos[1], pid,
						have_at ? " at that line" : "");
				else
					fprintf(stderr, "vmsim show: %s: no process%s\n", pos[1],
						have_at ? " at that line" : "");
				rc = 2;
			} else if (!task_alive(vc.task)) {
				if (task_pid(vc.task) > 0)
					fprintf(stderr, "vmsim show: note: process %d has exited%s; "
						"its address space is gone\n",
						task_pid(vc.task), have_at ? " by that line" : "");
				else
					fprintf(stderr, "vmsim show: note: the process has exited%s; "
						"its address space is gone (use --at LINE)\n",
						have_at ? " by that line" : "");
			}
		}
		if (rc == 0) {
			if (view_drains((enum view_kind)view))
				vm_drain_all(ss.sys);
			if (json) {
				char *text = NULL;
				size_t len = 0;
				FILE *m = open_memstream(&text, &len);
				if (!m) {
					fprintf(stderr, "vmsim show: out of memory\n");
					rc = 2;
				} else {
					view_print(m, (enum view_kind)view, &vc);
					fclose(m);
					view_json((enum view_kind)view, text ? text : "",
						  vc.task ? task_pid(vc.task) : 0, pos[1], have_at ? at : 0);
					free(text);
				}
			} else {
				view_print(stdout, (enum view_kind)view, &vc);
			}
		}
	}
	session_close(&ss);
	return rc;
}
