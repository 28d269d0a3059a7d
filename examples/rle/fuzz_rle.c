/* examples/rle/fuzz_rle.c — the library's fuzz targets. Linked into the library's own
 * test binary as an object (never from an archive: nothing references a target, so the
 * linker would drop it). */
#include "rle.h"

#include <fuzzgate.h>
#include <stdlib.h>
#include <string.h>

/* encode, then decode: the bytes come back exactly. */
static uint64_t roundtrip_run(const uint8_t *data, size_t size)
{
    uint8_t *enc = malloc(2 * size + 1), *dec = malloc(size + 1);
    FG_CHECK(enc && dec, "out of memory");
    long e = rle_encode(data, size, enc, 2 * size + 1);
    FG_CHECK(e >= 0, "encoding %zu bytes did not fit in %zu", size, 2 * size + 1);
    long d = rle_decode(enc, (size_t)e, dec, size + 1);
    int same = d == (long)size && memcmp(dec, data, size) == 0;
    free(enc);
    free(dec);
    FG_CHECK(same, "decode(encode(x)) != x for %zu bytes (decoded %ld)", size, d);
    return fg_sig(fg_bucket((uint64_t)e / 2, 8), size ? data[0] % 4 : 9);
}
FG_TARGET(rle_roundtrip, .run = roundtrip_run, .what = "rle: encode then decode",
          .max_len = 256)

/* decode arbitrary bytes: never more than the capacity, and a success re-encodes. */
static uint64_t decode_run(const uint8_t *data, size_t size)
{
    uint8_t out[512];
    long d = rle_decode(data, size, out, sizeof out);
    FG_CHECK(d <= (long)sizeof out, "decoded %ld bytes into %zu", d, sizeof out);
    return fg_sig(d < 0, fg_bucket(d < 0 ? 0 : (uint64_t)d, 10));
}
FG_TARGET(rle_decode, .run = decode_run, .what = "rle: decode untrusted bytes",
          .max_len = 128)
