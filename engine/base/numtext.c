/* engine/base/numtext.c — a number written in the text forms a parser reads. */
#include "engine/base/numtext.h"

#include "engine/base/clocale.h"

#include <stdio.h>
#include <stdlib.h>

/* Does text read back (strtod, or strtof for a float's value) as exactly v? Run inside
 * fgi_num_text's switch to the "C" locale (engine/base/clocale.h). */
static int reads_back(const char *text, double v, int is_float)
{
    char *end;
    if (is_float)
        return (double)strtof(text, &end) == v && *end == '\0';
    return strtod(text, &end) == v && *end == '\0';
}

/* The fewest digits (precision lo..hi of conversion conv, "g", "e" or "f") that read back as
 * v; its length, or 0 when none within hi does. */
static size_t shortest(double v, int is_float, char conv, int lo, int hi, char *out)
{
    for (int p = lo; p <= hi; p++) {
        int n = conv == 'g'   ? snprintf(out, FGI_NUM_TEXT_MAX, "%.*g", p, v)
                : conv == 'e' ? snprintf(out, FGI_NUM_TEXT_MAX, "%.*e", p, v)
                              : snprintf(out, FGI_NUM_TEXT_MAX, "%.*f", p, v);
        if (n > 0 && n < FGI_NUM_TEXT_MAX && reads_back(out, v, is_float))
            return (size_t)n;
    }
    return 0;
}

static size_t num_text(double v, int is_float, enum fgi_num_form f, char *out)
{
    FG_ASSERT(f < FGI_NUM_FORMS);
    int n = 0;
    if (v != v || v - v != 0) { /* NaN or an infinity: one spelling, and no integer */
        if (f == FGI_NUM_INT)
            return 0;
        n = snprintf(out, FGI_NUM_TEXT_MAX, "%g", v);
        return n > 0 ? (size_t)n : 0;
    }
    switch (f) {
    case FGI_NUM_SHORTEST:
        return shortest(v, is_float, 'g', 1, 17, out);
    case FGI_NUM_G17:
        n = snprintf(out, FGI_NUM_TEXT_MAX, "%.17g", v);
        break;
    case FGI_NUM_EXP:
        return shortest(v, is_float, 'e', 0, 16, out);
    case FGI_NUM_PLAIN: {
        /* %f of 1e300 is 301 digits: such values are written with an exponent or not at
         * all. 40 characters is arbitrary: longer than any literal seen in test data. */
        double mag = v < 0 ? -v : v;
        if (mag != 0 && (mag >= 1e21 || mag < 1e-12))
            return 0;
        size_t len = shortest(v, is_float, 'f', 0, 30, out);
        return len <= 40 ? len : 0;
    }
    case FGI_NUM_HEX:
        n = snprintf(out, FGI_NUM_TEXT_MAX, "%a", v);
        break;
    case FGI_NUM_INT:
        /* 2^63 bounds the cast; below it, an integer-valued double converts exactly. */
        if (!(v > -9.2e18 && v < 9.2e18) || (double)(long long)v != v)
            return 0;
        n = snprintf(out, FGI_NUM_TEXT_MAX, "%lld", (long long)v);
        break;
    default:
        return 0;
    }
    return n > 0 && n < FGI_NUM_TEXT_MAX ? (size_t)n : 0;
}

size_t fgi_num_text(double v, int is_float, enum fgi_num_form f, char *out)
{
    locale_t old = fgi_c_locale_begin(); /* '.' whatever setlocale said */
    size_t n = num_text(v, is_float, f, out);
    fgi_c_locale_end(old);
    return n;
}
