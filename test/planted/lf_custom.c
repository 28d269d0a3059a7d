/* test/planted/lf_custom.c — a libFuzzer harness whose input is a little structure only its own
 * LLVMFuzzerCustomMutator writes well: "MAGICHDR" (8 bytes, compared as one integer, which
 * byte mutation of an uninstrumented build does not find) then a count byte. The bug: a
 * count of 0xee behind the header. The custom mutator keeps the header and draws the count;
 * so the bug is found only when the driver really calls it (built into build/test-lf-custom).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static const char header[8] = {'M', 'A', 'G', 'I', 'C', 'H', 'D', 'R'};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t h, want;
    if (size < 9)
        return 0;
    memcpy(&h, data, 8);
    memcpy(&want, header, 8);
    if (h == want && data[8] == 0xee)
        abort();
    return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    if (max_size < 9)
        return LLVMFuzzerMutate(data, size, max_size);
    memcpy(data, header, 8);
    data[8] = (uint8_t)(seed >> 3);
    return 9;
}
