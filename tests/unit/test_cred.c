/*
 * test_cred.c - credentials through the public API (model/cred.c): the
 * setuid family and cap_emulate_setxuid(), capset()'s subset rules, what
 * execve() of a plain file leaves (cap_bprm_creds_from_file()), ambient
 * capabilities of a non-root process, and a log whose runner is unknown.
 * Each is read back as the lock limits read it: mlock past RLIMIT_MEMLOCK.
 */
#include "check_run.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "kerr.h"
#include "test_machine.h"
#include "vmsys.h"

#define P_RW 0x3
#define M_PRIVATE 0x02
#define M_FIXED 0x10
#define M_ANON 0x20
#define MCL_CURRENT_ 1
#define MCL_FUTURE_ 2
#define PG 4096ULL
#define A1 0x20000000ULL
#define NOBODY 65534u
#define KEEP 0xffffffffu
#define CAP_SETUID_ (1ULL << 7)
#define CAP_IPC_LOCK_ (1ULL << 14)
#define CAP_ALL_ ((1ULL << 41) - 1)

static struct vmsys *S;
static struct task *T;

/* a machine whose limit (16 pages) a 32-page mlock passes */
static void machine(int64_t uid, bool cap, bool unknown)
{
	struct vmsys_config c;
	test_config(&c, "6.18");
	c.cap_ipc_lock = cap;
	c.uid = uid;
	c.creds_unknown = unknown;
	c.rlimit_memlock = 16 * PG;
	S = test_machine_new(&c, &T);
	ck_assert_int_eq(vm_mmap(S, T, A1, 32 * PG, P_RW, M_PRIVATE | M_ANON | M_FIXED, -1, 0, false, 0),
			 (int64_t)A1);
}

static void machine_free(void)
{
	test_machine_free(S);
	S = NULL;
}

/* CAP_IPC_LOCK as the limit sees it: a 32-page mlock works only with it */
static bool can_lock(struct task *t)
{
	int64_t r = vm_mlock(S, t, A1, 32 * PG);
	ck_assert(r == 0 || r == -KERR_ENOMEM);
	if (!r)
		ck_assert_int_eq(vm_munlock(S, t, A1, 32 * PG), 0);
	return r == 0;
}

/* a new image at A1 to lock after an execve */
static void exec(struct task *t)
{
	ck_assert_int_eq(vm_execve(S, t), 0);
	ck_assert_int_eq(vm_mmap(S, t, A1, 32 * PG, P_RW, M_PRIVATE | M_ANON | M_FIXED, -1, 0, false, 0),
			 (int64_t)A1);
}

START_TEST(leaving_root_drops_everything)
{
	machine(0, true, false);
	ck_assert(can_lock(T));
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RES, NOBODY, NOBODY, NOBODY), 0);
	ck_assert(!can_lock(T));
	/* nothing permitted is left: back to root is refused */
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RES, 0, 0, 0), -KERR_EPERM);
	ck_assert_int_eq(vm_setuid(S, T, SETUID_ONE, 0, 0, 0), -KERR_EPERM);
	ck_assert_int_eq(vm_capset(S, T, CAP_IPC_LOCK_, CAP_IPC_LOCK_), -KERR_EPERM);
	exec(T);
	ck_assert(!can_lock(T));
	machine_free();
}
END_TEST

START_TEST(euid_only_toggles_effective)
{
	machine(0, true, false);
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RES, KEEP, NOBODY, KEEP), 0);
	ck_assert(!can_lock(T));
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RES, KEEP, 0, KEEP), 0); /* 0 is its real uid */
	ck_assert(can_lock(T));
	/* setreuid(-1, nobody): the saved uid follows an euid unlike the real */
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RE, KEEP, NOBODY, KEEP), 0);
	ck_assert(!can_lock(T));
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RE, KEEP, 0, KEEP), 0);
	ck_assert(can_lock(T));
	machine_free();
}
END_TEST

START_TEST(root_exec_restores_capabilities)
{
	machine(0, true, false);
	ck_assert_int_eq(vm_capset(S, T, CAP_ALL_ & ~CAP_IPC_LOCK_, CAP_ALL_), 0);
	ck_assert(!can_lock(T));
	ck_assert_int_eq(vm_capset(S, T, CAP_ALL_, CAP_ALL_), 0); /* still permitted */
	ck_assert(can_lock(T));
	ck_assert_int_eq(vm_capset(S, T, 0, CAP_ALL_ & ~CAP_IPC_LOCK_), 0);
	ck_assert_int_eq(vm_capset(S, T, CAP_IPC_LOCK_, CAP_IPC_LOCK_), -KERR_EPERM);
	ck_assert_int_eq(vm_capset(S, T, CAP_SETUID_, 0), -KERR_EPERM); /* effective outside permitted */
	exec(T); /* uid 0: every capability again */
	ck_assert(can_lock(T));
	machine_free();
}
END_TEST

START_TEST(child_exec_after_mlockall)
{
	machine(0, true, false);
	ck_assert_int_eq(vm_mlockall(S, T, MCL_CURRENT_ | MCL_FUTURE_), 0);
	ck_assert_int_eq(vm_fork(S, T, 17, 2), 2);
	struct task *c = vmsys_task(S, 2, false);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(vm_setuid(S, c, SETUID_RES, NOBODY, NOBODY, NOBODY), 0);
	exec(c);
	struct vm_status st;
	vmsys_status(S, c, &st);
	ck_assert_uint_eq(st.locked_vm, 0); /* MCL_FUTURE did not survive */
	ck_assert(!can_lock(c));
	ck_assert(can_lock(T)); /* the parent is untouched */
	machine_free();
}
END_TEST

START_TEST(ambient_capability_survives_exec)
{
	machine(1000, true, false); /* a non-root uid that holds CAP_IPC_LOCK */
	ck_assert(can_lock(T));
	exec(T);
	ck_assert(can_lock(T));
	/* dropping it from the permitted set takes it out of the ambient set */
	ck_assert_int_eq(vm_capset(S, T, 0, 0), 0);
	exec(T);
	ck_assert(!can_lock(T));
	machine_free();
}
END_TEST

/* real and effective uid nobody, saved uid 0: the permitted set stays,
 * so capset may raise CAP_IPC_LOCK again; execve of a plain file then
 * takes every capability (the saved uid becomes the effective one) */
START_TEST(exec_by_non_root_drops_capability)
{
	machine(0, true, false);
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RES, NOBODY, NOBODY, KEEP), 0);
	ck_assert(!can_lock(T));
	ck_assert_int_eq(vm_capset(S, T, CAP_IPC_LOCK_, CAP_ALL_), 0);
	ck_assert(can_lock(T));
	exec(T);
	ck_assert(!can_lock(T));
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RES, KEEP, 0, KEEP), -KERR_EPERM);
	machine_free();
}
END_TEST

START_TEST(unprivileged_setuid)
{
	machine(1000, false, false);
	ck_assert_int_eq(vm_setuid(S, T, SETUID_ONE, 0, 0, 0), -KERR_EPERM);
	ck_assert_int_eq(vm_setuid(S, T, SETUID_ONE, 1000, 0, 0), 0);
	ck_assert_int_eq(vm_setuid(S, T, SETUID_ONE, KEEP, 0, 0), -KERR_EINVAL);
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RES, 1000, 1000, 1000), 0);
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RE, 0, KEEP, 0), -KERR_EPERM);
	machine_free();
}
END_TEST

/* a plain strace log: its capset of a root process and its setuid calls
 * are taken as they happened */
START_TEST(unknown_runner_trusted)
{
	machine(1000, false, true);
	ck_assert(!can_lock(T));
	ck_assert_int_eq(vm_capset(S, T, CAP_ALL_, CAP_ALL_), 0);
	ck_assert(can_lock(T));
	ck_assert_int_eq(vm_setuid(S, T, SETUID_RES, 0, 0, 0), 0);
	machine_free();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cred");
	TCase *tc = tcase_create("credentials");
	tcase_add_test(tc, leaving_root_drops_everything);
	tcase_add_test(tc, euid_only_toggles_effective);
	tcase_add_test(tc, root_exec_restores_capabilities);
	tcase_add_test(tc, child_exec_after_mlockall);
	tcase_add_test(tc, ambient_capability_survives_exec);
	tcase_add_test(tc, exec_by_non_root_drops_capability);
	tcase_add_test(tc, unprivileged_setuid);
	tcase_add_test(tc, unknown_runner_trusted);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
