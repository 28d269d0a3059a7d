/* engine/mutate/mutate.c — the byte mutators and the stacking that applies several per case.
 *
 * Invariant of every mutator (asserted on return by fgi_mutate): the result is at most
 * max bytes, and every byte touched lies inside [0, max).
 */
#include "engine/mutate/mutate.h"

#include "engine/base/hex.h"
#include "engine/feedback/cmp.h"

#include <string.h>

/* A span length in [1, limit], biased small: most format fields are a few bytes wide. */
static size_t small_len(fgi_rng *r, size_t limit)
{
    FG_ASSERT(limit > 0);
    if (fgi_rng_chance(r, 3, 4))
        return 1 + (size_t)fgi_rng_below(r, FGI_MIN(limit, (size_t)8));
    return 1 + (size_t)fgi_rng_below(r, limit);
}

static uint8_t random_byte(fgi_rng *r)
{
    static const uint8_t special[] = {0x00, 0xff, 0x7f, 0x80, 0x01, 0x20, '0', 'a'};
    if (fgi_rng_chance(r, 1, 4))
        return special[fgi_rng_below(r, sizeof special)];
    return (uint8_t)fgi_rng_next(r);
}

/* Opens a gap of n bytes at pos (size + n <= max). */
static void open_gap(uint8_t *buf, size_t size, size_t pos, size_t n)
{
    memmove(buf + pos + n, buf + pos, size - pos);
}

static size_t erase_bytes(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    (void)max;
    if (size == 0)
        return FGI_MUT_SKIP;
    size_t n = small_len(m->rng, size);
    size_t pos = (size_t)fgi_rng_below(m->rng, size - n + 1);
    memmove(buf + pos, buf + pos + n, size - pos - n);
    return size - n;
}

static size_t insert_byte(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    if (size >= max)
        return FGI_MUT_SKIP;
    size_t pos = (size_t)fgi_rng_below(m->rng, size + 1);
    open_gap(buf, size, pos, 1);
    buf[pos] = random_byte(m->rng);
    return size + 1;
}

static size_t insert_repeated(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    if (size + 3 > max)
        return FGI_MUT_SKIP;
    size_t n = 3 + (size_t)fgi_rng_below(m->rng, FGI_MIN(max - size, (size_t)128) - 2);
    size_t pos = (size_t)fgi_rng_below(m->rng, size + 1);
    open_gap(buf, size, pos, n);
    memset(buf + pos, random_byte(m->rng), n);
    return size + n;
}

static size_t change_byte(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    (void)max;
    if (size == 0)
        return FGI_MUT_SKIP;
    size_t pos = (size_t)fgi_rng_below(m->rng, size);
    uint8_t old = buf[pos];
    buf[pos] = random_byte(m->rng);
    if (buf[pos] == old)
        buf[pos] ^= (uint8_t)(1 + fgi_rng_below(m->rng, 255));
    return size;
}

static size_t flip_bit(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    (void)max;
    if (size == 0)
        return FGI_MUT_SKIP;
    /* Two statements: the operands of ^= are unsequenced, and gcc and clang draw them in
     * opposite orders, which made the same seed flip other bits under each compiler. */
    size_t pos = (size_t)fgi_rng_below(m->rng, size);
    buf[pos] ^= (uint8_t)(1u << fgi_rng_below(m->rng, 8));
    return size;
}

static size_t shuffle_bytes(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    (void)max;
    if (size < 2)
        return FGI_MUT_SKIP;
    size_t n = 2 + (size_t)fgi_rng_below(m->rng, FGI_MIN(size, (size_t)8) - 1);
    size_t pos = (size_t)fgi_rng_below(m->rng, size - n + 1);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)fgi_rng_below(m->rng, i + 1);
        uint8_t t = buf[pos + i];
        buf[pos + i] = buf[pos + j];
        buf[pos + j] = t;
    }
    return size;
}

/* Finds an ASCII integer (an optional '-' and up to 19 digits) at or after a random
 * offset, changes its value, and writes it back (the length may change). */
static size_t change_ascii_int(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    if (size == 0)
        return FGI_MUT_SKIP;
    size_t start = (size_t)fgi_rng_below(m->rng, size);
    while (start < size && !(buf[start] >= '0' && buf[start] <= '9'))
        start++;
    if (start == size)
        return FGI_MUT_SKIP;
    size_t end = start;
    uint64_t v = 0;
    while (end < size && end - start < 19 && buf[end] >= '0' && buf[end] <= '9')
        v = v * 10 + (uint64_t)(buf[end++] - '0');
    int neg = start > 0 && buf[start - 1] == '-';
    if (neg)
        start--;
    /* Wrapping unsigned arithmetic: up to 19 digits may not fit an int64, and a fuzzer
     * must not be undefined behaviour on the numbers it invents. */
    uint64_t x = neg ? 0 - v : v;
    switch (fgi_rng_below(m->rng, 7)) {
    case 0: x += 1; break;
    case 1: x -= 1; break;
    case 2: x = (uint64_t)((int64_t)x / 2); break;
    case 3: x *= 2; break;
    case 4: x = fgi_rng_below(m->rng, (uint64_t)1 << (1 + fgi_rng_below(m->rng, 40))); break;
    case 5: x = 0 - x; break;
    default: x = 0; break;
    }
    char text[FGI_DEC_MAX];
    size_t old_len = end - start, new_len = fgi_dec_i64((int64_t)x, text);
    if (size - old_len + new_len > max)
        return FGI_MUT_SKIP;
    memmove(buf + start + new_len, buf + end, size - end);
    memcpy(buf + start, text, new_len);
    return size - old_len + new_len;
}

static uint64_t load_word(const uint8_t *p, unsigned w, int big)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < w; i++)
        v |= (uint64_t)p[big ? w - 1 - i : i] << (8 * i);
    return v;
}

static void store_word(uint8_t *p, unsigned w, int big, uint64_t v)
{
    for (unsigned i = 0; i < w; i++)
        p[big ? w - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* A width from {1, 2, 4, 8} no wider than size, or 0 when size is 0. */
static unsigned pick_width(fgi_rng *r, size_t size)
{
    static const unsigned widths[] = {1, 2, 4, 8};
    unsigned fit = size >= 8 ? 4 : size >= 4 ? 3 : size >= 2 ? 2 : size >= 1 ? 1 : 0;
    return fit ? widths[fgi_rng_below(r, fit)] : 0;
}

/* The boundary values of a w-byte integer: 0, 1, the signed max/min, all ones, and their
 * neighbours. */
static uint64_t boundary_value(fgi_rng *r, unsigned w)
{
    uint64_t ones = w == 8 ? ~0ULL : ((1ULL << (8 * w)) - 1);
    uint64_t smax = ones >> 1, smin = smax + 1;
    const uint64_t vals[] = {0, 1, 2, smax, smin, ones, ones - 1, smax - 1, smin + 1, 16, 64,
                             100, 255, 256, 1024, 4096, 32767, 65535};
    return vals[fgi_rng_below(r, FGI_ARRAY_LEN(vals))] & ones;
}

static size_t change_binary_int(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    (void)max;
    unsigned w = pick_width(m->rng, size);
    if (!w)
        return FGI_MUT_SKIP;
    size_t pos = (size_t)fgi_rng_below(m->rng, size - w + 1);
    int big = (int)fgi_rng_below(m->rng, 2);
    uint64_t v = load_word(buf + pos, w, big);
    switch (fgi_rng_below(m->rng, 4)) {
    case 0: v += 1 + fgi_rng_below(m->rng, 35); break;
    case 1: v -= 1 + fgi_rng_below(m->rng, 35); break;
    case 2: v = ~v + 1; break;
    default: v = boundary_value(m->rng, w); break;
    }
    store_word(buf + pos, w, big, v);
    return size;
}

static size_t copy_part(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    (void)max;
    if (size < 2)
        return FGI_MUT_SKIP;
    size_t n = small_len(m->rng, size - 1);
    size_t src = (size_t)fgi_rng_below(m->rng, size - n + 1);
    size_t dst = (size_t)fgi_rng_below(m->rng, size - n + 1);
    if (src == dst)
        return FGI_MUT_SKIP;
    memmove(buf + dst, buf + src, n);
    return size;
}

static size_t insert_part(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    if (size == 0 || size >= max)
        return FGI_MUT_SKIP;
    size_t n = small_len(m->rng, FGI_MIN(size, max - size));
    size_t src = (size_t)fgi_rng_below(m->rng, size - n + 1);
    size_t pos = (size_t)fgi_rng_below(m->rng, size + 1);
    memcpy(m->scratch, buf + src, n);
    open_gap(buf, size, pos, n);
    memcpy(buf + pos, m->scratch, n);
    return size + n;
}

/* Crossover with another corpus entry: insert a piece of it, overwrite with a piece of
 * it, or splice (our prefix, its suffix). */
static size_t crossover(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    if (!m->other || m->other_size == 0)
        return FGI_MUT_SKIP;
    const uint8_t *o = m->other;
    size_t osize = m->other_size;
    switch (fgi_rng_below(m->rng, 3)) {
    case 0: {
        if (size >= max)
            return FGI_MUT_SKIP;
        size_t n = small_len(m->rng, FGI_MIN(osize, max - size));
        size_t src = (size_t)fgi_rng_below(m->rng, osize - n + 1);
        size_t pos = (size_t)fgi_rng_below(m->rng, size + 1);
        open_gap(buf, size, pos, n);
        memcpy(buf + pos, o + src, n);
        return size + n;
    }
    case 1: {
        if (size == 0)
            return FGI_MUT_SKIP;
        size_t n = small_len(m->rng, FGI_MIN(osize, size));
        size_t src = (size_t)fgi_rng_below(m->rng, osize - n + 1);
        size_t dst = (size_t)fgi_rng_below(m->rng, size - n + 1);
        memcpy(buf + dst, o + src, n);
        return size;
    }
    default: {
        size_t cut = (size_t)fgi_rng_below(m->rng, size + 1);
        size_t from = (size_t)fgi_rng_below(m->rng, osize);
        size_t n = FGI_MIN(osize - from, max - cut);
        if (n == 0 && cut == size)
            return FGI_MUT_SKIP; /* nothing would change */
        memcpy(buf + cut, o + from, n);
        return cut + n;
    }
    }
}

/* Word-level mutations aimed at length and count fields. A width w in {1, 2, 4}, either
 * byte order, at a w-aligned offset: formats align their header fields. */
static int pick_field(fgi_rng *r, size_t size, unsigned *w, size_t *pos, int *big)
{
    static const unsigned widths[] = {1, 2, 4};
    unsigned fit = size >= 4 ? 3 : size >= 2 ? 2 : size >= 1 ? 1 : 0;
    if (!fit)
        return 0;
    *w = widths[fgi_rng_below(r, fit)];
    size_t slots = size / *w;
    *pos = (size_t)fgi_rng_below(r, slots) * *w;
    *big = (int)fgi_rng_below(r, 2);
    return 1;
}

/* Sets a field to the number of bytes after it (or after the whole input), +- 2. */
static size_t length_field(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    (void)max;
    unsigned w;
    size_t pos;
    int big;
    if (!pick_field(m->rng, size, &w, &pos, &big))
        return FGI_MUT_SKIP;
    uint64_t after = size - pos - w;
    if (fgi_rng_chance(m->rng, 1, 4))
        after = size;
    int64_t delta = fgi_rng_chance(m->rng, 1, 2) ? 0 : (int64_t)fgi_rng_below(m->rng, 5) - 2;
    store_word(buf + pos, w, big, after + (uint64_t)delta);
    return size;
}

/* Nudges a count field by a small amount, so a parser walks one record more or less. */
static size_t word_nudge(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    (void)max;
    unsigned w;
    size_t pos;
    int big;
    if (!pick_field(m->rng, size, &w, &pos, &big))
        return FGI_MUT_SKIP;
    uint64_t v = load_word(buf + pos, w, big);
    uint64_t d = 1 + fgi_rng_below(m->rng, 4);
    store_word(buf + pos, w, big, fgi_rng_below(m->rng, 2) ? v + d : v - d);
    return size;
}

/* Repeats a run of 1..8 aligned words right after itself: one more record. */
static size_t word_repeat(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    unsigned w;
    size_t pos;
    int big;
    if (!pick_field(m->rng, size, &w, &pos, &big))
        return FGI_MUT_SKIP;
    size_t words = 1 + (size_t)fgi_rng_below(m->rng, 8);
    size_t n = FGI_MIN(words * w, size - pos);
    if (size + n > max)
        return FGI_MUT_SKIP;
    open_gap(buf, size, pos + n, n);
    memcpy(buf + pos + n, buf + pos, n);
    return size + n;
}

/* Deletes a run of 1..8 aligned words: one record fewer. */
static size_t word_delete(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    (void)max;
    unsigned w;
    size_t pos;
    int big;
    if (!pick_field(m->rng, size, &w, &pos, &big))
        return FGI_MUT_SKIP;
    size_t words = 1 + (size_t)fgi_rng_below(m->rng, 8);
    size_t n = FGI_MIN(words * w, size - pos);
    memmove(buf + pos, buf + pos + n, size - pos - n);
    return size - n;
}

/* Puts word at pos: over the bytes there (overwrite) or into a gap (insert). */
static size_t place(uint8_t *buf, size_t size, size_t max, size_t pos, const uint8_t *w,
                    size_t n, int insert)
{
    if (insert) {
        if (size + n > max)
            return FGI_MUT_SKIP;
        open_gap(buf, size, pos, n);
        memcpy(buf + pos, w, n);
        return size + n;
    }
    if (n > size)
        return FGI_MUT_SKIP;
    pos = FGI_MIN(pos, size - n);
    memcpy(buf + pos, w, n);
    return size;
}

/* A word of the user's dictionary or of the automatic one (constants that keep appearing
 * in comparisons), drawn uniformly from both. */
static size_t dict_word(fgi_mut *m, uint8_t *buf, size_t size, size_t max, int insert)
{
    size_t user = m->dict ? m->dict->count : 0, total = user + fgi_cmp_auto_count();
    if (total == 0)
        return FGI_MUT_SKIP;
    size_t k = (size_t)fgi_rng_below(m->rng, total);
    size_t pos = (size_t)fgi_rng_below(m->rng, size + 1);
    if (k < user)
        return place(buf, size, max, pos, m->dict->words[k], m->dict->lens[k], insert);
    size_t len;
    const uint8_t *w = fgi_cmp_auto_word(k - user, &len);
    return place(buf, size, max, pos, w, len, insert);
}

static size_t dict_insert(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    return dict_word(m, buf, size, max, 1);
}

static size_t dict_overwrite(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    return dict_word(m, buf, size, max, 0);
}

/* Finds needle in buf from a random start (wrapping); its offset, or SIZE_MAX. */
static size_t find_from(fgi_rng *r, const uint8_t *buf, size_t size, const uint8_t *needle,
                        size_t n)
{
    if (n == 0 || n > size)
        return SIZE_MAX;
    size_t slots = size - n + 1, start = (size_t)fgi_rng_below(r, slots);
    for (size_t i = 0, at = start; i < slots; i++, at = at + 1 == slots ? 0 : at + 1) {
        const uint8_t *hit = buf[at] == needle[0] ? buf + at : NULL;
        if (!hit) { /* jump to the next first byte, wrapping once (same order of tries) */
            size_t end = at < start ? start : slots;
            hit = memchr(buf + at, needle[0], end - at);
            size_t skip = hit ? (size_t)(hit - (buf + at)) : end - at - 1;
            i += skip;
            at += skip;
            if (!hit)
                continue;
        }
        if (fgi_memcmp_quiet(hit, needle, n) == 0)
            return at;
    }
    return SIZE_MAX;
}

/* Comparison feedback over integers: where one operand of a recent comparison appears
 * in the input (either byte order), write the other (sometimes +-1); else write it at a
 * random place (in an input shorter than the comparison, only where its narrower field
 * is found). This is how a 4-byte magic compared as one integer is solved. */
static size_t cmp_int(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    (void)max;
    /* Mostly the base input's own comparisons: their operands are in its bytes, so the
     * search below finds where to write (input-to-state). Else the recent ones. */
    const fgi_cmp_int *c = m->nlocal && fgi_rng_chance(m->rng, 3, 4)
                               ? &m->local[fgi_rng_below(m->rng, m->nlocal)]
                               : fgi_cmp_pick_int(m->rng);
    if (!c)
        return FGI_MUT_SKIP;
    unsigned w = c->width, fw = fgi_cmp_field_width(c->a, c->b, w);
    if (fw > size) /* fw <= w: neither the field nor the whole word fits */
        return FGI_MUT_SKIP;
    int big = (int)fgi_rng_below(m->rng, 2);
    uint8_t from[8], to[8];
    int swap = fgi_rng_chance(m->rng, 1, 4); /* mostly a is the input's, b the constant */
    uint64_t a = swap ? c->b : c->a, b = swap ? c->a : c->b;
    if (fgi_rng_chance(m->rng, 1, 8))
        b += fgi_rng_below(m->rng, 2) ? 1 : (uint64_t)-1;
    store_word(from, w, big, a);
    store_word(to, w, big, b);
    /* find_from finds nothing in an input shorter than the word, which may still hold the
     * field (a 5-byte stored block header whose length was read into a long). */
    size_t at = find_from(m->rng, buf, size, from, w);
    if (at == SIZE_MAX && fw < w && (b >> (8 * fw)) == 0) { /* a narrower field's */
        uint8_t nfrom[8];
        store_word(nfrom, fw, big, a);
        at = find_from(m->rng, buf, size, nfrom, fw);
        if (at != SIZE_MAX) {
            store_word(to, fw, big, b);
            w = fw;
        }
    }
    if (at == SIZE_MAX) {
        if (w > size) /* no room for the whole word at a random place */
            return FGI_MUT_SKIP;
        at = (size_t)fgi_rng_below(m->rng, size - w + 1);
    }
    memcpy(buf + at, to, w);
    return size;
}

/* Comparison feedback over byte strings (memcmp, strcmp, strstr, ...): replace one
 * operand with the other where it appears, else insert or overwrite it somewhere. */
static size_t cmp_bytes(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    /* Mostly the base's own: its input side is in these bytes (input-to-state). */
    const fgi_cmp_str *c = m->nlocal_strs && fgi_rng_chance(m->rng, 3, 4)
                               ? &m->local_strs[fgi_rng_below(m->rng, m->nlocal_strs)]
                               : fgi_cmp_pick_str(m->rng);
    if (!c)
        return FGI_MUT_SKIP;
    const uint8_t *a = c->a, *b = c->b;
    size_t alen = c->alen, blen = c->blen;
    if (fgi_rng_below(m->rng, 2)) { /* either operand may be the input's */
        a = c->b;
        b = c->a;
        alen = c->blen;
        blen = c->alen;
    }
    size_t at = find_from(m->rng, buf, size, a, alen);
    if (at != SIZE_MAX && size - alen + blen <= max) {
        memmove(buf + at + blen, buf + at + alen, size - at - alen);
        memcpy(buf + at, b, blen);
        return size - alen + blen;
    }
    size_t pos = (size_t)fgi_rng_below(m->rng, size + 1);
    return place(buf, size, max, pos, b, blen, (int)fgi_rng_below(m->rng, 2));
}

/* Joins the other entry whole to this one, before or after it, with a separator between
 * (a line, a field, a word): how "mode=fast" and "size=1" make "mode=fast\nsize=1", which
 * a text format's signature may reward while neither half alone could. */
static size_t join_other(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    static const char *const seps[] = {"\n", " ", ",", ";", "&", "", "\r\n", ":"};
    if (!m->other)
        return FGI_MUT_SKIP;
    const char *sep = seps[fgi_rng_below(m->rng, FGI_ARRAY_LEN(seps))];
    size_t ns = strlen(sep), n = m->other_size + ns;
    if (size + n > max)
        return FGI_MUT_SKIP;
    if (fgi_rng_chance(m->rng, 3, 4)) { /* after: mostly, a format reads on */
        memcpy(buf + size, sep, ns);
        memcpy(buf + size + ns, m->other, m->other_size);
    } else {
        open_gap(buf, size, 0, n);
        memcpy(buf, m->other, m->other_size);
        memcpy(buf + m->other_size, sep, ns);
    }
    return size + n;
}

/* Writes an interesting decimal number (a limit's neighbour) into text: mostly where a
 * value would go (after '=', ':', ' ' or at the end), replacing the digits there. */
static size_t ascii_number(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    static const char *const nums[] = {"0",     "1",     "-1",         "127",       "128",
                                       "255",   "256",   "32767",      "32768",     "65535",
                                       "65536", "100000", "2147483647", "2147483648",
                                       "4294967295", "4294967296", "-2147483648", "999999"};
    const char *t = nums[fgi_rng_below(m->rng, FGI_ARRAY_LEN(nums))];
    size_t nt = strlen(t), pos = size;
    if (size && fgi_rng_chance(m->rng, 1, 2)) {
        size_t start = (size_t)fgi_rng_below(m->rng, size), i = 0, look = FGI_MIN(size, 64);
        size_t at = start; /* start + i, wrapped: no division a byte */
        for (; i < look; i++, at = at + 1 == size ? 0 : at + 1) { /* 64: arbitrary, a line */
            uint8_t ch = buf[at];
            if (ch == '=' || ch == ':' || ch == ' ')
                break;
        }
        pos = i < look ? at + 1 : size;
    } else if (size && fgi_rng_chance(m->rng, 1, 2)) {
        pos = (size_t)fgi_rng_below(m->rng, size + 1);
    }
    size_t end = pos;
    while (end < size && (buf[end] == '-' || (buf[end] >= '0' && buf[end] <= '9')))
        end++;
    if (size - (end - pos) + nt > max)
        return FGI_MUT_SKIP;
    memmove(buf + pos + nt, buf + end, size - end);
    memcpy(buf + pos, t, nt);
    return size - (end - pos) + nt;
}

/* A byte at or just after where the base's news was (its hot position): a parser that
 * got one step further usually wants the next byte right. Mostly the byte after it, or the
 * one a step on when the base's news lay a step past its own base's (a ladder of fields:
 * m->stride); else that byte itself or the next two. The value is random, or one time in four
 * a byte of the input's own (a walk's moves, a format's alphabet). Where the input ends
 * before that byte, it grows at its end by the byte and the rest of a step, the rest copied
 * from a step earlier (the last field's other bytes). */
static size_t hot_byte(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    if (m->hot == 0)
        return FGI_MUT_SKIP;
    size_t step = m->stride ? m->stride : 1;
    uint64_t d = fgi_rng_below(m->rng, 8);
    size_t pos = (size_t)m->hot - 1 + (d < 3 ? step : d < 5 ? 1 : d == 5 ? 0 : d - 4);
    uint8_t v = size && fgi_rng_chance(m->rng, 1, 4) ? buf[fgi_rng_below(m->rng, size)]
                                                      : random_byte(m->rng);
    if (pos >= size) {
        if (size >= max)
            return FGI_MUT_SKIP;
        size_t end = FGI_MIN(size + step, max);
        for (size_t j = size + 1; j < end; j++)
            buf[j] = j >= step ? buf[j - step] : random_byte(m->rng);
        buf[size] = v;
        return end;
    }
    uint8_t old = buf[pos];
    buf[pos] = v;
    if (buf[pos] == old)
        buf[pos] ^= (uint8_t)(1 + fgi_rng_below(m->rng, 255));
    return size;
}

const fgi_mutator fgi_mutators[] = {
    {"erase_bytes", erase_bytes, 1, 0, 1, 0, 0},
    {"insert_byte", insert_byte, 0, 0, 1, 0, 0},
    {"insert_repeated", insert_repeated, 0, 0, 1, 0, 0},
    {"change_byte", change_byte, 1, 0, 1, 0, 0},
    {"flip_bit", flip_bit, 1, 0, 1, 0, 0},
    {"shuffle_bytes", shuffle_bytes, 2, 0, 1, 0, 0},
    {"change_ascii_int", change_ascii_int, 1, 0, 1, 0, 0},
    {"change_binary_int", change_binary_int, 1, 0, 1, 0, 0},
    {"copy_part", copy_part, 2, 0, 1, 0, 0},
    {"insert_part", insert_part, 1, 0, 1, 0, 0},
    {"crossover", crossover, 0, FGI_NEEDS_OTHER, 1, 0, 0},
    {"length_field", length_field, 1, 0, 1, 0, 0},
    {"word_nudge", word_nudge, 1, 0, 1, 0, 0},
    {"word_repeat", word_repeat, 1, 0, 1, 0, 0},
    {"word_delete", word_delete, 1, 0, 1, 0, 0},
    {"dict_insert", dict_insert, 0, FGI_NEEDS_DICT, 2, 0, 0},
    {"dict_overwrite", dict_overwrite, 1, FGI_NEEDS_DICT, 2, 0, 0},
    {"cmp_int", cmp_int, 1, FGI_NEEDS_CMP_INT, 3, 0, 0},
    {"cmp_bytes", cmp_bytes, 0, FGI_NEEDS_CMP_STR, 3, 0, 0},
    /* A third to a half of the draws where it applies: in a plain build the byte after a
     * matched prefix is most of what the search has. Under compiler coverage the edges and
     * the comparisons lead too, and so many draws at one place cost breadth (docs/design.md,
     * session 29: at 10, the demangler's corpora covered 2.6% more edges at a fixed count). */
    {"hot_byte", hot_byte, 0, FGI_NEEDS_HOT, 16, 0, 10},
    {"join_other", join_other, 0, FGI_NEEDS_OTHER, 1, 0, 0},
    {"ascii_number", ascii_number, 0, 0, 1, 0, 0},
    /* numbers.c; on an empty input it can only write a floating-point pair's text */
    {"cmp_number", fgi_mut_cmp_number, 0, FGI_NEEDS_CMP_INT, 3, FGI_NEEDS_CMP_REAL, 0},
};
const size_t fgi_mutator_count = FGI_ARRAY_LEN(fgi_mutators);

#define NMUT FGI_ARRAY_LEN(fgi_mutators)
#define INSERT_BYTE 1 /* fgi_mutators[1]: applies whenever size < max */
#define FLIP_BIT 4    /* fgi_mutators[4]: applies whenever size > 0 */
#define MAX_MIN_SIZE 2

#define NEEDS_COMBOS 64
#define LIST_MAX 64 /* room for every mutator's weight */

/* For the plain and the guided weights, each input size 0..MAX_MIN_SIZE (larger sizes use
 * the last) and each combination of what is present (FGI_NEEDS_* bits), the mutators that
 * may apply, in table order. A pure function of the table, so every process builds the
 * same lists; computed once, read-only after. */
static struct {
    int ready;
    uint8_t list[2][MAX_MIN_SIZE + 1][NEEDS_COMBOS][LIST_MAX];
    uint8_t count[2][MAX_MIN_SIZE + 1][NEEDS_COMBOS];
} eligible;

static void build_eligible(void)
{
    FG_ASSERT(fgi_mutators[FLIP_BIT].fn == flip_bit);
    FG_ASSERT(fgi_mutators[INSERT_BYTE].fn == insert_byte);
    for (unsigned g = 0; g < 2; g++)
        for (unsigned s = 0; s <= MAX_MIN_SIZE; s++)
            for (unsigned have = 0; have < NEEDS_COMBOS; have++)
                for (size_t k = 0; k < NMUT; k++) {
                    const fgi_mutator *mu = &fgi_mutators[k];
                    unsigned weight = fgi_mutator_weight(mu, (int)g);
                    if (mu->min_size <= s && (mu->needs & ~have) == 0 &&
                        (s > 0 || (mu->empty_needs & ~have) == 0))
                        for (unsigned w = 0; w < weight; w++) {
                            FG_ASSERT(eligible.count[g][s][have] < LIST_MAX);
                            eligible.list[g][s][have][eligible.count[g][s][have]++] = (uint8_t)k;
                        }
                }
    eligible.ready = 1;
}

static unsigned present(const fgi_mut *m)
{
    return (m->other && m->other_size ? FGI_NEEDS_OTHER : 0u) |
           ((m->dict && m->dict->count) || fgi_cmp_auto_count() ? FGI_NEEDS_DICT : 0u) |
           (m->nlocal || fgi_cmp_have_ints() ? FGI_NEEDS_CMP_INT : 0u) |
           (m->nlocal_strs || fgi_cmp_have_strs() ? FGI_NEEDS_CMP_STR : 0u) |
           (m->hot ? FGI_NEEDS_HOT : 0u) |
           (m->nlocal_reals || fgi_cmp_have_reals() ? FGI_NEEDS_CMP_REAL : 0u);
}

size_t fgi_mutate(fgi_mut *m, uint8_t *buf, size_t size, size_t max)
{
    FG_ASSERT(size <= max);
    if (!eligible.ready)
        build_eligible();
    unsigned have = present(m), g = m->guided != 0;
    /* 1 + the trailing zeros of a draw, capped at the depth: 1/2, 1/4, ..., the rest. */
    unsigned depth = m->depth ? FGI_MIN(m->depth, (unsigned)FGI_MUT_STACK) : FGI_MUT_DEFAULT;
    unsigned want = 1 + (unsigned)__builtin_ctzll(fgi_rng_next(m->rng) | (1ULL << (depth - 1)));
    m->napplied = 0;
    for (unsigned tries = 0; m->napplied < want && tries < 4 * want + 8; tries++) {
        unsigned s = size < MAX_MIN_SIZE ? (unsigned)size : MAX_MIN_SIZE;
        size_t k =
            eligible.list[g][s][have][fgi_rng_below(m->rng, eligible.count[g][s][have])];
        size_t n = fgi_mutators[k].fn(m, buf, size, max);
        if (n == FGI_MUT_SKIP)
            continue;
        FG_ASSERT(n <= max);
        size = n;
        m->applied[m->napplied++] = (uint8_t)k;
    }
    /* Every draw skipped (a tiny input at its length limit, mostly): a case that runs its
     * base unchanged learns nothing, so one mutator that always applies runs instead. */
    if (m->napplied == 0 && (size > 0 || max > 0)) {
        size_t k = size > 0 ? FLIP_BIT : INSERT_BYTE;
        size = fgi_mutators[k].fn(m, buf, size, max);
        FG_ASSERT(size != FGI_MUT_SKIP && size <= max);
        m->applied[m->napplied++] = (uint8_t)k;
    }
    return size;
}

void fgi_mutate_describe(const fgi_mut *m, fgi_str *s)
{
    if (m->step)
        fgi_str_add(s, m->step);
    for (unsigned i = 0; i < m->napplied; i++) {
        if (i || m->step)
            fgi_str_add(s, ",");
        fgi_str_add(s, fgi_mutators[m->applied[i]].name);
    }
}
