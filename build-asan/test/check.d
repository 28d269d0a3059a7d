build-asan/test/check.o: test/check.c test/check.h engine/options.h \
 engine/internal.h include/fuzzgate.h engine/options.def
test/check.h:
engine/options.h:
engine/internal.h:
include/fuzzgate.h:
engine/options.def:
