build-clang/test/test_hex.o: test/test_hex.c test/check.h engine/hex.h \
  engine/internal.h include/fuzzgate.h

test/check.h:

engine/hex.h:

engine/internal.h:

include/fuzzgate.h:
