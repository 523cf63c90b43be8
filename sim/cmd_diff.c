/* cmd_diff.c - `vmsim diff` (placeholder until its model lands). */
#include "cmds.h"

#include <stdio.h>

int cmd_diff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vmsim diff: not available yet in this build\n");
	return 2;
}
