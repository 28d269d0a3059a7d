/* bench/real/empty.c — the empty harness: what each engine costs a case on its own. */
#include "harness.h"

int bench_real_one(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return 0;
}
