/* examples/rle/rle.c — the run-length codec. Built with -DRLE_PLANTED_BUG it has the bug
 * the example's fuzz test exists to catch: a run of exactly three is written as two. */
#include "rle.h"

long rle_encode(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t run = 1;
        while (i + run < n && in[i + run] == in[i] && run < 255)
            run++;
        if (o + 2 > cap)
            return -1;
#ifdef RLE_PLANTED_BUG
        out[o] = (uint8_t)(run == 3 ? 2 : run);
#else
        out[o] = (uint8_t)run;
#endif
        out[o + 1] = in[i];
        o += 2;
        i += run;
    }
    return (long)o;
}

long rle_decode(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    if (n % 2)
        return -1;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 2) {
        size_t run = in[i];
        if (run == 0 || o + run > cap)
            return -1;
        for (size_t k = 0; k < run; k++)
            out[o + k] = in[i + 1];
        o += run;
    }
    return (long)o;
}
