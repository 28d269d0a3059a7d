/* examples/cmake/b64.c — the base64 codec. Built with -DB64_PLANTED_BUG (the example's planted
 * twin) it has the bug its fuzz targets exist to catch: the last bit of a two-byte tail is
 * dropped, so "\x00\x01" encodes as "AAA=" ("\x00\x00"). */
#include "b64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t b64_encoded_len(size_t n)
{
    return (n + 2) / 3 * 4;
}

/* The four characters of v's 24 bits, the last `pad` of them '='. */
static void put_group(char *out, uint32_t v, int pad)
{
    out[0] = alphabet[v >> 18 & 63];
    out[1] = alphabet[v >> 12 & 63];
    out[2] = pad > 1 ? '=' : alphabet[v >> 6 & 63];
    out[3] = pad > 0 ? '=' : alphabet[v & 63];
}

size_t b64_encode(const uint8_t *in, size_t n, char *out)
{
    size_t i = 0, o = 0;
    for (; n - i >= 3; i += 3, o += 4)
        put_group(out + o, (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2], 0);
    if (n - i == 1) {
        put_group(out + o, (uint32_t)in[i] << 16, 2);
        o += 4;
    } else if (n - i == 2) {
#ifdef B64_PLANTED_BUG
        put_group(out + o, (uint32_t)in[i] << 16 | (uint32_t)(in[i + 1] & 0xfe) << 8, 1);
#else
        put_group(out + o, (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8, 1);
#endif
        o += 4;
    }
    out[o] = '\0';
    return o;
}

/* A character's 6 bits, or -1 outside the alphabet ('=' included). */
static int digit(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

long b64_decode(const char *text, size_t n, uint8_t *out, size_t cap)
{
    if (n % 4)
        return -1;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 4) {
        /* Padding only in the last group, and "x=y=" is not padding. */
        int pad = i + 4 == n && text[i + 3] == '=' ? 1 + (text[i + 2] == '=') : 0;
        uint32_t v = 0;
        for (int k = 0; k < 4 - pad; k++) {
            int d = digit(text[i + k]);
            if (d < 0)
                return -1;
            v = v << 6 | (uint32_t)d;
        }
        v <<= 6 * pad;
        size_t bytes = 3 - (size_t)pad;
        if ((v & ((1u << 8 * pad) - 1)) != 0 || o + bytes > cap)
            return -1; /* bits under the padding, or no room */
        for (size_t k = 0; k < bytes; k++)
            out[o + k] = (uint8_t)(v >> (16 - 8 * k));
        o += bytes;
    }
    return (long)o;
}
