/* engine/base/clocale.h — the "C" locale for the engine's own number text.
 *
 * What the engine writes (report.json, the SVG, a mutation's number) and reads (a number
 * token in an input) must not follow a locale the program set: a target or the
 * application fuzzgate is linked into may call setlocale, and a decimal comma would make
 * report.json invalid JSON and a run differ from machine to machine.
 */
#ifndef FG_CLOCALE_H
#define FG_CLOCALE_H

#include "engine/internal.h"

#include <locale.h>

/* Switches this thread to the "C" locale (made once; where it cannot be made, these
 * leave the thread's locale as it is); returns what to give fgi_c_locale_end. Any
 * thread. */
FGI_HIDDEN locale_t fgi_c_locale_begin(void);

/* Switches this thread back to old. */
FGI_HIDDEN void fgi_c_locale_end(locale_t old);

/* strtod and strtoll in the "C" locale. */
FGI_HIDDEN double fgi_strtod_c(const char *text, char **end);
FGI_HIDDEN long long fgi_strtoll_c(const char *text, char **end, int base);

#endif
