/*
 * views.h - the /proc views of a model, printed as the kernel prints them.
 *
 *   maps, smaps, status   one process (/proc/PID/...), 6.x text byte for byte
 *                         (4.x: the 4.x smaps line set, best effort)
 *   meminfo, vmstat       the whole machine (/proc/meminfo, /proc/vmstat)
 *   pages                 one process: pagemap + kpageflags per page (vmsim's
 *                         own teaching format, one line per page)
 *   lru                   the whole machine: the five LRU lists head -> tail
 *   numa                  the whole machine: its NUMA nodes, the balancing
 *                         counters, and per process its node and the pages of
 *                         each VMA per node (vmsim's own format, after
 *                         /proc/PID/numa_maps' N0= N1= counts)
 *
 * The functions only read the model (through vmsys.h); draining the per-CPU
 * batches first (vm_drain_all) is the caller's decision, see view_drains().
 *
 *
 * Owns: the /proc views of a model, printed as the kernel prints them.
 * May call: vmflags, vmstat, vmsys.
 */
#ifndef VMSIM_VIEWS_H
#define VMSIM_VIEWS_H

#include <stdbool.h>
#include <stdio.h>

#include "vmsys.h"

enum view_kind {
	VIEW_MAPS,
	VIEW_SMAPS,
	VIEW_STATUS,
	VIEW_MEMINFO,
	VIEW_VMSTAT,
	VIEW_PAGES,
	VIEW_LRU,
	VIEW_NUMA,
	VIEW_NR
};

struct view_ctx {
	struct vmsys *sys;
	struct task *task;   /* the process (maps smaps status pages); may be NULL for the others */
	const char *arch;    /* flag-table arch name ("x86_64"): decides the gate VMA line */
	const char *kernel;  /* semantics name ("6.18"): decides the smaps line set */
};

/* "maps" -> VIEW_MAPS; -1 if unknown. */
int view_find(const char *name);
const char *view_name(enum view_kind v);
/* "maps smaps status meminfo vmstat pages lru numa" */
const char *view_list(void);
/* meminfo, vmstat, lru describe the machine, not one process */
bool view_is_global(enum view_kind v);
/* pages and lru are taken after lru_add_drain_all(); maps/smaps/status and
 * the counters are not (the kernel's smaps does not drain either). */
bool view_drains(enum view_kind v);

/* Print one view; returns 0, or -1 when a per-process view has no process. */
int view_print(FILE *f, enum view_kind v, const struct view_ctx *c);

void view_maps(FILE *f, const struct view_ctx *c);
void view_smaps(FILE *f, const struct view_ctx *c);
void view_status(FILE *f, const struct view_ctx *c);
void view_meminfo(FILE *f, const struct view_ctx *c);
void view_vmstat(FILE *f, const struct view_ctx *c);
void view_pages(FILE *f, const struct view_ctx *c);
void view_lru(FILE *f, const struct view_ctx *c);
void view_numa(FILE *f, const struct view_ctx *c);

#endif
