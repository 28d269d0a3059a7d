/* oracle/watchdog.c — the bounded-time oracle's thread: deadlines without a clock read
 * on the case path. */
#include "oracle/watchdog.h"

#include "engine/base/case.h"
#include "engine/base/clock.h"
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
    struct watch_end {      /* fgi_watchdog_end; written under lock, read under it */
        double at_s;        /* the run's end by the clock, 0 for none */
        volatile int *halt; /* NULL: not watched */
        unsigned grace_ms;
        void (*stuck)(void *ctx, unsigned ms);
        void *ctx;
    } end;
};

static unsigned ms_between(const struct timespec *a, const struct timespec *b)
{
    long long ms = (long long)(b->tv_sec - a->tv_sec) * 1000 +
                   (b->tv_nsec - a->tv_nsec) / 1000000;
    return ms < 0 ? 0 : ms > (long long)UINT32_MAX ? UINT32_MAX : (unsigned)ms;
}

/* The run's end (fgi_watchdog_end): sets *halt once its time has come, and returns how
 * long ago the end was first seen (ms; 0 while it has not come). */
static unsigned end_seen(const struct watch_end *end, int *seen, struct timespec *at,
                         const struct timespec *now)
{
    if (!end->halt)
        return 0;
    if (!*end->halt && end->at_s > 0 && fgi_clock_now_s() >= end->at_s)
        *end->halt = 1;
    if (!*end->halt)
        return 0;
    if (!*seen) {
        *seen = 1;
        *at = *now;
    }
    return ms_between(at, now);
}

/* Samples the case counter every tick; times a case from the first tick that saw it with
 * the monotonic clock (a tick cut short by a signal measures no time it did not take). */
static void *watch(void *arg)
{
    fgi_watchdog *w = arg;
    /* The target's signals are not ours. SIGINT and SIGTERM are the run's (its handler
     * only notes them): a case thread that blocks them must not keep them from it. */
    sigset_t all;
    sigfillset(&all);
    sigdelset(&all, SIGINT);
    sigdelset(&all, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    unsigned long last = 0;
    int counted_slow = 0, seen = 0;
    unsigned counted_ms = 0; /* how long the current case has been seen running */
    struct timespec since = {0, 0}, end_at = {0, 0};
    int end_was_seen = 0;
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
        struct watch_end end = w->end;
        pthread_mutex_unlock(&w->lock);
        if (atomic_load(&w->stop))
            break;
        int active;
        unsigned long now = fgi_case_started(&active);
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        unsigned since_end = end_seen(&end, &end_was_seen, &end_at, &t);
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
        if (end.stuck && end_was_seen && since_end >= end.grace_ms &&
            running_ms >= end.grace_ms)
            end.stuck(end.ctx, running_ms); /* does not return */
        if (running_ms > w->slowest_ms)
            w->slowest_ms = running_ms;
        if (running_ms >= w->slow_ms && !counted_slow) {
            counted_slow = 1;
            w->slow++;
        }
        if (running_ms >= w->time_ms) {
            /* Not how long it ran: the detail reaches report.json, which the clock must
             * not (docs/determinism.md); the deadline is the run's own. */
            char detail[160];
            if (w->full_ms > w->time_ms)
                snprintf(detail, sizeof detail,
                         "the case ran past the re-hit deadline of %u ms (the full deadline "
                         "is %u ms)", w->time_ms, w->full_ms);
            else
                snprintf(detail, sizeof detail, "the case ran past its deadline of %u ms",
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

void fgi_watchdog_end(fgi_watchdog *w, double end_s, volatile int *halt, unsigned grace_ms,
                      void (*stuck)(void *ctx, unsigned ms), void *ctx)
{
    pthread_mutex_lock(&w->lock);
    w->end = (struct watch_end){end_s, halt, grace_ms, stuck, ctx};
    pthread_mutex_unlock(&w->lock);
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
