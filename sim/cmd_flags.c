/* cmd_flags.c - `vmsim flags` (placeholder until its model lands). */
#include "cmds.h"

#include <stdio.h>

int cmd_flags(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vmsim flags: not available yet in this build\n");
	return 2;
}
