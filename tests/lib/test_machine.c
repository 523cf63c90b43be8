/*
 * test_machine.c - the model machine of a Check unit test (test_machine.h).
 */
#include "test_machine.h"

#include <check.h>
#include <string.h>

void test_config(struct vmsys_config *c, const char *kernel)
{
	const struct semantics *sem = semantics_find(kernel);
	ck_assert_ptr_nonnull(sem);
	vmsys_config_default(c, sem);
	c->ram = 256ULL << 20;
	c->cap_ipc_lock = true;
	c->rlimit_memlock = UINT64_MAX;
}

struct vmsys *test_machine_new(const struct vmsys_config *c, struct task **first)
{
	char err[256];
	struct vmsys *s = vmsys_new(c, err, sizeof(err));
	ck_assert_msg(s != NULL, "vmsys_new: %s", err);
	*first = vmsys_task(s, 1, true);
	ck_assert_ptr_nonnull(*first);
	return s;
}

void test_machine_free(struct vmsys *s)
{
	char msg[512];
	ck_assert_msg(vmsys_check_invariants(s, msg, sizeof(msg)) == 0, "invariant: %s", msg);
	vmsys_free(s);
}

struct vm_page_info test_page(struct vmsys *s, struct task *t, uint64_t addr)
{
	struct vm_page_info pi;
	memset(&pi, 0, sizeof(pi));
	vmsys_page(s, t, addr, &pi);
	return pi;
}
