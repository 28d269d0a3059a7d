build-clang/engine/report.o: engine/report.c engine/session.h \
  engine/options.h engine/internal.h include/fuzzgate.h \
  engine/options.def engine/outcome.h engine/finding.h

engine/session.h:

engine/options.h:

engine/internal.h:

include/fuzzgate.h:

engine/options.def:

engine/outcome.h:

engine/finding.h:
