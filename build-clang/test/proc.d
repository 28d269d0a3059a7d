build-clang/test/proc.o: test/proc.c test/proc.h

test/proc.h:
