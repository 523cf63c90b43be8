/* forks.c - four children that each map a page and exit; the parent waits
 * for them and then mlocks a page.  Recorded to a terminal, strace splices
 * "strace: Process N attached" into the clone() line and switches to the
 * "[pid N] " prefix while two processes live. */
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	for (int k = 0; k < 4; k++) {
		if (fork() == 0) {
			mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	static char page[4096] __attribute__((aligned(4096)));
	mlock(page, sizeof(page));
	return 0;
}
