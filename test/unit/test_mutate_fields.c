/* test/unit/test_mutate_fields.c — the mutators of engine/mutate/mutate.c aimed at numbers
 * and fields: ASCII and binary integers, length and count fields, words of a record. */
#include "test/support/mutators.h"
#include "test/support/proc.h"

/* ---- change_ascii_int ------------------------------------------------------------------ */

/* The input with every digit and '-' removed. */
static size_t skeleton(const uint8_t *p, size_t n, char *out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!(p[i] >= '0' && p[i] <= '9') && p[i] != '-')
            out[m++] = (char)p[i];
    return m;
}

static int same_skeleton(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    unsigned *changed = ctx;
    char a[512], b[512];
    if (in->size > sizeof a || n > sizeof b)
        return 0;
    size_t la = skeleton(in->data, in->size, a), lb = skeleton(out, n, b);
    if (n != in->size || memcmp(out, in->data, n) != 0)
        (*changed)++;
    return la == lb && memcmp(a, b, la) == 0;
}

FG_TEST(mutate_change_ascii_int)
{
    FGT_MUTATOR(mu, "change_ascii_int");
    static const char text[] = "len=1234;x=-56;y=7;z=99999";
    fgt_input in = {(const uint8_t *)text, sizeof text - 1, 200, NULL, 0};
    unsigned changed = 0;
    unsigned applied = fgt_mut_each(mu, &in, same_skeleton, &changed, FGT_TRIALS);
    CHECK(applied > FGT_TRIALS / 2);
    CHECK(changed > applied * 9 / 10);
    /* No digit anywhere: nothing to change. */
    static const char none[] = "no numbers here";
    fgt_input in2 = {(const uint8_t *)none, sizeof none - 1, 200, NULL, 0};
    CHECK(fgt_mut_each(mu, &in2, same_skeleton, &changed, 100) == 0);
    /* A number that only fits if it does not grow. */
    static const char tight[] = "9";
    fgt_input in3 = {(const uint8_t *)tight, 1, 1, NULL, 0};
    changed = 0;
    CHECK(fgt_mut_each(mu, &in3, same_skeleton, &changed, 200) > 0);
}

/* Numbers at the edges of int64 (and past it): a new value must still be computed without
 * signed overflow. Only a build with -fsanitize=undefined can see the overflow (it aborts),
 * so the work runs in a child and an abort fails this test alone; the bytes are checked in
 * every build. */
/* The child's work: every text under 300 cases; 1 when a result was wrong. */
static int extreme_numbers(void *ctx)
{
    const fgi_mutator *mu = ctx;
    static const char *const texts[] = {"9223372036854775807", "9223372036854775808",
                                        "-9223372036854775808", "-9223372036854775807",
                                        "9999999999999999999", "a=18446744073709551615;",
                                        "123456789012345678901234567890"};
    int bad = 0;
    for (size_t i = 0; i < FGI_ARRAY_LEN(texts); i++) {
        size_t size = strlen(texts[i]);
        for (uint64_t k = 0; k < 300; k++) {
            uint8_t buf[64 + FGT_GUARD], scratch[64 + FGT_GUARD];
            memcpy(buf, texts[i], size);
            memset(buf + 64, FGT_CANARY, FGT_GUARD);
            fgi_rng r;
            fgi_rng_case(&r, FGT_MUT_SEED, fgi_hash_str(mu->name), k);
            fgi_mut m = {.rng = &r, .scratch = scratch};
            size_t n = mu->fn(&m, buf, size, 64);
            if (n == FGI_MUT_SKIP)
                continue;
            unsigned changed = 0;
            fgt_input in = {(const uint8_t *)texts[i], size, 64, NULL, 0};
            if (n > 64 || !fgt_guard_intact(buf + 64) || !same_skeleton(&in, buf, n, &changed)) {
                printf("  change_ascii_int on \"%s\", case %llu: bad result\n", texts[i],
                       (unsigned long long)k);
                bad = 1;
            }
        }
    }
    return bad;
}

FG_TEST(mutate_change_ascii_int_extreme_numbers)
{
    FGT_MUTATOR(mu, "change_ascii_int");
    fgt_run r;
    CHECK(fgt_call_in_child(extreme_numbers, (void *)mu, &r) == 0);
    CHECK(r.exited && r.code == 0);
    if (!(r.exited && r.code == 0))
        printf("%s%s", r.out, r.err);
    fgt_run_free(&r);
}

/* ---- change_binary_int ----------------------------------------------------------------- */

static int word_sized_change(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    unsigned *changed = ctx;
    size_t lo, hi;
    if (n != in->size)
        return 0;
    if (!fgt_diff_span(in->data, out, n, &lo, &hi))
        return 1; /* e.g. a boundary value equal to the old one */
    (*changed)++;
    return hi - lo < 8;
}

FG_TEST(mutate_change_binary_int)
{
    FGT_MUTATOR(mu, "change_binary_int");
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 64, NULL, 0};
    unsigned changed = 0;
    CHECK(fgt_mut_each(mu, &in, word_sized_change, &changed, FGT_TRIALS) == FGT_TRIALS);
    CHECK(changed > FGT_TRIALS * 9 / 10);
    for (size_t size = 1; size < 10; size++) { /* every width that fits, none that does not */
        in.size = in.max = size;
        changed = 0;
        CHECK(fgt_mut_each(mu, &in, word_sized_change, &changed, 100) == 100);
        CHECK(changed > 50);
    }
}

/* ---- length_field ---------------------------------------------------------------------- */

/* Over an input of 0xaa bytes every byte of the written field changes (the values written
 * are small or small negatives), so the changed span is the field. */
static int holds_a_length(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    unsigned *widths = ctx;
    size_t lo, hi;
    if (n != in->size || !fgt_diff_span(in->data, out, n, &lo, &hi))
        return 0;
    unsigned w = (unsigned)(hi - lo + 1);
    if ((w != 1 && w != 2 && w != 4) || lo % w != 0)
        return 0;
    *widths |= w;
    uint64_t bases[2] = {in->size - lo - w, in->size};
    for (int big = 0; big < 2; big++)
        for (int b = 0; b < 2; b++)
            for (int d = -2; d <= 2; d++)
                if (fgt_load(out + lo, w, big) ==
                    ((bases[b] + (uint64_t)(int64_t)d) & fgt_mask_of(w)))
                    return 1;
    return 0;
}

FG_TEST(mutate_length_field)
{
    FGT_MUTATOR(mu, "length_field");
    uint8_t data[64];
    memset(data, 0xaa, sizeof data);
    fgt_input in = {data, 64, 64, NULL, 0};
    unsigned widths = 0;
    CHECK(fgt_mut_each(mu, &in, holds_a_length, &widths, FGT_TRIALS) == FGT_TRIALS);
    CHECK_EQ_U(widths, 1 | 2 | 4);
    for (size_t size = 1; size < 9; size++) {
        in.size = in.max = size;
        CHECK(fgt_mut_each(mu, &in, holds_a_length, &widths, 100) == 100);
    }
}

/* ---- word_nudge ------------------------------------------------------------------------ */

static int field_nudged(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    size_t lo, hi;
    if (n != in->size || !fgt_diff_span(in->data, out, n, &lo, &hi))
        return 0;
    static const unsigned ws[] = {1, 2, 4};
    for (size_t i = 0; i < 3; i++) {
        unsigned w = ws[i];
        size_t pos = lo / w * w;
        if (hi >= pos + w || pos + w > n)
            continue;
        for (int big = 0; big < 2; big++) {
            uint64_t a = fgt_load(in->data + pos, w, big), b = fgt_load(out + pos, w, big);
            uint64_t up = (b - a) & fgt_mask_of(w), down = (a - b) & fgt_mask_of(w);
            if ((up >= 1 && up <= 4) || (down >= 1 && down <= 4))
                return 1;
        }
    }
    return 0;
}

FG_TEST(mutate_word_nudge)
{
    FGT_MUTATOR(mu, "word_nudge");
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    data[8] = data[9] = data[10] = data[11] = 0; /* carries and borrows across bytes */
    data[12] = data[13] = 0xff;
    fgt_input in = {data, 64, 64, NULL, 0};
    CHECK(fgt_mut_each(mu, &in, field_nudged, NULL, FGT_TRIALS) == FGT_TRIALS);
    in.size = in.max = 3;
    CHECK(fgt_mut_each(mu, &in, field_nudged, NULL, 100) == 100);
}

/* ---- word_repeat / word_delete --------------------------------------------------------- */

/* 1 when a run of d bytes at pos is whole words of some width w in {1, 2, 4}, at most 8
 * of them, at a w-aligned offset. */
static int whole_words(size_t pos, size_t d)
{
    static const size_t ws[] = {1, 2, 4};
    for (size_t i = 0; i < 3; i++)
        if (pos % ws[i] == 0 && d % ws[i] == 0 && d >= ws[i] && d <= 8 * ws[i])
            return 1;
    return 0;
}

static int words_repeated(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    size_t *longest = ctx;
    if (n <= in->size)
        return 0;
    size_t d = n - in->size;
    for (size_t pos = 0; pos + d <= in->size; pos++) {
        if (fgt_inserted_at(in->data, in->size, out, n, pos + d) &&
            memcmp(out + pos + d, in->data + pos, d) == 0 && whole_words(pos, d)) {
            *longest = FGI_MAX(*longest, d);
            return 1;
        }
    }
    return 0;
}

FG_TEST(mutate_word_repeat)
{
    FGT_MUTATOR(mu, "word_repeat");
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 256, NULL, 0};
    size_t longest = 0;
    CHECK(fgt_mut_each(mu, &in, words_repeated, &longest, FGT_TRIALS) == FGT_TRIALS);
    CHECK(longest > 16); /* 4-byte words are reached */
    in.max = 64;         /* no room */
    CHECK(fgt_mut_each(mu, &in, words_repeated, &longest, 100) == 0);
}

static int words_deleted(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    size_t *longest = ctx;
    if (n >= in->size)
        return 0;
    size_t d = in->size - n;
    for (size_t pos = 0; pos <= n; pos++) {
        if (fgt_inserted_at(out, n, in->data, in->size, pos) && whole_words(pos, d)) {
            *longest = FGI_MAX(*longest, d);
            return 1;
        }
    }
    return 0;
}

FG_TEST(mutate_word_delete)
{
    FGT_MUTATOR(mu, "word_delete");
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 64, NULL, 0};
    size_t longest = 0;
    CHECK(fgt_mut_each(mu, &in, words_deleted, &longest, FGT_TRIALS) == FGT_TRIALS);
    CHECK(longest > 16); /* shrinks by multiples of 4 too */
    in.size = in.max = 4;
    CHECK(fgt_mut_each(mu, &in, words_deleted, &longest, 100) == 100);
    in.size = in.max = 1;
    CHECK(fgt_mut_each(mu, &in, words_deleted, &longest, 20) == 20);
}

/* ---- ascii_number ---------------------------------------------------------------------- */


static int has_number(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    unsigned *big = ctx;
    (void)in;
    for (size_t i = 0; i + 5 <= n; i++)
        *big += memcmp(out + i, "65536", 5) == 0;
    for (size_t i = 0; i < n; i++)
        if (out[i] >= '0' && out[i] <= '9')
            return 1;
    return 0;
}

FG_TEST(mutate_ascii_number)
{
    FGT_MUTATOR(mu, "ascii_number");
    static const char text[] = "size=12\n";
    fgt_input in = {(const uint8_t *)text, sizeof text - 1, 64, NULL, 0};
    unsigned big = 0;
    CHECK(fgt_mut_each(mu, &in, has_number, &big, FGT_TRIALS) == FGT_TRIALS);
    CHECK(big > 0);
    fgt_input empty = {(const uint8_t *)text, 0, 64, NULL, 0};
    CHECK(fgt_mut_each(mu, &empty, has_number, &big, FGT_TRIALS) == FGT_TRIALS);
}
