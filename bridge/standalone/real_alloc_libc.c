/* bridge/standalone/real_alloc_libc.c — the real allocator on plain malloc, for engine code
 * that a target tests (the options parser, for targets/options.c) built into a libFuzzer or
 * AFL++ binary without the interposing heap oracle: the sibling of engine/base/real_alloc.c
 * behind engine/base/real_alloc.h. */
#include "engine/base/real_alloc.h"

#include <malloc.h>
#include <stdlib.h>

void *fgi_real_malloc(size_t size)
{
    return malloc(size);
}

void *fgi_real_calloc(size_t n, size_t size)
{
    return calloc(n, size);
}

void *fgi_real_realloc(void *p, size_t size)
{
    return realloc(p, size);
}

void fgi_real_free(void *p)
{
    free(p);
}

size_t fgi_real_usable(void *b)
{
    return malloc_usable_size(b);
}
