/* test/e2e/test_report_md.c — FUZZ.md: the result line, the table, every finding with its
 * reproducer and one replay command that works, known findings apart, target text that
 * cannot break the markdown, and the file written by a real gate. */
#include "test/support/check.h"
#include "test/support/oom.h"
#include "test/support/proc.h"

#include "engine/base/safeio.h"
#include "engine/report/report.h"
#include "engine/run/session.h"

#include <stdlib.h>
#include <string.h>

/* A finished run of `cases` cases with one finding per detail (NULL-terminated), the
 * first of them known when known_reason is set. */
static fg_outcome *run_of(const char *target, uint64_t cases, const char *const *details,
                          const char *known_reason)
{
    fg_outcome *o = fgi_outcome_new(target);
    for (uint64_t k = 0; k < cases; k++) {
        if (k == cases / 2 && details) {
            for (size_t i = 0; details[i]; i++) {
                fgi_finding_place at = {.target = target};
                fgi_finding_rec r = {.at = &at, .kind = "check", .detail = details[i],
                                     .data = (const uint8_t *)"\xab", .size = 1,
                                     .case_index = (int64_t)k, .mutations = "flip_bit"};
                fgi_finding_classify(&r);
                int changed;
                fg_finding *f = fgi_outcome_add(o, &r, &changed);
                char path[128];
                snprintf(path, sizeof path, "findings/%s/%s.bin", target, r.class_id);
                CHECK(f && fgi_outcome_set_path(f, path, "./prog") == 0);
                if (i == 0)
                    CHECK(fgi_outcome_set_known(f, known_reason) == 0);
            }
        }
        fgi_outcome_sample(o, k, 1 + k / 10, k / 10, 0);
    }
    o->cases = cases;
    o->corpus = 1 + cases / 10;
    o->signatures = cases / 10;
    o->kept = cases / 10;
    o->seconds = 1.5;
    fgi_outcome_sample_end(o);
    return o;
}

static char *render(const fgi_opts *opt, fg_outcome *const *runs, size_t n)
{
    fgi_str s = {0};
    fgi_report_md(&s, opt, runs, n);
    CHECK(!s.failed);
    return fgi_str_take(&s);
}

/* The position of needle in hay, or NULL with a failed check naming it. */
#define FIND(hay, needle) find_in((hay), (needle), __LINE__)
static const char *find_in(const char *hay, const char *needle, int line)
{
    const char *p = hay ? strstr(hay, needle) : NULL;
    if (!p) {
        char m[300];
        snprintf(m, sizeof m, "FUZZ.md holds \"%.200s\"", needle);
        fgt_fail(__FILE__, line, m);
    }
    return p;
}

FG_TEST(report_md_lists_runs_findings_and_replay_commands)
{
    fgi_opts opt;
    memset(&opt, 0, sizeof opt);
    opt.seed = 0x5eed;
    opt.cases = 1000;
    static const char *const bad_details[] = {"tlv.c:9: check failed: uses `x` | y\nz",
                                              NULL};
    static const char *const known_details[] = {"glibc rounds", NULL};
    fg_outcome *runs[] = {
        run_of("good", 1000, NULL, NULL),
        run_of("bad", 1000, bad_details, NULL),
        run_of("libc", 1000, known_details, "glibc <2.37> bug *not ours*"),
    };
    char *md = render(&opt, runs, 3);
    CHECK(md && strncmp(md, "# fuzzgate: 2 passed, 1 failed\n\n", 32) == 0);
    FIND(md, "Seed `0x0000000000005eed`, 1000 generated cases per target");
    FIND(md, "| `good` | pass | 1000 | 101 | 100 | 0 | 0.1000 | none |\n");
    FIND(md, "| `bad` | **FAIL** | 1000 | 101 | 100 | 0 | 0.1000 | 1 new |\n");
    FIND(md, "| `libc` | pass | 1000 | 101 | 100 | 0 | 0.1000 | 1 known |\n");

    const fg_finding *bad = &runs[1]->findings[0], *known = &runs[2]->findings[0];
    char want[512];
    const char *fresh = FIND(md, "\n## New findings\n");
    snprintf(want, sizeof want, "\n### `bad`: check `%s`\n", bad->class_id);
    const char *heading = FIND(md, want);
    /* a backtick inside: a two-backtick span; the line break a space */
    FIND(md, "- **Detail:** ``tlv.c:9: check failed: uses `x` | y z``\n");
    FIND(md, "- **Origin:** `case 500` (mutations: `flip_bit`), first at case 500; seen 1 "
             "time, smallest input 1 byte\n");
    snprintf(want, sizeof want, "- **Reproducer:** `findings/bad/%s.bin`\n", bad->class_id);
    FIND(md, want);
    snprintf(want, sizeof want, "\n```sh\n./prog bad findings/bad/%s.bin\n```\n",
             bad->class_id);
    FIND(md, want);

    const char *known_at = FIND(md, "\n## Known findings (counted, not failed)\n");
    snprintf(want, sizeof want, "\n### `libc`: check `%s`\n", known->class_id);
    const char *known_heading = FIND(md, want);
    FIND(md, "- **Known:** glibc \\<2.37\\> bug \\*not ours\\*\n");
    snprintf(want, sizeof want, "\n```sh\n./prog libc findings/libc/%s.bin\n```\n",
             known->class_id);
    FIND(md, want);
    const char *times = FIND(md, "\n## Time (wall clock");
    FIND(md, "| `bad` | 1.50 | 667 | 0 | 0 ms |\n");
    CHECK(fresh && heading && known_at && known_heading && times);
    CHECK(fresh < heading && heading < known_at && known_at < known_heading &&
          known_heading < times);
    free(md);

    /* a time-bounded run says so; a run with nothing in it says that */
    opt.seconds = 60;
    md = render(&opt, runs, 1);
    FIND(md, "# fuzzgate: 1 passed, 0 failed\n");
    FIND(md, "a time-bounded run of 60 s per target: seeded, but not reproducible");
    CHECK(md && !strstr(md, "## New findings"));
    free(md);
    md = render(&opt, runs, 0);
    FIND(md, "# fuzzgate: 0 passed, 0 failed\n");
    FIND(md, "No target ran.");
    CHECK(md && !strstr(md, "| target |"));
    free(md);

    /* an unstored finding: no reproducer path, and the page says where its hex went */
    fgi_outcome_set_path(&runs[1]->findings[0], NULL, "./prog");
    runs[1]->store_failed = 1;
    md = render(&opt, runs, 3);
    FIND(md, "**A finding could not be stored**");
    FIND(md, "- **Reproducer:** not stored (its hex is on the run's standard error)");
    free(md);
    for (size_t i = 0; i < 3; i++)
        fg_outcome_free(runs[i]);
}

static void render_md_of(fgi_str *out, void *o)
{
    fgi_opts opt;
    memset(&opt, 0, sizeof opt);
    fgi_report_md(out, &opt, (fg_outcome *const *)&o, 1);
}

/* Each failed allocation of a render leaves a failed string and no leak. */
FG_TEST(report_md_out_of_memory_is_a_failed_string)
{
    static const char *const details[] = {"a", "b", NULL};
    fg_outcome *o = run_of("t", 100, details, NULL);
    fgt_render_oom_loop(render_md_of, o, 500);
    fg_outcome_free(o);
}

/* The first fenced block of md: its command line split at spaces into argv (at most cap-1
 * words, NULL-terminated, pointing into buf). Returns the word count. */
static int replay_argv(const char *md, char *buf, size_t bufcap, char **argv, int cap)
{
    const char *p = md ? strstr(md, "\n```sh\n") : NULL;
    if (!p)
        return 0;
    p += 7;
    size_t len = strcspn(p, "\n");
    if (len >= bufcap)
        return 0;
    memcpy(buf, p, len);
    buf[len] = '\0';
    int n = 0;
    for (char *w = strtok(buf, " "); w && n < cap - 1; w = strtok(NULL, " "))
        argv[n++] = w;
    argv[n] = NULL;
    return n;
}

/* A real gate writes FUZZ.md beside report.json: it names the stored reproducer and its
 * class, and the command in its code block replays the finding. */
FG_TEST(report_md_of_a_gate_holds_a_working_replay_command)
{
    char root[256], findings[300], prog[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(findings, sizeof findings, "%s/f", root);
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    fgt_run r;
    CHECK(fgt_planted_gate(root, "f", "planted_check,planted_clean", &r) == 0);
    CHECK(r.exited && r.code == 1);
    fgt_run_free(&r);

    char path[400], bin[600];
    snprintf(path, sizeof path, "%s/FUZZ.md", findings);
    char *md = fgt_slurp(path, NULL);
    snprintf(path, sizeof path, "%s/planted_check", findings);
    CHECK(fgt_find(path, "check-", ".bin", bin, sizeof bin) == 1);
    FIND(md, "# fuzzgate: 1 passed, 1 failed\n");
    FIND(md, "| `planted_check` | **FAIL** | 20000 |");
    FIND(md, "| `planted_clean` | pass | 20000 |");
    char want[1024];
    const char *name = strrchr(bin, '/') + 1;
    snprintf(want, sizeof want, "### `planted_check`: check `%.*s`", (int)strlen(name) - 4,
             name);
    FIND(md, want);
    snprintf(want, sizeof want, "- **Reproducer:** `%s`", bin);
    FIND(md, want);
    snprintf(want, sizeof want, "\n```sh\n%s planted_check %s\n```\n", prog, bin);
    FIND(md, want);

    char buf[800], *rargv[8];
    CHECK(replay_argv(md, buf, sizeof buf, rargv, 8) == 3);
    CHECK(fgt_spawn(rargv, NULL, &r) == 0);
    CHECK(r.exited && r.code == 1);
    CHECK(strstr(r.out, ": FAIL check ") != NULL);
    fgt_run_free(&r);
    free(md);
    fgt_rmrf(root);
}

/* The reports are written in turn, each atomically: a failed write of FUZZ.md is an I/O
 * error that leaves the JSON reports written and no FUZZ.md. */
FG_TEST(report_md_write_failure_is_an_error_and_leaves_no_file)
{
    char root[256], findings[300], path[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(findings, sizeof findings, "%s/f", root);
    fg_options *opt = fg_options_new();
    CHECK(fg_options_set(opt, "cases", "200") == FG_OK);
    CHECK(fg_options_set(opt, "findings", findings) == FG_OK);
    fg_session *s = fg_session_new(opt, NULL);
    fg_outcome *o = NULL;
    CHECK(s && fg_session_run(s, fg_target_find("hex"), &o) == FG_OK);
    fg_outcome_free(o);
    fgi_store_fail_nth(3); /* report.json, timing.json, then FUZZ.md */
    CHECK(fg_session_write_reports(s) == FG_EIO);
    fgi_store_fail_nth(0);
    snprintf(path, sizeof path, "%s/report.json", findings);
    char *json = fgt_slurp(path, NULL);
    CHECK(json != NULL);
    free(json);
    snprintf(path, sizeof path, "%s/FUZZ.md", findings);
    CHECK(fgt_slurp(path, NULL) == NULL);
    CHECK(fgt_find(findings, "FUZZ.md", "", path, sizeof path) == 0);
    CHECK(fg_session_write_reports(s) == FG_OK);
    snprintf(path, sizeof path, "%s/FUZZ.md", findings);
    char *md = fgt_slurp(path, NULL);
    FIND(md, "| `hex` | pass | 200 |");
    free(md);
    fg_session_free(s);
    fg_options_free(opt);
    fgt_rmrf(root);
}

/* A skipped target (built without what it needs) is its own count and row, with its reason,
 * and has no line in the time table; coverage.svg draws no panel for it. */
FG_TEST(report_md_and_svg_of_a_skipped_target)
{
    fgi_opts opt;
    memset(&opt, 0, sizeof opt);
    opt.cases = 1000;
    fg_target t = {.name = "br", .skip = "built without brotli (install libbrotli-dev)"};
    fg_outcome *runs[] = {run_of("good", 1000, NULL, NULL), fgi_outcome_skipped(&t)};
    char *md = render(&opt, runs, 2);
    FIND(md, "# fuzzgate: 1 passed, 0 failed, 1 skipped\n");
    FIND(md, "| `br` | skipped | | | | | | built without brotli (install libbrotli-dev) |\n");
    const char *times = FIND(md, "\n## Time (wall clock");
    CHECK(times && !strstr(times, "`br`"));
    free(md);
    fgi_str svg = {0};
    fgi_report_svg(&svg, &opt, runs, 2);
    CHECK(!svg.failed && strstr(fgi_str_cstr(&svg), ">good") != NULL);
    CHECK(strstr(fgi_str_cstr(&svg), ">br") == NULL);
    fgi_str_free(&svg);
    fg_outcome_free(runs[0]);
    fg_outcome_free(runs[1]);
}
