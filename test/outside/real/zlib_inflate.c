/* test/outside/real/zlib_inflate.c — a libFuzzer harness over the system zlib's inflate, as a
 * user writes one (for run.sh: the six real libraries under fuzzgate's libFuzzer driver). */
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    z_stream s = {0};
    if (inflateInit2(&s, 15 + 32) != Z_OK) /* zlib or gzip, detected */
        return 0;
    unsigned char out[16384];
    s.next_in = (Bytef *)data;
    s.avail_in = (uInt)size;
    for (int i = 0; i < 64; i++) { /* at most 1 MiB of output */
        s.next_out = out;
        s.avail_out = sizeof out;
        int rc = inflate(&s, Z_NO_FLUSH);
        if (rc != Z_OK)
            break;
    }
    inflateEnd(&s);
    return 0;
}
