/* targets/brotli_decode.c — arbitrary bytes through Google Brotli's decoders: the
 * streaming decoder fed all at once, the streaming decoder fed in fuzz-chosen chunks (one
 * byte included) and the one-shot BrotliDecoderDecompress must agree on the outcome and on
 * every byte, under an output budget and a memory limit.
 *
 * Input: d[0] chooses the input chunk (low nibble) and the output chunk (high nibble) from
 * CHUNKS (0: all at once), d[1] the output budget (low nibble, from BUDGETS; 0: the full
 * DECODE_BUDGET; never more than MAX_OUT_CALLS output chunks); the rest is the stream.
 *
 * The limits. The decoder's memory, and its work before the first output byte, follow
 * what the stream declares, not the budget: a meta-block of 16 MiB in a window of 16 MiB
 * (a dozen bytes) is a 16 MiB ring buffer filled before any output is asked for. So both
 * streaming decoders run under DECODE_MEMORY (fg_brotli_limits.memory): past it an
 * allocation fails and the outcome is NOMEM, a refusal; the one-shot decoder, which takes
 * no limit, runs only when they stayed under it. With the budget, that bounds a case's heap
 * by the bytes present, the budget and the limit (decode_allowance), and its time.
 *
 * What the decoders may and may not differ on, as Brotli 1.0.9 behaves and documents it:
 * - A complete stream (OK, TRAILING), a truncated one, or one past the budget: the same
 *   status and the same bytes; for a complete or truncated stream the same `used` ("input
 *   is never overconsumed"; a truncated stream uses it all). BrotliDecoderDecompress
 *   ignores trailing bytes: it says SUCCESS where the oracle says TRAILING.
 * - An invalid stream: the same error code; the output before the error is a prefix of the
 *   stream's decoding either way, but how much of it was pushed out depends on the feeding
 *   (the decoder flushes early when it runs out of input), so only that one output is a
 *   prefix of the other is asked. Nor is `used` asked: the bit reader reads ahead.
 *   Two error codes are one: the decoder tests "the last command ran past the meta-block"
 *   (meta_block_remaining_len < 0) both where it flushes output (WriteRingBuffer,
 *   FORMAT_BLOCK_LENGTH_1) and where the meta-block ends (FORMAT_BLOCK_LENGTH_2), and which
 *   of the two sees it first depends on when output is flushed.
 * - Since output is pushed at different times, the budget may stop one decoding before
 *   the other meets an error or the memory limit: BUDGET against INVALID or NOMEM is
 *   agreement when the outputs agree. A resource refusal is not a verdict.
 * Without Brotli the target is listed as skipped (FG_BROTLI_SKIP).
 */
#include "fuzzgate.h"
#include "fuzzgate_brotli.h"

#define DECODE_WHAT "Brotli decoders: one-shot vs streaming at fuzz-chosen chunk sizes, budgeted"

#ifdef FG_HAVE_BROTLI

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <stdlib.h>
#include <string.h>

#define DECODE_MAX_LEN 1024
#define DECODE_BUDGET (32u << 10)   /* output budget: a stream that goes on is cut here */
#define MAX_OUT_CALLS 512           /* the budget is at most this many output chunks */
/* The decoder's memory limit: its state, the Huffman tables at the format's maximum (256
 * trees in each of the literal, command and distance groups: about 3.4 MiB) and a ring
 * buffer, so a refused stream is one whose meta-blocks declare more than that much
 * output. */
#define DECODE_MEMORY ((size_t)4 << 20)

static const size_t CHUNKS[16] = {0,  1,   2,   3,   4,    7,    8,    16,
                                  31, 64, 100, 255, 256, 1000, 4096, 65535};
static const size_t BUDGETS[16] = {DECODE_BUDGET, 0,    1,    2,    3,     15,   16,
                                   17,            255,  256,  1023, 1024,  4095, 4096,
                                   16384,         DECODE_BUDGET - 1};

/* The window a stream's first bits declare (RFC 7932 9.1): 10..24, 9 for the code large
 * windows use (an error here), 0 for no bytes. */
static unsigned declared_lgwin(const uint8_t *z, size_t n)
{
    if (n == 0)
        return 0;
    unsigned b = z[0];
    if (!(b & 1))
        return 16;
    if (b >> 1 & 7)
        return 17 + (b >> 1 & 7);
    unsigned m = b >> 4 & 7;
    return m == 0 ? 17 : 8 + m; /* m == 1: the large-window marker */
}

/* An error code, with the two codes of one condition made one (see the top). */
static int error_class(int error)
{
    return error == BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_2
               ? BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_1
               : error;
}

/* 1 when one output of a stream is a prefix of the other (they agree as far as both go). */
static int prefixes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    return memcmp(a, b, na < nb ? na : nb) == 0;
}

/* The budget stopped one decoding before the other met an error or the memory limit. */
static int cut_short(fg_brotli_status a, fg_brotli_status b)
{
    return (a == FG_BROTLI_BUDGET && (b == FG_BROTLI_INVALID || b == FG_BROTLI_NOMEM)) ||
           (b == FG_BROTLI_BUDGET && (a == FG_BROTLI_INVALID || a == FG_BROTLI_NOMEM));
}

/* The streaming decoder fed at once (a, into whole) against fed in chunks (b, into fed). */
static void compare_feedings(const fg_brotli_result *a, const uint8_t *whole,
                             const fg_brotli_result *b, const uint8_t *fed,
                             const fg_brotli_limits *lim)
{
    const char *sa = fg_brotli_status_name(a->status), *sb = fg_brotli_status_name(b->status);
    FG_CHECK(a->status == b->status || cut_short(a->status, b->status),
             "fed at once the stream is %s, in %zu/%zu-byte chunks %s", sa, lim->in_chunk,
             lim->out_chunk, sb);
    if (a->status != b->status || a->status == FG_BROTLI_INVALID ||
        a->status == FG_BROTLI_NOMEM) {
        if (a->status == FG_BROTLI_INVALID && b->status == FG_BROTLI_INVALID)
            FG_CHECK(error_class(a->error) == error_class(b->error),
                     "an invalid stream is %s at once, %s in chunks",
                     fg_brotli_error_name(a->error), fg_brotli_error_name(b->error));
        FG_CHECK(prefixes(whole, a->produced, fed, b->produced),
                 "a stream cut short (%s at once, %s in chunks) decodes to other bytes", sa, sb);
        return;
    }
    if (a->status != FG_BROTLI_BUDGET)
        FG_CHECK(a->used == b->used, "a %s stream used %zu bytes at once, %zu in chunks", sa,
                 a->used, b->used);
    FG_CHECK(a->produced == b->produced && memcmp(whole, fed, a->produced) == 0,
             "a %s stream gives %zu bytes at once, %zu in chunks, or other bytes", sa,
             a->produced, b->produced);
}

/* The one-shot decoder against the streaming one fed at once: SUCCESS exactly for a
 * complete stream within the budget, with its bytes; otherwise a prefix of them. */
static void compare_one_shot(const fg_brotli_result *a, const uint8_t *whole,
                             BrotliDecoderResult rc, const uint8_t *one, size_t one_size)
{
    const char *sa = fg_brotli_status_name(a->status);
    int complete = a->status == FG_BROTLI_OK || a->status == FG_BROTLI_TRAILING;
    FG_CHECK((rc == BROTLI_DECODER_RESULT_SUCCESS) == complete,
             "BrotliDecoderDecompress returns %d for a stream the streaming decoder finds %s",
             (int)rc, sa);
    if (complete || a->status == FG_BROTLI_BUDGET)
        FG_CHECK(one_size == a->produced && memcmp(one, whole, one_size) == 0,
                 "a %s stream gives %zu bytes one-shot, %zu streamed, or other bytes", sa,
                 one_size, a->produced);
    else
        FG_CHECK(prefixes(one, one_size, whole, a->produced),
                 "a %s stream decodes to other bytes one-shot than streamed", sa);
}

static uint64_t decode_run(const uint8_t *d, size_t n)
{
    if (n < 2)
        return fg_sig(0, n);
    fg_brotli_limits at_once = {0, 0, DECODE_MEMORY};
    fg_brotli_limits chunked = {CHUNKS[d[0] & 15], CHUNKS[d[0] >> 4], DECODE_MEMORY};
    size_t budget = BUDGETS[d[1] & 15];
    if (chunked.out_chunk && budget / chunked.out_chunk > MAX_OUT_CALLS)
        budget = chunked.out_chunk * MAX_OUT_CALLS;
    const uint8_t *z = d + 2;
    size_t zn = n - 2;

    uint8_t *whole = malloc(budget + 1), *fed = malloc(budget + 1), *one = malloc(budget + 1);
    if (!whole || !fed || !one) {
        free(whole);
        free(fed);
        free(one);
        return fg_sig(0, 2);
    }
    fg_brotli_result a, b;
    fg_brotli_decode(z, zn, whole, budget, &at_once, &a);
    fg_brotli_decode(z, zn, fed, budget, &chunked, &b);
    FG_CHECK(a.status != FG_BROTLI_STALLED && b.status != FG_BROTLI_STALLED,
             "the streaming decoder stalled (fed %s)",
             a.status == FG_BROTLI_STALLED ? "at once" : "in chunks");
    FG_CHECK(a.produced <= budget && b.produced <= budget, "a decoder wrote past its budget");
    compare_feedings(&a, whole, &b, fed, &chunked);
    if (a.status == FG_BROTLI_TRUNCATED)
        FG_CHECK(a.used == zn, "a truncated stream left %zu of %zu bytes unread", zn - a.used, zn);
    if (a.status != FG_BROTLI_NOMEM && b.status != FG_BROTLI_NOMEM) {
        size_t one_size = budget;
        BrotliDecoderResult rc = BrotliDecoderDecompress(zn, z, &one_size, one);
        FG_CHECK(one_size <= budget, "BrotliDecoderDecompress wrote past its budget");
        compare_one_shot(&a, whole, rc, one, one_size);
    }
    free(whole);
    free(fed);
    free(one);

    /* The verdict, why or how much, and the window's class: a few hundred values. (The
     * feeding is not the stream's behaviour; folding it would only multiply the space.) */
    unsigned detail = a.status == FG_BROTLI_INVALID ? (unsigned)-a.error
                                                    : fg_bucket(a.produced, 16);
    unsigned lgwin = declared_lgwin(z, zn);
    unsigned window = lgwin == 0 ? 0 : lgwin < 10 ? 1 : lgwin < 16 ? 2 : lgwin == 16 ? 3 : 4;
    uint64_t sig = fg_sig(1 + (unsigned)a.status, detail);
    sig = fg_fold(sig, window);
    return fg_fold(sig, (uint64_t)(budget != DECODE_BUDGET));
}

/* Streams made by the encoder at both window endpoints and qualities between, each behind
 * a different header; and a bomb, 256 KiB of zeros in a few bytes, that the budget cuts. */
static void decode_seed(fg_seeds *seeds)
{
    static const char text[] = "a Brotli seed: the window, the budget, the chunks, the window";
    static const int params[][2] = {{0, 10}, {1, 16}, {5, 18}, {9, 22}, {11, 24}, {4, 12}};
    static const uint8_t heads[][2] = {{0x00, 0x00}, {0x11, 0x00}, {0x5b, 0x03}, {0xa4, 0x0b}};
    uint8_t buf[2 + 256];
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        size_t zn = sizeof buf - 2;
        if (BrotliEncoderCompress(params[i][0], params[i][1], BROTLI_MODE_TEXT, sizeof text - 1,
                                  (const uint8_t *)text, &zn, buf + 2)) {
            memcpy(buf, heads[i % 4], 2);
            fg_seeds_add(seeds, buf, 2 + zn);
        }
    }
    size_t nzeros = (size_t)256 << 10, zn = sizeof buf - 2;
    uint8_t *zeros = calloc(1, nzeros);
    if (zeros && BrotliEncoderCompress(5, 24, BROTLI_MODE_GENERIC, nzeros, zeros, &zn, buf + 2)) {
        buf[0] = buf[1] = 0;
        fg_seeds_add(seeds, buf, 2 + zn);
    }
    free(zeros);
}

/* Peak live heap of a case: the three output buffers, and one decoder at a time, held to
 * DECODE_MEMORY (the one-shot decoder, unlimited, runs only on streams the limited ones
 * decoded within it, so it allocates what they did), plus the limit's block headers and 16
 * bytes per input byte. A decoder or a target that held output past the budget, or memory
 * past the limit, would be an amplification finding: a decompression bomb is cut at the
 * budget or refused at the limit, never an out-of-memory. */
static size_t decode_allowance(size_t n)
{
    return DECODE_MEMORY + ((size_t)64 << 10) + 3 * ((size_t)DECODE_BUDGET + 1) + 16 * n;
}

FG_TARGET(brotli_decode, .what = DECODE_WHAT, .run = decode_run, .seed = decode_seed,
          .allowance = decode_allowance, .max_len = DECODE_MAX_LEN)

#else /* !FG_HAVE_BROTLI */

FG_TARGET(brotli_decode, .what = DECODE_WHAT, .skip = FG_BROTLI_SKIP)

#endif
