/* engine/report/report_md.c — FUZZ.md: a session's runs summarised for people, in GitHub markdown.
 *
 * Written for a CI job summary (cat it into $GITHUB_STEP_SUMMARY). By example:
 *
 *   # fuzzgate: 1 passed, 1 failed
 *
 *   Seed `0x005eed0f6a7e2026`, 20000 generated cases per target after the committed corpus:
 *   a case-bounded run, so the cases, corpus and findings are the same on every machine.
 *
 *   | target | result | cases | corpus | signatures | features | novelty | findings |
 *   | :--- | :--- | ---: | ---: | ---: | ---: | ---: | :--- |
 *   | `hex` | pass | 20000 | 69 | 68 | 0 | 0.0027 | none |
 *   | `tlv` | **FAIL** | 20000 | 14 | 13 | 0 | 0.0006 | 1 new |
 *
 *   ## New findings
 *
 *   ### `tlv`: check `check-3c0f...`
 *
 *   - **Detail:** `tlv.c:11: check failed: ...`
 *   - **Origin:** case 57 (mutations: flip_bit), seen 3 times; smallest input 2 bytes
 *   - **Reproducer:** `fuzzgate-findings/tlv/check-3c0f....bin`
 *
 *   ```sh
 *   ./tlv-fuzz tlv fuzzgate-findings/tlv/check-3c0f....bin
 *   ```
 *
 * then "Known findings" (the same, with the reason from known.txt) and a time table whose
 * heading says its figures are wall-clock. Everything but that table is deterministic for a
 * case-bounded run. Text from targets goes into code spans (details, paths) or is escaped
 * (known reasons), so a message cannot break the page.
 */
#include "engine/report/report.h"

#include <string.h>

/* The longest run of backticks in text. */
static size_t backtick_run(const char *text)
{
    size_t best = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        best = FGI_MAX(best, run);
    }
    return best;
}

static void repeat(fgi_str *out, char c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fgi_str_addn(out, &c, 1);
}

/* text as one inline code span: the fence one backtick longer than any run inside it,
 * padded when the text starts or ends with a backtick, control bytes as spaces (a line
 * break would end a list item). */
static void code_span(fgi_str *out, const char *text)
{
    size_t fence = backtick_run(text) + 1, len = strlen(text);
    int pad = len && (text[0] == '`' || text[len - 1] == '`');
    repeat(out, '`', fence);
    if (pad)
        fgi_str_add(out, " ");
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        fgi_str_addn(out, *p < 0x20 || *p == 0x7f ? " " : (const char *)p, 1);
    if (pad)
        fgi_str_add(out, " ");
    repeat(out, '`', fence);
}

/* text as plain markdown in the middle of a line: the punctuation that means something
 * there (emphasis, code, links, HTML, entities, table cells) is backslash-escaped, line
 * breaks become spaces. */
static void plain(fgi_str *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fgi_str_add(out, " ");
        else if (strchr("\\`*_[]<>|~&", *p))
            fgi_str_addf(out, "\\%c", *p);
        else
            fgi_str_addn(out, (const char *)p, 1);
    }
}

static void header(fgi_str *out, const fgi_opts *opt, fg_outcome *const *runs, size_t n)
{
    size_t passed = 0, skipped = 0, stored = 1;
    for (size_t i = 0; i < n; i++) {
        passed += fg_outcome_passed(runs[i]) && !runs[i]->gate_failure;
        skipped += runs[i]->skip != NULL;
        stored &= !runs[i]->store_failed;
    }
    fgi_str_addf(out, "# fuzzgate: %zu passed, %zu failed", passed, n - passed - skipped);
    if (skipped) /* the line stays "N passed, N failed" when none is, as the driver's */
        fgi_str_addf(out, ", %zu skipped", skipped);
    fgi_str_add(out, "\n\n");
    if (opt->seconds)
        fgi_str_addf(out,
                     "Seed `0x%016llx`, a time-bounded run of %llu s per target: seeded, but "
                     "not reproducible case for case.\n\n",
                     (unsigned long long)opt->seed, (unsigned long long)opt->seconds);
    else
        fgi_str_addf(out,
                     "Seed `0x%016llx`, %llu generated cases per target after the committed "
                     "corpus: a case-bounded run, so the cases, corpus and findings are the "
                     "same on every machine.\n\n",
                     (unsigned long long)opt->seed, (unsigned long long)opt->cases);
    if (!stored)
        fgi_str_add(out, "**A finding could not be stored**: its hex is on the run's "
                         "standard error.\n\n");
}

static void target_table(fgi_str *out, fg_outcome *const *runs, size_t n)
{
    fgi_str_add(out, "| target | result | cases | corpus | signatures | features | novelty "
                     "| findings |\n"
                     "| :--- | :--- | ---: | ---: | ---: | ---: | ---: | :--- |\n");
    for (size_t i = 0; i < n; i++) {
        const fg_outcome *o = runs[i];
        size_t known = fgi_outcome_known(o), fresh = o->nfindings - known;
        fgi_str_add(out, "| ");
        code_span(out, o->target);
        if (o->skip) {
            fgi_str_add(out, " | skipped | | | | | | ");
            plain(out, o->skip);
            fgi_str_add(out, " |\n");
            continue;
        }
        fgi_str_addf(out, " | %s | %llu | %zu | %zu | %zu | %.4f | ",
                     fg_outcome_passed(o) && !o->gate_failure ? "pass" : "**FAIL**", (unsigned long long)o->cases,
                     o->corpus, o->signatures, o->features, fgi_outcome_novelty(o));
        if (fresh)
            fgi_str_addf(out, "%zu new", fresh);
        if (fresh && known)
            fgi_str_add(out, ", ");
        if (known)
            fgi_str_addf(out, "%zu known", known);
        if (!o->nfindings)
            fgi_str_add(out, "none");
        if (o->gate_failure) {
            fgi_str_add(out, "; ");
            plain(out, o->gate_failure);
        }
        fgi_str_add(out, o->saturated ? " (saturated) |\n" : " |\n");
    }
    fgi_str_add(out, "\nNovelty: generated cases kept for a new signature or feature, per case "
                     "run. The plot of corpus and features over cases is `coverage.svg`, "
                     "beside this file.\n");
}

/* One finding: heading, detail, origin, reproducer and its replay command. */
static void finding(fgi_str *out, const fg_outcome *o, size_t i)
{
    const fg_finding *f = &o->findings[i];
    fgi_str_add(out, "\n### ");
    code_span(out, o->target);
    fgi_str_addf(out, ": %s ", f->kind);
    code_span(out, f->class_id);
    fgi_str_add(out, "\n\n");
    if (f->known) {
        fgi_str_add(out, "- **Known:** ");
        plain(out, f->known);
        fgi_str_add(out, "\n");
    }
    fgi_str_add(out, "- **Detail:** ");
    code_span(out, f->detail);
    fgi_str_add(out, "\n- **Origin:** ");
    code_span(out, f->origin);
    if (f->mutations && *f->mutations) {
        fgi_str_add(out, " (mutations: ");
        code_span(out, f->mutations);
        fgi_str_add(out, ")");
    }
    int64_t first = fgi_outcome_first_case(o, i);
    if (first >= 0)
        fgi_str_addf(out, ", first at case %lld", (long long)first);
    fgi_str_addf(out, "; seen %u time%s, smallest input %zu byte%s\n", f->count,
                 f->count == 1 ? "" : "s", f->size, f->size == 1 ? "" : "s");
    fgi_str_add(out, "- **Reproducer:** ");
    if (f->path)
        code_span(out, f->path);
    else
        fgi_str_add(out, "not stored (its hex is on the run's standard error)");
    size_t fence = FGI_MAX(backtick_run(f->replay) + 1, (size_t)3);
    fgi_str_add(out, "\n\n");
    repeat(out, '`', fence);
    fgi_str_add(out, "sh\n");
    fgi_str_add(out, f->replay);
    fgi_str_add(out, "\n");
    repeat(out, '`', fence);
    fgi_str_add(out, "\n");
}

/* Every finding of every run that is (known != 0) or is not (known == 0) known. */
static void findings(fgi_str *out, fg_outcome *const *runs, size_t n, int known)
{
    int any = 0;
    for (size_t r = 0; r < n; r++) {
        for (size_t i = 0; i < runs[r]->nfindings; i++) {
            if ((runs[r]->findings[i].known != NULL) != known)
                continue;
            if (!any++)
                fgi_str_add(out, known ? "\n## Known findings (counted, not failed)\n"
                                       : "\n## New findings\n");
            finding(out, runs[r], i);
        }
    }
}

static void time_table(fgi_str *out, fg_outcome *const *runs, size_t n)
{
    fgi_str_add(out, "\n## Time (wall clock: varies from run to run, kept out of "
                     "report.json)\n\n"
                     "| target | seconds | cases/s | slow cases | slowest case |\n"
                     "| :--- | ---: | ---: | ---: | ---: |\n");
    for (size_t i = 0; i < n; i++) {
        const fg_outcome *o = runs[i];
        if (o->skip)
            continue;
        fgi_str_add(out, "| ");
        code_span(out, o->target);
        fgi_str_addf(out, " | %.2f | %.0f | %lu | %u ms |\n", o->seconds,
                     o->seconds > 0 ? (double)o->cases / o->seconds : 0.0, o->slow,
                     o->slowest_ms);
    }
}

void fgi_report_md(fgi_str *out, const fgi_opts *opt, fg_outcome *const *runs, size_t n)
{
    header(out, opt, runs, n);
    if (n)
        target_table(out, runs, n);
    else
        fgi_str_add(out, "No target ran.\n");
    findings(out, runs, n, 0);
    findings(out, runs, n, 1);
    if (n)
        time_table(out, runs, n);
}
