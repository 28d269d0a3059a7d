/* examples/cmake/fuzz_b64.c — the library's fuzz targets, two in one binary: fuzzgate_add_target
 * makes a CTest test of each (b64_fuzz.b64_roundtrip, b64_fuzz.b64_decode), which replays
 * corpus/<target>/ and then runs the gate's generated cases. */
#include "b64.h"

#include <fuzzgate.h>
#include <stdlib.h>
#include <string.h>

/* encode, then decode: the bytes come back exactly. */
static uint64_t roundtrip_run(const uint8_t *data, size_t size)
{
    char *text = malloc(b64_encoded_len(size) + 1);
    uint8_t *back = malloc(size + 1);
    FG_CHECK(text && back, "out of memory");
    size_t n = b64_encode(data, size, text);
    long d = b64_decode(text, n, back, size);
    int same = n == b64_encoded_len(size) && d == (long)size && memcmp(back, data, size) == 0;
    free(text);
    free(back);
    FG_CHECK(same, "decode(encode(x)) != x for %zu bytes (decoded %ld)", size, d);
    return fg_sig(size % 3, fg_bucket(size, 8));
}
FG_TARGET(b64_roundtrip, .run = roundtrip_run, .what = "b64: encode then decode",
          .max_len = 256)

/* decode untrusted text: never more than the room given, and what it accepts re-encodes to
 * the same text (the decoder is strict). */
static uint64_t decode_run(const uint8_t *data, size_t size)
{
    uint8_t out[96];
    char text[129]; /* b64_encoded_len(96) + 1 */
    long d = b64_decode((const char *)data, size, out, sizeof out);
    FG_CHECK(d <= (long)sizeof out, "decoded %ld bytes into %zu", d, sizeof out);
    if (d < 0)
        return fg_sig(0, fg_bucket(size, 8));
    size_t n = b64_encode(out, (size_t)d, text);
    FG_CHECK(n == size && memcmp(text, data, size) == 0,
             "%zu characters decoded to %ld bytes that encode to %zu other characters", size, d,
             n);
    return fg_sig(1 + (size_t)d % 3, fg_bucket((uint64_t)d, 8));
}
FG_TARGET(b64_decode, .run = decode_run, .what = "b64: decode untrusted text",
          .max_len = 160)
