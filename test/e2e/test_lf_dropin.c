/* test/e2e/test_lf_dropin.c — the libFuzzer driver as a drop-in for libFuzzer's everyday
 * workflow, each a run of build/test-lf or build/test-lf-cov (the same planted harness,
 * built with fuzzgate-libfuzzer.pc's coverage flags) in a child process: every mode ends
 * with or without time flags and exits 0, a run grows its first corpus directory and the
 * next resumes from it, -close_fd_mask keeps the engine's reports, the start-up banner
 * says what guides the search, file errors name their cause. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/base/sha1.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* Runs prog (test-lf or test-lf-cov) under timeout(1), so a mode that never ends fails
 * the test (status 124) instead of hanging the suite. args: NULL-terminated, at most 8. */
static void run_lf(const char *prog, fgt_run *r, const char *const *args)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", fgt_build_dir(), prog);
    char *argv[12] = {"/usr/bin/timeout", "120", path};
    int n = 3;
    for (; args[n - 3] && n < 11; n++)
        argv[n] = (char *)args[n - 3];
    argv[n] = NULL;
    CHECK(fgt_spawn(argv, NULL, r) == 0);
}

static void put(const char *dir, const char *name, const char *data, size_t n)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    CHECK(fgt_write(path, data, n) == 0);
}

/* 1 when dir holds a file named by the SHA-1 of data whose bytes are data. */
static int holds(const char *dir, const char *data, size_t n)
{
    char sha[FGI_SHA1_HEX], path[400];
    fgi_sha1_hex(data, n, sha);
    snprintf(path, sizeof path, "%s/%s", dir, sha);
    size_t got_n = 0;
    char *got = fgt_slurp(path, &got_n);
    int ok = got && got_n == n && memcmp(got, data, n) == 0;
    free(got);
    return ok;
}

/* Input i of the merge set: "PATH", the letter "abcdefghij"[i % 10], then i zeros (at
 * least one). The harness has one branch for each of a..h and one for anything else. */
static size_t merge_input(int i, char *buf)
{
    int n = sprintf(buf, "PATH%c", "abcdefghij"[i % 10]);
    for (int z = 0; z < (i ? i : 1); z++)
        buf[n++] = '0';
    return (size_t)n;
}

/* A merge of 100 inputs into an empty OUT keeps the smallest of each branch: inputs 0..8
 * (9 is another input of the "anything else" branch, larger than 8), whatever time flags
 * come with it, and ends with status 0. */
FG_TEST(lf_merge_modes_end_and_keep_one_input_per_branch)
{
    static const char *const modes[] = {"-merge=1", "-set_cover_merge=1"};
    static const char *const times[][2] = {{NULL, NULL}, {"-runs=10", NULL},
                                           {"-max_total_time=1", NULL},
                                           {"-runs=10", "-max_total_time=1"}};
    char root[256], in[300], out[300], buf[128];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(in, sizeof in, "%s/in", root);
    CHECK(fgt_mkdirs(in) == 0);
    for (int i = 0; i < 100; i++) {
        char name[16];
        snprintf(name, sizeof name, "in%02d", i);
        put(in, name, buf, merge_input(i, buf));
    }
    for (size_t m = 0; m < 2; m++)
        for (size_t t = 0; t < sizeof times / sizeof times[0]; t++) {
            snprintf(out, sizeof out, "%s/out%zu%zu", root, m, t);
            CHECK(fgt_mkdirs(out) == 0);
            const char *args[6] = {modes[m]};
            int a = 1;
            for (int k = 0; k < 2; k++)
                if (times[t][k])
                    args[a++] = times[t][k];
            args[a++] = out;
            args[a++] = in;
            args[a] = NULL;
            fgt_run r;
            run_lf("test-lf-cov", &r, args);
            if (!(r.exited && r.code == 0))
                fprintf(stderr, "  %s %s: status %d/%d\n%s", modes[m],
                        times[t][0] ? times[t][0] : "", r.code, r.signal, r.err);
            CHECK(r.exited && r.code == 0);
            CHECK(strstr(r.err, "kept 9, 9 of them new") != NULL);
            CHECK(strstr(r.err, "does not write") == NULL);
            CHECK(fgt_count_entries(out, "") == 9);
            for (int i = 0; i < 9; i++)
                CHECK(holds(out, buf, merge_input(i, buf)));
            fgt_run_free(&r);
        }
    /* merging again into the same OUT adds nothing */
    const char *again[] = {"-merge=1", out, in, NULL};
    fgt_run r;
    run_lf("test-lf-cov", &r, again);
    CHECK(r.exited && r.code == 0 && strstr(r.err, "kept 9, 0 of them new") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* -minimize_crash=1 minimises "CRSH" + 60 bytes to "CRSH", stores it as crash-<sha1> and
 * exits 0, with or without time flags. */
FG_TEST(lf_minimize_crash_exits_0)
{
    static const char *const times[][2] = {{NULL, NULL}, {"-runs=50", NULL},
                                           {"-max_total_time=2", "-runs=50"}};
    char root[256], crash[300], prefix[320], want[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(crash, sizeof crash, "%s/crash-input", root);
    char big[65];
    memset(big, 'z', sizeof big - 1);
    memcpy(big, "CRSH", 4);
    CHECK(fgt_write(crash, big, 64) == 0);
    snprintf(prefix, sizeof prefix, "-artifact_prefix=%s/", root);
    char sha[FGI_SHA1_HEX];
    fgi_sha1_hex("CRSH", 4, sha);
    snprintf(want, sizeof want, "%s/crash-%s", root, sha);
    for (size_t t = 0; t < sizeof times / sizeof times[0]; t++) {
        const char *args[6] = {"-minimize_crash=1", prefix};
        int a = 2;
        for (int k = 0; k < 2; k++)
            if (times[t][k])
                args[a++] = times[t][k];
        args[a++] = crash;
        args[a] = NULL;
        fgt_run r;
        run_lf("test-lf", &r, args);
        if (!(r.exited && r.code == 0))
            fprintf(stderr, "  status %d/%d\n%s", r.code, r.signal, r.err);
        CHECK(r.exited && r.code == 0);
        CHECK(strstr(r.err, "minimised from 64 to 4 bytes") != NULL);
        size_t n = 0;
        char *got = fgt_slurp(want, &n);
        CHECK(got && n == 4 && memcmp(got, "CRSH", 4) == 0);
        free(got);
        remove(want);
        fgt_run_free(&r);
    }
    fgt_rmrf(root);
}

/* File arguments run once each and end, whatever the time flags; a pass is status 0. */
FG_TEST(lf_file_arguments_run_once_and_end)
{
    static const char *const times[] = {NULL, "-runs=5", "-max_total_time=600"};
    char root[256], file[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(file, sizeof file, "%s/one", root);
    CHECK(fgt_write(file, "PATHa", 5) == 0);
    for (size_t t = 0; t < 3; t++) {
        const char *args[] = {times[t] ? times[t] : file, times[t] ? file : NULL, NULL};
        fgt_run r;
        run_lf("test-lf", &r, args);
        CHECK(r.exited && r.code == 0);
        CHECK(strstr(r.err, "Executed ") != NULL);
        fgt_run_free(&r);
    }
    fgt_rmrf(root);
}

/* `./harness DIR` writes what it keeps into DIR as <sha1> files; the next run reads them
 * back (and keeps nothing new from them); --corpus-out=X keeps fuzzgate's X/<program>/. */
FG_TEST(lf_run_grows_the_first_corpus_dir_and_resumes)
{
    char root[256], dir[300], other[300], out[300], read_line[64];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(dir, sizeof dir, "%s/corpus", root);
    snprintf(other, sizeof other, "%s/more", root);
    CHECK(fgt_mkdirs(dir) == 0);
    CHECK(fgt_mkdirs(other) == 0);
    put(dir, "seed", "PATHa", 5);
    put(other, "seed2", "PATHb", 5);
    /* 6000 runs: the branches the harness has are found in any order; 3000 was a knife
     * edge, where a change of the search's draws moved PATHc past the budget. */
    const char *grow[] = {"-runs=6000", "-seed=3", dir, other, NULL};
    fgt_run r;
    run_lf("test-lf-cov", &r, grow);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.err, "new inputs are written to") != NULL);
    size_t files = fgt_count_entries(dir, "");
    CHECK(files > 2); /* the seed and what the run kept: the other branches at least */
    CHECK(fgt_count_entries(other, "") == 1); /* only the first dir grows */
    CHECK(holds(dir, "PATHc", 5) || fgt_count_entries(dir, "") > 8);
    fgt_run_free(&r);

    const char *resume[] = {"-runs=0", "-print_final_stats=1", dir, NULL};
    run_lf("test-lf-cov", &r, resume);
    CHECK(r.exited && r.code == 0);
    snprintf(read_line, sizeof read_line, "INFO: %zu inputs read", files);
    CHECK(strstr(r.err, read_line) != NULL);
    CHECK(strstr(r.err, "stat::new_units_added:          0") != NULL);
    CHECK(fgt_count_entries(dir, "") == files);
    fgt_run_free(&r);

    snprintf(out, sizeof out, "--corpus-out=%s/fg", root);
    const char *fg[] = {"-runs=3000", "-seed=4", out, other, NULL};
    run_lf("test-lf-cov", &r, fg);
    CHECK(r.exited && r.code == 0);
    CHECK(fgt_count_entries(other, "") == 1);
    snprintf(out, sizeof out, "%s/fg/test-lf-cov", root);
    CHECK(fgt_count_entries(out, "") > 0);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* -close_fd_mask=3 silences the harness (its "lf_planted: path" line), not the engine: the
 * crash report and libFuzzer's artifact line still come, on a copy of stderr. */
FG_TEST(lf_close_fd_mask_keeps_the_engine_reports)
{
    char root[256], dir[300], prefix[320];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(dir, sizeof dir, "%s/corpus", root);
    snprintf(prefix, sizeof prefix, "-artifact_prefix=%s/", root);
    CHECK(fgt_mkdirs(dir) == 0);
    put(dir, "a", "PATHa", 5);
    put(dir, "b", "CRSH", 4);
    const char *quiet[] = {"-close_fd_mask=3", prefix, "-runs=10", dir, NULL};
    fgt_run r;
    run_lf("test-lf", &r, quiet);
    int san = getenv("FGT_SANITIZE") && *getenv("FGT_SANITIZE");
    CHECK((!r.exited && r.signal == SIGABRT) || (san && !(r.exited && r.code == 0)));
    CHECK(strstr(r.err, "lf_planted: path") == NULL);
    CHECK(strstr(r.err, "ERROR: fuzzgate: crash in test-lf") != NULL);
    CHECK(strstr(r.err, "Test unit written to ") != NULL);
    CHECK(strstr(r.err, "INFO: Seed:") != NULL);
    fgt_run_free(&r);
    const char *loud[] = {prefix, "-runs=10", dir, NULL};
    run_lf("test-lf", &r, loud);
    CHECK(strstr(r.err, "lf_planted: path") != NULL); /* the harness is heard without it */
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* The banner: a harness without coverage says so and how to add it; with the module's
 * flags it names its trace-pc module and that comparison tracing is on. */
FG_TEST(lf_banner_says_what_guides_the_search)
{
    const char *args[] = {"-runs=0", NULL};
    fgt_run r;
    run_lf("test-lf", &r, args);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.err, "WARNING: no compiler coverage in this harness") != NULL);
    CHECK(strstr(r.err, "pkg-config --cflags fuzzgate-libfuzzer") != NULL);
    CHECK(strstr(r.err, "-max_len is 4096") != NULL);
    fgt_run_free(&r);
    run_lf("test-lf-cov", &r, args);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.err, "INFO: coverage: trace-pc callbacks from 1 module") != NULL);
    CHECK(strstr(r.err, "comparison tracing: on") != NULL);
    CHECK(strstr(r.err, "no compiler coverage") == NULL);
    fgt_run_free(&r);
}

/* --verbose names what made an input new: features for a harness (no signature); status
 * lines show the columns it can fill. */
FG_TEST(lf_verbose_prints_features_not_a_zero_signature)
{
    char root[256], dir[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(dir, sizeof dir, "%s/corpus", root);
    CHECK(fgt_mkdirs(dir) == 0);
    put(dir, "a", "PATHa", 5);
    const char *args[] = {"--verbose", "-runs=500", dir, NULL};
    fgt_run r;
    run_lf("test-lf-cov", &r, args);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.err, " NEW ft +") != NULL);
    CHECK(strstr(r.err, "NEW sig 0x0000000000000000") == NULL);
    fgt_run_free(&r);
    /* a timed run's status line: the columns a harness can fill, not signatures 0 */
    const char *timed[] = {"-max_total_time=1", dir, NULL};
    run_lf("test-lf-cov", &r, timed);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.err, " cases/s, corpus ") != NULL && strstr(r.err, ", features ") != NULL);
    CHECK(strstr(r.err, "signatures") == NULL && strstr(r.err, "novelty") == NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* File errors name their cause. */
FG_TEST(lf_file_errors_name_their_cause)
{
    const char *dict[] = {"-dict=/no/such/dictionary", "-runs=1", NULL};
    fgt_run r;
    run_lf("test-lf", &r, dict);
    CHECK(r.exited && r.code == 2);
    CHECK(strstr(r.err, "/no/such/dictionary") != NULL);
    CHECK(strstr(r.err, "No such file or directory") != NULL);
    fgt_run_free(&r);
    char root[256];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    const char *seeds[] = {"-seed_inputs=@/no/such/list", "-runs=1", root, NULL};
    run_lf("test-lf", &r, seeds);
    CHECK(r.exited && r.code == 2 && strstr(r.err, "No such file or directory") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}
