/*
 * child.c - the traced process of the vmsim recorder: a freestanding static
 * program (no libc, raw syscalls) whose whole image is one 128 KiB range at
 * 0x400000 (child.ld).  It runs on a stack inside its image and executes one
 * command per message read from fd 0, replying on fd 1 (see proto.h).
 */
#include "proto.h"

#define NR_read 0
#define NR_write 1
#define NR_getpid 39
#define NR_fork 57
#define NR_wait4 61
#define NR_getrusage 98
#define NR_exit_group 231

extern char rec_stack[];
char rec_stack[32768] __attribute__((aligned(64)));
static struct rec_cmd cmd;
static struct rec_reply rep;
static char strbuf[REC_STRMAX] __attribute__((aligned(64)));
static char xbuf[REC_XBUF] __attribute__((aligned(4096)));
static long ru[2][18];

static long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall" : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

void *memset(void *d, int c, unsigned long n);
void *memcpy(void *d, const void *s, unsigned long n);
void *memset(void *d, int c, unsigned long n)
{
	volatile char *p = d;
	while (n--) *p++ = (char)c;
	return d;
}
void *memcpy(void *d, const void *s, unsigned long n)
{
	volatile char *p = d;
	const volatile char *q = s;
	while (n--) *p++ = *q++;
	return d;
}

static int readfull(void *b, long n)
{
	char *p = b;
	while (n > 0) {
		long r = sys6(NR_read, 0, (long)p, n, 0, 0, 0);
		if (r <= 0) return -1;
		p += r; n -= r;
	}
	return 0;
}

static void reply(long ret, long aux)
{
	rep.ret = ret;
	rep.aux = aux;
	rep.self = (long)sys6(NR_getpid, 0, 0, 0, 0, 0, 0);
	rep.strbuf = (long)strbuf;
	rep.xbuf = (long)xbuf;
	sys6(NR_write, 1, (long)&rep, sizeof rep, 0, 0, 0);
}

static long faults(int i)
{
	return ru[i][8] + ru[i][9]; /* ru_minflt, ru_majflt (after 2 timevals) */
}

/* Copy [0x400000, +len) to dst and move dst over it, touching no memory
 * between the copy and the return of mremap: the stack inside the image is
 * the same in the copy as in the original when execution continues there. */
static long copy_and_move(long dst, long len, long *nfaults)
{
	long ret;
	volatile char *src = (volatile char *)REC_IMAGE;
	for (long i = 0; i < len; i += 4096) (void)src[i]; /* fault the source in first */
	ru[0][0] = ru[1][0] = 0; /* and take the COW faults of the rusage buffers */
	sys6(NR_getrusage, 0, (long)ru[0], 0, 0, 0, 0);
	register long r10 __asm__("r10") = 3; /* MREMAP_MAYMOVE|MREMAP_FIXED */
	register long r8 __asm__("r8") = REC_IMAGE;
	register long r11 __asm__("r11") = len;
	__asm__ volatile(
		"mov %%rdi, %%r9\n\t"       /* keep dst */
		"mov %%rsi, %%rcx\n\t"      /* count */
		"mov %%rdx, %%rsi\n\t"      /* src */
		"cld\n\trep movsb\n\t"
		"mov %%r9, %%rdi\n\t"       /* old_address = dst */
		"mov %%r11, %%rsi\n\t"      /* old_len */
		"mov %%r11, %%rdx\n\t"      /* new_len */
		"mov $25, %%eax\n\t"
		"syscall\n\t"
		: "=a"(ret)
		: "D"(dst), "S"(len), "d"((long)REC_IMAGE), "r"(r10), "r"(r8), "r"(r11)
		: "rcx", "r9", "memory", "cc");
	sys6(NR_getrusage, 0, (long)ru[1], 0, 0, 0, 0);
	*nfaults = faults(1) - faults(0);
	return ret;
}

static long touch(long addr, long len, long mode)
{
	ru[0][0] = ru[1][0] = 0;
	sys6(NR_getrusage, 0, (long)ru[0], 0, 0, 0, 0);
	if (mode & 2) {
		for (long i = 0; i < len; i += 4096) ((volatile char *)addr)[i] = 'w';
	} else {
		for (long i = 0; i < len; i += 4096) (void)((volatile char *)addr)[i];
	}
	sys6(NR_getrusage, 0, (long)ru[1], 0, 0, 0, 0);
	return faults(1) - faults(0);
}

static long subst(long a)
{
	if (a == REC_ARG_STR) return (long)strbuf;
	if (a == REC_ARG_XBUF) return (long)xbuf;
	return a;
}

__attribute__((noreturn, used)) void child_main(void);
__attribute__((noreturn, used)) void child_main(void)
{
	for (long i = 0; i < REC_XBUF; i++) xbuf[i] = 'x';
	reply(0, 0); /* hello */
	for (;;) {
		if (readfull(&cmd, sizeof cmd)) sys6(NR_exit_group, 99, 0, 0, 0, 0, 0);
		switch (cmd.op) {
		case REC_SYSCALL: {
			long a[6];
			for (int i = 0; i < REC_STRMAX; i++) strbuf[i] = cmd.str[i];
			for (int i = 0; i < 6; i++) a[i] = subst(cmd.a[i]);
			long r = sys6(cmd.nr, a[0], a[1], a[2], a[3], a[4], a[5]);
			reply(r, 0);
			break;
		}
		case REC_TOUCH:
			reply(0, touch(cmd.a[0], cmd.a[1], cmd.a[2]));
			break;
		case REC_COPYMOVE: {
			long nf = 0;
			long r = copy_and_move(cmd.a[0], cmd.a[1], &nf);
			reply(r, nf);
			break;
		}
		case REC_FORK: {
			long pid = sys6(NR_fork, 0, 0, 0, 0, 0, 0);
			if (pid == 0) {
				reply(0, 0);
				break;
			}
			int status = 0;
			long r = sys6(NR_wait4, pid, (long)&status, 0, 0, 0, 0);
			reply(r, status);
			break;
		}
		case REC_EXIT:
			sys6(NR_exit_group, cmd.a[0], 0, 0, 0, 0, 0);
			break;
		default:
			reply(-22, 0);
		}
	}
}

__asm__(".section .text.start,\"ax\"\n"
	".globl _start\n"
	"_start:\n\t"
	"lea rec_stack+32768(%rip), %rsp\n\t"
	"and $-16, %rsp\n\t"
	"call child_main\n\t"
	"hlt\n"
	".previous\n");
