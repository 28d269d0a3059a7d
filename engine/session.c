/* engine/session.c — one target's run: replay the corpus, then generate cases.
 *
 * The order of a run, which the determinism contract depends on:
 *   1. every file of <corpus>/<target>/, in sorted name order;
 *   2. the target's .seed inputs, in the order it added them;
 *   3. the empty input;
 *   4. generated cases k = 0, 1, 2, ...: each draws from the stream of (seed, target, k),
 *      picks a corpus entry (and a crossover partner), mutates a copy, runs it, and keeps
 *      it when its signature is new.
 * Replayed inputs are kept when their signature is new or 0 (a committed input that says
 * nothing is still a good base to mutate); the empty input is always kept.
 */
#include "session.h"

#include "cmp.h"
#include "corpus.h"
#include "coverage.h"
#include "dir.h"
#include "known.h"
#include "exec.h"
#include "fdwatch.h"
#include "registry.h"
#include "watchdog.h"

#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define STATUS_EVERY_S 5.0       /* depth runs: seconds between status lines */
#define SATURATION_MIN_CASES 1000 /* the watch waits for this many cases... */
#define SATURATION_PERCENT 5      /* ...then warns when more than this % were kept */

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
    if (!(s->program = fgi_strdup("fuzzgate"))) {
        e = FG_ENOMEM;
        goto fail;
    }
    s->log = stderr;
    if (s->opt.dict && s->opt.dict[0]) {
        char msg[512];
        if ((e = fgi_dict_load(s->opt.dict, &s->dict, msg, sizeof msg)) != FG_OK) {
            fprintf(stderr, "fuzzgate: %s\n", msg);
            goto fail;
        }
    }
    if ((e = fgi_registry_check(&dup)) != FG_OK) {
        if (dup)
            fprintf(stderr, "fuzzgate: two targets are named '%s'\n", dup);
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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Everything one target's run owns. */
typedef struct run {
    fg_session *s;
    const fg_target *t;
    fg_outcome *o;
    fgi_novelty nov;
    fgi_novelty features;   /* coverage features seen (instrumented builds) */
    size_t new_features;    /* features the current case added */
    uint64_t new_keys[FGI_ENTRY_FEATS]; /* the first of them */
    fgi_corpus corpus;
    fgi_exec exec;
    fgi_mut mut;
    fgi_rng rng;
    fgi_case_result res;
    fgi_watchdog *watchdog; /* the bounded-time oracle's thread */
    fgi_known known;        /* corpus/<target>/known.txt */
    fgi_fdwatch fds;        /* the descriptor-retention oracle's window */
    int fds_open;
    uint8_t *work;     /* the case being built, capacity max_len */
    uint8_t *scratch;  /* mutator scratch, capacity max_len */
    size_t max_len;
    uint64_t name_hash;
    fg_error err;      /* the first engine error; ends the run */
} run;

static void note_error(run *r, fg_error e)
{
    if (r->err == FG_OK)
        r->err = e;
}

/* Records a failing case as a finding (merged by class) and stores it when it is new or
 * smaller than the one kept. */
static void record_finding(run *r, const uint8_t *data, size_t size, int64_t k,
                           const char *origin, const fgi_mut *mut)
{
    fgi_str muts = {0};
    if (!origin && mut)
        fgi_mutate_describe(mut, &muts);
    fgi_finding_rec rec = {
        .target = r->t->name,
        .kind = r->res.kind,
        .detail = r->res.detail,
        .site = r->res.site[0] ? r->res.site : NULL,
        .data = data,
        .size = size,
        .seed = r->s->opt.seed,
        .case_index = k,
        .origin = origin,
        .mutations = fgi_str_cstr(&muts),
        .program = r->s->program,
        .findings_dir = r->s->opt.findings,
    };
    fgi_finding_classify(&rec);
    int changed = 0;
    fg_finding *f = fgi_outcome_add(r->o, &rec, &changed);
    if (!f) {
        note_error(r, FG_ENOMEM);
    } else if (changed) {
        char path[4096];
        if (fgi_finding_store(&rec, path, sizeof path) != 0)
            r->o->store_failed = 1;
        if (fgi_outcome_set_path(f, path, r->s->program) != 0 ||
            fgi_outcome_set_known(f, fgi_known_reason(&r->known, f->class_id)) != 0)
            note_error(r, FG_ENOMEM);
    }
    fgi_str_free(&muts);
}

/* The descriptor-retention oracle's probe, once per window of cases. */
static void check_descriptors(run *r)
{
    /* Its lone re-runs use their own result, so the current case's stays intact. */
    static fgi_case_result res; /* run thread only; too big for the stack */
    const fgi_fd_slot *s = fgi_fdwatch_check(&r->fds, &r->exec, &res);
    if (!s)
        return;
    r->res = res;
    fgi_mut m = {.napplied = s->napplied};
    memcpy(m.applied, s->applied, sizeof m.applied);
    record_finding(r, s->data, s->size, s->case_index, s->origin, &m);
}

static void add_feature(void *ctx, uint64_t feature)
{
    run *r = ctx;
    feature = feature ? feature : 1;
    int rc = fgi_novelty_add(&r->features, feature);
    if (rc < 0) {
        note_error(r, FG_ENOMEM);
    } else if (rc) {
        if (r->new_features < FGI_ENTRY_FEATS)
            r->new_keys[r->new_features] = feature;
        r->new_features++;
    }
}

static void keep_if_novel(run *r, const uint8_t *data, size_t size, int64_t k,
                          const char *origin, int keep_always, unsigned long mark);

/* Runs one input and acts on the result. Returns its signature when it passed (kept or
 * not), 0 otherwise. k is the case index (-1 for replayed inputs). */
static void run_one(run *r, const uint8_t *data, size_t size, int64_t k, const char *origin,
                    int keep_always)
{
    fgi_exec_origin(&r->exec, k, origin, &r->mut);
    unsigned long mark = fgi_cmp_mark();
    fgi_exec_run(&r->exec, data, size, &r->res);
    if (r->res.status != FGI_CASE_OK) {
        record_finding(r, data, size, k, origin, &r->mut);
        return;
    }
    keep_if_novel(r, data, size, k, origin, keep_always, mark);
    /* After the novelty decision: the probe may re-run other inputs. */
    int due = fgi_fdwatch_note(&r->fds, data, size, k, origin, &r->mut);
    if (due < 0)
        note_error(r, FG_ENOMEM);
    else if (due)
        check_descriptors(r);
}

/* Keeps a passing input when its signature or a coverage feature is new. */
static void keep_if_novel(run *r, const uint8_t *data, size_t size, int64_t k,
                          const char *origin, int keep_always, unsigned long mark)
{
    uint64_t sig = r->res.sig;
    r->o->last_sig = sig;
    int novel = 0;
    if (sig) {
        novel = fgi_novelty_add(&r->nov, sig);
        if (novel < 0) {
            note_error(r, FG_ENOMEM);
            return;
        }
    }
    r->new_features = 0;
    if (fgi_cov_enabled()) {
        fgi_cov_features(add_feature, r);
        novel |= r->new_features > 0;
    }
    int keep = keep_always || novel || (origin && sig == 0);
    if (!keep_always && ((!origin && r->t->unguided) || r->res.rejected))
        keep = 0;
    if (!keep)
        return;
    fgi_cmp_int own[32]; /* arbitrary: enough for a parser's header checks */
    size_t nown = fgi_cmp_since(mark, own, FGI_ARRAY_LEN(own));
    if (fgi_corpus_add(&r->corpus, data, size, sig) != 0 ||
        fgi_corpus_set_cmps(&r->corpus, r->corpus.count - 1, own, nown) != 0) {
        note_error(r, FG_ENOMEM);
        return;
    }
    if (r->new_features)
        fgi_corpus_set_features(&r->corpus, r->corpus.count - 1, r->new_keys,
                                (unsigned)FGI_MIN(r->new_features, FGI_ENTRY_FEATS));
    if (!origin)
        r->o->kept++;
    if (r->s->opt.verbose)
        fprintf(r->s->log, "#%lld %s NEW sig 0x%016llx size %zu corpus %zu%s%s\n",
                (long long)k, r->t->name, (unsigned long long)sig, size, r->corpus.count,
                origin ? " from " : "", origin ? origin : "");
}

static void replay_corpus(run *r)
{
    fgi_str dir = {0};
    fgi_str_addf(&dir, "%s/%s", r->s->opt.corpus, r->t->name);
    fgi_names names;
    int missing = 0;
    fg_error e = dir.failed ? FG_ENOMEM : fgi_dir_list(dir.buf, &names, &missing);
    if (e != FG_OK) {
        fprintf(r->s->log, "fuzzgate: %s: cannot read corpus directory %s\n", r->t->name,
                fgi_str_cstr(&dir));
        note_error(r, e);
        fgi_str_free(&dir);
        return;
    }
    fgi_str path = {0};
    for (size_t i = 0; i < names.count && r->err == FG_OK; i++) {
        path.len = 0;
        fgi_str_addf(&path, "%s/%s", dir.buf, names.names[i]);
        uint8_t *data;
        size_t size;
        e = path.failed ? FG_ENOMEM : fgi_file_read(path.buf, (size_t)64 << 20, &data, &size);
        if (e != FG_OK) {
            fprintf(r->s->log, "fuzzgate: %s: cannot read %s: %s\n", r->t->name,
                    fgi_str_cstr(&path), fg_strerror(e));
            note_error(r, e);
            break;
        }
        if ((e = fgi_exec_reserve(&r->exec, size)) != FG_OK) {
            fgi_free(data);
            note_error(r, e);
            break;
        }
        run_one(r, data, size, -1, path.buf, 0);
        r->o->replayed++;
        fgi_free(data);
    }
    fgi_str_free(&path);
    fgi_names_free(&names);
    fgi_str_free(&dir);
}

static void replay_seeds(run *r)
{
    if (!r->t->seed)
        return;
    fg_seeds seeds = {0};
    r->t->seed(&seeds);
    if (seeds.failed)
        note_error(r, FG_ENOMEM);
    char origin[64];
    for (size_t i = 0; i < seeds.count && r->err == FG_OK; i++) {
        fg_error e = fgi_exec_reserve(&r->exec, seeds.items[i].size);
        if (e != FG_OK) {
            note_error(r, e);
            break;
        }
        snprintf(origin, sizeof origin, "seed #%zu", i);
        run_one(r, seeds.items[i].data, seeds.items[i].size, -1, origin, 0);
        r->o->replayed++;
    }
    fgi_seeds_free(&seeds);
}

/* Builds and runs generated case k. */
static void generate_one(run *r, uint64_t k)
{
    fgi_rng_case(&r->rng, r->s->opt.seed, r->name_hash, k);
    long pick = fgi_corpus_pick(&r->corpus, &r->nov, &r->rng, k);
    if (pick < 0) {
        note_error(r, FG_ENOMEM);
        return;
    }
    const fgi_entry *base = &r->corpus.entries[pick];
    const fgi_entry *other = &r->corpus.entries[fgi_rng_below(&r->rng, r->corpus.count)];
    size_t size = FGI_MIN(base->size, r->max_len);
    memcpy(r->work, base->data, size);
    r->mut.other = other->data;
    r->mut.other_size = other->size;
    r->mut.local = base->cmps;
    r->mut.nlocal = base->ncmps;
    fgi_bytes_context(&r->mut);
    size = fgi_mutate(&r->mut, r->work, size, r->max_len);
    fgi_bytes_context(NULL);
    run_one(r, r->work, size, (int64_t)k, NULL, 0);
}

static void status_line(run *r, uint64_t k, double start, double now)
{
    double rate = now > start ? (double)k / (now - start) : 0;
    struct rusage ru;
    long rss_mib = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss / 1024 : -1;
    fprintf(r->s->log,
            "#%llu %s: %.0f cases/s, corpus %zu, signatures %zu, novelty %.4f, "
            "features %zu, findings %zu, peak rss %ld MiB\n",
            (unsigned long long)k, r->t->name, rate, r->corpus.count, r->nov.count,
            k ? (double)r->o->kept / (double)k : 0.0, r->features.count, r->o->nfindings,
            rss_mib);
}

static void generate(run *r)
{
    const fgi_opts *opt = &r->s->opt;
    double start = now_s(), last_status = start;
    uint64_t k = 0;
    for (;; k++) {
        if (r->err != FG_OK)
            break;
        if (opt->seconds) {
            if ((k & 1023) == 0) {
                double now = now_s();
                if (now - start >= (double)opt->seconds)
                    break;
                if (now - last_status >= STATUS_EVERY_S) {
                    status_line(r, k, start, now);
                    last_status = now;
                }
            }
        } else if (k >= opt->cases) {
            break;
        }
        generate_one(r, k);
    }
    r->o->cases = k;
    r->o->timed = opt->seconds != 0;
    if (opt->seconds)
        status_line(r, k, start, now_s());
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

static fg_error run_open(run *r, fg_session *s, const fg_target *t)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    r->t = t;
    r->max_len = s->opt.max_len ? (size_t)s->opt.max_len
                 : t->max_len   ? t->max_len
                                : FGI_DEFAULT_MAX_LEN;
    r->name_hash = fgi_hash_str(t->name);
    fgi_novelty_init(&r->nov);
    fgi_novelty_init(&r->features);
    fgi_corpus_init(&r->corpus);
    r->corpus.features = &r->features;
    if (!(r->o = fgi_outcome_new(t->name)))
        return FG_ENOMEM;
    r->work = fgi_malloc(r->max_len);
    r->scratch = fgi_malloc(r->max_len);
    if (!r->work || !r->scratch)
        return FG_ENOMEM;
    r->mut.rng = &r->rng;
    r->mut.scratch = r->scratch;
    r->mut.dict = &s->dict;
    fgi_cmp_reset(); /* each target's run starts with empty comparison tables */
    fgi_str kpath = {0};
    fgi_str_addf(&kpath, "%s/%s/known.txt", s->opt.corpus, t->name);
    char kerr[512];
    fg_error ke = kpath.failed ? FG_ENOMEM
                               : fgi_known_load(kpath.buf, &r->known, kerr, sizeof kerr);
    fgi_str_free(&kpath);
    if (ke != FG_OK) {
        if (ke == FG_EOPTION)
            fprintf(s->log, "fuzzgate: %s\n", kerr);
        return ke;
    }
    fg_error e = fgi_exec_open(&r->exec, t);
    if (e != FG_OK)
        return e;
    if ((e = fgi_fdwatch_open(&r->fds)) != FG_OK)
        return e;
    r->fds_open = 1;
    r->exec.crash.target = t->name;
    r->exec.crash.seed = s->opt.seed;
    r->exec.crash.program = s->program;
    r->exec.crash.findings_dir = s->opt.findings;
    unsigned time_ms = s->opt.timeout_ms ? (unsigned)FGI_MIN(s->opt.timeout_ms, 1u << 30)
                       : t->time_ms     ? t->time_ms
                                        : FGI_DEFAULT_TIME_MS;
    if (!(r->watchdog = fgi_watchdog_start(time_ms, FGI_MAX(time_ms / 10, 1u))))
        return FG_ENOMEM;
    return fgi_exec_reserve(&r->exec, r->max_len);
}

/* Closes what run_open opened; hands the outcome to *out on success. */
static fg_error run_close(run *r, fg_error e, fg_outcome **out, int opened)
{
    unsigned slowest = 0;
    unsigned long slow = fgi_watchdog_stop(r->watchdog, &slowest);
    if (r->o) {
        r->o->slow = slow;
        r->o->slowest_ms = slowest;
    }
    if (slow)
        fprintf(r->s->log, "fuzzgate: %s: %lu slow case%s (the slowest ran %u+ ms)\n",
                r->t->name, slow, slow == 1 ? "" : "s", slowest);
    if (r->fds_open)
        fgi_fdwatch_close(&r->fds);
    if (opened)
        fgi_exec_close(&r->exec);
    fgi_novelty_free(&r->nov);
    fgi_novelty_free(&r->features);
    fgi_corpus_free(&r->corpus);
    fgi_known_free(&r->known);
    fgi_free(r->work);
    fgi_free(r->scratch);
    if (e == FG_OK)
        e = r->err;
    if (e != FG_OK) {
        fg_outcome_free(r->o);
        return e;
    }
    *out = r->o;
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
    *out = NULL;
    if (t->skip)
        return skipped(s, t, out, 1);
    if (!t->run)
        return FG_EINVAL;
    run r;
    double start = now_s();
    fg_error e = run_open(&r, s, t);
    int opened = r.exec.target != NULL;
    if (e == FG_OK) {
        replay_corpus(&r);
        replay_seeds(&r);
        if (r.err == FG_OK) {
            static const uint8_t nothing[1];
            run_one(&r, nothing, 0, -1, "empty input", 1);
            r.o->replayed++;
        }
        if (r.err == FG_OK)
            generate(&r);
        if (r.err == FG_OK)
            check_descriptors(&r); /* the last, partial window */
        r.o->corpus = r.corpus.count;
        r.o->signatures = r.nov.count;
        r.o->features = r.features.count;
        r.o->seconds = now_s() - start;
        saturation_watch(&r);
    }
    e = run_close(&r, e, out, opened);
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
    run r;
    e = run_open(&r, s, t);
    int opened = r.exec.target != NULL;
    if (e == FG_OK && (e = fgi_exec_reserve(&r.exec, size)) == FG_OK) {
        run_one(&r, data, size, -1, path, 0);
        r.o->replayed = 1;
        check_descriptors(&r);
    }
    fgi_free(data);
    return run_close(&r, e, out, opened);
}
