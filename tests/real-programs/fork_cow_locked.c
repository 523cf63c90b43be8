/* fork() of a process with locked memory: the child does not inherit the
 * lock (VM_LOCKED is cleared in the child's VMAs), its writes copy the
 * pages, the parent's stay locked. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	size_t len = 8 * 4096;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mlock(p, len))
		return 1;
	memset(p, 'p', len);
	pid_t c = fork();
	if (c < 0)
		return 1;
	if (c == 0) {
		p[0] = 'c';
		p[3 * 4096] = 'c';
		_exit(p[4096] == 'p' ? 0 : 1);
	}
	int st;
	if (waitpid(c, &st, 0) != c)
		return 1;
	p[4096] = 'q';
	munlock(p, len);
	munmap(p, len);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
