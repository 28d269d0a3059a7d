/* engine/base/clock.c — the engine's one clock (clock.h). */
#include "engine/base/clock.h"

#include <time.h>

double fgi_clock_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
