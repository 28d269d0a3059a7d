/* test/outside/real/brotli_decode.c — a libFuzzer harness over the system Brotli decoder (for
 * run.sh: the six real libraries under fuzzgate's libFuzzer driver). */
#include <brotli/decode.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    BrotliDecoderState *s = BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (!s)
        return 0;
    size_t avail_in = size, total = 0;
    const uint8_t *next_in = data;
    uint8_t out[16384];
    BrotliDecoderResult rc = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT;
    while (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT && total < (1u << 20)) {
        size_t avail_out = sizeof out;
        uint8_t *next_out = out;
        rc = BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out,
                                           &total);
    }
    BrotliDecoderDestroyInstance(s);
    return 0;
}
