/* test/unit/test_coverage.c — the SanitizerCoverage runtime: modules register, counters become
 * bucketed features, and a feature names a module and an index, never an address. */
#include "test/support/check.h"
#include "engine/feedback/sancov.h"

#include "engine/feedback/coverage.h"

#include <string.h>


static uint8_t counters[40];
static uint32_t guards[10];

typedef struct seen {
    uint64_t f[128];
    size_t n;
} seen;

/* The features of the last case into s (at most 128); returns how many there are. */
static size_t collect(seen *s)
{
    size_t n = fgi_cov_features(s->f, NULL, 128);
    s->n = n < 128 ? n : 128;
    return n;
}

static int contains(const seen *s, uint64_t f)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->f[i] == f)
            return 1;
    return 0;
}

FG_TEST(coverage_counters_become_bucketed_features)
{
    __sanitizer_cov_8bit_counters_init(counters, counters + sizeof counters);
    __sanitizer_cov_8bit_counters_init(counters, counters + sizeof counters); /* once only */
    CHECK(fgi_cov_enabled());
    CHECK(fgi_cov_edges_total() >= sizeof counters);
    fgi_cov_reset();
    seen a = {.n = 0};
    CHECK_EQ_U(collect(&a), 0);

    counters[3] = 1;
    counters[17] = 5;
    counters[39] = 200;
    seen b = {.n = 0};
    CHECK_EQ_U(collect(&b), 3);
    CHECK_EQ_U(b.n, 3);

    /* Same edge, same bucket: the same feature; another bucket: another feature. */
    fgi_cov_reset();
    CHECK(counters[3] == 0 && counters[39] == 0);
    counters[17] = 7; /* 4-7: the bucket of 5 */
    seen c = {.n = 0};
    collect(&c);
    CHECK(c.n == 1 && contains(&b, c.f[0]));
    counters[17] = 8; /* 8-15 */
    seen d = {.n = 0};
    collect(&d);
    CHECK(d.n == 1 && !contains(&b, d.f[0]));

    /* A buffer too short gets what fits and the whole count; the counters stay. */
    counters[3] = 1;
    counters[39] = 200;
    uint64_t two[3] = {0, 0, 77};
    CHECK_EQ_U(fgi_cov_features(two, NULL, 2), 3);
    CHECK(two[2] == 77 && two[0] && two[1]);
    seen e = {.n = 0};
    CHECK_EQ_U(collect(&e), 3);
    CHECK(e.f[0] == two[0] && e.f[1] == two[1]);

    /* Dense indices: one per (edge, bucket), below the dense size, the same feature the
     * same index and another bucket another index. */
    uint64_t f3[3];
    uint32_t d3[3], d1[1];
    CHECK_EQ_U(fgi_cov_features(f3, d3, 3), 3);
    CHECK(d3[0] != d3[1] && d3[1] != d3[2] && d3[0] != d3[2]);
    for (int i = 0; i < 3; i++)
        CHECK(d3[i] < fgi_cov_dense_size());
    fgi_cov_reset();
    counters[39] = 200;
    CHECK_EQ_U(fgi_cov_features(f3, d1, 1), 1);
    CHECK(f3[0] == e.f[2] && d1[0] == d3[2]);
    counters[39] = 1; /* another bucket */
    CHECK_EQ_U(fgi_cov_features(f3, d1, 1), 1);
    CHECK(d1[0] != d3[2]);
    fgi_cov_reset();
}

/* Every hit count from 1 to 255 lands in the bucket the feature contract names (1, 2, 3,
 * 4-7, 8-15, 16-31, 32-127, 128+): counts in one bucket give one feature, the first count
 * of the next bucket another. The scan reads a table; this pins it to the contract. */
FG_TEST(coverage_every_hit_count_has_its_bucket)
{
    static const unsigned first[] = {1, 2, 3, 4, 8, 16, 32, 128, 256};
    __sanitizer_cov_8bit_counters_init(counters, counters + sizeof counters);
    uint64_t prev = 0;
    for (size_t b = 0; b + 1 < FGI_ARRAY_LEN(first); b++) {
        uint64_t f = 0;
        for (unsigned hits = first[b]; hits < first[b + 1]; hits++) {
            fgi_cov_reset();
            counters[11] = (uint8_t)hits;
            seen s = {.n = 0};
            CHECK_EQ_U(collect(&s), 1);
            if (hits == first[b])
                f = s.f[0];
            CHECK(s.f[0] == f);
        }
        CHECK(f != prev);
        prev = f;
    }
    fgi_cov_reset();
}

FG_TEST(coverage_trace_pc_guard_counts_per_guard)
{
    __sanitizer_cov_trace_pc_guard_init(guards, guards + 10);
    CHECK(guards[0] != 0 && guards[9] != 0 && guards[0] != guards[9]);
    fgi_cov_reset();
    for (int i = 0; i < 3; i++)
        __sanitizer_cov_trace_pc_guard(&guards[4]);
    __sanitizer_cov_trace_pc_guard(&guards[9]);
    seen s = {.n = 0};
    CHECK_EQ_U(collect(&s), 2);
    uint32_t off = 0;
    __sanitizer_cov_trace_pc_guard(&off); /* a guard that is not ours is ignored */
    seen t = {.n = 0};
    CHECK_EQ_U(collect(&t), 2);
    fgi_cov_reset();
}
