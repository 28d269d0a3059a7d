/* targets/strtod.c — strtod over arbitrary text, checked by exact round trips through printf. */
#include "fuzzgate.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRTOD_MAX_LEN 256

/* What one parse produced; part of the signature. */
enum num_class { NUM_NONE, NUM_ZERO, NUM_SUBNORMAL, NUM_NORMAL, NUM_INF, NUM_NAN };
static const char *const class_names[] = {"nothing", "a zero", "a subnormal", "a normal",
                                          "an infinity", "a NaN"};

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static enum num_class classify(double v)
{
    switch (fpclassify(v)) {
    case FP_ZERO: return NUM_ZERO;
    case FP_SUBNORMAL: return NUM_SUBNORMAL;
    case FP_INFINITE: return NUM_INF;
    case FP_NAN: return NUM_NAN;
    default: return NUM_NORMAL;
    }
}

/* text is printf's rendering of v (how names the format); strtod must read all of it and
 * give v back: the same bits, or for a NaN another NaN. */
static void read_back(double v, const char *text, const char *how)
{
    char *end;
    double back = strtod(text, &end);
    FG_CHECK(*end == '\0', "strtod reads %td of the %zu characters of its own %s output",
             end - text, strlen(text), how);
    if (isnan(v))
        FG_CHECK(isnan(back), "a NaN printed with %s reads back as %.17g", how, back);
    else
        FG_CHECK(same_bits(v, back), "%.17g printed with %s reads back as %.17g", v, how,
                 back);
}

static uint64_t strtod_run(const uint8_t *data, size_t size)
{
    char buf[STRTOD_MAX_LEN + 1];
    size_t len = size < STRTOD_MAX_LEN ? size : STRTOD_MAX_LEN; /* corpus files may be longer */
    const uint8_t *nul = memchr(data, '\0', len);
    if (nul)
        len = (size_t)(nul - data);
    memcpy(buf, data, len);
    buf[len] = '\0';

    char *end = NULL;
    errno = 0;
    double v = strtod(buf, &end);
    int range = errno == ERANGE;
    FG_CHECK((uintptr_t)end >= (uintptr_t)buf && (uintptr_t)end <= (uintptr_t)(buf + len),
             "endptr is %td bytes from the start of a %zu-byte string",
             (ptrdiff_t)((uintptr_t)end - (uintptr_t)buf), len);
    size_t used = (size_t)(end - buf);

    if (used == 0) {
        FG_CHECK(same_bits(v, 0.0), "nothing was parsed but the result is %.17g", v);
        return fg_sig(NUM_NONE, fg_bucket(len, 9));
    }

    /* The consumed prefix is itself a complete subject sequence: alone, it parses whole and
     * to the same bits (a NaN's payload included, since the text is the same). */
    char prefix[STRTOD_MAX_LEN + 1];
    memcpy(prefix, buf, used);
    prefix[used] = '\0';
    char *pend;
    double again = strtod(prefix, &pend);
    FG_CHECK(pend == prefix + used, "the %zu consumed bytes alone parse only %td bytes",
             used, pend - prefix);
    FG_CHECK(same_bits(v, again), "the consumed bytes give %.17g in the input, %.17g alone",
             v, again);

    enum num_class cls = classify(v);
    int digits = strpbrk(prefix, "0123456789") != NULL;
    if (cls == NUM_INF && digits)
        FG_CHECK(range, "a numeral overflows to %.17g without ERANGE", v);
    /* C11 7.22.1.3: ERANGE means the value overflowed or underflowed, nothing else. (glibc
     * 2.36 also leaks it from a NaN payload too long for 64 bits: glibc bug 32045, fixed
     * upstream in 2024.) */
    if (range)
        FG_CHECK(cls == NUM_INF || fabs(v) <= DBL_MIN,
                 "errno is ERANGE, but the result (%s) is neither an overflow nor an underflow",
                 class_names[cls]);

    char text[64];
    int n = snprintf(text, sizeof text, "%.17g", v);
    FG_CHECK(n > 0 && (size_t)n < sizeof text, "%%.17g of %.17g needs %d bytes", v, n);
    read_back(v, text, "%.17g");
    n = snprintf(text, sizeof text, "%a", v);
    FG_CHECK(n > 0 && (size_t)n < sizeof text, "%%a of %.17g needs %d bytes", v, n);
    read_back(v, text, "%a");

    /* Beyond the signature: a longer numeral is progress (rounding bugs live in long
     * ones), and so is each new binary-exponent range the value reaches. */
    fg_maximize(0, used);
    int exp2 = 0;
    if (cls != NUM_INF && cls != NUM_NAN)
        (void)frexp(v, &exp2);
    fg_feature((uint64_t)(exp2 + 1100) / 128);

    int hex = strpbrk(prefix, "xX") != NULL;
    uint64_t sig = fg_sig(cls, fg_bucket(used, 9));
    sig = fg_fold(sig, (uint64_t)(signbit(v) != 0));
    sig = fg_fold(sig, (uint64_t)hex);
    return fg_fold(sig, (uint64_t)(used < len)); /* trailing text left unparsed */
}

static void strtod_seed(fg_seeds *seeds)
{
    static const char *const seeds_text[] = {
        "0", "1.5", "-0x1.8p-3", "  +12.5e+3x", "1e-400", "nan(0x1f)", "-Infinity",
        "2.2250738585072011e-308", "179769313486231580793728971405301e292", ".5e",
    };
    for (size_t i = 0; i < sizeof seeds_text / sizeof seeds_text[0]; i++)
        fg_seeds_add(seeds, seeds_text[i], strlen(seeds_text[i]));
}

FG_TARGET(strtod,
          .what = "strtod: text to double, exact round trips through %.17g and %a",
          .run = strtod_run,
          .seed = strtod_seed,
          .max_len = STRTOD_MAX_LEN);
