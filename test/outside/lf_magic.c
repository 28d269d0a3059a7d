/* test/outside/lf_magic.c — a libFuzzer harness whose two planted bugs sit behind the
 * comparisons clang -O2 expands inline when it may: an 8-byte memcmp magic and a strcmp
 * keyword. Built outside the tree from the installed module's flags alone (pkg-config
 * fuzzgate-libfuzzer), the engine must still see both comparisons and find both bugs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 9 && data[0] == 'M' && memcmp(data + 1, "\x8aZgM4g1c", 8) == 0)
        abort(); /* the memcmp magic */
    char word[32];
    if (size < 2 || data[0] != 'K' || size - 1 >= sizeof word)
        return 0;
    memcpy(word, data + 1, size - 1);
    word[size - 1] = '\0';
    if (strcmp(word, "frobnicate") == 0)
        __builtin_trap(); /* the strcmp keyword */
    return 0;
}
