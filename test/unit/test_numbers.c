/* test/unit/test_numbers.c — numbers as text: the forms of a compared value
 * (engine/base/numtext.c), the number tokens found in an input and the mutator cmp_number
 * that rewrites them (engine/mutate/numbers.c). */
#include "test/support/check.h"
#include "test/support/mutators.h"

#include "engine/base/numtext.h"
#include "engine/base/rng.h"
#include "engine/mutate/numbers.h"

#include <stdlib.h>
#include <string.h>

/* Every form of a handful of values; "" where the form does not apply. */
static const struct {
    double v;
    int is_float;
    enum fgi_num_form form;
    const char *want;
} forms[] = {
    {2718.5, 0, FGI_NUM_SHORTEST, "2718.5"},
    {2718.5, 0, FGI_NUM_G17, "2718.5"},
    {2718.5, 0, FGI_NUM_EXP, "2.7185e+03"},
    {2718.5, 0, FGI_NUM_PLAIN, "2718.5"},
    {2718.5, 0, FGI_NUM_HEX, "0x1.53dp+11"},
    {2718.5, 0, FGI_NUM_INT, ""},
    {0.1, 0, FGI_NUM_SHORTEST, "0.1"},
    {0.1, 0, FGI_NUM_G17, "0.10000000000000001"},
    {0.1, 0, FGI_NUM_EXP, "1e-01"},
    {0.1, 0, FGI_NUM_PLAIN, "0.1"},
    {0.1, 0, FGI_NUM_HEX, "0x1.999999999999ap-4"},
    /* A float's shortest reads back through strtof, not strtod. */
    {(double)3.14f, 1, FGI_NUM_SHORTEST, "3.14"},
    {(double)3.14f, 1, FGI_NUM_PLAIN, "3.14"},
    {(double)3.14f, 0, FGI_NUM_SHORTEST, "3.140000104904175"}, /* the double: 16 digits */
    {(double)3.14f, 1, FGI_NUM_G17, "3.1400001049041748"},
    {-42.0, 0, FGI_NUM_SHORTEST, "-42"},
    {-42.0, 0, FGI_NUM_EXP, "-4.2e+01"},
    {-42.0, 0, FGI_NUM_INT, "-42"},
    {-42.0, 0, FGI_NUM_HEX, "-0x1.5p+5"},
    {1e300, 0, FGI_NUM_SHORTEST, "1e+300"},
    {1e300, 0, FGI_NUM_PLAIN, ""}, /* 301 digits: not written */
    {1e300, 0, FGI_NUM_INT, ""},   /* beyond 2^63 */
    {1e-7, 0, FGI_NUM_SHORTEST, "1e-07"},
    {1e-7, 0, FGI_NUM_PLAIN, "0.0000001"},
    {4096.0, 0, FGI_NUM_INT, "4096"},
    {4096.0, 0, FGI_NUM_PLAIN, "4096"},
    {1.0 / 0.0, 0, FGI_NUM_SHORTEST, "inf"},
    {1.0 / 0.0, 0, FGI_NUM_INT, ""},
};

FG_TEST(numbers_text_forms_table)
{
    for (size_t i = 0; i < FGI_ARRAY_LEN(forms); i++) {
        char out[FGI_NUM_TEXT_MAX];
        size_t n = fgi_num_text(forms[i].v, forms[i].is_float, forms[i].form, out);
        int ok = n == strlen(forms[i].want) && (n == 0 || strcmp(out, forms[i].want) == 0);
        if (!ok)
            printf("  row %zu: want \"%s\", got \"%.*s\"\n", i, forms[i].want, (int)n, out);
        CHECK(ok);
    }
}

/* Every form that applies reads back as the value (strtod; strtof for a float). */
FG_TEST(numbers_every_form_reads_back)
{
    static const double vals[] = {0.0, -0.0, 1.0, -1.5, 2718.5, 1e-300, 6.02214076e23,
                                  123456789012345678.0, 0.30000000000000004, 5e-324};
    for (size_t i = 0; i < FGI_ARRAY_LEN(vals); i++)
        for (int f = 0; f < FGI_NUM_FORMS; f++) {
            char out[FGI_NUM_TEXT_MAX];
            size_t n = fgi_num_text(vals[i], 0, (enum fgi_num_form)f, out);
            CHECK(n < FGI_NUM_TEXT_MAX);
            if (n) {
                CHECK_EQ_U(strlen(out), n);
                CHECK(strtod(out, NULL) == vals[i]);
            }
            CHECK(n || f == FGI_NUM_INT || f == FGI_NUM_PLAIN); /* the rest always apply */
        }
}

static const struct {
    const char *text;
    size_t at;
    int found;
    double value;
    size_t len;
} tokens[] = {
    {"a=-3.5e2,x", 2, 1, -350.0, 6},
    {"a=-3.5e2,x", 3, 0, 0, 0}, /* inside the token: it starts at the sign */
    {"abc12", 3, 0, 0, 0},      /* part of a word */
    {"x .5;", 2, 1, 0.5, 2},
    {"0x1p3]", 0, 1, 8.0, 5},
    {"-x", 0, 0, 0, 0},
    {"v=2718.5", 2, 1, 2718.5, 6},
    {"7", 0, 1, 7.0, 1},
};

FG_TEST(numbers_tokens)
{
    for (size_t i = 0; i < FGI_ARRAY_LEN(tokens); i++) {
        double v = -1;
        size_t len = 0;
        const char *t = tokens[i].text;
        int got = fgi_num_token((const uint8_t *)t, strlen(t), tokens[i].at, &v, &len);
        int ok = got == tokens[i].found &&
                 (!got || (v == tokens[i].value && len == tokens[i].len));
        if (!ok)
            printf("  token %zu (\"%s\" at %zu): got %d, %g, %zu\n", i, t, tokens[i].at, got, v,
                   len);
        CHECK(ok);
    }
    /* A number running to the end of a long input is read within the input only. */
    uint8_t digits[100];
    memset(digits, '9', sizeof digits);
    double v;
    size_t len;
    CHECK(fgi_num_token(digits, 5, 0, &v, &len) == 1);
    CHECK(len == 5 && v == 99999.0);
}

/* The scan's skip: every position where a token starts is one fgi_num_next_start stops at,
 * from any start and to any end; buffers drawn from bytes that make and break tokens. */
FG_TEST(numbers_next_start_skips_no_token)
{
    static const char *const pieces[] = {" ", ",", "\xff", "-", "+", ".", "5", "17", "0x",
                                         "e", "a", "_", "+.", "-.", "x", "\xb0", ":", "/",
                                         "        "};
    fgi_rng r;
    fgi_rng_case(&r, 7, 1, 0);
    uint8_t buf[40];
    for (int round = 0; round < 4000; round++) {
        size_t size = 0, want_size = (size_t)fgi_rng_below(&r, sizeof buf + 1);
        while (size < want_size) {
            const char *p = pieces[fgi_rng_below(&r, FGI_ARRAY_LEN(pieces))];
            for (; *p && size < want_size; p++)
                buf[size++] = (uint8_t)*p;
        }
        size_t from = (size_t)fgi_rng_below(&r, size + 1);
        size_t end = from + (size_t)fgi_rng_below(&r, size - from + 1);
        size_t want = from; /* the first token start at or after `from`, by every byte */
        double v;
        size_t len;
        while (want < end && !fgi_num_token(buf, size, want, &v, &len))
            want++;
        size_t got = fgi_num_next_start(buf, size, from, end);
        CHECK(got <= want && got <= end);
        /* and it skipped nothing: the positions it stops at, walked to `want` */
        while (got < want && !fgi_num_token(buf, size, got, &v, &len))
            got = fgi_num_next_start(buf, size, got + 1, end);
        if (got != want)
            printf("  round %d: size %zu from %zu end %zu: want %zu, got %zu\n", round, size,
                   from, end, want, got);
        CHECK(got == want);
    }
}

/* Tokens read without strtod (plain decimals) read as strtod reads them: the same value,
 * bit for bit (-0 included), and the same length; tokens drawn from pieces that make
 * plain decimals, their edges (18 and 19 digits, a sign, a trailing '.', ',', 'e', 'x') and
 * the rest. */
FG_TEST(numbers_tokens_read_as_strtod_reads_them)
{
    static const char *const pieces[] = {"-", "+", "0", "7", "123456789", "999999999", ".",
                                         ",", "e", "E5", "x", "1f", " ", "\xc3", "5", "00"};
    fgi_rng r;
    fgi_rng_case(&r, 11, 3, 0);
    for (int round = 0; round < 20000; round++) {
        char buf[48];
        size_t size = 0, want = 1 + (size_t)fgi_rng_below(&r, 40);
        while (size < want) {
            const char *p = pieces[fgi_rng_below(&r, FGI_ARRAY_LEN(pieces))];
            for (; *p && size < want; p++)
                buf[size++] = *p;
        }
        double v = 0;
        size_t len = 0;
        if (!fgi_num_token((const uint8_t *)buf, size, 0, &v, &len))
            continue;
        char text[64];
        memcpy(text, buf, size);
        text[size] = '\0';
        char *end;
        double ref = strtod(text, &end);
        int ok = len == (size_t)(end - text) && memcmp(&v, &ref, sizeof v) == 0;
        if (!ok)
            printf("  round %d: \"%.*s\": got %.17g (%zu bytes), strtod %.17g (%zu)\n", round,
                   (int)size, buf, v, len, ref, (size_t)(end - text));
        CHECK(ok);
    }
}

/* ---- cmp_number ------------------------------------------------------------------------ */

static double bits_double(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static uint64_t double_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

typedef struct number_seen {
    const char *pre, *post; /* what surrounds the number, unchanged */
    double want;            /* the operand that should replace it */
    int is_float;
    unsigned exact;         /* results whose number reads back as want exactly */
    unsigned forms[6];      /* which first characters: digit, '0x', exponent, ... */
} number_seen;

/* The number between pre and post reads back as want, or as its neighbour (an ordered
 * comparison's nudge: one ulp, or +-1 for an integer). */
static int number_written(const fgt_input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)in;
    number_seen *s = ctx;
    size_t pl = strlen(s->pre), ql = strlen(s->post);
    if (n < pl + ql + 1 || n - pl - ql >= 64 || memcmp(out, s->pre, pl) != 0 ||
        memcmp(out + n - ql, s->post, ql) != 0)
        return 0;
    char text[64];
    memcpy(text, out + pl, n - pl - ql);
    text[n - pl - ql] = '\0';
    char *end;
    double v = s->is_float ? (double)strtof(text, &end) : strtod(text, &end);
    if (*end != '\0')
        return 0;
    s->exact += v == s->want;
    s->forms[0] += strchr(text, 'x') != NULL;
    s->forms[1] += strchr(text, 'e') != NULL;
    s->forms[2] += strchr(text, 'e') == NULL && strchr(text, 'x') == NULL;
    double d = v - s->want;
    return v == s->want || (d < 0 ? -d : d) <= 1.0 || (d < 0 ? -d : d) < 1e-9 * s->want;
}

FG_TEST(mutate_cmp_number)
{
    FGT_MUTATOR(mu, "cmp_number");
    fgi_cmp_reset();
    /* The base input's own double comparison: the 3.25 it holds against 2718.5. */
    fgi_cmp_int own = {double_bits(3.25), double_bits(2718.5), 8, 0, FGI_CMP_DOUBLE};
    fgt_mutenv.local = &own;
    fgt_mutenv.nlocal = 1;
    static const char text[] = "v=3.25;";
    fgt_input in = {(const uint8_t *)text, sizeof text - 1, 64, NULL, 0};
    number_seen seen = {"v=", ";", 2718.5, 0, 0, {0}};
    unsigned applied = fgt_mut_each(mu, &in, number_written, &seen, FGT_TRIALS);
    CHECK(applied > FGT_TRIALS / 2); /* the empty pool is drawn now and then: a skip */
    CHECK(seen.exact > applied / 2);
    CHECK(seen.forms[0] > 0 && seen.forms[1] > 0 && seen.forms[2] > 0); /* %a, exp, plain */
    /* The operand found is replaced by the other, whichever side it is. */
    static const char text2[] = "v=2718.5;";
    fgt_input in2 = {(const uint8_t *)text2, sizeof text2 - 1, 64, NULL, 0};
    number_seen seen2 = {"v=", ";", 3.25, 0, 0, {0}};
    CHECK(fgt_mut_each(mu, &in2, number_written, &seen2, FGT_TRIALS) > FGT_TRIALS / 2);
    CHECK(seen2.exact > FGT_TRIALS / 4);
    /* A float: its shortest text reads back through strtof. */
    uint32_t fa, fb;
    float f1 = 1.5f, f2 = 3.14f;
    memcpy(&fa, &f1, 4);
    memcpy(&fb, &f2, 4);
    fgi_cmp_int fown = {fa, fb, 4, 0, FGI_CMP_FLOAT};
    fgt_mutenv.local = &fown;
    static const char text3[] = "x 1.5";
    fgt_input in3 = {(const uint8_t *)text3, sizeof text3 - 1, 64, NULL, 0};
    number_seen seen3 = {"x ", "", (double)3.14f, 1, 0, {0}};
    CHECK(fgt_mut_each(mu, &in3, number_written, &seen3, FGT_TRIALS) > FGT_TRIALS / 2);
    CHECK(seen3.exact > FGT_TRIALS / 4);
    /* An integer comparison whose operand is the value of a number in the text (atoi's
     * 42 against 1234): the number is rewritten, in decimal or hex. */
    fgi_cmp_int iown = {42, 1234, 4, 1, FGI_CMP_INTEGER};
    fgt_mutenv.local = &iown;
    static const char text4[] = "n=42,";
    fgt_input in4 = {(const uint8_t *)text4, sizeof text4 - 1, 64, NULL, 0};
    number_seen seen4 = {"n=", ",", 1234, 0, 0, {0}};
    CHECK(fgt_mut_each(mu, &in4, number_written, &seen4, FGT_TRIALS) > FGT_TRIALS / 2);
    CHECK(seen4.exact > FGT_TRIALS / 4 && seen4.forms[0] > 0);
    /* ... and where no number in the text is an operand, an integer comparison is no
     * number: nothing to do. */
    static const char text5[] = "n=43,";
    fgt_input in5 = {(const uint8_t *)text5, sizeof text5 - 1, 64, NULL, 0};
    CHECK(fgt_mut_each(mu, &in5, number_written, &seen4, 100) == 0);
    /* A double with no number in the input: inserted as text. */
    fgt_mutenv.local = &own;
    static const char text6[] = "ab";
    fgt_input in6 = {(const uint8_t *)text6, 2, 64, NULL, 0};
    unsigned inserted = 0;
    static uint8_t out[FGT_OUT_CAP];
    for (uint64_t k = 0; k < 200; k++) {
        size_t n = 0;
        if (fgt_mut_run(mu, k, &in6, out, &n) == 1) {
            char t[80];
            size_t tl = n - 2;
            memcpy(t, out, n);
            t[n] = '\0';
            for (size_t at = 0; at <= 2; at++) {
                char num[64];
                if (memcmp(t, text6, at) != 0 || memcmp(t + at + tl, text6 + at, 2 - at) != 0)
                    continue;
                memcpy(num, t + at, tl);
                num[tl] = '\0';
                char *end;
                double v = strtod(num, &end);
                if (*end == '\0' && (v == 2718.5 || v == 3.25 ||
                                     bits_double(double_bits(v) + 1) == 2718.5 ||
                                     bits_double(double_bits(v) - 1) == 2718.5 ||
                                     bits_double(double_bits(v) + 1) == 3.25 ||
                                     bits_double(double_bits(v) - 1) == 3.25)) {
                    inserted++;
                    break;
                }
            }
        }
    }
    CHECK(inserted > 50);
    fgt_mutenv.local = NULL;
    fgt_mutenv.nlocal = 0;
}
