/* include/fuzzgate_brotli.h — the Google Brotli reference oracle: a decoder with typed
 * outcomes and round-trip helpers, for the built-in Brotli targets and for your own.
 *
 * The functions are in libfuzzgate.a when the build found libbrotli-dev (pkg-config
 * libbrotlienc libbrotlidec; the Makefile then defines FG_HAVE_BROTLI and installs this
 * header). Link a target that calls them with $(pkg-config --libs libbrotlienc
 * libbrotlidec) after libfuzzgate. The header needs no Brotli header of its own, so a
 * target can always include it and, without Brotli, register itself as skipped:
 *
 *     #ifdef FG_HAVE_BROTLI
 *     FG_TARGET(mine, .run = mine_run, .what = WHAT);
 *     #else
 *     FG_TARGET(mine, .what = WHAT, .skip = FG_BROTLI_SKIP);
 *     #endif
 *
 * Everything here may run inside a case. It allocates through malloc, so the heap oracles
 * count the decoder's and the encoder's memory against the target's allowance, and it never
 * ends a case itself: what a result means is the caller's invariant to state. Not
 * signal-safe; thread-safe (no state of its own).
 */
#ifndef FUZZGATE_BROTLI_H
#define FUZZGATE_BROTLI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The reason a Brotli target gives when the build has no Brotli (its .skip). */
#define FG_BROTLI_SKIP "built without brotli (install libbrotli-dev)"

/* What decoding some bytes came to. The first four are verdicts on the bytes; BUDGET and
 * NOMEM are resource refusals (the bytes read so far were fine, nothing more is known);
 * STALLED is the decoder breaking its own API, never a property of the input. */
typedef enum fg_brotli_status {
    FG_BROTLI_OK,        /* a complete stream that ends exactly at the last input byte */
    FG_BROTLI_TRAILING,  /* a complete stream followed by more bytes; .used is its length */
    FG_BROTLI_INVALID,   /* the decoder rejected the bytes; .error says why */
    FG_BROTLI_TRUNCATED, /* every byte was read, the stream is not finished */
    FG_BROTLI_BUDGET,    /* the stream goes on past the output budget */
    FG_BROTLI_NOMEM,     /* one of the decoder's allocations failed (or passed the limit) */
    FG_BROTLI_STALLED    /* a call consumed nothing, wrote nothing and asked for nothing */
} fg_brotli_status;

typedef struct fg_brotli_result {
    fg_brotli_status status;
    size_t used;     /* input bytes the decoder consumed (for a complete stream, its size) */
    size_t produced; /* output bytes written, never more than the budget */
    int error;       /* the BrotliDecoderErrorCode (negative) for INVALID and NOMEM, else 0 */
} fg_brotli_result;

/* How the streaming decoder is run. in_chunk, out_chunk: at most that many input bytes and
 * bytes of output room per call (0: all there is; {1, 1} is the slowest and most thorough
 * feeding). memory: the most the decoder may hold allocated at once (0: no limit); an
 * allocation past it fails, and the result is NOMEM. The decoder's memory and its work
 * before the first output byte follow the window and meta-block length the stream declares
 * (up to 16 MiB each, from a few bytes), not the output budget: a limit is how a caller
 * keeps both bounded. */
typedef struct fg_brotli_limits {
    size_t in_chunk, out_chunk;
    size_t memory;
} fg_brotli_limits;

/* Decodes in[0..n) with Brotli's streaming decoder into out[0..budget), run as lim says
 * (NULL: all at once, no memory limit), and returns res->status. The budget is decided
 * exactly: a stream of exactly `budget` output bytes is OK (or TRAILING), one byte more is
 * BUDGET with `budget` bytes produced. The empty input is TRUNCATED (a stream has at least
 * one byte). out may be NULL when budget is 0. */
fg_brotli_status fg_brotli_decode(const uint8_t *in, size_t n, uint8_t *out, size_t budget,
                                  const fg_brotli_limits *lim, fg_brotli_result *res);

/* 1 for the statuses that are a verdict on the input (OK, TRAILING, INVALID, TRUNCATED),
 * 0 for the refusals and STALLED. */
int fg_brotli_is_verdict(fg_brotli_status status);

/* "ok", "trailing data", "invalid", "truncated", "over budget", "out of memory",
 * "stalled"; never NULL. */
const char *fg_brotli_status_name(fg_brotli_status status);

/* Brotli's name for a decoder error code ("PADDING_1", "WINDOW_BITS", ...); never NULL. */
const char *fg_brotli_error_name(int error);

/* Encoder parameters, each passed to BrotliEncoderSetParameter. */
typedef struct fg_brotli_params {
    int quality;        /* 0..11 */
    int lgwin;          /* 10..24 */
    int mode;           /* 0 generic, 1 text, 2 font (BrotliEncoderMode) */
    uint32_t size_hint; /* 0: not set (the encoder's default, "unknown") */
    int lgblock;        /* 0: not set (the encoder chooses), else 16..24 */
} fg_brotli_params;

/* Compresses in[0..n) with an encoder instance set to p, all input at once with
 * BROTLI_OPERATION_FINISH, into out[0..cap); *size is the stream's length. Returns 0; -1
 * when the stream did not fit in cap or the encoder failed (*size: what it wrote); -2 when
 * the encoder could not be created. */
int fg_brotli_compress(const fg_brotli_params *p, const uint8_t *in, size_t n, uint8_t *out,
                       size_t cap, size_t *size);

/* Does z[0..zn) decode, exactly and completely, to want[0..n)? Decodes with budget n (run
 * as lim says, NULL: at once) and returns 1 when the status is OK and the n bytes are
 * want's; else 0, with *mismatch the first offset where the output is not want's (a byte
 * that differs, or where the output stopped short; n when all n bytes are right but the
 * status is not OK); -1 when out of memory. res and mismatch may be NULL. */
int fg_brotli_decodes_to(const uint8_t *z, size_t zn, const uint8_t *want, size_t n,
                         const fg_brotli_limits *lim, fg_brotli_result *res,
                         size_t *mismatch);

/* A compress-then-decode round trip and where it broke. */
typedef struct fg_brotli_trip {
    int encoded;           /* 1 when fg_brotli_compress returned 0 */
    size_t size;           /* the stream's length */
    size_t bound;          /* BrotliEncoderMaxCompressedSize(n): promised for quality >= 2 */
    fg_brotli_result decode;
    size_t mismatch;       /* first offset the decoding differs at, n when none */
} fg_brotli_trip;

/* Compresses in[0..n) with p into twice BrotliEncoderMaxCompressedSize(n) bytes of room (so
 * a stream past the bound still comes back to be reported), then checks the stream decodes
 * exactly to in. Returns 1 for an exact round trip (trip->size may still exceed
 * trip->bound: that is the caller's check to make), 0 otherwise, -1 when out of memory.
 * When stream is not NULL, *stream receives the malloc'd stream (free it), or NULL. */
int fg_brotli_roundtrip(const fg_brotli_params *p, const uint8_t *in, size_t n,
                        uint8_t **stream, fg_brotli_trip *trip);

#ifdef __cplusplus
}
#endif

#endif /* FUZZGATE_BROTLI_H */
