/* engine/feedback/strhook.c — the memcmp family observed for comparison feedback.
 *
 * Plain builds: memcmp, bcmp, strcmp, strncmp, strcasecmp, strncasecmp, strstr and memmem
 * are interposed in
 * the binary that links libfuzzgate and forward to the C library's own (found with
 * dlsym(RTLD_NEXT) before main; a byte loop serves until then). Under AddressSanitizer,
 * which owns these functions, its weak hooks are defined instead. Either way operands are
 * recorded only while a case runs. This file is compiled with -fno-builtin so that the
 * forwarders are not turned back into calls to themselves.
 */
#include "engine/feedback/cmp.h"

#include <dlfcn.h>
#include <string.h>
#include <strings.h>

/* Referenced by cmp.c so this object is always linked: under ASan nothing else names it
 * (the runtime has weak default hooks of its own), and the archive member would be
 * dropped with every hook in it. */
void fgi_strhook_link(void)
{
}

static size_t bounded_len(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

static void note_strings(const char *a, const char *b, size_t max)
{
    fgi_cmp_note_bytes(a, bounded_len(a, max), b, bounded_len(b, max));
}

#ifdef FGI_ASAN

void __sanitizer_weak_hook_memcmp(void *pc, const void *a, const void *b, size_t n, int r);
void __sanitizer_weak_hook_strncmp(void *pc, const char *a, const char *b, size_t n, int r);
void __sanitizer_weak_hook_strcmp(void *pc, const char *a, const char *b, int r);
void __sanitizer_weak_hook_strcasecmp(void *pc, const char *a, const char *b, int r);
void __sanitizer_weak_hook_strncasecmp(void *pc, const char *a, const char *b, size_t n,
                                       int r);
void __sanitizer_weak_hook_strstr(void *pc, const char *h, const char *n, char *r);
void __sanitizer_weak_hook_memmem(void *pc, const void *h, size_t hn, const void *n,
                                  size_t nn, void *r);

void __sanitizer_weak_hook_memcmp(void *pc, const void *a, const void *b, size_t n, int r)
{
    (void)pc;
    if (r)
        fgi_cmp_note_bytes(a, n, b, n);
}

void __sanitizer_weak_hook_strncmp(void *pc, const char *a, const char *b, size_t n, int r)
{
    (void)pc;
    if (r)
        note_strings(a, b, n);
}

void __sanitizer_weak_hook_strcmp(void *pc, const char *a, const char *b, int r)
{
    (void)pc;
    if (r)
        note_strings(a, b, FGI_CMP_STR_MAX);
}

void __sanitizer_weak_hook_strcasecmp(void *pc, const char *a, const char *b, int r)
{
    (void)pc;
    if (r)
        note_strings(a, b, FGI_CMP_STR_MAX);
}

void __sanitizer_weak_hook_strncasecmp(void *pc, const char *a, const char *b, size_t n,
                                       int r)
{
    (void)pc;
    if (r)
        note_strings(a, b, n < FGI_CMP_STR_MAX ? n : FGI_CMP_STR_MAX);
}

void __sanitizer_weak_hook_strstr(void *pc, const char *h, const char *n, char *r)
{
    (void)pc;
    if (!r)
        note_strings(h, n, FGI_CMP_STR_MAX);
}

void __sanitizer_weak_hook_memmem(void *pc, const void *h, size_t hn, const void *n,
                                  size_t nn, void *r)
{
    (void)pc;
    if (!r)
        fgi_cmp_note_bytes(h, hn, n, nn);
}

#else

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

int memcmp(const void *a, const void *b, size_t n)
{
    int r = real.memcmp ? real.memcmp(a, b, n) : loop_memcmp(a, b, n);
    if (r)
        fgi_cmp_note_bytes(a, n, b, n);
    return r;
}

/* clang turns memcmp(...) == 0 into bcmp: the same comparison, heard the same way. */
int bcmp(const void *a, const void *b, size_t n)
{
    int r = real.bcmp ? real.bcmp(a, b, n) : loop_memcmp(a, b, n);
    if (r)
        fgi_cmp_note_bytes(a, n, b, n);
    return r;
}

int strcmp(const char *a, const char *b)
{
    int r = real.strcmp ? real.strcmp(a, b) : loop_strncmp(a, b, (size_t)-1, 0);
    if (r)
        note_strings(a, b, FGI_CMP_STR_MAX);
    return r;
}

int strncmp(const char *a, const char *b, size_t n)
{
    int r = real.strncmp ? real.strncmp(a, b, n) : loop_strncmp(a, b, n, 0);
    if (r)
        note_strings(a, b, n < FGI_CMP_STR_MAX ? n : FGI_CMP_STR_MAX);
    return r;
}

int strcasecmp(const char *a, const char *b)
{
    int r = real.strcasecmp ? real.strcasecmp(a, b) : loop_strncmp(a, b, (size_t)-1, 1);
    if (r)
        note_strings(a, b, FGI_CMP_STR_MAX);
    return r;
}

int strncasecmp(const char *a, const char *b, size_t n)
{
    int r = real.strncasecmp ? real.strncasecmp(a, b, n) : loop_strncmp(a, b, n, 1);
    if (r)
        note_strings(a, b, n < FGI_CMP_STR_MAX ? n : FGI_CMP_STR_MAX);
    return r;
}

char *strstr(const char *h, const char *n)
{
    char *r;
    if (real.strstr) {
        r = real.strstr(h, n);
    } else {
        size_t ln = bounded_len(n, (size_t)-1);
        r = NULL;
        for (const char *p = h; !r; p++) {
            if (loop_strncmp(p, n, ln, 0) == 0)
                r = (char *)p;
            if (!*p)
                break;
        }
    }
    if (!r)
        note_strings(h, n, FGI_CMP_STR_MAX);
    return r;
}

void *memmem(const void *h, size_t hn, const void *n, size_t nn)
{
    void *r = NULL;
    if (real.memmem) {
        r = real.memmem(h, hn, n, nn);
    } else {
        for (size_t i = 0; nn <= hn && i <= hn - nn && !r; i++)
            if (loop_memcmp((const char *)h + i, n, nn) == 0)
                r = (char *)h + i;
    }
    if (!r)
        fgi_cmp_note_bytes(h, hn, n, nn);
    return r;
}

#endif
