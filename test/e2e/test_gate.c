/* test/e2e/test_gate.c — the gate end to end: planted bugs reported with the right kind, a
 * stored finding and a replay command that reproduces it; clean twins pass; bad options
 * exit 2 naming the option; every built-in target has a committed corpus. Each run is a
 * child process, so a planted crash kills only that child. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "fuzzgate.h"
#include "engine/base/dir.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* A scratch area: <tmp>/corpus/ and <tmp>/findings/. */
typedef struct scratch {
    char root[256], corpus[300], findings[300], prog[300];
} scratch;

static void scratch_open(scratch *s, const char *binary)
{
    CHECK(fgt_tmpdir(s->root, sizeof s->root) == 0);
    snprintf(s->corpus, sizeof s->corpus, "%s/corpus", s->root);
    snprintf(s->findings, sizeof s->findings, "%s/findings", s->root);
    snprintf(s->prog, sizeof s->prog, "%s/%s", fgt_build_dir(), binary);
}

/* Runs prog with the scratch corpus/findings plus extra args (NULL-terminated). */
static void run_gate(const scratch *s, fgt_run *r, char *const env[], const char *a1,
                     const char *a2, const char *a3)
{
    char corpus[320], findings[320];
    snprintf(corpus, sizeof corpus, "--corpus=%s", s->corpus);
    snprintf(findings, sizeof findings, "--findings=%s", s->findings);
    char *argv[] = {(char *)s->prog, corpus, findings, (char *)a1, (char *)a2, (char *)a3,
                    NULL};
    CHECK(fgt_spawn(argv, env, r) == 0);
}

/* Did the child die of the crash? A sanitizer may catch it first (UBSan's null store,
 * ASan's SEGV report) and exit or abort after the engine stored the finding; in a
 * sanitized build any death that stored the crash counts. */
static int died_of(const fgt_run *r, int signal)
{
    const char *san = getenv("FGT_SANITIZE");
    if (!r->exited && r->signal == signal)
        return 1;
    int died = r->exited ? r->code != 0 : r->signal != 0;
    return san && *san && died && strstr(r->err, "crashed") != NULL;
}

/* Runs a planted target, checks its kind, its files and that the replay reproduces.
 * Supervised (the default), every finding ends as a FAIL line and exit status 1: the
 * executor died, the run did not. With --no-fork (nofork), a crash still kills the one
 * process (signal > 0) and a timeout or exit() ends it with status 1 (signal < 0). */
static void expect_finding_mode(const char *target, const char *kind, int signal, int nofork)
{
    scratch s;
    scratch_open(&s, "test-planted");
    fgt_run r;
    /* 4000 cases find every planted bug (the trigger is one byte); supervised, a hang
     * costs its deadline each time it is hit, so fewer cases keep the test short. */
    run_gate(&s, &r, NULL, target, "--cases=4000", nofork ? "--no-fork" : NULL);
    if (!nofork)
        signal = 0;
    if (signal < 0) {
        CHECK(r.exited && r.code == 1);
        CHECK(strstr(r.err, "this process ends with status 1") != NULL);
    } else if (signal) {
        CHECK(died_of(&r, signal));
    } else {
        CHECK(r.exited && r.code == 1);
        char want[128];
        snprintf(want, sizeof want, "%s: FAIL", target);
        CHECK(strstr(r.out, want) != NULL);
        CHECK(strstr(r.out, "0 passed, 1 failed") != NULL);
    }
    CHECK(strstr(r.err, "FINDING") != NULL);
    CHECK(strstr(r.err, "input (") != NULL);

    char dir[400], bin[600], txt[600];
    snprintf(dir, sizeof dir, "%s/%s", s.findings, target);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s-", kind);
    CHECK(fgt_find(dir, prefix, ".bin", bin, sizeof bin) == 1);
    CHECK(fgt_find(dir, prefix, ".txt", txt, sizeof txt) == 1);
    char *t = fgt_slurp(txt, NULL);
    CHECK(t != NULL);
    if (t) {
        char want[128];
        snprintf(want, sizeof want, "kind: %s\n", kind);
        CHECK(strncmp(t, "fuzzgate finding v1\n", 20) == 0);
        CHECK(strstr(t, want) != NULL);
        CHECK(strstr(t, "\nhex: ") != NULL);
        CHECK(strstr(t, "\nseed: 0x") != NULL);
        CHECK(strstr(t, "\norigin: ") != NULL);
        CHECK(strstr(t, "\nreplay: ") != NULL);
        CHECK(strstr(t, bin) != NULL);
    }
    free(t);
    fgt_run_free(&r);

    /* The replay command reproduces the finding. */
    char findings[320];
    snprintf(findings, sizeof findings, "--findings=%s/replay", s.root);
    char *rargv[] = {s.prog, findings, (char *)target, bin, nofork ? "--no-fork" : NULL, NULL};
    CHECK(fgt_spawn(rargv, NULL, &r) == 0);
    if (signal < 0) {
        CHECK(r.exited && r.code == 1);
        CHECK(strstr(r.err, kind) != NULL);
    } else if (signal) {
        CHECK(died_of(&r, signal));
    } else {
        CHECK(r.exited && r.code == 1);
        CHECK(strstr(r.out, ": FAIL ") != NULL);
        CHECK(strstr(r.out, kind) != NULL);
    }
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

static void expect_finding(const char *target, const char *kind, int signal)
{
    expect_finding_mode(target, kind, signal, 0);
    if (signal)
        expect_finding_mode(target, kind, signal, 1);
}

FG_TEST(gate_planted_check_is_a_check_finding)
{
    expect_finding("planted_check", "check", 0);
}

/* No input passes, so the corpus stays empty: the run goes on (it asserted once) and the
 * class is found and stored, in both modes. */
FG_TEST(gate_a_target_failing_on_every_input_is_one_finding)
{
    expect_finding_mode("planted_fails_always", "check", 0, 0);
    expect_finding_mode("planted_fails_always", "check", 0, 1);
}

FG_TEST(gate_planted_fail_is_a_check_finding)
{
    expect_finding("planted_fail", "check", 0);
}

FG_TEST(gate_planted_segv_is_a_crash)
{
    expect_finding("planted_segv", "crash", SIGSEGV);
}

FG_TEST(gate_planted_abort_is_a_crash)
{
    expect_finding("planted_abort", "crash", SIGABRT);
}

FG_TEST(gate_planted_fpe_is_a_crash)
{
    expect_finding("planted_fpe", "crash", SIGFPE);
}

FG_TEST(gate_planted_stack_overflow_is_a_crash)
{
    expect_finding("planted_stack", "crash", SIGSEGV);
}

FG_TEST(gate_planted_input_write_is_a_write_finding)
{
    expect_finding("planted_write", "write", 0);
}

FG_TEST(gate_declared_length_allocation_is_amplification)
{
    expect_finding("planted_amplify", "amplification", 0);
}

FG_TEST(gate_malloc_size_max_is_amplification)
{
    expect_finding("planted_huge", "amplification", 0);
}

/* A library that keeps a copy of its latest input (libxml2's last error) set it in the case
 * the refusal ended: the engine must leave that block to the library, or the next case's
 * free of it is a double free, a crash found in an innocent input (and with --no-fork the
 * end of the run). Supervised and not, the one finding is the amplification. */
FG_TEST(gate_an_ended_case_leaves_the_library_what_it_kept)
{
    for (int nofork = 0; nofork <= 1; nofork++) {
        scratch s;
        scratch_open(&s, "test-planted");
        fgt_run r;
        run_gate(&s, &r, NULL, "planted_amplify_latest", "--cases=4000",
                 nofork ? "--no-fork" : NULL);
        CHECK(r.exited && r.code == 1);
        CHECK(strstr(r.out, "planted_amplify_latest: FAIL 4000 cases") != NULL);
        CHECK(strstr(r.out, ", 1 finding") != NULL); /* then "\n", or ", N features" */
        CHECK(strstr(r.out, "  amplification amplification-") != NULL);
        CHECK(strstr(r.err, "crash") == NULL);
        fgt_run_free(&r);
        fgt_rmrf(s.root);
    }
}

FG_TEST(gate_leak_on_one_path_is_retention)
{
    expect_finding("planted_leak", "retention", 0);
}

FG_TEST(gate_leak_of_one_small_block_is_retention)
{
    expect_finding("planted_leak_small", "retention", 0);
}

FG_TEST(gate_descriptor_leak_is_retention)
{
    expect_finding("planted_fd_leak", "retention", 0);
}

/* Comparison feedback: an 8-byte memcmp magic, then a 32-bit constant, found within the
 * default case count in an instrumented build (make check INSTRUMENT=1). */
FG_TEST(gate_instrumented_build_solves_a_memcmp_magic_and_a_u32)
{
    const char *inst = getenv("FGT_INSTRUMENT");
    if (!inst || strcmp(inst, "1") != 0) {
        printf("  skipped: comparison feedback needs make check INSTRUMENT=1\n");
        return;
    }
    expect_finding("planted_magic", "crash", SIGABRT);
}

/* Checksum repair: an 8-byte magic behind a CRC-32 over the payload, found within the
 * default case count in an instrumented build (the CRC comparison is an integer one, heard
 * through trace-cmp only). */
FG_TEST(gate_instrumented_build_repairs_a_crc32_guard)
{
    const char *inst = getenv("FGT_INSTRUMENT");
    if (!inst || strcmp(inst, "1") != 0) {
        printf("  skipped: checksum repair needs make check INSTRUMENT=1\n");
        return;
    }
    expect_finding("planted_crc", "crash", SIGABRT);
}

FG_TEST(gate_infinite_loop_is_a_timeout)
{
    /* In an instrumented build (gcc trace-pc's edges, or either compiler's traced
     * comparisons) the deterministic work budget ends the hang and the run goes on;
     * otherwise the watchdog's deadline ends the process. */
    const char *budget = getenv("FGT_WORK_BUDGET");
    expect_finding("planted_hang", "timeout", budget && strcmp(budget, "1") == 0 ? 0 : -1);
}

FG_TEST(gate_exit_mid_case_is_an_exit_finding)
{
    expect_finding("planted_exit", "exit", -1);
}

/* A clean twin must pass the whole default gate with no finding of any kind. */
static void expect_clean(const char *target)
{
    scratch s;
    scratch_open(&s, "test-planted");
    fgt_run r;
    run_gate(&s, &r, NULL, target, NULL, NULL);
    char want[128];
    snprintf(want, sizeof want, "%s: PASS 20000 cases", target);
    int ok = r.exited && r.code == 0 && strstr(r.out, want) &&
             strstr(r.out, "\n1 passed, 0 failed\n") && !strstr(r.err, "FINDING");
    if (!ok)
        printf("  %s: exit %d\n%s%s", target, r.code, r.out, r.err);
    CHECK(ok);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

FG_TEST(gate_clean_twin_passes)
{
    expect_clean("planted_clean");
}

FG_TEST(gate_clean_twins_of_the_heap_and_time_oracles_pass)
{
    expect_clean("planted_amplify_clean"); /* a declared length bounded by bytes present */
    expect_clean("planted_lazy");          /* lazy initialisation: retained once only */
    expect_clean("planted_keep_latest");   /* the latest error kept, a cache: no growth */
    expect_clean("planted_doubling");      /* realloc doubling within the allowance */
    expect_clean("planted_thread_free");   /* freed by a second thread */
    expect_clean("planted_old_free");      /* frees memory of an earlier case */
    expect_clean("planted_slow");          /* slow but bounded */
    expect_clean("planted_fd_clean");      /* opens and closes a descriptor */
}

/* "Keep the latest" frees what the case before left: within a window that is seen, so the
 * cases are not re-run one by one (each one was, three runs a case, before windows). */
FG_TEST(gate_keep_the_latest_costs_no_rerun_per_case)
{
    scratch s;
    scratch_open(&s, "test-planted");
    fgt_run r;
    char *env[] = {"FGT_COUNT_CALLS=1", NULL};
    run_gate(&s, &r, env, "--targets=planted_keep_latest", "--no-fork", "--cases=4000");
    unsigned long calls = 0;
    const char *at = strstr(r.err, "planted_keep_latest: ");
    CHECK(r.exited && r.code == 0 && at != NULL);
    if (at)
        calls = strtoul(at + strlen("planted_keep_latest: "), NULL, 10);
    /* 4000 cases; a window's last case and the first of each first byte (a cache) re-run
     * twice: about 4000 + 2 * (63 + 256) at most. */
    if (!(calls >= 4000 && calls < 5000))
        printf("  calls %lu\n%s", calls, r.err);
    CHECK(calls >= 4000 && calls < 5000);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

/* A committed corpus file that trips the bug is reported from the replay, by its name. */
FG_TEST(gate_corpus_file_is_replayed_first)
{
    scratch s;
    scratch_open(&s, "test-planted");
    char dir[400], file[500];
    snprintf(dir, sizeof dir, "%s/planted_check", s.corpus);
    CHECK(fgt_mkdirs(dir) == 0);
    snprintf(file, sizeof file, "%s/boundary-bug", dir);
    CHECK(fgt_write(file, "\xab", 1) == 0);
    fgt_run r;
    run_gate(&s, &r, NULL, "planted_check", "--cases=0", NULL);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, "planted_check: FAIL 0 cases") != NULL);
    CHECK(strstr(r.out, "boundary-bug") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

/* Every bad option value is exit 2 with a message naming the option. */
FG_TEST(gate_bad_options_exit_2_naming_the_option)
{
    static const struct {
        const char *env, *arg, *named;
    } cases[] = {
        {"FUZZGATE_CASES=-3", NULL, "FUZZGATE_CASES"},
        {"FUZZGATE_SECONDS=abc", NULL, "FUZZGATE_SECONDS"},
        {"FUZZGATE_SEED=12abc", NULL, "FUZZGATE_SEED"},
        {"FUZZGATE_MAX_LEN=-1", NULL, "FUZZGATE_MAX_LEN"},
        {"FUZZGATE_VERBOSE=maybe", NULL, "FUZZGATE_VERBOSE"},
        {NULL, "--cases=-3", "--cases"},
        {NULL, "--seconds=abc", "--seconds"},
        {NULL, "--cases=1x", "--cases"},
        {NULL, "--bogus", "--bogus"},
        {NULL, "--targets=nosuch", "nosuch"},
        {NULL, "nosuch_target", "nosuch_target"},
        {"FUZZGATE_TARGETS=planted_clean,nosuch", NULL, "nosuch"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scratch s;
        scratch_open(&s, "test-planted");
        char env[128];
        char *envv[] = {env, NULL};
        if (cases[i].env)
            snprintf(env, sizeof env, "%s", cases[i].env);
        fgt_run r;
        run_gate(&s, &r, cases[i].env ? envv : NULL, cases[i].arg, NULL, NULL);
        int ok = r.exited && r.code == 2 &&
                 (strstr(r.err, cases[i].named) || strstr(r.out, cases[i].named));
        if (!ok)
            printf("  case %zu (%s %s): exit %d, stderr: %s\n", i,
                   cases[i].env ? cases[i].env : "", cases[i].arg ? cases[i].arg : "", r.code,
                   r.err);
        CHECK(ok);
        fgt_run_free(&r);
        fgt_rmrf(s.root);
    }
}

FG_TEST(gate_list_and_help)
{
    scratch s;
    scratch_open(&s, "test-planted");
    fgt_run r;
    run_gate(&s, &r, NULL, "--list", NULL, NULL);
    CHECK(r.exited && r.code == 0);
    /* sorted by name, whatever the link order */
    const char *a = strstr(r.out, "planted_abort"), *c = strstr(r.out, "planted_clean");
    const char *w = strstr(r.out, "planted_write");
    CHECK(a && c && w && a < c && c < w);
    fgt_run_free(&r);
    run_gate(&s, &r, NULL, "--help", NULL, NULL);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.out, "FUZZGATE_CASES") != NULL);
    CHECK(strstr(r.out, "--seconds") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

/* Every built-in target ships a committed corpus: a gate with nothing to replay proves
 * less than it seems to. */
FG_TEST(gate_every_builtin_target_has_a_corpus)
{
    CHECK(fg_target_count() >= 4);
    for (size_t i = 0; i < fg_target_count(); i++) {
        const fg_target *t = fg_target_at(i);
        char dir[300];
        snprintf(dir, sizeof dir, "corpus/%s", t->name);
        fgi_names names;
        int missing = 0;
        CHECK(fgi_dir_list(dir, &names, &missing) == FG_OK);
        if (missing || names.count == 0)
            printf("  target %s has no committed corpus in %s\n", t->name, dir);
        CHECK(!missing && names.count > 0);
        fgi_names_free(&names);
    }
}

/* A real library's clean twin, when the build found the library (the target is in
 * build/test-planted's --list only then): it passes the whole default gate with no
 * finding of any kind. Without the library the test says it skipped, and why. */
static void expect_clean_if_built(const char *target, const char *package)
{
    scratch s;
    scratch_open(&s, "test-planted");
    fgt_run r;
    run_gate(&s, &r, NULL, "--list", NULL, NULL);
    CHECK(r.exited && r.code == 0);
    char line[64];
    snprintf(line, sizeof line, "\n%s ", target);
    /* a line of --list that starts with the name */
    int have = strncmp(r.out, line + 1, strlen(line + 1)) == 0 || strstr(r.out, line);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
    if (!have) {
        printf("  skipped: %s: built without it (install %s)\n", target, package);
        return;
    }
    expect_clean(target);
}

/* zlib: allocations and process-wide state of its own (the CRC tables). */
FG_TEST(gate_real_library_with_global_state_is_clean)
{
    expect_clean_if_built("planted_zlib", "zlib1g-dev");
}

/* libxml2 keeps the last error and caches encoding handlers (the seeds declare SHIFT_JIS,
 * ISO-8859-1 and UTF-16); libyaml and expat: parsers with state of their own. Retention
 * is growth, so none of it is a finding. */
FG_TEST(gate_real_xml_and_yaml_libraries_are_clean)
{
    expect_clean_if_built("planted_xml", "libxml2-dev");
    expect_clean_if_built("planted_yaml", "libyaml-dev");
    expect_clean_if_built("planted_expat", "libexpat1-dev");
}

/* fg_reject keeps an input out of the corpus however novel it is: only the empty input
 * (always kept, as the base of every mutation) remains. */
FG_TEST(gate_rejected_inputs_are_not_kept)
{
    scratch s;
    scratch_open(&s, "test-planted");
    fgt_run r;
    run_gate(&s, &r, NULL, "planted_reject", "--cases=3000", NULL);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.out, "corpus 1,") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

/* A behaviour a rejected input showed first is not known for it: the accepted input doing
 * the same is kept when it comes (before, 40 of the 128 never were, even in 100,000
 * cases: a rejected case's signature was counted, so the accepted twin was no news). */
FG_TEST(gate_a_behaviour_first_seen_rejected_is_kept_when_accepted)
{
    scratch s;
    scratch_open(&s, "test-planted");
    fgt_run r;
    for (int jobs = 1; jobs <= 2; jobs++) {
        run_gate(&s, &r, NULL, "planted_reject_twin", "--cases=20000",
                 jobs == 1 ? "--jobs=1" : "--jobs=2");
        CHECK(r.exited && r.code == 0);
        CHECK(strstr(r.out, "corpus 129,") != NULL);
        fgt_run_free(&r);
    }
    fgt_rmrf(s.root);
}

/* A target built without what it needs (planted_skipped, or the Brotli targets without
 * libbrotli-dev) is listed, printed as skipped and counted apart: never a pass, never a
 * failure, never silent. The closing line names the skips only when there are some. */
FG_TEST(gate_skipped_target_is_listed_and_counted_apart)
{
    scratch s;
    scratch_open(&s, "test-planted");
    fgt_run r;
    run_gate(&s, &r, NULL, "planted_skipped", NULL, NULL);
    CHECK(r.exited && r.code == 0);
    CHECK(strcmp(r.out, "planted_skipped: skipped: built without the planted dependency (a "
                        "test)\n0 passed, 0 failed, 1 skipped\n") == 0);
    char path[400];
    snprintf(path, sizeof path, "%s/report.json", s.findings);
    char *report = fgt_slurp(path, NULL);
    CHECK(report && strstr(report, "{\"name\": \"planted_skipped\", \"status\": \"skipped\", "
                                   "\"skip\": \"built without the planted dependency (a "
                                   "test)\"}") != NULL);
    free(report);
    fgt_run_free(&r);

    run_gate(&s, &r, NULL, "--targets=planted_skipped,planted_clean", "--cases=50", NULL);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.out, "planted_clean: PASS 50 cases") != NULL);
    CHECK(strstr(r.out, "\n1 passed, 0 failed, 1 skipped\n") != NULL);
    fgt_run_free(&r);
    run_gate(&s, &r, NULL, "--targets=planted_skipped,planted_check", NULL, NULL);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, "\n0 passed, 1 failed, 1 skipped\n") != NULL);
    fgt_run_free(&r);

    run_gate(&s, &r, NULL, "--list", NULL, NULL);
    CHECK(strstr(r.out, "a target built without what it needs (skipped: built without the "
                        "planted dependency (a test))\n") != NULL);
    fgt_run_free(&r);

    /* Nothing to replay with: a usage error, not a pass. */
    char file[400];
    snprintf(file, sizeof file, "%s/input", s.root);
    CHECK(fgt_write(file, "x", 1) == 0);
    run_gate(&s, &r, NULL, "planted_skipped", file, NULL);
    CHECK(r.exited && r.code == 2);
    CHECK(strstr(r.out, "planted_skipped: skipped: ") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

/* The Brotli targets are in every build: run with libbrotli-dev, listed as skipped (and
 * why) without it. make check BROTLI=0 builds the second kind. */
FG_TEST(gate_brotli_targets_run_or_say_why_not)
{
    scratch s;
    scratch_open(&s, "fuzzgate");
    char findings[320];
    snprintf(findings, sizeof findings, "--findings=%s", s.findings);
    char *argv[] = {s.prog, "--corpus=corpus", findings, "--cases=100",
                    "brotli_decode,brotli_roundtrip,brotli_stream", NULL};
    fgt_run r;
    CHECK(fgt_spawn(argv, NULL, &r) == 0);
    CHECK(r.exited && r.code == 0);
#ifdef FG_HAVE_BROTLI
    CHECK(strstr(r.out, "brotli_decode: PASS 100 cases") != NULL);
    CHECK(strstr(r.out, "brotli_roundtrip: PASS 100 cases") != NULL);
    CHECK(strstr(r.out, "brotli_stream: PASS 100 cases") != NULL);
    CHECK(strstr(r.out, "\n3 passed, 0 failed\n") != NULL);
#else
    CHECK(strcmp(r.out, "brotli_decode: skipped: built without brotli (install libbrotli-dev)\n"
                        "brotli_roundtrip: skipped: built without brotli (install "
                        "libbrotli-dev)\n"
                        "brotli_stream: skipped: built without brotli (install libbrotli-dev)\n"
                        "0 passed, 0 failed, 3 skipped\n") == 0);
    printf("  (built without brotli: the Brotli targets say they skipped)\n");
#endif
    if (!r.exited || r.code != 0)
        printf("%s%s", r.out, r.err);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

/* A Brotli decoder wrapper that drops the last byte when the output fills its chunk is
 * caught by the differential and round-trip invariants within the default case count (its
 * seeds pass); the same wrapper without the bug passes the whole gate. */
FG_TEST(gate_broken_brotli_wrapper_is_caught_and_its_twin_passes)
{
#ifdef FG_HAVE_BROTLI
    expect_finding("planted_brotli_drop", "check", 0);
    expect_clean("planted_brotli_clean");
#else
    printf("  skipped: built without brotli (install libbrotli-dev)\n");
#endif
}

/* A wrapper whose output buffer grows with the stream: the bomb seed is an amplification
 * finding at the wrapper's own realloc, not an out-of-memory. */
FG_TEST(gate_brotli_bomb_is_amplification_not_oom)
{
#ifdef FG_HAVE_BROTLI
    scratch s;
    scratch_open(&s, "test-planted");
    fgt_run r;
    run_gate(&s, &r, NULL, "planted_brotli_bomb", "--cases=0", NULL);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, "planted_brotli_bomb: FAIL 0 cases") != NULL);
    CHECK(strstr(r.out, "  amplification amplification-") != NULL);
    CHECK(strstr(r.out, "seed #0): an allocation of ") != NULL);
    CHECK(strstr(r.out, "(at test-planted+0x") != NULL); /* the wrapper, not Brotli */
    fgt_run_free(&r);
    fgt_rmrf(s.root);
#else
    printf("  skipped: built without brotli (install libbrotli-dev)\n");
#endif
}

/* A gate replays a committed corpus: a target without one (a typo in the corpus path,
 * a directory never committed) fails naming the directory and the command that seeds it,
 * and a target that declares FG_NO_CORPUS (every planted one) runs without. */
FG_TEST(gate_target_without_its_corpus_fails_naming_the_directory)
{
    scratch s;
    scratch_open(&s, "fuzzgate");
    fgt_run r;
    run_gate(&s, &r, NULL, "hex", NULL, NULL);
    char want[1000];
    snprintf(want, sizeof want, "hex: FAIL the corpus directory %s/hex is missing", s.corpus);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, want) != NULL);
    snprintf(want, sizeof want, "--corpus=%s --corpus-out=%s hex`", s.corpus, s.corpus);
    CHECK(strstr(r.out, want) != NULL);
    CHECK(strstr(r.out, "\n0 passed, 1 failed\n") != NULL);
    fgt_run_free(&r);

    /* An empty directory is no better; the seeding command itself runs and seeds it. */
    char dir[400];
    snprintf(dir, sizeof dir, "%s/hex", s.corpus);
    CHECK(fgt_mkdirs(dir) == 0);
    run_gate(&s, &r, NULL, "hex", NULL, NULL);
    CHECK(r.exited && r.code == 1 && strstr(r.out, "hex is empty") != NULL);
    fgt_run_free(&r);
    char out[420];
    snprintf(out, sizeof out, "--corpus-out=%s", s.corpus);
    run_gate(&s, &r, NULL, out, "--cases=500", "hex");
    CHECK(r.exited && r.code == 0);
    fgt_run_free(&r);
    run_gate(&s, &r, NULL, "--cases=0", "hex", NULL);
    CHECK(r.exited && r.code == 0 && strstr(r.out, "hex: PASS 0 cases") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

/* A file that cannot be replayed is named with its cause, not "input/output error". */
FG_TEST(gate_replay_of_a_missing_file_names_the_cause)
{
    char prog[300];
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    char *argv[] = {prog, "planted_clean", "/no/such/input", NULL};
    fgt_run r;
    CHECK(fgt_spawn(argv, NULL, &r) == 0);
    CHECK(r.exited && r.code == 2);
    CHECK(strstr(r.out, "/no/such/input: cannot replay: No such file or directory") != NULL);
    fgt_run_free(&r);
}
