build-clang/engine/registry.o: engine/registry.c engine/registry.h \
  engine/internal.h include/fuzzgate.h

engine/registry.h:

engine/internal.h:

include/fuzzgate.h:
