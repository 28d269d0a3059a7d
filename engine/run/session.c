/* engine/run/session.c — the public session: options, dictionary and registry checked once,
 * then fg_session_run and fg_session_replay over one target each. */
/* session.h, the layout every part of a run reads, comes with state.h: this file is the
 * public session API (fuzzgate.h), not that header's module. */
#include "engine/base/dir.h"
#include "engine/base/errout.h"
#include "engine/mutate/domain.h"
#include "engine/run/control.h"
#include "engine/run/modes.h"
#include "engine/run/plan.h"
#include "engine/run/registry.h"
#include "engine/run/run.h"

#include <string.h>

fg_session *fg_session_new(const fg_options *opt, fg_error *err)
{
    fg_error e = FG_OK;
    const char *dup = NULL;
    fg_session *s = fgi_calloc(1, sizeof *s);
    if (!s) {
        e = FG_ENOMEM;
        goto fail;
    }
    e = opt ? fgi_opts_copy(&s->opt, &opt->v) : fgi_opts_defaults(&s->opt);
    if (e != FG_OK)
        goto fail;
    if (s->opt.jobs == 0 || s->opt.jobs > 64) {
        fprintf(fgi_errout_file(), "fuzzgate: option --jobs: '%llu' is not between 1 and 64\n",
                (unsigned long long)s->opt.jobs);
        e = FG_EOPTION;
        goto fail;
    }
    if (!(s->program = fgi_strdup("fuzzgate"))) {
        e = FG_ENOMEM;
        goto fail;
    }
    s->log = fgi_errout_file();
    s->interrupt_status = -1;
    s->findings_status = 1;
    if (s->opt.dict && s->opt.dict[0]) {
        char msg[512];
        if ((e = fgi_dict_load(s->opt.dict, &s->dict, msg, sizeof msg)) != FG_OK) {
            fprintf(fgi_errout_file(), "fuzzgate: %s\n", msg);
            goto fail;
        }
    }
    if ((e = fgi_registry_check(&dup)) != FG_OK) {
        if (dup)
            fprintf(fgi_errout_file(), "fuzzgate: two targets are named '%s'\n", dup);
        goto fail;
    }
    if (err)
        *err = FG_OK;
    return s;
fail:
    fg_session_free(s);
    if (err)
        *err = e;
    return NULL;
}

void fg_session_free(fg_session *s)
{
    if (!s)
        return;
    fgi_opts_clear(&s->opt);
    fgi_dict_free(&s->dict);
    fgi_free(s->program);
    fgi_str_free(&s->report);
    fgi_str_free(&s->timing);
    fgi_report_free(s); /* the outcome copies kept for FUZZ.md and coverage.svg */
    fgi_free(s);
}

fg_error fg_session_set_program(fg_session *s, const char *argv0)
{
    if (!s || !argv0)
        return FG_EINVAL;
    char *p = fgi_strdup(argv0);
    if (!p)
        return FG_ENOMEM;
    fgi_free(s->program);
    s->program = p;
    return FG_OK;
}


/* A target that cannot run in this build: an outcome that says so, and nothing run. */
static fg_error skipped(fg_session *s, const fg_target *t, fg_outcome **out, int report)
{
    if (!(*out = fgi_outcome_skipped(t)))
        return FG_ENOMEM;
    if (report)
        fgi_report_add(s, *out);
    return FG_OK;
}

fg_error fg_session_run(fg_session *s, const fg_target *t, fg_outcome **out)
{
    if (!s || !t || !out)
        return FG_EINVAL;
    if (t->domain && fgi_domain_check(t->domain) != FG_OK) /* a half-declared domain */
        return FG_EINVAL;
    *out = NULL;
    if (t->skip)
        return skipped(s, t, out, 1);
    if (!t->run)
        return FG_EINVAL;
    fgi_control_catch(); /* the run and the minimisation after it: one interrupt ends both */
    run r;
    fg_error e = fgi_run_open(&r, s, t);
    double ends_at = fgi_run_ends_at(&r);
    if (e == FG_OK)
        e = fgi_plan_add_target(&r, s->opt.corpus);
    r.plan.ncommitted = r.plan.nitems;
    if (e == FG_OK && s->opt.corpus_out && *s->opt.corpus_out)
        e = fgi_plan_add_target(&r, s->opt.corpus_out);
    if (e == FG_OK)
        e = fgi_plan_add_seeds(&r);
    if (e == FG_OK)
        e = fgi_plan_add_item(&r, fgi_strdup("empty input"), NULL, 0, 1);
    if (e == FG_OK) {
        fgi_plan_size(&r, s->opt.cases);
        fgi_run_all(&r);
        if (s->opt.seconds)
            fgi_run_status(&r, r.prog.reached);
        fgi_mode_would_drop(&r);
    }
    e = fgi_run_close(&r, e, out, 1);
    if (e == FG_OK && s->opt.seconds && !fgi_run_interrupted())
        fgi_mode_minimize_findings(s, t, *out, ends_at);
    fgi_control_release();
    if (e == FG_OK)
        fgi_report_add(s, *out);
    return e;
}



fg_error fg_session_replay(fg_session *s, const fg_target *t, const char *path,
                           fg_outcome **out)
{
    if (!s || !t || !path || !out)
        return FG_EINVAL;
    *out = NULL;
    if (t->skip)
        return skipped(s, t, out, 0);
    if (!t->run)
        return FG_EINVAL;
    uint8_t *data;
    size_t size;
    fg_error e = fgi_file_read(path, (size_t)64 << 20, &data, &size);
    if (e != FG_OK)
        return e;
    e = fgi_mode_replay(s, t, path, data, size, 0, out);
    fgi_free(data);
    return e;
}

