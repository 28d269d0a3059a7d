/* engine/base/spin.c — a contended spin lock's waits (spin.h says why it is not a pure
 * spin). Raw system calls: a sanitizer's interceptors (TSan's nanosleep) must not run
 * here, on a thread the runtime may still be starting, and syscall() is no cancellation
 * point, which malloc must not be. */
#include "engine/base/spin.h"

#include <limits.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SPINS 64u          /* pauses first: most holds are a table update */
#define YIELDS 128u        /* then yields to whatever is runnable */
#define NAP_FIRST_NS 50000L
#define NAP_MAX_NS 1000000L

void fgi_spin_backoff(unsigned *tries)
{
    unsigned t = *tries;
    *tries += t < UINT_MAX; /* saturates: past the yields every wait is the longest nap */
    if (t < SPINS) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
    } else if (t < SPINS + YIELDS) {
        syscall(SYS_sched_yield);
    } else { /* a long hold: naps of 50 us, doubling to 1 ms */
        unsigned k = t - SPINS - YIELDS;
        long ns = k >= 5 ? NAP_MAX_NS : NAP_FIRST_NS << k; /* 50 .. 800 us, then 1 ms */
        struct timespec ts = {0, ns};
        syscall(SYS_nanosleep, &ts, NULL);
    }
}
