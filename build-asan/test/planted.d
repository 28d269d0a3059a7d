build-asan/test/planted.o: test/planted.c include/fuzzgate.h
include/fuzzgate.h:
