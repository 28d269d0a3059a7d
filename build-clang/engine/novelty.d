build-clang/engine/novelty.o: engine/novelty.c engine/novelty.h \
  engine/internal.h include/fuzzgate.h

engine/novelty.h:

engine/internal.h:

include/fuzzgate.h:
