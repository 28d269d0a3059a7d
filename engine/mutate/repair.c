/* engine/mutate/repair.c — checksum repair: stored fields rewritten with computed values. */
#include "engine/mutate/repair.h"

#include <pthread.h>
#include <string.h>

/* CRC-32 a byte at a time by table: repair tests every case's 4-byte string comparisons
 * against the CRC of what precedes and follows the field. Built once, on first use, by
 * pthread_once (any thread may call this; not a constructor: see engine/feedback/
 * coverage.c's bucket table). */
static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void build_crc_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
        crc_table[i] = c;
    }
}

uint32_t fgi_repair_crc32(const uint8_t *p, size_t n)
{
    pthread_once(&crc_once, build_crc_table);
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        crc = (crc >> 8) ^ crc_table[(crc ^ p[i]) & 0xff];
    return ~crc;
}

uint32_t fgi_repair_adler32(const uint8_t *p, size_t n)
{
    /* The sums reduced every 5552 bytes, the most before b can pass 2^32 (zlib's NMAX). */
    uint32_t a = 1, b = 0;
    while (n) {
        size_t k = n < 5552 ? n : 5552;
        n -= k;
        while (k--) {
            a += *p++;
            b += a;
        }
        a %= 65521u;
        b %= 65521u;
    }
    return b << 16 | a;
}

static uint64_t byte_sum(const uint8_t *p, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i];
    return s;
}

static void encode(uint8_t *out, uint64_t v, unsigned w, int big)
{
    for (unsigned i = 0; i < w; i++)
        out[big ? w - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* Which pairs of adjacent bytes the input holds, a bit each: built in one pass before the
 * comparisons are searched, so that a field none of whose pairs is there costs no scan. A
 * real target's case makes dozens of comparisons of a field's shape (bfd: offsets and
 * sizes against what it computed), each up to 8 scans of the input, nearly all for values
 * the input does not hold. All zero between uses (cleared by a second pass, cheaper than
 * clearing 8 KiB for a short input). One for the process: cases run on one thread at a
 * time in a process (the heap oracle is the process's), and a thread-local copy would
 * cost every thread of the program 8 KiB. */
static uint64_t pairs[65536 / 64];

static unsigned pair_at(const uint8_t *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static void pairs_mark(const uint8_t *buf, size_t size, int on)
{
    for (size_t i = 0; i + 1 < size; i++) {
        unsigned k = pair_at(buf + i);
        if (on)
            pairs[k / 64] |= 1ULL << (k % 64);
        else
            pairs[k / 64] = 0;
    }
}

/* 0 when needle (n bytes) is surely not in the marked input: one of its pairs is not. */
static int may_hold(const uint8_t *needle, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        unsigned k = pair_at(needle + i);
        if (!(pairs[k / 64] >> (k % 64) & 1))
            return 0;
    }
    return 1;
}

/* The first offset of needle (n bytes) in buf, or SIZE_MAX. */
static size_t find(const uint8_t *buf, size_t size, const uint8_t *needle, size_t n)
{
    if (!may_hold(needle, n))
        return SIZE_MAX;
    for (size_t i = 0; n && i + n <= size; i++)
        if (buf[i] == needle[0] && fgi_memcmp_quiet(buf + i, needle, n) == 0)
            return i;
    return SIZE_MAX;
}

/* The smaller of the two readings (little- and big-endian) of the w bytes at y (w <= 8;
 * y has 8 readable bytes: a comparison's operand or an 8-byte field buffer). A byte sum y
 * may be is at least this. */
_Static_assert(FGI_CMP_STR_MAX >= 8, "repair reads 8 bytes of an operand");
static uint64_t sum_floor(const uint8_t *y, unsigned w)
{
    uint64_t le = 0; /* a fixed 8: the compilers make this one load */
    for (unsigned i = 0; i < 8; i++)
        le |= (uint64_t)y[i] << (8 * i);
    uint64_t be = __builtin_bswap64(le) >> (64 - 8 * w);
    if (w < 8)
        le &= (1ULL << (8 * w)) - 1;
    return le < be ? le : be;
}

/* Whether a w-byte field whose smaller reading is `least` may hold the byte sum of n
 * bytes: the sum is at most 255 n, and is cut to w bytes only when it can outgrow them.
 * A cheap test that saves passes over the input for the comparisons no sum can match (a
 * file's magic, a tag). */
static int may_be_sum(uint64_t least, unsigned w, size_t n)
{
    if (w < 8 && n >= (UINT64_MAX >> (64 - 8 * w)) / 255)
        return 1; /* the sum may outgrow w bytes: any value may be its cut */
    return least <= 255 * (uint64_t)n;
}

/* Whether the 4 bytes y, read in some byte order, may be an Adler-32: both halves are
 * sums modulo 65521. */
static int may_be_adler(const uint8_t *y)
{
    for (int big = 0; big < 2; big++) {
        uint32_t hi = (uint32_t)y[big ? 0 : 3] << 8 | y[big ? 1 : 2];
        uint32_t lo = (uint32_t)y[big ? 2 : 1] << 8 | y[big ? 3 : 0];
        if (hi < 65521u && lo < 65521u)
            return 1;
    }
    return 0;
}

/* Are the w bytes y a checksum (CRC-32 or Adler-32 when w is 4, the byte sum for any w,
 * either byte order) of the input before the field at p, or after it? `sums_only`: the
 * integer shape, where any 4- or 8-byte value is trusted and only small ones need this.
 * A sum y cannot be is not computed. */
static int is_checksum_of(const uint8_t *buf, size_t size, size_t p, unsigned w,
                          const uint8_t *y, int sums_only)
{
    const uint8_t *part[2] = {buf, buf + p + w};
    size_t len[2] = {p, size - p - w};
    int crc = w == 4 && !sums_only, adler = crc && may_be_adler(y);
    uint64_t least = sum_floor(y, w);
    for (int r = 0; r < 2; r++) {
        uint64_t sums[3];
        int nsums = 0;
        if (may_be_sum(least, w, len[r]))
            sums[nsums++] = byte_sum(part[r], len[r]);
        if (crc)
            sums[nsums++] = fgi_repair_crc32(part[r], len[r]);
        if (adler)
            sums[nsums++] = fgi_repair_adler32(part[r], len[r]);
        for (int s = 0; s < nsums; s++)
            for (int big = 0; big < 2; big++) {
                uint8_t e[8];
                encode(e, sums[s], w, big);
                if (fgi_memcmp_quiet(e, y, w) == 0)
                    return 1;
            }
    }
    return 0;
}

/* Writes y over the w-byte field at p, and marks its pairs (with its neighbours') for the
 * comparisons searched after it. */
static unsigned rewrite(uint8_t *buf, size_t size, size_t p, const uint8_t *y, unsigned w)
{
    memcpy(buf + p, y, w);
    size_t from = p ? p - 1 : 0, to = p + w < size ? p + w + 1 : size;
    pairs_mark(buf + from, to - from, 1);
    return 1;
}

/* Whether an integer comparison may be a stored field against a computed checksum, by its
 * shape alone (tested before any search: cheap). 2^16: CRCs and hashes of anything are
 * above it nearly always; the lengths and counts programs compare with their input's
 * fields are below it. A 2-byte field must be a byte sum instead (checked once found). */
static inline int int_shape(const fgi_cmp_int *c, size_t size)
{
    unsigned w = c->width;
    return c->kind == FGI_CMP_INTEGER && !c->constant && c->a != c->b && w >= 2 && w <= size &&
           (w < 4 || (c->a >> 16 && c->b >> 16));
}

/* Whether a byte-string comparison has a stored field's shape: equal widths of 1, 2, 4 or
 * 8 bytes that fit the input, and different bytes (an equal pair has nothing to repair). */
static inline int str_shape(const fgi_cmp_str *c, size_t size)
{
    unsigned w = c->alen;
    return c->alen == c->blen && (w == 1 || w == 2 || w == 4 || w == 8) && w <= size &&
           fgi_memcmp_quiet(c->a, c->b, w) != 0;
}

/* An integer comparison of stored x (in the input) with computed y (not in it). */
static unsigned repair_int(uint8_t *buf, size_t size, const fgi_cmp_int *c)
{
    unsigned w = c->width;
    if (!int_shape(c, size))
        return 0;
    for (int side = 0; side < 2; side++) {
        uint64_t x = side ? c->b : c->a, y = side ? c->a : c->b;
        for (int big = 0; big < 2; big++) {
            uint8_t ex[8] = {0}, ey[8] = {0}; /* sum_floor reads all 8 */
            encode(ex, x, w, big);
            encode(ey, y, w, big);
            if (w < 4 && !may_be_sum(sum_floor(ey, w), w, size - w))
                continue; /* no byte sum of the input (the only 2-byte checksum) */
            size_t p = find(buf, size, ex, w);
            if (p == SIZE_MAX || find(buf, size, ey, w) != SIZE_MAX)
                continue;
            if (w >= 4 || is_checksum_of(buf, size, p, w, ey, 1))
                return rewrite(buf, size, p, ey, w);
        }
    }
    return 0;
}

/* A byte-string comparison of stored bytes (in the input) with computed ones. */
static unsigned repair_str(uint8_t *buf, size_t size, const fgi_cmp_str *c)
{
    unsigned w = c->alen;
    if (!str_shape(c, size))
        return 0;
    for (int side = 0; side < 2; side++) {
        const uint8_t *x = side ? c->b : c->a, *y = side ? c->a : c->b;
        if (w != 4 && !may_be_sum(sum_floor(y, w), w, size - w))
            continue; /* no checksum of the input: only a 4-byte field can be a CRC */
        size_t p = find(buf, size, x, w);
        if (p != SIZE_MAX && find(buf, size, y, w) == SIZE_MAX &&
            is_checksum_of(buf, size, p, w, y, 0))
            return rewrite(buf, size, p, y, w);
    }
    return 0;
}

unsigned fgi_repair_apply(uint8_t *buf, size_t size, const fgi_cmp_int *ints, size_t nints,
                          const fgi_cmp_str *strs, size_t nstrs)
{
    unsigned fixed = 0;
    if (nints == 0 && nstrs == 0)
        return 0; /* most cases: nothing of a field's shape, so no pass over the input */
    pairs_mark(buf, size, 1);
    for (size_t i = 0; i < nints && fixed < FGI_REPAIR_FIELDS; i++)
        fixed += repair_int(buf, size, &ints[i]);
    for (size_t i = 0; i < nstrs && fixed < FGI_REPAIR_FIELDS; i++)
        fixed += repair_str(buf, size, &strs[i]);
    /* All zero again for the next case: the input's pairs cleared a word at a time, or
     * every word when a rewrite left the pairs of bytes no longer there. */
    if (fixed)
        memset(pairs, 0, sizeof pairs);
    else
        pairs_mark(buf, size, 0);
    return fixed;
}

unsigned fgi_repair_case(uint8_t *buf, size_t size, unsigned long mark, unsigned long smark)
{
    /* The latest comparisons only: a failed checksum ends the target's work, so its
     * comparison is among the last the case made — and the search stays cheap for targets
     * that compare a lot. The bounds are arbitrary. */
    fgi_cmp_int ints[32];
    fgi_cmp_str strs[8];
    unsigned long end = fgi_cmp_mark(), send = fgi_cmp_mark_strs();
    if (end == mark && send == smark)
        return 0; /* the common case of a target with no comparisons: nothing to copy */
    /* Read in place; only the pairs of a field's shape are copied (most are not). */
    const fgi_cmp_int *ip[FGI_ARRAY_LEN(ints)];
    const fgi_cmp_str *sp[FGI_ARRAY_LEN(strs)];
    size_t ni = 0, ns = 0;
    size_t nip = end == mark ? 0 : fgi_cmp_since_ptrs(mark, ip, FGI_ARRAY_LEN(ip));
    size_t nsp = send == smark ? 0 : fgi_cmp_strs_since_ptrs(smark, sp, FGI_ARRAY_LEN(sp));
    for (size_t i = 0; i < nip; i++)
        if (int_shape(ip[i], size))
            ints[ni++] = *ip[i];
    for (size_t i = 0; i < nsp; i++)
        if (str_shape(sp[i], size))
            strs[ns++] = *sp[i];
    return fgi_repair_apply(buf, size, ints, ni, strs, ns);
}
