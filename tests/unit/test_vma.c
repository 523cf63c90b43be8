/*
 * test_vma.c - VMA split and merge through the public API (6.18 semantics),
 * in the manner of the kernel's tools/testing/vma: the address space is
 * drawn as a ruler, one character per page, a letter per VMA and '.' for
 * a hole:
 *
 *	012345678
 *	.AAAAAA..     a 6-page anonymous mapping at page 1
 *	.ABBBCC..     after mlock of pages [2,5)
 *
 * Letters only say "same VMA" / "another VMA": a drawing is compared run
 * by run, so ".ABBBCC.." and ".XYYYZZ.." are the same layout.
 *
 * The exhaustive tests walk every prot (NONE, R, RW, RX) x starting lock
 * state x operation (mlock, mlock2 ONFAULT, munlock, mprotect) x range
 * [a,b) over a 9-page window (so ranges starting in, ending in or lying
 * in a hole are included), and check the layout, each piece's flags, the
 * return value and VmLck against a page-array oracle of the kernel's rules:
 * only the pages of the range change, a VMA is split where the range ends
 * inside it, and pieces of one mapping whose flags end up equal merge back
 * (never across a hole).
 */
#include "test_machine.h"
#include "check_run.h"
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kerr.h"
#include "vmflags.h"
#include "vmsys.h"

/* x86_64 uapi values (the model's default arch) */
#define P_NONE 0x0
#define P_R    0x1
#define P_W    0x2
#define P_X    0x4
#define M_SHARED          0x01
#define M_PRIVATE         0x02
#define M_FIXED           0x10
#define M_ANON            0x20
#define M_LOCKED          0x2000
#define M_POPULATE        0x8000
#define M_FIXED_NOREPLACE 0x100000
#define MLOCK_ONFAULT_    0x1
#define MREMAP_MAYMOVE_   0x1
#define MREMAP_FIXED_     0x2

#define PG     4096ULL
#define BASE   0x20000000ULL           /* page 0 of every ruler */
#define PAGE(i) (BASE + (uint64_t)(i) * PG)
#define WIN    9                       /* ruler width of the exhaustive tests */
#define MAXWIN 64

/* ---- machine -------------------------------------------------------------- */

static struct vmsys *S;
static struct task *T;

static void machine(uint64_t max_map_count)
{
	struct vmsys_config c;
	test_config(&c, "6.18");
	if (max_map_count)
		c.max_map_count = max_map_count;
	S = test_machine_new(&c, &T);
}

static void machine_free(void)
{
	vmsys_free(S);
	S = NULL;
	T = NULL;
}

static int64_t map_anon(unsigned first, unsigned npages, uint64_t prot, uint64_t extra)
{
	return vm_mmap(S, T, PAGE(first), npages * PG, prot, M_PRIVATE | M_ANON | M_FIXED | extra,
		       -1, 0, false, 0);
}

static uint64_t vmlck_pages(void)
{
	struct vm_status st;
	vmsys_status(S, T, &st);
	return st.locked_vm;
}

/* Pages of VM_LOCKED VMAs in the whole address space. */
static uint64_t locked_vma_pages(void)
{
	struct vm_vma_info in;
	uint64_t n = 0;
	for (const struct vma *v = vmsys_vma_next(S, T, NULL, &in); v; v = vmsys_vma_next(S, T, v, &in))
		if (in.flags & VM_LOCKED)
			n += (in.end - in.start) / PG;
	return n;
}

/* ---- drawing ----------------------------------------------------------------- */

/* The model's layout over pages [0, n) of the ruler, plus a legend of the
 * VMAs drawn (letter, range, VmFlags) for failure messages. */
static void render(unsigned n, char *out, char *legend, size_t leglen)
{
	struct vm_vma_info in;
	char letter = 'A';
	size_t ll = 0;
	memset(out, '.', n);
	out[n] = 0;
	if (legend)
		legend[0] = 0;
	for (const struct vma *v = vmsys_vma_next(S, T, NULL, &in); v; v = vmsys_vma_next(S, T, v, &in)) {
		if (in.end <= PAGE(0) || in.start >= PAGE(n))
			continue;
		for (unsigned i = 0; i < n; i++)
			if (PAGE(i) >= in.start && PAGE(i) < in.end)
				out[i] = letter;
		if (legend && ll < leglen) {
			char fl[128];
			vmsys_vmflags_text(S, in.flags, fl, sizeof(fl));
			ll += (size_t)snprintf(legend + ll, leglen - ll, "    %c [%+ld, %+ld) pages: %s\n",
					       letter, (long)((int64_t)(in.start - BASE) / (int64_t)PG),
					       (long)((int64_t)(in.end - BASE) / (int64_t)PG), fl);
		}
		letter = letter == 'Z' ? 'a' : letter + 1;
	}
}

/* Rename the runs of a drawing A, B, C ... in order ('.' stays). */
static void normalize(const char *in, char *out)
{
	char letter = 'A', prev = 0;
	size_t i;
	for (i = 0; in[i]; i++) {
		if (in[i] == '.' || in[i] == ' ') {
			out[i] = '.';
		} else {
			if (i > 0 && in[i] == prev)
				out[i] = out[i - 1];
			else {
				out[i] = letter;
				letter = letter == 'Z' ? 'a' : letter + 1;
			}
		}
		prev = in[i];
	}
	out[i] = 0;
}

static const char ruler_digits[] = "0123456789abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ!@";

/* Does the model's layout look like `want` (one char per page from page 0)?
 * On failure the message shows the ruler, both drawings and the legend. */
#define assert_layout(want, ...) assert_layout_at(__FILE__, __LINE__, want, __VA_ARGS__)

static void assert_layout_at(const char *file, int line, const char *want, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void assert_layout_at(const char *file, int line, const char *want, const char *fmt, ...)
{
	unsigned n = (unsigned)strlen(want);
	char got[MAXWIN + 1], wn[MAXWIN + 1], gn[MAXWIN + 1], legend[2048], what[512];
	ck_assert_uint_le(n, MAXWIN);
	render(n, got, legend, sizeof(legend));
	normalize(want, wn);
	normalize(got, gn);
	if (!strcmp(wn, gn))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	ck_abort_msg("%s:%d: layout differs: %s\n    %.*s\n    %s   expected\n    %s   model\n%s", file,
		     line, what, (int)n, ruler_digits, wn, gn, legend);
}

/* ---- the oracle ----------------------------------------------------------------- */

enum lockst { L_NONE, L_LOCKED, L_ONFAULT };
enum op { OP_MLOCK, OP_MLOCK2_ONFAULT, OP_MUNLOCK, OP_MPROTECT, OP_NR };

static const char *const op_names[OP_NR] = { "mlock", "mlock2(MLOCK_ONFAULT)", "munlock",
					     "mprotect" };
static const uint64_t prots[] = { P_NONE, P_R, P_R | P_W, P_R | P_X };
static const char *const prot_names[] = { "NONE", "R", "RW", "RX" };
static const char *const lock_names[] = { "unlocked", "locked", "locked onfault" };

/* mprotect's target for each prot: a different one */
static uint64_t other_prot(uint64_t p)
{
	switch (p) {
	case P_NONE: return P_R;
	case P_R: return P_R | P_W;
	case P_R | P_W: return P_R;
	default: return P_R | P_W;
	}
}

struct opage {
	bool mapped;
	uint64_t prot;
	enum lockst lock;
};

static uint64_t lock_bits(enum lockst l)
{
	return l == L_LOCKED ? VM_LOCKED : l == L_ONFAULT ? (VM_LOCKED | VM_LOCKONFAULT) : 0;
}

/* Apply op to [a,b) of pages; returns the expected result.  The kernel
 * (apply_vma_lock_flags, do_mprotect_pkey): a range starting in a hole
 * fails with ENOMEM untouched; otherwise every VMA up to the first hole
 * is changed and a hole inside the range then gives ENOMEM. */
static int64_t oracle(struct opage *pg, unsigned a, unsigned b, enum op op, uint64_t newprot)
{
	if (!pg[a].mapped)
		return -KERR_ENOMEM;
	for (unsigned i = a; i < b; i++) {
		if (!pg[i].mapped)
			return -KERR_ENOMEM;
		switch (op) {
		case OP_MLOCK: pg[i].lock = L_LOCKED; break;
		case OP_MLOCK2_ONFAULT: pg[i].lock = L_ONFAULT; break;
		case OP_MUNLOCK: pg[i].lock = L_NONE; break;
		default: pg[i].prot = newprot; break;
		}
	}
	/* do_mlock then populates (__mm_populate without ignore_errors): GUP
	 * refuses a PROT_NONE VMA (no FOLL_FORCE), EFAULT becomes ENOMEM.
	 * VM_LOCKONFAULT VMAs are not populated, so mlock2 ONFAULT succeeds. */
	if (op == OP_MLOCK && pg[a].prot == P_NONE)
		return -KERR_ENOMEM;
	return 0;
}

/* The drawing of a single mapping's pages after the oracle: maximal runs
 * of equal (prot, lock) are one VMA. */
static void oracle_draw(const struct opage *pg, unsigned n, char *out)
{
	char letter = 'A';
	for (unsigned i = 0; i < n; i++) {
		if (!pg[i].mapped)
			out[i] = '.';
		else if (i > 0 && pg[i - 1].mapped && pg[i - 1].prot == pg[i].prot &&
			 pg[i - 1].lock == pg[i].lock)
			out[i] = out[i - 1];
		else
			out[i] = letter++;
	}
	out[n] = 0;
}

static int64_t run_op(enum op op, unsigned a, unsigned b, uint64_t newprot)
{
	uint64_t addr = PAGE(a), len = (uint64_t)(b - a) * PG;
	switch (op) {
	case OP_MLOCK: return vm_mlock(S, T, addr, len);
	case OP_MLOCK2_ONFAULT: return vm_mlock2(S, T, addr, len, MLOCK_ONFAULT_);
	case OP_MUNLOCK: return vm_munlock(S, T, addr, len);
	default: return vm_mprotect(S, T, addr, len, newprot);
	}
}

/* Each VMA's prot and lock bits agree with the oracle's pages. */
static void check_flags(const struct opage *pg, const char *what)
{
	struct vm_vma_info in;
	for (const struct vma *v = vmsys_vma_next(S, T, NULL, &in); v; v = vmsys_vma_next(S, T, v, &in)) {
		if (in.end <= PAGE(0) || in.start >= PAGE(WIN))
			continue;
		unsigned i = (unsigned)((in.start - BASE) / PG);
		uint64_t want = lock_bits(pg[i].lock) | ((pg[i].prot & P_R) ? VM_READ : 0) |
		       ((pg[i].prot & P_W) ? VM_WRITE : 0) | ((pg[i].prot & P_X) ? VM_EXEC : 0);
		uint64_t mask = VM_READ | VM_WRITE | VM_EXEC | VM_LOCKED | VM_LOCKONFAULT;
		ck_assert_msg((in.flags & mask) == want,
			      "%s: VMA at page %u has flags %#llx, expected %#llx (mask %#llx)", what, i,
			      (unsigned long long)(in.flags & mask), (unsigned long long)want,
			      (unsigned long long)mask);
	}
}

/* One case: a 6-page mapping at pages [1,7) with prot p and lock state l,
 * then op on [a,b). */
static void one_case(unsigned pi, enum lockst l, enum op op, unsigned a, unsigned b)
{
	uint64_t p = prots[pi], q = other_prot(p);
	char what[256], want[WIN + 1];
	snprintf(what, sizeof(what), "PROT_%s, %s, %s [%u,%u)", prot_names[pi], lock_names[l],
		 op_names[op], a, b);
	machine(0);
	ck_assert_int_eq(map_anon(1, 6, p, 0), (int64_t)PAGE(1));
	if (l == L_LOCKED) /* PROT_NONE: VM_LOCKED set, then populate fails */
		ck_assert_int_eq(vm_mlock(S, T, PAGE(1), 6 * PG), p == P_NONE ? -KERR_ENOMEM : 0);
	else if (l == L_ONFAULT)
		ck_assert_int_eq(vm_mlock2(S, T, PAGE(1), 6 * PG, MLOCK_ONFAULT_), 0);
	assert_layout(".AAAAAA..", "%s: before", what);

	struct opage pg[WIN];
	for (unsigned i = 0; i < WIN; i++)
		pg[i] = (struct opage){ i >= 1 && i < 7, p, l };
	int64_t expect = oracle(pg, a, b, op, q);
	int64_t r = run_op(op, a, b, q);
	ck_assert_msg(r == expect, "%s: returned %lld, expected %lld", what, (long long)r,
		      (long long)expect);
	oracle_draw(pg, WIN, want);
	assert_layout(want, "%s", what);
	check_flags(pg, what);

	uint64_t lockedp = 0;
	for (unsigned i = 0; i < WIN; i++)
		lockedp += pg[i].mapped && pg[i].lock != L_NONE;
	ck_assert_msg(vmlck_pages() == lockedp && locked_vma_pages() == lockedp,
		      "%s: VmLck %llu pages, VM_LOCKED VMAs %llu pages, expected %llu", what,
		      (unsigned long long)vmlck_pages(), (unsigned long long)locked_vma_pages(),
		      (unsigned long long)lockedp);
	char msg[512];
	ck_assert_msg(vmsys_check_invariants(S, msg, sizeof(msg)) == 0, "%s: invariant: %s", what, msg);
	machine_free();
}

/* Every range [a,b) within the 9-page window: inside, at either end,
 * the whole VMA, starting in a hole, ending in a hole, only holes. */
static void all_ranges(unsigned pi, enum op op)
{
	for (unsigned l = L_NONE; l <= L_ONFAULT; l++)
		for (unsigned a = 0; a < WIN; a++)
			for (unsigned b = a + 1; b <= WIN; b++)
				one_case(pi, (enum lockst)l, op, a, b);
}

START_TEST(exhaustive)
{
	/* _i runs over prot x op */
	unsigned pi = (unsigned)_i / OP_NR;
	enum op op = (enum op)(_i % OP_NR);
	all_ranges(pi, op);
}
END_TEST

/* ---- drawn cases ---------------------------------------------------------------- */

START_TEST(split_three_two_none)
{
	machine(0);
	ck_assert_int_eq(map_anon(1, 6, P_R | P_W, 0), (int64_t)PAGE(1));
	/*               012345678 */
	assert_layout(".AAAAAA..", "mmap");
	ck_assert_int_eq(vm_mlock(S, T, PAGE(3), 2 * PG), 0);
	assert_layout(".AABBCC..", "mlock strictly inside: three VMAs");
	ck_assert_uint_eq(vmsys_map_count(S, T), 3);
	ck_assert_uint_eq(vmlck_pages(), 2);
	ck_assert_int_eq(vm_munlock(S, T, PAGE(3), 2 * PG), 0);
	assert_layout(".AAAAAA..", "munlock: merged back into one");
	ck_assert_uint_eq(vmsys_map_count(S, T), 1);
	ck_assert_int_eq(vm_mlock(S, T, PAGE(1), 2 * PG), 0);
	assert_layout(".AABBBB..", "mlock touching the start: two VMAs");
	ck_assert_int_eq(vm_mlock(S, T, PAGE(5), 2 * PG), 0);
	assert_layout(".AABBCC..", "mlock touching the end");
	ck_assert_int_eq(vm_mlock(S, T, PAGE(3), 2 * PG), 0);
	assert_layout(".AAAAAA..", "mlock of the gap: all locked, one VMA");
	ck_assert_uint_eq(vmlck_pages(), 6);
	machine_free();
}
END_TEST

START_TEST(no_merge_across_hole)
{
	machine(0);
	ck_assert_int_eq(map_anon(1, 3, P_R | P_W, 0), (int64_t)PAGE(1));
	ck_assert_int_eq(map_anon(5, 3, P_R | P_W, 0), (int64_t)PAGE(5));
	assert_layout(".AAA.BBB.", "two mappings, one hole");
	ck_assert_int_eq(vm_mlock(S, T, PAGE(2), 5 * PG), -KERR_ENOMEM);
	assert_layout(".ABB.CCC.", "mlock over the hole: first part locked, then ENOMEM");
	ck_assert_uint_eq(vmlck_pages(), 2);
	ck_assert_int_eq(vm_mlock(S, T, PAGE(5), 3 * PG), 0);
	assert_layout(".ABB.CCC.", "both locked, still two VMAs across the hole");
	ck_assert_uint_eq(vmlck_pages(), 5);
	machine_free();
}
END_TEST

/* Adjacent mappings made by separate mmaps merge when their flags agree. */
START_TEST(adjacent_mmaps_merge)
{
	machine(0);
	ck_assert_int_eq(map_anon(1, 2, P_R | P_W, 0), (int64_t)PAGE(1));
	ck_assert_int_eq(map_anon(3, 2, P_R | P_W, 0), (int64_t)PAGE(3));
	assert_layout(".AAAA....", "second anon mmap merges with the first");
	ck_assert_int_eq(map_anon(5, 2, P_R, 0), (int64_t)PAGE(5));
	assert_layout(".AAAABB..", "different prot: no merge");
	ck_assert_int_eq(map_anon(7, 1, P_R | P_W, M_LOCKED), (int64_t)PAGE(7));
	assert_layout(".AAAABBC.", "MAP_LOCKED: no merge with the unlocked one");
	ck_assert_uint_eq(vmlck_pages(), 1);
	machine_free();
}
END_TEST

/* max_map_count (1.15 of the notes): split_vma refuses at map_count >= max. */
START_TEST(map_count_at_max)
{
	machine(1);
	ck_assert_int_eq(map_anon(1, 6, P_R | P_W, 0), (int64_t)PAGE(1));
	ck_assert_uint_eq(vmsys_map_count(S, T), 1);
	ck_assert_int_eq(vm_mlock(S, T, PAGE(3), 2 * PG), -KERR_ENOMEM);
	assert_layout(".AAAAAA..", "mlock of the middle at map_count == max: nothing changed");
	ck_assert_uint_eq(vmlck_pages(), 0);
	ck_assert_int_eq(vm_mlock(S, T, PAGE(1), 2 * PG), -KERR_ENOMEM);
	assert_layout(".AAAAAA..", "mlock of the head at max: ENOMEM");
	ck_assert_int_eq(vm_munlock(S, T, PAGE(3), 2 * PG), 0); /* no change needed */
	ck_assert_int_eq(vm_mprotect(S, T, PAGE(3), 2 * PG, P_R), -KERR_ENOMEM);
	assert_layout(".AAAAAA..", "mprotect of the middle at max: ENOMEM");
	ck_assert_int_eq(vm_mlock(S, T, PAGE(1), 6 * PG), 0);
	assert_layout(".AAAAAA..", "mlock of the whole VMA needs no split");
	ck_assert_uint_eq(vmlck_pages(), 6);
	ck_assert_int_eq(vm_munlock(S, T, PAGE(3), 2 * PG), -KERR_ENOMEM);
	ck_assert_int_eq(vm_munmap(S, T, PAGE(3), 2 * PG), -KERR_ENOMEM);
	assert_layout(".AAAAAA..", "munlock/munmap of the middle at max: ENOMEM");
	ck_assert_uint_eq(vmlck_pages(), 6);
	machine_free();
}
END_TEST

START_TEST(map_count_at_max_minus_one)
{
	machine(2);
	ck_assert_int_eq(map_anon(1, 6, P_R | P_W, 0), (int64_t)PAGE(1));
	ck_assert_int_eq(vm_mlock(S, T, PAGE(3), 2 * PG), -KERR_ENOMEM);
	assert_layout(".AABBBB..", "first split done, second refused: two unlocked VMAs");
	ck_assert_uint_eq(vmsys_map_count(S, T), 2);
	ck_assert_uint_eq(vmlck_pages(), 0);
	ck_assert_uint_eq(locked_vma_pages(), 0);
	ck_assert_int_eq(vm_munlock(S, T, PAGE(1), 6 * PG), 0);
	assert_layout(".AABBBB..", "munlock over them: 0, no merge (flags unchanged)");
	machine_free();
}
END_TEST

/* ---- mmap / munmap / mremap --------------------------------------------------------- */

START_TEST(mmap_fixed_over_part)
{
	machine(0);
	ck_assert_int_eq(map_anon(1, 6, P_R | P_W, M_LOCKED), (int64_t)PAGE(1));
	ck_assert_uint_eq(vmlck_pages(), 6);
	ck_assert_int_eq(map_anon(3, 2, P_R, 0), (int64_t)PAGE(3));
	assert_layout(".AABBCC..", "MAP_FIXED over the middle of a locked mapping");
	ck_assert_uint_eq(vmlck_pages(), 4);
	ck_assert_uint_eq(locked_vma_pages(), 4);
	struct vm_vma_info in;
	ck_assert(vmsys_vma_at(S, T, PAGE(3), &in));
	ck_assert(!(in.flags & VM_LOCKED));
	ck_assert(vmsys_vma_at(S, T, PAGE(5), &in));
	ck_assert(in.flags & VM_LOCKED);
	ck_assert_uint_eq(in.locked, 2 * PG);
	/* MAP_FIXED over the start and past the end into the hole */
	ck_assert_int_eq(map_anon(0, 2, P_R | P_W, 0), (int64_t)PAGE(0));
	assert_layout("AABCCDD..", "MAP_FIXED over the head, from the hole");
	ck_assert_uint_eq(vmlck_pages(), 3);
	machine_free();
}
END_TEST

START_TEST(mmap_fixed_noreplace)
{
	machine(0);
	ck_assert_int_eq(map_anon(1, 6, P_R | P_W, M_LOCKED), (int64_t)PAGE(1));
	int64_t r = vm_mmap(S, T, PAGE(6), 2 * PG, P_R, M_PRIVATE | M_ANON | M_FIXED_NOREPLACE, -1, 0,
			    false, 0);
	ck_assert_int_eq(r, -KERR_EEXIST);
	assert_layout(".AAAAAA..", "MAP_FIXED_NOREPLACE over an existing page: EEXIST, unchanged");
	ck_assert_uint_eq(vmlck_pages(), 6);
	r = vm_mmap(S, T, PAGE(7), 2 * PG, P_R, M_PRIVATE | M_ANON | M_FIXED_NOREPLACE, -1, 0, false, 0);
	ck_assert_int_eq(r, (int64_t)PAGE(7));
	assert_layout(".AAAAAABB", "MAP_FIXED_NOREPLACE into the hole");
	machine_free();
}
END_TEST

START_TEST(munmap_middle)
{
	machine(0);
	ck_assert_int_eq(map_anon(1, 6, P_R | P_W, M_LOCKED), (int64_t)PAGE(1));
	ck_assert_int_eq(vm_munmap(S, T, PAGE(3), 2 * PG), 0);
	assert_layout(".AA..BB..", "munmap of the middle");
	ck_assert_uint_eq(vmlck_pages(), 4);
	ck_assert_uint_eq(vmsys_map_count(S, T), 2);
	ck_assert_int_eq(vm_munmap(S, T, PAGE(0), 9 * PG), 0);
	assert_layout(".........", "munmap of everything, holes included");
	ck_assert_uint_eq(vmlck_pages(), 0);
	machine_free();
}
END_TEST

static void assert_locked_smaps(unsigned page, uint64_t bytes)
{
	struct vm_vma_info in;
	ck_assert(vmsys_vma_at(S, T, PAGE(page), &in));
	ck_assert(in.flags & VM_LOCKED);
	ck_assert_uint_eq(in.locked, bytes);
	ck_assert_uint_eq(in.rss, bytes);
}

START_TEST(mremap_shrink_grow_move)
{
	machine(0);
	ck_assert_int_eq(map_anon(1, 6, P_R | P_W, M_LOCKED), (int64_t)PAGE(1));
	assert_locked_smaps(1, 6 * PG);
	/* shrink in place */
	ck_assert_int_eq(vm_mremap(S, T, PAGE(1), 6 * PG, 3 * PG, 0, 0, false, 0), (int64_t)PAGE(1));
	assert_layout(".AAA........", "mremap shrink 6 -> 3 pages");
	ck_assert_uint_eq(vmlck_pages(), 3);
	assert_locked_smaps(1, 3 * PG);
	/* grow in place into the hole: the new pages are locked and populated */
	ck_assert_int_eq(vm_mremap(S, T, PAGE(1), 3 * PG, 8 * PG, 0, 0, false, 0), (int64_t)PAGE(1));
	assert_layout(".AAAAAAAA...", "mremap grow 3 -> 8 pages in place");
	ck_assert_uint_eq(vmlck_pages(), 8);
	assert_locked_smaps(1, 8 * PG);
	/* grow blocked by a neighbour without MAYMOVE: ENOMEM */
	ck_assert_int_eq(map_anon(10, 1, P_R, 0), (int64_t)PAGE(10));
	ck_assert_int_eq(vm_mremap(S, T, PAGE(1), 8 * PG, 10 * PG, 0, 0, false, 0), -KERR_ENOMEM);
	assert_layout(".AAAAAAAA.B.", "blocked grow changes nothing");
	ck_assert_uint_eq(vmlck_pages(), 8);
	/* move with MREMAP_FIXED: locked at the new place, same VmLck */
	ck_assert_int_eq(vm_mremap(S, T, PAGE(1), 8 * PG, 8 * PG, MREMAP_MAYMOVE_ | MREMAP_FIXED_,
				   PAGE(20), false, 0),
			 (int64_t)PAGE(20));
	assert_layout("..........A.........BBBBBBBB", "mremap move to page 20");
	ck_assert_uint_eq(vmlck_pages(), 8);
	assert_locked_smaps(20, 8 * PG);
	/* shrink part of a split mapping: only the locked piece's pages count */
	ck_assert_int_eq(vm_munlock(S, T, PAGE(20), 4 * PG), 0);
	assert_layout("..........A.........BBBBCCCC", "munlock the first half");
	ck_assert_uint_eq(vmlck_pages(), 4);
	ck_assert_int_eq(vm_mremap(S, T, PAGE(24), 4 * PG, 2 * PG, 0, 0, false, 0), (int64_t)PAGE(24));
	assert_layout("..........A.........BBBBCC..", "shrink the locked piece");
	ck_assert_uint_eq(vmlck_pages(), 2);
	ck_assert_uint_eq(locked_vma_pages(), 2);
	char msg[512];
	ck_assert_msg(vmsys_check_invariants(S, msg, sizeof(msg)) == 0, "invariant: %s", msg);
	machine_free();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("vma");
	TCase *ex = tcase_create("exhaustive");
	tcase_set_timeout(ex, 600);
	tcase_add_loop_test(ex, exhaustive, 0, (int)(sizeof(prots) / sizeof(prots[0])) * OP_NR);
	suite_add_tcase(s, ex);
	TCase *dr = tcase_create("drawn");
	tcase_set_timeout(dr, 60);
	tcase_add_test(dr, split_three_two_none);
	tcase_add_test(dr, no_merge_across_hole);
	tcase_add_test(dr, adjacent_mmaps_merge);
	tcase_add_test(dr, map_count_at_max);
	tcase_add_test(dr, map_count_at_max_minus_one);
	tcase_add_test(dr, mmap_fixed_over_part);
	tcase_add_test(dr, mmap_fixed_noreplace);
	tcase_add_test(dr, munmap_middle);
	tcase_add_test(dr, mremap_shrink_grow_move);
	suite_add_tcase(s, dr);
	return run_check_suite(s);
}
