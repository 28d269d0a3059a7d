build-asan/engine/driver_main.o: engine/driver_main.c include/fuzzgate.h
include/fuzzgate.h:
