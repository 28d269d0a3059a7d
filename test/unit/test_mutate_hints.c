/* test/unit/test_mutate_hints.c — the mutators of engine/mutate/mutate.c that write what the
 * run learned: dictionary words, comparison operands, the byte near the base's news. */
#include "test/support/case.h"
#include "test/support/mutators.h"
#include "engine/feedback/sancov.h"

/* ---- dict_insert / dict_overwrite ------------------------------------------------------ */

/* Where word (wn bytes) was put into in's bytes to give out: inserted at the offset
 * (insert) or written over the wn bytes there (overwrite). The offset, or -1 when out is
 * not that shape. */
static long placed_at(const fgt_input *in, const uint8_t *out, size_t n, const uint8_t *w,
                      size_t wn, int insert)
{
    if (insert ? n != in->size + wn : n != in->size || wn > n)
        return -1;
    for (size_t pos = 0; pos + wn <= n; pos++) {
        if (memcmp(out + pos, w, wn) != 0 || memcmp(out, in->data, pos) != 0)
            continue;
        size_t rest = insert ? pos : pos + wn; /* where in's bytes resume */
        if (memcmp(out + pos + wn, in->data + rest, in->size - rest) == 0)
            return (long)pos;
    }
    return -1;
}

typedef struct dict_seen {
    int insert;                        /* the shape the results must have */
    unsigned words[FGT_FIXTURE_WORDS]; /* results per dictionary word */
    unsigned at_start, at_end;         /* placed at offset 0 / flush with the end */
} dict_seen;

static int word_placed(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    dict_seen *seen = ctx;
    for (size_t k = 0; k < fgt_fixture_dict.count && k < FGT_FIXTURE_WORDS; k++) {
        size_t wn = fgt_fixture_dict.lens[k];
        long pos = placed_at(in, out, n, fgt_fixture_dict.words[k], wn, seen->insert);
        if (pos < 0)
            continue;
        seen->words[k]++;
        seen->at_start += pos == 0;
        seen->at_end += (size_t)pos + wn == n;
        return 1;
    }
    return 0;
}

/* With no dictionary, or one without words, a dictionary mutator never applies. */
static void check_skips_without_words(const fgi_mutator *mu, const fgt_input *in)
{
    dict_seen seen = {0};
    seen.insert = strcmp(mu->name, "dict_insert") == 0;
    const fgi_dict *saved = fgt_mutenv.dict;
    fgt_mutenv.dict = NULL;
    CHECK_MUT(fgt_mut_each(mu, in, word_placed, &seen, 100) == 0, mu);
    static const char nothing[] = "# no words here\n\n   \r\n";
    fgi_dict empty;
    char err[128] = "";
    CHECK(fgi_dict_parse("empty", nothing, sizeof nothing - 1, &empty, err, sizeof err) ==
          FG_OK);
    CHECK_EQ_U(empty.count, 0);
    fgt_mutenv.dict = &empty;
    CHECK_MUT(fgt_mut_each(mu, in, word_placed, &seen, 100) == 0, mu);
    fgi_dict_free(&empty);
    fgt_mutenv.dict = saved;
}

FG_TEST(mutate_dict_insert)
{
    FGT_MUTATOR(mu, "dict_insert");
    fgt_mut_fixtures_on();
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 200, NULL, 0};
    /* Grows by exactly one word's length, the word whole at the insertion point. */
    dict_seen seen = {.insert = 1};
    CHECK(fgt_mut_each(mu, &in, word_placed, &seen, FGT_TRIALS) == FGT_TRIALS);
    for (size_t k = 0; k < FGT_FIXTURE_WORDS; k++)
        CHECK(seen.words[k] > 0); /* every word is drawn */
    CHECK(seen.at_start > 0 && seen.at_end > 0);
    /* Room for the two short words only: the others skip, the short ones still apply. */
    in.max = 66;
    dict_seen tight = {.insert = 1};
    unsigned applied = fgt_mut_each(mu, &in, word_placed, &tight, FGT_TRIALS);
    CHECK(applied > 0 && applied < FGT_TRIALS);
    CHECK(tight.words[0] == 0 && tight.words[1] == 0);
    CHECK(tight.words[2] > 0 && tight.words[3] > 0);
    in.max = 64; /* full */
    CHECK(fgt_mut_each(mu, &in, word_placed, &tight, 100) == 0);
    in.max = 200;
    check_skips_without_words(mu, &in);
    fgt_mut_fixtures_off();
}

FG_TEST(mutate_dict_overwrite)
{
    FGT_MUTATOR(mu, "dict_overwrite");
    fgt_mut_fixtures_on();
    uint8_t data[64];
    fgt_distinct(data, sizeof data);
    fgt_input in = {data, 64, 64, NULL, 0};
    /* Keeps the size; the word whole over the bytes it replaced, the rest untouched. */
    dict_seen seen = {.insert = 0};
    CHECK(fgt_mut_each(mu, &in, word_placed, &seen, FGT_TRIALS) == FGT_TRIALS);
    for (size_t k = 0; k < FGT_FIXTURE_WORDS; k++)
        CHECK(seen.words[k] > 0);
    CHECK(seen.at_start > 0 && seen.at_end > 0);
    /* A word longer than the input does not fit; the shorter ones do. */
    in.size = 4;
    in.max = 100;
    dict_seen tight = {.insert = 0};
    unsigned applied = fgt_mut_each(mu, &in, word_placed, &tight, FGT_TRIALS);
    CHECK(applied > 0 && applied < FGT_TRIALS);
    CHECK(tight.words[0] == 0 && tight.words[1] == 0);
    CHECK(tight.words[2] > 0 && tight.words[3] > 0);
    in.size = 1; /* min_size: only the one-byte word */
    dict_seen one = {.insert = 0};
    CHECK(fgt_mut_each(mu, &in, word_placed, &one, 200) > 0);
    CHECK(one.words[0] == 0 && one.words[1] == 0 && one.words[2] == 0 && one.words[3] > 0);
    in.size = 64;
    check_skips_without_words(mu, &in);
    fgt_mut_fixtures_off();
}

/* ---- cmp_int --------------------------------------------------------------------------- */

/* The pair of the cmp_int test: a 4-byte magic compared as one integer (the fixtures
 * record it too). */
static void compare_magic_int(void)
{
    __sanitizer_cov_trace_cmp4(FGT_CMP_A, FGT_CMP_B);
}

typedef struct int_seen {
    size_t magic_at; /* where the input holds a's bytes */
    uint8_t want[4]; /* b's bytes in the same byte order */
    unsigned hits;   /* results with want at magic_at */
} int_seen;

static int near(uint64_t v, uint64_t x)
{
    return v == x || v == x + 1 || v == x - 1;
}

/* Four bytes of an operand (or it +- 1; mostly b, sometimes a), in either byte order,
 * written over the input somewhere; nothing else changes. The same size, always. */
static int int_written(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    int_seen *seen = ctx;
    size_t lo, hi;
    if (n != in->size)
        return 0;
    if (!fgt_diff_span(in->data, out, n, &lo, &hi))
        return 1; /* an operand written over the same bytes */
    if (hi - lo >= 4)
        return 0;
    int shape = 0;
    for (size_t at = hi >= 3 ? hi - 3 : 0; at <= lo && at + 4 <= n && !shape; at++)
        for (int big = 0; big < 2 && !shape; big++) {
            uint64_t v = fgt_load(out + at, 4, big);
            shape = near(v, FGT_CMP_A) || near(v, FGT_CMP_B);
        }
    seen->hits += shape && memcmp(out + seen->magic_at, seen->want, 4) == 0;
    return shape;
}

FG_TEST(mutate_cmp_int)
{
    FGT_MUTATOR(mu, "cmp_int");
    CHECK(fgt_in_case(compare_magic_int));
    uint8_t le[32], be[32];
    fgt_distinct(le, sizeof le);
    fgt_distinct(be, sizeof be);
    static const uint8_t a_le[4] = {0x44, 0x33, 0x22, 0x11}, a_be[4] = {0x11, 0x22, 0x33, 0x44};
    memcpy(le + 8, a_le, 4);
    memcpy(be + 20, a_be, 4);
    /* Where a is, b goes, in the byte order a was found in (often, not always: either
     * order is tried, the operands are sometimes swapped, and now and then b +- 1). */
    fgt_input in = {le, sizeof le, 64, NULL, 0};
    int_seen seen = {8, {0xef, 0xbe, 0xad, 0xde}, 0};
    CHECK(fgt_mut_each(mu, &in, int_written, &seen, FGT_TRIALS) == FGT_TRIALS);
    CHECK(seen.hits > FGT_TRIALS / 6);
    in.data = be;
    int_seen seen_be = {20, {0xde, 0xad, 0xbe, 0xef}, 0};
    CHECK(fgt_mut_each(mu, &in, int_written, &seen_be, FGT_TRIALS) == FGT_TRIALS);
    CHECK(seen_be.hits > FGT_TRIALS / 6);
    /* An input shorter than the pair's width: nowhere to write it. Exactly as wide: yes. */
    in.size = 3;
    CHECK(fgt_mut_each(mu, &in, int_written, &seen, 100) == 0);
    in.size = in.max = 4;
    CHECK(fgt_mut_each(mu, &in, int_written, &seen, 100) == 100);
    /* Nothing recorded: nothing to write. */
    fgi_cmp_reset();
    in.size = sizeof le;
    in.max = 64;
    CHECK(fgt_mut_each(mu, &in, int_written, &seen, 100) == 0);
    /* The base input's own comparisons serve too, with the tables empty (they are drawn
     * most of the time; the rest of the time the empty table gives nothing). */
    static const fgi_cmp_int own = {FGT_CMP_A, FGT_CMP_B, 4, 0, FGI_CMP_INTEGER};
    fgt_mutenv.local = &own;
    fgt_mutenv.nlocal = 1;
    in.data = le;
    int_seen local = {8, {0xef, 0xbe, 0xad, 0xde}, 0};
    unsigned applied = fgt_mut_each(mu, &in, int_written, &local, FGT_TRIALS);
    CHECK(applied > FGT_TRIALS / 2 && applied < FGT_TRIALS);
    CHECK(local.hits > FGT_TRIALS / 8);
    fgt_mutenv.local = NULL;
    fgt_mutenv.nlocal = 0;
}

/* A 2-byte field compared as 8 bytes (read into a long): its 2 bytes are where the other
 * operand's 2 go, in the order they were found in. */
typedef struct short_seen {
    unsigned placed; /* results with ef be where 34 12 was, nothing else changed */
} short_seen;

/* An 8-byte word at some offset of out that is an operand (or one +- 1), either order. */
static int holds_wide_operand(const uint8_t *out, size_t n)
{
    for (size_t at = 0; at + 8 <= n; at++)
        for (int big = 0; big < 2; big++) {
            uint64_t v = fgt_load(out + at, 8, big);
            if (near(v, 0x1234) || near(v, 0xbeef))
                return 1;
        }
    return 0;
}

/* The 2 bytes of the other operand where the field's were, or (neither operand's field
 * found) a whole 8-byte operand written somewhere: never a mix of the two. */
static int short_field_written(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    short_seen *seen = ctx;
    if (n != in->size)
        return 0;
    size_t lo, hi;
    if (!fgt_diff_span(in->data, out, n, &lo, &hi))
        return 1;
    int placed = memcmp(out, in->data, 8) == 0 && memcmp(out + 10, in->data + 10, n - 10) == 0;
    seen->placed += placed && out[8] == 0xef && out[9] == 0xbe;
    return placed || holds_wide_operand(out, n);
}

FG_TEST(mutate_cmp_int_writes_a_short_field_compared_wide)
{
    FGT_MUTATOR(mu, "cmp_int");
    uint8_t buf[32];
    fgt_distinct(buf, sizeof buf); /* 34 12 nowhere else, nor 34 12 00 .. 00 */
    buf[8] = 0x34;
    buf[9] = 0x12;
    static const fgi_cmp_int own = {0x1234, 0xbeef, 8, 0, FGI_CMP_INTEGER};
    fgt_mutenv.local = &own;
    fgt_mutenv.nlocal = 1;
    fgt_input in = {buf, sizeof buf, 64, NULL, 0};
    /* Little-endian as found, the pair not swapped, b not moved by one: about a quarter. */
    short_seen seen = {0};
    CHECK(fgt_mut_each(mu, &in, short_field_written, &seen, FGT_TRIALS) > FGT_TRIALS / 2);
    CHECK(seen.placed > FGT_TRIALS / 8);
    fgt_mutenv.local = NULL;
    fgt_mutenv.nlocal = 0;
}

/* The same field in an input shorter than the comparison (a 5-byte stored block header,
 * its length read into a long): the field fits, so it is written (the other operand, or
 * one either side of it); a whole 8-byte operand would not, so nothing else is. */
static int short_input_field_written(const fgt_input *in, const uint8_t *out, size_t n,
                                     void *ctx)
{
    short_seen *seen = ctx;
    if (n != in->size || out[0] != in->data[0] || memcmp(out + 3, in->data + 3, 2) != 0)
        return 0;
    uint64_t v = fgt_load(out + 1, 2, 0);
    seen->placed += v == 0xbeef;
    return near(v, 0xbeef);
}

FG_TEST(mutate_cmp_int_writes_a_short_field_in_a_shorter_input)
{
    FGT_MUTATOR(mu, "cmp_int");
    uint8_t buf[5] = {0x01, 0x34, 0x12, 0x77, 0x66};
    static const fgi_cmp_int own = {0x1234, 0xbeef, 8, 0, FGI_CMP_INTEGER};
    fgt_mutenv.local = &own;
    fgt_mutenv.nlocal = 1;
    fgt_input in = {buf, sizeof buf, 64, NULL, 0};
    /* Applied only when the field is found: the local pair drawn (3/4), little-endian
     * (1/2), not swapped (3/4); exactly b (7/8): about a quarter of the trials. */
    short_seen seen = {0};
    fgt_mut_each(mu, &in, short_input_field_written, &seen, FGT_TRIALS);
    CHECK(seen.placed > FGT_TRIALS / 8);
    /* Not found: no room for the whole word, so nothing is written. */
    buf[1] = 0x55;
    CHECK_EQ_U(fgt_mut_each(mu, &in, short_input_field_written, &seen, FGT_TRIALS), 0);
    fgt_mutenv.local = NULL;
    fgt_mutenv.nlocal = 0;
}

/* ---- cmp_bytes ------------------------------------------------------------------------- */

/* The pair of the cmp_bytes test; fgi_cmp_note_bytes is what the memcmp family reaches
 * in every build (interposed or through the sanitizer's hooks). */
static void compare_magic_bytes(void)
{
    fgi_cmp_note_bytes("MAGICKEY", 8, "abcdefgh", 8);
}

typedef struct bytes_seen {
    const char *from, *to; /* the operand the input holds, and what should replace it */
    unsigned replaced;     /* results with from replaced by to where it was */
} bytes_seen;

/* out is in with the len(o) bytes at some offset holding o replaced by w. */
static int replaced_by(const fgt_input *in, const uint8_t *out, size_t n, const char *o,
                       const char *w)
{
    size_t on = strlen(o), wn = strlen(w);
    if (on > in->size || n != in->size - on + wn)
        return 0;
    for (size_t p = 0; p + on <= in->size; p++)
        if (memcmp(in->data + p, o, on) == 0 && memcmp(out, in->data, p) == 0 &&
            memcmp(out + p, w, wn) == 0 &&
            memcmp(out + p + wn, in->data + p + on, in->size - p - on) == 0)
            return 1;
    return 0;
}

/* One operand inserted, written over the input, or put in place of the other. */
static int operand_placed(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    bytes_seen *seen = ctx;
    if (replaced_by(in, out, n, seen->from, seen->to)) {
        seen->replaced++;
        return 1;
    }
    const char *ops[2] = {seen->from, seen->to};
    for (int i = 0; i < 2; i++) {
        const uint8_t *w = (const uint8_t *)ops[i];
        size_t wn = strlen(ops[i]);
        if (placed_at(in, out, n, w, wn, 1) >= 0 || placed_at(in, out, n, w, wn, 0) >= 0)
            return 1;
    }
    return 0;
}

static void compare_short_long(void)
{
    fgi_cmp_note_bytes("ab", 2, "LONGERWORD", 10);
}

FG_TEST(mutate_cmp_bytes)
{
    FGT_MUTATOR(mu, "cmp_bytes");
    CHECK(fgt_in_case(compare_magic_bytes));
    static const char text[] = "0123abcdefgh4567";
    fgt_input in = {(const uint8_t *)text, sizeof text - 1, 64, NULL, 0};
    bytes_seen seen = {"abcdefgh", "MAGICKEY", 0};
    CHECK(fgt_mut_each(mu, &in, operand_placed, &seen, FGT_TRIALS) == FGT_TRIALS);
    CHECK(seen.replaced > FGT_TRIALS / 4); /* "MAGICKEY" where "abcdefgh" was */
    /* Operands of different lengths: the replacement changes the size. */
    CHECK(fgt_in_case(compare_short_long));
    static const char text2[] = "0123ab4567";
    fgt_input in2 = {(const uint8_t *)text2, sizeof text2 - 1, 64, NULL, 0};
    bytes_seen seen2 = {"ab", "LONGERWORD", 0};
    CHECK(fgt_mut_each(mu, &in2, operand_placed, &seen2, FGT_TRIALS) == FGT_TRIALS);
    CHECK(seen2.replaced > FGT_TRIALS / 4);
    /* No room for the longer operand: never replaced, still in bounds. */
    in2.max = 12;
    seen2.replaced = 0;
    CHECK(fgt_mut_each(mu, &in2, operand_placed, &seen2, FGT_TRIALS) > 0);
    CHECK_EQ_U(seen2.replaced, 0);
    /* Nothing recorded: nothing to place. */
    fgi_cmp_reset();
    CHECK(fgt_mut_each(mu, &in, operand_placed, &seen, 100) == 0);
    in.size = 0;
    CHECK(fgt_mut_each(mu, &in, operand_placed, &seen, 100) == 0);
}

/* ---- hot_byte -------------------------------------------------------------------------- */

/* Differs from the input in exactly one byte at or after position 2 (hot is 3: position
 * 2), or is the input with one byte appended. */
static int one_byte_near_hot(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    size_t *next = ctx, diff = SIZE_MAX, count = 0;
    if (n == in->size + 1)
        return memcmp(out, in->data, in->size) == 0;
    if (n != in->size)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (out[i] != in->data[i]) {
            diff = i;
            count++;
        }
    *next += diff == 3;
    return count == 1 && diff >= 2 && diff <= 5;
}

FG_TEST(mutate_hot_byte)
{
    FGT_MUTATOR(mu, "hot_byte");
    static const char text[] = "abcdefgh";
    fgt_input in = {(const uint8_t *)text, sizeof text - 1, 16, NULL, 0};
    size_t next = 0;
    CHECK(fgt_mut_each(mu, &in, one_byte_near_hot, &next, FGT_TRIALS) == 0); /* no hot: skips */
    fgt_mutenv.hot = 3;
    CHECK(fgt_mut_each(mu, &in, one_byte_near_hot, &next, FGT_TRIALS) == FGT_TRIALS);
    CHECK(next > FGT_TRIALS / 3); /* mostly the byte after the hot one */
    fgt_input end = {(const uint8_t *)text, 3, 16, NULL, 0}; /* the input ends at the hot byte */
    size_t grown = 0;
    CHECK(fgt_mut_each(mu, &end, one_byte_near_hot, &grown, FGT_TRIALS) == FGT_TRIALS);
    fgt_mutenv.hot = 0;
}

/* A ladder of 2-byte fields whose news was at position 2 (hot 3), a field past its base's:
 * the next field's first byte is at 4, where the input ends, so it grows by a whole field
 * there, the field's second byte copied from the last field's. */
static int field_grown(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    size_t *fields = ctx;
    if (n == in->size + 2 && memcmp(out, in->data, in->size) == 0 && out[5] == out[3])
        ++*fields;
    return n <= in->size + 2;
}

FG_TEST(mutate_hot_byte_grows_a_field_at_the_stride)
{
    FGT_MUTATOR(mu, "hot_byte");
    fgt_input in = {(const uint8_t *)"#x=y", 4, 16, NULL, 0};
    size_t fields = 0;
    fgt_mutenv.hot = 3;
    fgt_mutenv.stride = 2;
    CHECK(fgt_mut_each(mu, &in, field_grown, &fields, FGT_TRIALS) == FGT_TRIALS);
    CHECK(fields > FGT_TRIALS / 4); /* mostly the field a stride on */
    fgt_mutenv.hot = 0;
    fgt_mutenv.stride = 0;
}
