/* test/planted/planted_search.c — bugs a plain build must find from signatures and comparisons
 * alone.
 *
 * The two bugs of issue 12's gate test: an FG_CHECK behind a 4-byte prefix whose signature
 * is how many bytes matched, and strcmp of the whole input with a 9-letter keyword, with
 * no signature at all (only the interposed strcmp can say what is wanted). This file is
 * built with -fno-builtin (Makefile): a compiler may otherwise expand strcmp against a
 * short constant inline, and then nothing outside the target can hear the comparison.
 */
#include "fuzzgate.h"

#include <string.h>

static uint64_t prefix_run(const uint8_t *d, size_t n)
{
    static const uint8_t want[4] = {'F', 'G', 0x7e, 'Z'};
    size_t m = 0;
    while (m < 4 && m < n && d[m] == want[m])
        m++;
    FG_CHECK(m < 4, "planted: the 4-byte prefix matched");
    return fg_sig(m, 0);
}
FG_TARGET(planted_prefix4, .flags = FG_NO_CORPUS, .run = prefix_run, .max_len = 64,
          .what = "an FG_CHECK behind a 4-byte prefix; signature: bytes matched")

static uint64_t keyword_run(const uint8_t *d, size_t n)
{
    char s[65];
    size_t take = n < 64 ? n : 64;
    memcpy(s, d, take);
    s[take] = '\0';
    FG_CHECK(strcmp(s, "blueberry") != 0, "planted: the keyword");
    return 0;
}
FG_TARGET(planted_keyword, .flags = FG_NO_CORPUS, .run = keyword_run, .max_len = 64,
          .what = "an FG_CHECK behind strcmp with a 9-letter keyword; no signature")

/* The public signals, each with no signature: only what the target says through them
 * can guide the search to the bug. */

/* A 32-bit magic compared through fg_cmp_u64: input-to-state in a plain build. */
static uint64_t u32magic_run(const uint8_t *d, size_t n)
{
    if (n >= 4) {
        uint32_t v = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
                     (uint32_t)d[3] << 24;
        FG_CHECK(!fg_cmp_u64(v, 0x1badb002u), "planted: the 32-bit magic");
    }
    return 0;
}
FG_TARGET(planted_u32magic, .flags = FG_NO_CORPUS, .run = u32magic_run, .max_len = 64,
          .what = "an FG_CHECK behind a 32-bit magic compared with fg_cmp_u64")

/* 12 'Q' bytes, counted through fg_maximize: each new high keeps the input. */
static uint64_t maximize_run(const uint8_t *d, size_t n)
{
    unsigned q = 0;
    for (size_t i = 0; i < n; i++)
        q += d[i] == 'Q';
    fg_maximize(3, q);
    FG_CHECK(q < 12, "planted: %u Q bytes", q);
    return 0;
}
FG_TARGET(planted_maximize, .flags = FG_NO_CORPUS, .run = maximize_run, .max_len = 64,
          .what = "an FG_CHECK at 12 'Q' bytes, their count pushed up with fg_maximize")

/* The first two bytes as features: the corpus grows with them, with no signature. */
static uint64_t features_run(const uint8_t *d, size_t n)
{
    if (n >= 1)
        fg_feature(d[0] >> 4);
    if (n >= 2)
        fg_feature(0x100 | (d[1] >> 4));
    return 0;
}
FG_TARGET(planted_features, .flags = FG_NO_CORPUS, .run = features_run, .max_len = 64,
          .what = "no bug; two features from the first two bytes' high nibbles")
