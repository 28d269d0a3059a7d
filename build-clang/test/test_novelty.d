build-clang/test/test_novelty.o: test/test_novelty.c test/check.h \
  engine/novelty.h engine/internal.h include/fuzzgate.h

test/check.h:

engine/novelty.h:

engine/internal.h:

include/fuzzgate.h:
