/* targets/iconv.c — iconv's UTF-8 against a UTF-8 decoder and encoder written here from
 * Unicode's definition (Table 3-7 of the Unicode Standard, RFC 3629): a differential.
 *
 *   mode 0  UTF-8 to UTF-32LE: iconv accepts exactly the well-formed input, stops at the
 *           same offset with the right error (EILSEQ for an ill-formed sequence, EINVAL for
 *           a well-formed prefix cut by the end), and gives the same code points;
 *   mode 1  UTF-32LE to UTF-8: iconv refuses exactly the surrogates and values past
 *           U+10FFFF, and writes the same bytes as the encoder here.
 * Either way iconv is also driven in fuzz-chosen pieces: input windows that grow on EINVAL
 * (the caller's side of a partial character) and output room down to one character
 * (E2BIG), which must give the same result as one call.
 *
 * Input: d[0] bit 0 the mode, bits 1-3 the output room (ROOMS), bits 4-6 the input window
 * (WINDOWS); the rest is the text.
 */
#include "fuzzgate.h"

#include <errno.h>
#include <iconv.h>
#include <string.h>
#include <sys/types.h>

#define ICONV_MAX_LEN 512

static const size_t ROOMS[8] = {0, 4, 5, 7, 8, 12, 16, 64};  /* output bytes a call */
static const size_t WINDOWS[8] = {0, 1, 2, 3, 4, 5, 9, 64};  /* input bytes offered */

/* How a conversion ended. */
enum verdict { V_OK, V_ILSEQ, V_INVAL, V_OTHER };
static const char *const verdict_names[] = {"complete", "EILSEQ", "EINVAL", "another error"};

typedef struct result {
    enum verdict v;
    size_t stop;      /* input bytes converted (where it stopped) */
    size_t out;       /* output bytes */
    uint8_t bytes[4 * ICONV_MAX_LEN + 8];
} result;

/* ---- UTF-8 from its definition ------------------------------------------------------ */

/* The length of the well-formed sequence at s[0..n), or 0 when it is ill-formed; *cp its
 * scalar value. *cut is set when the bytes present are a well-formed prefix that the end
 * of the input cut short (then the return is 0). Table 3-7: the second byte's range depends
 * on the first (no overlongs, no surrogates, nothing past U+10FFFF); later ones are
 * 80..BF. */
static size_t utf8_sequence(const uint8_t *s, size_t n, uint32_t *cp, int *cut)
{
    *cut = 0;
    uint8_t b = s[0];
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    size_t len;
    uint8_t lo = 0x80, hi = 0xbf;
    uint32_t v;
    if (b >= 0xc2 && b <= 0xdf) {
        len = 2;
        v = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
        len = 3;
        v = b & 0x0f;
        lo = b == 0xe0 ? 0xa0 : 0x80;
        hi = b == 0xed ? 0x9f : 0xbf;
    } else if (b >= 0xf0 && b <= 0xf4) {
        len = 4;
        v = b & 0x07;
        lo = b == 0xf0 ? 0x90 : 0x80;
        hi = b == 0xf4 ? 0x8f : 0xbf;
    } else {
        return 0; /* 80..C1, F5..FF never start a sequence */
    }
    for (size_t i = 1; i < len; i++) {
        if (i >= n) {
            *cut = 1; /* every byte so far was right: only the end is missing */
            return 0;
        }
        uint8_t c = s[i];
        if (c < (i == 1 ? lo : 0x80) || c > (i == 1 ? hi : 0xbf))
            return 0;
        v = v << 6 | (c & 0x3f);
    }
    *cp = v;
    return len;
}

/* s[0..n) is a lead byte of the original, 31-bit UTF-8 (ISO 10646: C2..FD, up to six
 * bytes) followed by continuation bytes only, fewer than its length: a sequence the end
 * cut short if only the lead byte and the top bits of the others are looked at. */
static int legacy_cut(const uint8_t *s, size_t n)
{
    uint8_t b = s[0];
    size_t len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3
               : b >= 0xf0 && b <= 0xf7 ? 4 : b >= 0xf8 && b <= 0xfb ? 5
               : b >= 0xfc && b <= 0xfd ? 6 : 0;
    if (n == 0 || n >= len)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return 1;
}

/* The reference for mode 0: UTF-8 to UTF-32LE. */
static void utf8_reference(const uint8_t *s, size_t n, result *r)
{
    r->v = V_OK;
    r->stop = r->out = 0;
    size_t i = 0;
    while (i < n) {
        uint32_t cp = 0;
        int cut;
        size_t len = utf8_sequence(s + i, n - i, &cp, &cut);
        if (!len) {
            r->v = cut ? V_INVAL : V_ILSEQ;
            break;
        }
        for (int k = 0; k < 4; k++)
            r->bytes[r->out++] = (uint8_t)(cp >> 8 * k);
        i += len;
    }
    r->stop = i;
}

/* The reference for mode 1: UTF-32LE to UTF-8. */
static void utf32_reference(const uint8_t *s, size_t n, result *r)
{
    r->v = V_OK;
    r->out = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t cp = (uint32_t)s[i] | (uint32_t)s[i + 1] << 8 | (uint32_t)s[i + 2] << 16 |
                      (uint32_t)s[i + 3] << 24;
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            r->v = V_ILSEQ;
            break;
        }
        uint8_t *o = r->bytes + r->out;
        if (cp < 0x80) {
            o[0] = (uint8_t)cp;
            r->out += 1;
        } else if (cp < 0x800) {
            o[0] = (uint8_t)(0xc0 | cp >> 6);
            o[1] = (uint8_t)(0x80 | (cp & 0x3f));
            r->out += 2;
        } else if (cp < 0x10000) {
            o[0] = (uint8_t)(0xe0 | cp >> 12);
            o[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
            o[2] = (uint8_t)(0x80 | (cp & 0x3f));
            r->out += 3;
        } else {
            o[0] = (uint8_t)(0xf0 | cp >> 18);
            o[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
            o[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
            o[3] = (uint8_t)(0x80 | (cp & 0x3f));
            r->out += 4;
        }
    }
    if (r->v == V_OK && i < n)
        r->v = V_INVAL; /* a unit cut by the end */
    r->stop = i;
}

/* ---- iconv ---------------------------------------------------------------------------- */

/* Converts s[0..n) with cd, offering at most `window` input bytes (0: all) and growing the
 * window when iconv says EINVAL before the real end, and at most `room` output bytes a call
 * (0: all the buffer). */
static void convert(iconv_t cd, const uint8_t *s, size_t n, size_t window, size_t room,
                    result *r)
{
    iconv(cd, NULL, NULL, NULL, NULL); /* the initial state */
    r->v = V_OK;
    r->stop = r->out = 0;
    size_t end = window ? (window < n ? window : n) : n;
    for (unsigned calls = 0;; calls++) {
        FG_CHECK(calls <= 4 * (n + sizeof r->bytes), "iconv makes no progress");
        char *in = (char *)(uintptr_t)(s + r->stop);
        size_t in_left = end - r->stop;
        size_t cap = sizeof r->bytes - r->out;
        size_t give = room && room < cap ? room : cap;
        char *out = (char *)(r->bytes + r->out);
        size_t out_left = give;
        errno = 0;
        size_t rc = iconv(cd, &in, &in_left, &out, &out_left);
        int err = errno;
        r->stop = end - in_left;
        r->out += give - out_left;
        if (rc != (size_t)-1) {
            if (end == n)
                break;
            end = window ? (end + window < n ? end + window : n) : n;
            continue;
        }
        if (err == E2BIG) {
            FG_CHECK(give - out_left > 0 || give < 4,
                     "iconv says E2BIG with %zu bytes of room and writes nothing", give);
            continue;
        }
        if (err == EINVAL && end < n) {
            end = window ? (end + window < n ? end + window : n) : n;
            continue; /* a partial character at the window's edge: offer more */
        }
        r->v = err == EILSEQ ? V_ILSEQ : err == EINVAL ? V_INVAL : V_OTHER;
        break;
    }
    if (r->v == V_OK) {
        char *out = (char *)(r->bytes + r->out);
        size_t out_left = sizeof r->bytes - r->out;
        size_t rc = iconv(cd, NULL, NULL, &out, &out_left);
        FG_CHECK(rc == 0 && out_left == sizeof r->bytes - r->out,
                 "iconv's end of a stateless conversion returns %zd or writes", (ssize_t)rc);
    }
}

static uint64_t iconv_run(const uint8_t *d, size_t size)
{
    if (size == 0)
        return fg_sig(0, 0);
    int to_utf8 = d[0] & 1;
    size_t room = ROOMS[d[0] >> 1 & 7], window = WINDOWS[d[0] >> 4 & 7];
    const uint8_t *s = d + 1;
    size_t n = size - 1 < ICONV_MAX_LEN ? size - 1 : ICONV_MAX_LEN;

    static result want, got, whole; /* run thread only; too big for the stack */
    if (to_utf8)
        utf32_reference(s, n, &want);
    else
        utf8_reference(s, n, &want);

    iconv_t cd = to_utf8 ? iconv_open("UTF-8", "UTF-32LE") : iconv_open("UTF-32LE", "UTF-8");
    FG_CHECK(cd != (iconv_t)-1, "iconv_open(%s) fails (errno %d)",
             to_utf8 ? "UTF-8 from UTF-32LE" : "UTF-32LE from UTF-8", errno);
    convert(cd, s, n, 0, 0, &whole);
    convert(cd, s, n, window, room, &got);
    iconv_close(cd);

    const char *dir = to_utf8 ? "UTF-32LE to UTF-8" : "UTF-8 to UTF-32LE";
    /* The one gap found so far, kept apart so it is one finding class (known.txt): at the
     * end of the input, glibc calls "incomplete" what the original 31-bit UTF-8 would have
     * let continue, where the definition already says ill-formed. */
    FG_CHECK(to_utf8 || !(want.v == V_ILSEQ && whole.v == V_INVAL && whole.stop == want.stop &&
                          legacy_cut(s + want.stop, n - want.stop)),
             "iconv UTF-8: an ill-formed sequence cut by the end is EINVAL (incomplete), not "
             "EILSEQ");
    FG_CHECK(whole.v == want.v && whole.stop == want.stop,
             "iconv %s: %s at offset %zu, the definition says %s at offset %zu", dir,
             verdict_names[whole.v], whole.stop, verdict_names[want.v], want.stop);
    FG_CHECK(whole.out == want.out && memcmp(whole.bytes, want.bytes, want.out) == 0,
             "iconv %s writes %zu bytes, the definition %zu, or other bytes", dir, whole.out,
             want.out);
    FG_CHECK(got.v == whole.v && got.stop == whole.stop && got.out == whole.out &&
                 memcmp(got.bytes, whole.bytes, got.out) == 0,
             "iconv %s in %zu-byte windows with %zu bytes of room ends %s at %zu with %zu bytes; "
             "in one call %s at %zu with %zu",
             dir, window, room, verdict_names[got.v], got.stop, got.out, verdict_names[whole.v],
             whole.stop, whole.out);

    /* What stopped it, and what the text held: the longest sequence seen. */
    unsigned longest = 0;
    if (!to_utf8)
        for (size_t i = 0; i < want.stop;) {
            uint32_t cp;
            int cut;
            size_t len = utf8_sequence(s + i, want.stop - i, &cp, &cut);
            longest = len > longest ? (unsigned)len : longest;
            i += len ? len : 1;
        }
    uint64_t sig = fg_sig((uint64_t)to_utf8, want.v);
    sig = fg_fold(sig, want.v != V_OK && want.stop < n ? s[want.stop] >> 4 : 16);
    return fg_fold(sig, (uint64_t)longest << 4 | fg_bucket(n, 9));
}

static void iconv_seed(fg_seeds *seeds)
{
    static const char *const utf8[] = {
        "\x00plain ASCII",
        "\x00" "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
        "\x00" "\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf", /* around the surrogates, the top */
        "\x00" "\xc0\xaf",                                 /* an overlong '/' */
        "\x40" "\xe2\x82",                                 /* cut, in 4-byte windows */
        "\x0e" "\xf0\x90\x80\x80\xf0\x90\x80\x80",         /* 7 bytes of room a call */
    };
    for (size_t i = 0; i < sizeof utf8 / sizeof utf8[0]; i++)
        fg_seeds_add(seeds, utf8[i], strlen(utf8[i] + 1) + 1);
    static const uint8_t utf32[] = {0x01, 'A', 0, 0, 0, 0xff, 0xd7, 0, 0, 0, 0xe0, 0, 0,
                                    0xff, 0xff, 0x10, 0, 0x00, 0x00, 0x11, 0};
    fg_seeds_add(seeds, utf32, sizeof utf32);
}

FG_TARGET(iconv, .what = "iconv UTF-8 <-> UTF-32LE against Unicode's definition, in pieces",
          .run = iconv_run, .seed = iconv_seed, .max_len = 1 + ICONV_MAX_LEN)
