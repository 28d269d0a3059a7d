/* oracle/watchdog.c — the bounded-time oracle's thread: deadlines without a clock read
 * on the case path. */
#include "oracle/watchdog.h"

#include "engine/base/case.h"
#include "oracle/timeout.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct fgi_watchdog {
    pthread_t thread;
    atomic_int stop;        /* set by fgi_watchdog_stop */
    pthread_mutex_t lock;   /* with wake: a stop ends the tick's wait at once */
    pthread_cond_t wake;
    unsigned time_ms;       /* deadline */
    unsigned full_ms;       /* the full deadline, when time_ms is a re-hit deadline */
    unsigned slow_ms;       /* soft threshold */
    unsigned tick_ms;       /* sampling period */
    unsigned long slow;     /* cases seen running past slow_ms (written by the thread) */
    unsigned slowest_ms;    /* the longest a case was seen running */
    unsigned ended_ms;      /* the longest a case that ended was seen running */
    volatile uint32_t *publish; /* ended_ms is copied here (an executor's shared slot) */
};

static unsigned ms_between(const struct timespec *a, const struct timespec *b)
{
    long long ms = (long long)(b->tv_sec - a->tv_sec) * 1000 +
                   (b->tv_nsec - a->tv_nsec) / 1000000;
    return ms < 0 ? 0 : ms > (long long)UINT32_MAX ? UINT32_MAX : (unsigned)ms;
}

/* Samples the case counter every tick; times a case from the first tick that saw it with
 * the monotonic clock (a tick cut short by a signal measures no time it did not take). */
static void *watch(void *arg)
{
    fgi_watchdog *w = arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* the target's signals are not ours */
    unsigned long last = 0;
    int counted_slow = 0, seen = 0;
    unsigned counted_ms = 0; /* how long the current case has been seen running */
    struct timespec since = {0, 0};
    while (!atomic_load(&w->stop)) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += (long)w->tick_ms * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_mutex_lock(&w->lock);
        while (!atomic_load(&w->stop) &&
               pthread_cond_timedwait(&w->wake, &w->lock, &until) == 0)
            ;
        pthread_mutex_unlock(&w->lock);
        if (atomic_load(&w->stop))
            break;
        int active;
        unsigned long now = fgi_case_started(&active);
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (!active || now != last || !seen) {
            /* The case seen last has ended (it passed, or an oracle ended it). */
            if (seen && counted_ms > w->ended_ms) {
                w->ended_ms = counted_ms;
                if (w->publish)
                    *w->publish = counted_ms;
            }
            counted_ms = 0;
            last = now;
            since = t;
            seen = active;
            counted_slow = 0;
            continue;
        }
        unsigned running_ms = ms_between(&since, &t);
        counted_ms = running_ms;
        if (running_ms > w->slowest_ms)
            w->slowest_ms = running_ms;
        if (running_ms >= w->slow_ms && !counted_slow) {
            counted_slow = 1;
            w->slow++;
        }
        if (running_ms >= w->time_ms) {
            char detail[160];
            if (w->full_ms > w->time_ms)
                snprintf(detail, sizeof detail,
                         "the case ran for %u+ ms, past the re-hit deadline of %u ms (the "
                         "full deadline is %u ms)", running_ms, w->time_ms, w->full_ms);
            else
                snprintf(detail, sizeof detail,
                         "the case ran for %u+ ms, past its deadline of %u ms", running_ms,
                         w->time_ms);
            fgi_timeout_deliver(detail, now);
        }
    }
    return NULL;
}

fgi_watchdog *fgi_watchdog_start(unsigned time_ms, unsigned slow_ms,
                                 volatile uint32_t *ended_ms, unsigned full_ms)
{
    fgi_watchdog *w = fgi_calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->publish = ended_ms; /* set before the thread starts: it only reads them */
    w->full_ms = full_ms;
    w->time_ms = time_ms ? time_ms : 1;
    w->slow_ms = slow_ms ? slow_ms : 1;
    w->tick_ms = FGI_MAX(1u, FGI_MIN(50u, w->time_ms / 4));
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&w->thread, NULL, watch, w) != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        fgi_free(w);
        return NULL;
    }
    return w;
}

unsigned long fgi_watchdog_stop(fgi_watchdog *w, unsigned *slowest_ms)
{
    if (!w)
        return 0;
    pthread_mutex_lock(&w->lock);
    atomic_store(&w->stop, 1);
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    unsigned long slow = w->slow;
    if (slowest_ms)
        *slowest_ms = w->slowest_ms;
    fgi_free(w);
    return slow;
}

/* Weak: present only when a sanitizer runtime is linked. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

unsigned fgi_watchdog_rehit_ms(unsigned time_ms, unsigned ended_ms)
{
    /* A sanitizer's crash report (unwinding, symbolising) can take longer than a re-hit
     * deadline before it tells the harness it has begun: the crash would be abandoned as
     * a re-hit. Sanitized runs keep the full deadline. */
    if (__sanitizer_set_death_callback)
        return time_ms;
    uint64_t ms = (uint64_t)ended_ms * FGI_REHIT_FACTOR;
    if (ms < FGI_REHIT_FLOOR_MS)
        ms = FGI_REHIT_FLOOR_MS;
    return ms < time_ms ? (unsigned)ms : time_ms;
}
