/* test/unit/test_rss.c — the bounded-memory oracle's probes (oracle/rss.c): none without a
 * limit, one once the heap the cases left grew by a step, one on the clock for memory the
 * heap oracle does not see, and a process past its limit told so from then on. */
#include "test/support/check.h"

#include "oracle/rss.h"

#include <string.h>
#include <time.h>

FG_TEST(rss_no_limit_no_probe)
{
    fgi_rss m;
    fgi_rss_init(&m, 0);
    for (int i = 0; i < 1000; i++)
        CHECK_EQ_U(fgi_rss_after_case(&m, (size_t)i << 20), 0);
    CHECK_EQ_U(m.used, 0);
}

/* A limit of one byte: any probe finds the process past it. */
FG_TEST(rss_heap_growth_of_a_step_probes)
{
    fgi_rss m;
    fgi_rss_init(&m, 1);
    CHECK_EQ_U(m.step, 1 << 20); /* 1/16 of the limit, at least 1 MiB */
    for (int i = 0; i < 10; i++)
        CHECK_EQ_U(fgi_rss_after_case(&m, 1000), 0); /* grew by 1000 bytes: no probe */
    CHECK_EQ_U(m.used, 0);
    CHECK_EQ_U(fgi_rss_after_case(&m, 1000 + (1 << 20)), 1);
    CHECK(m.used > 0);
    char d[256];
    fgi_rss_detail(&m, d, sizeof d);
    CHECK(strncmp(d, "out-of-memory (used: ", 21) == 0);
    CHECK(strstr(d, "; limit: 0Mb)") != NULL);
    /* past it, every later case is told at once: the memory is not given back */
    uint64_t used = m.used;
    CHECK_EQ_U(fgi_rss_after_case(&m, 0), 1);
    CHECK_EQ_U(m.used, used);
}

/* Heap that a window's end or a release gave up does not count as growth twice. */
FG_TEST(rss_growth_is_counted_from_where_the_heap_is)
{
    fgi_rss m;
    fgi_rss_init(&m, (uint64_t)1 << 40);
    for (int round = 0; round < 8; round++) {
        CHECK_EQ_U(fgi_rss_after_case(&m, 600 << 10), 0); /* +600 KiB */
        CHECK_EQ_U(fgi_rss_after_case(&m, 0), 0);         /* the window ended */
    }
    CHECK_EQ_U(m.grown, 8 * (600 << 10)); /* 4.7 MiB, not 8 x the window's total */
    CHECK_EQ_U(m.used, 0);
}

/* Memory the heap oracle does not see: a probe on the clock, at most every 64 cases. */
FG_TEST(rss_probes_on_the_clock_without_heap_growth)
{
    fgi_rss m;
    fgi_rss_init(&m, (uint64_t)1 << 40);
    struct timespec t = {0, 300 * 1000 * 1000};
    nanosleep(&t, NULL);
    for (int i = 0; i < 64; i++)
        CHECK_EQ_U(fgi_rss_after_case(&m, 0), 0);
    CHECK(m.used > 0); /* probed, and far below the limit */
    CHECK_EQ_U(m.over, 0);
}
