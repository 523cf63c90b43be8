/* Registered I/O buffers, as a storage engine sets them up: an io_uring
 * instance whose rings are mapped, buffers registered once (so the kernel
 * pins them: VmPin), a second registration refused while the first
 * stands, a fork while they are pinned, a buffer in read-only memory
 * refused, and then, without CAP_IPC_LOCK under a 64 KiB RLIMIT_MEMLOCK
 * (as "nobody", then as root without the capability), instances whose
 * rings and buffers are charged to the user: a buffer past the limit is
 * ENOMEM, one within it is pinned. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

struct ring {
	int fd;
	void *sq, *cq, *sqes;
	size_t sq_len, cq_len, sqes_len;
};

static int ring_open(struct ring *r, unsigned entries)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof(p));
	r->fd = (int)syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -1;
	r->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	r->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	r->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	r->sq = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		     IORING_OFF_SQ_RING);
	r->cq = mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		     IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		       IORING_OFF_SQES);
	return r->sq == MAP_FAILED || r->cq == MAP_FAILED || r->sqes == MAP_FAILED ? -1 : 0;
}

static void ring_close(struct ring *r)
{
	munmap(r->sq, r->sq_len);
	munmap(r->cq, r->cq_len);
	munmap(r->sqes, r->sqes_len);
	close(r->fd);
}

static int reg(int fd, struct iovec *iov, unsigned n)
{
	return (int)syscall(__NR_io_uring_register, fd, IORING_REGISTER_BUFFERS, iov, n) ? -errno : 0;
}

static int unreg(int fd)
{
	return (int)syscall(__NR_io_uring_register, fd, IORING_UNREGISTER_BUFFERS, NULL, 0) ? -errno : 0;
}

int main(void)
{
	struct ring r;
	if (ring_open(&r, 8))
		return 1;
	size_t big = 64 * 1024;
	char *buf = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *heap = malloc(8192);
	if (buf == MAP_FAILED || !heap)
		return 1;
	buf[0] = 1; /* one page faulted by the program, the rest by the pin */
	struct iovec iov[3] = { { buf, big }, { NULL, 0 }, { heap, 8192 } };
	int a = reg(r.fd, iov, 3);
	int busy = reg(r.fd, iov, 1);
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		buf[4096] = 2; /* the child's copy: made at fork, the page is pinned */
		_exit(0);
	}
	waitpid(child, NULL, 0);
	buf[8192] = 3;
	int b = unreg(r.fd);
	int nx = unreg(r.fd);
	char *ro = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct iovec riov = { ro, 8192 };
	int fault = reg(r.fd, &riov, 1);
	printf("%d %d %d %d %d\n", a, busy, b, nx, fault);

	/* 64 KiB of RLIMIT_MEMLOCK and no CAP_IPC_LOCK: a new instance's rings
	 * (6.13+) and its buffers are charged to the user's locked_vm.  First
	 * as the unprivileged user "nobody" (a child that gives up root), then
	 * as root without the capability, whose user may hold charges already
	 * (a perf ring buffer of the recorder's, which the trace's header
	 * gives) */
	struct rlimit rl = { 64 * 1024, 64 * 1024 };
	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		return 1;
	for (int as_nobody = 1; as_nobody >= 0; as_nobody--) {
		fflush(stdout);
		pid_t pid = as_nobody ? fork() : 0;
		if (pid > 0) {
			waitpid(pid, NULL, 0);
			continue;
		}
		if (as_nobody && setuid(65534))
			_exit(1);
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
		if (!as_nobody && syscall(SYS_capset, &h, d))
			return 1;
		struct ring u;
		if (ring_open(&u, 8)) {
			printf("setup %d\n", -errno);
		} else {
			int over = reg(u.fd, iov, 1);  /* 64 KiB and the rings: ENOMEM */
			struct iovec small = { buf, 32 * 1024 };
			int within = reg(u.fd, &small, 1);
			int done = unreg(u.fd);
			printf("%d %d %d\n", over, within, done);
			ring_close(&u);
		}
		if (as_nobody) {
			fflush(stdout);
			_exit(0);
		}
	}
	ring_close(&r);
	munmap(ro, 8192);
	munmap(buf, big);
	free(heap);
	return 0;
}
