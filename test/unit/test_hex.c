/* test/unit/test_hex.c — the hex and escape codecs: round trips over every byte value, and
 * malformed text rejected with the offset of the fault. */
#include "test/support/check.h"

#include "engine/base/hex.h"
#include "engine/base/sha1.h"

#include <stdlib.h>

/* The decimal writer against printf over the edges and a spread of magnitudes. */
FG_TEST(dec_matches_printf)
{
    int64_t edge[] = {0, 1, -1, 9, 10, -9, -10, 99, 100, INT64_MAX, INT64_MIN, INT64_MAX - 1,
                      INT64_MIN + 1, 1000000000000000000LL, -1000000000000000000LL,
                      999999999999999999LL, INT32_MAX, INT32_MIN, (int64_t)UINT32_MAX};
    char got[FGI_DEC_MAX + 1], want[32];
    size_t bad = 0, n = sizeof edge / sizeof *edge;
    for (size_t i = 0; i < n + 2000; i++) {
        /* past the edges: every power of ten and its neighbours, then scrambled values */
        int64_t v = i < n ? edge[i] : (int64_t)fg_mix64(i) >> (i % 64);
        if (i >= n && i < n + 60) {
            uint64_t p = 1; /* up to 10^19, past INT64_MAX: wraps negative, also wanted */
            for (size_t k = 0; k < (i - n) / 3; k++)
                p *= 10;
            v = (int64_t)(p - 1 + (i - n) % 3);
        }
        if (i & 1)
            v = v == INT64_MIN ? v : -v;
        size_t len = fgi_dec_i64(v, got);
        got[len] = 0;
        snprintf(want, sizeof want, "%lld", (long long)v);
        bad += strcmp(got, want) != 0;
        uint64_t u = (uint64_t)v;
        len = fgi_dec_u64(u, got);
        got[len] = 0;
        snprintf(want, sizeof want, "%llu", (unsigned long long)u);
        bad += strcmp(got, want) != 0;
    }
    CHECK_EQ_U(bad, 0);
    CHECK_EQ_U(fgi_dec_u64(UINT64_MAX, got), FGI_DEC_MAX);
    CHECK_EQ_U(fgi_dec_i64(INT64_MIN, got), FGI_DEC_MAX);
}

FG_TEST(hex_encode_every_byte)
{
    uint8_t all[256];
    char out[2 * 256 + 1], want[8];
    for (int i = 0; i < 256; i++)
        all[i] = (uint8_t)i;
    memset(out, 'Z', sizeof out);
    fgi_hex_encode(all, 256, out);
    CHECK_EQ_U(strlen(out), 512);
    for (int i = 0; i < 256; i++) {
        snprintf(want, sizeof want, "%02x", i);
        CHECK(out[2 * i] == want[0] && out[2 * i + 1] == want[1]);
    }
    char one[3] = {'Z', 'Z', 'Z'};
    fgi_hex_encode((const uint8_t *)"\xab", 1, one);
    CHECK_STR(one, "ab");
    char empty[1] = {'Z'};
    fgi_hex_encode(all, 0, empty);
    CHECK_STR(empty, "");
}

FG_TEST(hex_round_trip)
{
    uint8_t all[256], back[256 + 8];
    char text[2 * 256 + 1];
    for (int i = 0; i < 256; i++)
        all[i] = (uint8_t)(255 - i);
    for (size_t n = 0; n <= 256; n += n < 8 ? 1 : 31) {
        fgi_hex_encode(all, n, text);
        size_t outlen = 999, err_at = 999;
        memset(back, 0xee, sizeof back);
        CHECK_EQ_U(fgi_hex_decode(text, 2 * n, back, &outlen, &err_at), 0);
        CHECK_EQ_U(outlen, n);
        CHECK(memcmp(back, all, n) == 0);
        CHECK_EQ_U(back[n], 0xee); /* writes len/2 bytes, no more */
    }
    /* either case; len bounds the text (no NUL needed) */
    size_t outlen = 0, err_at = 0;
    CHECK_EQ_U(fgi_hex_decode("00FFaBcD", 8, back, &outlen, &err_at), 0);
    CHECK_EQ_U(outlen, 4);
    CHECK(memcmp(back, "\x00\xff\xab\xcd", 4) == 0);
    CHECK_EQ_U(fgi_hex_decode("abcdzz", 4, back, &outlen, &err_at), 0);
    CHECK_EQ_U(outlen, 2);
    CHECK_EQ_U(fgi_hex_decode("", 0, back, &outlen, &err_at), 0);
    CHECK_EQ_U(outlen, 0);
}

FG_TEST(hex_decode_errors_point_at_the_fault)
{
    static const struct {
        const char *text;
        size_t err_at;
    } bad[] = {
        {"a", 0},      {"abc", 2},     {"abcde", 4},  {"zz", 0},      {"az", 1},
        {"0g12", 1},   {"12g4", 2},    {"123g", 3},   {"12 34", 2},   {"0x12", 1},
        {"12\n", 2},   {"-1", 0},      {"ab\xff" "0", 2},
    };
    for (size_t i = 0; i < FGI_ARRAY_LEN(bad); i++) {
        uint8_t out[16];
        size_t outlen = 777, err_at = 777;
        int rc = fgi_hex_decode(bad[i].text, strlen(bad[i].text), out, &outlen, &err_at);
        if (rc != -1 || err_at != bad[i].err_at) {
            char m[128];
            snprintf(m, sizeof m, "hex \"%s\": rc %d, err_at %zu (want -1, %zu)", bad[i].text,
                     rc, err_at, bad[i].err_at);
            fgt_fail(__FILE__, __LINE__, m);
        }
    }
}

/* Escapes data, checks the text is well-formed, decodes it back, compares. */
static void escape_round_trip(const uint8_t *data, size_t n)
{
    fgi_str s = {0};
    fgi_escape_encode(data, n, &s);
    CHECK(!s.failed);
    const char *text = fgi_str_cstr(&s);
    size_t len = strlen(text);
    for (size_t i = 0; i < len; i++) { /* printable ASCII only; a quote only as \" */
        unsigned char c = (unsigned char)text[i];
        CHECK(c >= 0x20 && c < 0x7f);
        if (c == '\\')
            i++;
        else
            CHECK(c != '"');
    }
    uint8_t *back = malloc(len + 1);
    CHECK(back != NULL);
    if (back) {
        size_t outlen = 999, err_at = 999;
        CHECK_EQ_U(fgi_escape_decode(text, len, back, &outlen, &err_at), 0);
        CHECK_EQ_U(outlen, n);
        CHECK(outlen == n && memcmp(back, data, n) == 0);
    }
    free(back);
    fgi_str_free(&s);
}

FG_TEST(hex_escape_round_trip_every_byte)
{
    uint8_t all[256];
    for (int i = 0; i < 256; i++)
        all[i] = (uint8_t)i;
    escape_round_trip(all, 256);
    for (int i = 0; i < 256; i++) {
        uint8_t one = (uint8_t)i;
        escape_round_trip(&one, 1);
        uint8_t three[3] = {(uint8_t)i, '"', (uint8_t)(255 - i)};
        escape_round_trip(three, 3);
    }
    escape_round_trip(all, 0);
}

FG_TEST(hex_escape_encode_forms)
{
    static const struct {
        const char *bytes;
        size_t n;
        const char *text;
    } cases[] = {
        {"abc", 3, "abc"},      {"a\"b", 3, "a\\\"b"},  {"\\", 1, "\\\\"},
        {"\n\t\r", 3, "\\n\\t\\r"}, {"\0", 1, "\\x00"},    {"\x7f", 1, "\\x7f"},
        {"\x80", 1, "\\x80"},    {"\xff", 1, "\\xff"},    {" ~", 2, " ~"},
        {"\x1f", 1, "\\x1f"},    {"\x0b", 1, "\\x0b"},
    };
    for (size_t i = 0; i < FGI_ARRAY_LEN(cases); i++) {
        fgi_str s = {0};
        fgi_escape_encode((const uint8_t *)cases[i].bytes, cases[i].n, &s);
        CHECK_STR(fgi_str_cstr(&s), cases[i].text);
        fgi_str_free(&s);
    }
    fgi_str s = {0};
    fgi_str_add(&s, "k=");
    fgi_escape_encode((const uint8_t *)"v", 1, &s); /* appends */
    CHECK_STR(fgi_str_cstr(&s), "k=v");
    fgi_str_free(&s);
}

FG_TEST(hex_escape_decode_accepts_either_case)
{
    uint8_t out[8];
    size_t outlen = 0, err_at = 0;
    CHECK_EQ_U(fgi_escape_decode("\\xAB\\xcd\\x0F", 12, out, &outlen, &err_at), 0);
    CHECK_EQ_U(outlen, 3);
    CHECK(memcmp(out, "\xab\xcd\x0f", 3) == 0);
    CHECK_EQ_U(fgi_escape_decode("a\\\\b", 4, out, &outlen, &err_at), 0);
    CHECK_EQ_U(outlen, 3);
    CHECK(memcmp(out, "a\\b", 3) == 0);
    CHECK_EQ_U(fgi_escape_decode("", 0, out, &outlen, &err_at), 0);
    CHECK_EQ_U(outlen, 0);
}

FG_TEST(hex_escape_decode_errors_point_at_the_fault)
{
    static const struct {
        const char *text;
        size_t err_at;
    } bad[] = {
        {"\\q", 0},         {"ab\\q", 2},      {"\\x4", 0},        {"ab\\x4", 2},
        {"\\x", 0},         {"\\x4g", 0},      {"\\xg4", 0},       {"ab\\", 2},
        {"\\", 0},          {"a\"b", 1},       {"\"", 0},          {"ab\x01", 2},
        {"\n", 0},          {"a\tb", 1},       {"a\x7f", 1},       {"ok\\n\\\"\\q", 6},
        {"\\0", 0},         {"\\X41", 0},      {"\\x41\\", 4},     {"x\x1f", 1},
    };
    for (size_t i = 0; i < FGI_ARRAY_LEN(bad); i++) {
        uint8_t out[32];
        size_t outlen = 777, err_at = 777, len = strlen(bad[i].text);
        int rc = fgi_escape_decode(bad[i].text, len, out, &outlen, &err_at);
        if (rc != -1 || err_at != bad[i].err_at) {
            char m[160], shown[64];
            fgi_str s = {0};
            fgi_escape_encode((const uint8_t *)bad[i].text, len, &s);
            snprintf(shown, sizeof shown, "%s", fgi_str_cstr(&s));
            fgi_str_free(&s);
            snprintf(m, sizeof m, "escape \"%s\": rc %d, err_at %zu (want -1, %zu)", shown, rc,
                     err_at, bad[i].err_at);
            fgt_fail(__FILE__, __LINE__, m);
        }
    }
    /* a NUL inside the length is a raw control byte too */
    uint8_t out[4];
    size_t outlen = 0, err_at = 0;
    CHECK(fgi_escape_decode("a\0b", 3, out, &outlen, &err_at) == -1);
    CHECK_EQ_U(err_at, 1);
}

/* SHA-1 against FIPS 180 vectors and a million-byte input (block-boundary paths). */
FG_TEST(sha1_known_vectors)
{
    char hex[FGI_SHA1_HEX];
    fgi_sha1_hex("", 0, hex);
    CHECK_STR(hex, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    fgi_sha1_hex("abc", 3, hex);
    CHECK_STR(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    fgi_sha1_hex(two, strlen(two), hex);
    CHECK_STR(hex, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    uint8_t *a = malloc(1000000);
    CHECK(a != NULL);
    memset(a, 'a', 1000000);
    fgi_sha1_hex(a, 1000000, hex);
    CHECK_STR(hex, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
    free(a);
    /* 55, 56 and 64 bytes: the padding spills into a second block at 56. */
    uint8_t z[64] = {0};
    fgi_sha1_hex(z, 55, hex);
    CHECK_STR(hex, "8e8832c642a6a38c74c17fc92ccedc266c108e6c");
    fgi_sha1_hex(z, 56, hex);
    CHECK_STR(hex, "9438e360f578e12c0e0e8ed28e2c125c1cefee16");
    fgi_sha1_hex(z, 64, hex);
    CHECK_STR(hex, "c8d7d0ef0eedfa82d2ea1aa592845b9a6d4b02b7");
}
