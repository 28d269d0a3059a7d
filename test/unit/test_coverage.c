/* test/unit/test_coverage.c — the SanitizerCoverage runtime: modules register, counters become
 * bucketed features, a feature names a module and an index, never an address, and what a
 * thread's edges decide is its own. */
#include "test/support/check.h"
#include "engine/feedback/sancov.h"

#include "engine/feedback/workbudget.h"
#include "engine/feedback/coverage.h"
#include "oracle/harness.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
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

/* A module long enough for the scan's every path (64-byte blocks, then words, then
 * bytes): every hit counter is found once, in index order, whatever its count (a top bit
 * set or not) and however many share its block or word. Checked through the dense
 * indices, which are the module's base + 8 * index + bucket. */
FG_TEST(coverage_scan_finds_every_counter_in_order)
{
    static uint8_t wide[64 * 3 + 8 * 2 + 5];
    static const size_t at[] = {0,  1,  7,  8,  9,  62,  63,  64,  100, 127,
                                128, 129, 130, 131, 132, 133, 134, 135, 191, 192,
                                199, 200, 207, 208, 210, 212};
    static const uint8_t hits[] = {1, 255, 128, 2, 127, 3, 4, 129, 8, 16, 32, 1, 1,
                                   1, 1, 1, 1, 1, 7, 200, 9, 100, 1, 2, 5, 255};
    static const uint8_t bucket[] = {0, 7, 7, 1, 6, 2, 3, 7, 4, 5, 6, 0, 0,
                                     0, 0, 0, 0, 0, 3, 7, 4, 6, 0, 1, 3, 7};
    CHECK(FGI_ARRAY_LEN(at) == FGI_ARRAY_LEN(hits) && FGI_ARRAY_LEN(at) == FGI_ARRAY_LEN(bucket));
    CHECK(at[FGI_ARRAY_LEN(at) - 1] < sizeof wide);
    __sanitizer_cov_8bit_counters_init(wide, wide + sizeof wide);
    for (unsigned round = 0; round < 2; round++) { /* all of them, then every other one */
        fgi_cov_reset();
        size_t want = 0;
        for (size_t i = 0; i < FGI_ARRAY_LEN(at); i++)
            if (round == 0 || i % 2 == 0) {
                wide[at[i]] = hits[i];
                want++;
            }
        uint64_t f[FGI_ARRAY_LEN(at) + 1];
        uint32_t d[FGI_ARRAY_LEN(at) + 1];
        CHECK_EQ_U(fgi_cov_features(f, d, FGI_ARRAY_LEN(f)), want);
        uint32_t base = d[0] - 8 * (uint32_t)at[0] - bucket[0];
        for (size_t i = 0, k = 0; i < FGI_ARRAY_LEN(at); i++)
            if (round == 0 || i % 2 == 0) {
                CHECK_EQ_U(d[k], base + 8 * at[i] + bucket[i]);
                k++;
            }
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

/* ---- threads ----------------------------------------------------------------------------- */

/* Trace-pc from other threads while a case runs: one calling the callback from this
 * program's code, one from libc's (qsort calls it as its comparator, so the return address
 * the callback looks up is in another module and its range switches), as a target's
 * worker threads would. */
static atomic_int threads_stop;

static void *edges_here(void *arg)
{
    (void)arg;
    while (!atomic_load(&threads_stop))
        for (int i = 0; i < 1000; i++)
            __sanitizer_cov_trace_pc();
    return NULL;
}

static void *edges_in_libc(void *arg)
{
    (void)arg;
    int v[64];
    for (int i = 0; i < 64; i++)
        v[i] = 64 - i;
    /* A comparator of the wrong type, on purpose: the x86-64 and arm64 calling conventions
     * ignore the arguments, and its "result" only reorders a scratch array. */
    int (*cmp)(const void *, const void *) =
        (int (*)(const void *, const void *))(void (*)(void))__sanitizer_cov_trace_pc;
    while (!atomic_load(&threads_stop))
        qsort(v, 64, sizeof v[0], cmp);
    return NULL;
}

static unsigned body_edges; /* trace-pc calls the case body made before it ended */

static uint64_t budget_body(const uint8_t *data, size_t size)
{
    (void)data, (void)size;
    fgi_budget_arm(5000);
    for (body_edges = 0; body_edges < 100000; body_edges++)
        __sanitizer_cov_trace_pc();
    return 0;
}

static const fg_target budget_target = {.name = "budget", .run = budget_body};

/* One case of target t over a one-byte input, in a harness of its own. */
static void run_one_byte(const fg_target *t, fgi_case_result *res)
{
    fgi_harness h;
    CHECK(fgi_harness_open(&h, t) == FG_OK);
    CHECK(fgi_harness_reserve(&h, 1) == FG_OK);
    static const uint8_t one[1] = {0};
    fgi_harness_run(&h, one, 1, res);
    fgi_harness_close(&h);
}

/* The edge budget is the case thread's: its 5001st edge ends the case, whatever the
 * target's other threads execute meanwhile (shared, their edges spent it early, and
 * their decrements raced the case's). Run under SANITIZE=thread, the range each thread
 * looked up last and the touched list are free of data races too. */
FG_TEST(coverage_trace_pc_budget_and_range_are_each_threads_own)
{
    pthread_t t[3];
    atomic_store(&threads_stop, 0);
    int started = pthread_create(&t[0], NULL, edges_here, NULL) == 0;
    started += pthread_create(&t[1], NULL, edges_in_libc, NULL) == 0;
    started += pthread_create(&t[2], NULL, edges_here, NULL) == 0;
    CHECK_EQ_U(started, 3);
    for (int round = 0; round < 20 && started == 3; round++) {
        fgi_case_result res;
        run_one_byte(&budget_target, &res);
        CHECK(res.status == FGI_CASE_ENDED && strcmp(res.kind, "timeout") == 0);
        CHECK(strcmp(res.site, "edge budget") == 0);
        CHECK_EQ_U(body_edges, 5000); /* 5000 counted, the 5001st ended it */
        if (body_edges != 5000)
            break;
    }
    atomic_store(&threads_stop, 1);
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    fgi_budget_arm(0);
    fgi_cov_reset();
}

static unsigned body_cmps; /* traced comparisons the case body made before it ended */

/* Makes traced comparisons of each kind the budget counts, in turn, one per step: the four
 * integer widths, a constant's, a floating-point one and a switch (two of them: over a
 * byte, and over an int whose values fit a byte, which walks once and records two pairs,
 * then is answered from its slot). Between them, plain comparisons (fg_cmp_u64), which
 * never count. */
static uint64_t cmp_budget_body(const uint8_t *data, size_t size)
{
    (void)data, (void)size;
    static uint64_t byte_cases[] = {2, 8, 'a', 'b'}, int_cases[] = {2, 32, 7, 9};
    fgi_budget_arm(5000);
    for (body_cmps = 0; body_cmps < 100000; body_cmps++) {
        for (int i = 0; i < 3; i++)
            fg_cmp_u64(1000u + body_cmps, 77);
        switch (body_cmps % 8) {
        case 0: __sanitizer_cov_trace_cmp1(1, 2); break;
        case 1: __sanitizer_cov_trace_cmp2(300, 2); break;
        case 2: __sanitizer_cov_trace_cmp4(70000, 2); break;
        case 3: __sanitizer_cov_trace_cmp8(1, 5000000000ull); break;
        case 4: __sanitizer_cov_trace_const_cmp4(40000, body_cmps); break;
        case 5: __sanitizer_cov_trace_cmpd(1.5, 2.5); break;
        case 6: __sanitizer_cov_trace_switch('c', byte_cases); break;
        default: __sanitizer_cov_trace_switch(8, int_cases); break;
        }
    }
    return 0;
}

static const fg_target cmp_budget_target = {.name = "cmp_budget", .run = cmp_budget_body};

/* The comparison budget (clang's inline counters have no per-edge callback, but their
 * OSS-Fuzz flags trace comparisons): the 5001st traced comparison ends the case as a
 * timeout, in the process; the target's own fg_cmp_u64 calls are not the compiler's and
 * are not counted. Armed on the case's thread only, so a second case starts afresh. */
FG_TEST(coverage_comparison_budget_ends_the_case_at_its_count)
{
    for (int round = 0; round < 2; round++) {
        fgi_case_result res;
        run_one_byte(&cmp_budget_target, &res);
        CHECK(res.status == FGI_CASE_ENDED && strcmp(res.kind, "timeout") == 0);
        CHECK(strcmp(res.site, "comparison budget") == 0);
        CHECK(strstr(res.detail, "more than 5000 traced comparisons") != NULL);
        CHECK_EQ_U(body_cmps, 5000); /* 5000 counted, the 5001st ended it */
    }
    /* Outside a case nothing is counted, armed or not. */
    fgi_budget_arm(5);
    for (int i = 0; i < 10000; i++)
        __sanitizer_cov_trace_cmp4(1, 2);
    CHECK(fgi_budget_left[FGI_BUDGET_CMPS] == 5);
    fgi_budget_arm(0);
}

/* The budget follows the deadline at a fixed rate: the same deadline, the same count. */
FG_TEST(coverage_budget_follows_the_deadline)
{
    CHECK_EQ_U(fgi_budget_for(10000), 100000000u);
    CHECK_EQ_U(fgi_budget_for(100), 1000000u);
    CHECK_EQ_U(fgi_budget_for(0), FGI_WORK_PER_MS);
}

/* ---- stack depth (clang's -fsanitize-coverage=stack-depth) ---------------------------- */

typedef struct keys {
    uint64_t k[4];
    unsigned n;
} keys;

static void add_key(void *ctx, uint64_t key)
{
    keys *s = ctx;
    if (s->n < 4)
        s->k[s->n] = key;
    s->n++;
}

/* The feature of a case whose body's deepest instrumented frame was `depth` bytes below
 * its caller's frame `frame` (what the instrumentation writes, done by hand); 0 for none. */
static uint64_t depth_key(uintptr_t frame, uintptr_t depth)
{
    keys s = {.n = 0};
    fgi_cov_stack_begin(frame);
    if (depth)
        __sancov_lowest_stack = frame - depth;
    fgi_cov_stack_end(frame);
    fgi_cov_stack_feature(add_key, &s);
    CHECK(s.n <= 1);
    return s.n ? s.k[0] : 0;
}

/* One feature a case, a bucket of its depth: exact to 8 words, then 8 steps to a doubling
 * (libFuzzer's); a function of the depth, never of where the stack lies. */
FG_TEST(coverage_stack_depth_is_one_feature_a_bucket)
{
    const uintptr_t f1 = (uintptr_t)1 << 40, f2 = f1 + 0x12340;
    CHECK_EQ_U(depth_key(f1, 0), 0); /* never written: no instrumentation, no feature */
    uint64_t d56 = depth_key(f1, 56), d64 = depth_key(f1, 64), d72 = depth_key(f1, 72);
    CHECK(d56 && d64 && d72 && d56 != d64 && d64 != d72 && d56 != d72);
    CHECK_EQ_U(depth_key(f2, 64), d64); /* another stack, the same depth */
    /* 4096 bytes = 512 words: a step is 64 words there, so 8 bytes more is the same
     * bucket, and a step more is the next one. */
    uint64_t d4096 = depth_key(f1, 4096);
    CHECK_EQ_U(depth_key(f1, 4104), d4096);
    CHECK(depth_key(f1, 4096 + 64 * 8) != d4096);
    /* Deeper every time: a new bucket at every step, up to where the instrumentation
     * could go (a 64-bit address's whole range). */
    uint64_t last = 0;
    for (uintptr_t d = 8; d < ((uintptr_t)1 << 40); d *= 2) {
        uint64_t k = depth_key(f1, d);
        CHECK(k != 0 && k != last);
        last = k;
    }
    /* A lowest frame above the caller's (a thread whose value was never reset): none. */
    fgi_cov_stack_begin(f1);
    __sancov_lowest_stack = f1 + 64;
    fgi_cov_stack_end(f1);
    keys s = {.n = 0};
    fgi_cov_stack_feature(add_key, &s);
    CHECK_EQ_U(s.n, 0);
}

static uint64_t deep_body(const uint8_t *data, size_t size)
{
    (void)size;
    /* What stack-depth instrumentation does at a function's entry, 1 KiB down (or not). */
    if (data[0])
        __sancov_lowest_stack = (uintptr_t)__builtin_frame_address(0) - 1024;
    return 0;
}

static const fg_target deep_target = {.name = "deep", .run = deep_body};

/* The harness resets the lowest frame before the body and reads it after: a case that went
 * deep has the feature, the next one (shallow) does not inherit it. */
FG_TEST(coverage_stack_depth_is_measured_around_the_body)
{
    static const uint8_t deep[1] = {1}, shallow[1] = {0};
    fgi_harness h;
    CHECK(fgi_harness_open(&h, &deep_target) == FG_OK);
    CHECK(fgi_harness_reserve(&h, 1) == FG_OK);
    fgi_case_result res;
    for (int round = 0; round < 2; round++) {
        keys s = {.n = 0};
        fgi_harness_run(&h, deep, 1, &res);
        CHECK(res.status == FGI_CASE_OK);
        fgi_cov_stack_feature(add_key, &s);
        CHECK_EQ_U(s.n, 1);
        s.n = 0;
        fgi_harness_run(&h, shallow, 1, &res);
        CHECK(res.status == FGI_CASE_OK);
        fgi_cov_stack_feature(add_key, &s);
        CHECK_EQ_U(s.n, 0);
    }
    fgi_harness_close(&h);
}
