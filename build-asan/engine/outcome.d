build-asan/engine/outcome.o: engine/outcome.c engine/outcome.h \
 engine/finding.h engine/internal.h include/fuzzgate.h engine/hex.h
engine/outcome.h:
engine/finding.h:
engine/internal.h:
include/fuzzgate.h:
engine/hex.h:
