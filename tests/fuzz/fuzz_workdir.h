/*
 * fuzz_workdir.h - the working directory of the fuzz targets that run
 * commands (fuzz_cli, fuzz_merge): a fresh temporary directory the
 * process moves into, removed with what the runs left in it when the
 * fuzzer exits; standard input and output are /dev/null.
 */
#ifndef VMSIM_FUZZ_WORKDIR_H
#define VMSIM_FUZZ_WORKDIR_H

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_workdir[64];

static int fuzz_remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

static void fuzz_workdir_remove(void)
{
	if (chdir("/") || nftw(fuzz_workdir, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS))
		perror("fuzz: removing the working directory");
}

/* /tmp/vmsim-fuzz-NAME.XXXXXX, entered; exits on failure */
static void fuzz_workdir_enter(const char *name)
{
	snprintf(fuzz_workdir, sizeof(fuzz_workdir), "/tmp/vmsim-fuzz-%s.XXXXXX", name);
	if (!mkdtemp(fuzz_workdir) || chdir(fuzz_workdir)) {
		perror("fuzz: working directory");
		exit(1);
	}
	atexit(fuzz_workdir_remove);
	int null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0) {
		perror("fuzz: /dev/null");
		exit(1);
	}
	close(null);
}

#endif
