/* engine/report/report.c — the reports of a session, written atomically into the findings
 * directory: report.json and timing.json here, FUZZ.md and coverage.svg rendered by
 * report_md.c and report_svg.c from a copy of each run's outcome; and, when asked for, JUnit
 * XML (junit.c) and SARIF (sarif.c) to the paths the user gave.
 *
 * report.json holds only what the determinism contract covers: options that shape the
 * run, and per target the counts and the findings by class. No time, no rate, no absolute
 * path beyond what the user passed. timing.json holds the times.
 *
 *   {"fuzzgate": 1, "seed": "0x005eed0f6a7e2026", "cases": 20000, "timed": false,
 *    "targets": [{"name": "hex", "status": "pass", "replayed": 9, "cases": 20000,
 *                 "corpus": 41, "signatures": 41, "kept": 32, "novelty": 0.0016,
 *                 "saturated": false,
 *                 "findings": [{"class": "check-...", "kind": "check", "count": 3,
 *                               "size": 7, "origin": "case 812", "detail": "...",
 *                               "file": "fuzzgate-findings/hex/check-....bin"}]},
 *                {"name": "brotli_decode", "status": "skipped",
 *                 "skip": "built without brotli (install libbrotli-dev)"}]}
 * A skipped target (its .skip set) has no counts here and no entry in timing.json.
 */
#include "engine/run/session.h"

#include "engine/base/safeio.h"
#include "engine/report/escape.h"
#include "engine/report/report.h"

#include <string.h>

/* A copy of o for the reports rendered at the end (FUZZ.md, coverage.svg, JUnit, SARIF),
 * skipped targets included; a copy that cannot be made is remembered as runs_failed. */
static void keep_run(fg_session *s, const fg_outcome *o)
{
    if (s->nruns == s->runs_cap) {
        size_t cap = s->runs_cap ? s->runs_cap * 2 : 8;
        fg_outcome **v = fgi_realloc(s->runs, cap * sizeof *v);
        if (!v) {
            s->runs_failed = 1;
            return;
        }
        s->runs = v;
        s->runs_cap = cap;
    }
    if (!(s->runs[s->nruns] = fgi_outcome_clone(o)))
        s->runs_failed = 1;
    else
        s->nruns++;
}

void fgi_report_add(fg_session *s, const fg_outcome *o)
{
    fgi_str *r = &s->report;
    if (s->nreported++)
        fgi_str_add(r, ",\n");
    fgi_str_add(r, "    {\"name\": ");
    fgi_escape_json(r, o->target);
    if (o->skip) {
        fgi_str_add(r, ", \"status\": \"skipped\", \"skip\": ");
        fgi_escape_json(r, o->skip);
        fgi_str_add(r, "}");
        keep_run(s, o); /* nothing ran: no counts, no times */
        return;
    }
    fgi_str_addf(r,
                 ", \"status\": \"%s\", \"replayed\": %zu, \"cases\": %llu, \"corpus\": %zu, "
                 "\"signatures\": %zu, \"features\": %zu, \"kept\": %llu, \"novelty\": %.4f, "
                 "\"saturated\": %s, \"findings\": [",
                 fg_outcome_passed(o) ? "pass" : "fail", o->replayed, (unsigned long long)o->cases,
                 o->corpus, o->signatures, o->features, (unsigned long long)o->kept,
                 fgi_outcome_novelty(o), o->saturated ? "true" : "false");
    for (size_t i = 0; i < o->nfindings; i++) {
        const fg_finding *f = &o->findings[i];
        fgi_str_add(r, i ? ",\n        {\"class\": " : "\n        {\"class\": ");
        fgi_escape_json(r, f->class_id);
        fgi_str_add(r, ", \"kind\": ");
        fgi_escape_json(r, f->kind);
        fgi_str_addf(r, ", \"count\": %u, \"size\": %zu, \"origin\": ", f->count, f->size);
        fgi_escape_json(r, f->origin);
        fgi_str_add(r, ", \"detail\": ");
        fgi_escape_json(r, f->detail);
        fgi_str_add(r, ", \"known\": ");
        if (f->known)
            fgi_escape_json(r, f->known);
        else
            fgi_str_add(r, "null");
        fgi_str_add(r, ", \"file\": ");
        if (f->path)
            fgi_escape_json(r, f->path);
        else
            fgi_str_add(r, "null");
        fgi_str_add(r, "}");
    }
    fgi_str_add(r, o->nfindings ? "]}" : "]}");

    fgi_str *t = &s->timing;
    if (t->len)
        fgi_str_add(t, ",\n");
    fgi_str_add(t, "    {\"name\": ");
    fgi_escape_json(t, o->target);
    fgi_str_addf(t,
                 ", \"seconds\": %.3f, \"cases_per_second\": %.0f, \"slow_cases\": %lu, "
                 "\"slowest_ms\": %u}",
                 o->seconds, o->seconds > 0 ? (double)o->cases / o->seconds : 0.0, o->slow,
                 o->slowest_ms);

    keep_run(s, o);
}

void fgi_report_gate_failure(fg_session *s, const char *why)
{
    if (!s->nruns)
        return;
    fg_outcome *o = s->runs[s->nruns - 1];
    fgi_free(o->gate_failure);
    if (!(o->gate_failure = fgi_strdup(why)))
        s->runs_failed = 1;
}

void fgi_report_free(fg_session *s)
{
    for (size_t i = 0; i < s->nruns; i++)
        fg_outcome_free(s->runs[i]);
    fgi_free(s->runs);
    s->runs = NULL;
    s->nruns = s->runs_cap = 0;
}

typedef struct text {
    const char *p;
    size_t len;
} text;

static int fill_text(int fd, void *ctx)
{
    const text *t = ctx;
    return fgi_write_all(fd, t->p, t->len);
}

/* path written atomically (temporary file, fsync, rename), its directory made first. */
static fg_error write_path(const char *path, const char *p, size_t len)
{
    char *dir = fgi_strdup(path);
    if (!dir)
        return FG_ENOMEM;
    char *slash = strrchr(dir, '/');
    int made = 0;
    if (slash && slash != dir) {
        *slash = '\0';
        made = fgi_make_dirs(dir);
    }
    fgi_free(dir);
    return made != 0 || fgi_write_atomic(path, fill_text, &(text){p, len}) ? FG_EIO : FG_OK;
}

/* <dir>/<name>, as write_path. */
static fg_error write_file(const char *dir, const char *name, const char *p, size_t len)
{
    fgi_str path = {0};
    fgi_str_addf(&path, "%s/%s", dir, name);
    fg_error e = path.failed ? FG_ENOMEM : write_path(path.buf, p, len);
    fgi_str_free(&path);
    return e;
}

typedef void render_fn(fgi_str *out, const fgi_opts *opt, fg_outcome *const *runs,
                       size_t n);

/* A report the user asked for by path (--junit, --sarif; "" when not), rendered from the
 * session's runs and written as the others are. */
static fg_error write_asked(fg_session *s, const char *path, render_fn *render)
{
    if (!path || !*path)
        return FG_OK;
    fgi_str out = {0};
    render(&out, &s->opt, s->runs, s->nruns);
    fg_error e = out.failed ? FG_ENOMEM : write_path(path, out.buf, out.len);
    fgi_str_free(&out);
    return e;
}

fg_error fg_session_write_reports(fg_session *s)
{
    if (!s)
        return FG_EINVAL;
    char *dir = fgi_strdup(s->opt.findings);
    if (!dir)
        return FG_ENOMEM;
    int made = fgi_make_dirs(dir);
    fgi_free(dir);
    if (made != 0)
        return FG_EIO;
    fgi_str r = {0};
    fgi_str_addf(&r,
                 "{\"fuzzgate\": 1, \"seed\": \"0x%016llx\", \"cases\": %llu, \"timed\": %s, "
                 "\"max_len\": %llu,\n  \"targets\": [\n",
                 (unsigned long long)s->opt.seed, (unsigned long long)s->opt.cases,
                 s->opt.seconds ? "true" : "false", (unsigned long long)s->opt.max_len);
    fgi_str_add(&r, fgi_str_cstr(&s->report));
    fgi_str_add(&r, "\n  ]}\n");
    fgi_str t = {0};
    fgi_str_add(&t, "{\"fuzzgate\": 1, \"targets\": [\n");
    fgi_str_add(&t, fgi_str_cstr(&s->timing));
    fgi_str_add(&t, "\n  ]}\n");
    fgi_str md = {0}, svg = {0};
    fgi_report_md(&md, &s->opt, s->runs, s->nruns);
    fgi_report_svg(&svg, &s->opt, s->runs, s->nruns);
    fg_error e = (r.failed || t.failed || s->report.failed || s->timing.failed) ? FG_ENOMEM
                                                                             : FG_OK;
    if (e == FG_OK)
        e = write_file(s->opt.findings, "report.json", r.buf, r.len);
    if (e == FG_OK)
        e = write_file(s->opt.findings, "timing.json", t.buf, t.len);
    /* the JSON files first: a human report that cannot be built does not cost them */
    if (e == FG_OK && (md.failed || svg.failed || s->runs_failed))
        e = FG_ENOMEM;
    if (e == FG_OK)
        e = write_file(s->opt.findings, "FUZZ.md", md.buf, md.len);
    if (e == FG_OK)
        e = write_file(s->opt.findings, "coverage.svg", svg.buf, svg.len);
    if (e == FG_OK)
        e = write_asked(s, s->opt.junit, fgi_junit_render);
    if (e == FG_OK)
        e = write_asked(s, s->opt.sarif, fgi_sarif_render);
    fgi_str_free(&r);
    fgi_str_free(&t);
    fgi_str_free(&md);
    fgi_str_free(&svg);
    return e;
}
