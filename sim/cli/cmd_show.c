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
	"                  (0 = before the first event); without it, the end of the trace,\n"
	"                  or for maps, smaps, status and pages, the state just before the\n"
	"                  process shown exits\n"
	"  --pid PID       the process to show (default: the first one of the trace)\n"
	"  -o, --output FILE  the view into FILE (default: standard output)\n"
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
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	int c;
	const char *outpath = NULL;
	while ((c = session_getopt(&o, argc, argv, ":ho:", longopts, "show", show_usage,
				    NULL)) >= 0) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
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
			session_usage_error("show", show_usage, "too many arguments ('%s')", argv[i]);
			return 2;
		}
		pos[npos++] = argv[i];
	}
	if (npos < 2) {
		session_usage_error("show", show_usage, "%s", npos ? "no trace given" : "no view given");
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
	unsigned long exit_line = 0; /* without --at: the line where the process shown exits */
	bool per_process = !view_is_global((enum view_kind)view);
	while (true) {
		/* the first event that ends after LINE is read but not applied */
		r = session_next(&ss, &ev);
		if (r <= 0)
			break;
		if (have_at && ev->line > at)
			break;
		if (ev->type == EV_CALL && ev->sys == SYS_UNKNOWN)
			continue;
		/* without --at, a process view shows the process as it was just
		 * before it exited (its end, not the empty address space after) */
		if (!have_at && per_process &&
		    ((ev->type == EV_CALL && ev->sys == SYS_EXIT_GROUP) || ev->type == EV_EXITED ||
		     ev->type == EV_KILLED)) {
			struct task *shown = vmsys_task(ss.sys, (int)pid, false);
			if (shown && task_alive(shown) && vmsys_task(ss.sys, ev->pid, false) == shown) {
				exit_line = ev->line;
				r = 0;
				break;
			}
		}
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
	if (rc == 0 && exit_line)
		fprintf(stderr, "vmsim show: the state just before the process exits at line %lu (as --at %lu); "
				"--at LINE shows another\n", exit_line, exit_line - 1);
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
		struct cli_output out;
		if (rc == 0 && cli_output_begin("show", outpath, (char *const *)&pos[1], 1, &out))
			rc = 2;
		else if (rc == 0) {
			if (view_drains((enum view_kind)view))
				vm_drain_all(ss.sys);
			if (json) {
				if (view_print_json((enum view_kind)view, &vc, pos[1], have_at ? at : 0)) {
					fprintf(stderr, "vmsim show: out of memory\n");
					rc = 2;
				}
			} else {
				view_print(stdout, (enum view_kind)view, &vc);
			}
			rc = cli_output_end("show", &out, rc);
		}
	}
	session_close(&ss);
	return rc;
}
