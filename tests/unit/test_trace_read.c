/*
 * test_trace_read.c - the streaming trace reader: every line form of the
 * spec, every malformed case (with its line:col message), and every real
 * log in tests/strace-logs/ and shared/golden/.
 */
#include "check_run.h"
#include <check.h>
#include <dirent.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace.h"
#include "trace_bin.h"
#include "syscall_table.h"

#ifndef VMSIM_SRCDIR
#define VMSIM_SRCDIR "."
#endif

/* ---- helpers ----------------------------------------------------------- */

static FILE *text_file(const char *s, size_t n)
{
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(s, 1, n, f), n);
	rewind(f);
	return f;
}

struct rd {
	FILE *f;
	struct trace_reader *r;
	struct event ev;
};

static void rd_open(struct rd *d, const char *s, size_t n)
{
	char err[256];
	d->f = text_file(s, n);
	d->r = trace_open_stream(d->f, "t.trace", NULL, NULL, err, sizeof(err));
	ck_assert_msg(d->r != NULL, "open: %s", err);
}

static void rd_close(struct rd *d)
{
	trace_close(d->r);
	fclose(d->f);
}

/* the one event of a one-line trace */
static struct event one_ev;
static char one_buf[4096];
static struct rd one_rd;

static const struct event *one(const char *line)
{
	snprintf(one_buf, sizeof(one_buf), "%s\n", line);
	rd_open(&one_rd, one_buf, strlen(one_buf));
	int rc = trace_read(one_rd.r, &one_ev);
	ck_assert_msg(rc == 1, "'%s': rc %d: %s", line, rc, trace_error(one_rd.r));
	return &one_ev;
}

static void one_done(void)
{
	struct event ev;
	ck_assert_int_eq(trace_read(one_rd.r, &ev), 0);
	rd_close(&one_rd);
}

/* the error message for text (which must fail) */
static char err_buf[1024];

static const char *error_of(const char *s, size_t n)
{
	struct rd d;
	struct event ev;
	int rc;
	rd_open(&d, s, n);
	while ((rc = trace_read(d.r, &ev)) == 1)
		;
	ck_assert_msg(rc == -1, "expected an error for '%s'", s);
	snprintf(err_buf, sizeof(err_buf), "%s", trace_error(d.r));
	rd_close(&d);
	return err_buf;
}

#define ck_error(text, expect_substr)                                            \
	do {                                                                     \
		const char *m_ = error_of(text, strlen(text));                   \
		ck_assert_msg(strstr(m_, expect_substr) != NULL,                 \
			      "error for '%s' is '%s', wanted '%s'", text, m_,   \
			      expect_substr);                                    \
	} while (0)

static bool slice_is(struct strslice s, const char *t)
{
	return s.len == strlen(t) && memcmp(s.p, t, s.len) == 0;
}

/* ---- calls ------------------------------------------------------------- */

START_TEST(mmap_basic)
{
	const struct event *e = one("mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000");
	ck_assert_int_eq(e->type, EV_CALL);
	ck_assert_int_eq(e->sys, SYS_MMAP);
	ck_assert_uint_eq(e->nargs, 6);
	ck_assert_uint_eq(e->args[0], 0);
	ck_assert_uint_eq(e->args[1], 8192);
	ck_assert_uint_eq(e->args[2], 3);       /* PROT_READ|PROT_WRITE */
	ck_assert_uint_eq(e->args[3], 0x22);    /* x86_64 MAP_PRIVATE|MAP_ANONYMOUS */
	ck_assert_uint_eq(e->args[4], (uint64_t)-1);
	ck_assert_uint_eq(e->args[5], 0);
	ck_assert_int_eq(e->res, RES_VALUE);
	ck_assert_int_eq(e->value, 0x7f0000000000);
	ck_assert_int_eq(e->pid, 0);
	ck_assert(e->timestamp < 0);
	ck_assert_uint_eq(e->line, 1);
	one_done();
}
END_TEST

/* Every strace notation a user's log may have (issue: real programs in) */
START_TEST(strace_notations)
{
	/* a bit strace has no name for, as a comment, inside a flag set (the
	 * kernel's mlock2 selftest maps with the old MAP_LOCKONFAULT bit) */
	const struct event *e = one("mmap(NULL, 8192, PROT_READ, 0x80000 /* MAP_??? */|MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000");
	ck_assert_uint_eq(e->args[3], 0x80022);
	one_done();
	/* -X verbose: a number and its names in a comment */
	e = one("mmap(NULL, 8192, 0x3 /* PROT_READ|PROT_WRITE */, 0x22 /* MAP_PRIVATE|MAP_ANONYMOUS */, -1, 0) = 0x7f0000000000");
	ck_assert_uint_eq(e->args[2], 3);
	ck_assert_uint_eq(e->args[3], 0x22);
	one_done();
	/* -yy: a device inside the path annotation, and a socket's "->" */
	e = one("1234  write(1</dev/null<char 1:3>>, \"hi\\n\", 3) = 3");
	ck_assert_int_eq(e->sys, SYS_WRITE);
	ck_assert_uint_eq(e->args[0], 1);
	one_done();
	e = one("close(5<TCP:[127.0.0.1:40000->127.0.0.1:80]>) = 0");
	ck_assert_uint_eq(e->args[0], 5);
	one_done();
	e = one("openat(AT_FDCWD</tmp/rp>, \"/dev/null\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</dev/null<char 1:3>>");
	ck_assert_int_eq(e->value, 3);
	one_done();
	/* -n syscall number and -i instruction pointer after pid and time */
	e = one("4136  12:00:01.000001 [  59] [00007f776a42cad7] execve(\"./p\", [\"./p\"], 0x7ffc /* 41 vars */) = 0");
	ck_assert_int_eq(e->sys, SYS_EXECVE);
	ck_assert_int_eq(e->pid, 4136);
	one_done();
	e = one("4136  [ 231] [????????????????] +++ exited with 0 +++");
	ck_assert_int_eq(e->type, EV_EXITED);
	one_done();
	/* -r: a relative timestamp */
	e = one("4141       0.000336 brk(NULL)           = 0x55d8f6790000");
	ck_assert_int_eq(e->sys, SYS_BRK);
	ck_assert(e->timestamp > 0.0003 && e->timestamp < 0.0004);
	one_done();
	/* -T call duration after the result */
	e = one("munmap(0x7f0000000000, 4096) = 0 <0.000012>");
	ck_assert_int_eq(e->res, RES_VALUE);
	one_done();
	/* -X raw/verbose si_code */
	e = one("--- SIGSEGV {si_signo=SIGSEGV, si_code=0x1 /* SEGV_MAPERR */, si_addr=0x10} ---");
	ck_assert(slice_is(e->si_code, "SEGV_MAPERR"));
	one_done();
	e = one("--- SIGSEGV {si_signo=SIGSEGV, si_code=2, si_addr=0x10} ---");
	ck_assert(slice_is(e->si_code, "SEGV_ACCERR"));
	one_done();
}
END_TEST

/* -k: the stack frames strace prints after a call are not events */
START_TEST(strace_stack_frames)
{
	static const char t[] =
		"4147  brk(NULL)                         = 0x55c3db54c000\n"
		" > /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2(_dl_catch_error+0x77c7) [0x1fc47]\n"
		" > /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2(_dl_catch_error+0x1e7f) [0x1a2ff]\n"
		"4147  munmap(0x7f0000000000, 4096) = 0\n";
	struct rd d;
	rd_open(&d, t, sizeof(t) - 1);
	ck_assert_int_eq(trace_read(d.r, &d.ev), 1);
	ck_assert_int_eq(d.ev.sys, SYS_BRK);
	ck_assert_int_eq(trace_read(d.r, &d.ev), 1);
	ck_assert_int_eq(d.ev.sys, SYS_MUNMAP);
	ck_assert_uint_eq(d.ev.line, 4);
	ck_assert_int_eq(trace_read(d.r, &d.ev), 0);
	rd_close(&d);
}
END_TEST

/* calls that only tell the model something, or make descriptors */
START_TEST(descriptor_and_stat_calls)
{
	const struct event *e = one("newfstatat(3, \"\", {st_mode=S_IFREG|0644, st_size=41615, ...}, AT_EMPTY_PATH) = 0");
	ck_assert_int_eq(e->sys, SYS_NEWFSTATAT);
	ck_assert_uint_eq(e->args[0], 3);
	ck_assert_uint_eq(e->args[1], 41615);
	ck_assert_uint_eq(e->args[2], 1);
	one_done();
	e = one("fstat(3, {st_mode=S_IFREG|0755, st_size=1926232, ...}) = 0");
	ck_assert_int_eq(e->sys, SYS_FSTAT);
	ck_assert_uint_eq(e->args[1], 1926232);
	one_done();
	e = one("statx(AT_FDCWD, \"/x\", AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS, {stx_mask=STATX_BASIC_STATS, stx_size=77, ...}) = 0");
	ck_assert_int_eq(e->sys, SYS_STATX);
	ck_assert_uint_eq(e->args[1], 77);
	one_done();
	e = one("stat(\"/nope\", 0x7ffc1000) = -1 ENOENT (No such file or directory)");
	ck_assert_uint_eq(e->args[2], 0);
	one_done();
	e = one("pipe2([3<pipe:[77]>, 4<pipe:[77]>], O_CLOEXEC) = 0");
	ck_assert_int_eq(e->sys, SYS_PIPE2);
	ck_assert_uint_eq(e->args[0], 3);
	ck_assert_uint_eq(e->args[1], 4);
	one_done();
	e = one("fcntl(2, F_DUPFD, 10) = 11");
	ck_assert_uint_eq(e->args[1], 0);
	ck_assert_uint_eq(e->args[2], 10);
	one_done();
	e = one("fcntl(3, F_SETFD, FD_CLOEXEC) = 0");
	ck_assert_uint_eq(e->args[1], FCNTL_OTHER);
	one_done();
	e = one("eventfd2(0, EFD_CLOEXEC) = 5");
	ck_assert_int_eq(e->sys, SYS_FDNEW);
	one_done();
	e = one("memfd_create(\"buf\", MFD_CLOEXEC) = 6");
	ck_assert_int_eq(e->sys, SYS_MEMFD_CREATE);
	ck_assert(slice_is(e->str, "buf"));
	one_done();
	e = one("fadvise64(3, 0, 0, POSIX_FADV_DONTNEED) = 0");
	ck_assert_uint_eq(e->args[3], 4);
	one_done();
	e = one("inherit(\"7ffd0000-7ffd2000 rw-p 00000000 00:00 0  [stack]\", \"rd wr mr mw me gd ac\", \"1\") = 0");
	ck_assert_int_eq(e->sys, SYS_INHERIT);
	ck_assert(slice_is(e->str3, "1"));
	one_done();
	e = one("inherit_file(\"/usr/bin/ls\", 151344, \"0-36\") = 0");
	ck_assert_uint_eq(e->args[0], 151344);
	one_done();
	e = one("evict(\"/usr/bin/ls\", 12, 4) = 0");
	ck_assert_uint_eq(e->args[0], 12);
	ck_assert_uint_eq(e->args[1], 4);
	one_done();
}
END_TEST

/* strace -ff -tt: one file per process, merged by time, children after
 * the fork that made them */
START_TEST(ff_merged)
{
	glob_t g;
	ck_assert_int_eq(glob(VMSIM_SRCDIR "/tests/strace-logs/forks-ff.*", 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, 2);
	ck_assert(trace_paths_are_ff((const char *const *)g.gl_pathv, g.gl_pathc));
	char err[512];
	struct trace_reader *r = trace_open_merged((const char *const *)g.gl_pathv, g.gl_pathc, NULL,
						   NULL, err, sizeof(err));
	ck_assert_msg(r != NULL, "%s", err);
	struct event ev;
	double last = -1;
	int root = 0, k, n = 0, children_seen = 0;
	int known[64];
	unsigned nknown = 0;
	while ((k = trace_read(r, &ev)) > 0) {
		if (!root)
			root = ev.pid;
		ck_assert(ev.src != NULL);
		ck_assert_int_ne(ev.pid, 0);
		if (ev.pid != root) {
			bool ok = false;
			for (unsigned i = 0; i < nknown; i++)
				ok |= known[i] == ev.pid;
			ck_assert_msg(ok, "line of %d before its fork returned", ev.pid);
			children_seen++;
		}
		if (ev.type == EV_CALL && (ev.sys == SYS_CLONE || ev.sys == SYS_FORK) &&
		    ev.res == RES_VALUE && nknown < 64)
			known[nknown++] = (int)ev.value;
		ck_assert(ev.timestamp >= last || ev.pid != root);
		if (ev.pid == root)
			last = ev.timestamp;
		n++;
	}
	ck_assert_int_eq(k, 0);
	ck_assert_int_gt(n, 20);
	ck_assert_int_gt(children_seen, 0);
	trace_close(r);
	globfree(&g);
	/* whole-second timestamps (-t) cannot order the files */
	ck_assert_int_eq(glob(VMSIM_SRCDIR "/tests/strace-logs/ff-seconds/forks.*", 0, NULL, &g), 0);
	r = trace_open_merged((const char *const *)g.gl_pathv, g.gl_pathc, NULL, NULL, err, sizeof(err));
	ck_assert_msg(r == NULL && strstr(err, "-tt or -ttt") && strstr(err, ":1:1: error:"), "%s", err);
	globfree(&g);
	/* different prefixes are separate traces */
	const char *two[] = { "a.12", "b.13" };
	ck_assert(!trace_paths_are_ff(two, 2));
}
END_TEST

/* strace -ff files merged by time: across midnight (-tt is a time of
 * day), and the inputs that cannot be ordered - two files of one process,
 * -tt beside -ttt, time going backwards inside a file */
static struct trace_reader *ff_open(const char *dir, const char *const *names, const char *const *texts,
				    size_t n, char *err, size_t errlen)
{
	char paths[8][256];
	const char *pp[8];
	for (size_t i = 0; i < n; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, names[i]);
		FILE *f = fopen(paths[i], "w");
		ck_assert_ptr_nonnull(f);
		fputs(texts[i], f);
		fclose(f);
		pp[i] = paths[i];
	}
	return trace_open_merged(pp, n, NULL, NULL, err, errlen);
}

START_TEST(ff_midnight_and_disorder)
{
	char dir[] = "/tmp/vmsim-ff-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char err[512];
	/* the parent forks a second before midnight, the child runs after it */
	const char *names[] = { "p.100", "p.101" };
	const char *texts[] = {
		"23:59:59.000000 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000\n"
		"23:59:59.500000 fork() = 101\n"
		"00:00:01.000000 getpid() = 100\n"
		"00:00:03.000000 wait4(-1, NULL, 0, NULL) = 101\n",
		"23:59:59.900000 munmap(0x7f0000000000, 4096) = 0\n"
		"00:00:02.000000 exit_group(0) = ?\n"
		"00:00:02.000001 +++ exited with 0 +++\n",
	};
	struct trace_reader *r = ff_open(dir, names, texts, 2, err, sizeof(err));
	ck_assert_msg(r != NULL, "%s", err);
	struct event ev;
	int order[8], n = 0, k;
	while ((k = trace_read(r, &ev)) > 0 && n < 8)
		order[n++] = ev.pid;
	ck_assert_int_eq(k, 0);
	/* mmap, fork (100), munmap (101) before midnight; getpid (100),
	 * exit_group, exited (101), wait4 (100) after it */
	ck_assert_int_eq(n, 7);
	static const int want[] = { 100, 100, 101, 100, 101, 101, 100 };
	for (int i = 0; i < 7; i++)
		ck_assert_msg(order[i] == want[i], "event %d of %d, wanted %d", i, order[i], want[i]);
	trace_close(r);
	/* two files of one process */
	const char *dup[] = { "q.300", "q.0300" };
	const char *dtexts[] = { "10:00:00.000000 getpid() = 300\n", "10:00:01.000000 getpid() = 300\n" };
	r = ff_open(dir, dup, dtexts, 2, err, sizeof(err));
	ck_assert_msg(r == NULL && strstr(err, "two files of process 300"), "%s", err);
	/* -tt beside -ttt */
	const char *mixed[] = { "m.10", "m.11" };
	const char *mtexts[] = { "10:00:00.000000 fork() = 11\n", "1700000000.000000 getpid() = 11\n" };
	r = ff_open(dir, mixed, mtexts, 2, err, sizeof(err));
	if (r) {
		while ((k = trace_read(r, &ev)) > 0)
			;
		ck_assert_int_eq(k, -1);
		snprintf(err, sizeof(err), "%s", trace_error(r));
		trace_close(r);
	}
	ck_assert_msg(strstr(err, "share one clock"), "%s", err);
	/* time going backwards inside a file (not across midnight) */
	const char *back[] = { "b.20" };
	const char *btexts[] = { "10:00:05.000000 getpid() = 20\n10:00:01.000000 getpid() = 20\n" };
	r = ff_open(dir, back, btexts, 1, err, sizeof(err));
	if (r) {
		while ((k = trace_read(r, &ev)) > 0)
			;
		ck_assert_int_eq(k, -1);
		snprintf(err, sizeof(err), "%s", trace_error(r));
		trace_close(r);
	}
	ck_assert_msg(strstr(err, "time goes backwards") && strstr(err, "b.20:2:1:"), "%s", err);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* read a merged set to its end: the pids in order into order[], the
 * last trace_read()'s value; err gets an open's or a read's error */
static int ff_run(const char *dir, const char *const *names, const char *const *texts, size_t n,
		  int *order, int max, int *count, char *err, size_t errlen)
{
	struct trace_reader *r = ff_open(dir, names, texts, n, err, errlen);
	*count = 0;
	if (!r)
		return -2;
	struct event ev;
	int k;
	while ((k = trace_read(r, &ev)) > 0)
		if (*count < max)
			order[(*count)++] = ev.pid;
	if (k < 0)
		snprintf(err, errlen, "%s", trace_error(r));
	trace_close(r);
	return k;
}

/* the -ff inputs of issue 60's item 6: a run that crosses midnight long
 * after it began, a line exactly 12 hours back, relative (-r) stamps, a
 * time of day past 23:59:60, a pid of 2^32 + 100, a fork cycle */
START_TEST(ff_clock_and_cycles)
{
	char dir[] = "/tmp/vmsim-ff-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char err[512];
	int order[16], n;
	/* the child starts 90 minutes after midnight, 14 hours after the
	 * root's first line: placed by its parent's fork, not by the first
	 * line of the set, it runs after the root's 23:30 call */
	const char *ln[] = { "l.100", "l.101" };
	const char *lt[] = {
		"10:00:00.000000 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000\n"
		"23:00:00.000000 fork() = 101\n"
		"23:30:00.000000 munmap(0x7f0000000000, 4096) = 0\n"
		"00:40:00.000000 wait4(-1, NULL, 0, NULL) = 101\n",
		"00:30:00.000000 getpid() = 101\n"
		"00:35:00.000000 exit_group(0) = ?\n"
		"00:35:00.000001 +++ exited with 0 +++\n",
	};
	ck_assert_int_eq(ff_run(dir, ln, lt, 2, order, 16, &n, err, sizeof(err)), 0);
	static const int lwant[] = { 100, 100, 100, 101, 101, 101, 100 };
	ck_assert_int_eq(n, 7);
	for (int i = 0; i < 7; i++)
		ck_assert_msg(order[i] == lwant[i], "event %d of %d, wanted %d", i, order[i], lwant[i]);
	/* exactly 12 hours back: the next day, as the docs say */
	const char *hn[] = { "h.100", "h.101" };
	const char *ht[] = { "22:00:00.000000 fork() = 101\n10:00:00.000000 getpid() = 100\n",
			     "22:00:00.500000 getpid() = 101\n" };
	ck_assert_msg(ff_run(dir, hn, ht, 2, order, 16, &n, err, sizeof(err)) == 0 && n == 3, "%s", err);
	/* strace -r: relative stamps cannot order the files */
	const char *rn[] = { "r.100", "r.101" };
	const char *rt[] = { "     0.000000 fork() = 101\n     0.000100 getpid() = 100\n",
			     "     0.000000 getpid() = 101\n" };
	ck_assert_int_lt(ff_run(dir, rn, rt, 2, order, 16, &n, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "r.100:1:1: error:") && strstr(err, "relative (-r"), "%s", err);
	/* 25:61:61 is no time of day */
	const char *tn[] = { "t.100", "t.101" };
	const char *tt[] = { "25:61:61.000000 fork() = 101\n", "10:00:00.000000 getpid() = 101\n" };
	ck_assert_int_lt(ff_run(dir, tn, tt, 2, order, 16, &n, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "t.100:1:1: error: not a time of day: 25:61:61"), "%s", err);
	/* PREFIX.4294967396 is not process 100 */
	const char *pn[] = { "p.100", "p.4294967396" };
	const char *pt[] = { "10:00:00.000000 getpid() = 100\n", "10:00:00.000000 getpid() = 100\n" };
	ck_assert_int_eq(ff_run(dir, pn, pt, 2, order, 16, &n, err, sizeof(err)), -2);
	ck_assert_msg(strstr(err, "p.4294967396: the process id of the file's name is too large"), "%s", err);
	/* 100 forks 200, 200 forks 100 */
	const char *cn[] = { "c.100", "c.200" };
	const char *ct[] = { "10:00:00.000000 fork() = 200\n10:00:01.000000 getpid() = 100\n",
			     "10:00:00.500000 fork() = 100\n" };
	ck_assert_int_lt(ff_run(dir, cn, ct, 2, order, 16, &n, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "c.200:1:1: error: a fork-like call returned 100, a process that runs already"),
		      "%s", err);
	/* a pid used again after its exit: the file goes on */
	const char *un[] = { "u.100", "u.101" };
	const char *ut[] = { "10:00:00.000000 fork() = 101\n10:00:02.000000 fork() = 101\n",
			     "10:00:01.000000 exit_group(0) = ?\n10:00:01.000001 +++ exited with 0 +++\n"
			     "10:00:03.000000 getpid() = 101\n" };
	ck_assert_msg(ff_run(dir, un, ut, 2, order, 16, &n, err, sizeof(err)) == 0 && n == 5, "%d %s", n, err);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(mmap_numeric_rest_and_comment)
{
	const struct event *e = one("mmap(0x1000, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|0x100000, -1, 0x2000) = -1 ENOMEM (Cannot allocate memory)");
	ck_assert_uint_eq(e->args[0], 0x1000);
	ck_assert_uint_eq(e->args[3], 0x22 | 0x100000);
	ck_assert_uint_eq(e->args[5], 0x2000);
	ck_assert_int_eq(e->res, RES_ERROR);
	ck_assert_int_eq(e->err, 12);
	one_done();
	e = one("mlockall(0x8 /* MCL_??? */) = -1 EINVAL (Invalid argument)");
	ck_assert_int_eq(e->sys, SYS_MLOCKALL);
	ck_assert_uint_eq(e->args[0], 8);
	ck_assert_int_eq(e->err, 22);
	one_done();
	e = one("mlockall(MCL_CURRENT|MCL_ONFAULT) = 0");
	ck_assert_uint_eq(e->args[0], 1 | 4);
	one_done();
	e = one("mlock2(0x7f0000, 8192, MLOCK_ONFAULT) = 0");
	ck_assert_uint_eq(e->args[2], 1);
	one_done();
	e = one("madvise(0x7f0000, 8192, MADV_DONTNEED) = 0");
	ck_assert_uint_eq(e->args[2], 4);
	one_done();
	e = one("mremap(0x1000, 4096, 8192, MREMAP_MAYMOVE|MREMAP_FIXED, 0x400000) = 0x400000");
	ck_assert_uint_eq(e->nargs, 5);
	ck_assert_uint_eq(e->args[3], 3);
	ck_assert_uint_eq(e->args[4], 0x400000);
	one_done();
	e = one("mremap(0x1000, 4096, 8192, MREMAP_MAYMOVE) = 0x400000");
	ck_assert_uint_eq(e->nargs, 4);
	ck_assert_uint_eq(e->args[4], 0);
	one_done();
}
END_TEST

START_TEST(results)
{
	const struct event *e = one("exit_group(0) = ?");
	ck_assert_int_eq(e->res, RES_UNKNOWN);
	one_done();
	e = one("munmap(0x1000, 4096)                   = 0");
	ck_assert_int_eq(e->res, RES_VALUE);
	ck_assert_int_eq(e->value, 0);
	one_done();
	e = one("poll([{fd=3, events=POLLIN}], 1, 0) = 0 (Timeout)");
	ck_assert_int_eq(e->sys, SYS_UNKNOWN);
	ck_assert_int_eq(e->value, 0);
	one_done();
	e = one("openat(AT_FDCWD, \"/dev/shm/x\", O_RDWR) = 3</dev/shm/x> <0.000036>");
	ck_assert_int_eq(e->value, 3);
	one_done();
	e = one("ppoll([{fd=3, events=POLLIN}], 1, NULL, NULL, 8) = 1 ([{fd=3, revents=POLLIN}])");
	ck_assert_int_eq(e->value, 1);
	one_done();
	e = one("wait4(-1, 0x7ffc, 0, NULL) = ? ERESTARTSYS (To be restarted if SA_RESTART is set)");
	ck_assert_int_eq(e->res, RES_RESTART);
	one_done();
	e = one("wait4(-1, 0x7ffc, 0, NULL) = -1 ECHILD (No child processes)");
	ck_assert_int_eq(e->err, 10);
	one_done();
}
END_TEST

START_TEST(prefixes)
{
	const struct event *e = one("1234  mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x1000");
	ck_assert_int_eq(e->pid, 1234);
	one_done();
	e = one("[pid  77] munmap(0x1000, 4096) = 0");
	ck_assert_int_eq(e->pid, 77);
	one_done();
	e = one("12:34:56 munmap(0x1000, 4096) = 0");
	ck_assert(e->timestamp == 12 * 3600 + 34 * 60 + 56);
	one_done();
	e = one("5 12:34:56.250000 munmap(0x1000, 4096) = 0");
	ck_assert_int_eq(e->pid, 5);
	ck_assert(e->timestamp == 12 * 3600 + 34 * 60 + 56.25);
	one_done();
	e = one("1700000000.500000 munmap(0x1000, 4096) = 0");
	ck_assert_int_eq(e->pid, 0);
	ck_assert(e->timestamp == 1700000000.5);
	one_done();
	e = one("[pid 9] 1700000000.5 munmap(0x1000, 4096) = 0");
	ck_assert_int_eq(e->pid, 9);
	ck_assert(e->timestamp == 1700000000.5);
	one_done();
}
END_TEST

START_TEST(files_and_limits)
{
	const struct event *e = one("openat(AT_FDCWD, \"/tmp/a\\\"b\\n\\x41\\101\", O_RDWR|O_CREAT|O_TRUNC|O_CLOEXEC, 0600) = 3");
	ck_assert_int_eq(e->sys, SYS_OPENAT);
	ck_assert_uint_eq(e->args[0], (uint64_t)-100);
	ck_assert_uint_eq(e->args[2], 02 | 0100 | 01000 | 02000000);
	ck_assert_uint_eq(e->args[3], 0600);
	ck_assert_uint_eq(e->nargs, 4);
	ck_assert(slice_is(e->str, "/tmp/a\"b\nAA"));
	one_done();
	e = one("open(\"/x\", O_RDONLY) = 3");
	ck_assert_uint_eq(e->args[0], (uint64_t)-100);
	ck_assert_uint_eq(e->args[2], 0);
	ck_assert_uint_eq(e->nargs, 3);
	ck_assert(slice_is(e->str, "/x"));
	one_done();
	e = one("open(\"/x\", O_WRONLY|O_SYNC|O_TMPFILE, 0644) = 3");
	ck_assert_uint_eq(e->args[2], 1 | 04010000 | 020200000);
	one_done();
	e = one("unlinkat(AT_FDCWD, \"/tmp/z\", 0) = 0");
	ck_assert_int_eq(e->sys, SYS_UNLINK);
	ck_assert(slice_is(e->str, "/tmp/z"));
	one_done();
	e = one("fallocate(3, FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE, 0, 4096) = 0");
	ck_assert_uint_eq(e->args[1], 3);
	ck_assert_uint_eq(e->args[3], 4096);
	one_done();
	e = one("pwrite64(3, \"xxxxxxxx\"..., 8192, 28672) = 8192");
	ck_assert_uint_eq(e->args[0], 3);
	ck_assert_uint_eq(e->args[2], 8192);
	ck_assert_uint_eq(e->args[3], 28672);
	one_done();
	e = one("prlimit64(0, RLIMIT_MEMLOCK, {rlim_cur=64*1024, rlim_max=RLIM64_INFINITY}, NULL) = 0");
	ck_assert_uint_eq(e->args[1], 8);
	ck_assert(e->has_rlim);
	ck_assert_uint_eq(e->rlim_cur, 65536);
	ck_assert_uint_eq(e->rlim_max, RLIM_INFINITY_VALUE);
	one_done();
	e = one("prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}) = 0");
	ck_assert_uint_eq(e->args[1], 3);
	ck_assert(!e->has_rlim);
	one_done();
	e = one("setrlimit(RLIMIT_MEMLOCK, {rlim_cur=8*1024*1024, rlim_max=RLIM_INFINITY}) = 0");
	ck_assert_uint_eq(e->args[0], 8);
	ck_assert_uint_eq(e->rlim_cur, 8 << 20);
	one_done();
	e = one("capset({version=_LINUX_CAPABILITY_VERSION_3, pid=0}, {effective=1<<CAP_IPC_LOCK|1<<CAP_CHOWN, permitted=1<<CAP_IPC_LOCK, inheritable=0}) = 0");
	ck_assert_uint_eq(e->cap_effective, (1u << 14) | 1);
	one_done();
	e = one("capset({version=_LINUX_CAPABILITY_VERSION_3, pid=0}, {effective=0x4000, permitted=0, inheritable=0}) = 0");
	ck_assert_uint_eq(e->cap_effective, 1u << 14);
	one_done();
	e = one("capset({version=_LINUX_CAPABILITY_VERSION_3, pid=0}, {effective=1<<CAP_CHECKPOINT_RESTORE|1<<0, permitted=0, inheritable=0}) = 0");
	ck_assert_uint_eq(e->cap_effective, (UINT64_C(1) << 40) | 1);
	one_done();
}
END_TEST

START_TEST(processes)
{
	const struct event *e = one("clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f0) = 12");
	ck_assert_int_eq(e->sys, SYS_CLONE);
	ck_assert_uint_eq(e->args[0], 0x200000 | 0x1000000 | 17);
	ck_assert_int_eq(e->value, 12);
	one_done();
	e = one("clone3({flags=CLONE_VM|CLONE_FS|CLONE_THREAD, child_tid=0x7f, exit_signal=SIGCHLD, stack=0x7e, stack_size=0x7fff80, tls=0x7f} => {parent_tid=[8283]}, 88) = 8283");
	ck_assert_int_eq(e->sys, SYS_CLONE3);
	ck_assert_uint_eq(e->args[0], 0x100 | 0x200 | 0x10000 | 17);
	one_done();
	e = one("fork() = 2");
	ck_assert_int_eq(e->sys, SYS_FORK);
	ck_assert_uint_eq(e->nargs, 0);
	one_done();
	e = one("execve(\"./mem\", [\"./mem\"], 0x7fff /* 41 vars */) = 0");
	ck_assert_int_eq(e->sys, SYS_EXECVE);
	ck_assert(slice_is(e->str, "./mem"));
	one_done();
	e = one("--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_ACCERR, si_addr=0x1234} ---");
	ck_assert_int_eq(e->type, EV_SIGNAL);
	ck_assert_int_eq(e->signo, 11);
	ck_assert(e->has_si_addr);
	ck_assert_uint_eq(e->si_addr, 0x1234);
	ck_assert(slice_is(e->si_code, "SEGV_ACCERR"));
	one_done();
	e = one("3 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=4, si_uid=0, si_status=0, si_utime=0, si_stime=0} ---");
	ck_assert_int_eq(e->signo, 17);
	ck_assert(!e->has_si_addr);
	one_done();
	e = one("+++ exited with 3 +++");
	ck_assert_int_eq(e->type, EV_EXITED);
	ck_assert_int_eq(e->exit_status, 3);
	one_done();
	e = one("7 +++ killed by SIGKILL +++");
	ck_assert_int_eq(e->type, EV_KILLED);
	ck_assert_int_eq(e->signo, 9);
	ck_assert_int_eq(e->pid, 7);
	one_done();
	e = one("+++ killed by SIGBUS (core dumped) +++");
	ck_assert_int_eq(e->signo, 7);
	one_done();
}
END_TEST

START_TEST(pseudo_events)
{
	const struct event *e = one("fault(0x7f0000, READ|WRITE) = MINOR");
	ck_assert_int_eq(e->sys, SYS_FAULT);
	ck_assert_uint_eq(e->args[1], ACC_READ | ACC_WRITE);
	ck_assert_int_eq(e->value, FR_MINOR);
	one_done();
	e = one("fault(0x10, EXEC) = SIGSEGV");
	ck_assert_int_eq(e->value, FR_SIGSEGV);
	one_done();
	e = one("fault(0x10, READ) = ?");
	ck_assert_int_eq(e->res, RES_UNKNOWN);
	one_done();
	e = one("touch(0x7f0000, 8192, WRITE) = 2");
	ck_assert_int_eq(e->sys, SYS_TOUCH);
	ck_assert_uint_eq(e->args[1], 8192);
	ck_assert_uint_eq(e->args[2], ACC_WRITE);
	ck_assert_int_eq(e->value, 2);
	one_done();
	e = one("reclaim(100) = ?");
	ck_assert_uint_eq(e->args[0], 100);
	one_done();
	e = one("drop_caches(3) = 0");
	ck_assert_int_eq(e->sys, SYS_DROP_CACHES);
	ck_assert_uint_eq(e->args[0], 3);
	one_done();
}
END_TEST

START_TEST(expects)
{
	const struct event *e = one("expect(VmLck) = 32 kB");
	ck_assert_int_eq(e->type, EV_EXPECT);
	ck_assert_int_eq(e->exp.kind, EXP_FIELD);
	ck_assert(slice_is(e->exp.field, "VmLck"));
	ck_assert_uint_eq(e->exp.value, 32); /* kept in kB, as printed */
	ck_assert(e->exp.value_in_kb);
	one_done();
	/* VmLck after locked_vm wrapped below zero (lof-v1): the kernel prints
	 * (locked_vm << 2) mod 2^64 */
	e = one("expect(VmLck) = 18446744073709551600 kB");
	ck_assert_uint_eq(e->exp.value, 18446744073709551600ULL);
	one_done();
	e = one("expect(VmLck) = 2 MB");
	ck_assert_uint_eq(e->exp.value, 2048);
	one_done();
	e = one("expect(nr_mlock) = 5");
	ck_assert_uint_eq(e->exp.value, 5);
	ck_assert(!e->exp.value_in_kb);
	one_done();
	e = one("expect(vma, 0x400000) = {start=0x400000, end=0x420000, Rss=8 kB, Locked=8 kB, VmFlags=\"rd wr\"}");
	ck_assert_int_eq(e->exp.kind, EXP_VMA);
	ck_assert_uint_eq(e->exp.addr, 0x400000);
	ck_assert_uint_eq(e->exp.nkv, 5);
	ck_assert(slice_is(e->exp.kv[0].key, "start"));
	ck_assert_uint_eq(e->exp.kv[0].num, 0x400000);
	ck_assert(e->exp.kv[0].is_num);
	ck_assert_int_eq(e->exp.kv[0].col, 26);
	ck_assert_uint_eq(e->exp.kv[2].num, 8192);
	ck_assert(slice_is(e->exp.kv[2].text, "8 kB"));
	ck_assert(e->exp.kv[4].is_str);
	ck_assert(slice_is(e->exp.kv[4].text, "rd wr"));
	one_done();
	e = one("expect(vma, 0x400000) = none");
	ck_assert(e->exp.none);
	one_done();
	e = one("expect(vmas, 0, 0x800000000000) = 3");
	ck_assert_int_eq(e->exp.kind, EXP_VMAS);
	ck_assert_uint_eq(e->exp.end, 0x800000000000);
	ck_assert_uint_eq(e->exp.value, 3);
	one_done();
	e = one("2 expect(page, 0x7f000) = {present=1, mlocked=1, unevictable=1, lru=1, active=0}");
	ck_assert_int_eq(e->exp.kind, EXP_PAGE);
	ck_assert_int_eq(e->pid, 2);
	ck_assert_uint_eq(e->exp.nkv, 5);
	ck_assert_uint_eq(e->exp.kv[4].num, 0);
	one_done();
}
END_TEST


/* The one-pass hot path for touch/fault lines and the general parser give
 * the same event (or the same error) for every line: generated canonical
 * lines and near misses (blanks, octal, huge numbers, other modes, pid
 * prefixes, annotations, trailing text, NUL bytes, mode combinations). */
static uint64_t fp_x = 0x243F6A8885A308D3ULL;
static unsigned fp_rand(unsigned n)
{
	fp_x ^= fp_x << 13, fp_x ^= fp_x >> 7, fp_x ^= fp_x << 17;
	return (unsigned)(fp_x % n);
}

static size_t fp_line(char *b, size_t cap)
{
	static const char *const modes[] = { "READ", "WRITE", "EXEC", "READ|WRITE", "read", "WRITEX", "EXE" };
	static const char *const res[] = { "?", "0", "1", "12", "MINOR", "MAJOR", "SIGSEGV", "-1", "007",
					   "? <unfinished ...>", "1 <0.000012>", "1 ", "0x10" };
	static const char *const nums[] = { "0x100000000", "4096", "0", "0x7ffff7fff000", "18446744073709551615",
					    "0xffffffffffffffff", "0x", "012", "123456789012345678", "0x1F", "0X10",
					    "1234567890123456789", "0x0123456789abcdef", "-1", "NULL" };
	bool touch = fp_rand(3) != 0;
	const char *pfx = fp_rand(8) == 0 ? (fp_rand(2) ? "2 " : "[pid 7] ") : "";
	/* half the addresses random hex of 0 to 17 digits in either case, with
	 * now and then another byte among them: the word decoder's classes */
	char hex[24];
	const char *addr = nums[fp_rand(15)];
	if (fp_rand(2)) {
		static const char digits[] = "0123456789abcdefABCDEF";
		unsigned nd = fp_rand(18);
		hex[0] = '0', hex[1] = 'x';
		for (unsigned i = 0; i < nd; i++)
			hex[2 + i] = fp_rand(30) ? digits[fp_rand(22)] : (char)("gG:/@`x"[fp_rand(7)]);
		hex[2 + nd] = '\0';
		addr = hex;
	}
	const char *sp = fp_rand(10) == 0 ? "  " : " ";
	size_t n;
	if (touch)
		n = (size_t)snprintf(b, cap, "%stouch(%s,%s%s, %s)%s= %s", pfx, addr, sp, nums[fp_rand(15)],
				     modes[fp_rand(7)], sp, res[fp_rand(13)]);
	else
		n = (size_t)snprintf(b, cap, "%sfault(%s, %s) =%s%s", pfx, addr, modes[fp_rand(7)], sp,
				     res[fp_rand(13)]);
	if (fp_rand(20) == 0 && n > 3)
		b[fp_rand((unsigned)n)] = fp_rand(2) ? '\0' : ',';
	return n < cap ? n : cap - 1;
}

/* read the second event of text; its name and argument text are copied
 * into keep (the reader's buffer goes with it) */
static void fp_read(bool slow, const char *text, size_t len, int *rc, struct event *ev, char *err, size_t errlen)
{
	static char keep[2][2][512];
	static int k;
	struct rd d;
	rd_open(&d, text, len);
	trace_set_slow(d.r, slow);
	struct event first;
	*rc = trace_read(d.r, &first); /* the first event line, always the general parser's */
	if (*rc == 1)
		*rc = trace_read(d.r, ev);
	snprintf(err, errlen, "%s", *rc < 0 ? trace_error(d.r) : "");
	if (*rc == 1) {
		struct strslice *sl[2] = { &ev->name, &ev->args_text };
		for (int i = 0; i < 2; i++) {
			size_t n = sl[i]->len < 511 ? sl[i]->len : 511;
			if (sl[i]->p)
				memcpy(keep[k][i], sl[i]->p, n);
			sl[i]->p = keep[k][i];
			sl[i]->len = n;
		}
		k ^= 1;
	}
	rd_close(&d);
}

static bool slice_eq(struct strslice a, struct strslice b)
{
	return a.len == b.len && (!a.len || !memcmp(a.p, b.p, a.len));
}

START_TEST(fast_path_equals_general)
{
	unsigned fast_taken = 0;
	for (int i = 0; i < 20000; i++) {
		char text[512], line[300];
		size_t ll = fp_line(line, sizeof(line));
		int hl = snprintf(text, sizeof(text), "# vmsim-trace: 1\nmunlockall() = 0\n");
		memcpy(text + hl, line, ll);
		text[hl + ll] = '\n';
		size_t len = (size_t)hl + ll + 1;
		/* every other line with bytes after it, so that the decoder that
		 * reads words (64 bytes from the line's start must be read in)
		 * gets it, as the lines of a long trace */
		if (i % 2)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "# %080d\n", 0);
		struct event a, b;
		int ra, rb;
		char ea[512], eb[512];
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		fp_read(false, text, len, &ra, &a, ea, sizeof(ea));
		fp_read(true, text, len, &rb, &b, eb, sizeof(eb));
		ck_assert_msg(ra == rb, "%.*s: rc fast %d, general %d (%s)", (int)ll, line, ra, rb, ra < 0 ? ea : eb);
		ck_assert_msg(!strcmp(ea, eb), "%.*s: errors differ:\n  %s\n  %s", (int)ll, line, ea, eb);
		if (ra != 1)
			continue;
		ck_assert_msg(a.type == b.type && a.pid == b.pid && a.line == b.line && a.first_line == b.first_line &&
			      a.timestamp == b.timestamp && a.sys == b.sys && a.nargs == b.nargs &&
			      !memcmp(a.args, b.args, sizeof(a.args)) && a.res == b.res && a.value == b.value &&
			      a.err == b.err && slice_eq(a.name, b.name) && slice_eq(a.args_text, b.args_text) &&
			      a.str.len == b.str.len && a.signo == b.signo,
			      "%.*s: the events differ", (int)ll, line);
		fast_taken += a.sys == SYS_TOUCH || a.sys == SYS_FAULT;
	}
	ck_assert_uint_gt(fast_taken, 2000);
}
END_TEST

/* The same over one long trace, read line by line by both: the hot path
 * reuses what it left in the event, so a general-parser line between two
 * fast ones must not leave anything behind. */
START_TEST(fast_path_stream_equals_general)
{
	char *text = malloc(4u << 20);
	ck_assert_ptr_nonnull(text);
	size_t len = (size_t)sprintf(text, "# vmsim-trace: 1\nmunlockall() = 0\n");
	for (int i = 0; i < 6000; i++) {
		char line[300];
		size_t ll = fp_line(line, sizeof(line));
		if (memchr(line, '\0', ll) || strchr(line, '\n'))
			continue;
		{ /* only lines the general parser takes: an error would end the stream */
			char one[512];
			int hl = snprintf(one, sizeof(one), "# vmsim-trace: 1\nmunlockall() = 0\n%.*s\n", (int)ll, line);
			int rc;
			struct event tmp;
			char err[512];
			fp_read(true, one, (size_t)hl, &rc, &tmp, err, sizeof(err));
			if (rc != 1)
				continue;
		}
		if (fp_rand(4) == 0)
			len += (size_t)sprintf(text + len, "mlock2(0x7f0000000000, 4096, MLOCK_ONFAULT) = -1 ENOMEM (Cannot allocate memory)\n");
		memcpy(text + len, line, ll);
		len += ll;
		text[len++] = '\n';
	}
	struct rd a, b;
	rd_open(&a, text, len);
	rd_open(&b, text, len);
	trace_set_slow(b.r, true);
	unsigned n = 0;
	for (;;) {
		struct event ea, eb;
		int ra = trace_read(a.r, &a.ev), rb = trace_read(b.r, &b.ev);
		ea = a.ev;
		eb = b.ev;
		ck_assert_msg(ra == rb, "event %u: rc %d vs %d (%s / %s)", n, ra, rb, trace_error(a.r), trace_error(b.r));
		if (ra <= 0)
			break;
		ck_assert_msg(ea.type == eb.type && ea.pid == eb.pid && ea.line == eb.line && ea.sys == eb.sys &&
			      ea.nargs == eb.nargs && !memcmp(ea.args, eb.args, sizeof(ea.args)) && ea.res == eb.res &&
			      ea.value == eb.value && ea.err == eb.err && slice_eq(ea.name, eb.name) &&
			      slice_eq(ea.args_text, eb.args_text) && ea.timestamp == eb.timestamp &&
			      ea.str.len == eb.str.len && ea.exp.nkv == eb.exp.nkv,
			      "event %u (line %lu) differs", n, ea.line);
		n++;
	}
	ck_assert_uint_gt(n, 1000);
	rd_close(&a);
	rd_close(&b);
	free(text);
}
END_TEST

/* The binary form reads as its text does: the generated stream of the
 * test above (access lines the fast path takes and lines it does not,
 * general-parser lines between them) converted line by line as vmsim
 * convert does, then read three ways - the text with the general parser,
 * the binary with its direct fill of access records, the binary with the
 * general parser (each access record as its canonical text) - gives the
 * same events.  Only the argument text of a directly filled access event is
 * empty (the writer and replay never read it for touch and fault). */
/* A stream of the lines of fp_line() that the general parser takes,
 * calls between them, and access lines in their canonical text: the
 * input of the binary and bulk tests.  Its length. */
static size_t mixed_stream(char *text)
{
	size_t len = (size_t)sprintf(text, "# vmsim-trace: 1\n# kernel: 6.18\nmunlockall() = 0\n");
	for (int i = 0; i < 6000; i++) {
		char line[300];
		size_t ll = fp_line(line, sizeof(line));
		if (memchr(line, '\0', ll) || strchr(line, '\n'))
			continue;
		char one[512];
		int hl = snprintf(one, sizeof(one), "# vmsim-trace: 1\nmunlockall() = 0\n%.*s\n", (int)ll, line);
		int rc;
		struct event tmp;
		char err[512];
		fp_read(true, one, (size_t)hl, &rc, &tmp, err, sizeof(err));
		if (rc != 1)
			continue;
		if (fp_rand(4) == 0)
			len += (size_t)sprintf(text + len, "mlock2(0x7f0000000000, 4096, MLOCK_ONFAULT) = 0\n");
		/* a run of touches alike but for their pages (the binary form's
		 * runs): a size, mode and result for all, pages spread over 2^31
		 * of them from the first or a little more, now and then one near
		 * the ends of the address space */
		static const char *const md[] = { "READ", "WRITE", "EXEC" };
		unsigned size = fp_rand(2) ? 4096 : 1 + fp_rand(8192), mode = fp_rand(3), res = fp_rand(3);
		unsigned long long base = 0x7f0000000000ULL + ((unsigned long long)fp_rand(1u << 20) << 12) +
					  fp_rand(4096);
		for (unsigned k = fp_rand(3) ? 0 : 1 + fp_rand(fp_rand(4) ? 20 : 600); k; k--) {
			unsigned long long a = base + ((unsigned long long)fp_rand(1u << 30) << 12) -
					       ((unsigned long long)fp_rand(1u << 30) << 12);
			unsigned w = fp_rand(200);
			if (w == 0)
				a = base - ((1ULL << 31) << 12);   /* the lowest an entry reaches */
			else if (w == 1)
				a = base + ((1ULL << 31) << 12);   /* one page past the highest */
			else if (w == 2)
				a = (a & 4095) | (0xfffffffffffff000ULL - ((unsigned long long)fp_rand(64) << 12));
			else if (w == 3)
				a &= 4095;                          /* page 0 */
			len += (size_t)sprintf(text + len, "touch(%#llx, %u, %s) = %s\n", a, size, md[mode],
					       res == 0 ? "?" : res == 1 ? "0" : "1");
		}
		for (unsigned k = fp_rand(2) ? 1 + fp_rand(fp_rand(8) ? 4 : 300) : 0; k; k--) {
			/* a run of access lines in their canonical text */
			unsigned long long a = 0x7f0000000000ULL + ((unsigned long long)fp_rand(1u << 20) << 12);
			if (fp_rand(2))
				len += (size_t)sprintf(text + len, "touch(%#llx, %u, %s) = %s%s\n", a, 1 + fp_rand(65536),
						       md[fp_rand(3)], fp_rand(3) ? "1" : "?",
						       fp_rand(50) ? "" : "\r");
			else
				len += (size_t)sprintf(text + len, "fault(%#llx, %s) = %s\n", a, md[fp_rand(3)],
						       fp_rand(2) ? "MINOR" : "MAJOR");
		}
		memcpy(text + len, line, ll);
		len += ll;
		text[len++] = '\n';
	}
	return len;
}

/* The stream as vmsim record writes it: a pid before every event line
 * that has none ("1 ", "12   ", "7<TAB>", "007 ", "0 ", now and then a
 * timestamp after it), so that the first event line has one too.  Its
 * length. */
static inline char text_at(const char *t, size_t i) { return t[i]; }

static size_t prefixed_stream(const char *in, size_t len, char *out)
{
	static const char *const pfx[] = { "1 ", "12   ", "7\t", "007 ", "0 ", "1 ", "1 ", "3 10:00:00.000001 " };
	size_t n = 0;
	for (size_t s = 0; s < len;) {
		size_t e = s;
		while (text_at(in, e) != '\n')
			e++;
		if (in[s] != '#' && in[s] != '[' && (unsigned)(in[s] - '0') >= 10 && e > s)
			n += (size_t)sprintf(out + n, "%s", pfx[fp_rand(8)]);
		memcpy(out + n, in + s, e - s + 1);
		n += e - s + 1;
		s = e + 1;
	}
	return n;
}

/* The binary form of a text stream, line by line as vmsim convert writes
 * it; *access_lines: the lines that became access records. */
static char *to_binary(const char *text, size_t len, size_t *binlen, unsigned *access_lines)
{
	char *bin = NULL;
	FILE *m = open_memstream(&bin, binlen);
	ck_assert_ptr_nonnull(m);
	struct bin_writer w;
	ck_assert(bin_writer_open(&w, m, 0));
	*access_lines = 0;
	for (size_t s = 0; s < len;) {
		size_t e = s;
		while (text[e] != '\n')
			e++;
		struct bin_rec rec;
		if (bin_parse_line(text + s, e - s, &rec)) {
			ck_assert(bin_write_rec(&w, &rec));
			++*access_lines;
		} else {
			ck_assert(bin_write_text(&w, text + s, e - s));
		}
		s = e + 1;
	}
	ck_assert(bin_writer_close(&w));
	fclose(m);
	return bin;
}

/* The binary form reads as its text does: the generated stream of the
 * test above (access lines the fast path takes and lines it does not,
 * general-parser lines between them) converted line by line as vmsim
 * convert does, then read three ways - the text with the general parser,
 * the binary with its direct fill of access records, the binary with the
 * general parser (each access record as its canonical text) - gives the
 * same events.  Only the argument text of a directly filled access event is
 * empty (the writer and replay never read it for touch and fault). */
/* The records of a binary trace held in runs (kind 4), and the runs */
static unsigned long run_records(const char *bin, size_t len, unsigned long *runs)
{
	unsigned long recs = 0;
	*runs = 0;
	for (size_t p = BIN_HEADER; p + BIN_BLOCK_HEADER <= len;) {
		const unsigned char *h = (const unsigned char *)bin + p;
		uint32_t slots = bin_le32(h);
		for (uint32_t i = 0; i < slots;) {
			struct bin_rec r;
			bin_get_slot(h + BIN_BLOCK_HEADER + (size_t)i * BIN_SLOT, &r);
			if (r.kind == BIN_RUN) {
				recs += r.length;
				++*runs;
				i += 1 + (r.length + BIN_RUN_ENTRIES - 1) / BIN_RUN_ENTRIES;
			} else {
				i += r.kind == BIN_TEXT ? 1 + (r.length + BIN_SLOT - 1) / BIN_SLOT : 1;
			}
		}
		p += BIN_BLOCK_HEADER + (size_t)slots * BIN_SLOT;
	}
	return recs;
}

/* The mixed stream and its binary form (free both) */
static char *mixed_pair(size_t *len, char **bin, size_t *binlen)
{
	char *text = malloc(8u << 20);
	ck_assert_ptr_nonnull(text);
	*len = mixed_stream(text);
	ck_assert_uint_lt(*len, 8u << 20);
	unsigned access_lines;
	*bin = to_binary(text, *len, binlen, &access_lines);
	ck_assert_uint_gt(access_lines, 1000);
	unsigned long runs, in_runs = run_records(*bin, *binlen, &runs);
	ck_assert_uint_gt(runs, 300);
	ck_assert_uint_gt(in_runs, 10000);
	return text;
}

/* A binary trace whose checksum is right and whose run record claims
 * 0xfffffff9 touches: the slot count it implies wrapped in 32 bits, the
 * "runs past its block" check passed, and the reader read past the 64 KiB
 * block (a heap overflow under ASan).  Every reader of the binary form -
 * trace_read() on either path, the bulk decoder, vmsim convert - must
 * refuse it, naming the record. */
static size_t hostile_run(unsigned char *buf, uint32_t length)
{
	memset(buf, 0, BIN_HEADER + BIN_BLOCK_HEADER + 2 * BIN_SLOT);
	memcpy(buf, BIN_MAGIC, 8);
	buf[8] = BIN_VERSION;
	buf[12] = BIN_SLOT;
	unsigned char *blk = buf + BIN_HEADER, *payload = blk + BIN_BLOCK_HEADER;
	struct bin_rec rec = { BIN_RUN, BIN_READ, BIN_RES_UNKNOWN, length, 0x7f0000000000, 4096, 0 };
	bin_put_slot(payload, &rec);
	blk[0] = 2; /* two slots: the run and one slot of entries */
	memcpy(blk + 4, "VBLK", 4);
	uint64_t sum = bin_checksum(payload, 2 * BIN_SLOT);
	for (int i = 0; i < 8; i++)
		blk[8 + i] = (unsigned char)(sum >> (8 * i));
	return BIN_HEADER + BIN_BLOCK_HEADER + 2 * BIN_SLOT;
}

START_TEST(binary_run_length_wraps)
{
	static const uint32_t lengths[] = { 0xfffffff9u, 0xffffffffu, BIN_RUN_MAX + 1, 9 };
	for (size_t k = 0; k < sizeof(lengths) / sizeof(lengths[0]); k++) {
		unsigned char buf[BIN_HEADER + BIN_BLOCK_HEADER + 2 * BIN_SLOT];
		size_t n = hostile_run(buf, lengths[k]);
		for (int slow = 0; slow < 2; slow++) {
			struct rd d;
			struct event ev;
			rd_open(&d, (const char *)buf, n);
			trace_set_slow(d.r, slow);
			int rc;
			while ((rc = trace_read(d.r, &ev)) == 1)
				;
			ck_assert_int_eq(rc, -1);
			ck_assert_msg(strstr(trace_error(d.r), "record 1") != NULL, "length %#x: %s", lengths[k],
				      trace_error(d.r));
			rd_close(&d);
		}
		struct rd d;
		struct access_rec a[64];
		rd_open(&d, (const char *)buf, n);
		size_t got = trace_read_accesses(d.r, a, 64);
		ck_assert_uint_eq(got, 0);
		rd_close(&d);
		FILE *in = text_file((const char *)buf, n), *out = tmpfile();
		unsigned char head[TRACE_HEAD_BYTES];
		ck_assert_uint_eq(fread(head, 1, sizeof(head), in), sizeof(head));
		char err[256];
		ck_assert_int_eq(trace_to_text(in, "t.bin", head, out, err, sizeof(err)), -1);
		ck_assert_msg(strstr(err, "record 1") != NULL, "%s", err);
		fclose(in);
		fclose(out);
	}
}
END_TEST

START_TEST(binary_form_equals_text)
{
	size_t len, binlen = 0;
	char *bin, *text = mixed_pair(&len, &bin, &binlen);
	struct rd t, bf, bs;
	rd_open(&t, text, len);
	trace_set_slow(t.r, true);
	rd_open(&bf, bin, binlen);
	rd_open(&bs, bin, binlen);
	trace_set_slow(bs.r, true);
	unsigned n = 0;
	for (;;) {
		int rt = trace_read(t.r, &t.ev), rf = trace_read(bf.r, &bf.ev), rs = trace_read(bs.r, &bs.ev);
		ck_assert_msg(rt == rf && rt == rs, "event %u: rc %d / %d / %d (%s / %s / %s)", n, rt, rf, rs,
			      trace_error(t.r), trace_error(bf.r), trace_error(bs.r));
		if (rt <= 0)
			break;
		const struct event *v[3] = { &t.ev, &bf.ev, &bs.ev };
		for (int k = 1; k < 3; k++) {
			const struct event *a = v[0], *b = v[k];
			bool direct = (b->sys == SYS_TOUCH || b->sys == SYS_FAULT) && !b->args_text.len;
			ck_assert_msg(a->type == b->type && a->pid == b->pid && a->line == b->line &&
				      a->sys == b->sys && a->nargs == b->nargs &&
				      !memcmp(a->args, b->args, sizeof(a->args)) && a->res == b->res &&
				      a->value == b->value && a->err == b->err && slice_eq(a->name, b->name) &&
				      (direct || slice_eq(a->args_text, b->args_text)) &&
				      a->timestamp == b->timestamp && a->str.len == b->str.len,
				      "event %u (line %lu): the %s binary read differs", n, a->line,
				      k == 1 ? "direct" : "general");
		}
		n++;
	}
	ck_assert_uint_gt(n, 1000);
	rd_close(&t);
	rd_close(&bf);
	rd_close(&bs);
	free(bin);
	free(text);
}
END_TEST

/* The bulk decoder (trace_read_accesses(), the hot loop's reader) gives
 * the events of the general parser: the mixed stream, as text, as binary
 * and with a pid on every line (vmsim record's form), read by bulk calls of random sizes (so that runs end at block
 * boundaries, half-read lines and every kind of line the bulk decoder
 * leaves to trace_read()) and trace_read() between them, each record
 * made an event by trace_access_event(), against the general parser. */
START_TEST(bulk_reader_equals_general)
{
	size_t len, binlen = 0;
	char *bin, *text = mixed_pair(&len, &bin, &binlen);
	char *pre = malloc(12u << 20);
	ck_assert_ptr_nonnull(pre);
	size_t prelen = prefixed_stream(text, len, pre);
	/* the text, its binary form, the text with pids */
	static const char *const fname[] = { "text", "binary", "text with pids" };
	for (int form = 0; form < 3; form++) {
		struct rd g, b;
		const char *src = form == 2 ? pre : text;
		size_t srclen = form == 2 ? prelen : len;
		rd_open(&g, src, srclen);
		trace_set_slow(g.r, true);
		rd_open(&b, form == 1 ? bin : src, form == 1 ? binlen : srclen);
		struct access_rec q[300];
		size_t qn = 0, qi = 0;
		unsigned n = 0, bulk = 0;
		for (;;) {
			int rg = trace_read(g.r, &g.ev), rb;
			struct event *e = &b.ev, made;
			if (qi == qn) {
				qi = 0;
				qn = trace_read_accesses(b.r, q, 1 + fp_rand(fp_rand(4) ? 300 : 3));
				/* one process's, each with the key its fields give */
				for (size_t k = 0; k < qn; k++)
					ck_assert_msg(q[k].pid == q[0].pid && q[k].hit_key == access_hit_key(&q[k]),
						      "%s: a bulk read of lines %lu on: record %zu", fname[form],
						      q[0].line, k);
			}
			if (qi < qn) {
				memset(&made, 0, sizeof(made));
				trace_access_event(&q[qi++], &made);
				e = &made;
				rb = 1;
				bulk++;
			} else {
				rb = trace_read(b.r, &b.ev);
			}
			ck_assert_msg(rg == rb, "%s event %u: rc %d / %d (%s / %s)", fname[form], n, rg,
				      rb, trace_error(g.r), trace_error(b.r));
			if (rg <= 0)
				break;
			const struct event *a = &g.ev;
			bool direct = e == &made || (form == 1 && (e->sys == SYS_TOUCH || e->sys == SYS_FAULT));
			ck_assert_msg(a->type == e->type && a->pid == e->pid && a->line == e->line &&
				      a->first_line == e->first_line && a->sys == e->sys && a->nargs == e->nargs &&
				      !memcmp(a->args, e->args, sizeof(a->args)) && a->res == e->res &&
				      a->value == e->value && a->err == e->err && slice_eq(a->name, e->name) &&
				      (direct || slice_eq(a->args_text, e->args_text)) &&
				      a->timestamp == e->timestamp && a->str.len == e->str.len,
				      "%s event %u (line %lu): the bulk read differs", fname[form], n, a->line);
			n++;
		}
		ck_assert_uint_gt(bulk, 1000);
		rd_close(&g);
		rd_close(&b);
	}
	free(pre);
	free(bin);
	free(text);
}
END_TEST

START_TEST(unknown_syscalls)
{
	static const char t[] =
		"rt_sigtimedwait([CHLD], {si_signo=SIGCHLD}, NULL, 8) = 17\n"
		"getpid() = 5\nrt_sigtimedwait([CHLD], NULL, NULL, 8) = -1 EAGAIN (Resource temporarily unavailable)\n";
	struct rd d;
	struct event ev;
	unsigned long count;
	rd_open(&d, t, sizeof(t) - 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_UNKNOWN);
	ck_assert(slice_is(ev.name, "rt_sigtimedwait"));
	ck_assert(slice_is(ev.args_text, "[CHLD], {si_signo=SIGCHLD}, NULL, 8"));
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 0);
	ck_assert_uint_eq(trace_unknown_count(d.r), 2);
	ck_assert_str_eq(trace_unknown_name(d.r, 0, &count), "rt_sigtimedwait");
	ck_assert_uint_eq(count, 2);
	ck_assert_str_eq(trace_unknown_name(d.r, 1, &count), "getpid");
	ck_assert_uint_eq(count, 1);
	rd_close(&d);
}
END_TEST

/* The name lookup compares keys of the first 16 bytes (and memcmp()s the
 * rest): every name the writer prints is found, and a name with any one
 * byte changed, or one byte longer, is not.  (No name is long enough to
 * differ past byte 16 but in its last byte, which the hash reads: the
 * memcmp() of the rest is not reached by this test.) */
START_TEST(syscall_names_by_key)
{
	for (int s = 1; s < SYS_NR; s++) {
		const char *n = trace_sys_name((enum sysno)s);
		size_t len = strlen(n);
		char buf[64];
		ck_assert_int_eq(systab_lookup(n, len), s);
		memcpy(buf, n, len);
		buf[len] = 'q';
		ck_assert_int_eq(systab_lookup(buf, len + 1), SYS_UNKNOWN);
		for (size_t i = 0; i < len; i++) {
			memcpy(buf, n, len);
			buf[i] ^= 0x20; /* a letter's case, '_' to DEL: never a name */
			ck_assert_msg(systab_lookup(buf, len) == SYS_UNKNOWN, "%s with byte %zu changed", n, i);
		}
	}
	/* keys: every byte of 1..16 counts, nothing past them does */
	const char a[] = "abcdefghijklmnopqrstu";
	for (size_t n = 1; n <= 16; n++) {
		uint64_t k0[2], k1[2];
		char b[sizeof(a)];
		systab_name_key(a, n, k0);
		for (size_t i = 0; i < n; i++) {
			memcpy(b, a, sizeof(a));
			b[i] = 'Z';
			systab_name_key(b, n, k1);
			ck_assert_msg(k0[0] != k1[0] || k0[1] != k1[1], "key of %zu bytes blind to byte %zu", n, i);
		}
		memcpy(b, a, sizeof(a));
		b[n] = 'Z';
		systab_name_key(b, n, k1);
		ck_assert(k0[0] == k1[0] && k0[1] == k1[1]);
	}
}
END_TEST

START_TEST(unfinished_resumed)
{
	static const char t[] =
		"10 mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0 <unfinished ...>\n"
		"11 munmap(0x1000, 4096 <unfinished ...>\n"
		"12 mlock(0x2000, 4096) = 0\n"
		"11 <... munmap resumed>) = 0\n"
		"10 <... mmap resumed>)                = 0x7f0000\n"
		"13 wait4(-1,  <unfinished ...>\n"
		"13 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 14\n"
		"15 exit_group(0 <unfinished ...>\n"
		"15 +++ exited with 0 +++\n"
		"16 read(3,  <unfinished ...>\n";
	struct rd d;
	struct event ev;
	rd_open(&d, t, sizeof(t) - 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MLOCK);
	ck_assert_int_eq(ev.pid, 12);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MUNMAP);
	ck_assert_int_eq(ev.pid, 11);
	ck_assert_uint_eq(ev.first_line, 2);
	ck_assert_uint_eq(ev.line, 4);
	ck_assert_uint_eq(ev.args[1], 4096);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MMAP);
	ck_assert_uint_eq(ev.args[3], 0x22);
	ck_assert_uint_eq(ev.args[4], (uint64_t)-1);
	ck_assert_int_eq(ev.value, 0x7f0000);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert(slice_is(ev.name, "wait4"));
	ck_assert_int_eq(ev.value, 14);
	/* exit_group never returned: emitted with '?' before the exit */
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_EXIT_GROUP);
	ck_assert_int_eq(ev.res, RES_UNKNOWN);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.type, EV_EXITED);
	ck_assert_int_eq(ev.pid, 15);
	/* the input ended inside read(): emitted with '?' and missing args 0 */
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_READ);
	ck_assert_int_eq(ev.res, RES_UNKNOWN);
	ck_assert_int_eq(trace_read(d.r, &ev), 0);
	rd_close(&d);
}
END_TEST

/* strace -f prints a child's first line as soon as it runs: before its
 * parent's vfork() returns, and with a pid an exited process had before.
 * The fork comes first, with the child's pid, and its resumed half adds
 * nothing (strace -f shows a new pid only for a child of a traced
 * process); with two forks unfinished, whose child it is is not known and
 * the lines keep their order */
START_TEST(child_before_fork_returns)
{
	static const char t[] =
		"100 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000\n"
		"100 vfork( <unfinished ...>\n"
		"101 execve(\"/bin/true\", [\"true\"], 0x7ffd /* 1 var */) = 0\n"
		"101 exit_group(0) = ?\n"
		"100 <... vfork resumed>) = 101\n"
		"101 +++ exited with 0 +++\n"
		"100 clone(child_stack=NULL, flags=SIGCHLD <unfinished ...>\n"
		"101 munmap(0x7f0000, 4096 <unfinished ...>\n"
		"100 <... clone resumed>, child_tidptr=0x7f10) = 101\n"
		"101 <... munmap resumed>) = 0\n"
		"100 fork( <unfinished ...>\n"
		"101 fork( <unfinished ...>\n"
		"102 munmap(0x7f0000, 4096) = 0\n"
		"100 <... fork resumed>) = 102\n";
	struct rd d;
	struct event ev;
	rd_open(&d, t, sizeof(t) - 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MMAP);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_VFORK);
	ck_assert_int_eq(ev.pid, 100);
	ck_assert_int_eq(ev.res, RES_VALUE);
	ck_assert_int_eq(ev.value, 101);
	ck_assert_uint_eq(ev.line, 2);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_EXECVE);
	ck_assert_int_eq(ev.pid, 101);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_EXIT_GROUP);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.type, EV_EXITED);
	/* pid 101 again, for another child: its clone comes first too, with
	 * its flags from the unfinished half */
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_CLONE);
	ck_assert_int_eq(ev.value, 101);
	ck_assert_uint_eq(ev.args[0], 17 /* SIGCHLD */);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MUNMAP);
	ck_assert_int_eq(ev.pid, 101);
	ck_assert_int_eq(ev.value, 0);
	/* two forks unfinished: the order of the lines */
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MUNMAP);
	ck_assert_int_eq(ev.pid, 102);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_FORK);
	ck_assert_int_eq(ev.value, 102);
	/* the input ends inside pid 101's fork */
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_FORK);
	ck_assert_int_eq(ev.pid, 101);
	ck_assert_int_eq(ev.res, RES_UNKNOWN);
	ck_assert_int_eq(trace_read(d.r, &ev), 0);
	rd_close(&d);
}
END_TEST

/* ---- header ------------------------------------------------------------ */

/* strace -f writing to a terminal: "strace: Process N attached" spliced
 * into the clone() line, "[pid N] " only while two processes live, and the
 * first process named by pid only then */
START_TEST(terminal_form)
{
	static const char t[] =
		"mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000\n"
		"clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLDstrace: Process 501 attached\n"
		", child_tidptr=0x7f10) = 501\n"
		"[pid   501] munmap(0x7f0000, 4096) = 0\n"
		"[pid   500] mlock(0x7f0000, 4096 <unfinished ...>\n"
		"[pid   501] +++ exited with 0 +++\n"
		"<... mlock resumed>) = -1 ENOMEM (Cannot allocate memory)\n"
		"clone(child_stack=NULL, flags=SIGCHLD <unfinished ...>\n"
		"strace: Process 502 attached\n"
		"[pid   502] munmap(0x7f0000, 4096) = 0\n"
		"[pid   500] <... clone resumed>) = 502\n"
		"[pid   502] +++ exited with 0 +++\n"
		"munlock(0x7f0000, 4096) = 0\n";
	struct rd d;
	struct event ev;
	rd_open(&d, t, sizeof(t) - 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MMAP);
	ck_assert_int_eq(ev.pid, 0);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_CLONE);
	ck_assert_int_eq(ev.pid, 0);
	ck_assert_int_eq(ev.value, 501);
	ck_assert_uint_eq(ev.line, 3);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MUNMAP);
	ck_assert_int_eq(ev.pid, 501);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.type, EV_EXITED);
	ck_assert_int_eq(ev.pid, 501);
	/* [pid 500] is the first process: its unfinished mlock resumes unprefixed */
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MLOCK);
	ck_assert_int_eq(ev.pid, 0);
	ck_assert_int_eq(ev.err, 12);
	/* a child that runs before its parent's clone() returns: the clone
	 * has made it, and comes first, with the child's pid */
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_CLONE);
	ck_assert_int_eq(ev.pid, 0);
	ck_assert_int_eq(ev.value, 502);
	ck_assert_uint_eq(ev.line, 8);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MUNMAP);
	ck_assert_int_eq(ev.pid, 502);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.type, EV_EXITED);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MUNLOCK);
	ck_assert_int_eq(ev.pid, 0);
	ck_assert_int_eq(trace_read(d.r, &ev), 0);
	rd_close(&d);
}
END_TEST

/* the child's lines come first, before the parent is named: pid 600 is
 * not a clone child, so it is the first process */
START_TEST(terminal_form_parent_first_named)
{
	static const char t[] =
		"clone(child_stack=NULL, flags=SIGCHLD) = 601\n"
		"[pid   601] munmap(0x7f0000, 4096) = 0\n"
		"[pid   600] munmap(0x7f1000, 4096) = 0\n"
		"[pid   601] +++ exited with 0 +++\n"
		"munmap(0x7f2000, 4096) = 0\n";
	struct rd d;
	struct event ev;
	rd_open(&d, t, sizeof(t) - 1);
	static const int pids[] = { 0, 601, 0, 601, 0 };
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(trace_read(d.r, &ev), 1);
		ck_assert_int_eq(ev.pid, pids[i]);
	}
	ck_assert_int_eq(trace_read(d.r, &ev), 0);
	rd_close(&d);
	/* "strace -o" form (every line has a pid): pids are kept as written */
	static const char o[] = "700 munmap(0x1000, 4096) = 0\n701 munmap(0x1000, 4096) = 0\n";
	rd_open(&d, o, sizeof(o) - 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.pid, 700);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.pid, 701);
	rd_close(&d);
}
END_TEST

/* "= ? ERESTART...": interrupted before it took effect; the writer keeps it */
START_TEST(restarted_call)
{
	const struct event *e = one("clone(child_stack=NULL, flags=SIGCHLD) = ? ERESTARTNOINTR (To be restarted)");
	ck_assert_int_eq(e->res, RES_RESTART);
	ck_assert_int_eq(e->err, 513);
	one_done();
	e = one("wait4(-1, NULL, 0, NULL) = ? ERESTARTSYS (To be restarted if SA_RESTART is set)");
	ck_assert_int_eq(e->res, RES_RESTART);
	ck_assert_int_eq(e->err, 512);
	one_done();
	e = one("exit_group(0) = ?");
	ck_assert_int_eq(e->res, RES_UNKNOWN);
	one_done();
}
END_TEST

START_TEST(header_keys)
{
	static const char t[] =
		"# vmsim-trace: 1\n# arch: x86_64\n# kernel: 6.1\n# page-size: 4096\n"
		"# ram: 24G\n# swap: 0\n# rlimit-memlock: 8M\n# cap-ipc-lock: no\n"
		"# max-map-count: 65530\n# zero-page: no\n# read-ahead-kb: 128\n# hugetlb-pages: 16\n# thp: always\n"
		"# seed: 42\n# scenario: whatever: x\n"
		"\n  # indented comment\n"
		"munmap(0x1000, 4096) = 0\n"
		"# ram: bogus\n";
	struct rd d;
	struct event ev;
	rd_open(&d, t, sizeof(t) - 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	const struct trace_header *h = trace_header(d.r);
	ck_assert(h->has_version && h->version == 1);
	ck_assert_str_eq(h->arch, "x86_64");
	ck_assert_str_eq(h->kernel, "6.1");
	ck_assert_uint_eq(h->page_size, 4096);
	ck_assert_uint_eq(h->ram, UINT64_C(24) << 30);
	ck_assert(h->has_swap && h->swap == 0);
	ck_assert_uint_eq(h->rlimit_memlock, 8 << 20);
	ck_assert(h->has_cap_ipc_lock && !h->cap_ipc_lock);
	ck_assert_uint_eq(h->max_map_count, 65530);
	ck_assert(h->has_zero_page && !h->zero_page);
	ck_assert(h->has_read_ahead_kb && h->read_ahead_kb == 128);
	ck_assert(h->has_hugetlb_pages && h->hugetlb_pages == 16);
	ck_assert(h->has_thp && h->thp == 2);
	ck_assert_uint_eq(h->seed, 42);
	ck_assert_int_eq(trace_read(d.r, &ev), 0); /* the later "# ram: bogus" is a comment */
	rd_close(&d);

	static const char u[] = "# rlimit-memlock: unlimited\n";
	rd_open(&d, u, sizeof(u) - 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 0);
	ck_assert_uint_eq(trace_header(d.r)->rlimit_memlock, RLIM_INFINITY_VALUE);
	rd_close(&d);
	/* a recorder run as root: its process keeps CAP_SYS_RESOURCE */
	{
		static const char r[] = "# recorded-by: kscen 1 on Linux 4.4.1 x86_64 (2 cpus), as root\n"
					"munlockall() = 0\n";
		struct event e;
		rd_open(&d, r, sizeof(r) - 1);
		ck_assert_int_eq(trace_read(d.r, &e), 1);
		ck_assert(trace_header(d.r)->recorded_as_root);
		ck_assert(!trace_header(d.r)->has_cap_sys_resource);
		rd_close(&d);
		static const char w[] = "# recorded-by: vmsim record 0.1.0 as uid 1000\nmunlockall() = 0\n";
		rd_open(&d, w, sizeof(w) - 1);
		ck_assert_int_eq(trace_read(d.r, &e), 1);
		ck_assert(!trace_header(d.r)->recorded_as_root);
		rd_close(&d);
	}
}
END_TEST

START_TEST(header_errors)
{
	ck_error("# ram: 24Q\n", "t.trace:1:8: error: expected a size from 16M to 16T for 'ram'");
	/* values the model cannot hold are errors at their line and column,
	 * not a silent 64 kB machine or a 2^51-byte allocation */
	ck_error("# ram: 0\n", "t.trace:1:8: error: expected a size from 16M to 16T for 'ram'");
	ck_error("# swap: 9223372036854775807\n", "t.trace:1:9: error: expected a size up to 64G");
	ck_error("# kernel: 99999999999999999999.1\n", "t.trace:1:11: error: unknown kernel");
	ck_error("# kernel: bogus\n", "t.trace:1:11: error: unknown kernel 'bogus'");
	ck_error("setrlimit(RLIMIT_MEMLOCK, {}) = 0\n", "1:27: error: expected both rlim_cur and rlim_max");
	ck_error("setrlimit(RLIMIT_MEMLOCK, {foo}) = 0\n", "1:27: error: expected both rlim_cur");
	ck_error("munmap(0x1000, 4096) = -9223372036854775809\n", "1:24: error: number too large");
	ck_error("# vmsim-trace: 2\n", "t.trace:1:16: error: expected format version 1");
	ck_error("# cap-ipc-lock: maybe\n", "1:17: error: expected yes or no");
	ck_error("# zero-page:\n", "expected yes or no for 'zero-page'");
	ck_error("# page-size: 1000\n", "power-of-two");
	ck_error("# arch: vax\n", "unknown arch 'vax'");
	ck_error("# read-ahead-kb: 512K\n", "1:18: error: expected a number of kB up to 1048576");
	ck_error("# read-ahead-kb: 2000000\n", "a number of kB up to 1048576");
	ck_error("# read-ahead-kb:\n", "a number of kB up to 1048576");
	ck_error("# thp: sometimes\n", "always, madvise or never");
	ck_error("# hugetlb-pages: 2M\n", "a number of huge pages up to 2^24");
}
END_TEST

START_TEST(arch_from_header_and_override)
{
	/* mips: MAP_ANONYMOUS is 0x800 */
	static const char t[] = "# arch: mips\n# kernel: 6.18\n"
				"mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x1000\n";
	struct rd d;
	struct event ev;
	rd_open(&d, t, sizeof(t) - 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_uint_eq(ev.args[3], 0x802);
	rd_close(&d);

	char err[128];
	FILE *f = text_file(t, sizeof(t) - 1);
	struct trace_reader *r = trace_open_stream(f, "t", "x86_64", "6.18", err, sizeof(err));
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(trace_read(r, &ev), 1);
	ck_assert_uint_eq(ev.args[3], 0x22);
	trace_close(r);
	fclose(f);

	/* a kernel without a table of its own uses the newest older one */
	static const char k[] = "# kernel: 5.10\n"
				"mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x1000\n";
	rd_open(&d, k, sizeof(k) - 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_uint_eq(ev.args[3], 0x22);
	rd_close(&d);
	ck_error("# kernel: 3.2\nmmap(NULL, 4096, PROT_READ, MAP_PRIVATE, -1, 0) = 0x1000\n",
		 "1:11: error: unknown kernel '3.2'");
}
END_TEST

/* docs/trace-format.md, "Flag names and numbers": names are the writer's
 * (strace's by default), numbers the kernel's to interpret */
static uint64_t flag_arg(const char *text, unsigned arg)
{
	struct rd d;
	struct event ev;
	rd_open(&d, text, strlen(text));
	int rc = trace_read(d.r, &ev);
	ck_assert_msg(rc == 1, "'%s': %s", text, trace_error(d.r));
	uint64_t v = ev.args[arg];
	rd_close(&d);
	return v;
}

START_TEST(flag_names_are_the_writers)
{
	/* a current strace on 4.0: names 4.0's headers never had */
	ck_assert_uint_eq(flag_arg("# kernel: 4.0\nmlock2(0x1000, 4096, MLOCK_ONFAULT) = -1 ENOSYS "
				   "(Function not implemented)\n", 2), 1);
	ck_assert_uint_eq(flag_arg("# kernel: 4.4\nmadvise(0x1000, 4096, MADV_PAGEOUT) = -1 EINVAL "
				   "(Invalid argument)\n", 2), 21);
	ck_assert_uint_eq(flag_arg("# kernel: 4.0\nmmap(0x1000, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|"
				   "MAP_FIXED_NOREPLACE, -1, 0) = 0x1000\n", 3), 0x100022);
	/* lof-v1: strace's name for the patch's number, and the patch's own
	 * name (the kernel's table, for a name strace's lacks) */
	ck_assert_uint_eq(flag_arg("# kernel: lof-v1\nmmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|"
				   "MAP_SYNC, -1, 0) = 0x1000\n", 3), 0x80022);
	ck_assert_uint_eq(flag_arg("# kernel: lof-v1\nmmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|"
				   "MAP_LOCKONFAULT, -1, 0) = 0x1000\n", 3), 0x80022);
	/* where both tables name it, the writer's wins: parisc renumbered
	 * MADV_MERGEABLE (65 -> 12) in 6.2 */
	ck_assert_uint_eq(flag_arg("# arch: parisc\n# kernel: 4.0\nmadvise(0x1000, 4096, MADV_MERGEABLE) = 0\n",
				   2), 12);
	ck_assert_uint_eq(flag_arg("# arch: parisc\n# kernel: 4.0\n# flag-names: 4.0\n"
				   "madvise(0x1000, 4096, MADV_MERGEABLE) = 0\n", 2), 65);
	/* a trace written with 4.0's own names has no MLOCK_ONFAULT */
	ck_error("# kernel: 4.0\n# flag-names: 4.0\nmlock2(0x1000, 4096, MLOCK_ONFAULT) = 0\n",
		 "3:22: error: unknown flag 'MLOCK_ONFAULT' for x86_64: not a name of 4.0 or of kernel 4.0");
	ck_error("# flag-names: 2.6\n", "1:15: error: unknown table of flag names '2.6'");

	/* the writer names flags by the table it is given, and the reader
	 * reads them back to the same number */
	struct event ev = { 0 };
	ev.type = EV_CALL;
	ev.sys = SYS_MMAP;
	ev.nargs = 6;
	ev.args[1] = 4096;
	ev.args[2] = 1;
	ev.args[3] = 0x80022;
	ev.args[4] = (uint64_t)-1;
	ev.res = RES_UNKNOWN;
	ev.timestamp = -1;
	char buf[256];
	trace_format_event(&ev, "x86_64", "strace", buf, sizeof(buf));
	ck_assert_str_eq(buf, "mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|MAP_SYNC, -1, 0) = ?");
	trace_format_event(&ev, "x86_64", "lof-v1", buf, sizeof(buf));
	ck_assert_str_eq(buf, "mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|MAP_LOCKONFAULT, -1, 0) = ?");
}
END_TEST

/* ---- malformed input ----------------------------------------------------- */

START_TEST(malformed)
{
	ck_error("munmap(0x1000, 40x96) = 0\n", "t.trace:1:18: error: unexpected 'x'");
	ck_error("munmap(0x1000, abc) = 0\n", "t.trace:1:16: error: expected a number");
	ck_error("munmap(0x1000, 4096 = 0\n", "t.trace:1:24: error: expected ')'");
	ck_error("openat(AT_FDCWD, \"/tmp/x, O_RDONLY) = 3\n", "t.trace:1:18: error: unterminated string");
	ck_error("mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_FOO, -1, 0) = 0x1000\n",
		 "t.trace:1:41: error: unknown flag 'MAP_FOO' for x86_64: not a name of strace's "
		 "tables or of kernel 6.18");
	ck_error("munmap(0x1000, 4096) = 0\n12 <... mmap resumed>) = 0\n",
		 "t.trace:2:4: error: 'resumed' without 'unfinished' for pid 12");
	ck_error("this is garbage\n", "t.trace:1:5: error: expected '('");
	ck_error("$$$\n", "t.trace:1:1: error: expected a syscall name");
	ck_error("munmap(0x1000, 4096) = -1 EBOGUS (x)\n", "1:27: error: unknown errno name 'EBOGUS'");
	ck_error("munmap(0x1000, 4096)\n", "1:21: error: expected '= RESULT'");
	ck_error("munmap(0x1000, 4096) = zz\n", "1:24: error: expected a result");
	ck_error("munmap(0x1000, 4096) = 0x\n", "1:24: error: expected a number");
	ck_error("munmap(0x1000) = 0\n", "expected 2 arguments for munmap");
	ck_error("munmap(0x1000, 1, 2) = 0\n", "1:19: error: expected 2 arguments");
	ck_error("mmap(NULL, , PROT_READ, MAP_PRIVATE, -1, 0) = 0\n", "1:12: error: expected an argument");
	ck_error("munmap(0x1000, 99999999999999999999) = 0\n", "number too large");
	ck_error("--- SIGFOO {si_signo=SIGFOO} ---\n", "1:5: error: unknown signal 'SIGFOO'");
	ck_error("--- SIGSEGV {si_signo=SIGSEGV}\n", "expected '---'");
	ck_error("+++ exited with x +++\n", "1:17: error: expected an exit status");
	ck_error("+++ vanished +++\n", "expected 'exited with N' or 'killed by SIGNAL'");
	ck_error("fault(0x1000, READ) = MEDIUM\n", "expected MINOR, MAJOR, SIGSEGV, SIGBUS or '?'");
	ck_error("fault(0x1000, JUMP) = MINOR\n", "1:15: error: unknown access mode 'JUMP'");
	ck_error("expect(vma, 0x1000) = {start=0x1000, end=}\n", "expected a value");
	ck_error("expect(vma, 0x1000) = {start=0x1000\n", "expected '}'");
	ck_error("expect(VmLck) = 32 parsecs\n", "1:20: error: unknown unit 'parsecs'");
	ck_error("expect(vma) = none\n", "expected 'expect(vma, ADDR)'");
	ck_error("expect(VmLck) = 4 kB trailing\n", "1:22: error: unexpected 't'");
	ck_error("prlimit64(0, RLIMIT_BOGUS, NULL, NULL) = 0\n", "1:14: error: unknown resource 'RLIMIT_BOGUS'");
	ck_error("openat(AT_FDCWD, \"/x\", O_RDWR|O_BOGUS) = 3\n", "1:31: error: unknown flag 'O_BOGUS'");
	ck_error("capset({version=3, pid=0}, {effective=1<<CAP_NOPE, permitted=0, inheritable=0}) = 0\n",
		 "unknown capability 'CAP_NOPE'");
	ck_error("openat(AT_FDCWD, \"\\q\", O_RDWR) = 3\n", "1:19: error: bad escape in string");
	ck_error("12:3x:00 munmap(0x1000, 4096) = 0\n", "1:1: error: expected a timestamp");
	ck_error("5 6 7 munmap(0x1000, 4096) = 0\n", "error: expected a pid or a timestamp");
	/* a resumed call reports columns on its own line */
	ck_error("4 munmap(0x1000, <unfinished ...>\n4 <... munmap resumed>4x) = 0\n",
		 "t.trace:2:24: error: unexpected 'x'");
	ck_error("4 munmap(0x1000, <unfinished ...>\n4 <... mmap resumed>4) = 0\n",
		 "2:8: error: 'mmap resumed' does not match");
	/* errors stop nothing else: a message names the file */
	ck_error("\n\nmunmap(0x1000, 4096) = 0 junk\n", "t.trace:3:26: error: unexpected 'j'");
	/* flags: a lone '|' */
	ck_error("mprotect(0x1000, 4096, PROT_READ|) = 0\n", "1:34: error: expected a flag name or number");
}
END_TEST

START_TEST(nul_byte)
{
	static const char t[] = "munmap(0x1000, 4096) = 0\nmunmap(0x1\0000, 4096) = 0\n";
	const char *m = error_of(t, sizeof(t) - 1);
	ck_assert_msg(strstr(m, "t.trace:2:11: error: NUL byte in line") != NULL, "%s", m);
}
END_TEST

START_TEST(crlf_empty_no_final_newline)
{
	static const char t[] = "# arch: x86_64\r\nmunmap(0x1000, 4096) = 0\r\nmunmap(0x2000, 4096) = 0";
	struct rd d;
	struct event ev;
	rd_open(&d, t, sizeof(t) - 1);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_str_eq(trace_header(d.r)->arch, "x86_64");
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_uint_eq(ev.args[0], 0x2000);
	ck_assert_uint_eq(ev.line, 3);
	ck_assert_int_eq(trace_read(d.r, &ev), 0);
	ck_assert_int_eq(trace_read(d.r, &ev), 0);
	rd_close(&d);

	rd_open(&d, "", 0);
	ck_assert_int_eq(trace_read(d.r, &ev), 0);
	ck_assert(!trace_header(d.r)->has_arch);
	rd_close(&d);
}
END_TEST

START_TEST(huge_line)
{
	size_t n = (1u << 20) + 123;
	const char pre[] = "write(1, \"";
	const char post[] = "\"..., 1048576) = 1048576\nmunmap(0x1000, 4096) = 0\n";
	size_t len = sizeof(pre) - 1 + n + sizeof(post) - 1;
	char *t = malloc(len);
	ck_assert_ptr_nonnull(t);
	memcpy(t, pre, sizeof(pre) - 1);
	memset(t + sizeof(pre) - 1, 'x', n);
	memcpy(t + sizeof(pre) - 1 + n, post, sizeof(post) - 1);
	struct rd d;
	struct event ev;
	rd_open(&d, t, len);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_WRITE);
	ck_assert_uint_eq(ev.args[2], 1048576);
	ck_assert_int_eq(ev.value, 1048576);
	ck_assert_int_eq(trace_read(d.r, &ev), 1);
	ck_assert_int_eq(ev.sys, SYS_MUNMAP);
	ck_assert_int_eq(trace_read(d.r, &ev), 0);
	rd_close(&d);
	free(t);
}
END_TEST

START_TEST(open_missing_file)
{
	char err[256];
	struct trace_reader *r = trace_open("/nonexistent/x.trace", NULL, NULL, err, sizeof(err));
	ck_assert_ptr_null(r);
	ck_assert(strstr(err, "/nonexistent/x.trace") != NULL);
}
END_TEST

/* ---- real logs --------------------------------------------------------- */

static unsigned parse_glob(const char *pattern, unsigned *files)
{
	glob_t g;
	unsigned bad = 0;
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char err[256];
		struct event ev;
		int rc;
		struct trace_reader *r = trace_open(g.gl_pathv[i], NULL, NULL, err, sizeof(err));
		ck_assert_msg(r != NULL, "%s", err);
		while ((rc = trace_read(r, &ev)) == 1)
			;
		if (rc < 0) {
			fprintf(stderr, "%s\n", trace_error(r));
			bad++;
		}
		trace_close(r);
		(*files)++;
	}
	globfree(&g);
	return bad;
}

START_TEST(all_real_logs)
{
	unsigned files = 0, bad = 0;
	bad += parse_glob(VMSIM_SRCDIR "/tests/strace-logs/*.log", &files);
	ck_assert_msg(files >= 5, "only %u strace logs found", files);
	unsigned before = files;
	bad += parse_glob(VMSIM_SRCDIR "/../shared/golden/*/*.trace", &files);
	if (files == before)
		fprintf(stderr, "note: no shared golden traces found; skipped\n");
	ck_assert_msg(bad == 0, "%u of %u files failed to parse", bad, files);
}
END_TEST

START_TEST(throughput)
{
	/* a figure for the log, never asserted: simple lines per second */
	enum { N = 400000 };
	static const char l1[] = "munmap(0x7f0000001000, 4096) = 0\n";
	static const char l2[] = "1 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000\n";
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < N / 2; i++) {
		fputs(l1, f);
		fputs(l2, f);
	}
	rewind(f);
	char err[128];
	struct trace_reader *r = trace_open_stream(f, "bench", NULL, NULL, err, sizeof(err));
	struct event ev;
	struct timespec a, b;
	unsigned long n = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	while (trace_read(r, &ev) == 1)
		n++;
	clock_gettime(CLOCK_MONOTONIC, &b);
	ck_assert_uint_eq(n, N);
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	fprintf(stderr, "trace_read: %.2f M lines/s\n", n / s / 1e6);
	trace_close(r);
	fclose(f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("trace_read");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, mmap_basic);
	tcase_add_test(tc, binary_run_length_wraps);
	tcase_add_test(tc, flag_names_are_the_writers);
	tcase_add_test(tc, strace_notations);
	tcase_add_test(tc, strace_stack_frames);
	tcase_add_test(tc, descriptor_and_stat_calls);
	tcase_add_test(tc, ff_merged);
	tcase_add_test(tc, ff_midnight_and_disorder);
	tcase_add_test(tc, ff_clock_and_cycles);
	tcase_add_test(tc, mmap_numeric_rest_and_comment);
	tcase_add_test(tc, results);
	tcase_add_test(tc, prefixes);
	tcase_add_test(tc, files_and_limits);
	tcase_add_test(tc, processes);
	tcase_add_test(tc, pseudo_events);
	tcase_add_test(tc, expects);
	tcase_add_test(tc, unknown_syscalls);
	tcase_add_test(tc, syscall_names_by_key);
	tcase_add_test(tc, unfinished_resumed);
	tcase_add_test(tc, child_before_fork_returns);
	tcase_add_test(tc, terminal_form);
	tcase_add_test(tc, terminal_form_parent_first_named);
	tcase_add_test(tc, restarted_call);
	tcase_add_test(tc, header_keys);
	tcase_add_test(tc, header_errors);
	tcase_add_test(tc, arch_from_header_and_override);
	tcase_add_test(tc, malformed);
	tcase_add_test(tc, nul_byte);
	tcase_add_test(tc, crlf_empty_no_final_newline);
	tcase_add_test(tc, huge_line);
	tcase_add_test(tc, open_missing_file);
	tcase_add_test(tc, all_real_logs);
	tcase_add_test(tc, throughput);
	tcase_add_test(tc, fast_path_equals_general);
	tcase_add_test(tc, fast_path_stream_equals_general);
	tcase_add_test(tc, binary_form_equals_text);
	tcase_add_test(tc, bulk_reader_equals_general);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_check_suite(suite());
}
