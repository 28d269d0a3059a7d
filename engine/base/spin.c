/* engine/base/spin.c — the contended side of the spin lock (spin.h says why it is not a
 * pure spin). */
#include "engine/base/spin.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

void fgi_spin_wait(atomic_flag *f)
{
    long nap_ns = 50 * 1000;
    for (unsigned tries = 1;; tries++) {
        if (tries <= 64) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        } else if (tries <= 64 + 128) {
            sched_yield();
        } else { /* a long hold: naps of 50 us, doubling to 1 ms */
            struct timespec t = {0, nap_ns};
            int was; /* nanosleep is a cancellation point, which malloc must not be */
            pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &was);
            nanosleep(&t, NULL);
            pthread_setcancelstate(was, NULL);
            if (nap_ns < 1000 * 1000)
                nap_ns *= 2;
        }
        if (!atomic_flag_test_and_set_explicit(f, memory_order_acquire))
            return;
    }
}
