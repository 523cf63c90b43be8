build/sim/cmd_show.o: sim/cmd_show.c sim/cmds.h
sim/cmds.h:
