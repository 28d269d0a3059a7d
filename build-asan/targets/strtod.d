build-asan/targets/strtod.o: targets/strtod.c include/fuzzgate.h
include/fuzzgate.h:
