build-clang/engine/errors.o: engine/errors.c engine/internal.h \
  include/fuzzgate.h

engine/internal.h:

include/fuzzgate.h:
