/* main.c - the vmsim program: the command line is sim/cli/cli.c's. */
#include "cli.h"

int main(int argc, char **argv)
{
	return vmsim_main(argc, argv);
}
