/* bench/real/brotli.c — Brotli's streaming decoder over the input. */
#include "harness.h"

#include <brotli/decode.h>

#define OUT_CAP (1u << 20) /* output a case may produce; arbitrary, past every seed */

int bench_real_one(const uint8_t *data, size_t size)
{
    static uint8_t out[32768];
    BrotliDecoderState *s = BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (!s)
        return 0;
    size_t avail_in = size, total = 0;
    const uint8_t *next_in = data;
    BrotliDecoderResult rc;
    do {
        size_t avail_out = sizeof out;
        uint8_t *next_out = out;
        rc = BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out,
                                           NULL);
        total += sizeof out - avail_out;
    } while (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT && total < OUT_CAP);
    BrotliDecoderDestroyInstance(s);
    return 0;
}
