/* targets/brotli_roundtrip.c — Google Brotli's encoder with every parameter under fuzz
 * control: the stream fits the documented size bound, decodes to exactly the input, and the
 * same input compressed twice gives the same bytes.
 *
 * Input, a 3-byte parameter header then the payload:
 *   d[0]  quality QUALITY[d0 & 63], 0-11 (10 and 11 are Zopfli, ~0.5 ms a call even for
 *         a few bytes, so they come up 1 header in 32), and the API in bit 7: 0 an encoder
 *         instance given all five parameters and the whole input with
 *         BROTLI_OPERATION_FINISH (fg_brotli_compress), 1 the one-shot
 *         BrotliEncoderCompress, which takes only quality, window and mode;
 *   d[1]  window 10 + d1 % 15 (10-24) and block size (d1 / 15) % 10 (0: the encoder's
 *         choice, else 15 + that: 16-24);
 *   d[2]  size hint (low 3 bits, size_hint()): unset, exact, a half, four times, 1, 1 MiB,
 *         16 MiB, 1 GiB (the largest the encoder takes); mode (d2 >> 3 & 3) % 3: generic,
 *         text, font.
 * The bound BrotliEncoderMaxCompressedSize(n) is promised for the one-shot call always ("If
 * BrotliEncoderMaxCompressedSize(input_size) returns non-zero value, then output is
 * guaranteed to be no longer than that": it falls back to stored blocks) and for the stream
 * API only "if quality is at least 2" with no flush: that is what is checked, no more.
 * Without Brotli the target is listed as skipped (FG_BROTLI_SKIP).
 */
#include "fuzzgate.h"
#include "fuzzgate_brotli.h"

#define ROUNDTRIP_WHAT "Brotli encoder, every parameter: size bound, exact round trip, determinism"

#ifdef FG_HAVE_BROTLI

#include <brotli/encode.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDTRIP_MAX_LEN 512
#define HEADER 3

static const uint8_t QUALITY[64] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5,
                                    6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1,
                                    2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7,
                                    8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2, 5, 10, 11};

static uint32_t size_hint(unsigned pick, size_t len)
{
    switch (pick & 7) {
    case 0: return 0;
    case 1: return (uint32_t)len;
    case 2: return (uint32_t)(len / 2 + 1);
    case 3: return (uint32_t)(4 * len + 1);
    case 4: return 1;
    case 5: return 1u << 20;
    case 6: return 1u << 24;
    default: return 1u << 30;
    }
}

/* One compression with the chosen API into z (cap bytes); returns 1 on success. */
static int compress(int oneshot, const fg_brotli_params *p, const uint8_t *in, size_t len,
                    uint8_t *z, size_t cap, size_t *zn)
{
    if (oneshot) {
        *zn = cap;
        return BrotliEncoderCompress(p->quality, p->lgwin, (BrotliEncoderMode)p->mode, len, in,
                                     zn, z) == BROTLI_TRUE;
    }
    return fg_brotli_compress(p, in, len, z, cap, zn) == 0;
}

static uint64_t roundtrip_run(const uint8_t *d, size_t n)
{
    if (n < HEADER)
        return fg_sig(0, n);
    const uint8_t *in = d + HEADER;
    size_t len = n - HEADER;
    int oneshot = d[0] >> 7;
    unsigned lgblock = d[1] / 15 % 10;
    fg_brotli_params p = {
        .quality = QUALITY[d[0] & 63],
        .lgwin = 10 + d[1] % 15,
        .mode = (d[2] >> 3 & 3) % 3,
        .size_hint = oneshot ? 0 : size_hint(d[2], len),
        .lgblock = oneshot || !lgblock ? 0 : 15 + (int)lgblock,
    };
    const char *api = oneshot ? "BrotliEncoderCompress" : "the stream API";
    size_t bound = BrotliEncoderMaxCompressedSize(len);
    FG_CHECK(bound >= len, "BrotliEncoderMaxCompressedSize(%zu) is %zu", len, bound);
    /* The one-shot call gets exactly the bound (it must fit); the stream API twice that,
     * so a stream past the bound is seen rather than refused. */
    size_t cap = oneshot ? bound : 2 * bound;
    uint8_t *z1 = malloc(cap), *z2 = malloc(cap);
    if (!z1 || !z2) {
        free(z1);
        free(z2);
        return fg_sig(0, 3);
    }
    size_t n1 = 0, n2 = 0;
    int ok = compress(oneshot, &p, in, len, z1, cap, &n1);
    FG_CHECK(ok, "%s fails on %zu bytes at quality %d, window %d (room %zu)", api, len,
             p.quality, p.lgwin, cap);
    if (oneshot || p.quality >= 2)
        FG_CHECK(n1 <= bound, "%s writes %zu bytes for %zu at quality %d, window %d, block %d, "
                 "hint %u: BrotliEncoderMaxCompressedSize says %zu",
                 api, n1, len, p.quality, p.lgwin, p.lgblock, (unsigned)p.size_hint, bound);
    ok = compress(oneshot, &p, in, len, z2, cap, &n2);
    FG_CHECK(ok && n1 == n2 && memcmp(z1, z2, n1) == 0,
             "%s compresses the same %zu bytes twice (quality %d, window %d) to different "
             "streams (%zu and %zu bytes)",
             api, len, p.quality, p.lgwin, n1, n2);
    free(z2);

    fg_brotli_result res;
    size_t at = 0;
    int same = fg_brotli_decodes_to(z1, n1, in, len, NULL, &res, &at);
    if (same < 0) {
        free(z1);
        return fg_sig(0, 4);
    }
    FG_CHECK(same, "%s's stream of %zu bytes (quality %d, window %d) decodes as %s to %zu of "
             "%zu bytes, the first wrong at %zu",
             api, n1, p.quality, p.lgwin, fg_brotli_status_name(res.status), res.produced, len,
             at);
    free(z1);

    unsigned ratio = n1 * 2 <= len ? 0 : n1 <= len ? 1 : 2;
    /* Zopfli's two qualities say only that and the ratio: a corpus holding many inputs
     * at 1 ms a case would spend the run on them. */
    if (p.quality >= 10)
        return fg_sig(10, ratio);
    uint64_t sig = fg_sig((uint64_t)p.quality, ratio);
    sig = fg_fold(sig, (uint64_t)oneshot | (uint64_t)(p.size_hint != 0) << 1);
    return fg_fold(sig, fg_bucket(len, 10));
}

/* One payload at every quality, through both APIs, at both window endpoints. */
static void roundtrip_seed(fg_seeds *seeds)
{
    static const char text[] = "round trip, round trip: the same bytes back, the same bytes";
    uint8_t buf[HEADER + sizeof text];
    memcpy(buf + HEADER, text, sizeof text - 1);
    for (unsigned q = 0; q < 12; q++) {
        unsigned pick = q < 10 ? q : q + 52; /* QUALITY[pick] == q */
        buf[0] = (uint8_t)(pick | (q & 1) << 7);
        buf[1] = (uint8_t)(q & 1 ? 0 : 14); /* window 10 or 24 */
        buf[2] = (uint8_t)(q % 8 | (q % 3) << 3);
        fg_seeds_add(seeds, buf, sizeof buf - 1);
    }
}

/* Peak live heap of a case, from Brotli 1.0.9's encoder on x86-64 over every quality,
 * window, block size and hint at up to 4 KiB of input: quality 9 with a window above 16
 * bits allocates its hasher (H5 or H6: 2^15 buckets of 2^8 four-byte entries and 2^15
 * counters, 33,619,968 bytes) whatever the input, beside some 8 KiB of state; the case also
 * holds two streams of twice the bound and a decode buffer. So: 34 MiB and 8 bytes per
 * input byte. (An allowance of 32 MiB is an amplification finding at that block within
 * 5,000 cases: the model is the real one.) */
static size_t roundtrip_allowance(size_t n)
{
    return ((size_t)34 << 20) + 8 * n;
}

FG_TARGET(brotli_roundtrip, .what = ROUNDTRIP_WHAT, .run = roundtrip_run,
          .seed = roundtrip_seed, .allowance = roundtrip_allowance,
          .max_len = HEADER + ROUNDTRIP_MAX_LEN)

#else /* !FG_HAVE_BROTLI */

FG_TARGET(brotli_roundtrip, .what = ROUNDTRIP_WHAT, .skip = FG_BROTLI_SKIP)

#endif
