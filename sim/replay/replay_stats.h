/*
 * replay_stats.h - `vmsim replay --stats`: what a replay did, per process
 * and in total, in the terms the 2015 lock-on-fault review reasons in:
 * minor and major faults, SIGSEGVs, calls by name, VMAs at the end and the
 * peak map_count, ENOMEM results (and the access the first came at), the
 * pages read before the first access, VmLck, RSS, unevictable pages, and
 * the wall time; as text or as one JSON object (docs/json.md).
 *
 * Fed after each applied event; it reads the model only through vmsys.h.
 *
 * Owns: the counts of --stats.
 * May call: apply, json, kerr, trace, vmstat, vmsys.
 */
#ifndef VMSIM_REPLAY_STATS_H
#define VMSIM_REPLAY_STATS_H

#include <stdbool.h>
#include <stdio.h>

#include "apply.h"

struct rstats;

/* NULL when out of memory. */
struct rstats *rstats_new(void);
void rstats_free(struct rstats *rs);

/* Account ev, just applied to s with outcome out. */
void rstats_event(struct rstats *rs, struct vmsys *s, const struct event *ev, const struct outcome *out);
/* n touch lines of process pid that the hot loop ran as hits
 * (session_next_hot()): what rstats_event() counts for each of them - a
 * hit changes no fault count, map, VmLck or RSS. */
void rstats_hits(struct rstats *rs, int pid, unsigned long n);

/* Print the counts of the replay of path (wall: its seconds). */
void rstats_print(const struct rstats *rs, struct vmsys *s, struct trace_reader *r, const char *path,
		  double wall, bool json, FILE *f);

#endif
