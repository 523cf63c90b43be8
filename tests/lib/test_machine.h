/*
 * test_machine.h - the model machine of a Check unit test: a semantics'
 * defaults with 256 MiB of RAM, CAP_IPC_LOCK and no lock limit (a test
 * changes what it is about before test_machine_new()), its first process
 * (pid 1), and at the end the invariant walk before it is freed.  Every
 * step is asserted with Check: a test that gets a machine has one.
 *
 * May call: the public model (vmsys.h), Check.
 */
#ifndef VMSIM_TEST_MACHINE_H
#define VMSIM_TEST_MACHINE_H

#include "vmsys.h"

void test_config(struct vmsys_config *c, const char *kernel);
struct vmsys *test_machine_new(const struct vmsys_config *c, struct task **first);
void test_machine_free(struct vmsys *s);
/* pagemap + kpageflags of addr in t (present = 0 where nothing maps it) */
struct vm_page_info test_page(struct vmsys *s, struct task *t, uint64_t addr);

#endif
