/*
 * cmd_step.c - `vmsim step`: walk a trace one event at a time, forward and
 * back, with the model's explanation of each event and pictures of the
 * address space and the LRU lists after it.
 *
 * Back is exact and costs little wherever it goes: the model is
 * deterministic, so going to event k restores the nearest checkpoint at
 * or before k (a snapshot of the process restored in it, or a
 * copy-on-write copy of it: checkpoint.h) and replays forward from there;
 * with none, it replays from the start.  A walk formats and explains only
 * the event it ends at (and those where it takes a checkpoint); with
 * copies it takes near checkpoints just before that event, so that going
 * back a little is a hand-over and a few events.
 * Commands come from the terminal (sim/teach/lineedit.c) or, line by line,
 * from a pipe.  A trace that cannot be read twice (a pipe, "-") is copied
 * into an unlinked temporary file first (spool_trace()).
 *
 * Exit: 0 at quit or the end of the commands, 2 bad usage or bad input.
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkpoint.h"

#include "replay.h"
#include "cli.h"
#include "teach.h"
#include "vmstat.h"

#include <sys/wait.h> /* after trace.h: its signal.h defines si_addr */

static const char step_usage[] =
	"usage: vmsim step [OPTION]... TRACE\n"
	"\n"
	"Steps through TRACE on the model.  After each step it prints the event, what\n"
	"the model did (as `vmsim explain` tells it), the address space of the event's\n"
	"process as a ruler of VMAs and the LRU lists as bars.  Commands (read from\n"
	"the terminal with the usual editing keys and history, or from a pipe):\n"
	"\n"
	"  next [N]          n  the next N events (default 1; an empty line repeats)\n"
	"  back [N]          b  N events back (exact: from the nearest checkpoint)\n"
	"  goto LINE         g  to the last event on or before trace line LINE\n"
	"  until COND        u  forward until COND holds after an event:\n"
	"                       divergence | call NAME | line N | end |\n"
	"                       QUANTITY OP NUMBER with OP one of < <= == != >= >\n"
	"                       QUANTITY: locked_vm total_vm rss map_count (pages or\n"
	"                       count, of the event's process), inactive_anon active_anon\n"
	"                       inactive_file active_file unevictable (pages), or any\n"
	"                       /proc/vmstat name (nr_mlock, unevictable_pgs_culled ...)\n"
	"  show VIEW         s  maps smaps status meminfo vmstat pages lru\n"
	"  explain           e  what the model did at this event\n"
	"  ruler | lists        the address-space ruler, the LRU lists\n"
	"  where             w  the current line\n"
	"  help              h  this list\n"
	"  quit              q  (also end of input, ^D)\n"
	"\n"
	SESSION_OPTS_HELP
	"  --pid PID       whose address space the ruler shows (default: the event's)\n"
	"  --width N       columns of the pictures and the text (default: the terminal's,\n"
	"                  else 80); longer lines wrap\n"
	"  --no-pictures   print no ruler and lists after each step\n"
	"  --checkpoint-every N\n"
	"                  a checkpoint of the session every N events (default: every\n"
	"                  30 ms of replay CPU, and no less than half what the last\n"
	"                  cost; at most 64, and past that half as often; 0: none,\n"
	"                  and back, goto and the drained views replay from the\n"
	"                  start).  A checkpoint is a snapshot of the process in its\n"
	"                  own memory, at most VMSIM_STEP_CHECKPOINT_MB (1024) MiB\n"
	"                  for all, or with VMSIM_STEP_CHECKPOINTS=fork (and under\n"
	"                  ASan or valgrind) a copy-on-write copy of it, with up to\n"
	"                  12 near ones 256, 32, 4 and 1 events before where a goto,\n"
	"                  back or next N ends\n"
	"  --timer         after each command, the wall and CPU time it took (in every\n"
	"                  process it ran in: make bench's figures)\n"
	"  --format json   answer each command with JSON objects (a frontend's\n"
	"                  interface): \"where\", \"step\" with the explanation, the\n"
	"                  VMAs and the list sizes, \"explain\", \"state\", show's\n"
	"                  objects, \"end\", \"error\", \"help\" (docs/json.md)\n"
	"A TRACE that is not a regular file (a pipe, <(...), - for standard input)\n"
	"is first copied into an unlinked file of $TMPDIR (else /tmp), so that back\n"
	"and goto can read it again; with -, the commands come from the terminal.\n"
	"Exit: 0 ok, 2 bad input.\n";

struct stepper {
	const char *path;      /* the trace as named */
	const char *read_path; /* the file read: path, or spool */
	char spool[32];        /* /proc/self/fd/N: the copy of a pipe (spool_trace()) */
	struct session_opts o;
	struct session ss;
	bool open;
	struct tp_log log;
	struct explain_steps steps;
	unsigned long pos;        /* shown events applied */
	unsigned long line;       /* the line of the last one */
	char text[512];
	char result[160];
	char why[1024];
	bool diverged;            /* at the last step */
	bool explained;           /* steps is the last shown event's (st_explain()) */
	bool kept;                /* its text, result and log were kept (st_next()) */
	struct {                  /* a walk's destination: near checkpoints before it
				   * (set by every walk but until's, which turns it off) */
		bool on, by_line;
		unsigned long target; /* a position, or by_line a trace line */
		unsigned next;        /* the first of near_before[] not passed */
	} near;
	bool ended;
	int pid;                  /* the last event's process */
	int want_pid;             /* --pid, or 0 */
	unsigned width;
	bool pictures;
	bool json;                /* --format json: an object per answer (docs/json.md) */
	struct ckpt ck;           /* the checkpoints (checkpoint.h) */
	struct lineedit le;
	char last[256];           /* the command an empty line repeats */
	bool timer;               /* --timer: each command's time after it */
	int64_t cmd_wall_ns;      /* the command's start (CLOCK_MONOTONIC) */
	int64_t cmd_cpu_ns;       /* this process's CPU clock at its start, less
				   * what processes before it spent on it */
};

static int64_t clock_ns(clockid_t c)
{
	struct timespec ts;
	if (clock_gettime(c, &ts))
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A resumed process's orders: where to go, and the command line an empty
 * line repeats there */
enum {
	RS_POS,
	RS_LINE,
	RS_POS_END, /* a position after which the trace ends */
	RS_QUIET = 8 /* or-ed: the command has printed what it prints */
};
struct step_resume {
	int mode;
	unsigned long target; /* the position, or (RS_LINE) the trace line */
	int64_t cmd_wall_ns;  /* --timer: when the command began (CLOCK_MONOTONIC) */
	int64_t cmd_cpu_ns;   /* and the CPU time it took before the hand-over */
	int64_t cmd_cpu_start; /* the CPU clock when it began (the same process's) */
	char last[256];
};

/* A message of the stepper to its user: a line of text, or an "error" or
 * "end" object */
static void say(struct stepper *st, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(struct stepper *st, const char *kind, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!st->json) {
		printf("%s\n", msg);
		return;
	}
	json_begin(stdout, kind);
	json_kv_str(stdout, "message", msg);
	if (!strcmp(kind, "end"))
		json_kv_u64(stdout, "line", st->line);
	json_end(stdout);
}

static bool shown(const struct event *ev)
{
	return ev->type != EV_EXPECT && !(ev->type == EV_CALL && ev->sys == SYS_UNKNOWN);
}

/* A trace that cannot be read again from where it was - a pipe, a
 * process substitution, "-" - is copied first into an unlinked file of
 * $TMPDIR (else /tmp), read through /proc/self/fd, so back, goto and the
 * checkpoints work as on a file; messages still name the trace.  With
 * "-" the commands then come from the terminal.  0, or -1 with a message
 * printed. */
static int spool_trace(struct stepper *st)
{
	const char *dir = cli_tmpdir();
	char name[4096];
	if (snprintf(name, sizeof(name), "%s/vmsim-step-XXXXXX", dir) >= (int)sizeof(name)) {
		fprintf(stderr, "vmsim step: TMPDIR is too long\n");
		return -1;
	}
	bool from_stdin = !strcmp(st->path, "-");
	int in = from_stdin ? STDIN_FILENO : open(st->path, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		fprintf(stderr, "%s: %s\n", st->path, strerror(errno));
		return -1;
	}
	int out = mkstemp(name);
	if (out < 0)
		fprintf(stderr, "vmsim step: a copy of %s that can be read again: %s: %s\n", st->path,
			name, strerror(errno));
	else
		unlink(name);
	static char buf[65536];
	ssize_t n = 0;
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "%s: %s\n", st->path, strerror(errno));
		} else {
			errno = 0;
			if (cli_write_all(out, buf, (size_t)n))
				continue;
			fprintf(stderr, "vmsim step: copying %s into %s: %s\n", st->path, dir,
				errno ? strerror(errno) : "nothing written");
		}
		close(out);
		out = -1;
	}
	if (!from_stdin)
		close(in);
	if (out >= 0 && from_stdin) {
		/* the trace was standard input: the commands come from the terminal */
		int tty = open("/dev/tty", O_RDONLY | O_CLOEXEC);
		if (tty < 0 || dup2(tty, STDIN_FILENO) < 0) {
			fprintf(stderr, "vmsim step: the trace is standard input and there is no terminal "
				"for the commands: give the trace as a file (or <(...))\n");
			close(out);
			out = -1;
		}
		if (tty >= 0)
			close(tty);
	}
	if (out < 0)
		return -1;
	snprintf(st->spool, sizeof(st->spool), "/proc/self/fd/%d", out);
	st->o.name = st->path;
	st->read_path = st->spool;
	return 0;
}

static int st_open(struct stepper *st)
{
	char err[512];
	if (st->open)
		session_close(&st->ss);
	st->open = false;
	if (session_open(&st->ss, st->read_path, &st->o, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	st->open = true;
	vmsys_set_tracepoint(st->ss.sys, tp_log_hook, &st->log);
	st->pos = st->line = 0;
	st->ended = false;
	st->diverged = false;
	st->text[0] = st->result[0] = st->why[0] = 0;
	st->steps.n = 0;
	st->explained = false;
	st->kept = false;
	st->pid = 0;
	return 0;
}

/* how far before a walk's destination near checkpoints are taken
 * (ckpt_take_near()): a back of up to 1, 4, 32 or 256 events from where
 * a command ended rolls forward less than 1, 4, 32 or 256 events */
static const unsigned long near_before[] = { 256, 32, 4, 1 };
#define NEAR_STEPS (sizeof(near_before) / sizeof(near_before[0]))

/* is the shown event at position pos, line line, where a near checkpoint
 * is due on the way to st->near's destination? */
static bool near_due(struct stepper *st, unsigned long pos, unsigned long line)
{
	unsigned long at = st->near.by_line ? line : pos;
	if (!st->near.on || at >= st->near.target)
		return false;
	bool due = false;
	while (st->near.next < NEAR_STEPS && st->near.target - at <= near_before[st->near.next]) {
		due = true;
		st->near.next++;
	}
	return due;
}

/* walk towards target (a position, or by_line a trace line) */
static void near_begin(struct stepper *st, unsigned long target, bool by_line)
{
	st->near.on = true;
	st->near.by_line = by_line;
	st->near.target = target;
	st->near.next = 0;
}

/*
 * Apply events up to and including the next shown one (expect lines on
 * the way are checked).  1 stepped, 0 at the end, -1 bad input.
 *
 * keep: the event will be looked at (printed, or tested by until): its
 * text, result and tracepoint log are kept.  Otherwise they are kept only
 * where a checkpoint is taken (a `back` may end there: a spaced one, or a
 * near one on the way to st->near's destination); the walk past the
 * rest is a replay's, without the formatting and the log that cost it
 * several times a replay's time.  The explanation is built from the log
 * when it is first shown (st_explain()): the model is still in the state
 * the event left.
 *
 * upto (a trace line, 0 for none): when the first event read is on a
 * later line, it is left unread (session_unread()), nothing is applied and
 * the result is 2; an event on that very line is kept.  An unshown event
 * on or before the line followed by a shown one after it is applied as
 * before: the caller sees st->line past its line and goes back one.
 * st->kept says whether the event was kept.
 */
static int st_next(struct stepper *st, bool keep, unsigned long upto)
{
	char err[512];
	/* a checkpoint is due at the shown event this call ends at */
	bool due = ckpt_due(&st->ck, st->pos + 1);
	bool kept = keep || due;
	bool first = true;
	for (;;) {
		struct event *ev;
		int r = session_next(&st->ss, &ev);
		if (r < 0) {
			fprintf(stderr, "%s\n", trace_error(st->ss.reader));
			return -1;
		}
		if (r == 0) {
			st->ended = true;
			return 0;
		}
		if (first && upto && ev->line > upto) {
			session_unread(&st->ss);
			return 2;
		}
		bool show = shown(ev);
		bool near = show && !due && near_due(st, st->pos + 1, ev->line);
		if ((upto && ev->line == upto) || near)
			kept = true;
		vmsys_set_tracepoint(st->ss.sys, kept ? tp_log_hook : NULL, &st->log);
		if (first) {
			st->diverged = false;
			st->why[0] = 0;
			first = false;
		}
		tp_log_clear(&st->log);
		struct outcome out = { 0 };
		if (session_apply(&st->ss, ev, &out, err, sizeof(err))) {
			fprintf(stderr, "%s:%lu:1: error: %s\n", st->path, ev->line, err);
			return -1;
		}
		if (!show) {
			if (ev->type == EV_EXPECT) {
				unsigned checked = 0;
				size_t o = strlen(st->why);
				if (expect_check(st->ss.sys, ev, st->why + o, sizeof(st->why) - o, &checked))
					st->diverged = true;
			}
			continue;
		}
		st->pos++;
		st->line = ev->line;
		st->pid = out.pid;
		st->explained = false;
		st->steps.n = 0;
		char w[512];
		if (!outcome_matches(ev, &out, w, sizeof(w))) {
			st->diverged = true;
			size_t o = strlen(st->why);
			snprintf(st->why + o, sizeof(st->why) - o, "  %s\n", w);
		}
		st->kept = kept;
		if (kept) {
			size_t n = trace_format_event(ev, st->ss.arch, st->ss.sem->flag_kernel, st->text,
						      sizeof(st->text));
			if (n >= sizeof(st->text))
				strcpy(st->text + sizeof(st->text) - 4, "...");
			if (out.kind == OUT_NONE)
				snprintf(st->result, sizeof(st->result), "-");
			else
				outcome_text(ev, &out, st->result, sizeof(st->result));
		} else {
			st->text[0] = st->result[0] = 0;
		}
		if (due)
			ckpt_take(&st->ck, st->pos, st->line); /* without it: slower, as exact */
		else if (near)
			ckpt_take_near(&st->ck, st->pos, st->line);
		return 1;
	}
}

/* the explanation of the event the model is at, built once from its log
 * (st_next()); false, with a message, if this machine is out of memory */
static bool st_explain(struct stepper *st)
{
	if (st->explained)
		return true;
	st->steps.n = 0;
	if (st->pos && !explain_build(&st->log, st->ss.sys, &st->steps)) {
		st->steps.n = 0;
		say(st, "error", "explain: out of memory");
		return false;
	}
	st->explained = true;
	return true;
}

/* hand the session to the checkpoint at position at, to go on with m
 * (does not return if it could) */
static void st_hand_over(struct stepper *st, unsigned long at, int mode, unsigned long target)
{
	struct step_resume m = { .mode = mode, .target = target, .cmd_wall_ns = st->cmd_wall_ns,
				 .cmd_cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - st->cmd_cpu_ns,
				 .cmd_cpu_start = st->cmd_cpu_ns };
	snprintf(m.last, sizeof(m.last), "%s", st->last);
	FILE *f = ckpt_carry_open(&st->ck, true);
	if (f) {
		lineedit_hist_write(&st->le, f);
		fclose(f);
	}
	ckpt_resume(&st->ck, at, &m, sizeof(m));
}

/* to shown event number k (0 = before the first): from the nearest
 * checkpoint if it is nearer than here, else from here or the start (and
 * when here is k but its event was not kept, from before it).
 * 1 there, 0 the trace ended before, -1 bad input. */
static int st_goto_mode(struct stepper *st, unsigned long k, int mode)
{
	unsigned long at;
	bool redo = st->pos == k && k && !st->kept;
	if (ckpt_best(&st->ck, k, false, &at) && (at > st->pos || st->pos > k || redo))
		st_hand_over(st, at, mode, k);
	if ((st->pos > k || redo) && st_open(st))
		return -1;
	near_begin(st, k, false);
	while (st->pos < k) {
		int r = st_next(st, st->pos + 1 == k, 0);
		if (r <= 0)
			return r;
	}
	if ((mode & ~RS_QUIET) == RS_POS_END)
		st->ended = true;
	return 1;
}

/* at the end of the trace after a walk that did not keep its last event
 * (next N): that event made again, kept, from a checkpoint or the start
 * (1, or -1 bad input; a hand-over does not return) */
static int st_keep_last(struct stepper *st)
{
	if (!st->pos || st->kept)
		return 1;
	return st_goto_mode(st, st->pos, RS_POS_END | RS_QUIET) < 0 ? -1 : 1;
}

static int st_goto(struct stepper *st, unsigned long k)
{
	return st_goto_mode(st, k, RS_POS);
}

/* to the last shown event on or before trace line L (0 events if none) */
static int st_goto_line(struct stepper *st, unsigned long L)
{
	unsigned long at;
	bool here = !st->pos || st->line <= L;
	if (ckpt_best(&st->ck, L, true, &at) && (!here || at > st->pos))
		st_hand_over(st, at, RS_LINE, L);
	if (!here && st_open(st))
		return -1;
	/* forward while the events are on or before L (the one after is left
	 * unread), keeping only an event on line L; one too far (an unshown
	 * event before it): back one.  Where the last event on or before L
	 * is on an earlier line (L is a comment, or past the end), it was
	 * not kept: it is made again from a checkpoint (st_goto()). */
	near_begin(st, L, true);
	while (!st->ended) {
		unsigned long prev = st->pos;
		int r = st_next(st, false, L);
		if (r < 0 || (r == 1 && st->line > L))
			return r < 0 ? -1 : st_goto(st, prev);
		if (r == 2)
			break;
	}
	return st->kept || !st->pos ? 1 : st_goto_mode(st, st->pos, st->ended ? RS_POS_END : RS_POS);
}

static struct task *st_task(struct stepper *st)
{
	int pid = st->want_pid ? st->want_pid : st->pid;
	return vmsys_task(st->ss.sys, pid, false);
}

/* the VMAs of the ruler's process and the list sizes, as JSON keys */
static void json_state(struct stepper *st)
{
	static const char *const lists[5] = { "inactive_anon", "active_anon", "inactive_file",
					      "active_file", "unevictable" };
	json_key(stdout, "lru_pages");
	fputc('{', stdout);
	for (int l = 0; l < 5; l++)
		printf("%s\"%s\": %" PRIu64, l ? ", " : "", lists[l], vmsys_lru_size(st->ss.sys, l));
	fputc('}', stdout);
	struct task *t = st_task(st);
	json_key(stdout, "vmas_pid");
	printf("%d", t && task_alive(t) ? task_pid(t) : 0);
	json_key(stdout, "vmas");
	fputc('[', stdout);
	struct vm_vma_info vi;
	const struct vma *v = NULL;
	bool first = true;
	while (t && task_alive(t) && (v = vmsys_vma_next(st->ss.sys, t, v, &vi))) {
		char fl[256];
		vmsys_vmflags_text(st->ss.sys, vi.flags, fl, sizeof(fl));
		printf("%s{\"start\": %" PRIu64 ", \"end\": %" PRIu64 ", \"VmFlags\": ", first ? "" : ", ",
		       vi.start, vi.end);
		json_str(stdout, fl);
		printf(", \"Rss_kB\": %" PRIu64 ", \"Locked_kB\": %" PRIu64 ", \"lock\": \"%s\"", vi.rss >> 10,
		       vi.locked >> 10,
		       (const char *[]){ "unlocked", "locked", "onfault" }[picture_lock_state(st->ss.sys, vi.flags)]);
		json_key(stdout, "path");
		if (vi.path)
			json_str(stdout, vi.path);
		else
			fputs("null", stdout);
		fputc('}', stdout);
		first = false;
	}
	fputc(']', stdout);
}

/* The current event as one JSON object of kind: where it is, its result,
 * a divergence's why, and with explain its steps, with state the VMAs and
 * lists */
static void json_event(struct stepper *st, const char *kind, bool explain, bool state)
{
	json_begin(stdout, kind);
	json_kv_str(stdout, "file", st->path);
	json_kv_u64(stdout, "line", st->pos ? st->line : 0);
	json_kv_str(stdout, "kernel", st->ss.sem->name);
	if (st->pos) {
		json_kv_str(stdout, "event", st->text);
		json_kv_i64(stdout, "pid", st->pid);
		json_kv_str(stdout, "result", st->result);
		json_kv_bool(stdout, "diverged", st->diverged);
		if (st->diverged)
			json_kv_str(stdout, "why", st->why);
	}
	json_kv_bool(stdout, "end", st->ended);
	if (explain && st_explain(st)) {
		json_key(stdout, "steps");
		explain_json(stdout, &st->steps, st->ss.sem);
	}
	if (state)
		json_state(st);
	json_end(stdout);
}

static void print_where(struct stepper *st)
{
	if (st->json) {
		json_event(st, "where", false, false);
		return;
	}
	char buf[1024];
	if (!st->pos) {
		snprintf(buf, sizeof(buf), "at the start of %s (no event applied)", st->path);
		picture_wrap(stdout, buf, st->width, 4);
		return;
	}
	char text[sizeof(st->text) * 4];
	if (isatty(STDOUT_FILENO))
		term_escape(text, sizeof(text), st->text);
	else
		snprintf(text, sizeof(text), "%s", st->text);
	char line[sizeof(text) + 1024];
	snprintf(line, sizeof(line), "%s:%lu: %s", st->path, st->line, text);
	picture_wrap(stdout, line, st->width, 4);
}

/* the ruler and the lists, their text lines (the key) wrapped to the width */
static void print_pictures(struct stepper *st, bool ruler, bool lists)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return;
	if (ruler)
		picture_ruler(m, st->ss.sys, st_task(st), st->width);
	if (lists)
		picture_lists(m, st->ss.sys, st->width);
	if (!fclose(m) && text)
		picture_wrap(stdout, text, st->width, 2);
	free(text);
}

/* the explanation, each step wrapped to the width */
static void print_explain(struct stepper *st)
{
	char *text = NULL;
	size_t len = 0;
	if (!st_explain(st))
		return;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return;
	explain_print(m, &st->steps, st->ss.sem, "  ");
	if (!fclose(m) && text)
		picture_wrap(stdout, text, st->width, 4);
	free(text);
}

static void print_result(struct stepper *st)
{
	if (!st->pos)
		return;
	printf("  => %s\n", st->result);
	if (st->diverged)
	{
		fputs("  DIVERGENCE: the trace says otherwise:\n", stdout);
		term_puts(stdout, st->why);
	}
}

static void print_step(struct stepper *st)
{
	if (st->json) {
		json_event(st, "step", true, true);
		return;
	}
	print_where(st);
	if (st->ended && !st->pos)
		return;
	print_explain(st);
	print_result(st);
	if (st->pictures)
		print_pictures(st, true, true);
}

/* a quantity of the model by name: false if unknown */
static bool quantity(struct stepper *st, const char *name, int64_t *v)
{
	static const char *const lists[] = {
		"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
	};
	for (int l = 0; l < 5; l++)
		if (!strcmp(name, lists[l])) {
			*v = (int64_t)vmsys_lru_size(st->ss.sys, l);
			return true;
		}
	if (!strcmp(name, "locked_vm") || !strcmp(name, "total_vm") || !strcmp(name, "rss") ||
	    !strcmp(name, "map_count")) {
		struct task *t = st_task(st);
		if (!t || !task_alive(t)) {
			*v = 0;
			return true;
		}
		struct vm_status s;
		vmsys_status(st->ss.sys, t, &s);
		if (!strcmp(name, "locked_vm"))
			*v = (int64_t)s.locked_vm;
		else if (!strcmp(name, "total_vm"))
			*v = (int64_t)s.total_vm;
		else if (!strcmp(name, "rss"))
			*v = (int64_t)(s.rss_anon + s.rss_file + s.rss_shmem);
		else
			*v = (int64_t)vmsys_map_count(st->ss.sys, t);
		return true;
	}
	int i = vmstat_find(name, (unsigned)strlen(name));
	if (i < 0)
		return false;
	*v = vmsys_vmstat(st->ss.sys, i);
	return true;
}

enum cond_kind { C_DIVERGENCE, C_CALL, C_LINE, C_END, C_CMP };
struct cond {
	enum cond_kind kind;
	char name[64];
	char op[8];
	int64_t value;
};

static int parse_cond(struct stepper *st, const char *s, struct cond *c)
{
	char a[64] = "", op[8] = "", b[64] = "", extra[8] = "";
	int n = sscanf(s, "%63s %7s %63s %7s", a, op, b, extra);
	memset(c, 0, sizeof(*c));
	if (n == 1 && !strcmp(a, "divergence")) {
		c->kind = C_DIVERGENCE;
		return 0;
	}
	if (n == 1 && !strcmp(a, "end")) {
		c->kind = C_END;
		return 0;
	}
	if (n == 2 && !strcmp(a, "call")) {
		c->kind = C_CALL;
		snprintf(c->name, sizeof(c->name), "%s", op);
		return 0;
	}
	char *end;
	if (n == 2 && !strcmp(a, "line")) {
		errno = 0;
		c->value = strtoll(op, &end, 10);
		if (*end || errno || c->value < 0)
			goto bad;
		c->kind = C_LINE;
		return 0;
	}
	if (n != 3)
		goto bad;
	static const char *const ops[] = { "<", "<=", "==", "!=", ">=", ">" };
	bool known = false;
	for (unsigned i = 0; i < 6; i++)
		known |= !strcmp(op, ops[i]);
	int64_t dummy;
	if (!known || !quantity(st, a, &dummy))
		goto bad;
	errno = 0;
	c->value = strtoll(b, &end, 0);
	if (*end || errno)
		goto bad;
	c->kind = C_CMP;
	snprintf(c->name, sizeof(c->name), "%s", a);
	snprintf(c->op, sizeof(c->op), "%s", op);
	return 0;
bad:
	say(st, "error", "until: cannot read '%s' (divergence, end, call NAME, line N, or QUANTITY OP NUMBER; "
	    "`help` lists the quantities)", s);
	return -1;
}

static bool cond_holds(struct stepper *st, const struct cond *c)
{
	int64_t v;
	switch (c->kind) {
	case C_DIVERGENCE:
		return st->diverged;
	case C_END:
		return false;
	case C_LINE:
		return st->line >= (unsigned long)c->value;
	case C_CALL: {
		size_t n = strlen(c->name);
		return !strncmp(st->text + strspn(st->text, "0123456789 "), c->name, n) &&
		       st->text[strspn(st->text, "0123456789 ") + n] == '(';
	}
	case C_CMP:
		if (!quantity(st, c->name, &v))
			return false;
		if (!strcmp(c->op, "<"))
			return v < c->value;
		if (!strcmp(c->op, "<="))
			return v <= c->value;
		if (!strcmp(c->op, "=="))
			return v == c->value;
		if (!strcmp(c->op, "!="))
			return v != c->value;
		if (!strcmp(c->op, ">="))
			return v >= c->value;
		return v > c->value;
	}
	return false;
}

static int parse_count(struct stepper *st, const char *arg, unsigned long *n)
{
	if (!*arg) {
		*n = 1;
		return 0;
	}
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 10);
	while (*end == ' ')
		end++;
	if (*end || errno || arg[0] == '-' || !v) {
		say(st, "error", "expected a count > 0, not '%s'", arg);
		return -1;
	}
	*n = v;
	return 0;
}

/* a view, as text or as show's JSON objects */
static void show_view(struct stepper *st, enum view_kind view, struct view_ctx *vc)
{
	if (!st->json)
		view_print(stdout, view, vc);
	else if (view_print_json(view, vc, st->path, st->pos ? st->line : 0))
		say(st, "error", "show: out of memory");
}

/* one command; 1 = quit, -1 = bad input of the trace (exit 2) */
static int command(struct stepper *st, const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	char cmd[32] = "";
	size_t cl = strcspn(line, " \t");
	snprintf(cmd, sizeof(cmd), "%.*s", (int)(cl < 31 ? cl : 31), line);
	const char *arg = line + cl;
	while (isspace((unsigned char)*arg))
		arg++;
	char argbuf[256];
	snprintf(argbuf, sizeof(argbuf), "%s", arg);
	for (size_t n = strlen(argbuf); n && isspace((unsigned char)argbuf[n - 1]); n--)
		argbuf[n - 1] = 0;
	arg = argbuf;
	unsigned long n;
	int r;

	if (!strcmp(cmd, "q") || !strcmp(cmd, "quit") || !strcmp(cmd, "exit"))
		return 1;
	if (!strcmp(cmd, "h") || !strcmp(cmd, "help") || !strcmp(cmd, "?")) {
		const char *c = strstr(step_usage, "  next");
		const char *e = strstr(step_usage, "\n\n  --");
		if (st->json) {
			json_begin(stdout, "help");
			json_kv_strn(stdout, "text", c ? c : "", (size_t)(e && c ? e - c : 0));
			json_end(stdout);
		} else {
			printf("%.*s\n", (int)(e && c ? e - c : 0), c ? c : "");
		}
		return 0;
	}
	if (!*cmd || !strcmp(cmd, "n") || !strcmp(cmd, "next")) {
		if (parse_count(st, arg, &n))
			return 0;
		near_begin(st, st->pos + n, false);
		for (unsigned long i = 0; i < n; i++) {
			r = st_next(st, i + 1 == n, 0);
			if (r < 0)
				return -1;
			if (!r) {
				say(st, "end", "end of trace after line %lu", st->line);
				return st_keep_last(st) < 0 ? -1 : 0;
			}
		}
		print_step(st);
		return 0;
	}
	if (!strcmp(cmd, "b") || !strcmp(cmd, "back")) {
		if (parse_count(st, arg, &n))
			return 0;
		unsigned long k = n >= st->pos ? 0 : st->pos - n;
		if (st_goto(st, k) < 0)
			return -1;
		print_step(st);
		return 0;
	}
	if (!strcmp(cmd, "g") || !strcmp(cmd, "goto")) {
		char *end;
		errno = 0;
		unsigned long target = strtoul(arg, &end, 10);
		if (!*arg || *end || errno || arg[0] == '-') {
			say(st, "error", "goto needs a trace line number");
			return 0;
		}
		if (st_goto_line(st, target) < 0)
			return -1;
		print_step(st);
		return 0;
	}
	if (!strcmp(cmd, "u") || !strcmp(cmd, "until")) {
		struct cond c;
		if (parse_cond(st, arg, &c))
			return 0;
		st->near.on = false; /* no destination known: no near checkpoints */
		for (;;) {
			r = st_next(st, true, 0);
			if (r < 0)
				return -1;
			if (!r) {
				say(st, "end", "end of trace after line %lu%s", st->line,
				    c.kind == C_END ? "" : ": the condition never held");
				if (st->pos)
					print_step(st);
				return 0;
			}
			if (cond_holds(st, &c))
				break;
		}
		print_step(st);
		return 0;
	}
	if (!strcmp(cmd, "s") || !strcmp(cmd, "show")) {
		int view = view_find(arg);
		if (view < 0) {
			say(st, "error", "show: unknown view '%s' (views: %s)", arg, view_list());
			return 0;
		}
		struct view_ctx vc = { st->ss.sys, NULL, st->ss.arch, st->ss.sem->name };
		if (!view_is_global((enum view_kind)view)) {
			vc.task = st_task(st);
			if (!vc.task) {
				say(st, "error", "show: no process yet");
				return 0;
			}
		}
		if (view_drains((enum view_kind)view) && !st->json)
			printf("(the pages and lru views are taken after draining the per-CPU batches;"
			       " the replay goes on undrained)\n");
		if (view_drains((enum view_kind)view) && ckpt_can_fork(&st->ck)) {
			/* draining changes the model: show a drained copy, made
			 * by fork() */
			fflush(NULL);
			pid_t p = fork();
			if (p == 0) {
				vm_drain_all(st->ss.sys);
				show_view(st, (enum view_kind)view, &vc);
				fflush(NULL);
				_exit(0);
			}
			int ws;
			if (p > 0)
				while (waitpid(p, &ws, 0) < 0 && errno == EINTR)
					;
			else
				say(st, "error", "show: cannot fork a drained copy: %s", strerror(errno));
		} else if (view_drains((enum view_kind)view)) {
			/* the same by replaying to here on a second session */
			struct stepper copy = *st;
			copy.open = false;
			copy.log = (struct tp_log){ 0 };
			copy.steps = (struct explain_steps){ 0 };
			copy.ck.every = 0;
			copy.ck.started = false;
			if (st_open(&copy) || st_goto(&copy, st->pos) < 0) {
				if (copy.open)
					session_close(&copy.ss);
				return -1;
			}
			vm_drain_all(copy.ss.sys);
			vc.sys = copy.ss.sys;
			if (vc.task)
				vc.task = st_task(&copy);
			show_view(st, (enum view_kind)view, &vc);
			session_close(&copy.ss);
			tp_log_free(&copy.log);
			explain_steps_free(&copy.steps);
		} else {
			show_view(st, (enum view_kind)view, &vc);
		}
		return 0;
	}
	if ((!strcmp(cmd, "e") || !strcmp(cmd, "explain")) && st->json) {
		json_event(st, "explain", true, false);
		return 0;
	}
	if ((!strcmp(cmd, "ruler") || !strcmp(cmd, "lists") || !strcmp(cmd, "w") || !strcmp(cmd, "where")) &&
	    st->json) {
		json_event(st, !strcmp(cmd, "ruler") || !strcmp(cmd, "lists") ? "state" : "where", false,
			   !strcmp(cmd, "ruler") || !strcmp(cmd, "lists"));
		return 0;
	}
	if (!strcmp(cmd, "e") || !strcmp(cmd, "explain")) {
		print_where(st);
		st_explain(st);
		if (st->pos && !st->steps.n)
			printf("  (the model did nothing it reports at this event)\n");
		print_explain(st);
		print_result(st);
		return 0;
	}
	if (!strcmp(cmd, "ruler")) {
		print_pictures(st, true, false);
		return 0;
	}
	if (!strcmp(cmd, "lists")) {
		print_pictures(st, false, true);
		return 0;
	}
	if (!strcmp(cmd, "w") || !strcmp(cmd, "where")) {
		print_where(st);
		print_result(st);
		return 0;
	}
	say(st, "error", "unknown command '%s' (help lists them)", cmd);
	return 0;
}

/* --timer: what the command took, in every process it ran in */
static void step_timer(struct stepper *st)
{
	if (!st->timer)
		return;
	double wall = (double)(clock_ns(CLOCK_MONOTONIC) - st->cmd_wall_ns) / 1e6;
	double cpu = (double)(clock_ns(CLOCK_PROCESS_CPUTIME_ID) - st->cmd_cpu_ns) / 1e6;
	if (st->json) {
		json_begin(stdout, "timer");
		printf(", \"wall_ms\": %.3f, \"cpu_ms\": %.3f", wall, cpu);
		json_end(stdout);
	} else {
		printf("time: %.3f ms wall, %.3f ms CPU\n", wall, cpu);
	}
}

/* the command loop: rc */
static int step_loop(struct stepper *st)
{
	const char *line;
	while ((line = lineedit_read(&st->le, "(vmsim) "))) {
		/* an empty line on a terminal repeats the last command */
		char cmd[256];
		snprintf(cmd, sizeof(cmd), "%s", (!*line && st->le.tty) ? st->last : line);
		if (*line)
			snprintf(st->last, sizeof(st->last), "%s", line);
		st->cmd_wall_ns = clock_ns(CLOCK_MONOTONIC);
		st->cmd_cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		int r = command(st, cmd);
		step_timer(st);
		fflush(stdout);
		if (r < 0)
			return 2;
		if (r > 0)
			break;
	}
	return 0;
}

/* the stepper of this run: static, because a process that resumes at a
 * checkpoint finds it through the jump back into cmd_step() */
static struct stepper the_stepper;
static jmp_buf resume_jump;
static struct step_resume resume_msg;

static void step_resumed(void *ctx, const void *msg, size_t len)
{
	(void)ctx;
	memset(&resume_msg, 0, sizeof(resume_msg));
	memcpy(&resume_msg, msg, len < sizeof(resume_msg) ? len : sizeof(resume_msg));
	resume_msg.last[sizeof(resume_msg.last) - 1] = 0;
	longjmp(resume_jump, 1);
}

/* in the process that took over at a checkpoint: the history of the one
 * before, then the rest of its command */
static int step_resume_finish(struct stepper *st)
{
	FILE *f = ckpt_carry_open(&st->ck, false);
	if (f) {
		lineedit_hist_read(&st->le, f);
		fclose(f);
	}
	snprintf(st->last, sizeof(st->last), "%s", resume_msg.last);
	st->cmd_wall_ns = resume_msg.cmd_wall_ns;
	/* a new process's clock began at the hand-over; a snapshot's
	 * restore ran on this process's clock, which counts it */
	st->cmd_cpu_ns = st->ck.mem ? resume_msg.cmd_cpu_start
				    : clock_ns(CLOCK_PROCESS_CPUTIME_ID) - resume_msg.cmd_cpu_ns;
	int r = (resume_msg.mode & ~RS_QUIET) == RS_LINE ? st_goto_line(st, resume_msg.target)
					     : st_goto_mode(st, resume_msg.target, resume_msg.mode);
	if (r < 0)
		return 2;
	if (!(resume_msg.mode & RS_QUIET))
		print_step(st);
	step_timer(st);
	fflush(stdout);
	return 0;
}

int cmd_step(int argc, char **argv)
{
	struct stepper *st = &the_stepper;
	memset(st, 0, sizeof(*st));
	st->o = (struct session_opts)SESSION_OPTS_INIT;
	st->width = 80;
	st->pictures = true;
	unsigned long every = 256;
	bool width_given = false, every_given = false;
	static const struct option longopts[] = {
		SESSION_LONGOPTS,
		{ "pid", required_argument, NULL, 'p' },
		{ "width", required_argument, NULL, 'w' },
		{ "no-pictures", no_argument, NULL, 'P' },
		{ "checkpoint-every", required_argument, NULL, 'C' },
		{ "timer", no_argument, NULL, 'T' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 0;
	int c;
	while ((c = session_getopt(&st->o, argc, argv, ":h", longopts, "step", step_usage,
				    NULL)) >= 0) {
		char *end;
		unsigned long v;
		switch (c) {
		case 'p':
		case 'w':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || errno || optarg[0] == '-' || !v ||
			    v > (c == 'p' ? 0x7fffffffUL : 400UL) || (c == 'w' && v < 40)) {
				fprintf(stderr, "vmsim step: %s needs a number%s, not '%s'\n",
					c == 'p' ? "--pid" : "--width", c == 'p' ? " > 0" : " from 40 to 400",
					optarg);
				return 2;
			}
			if (c == 'p')
				st->want_pid = (int)v;
			else {
				st->width = (unsigned)v;
				width_given = true;
			}
			break;
		case 'C':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || errno || optarg[0] == '-' || v > 100000000UL) {
				fprintf(stderr, "vmsim step: --checkpoint-every needs a number from 0 to 100000000, not '%s'\n",
					optarg);
				return 2;
			}
			every = v;
			every_given = true;
			break;
		case 'P':
			st->pictures = false;
			break;
		case 'T':
			st->timer = true;
			break;
		case 'F':
			if (json_format_arg("step", "--format", optarg, &st->json))
				return 2;
			break;
		}
	}
	if (c != -1)
		return session_getopt_exit(c);
	if (optind + 1 != argc) {
		session_usage_error("step", step_usage, "%s", optind >= argc ? "no trace given" : "one trace at a time");
		return 2;
	}
	st->path = st->read_path = argv[optind];
	/* on a terminal, its width (40 to 400 columns) unless --width */
	struct winsize ws;
	if (!width_given && isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		st->width = ws.ws_col < 40 ? 40 : ws.ws_col > 400 ? 400 : ws.ws_col;
	/* back, goto and the checkpoints read the trace again from where
	 * they were: a regular file, or a copy in one */
	char envwhy[160];
	if (!ckpt_env_check(envwhy, sizeof(envwhy))) {
		fprintf(stderr, "vmsim step: %s\n", envwhy);
		return 2;
	}
	ckpt_init(&st->ck, every, every_given ? 0 : 30 * 1000000u, step_resumed, st);
	struct stat sb;
	if ((!strcmp(st->path, "-") || (!stat(st->path, &sb) && !S_ISREG(sb.st_mode))) &&
	    spool_trace(st))
		return 2;
	int rc = 0;
	if (st_open(st)) {
		rc = 2;
	} else {
		lineedit_init(&st->le);
		snprintf(st->last, sizeof(st->last), "next");
		if (setjmp(resume_jump)) {
			/* a process that took over at a checkpoint */
			rc = step_resume_finish(st);
		} else {
			/* the first checkpoint, before any event: going back to
			 * the start is then a small process's copy, where closing
			 * a large model here would copy every page it frees */
			ckpt_take(&st->ck, 0, 0);
			if (st->le.tty && !st->json)
				printf("vmsim step %s (%s): `help` for commands, ^D to quit\n", st->path,
				       st->ss.sem->name);
			print_where(st);
		}
		if (!rc)
			rc = step_loop(st);
		lineedit_free(&st->le);
	}
	if (st->open)
		session_close(&st->ss);
	tp_log_free(&st->log);
	explain_steps_free(&st->steps);
	return rc;
}
