/* engine/run/control.c — a run's bottom services (control.h): its error, whether it should
 * stop, its status lines, and the interrupt that ends it early. */
#include "engine/run/control.h"

#include "engine/base/clock.h"
#include "engine/feedback/coverage.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#define STATUS_EVERY_S 5.0        /* depth runs: seconds between status lines */

/* SIGINT / SIGTERM during a run: stop after the case running now, keep everything.
 * Process-wide because a signal handler sets it; only the run's thread reads it or
 * installs the handlers. */
static struct {
    volatile sig_atomic_t interrupted; /* the signal, or 0 */
    volatile int halt;                 /* a --no-fork run's cases stop (fgi_control_halt) */
    struct sigaction old_int, old_term; /* the host's handlers, while ours are in */
} stop;

static void on_interrupt(int sig)
{
    stop.interrupted = sig;
    stop.halt = 1;
    signal(sig, SIG_DFL); /* a second one ends the process */
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
    return fgi_run_interrupted() || stop.halt ||
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

void fgi_control_init(run *r)
{
    r->prog.start = r->prog.last_status = fgi_clock_now_s();
    stop.halt = stop.interrupted != 0; /* an interrupt holds for every run after it */
}

void fgi_control_catch(void)
{
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
    if (stop.interrupted)
        return;
    sigaction(SIGINT, &stop.old_int, NULL);
    sigaction(SIGTERM, &stop.old_term, NULL);
}

volatile int *fgi_control_halt(void)
{
    return &stop.halt;
}
