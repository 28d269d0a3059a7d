build-clang/engine/corpus.o: engine/corpus.c engine/corpus.h \
  engine/novelty.h engine/internal.h include/fuzzgate.h engine/rng.h

engine/corpus.h:

engine/novelty.h:

engine/internal.h:

include/fuzzgate.h:

engine/rng.h:
