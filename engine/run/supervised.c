/* engine/run/supervised.c — a run's supervised policy: executors started, their records
 * merged, an executor's death made a finding and the run resumed after it. */
#include "engine/run/supervised.h"

#include "engine/base/hex.h"
#include "engine/run/control.h"
#include "engine/run/executor.h"
#include "engine/run/plan.h"
#include "engine/run/record.h"
#include "engine/run/snapshot.h"
#include "oracle/crash.h"
#include "oracle/frames.h"
#include "oracle/symbolize.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* An executor died: the finding comes from the input still in its slot. Then the run goes
 * on from the next position (supervised). */
static void restart_after(run *r, unsigned j, uint64_t pos);

/* Executor j has nothing more to do in the current epoch (jobs > 1). Said once or twice
 * alike: one killed while it waits after its epoch end (the RSS limit) is also restarted
 * with no work left, and counting it twice would close the epoch while another still
 * runs, merging that one's records an epoch late. */
static void epoch_finished(run *r, unsigned j)
{
    r->sv.epoch_done |= (uint64_t)1 << j;
}

/* The hang policy (oracle/watchdog.h, "re-hits"): the first timeout confirms the target's
 * timeout class at the full deadline and sets the re-hit deadline for the executors
 * started from now on; a case that passes the re-hit deadline is abandoned, not a
 * finding. Returns 1 for such a re-hit. */
static int rehit(run *r, const fgi_dying *dying, const fgi_slot *slot)
{
    r->sv.ended_ms = FGI_MAX(r->sv.ended_ms, slot->ended_ms);
    if (!dying || strcmp(dying->kind, "timeout") != 0)
        return 0;
    int was = r->sv.rehit_ms != 0;
    r->sv.rehit_ms = fgi_watchdog_rehit_ms(r->plan.time_ms, r->sv.ended_ms);
    if (r->sv.rehit_ms >= r->plan.time_ms)
        r->sv.rehit_ms = 0; /* no shorter deadline to offer: every timeout is a full one */
    r->sv.rehits += was;
    return was;
}

/* Says which case the run's end cut short (its input, so it can be replayed). */
static void cut_short(run *r, const fgi_slot *slot)
{
    enum { SHOWN = 64 }; /* input bytes shown; arbitrary */
    char hex[2 * SHOWN + 1];
    size_t n = FGI_MIN(slot->size, (uint64_t)SHOWN);
    fgi_hex_encode(slot->data, n, hex);
    fprintf(r->s->log, "fuzzgate: %s: the run's end cut a case short (killed: not a finding); "
            "its input (%llu bytes): %s%s\n", r->t->name, (unsigned long long)slot->size,
            hex, slot->size > n ? "..." : "");
}

static void executor_died(void *ctx, unsigned j, int status, const fgi_dying *dying,
                          const char *killed_for, const fgi_slot *slot)
{
    run *r = ctx;
    const char *kind = "crash";
    char what[1024], key[512];
    const char *class_key = what; /* but for a crash's frames, named for people in `what` */
    if (killed_for && strcmp(killed_for, "stop") == 0) {
        /* Cut short by the run's end (an interrupt, its time): no finding. With one
         * executor the records it wrote before the case it was on are this (last) epoch's,
         * merged as its own epoch end would have been; with several, at the stop. */
        if (r->plan.jobs == 1 && slot->pos > r->prog.reached) {
            r->prog.reached = slot->pos;
            fgi_snapshot_merge(r);
        }
        if (!r->probe && slot->active)
            cut_short(r, slot);
        return restart_after(r, j, slot->pos);
    }
    if (rehit(r, dying, slot))
        return restart_after(r, j, slot->pos);
    int oom = killed_for && strcmp(killed_for, "oom") == 0;
    if (oom && !slot->active && atomic_load(&slot->cases) == 0) {
        /* Over the limit before it ran a single case: the engine's memory, no input's
         * (this process's, which a fork shares, or the executor's own while it took the
         * merged records). The error ends the run; restart_after counts it as done. */
        fprintf(r->s->log, "fuzzgate: %s: an executor passed the RSS limit of %llu MiB "
                "before it ran a case: the engine's own memory, this process's or the "
                "executor's (raise --rss-limit-mb, or 0 for none)\n", r->t->name,
                (unsigned long long)r->s->opt.rss_limit_mb);
        fgi_run_error(r, FG_EOPTION);
        return restart_after(r, j, slot->pos);
    }
    if (oom) {
        /* In a case, that case; between cases (at an epoch's end), the last one it ran,
         * whose bytes the slot still holds: a guess, as libFuzzer's is (the memory may
         * have grown over several cases). */
        kind = "oom";
        snprintf(what, sizeof what,
                 "out-of-memory (limit: %lluMb): the executor's resident memory passed the "
                 "limit of %llu MiB (rss_limit_mb), and the supervisor killed it",
                 (unsigned long long)r->s->opt.rss_limit_mb,
                 (unsigned long long)r->s->opt.rss_limit_mb);
    } else if (killed_for) {
        kind = "timeout";
        snprintf(what, sizeof what,
                 "the case made no progress past the deadline of %u ms (the supervisor "
                 "killed its executor)", r->plan.time_ms);
    } else if (dying) {
        kind = fgi_wire_kind(dying->kind, strnlen(dying->kind, sizeof dying->kind));
        char where[256] = "";
        const char *named = NULL;
        if (dying->nframes)
            fgi_frames_describe(dying->frames, dying->nframes, (int)dying->from_sanitizer,
                                where, sizeof where);
        /* The class is the frames' module offsets; people read them named (symbolize.h),
         * once a frame set: the symbolizer is a child process of this one. */
        if (where[0])
            named = fgi_symcache_name(&r->sv.syms, where, dying->frames, dying->nframes,
                                      (int)dying->from_sanitizer);
        snprintf(key, sizeof key, "%s%s%s", dying->what, where[0] ? " at " : "", where);
        snprintf(what, sizeof what, "%s%s%s", dying->what, where[0] ? " at " : "",
                 named ? named : where);
        class_key = key;
    } else if (!slot->active) {
        /* No case was running: the engine's own failure (or a target's stray thread), and
         * never to be blamed on the last input. */
        fprintf(r->s->log, "fuzzgate: %s: an executor died outside any case (%s %d)\n",
                r->t->name, WIFSIGNALED(status) ? "signal" : "status",
                WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        fgi_run_error(r, FG_EIO);
        return restart_after(r, j, slot->pos); /* counted as done: the others may wait */
    } else if (WIFSIGNALED(status)) {
        snprintf(what, sizeof what, "the target died of %s",
                 fgi_crash_signal_name(WTERMSIG(status)));
    } else {
        kind = "exit";
        snprintf(what, sizeof what, "the target ended the process with _exit(%d) during a case",
                 WEXITSTATUS(status));
    }
    fgi_wire_find w = {.seq = slot->seq, .case_index = slot->case_index, .data = slot->data,
                       .size = slot->size, .applied = slot->applied,
                       .napplied = slot->napplied, .kind = kind, .detail = what};
    fgi_record_find(r, &w, class_key);
    restart_after(r, j, slot->pos);
}


/* ---- the supervisor side ------------------------------------------------------------ */

static void on_cand(void *ctx, unsigned j, fgi_cand *c)
{
    run *r = ctx;
    (void)j;
    if (fgi_epoch_add_cand(&r->snap.log, c) != 0)
        fgi_run_error(r, FG_ENOMEM);
}

static void on_hits(void *ctx, unsigned j, fgi_hits *h)
{
    run *r = ctx;
    (void)j;
    if (fgi_epoch_add_hits(&r->snap.log, h) != 0)
        fgi_run_error(r, FG_ENOMEM);
}

static void on_find(void *ctx, unsigned j, const fgi_wire_find *f)
{
    (void)j;
    fgi_record_find(ctx, f, NULL);
}

/* Executor j sent its epoch's end: with one executor its records are the epoch's, merged
 * now; with several, the epoch is merged once every executor is done with it. */
static void on_epoch(void *ctx, unsigned j, uint64_t end)
{
    run *r = ctx;
    if (end > r->prog.reached)
        r->prog.reached = end;
    if (r->plan.jobs == 1)
        fgi_snapshot_merge(r);
    else
        epoch_finished(r, j);
}

static void on_bye(void *ctx, unsigned j, const fgi_wire_bye *b)
{
    run *r = ctx;
    (void)j;
    r->prog.slow += b->slow;
    r->prog.slowest_ms = FGI_MAX(r->prog.slowest_ms, b->slowest_ms);
    if (b->err)
        fgi_run_error(r, (fg_error)b->err);
}

/* A damaged message, or records the supervisor lost (supervisor.c). */
static void on_error(void *ctx, unsigned j, fg_error e)
{
    (void)j;
    fgi_run_error(ctx, e);
}

static const fgi_wire_handlers from_executors = {.cand = on_cand, .hits = on_hits,
                                                 .find = on_find, .epoch = on_epoch,
                                                 .bye = on_bye, .error = on_error};

static void start_executor(run *r, unsigned j, uint64_t from)
{
    fg_error e = fgi_sup_start(r->sv.sup, j, from);
    if (e != FG_OK) {
        fprintf(r->s->log, "fuzzgate: %s: cannot start an executor (fork failed)\n",
                r->t->name);
        fgi_run_error(r, e);
    }
}

static void restart_after(run *r, unsigned j, uint64_t pos)
{
    int going = r->err == FG_OK && !fgi_run_interrupted() && !r->sv.sup_stopping;
    if (r->plan.jobs > 1) {
        /* Either it finishes its share of the epoch, or its share is done: the others
         * wait for the epoch's end, which must come. The epoch is the supervisor's, not
         * pos's: one killed after it sent its epoch end, once the supervisor has moved
         * on (while it took the merged records), still has its share of the next. */
        uint64_t es = r->sv.epoch_start, ee = r->sv.epoch_end, next = FGI_MAX(pos + 1, es);
        if (going && fgi_plan_has_work(r, j, next, es, ee))
            start_executor(r, j, next);
        else
            epoch_finished(r, j);
        return;
    }
    if (!going)
        return;
    uint64_t next = pos + 1, ee = fgi_plan_epoch_end(r, pos);
    if (next == ee && next > r->prog.reached) {
        /* The dead executor was on its epoch's last case: the epoch is complete. (Killed
         * after its epoch end, while it merged, the epoch was merged already.) */
        r->prog.reached = next;
        fgi_snapshot_merge(r);
    }
    if (next < r->plan.total)
        start_executor(r, j, next);
}

/* Runs the supervisor until `done` says so or no executor is left. */
static void supervise_while(run *r, int (*more)(const run *r))
{
    while (fgi_sup_running(r->sv.sup) && more(r)) {
        fgi_sup_step(r->sv.sup);
        if ((fgi_run_interrupted() || fgi_run_time_up(r) || r->err != FG_OK) &&
            !r->sv.sup_stopping) {
            r->sv.sup_stopping = 1;
            fgi_sup_stop(r->sv.sup);
        }
        if (fgi_run_status_due(r))
            fgi_run_status(r, r->plan.jobs > 1 ? r->prog.reached
                                               : fgi_sup_slot(r->sv.sup, 0)->pos);
    }
}

static int always(const run *r)
{
    (void)r;
    return 1;
}

static int epoch_open(const run *r)
{
    uint64_t all = r->plan.jobs >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << r->plan.jobs) - 1;
    return (r->sv.epoch_done & all) != all;
}

/* Sends the epoch's records, sorted, to every running executor, then its end. */
static void broadcast_epoch(run *r, uint64_t end)
{
    fgi_epoch_sort(&r->snap.log);
    for (unsigned j = 0; j < r->plan.jobs; j++) {
        if (!fgi_sup_is_running(r->sv.sup, j))
            continue;
        /* FG_EIO: the executor died meanwhile; its death is handled as any other. */
        if (fgi_sup_send_epoch(r->sv.sup, j, &r->snap.log, end) == FG_ENOMEM)
            fgi_run_error(r, FG_ENOMEM);
    }
}

/* An executor starts with what its parent holds resident (the fork shares it): past the
 * RSS limit already, every executor would be killed and an innocent input blamed. */
static int over_limit_before_fork(run *r)
{
    uint64_t limit = fgi_mib_bytes(r->s->opt.rss_limit_mb), own = fgi_sup_rss(getpid());
    if (!limit || own <= limit)
        return 0;
    fprintf(r->s->log, "fuzzgate: %s: this process holds %llu MiB before it forks an "
            "executor, past the RSS limit of %llu MiB (raise --rss-limit-mb, or 0 for none)\n",
            r->t->name, (unsigned long long)(own >> 20),
            (unsigned long long)r->s->opt.rss_limit_mb);
    fgi_run_error(r, FG_EOPTION);
    return 1;
}

void fgi_supervised_run(run *r)
{
    if (over_limit_before_fork(r))
        return;
    const fgi_sup_ops ops = {r, fgi_executor_main, &from_executors, executor_died};
    if (!(r->sv.sup = fgi_sup_new(r->plan.jobs, r->plan.slot_cap, r->plan.time_ms,
                                  r->s->opt.rss_limit_mb, &ops)))
        return fgi_run_error(r, FG_ENOMEM);
    /* A write to an executor that has just died must not kill the supervisor. */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    if (r->plan.jobs == 1) {
        fgi_sup_batch(r->sv.sup, 1000); /* nobody waits on the supervisor: read in batches */
        start_executor(r, 0, 0);
        supervise_while(r, always);
    } else {
        /* Long-lived executors, one chunk in `jobs` each: at an epoch's end each waits for
         * the merged records, and one that died is started afresh at the next epoch. */
        for (unsigned j = 0; j < r->plan.jobs && r->err == FG_OK; j++)
            start_executor(r, j, 0);
        uint64_t seq = 0;
        while (seq < r->plan.total && r->err == FG_OK) {
            uint64_t ee = fgi_plan_epoch_end(r, seq);
            r->sv.epoch_done = 0;
            r->sv.epoch_start = seq;
            r->sv.epoch_end = ee;
            supervise_while(r, epoch_open);
            if (r->sv.sup_stopping || r->err != FG_OK || ee >= r->plan.total) {
                fgi_snapshot_merge(r);
                break;
            }
            broadcast_epoch(r, ee);
            fgi_snapshot_merge(r);
            for (unsigned j = 0; j < r->plan.jobs && r->err == FG_OK; j++)
                if (!fgi_sup_is_running(r->sv.sup, j))
                    start_executor(r, j, ee);
            seq = ee;
        }
        for (unsigned j = 0; j < r->plan.jobs; j++)
            fgi_sup_close_cmd(r->sv.sup, j); /* the run is over: they say goodbye */
        supervise_while(r, always);
    }
    sigaction(SIGPIPE, &old, NULL);
    fgi_sup_free(r->sv.sup);
    r->sv.sup = NULL;
    fgi_symcache_free(&r->sv.syms);
}

