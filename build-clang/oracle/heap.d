build-clang/oracle/heap.o: oracle/heap.c oracle/heap.h engine/internal.h \
  include/fuzzgate.h engine/exec.h engine/finding.h engine/mutate.h \
  engine/rng.h oracle/heap_real.h

oracle/heap.h:

engine/internal.h:

include/fuzzgate.h:

engine/exec.h:

engine/finding.h:

engine/mutate.h:

engine/rng.h:

oracle/heap_real.h:
