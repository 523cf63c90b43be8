/*
 * vmstat.h - the system's counters, named as /proc/vmstat names them.
 *
 * State counters (nr_*) are exact here; the kernel's are per-CPU batched and
 * approximate when read, its event counters (pg*, unevictable_pgs_*) exact.
 *
 *
 * Owns: the system counters, named as /proc/vmstat names them.
 * May call: nothing.
 */
#ifndef VMSIM_VMSTAT_H
#define VMSIM_VMSTAT_H

#include <stdint.h>

#define VMSTAT_ITEMS(X)                                                     \
	X(NR_FREE_PAGES, "nr_free_pages")                                   \
	X(NR_INACTIVE_ANON, "nr_inactive_anon")                             \
	X(NR_ACTIVE_ANON, "nr_active_anon")                                 \
	X(NR_INACTIVE_FILE, "nr_inactive_file")                             \
	X(NR_ACTIVE_FILE, "nr_active_file")                                 \
	X(NR_UNEVICTABLE, "nr_unevictable")                                 \
	X(NR_MLOCK, "nr_mlock")                                             \
	X(NR_ANON_PAGES, "nr_anon_pages")                                   \
	X(NR_MAPPED, "nr_mapped")                                           \
	X(NR_FILE_PAGES, "nr_file_pages")                                   \
	X(NR_DIRTY, "nr_dirty")                                             \
	X(NR_WRITEBACK, "nr_writeback")                                     \
	X(NR_SHMEM, "nr_shmem")                                             \
	X(NR_PAGETABLE, "nr_page_table_pages")                              \
	X(NR_SWAPCACHE, "nr_swapcached")                                    \
	X(PGPGIN, "pgpgin")                                                 \
	X(PGPGOUT, "pgpgout")                                               \
	X(PSWPIN, "pswpin")                                                 \
	X(PSWPOUT, "pswpout")                                               \
	X(PGALLOC, "pgalloc_normal")                                        \
	X(PGFREE, "pgfree")                                                 \
	X(PGACTIVATE, "pgactivate")                                         \
	X(PGDEACTIVATE, "pgdeactivate")                                     \
	X(PGLAZYFREE, "pglazyfree")                                         \
	X(PGFAULT, "pgfault")                                               \
	X(PGMAJFAULT, "pgmajfault")                                         \
	X(PGREFILL, "pgrefill")                                             \
	X(PGSTEAL_KSWAPD, "pgsteal_kswapd")                                 \
	X(PGSTEAL_DIRECT, "pgsteal_direct")                                 \
	X(PGSCAN_KSWAPD, "pgscan_kswapd")                                   \
	X(PGSCAN_DIRECT, "pgscan_direct")                                   \
	X(PGSCAN_ANON, "pgscan_anon")                                       \
	X(PGSCAN_FILE, "pgscan_file")                                       \
	X(PGSTEAL_ANON, "pgsteal_anon")                                     \
	X(PGSTEAL_FILE, "pgsteal_file")                                     \
	X(PGROTATED, "pgrotated")                                           \
	X(WORKINGSET_REFAULT_ANON, "workingset_refault_anon")               \
	X(WORKINGSET_REFAULT_FILE, "workingset_refault_file")               \
	X(WORKINGSET_ACTIVATE_ANON, "workingset_activate_anon")             \
	X(WORKINGSET_ACTIVATE_FILE, "workingset_activate_file")             \
	X(WORKINGSET_RESTORE_ANON, "workingset_restore_anon")               \
	X(WORKINGSET_RESTORE_FILE, "workingset_restore_file")               \
	X(OOM_KILL, "oom_kill")                                             \
	X(PAGEOUTRUN, "pageoutrun")                                         \
	X(NUMA_PTE_UPDATES, "numa_pte_updates")                             \
	X(NUMA_HINT_FAULTS, "numa_hint_faults")                             \
	X(NUMA_HINT_FAULTS_LOCAL, "numa_hint_faults_local")                 \
	X(NUMA_PAGES_MIGRATED, "numa_pages_migrated")                       \
	X(PGMIGRATE_SUCCESS, "pgmigrate_success")                           \
	X(PGMIGRATE_FAIL, "pgmigrate_fail")                                 \
	X(UNEVICTABLE_PGS_CULLED, "unevictable_pgs_culled")                 \
	X(UNEVICTABLE_PGS_SCANNED, "unevictable_pgs_scanned")               \
	X(UNEVICTABLE_PGS_RESCUED, "unevictable_pgs_rescued")               \
	X(UNEVICTABLE_PGS_MLOCKED, "unevictable_pgs_mlocked")               \
	X(UNEVICTABLE_PGS_MUNLOCKED, "unevictable_pgs_munlocked")           \
	X(UNEVICTABLE_PGS_CLEARED, "unevictable_pgs_cleared")               \
	X(UNEVICTABLE_PGS_STRANDED, "unevictable_pgs_stranded")

enum vmstat_item {
#define X(id, name) id,
	VMSTAT_ITEMS(X)
#undef X
	NR_VMSTAT_ITEMS
};

struct vmstat {
	int64_t v[NR_VMSTAT_ITEMS];
};

const char *vmstat_name(enum vmstat_item i);
/* Index of a /proc/vmstat name (or a name 4.x gives the same counter), or -1. */
int vmstat_find(const char *name, unsigned len);

#endif
