build/sim/cmd_check.o: sim/cmd_check.c sim/cmds.h
sim/cmds.h:
