/*
 * timing.c - the drains another CPU may do (replay.h, section "timing").
 *
 * The model runs every process on one CPU, and its per-CPU batches
 * (lru_add, mlock) are drained exactly where that CPU's code drains them.
 * A real machine also drains them from elsewhere at times a trace cannot
 * show: lru_add_drain_all() of another task, a remote CPU's drain of its
 * own batches (the exiting child's, say), the vmstat worker.  When an
 * event diverges, the search replays the trace again with one such drain
 * more, after one of the last TIMING_CANDIDATES events after which the
 * batches held pages, latest first; the first schedule under which every
 * check from the drain to the diverging event holds is the answer.  The
 * replay then goes on from that run (unless --strict-timing, which only
 * says it).
 *
 * Cost: each try replays the trace from its start up to the divergence;
 * all the tries of one replay together may replay at most
 * 8 x (events so far) + 2^20 events, then the search stops (said once).
 */
#include "replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "alloc.h"

/* a regular file: what a second run can read again */
static bool rereadable(const char *path)
{
	struct stat st;
	return strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode);
}

void timing_init(struct timing *tm, const char *const *paths, size_t npaths,
		 const struct session_opts *o, bool strict)
{
	memset(tm, 0, sizeof(*tm));
	tm->paths = paths;
	tm->npaths = npaths;
	tm->o = o;
	tm->strict = strict;
	/* a pipe or standard input cannot be read twice */
	for (size_t i = 0; i < npaths; i++)
		if (!rereadable(paths[i]))
			tm->off = true;
}

void timing_free(struct timing *tm)
{
	free(tm->drains);
	free(tm->spare);
	tm->drains = tm->spare = NULL;
}

void timing_note(struct timing *tm, const struct session *ss, const struct event *ev)
{
	unsigned add, add_max, mlock, mlock_max;
	vmsys_batches(ss->sys, &add, &add_max, &mlock, &mlock_max);
	if (!add && !mlock)
		return;
	struct timing_point *p = &tm->recent[tm->head];
	tm->head = (tm->head + 1) % TIMING_CANDIDATES;
	if (tm->nrecent < TIMING_CANDIDATES)
		tm->nrecent++;
	p->ordinal = ss->consumed;
	p->line = ev->line;
	/* what snprintf("%s") would write, without its cost: this runs after
	 * every event that leaves a batch filled, most faults */
	const char *src = ev->src ? ev->src : ss->path;
	size_t n = strnlen(src, sizeof(p->src) - 1);
	memcpy(p->src, src, n);
	p->src[n] = '\0';
}

/* the drains taken and k, ascending, into tm->spare */
static const uint64_t *schedule_with(struct timing *tm, uint64_t k, size_t *n)
{
	uint64_t *s = vm_realloc(tm->spare, (tm->ndrains + 1) * sizeof(*s));
	if (!s)
		return NULL;
	tm->spare = s;
	size_t i = 0, j = 0;
	for (; i < tm->ndrains && tm->drains[i] < k; i++)
		s[j++] = tm->drains[i];
	s[j++] = k;
	for (; i < tm->ndrains; i++)
		s[j++] = tm->drains[i];
	*n = j;
	return s;
}

/* Replay into *out with schedule (drains, n) up to and including the
 * event of ordinal last; 1 when every check after ordinal from holds, 0
 * when one does not (or the budget ran out: *spent), -1 on an error */
static int try_schedule(struct timing *tm, const uint64_t *drains, size_t n, uint64_t from,
			uint64_t last, uint64_t allowed, struct session *out, char *err, size_t errlen)
{
	if (session_open_paths(out, tm->paths, tm->npaths, tm->o, err, errlen))
		return -1;
	out->drains = drains;
	out->ndrains = n;
	struct event *ev;
	while (out->consumed < last) {
		if (tm->spent >= allowed) {
			tm->exhausted = true;
			return 0;
		}
		tm->spent++;
		int r = session_next(out, &ev);
		if (r <= 0)
			return r < 0 ? -1 : 0;
		if (ev->type == EV_CALL && ev->sys == SYS_UNKNOWN)
			continue;
		struct outcome o;
		if (session_apply(out, ev, &o, err, errlen))
			return -1;
		char why[64];
		unsigned checked = 0;
		if (out->consumed > from && event_diverged(out->sys, ev, &o, why, sizeof(why), &checked))
			return 0;
	}
	return 1;
}

int timing_search(struct timing *tm, struct session *ss, struct timing_point *at, char *err,
		  size_t errlen)
{
	if (tm->off || tm->exhausted || !tm->nrecent)
		return 0;
	uint64_t j = ss->consumed;
	uint64_t allowed = 8 * j + (1u << 20);
	for (unsigned c = 0; c < tm->nrecent; c++) {
		const struct timing_point *p =
			&tm->recent[(tm->head + TIMING_CANDIDATES - 1 - c) % TIMING_CANDIDATES];
		if (p->ordinal >= j)
			continue; /* the diverging event's own batches: nothing after it */
		size_t n;
		const uint64_t *sched = schedule_with(tm, p->ordinal, &n);
		if (!sched)
			return -1;
		struct session trial;
		int r = try_schedule(tm, sched, n, p->ordinal, j, allowed, &trial, err, errlen);
		if (r == 1) {
			*at = *p;
			if (tm->strict) {
				session_close(&trial);
				return 1;
			}
			/* the trial's schedule is the replay's from now on */
			uint64_t *taken = tm->drains;
			tm->drains = tm->spare;
			tm->spare = taken;
			tm->ndrains = n;
			trial.drains = tm->drains;
			session_close(ss);
			*ss = trial;
			return 1;
		}
		session_close(&trial);
		if (r < 0)
			return -1;
		if (tm->exhausted)
			return 0;
	}
	return 0;
}
