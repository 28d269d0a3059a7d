build-clang/targets/options.o: targets/options.c include/fuzzgate.h \
  engine/options.h engine/internal.h engine/options.def

include/fuzzgate.h:

engine/options.h:

engine/internal.h:

engine/options.def:
