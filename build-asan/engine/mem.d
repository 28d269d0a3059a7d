build-asan/engine/mem.o: engine/mem.c engine/internal.h \
 include/fuzzgate.h oracle/heap.h engine/internal.h
engine/internal.h:
include/fuzzgate.h:
oracle/heap.h:
engine/internal.h:
