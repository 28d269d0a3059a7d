/* test/e2e/test_workflow.c — the finding workflow end to end: --minimize keeps the class and
 * shrinks planted bugs to their trigger, a depth run minimises every new class, --merge
 * keeps a smallest covering set, the committed-corpus budget fails a target, and SIGINT
 * ends a depth run with its reports written and no partial file. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int planted(fgt_run *r, const char *a1, const char *a2, const char *a3,
                   const char *a4)
{
    char prog[300];
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    char *argv[] = {prog, (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL};
    return fgt_spawn(argv, NULL, r);
}

/* A 4 KiB input with the trigger byte buried at 3/4 of it. */
static void write_big(const char *path)
{
    static unsigned char big[4096];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (unsigned char)(1 + i % 100);
    big[3 * sizeof big / 4] = 0xAB;
    CHECK(fgt_write(path, big, sizeof big) == 0);
}

static void minimized_to_trigger(const char *target, const char *kind)
{
    char root[256], big[300], fdir[320], min[320];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(big, sizeof big, "%s/big.bin", root);
    snprintf(fdir, sizeof fdir, "--findings=%s/f", root);
    snprintf(min, sizeof min, "--minimize=%s", big);
    write_big(big);
    fgt_run r;
    CHECK(planted(&r, fdir, min, target, NULL) == 0);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.out, "minimised from 4096 to 1 bytes") != NULL);
    char dir[400], bin[600], prefix[32];
    snprintf(dir, sizeof dir, "%s/f/%s", root, target);
    snprintf(prefix, sizeof prefix, "%s-", kind);
    CHECK(fgt_find(dir, prefix, ".bin", bin, sizeof bin) == 1);
    size_t n = 0;
    char *data = fgt_slurp(bin, &n);
    CHECK(data && n == 1 && (unsigned char)data[0] == 0xAB);
    free(data);
    fgt_run_free(&r);
    /* The minimised file still lands in the class: its replay reports the same kind. */
    char *rargv[] = {NULL};
    (void)rargv;
    CHECK(planted(&r, fdir, target, bin, NULL) == 0);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, kind) != NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

FG_TEST(workflow_minimize_a_crash_keeps_its_class)
{
    minimized_to_trigger("planted_segv", "crash");
}

FG_TEST(workflow_minimize_a_check_keeps_its_class)
{
    minimized_to_trigger("planted_check", "check");
}

FG_TEST(workflow_minimize_a_leak_keeps_its_class)
{
    minimized_to_trigger("planted_leak", "retention");
}

FG_TEST(workflow_minimize_a_passing_file_says_so)
{
    char root[256], file[300], min[320], fdir[320];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(file, sizeof file, "%s/ok.bin", root);
    snprintf(min, sizeof min, "--minimize=%s", file);
    snprintf(fdir, sizeof fdir, "--findings=%s/f", root);
    CHECK(fgt_write(file, "hello", 5) == 0);
    fgt_run r;
    CHECK(planted(&r, fdir, min, "planted_segv", NULL) == 0);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, "nothing to minimise") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* A depth run over a target with two planted bugs reports both classes, each minimised
 * to its one trigger byte. Minimisation has the run's reserve (a second of the two):
 * under a sanitizer on a loaded machine a class may not get to the end, which the run
 * then says ("(time)"); in a plain build both must. */
FG_TEST(workflow_depth_run_minimises_each_new_class)
{
    char root[256], fdir[320];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(fdir, sizeof fdir, "--findings=%s/f", root);
    fgt_run r;
    CHECK(planted(&r, fdir, "--seconds=2", "matrix_segv", NULL) == 0);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, "crash crash-") != NULL);
    CHECK(strstr(r.out, "check check-") != NULL);
    /* Both summary lines show the minimised size. */
    const char *p = r.out;
    unsigned one_byte = 0;
    while ((p = strstr(p, ", 1 bytes, ")) != NULL) {
        one_byte++;
        p++;
    }
    const char *san = getenv("FGT_SANITIZE");
    unsigned timed = 0;
    for (p = r.out; (p = strstr(p, "(time)")) != NULL; p++)
        timed++;
    if (san && *san && one_byte + timed == 2 && timed)
        printf("  %u class(es) not minimised to the end in the reserve under %s\n", timed,
               san);
    else
        CHECK_EQ_U(one_byte, 2);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* planted_clean's signature is (first byte >> 4, a length bucket): six inputs of one
 * shape and one of another merge into two, and a second merge adds nothing. */
FG_TEST(workflow_merge_keeps_a_smallest_covering_set)
{
    char root[256], in[300], out[300], merge[320], fdir[320], path[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(in, sizeof in, "%s/in", root);
    snprintf(out, sizeof out, "%s/out", root);
    snprintf(merge, sizeof merge, "--merge=%s", out);
    snprintf(fdir, sizeof fdir, "--findings=%s/f", root);
    CHECK(mkdir(in, 0755) == 0);
    for (int i = 0; i < 6; i++) {
        char text[8];
        snprintf(text, sizeof text, "abc%d", i);
        snprintf(path, sizeof path, "%s/x%d", in, i);
        CHECK(fgt_write(path, text, 4) == 0);
    }
    snprintf(path, sizeof path, "%s/y", in);
    CHECK(fgt_write(path, "ab", 2) == 0);
    fgt_run r;
    CHECK(planted(&r, fdir, merge, "planted_clean", in) == 0);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.out, "kept 2, 2 of them new") != NULL);
    CHECK_EQ_U(fgt_count_entries(out, ""), 2);
    fgt_run_free(&r);
    CHECK(planted(&r, fdir, merge, "planted_clean", in) == 0);
    CHECK(strstr(r.out, "kept 2, 0 of them new") != NULL);
    CHECK_EQ_U(fgt_count_entries(out, ""), 2);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* Makes <root>/corpus/planted_clean/ (a committed corpus of the clean target); its path
 * into dir. */
static void clean_corpus_dir(const char *root, char *dir, size_t cap)
{
    snprintf(dir, cap, "%s/corpus", root);
    CHECK(mkdir(dir, 0755) == 0);
    snprintf(dir, cap, "%s/corpus/planted_clean", root);
    CHECK(mkdir(dir, 0755) == 0);
}

FG_TEST(workflow_committed_corpus_past_its_budget_fails)
{
    char root[256], dir[320], path[400], corpus[320], fdir[320];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    clean_corpus_dir(root, dir, sizeof dir);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/in%d", dir, i);
        CHECK(fgt_write(path, "zz", 2) == 0);
    }
    snprintf(path, sizeof path, "%s/budget.txt", dir);
    CHECK(fgt_write(path, "files 2\n", 8) == 0);
    snprintf(corpus, sizeof corpus, "--corpus=%s/corpus", root);
    snprintf(fdir, sizeof fdir, "--findings=%s/f", root);
    fgt_run r;
    char prog[300], junit_env[320];
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    snprintf(junit_env, sizeof junit_env, "FUZZGATE_JUNIT=%s/junit.xml", root);
    char *argv[] = {prog, corpus, fdir, "--cases=100", "planted_clean", NULL};
    char *env[] = {junit_env, NULL};
    CHECK(fgt_spawn(argv, env, &r) == 0);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, "planted_clean: FAIL") != NULL);
    CHECK(strstr(r.out, "0 passed, 1 failed") != NULL);
    /* The three files share one signature: a merge would keep one. */
    CHECK(strstr(r.err, "would drop 2 of 3") != NULL);
    fgt_run_free(&r);
    /* The CI reports say the target failed, and why, as the closing line does. */
    snprintf(path, sizeof path, "%s/junit.xml", root);
    char *xml = fgt_slurp(path, NULL);
    CHECK(xml && strstr(xml, "failures=\"1\"") != NULL);
    CHECK(xml && strstr(xml, "<failure type=\"gate\" message=\"") != NULL);
    CHECK(xml && strstr(xml, "over its budget") != NULL);
    free(xml);
    snprintf(path, sizeof path, "%s/f/FUZZ.md", root);
    char *md = fgt_slurp(path, NULL);
    CHECK(md && strstr(md, "# fuzzgate: 0 passed, 1 failed\n") != NULL);
    CHECK(md && strstr(md, "| `planted_clean` | **FAIL** |") != NULL);
    free(md);
    fgt_rmrf(root);
}

/* Starts `test-planted a1 [a2] --seconds=60 target` in the background (output discarded),
 * lets it run a second, sends it sig and returns its wait status. */
static int interrupt_depth_run(const char *a1, const char *a2, const char *target, int sig)
{
    char prog[300];
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(126);
        if (a2)
            execl(prog, prog, a1, a2, "--seconds=60", target, (char *)NULL);
        else
            execl(prog, prog, a1, "--seconds=60", target, (char *)NULL);
        _exit(127);
    }
    struct timespec wait = {1, 0};
    nanosleep(&wait, NULL);
    kill(pid, sig);
    /* It must end by itself, soon: a run that hangs on a signal fails here, not CI. */
    int status = 0;
    for (int tick = 0; tick < 300; tick++) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return status;
        struct timespec t = {0, 100 * 1000 * 1000};
        nanosleep(&t, NULL);
    }
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
    CHECK(!"the run did not end within 30 s of the signal");
    return status;
}

FG_TEST(workflow_sigint_stops_a_depth_run_and_writes_the_reports)
{
    char root[256], fdir[320], report[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(fdir, sizeof fdir, "--findings=%s/f", root);
    int status = interrupt_depth_run(fdir, NULL, "planted_leak", SIGINT);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGINT);
    snprintf(report, sizeof report, "%s/f/report.json", root);
    char *rep = fgt_slurp(report, NULL);
    CHECK(rep && strstr(rep, "planted_leak") != NULL);
    free(rep);
    snprintf(report, sizeof report, "%s/f", root);
    CHECK_EQ_U(fgt_count_entries(report, ".tmp."), 0);
    fgt_rmrf(root);
}

/* A known class whose committed reproducer no longer lands in it: the gate says the fix
 * has landed (and still passes: the list is stale, not the code). */
FG_TEST(workflow_a_known_class_that_no_longer_reproduces_is_reported)
{
    char root[256], dir[320], path[400], corpus[320], fdir[320];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    clean_corpus_dir(root, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/known.txt", dir);
    static const char line[] = "check-0123456789abcdef a bug that has since been fixed\n";
    CHECK(fgt_write(path, line, sizeof line - 1) == 0);
    snprintf(dir, sizeof dir, "%s/corpus/planted_clean/known", root);
    CHECK(mkdir(dir, 0755) == 0);
    snprintf(path, sizeof path, "%s/check-0123456789abcdef.bin", dir);
    CHECK(fgt_write(path, "hello", 5) == 0);
    snprintf(corpus, sizeof corpus, "--corpus=%s/corpus", root);
    snprintf(fdir, sizeof fdir, "--findings=%s/f", root);
    fgt_run r;
    CHECK(planted(&r, corpus, fdir, "--cases=100", "planted_clean") == 0);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.out, "known class check-0123456789abcdef no longer reproduces") != NULL);
    CHECK(strstr(r.out, "promote the reproducer") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* --corpus-out: the kept inputs are written under content names, and a second run resumes
 * from them (replays them first). Two runs sharing the directory write each input once. */
FG_TEST(workflow_corpus_out_is_written_and_resumed_from)
{
    char root[256], out[300], outarg[320], fdir[320], tdir[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(out, sizeof out, "%s/keep", root);
    snprintf(outarg, sizeof outarg, "--corpus-out=%s", out);
    snprintf(fdir, sizeof fdir, "--findings=%s/f", root);
    snprintf(tdir, sizeof tdir, "%s/planted_clean", out);
    fgt_run r;
    CHECK(planted(&r, fdir, outarg, "--cases=2000", "planted_clean") == 0);
    CHECK(r.exited && r.code == 0);
    fgt_run_free(&r);
    size_t n = fgt_count_entries(tdir, "");
    CHECK(n > 5);
    /* Names are the SHA-1 of the content. */
    DIR *d = opendir(tdir);
    struct dirent *e;
    unsigned hex_named = 0;
    while (d && (e = readdir(d)) != NULL)
        hex_named += strlen(e->d_name) == 40 && strspn(e->d_name, "0123456789abcdef") == 40;
    if (d)
        closedir(d);
    CHECK_EQ_U(hex_named, n);
    /* The same run again replays every written input and loses none; its report counts the
     * resumed inputs. (It may add a few: entry reduction can find a shorter input with the
     * same signature and features from the resumed corpus, and writes it as any kept
     * input. Before the plain-build search a second run added nothing.) */
    CHECK(planted(&r, fdir, outarg, "--cases=2000", "planted_clean") == 0);
    CHECK(r.exited && r.code == 0);
    size_t again = fgt_count_entries(tdir, "");
    CHECK(again >= n && again <= n + n / 10);
    char path[400];
    snprintf(path, sizeof path, "%s/f/report.json", root);
    char *rep = fgt_slurp(path, NULL), want[64];
    snprintf(want, sizeof want, "\"replayed\": %zu,", n + 1); /* and the empty input */
    CHECK(rep && strstr(rep, want) != NULL);
    free(rep);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* kill -9 of the parent: the executor dies with it and no partial file is left. */
FG_TEST(workflow_kill_9_leaves_no_partial_file_and_no_executor)
{
    char root[256], fdir[320], out[320], outarg[340];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(fdir, sizeof fdir, "--findings=%s/f", root);
    snprintf(out, sizeof out, "%s/keep", root);
    snprintf(outarg, sizeof outarg, "--corpus-out=%s", out);
    int status = interrupt_depth_run(fdir, outarg, "matrix_leak", SIGKILL);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    struct timespec wait = {1, 0};
    nanosleep(&wait, NULL); /* the executor's death signal is asynchronous */
    /* The executor was in its own process group; nothing of it may be left. */
    char cmd[400];
    /* [-]: the pattern must not match the shell that runs pgrep itself. */
    snprintf(cmd, sizeof cmd, "pgrep -f -- '[-]%s' >/dev/null", outarg + 1);
    CHECK(system(cmd) != 0);
    snprintf(cmd, sizeof cmd, "%s/f/matrix_leak", root);
    CHECK_EQ_U(fgt_count_entries(cmd, ".tmp."), 0);
    snprintf(cmd, sizeof cmd, "%s/matrix_leak", out);
    CHECK_EQ_U(fgt_count_entries(cmd, ".tmp."), 0);
    fgt_rmrf(root);
}

FG_TEST(workflow_sigterm_stops_a_supervised_parallel_run_and_writes_the_reports)
{
    char root[256], fdir[320], report[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(fdir, sizeof fdir, "--findings=%s/f", root);
    int status = interrupt_depth_run(fdir, "--jobs=2", "matrix_segv", SIGTERM);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM);
    snprintf(report, sizeof report, "%s/f/report.json", root);
    char *rep = fgt_slurp(report, NULL);
    CHECK(rep && strstr(rep, "\"kind\": \"crash\"") != NULL);
    free(rep);
    snprintf(report, sizeof report, "%s/f/matrix_segv", root);
    CHECK_EQ_U(fgt_count_entries(report, ".tmp."), 0);
    fgt_rmrf(root);
}
