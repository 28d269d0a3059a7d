/* test/unit/test_brotli.c — the Brotli reference oracle (include/fuzzgate_brotli.h): typed
 * outcomes on streams made by hand and by the encoder, the round-trip helpers, and the
 * contracts of Brotli's streaming encoder the brotli_stream target relies on, pinned as
 * observed in Brotli 1.0.9 rather than assumed. Without Brotli, one test says it skipped. */
#include "test/support/check.h"

#include "fuzzgate_brotli.h"

#include <stdio.h>

#ifndef FG_HAVE_BROTLI

FG_TEST(brotli_oracle)
{
    printf("  skipped: " FG_BROTLI_SKIP "\n");
}

#else

#include <brotli/encode.h>
#include <stdlib.h>
#include <string.h>

static const char TEXT[] = "the oracle, the oracle's verdicts, and the oracle's budget";
#define TEXT_LEN (sizeof TEXT - 1)

/* TEXT compressed at quality 5, window 16, into z (room 256); returns its length. */
static size_t text_stream(uint8_t *z)
{
    size_t zn = 256;
    CHECK(BrotliEncoderCompress(5, 16, BROTLI_MODE_TEXT, TEXT_LEN, (const uint8_t *)TEXT, &zn,
                                z));
    return zn;
}

/* Decodes with every feeding in a small set; all must give the same result. */
static fg_brotli_result decode_all_ways(const uint8_t *z, size_t zn, size_t budget,
                                        uint8_t *out)
{
    static const fg_brotli_limits ways[] = {{0, 0, 0}, {1, 1, 0}, {1, 0, 0}, {0, 1, 0},
                                            {3, 7, 8 << 20}};
    fg_brotli_result first;
    uint8_t *other = malloc(budget + 1);
    CHECK(other != NULL);
    for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
        fg_brotli_result r;
        fg_brotli_status st = fg_brotli_decode(z, zn, i ? other : out, budget, &ways[i], &r);
        CHECK(st == r.status);
        if (i == 0) {
            first = r;
            continue;
        }
        CHECK(r.status == first.status);
        CHECK_EQ_U(r.produced, first.produced);
        /* How far an error or the budget let the input be read depends on the feeding. */
        if (r.status != FG_BROTLI_INVALID && r.status != FG_BROTLI_BUDGET)
            CHECK_EQ_U(r.used, first.used);
        CHECK(memcmp(out, other, r.produced) == 0);
    }
    free(other);
    return first;
}

FG_TEST(brotli_oracle_complete_streams_are_ok_with_exact_consumption)
{
    uint8_t z[300], out[TEXT_LEN + 8];
    size_t zn = text_stream(z);
    fg_brotli_result r = decode_all_ways(z, zn, sizeof out, out);
    CHECK(r.status == FG_BROTLI_OK);
    CHECK_EQ_U(r.used, zn);
    CHECK_EQ_U(r.produced, TEXT_LEN);
    CHECK(memcmp(out, TEXT, TEXT_LEN) == 0);
    CHECK_EQ_U(r.error, 0);

    /* The smallest stream there is: window 16, last, empty. */
    r = decode_all_ways((const uint8_t *)"\x06", 1, 0, out);
    CHECK(r.status == FG_BROTLI_OK && r.used == 1 && r.produced == 0);
    CHECK(fg_brotli_decode((const uint8_t *)"\x06", 1, NULL, 0, NULL, NULL) == FG_BROTLI_OK);
}

FG_TEST(brotli_oracle_trailing_data_is_its_own_outcome)
{
    uint8_t z[300], out[TEXT_LEN];
    size_t zn = text_stream(z);
    memcpy(z + zn, "junk", 4);
    fg_brotli_result r = decode_all_ways(z, zn + 4, sizeof out, out);
    CHECK(r.status == FG_BROTLI_TRAILING);
    CHECK_EQ_U(r.used, zn); /* "input is never overconsumed" */
    CHECK_EQ_U(r.produced, TEXT_LEN);
    r = decode_all_ways((const uint8_t *)"\x06\x06", 2, 0, out);
    CHECK(r.status == FG_BROTLI_TRAILING && r.used == 1);
}

FG_TEST(brotli_oracle_truncated_and_invalid)
{
    uint8_t z[300], out[TEXT_LEN];
    size_t zn = text_stream(z);
    fg_brotli_result r = decode_all_ways(z, zn - 1, sizeof out, out);
    CHECK(r.status == FG_BROTLI_TRUNCATED);
    CHECK_EQ_U(r.used, zn - 1);
    CHECK(r.produced < TEXT_LEN && memcmp(out, TEXT, r.produced) == 0);
    CHECK(decode_all_ways(z, 0, sizeof out, out).status == FG_BROTLI_TRUNCATED);

    /* 0x0e: window 16, last, empty, then a set padding bit. 0x11: the reserved window
     * code large windows use. */
    r = decode_all_ways((const uint8_t *)"\x0e", 1, 16, out);
    CHECK(r.status == FG_BROTLI_INVALID);
    CHECK_STR(fg_brotli_error_name(r.error), "PADDING_2");
    r = decode_all_ways((const uint8_t *)"\x11\x00", 2, 16, out);
    CHECK(r.status == FG_BROTLI_INVALID);
    CHECK_STR(fg_brotli_error_name(r.error), "WINDOW_BITS");
    CHECK(!fg_brotli_is_verdict(FG_BROTLI_BUDGET) && !fg_brotli_is_verdict(FG_BROTLI_NOMEM));
    CHECK(fg_brotli_is_verdict(FG_BROTLI_INVALID) && fg_brotli_is_verdict(FG_BROTLI_TRUNCATED));
}

/* The budget is decided exactly: exactly the output fits, one byte less is BUDGET with the
 * budget's worth of the right bytes, and a bomb stops at the budget. */
FG_TEST(brotli_oracle_budget_is_exact_and_a_refusal)
{
    uint8_t z[300], out[TEXT_LEN];
    size_t zn = text_stream(z);
    fg_brotli_result r = decode_all_ways(z, zn, TEXT_LEN, out);
    CHECK(r.status == FG_BROTLI_OK && r.produced == TEXT_LEN);
    r = decode_all_ways(z, zn, TEXT_LEN - 1, out);
    CHECK(r.status == FG_BROTLI_BUDGET);
    CHECK_EQ_U(r.produced, TEXT_LEN - 1);
    CHECK(memcmp(out, TEXT, TEXT_LEN - 1) == 0);
    CHECK(decode_all_ways(z, zn, 0, out).status == FG_BROTLI_BUDGET);

    size_t nzeros = (size_t)4 << 20, bn = 64;
    uint8_t *zeros = calloc(1, nzeros), bomb[64], *got = malloc(4096);
    CHECK(zeros && got);
    CHECK(BrotliEncoderCompress(5, 24, BROTLI_MODE_GENERIC, nzeros, zeros, &bn, bomb));
    free(zeros);
    CHECK(bn < 32); /* 4 MiB in a few bytes */
    r = decode_all_ways(bomb, bn, 4096, got);
    CHECK(r.status == FG_BROTLI_BUDGET && r.produced == 4096);

    /* Its ring buffer is what it declares, 4 MiB: under a 1 MiB limit, a refusal before
     * any work, whatever the budget. */
    fg_brotli_limits small = {0, 0, 1 << 20};
    CHECK(fg_brotli_decode(bomb, bn, got, 4096, &small, &r) == FG_BROTLI_NOMEM);
    CHECK(r.produced == 0 && r.error < 0);
    CHECK(!fg_brotli_is_verdict(r.status));
    /* A limit is no verdict either way: a stream within it decodes as without. */
    CHECK(fg_brotli_decode(z, zn, out, TEXT_LEN, &small, &r) == FG_BROTLI_OK);
    free(got);
    CHECK_STR(fg_brotli_status_name(FG_BROTLI_BUDGET), "over budget");
}

FG_TEST(brotli_round_trip_helpers)
{
    for (int q = 0; q <= 11; q++) {
        fg_brotli_params p = {.quality = q, .lgwin = q % 2 ? 10 : 24, .mode = q % 3,
                              .size_hint = q % 4 ? 0 : (uint32_t)TEXT_LEN,
                              .lgblock = q % 5 ? 0 : 16 + q % 9};
        fg_brotli_trip trip;
        uint8_t *stream = NULL;
        CHECK(fg_brotli_roundtrip(&p, (const uint8_t *)TEXT, TEXT_LEN, &stream, &trip) == 1);
        CHECK(trip.encoded && stream != NULL);
        CHECK_EQ_U(trip.mismatch, TEXT_LEN);
        CHECK(trip.decode.status == FG_BROTLI_OK && trip.decode.used == trip.size);
        CHECK_EQ_U(trip.bound, BrotliEncoderMaxCompressedSize(TEXT_LEN));
        if (q >= 2)
            CHECK(trip.size <= trip.bound);
        free(stream);
    }
    fg_brotli_params p = {.quality = 5, .lgwin = 16};
    fg_brotli_trip trip;
    CHECK(fg_brotli_roundtrip(&p, NULL, 0, NULL, &trip) == 1 && trip.size >= 1);

    /* fg_brotli_decodes_to says where the output stops being the wanted bytes. */
    uint8_t z[300];
    size_t zn = text_stream(z), at = 0;
    char other[TEXT_LEN];
    memcpy(other, TEXT, TEXT_LEN);
    other[20] ^= 1;
    CHECK(fg_brotli_decodes_to(z, zn, (const uint8_t *)other, TEXT_LEN, NULL, NULL, &at) == 0);
    CHECK_EQ_U(at, 20);
    fg_brotli_result r;
    CHECK(fg_brotli_decodes_to(z, zn, (const uint8_t *)TEXT, TEXT_LEN - 1, NULL, &r, &at) == 0);
    CHECK(r.status == FG_BROTLI_BUDGET);
    CHECK_EQ_U(at, TEXT_LEN - 1);
    CHECK(fg_brotli_decodes_to(z, zn - 1, (const uint8_t *)TEXT, TEXT_LEN, NULL, &r, &at) == 0);
    CHECK(r.status == FG_BROTLI_TRUNCATED && at == r.produced);
    uint8_t small[4];
    size_t sn;
    CHECK(fg_brotli_compress(&p, (const uint8_t *)TEXT, TEXT_LEN, small, sizeof small, &sn) == -1);
}

/* ---- the streaming encoder's contracts, as observed -------------------------------- */

typedef struct feed {
    size_t chunk; /* input bytes per PROCESS call; 0: all at once */
    size_t room;  /* output room per call; 0: all */
    int take;     /* BrotliEncoderTakeOutput instead of room */
} feed;

/* Encodes in[0..n) with FINISH after PROCESS calls fed as f says, into out (cap); the
 * stream's length. Mirrors targets/brotli_stream.c's driving, flushes aside. */
static size_t stream_encode(int q, int lgwin, uint32_t hint, const uint8_t *in, size_t n,
                            const feed *f, uint8_t *out, size_t cap)
{
    BrotliEncoderState *s = BrotliEncoderCreateInstance(NULL, NULL, NULL);
    CHECK(s != NULL);
    BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, (uint32_t)q);
    BrotliEncoderSetParameter(s, BROTLI_PARAM_LGWIN, (uint32_t)lgwin);
    if (hint)
        BrotliEncoderSetParameter(s, BROTLI_PARAM_SIZE_HINT, hint);
    size_t pos = 0, zn = 0;
    for (;;) {
        size_t take = f->chunk && f->chunk < n - pos ? f->chunk : n - pos;
        BrotliEncoderOperation op =
            pos + take == n ? BROTLI_OPERATION_FINISH : BROTLI_OPERATION_PROCESS;
        const uint8_t *next_in = in + pos;
        size_t avail_in = take;
        pos += take;
        for (int guard = 0; guard < 1 << 20; guard++) {
            size_t give = f->take ? 0 : f->room && f->room < cap - zn ? f->room : cap - zn;
            uint8_t *next_out = f->take ? NULL : out + zn;
            size_t avail_out = give;
            CHECK(BrotliEncoderCompressStream(s, op, &avail_in, &next_in, &avail_out, &next_out,
                                              NULL));
            zn += give - avail_out;
            int done = op == BROTLI_OPERATION_FINISH ? BrotliEncoderIsFinished(s)
                                                     : !avail_in && !BrotliEncoderHasMoreOutput(s);
            if (done)
                break;
            while (f->take && BrotliEncoderHasMoreOutput(s)) {
                size_t got = f->room;
                const uint8_t *p = BrotliEncoderTakeOutput(s, &got);
                CHECK(zn + got <= cap);
                memcpy(out + zn, p, got);
                zn += got;
            }
            if (op == BROTLI_OPERATION_FINISH && BrotliEncoderIsFinished(s))
                break;
        }
        if (op == BROTLI_OPERATION_FINISH)
            break;
    }
    BrotliEncoderDestroyInstance(s);
    return zn;
}

/* A payload with repeats and noise, so every quality finds matches and literals. */
static void payload(uint8_t *p, size_t n)
{
    static const char *const words[] = {"stream ", "flush ", "window ", "brotli ", "0123 "};
    uint32_t x = 1;
    for (size_t i = 0; i < n;) {
        x = x * 1103515245u + 12345u;
        const char *w = words[x >> 16 & 3 ? (x >> 20) % 5 : 0];
        for (; *w && i < n; w++)
            p[i++] = (uint8_t)*w;
        if ((x >> 8 & 7) == 0 && i < n)
            p[i++] = (uint8_t)(x >> 3);
    }
}

/* The contract brotli_stream's "no flush" check rests on, as Brotli 1.0.9 keeps it: at
 * quality 2 and above, the stream does not depend on how the input is cut nor on the output
 * room (or TakeOutput), hint or no hint, across block boundaries (16 KiB blocks below
 * quality 4); at qualities 0 and 1 the room never matters but the cut does, since each
 * call's input is compressed as fragments of its own, so the target compares those only
 * when the input comes in one piece. If a later Brotli changes either, this test says so. */
FG_TEST(brotli_stream_no_flush_bytes_are_the_one_call_bytes)
{
    static uint8_t in[40000], one[50000], fed[50000];
    payload(in, sizeof in);
    static const size_t sizes[] = {1, 100, 3000};
    static const feed feeds[] = {{1, 0, 0}, {7, 1, 0}, {333, 5, 0}, {4096, 0, 1}, {0, 1, 0},
                                 {64, 3, 1}};
    static const int windows[] = {10, 16, 22};
    unsigned compared = 0;
    for (int q = 0; q <= 11; q++)
        for (size_t w = 0; w < 3; w++)
            for (size_t si = 0; si < 3; si++) {
                size_t n = sizes[si];
                if (q >= 10 && n > 100)
                    continue; /* Zopfli: slow, and no different here */
                for (int hinted = 0; hinted < 2; hinted++) {
                    uint32_t hint = hinted ? (uint32_t)n : 0;
                    size_t on = stream_encode(q, windows[w], hint, in, n, &(feed){0, 0, 0}, one,
                                              sizeof one);
                    int cut_differs = 0;
                    for (size_t fi = 0; fi < sizeof feeds / sizeof feeds[0]; fi++) {
                        const feed *f = &feeds[fi];
                        if (f->chunk == 1 && n > 100)
                            continue;
                        size_t fn = stream_encode(q, windows[w], hint, in, n, f, fed, sizeof fed);
                        int same = fn == on && memcmp(one, fed, on) == 0;
                        int one_piece = f->chunk == 0 || f->chunk >= n;
                        if (q >= 2 || one_piece) {
                            compared++;
                            if (!same)
                                printf("  quality %d window %d n %zu chunk %zu room %zu take %d "
                                       "hint %u: %zu bytes, one call %zu\n",
                                       q, windows[w], n, f->chunk, f->room, f->take,
                                       (unsigned)hint, fn, on);
                            CHECK(same);
                        } else {
                            cut_differs |= !same;
                        }
                    }
                    if (q < 2 && n >= 100)
                        CHECK(cut_differs); /* why the target does not compare these */
                }
            }
    CHECK(compared > 800);
    /* Across the 16 KiB input blocks of qualities 2 and 3, and with no hint. */
    for (int q = 2; q <= 4; q++) {
        size_t on = stream_encode(q, 16, 0, in, sizeof in, &(feed){0, 0, 0}, one, sizeof one);
        size_t fn = stream_encode(q, 16, 0, in, sizeof in, &(feed){1000, 7, 0}, fed, sizeof fed);
        CHECK(fn == on && memcmp(one, fed, on) == 0);
    }
}

/* Metadata through BrotliEncoderTakeOutput: the operation is complete only on a call that
 * leaves nothing to take. Stopping at the drain leaves the encoder inside the metadata
 * block and the next operation fails, which is why brotli_stream repeats the call. */
FG_TEST(brotli_stream_metadata_taken_needs_one_more_call)
{
    for (int again = 0; again < 2; again++) {
        BrotliEncoderState *s = BrotliEncoderCreateInstance(NULL, NULL, NULL);
        BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, 4);
        const uint8_t *next_in = (const uint8_t *)TEXT;
        size_t avail_in = TEXT_LEN, none = 0;
        uint8_t *no_out = NULL;
        CHECK(BrotliEncoderCompressStream(s, BROTLI_OPERATION_EMIT_METADATA, &avail_in,
                                          &next_in, &none, &no_out, NULL));
        for (int i = 0; i < 64 && (avail_in || BrotliEncoderHasMoreOutput(s)); i++) {
            size_t got = 0;
            BrotliEncoderTakeOutput(s, &got);
            if (avail_in)
                CHECK(BrotliEncoderCompressStream(s, BROTLI_OPERATION_EMIT_METADATA, &avail_in,
                                                  &next_in, &none, &no_out, NULL));
        }
        CHECK(avail_in == 0 && !BrotliEncoderHasMoreOutput(s));
        if (again)
            CHECK(BrotliEncoderCompressStream(s, BROTLI_OPERATION_EMIT_METADATA, &avail_in,
                                              &next_in, &none, &no_out, NULL));
        int finish = BrotliEncoderCompressStream(s, BROTLI_OPERATION_FINISH, &avail_in, &next_in,
                                                 &none, &no_out, NULL);
        CHECK(finish == again);
        BrotliEncoderDestroyInstance(s);
    }
}

/* BROTLI_OPERATION_FLUSH's promise: once complete, the output decodes to all the input
 * given so far (a stream still open: TRUNCATED, with every byte). */
FG_TEST(brotli_stream_flush_makes_the_input_so_far_decodable)
{
    for (int q = 0; q <= 11; q += 1) {
        BrotliEncoderState *s = BrotliEncoderCreateInstance(NULL, NULL, NULL);
        BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, (uint32_t)q);
        BrotliEncoderSetParameter(s, BROTLI_PARAM_LGWIN, 12);
        uint8_t z[512], back[TEXT_LEN];
        size_t zn = 0;
        for (size_t half = 0; half < 2; half++) {
            const uint8_t *next_in = (const uint8_t *)TEXT + half * (TEXT_LEN / 2);
            size_t avail_in = half ? TEXT_LEN - TEXT_LEN / 2 : TEXT_LEN / 2;
            do {
                size_t avail_out = sizeof z - zn;
                uint8_t *next_out = z + zn;
                CHECK(BrotliEncoderCompressStream(s, BROTLI_OPERATION_FLUSH, &avail_in,
                                                  &next_in, &avail_out, &next_out, NULL));
                zn = sizeof z - avail_out;
            } while (avail_in || BrotliEncoderHasMoreOutput(s));
            size_t fed = half ? TEXT_LEN : TEXT_LEN / 2;
            fg_brotli_result r;
            fg_brotli_decode(z, zn, back, fed, NULL, &r);
            CHECK(r.status == FG_BROTLI_TRUNCATED && r.produced == fed);
            CHECK(memcmp(back, TEXT, fed) == 0);
        }
        BrotliEncoderDestroyInstance(s);
    }
}

#endif /* FG_HAVE_BROTLI */
