/* test/e2e/test_libfuzzer.c — the libFuzzer driver: its flags mapped onto fuzzgate options
 * (in process), the custom-mutator domain (in process), and whole runs of a planted
 * libFuzzer harness (build/test-lf, a child process each): libFuzzer-named artifacts,
 * exit statuses, -1 inputs not kept, bad flags exit 2 naming the flag. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "bridge/harness/libfuzzer.h"
#include "engine/run/options.h"
#include "engine/base/rng.h"
#include "engine/base/sha1.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Parses argv (NULL-terminated, argv[0] included); the log text into *log (caller frees). */
static int parse(fgi_lf_config *c, char **log, char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    size_t len;
    FILE *f = open_memstream(log, &len);
    int rc = fgi_lf_parse(c, argc, argv, f);
    fclose(f);
    return rc;
}

FG_TEST(lf_flags_map_onto_fuzzgate_options)
{
    char *argv[] = {"prog", "-runs=500", "-seed=7", "-max_len=64", "-timeout=3",
                    "-dict=words.dict", "dir1", "-exact_artifact_path=out/one", "file2", NULL};
    fgi_lf_config c;
    char *log;
    CHECK(parse(&c, &log, argv) == 0);
    CHECK_EQ_U(c.opt->v.cases, 500);
    CHECK_EQ_U(c.opt->v.seconds, 0);
    CHECK_EQ_U(c.opt->v.seed, 7);
    CHECK_EQ_U(c.opt->v.max_len, 64);
    CHECK_EQ_U(c.opt->v.timeout_ms, 3000);
    CHECK_STR(c.opt->v.dict, "words.dict");
    CHECK_STR(c.opt->v.exact_artifact_path, "out/one");
    CHECK_STR(c.opt->v.artifact_prefix, "./"); /* libFuzzer's default: the current dir */
    CHECK(c.ninputs == 2);
    CHECK_STR(c.inputs[0], "dir1");
    CHECK_STR(c.inputs[1], "file2");
    CHECK_EQ_U(c.allowance_mb, 2048); /* malloc_limit_mb 0: rss_limit_mb's default */
    CHECK(c.error_exitcode == 77);
    CHECK_STR(log, "");
    free(log);
    fgi_lf_config_free(&c);
}

FG_TEST(lf_flags_length_of_the_run)
{
    static const struct {
        const char *a1, *a2;
        uint64_t cases, seconds;
    } rows[] = {
        {"dir", NULL, 20000, 315360000},       /* no -runs: until stopped */
        {"-runs=-1", NULL, 20000, 315360000},
        {"-runs=0", NULL, 0, 0},               /* the corpus replay only */
        {"-max_total_time=5", NULL, 20000, 5},
        {"-runs=9", "-max_total_time=5", 9, 5}, /* the time bound wins, with a warning */
        {"--cases=77", NULL, 77, 0},           /* fuzzgate's own flag says it */
        {"--seconds=3", NULL, 20000, 3},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char *argv[] = {"prog", (char *)rows[i].a1, (char *)rows[i].a2, NULL};
        fgi_lf_config c;
        char *log;
        CHECK(parse(&c, &log, argv) == 0);
        CHECK_EQ_U(c.opt->v.cases, rows[i].cases);
        CHECK_EQ_U(c.opt->v.seconds, rows[i].seconds);
        free(log);
        fgi_lf_config_free(&c);
    }
}

/* A mode does its job once: no time bound (else a merge under the "until stopped" default
 * would fuzz forever), supervised (a crashing input is a trial's result). */
FG_TEST(lf_flags_modes_are_not_timed)
{
    static const char *const rows[][2] = {{"-merge=1", NULL},
                                          {"-set_cover_merge=1", "-max_total_time=9"},
                                          {"-minimize_crash=1", "-runs=5"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char *argv[] = {"prog", (char *)rows[i][0], (char *)rows[i][1], NULL};
        fgi_lf_config c;
        char *log;
        CHECK(parse(&c, &log, argv) == 0);
        CHECK(c.mode != NULL);
        CHECK_EQ_U(c.opt->v.seconds, 0);
        CHECK(c.opt->v.fork == 1);
        free(log);
        fgi_lf_config_free(&c);
    }
}

FG_TEST(lf_flags_driver_values)
{
    fgi_lf_config c;
    char *log;
    char *a1[] = {"prog", "-seed=0", "-timeout=0", "-artifact_prefix=", "-malloc_limit_mb=16",
                  "-print_final_stats=1", "-error_exitcode=3", "-close_fd_mask=1", NULL};
    CHECK(parse(&c, &log, a1) == 0);
    CHECK_EQ_U(c.opt->v.seed, 0x5eed0f6a7e2026ULL); /* 0 keeps the fixed default */
    CHECK_EQ_U(c.opt->v.timeout_ms, 1u << 30);      /* 0: no deadline */
    CHECK_STR(c.opt->v.artifact_prefix, "./");
    CHECK_EQ_U(c.allowance_mb, 16);
    CHECK(c.print_final_stats == 1 && c.error_exitcode == 3 && c.close_fd_mask == 1);
    free(log);
    fgi_lf_config_free(&c);

    char *a2[] = {"prog", "-artifact_prefix=out/x-", "-rss_limit_mb=0", NULL};
    CHECK(parse(&c, &log, a2) == 0);
    CHECK_STR(c.opt->v.artifact_prefix, "out/x-");
    CHECK_EQ_U(c.allowance_mb, 0); /* no limit at all */
    free(log);
    fgi_lf_config_free(&c);

    char *a3[] = {"prog", "-ignore_remaining_args=1", "-runs=abc", "x", NULL};
    CHECK(parse(&c, &log, a3) == 0);
    CHECK(c.ninputs == 2);
    CHECK_STR(c.inputs[0], "-runs=abc");
    free(log);
    fgi_lf_config_free(&c);

    char *a4[] = {"prog", "--", "-runs=abc", NULL};
    CHECK(parse(&c, &log, a4) == 0);
    CHECK(c.ninputs == 1);
    free(log);
    fgi_lf_config_free(&c);
}

FG_TEST(lf_flags_bad_values_exit_2_naming_the_flag)
{
    static const struct {
        const char *arg, *named;
    } rows[] = {
        {"-runs=12abc", "-runs"},
        {"-runs=", "-runs"},
        {"-runs", "-runs"},
        {"-runs=99999999999999999999", "-runs"},
        {"-max_len=-1", "-max_len"},
        {"-max_len=99999999999", "-max_len"},
        {"-seed=abc", "-seed"},
        {"-seed=+3", "-seed"},
        {"-timeout=1.5", "-timeout"},
        {"-error_exitcode=300", "-error_exitcode"},
        {"-print_final_stats=yes", "-print_final_stats"},
        {"-jobs=x", "-jobs"},
        {"--cases=abc", "--cases"},
        {"--no-such-flag", "--no-such-flag"},
        {"-cleanse_crash=1", "-cleanse_crash=1: not supported by this build"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char *argv[] = {"prog", (char *)rows[i].arg, NULL};
        fgi_lf_config c;
        char *log;
        int rc = parse(&c, &log, argv);
        if (rc != 2 || !strstr(log, rows[i].named))
            fprintf(stderr, "  for %s: rc %d, log: %s\n", rows[i].arg, rc, log);
        CHECK(rc == 2);
        CHECK(strstr(log, rows[i].named) != NULL);
        free(log);
        fgi_lf_config_free(&c);
    }
}

/* Modes and limits this build lacks: a mode is refused, a limit is a warning. Once the
 * option exists the same flag maps onto it, and this test checks that instead. */
FG_TEST(lf_flags_modes_and_limits_by_option_name)
{
    static const struct {
        const char *arg, *option;
        int mode;
    } rows[] = {
        {"-merge=1", "merge", 1},        {"-minimize_crash=1", "minimize", 1},
        {"-rss_limit_mb=512", "rss_limit_mb", 0}, {"-jobs=2", "jobs", 0},
        {"-workers=2", "jobs", 0},       {"-fork=1", "fork", 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char *argv[] = {"prog", (char *)rows[i].arg, NULL};
        fgi_lf_config c;
        char *log;
        int rc = parse(&c, &log, argv);
        if (fgi_lf_option_exists(rows[i].option)) {
            CHECK(rc == 0);
            CHECK(strstr(log, "not supported") == NULL);
        } else {
            CHECK(rc == (rows[i].mode ? 2 : 0));
            CHECK(strstr(log, "not supported by this build") != NULL);
            CHECK(strstr(log, rows[i].arg) != NULL);
        }
        free(log);
        fgi_lf_config_free(&c);
    }
    char *zero[] = {"prog", "-merge=0", NULL}; /* asking for no merge is always fine */
    fgi_lf_config c;
    char *log;
    CHECK(parse(&c, &log, zero) == 0 && c.mode == NULL);
    free(log);
    fgi_lf_config_free(&c);
}

FG_TEST(lf_flags_unknown_warn_ignored_inform)
{
    char *argv[] = {"prog", "-no_such_flag=1", "-use_value_profile=1", "-runs=5", NULL};
    fgi_lf_config c;
    char *log;
    CHECK(parse(&c, &log, argv) == 0);
    CHECK(strstr(log, "WARNING: unrecognized flag '-no_such_flag=1'") != NULL);
    CHECK(strstr(log, "INFO: fuzzgate ignores -use_value_profile=1") != NULL);
    CHECK_EQ_U(c.opt->v.cases, 5);
    free(log);
    fgi_lf_config_free(&c);
}

/* Every row of libfuzzer_flags.def has its line in docs/libfuzzer.md, and -help=1 shows
 * every flag that does something. */
FG_TEST(lf_flags_docs_and_help_cover_the_table)
{
    char *doc = fgt_slurp("docs/libfuzzer.md", NULL);
    CHECK(doc != NULL);
    char *help = NULL;
    size_t len;
    FILE *f = open_memstream(&help, &len);
    fgi_lf_help(f, "prog");
    fclose(f);
    for (size_t i = 0; doc && fgi_lf_flag_at(i); i++) {
        char want[96];
        snprintf(want, sizeof want, "`-%s`", fgi_lf_flag_at(i));
        if (!strstr(doc, want))
            fprintf(stderr, "  docs/libfuzzer.md lacks %s\n", want);
        CHECK(strstr(doc, want) != NULL);
        char line_end[96];
        snprintf(want, sizeof want, "-%s ", fgi_lf_flag_at(i));
        snprintf(line_end, sizeof line_end, "-%s\n", fgi_lf_flag_at(i));
        CHECK(strstr(help, want) != NULL || strstr(help, line_end) != NULL);
    }
    CHECK(strstr(help, "--cases") != NULL); /* fuzzgate's own options follow */
    free(help);
    free(doc);
}

/* ---- the custom-mutator domain ------------------------------------------------------ */

static struct {
    unsigned mutator_calls, cross_calls;
    size_t max_seen, s2_seen;
} dom_calls;

static size_t test_mutator(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    (void)seed;
    dom_calls.mutator_calls++;
    dom_calls.max_seen = max_size;
    return fgi_libfuzzer_mutate(data, size, max_size); /* LLVMFuzzerMutate */
}

static size_t test_cross(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
                         uint8_t *out, size_t max_out, unsigned seed)
{
    (void)seed;
    dom_calls.cross_calls++;
    dom_calls.s2_seen = s2;
    size_t n = FGI_MIN(s1 + s2, max_out);
    memcpy(out, d1, FGI_MIN(s1, n));
    if (n > s1)
        memcpy(out + s1, d2, n - s1);
    return n;
}

static int test_one(const uint8_t *d, size_t n)
{
    (void)d;
    (void)n;
    return 0;
}

/* Mutates "hello" once from an rng of state `state`; the result into out. */
static size_t mutate_once(const fg_domain *dom, uint64_t state, const void *other,
                          uint8_t *out, size_t cap)
{
    void *v = dom->read((const uint8_t *)"hello", 5);
    CHECK(v != NULL);
    fgi_rng r = {state};
    CHECK(dom->mutate(v, other, &r) == 1);
    size_t n = dom->write(v, out, cap);
    dom->free(v);
    return n;
}

FG_TEST(lf_custom_mutator_domain)
{
    fgi_lf_hooks none = {.test_one = test_one};
    CHECK(fgi_libfuzzer_domain(&none, 32) == NULL);

    fgi_lf_hooks h = {.test_one = test_one, .mutator = test_mutator};
    const fg_domain *dom = fgi_libfuzzer_domain(&h, 32);
    CHECK(dom != NULL && dom->havoc_percent == 1);
    memset(&dom_calls, 0, sizeof dom_calls);
    uint8_t a[64], b[64];
    size_t na = mutate_once(dom, 12345, NULL, a, sizeof a);
    size_t nb = mutate_once(dom, 12345, NULL, b, sizeof b);
    CHECK_EQ_U(dom_calls.mutator_calls, 2);
    CHECK_EQ_U(dom_calls.max_seen, 32); /* the value's capacity is the max_len */
    /* LLVMFuzzerMutate drew from the case's stream: same state, same bytes */
    CHECK(na <= 32 && na == nb && memcmp(a, b, na) == 0);

    fgi_lf_hooks x = {.test_one = test_one, .cross_over = test_cross};
    dom = fgi_libfuzzer_domain(&x, 32);
    CHECK(dom != NULL && dom->havoc_percent == 0);
    void *other = dom->read((const uint8_t *)"world!", 6);
    na = mutate_once(dom, 7, other, a, sizeof a);
    CHECK_EQ_U(dom_calls.cross_calls, 1);
    CHECK_EQ_U(dom_calls.s2_seen, 6);
    CHECK(na == 11 && memcmp(a, "helloworld!", 11) == 0);
    mutate_once(dom, 7, NULL, a, sizeof a); /* no partner: the engine's bytes */
    CHECK_EQ_U(dom_calls.cross_calls, 1);
    dom->free(other);
}

/* ---- whole runs of build/test-lf ---------------------------------------------------- */

typedef struct lf_scratch {
    char root[256], corpus[300], prefix[300], prog[300];
} lf_scratch;

/* A scratch corpus holding one input, and an artifact prefix inside the scratch. */
static void lf_open(lf_scratch *s, const char *input)
{
    CHECK(fgt_tmpdir(s->root, sizeof s->root) == 0);
    snprintf(s->corpus, sizeof s->corpus, "%s/corpus", s->root);
    snprintf(s->prefix, sizeof s->prefix, "-artifact_prefix=%s/a/", s->root);
    snprintf(s->prog, sizeof s->prog, "%s/test-lf", fgt_build_dir());
    char file[400];
    CHECK(fgt_mkdirs(s->corpus) == 0);
    snprintf(file, sizeof file, "%s/input", s->corpus);
    CHECK(fgt_write(file, input, strlen(input)) == 0);
}

static void lf_run(const lf_scratch *s, fgt_run *r, const char *a1, const char *a2,
                   const char *a3)
{
    char *argv[] = {(char *)s->prog, (char *)s->prefix, (char *)a1, (char *)a2, (char *)a3,
                    NULL};
    CHECK(fgt_spawn(argv, NULL, r) == 0);
}

/* The artifact <root>/a/<kind>-<sha1 of input> exists and holds input. */
static void expect_artifact(const lf_scratch *s, const char *kind, const char *input,
                            char *path, size_t cap)
{
    char sha[FGI_SHA1_HEX];
    fgi_sha1_hex(input, strlen(input), sha);
    snprintf(path, cap, "%s/a/%s-%s", s->root, kind, sha);
    size_t n = 0;
    char *got = fgt_slurp(path, &n);
    if (!got)
        fprintf(stderr, "  no artifact %s\n", path);
    CHECK(got != NULL && n == strlen(input) && memcmp(got, input, n) == 0);
    free(got);
}

FG_TEST(lf_run_crash_writes_crash_sha1_and_replays)
{
    lf_scratch s;
    lf_open(&s, "CRSH it");
    fgt_run r;
    lf_run(&s, &r, "-runs=100", s.corpus, NULL);
    int san = getenv("FGT_SANITIZE") && *getenv("FGT_SANITIZE");
    CHECK((!r.exited && r.signal == SIGABRT) || (san && !(r.exited && r.code == 0)));
    CHECK(strstr(r.err, "lf_planted: initialized with 4 arguments") != NULL);
    char path[600], want[700];
    expect_artifact(&s, "crash", "CRSH it", path, sizeof path);
    snprintf(want, sizeof want, "Test unit written to %s", path);
    CHECK(strstr(r.err, want) != NULL);
    fgt_run_free(&r);

    /* a file argument runs once: the crash again */
    char *argv[] = {s.prog, path, NULL};
    CHECK(fgt_spawn(argv, NULL, &r) == 0);
    CHECK((!r.exited && r.signal == SIGABRT) || (san && !(r.exited && r.code == 0)));
    CHECK(strstr(r.err, "Running: ") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

FG_TEST(lf_run_leak_and_oom_are_named_as_libfuzzer_names_them)
{
    lf_scratch s;
    lf_open(&s, "LEAK it");
    fgt_run r;
    lf_run(&s, &r, "-runs=0", s.corpus, NULL);
    CHECK(r.exited && r.code == 77);
    CHECK(strstr(r.err, "FAIL") != NULL);
    char path[600];
    expect_artifact(&s, "leak", "LEAK it", path, sizeof path);
    fgt_run_free(&r);
    lf_run(&s, &r, "-runs=0", "-error_exitcode=3", s.corpus);
    CHECK(r.exited && r.code == 3);
    fgt_run_free(&r);
    fgt_rmrf(s.root);

    lf_open(&s, "ALOC it");
    lf_run(&s, &r, "-runs=0", s.corpus, NULL); /* 3 MiB is within the default 2048 */
    CHECK(r.exited && r.code == 0);
    fgt_run_free(&r);
    lf_run(&s, &r, "-runs=0", "-malloc_limit_mb=1", s.corpus);
    CHECK(r.exited && r.code == 77);
    expect_artifact(&s, "oom", "ALOC it", path, sizeof path);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

/* A class leaves one artifact, its smallest input: the longer leak replayed first is
 * written, then replaced by the shorter one of the same class (artifacts are named by
 * their bytes, so the first file is removed), and the class is reported once. */
FG_TEST(lf_run_one_artifact_per_class)
{
    lf_scratch s;
    lf_open(&s, "LEAK it, a longer input of the same leak");
    char file[400], dir[400], path[600];
    snprintf(file, sizeof file, "%s/short", s.corpus); /* after "input" in name order */
    CHECK(fgt_write(file, "LEAK", 4) == 0);
    fgt_run r;
    lf_run(&s, &r, "-runs=0", s.corpus, NULL);
    CHECK(r.exited && r.code == 77);
    snprintf(dir, sizeof dir, "%s/a", s.root);
    CHECK_EQ_U(fgt_count_entries(dir, "leak-"), 1);
    expect_artifact(&s, "leak", "LEAK", path, sizeof path);
    CHECK(strstr(r.err, "(a smaller input of retention-") != NULL);
    const char *first = strstr(r.err, "ERROR: fuzzgate: retention");
    CHECK(first && !strstr(first + 1, "ERROR: fuzzgate: retention"));
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

FG_TEST(lf_run_exact_artifact_path)
{
    lf_scratch s;
    lf_open(&s, "LEAK it");
    char exact[300], flag[400];
    snprintf(exact, sizeof exact, "%s/exact/one", s.root);
    snprintf(flag, sizeof flag, "-exact_artifact_path=%s", exact);
    fgt_run r;
    lf_run(&s, &r, "-runs=0", flag, s.corpus);
    CHECK(r.exited && r.code == 77);
    size_t n = 0;
    char *got = fgt_slurp(exact, &n);
    CHECK(got && n == 7 && memcmp(got, "LEAK it", 7) == 0);
    free(got);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

FG_TEST(lf_run_passes_and_minus_one_is_not_kept)
{
    lf_scratch s;
    lf_open(&s, "keep me");
    fgt_run r;
    lf_run(&s, &r, "-runs=300", "-print_final_stats=1", s.corpus);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.err, "PASS 300 cases, corpus 2,") != NULL); /* the file + "" */
    CHECK(strstr(r.err, "stat::number_of_executed_units: 302") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(s.root);

    lf_open(&s, "REJT me"); /* returns -1: never kept, even from the corpus */
    lf_run(&s, &r, "-runs=0", s.corpus, NULL);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.err, "PASS 0 cases, corpus 1,") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

FG_TEST(lf_run_usage_errors_exit_2)
{
    lf_scratch s;
    lf_open(&s, "x");
    fgt_run r;
    lf_run(&s, &r, "-runs=abc", s.corpus, NULL);
    CHECK(r.exited && r.code == 2 && strstr(r.err, "-runs") != NULL);
    fgt_run_free(&r);
    lf_run(&s, &r, "-runs=1", "no/such/dir", NULL);
    CHECK(r.exited && r.code == 2 && strstr(r.err, "no/such/dir") != NULL);
    fgt_run_free(&r);
    lf_run(&s, &r, "-help=1", NULL, NULL);
    CHECK(r.exited && r.code == 0 && strstr(r.out, "-runs ") != NULL);
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

/* LLVMFuzzerCustomMutator in a real run: the harness's bug sits behind an 8-byte header
 * only its custom mutator writes, so finding it means the driver called the mutator (as
 * the domain's edit, blended with byte havoc). */
FG_TEST(lf_run_custom_mutator_finds_what_havoc_does_not)
{
    char root[256], prog[300], prefix[320], corpus[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(prog, sizeof prog, "%s/test-lf-custom", fgt_build_dir());
    snprintf(prefix, sizeof prefix, "-artifact_prefix=%s/", root);
    snprintf(corpus, sizeof corpus, "%s/corpus", root);
    CHECK(fgt_mkdirs(corpus) == 0);
    char *argv[] = {prog, prefix, "-runs=20000", "-seed=1", corpus, NULL};
    fgt_run r;
    CHECK(fgt_spawn(argv, NULL, &r) == 0);
    CHECK(!r.exited && r.signal == SIGABRT); /* in one process, like libFuzzer */
    char path[600];
    CHECK(fgt_find(root, "crash-", "", path, sizeof path) == 1);
    size_t n = 0;
    char *got = fgt_slurp(path, &n);
    CHECK(got && n >= 9 && memcmp(got, "MAGICHDR", 8) == 0 && (unsigned char)got[8] == 0xee);
    free(got);
    fgt_run_free(&r);
    fgt_rmrf(root);
}

/* The driver over a real library with global state: the system libxml2 (build/test-lf-xml,
 * built when pkg-config finds it) keeps its last error and caches encoding handlers. From
 * four seed documents (a valid one, SHIFT_JIS, an error, a DTD) `runs` cases run with no
 * finding: the retention oracle measures growth, and libxml2 does not grow. */
static void libxml2_clean(const char *runs)
{
    char prog[300];
    snprintf(prog, sizeof prog, "%s/test-lf-xml", fgt_build_dir());
    if (access(prog, X_OK) != 0) {
        printf("  skipped: built without libxml2 (install libxml2-dev)\n");
        return;
    }
    lf_scratch s;
    lf_open(&s, "<?xml version=\"1.0\"?><a x=\"1\"><b>text</b><c/></a>");
    static const char *const more[][2] = {
        {"sjis", "<?xml version=\"1.0\" encoding=\"SHIFT_JIS\"?><r>\x82\xa0\x82\xa2</r>"},
        {"error", "<a><b></a>"},
        {"dtd", "<!DOCTYPE a [<!ENTITY e \"v\">]><a>&e;&f;</a>"},
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        char file[400];
        snprintf(file, sizeof file, "%s/%s", s.corpus, more[i][0]);
        CHECK(fgt_write(file, more[i][1], strlen(more[i][1])) == 0);
    }
    snprintf(s.prog, sizeof s.prog, "%s", prog);
    fgt_run r;
    char flag[32], pass[64];
    snprintf(flag, sizeof flag, "-runs=%s", runs);
    snprintf(pass, sizeof pass, "PASS %s cases", runs);
    lf_run(&s, &r, flag, s.corpus, NULL);
    CHECK(r.exited && r.code == 0);
    CHECK(strstr(r.err, pass) != NULL && strstr(r.err, ", 0 findings") != NULL);
    if (!(r.exited && r.code == 0))
        printf("%s", r.err);
    char artifacts[320];
    snprintf(artifacts, sizeof artifacts, "%s/a", s.root);
    CHECK(fgt_find(artifacts, "", "", prog, sizeof prog) == 0); /* no artifact of any kind */
    fgt_run_free(&r);
    fgt_rmrf(s.root);
}

FG_TEST(lf_run_over_libxml2_has_no_finding)
{
    libxml2_clean("20000");
}

/* The same for 200,000 cases (~20 s): what growth a short run cannot show. */
FG_TEST_LONG(lf_run_over_libxml2_200k_has_no_finding)
{
    libxml2_clean("200000");
}
