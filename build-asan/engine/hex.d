build-asan/engine/hex.o: engine/hex.c engine/hex.h engine/internal.h \
 include/fuzzgate.h
engine/hex.h:
engine/internal.h:
include/fuzzgate.h:
