/* oracle/brotli.c — the Google Brotli reference oracle (include/fuzzgate_brotli.h).
 *
 * Built with Brotli only (FG_HAVE_BROTLI, from the Makefile's pkg-config probe); otherwise
 * this file is empty and the Brotli targets register themselves as skipped.
 *
 * Unlike the engine, this code allocates with plain malloc, on purpose: it runs inside a
 * case on the target's behalf, so its buffers, like the decoder's and the encoder's own
 * memory, belong to the case and count against the target's allowance.
 */
#include "fuzzgate_brotli.h"

#ifdef FG_HAVE_BROTLI

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* Brotli wants a pointer even when there is nothing behind it. */
static const uint8_t no_input[1];

/* The decoder's allocator under a memory limit: each block carries its size in a header
 * (max_align_t wide, so the block stays aligned), and an allocation that would take the
 * live total past the limit fails. */
typedef struct limited {
    size_t limit, live;
} limited;

#define HEADER_SIZE sizeof(max_align_t)

static void *limited_alloc(void *opaque, size_t size)
{
    limited *m = opaque;
    if (size > m->limit - m->live)
        return NULL;
    unsigned char *p = malloc(HEADER_SIZE + size);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    m->live += size;
    return p + HEADER_SIZE;
}

static void limited_free(void *opaque, void *block)
{
    limited *m = opaque;
    if (!block)
        return;
    unsigned char *p = (unsigned char *)block - HEADER_SIZE;
    size_t size;
    memcpy(&size, p, sizeof size);
    m->live -= size;
    free(p);
}

fg_brotli_status fg_brotli_decode(const uint8_t *in, size_t n, uint8_t *out, size_t budget,
                                  const fg_brotli_limits *lim, fg_brotli_result *res)
{
    fg_brotli_result r = {FG_BROTLI_TRUNCATED, 0, 0, 0};
    limited mem = {lim ? lim->memory : 0, 0};
    BrotliDecoderState *s = mem.limit
                                ? BrotliDecoderCreateInstance(limited_alloc, limited_free, &mem)
                                : BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (!s) {
        r.status = FG_BROTLI_NOMEM;
        r.error = BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES; /* the nearest code there is */
        goto done;
    }
    size_t in_chunk = lim && lim->in_chunk ? lim->in_chunk : (size_t)-1;
    size_t out_chunk = lim && lim->out_chunk ? lim->out_chunk : (size_t)-1;
    size_t fed = 0; /* input bytes handed to the decoder so far */
    size_t avail_in = 0;
    const uint8_t *next_in = in && n ? in : no_input;
    for (;;) {
        if (avail_in == 0 && fed < n) {
            size_t take = min_size(n - fed, in_chunk);
            next_in = in + fed;
            avail_in = take;
            fed += take;
        }
        /* With the budget spent, one byte of room more tells a stream that is over from
         * one that wants more: the decoder only writes it if the stream goes on. */
        uint8_t probe;
        size_t room = min_size(budget - r.produced, out_chunk);
        int probing = room == 0;
        uint8_t *next_out = probing ? &probe : out + r.produced;
        size_t avail_out = probing ? 1 : room;
        size_t in_before = avail_in, out_before = avail_out;
        BrotliDecoderResult br =
            BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, NULL);
        size_t got = out_before - avail_out, took = in_before - avail_in;
        r.used = fed - avail_in;
        if (probing && got) {
            r.status = FG_BROTLI_BUDGET;
            break;
        }
        r.produced += got;
        if (br == BROTLI_DECODER_RESULT_SUCCESS) {
            r.status = r.used == n ? FG_BROTLI_OK : FG_BROTLI_TRAILING;
            break;
        }
        if (br == BROTLI_DECODER_RESULT_ERROR) {
            r.error = (int)BrotliDecoderGetErrorCode(s);
            r.status = r.error <= BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES &&
                               r.error >= BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES
                           ? FG_BROTLI_NOMEM
                           : FG_BROTLI_INVALID;
            break;
        }
        if (br == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
            if (avail_in == 0 && fed < n)
                continue; /* the next chunk */
            if (avail_in == 0) {
                if (got)
                    continue; /* it may still have output to push */
                r.status = FG_BROTLI_TRUNCATED;
                break;
            }
        }
        /* NEEDS_MORE_OUTPUT with room given, or NEEDS_MORE_INPUT with input left: either
         * way the call must have moved something. */
        if (got == 0 && took == 0) {
            r.status = FG_BROTLI_STALLED;
            break;
        }
    }
    BrotliDecoderDestroyInstance(s);
done:
    if (res)
        *res = r;
    return r.status;
}

int fg_brotli_is_verdict(fg_brotli_status status)
{
    return status == FG_BROTLI_OK || status == FG_BROTLI_TRAILING ||
           status == FG_BROTLI_INVALID || status == FG_BROTLI_TRUNCATED;
}

const char *fg_brotli_status_name(fg_brotli_status status)
{
    switch (status) {
    case FG_BROTLI_OK: return "ok";
    case FG_BROTLI_TRAILING: return "trailing data";
    case FG_BROTLI_INVALID: return "invalid";
    case FG_BROTLI_TRUNCATED: return "truncated";
    case FG_BROTLI_BUDGET: return "over budget";
    case FG_BROTLI_NOMEM: return "out of memory";
    case FG_BROTLI_STALLED: return "stalled";
    }
    return "unknown status";
}

const char *fg_brotli_error_name(int error)
{
    const char *name = BrotliDecoderErrorString((BrotliDecoderErrorCode)error);
    return name ? name : "unknown error";
}

int fg_brotli_compress(const fg_brotli_params *p, const uint8_t *in, size_t n, uint8_t *out,
                       size_t cap, size_t *size)
{
    *size = 0;
    BrotliEncoderState *s = BrotliEncoderCreateInstance(NULL, NULL, NULL);
    if (!s)
        return -2;
    int ok = BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, (uint32_t)p->quality) &&
             BrotliEncoderSetParameter(s, BROTLI_PARAM_LGWIN, (uint32_t)p->lgwin) &&
             BrotliEncoderSetParameter(s, BROTLI_PARAM_MODE, (uint32_t)p->mode);
    if (ok && p->size_hint)
        ok = BrotliEncoderSetParameter(s, BROTLI_PARAM_SIZE_HINT, p->size_hint);
    if (ok && p->lgblock)
        ok = BrotliEncoderSetParameter(s, BROTLI_PARAM_LGBLOCK, (uint32_t)p->lgblock);
    const uint8_t *next_in = in && n ? in : no_input;
    size_t avail_in = n, avail_out = cap;
    uint8_t *next_out = out;
    while (ok && !BrotliEncoderIsFinished(s)) {
        size_t in_before = avail_in, out_before = avail_out;
        ok = BrotliEncoderCompressStream(s, BROTLI_OPERATION_FINISH, &avail_in, &next_in,
                                         &avail_out, &next_out, NULL);
        if (ok && avail_in == in_before && avail_out == out_before)
            ok = 0; /* no progress: the room is spent */
    }
    *size = cap - avail_out;
    BrotliEncoderDestroyInstance(s);
    return ok ? 0 : -1;
}

int fg_brotli_decodes_to(const uint8_t *z, size_t zn, const uint8_t *want, size_t n,
                         const fg_brotli_limits *lim, fg_brotli_result *res,
                         size_t *mismatch)
{
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        return -1;
    fg_brotli_result r;
    fg_brotli_decode(z, zn, buf, n, lim, &r);
    size_t at = 0;
    while (at < r.produced && buf[at] == want[at])
        at++;
    free(buf);
    if (res)
        *res = r;
    if (mismatch)
        *mismatch = at; /* a differing byte, where the output stopped short, or n */
    return r.status == FG_BROTLI_OK && r.produced == n && at == n;
}

int fg_brotli_roundtrip(const fg_brotli_params *p, const uint8_t *in, size_t n,
                        uint8_t **stream, fg_brotli_trip *trip)
{
    memset(trip, 0, sizeof *trip);
    if (stream)
        *stream = NULL;
    trip->bound = BrotliEncoderMaxCompressedSize(n);
    if (trip->bound == 0 || trip->bound > ((size_t)-1) / 2)
        return -1; /* n is too large for a bound to exist */
    size_t cap = 2 * trip->bound;
    uint8_t *z = malloc(cap);
    if (!z)
        return -1;
    int rc = fg_brotli_compress(p, in, n, z, cap, &trip->size);
    if (rc == -2) {
        free(z);
        return -1;
    }
    trip->encoded = rc == 0;
    int ok = 0;
    if (trip->encoded) {
        ok = fg_brotli_decodes_to(z, trip->size, in, n, NULL, &trip->decode, &trip->mismatch);
        if (ok < 0) {
            free(z);
            return -1;
        }
    }
    if (stream)
        *stream = z;
    else
        free(z);
    return ok;
}

#endif /* FG_HAVE_BROTLI */
