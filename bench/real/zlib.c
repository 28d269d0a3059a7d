/* bench/real/zlib.c — zlib's inflate over the input (zlib or gzip header, auto-detected). */
#include "harness.h"

#include <zlib.h>

#define OUT_CAP (1u << 20) /* output a case may produce; arbitrary, past every seed */

int bench_real_one(const uint8_t *data, size_t size)
{
    static unsigned char out[32768];
    z_stream z = {0};
    if (inflateInit2(&z, 15 + 32) != Z_OK)
        return 0;
    z.next_in = (unsigned char *)data;
    z.avail_in = (uInt)size;
    unsigned long total = 0;
    int rc;
    do {
        z.next_out = out;
        z.avail_out = sizeof out;
        rc = inflate(&z, Z_NO_FLUSH);
        total += sizeof out - z.avail_out;
    } while (rc == Z_OK && z.avail_out == 0 && total < OUT_CAP);
    inflateEnd(&z);
    return 0;
}
