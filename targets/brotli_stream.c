/* targets/brotli_stream.c — Google Brotli's streaming encoder fed in fuzz-chosen chunks,
 * with fuzz-chosen flushes, a metadata block, and output room down to one byte a call (or
 * taken with BrotliEncoderTakeOutput). The stream must round-trip; after every completed
 * flush the output so far must decode to exactly the input so far (the documented promise
 * of BROTLI_OPERATION_FLUSH); the room the output is given must not change a byte; and with
 * no flush, the bytes must be those of the whole input compressed in one call, where
 * Brotli 1.0.9 keeps that (test/unit/test_brotli.c pins it): at quality 2 and above however the
 * input is cut, at qualities 0 and 1 only when it comes in one piece (those compress each
 * call's input as fragments of their own).
 *
 * Input, a 4-byte header then the payload:
 *   d[0]  quality QUALITY[d0 & 63] (as in brotli_roundtrip: Zopfli 1 header in 32), mode
 *         (d0 >> 6) % 3;
 *   d[1]  window 10 + (d1 & 7) % 7 (10-16: small windows keep the encoder's tables small
 *         and a case fast; brotli_roundtrip covers 10-24), bit 3 a size hint of the payload
 *         length, bit 4 output through BrotliEncoderTakeOutput, bit 5 a metadata block
 *         after the first chunk;
 *   d[2]  input chunk CHUNKS[d2 & 15] (0: all at once; never more than MAX_CHUNKS calls),
 *         a flush after every (d2 >> 4)-th chunk (0: none; at most MAX_FLUSHES);
 *   d[3]  output room per call ROOMS[d3 & 15] (0: all there is).
 * Without Brotli the target is listed as skipped (FG_BROTLI_SKIP).
 */
#include "fuzzgate.h"
#include "fuzzgate_brotli.h"

#define STREAM_WHAT "Brotli streaming encoder: chunks, flushes, tiny output, metadata round-trip"

#ifdef FG_HAVE_BROTLI

#include <brotli/encode.h>
#include <stdlib.h>
#include <string.h>

#define STREAM_MAX_LEN 256
#define HEADER 4
#define MAX_CHUNKS 32 /* PROCESS calls per case: at quality 0 and 1 each is a fragment */
#define MAX_FLUSHES 4 /* flushes per case, each checked by decoding the output so far */

static const uint8_t QUALITY[64] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5,
                                    6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1,
                                    2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7,
                                    8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2, 5, 10, 11};
static const size_t CHUNKS[16] = {0, 1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 32, 64, 100, 255, 256};
static const size_t ROOMS[16] = {0, 1, 1, 2, 2, 3, 4, 5, 7, 8, 15, 16, 17, 64, 100, 4096};
static const uint8_t METADATA[] = "fuzzgate metadata: opaque to the decoder";

/* How one encoding is driven. */
typedef struct schedule {
    size_t in_chunk;     /* input bytes per PROCESS call (the whole input when 0) */
    unsigned flush_every; /* flush after every k-th chunk (0: never) */
    size_t room;         /* output room per call (0: all that is left) */
    int take;            /* take the output with BrotliEncoderTakeOutput */
    int metadata;        /* emit METADATA after the first chunk */
    int check_flushes;   /* decode the output at every completed flush */
} schedule;

/* One encoding: its bytes, and how much was flushed. */
typedef struct encoding {
    uint8_t *z;
    size_t zn, cap;
    unsigned flushes;
} encoding;

/* One call of the encoder for op; returns 1 when the operation is complete: the input
 * given is used up and the encoder has no more output (for FINISH: it is finished). With
 * sc->take the output is taken with BrotliEncoderTakeOutput after the call, room the
 * encoder never sees, so there "the operation should be repeated after output buffer is
 * drained" (encode.h): complete is a call that leaves nothing to take. (An EMIT_METADATA
 * ended at the drain leaves the encoder inside its metadata block: the next operation
 * fails.) */
static int call(BrotliEncoderState *s, BrotliEncoderOperation op, const uint8_t **next_in,
                size_t *avail_in, const schedule *sc, encoding *e)
{
    size_t left = e->cap - e->zn;
    size_t give = sc->take ? 0 : sc->room && sc->room < left ? sc->room : left;
    FG_CHECK(sc->take || give > 0 || !BrotliEncoderHasMoreOutput(s),
             "the encoder wrote %zu bytes and has more", e->cap);
    uint8_t *next_out = sc->take ? NULL : e->z + e->zn;
    size_t avail_out = give;
    FG_CHECK(BrotliEncoderCompressStream(s, op, avail_in, next_in, &avail_out, &next_out, NULL),
             "BrotliEncoderCompressStream(operation %d) fails", (int)op);
    e->zn += give - avail_out;
    int done = op == BROTLI_OPERATION_FINISH
                   ? BrotliEncoderIsFinished(s)
                   : *avail_in == 0 && !BrotliEncoderHasMoreOutput(s);
    if (!sc->take || done)
        return done;
    while (BrotliEncoderHasMoreOutput(s)) {
        size_t got = sc->room;
        const uint8_t *out = BrotliEncoderTakeOutput(s, &got);
        FG_CHECK(got > 0 && (!sc->room || got <= sc->room),
                 "BrotliEncoderTakeOutput gives %zu bytes when asked for %zu", got, sc->room);
        FG_CHECK(got <= e->cap - e->zn, "the encoder wrote %zu bytes, past %zu", e->zn + got,
                 e->cap);
        memcpy(e->z + e->zn, out, got);
        e->zn += got;
    }
    return op == BROTLI_OPERATION_FINISH && BrotliEncoderIsFinished(s);
}

/* Repeats op over in[0..n) until it is complete. */
static void drive(BrotliEncoderState *s, BrotliEncoderOperation op, const uint8_t *in,
                  size_t n, const schedule *sc, encoding *e)
{
    const uint8_t *next_in = in;
    size_t avail_in = n;
    /* Every call but the last moves a byte, in or out: a bound no encoder needs. */
    size_t calls = 0, max_calls = 4 * (n + e->cap) + 64;
    while (!call(s, op, &next_in, &avail_in, sc, e))
        FG_CHECK(++calls <= max_calls, "the encoder makes no progress (operation %d)", (int)op);
}

/* After a flush the output so far is a stream, unfinished, of exactly the input so far. */
static void check_flush(const encoding *e, const uint8_t *in, size_t fed)
{
    uint8_t *back = malloc(fed ? fed : 1);
    if (!back)
        return;
    fg_brotli_result r;
    fg_brotli_decode(e->z, e->zn, back, fed, NULL, &r);
    int same = r.status == FG_BROTLI_TRUNCATED && r.produced == fed && memcmp(back, in, fed) == 0;
    free(back);
    FG_CHECK(same, "after a flush, the %zu bytes of output decode as %s to %zu of the %zu bytes "
             "fed, or to others", e->zn, fg_brotli_status_name(r.status), r.produced, fed);
}

static void encode(const fg_brotli_params *p, const schedule *sc, const uint8_t *in, size_t len,
                   encoding *e)
{
    e->zn = 0;
    e->flushes = 0;
    BrotliEncoderState *s = BrotliEncoderCreateInstance(NULL, NULL, NULL);
    FG_CHECK(s != NULL, "BrotliEncoderCreateInstance fails");
    BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, (uint32_t)p->quality);
    BrotliEncoderSetParameter(s, BROTLI_PARAM_LGWIN, (uint32_t)p->lgwin);
    BrotliEncoderSetParameter(s, BROTLI_PARAM_MODE, (uint32_t)p->mode);
    if (p->size_hint)
        BrotliEncoderSetParameter(s, BROTLI_PARAM_SIZE_HINT, p->size_hint);
    size_t pos = 0;
    unsigned chunk = 0;
    while (pos < len) {
        size_t take = sc->in_chunk && sc->in_chunk < len - pos ? sc->in_chunk : len - pos;
        drive(s, BROTLI_OPERATION_PROCESS, in + pos, take, sc, e);
        pos += take;
        chunk++;
        if (chunk == 1 && sc->metadata)
            drive(s, BROTLI_OPERATION_EMIT_METADATA, METADATA, sizeof METADATA - 1, sc, e);
        if (sc->flush_every && chunk % sc->flush_every == 0 && e->flushes < MAX_FLUSHES &&
            pos < len) {
            drive(s, BROTLI_OPERATION_FLUSH, in + pos, 0, sc, e);
            e->flushes++;
            if (sc->check_flushes)
                check_flush(e, in, pos);
        }
    }
    drive(s, BROTLI_OPERATION_FINISH, in + pos, 0, sc, e);
    FG_CHECK(!BrotliEncoderHasMoreOutput(s), "a finished encoder has more output");
    BrotliEncoderDestroyInstance(s);
}

static uint64_t stream_run(const uint8_t *d, size_t n)
{
    if (n < HEADER)
        return fg_sig(0, n);
    const uint8_t *in = d + HEADER;
    size_t len = n - HEADER;
    fg_brotli_params p = {
        .quality = QUALITY[d[0] & 63],
        .lgwin = 10 + (d[1] & 7) % 7,
        .mode = (d[0] >> 6) % 3,
        .size_hint = d[1] >> 3 & 1 ? (uint32_t)len : 0,
        .lgblock = 0,
    };
    size_t min_chunk = (len + MAX_CHUNKS - 1) / MAX_CHUNKS;
    schedule sc = {
        .in_chunk = CHUNKS[d[2] & 15],
        .flush_every = d[2] >> 4,
        .room = ROOMS[d[3] & 15],
        .take = d[1] >> 4 & 1,
        .metadata = d[1] >> 5 & 1,
        .check_flushes = 1,
    };
    if (sc.in_chunk && sc.in_chunk < min_chunk)
        sc.in_chunk = min_chunk;
    int one_piece = !sc.in_chunk || sc.in_chunk >= len;

    /* Far above what the encoder writes for len bytes in MAX_CHUNKS fragments with a few
     * flushes and a metadata block (every piece at most a few bytes over its input). */
    size_t cap = 2 * len + 4096;
    encoding a = {malloc(cap), 0, cap, 0}, b = {malloc(cap), 0, cap, 0};
    if (!a.z || !b.z) {
        free(a.z);
        free(b.z);
        return fg_sig(0, 1);
    }
    encode(&p, &sc, in, len, &a);

    size_t at = 0;
    fg_brotli_result r;
    int same = fg_brotli_decodes_to(a.z, a.zn, in, len, NULL, &r, &at);
    FG_CHECK(same != 0, "the streamed %zu bytes (quality %d, window %d) decode as %s to %zu of "
             "%zu bytes, the first wrong at %zu",
             a.zn, p.quality, p.lgwin, fg_brotli_status_name(r.status), r.produced, len, at);

    /* No flush, no metadata: the bytes of the whole input in one FINISH call, whatever the
     * room (so this also says the room changed nothing). Otherwise, the room changes
     * nothing: the same schedule with all the room there is gives the same bytes. */
    int compared = a.flushes == 0 && !sc.metadata && (p.quality >= 2 || one_piece);
    if (compared) {
        size_t cn = 0;
        int rc = fg_brotli_compress(&p, in, len, b.z, b.cap, &cn);
        FG_CHECK(rc == 0, "compressing %zu bytes in one call fails (%d)", len, rc);
        FG_CHECK(cn == a.zn && memcmp(a.z, b.z, cn) == 0,
                 "with no flush, the input fed in %zu-byte chunks at quality %d gives %zu bytes, "
                 "in one call %zu bytes or other bytes",
                 sc.in_chunk, p.quality, a.zn, cn);
    } else if (sc.room || sc.take) {
        schedule roomy = sc;
        roomy.room = 0;
        roomy.take = 0;
        roomy.check_flushes = 0;
        encode(&p, &roomy, in, len, &b);
        FG_CHECK(a.zn == b.zn && memcmp(a.z, b.z, a.zn) == 0,
                 "with %zu bytes of room a call%s the stream is %zu bytes, with all the room %zu "
                 "bytes or other bytes",
                 sc.room, sc.take ? " (taken)" : "", a.zn, b.zn);
    }
    free(a.z);
    free(b.z);

    uint64_t sig = fg_sig((uint64_t)(p.quality < 10 ? p.quality : 10), fg_bucket(a.flushes, 2));
    if (p.quality >= 10) /* Zopfli: ~0.5 ms a flush; keep few such inputs */
        return fg_fold(sig, (uint64_t)sc.metadata);
    sig = fg_fold(sig, (uint64_t)sc.metadata | (uint64_t)one_piece << 1 | (uint64_t)compared << 2);
    return fg_fold(sig, fg_bucket(len, 9));
}

/* A text at every quality, cut in chunks with flushes, with tiny output room. */
static void stream_seed(fg_seeds *seeds)
{
    static const char text[] = "stream, flush, stream: each flush a point the decoder can reach";
    uint8_t buf[HEADER + sizeof text];
    memcpy(buf + HEADER, text, sizeof text - 1);
    for (unsigned q = 0; q < 12; q++) {
        unsigned pick = q < 10 ? q : q + 52; /* QUALITY[pick] == q */
        buf[0] = (uint8_t)(pick | (q % 3) << 6);
        buf[1] = (uint8_t)(q % 7 | (q & 1) << 3 | (q % 3 == 0) << 4 | (q == 4) << 5);
        buf[2] = (uint8_t)((q * 5) % 16 | (q % 4) << 4);
        buf[3] = (uint8_t)(q + 1);
        fg_seeds_add(seeds, buf, sizeof buf - 1);
    }
}

/* Peak live heap of a case, from Brotli 1.0.9's encoder on x86-64: one encoder at a time,
 * whose largest block at windows up to 16 bits is quality 9's hasher (H42: 1,310,720
 * bytes; Zopfli's tree hasher is under 1 MiB), with some 15 KiB of state and ring buffer
 * beside it, and the two outputs of 2n + 4 KiB. So: 2 MiB and 8 bytes per input byte. (An
 * allowance of 1 MiB is an amplification finding at that block within 1,000 cases: the
 * model is the real one.) */
static size_t stream_allowance(size_t n)
{
    return ((size_t)2 << 20) + 8 * n;
}

FG_TARGET(brotli_stream, .what = STREAM_WHAT, .run = stream_run, .seed = stream_seed,
          .allowance = stream_allowance, .max_len = HEADER + STREAM_MAX_LEN)

#else /* !FG_HAVE_BROTLI */

FG_TARGET(brotli_stream, .what = STREAM_WHAT, .skip = FG_BROTLI_SKIP)

#endif
