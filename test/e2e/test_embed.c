/* test/e2e/test_embed.c — the calls an application's own test runner makes: fg_gate_run and
 * the session API, without fuzzgate's main. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "fuzzgate.h"

#include <stdlib.h>
#include <string.h>

FG_TEST(embed_gate_run_one_target_from_a_host)
{
    char root[256], findings[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(findings, sizeof findings, "%s/f", root);
    fg_options *opt = fg_options_new();
    CHECK(opt != NULL);
    CHECK(fg_options_set(opt, "cases", "500") == FG_OK);
    CHECK(fg_options_set(opt, "findings", findings) == FG_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CHECK(out != NULL);
    int rc = fg_gate_run("hex", opt, out);
    fclose(out);
    CHECK(rc == 0);
    CHECK(text && strstr(text, "hex: PASS 500 cases") != NULL);
    CHECK(text && strstr(text, "passed,") == NULL); /* the host prints its own closing line */
    free(text);
    /* --junit and --sarif are options like any other: a host asks for them the same way */
    char junit[320], sarif[320];
    snprintf(junit, sizeof junit, "%s/ci/junit.xml", root);
    snprintf(sarif, sizeof sarif, "%s/ci/gate.sarif", root);
    CHECK(fg_options_set(opt, "junit", junit) == FG_OK);
    CHECK(fg_options_set(opt, "sarif", sarif) == FG_OK);
    out = open_memstream(&text, &len);
    CHECK(fg_gate_run("hex", opt, out) == 0);
    fclose(out);
    free(text);
    char *xml = fgt_slurp(junit, NULL), *json = fgt_slurp(sarif, NULL);
    CHECK(xml && strstr(xml, "<testcase classname=\"fuzzgate\" name=\"hex\"") != NULL);
    CHECK(xml && strstr(xml, "<failure") == NULL);
    CHECK(json && strstr(json, "\"version\": \"2.1.0\"") != NULL);
    CHECK(json && strstr(json, "\"results\": []") != NULL);
    free(xml);
    free(json);
    CHECK(fg_options_set(opt, "junit", "") == FG_OK);
    CHECK(fg_options_set(opt, "sarif", "") == FG_OK);

    out = open_memstream(&text, &len);
    CHECK(fg_gate_run("no_such_target", opt, out) == 2);
    fclose(out);
    CHECK(text && strstr(text, "no_such_target") != NULL);
    free(text);
    fg_options_free(opt);
    fgt_rmrf(root);
}

FG_TEST(embed_session_api_gives_findings_as_values)
{
    char root[256], findings[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(findings, sizeof findings, "%s/f", root);
    fg_options *opt = fg_options_new();
    CHECK(fg_options_set(opt, "cases", "300") == FG_OK);
    CHECK(fg_options_set(opt, "findings", findings) == FG_OK);
    fg_error e;
    fg_session *s = fg_session_new(opt, &e);
    CHECK(s != NULL && e == FG_OK);
    const fg_target *t = fg_target_find("inet");
    CHECK(t != NULL);
    fg_outcome *o = NULL;
    CHECK(fg_session_run(s, t, &o) == FG_OK);
    CHECK(fg_outcome_passed(o));
    CHECK_EQ_U(fg_outcome_cases(o), 300);
    CHECK(fg_outcome_corpus(o) > 0);
    CHECK(fg_outcome_replayed(o) > 0); /* corpus/inet/ files and the empty input */
    CHECK(fg_outcome_finding(o, 0) == NULL);
    fg_outcome_free(o);
    CHECK(fg_session_write_reports(s) == FG_OK);
    char path[400];
    snprintf(path, sizeof path, "%s/report.json", findings);
    char *report = fgt_slurp(path, NULL);
    CHECK(report && strstr(report, "\"name\": \"inet\"") != NULL);
    free(report);
    fg_session_free(s);
    fg_options_free(opt);
    fgt_rmrf(root);
}

/* A target that cannot run in this build: the session gives an outcome that says so and
 * ran nothing. It has not passed (fg_outcome_passed is 0), it has no finding, and
 * report.json marks it "skipped". */
FG_TEST(embed_skipped_target_is_an_outcome_of_its_own)
{
    static const fg_target skipped = {.name = "embed_skipped", .skip = "built without it"};
    static const fg_target bodiless = {.name = "embed_bodiless"};
    char root[256], findings[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(findings, sizeof findings, "%s/f", root);
    fg_options *opt = fg_options_new();
    CHECK(fg_options_set(opt, "findings", findings) == FG_OK);
    fg_error e;
    fg_session *s = fg_session_new(opt, &e);
    CHECK(s != NULL);
    fg_outcome *o = NULL;
    CHECK(fg_session_run(s, &skipped, &o) == FG_OK);
    CHECK(!fg_outcome_passed(o));
    CHECK_STR(fg_outcome_skipped(o), "built without it");
    CHECK_EQ_U(fg_outcome_cases(o), 0);
    CHECK_EQ_U(fg_outcome_replayed(o), 0);
    CHECK(fg_outcome_finding(o, 0) == NULL);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    fg_outcome_print(o, out);
    fclose(out);
    CHECK_STR(text, "embed_skipped: skipped: built without it\n");
    free(text);
    fg_outcome_free(o);
    CHECK(fg_session_run(s, &bodiless, &o) == FG_EINVAL); /* neither a body nor a reason */
    CHECK(fg_session_write_reports(s) == FG_OK);
    char path[400];
    snprintf(path, sizeof path, "%s/report.json", findings);
    char *report = fgt_slurp(path, NULL);
    CHECK(report && strstr(report, "\"name\": \"embed_skipped\", \"status\": \"skipped\"") != NULL);
    free(report);
    CHECK(fg_outcome_skipped(NULL) == NULL);
    fg_session_free(s);
    fg_options_free(opt);
    fgt_rmrf(root);
}
