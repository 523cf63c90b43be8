build/sim/cmd_flags.o: sim/cmd_flags.c sim/cmds.h
sim/cmds.h:
