/*
 * check_shrink.c - runs, delta-debugging shrinker and reproducer writer
 * of `vmsim check`.  See checker.h, section "check_shrink".
 *
 * The shrinker's test: run the candidate on a fresh machine of the same
 * configuration with only the target invariant checked; it passes when
 * the invariant fails and the step where it first fails is the same call
 * (mlock, fork ...) as in the original.  The candidate is then cut right
 * after that step, so a reproducer always ends at its failing event.
 */
#include "alloc.h"
#include "checker.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "internal.h"

static struct vmsys *machine(const struct check_plan *p, const struct gen_machine *m, char *err,
			     size_t errlen)
{
	return gen_machine_new(m, p->sem, p->arch, err, errlen);
}

static struct event *scratch_event(void)
{
	static struct event ev; /* zeroed once; gstep_event sets what a call uses */
	return &ev;
}

int check_run(const struct check_plan *p, uint64_t seed, struct run_out *ro, struct gstep **buf,
	      size_t *bufcap, size_t keep, char *err, size_t errlen)
{
	if (keep > p->steps)
		keep = p->steps;
	struct gen_machine m;
	gen_machine(seed, &m);
	memset(ro, 0, sizeof(ro->viol) + sizeof(ro->first) + sizeof(ro->nsteps));
	struct vmsys *s = machine(p, &m, err, errlen);
	if (!s)
		return -1;
	struct check_inv *ci = check_inv_new(s, p->mask);
	if (!ci) {
		vmsys_free(s);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (*bufcap < keep) {
		free(*buf);
		*buf = vm_malloc(keep * sizeof(**buf));
		*bufcap = *buf ? keep : 0;
		if (!*buf) {
			check_inv_free(ci);
			vmsys_free(s);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	struct gen g;
	gen_init(&g, seed, p->w, s);
	struct event *ev = scratch_event();
	char aerr[128];
	struct gstep spare;
	for (unsigned i = 0; i < p->steps; i++) {
		struct gstep *st = i < keep ? &(*buf)[i] : &spare;
		gen_next(&g, st);
		gstep_event(st, ev);
		struct outcome out;
		check_inv_before_next(ci, ev); /* gen_next() only reads the machine */
		if (apply_event(s, ev, &out, aerr, sizeof(aerr)))
			out.kind = OUT_NONE;
		uint32_t v = check_inv_after(ci, ev, &out);
		ro->nsteps = i + 1;
		/* an exited process is reaped at once (its parent's wait4, which
		 * the generator leaves out: kernel/exit.c:release_task()), so a
		 * long run keeps no struct task per fork.  The walker's after
		 * check has run, and keeps no pointer to a dead process */
		if (ev->type == EV_CALL && (ev->sys == SYS_EXIT_GROUP || ev->sys == SYS_EXIT))
			vm_release_task(s, ev->pid);
		uint32_t fresh = v & ~ro->viol;
		if (fresh) {
			for (unsigned k = 0; k < INV_NR; k++)
				if (fresh & (1u << k)) {
					ro->first[k] = i;
					snprintf(ro->msg[k], sizeof(ro->msg[k]), "%s", check_inv_msg(ci, k));
				}
			ro->viol |= fresh;
			check_inv_set_quiet(ci, ro->viol); /* their messages are taken */
			if ((ro->viol & p->mask) == p->mask)
				break; /* nothing left to find */
		}
	}
	check_inv_free(ci);
	vmsys_free(s);
	return 0;
}

long check_replay_steps(const struct check_plan *p, const struct gen_machine *m,
			const struct gstep *steps, size_t n, unsigned inv, char *msg, size_t msglen)
{
	char err[256];
	struct vmsys *s = machine(p, m, err, sizeof(err));
	if (!s)
		return -1;
	struct check_inv *ci = check_inv_new(s, 1u << inv);
	if (!ci) {
		vmsys_free(s);
		return -1;
	}
	struct event *ev = scratch_event();
	long found = -1;
	for (size_t i = 0; i < n; i++) {
		gstep_event(&steps[i], ev);
		struct outcome out;
		check_inv_before_next(ci, ev); /* nothing ran since the last check */
		if (apply_event(s, ev, &out, err, sizeof(err)))
			out.kind = OUT_NONE;
		if (check_inv_after(ci, ev, &out)) {
			found = (long)i;
			if (msg)
				snprintf(msg, msglen, "%s", check_inv_msg(ci, inv));
			break;
		}
	}
	check_inv_free(ci);
	vmsys_free(s);
	return found;
}

/* ---------------------------------------------------------------- shrink */

struct shrinker {
	const struct check_plan *p;
	const struct gen_machine *m;
	unsigned inv;
	uint8_t sys;           /* the failing call */
	struct gstep *cand;
	unsigned long tests;
	uint64_t mr_fixed;     /* MREMAP_FIXED of the arch */
};

static bool is_fork(const struct gstep *s) { return s->sys == SYS_FORK; }

/* Keep only events of processes that exist: the first one and children
 * whose fork is kept (dropping a fork drops its process). */
static size_t normalize(struct gstep *v, size_t n)
{
	int alive[64];
	unsigned na = 0;
	alive[na++] = GEN_FIRST_PID;
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		bool ok = false;
		for (unsigned k = 0; k < na; k++)
			if (alive[k] == v[i].pid)
				ok = true;
		if (!ok)
			continue;
		if (is_fork(&v[i]) && na < 64)
			alive[na++] = (int)v[i].value;
		v[j++] = v[i];
	}
	return j;
}

/* Does cand[0..n) still fail the same way?  On success *n is cut after the failing step. */
static bool test(struct shrinker *sh, size_t *n)
{
	sh->tests++;
	size_t k = normalize(sh->cand, *n);
	if (!k)
		return false;
	long f = check_replay_steps(sh->p, sh->m, sh->cand, k, sh->inv, NULL, 0);
	if (f < 0 || sh->cand[f].sys != sh->sys)
		return false;
	*n = (size_t)f + 1;
	return true;
}

/* Try the sequence `cur` with steps [from, from+cnt) removed. */
static bool try_drop(struct shrinker *sh, struct gstep *cur, size_t *n, size_t from, size_t cnt)
{
	size_t k = 0;
	for (size_t i = 0; i < *n; i++)
		if (i < from || i >= from + cnt)
			sh->cand[k++] = cur[i];
	if (!test(sh, &k))
		return false;
	memcpy(cur, sh->cand, k * sizeof(*cur));
	*n = k;
	return true;
}

/* Try cur with step i replaced by *alt. */
static bool try_alt(struct shrinker *sh, struct gstep *cur, size_t *n, size_t i, const struct gstep *alt)
{
	if (!memcmp(alt, &cur[i], sizeof(*alt)))
		return false;
	memcpy(sh->cand, cur, *n * sizeof(*cur));
	sh->cand[i] = *alt;
	size_t k = *n;
	if (!test(sh, &k))
		return false;
	memcpy(cur, sh->cand, k * sizeof(*cur));
	*n = k;
	return true;
}

#define PGSZ 4096ULL

/* Try cur with steps i and j (i < j) removed. */
static bool try_drop2(struct shrinker *sh, struct gstep *cur, size_t *n, size_t i, size_t j)
{
	size_t k = 0;
	for (size_t x = 0; x < *n; x++)
		if (x != i && x != j)
			sh->cand[k++] = cur[x];
	if (!test(sh, &k))
		return false;
	memcpy(cur, sh->cand, k * sizeof(*cur));
	*n = k;
	return true;
}

/* Merge processes: drop the fork at i and give the child's events to the
 * process that forked it (with or without the child's exits, which would
 * now end the parent). */
static bool try_unfork(struct shrinker *sh, struct gstep *cur, size_t *n, size_t i)
{
	int child = (int)cur[i].value, parent = cur[i].pid;
	for (int keep_exit = 0; keep_exit < 2; keep_exit++) {
		size_t k = 0;
		for (size_t j = 0; j < *n; j++) {
			if (j == i)
				continue;
			struct gstep st = cur[j];
			if (st.pid == child) {
				if (!keep_exit && (st.sys == SYS_EXIT_GROUP || st.sys == SYS_EXIT))
					continue;
				st.pid = parent;
			}
			sh->cand[k++] = st;
		}
		if (k && test(sh, &k)) {
			memcpy(cur, sh->cand, k * sizeof(*cur));
			*n = k;
			return true;
		}
	}
	return false;
}

/* Simpler length candidates for l, tried in order: one page, halves,
 * aligned, one page less. */
static unsigned len_tries(uint64_t l, uint64_t *t)
{
	unsigned n = 0;
	t[n++] = PGSZ;
	t[n++] = l / 2 & ~(PGSZ - 1);
	t[n++] = (l + PGSZ - 1) & ~(PGSZ - 1);
	t[n++] = l / 4 * 3 & ~(PGSZ - 1);
	t[n++] = l > PGSZ ? (l - PGSZ) : 0;
	return n;
}

/* Shrink argument arg of step i by halving as long as it keeps failing
 * (mremap: new_len follows an equal old_len). */
static bool shrink_len(struct shrinker *sh, struct gstep *cur, size_t *n, size_t i, int arg)
{
	bool any = false, again = true;
	while (again && i < *n) {
		again = false;
		uint64_t l = cur[i].args[arg], t[5];
		unsigned nt = len_tries(l, t);
		for (unsigned k = 0; k < nt; k++) {
			if (!t[k] || t[k] >= l)
				continue;
			struct gstep b = cur[i];
			b.args[arg] = t[k];
			if (cur[i].sys == SYS_MREMAP && arg == 1 && b.args[2] == l)
				b.args[2] = t[k];
			if (try_alt(sh, cur, n, i, &b)) {
				any = again = true;
				break;
			}
		}
	}
	return any;
}

static bool simplify_step(struct shrinker *sh, struct gstep *cur, size_t *n, size_t i)
{
	bool any = false;
	struct gstep a = cur[i];
	int lenarg = -1, addrarg = -1;
	switch (a.sys) {
	case SYS_MMAP: case SYS_MUNMAP: case SYS_MPROTECT: case SYS_MADVISE: case SYS_MLOCK:
	case SYS_MLOCK2: case SYS_MUNLOCK: case SYS_TOUCH: case SYS_MREMAP:
		addrarg = 0;
		lenarg = 1;
		break;
	case SYS_FAULT:
		addrarg = 0;
		break;
	default:
		break;
	}
	/* merge the process into the first one, or the fork into its parent */
	if (a.pid != GEN_FIRST_PID && !is_fork(&a)) {
		struct gstep b = a;
		b.pid = GEN_FIRST_PID;
		if (try_alt(sh, cur, n, i, &b))
			return true;
	}
	if (is_fork(&a) && try_unfork(sh, cur, n, i))
		return true;
	if (lenarg >= 0)
		any |= shrink_len(sh, cur, n, i, lenarg);
	if (i < *n && a.sys == SYS_MREMAP && cur[i].args[2] > PGSZ)
		any |= shrink_len(sh, cur, n, i, 2);
	if (i < *n && addrarg >= 0 && (cur[i].args[addrarg] & (PGSZ - 1))) {
		struct gstep b = cur[i];
		b.args[addrarg] &= ~(PGSZ - 1);
		any |= try_alt(sh, cur, n, i, &b);
	}
	/* flags: drop one bit at a time */
	int flagarg = -1;
	switch (a.sys) {
	case SYS_MMAP: flagarg = 3; break;
	case SYS_MLOCK2: flagarg = 2; break;
	case SYS_MLOCKALL: flagarg = 0; break;
	case SYS_MREMAP: flagarg = 3; break;
	default: break;
	}
	if (flagarg >= 0)
		for (unsigned b = 0; b < 64 && i < *n; b++) {
			uint64_t bit = 1ULL << b;
			if (!(cur[i].args[flagarg] & bit))
				continue;
			struct gstep c = cur[i];
			c.args[flagarg] &= ~bit;
			if (c.sys == SYS_MREMAP && !(c.args[3] & sh->mr_fixed))
				c.nargs = 4;
			any |= try_alt(sh, cur, n, i, &c);
		}
	if (i < *n && a.sys == SYS_MMAP && cur[i].args[2] != 3) { /* prot: PROT_READ|PROT_WRITE */
		struct gstep c = cur[i];
		c.args[2] = 3;
		any |= try_alt(sh, cur, n, i, &c);
	}
	if (i < *n && a.sys == SYS_MMAP && cur[i].args[4] != (uint64_t)-1 && cur[i].args[5]) {
		struct gstep c = cur[i]; /* file offset 0 */
		c.args[5] = 0;
		any |= try_alt(sh, cur, n, i, &c);
	}
	if (i < *n && (a.sys == SYS_TOUCH || a.sys == SYS_FAULT)) {
		int acc = a.sys == SYS_TOUCH ? 2 : 1;
		if (cur[i].args[acc] != ACC_READ) { /* a read is simpler than a write */
			struct gstep c = cur[i];
			c.args[acc] = ACC_READ;
			any |= try_alt(sh, cur, n, i, &c);
		}
	}
	if (i < *n && a.sys == SYS_RECLAIM && cur[i].args[0] > 32) {
		struct gstep c = cur[i];
		c.args[0] = 32;
		any |= try_alt(sh, cur, n, i, &c);
	}
	return any;
}

/* Drop windows of `w` consecutive events at every offset (never the
 * failing last step). */
static bool drop_windows(struct shrinker *sh, struct gstep *steps, size_t *n, size_t w)
{
	bool any = false;
	for (size_t from = 0; from + w < *n;) {
		if (try_drop(sh, steps, n, from, w))
			any = true;
		else
			from++;
	}
	return any;
}

/* Drop every pair of events (not necessarily adjacent). */
static bool drop_pairs(struct shrinker *sh, struct gstep *steps, size_t *n)
{
	bool any = false;
	for (size_t i = 0; i + 2 < *n; i++)
		for (size_t j = i + 1; j + 1 < *n;) {
			if (try_drop2(sh, steps, n, i, j))
				any = true;
			else
				j++;
		}
	return any;
}

#define PAIR_LIMIT 64     /* pairs are quadratic: only on sequences this short */

void check_shrink(const struct check_plan *p, const struct gen_machine *m, struct gstep *steps,
		  size_t *n, unsigned inv)
{
	if (!*n)
		return;
	struct shrinker sh = { p, m, inv, steps[*n - 1].sys, vm_malloc(*n * sizeof(*steps)), 0, 0 };
	if (!sh.cand)
		return;
	{
		char err[64];
		struct vmsys *s = machine(p, m, err, sizeof(err));
		if (s) {
			sh.mr_fixed = s->af.mremap_fixed;
			vmsys_free(s);
		}
	}
	bool changed = true;
	for (int round = 0; changed && round < 16; round++) {
		changed = false;
		/* chunks, halving, then single events */
		for (size_t chunk = *n / 2; chunk >= 1; chunk /= 2) {
			for (size_t from = 0; from + 1 < *n;) {
				size_t cnt = chunk;
				if (from + cnt >= *n)
					cnt = *n - 1 - from; /* never the failing step itself */
				if (cnt && try_drop(&sh, steps, n, from, cnt))
					changed = true;
				else
					from += chunk;
			}
			if (chunk == 1)
				break;
		}
		for (size_t i = 0; i < *n; i++)
			if (simplify_step(&sh, steps, n, i))
				changed = true;
		if (changed)
			continue;
		/* stuck: windows at every offset, then any pair (an event that
		 * only matters together with another one) */
		for (size_t w = 2; w <= 4 && !changed; w++)
			changed = drop_windows(&sh, steps, n, w);
		if (!changed && *n <= PAIR_LIMIT && *n > 2)
			changed = drop_pairs(&sh, steps, n);
	}
	free(sh.cand);
}

/* ---------------------------------------------------------------- write */

int check_write_repro(const char *path, const struct check_plan *p, const struct gen_machine *m,
		      uint64_t seed, const struct gstep *steps, size_t n, unsigned inv,
		      char *explain, size_t explen)
{
	const struct semantics *sem = p->sem;
	bool test_sem = strncmp(sem->name, "test-", 5) == 0;
	/* test-only semantics have no flag tables of their own: the header
	 * names the base kernel, replay them with --kernel NAME */
	struct trace_header h;
	gen_header(m, p->arch, test_sem ? sem->flag_kernel : sem->name, seed, &h);
	snprintf(h.check_invariants, sizeof(h.check_invariants), "%s", inv_name(inv));
	/* flags named as the semantics' own kernel names them (MAP_LOCKONFAULT) */
	snprintf(h.flag_names, sizeof(h.flag_names), "%s", sem->flag_kernel);
	h.has_flag_names = true;
	h.has_check_invariants = true;
	char msg[320] = "";
	long f = check_replay_steps(p, m, steps, n, inv, msg, sizeof(msg));
	struct outfile of; /* whole or absent */
	char oerr[4200];
	FILE *fp = outfile_fopen(&of, path, "w", oerr, sizeof(oerr));
	if (!fp)
		return -1;
	trace_write_header(fp, &h);
	fprintf(fp, "# vmsim check reproducer: invariant %s violated by semantics %s (arch %s, seed %" PRIu64 ")\n",
		inv_name(inv), sem->name, p->arch, seed);
	fprintf(fp, "# replay: vmsim replay --check-invariants --kernel %s FILE\n", sem->name);
	fprintf(fp, "# violation at the last event: %s\n", msg);
	struct event *ev = scratch_event();
	for (size_t i = 0; i < n; i++) {
		gstep_event(&steps[i], ev);
		trace_write_event(fp, ev, p->arch, sem->flag_kernel);
	}
	int rc = outfile_fclose(&of, fp, true, oerr, sizeof(oerr));
	if (explain && explen) {
		explain[0] = 0;
		if (f < 0) {
			snprintf(explain, explen, "(the reproducer no longer fails)");
			return rc;
		}
		/* run again up to the failing step and describe its state */
		char err[256];
		struct vmsys *s = machine(p, m, err, sizeof(err));
		if (!s)
			return rc;
		struct outcome out = { OUT_NONE, 0, 0 };
		for (long i = 0; i <= f; i++) {
			gstep_event(&steps[i], ev);
			apply_event(s, ev, &out, err, sizeof(err));
		}
		char line[512], res[96], state[2048];
		trace_format_event(ev, p->arch, sem->flag_kernel, line, sizeof(line));
		outcome_text(ev, &out, res, sizeof(res));
		explain_state(s, ev, state, sizeof(state));
		/* one paragraph: join the state lines */
		for (char *c = state; *c; c++)
			if (*c == '\n')
				*c = ';';
		struct task *t = vmsys_task(s, steps[f].pid, false);
		struct vm_status vs = { 0 };
		uint64_t rl = 0, df = 0;
		bool cap = false;
		if (t && task_alive(t)) {
			vmsys_status(s, t, &vs);
			rl = t->rlim_memlock_cur;
			cap = capable_ipc_lock(t);
			df = vmsys_def_flags(s, t);
		}
		char rlbuf[32];
		if (rl == UINT64_MAX)
			snprintf(rlbuf, sizeof(rlbuf), "unlimited");
		else
			snprintf(rlbuf, sizeof(rlbuf), "%llu bytes", (unsigned long long)rl);
		snprintf(explain, explen,
			 "Under %s the last event `%s` returned %s and broke %s: %s. "
			 "At that point pid %d has total_vm %llu pages, locked_vm %llu pages, "
			 "RLIMIT_MEMLOCK %s, %s CAP_IPC_LOCK, def_flags 0x%llx; state:%s",
			 sem->name, line, res, inv_name(inv), msg, steps[f].pid,
			 (unsigned long long)vs.total_vm, (unsigned long long)vs.locked_vm,
			 rlbuf,
			 cap ? "with" : "without", (unsigned long long)df, state);
		vmsys_free(s);
	}
	return rc;
}
