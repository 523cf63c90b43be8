build/sim/cmd_replay.o: sim/cmd_replay.c sim/cmds.h
sim/cmds.h:
