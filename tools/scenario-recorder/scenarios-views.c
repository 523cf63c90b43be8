/* scenarios-views.c - extra /proc view captures for tests/unit/test_views.c
 * (file-backed lines, pages mapped twice, Pss).  It replaces
 * scenarios.c in a second recorder binary, so the golden set is unchanged:
 *
 *   tools/scenario-recorder/build.sh        # rec-child
 *   d=$(mktemp -d) && gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 \
 *       -o $d/recorder tools/scenario-recorder/recorder.c tools/scenario-recorder/scenarios-views.c \
 *       && cp tools/scenario-recorder/rec-child $d/
 *   for run in a b; do mkdir -p $d/$run/g $d/$run/v
 *       $d/recorder -o $d/$run/g -v $d/$run/v; done
 *   diff -r $d/a/v $d/b/v && cp $d/a/v/views-* traces/views/
 *
 * Only the views (traces/views/NAME.{trace,maps,smaps,status}) are kept:
 * the trace there is the prefix up to the capture. */
#include <stddef.h>
#include "recorder.h"

#define PR 1
#define PW 2
#define RW (PR | PW)
#define MS 0x01
#define MP 0x02
#define MA 0x20
#define P 4096L
#define M (1024L * 1024L)
#define O_RDWR 2
#define O_CREAT 0100
#define O_TRUNC 01000
#define OCRT (O_RDWR | O_CREAT | O_TRUNC)

/* ext4 file: a private read-only mapping read in part (read-around) and a
 * second one of the same pages (mapcount 2: Shared_Clean, Pss halves), a
 * private writable mapping locked (mlock breaks COW on every page); a
 * tmpfs file mapped shared twice and written through one (Shared_Dirty);
 * shared anonymous memory (/dev/zero (deleted)); private anonymous memory
 * partly written, with an unmapped hole.  The files stay open and linked.
 * (A fork variant is not kept: after fork the child's copied PTEs are old,
 * and the recorder's own code dirties image pages in both processes, so
 * the image VMA's numbers are not the trace's.) */
static void sc_views_files(struct R *r, const struct scen *s)
{
	(void)s;
	const char *fpath = "/tmp/vmrec-views-file";
	const char *spath = "/dev/shm/vmrec-views-shm";
	long fd = S_openat(r, fpath, OCRT, 0600);
	S_ftruncate(r, fd, 8 * P);
	long a = S_mmap(r, 0, 8 * P, PR, MP, fd, 0);
	S_touch(r, a, P, A_READ);
	long a2 = S_mmap(r, 0, 2 * P, PR, MP, fd, 0);
	S_touch(r, a2, 2 * P, A_READ);
	long b = S_mmap(r, 0, 4 * P, RW, MP, fd, 4 * P);
	S_mlock(r, b, 4 * P);
	long sfd = S_openat(r, spath, OCRT, 0600);
	S_ftruncate(r, sfd, 4 * P);
	long c = S_mmap(r, 0, 4 * P, RW, MS, sfd, 0);
	S_touch(r, c, 2 * P, A_WRITE);
	long c2 = S_mmap(r, 0, 4 * P, PR, MS, sfd, 0);
	S_touch(r, c2, 4 * P, A_READ);
	long d = S_mmap(r, 0, 4 * P, RW, MS | MA, -1, 0);
	S_touch(r, d, P, A_WRITE);
	long e = S_mmap(r, 0, 8 * P, RW, MP | MA, -1, 0);
	S_touch(r, e, 3 * P, A_WRITE);
	S_munmap(r, e + 4 * P, P);
	S_touch(r, e + 6 * P, P, A_READ);
	S_pages(r, e, 8 * P);
	S_capture(r);
	S_close(r, fd);
	S_close(r, sfd);
	S_unlink(r, fpath);
	S_unlink(r, spath);
}

const struct scen rec_scenarios[] = {
	{"views-files", "ext4 file mapped private twice (read) and writable+mlocked, tmpfs file mapped shared twice, shared and private anonymous memory with a hole; the /proc views are in traces/views", 8 * M, true, false, 0, sc_views_files, true},
};
const unsigned rec_nscenarios = sizeof rec_scenarios / sizeof rec_scenarios[0];
