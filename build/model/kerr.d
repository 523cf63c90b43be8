build/model/kerr.o: model/kerr.c model/kerr.h
model/kerr.h:
