/* engine/run/control.c — a run's bottom services (control.h): its error, whether it should
 * stop, its status lines, and the interrupt that ends it early. */
#include "engine/run/control.h"

#include "engine/base/clock.h"
#include "engine/base/errout.h"
#include "engine/base/safeio.h"
#include "engine/base/case.h"
#include "engine/feedback/coverage.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define STATUS_EVERY_S 5.0        /* depth runs: seconds between status lines */

/* A timed run that holds a new class stops generating this share of its seconds early,
 * within [RESERVE_MIN_S, RESERVE_MAX_S] and never more than half, and minimises in the
 * rest. Arbitrary: a trial of a fast target costs a few ms (a fork and a case), so a
 * second minimises a small input to its fixed point, and half a minute of a long run
 * covers the trial budget (--min-trials, 1000) of most targets. */
#define RESERVE_SHARE 10
#define RESERVE_MIN_S 1.0
#define RESERVE_MAX_S 30.0
#define STUCK_HEX_MAX 256 /* input bytes the stuck-case notice shows */

/* SIGINT / SIGTERM during a run: stop after the case running now, keep everything.
 * Process-wide because a signal handler sets it; only the run's thread installs the
 * handlers; the watchdog's thread reads `halt` (and `interrupted` when a case is stuck). */
static struct {
    volatile sig_atomic_t interrupted; /* the signal, or 0 */
    volatile int halt;                 /* a --no-fork run's cases stop (fgi_control_halt) */
    unsigned depth;                    /* fgi_control_catch calls not yet released */
    struct sigaction old_int, old_term; /* the host's handlers, while ours are in */
} stop;

static void on_interrupt(int sig)
{
    /* A second one, of either, ends the process: both go back to the default. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    stop.interrupted = sig;
    stop.halt = 1;
}

int fgi_run_interrupted(void)
{
    return stop.interrupted;
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
    return fgi_run_interrupted() || stop.halt || fgi_run_time_up(r);
}

int fgi_class_is_timeout(const char *class_id)
{
    return strncmp(class_id, "timeout-", 8) == 0;
}

int fgi_trial_fits(const char *class_id, unsigned deadline_ms, double secs)
{
    return !fgi_class_is_timeout(class_id) || (double)deadline_ms <= secs * 1000.0;
}

/* A class the depth run could minimise (modes.c fgi_mode_minimize_findings) in `reserve`
 * seconds. */
static int has_new_class(const run *r, double reserve)
{
    const fg_outcome *o = r->o;
    for (size_t i = 0; o && i < o->nfindings; i++) {
        const fg_finding *f = &o->findings[i];
        if (!f->known && f->size && fgi_trial_fits(f->class_id, r->plan.time_ms, reserve))
            return 1;
    }
    return 0;
}

int fgi_run_time_up(const run *r)
{
    double secs = (double)r->s->opt.seconds;
    if (!secs)
        return 0;
    double reserve = FGI_MIN(FGI_MAX(secs / RESERVE_SHARE, RESERVE_MIN_S), RESERVE_MAX_S);
    reserve = FGI_MIN(reserve, secs / 2);
    if (r->s->opt.min_trials && !r->probe && has_new_class(r, reserve))
        secs -= reserve;
    return fgi_clock_now_s() - r->prog.start >= secs;
}

double fgi_run_ends_at(const run *r)
{
    return r->s->opt.seconds ? r->prog.start + (double)r->s->opt.seconds : 0;
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

void fgi_control_init(run *r)
{
    r->prog.start = r->prog.last_status = fgi_clock_now_s();
    stop.halt = stop.interrupted != 0; /* the last run's time limit is not this one's */
}

void fgi_control_catch(void)
{
    if (stop.depth++)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    stop.interrupted = 0;
    stop.halt = 0;
    sigaction(SIGINT, &sa, &stop.old_int);
    sigaction(SIGTERM, &sa, &stop.old_term);
}

void fgi_control_release(void)
{
    FG_ASSERT(stop.depth > 0);
    if (--stop.depth || stop.interrupted)
        return;
    sigaction(SIGINT, &stop.old_int, NULL);
    sigaction(SIGTERM, &stop.old_term, NULL);
}

volatile int *fgi_control_halt(void)
{
    return &stop.halt;
}

/* On the watchdog's thread, while the run's thread is stuck in the target: only
 * signal-safe calls, and nothing the stuck thread may hold (stdio, the allocator). */
void fgi_control_stuck(void *ctx, unsigned running_ms)
{
    const run *r = ctx;
    int sig = stop.interrupted;
    /* After the time limit, the status the run would end with without the case: as a
     * supervised run's, whose executor is killed and the case is no finding. The
     * outcome is read as the run's thread left it before the case began. */
    int status = sig ? (r->s->interrupt_status >= 0 ? r->s->interrupt_status : 128 + sig)
                 : fg_outcome_passed(r->o) ? 0
                                           : r->s->findings_status;
    fgi_sink k = {.fd = fgi_errout_fd()};
    if (sig && r->s->lf_interrupt) { /* the line libFuzzer's users look for */
        fgi_sink_put(&k, "==");
        fgi_sink_u64(&k, (uint64_t)getpid());
        fgi_sink_put(&k, "== libFuzzer: run interrupted; exiting\n");
    }
    fgi_sink_put(&k, "fuzzgate: ");
    fgi_sink_put(&k, r->t->name);
    fgi_sink_put(&k, sig ? (sig == SIGINT ? ": interrupted (SIGINT)" : ": interrupted (SIGTERM)")
                         : ": the run's time limit passed");
    fgi_sink_put(&k, " while a case had been running for ");
    fgi_sink_u64(&k, running_ms);
    fgi_sink_put(&k, "+ ms: in one process the case cannot be taken back, so the "
                     "process ends here with status ");
    fgi_sink_u64(&k, (uint64_t)status);
    fgi_sink_put(&k, ". The findings stored so far are kept; this run's reports are not "
                     "written. Not a finding: replay the input to see whether it hangs.\n");
    const fgi_case_state *c = &fgi_case_now;
    if (fgi_case_running() && c->data) {
        fgi_sink_put(&k, "fuzzgate:   input (");
        fgi_sink_u64(&k, c->size);
        fgi_sink_put(&k, c->size ? " bytes): " : " bytes)");
        fgi_sink_hexbytes(&k, c->data, FGI_MIN(c->size, (size_t)STUCK_HEX_MAX));
        fgi_sink_put(&k, c->size > STUCK_HEX_MAX ? "...\n" : "\n");
    }
    fgi_sink_flush(&k);
    _exit(status);
}
