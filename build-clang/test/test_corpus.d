build-clang/test/test_corpus.o: test/test_corpus.c test/check.h \
  engine/corpus.h engine/novelty.h engine/internal.h include/fuzzgate.h \
  engine/rng.h

test/check.h:

engine/corpus.h:

engine/novelty.h:

engine/internal.h:

include/fuzzgate.h:

engine/rng.h:
