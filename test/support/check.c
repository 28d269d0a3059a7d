/* test/support/check.c — runs every FG_TEST in name order; closes with "N passed, N failed".
 * Usage: test-unit [--long] [NAME-SUBSTRING] | test-unit --cli-md (prints docs/cli.md).
 * --long runs the FG_TEST_LONG tests instead (make check-all). */
#include "test/support/check.h"

#include "engine/run/options.h"

#include <stdlib.h>

static struct {
    fgt_test *head;  /* registered tests */
    int failed_now;  /* the running test has failed a CHECK */
} tests;

void fgt_register(fgt_test *t)
{
    t->next = tests.head;
    tests.head = t;
}

void fgt_fail(const char *file, int line, const char *what)
{
    printf("%s:%d: FAILED %s\n", file, line, what);
    tests.failed_now = 1;
}

const char *fgt_build_dir(void)
{
    const char *b = getenv("FGT_BUILD");
    return b ? b : "build";
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(fgt_test *const *)a)->name, (*(fgt_test *const *)b)->name);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--cli-md") == 0) {
        fgi_options_markdown(stdout);
        return 0;
    }
    size_t n = 0;
    for (fgt_test *t = tests.head; t; t = t->next)
        n++;
    fgt_test **v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return 2;
    n = 0;
    for (fgt_test *t = tests.head; t; t = t->next)
        v[n++] = t;
    qsort(v, n, sizeof *v, by_name);
    int passed = 0, failed = 0, want_long = argc > 1 && strcmp(argv[1], "--long") == 0;
    const char *only = argc > 1 + want_long ? argv[1 + want_long] : NULL;
    for (size_t i = 0; i < n; i++) {
        if (v[i]->is_long != want_long || (only && !strstr(v[i]->name, only)))
            continue;
        tests.failed_now = 0;
        fflush(stdout);
        v[i]->fn();
        if (tests.failed_now) {
            printf("FAIL %s\n", v[i]->name);
            failed++;
        } else {
            passed++;
        }
    }
    free(v);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
