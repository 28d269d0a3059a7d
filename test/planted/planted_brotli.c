/* test/planted/planted_brotli.c — a Brotli decoder wrapper with a planted bug, its clean twin, and
 * a wrapper that trusts the stream for its memory, each checked against the reference
 * oracle (include/fuzzgate_brotli.h) the way brotli_decode and brotli_roundtrip check
 * Brotli itself.
 *
 *   planted_brotli_drop   the drain loop's classic off-by-one: when the stream ends exactly
 *                         at the end of an output chunk, the last byte is dropped. The
 *                         seeds decode into one chunk of room to spare, so they pass; the
 *                         differential and round-trip invariants catch it once the fuzzer
 *                         picks a chunk size that divides the output.
 *   planted_brotli_clean  the same wrapper without the bug: passes the default gate.
 *   planted_brotli_bomb   decodes into a buffer it doubles as long as the stream goes on, no
 *                         budget: the 4 MiB bomb seed is an amplification finding at its
 *                         realloc, not an out-of-memory.
 *
 * Input: d[0] low nibble the output chunk (CHUNKS, 0: all the room), bit 7 the mode: 0
 * decode d[1..] and compare with the oracle, 1 compress d[1..] at quality (d0 >> 4 & 7) + 2
 * and decode that. Built with Brotli only (FG_HAVE_BROTLI): otherwise the targets are
 * registered as skipped, like the built-in Brotli targets.
 */
#include "fuzzgate.h"
#include "fuzzgate_brotli.h"

#ifdef FG_HAVE_BROTLI

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <stdlib.h>
#include <string.h>

#define BUDGET 4096
static const size_t CHUNKS[16] = {0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 64, 100, 255, 256, 1000, 4096};

/* Decodes z[0..zn) into out[0..BUDGET) handing the decoder `chunk` bytes of room a call
 * (0: all that is left); returns the bytes produced, *complete when the stream ended. */
static size_t wrapper_decode(const uint8_t *z, size_t zn, uint8_t *out, size_t chunk,
                             int broken, int *complete)
{
    *complete = 0;
    BrotliDecoderState *s = BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (!s)
        return 0;
    const uint8_t *next_in = z;
    size_t avail_in = zn, produced = 0;
    for (;;) {
        size_t room = BUDGET - produced;
        if (chunk && chunk < room)
            room = chunk;
        if (room == 0)
            break; /* the budget is spent: no verdict */
        uint8_t *next_out = out + produced;
        size_t avail_out = room;
        BrotliDecoderResult r =
            BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, NULL);
        produced += room - avail_out;
        if (r == BROTLI_DECODER_RESULT_SUCCESS) {
            /* THE BUG: a full chunk is taken to mean "more to come", and its last byte is
             * held back for the next round, which never comes. */
            if (broken && avail_out == 0)
                produced--;
            *complete = 1;
            break;
        }
        if (r != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT)
            break;
    }
    BrotliDecoderDestroyInstance(s);
    return produced;
}

static uint64_t check_wrapper(const uint8_t *d, size_t n, int broken)
{
    if (n < 1)
        return fg_sig(0, 0);
    size_t chunk = CHUNKS[d[0] & 15];
    uint8_t *out = malloc(BUDGET), *ref = malloc(BUDGET), *z = NULL;
    const uint8_t *stream = d + 1;
    size_t zn = n - 1;
    if (!out || !ref) {
        free(out);
        free(ref);
        return fg_sig(0, 1);
    }
    if (d[0] >> 7) { /* round trip: the payload through the encoder first */
        fg_brotli_params p = {.quality = 2 + (d[0] >> 4 & 7), .lgwin = 16, .mode = 0};
        size_t cap = BrotliEncoderMaxCompressedSize(n - 1);
        if (n - 1 > BUDGET || !(z = malloc(cap)) ||
            fg_brotli_compress(&p, d + 1, n - 1, z, cap, &zn) != 0) {
            free(out);
            free(ref);
            free(z);
            return fg_sig(0, 2);
        }
        stream = z;
    }
    int complete;
    size_t got = wrapper_decode(stream, zn, out, chunk, broken, &complete);
    fg_brotli_result r;
    fg_brotli_decode(stream, zn, ref, BUDGET, NULL, &r);
    if (r.status == FG_BROTLI_OK || r.status == FG_BROTLI_TRAILING) {
        FG_CHECK(complete && got == r.produced && memcmp(out, ref, got) == 0,
                 "the wrapper decodes a %zu-byte stream to %zu bytes, the oracle to %zu", zn, got,
                 r.produced);
        if (d[0] >> 7)
            FG_CHECK(got == n - 1 && memcmp(out, d + 1, got) == 0,
                     "the round trip of %zu bytes gives %zu", n - 1, got);
    }
    free(out);
    free(ref);
    free(z);
    return fg_fold(fg_sig(1 + (unsigned)r.status, fg_bucket(r.produced, 12)), d[0] >> 7);
}

static uint64_t drop_run(const uint8_t *d, size_t n)
{
    return check_wrapper(d, n, 1);
}

static uint64_t clean_run(const uint8_t *d, size_t n)
{
    return check_wrapper(d, n, 0);
}

/* Streams and payloads whose output fits one chunk of all the room with room to spare. */
static void wrapper_seed(fg_seeds *seeds)
{
    static const char text[] = "a wrapper around the decoder, and the bytes it hands back";
    uint8_t buf[1 + 256];
    size_t zn = sizeof buf - 1;
    if (BrotliEncoderCompress(5, 16, BROTLI_MODE_TEXT, sizeof text - 1, (const uint8_t *)text,
                              &zn, buf + 1)) {
        buf[0] = 0x00;
        fg_seeds_add(seeds, buf, 1 + zn);
    }
    buf[0] = 0x80 | 3 << 4;
    memcpy(buf + 1, text, sizeof text - 1);
    fg_seeds_add(seeds, buf, sizeof text);
}

FG_TARGET(planted_brotli_drop, .flags = FG_NO_CORPUS,
          .run = drop_run, .seed = wrapper_seed, .max_len = 512,
          .what = "a Brotli wrapper that drops the last byte when the output fills a chunk")
FG_TARGET(planted_brotli_clean, .flags = FG_NO_CORPUS,
          .run = clean_run, .seed = wrapper_seed, .max_len = 512,
          .what = "the Brotli wrapper without the bug: clean")

/* ---- the bomb: memory from the stream, not from the bytes present ---------------------- */

static uint64_t bomb_run(const uint8_t *z, size_t zn)
{
    BrotliDecoderState *s = BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (!s)
        return fg_sig(0, 0);
    size_t cap = 1024, produced = 0, avail_in = zn;
    const uint8_t *next_in = z;
    uint8_t *out = malloc(cap);
    BrotliDecoderResult r = BROTLI_DECODER_RESULT_ERROR;
    while (out) {
        uint8_t *next_out = out + produced;
        size_t avail_out = cap - produced;
        r = BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, NULL);
        produced = cap - avail_out;
        if (r != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT)
            break;
        uint8_t *bigger = realloc(out, 2 * cap); /* as long as the stream goes on */
        if (!bigger)
            break;
        out = bigger;
        cap *= 2;
    }
    free(out);
    BrotliDecoderDestroyInstance(s);
    return fg_sig((uint64_t)r, fg_bucket(produced, 24));
}

/* 4 MiB of zeros in a small window: some hundred bytes. */
static void bomb_seed(fg_seeds *seeds)
{
    size_t nzeros = (size_t)4 << 20, zn = 4096;
    uint8_t *zeros = calloc(1, nzeros), *z = malloc(zn);
    if (zeros && z && BrotliEncoderCompress(5, 10, BROTLI_MODE_GENERIC, nzeros, zeros, &zn, z))
        fg_seeds_add(seeds, z, zn);
    free(zeros);
    free(z);
}

static size_t bomb_allowance(size_t n)
{
    return ((size_t)1 << 20) + 64 * n;
}

FG_TARGET(planted_brotli_bomb, .flags = FG_NO_CORPUS,
          .run = bomb_run, .seed = bomb_seed, .allowance = bomb_allowance,
          .what = "a Brotli wrapper whose output buffer grows with the stream: a bomb")

#else /* !FG_HAVE_BROTLI */

FG_TARGET(planted_brotli_drop, .flags = FG_NO_CORPUS,
          .what = "a Brotli wrapper with a planted bug",
          .skip = FG_BROTLI_SKIP)
FG_TARGET(planted_brotli_clean, .flags = FG_NO_CORPUS,
          .what = "the Brotli wrapper without it", .skip = FG_BROTLI_SKIP)
FG_TARGET(planted_brotli_bomb, .flags = FG_NO_CORPUS,
          .what = "a Brotli wrapper that trusts the stream",
          .skip = FG_BROTLI_SKIP)

#endif
