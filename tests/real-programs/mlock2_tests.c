/*
 * The checks of the kernel's mlock2 selftest (tools/testing/selftests/mm/
 * mlock2-tests.c), written anew: lock a mapping with mlock2(0) and with
 * MLOCK_ONFAULT, read back what /proc/self/smaps says of the VMA (Locked:
 * and the "lo"/"lf" VmFlags), fault pages in, unlock, and do the same
 * with mlockall(MCL_CURRENT|MCL_ONFAULT) and MCL_FUTURE.  It prints one
 * line per check; replay compares every call's result with the model.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static char smaps_line[4096];

/* the VmFlags and Locked: of the VMA holding addr */
static int vma_state(const void *addr, char *flags, size_t flen, long *locked_kb)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	unsigned long a = (unsigned long)addr, s, e;
	int in = 0, found = 0;
	while (fgets(smaps_line, sizeof(smaps_line), f)) {
		if (sscanf(smaps_line, "%lx-%lx ", &s, &e) == 2 && strchr(smaps_line, '-') < strchr(smaps_line, ' ')) {
			in = a >= s && a < e;
			continue;
		}
		if (!in)
			continue;
		if (!strncmp(smaps_line, "Locked:", 7))
			*locked_kb = strtol(smaps_line + 7, NULL, 10);
		if (!strncmp(smaps_line, "VmFlags:", 8)) {
			snprintf(flags, flen, "%s", smaps_line + 8);
			found = 1;
			break;
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

static void check(const char *what, const void *addr, int want_lo, int want_lf, long want_kb)
{
	char flags[4096] = "";
	long kb = -1;
	vma_state(addr, flags, sizeof(flags), &kb);
	int lo = strstr(flags, " lo") != NULL, lf = strstr(flags, " lf") != NULL;
	printf("%s: lo=%d lf=%d Locked=%ld kB %s\n", what, lo, lf, kb,
	       lo == want_lo && lf == want_lf && (want_kb < 0 || kb == want_kb) ? "ok" : "FAIL");
}

int main(void)
{
	size_t len = 2 * 4096;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	/* mlock2(0): locked and populated */
	if (mlock2(m, len, 0))
		return 1;
	check("mlock2 lock", m, 1, 0, 8);
	munlock(m, len);
	check("munlock", m, 0, 0, 0);
	/* MLOCK_ONFAULT: locked, nothing present until touched */
	munmap(m, len);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mlock2(m, len, MLOCK_ONFAULT))
		return 1;
	check("onfault before touch", m, 1, 1, 0);
	m[0] = 1;
	check("onfault after one touch", m, 1, 1, 4);
	/* an already faulted page stays locked when the range is made onfault */
	if (mlock2(m, len, 0))
		return 1;
	check("onfault then lock", m, 1, 0, 8);
	munlock(m, len);
	/* invalid flags */
	printf("bad flags: %d\n", mlock2(m, len, ~MLOCK_ONFAULT));
	/* mlockall(MCL_CURRENT|MCL_ONFAULT) then MCL_FUTURE */
	if (mlockall(MCL_CURRENT | MCL_ONFAULT))
		return 1;
	check("mlockall onfault", m, 1, 1, -1);
	munlockall();
	check("munlockall", m, 0, 0, 0);
	if (mlockall(MCL_FUTURE | MCL_ONFAULT))
		return 1;
	char *n = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (n == MAP_FAILED)
		return 1;
	check("future onfault mapping", n, 1, 1, 0);
	munlockall();
	munmap(n, len);
	munmap(m, len);
	return 0;
}
