build-asan/test/test_rng.o: test/test_rng.c test/check.h engine/rng.h \
 engine/internal.h include/fuzzgate.h
test/check.h:
engine/rng.h:
engine/internal.h:
include/fuzzgate.h:
