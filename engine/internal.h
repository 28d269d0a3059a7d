/* engine/internal.h — declarations shared across the engine's files, never installed.
 *
 * Three tiers of names: fg_ (public, include/fuzzgate.h), fgi_ (engine-internal, hidden
 * visibility so they cannot collide with a host binary's symbols), and static helpers.
 */
#ifndef FG_INTERNAL_H
#define FG_INTERNAL_H

#include "fuzzgate.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FGI_HIDDEN __attribute__((visibility("hidden")))

/* FGI_ASAN: this object is part of an AddressSanitizer build. The Makefile defines it for
 * the files it compiles without ASan instrumentation (the heap oracle's, HEAP_OBJ). */
#if !defined(FGI_ASAN) && defined(__SANITIZE_ADDRESS__)
#define FGI_ASAN 1
#elif !defined(FGI_ASAN) && defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FGI_ASAN 1
#endif
#endif

/* FGI_TSAN: this object is part of a ThreadSanitizer build (SANITIZE=thread). The Makefile
 * defines it for the real allocator (engine/base/real_alloc.c), compiled without TSan. */
#if !defined(FGI_TSAN) && defined(__SANITIZE_THREAD__)
#define FGI_TSAN 1
#elif !defined(FGI_TSAN) && defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FGI_TSAN 1
#endif
#endif

/* FGI_SAN_RUNTIME: a sanitizer runtime intercepts the C library's malloc and memcmp
 * families (ASan's and TSan's both do, by the same names): the real allocator is its
 * __interceptor_ family, so it still owns every block, and it calls the comparison hooks
 * itself. */
#if defined(FGI_ASAN) || defined(FGI_TSAN)
#define FGI_SAN_RUNTIME 1
#endif

/* Engine invariant: on in every build (make check included); a failure is an engine bug. */
#define FG_ASSERT(c)                                                                       \
    ((c) ? (void)0 : fgi_assert_fail(__FILE__, __LINE__, #c))
FGI_HIDDEN FG_NORETURN void fgi_assert_fail(const char *file, int line, const char *cond);

/* fg_strerror, except that FG_EIO names its cause, strerror(errno): a file function that
 * returns FG_EIO leaves errno saying why (ENOENT, EACCES, ENOSPC...), so call this before
 * anything else can change errno — as an argument of the fprintf that reports it. */
FGI_HIDDEN const char *fgi_strerror_io(fg_error err);

#define FGI_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define FGI_MIN(a, b) ((a) < (b) ? (a) : (b))
#define FGI_MAX(a, b) ((a) > (b) ? (a) : (b))

/* The default longest generated input when a target sets no max_len. Arbitrary: long
 * enough for headers plus a few records, short enough that cases stay fast. */
#define FGI_DEFAULT_MAX_LEN 4096

/* ---- engine memory funnel (mem.c) -------------------------------------------------- */
/* Every engine allocation goes through here, never through the target-visible malloc
 * family, so the heap oracles never count the engine and tests can fail the N-th one. */
FGI_HIDDEN void *fgi_malloc(size_t size);
FGI_HIDDEN void *fgi_calloc(size_t n, size_t size);
FGI_HIDDEN void *fgi_realloc(void *p, size_t size);
FGI_HIDDEN void fgi_free(void *p);
FGI_HIDDEN char *fgi_strdup(const char *s);
FGI_HIDDEN void *fgi_memdup(const void *p, size_t size);
/* Fault injection (tests): the n-th allocation from now fails (0 = never). Returns the
 * number of allocations made since the last call. */
FGI_HIDDEN unsigned long fgi_mem_fail_nth(unsigned long n);

/* A growable text buffer on the funnel. `failed` sticks once an allocation fails, so a
 * caller may build a whole string and check once. */
typedef struct fgi_str {
    char *buf;  /* NUL-terminated when len > 0 or after fgi_str_cstr */
    size_t len; /* bytes used, excluding the NUL */
    size_t cap; /* bytes allocated */
    int failed; /* an append ran out of memory */
} fgi_str;
FGI_HIDDEN void fgi_str_add(fgi_str *s, const char *text);
FGI_HIDDEN void fgi_str_addn(fgi_str *s, const char *text, size_t n);
FGI_HIDDEN void fgi_str_addf(fgi_str *s, const char *fmt, ...) FG_PRINTF(2, 3);
FGI_HIDDEN const char *fgi_str_cstr(fgi_str *s); /* "" if empty or failed */
FGI_HIDDEN char *fgi_str_take(fgi_str *s);       /* ownership to caller; NULL if failed */
FGI_HIDDEN void fgi_str_free(fgi_str *s);

/* ---- hashing (hash.c) -------------------------------------------------------------- */
/* FNV-1a 64 over bytes, then fg_mix64: stable across machines and runs (no hash seed). */
FGI_HIDDEN uint64_t fgi_hash_bytes(const void *data, size_t size);
FGI_HIDDEN uint64_t fgi_hash_str(const char *s);

#endif
