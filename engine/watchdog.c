/* engine/watchdog.c — the bounded-time oracle's thread: deadlines without a clock read
 * on the case path. */
#include "watchdog.h"

#include "exec.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct fgi_watchdog {
    pthread_t thread;
    atomic_int stop;        /* set by fgi_watchdog_stop */
    unsigned time_ms;       /* deadline */
    unsigned slow_ms;       /* soft threshold */
    unsigned tick_ms;       /* sampling period */
    unsigned long slow;     /* cases seen running past slow_ms (written by the thread) */
    unsigned slowest_ms;    /* the longest a case was seen running */
};

static void *watch(void *arg)
{
    fgi_watchdog *w = arg;
    unsigned long last = 0;
    unsigned running_ms = 0;
    int counted_slow = 0;
    struct timespec tick = {w->tick_ms / 1000, (long)(w->tick_ms % 1000) * 1000000L};
    while (!atomic_load(&w->stop)) {
        nanosleep(&tick, NULL);
        int active;
        unsigned long now = fgi_exec_cases_started(&active);
        if (!active || now != last) {
            last = now;
            running_ms = 0;
            counted_slow = 0;
            continue;
        }
        running_ms += w->tick_ms;
        if (running_ms > w->slowest_ms)
            w->slowest_ms = running_ms;
        if (running_ms >= w->slow_ms && !counted_slow) {
            counted_slow = 1;
            w->slow++;
        }
        if (running_ms >= w->time_ms) {
            char detail[160];
            snprintf(detail, sizeof detail,
                     "the case ran for %u ms, past its deadline of %u ms", running_ms,
                     w->time_ms);
            fgi_exec_store_running("timeout", detail,
                                   "timed out; an in-process run cannot take the case back, "
                                   "so this process ends with status 1");
            /* Flush the summaries printed so far, unless the stuck target holds stdout. */
            if (ftrylockfile(stdout) == 0) {
                fflush_unlocked(stdout);
                funlockfile(stdout);
            }
            _exit(1);
        }
    }
    return NULL;
}

fgi_watchdog *fgi_watchdog_start(unsigned time_ms, unsigned slow_ms)
{
    fgi_watchdog *w = fgi_calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->time_ms = time_ms ? time_ms : 1;
    w->slow_ms = slow_ms ? slow_ms : 1;
    w->tick_ms = FGI_MAX(1u, FGI_MIN(50u, w->time_ms / 4));
    if (pthread_create(&w->thread, NULL, watch, w) != 0) {
        fgi_free(w);
        return NULL;
    }
    return w;
}

unsigned long fgi_watchdog_stop(fgi_watchdog *w, unsigned *slowest_ms)
{
    if (!w)
        return 0;
    atomic_store(&w->stop, 1);
    pthread_join(w->thread, NULL);
    unsigned long slow = w->slow;
    if (slowest_ms)
        *slowest_ms = w->slowest_ms;
    fgi_free(w);
    return slow;
}
