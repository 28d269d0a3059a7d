/* test/unit/test_reader.c — the typed reader (engine/feedback/reader.c): the byte encoding
 * the header documents, every width, and an exhausted reader. */
#include "test/support/check.h"

#include "fuzzgate.h"

FG_TEST(reader_header_example)
{
    /* include/fuzzgate.h's example: pick(4), range(0, 1000), u32. */
    static const uint8_t d[] = {0x02, 0xe8, 0x03, 0x78, 0x56, 0x34, 0x12};
    fg_reader r = fg_reader_of(d, sizeof d);
    CHECK_EQ_U(fg_read_pick(&r, 4), 2);
    CHECK_EQ_U(fg_read_range(&r, 0, 1000), 1000);
    CHECK_EQ_U(fg_read_u32(&r), 0x12345678);
    CHECK_EQ_U(fg_read_left(&r), 0);
}

FG_TEST(reader_every_integer_width_little_endian)
{
    static const uint8_t d[] = {0x81, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0xef, 0xcd,
                                0xab, 0x89, 0x67, 0x45, 0x23, 0x01, 0x01};
    fg_reader r = fg_reader_of(d, sizeof d);
    CHECK_EQ_U(fg_read_u8(&r), 0x81);
    CHECK_EQ_U(fg_read_left(&r), 15);
    CHECK_EQ_U(fg_read_u16(&r), 0x1234);
    CHECK_EQ_U(fg_read_u32(&r), 0x12345678);
    CHECK(fg_read_u64(&r) == 0x0123456789abcdefULL);
    CHECK_EQ_U(fg_read_bool(&r), 1);
    CHECK_EQ_U(fg_read_left(&r), 0);
}

FG_TEST(reader_pick_and_range_take_the_fewest_bytes)
{
    /* pick(1) and range(7, 7) read nothing; pick(256) one byte, pick(257) two; a range's
     * width follows hi - lo; values wrap modulo the count. */
    static const uint8_t d[] = {0xff, 0x01, 0x01, 0x09, 0x10, 0x27, 0x05, 0x00, 0x00, 0x00,
                                0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    fg_reader r = fg_reader_of(d, sizeof d);
    CHECK_EQ_U(fg_read_pick(&r, 1), 0);
    CHECK_EQ_U(fg_read_range(&r, 7, 7), 7);
    CHECK_EQ_U(r.pos, 0);
    CHECK_EQ_U(fg_read_pick(&r, 256), 255);
    CHECK_EQ_U(fg_read_pick(&r, 257), 0); /* 0x0101 % 257 */
    CHECK_EQ_U(r.pos, 3);
    CHECK_EQ_U(fg_read_range(&r, 10, 12), 10 + 9 % 3);      /* one byte: 0x09 */
    CHECK_EQ_U(fg_read_range(&r, 1000, 0), 0 + 0x2710 % 1001); /* swapped: 0..1000 */
    CHECK_EQ_U(fg_read_range(&r, 0, 0x10000), 5);            /* four bytes */
    CHECK(fg_read_range(&r, 0, UINT64_MAX) == 1);             /* eight, taken whole */
    CHECK_EQ_U(fg_read_left(&r), 0);
}

FG_TEST(reader_bytes_take_a_length_then_the_bytes)
{
    static const uint8_t d[] = {0x03, 'a', 'b', 'c', 0x09, 'x', 0x05, 'y', 'z'};
    char buf[8] = {0};
    fg_reader r = fg_reader_of(d, sizeof d);
    CHECK_EQ_U(fg_read_bytes(&r, buf, sizeof buf), 3);
    CHECK(memcmp(buf, "abc", 3) == 0);
    /* 9 % (8 + 1) = 0: a length is a range over 0..cap */
    CHECK_EQ_U(fg_read_bytes(&r, buf, sizeof buf), 0);
    CHECK_EQ_U(fg_read_u8(&r), 'x');
    /* 5 bytes asked, 2 left: what is there */
    CHECK_EQ_U(fg_read_bytes(&r, buf, sizeof buf), 2);
    CHECK(memcmp(buf, "yz", 2) == 0);
    CHECK_EQ_U(fg_read_left(&r), 0);
}

FG_TEST(reader_exhausted_returns_zero_or_lo_and_stays_exhausted)
{
    static const uint8_t d[] = {0x11, 0x22, 0x33};
    char buf[4] = {'q', 'q', 'q', 'q'};
    fg_reader r = fg_reader_of(d, sizeof d);
    CHECK_EQ_U(fg_read_u32(&r), 0); /* 3 bytes left, 4 wanted: 0, and they are consumed */
    CHECK_EQ_U(fg_read_left(&r), 0);
    CHECK_EQ_U(fg_read_u8(&r), 0);
    CHECK_EQ_U(fg_read_u16(&r), 0);
    CHECK(fg_read_u64(&r) == 0);
    CHECK_EQ_U(fg_read_bool(&r), 0);
    CHECK_EQ_U(fg_read_pick(&r, 9), 0);
    CHECK_EQ_U(fg_read_range(&r, 40, 50), 40);
    CHECK_EQ_U(fg_read_bytes(&r, buf, sizeof buf), 0);
    CHECK(buf[0] == 'q');
    fg_reader none = fg_reader_of(NULL, 5); /* no bytes at all: size taken as 0 */
    CHECK_EQ_U(fg_read_left(&none), 0);
    CHECK_EQ_U(fg_read_range(&none, 3, 9), 3);
}

FG_TEST(reader_is_deterministic_over_every_prefix)
{
    /* The same bytes give the same values; a prefix gives the same values until it ends
     * (front to back: nothing is read from the end). */
    static const uint8_t d[] = {4, 200, 1, 0, 0, 0, 3, 77, 1, 2, 9, 8, 7, 6, 5};
    uint64_t full[8];
    fg_reader r = fg_reader_of(d, sizeof d);
    for (int i = 0; i < 8; i++)
        full[i] = i % 2 ? fg_read_range(&r, 5, 300) : fg_read_pick(&r, 7);
    for (size_t cut = 0; cut <= sizeof d; cut++) {
        fg_reader p = fg_reader_of(d, cut);
        for (int i = 0; i < 8; i++) {
            size_t before = p.pos;
            uint64_t v = i % 2 ? fg_read_range(&p, 5, 300) : fg_read_pick(&p, 7);
            unsigned w = i % 2 ? 2 : 1;
            if (before + w <= cut)
                CHECK(v == full[i]);
            else
                CHECK(v == (i % 2 ? 5u : 0u));
        }
    }
}
