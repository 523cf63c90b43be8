/* A secret kept in locked memory, as a crypto library keeps a key: the
 * buffer is mlock()ed before the key is written so it never reaches swap,
 * wiped with explicit_bzero() and unlocked before it is freed. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(void)
{
	size_t len = 3 * 4096;
	unsigned char *key = aligned_alloc(4096, len);
	if (!key)
		return 1;
	if (mlock(key, len)) {
		perror("mlock");
		return 1;
	}
	for (size_t i = 0; i < len; i++)
		key[i] = (unsigned char)(i * 131 + 7);
	unsigned sum = 0;
	for (size_t i = 0; i < len; i++)
		sum += key[i];
	explicit_bzero(key, len);
	if (munlock(key, len)) {
		perror("munlock");
		return 1;
	}
	free(key);
	printf("%u\n", sum);
	return 0;
}
