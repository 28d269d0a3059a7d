/* test/unit/test_clocale.c — the engine's own number text in a program that set a locale
 * with a decimal comma (engine/base/clocale.h): what it writes (fgi_str_addf, which
 * report.json and the SVG go through; fgi_num_text, a mutation's number) and what it
 * reads (fgi_num_token) still use '.'. The locale is compiled with localedef into a
 * scratch directory named by LOCPATH; where that cannot be done the test says so and
 * checks nothing else. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/base/numtext.h"
#include "engine/mutate/numbers.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Switches LC_NUMERIC to a de_DE locale built under root; 1 when it took (strtod reads a
 * decimal comma). */
static int comma_locale(const char *root)
{
    char out[400];
    snprintf(out, sizeof out, "%s/de_DE.UTF-8", root);
    char *argv[] = {"/usr/bin/localedef", "-i", "de_DE", "-f", "UTF-8", out, NULL};
    fgt_run r;
    if (fgt_spawn(argv, NULL, &r) != 0)
        return 0;
    int built = r.exited && r.code <= 1; /* 1: warnings, the locale is still written */
    fgt_run_free(&r);
    if (!built || setenv("LOCPATH", root, 1) != 0)
        return 0;
    if (!setlocale(LC_NUMERIC, "de_DE.UTF-8"))
        return 0;
    return strtod("1,5", NULL) == 1.5;
}

/* make check-all's (and CI's): localedef builds the locale, 2 s of CPU. */
FG_TEST_LONG(number_text_is_the_c_locales_whatever_the_program_set)
{
    char root[256];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    if (!comma_locale(root)) {
        printf("  skipped: no de_DE locale could be built with localedef (locales' "
               "sources missing?)\n");
        setlocale(LC_NUMERIC, "C");
        unsetenv("LOCPATH");
        fgt_rmrf(root);
        return;
    }
    fgi_str s = {0};
    fgi_str_addf(&s, "\"seconds\": %.3f", 2.5);
    CHECK(!s.failed && strcmp(fgi_str_cstr(&s), "\"seconds\": 2.500") == 0);
    fgi_str_free(&s);
    char text[FGI_NUM_TEXT_MAX];
    CHECK_EQ_U(fgi_num_text(2.5, 0, FGI_NUM_SHORTEST, text), 3);
    CHECK(strcmp(text, "2.5") == 0);
    CHECK(fgi_num_text(0.125, 0, FGI_NUM_PLAIN, text) == 5 && strcmp(text, "0.125") == 0);
    double v = 0;
    size_t len = 0;
    static const uint8_t in[] = "x=2.5;";
    CHECK(fgi_num_token(in, sizeof in - 1, 2, &v, &len) == 1);
    CHECK(v == 2.5 && len == 3);
    static const uint8_t comma[] = "x=2,5;"; /* the C locale's token ends at the comma */
    CHECK(fgi_num_token(comma, sizeof comma - 1, 2, &v, &len) == 1);
    CHECK(v == 2 && len == 1);
    CHECK(strtod("1,5", NULL) == 1.5); /* the program's own locale is left as it set it */
    setlocale(LC_NUMERIC, "C");
    unsetenv("LOCPATH");
    fgt_rmrf(root);
}
