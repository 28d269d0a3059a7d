/* test/unit/test_corpus.c — kept inputs are copies; the weighted pick is deterministic, in
 * range, and favours small inputs with rare signatures; out of memory keeps nothing. */
#include "test/support/check.h"

#include "engine/search/corpus.h"
#include "engine/search/schedule.h"

#define SEED 0x5eed0f6a7e2026ULL

/* Records sig `hits` times in n. */
static void hit(fgi_novelty *n, uint64_t sig, unsigned hits)
{
    for (unsigned i = 0; i < hits; i++)
        CHECK(fgi_novelty_add(n, sig) >= 0);
}

FG_TEST(corpus_add_keeps_a_copy)
{
    fgi_corpus c;
    fgi_corpus_init(&c);
    uint8_t buf[5] = {1, 2, 3, 4, 5};
    CHECK_EQ_U(fgi_corpus_add(&c, buf, sizeof buf, 0x11), 0);
    memset(buf, 0xee, sizeof buf); /* the caller reuses its buffer */
    CHECK_EQ_U(c.count, 1);
    CHECK(c.entries[0].data != buf);
    CHECK_EQ_U(c.entries[0].size, 5);
    CHECK_EQ_U(c.entries[0].sig, 0x11);
    CHECK(memcmp(c.entries[0].data, "\1\2\3\4\5", 5) == 0);
    /* The empty input is kept too (data may be any pointer). */
    CHECK_EQ_U(fgi_corpus_add(&c, buf, 0, 0), 0);
    CHECK_EQ_U(c.count, 2);
    CHECK_EQ_U(c.entries[1].size, 0);
    CHECK(c.entries[1].data != NULL);
    fgi_corpus_free(&c);
    CHECK_EQ_U(c.count, 0);
}

FG_TEST(corpus_keeps_entries_in_order_through_growth)
{
    fgi_corpus c;
    fgi_corpus_init(&c);
    uint8_t buf[8];
    for (unsigned i = 0; i < 1000; i++) {
        memset(buf, (int)(i & 0xff), sizeof buf);
        CHECK_EQ_U(fgi_corpus_add(&c, buf, i % 9, i + 1), 0);
    }
    CHECK_EQ_U(c.count, 1000);
    size_t bad = 0;
    for (unsigned i = 0; i < 1000; i++) {
        const fgi_entry *e = &c.entries[i];
        bad += e->size != i % 9 || e->sig != i + 1;
        for (size_t j = 0; j < e->size; j++)
            bad += e->data[j] != (uint8_t)i;
    }
    CHECK_EQ_U(bad, 0);
    fgi_corpus_free(&c);
}

/* Builds the same small corpus into c and n. */
static void build(fgi_corpus *c, fgi_novelty *n)
{
    fgi_corpus_init(c);
    fgi_novelty_init(n);
    uint8_t buf[300];
    memset(buf, 'x', sizeof buf);
    for (unsigned i = 0; i < 20; i++) {
        uint64_t sig = 100 + i;
        hit(n, sig, 1 + i * i);
        CHECK_EQ_U(fgi_corpus_add(c, buf, 1 + i * 13, sig), 0);
    }
}

FG_TEST(corpus_pick_is_deterministic)
{
    fgi_corpus a, b;
    fgi_novelty na, nb;
    build(&a, &na);
    build(&b, &nb);
    for (uint64_t k = 0; k < 3000; k++) {
        fgi_rng ra, rb;
        fgi_rng_case(&ra, SEED, 1, k);
        rb = ra;
        long pa = fgi_corpus_pick(&a, &na, &ra), pb = fgi_corpus_pick(&b, &nb, &rb);
        CHECK(pa == pb);
        CHECK(ra.state == rb.state); /* and leaves the stream in the same place */
        if (pa != pb)
            break;
        /* the same case asked again gives the same entry */
        fgi_rng_case(&ra, SEED, 1, k);
        CHECK(fgi_corpus_pick(&a, &na, &ra) == pa);
    }
    fgi_corpus_free(&a);
    fgi_corpus_free(&b);
    fgi_novelty_free(&na);
    fgi_novelty_free(&nb);
}

FG_TEST(corpus_pick_only_valid_indices)
{
    fgi_corpus c;
    fgi_novelty n;
    fgi_corpus_init(&c);
    fgi_novelty_init(&n);
    uint8_t buf[64] = {0};
    unsigned seen[200] = {0};
    fgi_rng r;
    fgi_rng_case(&r, SEED, 2, 0);
    CHECK_EQ_U(fgi_corpus_add(&c, buf, 3, 0), 0);
    for (uint64_t k = 0; k < 100; k++) /* one entry: always it */
        CHECK(fgi_corpus_pick(&c, &n, &r) == 0);
    uint64_t k = 100;
    for (unsigned grow = 1; grow < 200; grow++) {
        CHECK_EQ_U(fgi_corpus_add(&c, buf, grow % 64, grow % 5 ? grow : 0), 0);
        if (grow % 5)
            hit(&n, grow, grow % 7 + 1);
        for (int j = 0; j < 50; j++, k++) {
            long p = fgi_corpus_pick(&c, &n, &r);
            CHECK(p >= 0 && (size_t)p < c.count);
            if (p >= 0 && (size_t)p < 200)
                seen[p]++;
        }
    }
    size_t never = 0;
    for (size_t i = 0; i < c.count; i++)
        never += seen[i] == 0;
    CHECK(never < 5); /* (nearly) every entry gets picked some time */
    fgi_corpus_free(&c);
    fgi_novelty_free(&n);
}

/* How often each of two entries is picked over `picks` cases. */
static void pick_counts(fgi_corpus *c, const fgi_novelty *n, unsigned picks, unsigned *count)
{
    count[0] = count[1] = 0;
    for (uint64_t k = 0; k < picks; k++) {
        fgi_rng r;
        fgi_rng_case(&r, SEED, 3, k);
        long p = fgi_corpus_pick(c, n, &r);
        CHECK(p == 0 || p == 1);
        if (p == 0 || p == 1)
            count[p]++;
    }
}

FG_TEST(corpus_pick_favours_small_and_rare)
{
    static uint8_t big[4000];
    uint8_t small[4] = {1, 2, 3, 4};
    unsigned count[2];
    fgi_corpus c;
    fgi_novelty n;

    /* small + rare (entry 0) against big + frequent (entry 1) */
    fgi_corpus_init(&c);
    fgi_novelty_init(&n);
    hit(&n, 0xa, 1);
    hit(&n, 0xb, 1000);
    CHECK_EQ_U(fgi_corpus_add(&c, small, sizeof small, 0xa), 0);
    CHECK_EQ_U(fgi_corpus_add(&c, big, sizeof big, 0xb), 0);
    pick_counts(&c, &n, 20000, count);
    CHECK(count[0] > 8 * count[1]); /* weights 87381 : 6990, about 12.5 : 1 */
    CHECK(count[1] > 0);            /* favoured, not exclusive */
    fgi_corpus_free(&c);
    fgi_novelty_free(&n);

    /* the same sizes: the rare signature wins */
    fgi_corpus_init(&c);
    fgi_novelty_init(&n);
    hit(&n, 0xa, 1000);
    hit(&n, 0xb, 1);
    CHECK_EQ_U(fgi_corpus_add(&c, small, sizeof small, 0xa), 0);
    CHECK_EQ_U(fgi_corpus_add(&c, small, sizeof small, 0xb), 0);
    pick_counts(&c, &n, 20000, count);
    CHECK(count[1] > 3 * count[0]); /* 1 + log2(2) = 2 against 1 + log2(1001) = 10 */
    fgi_corpus_free(&c);
    fgi_novelty_free(&n);

    /* the same hits: the small input wins */
    fgi_corpus_init(&c);
    fgi_novelty_init(&n);
    hit(&n, 0xa, 3);
    hit(&n, 0xb, 3);
    CHECK_EQ_U(fgi_corpus_add(&c, big, sizeof big, 0xa), 0);
    CHECK_EQ_U(fgi_corpus_add(&c, small, sizeof small, 0xb), 0);
    pick_counts(&c, &n, 20000, count);
    CHECK(count[1] * 10 > count[0] * 20); /* 15 : 6, so about 2.5 : 1 */
    fgi_corpus_free(&c);
    fgi_novelty_free(&n);

    /* equal entries: about even */
    fgi_corpus_init(&c);
    fgi_novelty_init(&n);
    CHECK_EQ_U(fgi_corpus_add(&c, small, sizeof small, 0), 0);
    CHECK_EQ_U(fgi_corpus_add(&c, small, sizeof small, 0), 0);
    pick_counts(&c, &n, 20000, count);
    CHECK(count[0] > 9000 && count[1] > 9000);
    fgi_corpus_free(&c);
    fgi_novelty_free(&n);
}

/* The weights of a corpus of equal entries but for their work (entry i's work[i]) into
 * w[0 .. n), each entry's own share. 0 when they could not be computed. */
static int work_weights(const uint32_t *work, size_t n, uint64_t *w)
{
    uint8_t small[4] = {0};
    fgi_corpus c;
    fgi_novelty nov;
    fgi_corpus_init(&c);
    fgi_novelty_init(&nov);
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ_U(fgi_corpus_add(&c, small, sizeof small, 0), 0);
        c.entries[i].work = work[i];
    }
    const uint64_t *p = fgi_corpus_weights(&c, &nov);
    for (size_t i = 0; p && i < n; i++)
        w[i] = p[i] - (i ? p[i - 1] : 0);
    fgi_corpus_free(&c);
    fgi_novelty_free(&nov);
    return p != NULL;
}

/* An entry's work (its comparisons: its cost) scales its weight by 1024 / (work + 1024),
 * the 1024 the engine's own work per case (corpus.c), with no bound: picks in inverse
 * proportion to a case's cost spend the run's time evenly. An entry of no work is weighed
 * as a free case. */
FG_TEST(corpus_weights_follow_the_work)
{
    static const uint32_t work[] = {0, 100, 400, 400, 3200, 16000};
    uint64_t w[FGI_ARRAY_LEN(work)];
    CHECK(work_weights(work, FGI_ARRAY_LEN(work), w));
    for (size_t i = 1; i < FGI_ARRAY_LEN(work); i++)
        CHECK_EQ_U(w[i], w[0] * 1024 / (work[i] + 1024));
    CHECK_EQ_U(w[3], w[2]);
    CHECK(w[0] > w[1] && w[1] > w[2] && w[2] > w[4] && w[4] > w[5]);
}

/* A skewed corpus (a deep run's few near-hangs) does not buy its slow entries time: 31
 * entries of work 1 and one of 200,000 - its weight is in proportion to its cost, not held
 * at a floor relative to a mean it inflates itself (the old rule's 1/16 against the
 * others' 4x cap gave it three times an ordinary entry's time). */
FG_TEST(corpus_weights_give_a_slow_entry_no_more_time)
{
    uint32_t skew[32];
    uint64_t ws[32];
    for (size_t i = 0; i < 32; i++)
        skew[i] = i == 31 ? 200000 : 1;
    CHECK(work_weights(skew, 32, ws));
    /* time a pick, weight * (work + 1024), equal within the integer rounding */
    uint64_t slow = ws[31] * (200000 + 1024), ordinary = ws[0] * (1 + 1024);
    CHECK(slow <= ordinary && slow + 201024 > ordinary);
    /* near the work budget (100 M comparisons) an entry still has a weight of its own */
    skew[30] = 100000000;
    skew[31] = 50000000;
    CHECK(work_weights(skew, 32, ws));
    CHECK(ws[30] > 0 && ws[31] > ws[30]);
}

/* Where a target's cases are cheap beside the engine's own work, their differences in work
 * leave the weights near even: a deep input's comparisons are what make it deep, and
 * picking the shallow ones would buy no time (the expr domain's depth test). */
FG_TEST(corpus_weights_barely_move_for_cheap_cases)
{
    static const uint32_t work[] = {20, 100, 400};
    uint64_t w[FGI_ARRAY_LEN(work)];
    CHECK(work_weights(work, FGI_ARRAY_LEN(work), w));
    for (size_t i = 1; i < FGI_ARRAY_LEN(work); i++)
        CHECK(w[i] * 10 >= w[0] * 7 && w[i] <= w[0]);
}

/* A run where no entry's work is known (a plain build: the engine counts work only under
 * compiler coverage) weighs by novelty alone, exactly as before work was counted. */
FG_TEST(corpus_weights_without_work_are_novelty_alone)
{
    static const uint32_t none[] = {0, 0, 0};
    static const uint32_t some[] = {0, 0, 1};
    uint64_t w[3], ws[3];
    CHECK(work_weights(none, 3, w));
    CHECK(work_weights(some, 3, ws));
    CHECK_EQ_U(w[0], w[1]);
    CHECK_EQ_U(ws[0], w[0] << 10); /* scaled only where work is known */
}

/* A hang note (a case bred from the entry ran out of its budget) cuts the entry's weight
 * to a sixteenth, again with each; the others keep theirs, and no weight reaches 0. A
 * note naming no entry (a replayed input's case, an index past the corpus) changes none. */
FG_TEST(corpus_weights_fall_with_each_hang_bred)
{
    uint8_t small[4] = {0};
    fgi_corpus c;
    fgi_novelty nov;
    fgi_corpus_init(&c);
    fgi_novelty_init(&nov);
    for (size_t i = 0; i < 3; i++)
        CHECK_EQ_U(fgi_corpus_add(&c, small, sizeof small, 0), 0);
    uint64_t before[3], after[3];
    const uint64_t *p = fgi_corpus_weights(&c, &nov);
    CHECK(p != NULL);
    for (size_t i = 0; p && i < 3; i++)
        before[i] = p[i] - (i ? p[i - 1] : 0);
    fgi_cand hang = {.base = 2, .hang = 1}, none = {.base = 0, .hang = 1},
             past = {.base = 4, .hang = 1};
    fgi_sched_hung(&c, &hang);
    fgi_sched_hung(&c, &none);
    fgi_sched_hung(&c, &past);
    p = fgi_corpus_weights(&c, &nov);
    CHECK(p != NULL);
    for (size_t i = 0; p && i < 3; i++)
        after[i] = p[i] - (i ? p[i - 1] : 0);
    CHECK_EQ_U(c.entries[1].hangs, 1);
    CHECK_EQ_U(after[0], before[0]);
    CHECK_EQ_U(after[2], before[2]);
    CHECK_EQ_U(after[1], before[1] / 16);
    for (int k = 0; k < 20; k++) /* many more: at least 1, still pickable */
        fgi_sched_hung(&c, &hang);
    p = fgi_corpus_weights(&c, &nov);
    CHECK(p && p[1] - p[0] == 1);
    fgi_corpus_free(&c);
    fgi_novelty_free(&nov);
}

FG_TEST(corpus_weights_follow_the_merges)
{
    /* Weights are recomputed when the corpus is dirty — an entry came, or a merge
     * (fgi_sched_merged) moved the hit counts — not when hit counts change in between,
     * however many cases pass (the engine moves them only at merges). */
    uint8_t small[4] = {0};
    unsigned first[2] = {0, 0}, later[2] = {0, 0};
    fgi_corpus c;
    fgi_novelty n;
    fgi_sched s;
    fgi_corpus_init(&c);
    fgi_novelty_init(&n);
    fgi_sched_init(&s, 64);
    hit(&n, 0xa, 1);
    hit(&n, 0xb, 1);
    CHECK_EQ_U(fgi_corpus_add(&c, small, sizeof small, 0xa), 0);
    CHECK_EQ_U(fgi_corpus_add(&c, small, sizeof small, 0xb), 0);
    fgi_rng r;
    fgi_rng_case(&r, SEED, 4, 0);
    CHECK(fgi_corpus_pick(&c, &n, &r) >= 0); /* weighs: even */
    hit(&n, 0xa, 100000);                    /* entry 0 becomes frequent */
    for (uint64_t k = 1; k < 1024; k++) {
        fgi_rng_case(&r, SEED, 4, k);
        long p = fgi_corpus_pick(&c, &n, &r);
        if (p == 0 || p == 1)
            first[p]++;
    }
    fgi_sched_merged(&s, &c, 64);
    for (uint64_t k = 1024; k < 1280; k++) {
        fgi_rng_case(&r, SEED, 4, k);
        long p = fgi_corpus_pick(&c, &n, &r);
        if (p == 0 || p == 1)
            later[p]++;
    }
    CHECK(first[0] > 400 && first[1] > 400); /* still the old, even weights */
    CHECK(later[1] > 4 * later[0]);          /* 1 + log2(100002) = 17 against 2 */
    fgi_sched_free(&s);
    fgi_corpus_free(&c);
    fgi_novelty_free(&n);
}

FG_TEST(corpus_oom_on_add_keeps_nothing)
{
    fgi_corpus c;
    fgi_corpus_init(&c);
    uint8_t buf[16];
    memset(buf, 7, sizeof buf);
    /* the first add: the entry array, then the copy */
    for (unsigned long nth = 1; nth <= 2; nth++) {
        fgi_mem_fail_nth(nth);
        CHECK(fgi_corpus_add(&c, buf, sizeof buf, 1) == -1);
        fgi_mem_fail_nth(0);
        CHECK_EQ_U(c.count, 0);
    }
    CHECK_EQ_U(fgi_corpus_add(&c, buf, sizeof buf, 1), 0);
    /* an add with room in the array: only the copy can fail */
    fgi_mem_fail_nth(1);
    CHECK(fgi_corpus_add(&c, buf, sizeof buf, 2) == -1);
    fgi_mem_fail_nth(0);
    CHECK_EQ_U(c.count, 1);
    /* fill the array, then fail its growth and the copy after it */
    while (c.count < c.cap)
        CHECK_EQ_U(fgi_corpus_add(&c, buf, c.count % 16, c.count), 0);
    size_t full = c.count;
    for (unsigned long nth = 1; nth <= 2; nth++) {
        fgi_mem_fail_nth(nth);
        CHECK(fgi_corpus_add(&c, buf, 3, 99) == -1);
        fgi_mem_fail_nth(0);
        CHECK_EQ_U(c.count, full);
    }
    size_t bad = 0;
    for (size_t i = 1; i < c.count; i++)
        bad += c.entries[i].size != i % 16 || c.entries[i].sig != i;
    CHECK_EQ_U(bad, 0);
    CHECK_EQ_U(fgi_corpus_add(&c, buf, 3, 99), 0);
    CHECK_EQ_U(c.count, full + 1);
    CHECK_EQ_U(c.entries[full].sig, 99);
    fgi_corpus_free(&c);
}

FG_TEST(corpus_oom_on_pick_is_minus_one_then_recovers)
{
    fgi_corpus c;
    fgi_novelty n;
    fgi_corpus_init(&c);
    fgi_novelty_init(&n);
    uint8_t buf[4] = {0};
    CHECK_EQ_U(fgi_corpus_add(&c, buf, 4, 0), 0);
    fgi_rng r;
    fgi_rng_case(&r, SEED, 5, 0);
    fgi_mem_fail_nth(1); /* the weight table */
    CHECK(fgi_corpus_pick(&c, &n, &r) == -1);
    fgi_mem_fail_nth(0);
    CHECK(fgi_corpus_pick(&c, &n, &r) == 0);
    fgi_corpus_free(&c);
    fgi_novelty_free(&n);
}
