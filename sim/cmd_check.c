/* cmd_check.c - `vmsim check` (placeholder until its model lands). */
#include "cmds.h"

#include <stdio.h>

int cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vmsim check: not available yet in this build\n");
	return 2;
}
