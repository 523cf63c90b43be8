build/sim/main.o: sim/main.c sim/cmds.h
sim/cmds.h:
