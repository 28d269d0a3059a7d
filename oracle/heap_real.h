/* oracle/heap_real.h — the allocator underneath the interposed malloc family.
 *
 * Build-time alternatives behind the same names: in a plain build, glibc's own entry
 * points (__libc_malloc and friends, exported for exactly this); under AddressSanitizer,
 * its interceptors (__interceptor_malloc and friends), so ASan still owns every byte and
 * the oracle still sees every call. Static inline: these sit on the hottest path.
 */
#ifndef FG_HEAP_REAL_H
#define FG_HEAP_REAL_H

#include "engine/internal.h"

#ifdef FGI_ASAN
#define FGI_REAL(name) __interceptor_##name
#else
#define FGI_REAL(name) __libc_##name
#endif

void *FGI_REAL(malloc)(size_t size);
void FGI_REAL(free)(void *p);
void *FGI_REAL(calloc)(size_t n, size_t size);
void *FGI_REAL(realloc)(void *p, size_t size);
void *FGI_REAL(memalign)(size_t align, size_t size);
void *FGI_REAL(valloc)(size_t size);
void *FGI_REAL(pvalloc)(size_t size);

#endif
