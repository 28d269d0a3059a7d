/* oracle/rss.c — the bounded-memory oracle (rss.h): when to probe the resident size, and
 * what a process past its limit is told. */
#include "oracle/rss.h"

#include "engine/base/clock.h"
#include "engine/base/resident.h"

#include <stdio.h>

#define CLOCK_EVERY 64  /* cases between clock reads: a clock read a case would cost an
                         * empty case a tenth of its time */
#define PROBE_S 0.25    /* arbitrary: the longest a probe waits for memory the heap
                         * oracle cannot see; libFuzzer's thread waits a second */
#define MIN_STEP ((uint64_t)1 << 20)

void fgi_rss_init(fgi_rss *m, uint64_t limit)
{
    *m = (fgi_rss){.limit = limit, .countdown = CLOCK_EVERY};
    /* No limit: no step is ever reached, and each 64th case only comes back here. */
    m->step = !limit ? UINT64_MAX : limit / 16 > MIN_STEP ? limit / 16 : MIN_STEP;
    m->probed_at = fgi_clock_now_s();
}

int fgi_rss_probe(fgi_rss *m)
{
    m->countdown = CLOCK_EVERY;
    if (!m->limit)
        return 0;
    if (m->over)
        return 1;
    if (m->grown < m->step && fgi_clock_now_s() - m->probed_at < PROBE_S)
        return 0;
    m->grown = 0;
    m->probed_at = fgi_clock_now_s();
    m->used = fgi_resident_bytes(0);
    if ((m->over = m->used > m->limit))
        m->step = 0; /* from now on every case comes here, and is told at once */
    return m->over;
}

void fgi_rss_detail(const fgi_rss *m, char *out, size_t cap)
{
    snprintf(out, cap,
             "out-of-memory (used: %lluMb; limit: %lluMb): the resident memory of the "
             "process running the cases passed rss_limit_mb",
             (unsigned long long)(m->used >> 20), (unsigned long long)(m->limit >> 20));
}
