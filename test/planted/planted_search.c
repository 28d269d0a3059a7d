/* test/planted/planted_search.c — bugs a plain build must find from signatures and comparisons alone.
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
FG_TARGET(planted_prefix4, .run = prefix_run, .max_len = 64,
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
FG_TARGET(planted_keyword, .run = keyword_run, .max_len = 64,
          .what = "an FG_CHECK behind strcmp with a 9-letter keyword; no signature")
