build/sim/cmd_diff.o: sim/cmd_diff.c sim/cmds.h
sim/cmds.h:
