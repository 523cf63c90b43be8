/* threads.c - threads and a forked child mapping concurrently, so that
 * strace -f writes "<unfinished ...>" and "<... NAME resumed>" lines. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void *worker(void *arg)
{
	long pg = sysconf(_SC_PAGESIZE);
	(void)arg;
	for (int i = 0; i < 25; i++) {
		char *p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			continue;
		p[0] = 1;
		mlock(p, pg);
		munmap(p, 4 * pg);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	pid_t c = fork();
	if (c == 0) {
		worker(NULL);
		_exit(0);
	}
	worker(NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	waitpid(c, NULL, 0);
	return 0;
}
