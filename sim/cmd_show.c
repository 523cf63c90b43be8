/* cmd_show.c - `vmsim show` (placeholder until its model lands). */
#include "cmds.h"

#include <stdio.h>

int cmd_show(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vmsim show: not available yet in this build\n");
	return 2;
}
