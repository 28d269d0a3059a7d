/* engine/base/clocale.c — the "C" locale for the engine's own number text. */
#include "engine/base/clocale.h"

#include <pthread.h>
#include <stdlib.h>

static locale_t c_locale;
static pthread_once_t c_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

static locale_t c_locale_made(void)
{
    pthread_once(&c_once, make_c_locale);
    return c_locale;
}

locale_t fgi_c_locale_begin(void)
{
    locale_t c = c_locale_made();
    return c ? uselocale(c) : (locale_t)0;
}

void fgi_c_locale_end(locale_t old)
{
    if (old)
        uselocale(old);
}

double fgi_strtod_c(const char *text, char **end)
{
    locale_t c = c_locale_made();
    return c ? strtod_l(text, end, c) : strtod(text, end);
}

long long fgi_strtoll_c(const char *text, char **end, int base)
{
    locale_t c = c_locale_made();
    return c ? strtoll_l(text, end, base, c) : strtoll(text, end, base);
}
