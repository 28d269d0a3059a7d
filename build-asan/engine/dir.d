build-asan/engine/dir.o: engine/dir.c engine/dir.h engine/internal.h \
 include/fuzzgate.h
engine/dir.h:
engine/internal.h:
include/fuzzgate.h:
