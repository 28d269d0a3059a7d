build-asan/engine/store.o: engine/store.c engine/finding.h \
 engine/internal.h include/fuzzgate.h
engine/finding.h:
engine/internal.h:
include/fuzzgate.h:
