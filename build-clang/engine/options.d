build-clang/engine/options.o: engine/options.c engine/options.h \
  engine/internal.h include/fuzzgate.h engine/options.def

engine/options.h:

engine/internal.h:

include/fuzzgate.h:

engine/options.def:
