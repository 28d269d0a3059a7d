/* test/unit/test_repair.c — checksum repair (engine/mutate/repair.c): a record whose stored
 * CRC-32 / Adler-32 / byte sum disagrees with the one computed over its payload is
 * rewritten to agree, in either byte order, the field before or after the payload; and
 * what is not a checksum is left alone. */
#include "test/support/check.h"

#include "engine/mutate/repair.h"

static const char payload[] = "CRCMAGIC and the rest of the record";
#define PLEN (sizeof payload - 1)
#define RLEN (PLEN + 4)

enum sum { CRC, ADLER };

static uint32_t sum_of(enum sum s, const uint8_t *p, size_t n)
{
    return s == CRC ? fgi_repair_crc32(p, n) : fgi_repair_adler32(p, n);
}

static void put32(uint8_t *p, uint32_t v, int big)
{
    for (int i = 0; i < 4; i++)
        p[big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p, int big)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)p[big ? 3 - i : i] << (8 * i);
    return v;
}

/* A record: the field (before or after the payload) and the payload. */
typedef struct record {
    uint8_t b[RLEN];
    size_t field, data; /* offsets */
} record;

static void make(record *r, int after)
{
    r->field = after ? PLEN : 0;
    r->data = after ? 0 : 4;
    memcpy(r->b + r->data, payload, PLEN);
    put32(r->b + r->field, 0x5eed1234u, 0); /* a stale checksum */
}

/* What a target checking the record compares: the stored field with the computed sum. */
static uint32_t computed(const record *r, enum sum s)
{
    return sum_of(s, r->b + r->data, PLEN);
}

static int valid(const record *r, enum sum s, int big)
{
    return get32(r->b + r->field, big) == computed(r, s);
}

/* The integer shape (trace-cmp of `computed != stored`), every checksum, byte order,
 * placement and operand order. */
FG_TEST(repair_integer_compare_crc32_adler32_le_be_before_after)
{
    for (int s = CRC; s <= ADLER; s++)
        for (int big = 0; big < 2; big++)
            for (int after = 0; after < 2; after++)
                for (int swap = 0; swap < 2; swap++) {
                    record r;
                    make(&r, after);
                    uint32_t stored = get32(r.b + r.field, big), want = computed(&r, s);
                    fgi_cmp_int c = {swap ? want : stored, swap ? stored : want, 4, 0,
                                     FGI_CMP_INTEGER};
                    CHECK(!valid(&r, s, big));
                    CHECK_EQ_U(fgi_repair_apply(r.b, RLEN, &c, 1, NULL, 0), 1);
                    CHECK(valid(&r, s, big));
                    CHECK(memcmp(r.b + r.data, payload, PLEN) == 0); /* payload untouched */
                }
}

/* The byte-string shape (memcmp of the stored bytes with the computed ones): recognised
 * only when the computed bytes are a checksum of the input before or after the field. */
FG_TEST(repair_bytes_compare_crc32_adler32_le_be_before_after)
{
    for (int s = CRC; s <= ADLER; s++)
        for (int big = 0; big < 2; big++)
            for (int after = 0; after < 2; after++) {
                record r;
                make(&r, after);
                fgi_cmp_str c = {.alen = 4, .blen = 4};
                memcpy(c.a, r.b + r.field, 4);
                put32(c.b, computed(&r, s), big);
                CHECK_EQ_U(fgi_repair_apply(r.b, RLEN, NULL, 0, &c, 1), 1);
                CHECK(valid(&r, s, big));
                /* The same compare with bytes that are no checksum of the record: a magic,
                 * which the repair must not write (cmp_bytes's work, not this). */
                make(&r, after);
                memcpy(c.b, "JUNK", 4);
                CHECK_EQ_U(fgi_repair_apply(r.b, RLEN, NULL, 0, &c, 1), 0);
                CHECK(!valid(&r, s, big));
            }
}

/* A 2-byte byte sum, compared as integers: repaired only when it is the sum. */
FG_TEST(repair_two_byte_sum)
{
    uint8_t b[2 + PLEN];
    memcpy(b + 2, payload, PLEN);
    b[0] = 0x01;
    b[1] = 0x00;
    uint16_t sum = 0;
    for (size_t i = 0; i < PLEN; i++)
        sum = (uint16_t)(sum + (uint8_t)payload[i]);
    fgi_cmp_int c = {1, sum, 2, 0, FGI_CMP_INTEGER};
    CHECK_EQ_U(fgi_repair_apply(b, sizeof b, &c, 1, NULL, 0), 1);
    CHECK(b[0] == (uint8_t)sum && b[1] == (uint8_t)(sum >> 8));
    b[0] = 0x01;
    b[1] = 0x00;
    c.b = (uint16_t)(sum + 7); /* not the sum: a length, a count, a coordinate */
    CHECK_EQ_U(fgi_repair_apply(b, sizeof b, &c, 1, NULL, 0), 0);
}

/* A byte sum as a byte-string field of every width, either byte order, before or after
 * the payload, at its largest (every payload byte 0xff: 255 n exactly, the bound the
 * repair's shortcut tests) and a value one past it, which no sum of the payload can be. */
FG_TEST(repair_bytes_compare_byte_sum_every_width)
{
    enum { N = 300 };
    static const unsigned widths[] = {1, 2, 4, 8};
    for (unsigned wi = 0; wi < FGI_ARRAY_LEN(widths); wi++)
        for (int big = 0; big < 2; big++)
            for (int after = 0; after < 2; after++) {
                unsigned w = widths[wi];
                uint8_t b[N + 8];
                size_t field = after ? N : 0, data = after ? 0 : w;
                memset(b + data, 0xff, N);
                memset(b + field, 0x5a, w); /* stale */
                uint64_t sum = 255u * N;
                fgi_cmp_str c = {.alen = (uint8_t)w, .blen = (uint8_t)w};
                memcpy(c.a, b + field, w);
                for (unsigned i = 0; i < w; i++)
                    c.b[big ? w - 1 - i : i] = (uint8_t)(sum >> (8 * i));
                CHECK_EQ_U(fgi_repair_apply(b, N + w, NULL, 0, &c, 1), 1);
                CHECK(memcmp(b + field, c.b, w) == 0);
                if (w < 4)
                    continue; /* a one- or two-byte sum wraps: any value may be one */
                memset(b + field, 0x5a, w);
                for (unsigned i = 0; i < w; i++)
                    c.b[big ? w - 1 - i : i] = (uint8_t)((sum + 1) >> (8 * i));
                CHECK_EQ_U(fgi_repair_apply(b, N + w, NULL, 0, &c, 1), 0);
            }
}

/* What is not a checksum compare is left alone. */
FG_TEST(repair_leaves_other_comparisons_alone)
{
    record r;
    make(&r, 0);
    uint8_t before[RLEN];
    memcpy(before, r.b, RLEN);
    uint32_t stored = get32(r.b, 0);
    const fgi_cmp_int skip[] = {
        {stored, 0xdeadbeefu, 4, 1, FGI_CMP_INTEGER}, /* the program's constant: a magic */
        {stored, 0x1234u, 4, 0, FGI_CMP_INTEGER},     /* a small value: a length */
        {stored, 0x4d435243u, 4, 0, FGI_CMP_INTEGER}, /* "CRCM" is in the input already */
        {0x11223344u, 0x55667788u, 4, 0, FGI_CMP_INTEGER}, /* neither side is in the input */
        {stored, 0x4100000000000000ull, 8, 0, FGI_CMP_DOUBLE}, /* not integers */
        {stored, stored, 4, 0, FGI_CMP_INTEGER},           /* equal: nothing to repair */
    };
    CHECK(memcmp(r.b + 4, "CRCM", 4) == 0); /* the third pair's y, little-endian */
    CHECK_EQ_U(fgi_repair_apply(r.b, RLEN, skip, FGI_ARRAY_LEN(skip), NULL, 0), 0);
    CHECK(memcmp(r.b, before, RLEN) == 0);
}

/* At most FGI_REPAIR_FIELDS fields a case. */
FG_TEST(repair_is_bounded)
{
    uint8_t b[64];
    fgi_cmp_int c[2 * FGI_REPAIR_FIELDS];
    for (unsigned i = 0; i < FGI_ARRAY_LEN(c); i++) {
        uint32_t stored = 0x01010101u * (i + 1);
        put32(b + 4 * i, stored, 0);
        c[i] = (fgi_cmp_int){stored, 0xa0b0c0d0u + i, 4, 0, FGI_CMP_INTEGER};
    }
    CHECK_EQ_U(fgi_repair_apply(b, 4 * FGI_ARRAY_LEN(c), c, FGI_ARRAY_LEN(c), NULL, 0),
               FGI_REPAIR_FIELDS);
}

/* The sums are the standard ones (zlib's values), past adler's deferred reduction too. */
FG_TEST(repair_sums_are_the_standard_ones)
{
    static uint8_t ff[20000];
    memset(ff, 0xff, sizeof ff);
    CHECK_EQ_U(fgi_repair_crc32((const uint8_t *)"123456789", 9), 0xcbf43926u);
    CHECK_EQ_U(fgi_repair_adler32((const uint8_t *)"Wikipedia", 9), 0x11e60398u);
    CHECK_EQ_U(fgi_repair_crc32(ff, sizeof ff), 0xc16d1f09u);
    CHECK_EQ_U(fgi_repair_adler32(ff, sizeof ff), 0x9f51d664u);
    CHECK_EQ_U(fgi_repair_crc32(ff, 0), 0u);
    CHECK_EQ_U(fgi_repair_adler32(ff, 0), 1u);
}
