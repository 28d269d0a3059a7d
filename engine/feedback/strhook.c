/* engine/feedback/strhook.c — the memcmp family interposed, for comparison feedback.
 *
 * Plain builds: memcmp, bcmp, strcmp, strncmp, strcasecmp, strncasecmp, strstr and memmem
 * are defined here, in the binary that links libfuzzgate, and forward to the C library's own (found with
 * dlsym(RTLD_NEXT) before main; a byte loop serves until then). After the call each one
 * reports to the sanitizers' hook of its name (sancov.h), as libFuzzer's interceptors do:
 * through a weak reference, which cmp.c's recorder fills. Nothing refers to this file, and
 * nothing needs to: it defines memcmp and friends, which the engine and the targets call,
 * so the linker takes it from the archive before it reaches the C library.
 *
 * Under AddressSanitizer or ThreadSanitizer, whose runtimes intercept these functions
 * themselves and call the same hooks, the file is empty. It is compiled with -fno-builtin so that the forwarders are
 * not turned back into calls to themselves.
 */
#include "engine/internal.h"

#include "engine/feedback/cmp.h"

#ifdef FGI_SAN_RUNTIME

#include <string.h>

int fgi_memcmp_quiet(const void *a, const void *b, size_t n)
{
    return memcmp(a, b, n); /* the sanitizer's interceptor: checked, and it calls the hook */
}

#else

#include "engine/feedback/sancov.h"

#include <dlfcn.h>
#include <string.h>
#include <strings.h>

#pragma weak __sanitizer_weak_hook_memcmp
#pragma weak __sanitizer_weak_hook_strncmp
#pragma weak __sanitizer_weak_hook_strcmp
#pragma weak __sanitizer_weak_hook_strcasecmp
#pragma weak __sanitizer_weak_hook_strncasecmp
#pragma weak __sanitizer_weak_hook_strstr
#pragma weak __sanitizer_weak_hook_memmem

/* Process-wide because these replace libc functions for the whole program; written once
 * by the constructor below, read by any thread. */
static struct {
    int (*memcmp)(const void *, const void *, size_t);
    int (*strcmp)(const char *, const char *);
    int (*strncmp)(const char *, const char *, size_t);
    int (*strcasecmp)(const char *, const char *);
    int (*strncasecmp)(const char *, const char *, size_t);
    int (*bcmp)(const void *, const void *, size_t);
    char *(*strstr)(const char *, const char *);
    void *(*memmem)(const void *, size_t, const void *, size_t);
} real;

__attribute__((constructor)) static void resolve(void)
{
    real.memcmp = (int (*)(const void *, const void *, size_t))dlsym(RTLD_NEXT, "memcmp");
    real.strcmp = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "strcmp");
    real.strncmp = (int (*)(const char *, const char *, size_t))dlsym(RTLD_NEXT, "strncmp");
    real.strcasecmp = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "strcasecmp");
    real.strncasecmp =
        (int (*)(const char *, const char *, size_t))dlsym(RTLD_NEXT, "strncasecmp");
    real.bcmp = (int (*)(const void *, const void *, size_t))dlsym(RTLD_NEXT, "bcmp");
    real.strstr = (char *(*)(const char *, const char *))dlsym(RTLD_NEXT, "strstr");
    real.memmem =
        (void *(*)(const void *, size_t, const void *, size_t))dlsym(RTLD_NEXT, "memmem");
}

/* The hooks' pc: the call site in the caller. */
#define CALLER __builtin_return_address(0)

/* Weak, as the malloc family in oracle/heap_malloc.c: in a dynamic link the program's
 * definition interposes whatever its binding; in a -static link libc.a's (pulled in for
 * another symbol of its object, such as bcmp) wins instead of failing the link, and
 * comparisons of uninstrumented code go unseen. */
#define INTERPOSED __attribute__((weak))

/* Byte loops for the moments before the constructor ran. */
static int loop_memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

static int loop_strncmp(const char *a, const char *b, size_t n, int fold)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (fold) {
            x = (unsigned char)(x >= 'A' && x <= 'Z' ? x + 32 : x);
            y = (unsigned char)(y >= 'A' && y <= 'Z' ? y + 32 : y);
        }
        if (x != y || !x)
            return x < y ? -1 : x > y;
    }
    return 0;
}

int fgi_memcmp_quiet(const void *a, const void *b, size_t n)
{
    return real.memcmp ? real.memcmp(a, b, n) : loop_memcmp(a, b, n);
}

INTERPOSED int memcmp(const void *a, const void *b, size_t n)
{
    int r = fgi_memcmp_quiet(a, b, n);
    if (__sanitizer_weak_hook_memcmp)
        __sanitizer_weak_hook_memcmp(CALLER, a, b, n, r);
    return r;
}

/* clang turns memcmp(...) == 0 into bcmp: the same comparison, reported as memcmp's (as
 * the sanitizers' own bcmp interceptor does). */
INTERPOSED int bcmp(const void *a, const void *b, size_t n)
{
    int r = real.bcmp ? real.bcmp(a, b, n) : loop_memcmp(a, b, n);
    if (__sanitizer_weak_hook_memcmp)
        __sanitizer_weak_hook_memcmp(CALLER, a, b, n, r);
    return r;
}

INTERPOSED int strcmp(const char *a, const char *b)
{
    int r = real.strcmp ? real.strcmp(a, b) : loop_strncmp(a, b, (size_t)-1, 0);
    if (__sanitizer_weak_hook_strcmp)
        __sanitizer_weak_hook_strcmp(CALLER, a, b, r);
    return r;
}

INTERPOSED int strncmp(const char *a, const char *b, size_t n)
{
    int r = real.strncmp ? real.strncmp(a, b, n) : loop_strncmp(a, b, n, 0);
    if (__sanitizer_weak_hook_strncmp)
        __sanitizer_weak_hook_strncmp(CALLER, a, b, n, r);
    return r;
}

INTERPOSED int strcasecmp(const char *a, const char *b)
{
    int r = real.strcasecmp ? real.strcasecmp(a, b) : loop_strncmp(a, b, (size_t)-1, 1);
    if (__sanitizer_weak_hook_strcasecmp)
        __sanitizer_weak_hook_strcasecmp(CALLER, a, b, r);
    return r;
}

INTERPOSED int strncasecmp(const char *a, const char *b, size_t n)
{
    int r = real.strncasecmp ? real.strncasecmp(a, b, n) : loop_strncmp(a, b, n, 1);
    if (__sanitizer_weak_hook_strncasecmp)
        __sanitizer_weak_hook_strncasecmp(CALLER, a, b, n, r);
    return r;
}

INTERPOSED char *strstr(const char *h, const char *n)
{
    char *r;
    if (real.strstr) {
        r = real.strstr(h, n);
    } else {
        size_t ln = 0;
        while (n[ln])
            ln++;
        r = NULL;
        for (const char *p = h; !r; p++) {
            if (loop_strncmp(p, n, ln, 0) == 0)
                r = (char *)p;
            if (!*p)
                break;
        }
    }
    if (__sanitizer_weak_hook_strstr)
        __sanitizer_weak_hook_strstr(CALLER, h, n, r);
    return r;
}

INTERPOSED void *memmem(const void *h, size_t hn, const void *n, size_t nn)
{
    void *r = NULL;
    if (real.memmem) {
        r = real.memmem(h, hn, n, nn);
    } else {
        for (size_t i = 0; nn <= hn && i <= hn - nn && !r; i++)
            if (loop_memcmp((const char *)h + i, n, nn) == 0)
                r = (char *)h + i;
    }
    if (__sanitizer_weak_hook_memmem)
        __sanitizer_weak_hook_memmem(CALLER, h, hn, n, nn, r);
    return r;
}

#endif
