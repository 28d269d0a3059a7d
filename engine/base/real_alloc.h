/* engine/base/real_alloc.h — the real allocator: where the engine's memory and the heap
 * oracle's blocks come from, underneath the malloc family fuzzgate interposes.
 *
 * Build-time alternatives behind the same functions, as Redis's ae_epoll.c and ae_kqueue.c:
 *   - engine/base/real_alloc.c, in libfuzzgate: in a plain build glibc's own entry points
 *     (__libc_malloc and friends, exported for exactly this); under AddressSanitizer or
 *     ThreadSanitizer, the runtime's interceptors (__interceptor_malloc and friends), so the
 *     sanitizer still owns every byte and the heap oracle still sees every call;
 *   - bridge/standalone/real_alloc_libc.c, for engine code that a target tests built into a
 *     libFuzzer or AFL++ binary, where no heap oracle interposes: plain malloc.
 * Nothing here knows of the layers above: the memory funnel (mem.c) and the interposed
 * family (oracle/heap_malloc.c) call down into it.
 */
#ifndef FG_REAL_ALLOC_H
#define FG_REAL_ALLOC_H

#include "engine/internal.h"

#include <stdatomic.h>

/* The entry point itself, for the interposed family's hot path, which calls it with no
 * function between (libfuzzgate only: the Makefile defines FGI_ASAN for the objects that
 * call it without ASan instrumentation; internal.h says when FGI_SAN_RUNTIME is on).
 *
 * A plain build chooses at run time: the sanitizer's interceptors when the program runs
 * under AddressSanitizer, else glibc's. gcc links its ASan runtime as a shared library,
 * loaded after the program, so a plain libfuzzgate's malloc family is the program's there
 * (the runtime's does not interpose it); handing its blocks to glibc left every heap
 * overflow and use-after-free out of ASan's sight. The weak references are the runtime's
 * own names, filled when one is loaded: the test is one load, and the same for the whole
 * life of the process. (Under clang the runtime is linked into the program and its family
 * wins: only the engine's own memory comes here, from the runtime's allocator too. Under
 * ThreadSanitizer a block may begin a mapping, which fgi_heap_headed would read before:
 * its interceptors are taken only by a build made for it.) */
#define FGI_REAL_DECLARE(attr, prefix)                                                     \
    void *prefix##malloc(size_t size) attr;                                                \
    void prefix##free(void *p) attr;                                                       \
    void *prefix##calloc(size_t n, size_t size) attr;                                      \
    void *prefix##realloc(void *p, size_t size) attr;                                      \
    void *prefix##memalign(size_t align, size_t size) attr;                                \
    size_t prefix##malloc_usable_size(void *p) attr;

#ifdef FGI_SAN_RUNTIME
#define FGI_REAL(name) __interceptor_##name
FGI_REAL_DECLARE(, __interceptor_)
#else
FGI_REAL_DECLARE(, __libc_)
FGI_REAL_DECLARE(__attribute__((weak)), __interceptor_)
extern void __asan_init(void) __attribute__((weak));
/* 1 when the program runs under AddressSanitizer (its runtime is loaded). */
#define FGI_REAL_UNDER_ASAN (__asan_init != NULL && __interceptor_malloc != NULL)
#define FGI_REAL(name) (FGI_REAL_UNDER_ASAN ? __interceptor_##name : __libc_##name)
#endif
#undef FGI_REAL_DECLARE

/* The engine's own allocator: no accounting, never refused. NULL when out of memory. */
FGI_HIDDEN void *fgi_real_malloc(size_t size);
FGI_HIDDEN void *fgi_real_calloc(size_t n, size_t size);
FGI_HIDDEN void *fgi_real_realloc(void *p, size_t size);
FGI_HIDDEN void fgi_real_free(void *p);

/* The bytes the program may use in the real allocator's block b (its malloc_usable_size).
 * Aborts when the C library's cannot be found (it always can where the interposed family
 * is the program's). */
FGI_HIDDEN size_t fgi_real_usable(void *b);

/* Looks up what fgi_real_usable calls (dlsym, which may allocate), unless that is done:
 * call it before any headed block exists and while no call of the malloc family is under
 * way — the heap oracle does at every arm, so after the first it is one load, inlined. */
#ifdef FGI_SAN_RUNTIME
static inline void fgi_real_find_usable(void)
{
}
#else
FGI_HIDDEN extern size_t (*_Atomic fgi_real_libc_usable)(void *);
FGI_HIDDEN void fgi_real_lookup_usable(void);

static inline void fgi_real_find_usable(void)
{
    if (!atomic_load_explicit(&fgi_real_libc_usable, memory_order_relaxed))
        fgi_real_lookup_usable();
}
#endif

#endif
