/*
 * checkpoint.c - copy-on-write checkpoints of the process (checkpoint.h).
 */
#include "checkpoint.h"
#include "snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* exit codes that do not end the session: an active process that handed
 * over, a checkpoint that was dropped */
#define EXIT_HANDED 77
#define EXIT_DROPPED 78
#define MSG_MAGIC 0x636b7074u

/* one message on a checkpoint's FIFO: smaller than PIPE_BUF, so written
 * and read whole */
struct ckpt_msg {
	uint32_t magic;
	char kind; /* 'R' resume, 'Q' quit */
	unsigned long every;
	uint64_t min_ns;
	size_t len;
	char payload[CKPT_MSG_MAX];
};
_Static_assert(sizeof(struct ckpt_msg) <= 4096, "a checkpoint message is written whole (PIPE_BUF)");
_Static_assert(sizeof(struct ckpt_msg) <= SNAP_MSG_MAX, "a checkpoint message is a snapshot's message");

/* the offsets of the regular files open when the checkpoint was taken
 * (standard streams excepted): this process's copy is the checkpoint's */
#define MAX_SAVED_FDS 64
static struct {
	int fd;
	off_t off;
} saved[MAX_SAVED_FDS];
static int nsaved;

/* this process's user and system CPU time, ns, and its minor faults */
static void cpu_ns(uint64_t *user, uint64_t *sys, uint64_t *minflt)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru)) { /* a snapshot helper's not */
		*user = *sys = *minflt = 0;
		return;
	}
	/* the largest resident size: the storage a snapshot will want */
	struct rusage all;
	if (!getrusage(RUSAGE_SELF, &all))
		snap_expect((size_t)all.ru_maxrss * 1024);
	*user = (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000u + (uint64_t)ru.ru_stime.tv_usec * 1000u;
	*minflt = (uint64_t)ru.ru_minflt;
}

/* the clocks at a fork, and the pages it shares: at most these can be
 * copied because of it */
static void mark(struct ckpt *ck)
{
	cpu_ns(&ck->last_user, &ck->last_sys, &ck->last_minflt);
	ck->shared_pages = 0;
	if (ck->mem)
		return;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		unsigned long size, resident;
		if (fscanf(f, "%lu %lu", &size, &resident) == 2)
			ck->shared_pages = resident;
		fclose(f);
	}
}

/* an environment variable of decimal digits in [lo, hi], or unset/empty */
static bool env_number(const char *name, unsigned long lo, unsigned long hi, char *why, size_t len)
{
	const char *e = getenv(name);
	if (!e || !*e)
		return true;
	char *end;
	errno = 0;
	unsigned long v = strtoul(e, &end, 10);
	if (*e >= '0' && *e <= '9' && !*end && !errno && v >= lo && v <= hi)
		return true;
	snprintf(why, len, "%s '%.40s': a number from %lu to %lu", name, e, lo, hi);
	return false;
}

bool ckpt_env_check(char *why, size_t len)
{
	const char *e = getenv("VMSIM_STEP_CHECKPOINTS");
	if (e && *e && strcmp(e, "memory") && strcmp(e, "fork")) {
		snprintf(why, len, "VMSIM_STEP_CHECKPOINTS '%.40s': memory or fork", e);
		return false;
	}
	/* the storage in MiB: shifted by 20 it must not wrap, and a terabyte
	 * is more than any machine here gives a stepper */
	return env_number("VMSIM_STEP_CHECKPOINT_MB", 1, 1UL << 20, why, len) &&
	       env_number("VMSIM_STEP_CHECKPOINT_EVERY", 0, 100000000UL, why, len);
}

void ckpt_init(struct ckpt *ck, unsigned long every, uint64_t min_ns, ckpt_resumed_fn resumed, void *ctx)
{
	memset(ck, 0, sizeof(*ck));
	const char *e = getenv("VMSIM_STEP_CHECKPOINT_EVERY");
	if (e && *e) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(e, &end, 10);
		if (!*end && !errno) {
			every = v;
			min_ns = 0;
		}
	}
	ck->every = resumed ? every : 0;
	ck->min_ns = min_ns;
	mark(ck);
	ck->resumed = resumed;
	ck->ctx = ctx;
}

/* a checkpoint's FIFO: SPACED (c) or NEAR (n), then its position and
 * line */
#define SPACED 'c'
#define NEAR 'n'
static void path_of(const struct ckpt *ck, char kind, unsigned long pos, unsigned long line, char *p, size_t n)
{
	snprintf(p, n, "%s/%c%lu-%lu", ck->dir, kind, pos, line);
}

/* the checkpoints of kind (0: either) in the directory: fn(arg, kind,
 * pos, line) for each; their number */
typedef void scan_fn(void *arg, char kind, unsigned long pos, unsigned long line);
static unsigned scan(const struct ckpt *ck, char kind, scan_fn *fn, void *arg)
{
	if (!ck->started)
		return 0;
	if (ck->mem) {
		struct snap_at at[SNAP_MAX];
		size_t n = snap_list(kind, at, SNAP_MAX);
		for (size_t i = 0; fn && i < n && i < SNAP_MAX; i++)
			fn(arg, at[i].kind, at[i].pos, at[i].line);
		return (unsigned)n;
	}
	DIR *d = opendir(ck->dir);
	if (!d)
		return 0;
	unsigned n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		unsigned long pos, line;
		char k, extra;
		if (sscanf(de->d_name, "%c%lu-%lu%c", &k, &pos, &line, &extra) != 3 || (k != SPACED && k != NEAR) ||
		    (kind && k != kind))
			continue;
		n++;
		if (fn)
			fn(arg, k, pos, line);
	}
	closedir(d);
	return n;
}

struct find {
	unsigned long want, pos, line;
	char kind;
	bool by_line, found;
};

static void find_one(void *arg, char kind, unsigned long pos, unsigned long line)
{
	struct find *f = arg;
	unsigned long key = f->by_line ? line : pos;
	if (key <= f->want && (!f->found || pos > f->pos)) {
		f->found = true;
		f->pos = pos;
		f->line = line;
		f->kind = kind;
	}
}

/* the checkpoint at pos: its kind and line; false if none */
static bool find_at(const struct ckpt *ck, unsigned long pos, char *kind, unsigned long *line)
{
	struct find f = { .want = pos };
	scan(ck, 0, find_one, &f);
	if (!f.found || f.pos != pos)
		return false;
	*kind = f.kind;
	*line = f.line;
	return true;
}

bool ckpt_best(const struct ckpt *ck, unsigned long pos, bool by_line, unsigned long *at)
{
	struct find f = { .want = pos, .by_line = by_line };
	scan(ck, 0, find_one, &f);
	if (f.found)
		*at = f.pos;
	return f.found;
}

/*
 * By time: min_ns of user CPU since the last, and no less than what the
 * last one has cost.  That cost is the copies of the pages the model wrote
 * after the fork, system time: the system time since then, but no more
 * than the pages the fork shared at the mean cost of a fault since (the
 * rest of the system time is the replay's own: new memory faulted in).
 * So checkpoints never take more than about half the time.
 */
static bool time_due(const struct ckpt *ck)
{
	if (!ck->min_ns)
		return true;
	uint64_t u, s, f;
	cpu_ns(&u, &s, &f);
	u -= ck->last_user;
	if (ck->mem) /* a snapshot's cost is its taking, measured */
		return u >= ck->min_ns && u >= ck->last_cost / 2;
	s -= ck->last_sys;
	f -= ck->last_minflt;
	uint64_t cost = s;
	if (f > ck->shared_pages)
		cost = (uint64_t)((double)s / (double)f * (double)ck->shared_pages);
	return u >= ck->min_ns && u >= cost;
}

bool ckpt_due(const struct ckpt *ck, unsigned long pos)
{
	unsigned long line;
	char kind;
	return ck->every && pos && pos % ck->every == 0 && time_due(ck) && !find_at(ck, pos, &kind, &line);
}

bool ckpt_can_fork(const struct ckpt *ck)
{
	return ck->every != 0;
}

/* send a message to the checkpoint at pos; false if it is gone */
static bool send(const struct ckpt *ck, char ckind, unsigned long pos, unsigned long line, char kind,
		 const void *payload, size_t len)
{
	char p[300];
	if (ck->mem && kind == 'Q') {
		snap_drop(pos);
		return true;
	}
	path_of(ck, ckind, pos, line, p, sizeof(p));
	int fd = open(p, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		unlink(p);
		return false;
	}
	static struct ckpt_msg m;
	memset(&m, 0, sizeof(m));
	m.magic = MSG_MAGIC;
	m.kind = kind;
	m.every = ck->every;
	m.min_ns = ck->min_ns;
	m.len = len;
	if (len)
		memcpy(m.payload, payload, len);
	bool ok = write(fd, &m, sizeof(m)) == (ssize_t)sizeof(m);
	close(fd);
	if (!ok || kind == 'Q')
		unlink(p);
	return ok;
}

/* The directory's path for the signal handlers below (one directory a
 * process). */
static char sig_dir[PATH_MAX];

/* Empties and removes sig_dir, the directory of ck->dir, with
 * async-signal-safe calls only (getdents64, unlinkat(), rmdir()): at the
 * end of a session and from the signal handlers alike. */
static void remove_dir(void)
{
	int fd = open(sig_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		char buf[4096];
		long n;
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
			for (long off = 0; off < n;) {
				/* struct linux_dirent64: ino, off, reclen, type, name */
				unsigned short reclen;
				memcpy(&reclen, buf + off + 16, sizeof(reclen));
				const char *name = buf + off + 19;
				if (name[0] != '.')
					unlinkat(fd, name, 0);
				off += reclen ? reclen : n;
			}
		close(fd);
	}
	rmdir(sig_dir);
}

/* SIGTERM, SIGHUP, SIGINT or SIGQUIT to the supervisor (the process the
 * user started), or the death signal its copies get when it dies even of
 * SIGKILL: the directory goes, then the signal does what it would have */
static void on_fatal(int sig)
{
	remove_dir();
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

static void catch_fatal(void)
{
	static const int sigs[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* the supervisor: wait until the active process ends, then end the same
 * way (the others die with it: PR_SET_PDEATHSIG) */
static void supervise(void)
{
	catch_fatal();
	for (;;) {
		int st;
		pid_t p = wait(&st);
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0) {
			remove_dir();
			_exit(2);
		}
		if (WIFEXITED(st) && (WEXITSTATUS(st) == EXIT_HANDED || WEXITSTATUS(st) == EXIT_DROPPED))
			continue;
		remove_dir();
		if (WIFSIGNALED(st)) {
			signal(WTERMSIG(st), SIG_DFL);
			raise(WTERMSIG(st));
			_exit(128 + WTERMSIG(st));
		}
		_exit(WEXITSTATUS(st));
	}
}

/*
 * A copy of this process whose parent is this process's parent (the
 * supervisor): clone(CLONE_PARENT), one copy of the address space where a
 * double fork would make two.  Raw clone: glibc's fork() would run its
 * atfork handlers, of which this single-threaded program has none.  The
 * pid in the caller, 0 in the copy, -1 on failure.
 */
static pid_t sibling(void)
{
	return (pid_t)syscall(SYS_clone, (unsigned long)(CLONE_PARENT | SIGCHLD), 0UL, 0UL, 0UL, 0UL);
}

/* in a sibling: die with the supervisor, removing the directory on the
 * way (SIGTERM: on_fatal()) */
static void adopt(const struct ckpt *ck)
{
	catch_fatal();
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != ck->sup)
		_exit(2);
}

static void restore_offsets(void)
{
	for (int i = 0; i < nsaved; i++)
		lseek(saved[i].fd, saved[i].off, SEEK_SET);
}

static void save_offset(int fd)
{
	struct stat sb;
	if (nsaved == MAX_SAVED_FDS || fstat(fd, &sb) || !S_ISREG(sb.st_mode))
		return;
	off_t off = lseek(fd, 0, SEEK_CUR);
	if (off >= 0) {
		saved[nsaved].fd = fd;
		saved[nsaved].off = off;
		nsaved++;
	}
}

/* the open descriptors from /proc/self/fd (a system call each for the
 * thousand a loop would try costs milliseconds a checkpoint here), else
 * the first 1,024 */
static void save_offsets(void)
{
	nsaved = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d) {
		for (int fd = 3; fd < 1024; fd++)
			save_offset(fd);
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && !*end && fd >= 3 && fd != dirfd(d) &&
		    fd <= INT_MAX)
			save_offset((int)fd);
	}
	closedir(d);
}

/* become the active process with the message m (does not return): the
 * spacing is the sender's, which may have doubled since this checkpoint */
static void become_active(struct ckpt *ck, const struct ckpt_msg *m)
{
	restore_offsets();
	ck->every = m->every;
	ck->min_ns = m->min_ns;
	mark(ck);
	ck->resumed(ck->ctx, m->payload, m->len);
	_exit(2);
}

/* a checkpoint: wait on its FIFO for a message */
static void frozen(struct ckpt *ck, int fd, const char *path)
{
	adopt(ck);
	static struct ckpt_msg m;
	for (;;) {
		ssize_t n = read(fd, &m, sizeof(m));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(m) || m.magic != MSG_MAGIC || m.kind == 'Q' || m.len > CKPT_MSG_MAX)
			_exit(EXIT_DROPPED);
		if (m.kind != 'R')
			continue;
		pid_t w = sibling();
		if (w == 0) {
			close(fd);
			adopt(ck);
			become_active(ck, &m);
		}
		if (w < 0) {
			/* no process for it: this checkpoint goes on itself */
			unlink(path);
			close(fd);
			become_active(ck, &m);
		}
	}
}

/* the first checkpoint in memory: snapshots (snapshot.h), unless
 * VMSIM_STEP_CHECKPOINTS=fork or this process cannot take them */
static bool start_mem(struct ckpt *ck)
{
	const char *e = getenv("VMSIM_STEP_CHECKPOINTS");
	if (e && !strcmp(e, "fork"))
		return false;
	size_t mb = CKPT_MEM_MB;
	const char *b = getenv("VMSIM_STEP_CHECKPOINT_MB");
	if (b && *b) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(b, &end, 10);
		if (!*end && !errno && v)
			mb = v;
	}
	const char *why = NULL;
	if (!snap_init(mb << 20, &why))
		return false;
	ck->mem = true;
	ck->started = true;
	return true;
}

/* the first checkpoint: the supervisor stays behind */
static int start(struct ckpt *ck)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(ck->dir, sizeof(ck->dir), "%s/vmsim-ckpt.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(ck->dir))
		return -1;
	snprintf(sig_dir, sizeof(sig_dir), "%s", ck->dir);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		rmdir(ck->dir);
		return -1;
	}
	ck->sup = getpid();
	fflush(NULL);
	pid_t a = fork();
	if (a < 0) {
		prctl(PR_SET_CHILD_SUBREAPER, 0);
		rmdir(ck->dir);
		return -1;
	}
	if (a > 0) {
		ck->started = true;
		supervise();
	}
	catch_fatal();
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != ck->sup)
		_exit(2);
	ck->started = true;
	return 0;
}

struct all {
	unsigned n;
	struct at {
		unsigned long pos, line;
	} at[CKPT_MAX + 8];
};

static void collect(void *arg, char kind, unsigned long pos, unsigned long line)
{
	(void)kind;
	struct all *a = arg;
	if (a->n < CKPT_MAX + 8)
		a->at[a->n++] = (struct at){ pos, line };
}

static int by_pos(const void *x, const void *y)
{
	const struct at *a = x, *b = y;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* at CKPT_MAX: drop every other checkpoint (the second, fourth ...) and
 * take them half as often from now on */
static void thin(struct ckpt *ck)
{
	struct all a = { 0 };
	scan(ck, SPACED, collect, &a);
	qsort(a.at, a.n, sizeof(a.at[0]), by_pos);
	for (unsigned i = 1; i < a.n; i += 2)
		send(ck, SPACED, a.at[i].pos, a.at[i].line, 'Q', NULL, 0);
	if (ck->min_ns)
		ck->min_ns *= 2;
	else
		ck->every *= 2;
}

/* the snapshot of kind at pos (memory mode): 0 taken, -1 not; where it
 * is resumed, the process goes on as become_active() */
static int take_mem(struct ckpt *ck, char kind, unsigned long pos, unsigned long line)
{
	fflush(NULL);
	uint64_t cost = 0;
	const void *msg;
	size_t len;
	int r = snap_take(kind, pos, line, &cost, &msg, &len);
	if (r == 1 && len == sizeof(struct ckpt_msg))
		become_active(ck, msg);
	if (r == 1) /* not a message of ours: cannot be */
		abort();
	if (r == 0)
		ck->last_cost = cost;
	return r;
}

/* the checkpoint of kind at pos, the process goes on: 0, or -1 */
static int take(struct ckpt *ck, char kind, unsigned long pos, unsigned long line)
{
	char p[300];
	if (ck->mem)
		return take_mem(ck, kind, pos, line);
	path_of(ck, kind, pos, line, p, sizeof(p));
	if (mkfifo(p, 0600))
		return -1;
	int fd = open(p, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		unlink(p);
		return -1;
	}
	save_offsets();
	fflush(NULL);
	pid_t c = sibling();
	if (c == 0)
		frozen(ck, fd, p);
	close(fd);
	if (c < 0) {
		unlink(p);
		return -1;
	}
	return 0;
}

int ckpt_take(struct ckpt *ck, unsigned long pos, unsigned long line)
{
	if (!ck->every)
		return -1;
	if (!ck->started && !start_mem(ck) && start(ck)) {
		ck->every = 0; /* this machine cannot: no more tries */
		return -1;
	}
	if (scan(ck, SPACED, NULL, NULL) >= CKPT_MAX || (ck->mem && snap_bytes() > snap_budget() / 4 * 3)) {
		thin(ck);
		if (pos % ck->every)
			return 0;
	}
	int r = take(ck, SPACED, pos, line);
	if (r && ck->mem && errno == ENOMEM && scan(ck, SPACED, NULL, NULL) > 1) {
		/* the budget is spent: half of them go */
		thin(ck);
		r = pos % ck->every ? 0 : take(ck, SPACED, pos, line);
	}
	mark(ck);
	return r;
}

/* the near checkpoint farthest from pos */
struct far {
	unsigned long from, pos, line, dist;
	bool found;
};

static void far_one(void *arg, char kind, unsigned long pos, unsigned long line)
{
	(void)kind;
	struct far *f = arg;
	unsigned long d = pos > f->from ? pos - f->from : f->from - pos;
	if (!f->found || d > f->dist) {
		f->found = true;
		f->pos = pos;
		f->line = line;
		f->dist = d;
	}
}

int ckpt_take_near(struct ckpt *ck, unsigned long pos, unsigned long line)
{
	unsigned long l;
	char kind;
	/* none in memory: a restore is a copy and the roll forward the
	 * replay's own speed, where one more snapshot would cost a pass over
	 * the memory (or, far from the others, a copy of it) */
	if (!ck->every || !ck->started || ck->mem || find_at(ck, pos, &kind, &l))
		return -1;
	if (scan(ck, NEAR, NULL, NULL) >= CKPT_NEAR) {
		struct far f = { .from = pos };
		scan(ck, NEAR, far_one, &f);
		if (f.found)
			send(ck, NEAR, f.pos, f.line, 'Q', NULL, 0);
	}
	return take(ck, NEAR, pos, line);
}

int ckpt_resume(struct ckpt *ck, unsigned long at, const void *msg, size_t len)
{
	unsigned long line;
	char kind;
	if (len > CKPT_MSG_MAX || !find_at(ck, at, &kind, &line))
		return -1;
	fflush(NULL);
	if (ck->mem) {
		static struct ckpt_msg m;
		memset(&m, 0, sizeof(m));
		m.magic = MSG_MAGIC;
		m.kind = 'R';
		m.every = ck->every;
		m.min_ns = ck->min_ns;
		m.len = len;
		memcpy(m.payload, msg, len);
		return snap_restore(at, &m, sizeof(m));
	}
	if (!send(ck, kind, at, line, 'R', msg, len))
		return -1;
	_exit(EXIT_HANDED);
}

FILE *ckpt_carry_open(const struct ckpt *ck, bool write)
{
	if (!ck->started)
		return NULL;
	if (ck->mem) {
		size_t cap;
		char *c = snap_carry(&cap);
		if (write)
			return fmemopen(c, cap, "w");
		size_t n = strnlen(c, cap);
		return n ? fmemopen(c, n, "r") : NULL;
	}
	char p[300];
	snprintf(p, sizeof(p), "%s/history", ck->dir);
	FILE *f = fopen(p, write ? "w" : "r");
	if (!f && write)
		unlink(p);
	return f;
}
