/* cmd_replay.c - `vmsim replay` (placeholder until its model lands). */
#include "cmds.h"

#include <stdio.h>

int cmd_replay(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vmsim replay: not available yet in this build\n");
	return 2;
}
