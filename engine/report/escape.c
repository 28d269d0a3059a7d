/* engine/report/escape.c — JSON strings and XML text for the machine-read reports, from
 * target text that may hold any byte (escape.h says what each escaper guarantees). */
#include "engine/report/escape.h"

/* The bounds of the second byte of a sequence by its lead byte (RFC 3629's table): they
 * exclude overlong forms (E0 80..9F, F0 80..8F), surrogates (ED A0..BF) and code points
 * past U+10FFFF (F4 90..BF). Later bytes are plain continuation bytes 80..BF. */
size_t fgi_escape_utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    size_t n;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0x01 && c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4;
    else
        return 0; /* NUL, a continuation byte, C0/C1 (always overlong), F5..FF */
    if (c == 0xe0)
        lo = 0xa0;
    else if (c == 0xed)
        hi = 0x9f;
    else if (c == 0xf0)
        lo = 0x90;
    else if (c == 0xf4)
        hi = 0x8f;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++) /* a NUL here fails the test: no read past the end */
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return n;
}

/* A byte that starts no sequence, as the text \xNN. */
static void raw_byte(fgi_str *out, unsigned char c)
{
    fgi_str_addf(out, "\\x%02x", c);
}

void fgi_escape_json(fgi_str *out, const char *text)
{
    fgi_str_add(out, "\"");
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p;) {
        size_t n = fgi_escape_utf8_len(p);
        if (*p == '"' || *p == '\\')
            fgi_str_addf(out, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fgi_str_addf(out, "\\u%04x", *p);
        else if (n == 0) {
            fgi_str_add(out, "\\"); /* JSON's escape for the backslash of \xNN */
            raw_byte(out, *p);
        } else
            fgi_str_addn(out, (const char *)p, n);
        p += n ? n : 1;
    }
    fgi_str_add(out, "\"");
}

void fgi_escape_xml(fgi_str *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p;) {
        size_t n = fgi_escape_utf8_len(p);
        switch (*p) {
        case '&': fgi_str_add(out, "&amp;"); break;
        case '<': fgi_str_add(out, "&lt;"); break;
        case '>': fgi_str_add(out, "&gt;"); break;
        case '"': fgi_str_add(out, "&quot;"); break;
        case '\'': fgi_str_add(out, "&apos;"); break;
        case '\t': fgi_str_add(out, "&#9;"); break;
        case '\n': fgi_str_add(out, "&#10;"); break;
        case '\r': fgi_str_add(out, "&#13;"); break;
        default:
            if (*p < 0x20 || n == 0)
                raw_byte(out, *p); /* XML 1.0 has no way to say these bytes */
            else if (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe)
                fgi_str_addf(out, "\\u%04x", 0xfffeu + (p[2] - 0xbeu)); /* not XML chars */
            else
                fgi_str_addn(out, (const char *)p, n);
        }
        p += n ? n : 1;
    }
}
