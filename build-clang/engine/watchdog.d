build-clang/engine/watchdog.o: engine/watchdog.c engine/watchdog.h \
  engine/internal.h include/fuzzgate.h engine/exec.h engine/finding.h \
  engine/mutate.h engine/rng.h

engine/watchdog.h:

engine/internal.h:

include/fuzzgate.h:

engine/exec.h:

engine/finding.h:

engine/mutate.h:

engine/rng.h:
