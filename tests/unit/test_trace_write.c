/*
 * test_trace_write.c - the canonical writer: exact text for each kind of
 * event, snprintf-style truncation, headers, and read->write giving back
 * the golden lines.
 */
#include "check_run.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static char buf[4096];

static const char *fmt(const struct event *ev)
{
	size_t n = trace_format_event(ev, "x86_64", "6.18", buf, sizeof(buf));
	ck_assert_uint_lt(n, sizeof(buf));
	ck_assert_uint_eq(strlen(buf), n);
	return buf;
}

static struct event call(enum sysno s, unsigned nargs, uint64_t a0, uint64_t a1,
			 uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	struct event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_CALL;
	ev.sys = s;
	ev.nargs = nargs;
	ev.args[0] = a0; ev.args[1] = a1; ev.args[2] = a2;
	ev.args[3] = a3; ev.args[4] = a4; ev.args[5] = a5;
	ev.timestamp = -1;
	ev.res = RES_VALUE;
	return ev;
}

/* read one line back and write it again */
static const char *rewrite(const char *line)
{
	char err[256];
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	fputs(line, f);
	rewind(f);
	struct trace_reader *r = trace_open_stream(f, "t", NULL, NULL, err, sizeof(err));
	ck_assert_ptr_nonnull(r);
	struct event ev;
	int rc = trace_read(r, &ev);
	ck_assert_msg(rc == 1, "%s: %s", line, trace_error(r));
	fmt(&ev);
	trace_close(r);
	fclose(f);
	return buf;
}

START_TEST(calls)
{
	struct event ev = call(SYS_MMAP, 6, 0, 8192, 3, 0x22, (uint64_t)-1, 0);
	ev.value = 0x7f0000000000;
	ck_assert_str_eq(fmt(&ev), "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000");
	ev.res = RES_ERROR;
	ev.err = 12;
	ck_assert_str_eq(fmt(&ev), "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = -1 ENOMEM (Cannot allocate memory)");
	ev.res = RES_UNKNOWN;
	ev.pid = 42;
	ck_assert_str_eq(fmt(&ev), "42 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = ?");
	ev.timestamp = 12.5;
	ck_assert_str_eq(fmt(&ev), "42 12.500000 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = ?");

	ev = call(SYS_MREMAP, 5, 0x1000, 4096, 8192, 3, 0x400000, 0);
	ev.value = 0x400000;
	ck_assert_str_eq(fmt(&ev), "mremap(0x1000, 4096, 8192, MREMAP_MAYMOVE|MREMAP_FIXED, 0x400000) = 0x400000");
	ev.nargs = 4;
	ev.args[3] = 1;
	ck_assert_str_eq(fmt(&ev), "mremap(0x1000, 4096, 8192, MREMAP_MAYMOVE) = 0x400000");

	ev = call(SYS_MLOCKALL, 1, 8, 0, 0, 0, 0, 0);
	ev.res = RES_ERROR;
	ev.err = 22;
	ck_assert_str_eq(fmt(&ev), "mlockall(0x8) = -1 EINVAL (Invalid argument)");

	ev = call(SYS_OPENAT, 4, (uint64_t)-100, 0, 02 | 0100 | 01000, 0600, 0, 0);
	ev.str.p = "/dev/shm/a\"b\n\001";
	ev.str.len = strlen(ev.str.p);
	ev.value = 3;
	ck_assert_str_eq(fmt(&ev), "openat(AT_FDCWD, \"/dev/shm/a\\\"b\\n\\001\", O_RDWR|O_CREAT|O_TRUNC, 0600) = 3");
	ev.nargs = 3;
	ev.args[2] = 0;
	ck_assert_str_eq(fmt(&ev), "openat(AT_FDCWD, \"/dev/shm/a\\\"b\\n\\001\", O_RDONLY) = 3");

	ev = call(SYS_PRLIMIT64, 2, 0, 8, 0, 0, 0, 0);
	ev.has_rlim = true;
	ev.rlim_cur = 16384;
	ev.rlim_max = RLIM_INFINITY_VALUE;
	ev.value = 0;
	ck_assert_str_eq(fmt(&ev), "prlimit64(0, RLIMIT_MEMLOCK, {rlim_cur=16*1024, rlim_max=RLIM64_INFINITY}, NULL) = 0");

	ev = call(SYS_CAPSET, 0, 0, 0, 0, 0, 0, 0);
	ev.cap_effective = (1u << 14) | 1;
	ck_assert_str_eq(fmt(&ev), "capset({version=_LINUX_CAPABILITY_VERSION_3, pid=0}, {effective=1<<CAP_CHOWN|1<<CAP_IPC_LOCK, permitted=1<<CAP_CHOWN|1<<CAP_IPC_LOCK, inheritable=0}) = 0");

	ev = call(SYS_CLONE, 1, 0x200000 | 0x1000000 | 17, 0, 0, 0, 0, 0);
	ev.value = 12;
	ck_assert_str_eq(fmt(&ev), "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD) = 12");

	ev = call(SYS_FALLOCATE, 4, 3, 3, 0, 4096, 0, 0);
	ev.value = 0;
	ck_assert_str_eq(fmt(&ev), "fallocate(3, FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE, 0, 4096) = 0");

	ev = call(SYS_FAULT, 2, 0x7f0000, ACC_READ | ACC_WRITE, 0, 0, 0, 0);
	ev.value = FR_MAJOR;
	ck_assert_str_eq(fmt(&ev), "fault(0x7f0000, READ|WRITE) = MAJOR");

	ev = call(SYS_TOUCH, 3, 0x7f0000, 8192, ACC_WRITE, 0, 0, 0);
	ev.value = 2;
	ck_assert_str_eq(fmt(&ev), "touch(0x7f0000, 8192, WRITE) = 2");

	ev = call(SYS_UNKNOWN, 0, 0, 0, 0, 0, 0, 0);
	ev.name.p = "wait4";
	ev.name.len = 5;
	ev.args_text.p = "-1, NULL, 0, NULL";
	ev.args_text.len = strlen(ev.args_text.p);
	ev.res = RES_ERROR;
	ev.err = 10;
	ck_assert_str_eq(fmt(&ev), "wait4(-1, NULL, 0, NULL) = -1 ECHILD (No child processes)");
}
END_TEST

/* mount, umount2 and unshare read and written back, NULL strings kept */
START_TEST(mount_calls)
{
	ck_assert_str_eq(rewrite("mount(\"none\", \"/tmp\", \"ramfs\", 0, NULL) = 0\n"),
			 "mount(\"none\", \"/tmp\", \"ramfs\", 0, NULL) = 0");
	ck_assert_str_eq(rewrite("mount(NULL, \"/\", NULL, MS_REC|MS_PRIVATE, NULL) = 0\n"),
			 "mount(NULL, \"/\", NULL, MS_REC|MS_PRIVATE, NULL) = 0");
	ck_assert_str_eq(rewrite("mount(\"/a\", \"/b\", 0x7ffd1000, MS_BIND, NULL) = 0\n"),
			 "mount(\"/a\", \"/b\", NULL, MS_BIND, NULL) = 0");
	ck_assert_str_eq(rewrite("mount(\"none\", \"/m\", \"tmpfs\", MS_MGC_VAL|MS_NOSUID, \"size=1m\") = -1 EPERM (Operation not permitted)\n"),
			 "mount(\"none\", \"/m\", \"tmpfs\", MS_MGC_VAL|MS_NOSUID, NULL) = -1 EPERM (Operation not permitted)");
	ck_assert_str_eq(rewrite("umount2(\"/tmp\", MNT_DETACH) = 0\n"), "umount2(\"/tmp\", MNT_DETACH) = 0");
	ck_assert_str_eq(rewrite("umount(\"/tmp\") = 0\n"), "umount2(\"/tmp\", 0) = 0");
	ck_assert_str_eq(rewrite("unshare(CLONE_NEWNS|CLONE_NEWPID) = 0\n"), "unshare(CLONE_NEWNS|CLONE_NEWPID) = 0");
	ck_assert_str_eq(rewrite("chdir(\"/tmp\") = 0\n"), "chdir(\"/tmp\") = 0");
	ck_assert_str_eq(rewrite("fchdir(3</srv>) = 0\n"), "fchdir(3) = 0");
}
END_TEST

START_TEST(other_events)
{
	struct event ev;
	memset(&ev, 0, sizeof(ev));
	ev.timestamp = -1;
	ev.type = EV_SIGNAL;
	ev.signo = 11;
	ev.si_code.p = "SEGV_ACCERR";
	ev.si_code.len = 11;
	ev.has_si_addr = true;
	ev.si_addr = 0x1234;
	ck_assert_str_eq(fmt(&ev), "--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_ACCERR, si_addr=0x1234} ---");
	ev.type = EV_KILLED;
	ev.signo = 9;
	ev.pid = 3;
	ck_assert_str_eq(fmt(&ev), "3 +++ killed by SIGKILL +++");
	ev.type = EV_EXITED;
	ev.exit_status = 1;
	ck_assert_str_eq(fmt(&ev), "3 +++ exited with 1 +++");

	memset(&ev, 0, sizeof(ev));
	ev.timestamp = -1;
	ev.type = EV_EXPECT;
	ev.exp.kind = EXP_FIELD;
	ev.exp.field.p = "VmLck";
	ev.exp.field.len = 5;
	ev.exp.value = 32;
	ev.exp.value_in_kb = true;
	ck_assert_str_eq(fmt(&ev), "expect(VmLck) = 32 kB");
	ev.exp.value = 18446744073709551600ULL;
	ck_assert_str_eq(fmt(&ev), "expect(VmLck) = 18446744073709551600 kB");
	ev.exp.kind = EXP_VMAS;
	ev.exp.addr = 0;
	ev.exp.end = 0x800000000000;
	ev.exp.value = 3;
	ck_assert_str_eq(fmt(&ev), "expect(vmas, 0, 0x800000000000) = 3");
	ev.exp.kind = EXP_VMA;
	ev.exp.addr = 0x400000;
	ev.exp.none = true;
	ck_assert_str_eq(fmt(&ev), "expect(vma, 0x400000) = none");
	ev.exp.none = false;
	ev.exp.nkv = 2;
	ev.exp.kv[0].key = (struct strslice){ "Rss", 3 };
	ev.exp.kv[0].num = 8192;
	ev.exp.kv[0].is_num = true; /* no text: written as a plain number */
	ev.exp.kv[1].key = (struct strslice){ "VmFlags", 7 };
	ev.exp.kv[1].text = (struct strslice){ "rd wr", 5 };
	ev.exp.kv[1].is_str = true;
	ck_assert_str_eq(fmt(&ev), "expect(vma, 0x400000) = {Rss=8192, VmFlags=\"rd wr\"}");
}
END_TEST

START_TEST(truncation)
{
	struct event ev = call(SYS_MUNMAP, 2, 0x1000, 4096, 0, 0, 0, 0);
	char small[8];
	size_t n = trace_format_event(&ev, NULL, NULL, small, sizeof(small));
	ck_assert_uint_eq(n, strlen("munmap(0x1000, 4096) = 0"));
	ck_assert_str_eq(small, "munmap(");
	ck_assert_uint_eq(trace_format_event(&ev, NULL, NULL, NULL, 0), n);
}
END_TEST

START_TEST(golden_lines_reproduce)
{
	static const char *const lines[] = {
		"mmap(NULL, 131072, PROT_READ|PROT_WRITE|PROT_EXEC, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7ffff7fd7000",
		"touch(0x7ffff7fd7000, 131072, WRITE) = 32",
		"mremap(0x7ffff7fd7000, 131072, 131072, MREMAP_MAYMOVE|MREMAP_FIXED, 0x400000) = 0x400000",
		"expect(vma, 0x400000) = {start=0x400000, end=0x420000, Rss=128 kB, Locked=0 kB, VmFlags=\"rd wr ex mr mw me ac\"}",
		"expect(vmas, 0, 0x800000000000) = 1",
		"expect(VmLck) = 0 kB",
		"openat(AT_FDCWD, \"/dev/shm/kscen-r0001-shm\", O_RDWR|O_CREAT|O_TRUNC, 0600) = 3",
		"mmap(NULL, 36864, PROT_READ|PROT_WRITE, MAP_SHARED, 3, 0xf000) = 0x7ffff7ff6000",
		"expect(page, 0x7ffff7ff6000) = {present=1, mlocked=1, unevictable=1, lru=1}",
		"mlock(0x7ffff7ff6000, 16384) = -1 ENOMEM (Cannot allocate memory)",
		"mlock2(0x7ffff7ff6000, 16384, MLOCK_ONFAULT) = 0",
		"madvise(0x7ffff7ff6000, 16384, MADV_DONTNEED_LOCKED) = 0",
		"prlimit64(0, RLIMIT_MEMLOCK, {rlim_cur=16*1024, rlim_max=8192*1024}, NULL) = 0",
		"1 wait4(2, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 2",
		"2 +++ exited with 0 +++",
		"exit_group(0) = ?",
		"unlink(\"/tmp/kscen-r0001-ext0\") = 0",
		"mlockall(MCL_CURRENT|MCL_ONFAULT) = 0",
		"ftruncate(3, 65536) = 0",
		"close(3) = 0",
		"fork() = 2",
		"munlockall() = 0",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		ck_assert_str_eq(rewrite(lines[i]), lines[i]);
}
END_TEST

START_TEST(header)
{
	struct trace_header h;
	memset(&h, 0, sizeof(h));
	h.has_arch = true;
	strcpy(h.arch, "x86_64");
	h.has_ram = true;
	h.ram = UINT64_C(24) << 30;
	h.has_swap = true;
	h.has_rlimit_memlock = true;
	h.rlimit_memlock = RLIM_INFINITY_VALUE;
	h.has_zero_page = true;
	h.has_page_size = true;
	h.page_size = 4096;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	trace_write_header(f, &h);
	fclose(f);
	ck_assert_str_eq(text, "# vmsim-trace: 1\n# arch: x86_64\n# page-size: 4096\n# ram: 24G\n"
			       "# swap: 0\n# rlimit-memlock: unlimited\n# zero-page: no\n");
	free(text);
	h.has_ramfs = true;
	strcpy(h.ramfs, "/mnt/r,/a\\040b");
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	trace_write_header(f, &h);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "# zero-page: no\n# ramfs: /mnt/r,/a\\040b\n"));
	free(text);
}
END_TEST

START_TEST(write_event_stream)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct event ev = call(SYS_CLOSE, 1, 3, 0, 0, 0, 0, 0);
	ck_assert_int_eq(trace_write_event(f, &ev, NULL, NULL), 0);
	/* a line longer than the writer's stack buffer */
	struct event big = call(SYS_UNLINK, 0, 0, 0, 0, 0, 0, 0);
	char *path = malloc(5000);
	memset(path, 'p', 5000);
	big.str.p = path;
	big.str.len = 5000;
	ck_assert_int_eq(trace_write_event(f, &big, NULL, NULL), 0);
	fclose(f);
	ck_assert_uint_eq(len, strlen("close(3) = 0\n") + 5000 + strlen("unlink(\"\") = 0\n"));
	ck_assert(strncmp(text, "close(3) = 0\nunlink(\"ppp", 24) == 0);
	free(path);
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trace_write");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, calls);
	tcase_add_test(tc, mount_calls);
	tcase_add_test(tc, other_events);
	tcase_add_test(tc, truncation);
	tcase_add_test(tc, golden_lines_reproduce);
	tcase_add_test(tc, header);
	tcase_add_test(tc, write_event_stream);
	suite_add_tcase(s, tc);
	return run_check_suite(s);
}
