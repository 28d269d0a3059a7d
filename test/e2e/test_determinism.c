/* test/e2e/test_determinism.c — the contract: one seed, one case count, one corpus give
 * byte-identical output, findings and report.json; another seed gives another run. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include <stdlib.h>
#include <string.h>

typedef struct result {
    fgt_run run;
    char *report;
    char *finding;
} result;

static void scrub(char *text, const char *root)
{
    size_t n = strlen(root);
    for (char *q = text; q && (q = strstr(q, root)) != NULL; q += n)
        memset(q, 'X', n);
}

static void run_once(const char *target, const char *seed, result *out)
{
    char root[256], corpus[300], findings[300], prog[300], seedarg[64], fdir[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(corpus, sizeof corpus, "--corpus=%s/corpus", root);
    snprintf(findings, sizeof findings, "--findings=%s/f", root);
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    snprintf(seedarg, sizeof seedarg, "--seed=%s", seed);
    char *argv[] = {prog, corpus, findings, seedarg, (char *)target, NULL};
    CHECK(fgt_spawn(argv, NULL, &out->run) == 0);
    char path[500];
    snprintf(path, sizeof path, "%s/f/report.json", root);
    out->report = fgt_slurp(path, NULL);
    CHECK(out->report != NULL);
    snprintf(fdir, sizeof fdir, "%s/f/%s", root, target);
    out->finding = NULL;
    if (fgt_find(fdir, "check-", ".txt", path, sizeof path) == 1)
        out->finding = fgt_slurp(path, NULL);
    /* Outputs name the scratch directory, whose name is random: blank it. */
    scrub(out->report, root);
    scrub(out->finding, root);
    scrub(out->run.out, root);
    fgt_rmrf(root);
}

static void result_free(result *r)
{
    fgt_run_free(&r->run);
    free(r->report);
    free(r->finding);
}

FG_TEST(determinism_same_seed_same_bytes)
{
    result a, b;
    run_once("planted_check", "0x1234", &a);
    run_once("planted_check", "0x1234", &b);
    CHECK(a.run.exited && a.run.code == 1);
    CHECK(a.report && b.report && strcmp(a.report, b.report) == 0);
    CHECK(strcmp(a.run.out, b.run.out) == 0);
    CHECK(a.finding && b.finding && strcmp(a.finding, b.finding) == 0);
    CHECK(a.report && strstr(a.report, "\"seconds\"") == NULL);
    result_free(&a);
    result_free(&b);

    run_once("planted_clean", "7", &a);
    run_once("planted_clean", "7", &b);
    CHECK(a.report && b.report && strcmp(a.report, b.report) == 0);
    CHECK(strcmp(a.run.out, b.run.out) == 0);
    result_free(&a);
    result_free(&b);
}

FG_TEST(determinism_other_seed_other_run)
{
    result a, b;
    run_once("planted_check", "1", &a);
    run_once("planted_check", "2", &b);
    /* Both find the bug, at different cases with different bytes. */
    CHECK(a.run.code == 1 && b.run.code == 1);
    CHECK(a.finding && b.finding && strcmp(a.finding, b.finding) != 0);
    CHECK(strcmp(a.run.out, b.run.out) != 0);
    result_free(&a);
    result_free(&b);
}

/* The saturation watch: a target whose signature folds a running total keeps every case,
 * and the run says so (the gate still passes: it is a warning about the target). */
FG_TEST(saturation_watch_warns_about_running_totals)
{
    char root[256], corpus[300], findings[300], prog[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(corpus, sizeof corpus, "--corpus=%s/corpus", root);
    snprintf(findings, sizeof findings, "--findings=%s/f", root);
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    char *argv[] = {prog, corpus, findings, "--cases=3000", "planted_saturate", NULL};
    fgt_run r;
    CHECK(fgt_spawn(argv, NULL, &r) == 0);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.err, "warning: planted_saturate kept") != NULL);
    CHECK(strstr(r.err, "running total") != NULL);
    fgt_run_free(&r);
    char *argv2[] = {prog, corpus, findings, "--cases=3000", "planted_clean", NULL};
    CHECK(fgt_spawn(argv2, NULL, &r) == 0);
    CHECK(strstr(r.err, "warning:") == NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* Instrumented runs are reproducible too: coverage features are module-relative, so with
 * ASLR on, two runs find the planted magic at the same case with the same bytes. */
FG_TEST(determinism_instrumented_finding_is_identical_under_aslr)
{
    const char *inst = getenv("FGT_INSTRUMENT");
    if (!inst || strcmp(inst, "1") != 0) {
        printf("  skipped: needs make check INSTRUMENT=1\n");
        return;
    }
    char *txt[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        char root[256], findings[300], prog[300], dir[400], path[600];
        CHECK(fgt_tmpdir(root, sizeof root) == 0);
        snprintf(findings, sizeof findings, "--findings=%s/f", root);
        snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
        char corpus[320];
        snprintf(corpus, sizeof corpus, "--corpus=%s/c", root);
        char *argv[] = {prog, corpus, findings, "planted_magic", NULL};
        fgt_run r;
        CHECK(fgt_spawn(argv, NULL, &r) == 0);
        fgt_run_free(&r);
        snprintf(dir, sizeof dir, "%s/f/planted_magic", root);
        if (fgt_find(dir, "crash-", ".txt", path, sizeof path) == 1)
            txt[i] = fgt_slurp(path, NULL);
        scrub(txt[i], root);
        fgt_rmrf(root);
    }
    CHECK(txt[0] && txt[1] && strcmp(txt[0], txt[1]) == 0);
    free(txt[0]);
    free(txt[1]);
}
