/* engine/run/run.c — one run's lifecycle: open, run (supervised or here), close. */
#include "engine/run/run.h"

#include "engine/base/clock.h"
#include "engine/feedback/cmp.h"
#include "engine/run/control.h"
#include "engine/run/executor.h"
#include "engine/run/plan.h"
#include "engine/run/record.h"
#include "engine/run/snapshot.h"
#include "engine/run/supervised.h"

#include <string.h>

#define SATURATION_MIN_CASES 1000 /* the watch waits for this many cases... */
#define SATURATION_PERCENT 5      /* ...then warns when more than this % were kept */

/* Every part of the run is set up by its owner; on failure fgi_run_close still frees what
 * was set up (each part's free takes a zeroed part). */
fg_error fgi_run_open(run *r, fg_session *s, const fg_target *t)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    r->t = t;
    r->side = s->opt.fork ? FGI_SIDE_PARENT : FGI_SIDE_ALONE;
    fgi_plan_init(r);
    fgi_record_init(r);
    fgi_control_init(r);
    if (!(r->o = fgi_outcome_new(t->name)))
        return FG_ENOMEM;
    fg_error e = fgi_executor_init(r);
    if (e != FG_OK)
        return e;
    fgi_cmp_reset(); /* each target's run starts with empty comparison tables */
    return fgi_snapshot_init(r);
}

void fgi_run_all(run *r)
{
    fgi_control_catch();
    if (r->s->opt.fork) {
        fgi_supervised_run(r);
    } else {
        fg_error e = fgi_executor_open(r);
        if (e != FG_OK)
            fgi_run_error(r, e);
        else
            fgi_executor_run(r, 0, 0);
        fgi_executor_close(r);
    }
    fgi_control_release();
}

static void saturation_watch(run *r)
{
    fg_outcome *o = r->o;
    if (o->cases < SATURATION_MIN_CASES || o->kept * 100 <= o->cases * SATURATION_PERCENT)
        return;
    o->saturated = 1;
    /* What kept them: the target's signatures, or its features (comparisons against what
     * looked like constants, fg_feature) when those outnumber the signatures. */
    int by_features = r->snap.features.count > r->snap.nov.count;
    fprintf(r->s->log, "fuzzgate: warning: %s kept %llu of %llu cases (%.1f%%): %s\n",
            r->t->name, (unsigned long long)o->kept, (unsigned long long)o->cases,
            100.0 * (double)o->kept / (double)o->cases,
            by_features ? "its features probably carry values of the input (text the target "
                          "built and compared, a value given to fg_feature) rather than "
                          "constants and states"
                        : "its signature probably folds a running total rather than this "
                          "case's state");
}

fg_error fgi_run_close(run *r, fg_error e, fg_outcome **out, int watch)
{
    if (r->o) {
        r->o->slow = r->prog.slow;
        r->o->slowest_ms = r->prog.slowest_ms;
        r->o->cases = r->prog.reached > r->plan.nitems ? r->prog.reached - r->plan.nitems : 0;
        r->o->replayed = r->prog.reached < r->plan.nitems ? r->prog.reached : r->plan.nitems;
        r->o->corpus = r->snap.corpus.count;
        r->o->signatures = r->snap.nov.count;
        r->o->features = r->snap.features.count;
        r->o->timed = r->s->opt.seconds != 0;
        r->o->seconds = fgi_clock_now_s() - r->prog.start;
        fgi_outcome_sample_end(r->o); /* report series: the run's last point */
        fgi_outcome_sort(r->o);
        if (watch && e == FG_OK && r->err == FG_OK)
            saturation_watch(r);
    }
    if (r->sv.rehits)
        fprintf(r->s->log,
                "fuzzgate: %s: %lu case%s ran past the re-hit deadline of %u ms and %s "
                "abandoned as re-hits of the timeout (never a finding; timing only)\n",
                r->t->name, r->sv.rehits, r->sv.rehits == 1 ? "" : "s", r->sv.rehit_ms,
                r->sv.rehits == 1 ? "was" : "were");
    if (r->prog.slow)
        fprintf(r->s->log, "fuzzgate: %s: %lu slow case%s (the slowest ran %u+ ms)\n",
                r->t->name, r->prog.slow, r->prog.slow == 1 ? "" : "s", r->prog.slowest_ms);
    fgi_snapshot_free(r);
    fgi_plan_free(r);
    fgi_executor_free(r);
    if (e == FG_OK)
        e = r->err;
    if (e != FG_OK) {
        fg_outcome_free(r->o);
        return e;
    }
    *out = r->o;
    return FG_OK;
}

