/* test/unit/test_mutate_edits.c — the mutators of engine/mutate/mutate.c that edit bytes and
 * spans, or take them from the crossover partner: each does what its name says. */
#include "test/support/mutators.h"

/* ---- erase_bytes ----------------------------------------------------------------------- */

static int erased_a_span(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    if (n >= in->size)
        return 0;
    for (size_t pos = 0; pos <= n; pos++)
        if (fgt_inserted_at(out, n, in->data, in->size, pos))
            return 1;
    return 0;
}

FG_TEST(mutate_erase_bytes)
{
    FGT_MUTATOR(mu, "erase_bytes");
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 100, NULL, 0};
    CHECK(fgt_mut_each(mu, &in, erased_a_span, NULL, FGT_TRIALS) == FGT_TRIALS);
    in.size = in.max = 1; /* erasing the only byte */
    CHECK(fgt_mut_each(mu, &in, erased_a_span, NULL, 50) == 50);
}

/* ---- insert_byte ----------------------------------------------------------------------- */

static int one_byte_inserted(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    if (n != in->size + 1)
        return 0;
    for (size_t pos = 0; pos <= in->size; pos++)
        if (fgt_inserted_at(in->data, in->size, out, n, pos))
            return 1;
    return 0;
}

FG_TEST(mutate_insert_byte)
{
    FGT_MUTATOR(mu, "insert_byte");
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 65, NULL, 0};
    CHECK(fgt_mut_each(mu, &in, one_byte_inserted, NULL, FGT_TRIALS) == FGT_TRIALS);
    in.max = 64; /* full: it must skip */
    CHECK(fgt_mut_each(mu, &in, one_byte_inserted, NULL, 100) == 0);
}

/* ---- insert_repeated ------------------------------------------------------------------- */

static int run_inserted(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    size_t d = n - in->size;
    if (n <= in->size || d < 3 || d > 128)
        return 0;
    for (size_t pos = 0; pos <= in->size; pos++) {
        if (!fgt_inserted_at(in->data, in->size, out, n, pos))
            continue;
        size_t same = 1;
        while (same < d && out[pos + same] == out[pos])
            same++;
        if (same == d)
            return 1;
    }
    return 0;
}

FG_TEST(mutate_insert_repeated)
{
    FGT_MUTATOR(mu, "insert_repeated");
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 1000, NULL, 0};
    CHECK(fgt_mut_each(mu, &in, run_inserted, NULL, FGT_TRIALS) == FGT_TRIALS);
    in.max = 67; /* room for exactly the shortest run */
    CHECK(fgt_mut_each(mu, &in, run_inserted, NULL, 100) == 100);
    in.max = 66; /* no room for a run of 3 */
    CHECK(fgt_mut_each(mu, &in, run_inserted, NULL, 100) == 0);
}

/* ---- change_byte ----------------------------------------------------------------------- */

static int one_byte_changed(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    if (n != in->size)
        return 0;
    size_t diffs = 0;
    for (size_t i = 0; i < n; i++)
        diffs += out[i] != in->data[i];
    return diffs == 1;
}

FG_TEST(mutate_change_byte)
{
    FGT_MUTATOR(mu, "change_byte");
    uint8_t data[64];
    memset(data, 0, sizeof data); /* the special byte 0x00 must still give a change */
    fgt_input in = {data, 64, 64, NULL, 0};
    CHECK(fgt_mut_each(mu, &in, one_byte_changed, NULL, FGT_TRIALS) == FGT_TRIALS);
    memset(data, 0xff, sizeof data);
    CHECK(fgt_mut_each(mu, &in, one_byte_changed, NULL, FGT_TRIALS) == FGT_TRIALS);
    in.size = 1;
    CHECK(fgt_mut_each(mu, &in, one_byte_changed, NULL, 100) == 100);
}

/* ---- flip_bit -------------------------------------------------------------------------- */

static int one_bit_flipped(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    unsigned *bits_seen = ctx;
    if (n != in->size)
        return 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t x = out[i] ^ in->data[i];
        if (x)
            *bits_seen |= x;
        bits += __builtin_popcount(x);
    }
    return bits == 1;
}

FG_TEST(mutate_flip_bit)
{
    FGT_MUTATOR(mu, "flip_bit");
    uint8_t data[40];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 40, 80, NULL, 0};
    unsigned seen = 0;
    CHECK(fgt_mut_each(mu, &in, one_bit_flipped, &seen, FGT_TRIALS) == FGT_TRIALS);
    CHECK_EQ_U(seen, 0xff); /* every bit position is reachable */
}

/* ---- shuffle_bytes --------------------------------------------------------------------- */

static int same_multiset_in_window(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    if (n != in->size)
        return 0;
    unsigned count[256] = {0};
    for (size_t i = 0; i < n; i++) {
        count[in->data[i]]++;
        count[out[i]]--;
    }
    for (int b = 0; b < 256; b++)
        if (count[b])
            return 0;
    size_t lo, hi;
    return !fgt_diff_span(in->data, out, n, &lo, &hi) || hi - lo < 8;
}

FG_TEST(mutate_shuffle_bytes)
{
    FGT_MUTATOR(mu, "shuffle_bytes");
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 64, NULL, 0};
    CHECK(fgt_mut_each(mu, &in, same_multiset_in_window, NULL, FGT_TRIALS) == FGT_TRIALS);
    /* It does reorder (most of the time: a random permutation may be the identity). */
    static uint8_t out[FGT_OUT_CAP];
    unsigned changed = 0;
    for (uint64_t k = 0; k < 200; k++) {
        size_t n;
        if (fgt_mut_run(mu, k, &in, out, &n) == 1 && memcmp(out, data, 64) != 0)
            changed++;
    }
    CHECK(changed > 150);
    in.size = 2;
    CHECK(fgt_mut_each(mu, &in, same_multiset_in_window, NULL, 50) == 50);
    in.size = 1;
    CHECK(fgt_mut_each(mu, &in, same_multiset_in_window, NULL, 50) == 0);
}

/* ---- copy_part ------------------------------------------------------------------------- */

static int copied_within(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    size_t lo, hi;
    if (n != in->size || !fgt_diff_span(in->data, out, n, &lo, &hi))
        return 0; /* src != dst over distinct bytes always changes something */
    return fgt_contains(in->data, in->size, out + lo, hi - lo + 1);
}

FG_TEST(mutate_copy_part)
{
    FGT_MUTATOR(mu, "copy_part");
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 64, NULL, 0};
    CHECK(fgt_mut_each(mu, &in, copied_within, NULL, FGT_TRIALS) > FGT_TRIALS / 2);
    in.size = 2;
    CHECK(fgt_mut_each(mu, &in, copied_within, NULL, 100) > 0);
    in.size = 1;
    CHECK(fgt_mut_each(mu, &in, copied_within, NULL, 100) == 0);
}

/* ---- insert_part ----------------------------------------------------------------------- */

static int own_part_inserted(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    if (n <= in->size)
        return 0;
    size_t d = n - in->size;
    for (size_t pos = 0; pos <= in->size; pos++)
        if (fgt_inserted_at(in->data, in->size, out, n, pos) &&
            fgt_contains(in->data, in->size, out + pos, d))
            return 1;
    return 0;
}

FG_TEST(mutate_insert_part)
{
    FGT_MUTATOR(mu, "insert_part");
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 200, NULL, 0};
    CHECK(fgt_mut_each(mu, &in, own_part_inserted, NULL, FGT_TRIALS) == FGT_TRIALS);
    in.max = 65;
    CHECK(fgt_mut_each(mu, &in, own_part_inserted, NULL, 100) == 100);
    in.max = 64;
    CHECK(fgt_mut_each(mu, &in, own_part_inserted, NULL, 100) == 0);
}

/* ---- crossover ------------------------------------------------------------------------- */

typedef struct cross_seen {
    unsigned insert, overwrite, splice;
} cross_seen;

/* in's bytes are < 0x80 and other's are >= 0x80, so every byte says where it came from. */
static int took_from_other(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    cross_seen *seen = ctx;
    const uint8_t *o = in->other;
    size_t os = in->other_size;
    int foreign = 0;
    for (size_t i = 0; i < n; i++)
        foreign |= out[i] >= 0x80;
    if (in->size < in->max && !foreign)
        return 0;
    int shape = 0;
    /* a piece of other inserted */
    for (size_t pos = 0; n > in->size && pos <= in->size; pos++)
        if (fgt_inserted_at(in->data, in->size, out, n, pos) &&
            fgt_contains(o, os, out + pos, n - in->size))
            shape = 1;
    /* a piece of other written over ours */
    size_t lo, hi;
    if (!shape && n == in->size && fgt_diff_span(in->data, out, n, &lo, &hi) &&
        fgt_contains(o, os, out + lo, hi - lo + 1))
        shape = 2;
    /* our prefix, then a run of other up to its end or up to max */
    for (size_t cut = 0; !shape && cut <= FGI_MIN(n, in->size); cut++) {
        if (memcmp(out, in->data, cut) != 0)
            break;
        size_t len = n - cut;
        for (size_t from = 0; from + len <= os; from++)
            if (memcmp(out + cut, o + from, len) == 0 && (from + len == os || n == in->max)) {
                shape = 3;
                break;
            }
    }
    seen->insert += shape == 1;
    seen->overwrite += shape == 2;
    seen->splice += shape == 3;
    return shape != 0;
}

FG_TEST(mutate_crossover)
{
    FGT_MUTATOR(mu, "crossover");
    uint8_t data[64], other[48];
    fgt_distinct(data, sizeof data);
    for (size_t i = 0; i < sizeof other; i++)
        other[i] = (uint8_t)(0x80 + i);
    fgt_input in = {data, 64, 128, other, sizeof other};
    cross_seen seen = {0, 0, 0};
    CHECK(fgt_mut_each(mu, &in, took_from_other, &seen, FGT_TRIALS) == FGT_TRIALS);
    CHECK(seen.insert > 0 && seen.overwrite > 0 && seen.splice > 0);
    /* Full buffer: no insertion, but the results stay in bounds and well-formed. */
    in.max = 64;
    CHECK(fgt_mut_each(mu, &in, took_from_other, &seen, FGT_TRIALS) > 0);
    /* No partner (or an empty one): nothing to cross with. */
    in.max = 128;
    in.other = NULL;
    in.other_size = 0;
    CHECK(fgt_mut_each(mu, &in, took_from_other, &seen, 100) == 0);
    in.other = other;
    CHECK(fgt_mut_each(mu, &in, took_from_other, &seen, 100) == 0);
}

/* ---- join_other ------------------------------------------------------------------------ */


static int joined(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    size_t both = in->size + in->other_size;
    if (n < both || n > both + 2)
        return 0;
    int after = memcmp(out, in->data, in->size) == 0 &&
                memcmp(out + n - in->other_size, in->other, in->other_size) == 0;
    int before = memcmp(out, in->other, in->other_size) == 0 &&
                 memcmp(out + n - in->size, in->data, in->size) == 0;
    return after || before;
}

FG_TEST(mutate_join_other)
{
    FGT_MUTATOR(mu, "join_other");
    static const char a[] = "mode=fast", b[] = "size=1";
    fgt_input in = {(const uint8_t *)a, sizeof a - 1, 64, (const uint8_t *)b, sizeof b - 1};
    CHECK(fgt_mut_each(mu, &in, joined, NULL, FGT_TRIALS) == FGT_TRIALS);
    in.max = in.size + in.other_size - 1; /* no room: skipped */
    CHECK(fgt_mut_each(mu, &in, joined, NULL, FGT_TRIALS) == 0);
}
