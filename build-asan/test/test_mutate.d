build-asan/test/test_mutate.o: test/test_mutate.c test/check.h \
 engine/mutate.h engine/rng.h engine/internal.h include/fuzzgate.h
test/check.h:
engine/mutate.h:
engine/rng.h:
engine/internal.h:
include/fuzzgate.h:
