/* examples/cmake/lf_b64.c — an LLVMFuzzerTestOneInput harness, as a project that already fuzzes
 * with libFuzzer has one: fuzzgate_add_libfuzzer builds it with fuzzgate's libFuzzer driver
 * and makes a CTest test of a bounded, seeded run over corpus/b64_lf/. */
#include "b64.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* decode, and when the text is accepted, encode back: the same text. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return -1; /* fg_reject: longer inputs are not worth keeping */
    uint8_t *out = malloc(size + 1);
    char *text = malloc(size + 2);
    if (!out || !text)
        abort();
    long d = b64_decode((const char *)data, size, out, size);
    if (d >= 0) {
        size_t n = b64_encode(out, (size_t)d, text);
        if (n != size || memcmp(text, data, size) != 0)
            abort();
    }
    free(out);
    free(text);
    return 0;
}
