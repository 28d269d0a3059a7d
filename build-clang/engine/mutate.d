build-clang/engine/mutate.o: engine/mutate.c engine/mutate.h engine/rng.h \
  engine/internal.h include/fuzzgate.h

engine/mutate.h:

engine/rng.h:

engine/internal.h:

include/fuzzgate.h:
