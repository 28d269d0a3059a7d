build-asan/engine/session.o: engine/session.c engine/session.h \
 engine/options.h engine/internal.h include/fuzzgate.h engine/options.def \
 engine/outcome.h engine/finding.h engine/corpus.h engine/novelty.h \
 engine/rng.h engine/dir.h engine/known.h engine/exec.h engine/mutate.h \
 engine/registry.h engine/watchdog.h
engine/session.h:
engine/options.h:
engine/internal.h:
include/fuzzgate.h:
engine/options.def:
engine/outcome.h:
engine/finding.h:
engine/corpus.h:
engine/novelty.h:
engine/rng.h:
engine/dir.h:
engine/known.h:
engine/exec.h:
engine/mutate.h:
engine/registry.h:
engine/watchdog.h:
