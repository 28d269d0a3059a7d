build-clang/engine/hash.o: engine/hash.c engine/internal.h \
  include/fuzzgate.h

engine/internal.h:

include/fuzzgate.h:
