build-clang/engine/known.o: engine/known.c engine/known.h \
  engine/internal.h include/fuzzgate.h engine/dir.h

engine/known.h:

engine/internal.h:

include/fuzzgate.h:

engine/dir.h:
