/* engine/mutate/numbers.c — cmp_number: a compared value written back as text where the input
 * holds a number. */
#include "engine/mutate/numbers.h"

#include "engine/base/clocale.h"
#include "engine/base/numtext.h"
#include "engine/mutate/mutate.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

/* Bytes that continue a word or number: a token never starts right after one. */
static int is_word(uint8_t c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '.' || c == '+' || c == '-';
}

/* Whether a number token may start at `at` (fgi_num_token's own first test): inlined in
 * the scans, so a byte that starts nothing costs no call and no copy. */
static inline int may_start(const uint8_t *buf, size_t size, size_t at)
{
    if (at > 0 && is_word(buf[at - 1]))
        return 0;
    size_t d = at + (buf[at] == '-' || buf[at] == '+');
    d += d < size && buf[d] == '.';
    return d < size && is_digit(buf[d]);
}

/* The first digit in buf[d..lim), else lim: eight bytes at a time while none of them is
 * one (a byte x is a digit when x ^ '0' is below 10; the word test is Bit Twiddling
 * Hacks' "has a byte less than n", exact for n <= 128). */
static size_t next_digit(const uint8_t *buf, size_t d, size_t lim)
{
    const uint64_t ones = 0x0101010101010101ULL;
    for (; d + 8 <= lim; d += 8) {
        uint64_t w;
        memcpy(&w, buf + d, 8);
        w ^= 0x30 * ones;
        if ((w - 10 * ones) & ~w & 0x80 * ones)
            break;
    }
    while (d < lim && !is_digit(buf[d]))
        d++;
    return d;
}

/* A token has a digit within its first three bytes, so the scan skips to the next digit
 * and looks only at the two bytes before it and the digit itself. */
size_t fgi_num_next_start(const uint8_t *buf, size_t size, size_t i, size_t end)
{
    FG_ASSERT(end <= size);
    /* A token starting before end has its digit before end + 2. */
    size_t lim = end + 2 < size ? end + 2 : size;
    while (i < end) {
        size_t d = next_digit(buf, i, lim);
        if (d == lim)
            return end;
        for (size_t at = d >= i + 2 ? d - 2 : i; at <= d && at < end; at++)
            if (may_start(buf, size, at))
                return at;
        i = d + 1;
    }
    return end;
}

/* A plain decimal token at p (at most n bytes): an optional sign, 1 to 18 digits, then
 * the end or a byte that cannot continue a number — its value (*neg: the sign) and
 * length; 0 for anything else, which strtod reads: a fraction, an exponent, hex, 19 or
 * more digits, or a ',' or non-ASCII byte after the digits (what strtod takes for a
 * decimal point depends on the locale; the engine reads in the "C" one, so a ',' ends the
 * token there too, but strtod is the one to say so). Most tokens are plain, and strtod
 * costs ~300 instructions a call. */
static int plain_decimal(const uint8_t *p, size_t n, long long *v, int *neg, size_t *len)
{
    size_t i = n > 0 && (p[0] == '-' || p[0] == '+'), d0 = i;
    long long x = 0;
    for (; i < n && is_digit(p[i]) && i - d0 < 18; i++)
        x = 10 * x + (p[i] - '0');
    if (i == d0)
        return 0;
    if (i < n) {
        uint8_t c = p[i];
        if (is_digit(c) || c == '.' || c == ',' || c == 'e' || c == 'E' || c == 'x' ||
            c == 'X' || c >= 0x80)
            return 0;
    }
    *neg = p[0] == '-';
    *v = *neg ? -x : x;
    *len = i;
    return 1;
}

int fgi_num_token(const uint8_t *buf, size_t size, size_t at, double *value, size_t *len)
{
    FG_ASSERT(at < size);
    if (!may_start(buf, size, at))
        return 0;
    long long v;
    int neg;
    if (plain_decimal(buf + at, size - at, &v, &neg, len)) {
        *value = neg && v == 0 ? -0.0 : (double)v; /* rounded to nearest, as strtod */
        return 1;
    }
    /* strtod wants a NUL-terminated string; 63 bytes hold any number worth replacing. */
    char text[64];
    size_t n = FGI_MIN(size - at, sizeof text - 1);
    memcpy(text, buf + at, n);
    text[n] = '\0';
    char *end;
    *value = fgi_strtod_c(text, &end);
    *len = (size_t)(end - text);
    return *len > 0;
}

/* A recorded comparison, most often the base input's own (its operands are what this
 * input's numbers became); when any is floating point, up to four draws, taking the first
 * floating-point one: they are rare among integer comparisons and are what this mutator
 * is for. Without one, a single draw (each draw reads a random pair: a cache miss). */
static const fgi_cmp_int *pick_pair(fgi_mut *m, int reals)
{
    const fgi_cmp_int *c = NULL;
    for (int tries = 0, most = reals ? 4 : 1; tries < most; tries++) {
        c = m->nlocal && fgi_rng_chance(m->rng, 3, 4)
                ? &m->local[fgi_rng_below(m->rng, m->nlocal)]
                : fgi_cmp_pick_int(m->rng);
        if (c && c->kind != FGI_CMP_INTEGER)
            break;
    }
    return c;
}

/* One unit in the last place up or down: an ordered comparison (v > 2718.5) wants the
 * neighbour, not the constant. */
static double nudge(double v, int is_float, int up)
{
    if (v != v || v - v != 0)
        return v;
    if (is_float) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        if (f == 0)
            b = up ? 1u : 0x80000001u; /* the smallest subnormal, either sign */
        else
            b = (f > 0) == up ? b + 1 : b - 1;
        memcpy(&f, &b, sizeof f);
        return f;
    }
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    if (v == 0)
        b = up ? 1u : 0x8000000000000001ULL;
    else
        b = (v > 0) == up ? b + 1 : b - 1;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* A number token (n bytes at p) as strtol/strtoll read it into an integer of width w
 * bytes: base 0 ("017" is 15, "0x1f" 31), and clamped at the width's signed bounds, as
 * strtol clamps an overflowing number (59 digits of '1' read as LONG_MAX). 0 when the
 * token does not start as an integer (".5"). */
static int int_value(const uint8_t *p, size_t n, unsigned w, double *out)
{
    long long v;
    int neg;
    size_t len, d0 = n > 0 && (p[0] == '-' || p[0] == '+');
    /* A plain decimal token is its own value, unless a leading 0 makes it octal to strtol */
    if (!plain_decimal(p, n, &v, &neg, &len) || len != n || (p[d0] == '0' && len > d0 + 1)) {
        char text[64];
        n = FGI_MIN(n, sizeof text - 1);
        memcpy(text, p, n);
        text[n] = '\0';
        char *end;
        v = fgi_strtoll_c(text, &end, 0);
        if (end == text)
            return 0;
    }
    long long hi = w >= 8 ? LLONG_MAX : (1LL << (8 * w - 1)) - 1, lo = -hi - 1;
    *out = (double)(v < lo ? lo : v > hi ? hi : v);
    return 1;
}

/* What the scan for an operand's token found: the token (at, len; at SIZE_MAX: none) and
 * the value to write there; the first token met at all (any, any_len). */
typedef struct found {
    size_t at, len, any, any_len;
    double want;
} found;

/* Scans the tokens starting in [from, end), in order, for one whose value is an operand
 * of c (va or vb), as strtod or, for an integer comparison, strtol read it. 1 when found. */
static int find_operand(const uint8_t *buf, size_t size, size_t from, size_t end,
                        const fgi_cmp_int *c, double va, double vb, found *f)
{
    for (size_t i = fgi_num_next_start(buf, size, from, end); i < end;
         i = fgi_num_next_start(buf, size, i + 1, end)) {
        size_t n;
        double v, iv;
        if (!fgi_num_token(buf, size, i, &v, &n))
            continue;
        if (f->any == SIZE_MAX) {
            f->any = i;
            f->any_len = n;
        }
        if (v != va && v != vb && c->kind == FGI_CMP_INTEGER &&
            int_value(buf + i, n, c->width, &iv)) /* as strtol may have read it */
            v = iv;
        if (v == va || v == vb) {
            f->at = i;
            f->len = n;
            f->want = v == va ? vb : va;
            return 1;
        }
    }
    return 0;
}

/* The text of `want` for comparison c: a random form for floating point (the shortest
 * when the drawn one does not apply), decimal or 0x hex for an integer. */
static size_t number_text(fgi_mut *m, const fgi_cmp_int *c, double want, char *out)
{
    if (c->kind != FGI_CMP_INTEGER) {
        int is_float = c->kind == FGI_CMP_FLOAT;
        size_t n = fgi_num_text(want, is_float, fgi_rng_below(m->rng, FGI_NUM_FORMS), out);
        return n ? n : fgi_num_text(want, is_float, FGI_NUM_SHORTEST, out);
    }
    /* 2^63 and beyond (LONG_MAX's double rounds up to it) does not convert: clamp. */
    long long v = want >= 9.2e18 ? LLONG_MAX : want <= -9.2e18 ? LLONG_MIN : (long long)want;
    int n = fgi_rng_chance(m->rng, 1, 4) && v >= 0
                ? snprintf(out, FGI_NUM_TEXT_MAX, "0x%llx", (unsigned long long)v)
                : snprintf(out, FGI_NUM_TEXT_MAX, "%lld", v);
    return n > 0 ? (size_t)n : 0;
}

size_t fgi_mut_cmp_number(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    /* An empty input has no number to replace; only a floating-point pair's text is
     * written into it. Without one, skip before any draw: the libFuzzer driver over an
     * uninstrumented library mutates the empty input (its seeds all reduce to it), and
     * this test was a third of that mutation's cost. */
    int reals = m->nlocal_reals || fgi_cmp_have_reals();
    if (size == 0 && !reals)
        return FGI_MUT_SKIP;
    const fgi_cmp_int *c = pick_pair(m, reals);
    if (!c)
        return FGI_MUT_SKIP;
    double va = fgi_cmp_value(c, c->a), vb = fgi_cmp_value(c, c->b);
    if (va == vb || (c->kind == FGI_CMP_INTEGER && size == 0))
        return FGI_MUT_SKIP;
    /* The token whose value is an operand, from a random start (wrapping); else, for
     * floating point, the first token met. */
    found f = {.at = SIZE_MAX, .any = SIZE_MAX, .want = vb};
    size_t start = size ? (size_t)fgi_rng_below(m->rng, size) : 0;
    if (!find_operand(buf, size, start, size, c, va, vb, &f))
        find_operand(buf, size, 0, start, c, va, vb, &f);
    size_t at = f.at, len = f.len;
    double want = f.want;
    if (at == SIZE_MAX) {
        /* An integer comparison is a number only where one is — or, now and then, the
         * program's constant where no number was read at all (strtol's 0 of "abc"): its
         * text inserted. Rare, so binary formats, full of constants, lose little. */
        if (c->kind == FGI_CMP_INTEGER && (f.any != SIZE_MAX || !c->constant || va != 0 ||
                                           !fgi_rng_chance(m->rng, 1, 4)))
            return FGI_MUT_SKIP;
        want = fgi_rng_chance(m->rng, 1, 4) ? va : vb; /* mostly b: a constant is often b */
        at = f.any != SIZE_MAX ? f.any : (size_t)fgi_rng_below(m->rng, size + 1);
        len = f.any != SIZE_MAX ? f.any_len : 0;
    }
    if (fgi_rng_chance(m->rng, 1, 8)) {
        int up = (int)fgi_rng_below(m->rng, 2);
        want = c->kind == FGI_CMP_INTEGER ? want + (up ? 1 : -1)
                                          : nudge(want, c->kind == FGI_CMP_FLOAT, up);
    }
    char text[FGI_NUM_TEXT_MAX];
    size_t tl = number_text(m, c, want, text);
    if (!tl || size - len + tl > max)
        return FGI_MUT_SKIP;
    memmove(buf + at + tl, buf + at + len, size - at - len);
    memcpy(buf + at, text, tl);
    return size - len + tl;
}
