build-clang/test/test_gate.o: test/test_gate.c test/check.h test/proc.h \
  include/fuzzgate.h engine/dir.h engine/internal.h

test/check.h:

test/proc.h:

include/fuzzgate.h:

engine/dir.h:

engine/internal.h:
