/* engine/base/mem.c — the engine's memory funnel, with fault injection for tests. */
#include "engine/internal.h"

#include "engine/base/clocale.h"
#include "engine/base/errout.h"
#include "engine/base/real_alloc.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>

/* Process-wide because every engine module allocates and the counter must be one count.
 * The engine allocates from the run thread only (the watchdog and signal handlers never
 * allocate), but a test may drive engine code from two threads (test_wire.c's writer and
 * reader), so the fields are relaxed atomics: a load and a store each, plain moves, no
 * locked add. Concurrent counts may be lost; the injection is armed single-threaded. */
static struct {
    _Atomic unsigned long calls;   /* allocations since the last fgi_mem_fail_nth */
    _Atomic unsigned long fail_at; /* the call number that fails; 0 = none */
} mem;

#define LOAD(f) atomic_load_explicit(&mem.f, memory_order_relaxed)
#define STORE(f, v) atomic_store_explicit(&mem.f, (v), memory_order_relaxed)

unsigned long fgi_mem_fail_nth(unsigned long n)
{
    unsigned long calls = LOAD(calls);
    STORE(calls, 0);
    STORE(fail_at, n);
    return calls;
}

static int injected_failure(void)
{
    unsigned long calls = LOAD(calls) + 1, at = LOAD(fail_at);
    STORE(calls, calls);
    if (at != 0 && calls == at) {
        STORE(fail_at, 0);
        return 1;
    }
    return 0;
}

void *fgi_malloc(size_t size)
{
    if (injected_failure())
        return NULL;
    return fgi_real_malloc(size ? size : 1);
}

void *fgi_calloc(size_t n, size_t size)
{
    if (injected_failure())
        return NULL;
    return fgi_real_calloc(n ? n : 1, size ? size : 1);
}

void *fgi_realloc(void *p, size_t size)
{
    if (injected_failure())
        return NULL;
    return fgi_real_realloc(p, size ? size : 1);
}

void fgi_free(void *p)
{
    fgi_real_free(p);
}

void *fgi_memdup(const void *p, size_t size)
{
    void *q = fgi_malloc(size);
    if (q && size)
        memcpy(q, p, size);
    return q;
}

char *fgi_strdup(const char *s)
{
    return fgi_memdup(s, strlen(s) + 1);
}

void fgi_assert_fail(const char *file, int line, const char *cond)
{
    fprintf(fgi_errout_file(), "fuzzgate: engine assertion failed at %s:%d: %s\n", file, line,
            cond);
    abort();
}

/* ---- fgi_str ------------------------------------------------------------------------ */

static int str_reserve(fgi_str *s, size_t more)
{
    if (s->failed)
        return 0;
    if (s->len + more + 1 <= s->cap)
        return 1;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < s->len + more + 1)
        cap *= 2;
    char *buf = fgi_realloc(s->buf, cap);
    if (!buf) {
        s->failed = 1;
        return 0;
    }
    s->buf = buf;
    s->cap = cap;
    return 1;
}

void fgi_str_addn(fgi_str *s, const char *text, size_t n)
{
    if (!str_reserve(s, n))
        return;
    if (n) /* text may be NULL for nothing (an empty input's bytes) */
        memcpy(s->buf + s->len, text, n);
    s->len += n;
    s->buf[s->len] = '\0';
}

void fgi_str_add(fgi_str *s, const char *text)
{
    fgi_str_addn(s, text, strlen(text));
}

void fgi_str_addf(fgi_str *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    locale_t old = fgi_c_locale_begin(); /* "%.3f" writes a '.' whatever setlocale said */
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        s->failed = 1;
    } else if ((size_t)n < sizeof small) {
        fgi_str_addn(s, small, (size_t)n);
    } else if (str_reserve(s, (size_t)n)) {
        va_start(ap, fmt);
        vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
        s->len += (size_t)n;
    }
    fgi_c_locale_end(old);
}

const char *fgi_str_cstr(fgi_str *s)
{
    return (s->failed || !s->buf) ? "" : s->buf;
}

char *fgi_str_take(fgi_str *s)
{
    char *out = NULL;
    if (!s->failed) {
        out = s->buf ? s->buf : fgi_strdup("");
        s->buf = NULL;
    }
    fgi_str_free(s);
    return out;
}

void fgi_str_free(fgi_str *s)
{
    fgi_free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
    s->failed = 0;
}
