/* test/support/mutators.h — one mutator applied in guarded buffers, and the fixtures the
 * mutator tests share (test/unit/test_mutate*.c, test/unit/test_numbers.c).
 *
 *   FG_TEST(mutate_erase_bytes)
 *   {
 *       FGT_MUTATOR(mu, "erase_bytes");           (or the test fails here and returns)
 *       fgt_input in = {data, 64, 100, NULL, 0};
 *       CHECK(fgt_mut_each(mu, &in, erased_a_span, NULL, FGT_TRIALS) == FGT_TRIALS);
 *   }
 *
 * Every application checks the contract of every mutator on the way (mutate.h): the
 * canaries past max in buf and in scratch are intact, the new length is at most max, a
 * skip leaves buf as it was, and the same stream state gives the same bytes and draws.
 * What the application hands the mutator besides the input is fgt_mutenv (all none
 * unless a test sets it; fgt_mut_fixtures_off clears it).
 */
#ifndef FG_TEST_MUTATORS_H
#define FG_TEST_MUTATORS_H

#include "test/support/check.h"

#include "engine/mutate/mutate.h"

#define FGT_MUT_SEED 0x5eed0f6a7e2026ULL
#define FGT_GUARD 16    /* canary bytes after max, in buf and in scratch */
#define FGT_CANARY 0xa5
#define FGT_FILLER 0x5a /* what lies in buf between size and max */
#define FGT_TRIALS 600
#define FGT_OUT_CAP (4096 + FGT_GUARD)

/* Like CHECK, but names the mutator (the loops run every mutator). */
#define CHECK_MUT(c, mu)                                                                   \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            char fgt_m_[256];                                                              \
            snprintf(fgt_m_, sizeof fgt_m_, "[%s] %s", (mu)->name, #c);                    \
            fgt_fail(__FILE__, __LINE__, fgt_m_);                                          \
        }                                                                                  \
    } while (0)

/* Declares `const fgi_mutator *var`, the mutator of that name; when the table has none,
 * the test fails at this line and returns. */
#define FGT_MUTATOR(var, name)                                                             \
    const fgi_mutator *var = fgt_mut_by_name(name);                                        \
    do {                                                                                   \
        if (!(var)) {                                                                      \
            fgt_fail(__FILE__, __LINE__, "no mutator named \"" name "\"");                 \
            return;                                                                        \
        }                                                                                  \
    } while (0)

/* The mutator named name in fgi_mutators, or NULL. */
const fgi_mutator *fgt_mut_by_name(const char *name);

/* One input for a mutator: bytes, the capacity, and the crossover partner (borrowed). */
typedef struct fgt_input {
    const uint8_t *data;
    size_t size, max;
    const uint8_t *other;
    size_t other_size;
} fgt_input;

/* What every application hands the mutator besides the input. Process-wide because the
 * tests set it around the helpers below; one test at a time, on the runner's thread. */
typedef struct fgt_mut_env {
    const fgi_dict *dict;     /* fgi_mut.dict: dictionary words, or NULL */
    const fgi_cmp_int *local; /* fgi_mut.local: the base input's own comparisons, or NULL */
    size_t nlocal;
    uint32_t hot;             /* fgi_mut.hot: 1 + a position, 0 none */
    uint32_t stride;          /* fgi_mut.stride: a ladder's step, 0 none */
} fgt_mut_env;
extern fgt_mut_env fgt_mutenv;

/* 1 when the FGT_GUARD bytes at p are all FGT_CANARY. */
int fgt_guard_intact(const uint8_t *p);

/* Applies mu under the stream of case k twice from the same state, in guarded buffers:
 * the two results must be identical (bytes, length and the draws taken). Returns 1
 * (applied: *n bytes in out, capacity FGT_OUT_CAP), 0 (skipped), -1 (an invariant
 * failed; reported). */
int fgt_mut_run(const fgi_mutator *mu, uint64_t k, const fgt_input *in, uint8_t *out,
                size_t *n);

/* A property of one applied result: 1 when it holds. */
typedef int (*fgt_property)(const fgt_input *in, const uint8_t *out, size_t n, void *ctx);

/* Runs mu for cases 0 .. trials-1 on in and checks the property on every applied result
 * (a failure is reported and ends the loop). Returns how many applied. */
unsigned fgt_mut_each(const fgi_mutator *mu, const fgt_input *in, fgt_property p, void *ctx,
                      unsigned trials);

/* ---- byte-level predicates ------------------------------------------------------------- */

/* p[i] = i: every byte distinct (n <= 256), so where a byte went is unambiguous. */
void fgt_distinct(uint8_t *p, size_t n);
/* 1 when big (bn bytes) is small (sn bytes) with the span [pos, pos + bn - sn) inserted. */
int fgt_inserted_at(const uint8_t *small, size_t sn, const uint8_t *big, size_t bn,
                    size_t pos);
/* 1 when needle (n bytes) occurs in hay (h bytes). */
int fgt_contains(const uint8_t *hay, size_t h, const uint8_t *needle, size_t n);
/* The first and last differing offsets of two equal-length buffers; 0 when equal. */
int fgt_diff_span(const uint8_t *a, const uint8_t *b, size_t n, size_t *lo, size_t *hi);
/* The w-byte integer at p, little- or big-endian. */
uint64_t fgt_load(const uint8_t *p, unsigned w, int big);
/* The value mask of a w-byte integer. */
uint64_t fgt_mask_of(unsigned w);

/* ---- fixtures: a dictionary and comparison tables -------------------------------------- */

/* dict_insert and dict_overwrite apply only with a dictionary, cmp_int and cmp_bytes only
 * with recorded comparisons, hot_byte only with a hot position: a test that runs every
 * mutator brackets itself with fgt_mut_fixtures_on() and fgt_mut_fixtures_off(). The words
 * of fgt_fixture_dict cover every length class a mutator meets: in order "KEYWORD",
 * "\x89PNG\r\n", "::" and the one byte "\xff" (so dict_overwrite applies at its min_size). */
#define FGT_FIXTURE_WORDS 4
extern fgi_dict fgt_fixture_dict;

/* The integer pair every fixture records (4 bytes wide), which cmp_int's test looks for. */
#define FGT_CMP_A 0x11223344u
#define FGT_CMP_B 0xdeadbeefu

/* Parses the dictionary into fgt_mutenv.dict, sets fgt_mutenv.hot to 1 (hot_byte applies
 * from position 0 on) and records comparisons of every width and both string shapes. */
void fgt_mut_fixtures_on(void);
/* Leaves no state behind for the tests that follow: fgt_mutenv cleared, the dictionary
 * freed, the comparison tables reset. */
void fgt_mut_fixtures_off(void);

#endif
