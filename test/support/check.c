/* test/support/check.c — runs every FG_TEST in name order; closes with "N passed, N failed".
 * Usage: test-unit [--long] [--shard=K/N] [NAME-SUBSTRING] | test-unit --cli-md (prints
 * docs/cli.md). --shard=K/N runs every Nth of the selected tests from the Kth (0-based), in
 * name order: N test-units side by side run each test once (make check's unit lanes).
 * FGT_TIMES in the environment adds wall times (kept out of the output otherwise, which is
 * the same from run to run): =all, every test's after it; any other value, the total and
 * the slowest tests at the end (.ci/run sets it: a slow CI says where its time went).
 * --long runs the FG_TEST_LONG tests instead (make check-all). */
#include "test/support/check.h"

#include "engine/run/options.h"

#include <stdlib.h>
#include <time.h>

#define SLOWEST 4 /* tests named with their times at the end */

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

int fgt_failing(void)
{
    return tests.failed_now;
}

const char *fgt_build_dir(void)
{
    const char *b = getenv("FGT_BUILD");
    return b ? b : "build";
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Keeps the SLOWEST longest (name, seconds) in slow[], longest first. */
static void note_time(const char **names, double *secs, const char *name, double s)
{
    int i = SLOWEST;
    while (i > 0 && (!names[i - 1] || secs[i - 1] < s)) {
        if (i < SLOWEST) {
            names[i] = names[i - 1];
            secs[i] = secs[i - 1];
        }
        i--;
    }
    if (i < SLOWEST) {
        names[i] = name;
        secs[i] = s;
    }
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
    int passed = 0, failed = 0, want_long = 0;
    unsigned shard = 0, shards = 1;
    const char *only = NULL;
    for (int a = 1; a < argc; a++) {
        char extra;
        if (strcmp(argv[a], "--long") == 0) {
            want_long = 1;
        } else if (strncmp(argv[a], "--shard=", 8) == 0) {
            if (sscanf(argv[a] + 8, "%u/%u%c", &shard, &shards, &extra) != 2 || !shards ||
                shard >= shards) {
                fprintf(stderr, "test-unit: --shard=K/N with K < N, not '%s'\n", argv[a] + 8);
                free(v);
                return 2;
            }
        } else {
            only = argv[a];
        }
    }
    size_t selected = 0; /* the tests --long and the name select, counted for the shard */
    const char *slow[SLOWEST] = {0};
    double slow_s[SLOWEST] = {0}, all_s = now_s();
    const char *times_env = getenv("FGT_TIMES");
    int times = times_env && *times_env, every = times && strcmp(times_env, "all") == 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i]->is_long != want_long || (only && !strstr(v[i]->name, only)) ||
            selected++ % shards != shard)
            continue;
        tests.failed_now = 0;
        fflush(stdout);
        double t0 = now_s();
        v[i]->fn();
        note_time(slow, slow_s, v[i]->name, now_s() - t0);
        if (every)
            printf("  %.2f s %s\n", now_s() - t0, v[i]->name);
        if (tests.failed_now) {
            printf("FAIL %s\n", v[i]->name);
            failed++;
        } else {
            passed++;
        }
    }
    if (times && passed + failed > SLOWEST) {
        printf("  %.0f s; the slowest:", now_s() - all_s);
        for (int i = 0; i < SLOWEST && slow[i]; i++)
            printf("%s %s %.1f s", i ? "," : "", slow[i], slow_s[i]);
        printf("\n");
    }
    free(v);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
