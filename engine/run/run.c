/* engine/run/run.c — one run's lifecycle: open, run (supervised or here), close; its
 * progress lines, its stop conditions and the interrupt that ends it early. */
#include "engine/run/run.h"

#include "engine/base/clock.h"
#include "engine/feedback/cmp.h"
#include "engine/feedback/coverage.h"
#include "engine/run/registry.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#define STATUS_EVERY_S 5.0        /* depth runs: seconds between status lines */
#define SATURATION_MIN_CASES 1000 /* the watch waits for this many cases... */
#define SATURATION_PERCENT 5      /* ...then warns when more than this % were kept */

/* SIGINT / SIGTERM during a run: stop at the next chunk, keep everything. Process-wide
 * because a signal handler sets it; only the run's thread reads it. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    interrupted = sig;
    signal(sig, SIG_DFL); /* a second one ends the process */
}

int fgi_run_interrupted(void)
{
    return interrupted;
}


void fgi_run_error(run *r, fg_error e)
{
    if (r->err == FG_OK)
        r->err = e;
}

int fgi_run_should_stop(run *r)
{
    if (r->err != FG_OK)
        return 1;
    if (r->ex.slot)
        return r->ex.slot->stop;
    return fgi_run_interrupted() ||
           (r->s->opt.seconds && fgi_clock_now_s() - r->prog.start >= (double)r->s->opt.seconds);
}



int fgi_run_status_due(const run *r)
{
    return r->s->opt.seconds && fgi_clock_now_s() - r->prog.last_status >= STATUS_EVERY_S;
}

void fgi_run_status(run *r, uint64_t pos)
{
    double now = fgi_clock_now_s();
    r->prog.last_status = now;
    uint64_t k = pos > r->plan.nitems ? pos - r->plan.nitems : 0;
    double rate = now > r->prog.start ? (double)k / (now - r->prog.start) : 0;
    struct rusage ru;
    long rss_mib = getrusage(r->sv.sup ? RUSAGE_CHILDREN : RUSAGE_SELF, &ru) == 0
                       ? ru.ru_maxrss / 1024
                       : -1;
    /* Only the columns that can say something: a libFuzzer harness has no signatures, a
     * plain build no features. */
    char sigs[96] = "", feats[48] = "";
    if (r->snap.nov.count)
        snprintf(sigs, sizeof sigs, ", signatures %zu, novelty %.4f", r->snap.nov.count,
                 k ? (double)r->o->kept / (double)k : 0.0);
    if (r->snap.features.count || fgi_cov_enabled())
        snprintf(feats, sizeof feats, ", features %zu", r->snap.features.count);
    fprintf(r->s->log, "#%llu %s: %.0f cases/s, corpus %zu%s%s, findings %zu, peak rss %ld MiB\n",
            (unsigned long long)k, r->t->name, rate, r->snap.corpus.count, sigs, feats,
            r->o->nfindings, rss_mib);
}


fg_error fgi_run_open(run *r, fg_session *s, const fg_target *t)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    r->t = t;
    r->side = s->opt.fork ? FGI_SIDE_PARENT : FGI_SIDE_ALONE;
    r->plan.jobs = s->opt.fork ? (unsigned)s->opt.jobs : 1;
    r->plan.max_len = s->opt.max_len ? (size_t)s->opt.max_len
                 : t->max_len   ? t->max_len
                                : FGI_DEFAULT_MAX_LEN;
    r->plan.name_hash = fgi_hash_str(t->name);
    r->plan.time_ms = s->opt.timeout_ms ? (unsigned)FGI_MIN(s->opt.timeout_ms, 1u << 30)
                 : t->time_ms      ? t->time_ms
                                   : FGI_DEFAULT_TIME_MS;
    r->prog.start = r->prog.last_status = fgi_clock_now_s();
    fgi_novelty_init(&r->snap.nov);
    fgi_novelty_init(&r->snap.features);
    fgi_novelty_init_scratch(&r->ex.dsig);
    fgi_novelty_init_scratch(&r->ex.dfeat);
    fgi_novelty_init_scratch(&r->ex.sent);
    fgi_covcount_init(&r->ex.cc);
    fgi_corpus_init(&r->snap.corpus);
    fgi_sched_init(&r->snap.sched, r->plan.max_len);
    r->snap.corpus.features = &r->snap.features;
    if (!(r->o = fgi_outcome_new(t->name)))
        return FG_ENOMEM;
    r->ex.own_work = fgi_malloc(r->plan.max_len);
    r->ex.scratch = fgi_malloc(r->plan.max_len);
    if (!r->ex.own_work || !r->ex.scratch)
        return FG_ENOMEM;
    r->ex.work = r->ex.own_work;
    r->ex.mut.rng = &r->ex.rng;
    r->ex.mut.scratch = r->ex.scratch;
    r->ex.mut.dict = &s->dict;
    fgi_cmp_reset(); /* each target's run starts with empty comparison tables */
    fgi_str kpath = {0};
    fgi_str_addf(&kpath, "%s/%s/known.txt", s->opt.corpus, t->name);
    char kerr[512];
    fg_error ke = kpath.failed ? FG_ENOMEM
                               : fgi_known_load(kpath.buf, &r->snap.known, kerr, sizeof kerr);
    fgi_str_free(&kpath);
    if (ke != FG_OK) {
        if (ke == FG_EOPTION)
            fprintf(s->log, "fuzzgate: %s\n", kerr);
        return ke;
    }
    return FG_OK;
}

/* Sizes the slot for the largest input and counts the run's positions. */

/* Runs the planned positions: supervised, or here. */
void fgi_run_all(run *r)
{
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
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
    /* Restore the host's handlers, unless one of ours has already given way to the default
     * (an interrupt came: the caller sees fgi_run_interrupted and stops). */
    if (!fgi_run_interrupted()) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
}

static void saturation_watch(run *r)
{
    fg_outcome *o = r->o;
    if (o->cases < SATURATION_MIN_CASES || o->kept * 100 <= o->cases * SATURATION_PERCENT)
        return;
    o->saturated = 1;
    fprintf(r->s->log,
            "fuzzgate: warning: %s kept %llu of %llu cases (%.1f%%): its signature probably "
            "folds a running total rather than this case's state\n",
            r->t->name, (unsigned long long)o->kept, (unsigned long long)o->cases,
            100.0 * (double)o->kept / (double)o->cases);
}

/* Closes what fgi_run_open opened; hands the outcome to *out on success. */
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
    fgi_novelty_free(&r->snap.nov);
    fgi_novelty_free(&r->snap.features);
    fgi_novelty_free(&r->ex.dsig);
    fgi_novelty_free(&r->ex.dfeat);
    fgi_novelty_free(&r->ex.sent);
    fgi_corpus_free(&r->snap.corpus);
    fgi_sched_free(&r->snap.sched);
    fgi_epoch_clear(&r->snap.log);
    fgi_free(r->snap.log.cands);
    fgi_free(r->snap.log.hits);
    fgi_known_free(&r->snap.known);
    for (size_t i = 0; i < r->plan.nitems; i++) {
        fgi_free(r->plan.items[i].origin);
        fgi_free(r->plan.items[i].data);
        if (r->plan.evals)
            fgi_free(r->plan.evals[i].keys);
    }
    fgi_free(r->plan.evals);
    fgi_free(r->plan.items);
    fgi_free(r->ex.ckeys);
    fgi_free(r->ex.feat);
    fgi_free(r->ex.feat_mixed);
    fgi_free(r->ex.feat_dense);
    fgi_covcount_free(&r->ex.cc);
    fgi_free(r->ex.own_work);
    fgi_free(r->ex.scratch);
    if (e == FG_OK)
        e = r->err;
    if (e != FG_OK) {
        fg_outcome_free(r->o);
        return e;
    }
    *out = r->o;
    return FG_OK;
}

