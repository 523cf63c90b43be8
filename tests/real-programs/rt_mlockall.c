/* A real-time program's start-up: lock everything now and from now on,
 * then start a worker thread (its stack is a new mapping, locked by
 * MCL_FUTURE) and allocate its working memory. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void *worker(void *arg)
{
	char *buf = malloc(256 * 1024); /* above the mmap threshold: a locked mapping */
	if (!buf)
		return NULL;
	memset(buf, 1, 256 * 1024);
	*(long *)arg = buf[4096];
	free(buf);
	return NULL;
}

int main(void)
{
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		perror("mlockall");
		return 1;
	}
	long out = 0;
	pthread_t t;
	if (pthread_create(&t, NULL, worker, &out) || pthread_join(t, NULL))
		return 1;
	char *small = malloc(1000);
	if (!small)
		return 1;
	memset(small, 2, 1000);
	free(small);
	munlockall();
	printf("%ld\n", out);
	return 0;
}
