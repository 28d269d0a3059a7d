/* targets/hex.c — the engine's own hex and escape codecs (engine/base/hex.h), both directions. */
#include "fuzzgate.h"
#include "engine/base/hex.h"

#include <stdint.h>
#include <string.h>

#define HEX_MAX_LEN 256
#define ESC_CAP (4 * HEX_MAX_LEN) /* the escape of a byte is at most \xNN */

/* How fgi_hex_decode of the raw input ended; part of the signature. */
enum hex_state { HEX_OK, HEX_ODD, HEX_DIGIT };
/* How fgi_escape_decode of the raw input ended. */
enum esc_state { ESC_OK, ESC_RAW, ESC_LONE_BACKSLASH, ESC_BAD_X, ESC_BAD_LETTER };

static int is_hex_digit(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static uint8_t lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c - 'A' + 'a') : c;
}

/* Escapes data into out (capacity ESC_CAP + 1, NUL-terminated); returns its length, or
 * SIZE_MAX when the engine ran out of memory. Checks the escape fits its documented bound,
 * after the engine's buffer is freed, so a failing case leaks nothing. */
static size_t escape(const uint8_t *data, size_t size, char *out)
{
    fgi_str s = {0};
    fgi_escape_encode(data, size, &s);
    if (s.failed) {
        fgi_str_free(&s);
        return SIZE_MAX;
    }
    size_t len = s.len;
    int fits = len <= 4 * size;
    if (fits && len)
        memcpy(out, s.buf, len);
    fgi_str_free(&s);
    FG_CHECK(fits, "the escape of %zu bytes is %zu characters", size, len);
    out[len] = '\0';
    return len;
}

/* Invariant 1: hex encode then decode gives the input back. (Messages quote no input
 * text: a finding's class is a hash of its message, and the input is stored anyway.) */
static void hex_round_trip(const uint8_t *data, size_t size)
{
    char text[2 * HEX_MAX_LEN + 1];
    fgi_hex_encode(data, size, text);
    size_t tlen = strlen(text);
    FG_CHECK(tlen == 2 * size, "hex of %zu bytes is %zu digits", size, tlen);
    for (size_t i = 0; i < tlen; i++)
        FG_CHECK((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f'),
                 "hex output has byte %u at offset %zu", (unsigned)(uint8_t)text[i], i);
    uint8_t back[HEX_MAX_LEN];
    size_t blen = SIZE_MAX, at = SIZE_MAX;
    int rc = fgi_hex_decode(text, tlen, back, &blen, &at);
    FG_CHECK(rc == 0, "the hex encoder's own output does not decode (offset %zu)", at);
    FG_CHECK(blen == size, "hex of %zu bytes decodes to %zu bytes", size, blen);
    for (size_t i = 0; i < size; i++)
        FG_CHECK(back[i] == data[i], "hex round trip changes byte %zu: %u to %u", i,
                 data[i], back[i]);
}

/* Invariant 2: escape then decode gives the input back. Returns 1 when the escape was the
 * input unchanged (printable text with nothing to escape), 0 otherwise, -1 out of memory. */
static int escape_round_trip(const uint8_t *data, size_t size)
{
    char text[ESC_CAP + 1];
    size_t tlen = escape(data, size, text);
    if (tlen == SIZE_MAX)
        return -1;
    for (size_t i = 0; i < tlen; i++)
        FG_CHECK(text[i] >= 0x20 && text[i] < 0x7f, "escape output has byte %u at %zu",
                 (unsigned)(uint8_t)text[i], i);
    uint8_t back[HEX_MAX_LEN];
    size_t blen = SIZE_MAX, at = SIZE_MAX;
    int rc = fgi_escape_decode(text, tlen, back, &blen, &at);
    FG_CHECK(rc == 0, "the escape encoder's own output does not decode (offset %zu)", at);
    FG_CHECK(blen == size, "the escape of %zu bytes decodes to %zu bytes", size, blen);
    for (size_t i = 0; i < size; i++)
        FG_CHECK(back[i] == data[i], "escape round trip changes byte %zu: %u to %u", i,
                 data[i], back[i]);
    return tlen == size && memcmp(text, data, size) == 0;
}

/* Invariant 3: the raw input decoded as hex. It fails exactly when there is a non-hex
 * digit or the length is odd, at the first offending offset (the first non-hex digit, else
 * the odd last digit), and everything before that offset decodes; when it succeeds, its
 * encoding is the input in lower case. */
static enum hex_state raw_as_hex(const uint8_t *data, size_t size)
{
    size_t bad = size;
    for (size_t i = 0; i < size && bad == size; i++)
        if (!is_hex_digit(data[i]))
            bad = i;
    size_t expect_at = bad < size ? bad : (size % 2 ? size - 1 : SIZE_MAX);

    uint8_t out[HEX_MAX_LEN / 2 + 1];
    size_t olen = SIZE_MAX, at = SIZE_MAX;
    int rc = fgi_hex_decode((const char *)data, size, out, &olen, &at);
    if (expect_at != SIZE_MAX) {
        FG_CHECK(rc == -1, "hex decode accepts %zu bytes with a problem at offset %zu", size,
                 expect_at);
        FG_CHECK(at == expect_at, "hex decode reports offset %zu, the first problem is %zu",
                 at, expect_at);
        size_t ok_len = at & ~(size_t)1;
        size_t plen = SIZE_MAX, pat = SIZE_MAX;
        rc = fgi_hex_decode((const char *)data, ok_len, out, &plen, &pat);
        FG_CHECK(rc == 0 && plen == ok_len / 2,
                 "the %zu digits before the reported offset do not decode (offset %zu)",
                 ok_len, pat);
        return bad < size ? HEX_DIGIT : HEX_ODD;
    }
    FG_CHECK(rc == 0, "hex decode refuses %zu hex digits (offset %zu)", size, at);
    FG_CHECK(olen == size / 2, "%zu hex digits decode to %zu bytes", size, olen);
    char again[HEX_MAX_LEN + 1];
    fgi_hex_encode(out, olen, again);
    for (size_t i = 0; i < size; i++)
        FG_CHECK((uint8_t)again[i] == lower(data[i]),
                 "hex re-encodes byte %u at offset %zu as %u", data[i], i,
                 (unsigned)(uint8_t)again[i]);
    return HEX_OK;
}

/* Where fgi_escape_decode stopped, as a class (at is the offset it reported). */
static enum esc_state escape_failure(const uint8_t *data, size_t size, size_t at)
{
    if (data[at] != '\\')
        return ESC_RAW;
    if (at + 1 >= size)
        return ESC_LONE_BACKSLASH;
    return data[at + 1] == 'x' ? ESC_BAD_X : ESC_BAD_LETTER;
}

/* Invariant 4: the raw input decoded as an escape. When it fails, the reported offset is a
 * byte that must be escaped or the backslash of a bad escape, and everything before it
 * decodes; when it succeeds, the bytes are at most as many as the input, are the input
 * itself when it has no backslash, and re-escape to a text that decodes to them again. */
static int raw_as_escape(const uint8_t *data, size_t size, enum esc_state *state)
{
    uint8_t out[HEX_MAX_LEN];
    size_t olen = SIZE_MAX, at = SIZE_MAX;
    int rc = fgi_escape_decode((const char *)data, size, out, &olen, &at);
    if (rc != 0) {
        FG_CHECK(rc == -1, "escape decode returns %d", rc);
        FG_CHECK(at < size, "escape decode of %zu bytes fails at offset %zu", size, at);
        uint8_t c = data[at];
        FG_CHECK(c == '\\' || c == '"' || c < 0x20 || c == 0x7f,
                 "escape decode fails at offset %zu on the plain byte %u", at, c);
        size_t plen = SIZE_MAX, pat = SIZE_MAX;
        rc = fgi_escape_decode((const char *)data, at, out, &plen, &pat);
        FG_CHECK(rc == 0, "the %zu bytes before the failing offset do not decode (at %zu)",
                 at, pat);
        *state = escape_failure(data, size, at);
        return 0;
    }
    *state = ESC_OK;
    FG_CHECK(olen <= size, "%zu escaped bytes decode to %zu", size, olen);
    if (!memchr(data, '\\', size))
        FG_CHECK(olen == size && memcmp(out, data, size) == 0,
                 "a text without a backslash decodes to something else");
    char text[ESC_CAP + 1];
    size_t tlen = escape(out, olen, text);
    if (tlen == SIZE_MAX)
        return -1;
    uint8_t back[HEX_MAX_LEN];
    size_t blen = SIZE_MAX;
    rc = fgi_escape_decode(text, tlen, back, &blen, &at);
    FG_CHECK(rc == 0, "the re-escape of the decoded bytes does not decode (offset %zu)", at);
    FG_CHECK(blen == olen && memcmp(back, out, olen) == 0,
             "the re-escape of the decoded bytes decodes to other bytes");
    return 0;
}

static uint64_t hex_run(const uint8_t *data, size_t size)
{
    if (size > HEX_MAX_LEN)
        size = HEX_MAX_LEN; /* corpus files may be longer; their head is the case */
    hex_round_trip(data, size);
    int plain = escape_round_trip(data, size);
    if (plain < 0)
        return 0;
    enum hex_state hs = raw_as_hex(data, size);
    enum esc_state es = ESC_OK;
    if (raw_as_escape(data, size, &es) < 0)
        return 0;
    uint64_t sig = fg_sig(hs, es);
    sig = fg_fold(sig, fg_bucket(size, 9));
    return fg_fold(sig, (uint64_t)plain);
}

static void hex_seed(fg_seeds *seeds)
{
    static const char *const texts[] = {
        "00ff", "DEADbeef", "abc", "\\x41\\n\\t\\r\\\\\\\"", "a\"b", "\\xzz", "\\q", "x\\",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        fg_seeds_add(seeds, texts[i], strlen(texts[i]));
    static const uint8_t binary[] = {0x00, 0x7f, 0x80, 0xff, '\n', '"', '\\'};
    fg_seeds_add(seeds, binary, sizeof binary);
}

FG_TARGET(hex,
          .what = "the engine's hex and escape codecs: round trips and decode errors",
          .run = hex_run,
          .seed = hex_seed,
          .max_len = HEX_MAX_LEN);
