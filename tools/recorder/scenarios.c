/* scenarios.c - the recorded scenarios (see traces/golden/PROGRAMS.md). */
#include <stddef.h>
#include "recorder.h"

#define PR 1
#define PW 2
#define PX 4
#define RW (PR | PW)
#define MS 0x01
#define MP 0x02
#define MF 0x10
#define MA 0x20
#define MLOCKED 0x2000
#define MPOP 0x8000
#define MNB 0x10000
#define MFNR 0x100000
#define K 1024L
#define P 4096L

static void sc_mlock_basic(struct R *r, const struct scen *s)
{
	(void)s;
	long a = S_mmap(r, 0, 4 * P, RW, MP | MA, -1, 0);
	S_mlock(r, a, 4 * P);
	S_pages(r, a, 4 * P);
	S_munlock(r, a, 4 * P);
	S_pages(r, a, 4 * P);
}

const struct scen rec_scenarios[] = {
	{"mlock-basic", "mlock populates and locks an anonymous mapping; munlock clears both", 8 * K * K, true, false, 0, sc_mlock_basic, false},
};
const unsigned rec_nscenarios = sizeof rec_scenarios / sizeof rec_scenarios[0];
