/*
 * trace_strace.c - strace's notations around a call (see trace_strace.h).
 */
#include "alloc.h"
#include "trace_reader.h"
#include "trace_strace.h"
#include "trace_args.h"
#include "trace_lex.h"

#include <limits.h>
#include <stdlib.h>

#include "syscall_table.h"

static int grow(char **buf, size_t *cap, size_t need);

/* ---- strace's own notices ------------------------------------------- */


/* strace -f writing to a terminal prints "strace: Process N attached"
 * (and "... detached") on the same stream, often in the middle of the line
 * of the clone() that created N: the line then goes on on the next line.
 * Only a line ending in " attached" or " detached" is looked at. */
static bool notice_at(const char *line, size_t len, size_t *start)
{
	static const char tag[] = "strace: Process ";
	const size_t tl = sizeof(tag) - 1;
	if (len < tl + 10 || (memcmp(line + len - 9, " attached", 9) != 0 &&
			      memcmp(line + len - 9, " detached", 9) != 0))
		return false;
	size_t i = len - 9;
	while (i > 0 && is_digit(line[i - 1]))
		i--;
	if (i == len - 9 || i < tl || memcmp(line + i - tl, tag, tl) != 0)
		return false;
	*start = i - tl;
	return true;
}

/* Drop the notices of the current line, joining a split line with the
 * next one.  0 go on, 1 the line was only a notice (skip it), -1 error. */
int tr_strip_notices(struct trace_reader *r)
{
	size_t at;
	bool joined = false;
	while (notice_at(r->line, r->len, &at)) {
		if (!joined && *skip_ws(r->line) == 's' && r->line + at == skip_ws(r->line))
			return 1;
		/* r->line may live in the input block that tr_next_line() moves */
		if (grow(&r->splice, &r->splicecap, at + 1) < 0)
			return tr_fail(r, r->line, "out of memory");
		memmove(r->splice, r->line, at);
		int k = tr_next_line(r);
		if (k < 0)
			return -1;
		size_t more = k ? r->len : 0;
		if (grow(&r->splice, &r->splicecap, at + more + 1) < 0)
			return tr_fail(r, r->line, "out of memory");
		if (more)
			memcpy(r->splice + at, r->line, more);
		r->splice[at + more] = '\0';
		r->line = r->splice;
		r->len = at + more;
		joined = true;
		if (!k)
			break;
	}
	return 0;
}


static int sig_field(struct trace_reader *r, void *ctx, char *key, size_t kl,
		     char *vs, char *ve)
{
	struct event *ev = ctx;
	if (word_is(key, kl, "si_code")) {
		ev->si_code.p = vs;
		ev->si_code.len = (size_t)(ve - vs);
		if (is_digit(*vs)) {
			/* -X verbose/raw: "0x1 /" "* SEGV_MAPERR *" "/" or a bare number */
			char *c = strstr(vs, "/*");
			if (c && c < ve) {
				char *nm = skip_ws(c + 2);
				ev->si_code.p = nm;
				ev->si_code.len = id_len(nm);
			} else {
				uint64_t code;
				if (tr_arg_num(r, vs, ve, &code) < 0)
					return -1;
				static const char *const segv[] = { "?", "SEGV_MAPERR", "SEGV_ACCERR" };
				const char *nm = code < 3 ? segv[code] : "?";
				ev->si_code.p = nm;
				ev->si_code.len = strlen(nm);
			}
		}
	} else if (word_is(key, kl, "si_addr")) {
		ev->has_si_addr = true;
		return tr_arg_num(r, vs, ve, &ev->si_addr);
	}
	return 0;
}

/* A signal's name at p (SIGSEGV): its number in *signo, and the text
 * after it and its blanks; NULL with the error reported */
static char *signal_name(struct trace_reader *r, char *p, int *signo)
{
	size_t n = id_len(p);
	uint64_t v;
	if (!n) {
		tr_fail(r, p, "expected a signal name");
		return NULL;
	}
	if (systab_sym(SK_SIGNAL, p, n, &v) < 0) {
		tr_fail(r, p, "unknown signal '%.*s'", (int)n, p);
		return NULL;
	}
	*signo = (int)v;
	return skip_ws(p + n);
}

int tr_parse_signal(struct trace_reader *r, char *p, struct event *ev)
{
	p = skip_ws(p + 3);
	if (strncmp(p, "stopped by ", 11) == 0)
		p = skip_ws(p + 11);
	ev->type = EV_SIGNAL;
	if (!(p = signal_name(r, p, &ev->signo)))
		return -1;
	if (*p == '{') {
		if (tr_struct_fields(r, p, sig_field, ev, &p) < 0)
			return -1;
		p = skip_ws(p);
	}
	if (strncmp(p, "---", 3) != 0)
		return tr_fail(r, p, "expected '---'");
	p = skip_ws(p + 3);
	if (*p)
		return tr_fail(r, p, "unexpected '%c' at the end of the line", *p);
	return 1;
}

int tr_parse_exit(struct trace_reader *r, char *p, struct event *ev)
{
	p = skip_ws(p + 3);
	if (strncmp(p, "exited with ", 12) == 0) {
		bool neg, ovf;
		uint64_t v;
		p = skip_ws(p + 12);
		neg = *p == '-';
		char *q = tr_scan_u64(p + neg, &v, &ovf);
		if (!q || ovf || v > INT_MAX)
			return tr_fail(r, p, "expected an exit status");
		ev->type = EV_EXITED;
		ev->exit_status = neg ? -(int)v : (int)v;
		p = skip_ws(q);
	} else if (strncmp(p, "killed by ", 10) == 0) {
		ev->type = EV_KILLED;
		if (!(p = signal_name(r, skip_ws(p + 10), &ev->signo)))
			return -1;
		if (strncmp(p, "(core dumped)", 13) == 0)
			p = skip_ws(p + 13);
	} else if (strncmp(p, "superseded by execve", 20) == 0) {
		return 0; /* a note: the thread became the execve's process */
	} else {
		return tr_fail(r, p, "expected 'exited with N' or 'killed by SIGNAL'");
	}
	if (strncmp(p, "+++", 3) != 0)
		return tr_fail(r, p, "expected '+++'");
	p = skip_ws(p + 3);
	if (*p)
		return tr_fail(r, p, "unexpected '%c' at the end of the line", *p);
	return 1;
}

/* ---- unfinished / resumed ---------------------------------------------- */

/* "NAME(" of a fork-like call */
static bool forks(const char *name)
{
	return !strncmp(name, "clone(", 6) || !strncmp(name, "clone3(", 7) ||
	       !strncmp(name, "fork(", 5) || !strncmp(name, "vfork(", 6);
}

/* pid's fork-like call leaves the list of those not returned */
static void forking_remove(struct trace_reader *r, int pid)
{
	for (size_t i = 0; i < r->nforking; i++)
		if (r->forking[i] == pid) {
			r->forking[i] = r->forking[--r->nforking];
			return;
		}
}

#define PEND_GONE UINT32_MAX

static size_t pend_slot(size_t cap, int pid)
{
	return ((size_t)(unsigned)pid * 0x9e3779b9u) & (cap - 1);
}

/* the index slot of pid (its entry, or where it would go) */
static size_t pend_lookup(const struct trace_reader *r, int pid, bool *found)
{
	size_t i = pend_slot(r->pidx_cap, pid), free_slot = SIZE_MAX;
	for (;; i = (i + 1) & (r->pidx_cap - 1)) {
		uint32_t v = r->pidx[i];
		if (!v) {
			*found = false;
			return free_slot != SIZE_MAX ? free_slot : i;
		}
		if (v == PEND_GONE) {
			if (free_slot == SIZE_MAX)
				free_slot = i;
		} else if (r->pend[v - 1].pid == pid) {
			*found = true;
			return i;
		}
	}
}

static int pend_rehash(struct trace_reader *r)
{
	size_t nc = r->pidx_cap ? r->pidx_cap * 2 : 64;
	while (nc < 4 * (r->npend + 1))
		nc *= 2;
	uint32_t *n = vm_calloc(nc, sizeof(*n));
	if (!n)
		return -1;
	free(r->pidx);
	r->pidx = n;
	r->pidx_cap = nc;
	r->pidx_used = r->npend;
	for (size_t k = 0; k < r->npend; k++) {
		bool f;
		r->pidx[pend_lookup(r, r->pend[k].pid, &f)] = (uint32_t)k + 1;
	}
	return 0;
}

struct pend *tr_pend_find(struct trace_reader *r, int pid)
{
	if (!r->npend)
		return NULL;
	bool found;
	size_t i = pend_lookup(r, pid, &found);
	return found ? &r->pend[r->pidx[i] - 1] : NULL;
}

static void pend_remove(struct trace_reader *r, struct pend *pe)
{
	if (!pe->returned && forks(pe->buf))
		forking_remove(r, pe->pid);
	bool found;
	size_t k = (size_t)(pe - r->pend), last = r->npend - 1;
	r->pidx[pend_lookup(r, pe->pid, &found)] = PEND_GONE;
	if (k != last) {
		size_t j = pend_lookup(r, r->pend[last].pid, &found);
		r->pidx[j] = (uint32_t)k + 1;
	}
	struct pend tmp = *pe;
	*pe = r->pend[last];
	r->pend[--r->npend] = tmp; /* keep the buffer for reuse */
}

/* index pend[npend - 1] (just added); -1 out of memory */
static int pend_index_last(struct trace_reader *r)
{
	if ((r->pidx_used + 1) * 2 > r->pidx_cap && pend_rehash(r) < 0)
		return -1;
	bool found;
	size_t i = pend_lookup(r, r->pend[r->npend - 1].pid, &found);
	if (!r->pidx[i])
		r->pidx_used++;
	r->pidx[i] = (uint32_t)r->npend;
	return 0;
}

static int grow(char **buf, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t nc = *cap ? *cap : 256;
	while (nc < need)
		nc *= 2;
	char *b = vm_realloc(*buf, nc);
	if (!b)
		return -1;
	*buf = b;
	*cap = nc;
	return 0;
}

static int pend_append(struct trace_reader *r, struct pend *pe, const char *s,
		       size_t n)
{
	if (grow(&pe->buf, &pe->cap, pe->len + n + 1) < 0)
		return tr_fail(r, s, "out of memory");
	memcpy(pe->buf + pe->len, s, n);
	pe->len += n;
	pe->buf[pe->len] = '\0';
	return 0;
}

static const char unfinished[] = "<unfinished ...>";
static const char detached[] = "<detached ...>";

/* If the line ends in "<unfinished ...>", the end of the text before it.
 * "<detached ...>" ends a line the same way: strace -p let go of the
 * process inside that call (the last line of an attach log), which is
 * then a call that never resumes. */
char *tr_unfinished_at(struct trace_reader *r, char *from)
{
	char *e = r->line + r->len;
	while (e > from && is_ws(e[-1]))
		e--;
	size_t ul = sizeof(unfinished) - 1, dl = sizeof(detached) - 1;
	if ((size_t)(e - from) >= ul && memcmp(e - ul, unfinished, ul) == 0)
		e -= ul;
	else if ((size_t)(e - from) >= dl && memcmp(e - dl, detached, dl) == 0)
		e -= dl;
	else
		return NULL;
	/* the one space strace puts before the marker: any other is the
	 * argument text's own, which the resumed part continues */
	if (e > from && e[-1] == ' ')
		e--;
	return e;
}

/* Parse text (in r->work, split at split) as one call. */
static int parse_joined(struct trace_reader *r, struct pend *pe, size_t split,
			unsigned long line2, long col2, struct event *ev, bool partial)
{
	r->cbase = r->work;
	r->csplit = split;
	r->cl1 = pe->line;
	r->cc1 = pe->col0;
	r->cl2 = line2;
	r->cc2 = col2;
	return tr_parse_call(r, r->work, ev, partial);
}

/* Emit the unfinished call of pe as an event with an unknown result
 * (its process ended, or the input did, before it returned). */
/* The unfinished call of pe, its first half alone, as one event whose
 * result is tail (") = ?", ") = PID"): its trailing blanks and comma go */
static int parse_first_half(struct trace_reader *r, struct pend *pe, const char *tail,
			    struct event *ev)
{
	size_t n = pe->len, tl = strlen(tail);
	while (n && (is_ws(pe->buf[n - 1]) || pe->buf[n - 1] == ','))
		n--;
	if (grow(&r->work, &r->workcap, n + tl + 1) < 0)
		return tr_fail_col(r, pe->line, pe->col0, "out of memory");
	memcpy(r->work, pe->buf, n);
	memcpy(r->work + n, tail, tl + 1);
	tr_ev_clear(ev);
	ev->pid = pe->pid;
	ev->timestamp = pe->ts;
	ev->line = ev->first_line = pe->line;
	return parse_joined(r, pe, SIZE_MAX, pe->line, pe->col0, ev, true);
}

int tr_flush_pending(struct trace_reader *r, struct pend *pe, struct event *ev)
{
	int rc = pe->returned ? 0 : parse_first_half(r, pe, ") = ?", ev);
	pend_remove(r, pe);
	return rc;
}

int tr_parse_resumed(struct trace_reader *r, char *p, int pid,
			 struct event *ev)
{
	char *q = skip_ws(p + 4);
	size_t n = id_len(q);
	if (!n)
		return tr_fail(r, q, "expected a syscall name");
	char *name = q;
	q = skip_ws(q + n);
	if (strncmp(q, "resumed>", 8) != 0)
		return tr_fail(r, q, "expected 'resumed>'");
	q += 8;
	struct pend *pe = tr_pend_find(r, pid);
	if (!pe)
		return tr_fail(r, p, "'resumed' without 'unfinished' for pid %d", r->line_pid);
	if (strncmp(pe->buf, name, n) != 0 || pe->buf[n] != '(')
		return tr_fail(r, name, "'%.*s resumed' does not match the unfinished call of pid %d",
			    (int)n, name, r->line_pid);
	if (pe->returned) { /* emitted when its child came: nothing to add */
		if (!tr_unfinished_at(r, q))
			pend_remove(r, pe);
		return 0;
	}
	char *ue = tr_unfinished_at(r, q);
	if (ue)
		return pend_append(r, pe, q, (size_t)(ue - q)) < 0 ? -1 : 0;
	/* "<... X resumed> <unfinished ...>) = ?": the call was cut again,
	 * for good (its thread killed with its process, SIGKILL): strace
	 * gives it no more arguments, only its end - the first half is the
	 * call, as for a process that ended inside it */
	char *u = skip_ws(q);
	if (!strncmp(u, unfinished, sizeof(unfinished) - 1)) {
		int rc = parse_first_half(r, pe, skip_ws(u + sizeof(unfinished) - 1), ev);
		pend_remove(r, pe);
		return rc;
	}
	size_t rest = r->len - (size_t)(q - r->line);
	if (grow(&r->work, &r->workcap, pe->len + rest + 1) < 0)
		return tr_fail(r, q, "out of memory");
	memcpy(r->work, pe->buf, pe->len);
	memcpy(r->work + pe->len, q, rest + 1);
	tr_ev_clear(ev);
	ev->pid = pid;
	ev->timestamp = pe->ts;
	ev->first_line = pe->line;
	ev->line = r->lineno;
	int rc = parse_joined(r, pe, pe->len, r->lineno, (long)(q - r->line) + 1, ev, false);
	pend_remove(r, pe);
	return rc;
}

/* pid into the set of pids seen: 1 new, 0 seen before, -1 out of memory */
static int seen_add(struct trace_reader *r, int pid)
{
	if ((r->seen_n + 1) * 2 > r->seen_cap) {
		size_t nc = r->seen_cap ? r->seen_cap * 2 : 64;
		int *n = vm_calloc(nc, sizeof(*n));
		if (!n)
			return -1;
		for (size_t i = 0; i < r->seen_cap; i++)
			if (r->seen[i]) {
				size_t j = pend_slot(nc, r->seen[i]);
				while (n[j])
					j = (j + 1) & (nc - 1);
				n[j] = r->seen[i];
			}
		free(r->seen);
		r->seen = n;
		r->seen_cap = nc;
	}
	size_t j = pend_slot(r->seen_cap, pid);
	while (r->seen[j]) {
		if (r->seen[j] == pid)
			return 0;
		j = (j + 1) & (r->seen_cap - 1);
	}
	r->seen[j] = pid;
	r->seen_n++;
	return 1;
}

void tr_pid_gone(struct trace_reader *r, int pid)
{
	if (pid == r->seen_last)
		r->seen_last = 0;
	if (!r->seen_n)
		return;
	size_t m = r->seen_cap - 1, j = pend_slot(r->seen_cap, pid);
	while (r->seen[j] && r->seen[j] != pid)
		j = (j + 1) & m;
	if (!r->seen[j])
		return;
	/* backward-shift deletion: the entries after it in its run move up
	 * to where a lookup will still find them */
	r->seen[j] = 0;
	r->seen_n--;
	for (size_t k = (j + 1) & m; r->seen[k]; k = (k + 1) & m) {
		int v = r->seen[k];
		r->seen[k] = 0;
		size_t h = pend_slot(r->seen_cap, v);
		while (r->seen[h])
			h = (h + 1) & m;
		r->seen[h] = v;
	}
}

int tr_pid_returned(struct trace_reader *r, int pid)
{
	return seen_add(r, pid) < 0 ? tr_fail(r, r->line, "out of memory") : 0;
}

/*
 * strace -f prints a child's first line as soon as the child runs, which
 * may be before the parent's fork returns to it: "P vfork( <unfinished
 * ...>", then "C execve(...)", then "P <... vfork resumed>) = C".  The
 * kernel made C inside the call (kernel/fork.c:copy_process() before
 * wake_up_new_task()), so the fork is emitted at C's first line, with C
 * as its result; its resumed half adds nothing.
 */
int tr_fork_returned(struct trace_reader *r, int pid, struct event *ev)
{
	if (pid == r->seen_last)
		return 0; /* seen before (seen_add() would say 0) */
	int k = seen_add(r, pid);
	if (k < 0)
		return tr_fail(r, r->line, "out of memory");
	r->seen_last = pid;
	/* two forks unfinished: whose child it is is not known */
	if (!k || r->nforking != 1 || r->forking[0] == pid)
		return 0;
	struct pend *fork = tr_pend_find(r, r->forking[0]);
	if (!fork)
		return 0;
	char tail[32];
	snprintf(tail, sizeof(tail), ") = %d", pid);
	int rc = parse_first_half(r, fork, tail, ev);
	forking_remove(r, fork->pid);
	fork->returned = true;
	return rc;
}

int tr_add_pending(struct trace_reader *r, int pid, double ts, char *p, char *e)
{
	if (tr_pend_find(r, pid))
		return tr_fail(r, p, "'unfinished' call while another call of pid %d is unfinished",
			    r->line_pid);
	if (r->npend == r->cappend) {
		size_t nc = r->cappend ? r->cappend * 2 : 8;
		struct pend *np = vm_realloc(r->pend, nc * sizeof(*np));
		if (!np)
			return tr_fail(r, p, "out of memory");
		memset(np + r->cappend, 0, (nc - r->cappend) * sizeof(*np));
		r->pend = np;
		r->cappend = nc;
	}
	struct pend *pe = &r->pend[r->npend++];
	pe->pid = pid;
	pe->returned = false;
	pe->line = r->lineno;
	pe->ts = ts;
	pe->col0 = (long)(p - r->line) + 1;
	pe->len = 0;
	size_t n = 0;
	while (is_id(p[n]) || p[n] == '?')
		n++;
	if (n == 0 || p[n] != '(') {
		r->npend--;
		return tr_fail(r, p + n, n ? "expected '('" : "expected a syscall name");
	}
	if (pend_index_last(r) < 0) {
		r->npend--;
		return tr_fail(r, p, "out of memory");
	}
	if (pend_append(r, pe, p, (size_t)(e - p)) < 0)
		return -1;
	if (forks(pe->buf)) {
		int *grown = vm_grow(r->forking, &r->capforking, r->nforking + 1, sizeof(*grown));
		if (!grown)
			return tr_fail(r, p, "out of memory");
		r->forking = grown;
		r->forking[r->nforking++] = pid;
	}
	return 0;
}

/* ---- lines to events ---------------------------------------------------- */

static double pow10_tab[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
			      1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18 };

char *tr_parse_timestamp(struct trace_reader *r, char *p, double *ts)
{
	char *s = p;
	uint64_t a = 0, sec, frac = 0;
	unsigned nd = 0;
	while (is_digit(*p) && nd < 19) {
		a = a * 10 + (uint64_t)(*p++ - '0');
		nd++;
	}
	if (*p == ':') {
		if (!is_digit(p[1]) || !is_digit(p[2]) || p[3] != ':' ||
		    !is_digit(p[4]) || !is_digit(p[5])) {
			tr_fail(r, s, "expected a timestamp");
			return NULL;
		}
		unsigned mm = (unsigned)((p[1] - '0') * 10 + (p[2] - '0'));
		unsigned ss = (unsigned)((p[4] - '0') * 10 + (p[5] - '0'));
		/* strace -t prints localtime()'s hours, minutes and seconds
		 * (a leap second is :60) */
		if (nd != 2 || a > 23 || mm > 59 || ss > 60) {
			tr_fail(r, s, "not a time of day: %.*s (HH:MM:SS, 00:00:00 to 23:59:60)",
				(int)(p + 6 - s), s);
			return NULL;
		}
		sec = a * 3600 + mm * 60 + ss;
		p += 6;
		r->ts_form = 1; /* -t, -tt: the time of day */
	} else if (*p == '.') {
		sec = a;
		r->ts_form = 2; /* -ttt: since the epoch; -r: since the last line */
	} else {
		tr_fail(r, s, "expected a pid or a timestamp");
		return NULL;
	}
	nd = 0;
	r->ts_fraction = *p == '.';
	if (*p == '.') {
		p++;
		while (is_digit(*p)) {
			if (nd < 18) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				nd++;
			}
			p++;
		}
	}
	if (!is_ws(*p)) {
		tr_fail(r, p, "expected ' ' after the timestamp");
		return NULL;
	}
	*ts = (double)sec + (double)frac / pow10_tab[nd];
	return skip_ws(p);
}

/* A fork-like call: its child is a process of its own. */

static bool is_kid(const struct trace_reader *r, int pid)
{
	for (size_t i = 0; i < r->nkids; i++)
		if (r->kids[i] == pid)
			return true;
	return false;
}

int tr_add_kid(struct trace_reader *r, int pid)
{
	if (r->nkids == r->capkids) {
		size_t nc = r->capkids ? 2 * r->capkids : 8;
		int *k = vm_realloc(r->kids, nc * sizeof(*k));
		if (!k)
			return -1;
		r->kids = k;
		r->capkids = nc;
	}
	r->kids[r->nkids++] = pid;
	return 0;
}

/* The pid an event of a "[pid N] " line gets.  In a trace whose lines
 * started without a pid (strace -f to a terminal), the first such pid that
 * is not a child of the first process is the first process: its
 * events keep pid 0, as its unprefixed ones do.  A pid that shows up while
 * the first process's fork-like call has not returned yet is that child,
 * unless its line resumes that very call. */
int tr_map_pid(struct trace_reader *r, int pid, const char *body, bool *err)
{
	*err = false;
	if (pid == r->first_pid)
		return 0;
	if (r->first_pid || !r->lead_unprefixed || is_kid(r, pid))
		return pid;
	struct pend *pe0 = tr_pend_find(r, 0);
	if (pe0 && forks(pe0->buf)) {
		size_t n = (size_t)(strchr(pe0->buf, '(') - pe0->buf);
		const char *q = skip_ws((char *)body + 4);
		bool resumes = !strncmp(body, "<...", 4) && !strncmp(q, pe0->buf, n) && !is_id(q[n]);
		if (!resumes) {
			*err = tr_add_kid(r, pid) < 0;
			return pid;
		}
	}
	r->first_pid = pid;
	r->nkids = 0;
	return 0;
}

/* 1 event, 0 no event from this line, -1 error */
