/*
 * vdso_clock_mlockall.c - an RT daemon's start: read the clock through the
 * vDSO (a read fault on [vvar] or [vvar_vclock], a PFN mapping with no
 * page: no RSS), then mlockall(MCL_CURRENT), which passes VM_SPECIAL
 * mappings by, then the clock again and munlockall().  The model took the
 * [vvar] fault for a new anonymous page (issue 59, item 1).
 */
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>

int main(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (mlockall(MCL_CURRENT))
		perror("mlockall");
	clock_gettime(CLOCK_REALTIME, &ts);
	munlockall();
	return 0;
}
