/*
 * test_tracepoint.c - the model's tracepoints (model/tracepoint.h) through
 * the public API: which events one call raises, in which order, with which
 * values; the per-kernel citations; that nobody listening changes nothing;
 * and that explain_build() folds a run of pages into one step.
 */
#include "check_run.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "teach.h"
#include "kerr.h"
#include "semantics.h"
#include "tracepoint.h"
#include "vmflags.h"
#include "vmstat.h"
#include "vmsys.h"

#include "uapi_x86.h"

#define A 0x20000000ULL

static struct vmsys *S;
static struct task *T;
static struct tp_log L;

static void machine(const char *kernel, uint64_t rlimit, bool cap)
{
	struct vmsys_config c;
	const struct semantics *sem = semantics_find(kernel);
	ck_assert_ptr_nonnull(sem);
	vmsys_config_default(&c, sem);
	c.ram = 64ULL << 20;
	c.cap_ipc_lock = cap;
	c.rlimit_memlock = rlimit;
	char err[256];
	S = vmsys_new(&c, err, sizeof(err));
	ck_assert_msg(S != NULL, "vmsys_new: %s", err);
	T = vmsys_task(S, 1, true);
	ck_assert_ptr_nonnull(T);
	tp_log_clear(&L);
}

static void machine_free(void)
{
	vmsys_free(S);
	S = NULL;
	tp_log_free(&L);
}

static int64_t call_mmap(uint64_t addr, unsigned pages)
{
	vmsys_begin_call(S, T);
	int64_t r = vm_mmap(S, T, addr, pages * PG, P_RW, M_PRIVATE | M_ANON | M_FIXED, -1, 0, false, 0);
	vmsys_end_call(S, T);
	return r;
}

static int64_t call_mlock2(uint64_t addr, unsigned pages, uint64_t flags)
{
	vmsys_begin_call(S, T);
	int64_t r = vm_mlock2(S, T, addr, pages * PG, flags);
	vmsys_end_call(S, T);
	return r;
}

/* the index of the first event of id at or after i, or -1 */
static long find(size_t i, enum tp_id id)
{
	for (; i < L.n; i++)
		if (L.ev[i].id == id)
			return (long)i;
	return -1;
}

/* mlock2(A+2p, 4p, ONFAULT) of an 8-page VMA: the limit check, two
 * splits (map_count 1 -> 2 -> 3), the flag change, then the charge */
START_TEST(mlock_middle_splits_twice)
{
	machine("6.18", 16 * PG, false);
	ck_assert_int_eq(call_mmap(A, 8), (int64_t)A);
	vmsys_set_tracepoint(S, tp_log_hook, &L);
	ck_assert_int_eq(call_mlock2(A + 2 * PG, 4, 1), 0);

	long lim = find(0, TP_LIMIT);
	ck_assert_int_ge(lim, 0);
	ck_assert_int_eq(L.ev[lim].fn, KFN_DO_MLOCK);
	ck_assert_int_eq(L.ev[lim].delta, 4);
	ck_assert_uint_eq(L.ev[lim].before, 0);
	ck_assert_uint_eq(L.ev[lim].limit, 16);
	ck_assert(!L.ev[lim].cap);
	ck_assert_int_eq(L.ev[lim].err, 0);
	ck_assert_int_eq(L.ev[lim].pid, 1);

	long s1 = find((size_t)lim, TP_VMA_SPLIT);
	ck_assert_int_gt(s1, lim);
	ck_assert_uint_eq(L.ev[s1].old_start, A);
	ck_assert_uint_eq(L.ev[s1].old_end, A + 8 * PG);
	ck_assert_uint_eq(L.ev[s1].addr, A + 2 * PG);
	ck_assert_uint_eq(L.ev[s1].before, 1);
	ck_assert_uint_eq(L.ev[s1].after, 2);
	long s2 = find((size_t)s1 + 1, TP_VMA_SPLIT);
	ck_assert_int_gt(s2, s1);
	ck_assert_uint_eq(L.ev[s2].addr, A + 6 * PG);
	ck_assert_uint_eq(L.ev[s2].after, 3);

	long fl = find((size_t)s2, TP_VMA_FLAGS);
	ck_assert_int_gt(fl, s2);
	ck_assert_int_eq(L.ev[fl].fn, KFN_MLOCK_FIXUP);
	ck_assert_uint_eq(L.ev[fl].start, A + 2 * PG);
	ck_assert_uint_eq(L.ev[fl].end, A + 6 * PG);
	ck_assert_uint_eq(L.ev[fl].new_flags & ~L.ev[fl].old_flags, VM_LOCKED | VM_LOCKONFAULT);

	long ch = find((size_t)fl, TP_LOCKED_VM);
	ck_assert_int_gt(ch, fl);
	ck_assert_uint_eq(L.ev[ch].before, 0);
	ck_assert_uint_eq(L.ev[ch].after, 4);
	ck_assert_int_eq(L.ev[ch].delta, 4);
	ck_assert_uint_eq(L.ev[ch].limit, 16);
	/* lock-on-fault: no page faulted, no page event */
	ck_assert_int_eq(find(0, TP_FAULT), -1);
	ck_assert_int_eq(find(0, TP_PAGE), -1);
	machine_free();
}
END_TEST

/* past the limit: one refused check, nothing else */
START_TEST(limit_refusal_is_the_only_event)
{
	machine("6.18", 2 * PG, false);
	ck_assert_int_eq(call_mmap(A, 8), (int64_t)A);
	vmsys_set_tracepoint(S, tp_log_hook, &L);
	ck_assert_int_eq(call_mlock2(A, 4, 0), -KERR_ENOMEM);
	ck_assert_uint_eq(L.n, 1);
	ck_assert_int_eq(L.ev[0].id, TP_LIMIT);
	ck_assert_int_eq(L.ev[0].err, -KERR_ENOMEM);
	machine_free();
}
END_TEST

/* a write fault into a locked VMA: the fault, then PG_mlocked and the
 * per-CPU mlock batch; explain folds 4 pages into one step each */
START_TEST(fault_into_locked_vma_and_folding)
{
	machine("6.18", 0, true);
	ck_assert_int_eq(call_mmap(A, 4), (int64_t)A);
	ck_assert_int_eq(call_mlock2(A, 4, 1), 0);
	vmsys_set_tracepoint(S, tp_log_hook, &L);
	vmsys_begin_call(S, T);
	enum vm_fault_kind sig = VMF_NONE;
	ck_assert_int_eq(vm_touch(S, T, A, 4 * PG, 2, &sig), 4);
	vmsys_end_call(S, T);
	long f = find(0, TP_FAULT);
	ck_assert_int_eq(f, 0);
	ck_assert_int_eq(L.ev[f].kind, TPF_ANON);
	ck_assert_uint_eq(L.ev[f].addr, A);
	long m = find((size_t)f, TP_PAGE);
	ck_assert_int_gt(m, f);
	ck_assert_int_eq(L.ev[m].kind, TPP_MLOCK);
	ck_assert_int_eq(L.ev[m].fn, KFN_MLOCK_NEW_FOLIO);
	long b = find((size_t)m, TP_BATCH_ADD);
	ck_assert_int_gt(b, m);
	ck_assert_int_eq(L.ev[b].kind, TPB_MLOCK);

	struct explain_steps st = { 0 };
	ck_assert(explain_build(&L, S, &st));
	ck_assert_uint_eq(st.n, 3); /* fault, PG_mlocked, queued: x4 each */
	ck_assert_uint_eq(st.s[0].count, 4);
	ck_assert_msg(strstr(st.s[0].text, "4 faults") != NULL, "%s", st.s[0].text);
	ck_assert_str_eq(st.s[0].cite, "mm/memory.c:do_anonymous_page()");
	ck_assert_msg(strstr(st.s[2].text, "(4 of 31)") != NULL, "%s", st.s[2].text);
	explain_steps_free(&st);
	machine_free();
}
END_TEST

/* the listener sees the state it is told about, and removing it stops the
 * events: the model's counters do not depend on anybody listening */
START_TEST(listening_changes_nothing)
{
	int64_t counts[2][NR_VMSTAT_ITEMS];
	for (int pass = 0; pass < 2; pass++) {
		machine("4.4", 64 * PG, false);
		if (pass)
			vmsys_set_tracepoint(S, tp_log_hook, &L);
		ck_assert_int_eq(call_mmap(A, 16), (int64_t)A);
		vmsys_begin_call(S, T);
		enum vm_fault_kind sig = VMF_NONE;
		ck_assert_int_eq(vm_touch(S, T, A, 16 * PG, 2, &sig), 16);
		ck_assert_int_eq(vm_mlock(S, T, A + 4 * PG, 8 * PG), 0);
		ck_assert_int_eq(vm_munlock(S, T, A, 16 * PG), 0);
		vmsys_end_call(S, T);
		for (int i = 0; i < NR_VMSTAT_ITEMS; i++)
			counts[pass][i] = vmsys_vmstat(S, i);
		ck_assert(pass ? L.n > 0 : L.n == 0);
		vmsys_set_tracepoint(S, NULL, NULL);
		size_t n = L.n;
		ck_assert_int_eq(call_mmap(A + 64 * PG, 1), (int64_t)(A + 64 * PG));
		ck_assert_uint_eq(L.n, n);
		machine_free();
	}
	for (int i = 0; i < NR_VMSTAT_ITEMS; i++)
		ck_assert_msg(counts[0][i] == counts[1][i], "%s: %lld without a listener, %lld with",
			      vmstat_name(i), (long long)counts[0][i], (long long)counts[1][i]);
}
END_TEST

/* each kernel names a function where it is (4.x: mm/mmap.c, 6.18: mm/vma.c) */
START_TEST(citations_per_kernel)
{
	ck_assert_str_eq(tp_cite(semantics_find("6.18"), KFN_SPLIT_VMA), "mm/vma.c:__split_vma()");
	ck_assert_str_eq(tp_cite(semantics_find("6.1"), KFN_SPLIT_VMA), "mm/mmap.c:__split_vma()");
	ck_assert_str_eq(tp_cite(semantics_find("4.4"), KFN_SPLIT_VMA), "mm/mmap.c:__split_vma()");
	ck_assert_str_eq(tp_cite(semantics_find("4.0"), KFN_APPLY_MLOCKALL), "mm/mlock.c:do_mlockall()");
	ck_assert_str_eq(tp_cite(semantics_find("lof-v1"), KFN_APPLY_MLOCKALL),
			 "mm/mlock.c:do_mlockall()");
	ck_assert_str_eq(tp_cite(semantics_find("4.4"), KFN_APPLY_MLOCKALL),
			 "mm/mlock.c:apply_mlockall_flags()");
	ck_assert_str_eq(tp_cite(semantics_find("4.4"), KFN_MLOCK_FOLIO), "mm/mlock.c:mlock_vma_page()");
	ck_assert_str_eq(tp_cite(semantics_find("6.1"), KFN_MLOCK_FUTURE),
			 "mm/mmap.c:mlock_future_check()");
	ck_assert_str_eq(tp_cite(semantics_find("6.18"), KFN_MLOCK_FUTURE), "mm/mmap.c:mlock_future_ok()");
	char buf[64];
	ck_assert_str_eq(tp_fn_name(semantics_find("6.18"), KFN_DO_MLOCKALL, buf, sizeof(buf)),
			 "sys_mlockall");
	/* every function has a citation in every kernel */
	for (unsigned k = 0; semantics_all[k]; k++)
		for (int fn = KFN_NONE + 1; fn < KFN_NR; fn++)
			ck_assert_msg(tp_cite(semantics_all[k], (enum kfn)fn)[0] != 0,
				      "kernel %s: function %d has no citation", semantics_all[k]->name, fn);
	ck_assert_str_eq(explain_version(semantics_find("lof-v1")), "v4.0+lof-v1");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tracepoint");
	TCase *tc = tcase_create("events");
	tcase_add_test(tc, mlock_middle_splits_twice);
	tcase_add_test(tc, limit_refusal_is_the_only_event);
	tcase_add_test(tc, fault_into_locked_vma_and_folding);
	tcase_add_test(tc, listening_changes_nothing);
	tcase_add_test(tc, citations_per_kernel);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
