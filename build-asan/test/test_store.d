build-asan/test/test_store.o: test/test_store.c test/check.h \
 engine/finding.h engine/internal.h include/fuzzgate.h
test/check.h:
engine/finding.h:
engine/internal.h:
include/fuzzgate.h:
