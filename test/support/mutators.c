/* test/support/mutators.c — one mutator applied in guarded buffers, and the fixtures the
 * mutator tests share. */
#include "test/support/mutators.h"

#include "test/support/case.h"
#include "engine/feedback/sancov.h"

#include <stdlib.h>

fgt_mut_env fgt_mutenv;
fgi_dict fgt_fixture_dict;

const fgi_mutator *fgt_mut_by_name(const char *name)
{
    for (size_t i = 0; i < fgi_mutator_count; i++)
        if (strcmp(fgi_mutators[i].name, name) == 0)
            return &fgi_mutators[i];
    return NULL;
}

int fgt_guard_intact(const uint8_t *p)
{
    for (size_t i = 0; i < FGT_GUARD; i++)
        if (p[i] != FGT_CANARY)
            return 0;
    return 1;
}

/* One application in guarded buffers. Same return as fgt_mut_run. */
static int apply_once(const fgi_mutator *mu, fgi_rng *r, const fgt_input *in, uint8_t *out,
                      size_t *n)
{
    size_t cap = in->max + FGT_GUARD;
    uint8_t *buf = malloc(cap), *before = malloc(cap), *scratch = malloc(cap);
    int rc = -1;
    CHECK(buf && before && scratch);
    if (!buf || !before || !scratch)
        goto done;
    if (in->size)
        memcpy(buf, in->data, in->size);
    memset(buf + in->size, FGT_FILLER, in->max - in->size);
    memset(buf + in->max, FGT_CANARY, FGT_GUARD);
    memset(scratch, 0x3c, in->max);
    memset(scratch + in->max, FGT_CANARY, FGT_GUARD);
    memcpy(before, buf, cap);
    size_t reals = 0; /* as fgi_sched_lend has it from the entry */
    for (size_t i = 0; i < fgt_mutenv.nlocal; i++)
        reals += fgt_mutenv.local[i].kind != FGI_CMP_INTEGER;
    fgi_mut m = {.rng = r, .other = in->other, .other_size = in->other_size,
                 .scratch = scratch, .dict = fgt_mutenv.dict, .local = fgt_mutenv.local,
                 .nlocal = fgt_mutenv.nlocal, .nlocal_reals = reals, .hot = fgt_mutenv.hot,
                 .stride = fgt_mutenv.stride};
    size_t got = mu->fn(&m, buf, in->size, in->max);
    int ok = fgt_guard_intact(buf + in->max) && fgt_guard_intact(scratch + in->max);
    CHECK_MUT(fgt_guard_intact(buf + in->max), mu);
    CHECK_MUT(fgt_guard_intact(scratch + in->max), mu);
    if (got == FGI_MUT_SKIP) {
        CHECK_MUT(memcmp(buf, before, cap) == 0, mu); /* skip leaves buf unchanged */
        ok = ok && memcmp(buf, before, cap) == 0;
        rc = ok ? 0 : -1;
        goto done;
    }
    CHECK_MUT(got <= in->max, mu);
    ok = ok && got <= in->max && got + FGT_GUARD <= FGT_OUT_CAP;
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

int fgt_mut_run(const fgi_mutator *mu, uint64_t k, const fgt_input *in, uint8_t *out,
                size_t *n)
{
    static uint8_t again[FGT_OUT_CAP];
    fgi_rng r1, r2;
    fgi_rng_case(&r1, FGT_MUT_SEED, fgi_hash_str(mu->name), k);
    r2 = r1;
    size_t n1 = 0, n2 = 0;
    int a = apply_once(mu, &r1, in, out, &n1);
    int b = apply_once(mu, &r2, in, again, &n2);
    if (a < 0 || b < 0)
        return -1;
    int same = a == b && r1.state == r2.state &&
               (a == 0 || (n1 == n2 && !memcmp(out, again, n1)));
    CHECK_MUT(same, mu);
    if (!same)
        return -1;
    *n = n1;
    return a;
}

unsigned fgt_mut_each(const fgi_mutator *mu, const fgt_input *in, fgt_property p, void *ctx,
                      unsigned trials)
{
    static uint8_t out[FGT_OUT_CAP];
    unsigned applied = 0;
    for (unsigned k = 0; k < trials; k++) {
        size_t n = 0;
        int rc = fgt_mut_run(mu, k, in, out, &n);
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

/* ---- byte-level predicates ------------------------------------------------------------- */

void fgt_distinct(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)i;
}

int fgt_inserted_at(const uint8_t *small, size_t sn, const uint8_t *big, size_t bn,
                    size_t pos)
{
    size_t d = bn - sn;
    return bn >= sn && pos <= sn && memcmp(big, small, pos) == 0 &&
           memcmp(big + pos + d, small + pos, sn - pos) == 0;
}

int fgt_contains(const uint8_t *hay, size_t h, const uint8_t *needle, size_t n)
{
    if (n == 0)
        return 1;
    for (size_t i = 0; i + n <= h; i++)
        if (memcmp(hay + i, needle, n) == 0)
            return 1;
    return 0;
}

int fgt_diff_span(const uint8_t *a, const uint8_t *b, size_t n, size_t *lo, size_t *hi)
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

uint64_t fgt_load(const uint8_t *p, unsigned w, int big)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < w; i++)
        v |= (uint64_t)p[big ? w - 1 - i : i] << (8 * i);
    return v;
}

uint64_t fgt_mask_of(unsigned w)
{
    return w >= 8 ? ~0ULL : (1ULL << (8 * w)) - 1;
}

/* ---- fixtures -------------------------------------------------------------------------- */

static const char fixture_dict_text[] = "# the test dictionary\n"
                                        "\n"
                                        "kw=\"KEYWORD\"\n"
                                        "\"\\x89PNG\\r\\n\"\n"
                                        "sep=\"::\"\n"
                                        "one@1=\"\\xff\"\n";

/* Every width and both string shapes: different lengths, and the longest kept. The
 * comparison tables are filled only while a case runs: fgt_in_case (test/support/case.c). */
static void compare_everything(void)
{
    static const char long_a[] = "0123456789abcdefghijklmnopqrstuvwxyzABCD";
    static const char long_b[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd";
    __sanitizer_cov_trace_cmp1(0x41, 0x7a);
    __sanitizer_cov_trace_cmp2(0x1234, 0xfffe);
    __sanitizer_cov_trace_cmp4(FGT_CMP_A, FGT_CMP_B);
    __sanitizer_cov_trace_const_cmp8(0x8877665544332211ULL, 0x0102030405060708ULL);
    __sanitizer_cov_trace_cmpd(3.25, 2718.5);
    fgi_cmp_note_bytes("MAGICKEY", 8, "abcdefgh", 8);
    fgi_cmp_note_bytes("ab", 2, "LONGERWORD", 10);
    fgi_cmp_note_bytes(long_a, sizeof long_a - 1, long_b, sizeof long_b - 1);
}

void fgt_mut_fixtures_on(void)
{
    char err[256] = "";
    fg_error e = fgi_dict_parse("fixture", fixture_dict_text, sizeof fixture_dict_text - 1,
                                &fgt_fixture_dict, err, sizeof err);
    CHECK(e == FG_OK);
    CHECK_EQ_U(fgt_fixture_dict.count, FGT_FIXTURE_WORDS);
    fgt_mutenv.dict = &fgt_fixture_dict;
    fgt_mutenv.hot = 1; /* hot_byte applies from position 0 on */
    CHECK(fgt_in_case(compare_everything));
    fgi_rng r;
    fgi_rng_case(&r, FGT_MUT_SEED, 1, 0);
    CHECK(fgi_cmp_pick_int(&r) != NULL);
    CHECK(fgi_cmp_pick_str(&r) != NULL);
}

void fgt_mut_fixtures_off(void)
{
    memset(&fgt_mutenv, 0, sizeof fgt_mutenv);
    fgi_dict_free(&fgt_fixture_dict);
    fgi_cmp_reset();
}
