/*
 * numa-single-node.c - does NUMA balancing mark and hint a mapping on a
 * machine with one node?  Run as root with kernel.numa_balancing=1:
 *
 *   cc -O1 -o numa-single-node tools/probes/numa-single-node.c
 *   echo 1 > /proc/sys/kernel/numa_balancing
 *   ./numa-single-node [PAGES [SHARED]]; echo 0 > /proc/sys/kernel/numa_balancing
 *
 * It touches PAGES pages (MAP_SHARED by default), spins up to 30 s until
 * numa_pte_updates grew by PAGES, then reads every page again, printing the
 * NUMA counters of /proc/vmstat around each phase.  On this machine's 6.18
 * the scanner ran (sched:sched_skip_vma_numa events) but marked no PTE of
 * the mapping (docs/fidelity.md, NUMA balancing).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static const char *const names[] = { "numa_pte_updates", "numa_hint_faults", "numa_hint_faults_local",
				     "numa_pages_migrated", "pgfault", "pgmigrate_success", "pgmigrate_fail" };
#define N (sizeof(names) / sizeof(names[0]))

static long vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char k[64];
	long v, r = -1;
	while (f && fscanf(f, "%63s %ld", k, &v) == 2)
		if (!strcmp(k, name))
			r = v;
	if (f)
		fclose(f);
	return r;
}

static void snap(long *v)
{
	for (size_t i = 0; i < N; i++)
		v[i] = vmstat(names[i]);
}

static void show(const char *what, const long *a, const long *b)
{
	printf("%s:", what);
	for (size_t i = 0; i < N; i++)
		printf(" %s +%ld", names[i], b[i] - a[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	long npages = argc > 1 ? atol(argv[1]) : 4096;
	int shared = argc > 2 ? atoi(argv[2]) : 1;
	size_t len = (size_t)npages * 4096;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (long i = 0; i < npages; i++)
		p[i * 4096] = 1;
	long a[N], b[N];
	snap(a);
	time_t t0 = time(NULL);
	volatile long x = 0;
	while (vmstat("numa_pte_updates") - a[0] < npages && time(NULL) - t0 < 30)
		for (int k = 0; k < 1000000; k++)
			x++;
	snap(b);
	show("after the scan", a, b);
	snap(a);
	for (long i = 0; i < npages; i++)
		x += p[i * 4096];
	snap(b);
	show("after reading every page", a, b);
	return 0;
}
