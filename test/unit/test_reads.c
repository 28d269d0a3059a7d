/* test/unit/test_reads.c — the read record (engine/feedback/reads.c): what a case's reads
 * leave, heard only during a case and only for a reader over the case's own bytes. */
#include "test/support/check.h"

#include "engine/feedback/reads.h"
#include "oracle/harness.h"

static uint64_t reading_body(const uint8_t *data, size_t size)
{
    static const uint8_t other[4] = {1, 2, 3, 4};
    fg_reader r = fg_reader_of(data, size);
    fg_reader o = fg_reader_of(other, sizeof other);
    (void)fg_read_u16(&o);                   /* not the case's bytes: not heard */
    while (fg_read_left(&r)) {
        size_t op = fg_read_pick(&r, 3);
        if (op == 0)
            (void)fg_read_range(&r, 100, 1100); /* 2 bytes */
        else if (op == 1)
            (void)fg_read_bool(&r);
        else {
            char b[4];
            (void)fg_read_bytes(&r, b, sizeof b);
        }
    }
    return 1;
}

static const fg_target reading_target = {.name = "test_reads", .run = reading_body};

/* Runs data as one case; the record after it. */
static const fgi_read *run_case(const uint8_t *data, size_t size, size_t *n)
{
    fgi_harness e;
    fgi_case_result res;
    CHECK(fgi_harness_open(&e, &reading_target) == FG_OK);
    CHECK(fgi_harness_reserve(&e, size) == FG_OK);
    fgi_harness_run(&e, data, size, &res);
    CHECK(res.status == FGI_CASE_OK);
    fgi_harness_close(&e);
    return fgi_reads_get(n);
}

FG_TEST(reads_record_offsets_widths_and_kinds)
{
    /* pick 0, range 2 bytes; pick 1, bool; pick 2, len 2, 2 bytes; pick 0, range cut short */
    static const uint8_t d[] = {0, 5, 0, 1, 1, 2, 2, 'h', 'i', 3, 7};
    size_t n;
    const fgi_read *rd = run_case(d, sizeof d, &n);
    static const struct {
        unsigned off, width, kind, short_;
        uint64_t lo, hi;
    } want[] = {
        {0, 1, FGI_READ_PICK, 0, 0, 2},    {1, 2, FGI_READ_RANGE, 0, 100, 1100},
        {3, 1, FGI_READ_PICK, 0, 0, 2},    {4, 1, FGI_READ_BOOL, 0, 0, 1},
        {5, 1, FGI_READ_PICK, 0, 0, 2},    {6, 1, FGI_READ_LEN, 0, 0, 4},
        {7, 2, FGI_READ_BYTES, 0, 0, 0},   {9, 1, FGI_READ_PICK, 0, 0, 2},
        {10, 1, FGI_READ_RANGE, 1, 100, 1100},
    };
    CHECK_EQ_U(n, FGI_ARRAY_LEN(want));
    for (size_t i = 0; i < n && i < FGI_ARRAY_LEN(want); i++) {
        CHECK_EQ_U(rd[i].off, want[i].off);
        CHECK_EQ_U(rd[i].width, want[i].width);
        CHECK_EQ_U(rd[i].kind, want[i].kind);
        CHECK_EQ_U(rd[i].short_, want[i].short_);
        CHECK(rd[i].lo == want[i].lo && rd[i].hi == want[i].hi);
    }
    CHECK(fgi_reads_valid(rd, n, sizeof d));
}

FG_TEST(reads_outside_a_case_are_not_heard)
{
    static const uint8_t d[] = {1, 1};
    size_t n;
    (void)run_case(d, sizeof d, &n);
    CHECK_EQ_U(n, 2);
    /* A record over exactly these bytes, and a reader over them, but no case running:
     * nobody listens (the reader is plain decoding then). */
    fgi_reads_begin(d, sizeof d);
    fg_reader r = fg_reader_of(d, sizeof d);
    CHECK_EQ_U(fg_read_u16(&r), 0x0101);
    (void)fgi_reads_get(&n);
    CHECK_EQ_U(n, 0);
}

FG_TEST(reads_record_stops_at_its_cap)
{
    static uint8_t d[3 * FGI_READS_MAX]; /* all pick 0 + a 2-byte range: 3 bytes each */
    size_t n;
    (void)run_case(d, sizeof d, &n);
    CHECK_EQ_U(n, FGI_READS_MAX);
}

FG_TEST(reads_valid_refuses_what_no_reader_writes)
{
    fgi_read ok[2] = {{.off = 0, .width = 1, .kind = FGI_READ_PICK, .hi = 3},
                      {.off = 1, .width = 2, .kind = FGI_READ_RANGE, .lo = 5, .hi = 600}};
    CHECK(fgi_reads_valid(ok, 2, 3));
    CHECK(!fgi_reads_valid(ok, 2, 2));                /* past the bytes */
    fgi_read bad[2];
    memcpy(bad, ok, sizeof ok);
    bad[1].off = 0;                                   /* before the previous read's end */
    CHECK(!fgi_reads_valid(bad, 2, 3));
    memcpy(bad, ok, sizeof ok);
    bad[0].kind = FGI_READ_KINDS;                     /* no such kind */
    CHECK(!fgi_reads_valid(bad, 2, 3));
    memcpy(bad, ok, sizeof ok);
    bad[1].lo = 700;                                  /* lo above hi */
    CHECK(!fgi_reads_valid(bad, 2, 3));
    memcpy(bad, ok, sizeof ok);
    bad[1].width = 9;                                 /* no word is 9 bytes */
    CHECK(!fgi_reads_valid(bad, 2, 20));
}

/* A target that reads its input twice (a model run beside the code, a saved reader put
 * back): the record is its first pass, up to where the reads went back. */
static uint64_t rereading_body(const uint8_t *data, size_t size)
{
    fg_reader r = fg_reader_of(data, size);
    (void)fg_read_pick(&r, 3);
    fg_reader saved = r;
    (void)fg_read_u16(&r);
    r = saved; /* back: the same u16 again */
    (void)fg_read_u16(&r);
    fg_reader again = fg_reader_of(data, size); /* and a second pass from the start */
    (void)fg_read_pick(&again, 3);
    return 1;
}

FG_TEST(reads_record_stops_where_a_target_reads_again)
{
    static const fg_target t = {.name = "test_rereads", .run = rereading_body};
    static const uint8_t d[] = {1, 2, 3, 4};
    fgi_harness e;
    fgi_case_result res;
    CHECK(fgi_harness_open(&e, &t) == FG_OK);
    CHECK(fgi_harness_reserve(&e, sizeof d) == FG_OK);
    fgi_harness_run(&e, d, sizeof d, &res);
    CHECK(res.status == FGI_CASE_OK);
    fgi_harness_close(&e);
    size_t n;
    const fgi_read *rd = fgi_reads_get(&n);
    CHECK_EQ_U(n, 2); /* the pick and the first u16 */
    CHECK(n == 2 && rd[0].kind == FGI_READ_PICK && rd[1].kind == FGI_READ_INT);
    CHECK(fgi_reads_valid(rd, n, sizeof d));
}

FG_TEST(reads_valid_refuses_what_the_reader_never_asks)
{
    static const struct {
        fgi_read d;
        int ok;
    } rows[] = {
        {{.off = 0, .width = 1, .kind = FGI_READ_PICK, .lo = 0, .hi = 2}, 1},
        {{.off = 0, .width = 1, .kind = FGI_READ_PICK, .lo = 1, .hi = 2}, 0},  /* lo */
        {{.off = 0, .width = 2, .kind = FGI_READ_PICK, .lo = 0, .hi = 2}, 0},  /* width */
        {{.off = 0, .width = 0, .kind = FGI_READ_PICK, .short_ = 1, .hi = 2}, 1},
        {{.off = 0, .width = 2, .kind = FGI_READ_RANGE, .lo = 5, .hi = 1000}, 1},
        {{.off = 0, .width = 2, .kind = FGI_READ_RANGE, .lo = 9, .hi = 5}, 0}, /* lo > hi */
        {{.off = 0, .width = 4, .kind = FGI_READ_INT, .hi = 0xffffffffu}, 1},
        {{.off = 0, .width = 4, .kind = FGI_READ_INT, .hi = 1000}, 0},         /* not a width */
        {{.off = 0, .width = 1, .kind = FGI_READ_BOOL, .hi = 1}, 1},
        {{.off = 0, .width = 1, .kind = FGI_READ_BOOL, .hi = 7}, 0},
        {{.off = 0, .width = 3, .kind = FGI_READ_BYTES}, 1},
        {{.off = 0, .width = 3, .kind = FGI_READ_BYTES, .hi = 1}, 0},
        {{.off = 0, .width = 0, .kind = FGI_READ_BYTES}, 0},
        {{.off = 0, .width = 1, .kind = 0, .hi = 1}, 0},
        {{.off = 3, .width = 2, .kind = FGI_READ_RANGE, .lo = 5, .hi = 1000}, 0}, /* past 4 */
    };
    for (size_t i = 0; i < FGI_ARRAY_LEN(rows); i++) {
        int ok = fgi_reads_valid(&rows[i].d, 1, 4);
        if (ok != rows[i].ok)
            fprintf(stderr, "  row %zu: %d\n", i, ok);
        CHECK(ok == rows[i].ok);
    }
}
