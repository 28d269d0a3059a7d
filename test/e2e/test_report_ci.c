/* test/e2e/test_report_ci.c — JUnit XML and SARIF rendered from outcomes: what goes where
 * (failures only for new classes, known ones in system-out, skipped targets, locations of
 * checks and of other kinds, attachments only for stored reproducers), the deterministic
 * order of rules and results, and out of memory as a failed string at every allocation.
 * test/scripts/ci_reports.sh reads the files a real gate writes with real parsers. */
#include "test/support/check.h"
#include "test/support/oom.h"

#include "engine/report/report.h"
#include "engine/run/session.h"

#include <stdlib.h>
#include <string.h>

/* A run of 100 cases with one finding per (kind, detail) pair, the first known when
 * known_reason is set; stored unless unstored. */
static fg_outcome *run_with(const char *target, const char *const *kd, const char *known_reason,
                            int unstored)
{
    fg_outcome *o = fgi_outcome_new(target);
    for (size_t i = 0; kd && kd[i]; i += 2) {
        fgi_finding_place at = {.target = target};
        fgi_finding_rec r = {.at = &at, .kind = kd[i], .detail = kd[i + 1],
                             .data = (const uint8_t *)"0123456789abcdef0123456789abcdef++",
                             .size = 34, .case_index = 7, .mutations = ""};
        fgi_finding_classify(&r);
        int changed;
        fg_finding *f = fgi_outcome_add(o, &r, &changed);
        char path[128];
        snprintf(path, sizeof path, "findings/%s/%s.bin", target, r.class_id);
        CHECK(f && fgi_outcome_set_path(f, unstored ? NULL : path, "./prog") == 0);
        if (i == 0)
            CHECK(fgi_outcome_set_known(f, known_reason) == 0);
    }
    fgi_outcome_sort(o);
    o->cases = 100;
    o->corpus = 3;
    o->seconds = 0.25;
    fgi_outcome_sample_end(o);
    return o;
}

static fg_outcome *skipped_run(const char *name, const char *why)
{
    fg_target t = {.name = name, .skip = why};
    return fgi_outcome_skipped(&t);
}

FG_TEST(report_junit_failures_skips_and_known_classes)
{
    fgi_opts opt;
    memset(&opt, 0, sizeof opt);
    opt.seed = 0x5eed;
    opt.cases = 100;
    static const char *const two[] = {"check", "t.c:3: check failed: a < b", "crash",
                                      "SIGSEGV (invalid memory access)", NULL};
    static const char *const one[] = {"check", "glibc rounds", NULL};
    fg_outcome *runs[] = {run_with("bad", two, NULL, 0), run_with("libc", one, "not ours", 0),
                          skipped_run("br", "built without brotli")};
    fgi_str s = {0};
    fgi_junit_render(&s, &opt, runs, 3);
    CHECK(!s.failed);
    const char *x = fgi_str_cstr(&s);
    CHECK(strstr(x, "<testsuite name=\"fuzzgate\" tests=\"3\" failures=\"1\" errors=\"0\" "
                    "skipped=\"1\" time=\"0.500\">") != NULL);
    CHECK(strstr(x, "<property name=\"seed\" value=\"0x0000000000005eed\"/>") != NULL);
    CHECK(strstr(x, "<testcase classname=\"fuzzgate\" name=\"bad\" time=\"0.250\">") != NULL);
    CHECK(strstr(x, "<failure type=\"check\" message=\"t.c:3: check failed: a &lt; b\">") !=
          NULL);
    CHECK(strstr(x, "<failure type=\"crash\" message=\"SIGSEGV (invalid memory access)\">") !=
          NULL);
    /* the hex head: 32 of the 34 bytes, and says so */
    CHECK(strstr(x, "hex: 30313233343536373839616263646566303132333435363738396162636465"
                    "66... (the first 32 of 34 bytes)") != NULL);
    CHECK(strstr(x, "&#10;replay: ./prog bad findings/bad/") != NULL);
    const char *libc = strstr(x, "name=\"libc\"");
    CHECK(libc && strstr(libc, "<system-out>known: not ours&#10;kind: check") != NULL);
    const char *br = strstr(x, "name=\"br\"");
    const char *libc_failure = libc ? strstr(libc, "<failure") : NULL;
    CHECK(libc && br && (!libc_failure || libc_failure > br)); /* a known class: no failure */
    CHECK(br && strstr(br, "<skipped message=\"built without brotli\"/>") != NULL);
    fgi_str_free(&s);

    /* a time-bounded run is labelled as one */
    opt.seconds = 60;
    fgi_junit_render(&s, &opt, runs, 0);
    CHECK(strstr(fgi_str_cstr(&s), "tests=\"0\" failures=\"0\"") != NULL);
    CHECK(strstr(fgi_str_cstr(&s), "value=\"no: a time-bounded run\"") != NULL);
    fgi_str_free(&s);
    for (size_t i = 0; i < 3; i++)
        fg_outcome_free(runs[i]);
}

FG_TEST(report_sarif_rules_results_and_locations)
{
    fgi_opts opt;
    memset(&opt, 0, sizeof opt);
    opt.seed = 0x5eed;
    opt.cases = 100;
    /* kinds out of name order, a known class, an unstored finding, and "hex", a
     * registered target whose FG_TARGET line locates its non-check findings */
    static const char *const hex_kd[] = {"timeout", "ran past 100 ms", "check",
                                         "targets/hex.c:42: check failed: x", NULL};
    static const char *const other[] = {"retention", "kept 64 bytes", "amplification",
                                        "asked for 4 GiB", NULL};
    fg_outcome *runs[] = {run_with("hex", hex_kd, NULL, 0), run_with("zz", other, "ours", 1),
                          skipped_run("br", "built without brotli")};
    fgi_str s = {0};
    fgi_sarif_render(&s, &opt, runs, 3);
    CHECK(!s.failed);
    const char *j = fgi_str_cstr(&s);
    CHECK(strncmp(j, "{\"version\": \"2.1.0\",", 20) == 0);
    /* rules: each kind of a new class once, by name; the known retention class is none */
    const char *a = strstr(j, "{\"id\": \"amplification\""), *c = strstr(j, "{\"id\": \"check\""),
               *t = strstr(j, "{\"id\": \"timeout\"");
    CHECK(a && c && t && a < c && c < t);
    CHECK(strstr(j, "\"id\": \"retention\"") == NULL);
    CHECK(strstr(j, "\"properties\": {\"seed\": \"0x0000000000005eed\", \"cases\": 100}") !=
          NULL);
    /* the check at its file:line; the timeout at hex's FG_TARGET */
    const fg_target *hex = fg_target_find("hex");
    char want[256];
    CHECK(strstr(j, "{\"uri\": \"targets/hex.c\", \"uriBaseId\": \"%SRCROOT%\"}, \"region\": "
                    "{\"startLine\": 42}") != NULL);
    snprintf(want, sizeof want, "{\"uri\": \"%s\", \"uriBaseId\": \"%%SRCROOT%%\"}, \"region\": "
             "{\"startLine\": %d}", hex ? hex->file : "?", hex ? hex->line : 0);
    CHECK(hex && strstr(j, want) != NULL);
    /* results: hex's two (class order), then zz's one; ruleIndex into the sorted rules */
    const char *r1 = strstr(j, "\"ruleId\": \""), *r2 = r1 ? strstr(r1 + 1, "\"ruleId\": \"") : 0,
               *r3 = r2 ? strstr(r2 + 1, "\"ruleId\": \"") : 0;
    CHECK(r1 && r2 && r3 && !strstr(r3 + 1, "\"ruleId\""));
    CHECK(r3 && strncmp(r3, "\"ruleId\": \"amplification\", \"ruleIndex\": 0,", 41) == 0);
    CHECK(strstr(j, "\"ruleId\": \"check\", \"ruleIndex\": 1,") != NULL);
    CHECK(strstr(j, "\"ruleId\": \"timeout\", \"ruleIndex\": 2,") != NULL);
    /* two stored reproducers are artifacts 0 and 1; the unstored one has no attachment */
    CHECK(strstr(j, ", \"index\": 0}}]") != NULL && strstr(j, ", \"index\": 1}}]") != NULL);
    CHECK(strstr(j, ", \"index\": 2}}]") == NULL);
    CHECK(r3 && strstr(r3, "\"attachments\"") == NULL);
    CHECK(strstr(j, "\\u000aReplay: ./prog hex findings/hex/") != NULL);
    fgi_str_free(&s);

    /* nothing new: no rules, no results, still a SARIF log */
    fgi_sarif_render(&s, &opt, runs + 1, 2);
    CHECK(strstr(fgi_str_cstr(&s), "\"results\": [\n") != NULL); /* zz's amplification */
    fgi_str_free(&s);
    fgi_sarif_render(&s, &opt, runs + 2, 1);
    CHECK(strstr(fgi_str_cstr(&s), "\"rules\": []") != NULL);
    CHECK(strstr(fgi_str_cstr(&s), "\"results\": []") != NULL);
    fgi_str_free(&s);
    for (size_t i = 0; i < 3; i++)
        fg_outcome_free(runs[i]);
}

typedef struct ci_render {
    void (*render)(fgi_str *, const fgi_opts *, fg_outcome *const *, size_t);
    fg_outcome **runs;
} ci_render;

static void render_ci(fgi_str *out, void *ctx)
{
    const ci_render *c = ctx;
    fgi_opts opt;
    memset(&opt, 0, sizeof opt);
    c->render(out, &opt, c->runs, 2);
}

/* Every failed allocation of either render leaves a failed string and no leak. */
FG_TEST(report_ci_out_of_memory_is_a_failed_string)
{
    static const char *const kd[] = {"check", "a", "crash", "b", NULL};
    fg_outcome *runs[] = {run_with("t", kd, "known", 0), skipped_run("s", "why")};
    fgt_render_oom_loop(render_ci, &(ci_render){fgi_junit_render, runs}, 500);
    fgt_render_oom_loop(render_ci, &(ci_render){fgi_sarif_render, runs}, 500);
    fg_outcome_free(runs[0]);
    fg_outcome_free(runs[1]);
}
