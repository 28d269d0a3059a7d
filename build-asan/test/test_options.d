build-asan/test/test_options.o: test/test_options.c test/check.h \
 engine/options.h engine/internal.h include/fuzzgate.h engine/options.def \
 engine/options.def
test/check.h:
engine/options.h:
engine/internal.h:
include/fuzzgate.h:
engine/options.def:
engine/options.def:
