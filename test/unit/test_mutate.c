/* test/unit/test_mutate.c — the mutator table of engine/mutate/mutate.c: what holds for every
 * mutator (reachable, bounded by max, exact about min_size), and fgi_mutate, which stacks
 * them and describes what it applied. */
#include "test/support/mutators.h"

#include <stdlib.h>

/* ---- every mutator --------------------------------------------------------------------- */

/* Every mutator on an empty input: a skip leaves the buffer as it was (checked by
 * fgt_mut_run); returns how many of `tries` applied. */
static unsigned applied_on_empty(const fgi_mutator *mu, size_t max, const uint8_t *other,
                                 size_t osize, unsigned tries)
{
    static uint8_t out[FGT_OUT_CAP];
    fgt_input in = {NULL, 0, max, other, osize};
    unsigned applied = 0;
    for (unsigned k = 0; k < tries; k++) {
        size_t n = 0;
        int rc = fgt_mut_run(mu, k, &in, out, &n);
        if (rc < 0)
            break;
        applied += (unsigned)rc;
    }
    return applied;
}

/* Every mutator has a test of its own, in the file of its family; a mutator added to the
 * table without one here fails mutate_every_mutator_has_a_test. */
static const char *const tested[] = {
    /* test_mutate_edits.c: bytes and spans, and the crossover partner */
    "erase_bytes", "insert_byte", "insert_repeated", "change_byte", "flip_bit",
    "shuffle_bytes", "copy_part", "insert_part", "crossover", "join_other",
    /* test_mutate_fields.c: numbers as text, binary integers and length fields */
    "change_ascii_int", "change_binary_int", "length_field", "word_nudge", "word_repeat",
    "word_delete", "ascii_number",
    /* test_mutate_hints.c: what the run learned (dictionary, comparisons, hot position) */
    "dict_insert", "dict_overwrite", "cmp_int", "cmp_bytes", "hot_byte",
    /* test_numbers.c: engine/mutate/numbers.c */
    "cmp_number"};

FG_TEST(mutate_every_mutator_has_a_test)
{
    CHECK_EQ_U(fgi_mutator_count, FGI_ARRAY_LEN(tested));
    for (size_t i = 0; i < fgi_mutator_count; i++) {
        int found = 0;
        for (size_t j = 0; j < FGI_ARRAY_LEN(tested); j++)
            found += strcmp(fgi_mutators[i].name, tested[j]) == 0;
        CHECK_MUT(found == 1, &fgi_mutators[i]);
        for (size_t j = 0; j < i; j++)
            CHECK_MUT(strcmp(fgi_mutators[i].name, fgi_mutators[j].name) != 0,
                      &fgi_mutators[i]);
    }
    for (size_t j = 0; j < FGI_ARRAY_LEN(tested); j++)
        CHECK(fgt_mut_by_name(tested[j]) != NULL);
    /* applied[] holds indices as uint8_t */
    CHECK(fgi_mutator_count <= 256);
}

/* min_size is what fgi_mutate draws by: a mutator must skip every shorter input (else
 * it is wrongly never drawn there), and must be able to apply at min_size itself. */
FG_TEST(mutate_min_size_is_exact)
{
    static const uint8_t digits[] = "4242424242", other[] = "partner";
    static uint8_t out[FGT_OUT_CAP];
    fgt_mut_fixtures_on(); /* else the dictionary and comparison mutators never apply */
    for (size_t mi = 0; mi < fgi_mutator_count; mi++) {
        const fgi_mutator *mu = &fgi_mutators[mi];
        unsigned min = mu->min_size;
        CHECK_MUT(min <= 8, mu);
        unsigned below = 0;
        for (size_t size = 0; size < min; size++)
            for (size_t max = size; max < size + 40; max += 13)
                for (uint64_t k = 0; k < 100; k++) {
                    fgt_input in = {digits, size, max, other, sizeof other - 1};
                    size_t n = 0;
                    below += fgt_mut_run(mu, k, &in, out, &n) != 0;
                }
        CHECK_MUT(below == 0, mu);
        unsigned applied = 0;
        for (uint64_t k = 0; k < 200; k++) {
            fgt_input in = {digits, min, min + 8, other, sizeof other - 1};
            size_t n = 0;
            applied += fgt_mut_run(mu, k, &in, out, &n) == 1;
        }
        CHECK_MUT(applied > 0, mu);
    }
    fgt_mut_fixtures_off();
}

FG_TEST(mutate_every_mutator_bounded_at_every_size)
{
    static const size_t maxes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 130, 300};
    static uint8_t data[512], other[300], out[FGT_OUT_CAP];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 37 + (i >> 3)); /* includes digits and '-' now and then */
    memcpy(data + 5, "-123", 4);
    for (size_t i = 0; i < sizeof other; i++)
        other[i] = (uint8_t)(0x80 | i);
    fgt_mut_fixtures_on();
    for (size_t mi = 0; mi < fgi_mutator_count; mi++) {
        const fgi_mutator *mu = &fgi_mutators[mi];
        int failed = 0;
        for (size_t xi = 0; xi < FGI_ARRAY_LEN(maxes) && !failed; xi++) {
            size_t max = maxes[xi];
            size_t sizes[] = {0, 1, max / 2, max ? max - 1 : 0, max};
            for (size_t si = 0; si < FGI_ARRAY_LEN(sizes) && !failed; si++) {
                size_t size = FGI_MIN(sizes[si], max);
                for (int o = 0; o < 3 && !failed; o++) {
                    /* no partner; a short partner; a long one */
                    fgt_input in = {data, size, max, o ? other : NULL,
                                o == 0 ? 0 : o == 1 ? 3 : sizeof other};
                    for (uint64_t k = 0; k < 60; k++) {
                        size_t n = 0;
                        if (fgt_mut_run(mu, k + 1000 * si + 100000 * xi, &in, out, &n) < 0) {
                            failed = 1;
                            break;
                        }
                    }
                }
            }
        }
    }
    fgt_mut_fixtures_off();
}

FG_TEST(mutate_skip_on_empty_leaves_buf_unchanged)
{
    static const uint8_t other[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    fgt_mut_fixtures_on(); /* with a dictionary and comparisons to draw on, they still skip */
    /* These cannot do anything to an empty input: they must skip, every time. */
    static const char *const skippers[] = {
        "erase_bytes",       "change_byte", "flip_bit",    "shuffle_bytes", "change_ascii_int",
        "change_binary_int", "copy_part",   "insert_part", "length_field",  "word_nudge",
        "word_repeat",       "word_delete", "dict_overwrite", "cmp_int"};
    for (size_t i = 0; i < FGI_ARRAY_LEN(skippers); i++) {
        const fgi_mutator *mu = fgt_mut_by_name(skippers[i]);
        CHECK(mu != NULL);
        if (!mu)
            continue;
        CHECK_MUT(applied_on_empty(mu, 32, other, sizeof other, 200) == 0, mu);
        CHECK_MUT(applied_on_empty(mu, 0, NULL, 0, 50) == 0, mu);
    }
    /* With no room and no partner nothing applies at all. */
    for (size_t i = 0; i < fgi_mutator_count; i++)
        CHECK_MUT(applied_on_empty(&fgi_mutators[i], 0, NULL, 0, 100) == 0, &fgi_mutators[i]);
    /* Growing mutators do apply to an empty input with room. */
    CHECK(applied_on_empty(fgt_mut_by_name("insert_byte"), 32, NULL, 0, 50) == 50);
    CHECK(applied_on_empty(fgt_mut_by_name("insert_repeated"), 32, NULL, 0, 50) == 50);
    CHECK(applied_on_empty(fgt_mut_by_name("crossover"), 32, other, sizeof other, 200) > 0);
    CHECK(applied_on_empty(fgt_mut_by_name("dict_insert"), 32, NULL, 0, 50) == 50);
    CHECK(applied_on_empty(fgt_mut_by_name("cmp_bytes"), 32, NULL, 0, 200) > 0);
    fgt_mut_fixtures_off();
}

/* ---- fgi_mutate ------------------------------------------------------------------------ */

FG_TEST(mutate_stack_never_exceeds_max)
{
    fgi_rng gen;
    fgi_rng_case(&gen, FGT_MUT_SEED, 99, 0);
    static uint8_t other[600];
    for (size_t i = 0; i < sizeof other; i++)
        other[i] = (uint8_t)fgi_rng_next(&gen);
    static const size_t maxes[] = {0, 1, 2, 3, 4, 7, 8, 64, 513};
    fgt_mut_fixtures_on();
    for (unsigned it = 0; it < 6000; it++) {
        size_t max = it < 900 ? maxes[it % FGI_ARRAY_LEN(maxes)]
                              : (size_t)fgi_rng_below(&gen, 600);
        size_t size;
        switch (it % 4) {
        case 0: size = max; break;
        case 1: size = 0; break;
        default: size = (size_t)fgi_rng_below(&gen, max + 1);
        }
        uint8_t *buf = malloc(max + FGT_GUARD), *scratch = malloc(max + FGT_GUARD);
        CHECK(buf && scratch);
        if (!buf || !scratch) {
            free(buf);
            free(scratch);
            break;
        }
        for (size_t i = 0; i < size; i++)
            buf[i] = it % 3 ? (uint8_t)fgi_rng_next(&gen) : (uint8_t)('0' + i % 11);
        memset(buf + max, FGT_CANARY, FGT_GUARD);
        memset(scratch + max, FGT_CANARY, FGT_GUARD);
        fgi_rng r;
        fgi_rng_case(&r, FGT_MUT_SEED, 7, it);
        fgi_mut m = {.rng = &r, .scratch = scratch, .dict = fgt_mutenv.dict};
        if (it % 5) {
            m.other = other;
            m.other_size = (size_t)fgi_rng_below(&gen, sizeof other);
        }
        size_t n = fgi_mutate(&m, buf, size, max);
        int ok = n <= max && fgt_guard_intact(buf + max) && fgt_guard_intact(scratch + max) &&
                 m.napplied <= 5;
        for (unsigned i = 0; i < m.napplied && i < FGI_MUT_STACK; i++)
            ok = ok && m.applied[i] < fgi_mutator_count;
        if (!ok) {
            char msg[128];
            snprintf(msg, sizeof msg, "fgi_mutate it %u size %zu max %zu -> %zu, napplied %u",
                     it, size, max, n, m.napplied);
            fgt_fail(__FILE__, __LINE__, msg);
        }
        free(buf);
        free(scratch);
        if (!ok)
            break;
    }
    fgt_mut_fixtures_off();
}

FG_TEST(mutate_stack_empty_with_no_room)
{
    uint8_t buf[FGT_GUARD], scratch[FGT_GUARD];
    memset(buf, FGT_CANARY, sizeof buf);
    memset(scratch, FGT_CANARY, sizeof scratch);
    for (uint64_t k = 0; k < 200; k++) {
        fgi_rng r;
        fgi_rng_case(&r, FGT_MUT_SEED, 8, k);
        fgi_mut m = {.rng = &r, .scratch = scratch};
        m.napplied = 99;
        CHECK_EQ_U(fgi_mutate(&m, buf, 0, 0), 0);
        CHECK_EQ_U(m.napplied, 0);
        CHECK(fgt_guard_intact(buf));
        fgi_str s = {0};
        fgi_mutate_describe(&m, &s);
        CHECK_STR(fgi_str_cstr(&s), "");
        fgi_str_free(&s);
    }
}

FG_TEST(mutate_stack_records_what_it_applied)
{
    unsigned seen_count[6] = {0}, seen_mut[64] = {0};
    uint8_t buf[128], scratch[128], other[16];
    memset(other, 'o', sizeof other);
    fgt_mut_fixtures_on(); /* every mutator can apply only with a dictionary and comparisons */
    for (uint64_t k = 0; k < 3000; k++) {
        size_t size = 1 + k % 100, max = size + (k % 3 ? 28 : 0);
        for (size_t i = 0; i < size; i++)
            buf[i] = (uint8_t)(i * 13 + k);
        fgi_rng r;
        fgi_rng_case(&r, FGT_MUT_SEED, 9, k);
        fgi_mut m = {.rng = &r, .scratch = scratch, .other = other, .other_size = sizeof other,
                     .dict = fgt_mutenv.dict, .hot = 1 + (uint32_t)(k % 7)};
        (void)fgi_mutate(&m, buf, size, max);
        CHECK(m.napplied >= 1 && m.napplied <= 5);
        if (m.napplied < 1 || m.napplied > 5)
            break;
        seen_count[m.napplied]++;
        for (unsigned i = 0; i < m.napplied; i++)
            if (m.applied[i] < 64)
                seen_mut[m.applied[i]]++;
    }
    /* 1..5 stacked with probability 1/2, 1/4, 1/8, 1/16, 1/16: 1500, 750, 375, 188, 188 */
    static const unsigned at_least[6] = {0, 1300, 620, 300, 140, 140};
    for (unsigned c = 1; c <= 5; c++)
        CHECK(seen_count[c] > at_least[c]);
    for (size_t i = 0; i < fgi_mutator_count && i < 64; i++)
        CHECK_MUT(seen_mut[i] > 0, &fgi_mutators[i]); /* every mutator is picked */
    fgt_mut_fixtures_off();
}

/* The share of first draws that go to each mutator follows its weight: the plain one, or
 * its guided one (where it has one) when compiler coverage guides the search. No
 * dictionary, comparisons or partner: on a 40-byte input only the byte mutators and
 * hot_byte may apply, and fgi_mutate's first draw is one of them in proportion. */
static double hot_share(int guided, double *want)
{
    uint8_t buf[64], scratch[64];
    unsigned hot = 0, n = 8000, total = 0, hot_weight = 0;
    for (size_t i = 0; i < fgi_mutator_count; i++) {
        const fgi_mutator *mu = &fgi_mutators[i];
        unsigned w = fgi_mutator_weight(mu, guided);
        if (mu->needs & ~(unsigned)FGI_NEEDS_HOT)
            continue;
        total += w;
        if (strcmp(mu->name, "hot_byte") == 0)
            hot_weight = w;
    }
    *want = total ? (double)hot_weight / total : 0;
    for (uint64_t k = 0; k < n; k++) {
        for (size_t i = 0; i < 40; i++)
            buf[i] = (uint8_t)(i * 5 + k);
        fgi_rng r;
        fgi_rng_case(&r, FGT_MUT_SEED, 13, k);
        fgi_mut m = {.rng = &r, .scratch = scratch, .hot = 3, .depth = 1, .guided = guided};
        (void)fgi_mutate(&m, buf, 40, 64);
        hot += m.napplied && strcmp(fgi_mutators[m.applied[0]].name, "hot_byte") == 0;
    }
    return (double)hot / n;
}

FG_TEST(mutate_guided_weights_apply_under_coverage)
{
    double want_plain, want_guided;
    double plain = hot_share(0, &want_plain), guided = hot_share(1, &want_guided);
    CHECK(want_guided < want_plain); /* hot_byte's guided weight is the smaller */
    /* a draw that skips (change_ascii_int on an input without digits) is drawn again,
     * which lifts the others' shares a little: 0.534 for 0.516, 0.418 for 0.400 */
    CHECK(plain > want_plain - 0.02 && plain < want_plain + 0.05);
    CHECK(guided > want_guided - 0.02 && guided < want_guided + 0.05);
}

FG_TEST(mutate_stack_is_deterministic)
{
    uint8_t a[300], b[300], sa[300], sb[300], other[50];
    for (size_t i = 0; i < sizeof other; i++)
        other[i] = (uint8_t)(i * 7);
    fgt_mut_fixtures_on();
    for (uint64_t k = 0; k < 2000; k++) {
        size_t size = k % 200, max = 300 - k % 50;
        for (size_t i = 0; i < size; i++)
            a[i] = b[i] = (uint8_t)(i ^ k);
        fgi_rng ra, rb;
        fgi_rng_case(&ra, FGT_MUT_SEED, 10, k);
        rb = ra;
        fgi_mut ma = {.rng = &ra, .scratch = sa, .other = other, .other_size = sizeof other,
                      .dict = fgt_mutenv.dict};
        fgi_mut mb = {.rng = &rb, .scratch = sb, .other = other, .other_size = sizeof other,
                      .dict = fgt_mutenv.dict};
        memset(sa, 1, sizeof sa); /* scratch contents must not matter */
        memset(sb, 2, sizeof sb);
        size_t na = fgi_mutate(&ma, a, size, max), nb = fgi_mutate(&mb, b, size, max);
        int same = na == nb && memcmp(a, b, na) == 0 && ma.napplied == mb.napplied &&
                   memcmp(ma.applied, mb.applied, ma.napplied) == 0 && ra.state == rb.state;
        CHECK(same);
        if (!same)
            break;
    }
    fgt_mut_fixtures_off();
}

FG_TEST(mutate_stack_usually_changes_the_input)
{
    /* Stacked mutators can cancel out or pick a no-op value now and then; nearly every
     * case must still differ from its input. */
    uint8_t buf[200], orig[200], scratch[200];
    unsigned same = 0;
    fgt_mut_fixtures_on();
    for (uint64_t k = 0; k < 4000; k++) {
        size_t size = 1 + k % 150;
        for (size_t i = 0; i < size; i++)
            orig[i] = (uint8_t)(i * 31 + k);
        memcpy(buf, orig, size);
        fgi_rng r;
        fgi_rng_case(&r, FGT_MUT_SEED, 11, k);
        fgi_mut m = {.rng = &r, .scratch = scratch, .dict = fgt_mutenv.dict};
        size_t n = fgi_mutate(&m, buf, size, 200);
        same += n == size && memcmp(buf, orig, n) == 0;
    }
    fgt_mut_fixtures_off();
    CHECK(same < 40); /* under 1% */
}

FG_TEST(mutate_describe_lists_names)
{
    uint8_t buf[64], scratch[64];
    for (uint64_t k = 0; k < 500; k++) {
        for (size_t i = 0; i < 32; i++)
            buf[i] = (uint8_t)(i + k);
        fgi_rng r;
        fgi_rng_case(&r, FGT_MUT_SEED, 12, k);
        fgi_mut m = {.rng = &r, .scratch = scratch};
        (void)fgi_mutate(&m, buf, 32, 64);
        fgi_str want = {0}, got = {0};
        fgi_str_add(&got, "prefix:"); /* describe appends */
        fgi_str_add(&want, "prefix:");
        for (unsigned i = 0; i < m.napplied; i++) {
            if (i)
                fgi_str_add(&want, ",");
            fgi_str_add(&want, fgi_mutators[m.applied[i]].name);
        }
        fgi_mutate_describe(&m, &got);
        CHECK_STR(fgi_str_cstr(&got), fgi_str_cstr(&want));
        /* every comma-separated word is a mutator's name */
        char text[512];
        snprintf(text, sizeof text, "%s", fgi_str_cstr(&got) + strlen("prefix:"));
        unsigned words = 0;
        for (char *save = NULL, *w = strtok_r(text, ",", &save); w;
             w = strtok_r(NULL, ",", &save)) {
            CHECK(fgt_mut_by_name(w) != NULL);
            words++;
        }
        CHECK_EQ_U(words, m.napplied);
        fgi_str_free(&want);
        fgi_str_free(&got);
    }
    /* A hand-made record. */
    fgi_mut m = {0};
    m.napplied = 2;
    m.applied[0] = 0;
    m.applied[1] = (uint8_t)(fgi_mutator_count - 1);
    fgi_str s = {0};
    fgi_mutate_describe(&m, &s);
    char want[128];
    snprintf(want, sizeof want, "%s,%s", fgi_mutators[0].name,
             fgi_mutators[fgi_mutator_count - 1].name);
    CHECK_STR(fgi_str_cstr(&s), want);
    fgi_str_free(&s);
}
