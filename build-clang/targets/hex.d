build-clang/targets/hex.o: targets/hex.c include/fuzzgate.h engine/hex.h \
  engine/internal.h

include/fuzzgate.h:

engine/hex.h:

engine/internal.h:
