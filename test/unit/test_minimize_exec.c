/* test/unit/test_minimize_exec.c — minimisation through the real harness: planted check,
 * write, amplification and leak bugs buried in 4 KiB shrink to their trigger and still
 * land in their class, never drifting into the target's other class. */
#include "test/support/check.h"

#include "engine/findings/minimize.h"
#include "engine/findings/minimize_exec.h"

#include <limits.h>

/* Blocks the planted leak keeps; each block's first word links the next. Freed by the
 * test, so a leak-checking sanitizer sees nothing after it. */
static void *leaked;

static int has(const uint8_t *d, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (memcmp(d + i, word, w) == 0)
            return 1;
    return 0;
}

/* Four planted bugs, each behind a word, and a second check class (a leading NUL byte)
 * that simplification toward 0x00 keeps running into. */
static uint64_t planted_run(const uint8_t *d, size_t n)
{
    FG_CHECK(n == 0 || d[0] != 0, "input starts with a NUL byte (%zu bytes)", n);
    for (size_t i = 0; i + 3 <= n; i++)
        FG_CHECK(memcmp(d + i, "BUG", 3) != 0, "BUG at offset %zu of %zu", i, n);
    if (has(d, n, "WRT"))
        ((uint8_t *)d)[n / 2] ^= 1;
    if (has(d, n, "AMP")) {
        void *volatile p = malloc((size_t)1 << 40); /* refused: the case ends here */
        free(p);
    }
    if (has(d, n, "LEAK")) {
        void **block = malloc(sizeof *block + n);
        if (block) {
            *block = leaked;
            leaked = block;
        }
    }
    return fg_sig(n & 7, n ? d[0] : 0);
}

static const fg_target planted = {.name = "minimize_planted", .run = planted_run};

static void free_leaked(void)
{
    while (leaked) {
        void *next = *(void **)leaked;
        free(leaked);
        leaked = next;
    }
}

/* Buries word at 2/3 of 4 KiB of lowercase letters (no planted word among them) and
 * minimises it in its class. */
static void minimize_planted(const char *word, const char *kind)
{
    static uint8_t in[4096];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)('a' + fg_mix64(i) % 26);
    size_t w = strlen(word);
    memcpy(in + 2731, word, w);

    fgi_exec e;
    CHECK(fgi_exec_open(&e, &planted) == FG_OK);
    /* what the crash path would store, should a planted bug ever crash */
    static char findings[512];
    snprintf(findings, sizeof findings, "%s/minimize-findings", fgt_build_dir());
    e.crash.target = planted.name;
    e.crash.program = "test-unit";
    e.crash.findings_dir = findings;
    fgi_exec_origin(&e, -1, "minimisation", NULL);
    static fgi_min_exec m; /* a case result is too big for the stack */
    memset(&m, 0, sizeof m);
    m.exec = &e;
    char cls[FGI_CLASS_ID_MAX];
    CHECK(fgi_min_exec_reproduces(&m, in, 0) == 0); /* the empty input passes */
    CHECK(fgi_exec_reserve(&e, sizeof in) == FG_OK);
    fgi_exec_run(&e, in, sizeof in, &m.res);
    CHECK(fgi_case_class(&planted, &m.res, cls) == 1);
    CHECK_STR(m.res.kind, kind);
    m.class_id = cls;
    m.elsewhere = 0;

    fgi_min_result r;
    fg_error err = fgi_minimize(in, sizeof in, 100000, fgi_min_exec_reproduces, &m, &r);
    CHECK(err == FG_OK);
    if (err == FG_OK) {
        CHECK(r.stop == FGI_MIN_FIXED_POINT);
        CHECK_EQ_U(r.size, w);
        CHECK(r.size == w && memcmp(r.data, word, w) == 0);
        CHECK(r.trials < 1000);
        CHECK(m.elsewhere > 0); /* "\0..." was tried and rejected as another class */
        /* the result, run again on its own, lands in the original class */
        char again[FGI_CLASS_ID_MAX];
        fgi_exec_run(&e, r.data, r.size, &m.res);
        CHECK(fgi_case_class(&planted, &m.res, again) == 1);
        CHECK_STR(again, cls);
        fgi_free(r.data);
    }
    CHECK(m.err == FG_OK);
    fgi_exec_close(&e);
    free_leaked();
}

FG_TEST(minimize_exec_planted_check)
{
    minimize_planted("BUG", "check");
}

FG_TEST(minimize_exec_planted_write)
{
    minimize_planted("WRT", "write");
}

FG_TEST(minimize_exec_planted_amplification)
{
    minimize_planted("AMP", "amplification");
}

FG_TEST(minimize_exec_planted_leak)
{
    minimize_planted("LEAK", "retention");
}

FG_TEST(minimize_exec_class_of_a_passing_case)
{
    fgi_case_result res = {.status = FGI_CASE_OK};
    char id[FGI_CLASS_ID_MAX] = "untouched";
    CHECK(fgi_case_class(&planted, &res, id) == 0);
    CHECK_STR(id, "untouched");
}
