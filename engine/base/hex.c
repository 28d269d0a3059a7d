/* engine/base/hex.c — hex, decimal and C-style escape codecs. */
#include "engine/base/hex.h"

#include <string.h>

static const char digits[] = "0123456789abcdef";

size_t fgi_dec_u64(uint64_t v, char *out)
{
    char t[FGI_DEC_MAX];
    size_t i = sizeof t;
    do {
        t[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    memcpy(out, t + i, sizeof t - i);
    return sizeof t - i;
}

size_t fgi_dec_i64(int64_t v, char *out)
{
    if (v >= 0)
        return fgi_dec_u64((uint64_t)v, out);
    out[0] = '-';
    return 1 + fgi_dec_u64(0 - (uint64_t)v, out + 1); /* INT64_MIN's magnitude fits */
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

void fgi_hex_encode(const uint8_t *data, size_t size, char *out)
{
    for (size_t i = 0; i < size; i++) {
        out[2 * i] = digits[data[i] >> 4];
        out[2 * i + 1] = digits[data[i] & 15];
    }
    out[2 * size] = '\0';
}

int fgi_hex_decode(const char *text, size_t len, uint8_t *out, size_t *outlen,
                   size_t *err_at)
{
    for (size_t i = 0; i + 1 < len; i += 2) {
        int hi = hex_value(text[i]), lo = hex_value(text[i + 1]);
        if (hi < 0 || lo < 0) {
            *err_at = hi < 0 ? i : i + 1;
            return -1;
        }
        out[i / 2] = (uint8_t)(hi << 4 | lo);
    }
    if (len % 2) {
        *err_at = len - 1;
        return -1;
    }
    *outlen = len / 2;
    return 0;
}

void fgi_escape_encode(const uint8_t *data, size_t size, fgi_str *s)
{
    for (size_t i = 0; i < size; i++) {
        uint8_t c = data[i];
        char esc[5] = {'\\', 0, 0, 0, 0};
        switch (c) {
        case '\\': esc[1] = '\\'; break;
        case '"': esc[1] = '"'; break;
        case '\n': esc[1] = 'n'; break;
        case '\t': esc[1] = 't'; break;
        case '\r': esc[1] = 'r'; break;
        default:
            if (c >= 0x20 && c < 0x7f) {
                char one = (char)c;
                fgi_str_addn(s, &one, 1);
                continue;
            }
            esc[1] = 'x';
            esc[2] = digits[c >> 4];
            esc[3] = digits[c & 15];
        }
        fgi_str_add(s, esc);
    }
}

int fgi_escape_decode(const char *text, size_t len, uint8_t *out, size_t *outlen,
                      size_t *err_at)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '"' || c < 0x20 || c == 0x7f) {
            *err_at = i;
            return -1;
        }
        if (c != '\\') {
            out[n++] = c;
            continue;
        }
        if (i + 1 >= len) {
            *err_at = i;
            return -1;
        }
        char e = text[++i];
        switch (e) {
        case '\\': out[n++] = '\\'; break;
        case '"': out[n++] = '"'; break;
        case 'n': out[n++] = '\n'; break;
        case 't': out[n++] = '\t'; break;
        case 'r': out[n++] = '\r'; break;
        case 'x': {
            int hi = i + 1 < len ? hex_value(text[i + 1]) : -1;
            int lo = i + 2 < len ? hex_value(text[i + 2]) : -1;
            if (hi < 0 || lo < 0) {
                *err_at = i - 1;
                return -1;
            }
            out[n++] = (uint8_t)(hi << 4 | lo);
            i += 2;
            break;
        }
        default:
            *err_at = i - 1;
            return -1;
        }
    }
    *outlen = n;
    return 0;
}
