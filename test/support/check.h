/* test/support/check.h — the in-repo test runner: a few macros and a registry of tests.
 *
 *   FG_TEST(name) { CHECK(x == 1); CHECK_EQ_U(a, b); }
 *
 * Each FG_TEST registers itself (constructor); test/support/check.c runs them in name order and
 * closes with "N passed, N failed". A failing CHECK prints file:line and the expression
 * and marks the test failed; the test goes on.
 */
#ifndef FG_TEST_CHECK_H
#define FG_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct fgt_test {
    const char *name;
    void (*fn)(void);
    int is_long;   /* FG_TEST_LONG: make check-all's only */
    struct fgt_test *next;
} fgt_test;

void fgt_register(fgt_test *t);
void fgt_fail(const char *file, int line, const char *what);
/* 1 once a check of the running test has failed (to print what it looked at). */
int fgt_failing(void);
/* FGT_ASAN: this test object is built with AddressSanitizer (gcc or clang). */
#if defined(__SANITIZE_ADDRESS__)
#define FGT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FGT_ASAN 1
#endif
#endif
/* FGT_TSAN: the same for ThreadSanitizer. */
#if defined(__SANITIZE_THREAD__)
#define FGT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FGT_TSAN 1
#endif
#endif

/* The directory the test binary's sibling programs live in ("build"). */
const char *fgt_build_dir(void);
/* FG_TEST_LONG(name): a test too slow for make check (tens of seconds), run by make
 * check-all (test-unit --long runs these, and only these). */

#define FGT_REGISTER(tname, is_long)                                                       \
    static void fgt_fn_##tname(void);                                                      \
    static fgt_test fgt_t_##tname = {#tname, fgt_fn_##tname, is_long, 0};                  \
    __attribute__((constructor)) static void fgt_reg_##tname(void)                         \
    {                                                                                      \
        fgt_register(&fgt_t_##tname);                                                      \
    }                                                                                      \
    static void fgt_fn_##tname(void)
#define FG_TEST(tname) FGT_REGISTER(tname, 0)
#define FG_TEST_LONG(tname) FGT_REGISTER(tname, 1)

#define CHECK(c)                                                                           \
    do {                                                                                   \
        if (!(c))                                                                          \
            fgt_fail(__FILE__, __LINE__, #c);                                              \
    } while (0)

#define CHECK_EQ_U(a, b)                                                                   \
    do {                                                                                   \
        unsigned long long fgt_a = (unsigned long long)(a), fgt_b = (unsigned long long)(b); \
        if (fgt_a != fgt_b) {                                                              \
            char fgt_m[256];                                                               \
            snprintf(fgt_m, sizeof fgt_m, "%s == %s (%llu != %llu)", #a, #b, fgt_a, fgt_b);\
            fgt_fail(__FILE__, __LINE__, fgt_m);                                           \
        }                                                                                  \
    } while (0)

#define CHECK_STR(a, b)                                                                    \
    do {                                                                                   \
        const char *fgt_a = (a), *fgt_b = (b);                                             \
        if (!fgt_a || !fgt_b || strcmp(fgt_a, fgt_b) != 0) {                               \
            char fgt_m[512];                                                               \
            snprintf(fgt_m, sizeof fgt_m, "%s == %s (\"%s\" != \"%s\")", #a, #b,           \
                     fgt_a ? fgt_a : "(null)", fgt_b ? fgt_b : "(null)");                  \
            fgt_fail(__FILE__, __LINE__, fgt_m);                                           \
        }                                                                                  \
    } while (0)

#endif
