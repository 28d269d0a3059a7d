/* bench/empty_libfuzzer.c — the same empty body as bench/empty.c, as a libFuzzer target. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    (void)d;
    (void)n;
    return 0;
}
