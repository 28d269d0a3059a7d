/* test/outside/lf_heap.c — a libFuzzer harness with two heap bugs, for a sanitizer to see
 * and for the heap oracles to see, built outside the tree against the installed fuzzgate.
 *
 * "O...": a one-byte heap overflow, which AddressSanitizer reports (heap-buffer-overflow)
 * where the block came from its own allocator, and glibc notices only later, if at all.
 * "L...": a block left allocated, which the heap retention oracle reports.
 * Anything else: a block allocated and freed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the leaked block goes: reachable, so a leak checker run at exit does not count it,
 * but allocated during the case and not freed by its end. */
static void *volatile kept;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *volatile p = malloc(16);
    if (!p)
        return 0;
    memset(p, 0, 16);
    if (size > 0 && data[0] == 'O')
        p[16] = (char)data[size - 1]; /* one past the end */
    if (size > 0 && data[0] == 'L') {
        kept = p;
        return 0;
    }
    free(p);
    return 0;
}
