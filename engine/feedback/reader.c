/* engine/feedback/reader.c — the typed reader (fg_read_*, include/fuzzgate.h): values decoded
 * front to back from the case's bytes, each read told to the case's read record.
 *
 * The encoding is the header's; this file is its one implementation. The standalone bridge
 * (libFuzzer, AFL++) compiles it too, with a record that hears nothing.
 */
#include "engine/feedback/reads.h"

#include <string.h>

fg_reader fg_reader_of(const uint8_t *data, size_t size)
{
    fg_reader r = {data, data ? size : 0, 0};
    return r;
}

size_t fg_read_left(const fg_reader *r)
{
    return r->size - r->pos;
}

/* Reads a little-endian word of width w (0..8) into *v. 1 when the bytes were there; else
 * the rest of the input is consumed, *v is 0 and 0 is returned. Tells the record. */
static int word(fg_reader *r, unsigned w, unsigned kind, uint64_t lo, uint64_t hi,
                uint64_t *v)
{
    size_t off = r->pos, left = r->size - r->pos;
    *v = 0;
    if (left < w) {
        r->pos = r->size;
        fgi_reads_note(r, kind, off, (unsigned)left, 1, lo, hi);
        return 0;
    }
    for (unsigned i = 0; i < w; i++)
        *v |= (uint64_t)r->data[off + i] << (8 * i);
    r->pos += w;
    fgi_reads_note(r, kind, off, w, 0, lo, hi);
    return 1;
}

size_t fg_read_pick(fg_reader *r, size_t n)
{
    uint64_t v, top = n ? (uint64_t)n - 1 : 0;
    if (!word(r, fgi_read_width(top), FGI_READ_PICK, 0, top, &v))
        return 0;
    return top ? (size_t)(v % ((uint64_t)n)) : 0;
}

/* lo + w % (span + 1), the span all of uint64 taken whole. */
static uint64_t in_range(fg_reader *r, unsigned kind, uint64_t lo, uint64_t hi)
{
    if (hi < lo) {
        uint64_t t = lo;
        lo = hi;
        hi = t;
    }
    uint64_t v, span = hi - lo;
    if (!word(r, fgi_read_width(span), kind, lo, hi, &v))
        return lo;
    return span == UINT64_MAX ? v : lo + v % (span + 1);
}

uint64_t fg_read_range(fg_reader *r, uint64_t lo, uint64_t hi)
{
    return in_range(r, FGI_READ_RANGE, lo, hi);
}

static uint64_t int_of(fg_reader *r, unsigned w)
{
    uint64_t v, top = w == 8 ? UINT64_MAX : (1ULL << (8 * w)) - 1;
    word(r, w, FGI_READ_INT, 0, top, &v);
    return v;
}

uint8_t fg_read_u8(fg_reader *r)
{
    return (uint8_t)int_of(r, 1);
}

uint16_t fg_read_u16(fg_reader *r)
{
    return (uint16_t)int_of(r, 2);
}

uint32_t fg_read_u32(fg_reader *r)
{
    return (uint32_t)int_of(r, 4);
}

uint64_t fg_read_u64(fg_reader *r)
{
    return int_of(r, 8);
}

int fg_read_bool(fg_reader *r)
{
    uint64_t v;
    word(r, 1, FGI_READ_BOOL, 0, 1, &v);
    return (int)(v & 1);
}

size_t fg_read_bytes(fg_reader *r, void *buf, size_t cap)
{
    size_t n = (size_t)in_range(r, FGI_READ_LEN, 0, cap), left = r->size - r->pos;
    if (n > left)
        n = left;
    if (n) {
        memcpy(buf, r->data + r->pos, n);
        fgi_reads_note(r, FGI_READ_BYTES, r->pos, (unsigned)n, 0, 0, 0);
        r->pos += n;
    }
    return n;
}
