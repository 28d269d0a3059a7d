/* bridge/standalone/heap_libc.c — the engine's allocator funnel on plain malloc, for engine
 * code that a target tests (the options parser, for targets/options.c) built into a
 * libFuzzer binary without the interposing heap oracle. */
#include "oracle/heap.h"

#include <stdlib.h>

void *fgi_heap_real_malloc(size_t size)
{
    return malloc(size);
}

void *fgi_heap_real_calloc(size_t n, size_t size)
{
    return calloc(n, size);
}

void *fgi_heap_real_realloc(void *p, size_t size)
{
    return realloc(p, size);
}

void fgi_heap_real_free(void *p)
{
    free(p);
}
