/* test/unit/test_spin.c — the spin lock of code that must not allocate (engine/base/spin.h):
 * its waiters leave the CPU to the rest while the lock is held long. */
#include "test/support/check.h"

#include "engine/base/spin.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

static atomic_flag lock = ATOMIC_FLAG_INIT;
static atomic_int waiting;

/* arg: where its thread's CPU seconds go, once it had the lock */
static void *wait_for_the_lock(void *arg)
{
    atomic_fetch_add(&waiting, 1);
    fgi_spin_lock(&lock);
    fgi_spin_unlock(&lock);
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    *(double *)arg = (double)t.tv_sec + (double)t.tv_nsec / 1e9;
    return NULL;
}

/* A pure spin here held the heap oracle's cases for seconds on two cores: hundreds of a
 * target's stray threads at their start waited on it while the holder waited for a mutex
 * inside ASan's allocator. Each waiter's CPU time while the lock is held 300 ms: spinning,
 * that time (or its share of a loaded machine's cores, ~100 ms); pausing, yielding and
 * napping, a few ms. The bound, 60 ms, is ten times what it uses and more. The hold
 * starts once both waiters are on their way to the lock. */
FG_TEST(spin_a_waiter_for_a_lock_held_long_gives_the_cpu_away)
{
    enum { WAITERS = 2 };
    pthread_t t[WAITERS];
    double cpu[WAITERS] = {0};
    int started = 0;
    atomic_store(&waiting, 0);
    fgi_spin_lock(&lock);
    for (int i = 0; i < WAITERS; i++) /* the first `started` of t are threads */
        if (pthread_create(&t[started], NULL, wait_for_the_lock, &cpu[started]) == 0)
            started++;
    CHECK(started == WAITERS);
    struct timespec tick = {0, 1000 * 1000};
    while (atomic_load(&waiting) < started)
        nanosleep(&tick, NULL);
    struct timespec hold = {0, 300 * 1000 * 1000};
    nanosleep(&hold, NULL);
    fgi_spin_unlock(&lock);
    for (int i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
        if (cpu[i] >= 0.060)
            printf("waiter %d: %.0f ms of CPU while it waited 300 ms\n", i, cpu[i] * 1e3);
        CHECK(cpu[i] < 0.060);
    }
}
