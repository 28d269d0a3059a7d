/* engine/run/modes.c — runs of given inputs rather than generated ones: a replay or trial,
 * minimising a finding, merging corpus directories, checking known classes. */
#include "engine/run/modes.h"

#include "engine/base/clock.h"
#include "engine/base/dir.h"
#include "engine/base/resident.h"
#include "engine/base/sha1.h"
#include "engine/findings/corpus_dir.h"
#include "engine/findings/findings.h"
#include "engine/findings/merge.h"
#include "engine/findings/minimize.h"
#include "engine/findings/read_probe.h"
#include "engine/run/control.h"
#include "engine/run/plan.h"
#include "engine/run/run.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

fg_error fgi_mode_replay(fg_session *s, const fg_target *t, const char *origin,
                             const uint8_t *data, size_t size, int probe, fg_outcome **out)
{
    if (t->skip || !t->run)
        return FG_EINVAL;
    /* The input alone, once, even in a timed session: its time is its deadline's. */
    uint64_t seconds = s->opt.seconds;
    s->opt.seconds = 0;
    run r;
    fg_error e = fgi_run_open(&r, s, t);
    uint8_t *copy = fgi_memdup(data, size ? size : 1);
    if (e == FG_OK)
        e = copy ? fgi_plan_add_item(&r, fgi_strdup(origin), copy, size, 0) : FG_ENOMEM;
    else
        fgi_free(copy);
    if (e == FG_OK) {
        r.probe = probe;
        fgi_plan_size(&r, 0);
        int fork = s->opt.fork;
        if (probe)
            s->opt.fork = 1; /* a trial may crash: it must not take the caller with it */
        fgi_run_all(&r);
        s->opt.fork = fork;
        r.o->last_sig = r.snap.corpus.count ? r.snap.corpus.entries[0].sig : 0;
    }
    e = fgi_run_close(&r, e, out, 0);
    s->opt.seconds = seconds;
    return e;
}

/* ---- minimisation and merge ------------------------------------------------------- */

/* A timeout class of a depth run is minimised with at most this many runs to the deadline
 * (each costs the whole of it), the run that stores the result included: a few halvings,
 * not a search. Arbitrary. */
#define TIMEOUT_SLOW_TRIALS 4
#define TRIAL_MIN_S 0.01 /* less time left than this: no trial starts (arbitrary) */

/* One minimisation's predicate state. With a time bound (ends_at) a trial runs under the
 * time left when that is shorter than its deadline, and a trial that reaches such a cut
 * deadline says nothing (out_of_time ends the search); a timeout class's trials that run
 * to the deadline are counted against slow_left. */
typedef struct min_ctx {
    fg_session *s;
    const fg_target *t;
    const char *want;         /* the class the input must stay in */
    fg_error err;
    double ends_at;           /* fgi_clock_now_s the search must be over by; 0: none */
    unsigned full_ms;         /* the target's deadline (fgi_plan_time_ms) */
    unsigned long slow_left;  /* trials that may still time out; ULONG_MAX: no bound */
    int out_of_time;          /* the search stopped for want of time */
    int interrupted;          /* ...or for an interrupt */
    int probe_reads;          /* ask the input's read record first (the target may read
                               * with fg_reader: asked for, or the run kept such an input) */
    char detail[1024];        /* the last accepted trial's finding detail */
} min_ctx;

static min_ctx min_ctx_for(fg_session *s, const fg_target *t, const char *want, double ends_at)
{
    min_ctx m = {.s = s, .t = t, .want = want, .ends_at = ends_at,
                 .full_ms = fgi_plan_time_ms(&s->opt, t), .slow_left = ULONG_MAX,
                 .probe_reads = 1};
    if (ends_at && fgi_class_is_timeout(want))
        m.slow_left = TIMEOUT_SLOW_TRIALS - 1; /* the last is store_minimised's */
    return m;
}

/* The deadline for the next trial into *cap_ms (0: the full one); 0 when there is no
 * time for one (m->out_of_time set). */
static int trial_time(min_ctx *m, unsigned *cap_ms)
{
    *cap_ms = 0;
    if (!m->ends_at)
        return 1;
    double left = m->ends_at - fgi_clock_now_s();
    if (left < TRIAL_MIN_S) {
        m->out_of_time = 1;
        return 0;
    }
    if (left * 1000.0 < (double)m->full_ms)
        *cap_ms = FGI_MAX(1u, (unsigned)(left * 1000.0));
    return 1;
}

/* Runs data as a run of its own (a trial when probe) under a deadline of cap_ms when that
 * is not 0; the outcome into *out. */
static fg_error replay_within(min_ctx *m, const char *origin, const uint8_t *data,
                              size_t size, int probe, unsigned cap_ms, fg_outcome **out)
{
    uint64_t full = m->s->opt.timeout_ms;
    if (cap_ms)
        m->s->opt.timeout_ms = cap_ms;
    fg_error e = fgi_mode_replay(m->s, m->t, origin, data, size, probe, out);
    m->s->opt.timeout_ms = full;
    return e;
}

/* The class id of data's first finding into id ("" when it passes); a trial in a fresh
 * executor, so a crash is a class like any other. With detail, that finding's detail. */
static fg_error probe_class(min_ctx *m, const uint8_t *data, size_t size, unsigned cap_ms,
                            char id[FGI_CLASS_ID_MAX], char *detail, size_t cap)
{
    fg_outcome *o = NULL;
    fg_error e = replay_within(m, "trial", data, size, 1, cap_ms, &o);
    id[0] = '\0';
    if (e == FG_OK && o->nfindings) {
        snprintf(id, FGI_CLASS_ID_MAX, "%s", o->findings[0].class_id);
        if (detail)
            snprintf(detail, cap, "%s", o->findings[0].detail);
    }
    fg_outcome_free(o);
    return e;
}

static int min_reproduces(void *ctx, const uint8_t *data, size_t size)
{
    min_ctx *m = ctx;
    unsigned cap_ms;
    if (!m->slow_left || !trial_time(m, &cap_ms))
        return -1;
    char id[FGI_CLASS_ID_MAX], detail[sizeof m->detail];
    fg_error e = probe_class(m, data, size, cap_ms, id, detail, sizeof detail);
    if (e != FG_OK) {
        m->err = e;
        return -1;
    }
    if (fgi_run_interrupted()) { /* the trial was cut short: it says nothing */
        m->interrupted = 1;
        return -1;
    }
    if (cap_ms && !fgi_trial_fits(id, m->full_ms, cap_ms / 1000.0)) { /* the cut's own */
        m->out_of_time = 1;
        return -1;
    }
    if (fgi_class_is_timeout(id) && m->slow_left != ULONG_MAX)
        m->slow_left--;
    int yes = strcmp(id, m->want) == 0;
    if (yes)
        memcpy(m->detail, detail, sizeof detail);
    return yes;
}

/* Minimises data within m->want; res->data is the result (the input itself at worst). An
 * input the target reads with fg_reader is shrunk by its operations and values first: its
 * read record comes from one more run of it, in a child of its own (read_probe.h), within
 * the time a trial has; a run's findings are probed only when it kept an input with a
 * record (o->typed), so a target that never reads so pays nothing. Not for a timeout:
 * that run would last its whole deadline, which the trials' budget of slow runs is for.
 * Without a record (no reads, a timeout, or the probe failed) the search is over bytes
 * alone. */
static fg_error minimize_in_class(min_ctx *m, const uint8_t *data, size_t size,
                                  fgi_min_result *res)
{
    FILE *log = m->s->log;
    fgi_read *reads = NULL;
    size_t nreads = 0;
    unsigned cap_ms;
    if (!m->probe_reads || fgi_class_is_timeout(m->want) || !trial_time(m, &cap_ms) ||
        fgi_read_probe(m->t, data, size, cap_ms ? FGI_MIN(cap_ms, m->full_ms) : m->full_ms,
                       fgi_mib_bytes(m->s->opt.rss_limit_mb), &reads, &nreads) != FG_OK)
        nreads = 0;
    fg_error e = fgi_minimize_reads(data, size, reads, nreads, m->s->opt.min_trials,
                                    min_reproduces, m, res);
    fgi_free(reads);
    m->s->log = log;
    return e != FG_OK ? e : m->err;
}

int fgi_mode_minimize(fg_session *s, const fg_target *t, const char *path, FILE *out)
{
    uint8_t *data;
    size_t size;
    fg_error e = fgi_file_read(path, (size_t)64 << 20, &data, &size);
    if (e != FG_OK) {
        fprintf(out, "%s: cannot read: %s\n", path, fgi_strerror_io(e));
        return 2;
    }
    fgi_control_catch(); /* the trials are one run's: an interrupt ends them all */
    char id[FGI_CLASS_ID_MAX];
    min_ctx probe = min_ctx_for(s, t, "", 0);
    if ((e = probe_class(&probe, data, size, 0, id, NULL, 0)) != FG_OK || !id[0]) {
        if (e != FG_OK)
            fprintf(out, "%s: cannot run: %s\n", path, fg_strerror(e));
        else
            fprintf(out, "%s: passes every oracle: nothing to minimise\n", path);
        fgi_control_release();
        fgi_free(data);
        return e != FG_OK ? 2 : 1;
    }
    fgi_min_result res = {0};
    min_ctx m = min_ctx_for(s, t, id, 0); /* asked for: the thorough search, no clock */
    e = minimize_in_class(&m, data, size, &res);
    int status = 2;
    if (m.interrupted) {
        fprintf(out, "%s: interrupted after %lu trials: nothing stored\n", path, res.trials);
    } else if (e == FG_OK) {
        /* A run of the result stores it under its class, as any finding is stored. */
        char origin[4200];
        snprintf(origin, sizeof origin, "%s, minimised", path);
        fg_outcome *o = NULL;
        e = fgi_mode_replay(s, t, origin, res.data, res.size, 0, &o);
        const fg_finding *f = e == FG_OK ? fg_outcome_finding(o, 0) : NULL;
        if (f && strcmp(f->class_id, id) == 0) {
            fprintf(out, "%s: %s minimised from %zu to %zu bytes in %lu trials%s: %s\n", path,
                    id, size, res.size, res.trials,
                    res.stop == FGI_MIN_BUDGET ? " (the trial budget ran out)" : "",
                    f->path ? f->path : "(not stored: its hex is on stderr)");
            status = f->path ? 0 : 2;
        } else {
            fprintf(out, "%s: the minimised input no longer lands in %s\n", path, id);
        }
        fg_outcome_free(o);
    } else {
        fprintf(out, "%s: cannot minimise: %s\n", path, fg_strerror(e));
    }
    fgi_control_release();
    fgi_free(res.data);
    fgi_free(data);
    return status;
}

/* Gives finding f the origin "<its origin>, <what>", bytes unchanged: what minimisation
 * did not do is said where the finding is shown. */
static void note_origin(fg_finding *f, const char *what)
{
    char origin[512];
    snprintf(origin, sizeof origin, "%s, %s", f->origin, what);
    fgi_finding_rec rec = {.detail = f->detail, .data = f->data, .size = f->size,
                           .origin = origin, .mutations = f->mutations};
    (void)fgi_outcome_set_input(f, &rec); /* out of memory: the origin stays as it was */
}

/* Stores res, the smallest input the search confirmed in f's class, by a run of its own
 * (which stores it as any finding is stored), and makes it f's input. 1 when done; 0 when
 * it no longer lands in the class or there was no time to run it (m->out_of_time). */
static int store_minimised(min_ctx *m, const fg_outcome *all, fg_finding *f,
                           const fgi_min_result *res, const char *how)
{
    unsigned cap_ms;
    if (!trial_time(m, &cap_ms) ||
        (cap_ms && !fgi_trial_fits(f->class_id, m->full_ms, cap_ms / 1000.0))) {
        m->out_of_time = 1;
        return 0;
    }
    char origin[512];
    snprintf(origin, sizeof origin, "%s, %sminimised from %zu bytes%s", f->origin,
             how[0] ? "partly " : "", f->size, how);
    fg_outcome *o = NULL;
    const fg_finding *g = NULL;
    int done = 0;
    if (replay_within(m, origin, res->data, res->size, 0, cap_ms, &o) == FG_OK &&
        (g = fg_outcome_finding(o, 0)) != NULL && strcmp(g->class_id, f->class_id) == 0) {
        fgi_finding_rec rec = {.detail = g->detail, .data = res->data, .size = res->size,
                               .origin = origin, .mutations = ""};
        done = fgi_outcome_set_input(f, &rec) == 0; /* else the unminimised input stays */
        /* A libFuzzer artifact is named by its bytes: the replay names the new file. */
        if (done && g->path && (!f->path || strcmp(g->path, f->path) != 0))
            (void)fgi_outcome_set_path(f, g->path, m->s->program);
    } else if (g && cap_ms && fgi_class_is_timeout(g->class_id)) {
        /* The run met the deadline the time left cut short (a loaded machine): no finding,
         * so not its stored file (unless the run's own findings have that file: a class
         * the cut deadline met again), and what stopped here is the time, as for a trial. */
        if (g->path && !fgi_findings_path_in_use(all, NULL, g->path))
            (void)unlink(g->path);
        m->out_of_time = 1;
    }
    fg_outcome_free(o);
    return done;
}

void fgi_mode_minimize_findings(fg_session *s, const fg_target *t, fg_outcome *o,
                                double ends_at)
{
    for (size_t i = 0; i < o->nfindings && s->opt.min_trials && !fgi_run_interrupted(); i++) {
        fg_finding *f = &o->findings[i];
        if (f->known || f->size == 0)
            continue;
        min_ctx m = min_ctx_for(s, t, f->class_id, ends_at);
        m.probe_reads = o->typed; /* no extra run for a target that never read so */
        fgi_min_result res = {0};
        unsigned cap_ms;
        fg_error e = trial_time(&m, &cap_ms) ? minimize_in_class(&m, f->data, f->size, &res)
                                             : FG_OK;
        size_t was = f->size;
        if (m.interrupted || e != FG_OK) {
            fgi_free(res.data);
            continue; /* the loop ends on an interrupt; an engine error keeps the input */
        }
        int stored = res.data && res.size < was &&
                     store_minimised(&m, o, f, &res, m.out_of_time ? " (time)" : "");
        if (stored)
            fprintf(s->log, "fuzzgate: %s: %s minimised from %zu to %zu bytes in %lu trials%s\n",
                    t->name, f->class_id, was, res.size, res.trials,
                    m.out_of_time ? ", not to the end: the run's time ran out"
                    : !m.slow_left ? " (a timeout: a few runs to the deadline, no more)"
                                   : "");
        if (!stored && m.out_of_time) {
            note_origin(f, "not minimised (time)");
            fprintf(s->log, "fuzzgate: %s: %s not minimised (time): the run's time ran out "
                    "after %lu trials; its input is stored as found (%zu bytes)\n",
                    t->name, f->class_id, res.trials, was);
        }
        fgi_free(res.data);
    }
}

/* The merge view of items [from, to) that ran and passed; pinned below `pinned`. */
static size_t merge_view(const run *r, size_t from, size_t to, size_t pinned,
                         fgi_merge_input *in, size_t *which)
{
    size_t n = 0;
    for (size_t i = from; i < to; i++) {
        if (!r->plan.evals[i].ran)
            continue;
        const fgi_item *it = &r->plan.items[i];
        const fgi_eval *v = &r->plan.evals[i];
        const char *slash = strrchr(it->origin, '/');
        in[n] = (fgi_merge_input){slash ? slash + 1 : it->origin, it->size, v->sig, v->keys,
                                  v->nkeys, i < pinned};
        which[n++] = i;
    }
    return n;
}

/* After a gate run: which committed files a merge of the committed corpus would drop. */
void fgi_mode_would_drop(run *r)
{
    size_t n = r->plan.ncommitted;
    if (n < 2 || r->err != FG_OK)
        return;
    fgi_merge_input *in = fgi_calloc(n, sizeof *in);
    size_t *which = fgi_calloc(n, sizeof *which), *kept = fgi_calloc(n, sizeof *kept), nkept = 0;
    size_t m = in && which && kept ? merge_view(r, 0, n, 0, in, which) : 0;
    if (m && fgi_merge(in, m, FGI_MERGE_COVER, kept, &nkept) == FG_OK && nkept < m) {
        fprintf(r->s->log, "fuzzgate: %s: a merge of the committed corpus would drop %zu of %zu "
                "files:", r->t->name, m - nkept, m);
        for (size_t i = 0, k = 0; i < m; i++) {
            if (k < nkept && kept[k] == i) {
                k++;
                continue;
            }
            fprintf(r->s->log, " %s", in[i].name);
        }
        fprintf(r->s->log, "\n");
    }
    fgi_free(in);
    fgi_free(which);
    fgi_free(kept);
}

int fgi_mode_merge(fg_session *s, const fg_target *t, const char *out_dir, int ndirs,
                      char **dirs, FILE *out)
{
    run r;
    uint64_t seconds = s->opt.seconds;
    s->opt.seconds = 0; /* a merge runs every input once, however long that takes */
    fg_error e = fgi_run_open(&r, s, t);
    if (e == FG_OK)
        e = fgi_plan_add_dir(&r, out_dir);
    size_t pinned = r.plan.nitems;
    for (int i = 0; i < ndirs && e == FG_OK; i++)
        e = fgi_plan_add_dir(&r, dirs[i]);
    size_t nkept = 0, fresh = 0, failing = 0, total = r.plan.nitems;
    int cut = 0;
    if (e == FG_OK) {
        r.probe = 1;
        fgi_plan_size(&r, 0);
        fgi_run_all(&r);
        /* Interrupted: the inputs not run would count as failing, so nothing is written. */
        cut = fgi_run_interrupted() != 0;
    }
    if (e == FG_OK && !cut) {
        fgi_merge_input *in = fgi_calloc(total ? total : 1, sizeof *in);
        size_t *which = fgi_calloc(total ? total : 1, sizeof *which);
        size_t *kept = fgi_calloc(total ? total : 1, sizeof *kept);
        size_t m = in && which && kept ? merge_view(&r, 0, total, pinned, in, which) : 0;
        failing = total - m;
        if (!in || !which || !kept)
            e = FG_ENOMEM;
        else if (m && (e = fgi_merge(in, m, s->merge_how, kept, &nkept)) == FG_OK) {
            for (size_t k = 0; k < nkept && e == FG_OK; k++) {
                const fgi_item *it = &r.plan.items[which[kept[k]]];
                if (which[kept[k]] < pinned)
                    continue;
                char name[FGI_SHA1_HEX];
                int written = 0;
                static const uint8_t nothing[1];
                e = fgi_corpus_dir_write(out_dir, it->data ? it->data : nothing, it->size,
                                         name, &written);
                fresh += written;
            }
        }
        fgi_free(in);
        fgi_free(which);
        fgi_free(kept);
    }
    fg_outcome *o = NULL;
    e = fgi_run_close(&r, e, &o, 0);
    s->opt.seconds = seconds;
    if (e != FG_OK) {
        fprintf(out, "merge: %s\n", fg_strerror(e));
        return 2;
    }
    if (cut) {
        fprintf(out, "merge: interrupted after %zu of %zu inputs: nothing written to %s\n",
                o->replayed, total, out_dir);
        fg_outcome_free(o);
        return 2;
    }
    fprintf(out, "merge: %zu inputs (%zu already in %s, %zu failing an oracle: left out); "
            "kept %zu, %zu of them new in %s\n",
            total, pinned, out_dir, failing, nkept, fresh, out_dir);
    fg_outcome_free(o);
    return 0;
}

/* The known list's reproducers: corpus/<target>/known/<class-id>.bin, when there is one,
 * must still land in its class; one that no longer does means the fix landed. */
int fgi_mode_check_known(fg_session *s, const fg_target *t, FILE *out)
{
    if (t->skip || fgi_run_interrupted())
        return 0;
    fgi_known known = {0};
    fgi_str path = {0};
    fgi_str_addf(&path, "%s/%s/known.txt", s->opt.corpus, t->name);
    char err[512];
    int fixed = 0;
    if (path.failed || fgi_known_load(path.buf, &known, err, sizeof err) != FG_OK) {
        fgi_str_free(&path);
        return 0; /* the run itself has reported a bad known.txt */
    }
    for (size_t i = 0; i < known.count; i++) {
        path.len = 0;
        fgi_str_addf(&path, "%s/%s/known/%s.bin", s->opt.corpus, t->name, known.classes[i]);
        uint8_t *data;
        size_t size;
        if (path.failed || fgi_file_read(path.buf, (size_t)64 << 20, &data, &size) != FG_OK)
            continue; /* no reproducer committed for this class */
        char id[FGI_CLASS_ID_MAX];
        min_ctx m = min_ctx_for(s, t, "", 0);
        if (probe_class(&m, data, size, 0, id, NULL, 0) == FG_OK && !fgi_run_interrupted() &&
            strcmp(id, known.classes[i]) != 0) {
            fprintf(out,
                    "%s: NOTE known class %s no longer reproduces from %s (it now gives %s): "
                    "the fix has landed — promote the reproducer into %s/%s/ and remove the "
                    "class from known.txt\n",
                    t->name, known.classes[i], path.buf, id[0] ? id : "a pass", s->opt.corpus,
                    t->name);
            fixed++;
        }
        fgi_free(data);
    }
    fgi_str_free(&path);
    fgi_known_free(&known);
    return fixed;
}
