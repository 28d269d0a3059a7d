/* test/e2e/test_supervisor.c — supervised runs: the misbehaviour matrix (a run outlives each
 * misbehaviour, reports it as one class and goes on to a second bug), a gate with a
 * crashing target still reporting the others, and report.json byte-identical for
 * jobs = 1, 2 and 4 (the planted targets) and 1 and 2 (the built-in gate). */
#include "test/support/check.h"
#include "test/support/proc.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs build/test-planted with the given arguments (NULL for none). */
static int planted4(fgt_run *r, const char *findings, const char *a1, const char *a2,
                    const char *a3, const char *a4)
{
    char prog[300], fdir[400];
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    snprintf(fdir, sizeof fdir, "--findings=%s", findings);
    char *argv[] = {prog, fdir, (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL};
    return fgt_spawn(argv, NULL, r);
}

static int planted(fgt_run *r, const char *findings, const char *a1, const char *a2,
                   const char *a3)
{
    return planted4(r, findings, a1, a2, a3, NULL);
}

/* How many classes of `kind` the summary lists ("  check check-..." or "  known ..."). */
static unsigned classes_of(const char *out, const char *kind)
{
    char want[64];
    snprintf(want, sizeof want, " %s %s-", kind, kind);
    unsigned n = 0;
    for (const char *p = out; (p = strstr(p, want)) != NULL; p++)
        n++;
    return n;
}

/* kind: the one class the misbehaviour must be reported as (NULL: none); many: it may be
 * reported as several classes of that kind (a stray thread's memory, whose allocation site
 * depends on the C library and sanitizer runtime), but as nothing else. */
static void matrix_of(const char *name, const char *kind, int many)
{
    char root[256], target[64];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(target, sizeof target, "matrix_%s", name);
    fgt_run r;
    /* 6000 cases: both planted bytes, each 1 in 256, found by byte havoc under every
     * build's search (3000 sufficed until the plain search stacked fewer mutations on
     * fresh entries; clang's coverage build then needs ~3,500 for one of them). */
    CHECK(planted(&r, root, "--cases=6000", target, NULL) == 0);
    /* The run ended by itself, with its summary: it outlived the misbehaviour. */
    CHECK(r.exited && r.code == 1);
    char want[96];
    snprintf(want, sizeof want, "%s: FAIL 6000 cases", target);
    CHECK(strstr(r.out, want) != NULL);
    CHECK(strstr(r.out, "0 passed, 1 failed") != NULL);
    /* The second bug, found after (and despite) the first. */
    CHECK(strstr(r.out, "the second planted bug") != NULL);
    if (kind && strcmp(kind, "check") == 0) {
        CHECK_EQ_U(classes_of(r.out, "check"), 2);
    } else if (kind && many) {
        CHECK(classes_of(r.out, kind) >= 1);
        CHECK_EQ_U(classes_of(r.out, "check"), 1);
        CHECK_EQ_U(classes_of(r.out, "crash") + classes_of(r.out, "timeout") +
                       classes_of(r.out, "exit"), 0);
    } else if (kind) {
        CHECK_EQ_U(classes_of(r.out, kind), 1); /* once per class, with a count */
        CHECK_EQ_U(classes_of(r.out, "check"), 1);
    } else {
        CHECK_EQ_U(classes_of(r.out, "check"), 1);
        CHECK(strstr(r.out, ", 1 finding") != NULL); /* and nothing else */
    }
    if (fgt_failing()) /* which class it was, and where the run's time went */
        fprintf(stderr, "%s: %s\n%s\n", target, r.out, r.err);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

static void matrix(const char *name, const char *kind)
{
    matrix_of(name, kind, 0);
}

FG_TEST(supervised_matrix_segfault) { matrix("segv", "crash"); }
FG_TEST(supervised_matrix_abort) { matrix("abort", "crash"); }
FG_TEST(supervised_matrix_stack_overflow) { matrix("stack", "crash"); }
FG_TEST(supervised_matrix_check) { matrix("check", "check"); }
FG_TEST(supervised_matrix_exit) { matrix("exit", "exit"); }
FG_TEST(supervised_matrix_hang) { matrix("hang", "timeout"); }
FG_TEST(supervised_matrix_huge_allocation) { matrix("huge", "amplification"); }
FG_TEST(supervised_matrix_leak) { matrix("leak", "retention"); }
FG_TEST(supervised_matrix_fd_leak) { matrix("fd", "retention"); }
FG_TEST(supervised_matrix_stdout_flood) { matrix("flood", NULL); }
FG_TEST(supervised_matrix_fork_returning_to_the_engine) { matrix("fork", NULL); }
FG_TEST(supervised_matrix_fork_holding_the_pipes) { matrix("linger", NULL); }
/* A thread left running keeps the memory glibc gave it: that is the retention found. */
FG_TEST(supervised_matrix_stray_thread) { matrix_of("thread", "retention", 1); }

/* The flood is shown only up to a budget, and the rest is counted, not lost silently. */
FG_TEST(supervised_stdout_flood_is_bounded)
{
    char root[256];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgt_run r;
    CHECK(planted(&r, root, "--cases=3000", "matrix_flood", NULL) == 0);
    CHECK(strlen(r.err) < 200 * 1024);
    CHECK(strstr(r.err, "bytes of target output were dropped") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

FG_TEST(supervised_gate_with_a_crashing_target_reports_the_others)
{
    char root[256];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgt_run r;
    CHECK(planted(&r, root, "--targets=planted_segv,planted_clean,planted_check", NULL,
                  NULL) == 0);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, "planted_check: FAIL") != NULL);
    CHECK(strstr(r.out, "planted_clean: PASS") != NULL);
    CHECK(strstr(r.out, "planted_segv: FAIL") != NULL);
    CHECK(strstr(r.out, "1 passed, 2 failed") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* The same seed and case count give the same report.json for any jobs count: the crash
 * restarts, the findings and the kept corpus included. */
FG_TEST(supervised_report_is_the_same_for_jobs_1_2_4)
{
    char root[256], findings[300], path[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(findings, sizeof findings, "%s/f", root);
    snprintf(path, sizeof path, "%s/report.json", findings);
    static const char *const jobs[] = {"--jobs=1", "--jobs=2", "--jobs=4"};
    char *first = NULL;
    for (int i = 0; i < 3; i++) {
        fgt_rmrf(findings);
        fgt_run r;
        CHECK(planted(&r, findings, jobs[i], "--cases=6000",
                      "--targets=matrix_segv,matrix_leak,planted_clean,planted_prefix4,"
                          "planted_keyword") == 0);
        CHECK(r.exited && r.code == 1);
        fgt_run_free(&r);
        char *rep = fgt_slurp(path, NULL);
        CHECK(rep != NULL);
        if (!rep)
            break;
        CHECK(strstr(rep, "\"kind\": \"crash\"") != NULL);
        if (!first) {
            first = rep;
            continue;
        }
        CHECK(strcmp(first, rep) == 0);
        if (strcmp(first, rep) != 0)
            fprintf(stderr, "%s differs from --jobs=1:\n%s\n---\n%s\n", jobs[i], first, rep);
        free(rep);
    }
    free(first);
    fgt_rmrf(root);
}

/* The same for the built-in targets, run as the gate runs them: among them `options`,
 * whose behaviours recur within an epoch under several feature hashes (a signature is a
 * message class). Whether a shorter input is sent for the merge must not depend on what
 * the executor that ran it sent before, or the kept corpus differs between jobs counts
 * (it did from case ~800 on: an executor that had sent a behaviour only under another
 * hash sent no shorter input for it, where one executor running every case had sent the
 * first one of that hash and did). */
FG_TEST(gate_report_is_the_same_for_jobs_1_2)
{
    char root[256], findings[300], farg[320], prog[300], path[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(findings, sizeof findings, "%s/f", root);
    snprintf(farg, sizeof farg, "--findings=%s", findings);
    snprintf(path, sizeof path, "%s/report.json", findings);
    snprintf(prog, sizeof prog, "%s/fuzzgate", fgt_build_dir());
    char *report[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        fgt_rmrf(findings); /* the same path both times: report.json names its files */
        char *argv[] = {prog, "--corpus=corpus", farg, "--cases=3000",
                        i ? "--jobs=2" : "--jobs=1", NULL};
        fgt_run r;
        CHECK(fgt_spawn(argv, NULL, &r) == 0);
        CHECK(r.exited && r.code == 0);
        CHECK(strstr(r.out, "options: PASS 3000 cases") != NULL);
        fgt_run_free(&r);
        report[i] = fgt_slurp(path, NULL);
    }
    CHECK(report[0] && report[1] && strcmp(report[0], report[1]) == 0);
    if (report[0] && report[1] && strcmp(report[0], report[1]) != 0)
        fprintf(stderr, "--jobs=2 differs from --jobs=1:\n%s\n---\n%s\n", report[0],
                report[1]);
    free(report[0]);
    free(report[1]);
    fgt_rmrf(root);
}

/* A findings directory that cannot be written loses nothing: every finding's class and
 * hex reach stderr, and the exit status says storing failed. Crashes included: the
 * supervisor, not the dying executor, stores them. (A regular file where the directory
 * should be: mkdir fails under it even for root.) */
FG_TEST(supervised_unwritable_findings_lose_nothing)
{
    char root[256], blocker[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(blocker, sizeof blocker, "%s/not-a-dir", root);
    CHECK(fgt_write(blocker, "x", 1) == 0);
    fgt_run r;
    CHECK(planted(&r, blocker, "--targets=planted_segv,planted_check", NULL, NULL) == 0);
    CHECK(r.exited && r.code == 2);
    CHECK(strstr(r.out, "a finding could not be stored") != NULL);
    CHECK(strstr(r.err, "FINDING planted_segv crash-") != NULL);
    CHECK(strstr(r.err, "FINDING planted_check check-") != NULL);
    CHECK(strstr(r.err, "input (1 bytes): ab") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* Memory the heap oracle cannot see (mmap): the supervisor's RSS limit makes it an `oom`
 * finding and the run goes on. (600 cases: two or three executors meet the limit; 2000
 * took seven, 256 MiB mapped each, for nothing more.) */
FG_TEST(supervised_rss_limit_is_an_oom_finding)
{
    char root[256];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgt_run r;
    CHECK(planted(&r, root, "--rss-limit-mb=128", "--cases=600", "planted_rss") == 0);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, "planted_rss: FAIL 600 cases") != NULL);
    CHECK_EQ_U(classes_of(r.out, "oom"), 1);
    CHECK(strstr(r.out, "passed the limit of 128 MiB") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* An executor killed (RSS limit) while it waits at its epoch's end is counted once among
 * the epoch's finished executors: counted twice, the epoch closed while another executor
 * still ran it, and that one's records reached a later merge (an engine assertion; 5 of 5
 * runs on the old count). Its finding is the last input it ran (planted.c says how the
 * target makes it wait). */
FG_TEST(supervised_executor_killed_while_waiting_is_counted_once)
{
    char root[256];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgt_run r;
    CHECK(planted4(&r, root, "--rss-limit-mb=128", "--cases=64", "--jobs=2",
                   "planted_rss_waiting") == 0);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.err, "assertion failed") == NULL);
    CHECK(strstr(r.out, "planted_rss_waiting: FAIL 64 cases") != NULL);
    CHECK_EQ_U(classes_of(r.out, "oom"), 1);
    /* Killed waiting: the empty input, the last it ran. (Killed in the ~8 ms "hold"
     * takes to map its memory: "hold" first, then the restarted executor is killed
     * waiting after the empty input.) */
    CHECK(strstr(r.out, "0 bytes, empty input)") != NULL ||
          strstr(r.out, "4 bytes, seed #69)") != NULL);
    if (!(r.exited && r.code == 1))
        fprintf(stderr, "%s\n%s\n", r.out, r.err);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* A process already past the RSS limit before it forks (the host's own memory, which every
 * executor shares) is a usage error naming the option, not an `oom` finding on whichever
 * input ran when the first executor was killed. */
FG_TEST(supervised_rss_limit_below_the_host_is_an_error)
{
    char root[256];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgt_run r;
    CHECK(planted(&r, root, "--rss-limit-mb=128", "--cases=64", "planted_rss_inherited") == 0);
    CHECK(r.exited && r.code == 2);
    CHECK(strstr(r.err, "before it forks an executor, past the RSS limit of 128 MiB") != NULL);
    CHECK(strstr(r.err, "--rss-limit-mb") != NULL);
    CHECK(strstr(r.out, "planted_rss_inherited: ERROR") != NULL);
    CHECK(strstr(r.err, "FINDING") == NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* How many times `needle` occurs in `hay`. */
static unsigned occurrences(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* A crash in a -g build names its frames as a person reads them, function and file:line,
 * in the run's summary and in the .txt beside the finding; the supervisor symbolizes
 * (oracle/symbolize.h). The class is the frames' module offsets all the same: the run
 * without a supervisor, whose crash handler names frames by dladdr alone, gets the same
 * class id. A class is printed once a run however many smaller inputs follow. */
FG_TEST(supervised_crash_names_its_function_and_line)
{
    char root[256], txt[600], dir[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgt_run r;
    CHECK(planted(&r, root, "--cases=3000", "planted_abort_named", NULL) == 0);
    CHECK(r.exited && r.code == 1);
    CHECK_EQ_U(classes_of(r.out, "crash"), 1);
    if (system("command -v addr2line >/dev/null 2>&1 || "
               "command -v llvm-symbolizer >/dev/null 2>&1") != 0) {
        printf("  skipped: no addr2line or llvm-symbolizer on PATH\n");
    } else {
        CHECK(strstr(r.out, "at planted_abort_here (") != NULL);
        CHECK(strstr(r.out, "test/planted/planted.c:") != NULL);
        CHECK(strstr(r.out, "), abort_named_run (") != NULL);
        snprintf(dir, sizeof dir, "%s/planted_abort_named", root);
        CHECK(fgt_find(dir, "crash-", ".txt", txt, sizeof txt) == 1);
        char *t = fgt_slurp(txt, NULL);
        CHECK(t && strstr(t, "\ndetail: the target died of SIGABRT (abort) at "
                             "planted_abort_here (") != NULL);
        CHECK(t && strstr(t, "test/planted/planted.c:") != NULL);
        free(t);
    }
    CHECK_EQ_U(occurrences(r.err, "FINDING planted_abort_named "), 1);
    const char *id = strstr(r.out, " crash crash-");
    char cls[64] = "";
    if (id)
        sscanf(id + 7, "%63[a-z0-9-]", cls);
    fgt_run_free(&r);

    char root2[256], bin[128];
    CHECK(fgt_tmpdir(root2, sizeof root2) == 0);
    CHECK(planted(&r, root2, "--no-fork", "--cases=3000", "planted_abort_named") == 0);
    CHECK(!r.exited && r.signal == SIGABRT);
    snprintf(dir, sizeof dir, "%s/planted_abort_named", root2);
    snprintf(bin, sizeof bin, "%s.bin", cls);
    CHECK(cls[0] && fgt_find(dir, bin, "", txt, sizeof txt) == 1);
    fgt_run_free(&r);
    fgt_rmrf(root);
    fgt_rmrf(root2);
}
