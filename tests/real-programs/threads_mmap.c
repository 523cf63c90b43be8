/* Four threads that map, lock, touch, unlock and unmap buffers at the same
 * time, as a threaded server's allocator does: their calls overlap, and
 * each mmap() may get back the range another thread has just unmapped.
 * (vmsim record serializes the memory calls of one process's threads, so
 * the trace has them in the order they took effect.) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/mman.h>

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 50; i++) {
		char *p = mmap(NULL, 16384, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		mlock(p, 4096);
		p[0] = 1;
		p[8192] = 2;
		munlock(p, 4096);
		munmap(p, 16384);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return 1;
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
