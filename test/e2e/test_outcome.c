/* test/e2e/test_outcome.c — an outcome's series over cases (which points, for any case count),
 * first occurrences of findings, and deep copies (exact, and clean under failed
 * allocations). */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/findings/outcome.h"
#include "engine/run/session.h"

#include <string.h>

/* A finding record of class `key` from case k. */
static fgi_finding_rec rec_of(const char *key, int64_t k, const uint8_t *data, size_t size)
{
    fgi_finding_rec r;
    memset(&r, 0, sizeof r);
    static const fgi_finding_place at = {.target = "t"};
    r.at = &at;
    r.kind = "check";
    r.detail = key;
    r.data = data;
    r.size = size;
    r.case_index = k;
    r.mutations = "flip_bit";
    fgi_finding_classify(&r);
    return r;
}

/* Samples a run of n cases as the session does: a call before each case, then the end. */
static fg_outcome *sampled_run(uint64_t n)
{
    fg_outcome *o = fgi_outcome_new("t");
    CHECK(o != NULL);
    for (uint64_t k = 0; k < n; k++)
        fgi_outcome_sample(o, k, 1 + k / 3, k / 2, 7 * k);
    o->cases = n;
    o->corpus = 1 + n / 3;
    o->signatures = n / 2;
    o->features = 7 * n;
    fgi_outcome_sample_end(o);
    return o;
}

/* The smallest power of two s with ceil(n / s) <= FGI_SERIES_MAX: the stride a run of n
 * cases must end with. */
static uint64_t stride_for(uint64_t n)
{
    uint64_t s = 1;
    while ((n + s - 1) / s > FGI_SERIES_MAX)
        s *= 2;
    return s;
}

FG_TEST(outcome_series_points_are_a_function_of_the_case_count)
{
    static const uint64_t counts[] = {0, 1, 2, 255, 256, 257, 1000, 20000, 65536, 100003};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        uint64_t n = counts[c], s = stride_for(n);
        fg_outcome *o = sampled_run(n);
        const fgi_series *v = &o->series;
        uint64_t sampled = n ? (n + s - 1) / s : 0; /* 0, s, 2s, ... below n */
        CHECK_EQ_U(v->n, sampled + 1);              /* and the end */
        CHECK(v->n <= FGI_SERIES_MAX + 1);
        for (size_t i = 0; i + 1 < v->n; i++) {
            CHECK_EQ_U(v->v[i].cases, i * s);
            CHECK_EQ_U(v->v[i].corpus, 1 + i * s / 3);
            CHECK_EQ_U(v->v[i].features, 7 * i * s);
        }
        CHECK_EQ_U(v->v[v->n - 1].cases, n);
        CHECK_EQ_U(v->v[v->n - 1].corpus, o->corpus);
        CHECK_EQ_U(v->v[v->n - 1].signatures, o->signatures);
        fg_outcome_free(o);
    }
}

/* The end replaces a point at the same case (a run that ends on a sampled case, or an end
 * taken twice); calls that go back are ignored. */
FG_TEST(outcome_series_end_replaces_and_backward_calls_are_ignored)
{
    fg_outcome *o = fgi_outcome_new("t");
    fgi_outcome_sample(o, 0, 1, 1, 0);
    fgi_outcome_sample(o, 1, 2, 2, 0);
    fgi_outcome_sample(o, 1, 9, 9, 9); /* the same case again */
    fgi_outcome_sample(o, 0, 9, 9, 9); /* back */
    CHECK_EQ_U(o->series.n, 2);
    CHECK_EQ_U(o->series.v[1].corpus, 2);
    o->cases = 1;
    o->corpus = 5;
    fgi_outcome_sample_end(o);
    fgi_outcome_sample_end(o);
    CHECK_EQ_U(o->series.n, 2);
    CHECK_EQ_U(o->series.v[1].cases, 1);
    CHECK_EQ_U(o->series.v[1].corpus, 5);
    fg_outcome_free(o);
}

/* Findings so far are counted into each point; each finding keeps the case it first
 * occurred at, however often its class comes back with a smaller input. */
FG_TEST(outcome_findings_keep_their_first_case)
{
    fg_outcome *o = fgi_outcome_new("t");
    static const uint8_t big[] = "abcdef", small[] = "a";
    int changed;
    fgi_outcome_sample(o, 0, 1, 1, 0);
    fgi_finding_rec a = rec_of("bug a", -1, big, 6);
    CHECK(fgi_outcome_add(o, &a, &changed) != NULL && changed);
    fgi_outcome_sample(o, 1, 1, 1, 0);
    for (int64_t k = 2; k < 12; k++) { /* more classes than the first allocation holds */
        char key[32];
        snprintf(key, sizeof key, "bug %c", (char)('b' + k));
        fgi_finding_rec r = rec_of(key, k * 10, big, 6);
        CHECK(fgi_outcome_add(o, &r, &changed) != NULL);
    }
    fgi_finding_rec again = rec_of("bug a", 500, small, 1);
    CHECK(fgi_outcome_add(o, &again, &changed) != NULL && changed);
    CHECK_EQ_U(o->nfindings, 11);
    CHECK(fgi_outcome_first_case(o, 0) == -1);
    CHECK_EQ_U(o->findings[0].size, 1);
    CHECK_STR(o->findings[0].origin, "case 500");
    for (size_t i = 1; i < o->nfindings; i++)
        CHECK_EQ_U(fgi_outcome_first_case(o, i), (i + 1) * 10);
    CHECK_EQ_U(o->series.v[0].findings, 0);
    CHECK_EQ_U(o->series.v[1].findings, 1);
    fg_outcome_free(o);
}

static fg_outcome *outcome_with_findings(void)
{
    fg_outcome *o = sampled_run(3000);
    static const uint8_t data[] = {0xab, 0};
    int changed;
    fgi_finding_rec a = rec_of("bug a", 812, data, 2);
    fg_finding *f = fgi_outcome_add(o, &a, &changed);
    CHECK(f && fgi_outcome_set_path(f, "findings/t/a.bin", "prog") == 0);
    CHECK(fgi_outcome_set_known(f, "triaged") == 0);
    fgi_finding_rec b = rec_of("bug b", -1, data, 0);
    b.origin = "corpus/t/empty";
    CHECK(fgi_outcome_add(o, &b, &changed) != NULL);
    o->kept = 12;
    return o;
}

/* A clone is equal in every field and owns its memory: it outlives the original. */
FG_TEST(outcome_clone_is_a_deep_copy)
{
    fg_outcome *o = outcome_with_findings();
    fg_outcome *c = fgi_outcome_clone(o);
    CHECK(c != NULL);
    CHECK(c->target != o->target && c->findings != o->findings);
    CHECK(memcmp(&c->series, &o->series, sizeof o->series) == 0);
    CHECK_EQ_U(c->kept, 12);
    CHECK_EQ_U(c->nfindings, 2);
    char class_a[FGI_CLASS_ID_MAX];
    snprintf(class_a, sizeof class_a, "%s", o->findings[0].class_id);
    fg_outcome_free(o);
    CHECK_STR(c->target, "t");
    CHECK_STR(c->findings[0].class_id, class_a);
    CHECK_STR(c->findings[0].known, "triaged");
    CHECK_STR(c->findings[0].path, "findings/t/a.bin");
    CHECK_STR(c->findings[0].replay, "prog t findings/t/a.bin");
    CHECK_STR(c->findings[0].origin, "case 812");
    CHECK_STR(c->findings[0].hex, "ab00");
    CHECK(c->findings[0].size == 2 && memcmp(c->findings[0].data, "\xab\0", 2) == 0);
    CHECK(c->findings[1].path == NULL && c->findings[1].known == NULL);
    CHECK_STR(c->findings[1].origin, "corpus/t/empty");
    CHECK(fgi_outcome_first_case(c, 0) == 812 && fgi_outcome_first_case(c, 1) == -1);
    fg_outcome_free(c);
}

/* Failing each allocation of a clone in turn: NULL every time, nothing leaked (the
 * sanitizer builds check that), then a clone. */
FG_TEST(outcome_clone_fails_cleanly)
{
    fg_outcome *o = outcome_with_findings();
    fg_outcome *c = NULL;
    unsigned long n;
    for (n = 1; n < 200; n++) {
        fgi_mem_fail_nth(n);
        c = fgi_outcome_clone(o);
        int fired = fgi_mem_fail_nth(0) >= n;
        if (!fired)
            break;
        CHECK(c == NULL);
    }
    CHECK(n > 20 && n < 200);
    CHECK(c != NULL && c->nfindings == 2);
    fg_outcome_free(c);
    fg_outcome_free(o);
}

/* The session takes a point before each generated case and one at the end: a real run's
 * series ends at its case count with its final counts and never goes down. */
FG_TEST(outcome_series_of_a_real_run)
{
    char root[256], findings[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(findings, sizeof findings, "%s/f", root);
    fg_options *opt = fg_options_new();
    CHECK(fg_options_set(opt, "cases", "3000") == FG_OK);
    CHECK(fg_options_set(opt, "findings", findings) == FG_OK);
    fg_session *s = fg_session_new(opt, NULL);
    fg_outcome *o = NULL;
    CHECK(s && fg_session_run(s, fg_target_find("hex"), &o) == FG_OK);
    const fgi_series *v = &o->series;
    uint64_t stride = stride_for(3000);
    CHECK_EQ_U(v->n, (3000 + stride - 1) / stride + 1);
    CHECK_EQ_U(v->v[0].cases, 0);
    CHECK(v->v[0].corpus >= 1); /* the replayed corpus and the empty input */
    for (size_t i = 1; i < v->n; i++) {
        CHECK(v->v[i].cases > v->v[i - 1].cases);
        CHECK(v->v[i].corpus >= v->v[i - 1].corpus);
        CHECK(v->v[i].signatures >= v->v[i - 1].signatures);
    }
    CHECK_EQ_U(v->v[v->n - 1].cases, 3000);
    CHECK_EQ_U(v->v[v->n - 1].corpus, fg_outcome_corpus(o));
    CHECK(v->v[v->n - 1].corpus > v->v[0].corpus);
    fg_outcome_free(o);
    CHECK_EQ_U(s->nruns, 1); /* the session kept a copy for the human reports */
    fg_session_free(s);
    fg_options_free(opt);
    fgt_rmrf(root);
}
