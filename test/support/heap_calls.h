/* test/support/heap_calls.h — the malloc family called as a program calls it, on the test's
 * thread or on another, for the heap oracle's tests.
 *
 * Every call goes through a volatile pointer: the compiler may not fold a malloc/free pair
 * or see through the allocator, so each call reaches the interposed one (oracle/heap_malloc.c).
 */
#ifndef FG_TEST_HEAP_CALLS_H
#define FG_TEST_HEAP_CALLS_H

#include <stddef.h>

#define FGT_ROOMY ((size_t)1 << 30) /* an allowance no test reaches */

extern void *(*volatile fgt_malloc)(size_t);
extern void *(*volatile fgt_calloc)(size_t, size_t);
extern void *(*volatile fgt_realloc)(void *, size_t);
extern void (*volatile fgt_free)(void *);
extern void *(*volatile fgt_memalign)(size_t, size_t);
extern void *(*volatile fgt_aligned_alloc)(size_t, size_t);
extern int (*volatile fgt_posix_memalign)(void **, size_t, size_t);
extern size_t (*volatile fgt_usable)(void *);

/* 1 when the n bytes at p all hold c. */
int fgt_all_are(const void *p, int c, size_t n);

/* Another thread, started before the registry is armed (starting a thread may allocate:
 * under ASan it does, on both threads), doing one job at a time for the test. One at a
 * time: start, any number of jobs, stop. */
void fgt_other_start(void);
void fgt_other_stop(void);
/* Runs fn(arg) on the other thread and waits for it; returns what fn returned. */
void *fgt_on_thread(void *(*fn)(void *), void *arg);

/* Jobs for it: malloc of (uintptr_t)size bytes, and free of p (returns NULL). */
void *fgt_thread_malloc(void *size);
void *fgt_thread_free(void *p);

#endif
