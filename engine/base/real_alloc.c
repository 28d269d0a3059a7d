/* engine/base/real_alloc.c — the real allocator in libfuzzgate: the C library's own entry
 * points, or a sanitizer runtime's (real_alloc.h says why, and names the sibling back end). */
#include "engine/base/real_alloc.h"

#include <dlfcn.h>
#include <stdio.h>

void *fgi_real_malloc(size_t size)
{
    return FGI_REAL(malloc)(size);
}

void *fgi_real_calloc(size_t n, size_t size)
{
    return FGI_REAL(calloc)(n, size);
}

void *fgi_real_realloc(void *p, size_t size)
{
    return FGI_REAL(realloc)(p, size);
}

void fgi_real_free(void *p)
{
    FGI_REAL(free)(p);
}

#ifdef FGI_SAN_RUNTIME
size_t fgi_real_usable(void *b)
{
    return FGI_REAL(malloc_usable_size)(b);
}
#else
/* glibc exports malloc_usable_size under no other name. The next definition after this
 * program's own (the interposed one) is found the way __libc_malloc was bound — the C
 * library's, or a preloaded allocator's that defines both — so the two always belong
 * together. Looked up at the heap oracle's first arm, before any block has a header (in a
 * -static link there is none to find, nor any headed block: the interposed family is not
 * the program's there). Process-wide: written once, before any headed block; read by any
 * thread. */
size_t (*_Atomic fgi_real_libc_usable)(void *);

void fgi_real_lookup_usable(void)
{
    atomic_store_explicit(&fgi_real_libc_usable,
                          (size_t(*)(void *))dlsym(RTLD_NEXT, "malloc_usable_size"),
                          memory_order_relaxed);
}

size_t fgi_real_usable(void *b)
{
    if (FGI_REAL_UNDER_ASAN)
        return __interceptor_malloc_usable_size(b);
    fgi_real_find_usable();
    size_t (*fn)(void *) = atomic_load_explicit(&fgi_real_libc_usable, memory_order_relaxed);
    if (!fn) {
        fputs("fuzzgate: the C library's malloc_usable_size cannot be found\n", stderr);
        abort();
    }
    return fn(b);
}
#endif
