/*
 * thp_mlock.c - transparent huge pages of anonymous memory met the ways a
 * JVM heap or a database buffer pool meets them: MADV_HUGEPAGE, a write
 * and a read fault per 2 MiB, a write after the read (the huge zero page
 * copied), mlock2(MLOCK_ONFAULT) that keeps what faulted, a munlock and
 * an munmap that cut a huge page, mlock of both halves of the cut one, a
 * fork whose child writes, and memory that madvise(MADV_NOHUGEPAGE) keeps
 * small.  Recorded with THP `always`
 * (see record.sh): the mapping without MADV_HUGEPAGE gets huge pages too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define HUGE (2UL << 20)
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif

static void say(const char *what, long r)
{
	printf("%-36s %ld%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerror(errno) : "");
}

/* the first 2 MiB boundary in [p, p + len) */
static char *aligned(char *p)
{
	return (char *)(((uintptr_t)p + HUGE - 1) & ~(HUGE - 1));
}

int main(void)
{
	size_t len = 10 * HUGE;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	say("madvise MADV_HUGEPAGE", madvise(p, len, MADV_HUGEPAGE));
	char *h = aligned(p);
	h[0] = 1;                 /* a THP: one fault for 2 MiB */
	h[HUGE + 4096] = 2;       /* another */
	volatile char c = h[2 * HUGE + 100]; /* the huge zero page */
	(void)c;
	h[2 * HUGE + 8192] = 3;   /* its copy: one small page on 6.x */
	/* lock what is there; the rest faults in locked */
	say("mlock2 MLOCK_ONFAULT", syscall(SYS_mlock2, h, 4 * HUGE, MLOCK_ONFAULT));
	h[3 * HUGE] = 4;          /* a THP, locked at the fault */
	/* a munlock that ends inside the first huge page splits it */
	say("munlock, cutting a huge page", munlock(h + HUGE / 2, HUGE));
	/* what the cut left locked, locked again (no change: the recorder
	 * reads its pages): 6.x munlocked the whole folio when the cut split
	 * its PMD, so none of them is mlocked; 4.x's split_huge_page() left
	 * small pages that stay mlocked */
	say("mlock the half left locked", mlock(h, HUGE / 2));
	/* the half the cut unlocked, locked again: the folio is not wholly
	 * inside the range, so 6.x does not mlock it (6.1 passes over a THP
	 * mapped by PTEs, 6.18's allow_mlock_munlock() refuses) */
	say("mlock the cut half again", mlock(h + HUGE / 2, HUGE / 2));
	say("munlock the rest", munlock(h, 4 * HUGE));
	/* a fork: the child's write copies one small page */
	pid_t pid = fork();
	if (!pid) {
		h[HUGE + 8192] = 5;
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	/* an munmap inside the second huge page */
	say("munmap inside a huge page", munmap(h + HUGE + 4 * 4096, 4096));
	/* MADV_NOHUGEPAGE: small pages only */
	say("madvise MADV_NOHUGEPAGE", madvise(h + 4 * HUGE, 2 * HUGE, MADV_NOHUGEPAGE));
	h[4 * HUGE] = 6;
	/* a mapping that never asked: huge pages only under `always` */
	char *q = mmap(NULL, 4 * HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q != MAP_FAILED) {
		aligned(q)[0] = 7;
		say("mlock the plain mapping", mlock(q, 4 * HUGE));
		say("munmap the plain mapping", munmap(q, 4 * HUGE));
	}
	say("munmap", munmap(p, len));
	return 0;
}
