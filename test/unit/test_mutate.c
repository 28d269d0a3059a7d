/* test/unit/test_mutate.c — every mutator: reachable, bounded by max, deterministic, and doing
 * what its name says; fgi_mutate's stacking and its description. */
#include "test/support/case.h"
#include "test/support/check.h"
#include "engine/feedback/sancov.h"

#include "engine/feedback/cmp.h"
#include "engine/mutate/mutate.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define SEED 0x5eed0f6a7e2026ULL
#define GUARD 16       /* canary bytes after max, in buf and in scratch */
#define CANARY 0xa5
#define FILLER 0x5a    /* what lies in buf between size and max */
#define TRIALS 600
#define OUT_CAP (4096 + GUARD)

/* Like CHECK, but names the mutator (the loops below run every mutator). */
#define CHECK_MUT(c, mu)                                                                   \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            char fgt_m_[256];                                                              \
            snprintf(fgt_m_, sizeof fgt_m_, "[%s] %s", (mu)->name, #c);                    \
            fgt_fail(__FILE__, __LINE__, fgt_m_);                                          \
        }                                                                                  \
    } while (0)

/* The dictionary every application below hands the mutator (NULL: none). Tests that run
 * every mutator set it with fixtures_on(); see "fixtures" below. */
static const fgi_dict *mut_dict;
/* The base input's own comparisons every application gets (none unless a test sets them). */
static const fgi_cmp_int *mut_local;
static uint32_t mut_hot; /* fgi_mut.hot for apply_once: 1 + a position, 0 none */
static size_t mut_nlocal;

static const fgi_mutator *mut_by_name(const char *name)
{
    for (size_t i = 0; i < fgi_mutator_count; i++)
        if (strcmp(fgi_mutators[i].name, name) == 0)
            return &fgi_mutators[i];
    return NULL;
}

/* One input for a mutator: bytes, the capacity, and the crossover partner. */
typedef struct input {
    const uint8_t *data;
    size_t size, max;
    const uint8_t *other;
    size_t other_size;
} input;

static int guard_intact(const uint8_t *p)
{
    for (size_t i = 0; i < GUARD; i++)
        if (p[i] != CANARY)
            return 0;
    return 1;
}

/* One application in guarded buffers. Returns 1 (applied: *n bytes in out), 0 (skipped),
 * -1 (an invariant failed; reported). */
static int apply_once(const fgi_mutator *mu, fgi_rng *r, const input *in, uint8_t *out,
                      size_t *n)
{
    size_t cap = in->max + GUARD;
    uint8_t *buf = malloc(cap), *before = malloc(cap), *scratch = malloc(cap);
    int rc = -1;
    CHECK(buf && before && scratch);
    if (!buf || !before || !scratch)
        goto done;
    if (in->size)
        memcpy(buf, in->data, in->size);
    memset(buf + in->size, FILLER, in->max - in->size);
    memset(buf + in->max, CANARY, GUARD);
    memset(scratch, 0x3c, in->max);
    memset(scratch + in->max, CANARY, GUARD);
    memcpy(before, buf, cap);
    size_t reals = 0; /* as fgi_sched_lend has it from the entry */
    for (size_t i = 0; i < mut_nlocal; i++)
        reals += mut_local[i].kind != FGI_CMP_INTEGER;
    fgi_mut m = {.rng = r, .other = in->other, .other_size = in->other_size,
                 .scratch = scratch, .dict = mut_dict, .local = mut_local,
                 .nlocal = mut_nlocal, .nlocal_reals = reals, .hot = mut_hot};
    size_t got = mu->fn(&m, buf, in->size, in->max);
    int ok = guard_intact(buf + in->max) && guard_intact(scratch + in->max);
    CHECK_MUT(guard_intact(buf + in->max), mu);
    CHECK_MUT(guard_intact(scratch + in->max), mu);
    if (got == FGI_MUT_SKIP) {
        CHECK_MUT(memcmp(buf, before, cap) == 0, mu); /* skip leaves buf unchanged */
        ok = ok && memcmp(buf, before, cap) == 0;
        rc = ok ? 0 : -1;
        goto done;
    }
    CHECK_MUT(got <= in->max, mu);
    ok = ok && got <= in->max && got + GUARD <= OUT_CAP;
    if (ok) {
        memcpy(out, buf, got);
        *n = got;
        rc = 1;
    }
done:
    free(buf);
    free(before);
    free(scratch);
    return rc;
}

/* Applies mu under the stream of case k, twice from the same state: the two results must
 * be identical (bytes, length, and the draws taken). Same return as apply_once. */
static int run_mut(const fgi_mutator *mu, uint64_t k, const input *in, uint8_t *out,
                   size_t *n)
{
    static uint8_t again[OUT_CAP];
    fgi_rng r1, r2;
    fgi_rng_case(&r1, SEED, fgi_hash_str(mu->name), k);
    r2 = r1;
    size_t n1 = 0, n2 = 0;
    int a = apply_once(mu, &r1, in, out, &n1);
    int b = apply_once(mu, &r2, in, again, &n2);
    if (a < 0 || b < 0)
        return -1;
    int same = a == b && r1.state == r2.state && (a == 0 || (n1 == n2 && !memcmp(out, again, n1)));
    CHECK_MUT(same, mu);
    if (!same)
        return -1;
    *n = n1;
    return a;
}

/* in[i] = i: every byte distinct (size <= 256), so where a byte went is unambiguous. */
static void distinct(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)i;
}

/* 1 when big (bn bytes) is small (sn bytes) with the span [pos, pos + bn - sn) inserted. */
static int inserted_at(const uint8_t *small, size_t sn, const uint8_t *big, size_t bn,
                       size_t pos)
{
    size_t d = bn - sn;
    return bn >= sn && pos <= sn && memcmp(big, small, pos) == 0 &&
           memcmp(big + pos + d, small + pos, sn - pos) == 0;
}

/* 1 when needle (n bytes) occurs in hay (h bytes). */
static int contains(const uint8_t *hay, size_t h, const uint8_t *needle, size_t n)
{
    if (n == 0)
        return 1;
    for (size_t i = 0; i + n <= h; i++)
        if (memcmp(hay + i, needle, n) == 0)
            return 1;
    return 0;
}

/* The first and last differing offsets of two equal-length buffers; 0 when equal. */
static int diff_span(const uint8_t *a, const uint8_t *b, size_t n, size_t *lo, size_t *hi)
{
    size_t i = 0, j = n;
    while (i < n && a[i] == b[i])
        i++;
    if (i == n)
        return 0;
    while (j > i && a[j - 1] == b[j - 1])
        j--;
    *lo = i;
    *hi = j - 1;
    return 1;
}

static uint64_t load(const uint8_t *p, unsigned w, int big)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < w; i++)
        v |= (uint64_t)p[big ? w - 1 - i : i] << (8 * i);
    return v;
}

static uint64_t mask_of(unsigned w)
{
    return w >= 8 ? ~0ULL : (1ULL << (8 * w)) - 1;
}

/* ---- fixtures: a dictionary and comparison tables --------------------------------------- */

/* dict_insert and dict_overwrite apply only with a dictionary, cmp_int and cmp_bytes only
 * with recorded comparisons; a test that runs every mutator brackets itself with
 * fixtures_on() and fixtures_off(). The words cover every length class a mutator meets:
 * one byte (so dict_overwrite applies at its min_size), short, and longer. */
static const char fixture_dict_text[] = "# the test dictionary\n"
                                        "\n"
                                        "kw=\"KEYWORD\"\n"
                                        "\"\\x89PNG\\r\\n\"\n"
                                        "sep=\"::\"\n"
                                        "one@1=\"\\xff\"\n";
#define FIXTURE_WORDS 4

static fgi_dict fixture_dict;

/* The comparison tables are filled only while a case runs: fgt_in_case (test/support/case.c). */


/* The pair of the cmp_int test: a 4-byte magic compared as one integer. */
#define CMP_A 0x11223344u
#define CMP_B 0xdeadbeefu

static void compare_magic_int(void)
{
    __sanitizer_cov_trace_cmp4(CMP_A, CMP_B);
}

/* The pair of the cmp_bytes test; fgi_cmp_note_bytes is what the memcmp family reaches
 * in every build (interposed or through the sanitizer's hooks). */
static void compare_magic_bytes(void)
{
    fgi_cmp_note_bytes("MAGICKEY", 8, "abcdefgh", 8);
}

/* Every width and both string shapes: different lengths, and the longest kept. */
static void compare_everything(void)
{
    static const char long_a[] = "0123456789abcdefghijklmnopqrstuvwxyzABCD";
    static const char long_b[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd";
    __sanitizer_cov_trace_cmp1(0x41, 0x7a);
    __sanitizer_cov_trace_cmp2(0x1234, 0xfffe);
    __sanitizer_cov_trace_cmp4(CMP_A, CMP_B);
    __sanitizer_cov_trace_const_cmp8(0x8877665544332211ULL, 0x0102030405060708ULL);
    __sanitizer_cov_trace_cmpd(3.25, 2718.5);
    fgi_cmp_note_bytes("MAGICKEY", 8, "abcdefgh", 8);
    fgi_cmp_note_bytes("ab", 2, "LONGERWORD", 10);
    fgi_cmp_note_bytes(long_a, sizeof long_a - 1, long_b, sizeof long_b - 1);
}

static void fixtures_on(void)
{
    char err[256] = "";
    fg_error e = fgi_dict_parse("fixture", fixture_dict_text, sizeof fixture_dict_text - 1,
                                &fixture_dict, err, sizeof err);
    CHECK(e == FG_OK);
    CHECK_EQ_U(fixture_dict.count, FIXTURE_WORDS);
    mut_dict = &fixture_dict;
    mut_hot = 1; /* hot_byte applies from position 0 on */
    CHECK(fgt_in_case(compare_everything));
    fgi_rng r;
    fgi_rng_case(&r, SEED, 1, 0);
    CHECK(fgi_cmp_pick_int(&r) != NULL);
    CHECK(fgi_cmp_pick_str(&r) != NULL);
}

/* Leaves no state behind for the tests that follow. */
static void fixtures_off(void)
{
    mut_dict = NULL;
    mut_hot = 0;
    fgi_dict_free(&fixture_dict);
    fgi_cmp_reset();
}

/* Every mutator on an empty input: a skip leaves the buffer as it was (checked by
 * apply_once); returns how many of `tries` applied. */
static unsigned applied_on_empty(const fgi_mutator *mu, size_t max, const uint8_t *other,
                                 size_t osize, unsigned tries)
{
    static uint8_t out[OUT_CAP];
    input in = {NULL, 0, max, other, osize};
    unsigned applied = 0;
    for (unsigned k = 0; k < tries; k++) {
        size_t n = 0;
        int rc = run_mut(mu, k, &in, out, &n);
        if (rc < 0)
            break;
        applied += (unsigned)rc;
    }
    return applied;
}

/* The mutators whose tests follow; a mutator added to the table without a test here fails
 * mutate_every_mutator_has_a_test. */
static const char *const tested[] = {
    "erase_bytes",   "insert_byte",      "insert_repeated",   "change_byte", "flip_bit",
    "shuffle_bytes", "change_ascii_int", "change_binary_int", "copy_part",   "insert_part",
    "crossover",     "length_field",     "word_nudge",        "word_repeat", "word_delete",
    "dict_insert",   "dict_overwrite",   "cmp_int",           "cmp_bytes",   "hot_byte",
    "join_other",    "ascii_number",
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
        CHECK(mut_by_name(tested[j]) != NULL);
    /* applied[] holds indices as uint8_t */
    CHECK(fgi_mutator_count <= 256);
}

/* min_size is what fgi_mutate draws by: a mutator must skip every shorter input (else
 * it is wrongly never drawn there), and must be able to apply at min_size itself. */
FG_TEST(mutate_min_size_is_exact)
{
    static const uint8_t digits[] = "4242424242", other[] = "partner";
    static uint8_t out[OUT_CAP];
    fixtures_on(); /* else the dictionary and comparison mutators never apply */
    for (size_t mi = 0; mi < fgi_mutator_count; mi++) {
        const fgi_mutator *mu = &fgi_mutators[mi];
        unsigned min = mu->min_size;
        CHECK_MUT(min <= 8, mu);
        unsigned below = 0;
        for (size_t size = 0; size < min; size++)
            for (size_t max = size; max < size + 40; max += 13)
                for (uint64_t k = 0; k < 100; k++) {
                    input in = {digits, size, max, other, sizeof other - 1};
                    size_t n = 0;
                    below += run_mut(mu, k, &in, out, &n) != 0;
                }
        CHECK_MUT(below == 0, mu);
        unsigned applied = 0;
        for (uint64_t k = 0; k < 200; k++) {
            input in = {digits, min, min + 8, other, sizeof other - 1};
            size_t n = 0;
            applied += run_mut(mu, k, &in, out, &n) == 1;
        }
        CHECK_MUT(applied > 0, mu);
    }
    fixtures_off();
}

FG_TEST(mutate_every_mutator_bounded_at_every_size)
{
    static const size_t maxes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 130, 300};
    static uint8_t data[512], other[300], out[OUT_CAP];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 37 + (i >> 3)); /* includes digits and '-' now and then */
    memcpy(data + 5, "-123", 4);
    for (size_t i = 0; i < sizeof other; i++)
        other[i] = (uint8_t)(0x80 | i);
    fixtures_on();
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
                    input in = {data, size, max, o ? other : NULL,
                                o == 0 ? 0 : o == 1 ? 3 : sizeof other};
                    for (uint64_t k = 0; k < 60; k++) {
                        size_t n = 0;
                        if (run_mut(mu, k + 1000 * si + 100000 * xi, &in, out, &n) < 0) {
                            failed = 1;
                            break;
                        }
                    }
                }
            }
        }
    }
    fixtures_off();
}

FG_TEST(mutate_skip_on_empty_leaves_buf_unchanged)
{
    static const uint8_t other[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    fixtures_on(); /* with a dictionary and comparisons to draw on, they still skip */
    /* These cannot do anything to an empty input: they must skip, every time. */
    static const char *const skippers[] = {
        "erase_bytes",       "change_byte", "flip_bit",    "shuffle_bytes", "change_ascii_int",
        "change_binary_int", "copy_part",   "insert_part", "length_field",  "word_nudge",
        "word_repeat",       "word_delete", "dict_overwrite", "cmp_int"};
    for (size_t i = 0; i < FGI_ARRAY_LEN(skippers); i++) {
        const fgi_mutator *mu = mut_by_name(skippers[i]);
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
    CHECK(applied_on_empty(mut_by_name("insert_byte"), 32, NULL, 0, 50) == 50);
    CHECK(applied_on_empty(mut_by_name("insert_repeated"), 32, NULL, 0, 50) == 50);
    CHECK(applied_on_empty(mut_by_name("crossover"), 32, other, sizeof other, 200) > 0);
    CHECK(applied_on_empty(mut_by_name("dict_insert"), 32, NULL, 0, 50) == 50);
    CHECK(applied_on_empty(mut_by_name("cmp_bytes"), 32, NULL, 0, 200) > 0);
    fixtures_off();
}

/* Runs mu TRIALS times on in; for each applied result calls the property. Returns how many
 * applied. */
typedef int (*property)(const input *in, const uint8_t *out, size_t n, void *ctx);

static unsigned each_result(const fgi_mutator *mu, const input *in, property p, void *ctx,
                            unsigned trials)
{
    static uint8_t out[OUT_CAP];
    unsigned applied = 0;
    for (unsigned k = 0; k < trials; k++) {
        size_t n = 0;
        int rc = run_mut(mu, k, in, out, &n);
        if (rc < 0)
            break;
        if (rc == 0)
            continue;
        applied++;
        if (!p(in, out, n, ctx)) {
            char m[128];
            snprintf(m, sizeof m, "[%s] property fails for case %u (size %zu -> %zu)",
                     mu->name, k, in->size, n);
            fgt_fail(__FILE__, __LINE__, m);
            break;
        }
    }
    return applied;
}

/* ---- hot_byte, join_other, ascii_number -------------------------------------------------- */

/* Differs from the input in exactly one byte at or after position 2 (hot is 3: position
 * 2), or is the input with one byte appended. */
static int one_byte_near_hot(const input *in, const uint8_t *out, size_t n, void *ctx)
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
    const fgi_mutator *mu = mut_by_name("hot_byte");
    CHECK(mu != NULL);
    if (!mu)
        return;
    static const char text[] = "abcdefgh";
    input in = {(const uint8_t *)text, sizeof text - 1, 16, NULL, 0};
    size_t next = 0;
    CHECK(each_result(mu, &in, one_byte_near_hot, &next, TRIALS) == 0); /* no hot: skips */
    mut_hot = 3;
    CHECK(each_result(mu, &in, one_byte_near_hot, &next, TRIALS) == TRIALS);
    CHECK(next > TRIALS / 3); /* mostly the byte after the hot one */
    input end = {(const uint8_t *)text, 3, 16, NULL, 0}; /* the input ends at the hot byte */
    size_t grown = 0;
    CHECK(each_result(mu, &end, one_byte_near_hot, &grown, TRIALS) == TRIALS);
    mut_hot = 0;
}

static int joined(const input *in, const uint8_t *out, size_t n, void *ctx)
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
    const fgi_mutator *mu = mut_by_name("join_other");
    CHECK(mu != NULL);
    if (!mu)
        return;
    static const char a[] = "mode=fast", b[] = "size=1";
    input in = {(const uint8_t *)a, sizeof a - 1, 64, (const uint8_t *)b, sizeof b - 1};
    CHECK(each_result(mu, &in, joined, NULL, TRIALS) == TRIALS);
    in.max = in.size + in.other_size - 1; /* no room: skipped */
    CHECK(each_result(mu, &in, joined, NULL, TRIALS) == 0);
}

static int has_number(const input *in, const uint8_t *out, size_t n, void *ctx)
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
    const fgi_mutator *mu = mut_by_name("ascii_number");
    CHECK(mu != NULL);
    if (!mu)
        return;
    static const char text[] = "size=12\n";
    input in = {(const uint8_t *)text, sizeof text - 1, 64, NULL, 0};
    unsigned big = 0;
    CHECK(each_result(mu, &in, has_number, &big, TRIALS) == TRIALS);
    CHECK(big > 0);
    input empty = {(const uint8_t *)text, 0, 64, NULL, 0};
    CHECK(each_result(mu, &empty, has_number, &big, TRIALS) == TRIALS);
}

/* ---- erase_bytes ----------------------------------------------------------------------- */

static int erased_a_span(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    if (n >= in->size)
        return 0;
    for (size_t pos = 0; pos <= n; pos++)
        if (inserted_at(out, n, in->data, in->size, pos))
            return 1;
    return 0;
}

FG_TEST(mutate_erase_bytes)
{
    const fgi_mutator *mu = mut_by_name("erase_bytes");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 100, NULL, 0};
    CHECK(each_result(mu, &in, erased_a_span, NULL, TRIALS) == TRIALS);
    in.size = in.max = 1; /* erasing the only byte */
    CHECK(each_result(mu, &in, erased_a_span, NULL, 50) == 50);
}

/* ---- insert_byte ----------------------------------------------------------------------- */

static int one_byte_inserted(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    if (n != in->size + 1)
        return 0;
    for (size_t pos = 0; pos <= in->size; pos++)
        if (inserted_at(in->data, in->size, out, n, pos))
            return 1;
    return 0;
}

FG_TEST(mutate_insert_byte)
{
    const fgi_mutator *mu = mut_by_name("insert_byte");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 65, NULL, 0};
    CHECK(each_result(mu, &in, one_byte_inserted, NULL, TRIALS) == TRIALS);
    in.max = 64; /* full: it must skip */
    CHECK(each_result(mu, &in, one_byte_inserted, NULL, 100) == 0);
}

/* ---- insert_repeated ------------------------------------------------------------------- */

static int run_inserted(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    size_t d = n - in->size;
    if (n <= in->size || d < 3 || d > 128)
        return 0;
    for (size_t pos = 0; pos <= in->size; pos++) {
        if (!inserted_at(in->data, in->size, out, n, pos))
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
    const fgi_mutator *mu = mut_by_name("insert_repeated");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 1000, NULL, 0};
    CHECK(each_result(mu, &in, run_inserted, NULL, TRIALS) == TRIALS);
    in.max = 67; /* room for exactly the shortest run */
    CHECK(each_result(mu, &in, run_inserted, NULL, 100) == 100);
    in.max = 66; /* no room for a run of 3 */
    CHECK(each_result(mu, &in, run_inserted, NULL, 100) == 0);
}

/* ---- change_byte ----------------------------------------------------------------------- */

static int one_byte_changed(const input *in, const uint8_t *out, size_t n, void *ctx)
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
    const fgi_mutator *mu = mut_by_name("change_byte");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    memset(data, 0, sizeof data); /* the special byte 0x00 must still give a change */
    input in = {data, 64, 64, NULL, 0};
    CHECK(each_result(mu, &in, one_byte_changed, NULL, TRIALS) == TRIALS);
    memset(data, 0xff, sizeof data);
    CHECK(each_result(mu, &in, one_byte_changed, NULL, TRIALS) == TRIALS);
    in.size = 1;
    CHECK(each_result(mu, &in, one_byte_changed, NULL, 100) == 100);
}

/* ---- flip_bit -------------------------------------------------------------------------- */

static int one_bit_flipped(const input *in, const uint8_t *out, size_t n, void *ctx)
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
    const fgi_mutator *mu = mut_by_name("flip_bit");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[40];
    distinct(data, sizeof data);
    input in = {data, 40, 80, NULL, 0};
    unsigned seen = 0;
    CHECK(each_result(mu, &in, one_bit_flipped, &seen, TRIALS) == TRIALS);
    CHECK_EQ_U(seen, 0xff); /* every bit position is reachable */
}

/* ---- shuffle_bytes --------------------------------------------------------------------- */

static int same_multiset_in_window(const input *in, const uint8_t *out, size_t n, void *ctx)
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
    return !diff_span(in->data, out, n, &lo, &hi) || hi - lo < 8;
}

FG_TEST(mutate_shuffle_bytes)
{
    const fgi_mutator *mu = mut_by_name("shuffle_bytes");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 64, NULL, 0};
    CHECK(each_result(mu, &in, same_multiset_in_window, NULL, TRIALS) == TRIALS);
    /* It does reorder (most of the time: a random permutation may be the identity). */
    static uint8_t out[OUT_CAP];
    unsigned changed = 0;
    for (uint64_t k = 0; k < 200; k++) {
        size_t n;
        if (run_mut(mu, k, &in, out, &n) == 1 && memcmp(out, data, 64) != 0)
            changed++;
    }
    CHECK(changed > 150);
    in.size = 2;
    CHECK(each_result(mu, &in, same_multiset_in_window, NULL, 50) == 50);
    in.size = 1;
    CHECK(each_result(mu, &in, same_multiset_in_window, NULL, 50) == 0);
}

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

static int same_skeleton(const input *in, const uint8_t *out, size_t n, void *ctx)
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
    const fgi_mutator *mu = mut_by_name("change_ascii_int");
    CHECK(mu != NULL);
    if (!mu)
        return;
    static const char text[] = "len=1234;x=-56;y=7;z=99999";
    input in = {(const uint8_t *)text, sizeof text - 1, 200, NULL, 0};
    unsigned changed = 0;
    unsigned applied = each_result(mu, &in, same_skeleton, &changed, TRIALS);
    CHECK(applied > TRIALS / 2);
    CHECK(changed > applied * 9 / 10);
    /* No digit anywhere: nothing to change. */
    static const char none[] = "no numbers here";
    input in2 = {(const uint8_t *)none, sizeof none - 1, 200, NULL, 0};
    CHECK(each_result(mu, &in2, same_skeleton, &changed, 100) == 0);
    /* A number that only fits if it does not grow. */
    static const char tight[] = "9";
    input in3 = {(const uint8_t *)tight, 1, 1, NULL, 0};
    changed = 0;
    CHECK(each_result(mu, &in3, same_skeleton, &changed, 200) > 0);
}

/* Numbers at the edges of int64 (and past it): a new value must still be computed without
 * signed overflow. Only a build with -fsanitize=undefined can see the overflow (it aborts),
 * so the work runs in a child and an abort fails this test alone; the bytes are checked in
 * every build. */
FG_TEST(mutate_change_ascii_int_extreme_numbers)
{
    const fgi_mutator *mu = mut_by_name("change_ascii_int");
    CHECK(mu != NULL);
    if (!mu)
        return;
    static const char *const texts[] = {"9223372036854775807", "9223372036854775808",
                                        "-9223372036854775808", "-9223372036854775807",
                                        "9999999999999999999", "a=18446744073709551615;",
                                        "123456789012345678901234567890"};
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid < 0)
        return;
    if (pid == 0) {
        int bad = 0;
        for (size_t i = 0; i < FGI_ARRAY_LEN(texts); i++) {
            size_t size = strlen(texts[i]);
            for (uint64_t k = 0; k < 300; k++) {
                uint8_t buf[64 + GUARD], scratch[64 + GUARD];
                memcpy(buf, texts[i], size);
                memset(buf + 64, CANARY, GUARD);
                fgi_rng r;
                fgi_rng_case(&r, SEED, fgi_hash_str(mu->name), k);
                fgi_mut m = {.rng = &r, .scratch = scratch};
                size_t n = mu->fn(&m, buf, size, 64);
                if (n == FGI_MUT_SKIP)
                    continue;
                unsigned changed = 0;
                input in = {(const uint8_t *)texts[i], size, 64, NULL, 0};
                if (n > 64 || !guard_intact(buf + 64) || !same_skeleton(&in, buf, n, &changed)) {
                    printf("  change_ascii_int on \"%s\", case %llu: bad result\n", texts[i],
                           (unsigned long long)k);
                    bad = 1;
                }
            }
        }
        fflush(stdout);
        _exit(bad);
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- change_binary_int ----------------------------------------------------------------- */

static int word_sized_change(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    unsigned *changed = ctx;
    size_t lo, hi;
    if (n != in->size)
        return 0;
    if (!diff_span(in->data, out, n, &lo, &hi))
        return 1; /* e.g. a boundary value equal to the old one */
    (*changed)++;
    return hi - lo < 8;
}

FG_TEST(mutate_change_binary_int)
{
    const fgi_mutator *mu = mut_by_name("change_binary_int");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 64, NULL, 0};
    unsigned changed = 0;
    CHECK(each_result(mu, &in, word_sized_change, &changed, TRIALS) == TRIALS);
    CHECK(changed > TRIALS * 9 / 10);
    for (size_t size = 1; size < 10; size++) { /* every width that fits, none that does not */
        in.size = in.max = size;
        changed = 0;
        CHECK(each_result(mu, &in, word_sized_change, &changed, 100) == 100);
        CHECK(changed > 50);
    }
}

/* ---- copy_part ------------------------------------------------------------------------- */

static int copied_within(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    size_t lo, hi;
    if (n != in->size || !diff_span(in->data, out, n, &lo, &hi))
        return 0; /* src != dst over distinct bytes always changes something */
    return contains(in->data, in->size, out + lo, hi - lo + 1);
}

FG_TEST(mutate_copy_part)
{
    const fgi_mutator *mu = mut_by_name("copy_part");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 64, NULL, 0};
    CHECK(each_result(mu, &in, copied_within, NULL, TRIALS) > TRIALS / 2);
    in.size = 2;
    CHECK(each_result(mu, &in, copied_within, NULL, 100) > 0);
    in.size = 1;
    CHECK(each_result(mu, &in, copied_within, NULL, 100) == 0);
}

/* ---- insert_part ----------------------------------------------------------------------- */

static int own_part_inserted(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    if (n <= in->size)
        return 0;
    size_t d = n - in->size;
    for (size_t pos = 0; pos <= in->size; pos++)
        if (inserted_at(in->data, in->size, out, n, pos) &&
            contains(in->data, in->size, out + pos, d))
            return 1;
    return 0;
}

FG_TEST(mutate_insert_part)
{
    const fgi_mutator *mu = mut_by_name("insert_part");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 200, NULL, 0};
    CHECK(each_result(mu, &in, own_part_inserted, NULL, TRIALS) == TRIALS);
    in.max = 65;
    CHECK(each_result(mu, &in, own_part_inserted, NULL, 100) == 100);
    in.max = 64;
    CHECK(each_result(mu, &in, own_part_inserted, NULL, 100) == 0);
}

/* ---- crossover ------------------------------------------------------------------------- */

typedef struct cross_seen {
    unsigned insert, overwrite, splice;
} cross_seen;

/* in's bytes are < 0x80 and other's are >= 0x80, so every byte says where it came from. */
static int took_from_other(const input *in, const uint8_t *out, size_t n, void *ctx)
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
        if (inserted_at(in->data, in->size, out, n, pos) &&
            contains(o, os, out + pos, n - in->size))
            shape = 1;
    /* a piece of other written over ours */
    size_t lo, hi;
    if (!shape && n == in->size && diff_span(in->data, out, n, &lo, &hi) &&
        contains(o, os, out + lo, hi - lo + 1))
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
    const fgi_mutator *mu = mut_by_name("crossover");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64], other[48];
    distinct(data, sizeof data);
    for (size_t i = 0; i < sizeof other; i++)
        other[i] = (uint8_t)(0x80 + i);
    input in = {data, 64, 128, other, sizeof other};
    cross_seen seen = {0, 0, 0};
    CHECK(each_result(mu, &in, took_from_other, &seen, TRIALS) == TRIALS);
    CHECK(seen.insert > 0 && seen.overwrite > 0 && seen.splice > 0);
    /* Full buffer: no insertion, but the results stay in bounds and well-formed. */
    in.max = 64;
    CHECK(each_result(mu, &in, took_from_other, &seen, TRIALS) > 0);
    /* No partner (or an empty one): nothing to cross with. */
    in.max = 128;
    in.other = NULL;
    in.other_size = 0;
    CHECK(each_result(mu, &in, took_from_other, &seen, 100) == 0);
    in.other = other;
    CHECK(each_result(mu, &in, took_from_other, &seen, 100) == 0);
}

/* ---- length_field ---------------------------------------------------------------------- */

/* Over an input of 0xaa bytes every byte of the written field changes (the values written
 * are small or small negatives), so the changed span is the field. */
static int holds_a_length(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    unsigned *widths = ctx;
    size_t lo, hi;
    if (n != in->size || !diff_span(in->data, out, n, &lo, &hi))
        return 0;
    unsigned w = (unsigned)(hi - lo + 1);
    if ((w != 1 && w != 2 && w != 4) || lo % w != 0)
        return 0;
    *widths |= w;
    uint64_t bases[2] = {in->size - lo - w, in->size};
    for (int big = 0; big < 2; big++)
        for (int b = 0; b < 2; b++)
            for (int d = -2; d <= 2; d++)
                if (load(out + lo, w, big) == ((bases[b] + (uint64_t)(int64_t)d) & mask_of(w)))
                    return 1;
    return 0;
}

FG_TEST(mutate_length_field)
{
    const fgi_mutator *mu = mut_by_name("length_field");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    memset(data, 0xaa, sizeof data);
    input in = {data, 64, 64, NULL, 0};
    unsigned widths = 0;
    CHECK(each_result(mu, &in, holds_a_length, &widths, TRIALS) == TRIALS);
    CHECK_EQ_U(widths, 1 | 2 | 4);
    for (size_t size = 1; size < 9; size++) {
        in.size = in.max = size;
        CHECK(each_result(mu, &in, holds_a_length, &widths, 100) == 100);
    }
}

/* ---- word_nudge ------------------------------------------------------------------------ */

static int field_nudged(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    (void)ctx;
    size_t lo, hi;
    if (n != in->size || !diff_span(in->data, out, n, &lo, &hi))
        return 0;
    static const unsigned ws[] = {1, 2, 4};
    for (size_t i = 0; i < 3; i++) {
        unsigned w = ws[i];
        size_t pos = lo / w * w;
        if (hi >= pos + w || pos + w > n)
            continue;
        for (int big = 0; big < 2; big++) {
            uint64_t a = load(in->data + pos, w, big), b = load(out + pos, w, big);
            uint64_t up = (b - a) & mask_of(w), down = (a - b) & mask_of(w);
            if ((up >= 1 && up <= 4) || (down >= 1 && down <= 4))
                return 1;
        }
    }
    return 0;
}

FG_TEST(mutate_word_nudge)
{
    const fgi_mutator *mu = mut_by_name("word_nudge");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    distinct(data, sizeof data);
    data[8] = data[9] = data[10] = data[11] = 0; /* carries and borrows across bytes */
    data[12] = data[13] = 0xff;
    input in = {data, 64, 64, NULL, 0};
    CHECK(each_result(mu, &in, field_nudged, NULL, TRIALS) == TRIALS);
    in.size = in.max = 3;
    CHECK(each_result(mu, &in, field_nudged, NULL, 100) == 100);
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

static int words_repeated(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    size_t *longest = ctx;
    if (n <= in->size)
        return 0;
    size_t d = n - in->size;
    for (size_t pos = 0; pos + d <= in->size; pos++) {
        if (inserted_at(in->data, in->size, out, n, pos + d) &&
            memcmp(out + pos + d, in->data + pos, d) == 0 && whole_words(pos, d)) {
            *longest = FGI_MAX(*longest, d);
            return 1;
        }
    }
    return 0;
}

FG_TEST(mutate_word_repeat)
{
    const fgi_mutator *mu = mut_by_name("word_repeat");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 256, NULL, 0};
    size_t longest = 0;
    CHECK(each_result(mu, &in, words_repeated, &longest, TRIALS) == TRIALS);
    CHECK(longest > 16); /* 4-byte words are reached */
    in.max = 64;         /* no room */
    CHECK(each_result(mu, &in, words_repeated, &longest, 100) == 0);
}

static int words_deleted(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    size_t *longest = ctx;
    if (n >= in->size)
        return 0;
    size_t d = in->size - n;
    for (size_t pos = 0; pos <= n; pos++) {
        if (inserted_at(out, n, in->data, in->size, pos) && whole_words(pos, d)) {
            *longest = FGI_MAX(*longest, d);
            return 1;
        }
    }
    return 0;
}

FG_TEST(mutate_word_delete)
{
    const fgi_mutator *mu = mut_by_name("word_delete");
    CHECK(mu != NULL);
    if (!mu)
        return;
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 64, NULL, 0};
    size_t longest = 0;
    CHECK(each_result(mu, &in, words_deleted, &longest, TRIALS) == TRIALS);
    CHECK(longest > 16); /* shrinks by multiples of 4 too */
    in.size = in.max = 4;
    CHECK(each_result(mu, &in, words_deleted, &longest, 100) == 100);
    in.size = in.max = 1;
    CHECK(each_result(mu, &in, words_deleted, &longest, 20) == 20);
}

/* ---- dict_insert / dict_overwrite ------------------------------------------------------ */

/* Where word (wn bytes) was put into in's bytes to give out: inserted at the offset
 * (insert) or written over the wn bytes there (overwrite). The offset, or -1 when out is
 * not that shape. */
static long placed_at(const input *in, const uint8_t *out, size_t n, const uint8_t *w,
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
    int insert;                    /* the shape the results must have */
    unsigned words[FIXTURE_WORDS]; /* results per dictionary word */
    unsigned at_start, at_end;     /* placed at offset 0 / flush with the end */
} dict_seen;

static int word_placed(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    dict_seen *seen = ctx;
    for (size_t k = 0; k < fixture_dict.count && k < FIXTURE_WORDS; k++) {
        size_t wn = fixture_dict.lens[k];
        long pos = placed_at(in, out, n, fixture_dict.words[k], wn, seen->insert);
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
static void check_skips_without_words(const fgi_mutator *mu, const input *in)
{
    dict_seen seen = {0};
    seen.insert = strcmp(mu->name, "dict_insert") == 0;
    const fgi_dict *saved = mut_dict;
    mut_dict = NULL;
    CHECK_MUT(each_result(mu, in, word_placed, &seen, 100) == 0, mu);
    static const char nothing[] = "# no words here\n\n   \r\n";
    fgi_dict empty;
    char err[128] = "";
    CHECK(fgi_dict_parse("empty", nothing, sizeof nothing - 1, &empty, err, sizeof err) ==
          FG_OK);
    CHECK_EQ_U(empty.count, 0);
    mut_dict = &empty;
    CHECK_MUT(each_result(mu, in, word_placed, &seen, 100) == 0, mu);
    fgi_dict_free(&empty);
    mut_dict = saved;
}

FG_TEST(mutate_dict_insert)
{
    const fgi_mutator *mu = mut_by_name("dict_insert");
    CHECK(mu != NULL);
    if (!mu)
        return;
    fixtures_on();
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 200, NULL, 0};
    /* Grows by exactly one word's length, the word whole at the insertion point. */
    dict_seen seen = {.insert = 1};
    CHECK(each_result(mu, &in, word_placed, &seen, TRIALS) == TRIALS);
    for (size_t k = 0; k < FIXTURE_WORDS; k++)
        CHECK(seen.words[k] > 0); /* every word is drawn */
    CHECK(seen.at_start > 0 && seen.at_end > 0);
    /* Room for the two short words only: the others skip, the short ones still apply. */
    in.max = 66;
    dict_seen tight = {.insert = 1};
    unsigned applied = each_result(mu, &in, word_placed, &tight, TRIALS);
    CHECK(applied > 0 && applied < TRIALS);
    CHECK(tight.words[0] == 0 && tight.words[1] == 0);
    CHECK(tight.words[2] > 0 && tight.words[3] > 0);
    in.max = 64; /* full */
    CHECK(each_result(mu, &in, word_placed, &tight, 100) == 0);
    in.max = 200;
    check_skips_without_words(mu, &in);
    fixtures_off();
}

FG_TEST(mutate_dict_overwrite)
{
    const fgi_mutator *mu = mut_by_name("dict_overwrite");
    CHECK(mu != NULL);
    if (!mu)
        return;
    fixtures_on();
    uint8_t data[64];
    distinct(data, sizeof data);
    input in = {data, 64, 64, NULL, 0};
    /* Keeps the size; the word whole over the bytes it replaced, the rest untouched. */
    dict_seen seen = {.insert = 0};
    CHECK(each_result(mu, &in, word_placed, &seen, TRIALS) == TRIALS);
    for (size_t k = 0; k < FIXTURE_WORDS; k++)
        CHECK(seen.words[k] > 0);
    CHECK(seen.at_start > 0 && seen.at_end > 0);
    /* A word longer than the input does not fit; the shorter ones do. */
    in.size = 4;
    in.max = 100;
    dict_seen tight = {.insert = 0};
    unsigned applied = each_result(mu, &in, word_placed, &tight, TRIALS);
    CHECK(applied > 0 && applied < TRIALS);
    CHECK(tight.words[0] == 0 && tight.words[1] == 0);
    CHECK(tight.words[2] > 0 && tight.words[3] > 0);
    in.size = 1; /* min_size: only the one-byte word */
    dict_seen one = {.insert = 0};
    CHECK(each_result(mu, &in, word_placed, &one, 200) > 0);
    CHECK(one.words[0] == 0 && one.words[1] == 0 && one.words[2] == 0 && one.words[3] > 0);
    in.size = 64;
    check_skips_without_words(mu, &in);
    fixtures_off();
}

/* ---- cmp_int --------------------------------------------------------------------------- */

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
static int int_written(const input *in, const uint8_t *out, size_t n, void *ctx)
{
    int_seen *seen = ctx;
    size_t lo, hi;
    if (n != in->size)
        return 0;
    if (!diff_span(in->data, out, n, &lo, &hi))
        return 1; /* an operand written over the same bytes */
    if (hi - lo >= 4)
        return 0;
    int shape = 0;
    for (size_t at = hi >= 3 ? hi - 3 : 0; at <= lo && at + 4 <= n && !shape; at++)
        for (int big = 0; big < 2 && !shape; big++) {
            uint64_t v = load(out + at, 4, big);
            shape = near(v, CMP_A) || near(v, CMP_B);
        }
    seen->hits += shape && memcmp(out + seen->magic_at, seen->want, 4) == 0;
    return shape;
}

FG_TEST(mutate_cmp_int)
{
    const fgi_mutator *mu = mut_by_name("cmp_int");
    CHECK(mu != NULL);
    if (!mu)
        return;
    CHECK(fgt_in_case(compare_magic_int));
    uint8_t le[32], be[32];
    distinct(le, sizeof le);
    distinct(be, sizeof be);
    static const uint8_t a_le[4] = {0x44, 0x33, 0x22, 0x11}, a_be[4] = {0x11, 0x22, 0x33, 0x44};
    memcpy(le + 8, a_le, 4);
    memcpy(be + 20, a_be, 4);
    /* Where a is, b goes, in the byte order a was found in (often, not always: either
     * order is tried, the operands are sometimes swapped, and now and then b +- 1). */
    input in = {le, sizeof le, 64, NULL, 0};
    int_seen seen = {8, {0xef, 0xbe, 0xad, 0xde}, 0};
    CHECK(each_result(mu, &in, int_written, &seen, TRIALS) == TRIALS);
    CHECK(seen.hits > TRIALS / 6);
    in.data = be;
    int_seen seen_be = {20, {0xde, 0xad, 0xbe, 0xef}, 0};
    CHECK(each_result(mu, &in, int_written, &seen_be, TRIALS) == TRIALS);
    CHECK(seen_be.hits > TRIALS / 6);
    /* An input shorter than the pair's width: nowhere to write it. Exactly as wide: yes. */
    in.size = 3;
    CHECK(each_result(mu, &in, int_written, &seen, 100) == 0);
    in.size = in.max = 4;
    CHECK(each_result(mu, &in, int_written, &seen, 100) == 100);
    /* Nothing recorded: nothing to write. */
    fgi_cmp_reset();
    in.size = sizeof le;
    in.max = 64;
    CHECK(each_result(mu, &in, int_written, &seen, 100) == 0);
    /* The base input's own comparisons serve too, with the tables empty (they are drawn
     * most of the time; the rest of the time the empty table gives nothing). */
    static const fgi_cmp_int own = {CMP_A, CMP_B, 4, 0, FGI_CMP_INTEGER};
    mut_local = &own;
    mut_nlocal = 1;
    in.data = le;
    int_seen local = {8, {0xef, 0xbe, 0xad, 0xde}, 0};
    unsigned applied = each_result(mu, &in, int_written, &local, TRIALS);
    CHECK(applied > TRIALS / 2 && applied < TRIALS);
    CHECK(local.hits > TRIALS / 8);
    mut_local = NULL;
    mut_nlocal = 0;
}

/* ---- cmp_bytes ------------------------------------------------------------------------- */

typedef struct bytes_seen {
    const char *from, *to; /* the operand the input holds, and what should replace it */
    unsigned replaced;     /* results with from replaced by to where it was */
} bytes_seen;

/* out is in with the len(o) bytes at some offset holding o replaced by w. */
static int replaced_by(const input *in, const uint8_t *out, size_t n, const char *o,
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
static int operand_placed(const input *in, const uint8_t *out, size_t n, void *ctx)
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
    const fgi_mutator *mu = mut_by_name("cmp_bytes");
    CHECK(mu != NULL);
    if (!mu)
        return;
    CHECK(fgt_in_case(compare_magic_bytes));
    static const char text[] = "0123abcdefgh4567";
    input in = {(const uint8_t *)text, sizeof text - 1, 64, NULL, 0};
    bytes_seen seen = {"abcdefgh", "MAGICKEY", 0};
    CHECK(each_result(mu, &in, operand_placed, &seen, TRIALS) == TRIALS);
    CHECK(seen.replaced > TRIALS / 4); /* "MAGICKEY" where "abcdefgh" was */
    /* Operands of different lengths: the replacement changes the size. */
    CHECK(fgt_in_case(compare_short_long));
    static const char text2[] = "0123ab4567";
    input in2 = {(const uint8_t *)text2, sizeof text2 - 1, 64, NULL, 0};
    bytes_seen seen2 = {"ab", "LONGERWORD", 0};
    CHECK(each_result(mu, &in2, operand_placed, &seen2, TRIALS) == TRIALS);
    CHECK(seen2.replaced > TRIALS / 4);
    /* No room for the longer operand: never replaced, still in bounds. */
    in2.max = 12;
    seen2.replaced = 0;
    CHECK(each_result(mu, &in2, operand_placed, &seen2, TRIALS) > 0);
    CHECK_EQ_U(seen2.replaced, 0);
    /* Nothing recorded: nothing to place. */
    fgi_cmp_reset();
    CHECK(each_result(mu, &in, operand_placed, &seen, 100) == 0);
    in.size = 0;
    CHECK(each_result(mu, &in, operand_placed, &seen, 100) == 0);
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
static int number_written(const input *in, const uint8_t *out, size_t n, void *ctx)
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
    const fgi_mutator *mu = mut_by_name("cmp_number");
    CHECK(mu != NULL);
    if (!mu)
        return;
    fgi_cmp_reset();
    /* The base input's own double comparison: the 3.25 it holds against 2718.5. */
    fgi_cmp_int own = {double_bits(3.25), double_bits(2718.5), 8, 0, FGI_CMP_DOUBLE};
    mut_local = &own;
    mut_nlocal = 1;
    static const char text[] = "v=3.25;";
    input in = {(const uint8_t *)text, sizeof text - 1, 64, NULL, 0};
    number_seen seen = {"v=", ";", 2718.5, 0, 0, {0}};
    unsigned applied = each_result(mu, &in, number_written, &seen, TRIALS);
    CHECK(applied > TRIALS / 2); /* the empty pool is drawn now and then: a skip */
    CHECK(seen.exact > applied / 2);
    CHECK(seen.forms[0] > 0 && seen.forms[1] > 0 && seen.forms[2] > 0); /* %a, exp, plain */
    /* The operand found is replaced by the other, whichever side it is. */
    static const char text2[] = "v=2718.5;";
    input in2 = {(const uint8_t *)text2, sizeof text2 - 1, 64, NULL, 0};
    number_seen seen2 = {"v=", ";", 3.25, 0, 0, {0}};
    CHECK(each_result(mu, &in2, number_written, &seen2, TRIALS) > TRIALS / 2);
    CHECK(seen2.exact > TRIALS / 4);
    /* A float: its shortest text reads back through strtof. */
    uint32_t fa, fb;
    float f1 = 1.5f, f2 = 3.14f;
    memcpy(&fa, &f1, 4);
    memcpy(&fb, &f2, 4);
    fgi_cmp_int fown = {fa, fb, 4, 0, FGI_CMP_FLOAT};
    mut_local = &fown;
    static const char text3[] = "x 1.5";
    input in3 = {(const uint8_t *)text3, sizeof text3 - 1, 64, NULL, 0};
    number_seen seen3 = {"x ", "", (double)3.14f, 1, 0, {0}};
    CHECK(each_result(mu, &in3, number_written, &seen3, TRIALS) > TRIALS / 2);
    CHECK(seen3.exact > TRIALS / 4);
    /* An integer comparison whose operand is the value of a number in the text (atoi's
     * 42 against 1234): the number is rewritten, in decimal or hex. */
    fgi_cmp_int iown = {42, 1234, 4, 1, FGI_CMP_INTEGER};
    mut_local = &iown;
    static const char text4[] = "n=42,";
    input in4 = {(const uint8_t *)text4, sizeof text4 - 1, 64, NULL, 0};
    number_seen seen4 = {"n=", ",", 1234, 0, 0, {0}};
    CHECK(each_result(mu, &in4, number_written, &seen4, TRIALS) > TRIALS / 2);
    CHECK(seen4.exact > TRIALS / 4 && seen4.forms[0] > 0);
    /* ... and where no number in the text is an operand, an integer comparison is no
     * number: nothing to do. */
    static const char text5[] = "n=43,";
    input in5 = {(const uint8_t *)text5, sizeof text5 - 1, 64, NULL, 0};
    CHECK(each_result(mu, &in5, number_written, &seen4, 100) == 0);
    /* A double with no number in the input: inserted as text. */
    mut_local = &own;
    static const char text6[] = "ab";
    input in6 = {(const uint8_t *)text6, 2, 64, NULL, 0};
    unsigned inserted = 0;
    static uint8_t out[OUT_CAP];
    for (uint64_t k = 0; k < 200; k++) {
        size_t n = 0;
        if (run_mut(mu, k, &in6, out, &n) == 1) {
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
    mut_local = NULL;
    mut_nlocal = 0;
}

/* ---- fgi_mutate ------------------------------------------------------------------------ */

FG_TEST(mutate_stack_never_exceeds_max)
{
    fgi_rng gen;
    fgi_rng_case(&gen, SEED, 99, 0);
    static uint8_t other[600];
    for (size_t i = 0; i < sizeof other; i++)
        other[i] = (uint8_t)fgi_rng_next(&gen);
    static const size_t maxes[] = {0, 1, 2, 3, 4, 7, 8, 64, 513};
    fixtures_on();
    for (unsigned it = 0; it < 6000; it++) {
        size_t max = it < 900 ? maxes[it % FGI_ARRAY_LEN(maxes)]
                              : (size_t)fgi_rng_below(&gen, 600);
        size_t size;
        switch (it % 4) {
        case 0: size = max; break;
        case 1: size = 0; break;
        default: size = (size_t)fgi_rng_below(&gen, max + 1);
        }
        uint8_t *buf = malloc(max + GUARD), *scratch = malloc(max + GUARD);
        CHECK(buf && scratch);
        if (!buf || !scratch) {
            free(buf);
            free(scratch);
            break;
        }
        for (size_t i = 0; i < size; i++)
            buf[i] = it % 3 ? (uint8_t)fgi_rng_next(&gen) : (uint8_t)('0' + i % 11);
        memset(buf + max, CANARY, GUARD);
        memset(scratch + max, CANARY, GUARD);
        fgi_rng r;
        fgi_rng_case(&r, SEED, 7, it);
        fgi_mut m = {.rng = &r, .scratch = scratch, .dict = mut_dict};
        if (it % 5) {
            m.other = other;
            m.other_size = (size_t)fgi_rng_below(&gen, sizeof other);
        }
        size_t n = fgi_mutate(&m, buf, size, max);
        int ok = n <= max && guard_intact(buf + max) && guard_intact(scratch + max) &&
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
    fixtures_off();
}

FG_TEST(mutate_stack_empty_with_no_room)
{
    uint8_t buf[GUARD], scratch[GUARD];
    memset(buf, CANARY, sizeof buf);
    memset(scratch, CANARY, sizeof scratch);
    for (uint64_t k = 0; k < 200; k++) {
        fgi_rng r;
        fgi_rng_case(&r, SEED, 8, k);
        fgi_mut m = {.rng = &r, .scratch = scratch};
        m.napplied = 99;
        CHECK_EQ_U(fgi_mutate(&m, buf, 0, 0), 0);
        CHECK_EQ_U(m.napplied, 0);
        CHECK(guard_intact(buf));
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
    fixtures_on(); /* every mutator can apply only with a dictionary and comparisons */
    for (uint64_t k = 0; k < 3000; k++) {
        size_t size = 1 + k % 100, max = size + (k % 3 ? 28 : 0);
        for (size_t i = 0; i < size; i++)
            buf[i] = (uint8_t)(i * 13 + k);
        fgi_rng r;
        fgi_rng_case(&r, SEED, 9, k);
        fgi_mut m = {.rng = &r, .scratch = scratch, .other = other, .other_size = sizeof other,
                     .dict = mut_dict, .hot = 1 + (uint32_t)(k % 7)};
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
    fixtures_off();
}

FG_TEST(mutate_stack_is_deterministic)
{
    uint8_t a[300], b[300], sa[300], sb[300], other[50];
    for (size_t i = 0; i < sizeof other; i++)
        other[i] = (uint8_t)(i * 7);
    fixtures_on();
    for (uint64_t k = 0; k < 2000; k++) {
        size_t size = k % 200, max = 300 - k % 50;
        for (size_t i = 0; i < size; i++)
            a[i] = b[i] = (uint8_t)(i ^ k);
        fgi_rng ra, rb;
        fgi_rng_case(&ra, SEED, 10, k);
        rb = ra;
        fgi_mut ma = {.rng = &ra, .scratch = sa, .other = other, .other_size = sizeof other,
                      .dict = mut_dict};
        fgi_mut mb = {.rng = &rb, .scratch = sb, .other = other, .other_size = sizeof other,
                      .dict = mut_dict};
        memset(sa, 1, sizeof sa); /* scratch contents must not matter */
        memset(sb, 2, sizeof sb);
        size_t na = fgi_mutate(&ma, a, size, max), nb = fgi_mutate(&mb, b, size, max);
        int same = na == nb && memcmp(a, b, na) == 0 && ma.napplied == mb.napplied &&
                   memcmp(ma.applied, mb.applied, ma.napplied) == 0 && ra.state == rb.state;
        CHECK(same);
        if (!same)
            break;
    }
    fixtures_off();
}

FG_TEST(mutate_stack_usually_changes_the_input)
{
    /* Stacked mutators can cancel out or pick a no-op value now and then; nearly every
     * case must still differ from its input. */
    uint8_t buf[200], orig[200], scratch[200];
    unsigned same = 0;
    fixtures_on();
    for (uint64_t k = 0; k < 4000; k++) {
        size_t size = 1 + k % 150;
        for (size_t i = 0; i < size; i++)
            orig[i] = (uint8_t)(i * 31 + k);
        memcpy(buf, orig, size);
        fgi_rng r;
        fgi_rng_case(&r, SEED, 11, k);
        fgi_mut m = {.rng = &r, .scratch = scratch, .dict = mut_dict};
        size_t n = fgi_mutate(&m, buf, size, 200);
        same += n == size && memcmp(buf, orig, n) == 0;
    }
    fixtures_off();
    CHECK(same < 40); /* under 1% */
}

FG_TEST(mutate_describe_lists_names)
{
    uint8_t buf[64], scratch[64];
    for (uint64_t k = 0; k < 500; k++) {
        for (size_t i = 0; i < 32; i++)
            buf[i] = (uint8_t)(i + k);
        fgi_rng r;
        fgi_rng_case(&r, SEED, 12, k);
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
            CHECK(mut_by_name(w) != NULL);
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
