/* test/e2e/test_typed.c — typed reads end to end: the ring target's planted twin found
 * within the default case count, its finding minimised to the operations the bug needs,
 * the same report for every --jobs, and the read-aware mutation's switch. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "targets/lib/ring.h"
#include "targets/lib/ring_model.h"

#include <stdlib.h>
#include <string.h>

/* The operations in data, read as targets/lib/ring_model.c reads them. */
static unsigned ring_ops(const uint8_t *d, size_t n)
{
    fg_reader r = fg_reader_of(d, n);
    unsigned ops = 0;
    while (fg_read_left(&r)) {
        size_t op = fg_read_pick(&r, RING_OPS);
        if (op == 0)
            (void)fg_read_u32(&r);
        else if (op == 3)
            (void)fg_read_range(&r, 0, RING_CAP - 1);
        ops++;
    }
    return ops;
}

FG_TEST(typed_ring_ops_counts_operations)
{
    static const uint8_t d[] = {0, 1, 2, 3, 4, 3, 9, 1, 2, 4, 0, 1}; /* the last push short */
    CHECK_EQ_U(ring_ops(d, sizeof d), 6);
    CHECK_EQ_U(ring_ops(d, 0), 0);
}

FG_TEST(typed_planted_ring_found_and_minimised_to_its_operations)
{
    char root[256], prog[300], fdir[400], bin[600], findings[300], minimize[700];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgt_run r;
    CHECK(fgt_planted_gate(root, "f", "planted_ring", &r) == 0);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, "planted_ring: FAIL 20000 cases") != NULL);
    CHECK(strstr(r.out, "pop_back returns the newest value") != NULL);
    fgt_run_free(&r);
    snprintf(fdir, sizeof fdir, "%s/f/planted_ring", root);
    CHECK(fgt_find(fdir, "check-", ".bin", bin, sizeof bin) == 1);
    size_t found_n = 0;
    uint8_t *found = (uint8_t *)fgt_slurp(bin, &found_n);
    CHECK(found != NULL);
    /* The bug needs the tail to wrap (RING_CAP pushes) and then a pop_back. */
    unsigned needs = RING_CAP + 1, before = found ? ring_ops(found, found_n) : 0;
    CHECK(before >= needs);
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    snprintf(findings, sizeof findings, "--findings=%s/f", root);
    snprintf(minimize, sizeof minimize, "--minimize=%s", bin);
    char *argv[] = {prog, findings, minimize, "planted_ring", NULL};
    CHECK(fgt_spawn(argv, NULL, &r) == 0);
    CHECK(r.exited && r.code == 0);
    fgt_run_free(&r);
    size_t n = 0;
    uint8_t *small = (uint8_t *)fgt_slurp(bin, &n);
    CHECK(small != NULL);
    unsigned after = small ? ring_ops(small, n) : 0;
    if (after > needs + 1)
        fprintf(stderr, "  minimised to %u operations (%zu bytes) from %u; the bug needs %u\n",
                after, n, before, needs);
    CHECK(after >= needs && after <= needs + 1);
    free(small);
    free(found);
    fgt_rmrf(root);
}

FG_TEST(typed_minimiser_drops_whole_operations)
{
    /* 40 operations of noise, a clear, the RING_CAP pushes that wrap the tail with a get
     * after every fifth, 6 pushes more (refused: the ring is full) and the pop_back. In
     * 200 trials the byte passes alone leave a dozen operations too many (77 of 65, when
     * this test was written); dropping whole operations first leaves what the bug needs. */
    static uint8_t d[1024];
    size_t n = 0;
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (unsigned i = 0; i < 40; i++) {
        x = fg_mix64(x + i);
        uint8_t op = (uint8_t)(x % RING_OPS);
        d[n++] = op;
        if (op == 0)
            for (int b = 0; b < 4; b++)
                d[n++] = (uint8_t)(x >> (8 * b + 8));
        if (op == 3)
            d[n++] = (uint8_t)(x >> 40) % RING_CAP;
    }
    d[n++] = 4; /* clear */
    for (unsigned i = 0; i < RING_CAP + 6; i++) {
        const uint8_t push[5] = {0, (uint8_t)i, 9, 9, 9}; /* push(0x09090900 + i) */
        memcpy(d + n, push, 5);
        n += 5;
        if (i % 5 == 0) { /* get(i % RING_CAP) */
            d[n++] = 3;
            d[n++] = (uint8_t)(i % RING_CAP);
        }
    }
    d[n++] = 2; /* pop_back */
    CHECK(n <= sizeof d);
    char root[256], prog[300], path[400], findings[300], minimize[500], fdir[400], bin[600];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(path, sizeof path, "%s/long.bin", root);
    CHECK(fgt_write(path, d, n) == 0);
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    snprintf(findings, sizeof findings, "--findings=%s/f", root);
    snprintf(minimize, sizeof minimize, "--minimize=%s", path);
    char *argv[] = {prog, findings, minimize, "--min-trials=200", "planted_ring", NULL};
    fgt_run r;
    CHECK(fgt_spawn(argv, NULL, &r) == 0);
    CHECK(r.exited && r.code == 0);
    fgt_run_free(&r);
    snprintf(fdir, sizeof fdir, "%s/f/planted_ring", root);
    CHECK(fgt_find(fdir, "check-", ".bin", bin, sizeof bin) == 1);
    size_t m = 0;
    uint8_t *small = (uint8_t *)fgt_slurp(bin, &m);
    unsigned after = small ? ring_ops(small, m) : 0;
    if (after != RING_CAP + 1)
        fprintf(stderr, "  minimised to %u operations (%zu bytes) of %u\n", after, m,
                ring_ops(d, n));
    CHECK_EQ_U(after, RING_CAP + 1);
    free(small);
    fgt_rmrf(root);
}

/* report.json of a run of planted_ring with extra (a flag), the scratch path blanked. */
static char *report_with(const char *extra)
{
    char root[256], prog[300], corpus[300], findings[300], path[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    snprintf(corpus, sizeof corpus, "--corpus=%s/none", root);
    snprintf(findings, sizeof findings, "--findings=%s/f", root);
    char *argv[] = {prog, corpus, findings, "--cases=6000", (char *)extra, "planted_ring",
                    NULL};
    fgt_run r;
    CHECK(fgt_spawn(argv, NULL, &r) == 0);
    /* found (1) in a plain build; an instrumented one searches otherwise and may not
     * within these cases (0): either way the run is the same for every --jobs */
    CHECK(r.exited && (r.code == 0 || r.code == 1));
    fgt_run_free(&r);
    snprintf(path, sizeof path, "%s/f/report.json", root);
    char *rep = fgt_slurp(path, NULL);
    size_t k = strlen(root);
    for (char *q = rep; q && (q = strstr(q, root)) != NULL; q += k)
        memset(q, 'X', k);
    fgt_rmrf(root);
    return rep;
}

FG_TEST(typed_reads_same_report_for_every_jobs)
{
    /* Read records cross the wire from executors (--jobs=2), stay in one process
     * (--no-fork), or both (--jobs=1): the same run every way. */
    char *one = report_with("--jobs=1"), *two = report_with("--jobs=2");
    char *alone = report_with("--no-fork");
    CHECK(one && two && alone);
    CHECK(one && two && strcmp(one, two) == 0);
    CHECK(one && alone && strcmp(one, alone) == 0);
    CHECK(one && strstr(one, "\"planted_ring\"") != NULL);
    free(one);
    free(two);
    free(alone);
}

FG_TEST(typed_switch_is_an_option)
{
    char prog[300];
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    char *argv[] = {prog, "--typed=sometimes", "planted_ring", NULL};
    fgt_run r;
    CHECK(fgt_spawn(argv, NULL, &r) == 0);
    CHECK(r.exited && r.code == 2);
    CHECK(strstr(r.out, "typed") != NULL || strstr(r.err, "typed") != NULL);
    fgt_run_free(&r);
    char *argv2[] = {prog, "--cases=0", "planted_ring", NULL};
    char *env[] = {"FUZZGATE_TYPED=2", NULL};
    CHECK(fgt_spawn(argv2, env, &r) == 0);
    CHECK(r.exited && r.code == 2);
    CHECK(strstr(r.err, "FUZZGATE_TYPED") != NULL || strstr(r.out, "FUZZGATE_TYPED") != NULL);
    fgt_run_free(&r);
}
