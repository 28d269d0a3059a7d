build-clang/test/test_determinism.o: test/test_determinism.c test/check.h \
  test/proc.h

test/check.h:

test/proc.h:
