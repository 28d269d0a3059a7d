/* test/support/heap_calls.c — the malloc family through volatile pointers, and another
 * thread to call it on (heap_calls.h). */
#include "test/support/heap_calls.h"

#include "test/support/check.h"

#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdlib.h>

void *(*volatile fgt_malloc)(size_t) = malloc;
void *(*volatile fgt_calloc)(size_t, size_t) = calloc;
void *(*volatile fgt_realloc)(void *, size_t) = realloc;
void (*volatile fgt_free)(void *) = free;
void *(*volatile fgt_memalign)(size_t, size_t) = memalign;
void *(*volatile fgt_aligned_alloc)(size_t, size_t) = aligned_alloc;
int (*volatile fgt_posix_memalign)(void **, size_t, size_t) = posix_memalign;
size_t (*volatile fgt_usable)(void *) = malloc_usable_size;

int fgt_all_are(const void *p, int c, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)c)
            return 0;
    return 1;
}

/* The other thread (heap_calls.h). Process-wide because the tests are functions with no
 * context; touched by the test's thread, and by the other while it runs a job. */
static struct {
    pthread_t t;
    sem_t go, done;
    void *(*fn)(void *);
    void *arg, *out;
} other;

static void *other_loop(void *unused)
{
    (void)unused;
    sem_post(&other.done); /* started: whatever starting a thread allocates is done */
    for (;;) {
        while (sem_wait(&other.go) != 0)
            ;
        if (!other.fn)
            return NULL;
        other.out = other.fn(other.arg);
        sem_post(&other.done);
    }
}

void fgt_other_start(void)
{
    CHECK(sem_init(&other.go, 0, 0) == 0 && sem_init(&other.done, 0, 0) == 0);
    CHECK(pthread_create(&other.t, NULL, other_loop, NULL) == 0);
    while (sem_wait(&other.done) != 0)
        ;
}

void fgt_other_stop(void)
{
    other.fn = NULL;
    sem_post(&other.go);
    pthread_join(other.t, NULL);
    sem_destroy(&other.go);
    sem_destroy(&other.done);
}

void *fgt_on_thread(void *(*fn)(void *), void *arg)
{
    other.fn = fn;
    other.arg = arg;
    sem_post(&other.go);
    while (sem_wait(&other.done) != 0)
        ;
    return other.out;
}

void *fgt_thread_malloc(void *size)
{
    return fgt_malloc((size_t)(uintptr_t)size);
}

void *fgt_thread_free(void *p)
{
    fgt_free(p);
    return NULL;
}
