build-asan/targets/inet.o: targets/inet.c include/fuzzgate.h
include/fuzzgate.h:
