build-clang/engine/exec.o: engine/exec.c engine/exec.h engine/finding.h \
  engine/internal.h include/fuzzgate.h engine/mutate.h engine/rng.h \
  oracle/heap.h engine/watchdog.h

engine/exec.h:

engine/finding.h:

engine/internal.h:

include/fuzzgate.h:

engine/mutate.h:

engine/rng.h:

oracle/heap.h:

engine/watchdog.h:
