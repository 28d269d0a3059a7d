/* engine/run/session.c — one target's run: replay the corpus, then generate cases, in epochs.
 *
 * The order of a run, which the determinism contract depends on. Every input has a
 * position (seq):
 *   1. every file of <corpus>/<target>/ in sorted name order, then those of
 *      <corpus_out>/<target>/ (a resumed run), then the target's .seed inputs, then the
 *      empty input: the replay epoch;
 *   2. generated cases k = 0, 1, 2, ... at seq = replayed + k, in epochs of 256, 512, then
 *      1024 cases: case k draws from the stream of (seed, target, k), picks a corpus entry
 *      (and a crossover partner) from the epoch's snapshot, mutates a copy and runs it.
 * Within an epoch nothing changes the snapshot: what cases find is written down as records
 * (epoch.h) and merged in seq order at the epoch's end, which decides the kept inputs. So
 * the result is the same whether one process runs every case, or N executors run 64-case
 * chunks of each epoch (chunk c of an epoch goes to executor c mod N), or an executor dies
 * at some case and a new one goes on from the next.
 *
 * Process layout: with `fork` (the default) the parent owns the snapshot, the outcome and
 * the files, and forked executors (supervisor.h) run the cases; --no-fork runs them here.
 */
#include "engine/run/session.h"

#include "engine/feedback/cmp.h"
#include "engine/run/corpus.h"
#include "engine/feedback/coverage.h"
#include "engine/base/dir.h"
#include "engine/mutate/domain.h"
#include "engine/run/epoch.h"
#include "oracle/exec.h"
#include "oracle/fdwatch.h"
#include "oracle/frames.h"
#include "engine/findings/corpus_dir.h"
#include "engine/findings/known.h"
#include "engine/findings/merge.h"
#include "engine/findings/minimize.h"
#include "engine/run/registry.h"
#include "engine/run/schedule.h"
#include "engine/base/sha1.h"
#include "engine/supervise/supervisor.h"
#include "oracle/watchdog.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STATUS_EVERY_S 5.0        /* depth runs: seconds between status lines */
#define SATURATION_MIN_CASES 1000 /* the watch waits for this many cases... */
#define SATURATION_PERCENT 5      /* ...then warns when more than this % were kept */
#define CHUNK FGI_FD_WINDOW       /* cases per chunk: the unit of work and of fd probes */
#define EPOCH_FIRST 256           /* the first generated epoch; the next is twice that... */
#define EPOCH_MAX 1024            /* ...and every later one this long */

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
        fprintf(stderr, "fuzzgate: option --jobs: '%llu' is not between 1 and 64\n",
                (unsigned long long)s->opt.jobs);
        e = FG_EOPTION;
        goto fail;
    }
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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* SIGINT / SIGTERM during a run: stop at the next chunk, keep everything. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    interrupted = sig;
    signal(sig, SIG_DFL); /* a second one ends the process */
}

int fgi_session_interrupted(void)
{
    return interrupted;
}

/* An input of the replay epoch. */
typedef struct item {
    char *origin;   /* file path, "seed #n" or "empty input" (owned) */
    uint8_t *data;  /* owned; NULL for the empty input */
    size_t size;
    int always;     /* kept whatever it does (the empty input: the base of mutation) */
} item;

/* Everything one target's run owns. The snapshot (corpus, nov, features, the comparison
 * pool) changes only in merge_epoch; the executor side writes records into `log`. */
typedef struct run {
    fg_session *s;
    const fg_target *t;
    fg_outcome *o;
    fgi_novelty nov;        /* signatures and how often each was produced */
    fgi_novelty features;   /* coverage features, likewise (instrumented builds) */
    fgi_corpus corpus;
    fgi_sched sched;        /* length limit and the executor's shorter-input notes */
    fgi_epoch_log log;      /* the current epoch's records */
    item *items;            /* the replay epoch */
    size_t nitems;
    uint64_t total;         /* positions in the run; UINT64_MAX for a timed run */
    uint64_t reached;       /* the position the run got to */
    uint64_t sampled_to;    /* the report series has points up to this case */
    size_t ncommitted;      /* items from the committed corpus directory (the first) */
    int probe;              /* a trial run: classify findings, store and print nothing */
    struct eval {           /* per replayed item: what it covered (NULL keys: not run) */
        uint64_t sig;
        uint64_t *keys;
        size_t nkeys;
        int ran;
    } *evals;
    unsigned jobs;
    fgi_known known;        /* corpus/<target>/known.txt (parent side) */
    size_t max_len, slot_cap;
    uint64_t name_hash;
    unsigned time_ms;
    double start;
    fg_error err;           /* the first engine error; ends the run */
    /* The executor side (this process with --no-fork, else a forked executor). */
    fgi_exec exec;
    int exec_open;
    fgi_mut mut;
    fgi_rng rng;
    fgi_case_result res;
    fgi_watchdog *watchdog;
    fgi_fdwatch fds;
    int fds_open;
    fgi_novelty dsig, dfeat; /* this chunk's hit counts */
    fgi_novelty sent;        /* keys this executor already sent this epoch */
    uint64_t *ckeys;         /* the current case's candidate features */
    size_t nckeys, ckeys_cap;
    int blocked;             /* the current case may not be kept (rejected, unguided) */
    int full;                /* the current case is replayed: send all its features */
    uint64_t fhash;          /* the current case's feature hash (schedule.h) */
    size_t base;             /* the corpus entry the current generated case came from */
    uint8_t *work;           /* the case being built: the slot's bytes in an executor */
    uint8_t *own_work;
    uint8_t *scratch;
    int msg_fd;              /* executor: its pipe to the supervisor; -1 in-process */
    int cmd_fd;              /* executor (jobs > 1): the merged epochs come in here */
    fgi_slot *slot;
    unsigned long slow;      /* cases past the soft threshold (from the watchdogs) */
    unsigned slowest_ms;
    /* The supervisor side. */
    fgi_sup *sup;
    unsigned epoch_done;     /* executors that finished the current epoch (jobs > 1) */
    int sup_stopping;        /* the executors were asked to stop */
    double last_status;
} run;

static void note_error(run *r, fg_error e)
{
    if (r->err == FG_OK)
        r->err = e;
}

/* ---- positions: epochs and chunks ------------------------------------------------- */

static uint64_t epoch_start(const run *r, uint64_t seq)
{
    if (seq < r->nitems)
        return 0;
    uint64_t k = seq - r->nitems, first2 = EPOCH_FIRST + 2 * EPOCH_FIRST;
    uint64_t b = k < EPOCH_FIRST ? 0
                 : k < first2    ? EPOCH_FIRST
                                 : first2 + (k - first2) / EPOCH_MAX * EPOCH_MAX;
    return r->nitems + b;
}

static uint64_t epoch_end(const run *r, uint64_t seq)
{
    uint64_t es = epoch_start(r, seq), k = es - r->nitems;
    uint64_t end = seq < r->nitems ? r->nitems
                   : k == 0        ? es + EPOCH_FIRST
                   : k == EPOCH_FIRST ? es + 2 * EPOCH_FIRST
                                      : es + EPOCH_MAX;
    return end < r->total ? end : r->total;
}

/* Whether executor j (of r->jobs) has a chunk of the epoch [es, ee) ending after q. */
static int has_work(const run *r, unsigned j, uint64_t q, uint64_t es, uint64_t ee)
{
    for (uint64_t cs = es, c = 0; cs < ee; cs += CHUNK, c++)
        if (c % r->jobs == j && (cs + CHUNK < ee ? cs + CHUNK : ee) > q)
            return 1;
    return 0;
}

static const char *origin_of(const run *r, uint64_t seq)
{
    return seq < r->nitems ? r->items[seq].origin : NULL;
}

/* ---- findings --------------------------------------------------------------------- */

/* Records a finding (merged by class) and stores it when it is new or smaller than the
 * one kept. The parent's (or the in-process run's) side of every finding. */
static void record_finding(run *r, fgi_finding_rec *rec)
{
    rec->target = r->t->name;
    rec->seed = r->s->opt.seed;
    rec->program = r->s->program;
    rec->findings_dir = r->s->opt.findings;
    rec->artifact_prefix = r->s->opt.artifact_prefix;         /* bridge (#7) */
    rec->exact_artifact_path = r->s->opt.exact_artifact_path; /* bridge (#7) */
    rec->origin = origin_of(r, rec->seq);
    fgi_finding_classify(rec);
    int changed = 0;
    fg_finding *f = fgi_outcome_add(r->o, rec, &changed);
    if (!f) {
        note_error(r, FG_ENOMEM);
    } else if (changed && !r->probe) {
        char path[4096];
        if (fgi_finding_store(rec, path, sizeof path) != 0)
            r->o->store_failed = 1;
        if (fgi_outcome_set_path(f, path, r->s->program) != 0 ||
            fgi_outcome_set_known(f, fgi_known_reason(&r->known, f->class_id)) != 0)
            note_error(r, FG_ENOMEM);
    }
}

static void describe_mutations(const uint8_t *applied, unsigned n, fgi_str *out)
{
    fgi_mut m = {.napplied = n};
    memcpy(m.applied, applied, n < FGI_MUT_STACK ? n : FGI_MUT_STACK);
    fgi_mutate_describe(&m, out);
}

/* A finding the executor survived (r->res says what): recorded here, or sent. */
static void emit_finding(run *r, const uint8_t *data, size_t size, uint64_t seq, int64_t k,
                         const uint8_t *applied, unsigned napplied)
{
    if (r->msg_fd < 0) {
        fgi_str muts = {0};
        describe_mutations(applied, napplied, &muts);
        fgi_finding_rec rec = {
            .kind = r->res.kind,
            .detail = r->res.detail,
            .site = r->res.site[0] ? r->res.site : NULL,
            .data = data,
            .size = size,
            .case_index = k,
            .seq = seq,
            .mutations = fgi_str_cstr(&muts),
        };
        record_finding(r, &rec);
        fgi_str_free(&muts);
        return;
    }
    fgi_find_head h = {.seq = seq, .case_index = k, .size = size, .napplied = napplied};
    memcpy(h.applied, applied, napplied);
    h.kindlen = (uint32_t)strlen(r->res.kind);
    h.sitelen = (uint32_t)strlen(r->res.site);
    h.detaillen = (uint32_t)strlen(r->res.detail);
    fgi_str b = {0};
    fgi_str_addn(&b, (const char *)&h, sizeof h);
    if (size)
        fgi_str_addn(&b, (const char *)data, size);
    fgi_str_addn(&b, r->res.kind, h.kindlen);
    fgi_str_addn(&b, r->res.site, h.sitelen);
    fgi_str_addn(&b, r->res.detail, h.detaillen);
    if (b.failed || fgi_wire_send(r->msg_fd, FGI_MSG_FIND, b.buf, b.len) != 0)
        note_error(r, b.failed ? FG_ENOMEM : FG_EIO);
    fgi_str_free(&b);
}

/* The kinds an executor may name, as the parent's own static strings. */
static const char *kind_named(const char *k, size_t n)
{
    static const char *const kinds[] = {"check", "crash", "write", "exit", "amplification",
                                        "retention", "timeout", "oom"};
    for (size_t i = 0; i < FGI_ARRAY_LEN(kinds); i++)
        if (strlen(kinds[i]) == n && memcmp(kinds[i], k, n) == 0)
            return kinds[i];
    return "crash";
}

static void received_finding(run *r, const uint8_t *p, size_t n)
{
    fgi_find_head h;
    if (n < sizeof h)
        return note_error(r, FG_EIO);
    memcpy(&h, p, sizeof h);
    if (h.napplied > FGI_MUT_STACK || h.sitelen >= 256 || h.detaillen >= 1024 ||
        sizeof h + h.size + h.kindlen + h.sitelen + h.detaillen != n)
        return note_error(r, FG_EIO);
    const uint8_t *data = p + sizeof h;
    const char *kind = (const char *)data + h.size;
    char site[256], detail[1024];
    memcpy(site, kind + h.kindlen, h.sitelen);
    site[h.sitelen] = '\0';
    memcpy(detail, kind + h.kindlen + h.sitelen, h.detaillen);
    detail[h.detaillen] = '\0';
    fgi_str muts = {0};
    describe_mutations(h.applied, h.napplied, &muts);
    fgi_finding_rec rec = {
        .kind = kind_named(kind, h.kindlen),
        .detail = detail,
        .site = site[0] ? site : NULL,
        .data = data,
        .size = h.size,
        .case_index = h.case_index,
        .seq = h.seq,
        .mutations = fgi_str_cstr(&muts),
    };
    record_finding(r, &rec);
    fgi_str_free(&muts);
}

/* An executor died: the finding comes from the input still in its slot. Then the run goes
 * on from the next position (supervised). */
static void restart_after(run *r, unsigned j, uint64_t pos);

static void executor_died(void *ctx, unsigned j, int status, const fgi_dying *dying,
                          const char *killed_for, const fgi_slot *slot)
{
    run *r = ctx;
    const char *kind = "crash";
    char what[512];
    if (killed_for && strcmp(killed_for, "oom") == 0) {
        kind = "oom";
        snprintf(what, sizeof what,
                 "the executor's resident memory passed the limit of %llu MiB (rss_limit_mb)",
                 (unsigned long long)r->s->opt.rss_limit_mb);
    } else if (killed_for) {
        kind = "timeout";
        snprintf(what, sizeof what,
                 "the case made no progress past the deadline of %u ms (the supervisor "
                 "killed its executor)", r->time_ms);
    } else if (dying) {
        kind = kind_named(dying->kind, strlen(dying->kind));
        char where[256] = "";
        if (dying->nframes)
            fgi_frames_describe(dying->frames, dying->nframes, (int)dying->from_sanitizer,
                                where, sizeof where);
        snprintf(what, sizeof what, "%s%s%s", dying->what, where[0] ? " at " : "", where);
    } else if (!slot->active) {
        /* No case was running: the engine's own failure (or a target's stray thread), and
         * never to be blamed on the last input. */
        fprintf(r->s->log, "fuzzgate: %s: an executor died outside any case (%s %d)\n",
                r->t->name, WIFSIGNALED(status) ? "signal" : "status",
                WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        note_error(r, FG_EIO);
        return;
    } else if (WIFSIGNALED(status)) {
        snprintf(what, sizeof what, "the target died of %s", fgi_signal_name(WTERMSIG(status)));
    } else {
        kind = "exit";
        snprintf(what, sizeof what, "the target ended the process with _exit(%d) during a case",
                 WEXITSTATUS(status));
    }
    fgi_str muts = {0};
    describe_mutations(slot->applied, slot->napplied, &muts);
    fgi_finding_rec rec = {
        .kind = kind,
        .detail = what,
        .class_key = what,
        .data = slot->data,
        .size = slot->size,
        .case_index = slot->case_index,
        .seq = slot->seq,
        .mutations = fgi_str_cstr(&muts),
    };
    record_finding(r, &rec);
    fgi_str_free(&muts);
    restart_after(r, j, slot->pos);
}

/* ---- the executor side: running cases --------------------------------------------- */

static void add_feature(void *ctx, uint64_t feature)
{
    run *r = ctx;
    feature = feature ? feature : 1;
    r->fhash += fg_mix64(feature);
    if (fgi_novelty_add(&r->dfeat, feature) < 0)
        return note_error(r, FG_ENOMEM);
    if (r->blocked)
        return;
    if (!r->full) { /* a replayed input sends every feature (merge, budget: below) */
        if (fgi_novelty_has(&r->features, feature))
            return;
        int rc = fgi_novelty_bump(&r->sent, feature, 0);
        if (rc < 0)
            return note_error(r, FG_ENOMEM);
        if (!rc)
            return;
    }
    if (r->nckeys == r->ckeys_cap) {
        size_t cap = r->ckeys_cap ? 2 * r->ckeys_cap : 64;
        uint64_t *k = fgi_realloc(r->ckeys, cap * sizeof *k);
        if (!k)
            return note_error(r, FG_ENOMEM);
        r->ckeys = k;
        r->ckeys_cap = cap;
    }
    r->ckeys[r->nckeys++] = feature;
}

static void emit_record(run *r, uint32_t type, fgi_cand *c, fgi_hits *h)
{
    if (r->msg_fd >= 0) {
        fgi_str b = {0};
        int rc = c ? fgi_epoch_encode_cand(&b, c) : fgi_epoch_encode_hits(&b, h);
        if (rc != 0 || fgi_wire_send(r->msg_fd, type, b.buf, b.len) != 0)
            note_error(r, rc ? FG_ENOMEM : FG_EIO);
        fgi_str_free(&b);
        if (r->jobs > 1) { /* the supervisor sends every executor's records back */
            if (c)
                fgi_epoch_free_cand(c);
            else
                fgi_epoch_free_hits(h);
            return;
        }
    }
    if ((c ? fgi_epoch_add_cand(&r->log, c) : fgi_epoch_add_hits(&r->log, h)) != 0)
        note_error(r, FG_ENOMEM);
}

/* A passing case: counts its hits, and writes a candidate when it brought something the
 * snapshot did not have (and this executor has not sent this epoch). */
static void note_case(run *r, uint64_t seq, const uint8_t *data, size_t size, int always,
                      unsigned long mark, unsigned long smark)
{
    const char *origin = origin_of(r, seq);
    uint64_t sig = r->res.sig;
    r->blocked = !always && ((!origin && r->t->unguided) || r->res.rejected);
    r->full = origin != NULL;
    int force = always || (origin && sig == 0 && !r->res.rejected);
    int fresh = 0, known = 1;
    if (sig) {
        if (fgi_novelty_add(&r->dsig, sig) < 0)
            return note_error(r, FG_ENOMEM);
        if (!r->blocked && !(known = fgi_novelty_has(&r->nov, sig))) {
            int rc = fgi_novelty_bump(&r->sent, sig, 0);
            if (rc < 0)
                return note_error(r, FG_ENOMEM);
            fresh = rc;
        }
    }
    r->nckeys = 0;
    r->fhash = 0;
    if (fgi_cov_enabled())
        fgi_cov_features(add_feature, r);
    else /* a plain build: comparisons against constants it had not met (cmp.h) */
        fgi_cmp_constants(data, size, mark, smark, add_feature, r);
    fgi_signals_each(add_feature, r); /* fg_feature, fg_maximize */
    /* A shorter input doing what an entry did replaces it (schedule.h). Not looked for
     * when the case did what its base did and is no shorter (the common case, kept
     * cheap); the test is the case's own, so which executor ran it (and what that one
     * sent before) decides nothing. */
    const fgi_entry *base = r->full ? NULL : &r->corpus.entries[r->base];
    int shorter = 0;
    if (sig && !r->blocked && base && !force &&
        (!known || sig != base->sig || size < base->size) &&
        (shorter = fgi_sched_shorter(&r->sched, &r->corpus, sig, r->fhash, size, fresh)) < 0)
        return note_error(r, FG_ENOMEM);
    if (!(force || fresh || shorter || r->nckeys || (r->full && !r->blocked)))
        return;
    fgi_cand c = {.seq = seq, .sig = sig, .force = force, .size = size, .fhash = r->fhash,
                  .base = origin ? 0 : r->base + 1};
    c.data = fgi_malloc(size ? size : 1);
    c.keys = r->nckeys ? fgi_memdup(r->ckeys, r->nckeys * sizeof *r->ckeys) : NULL;
    if (!c.data || (r->nckeys && !c.keys)) {
        fgi_free(c.data);
        fgi_free(c.keys);
        return note_error(r, FG_ENOMEM);
    }
    if (size)
        memcpy(c.data, data, size);
    c.nkeys = (uint32_t)r->nckeys;
    c.ncmps = (uint32_t)fgi_cmp_since(mark, c.cmps, FGI_CAND_CMPS);
    c.nstrs = (uint32_t)fgi_cmp_strs_since(smark, c.strs, FGI_CAND_STRS);
    emit_record(r, FGI_MSG_CAND, &c, NULL);
}

/* Runs the input at position seq. */
static void run_input(run *r, uint64_t seq, const uint8_t *data, size_t size, int always)
{
    int64_t k = seq < r->nitems ? -1 : (int64_t)(seq - r->nitems);
    const char *origin = origin_of(r, seq);
    fgi_exec_seq(seq);
    fgi_exec_origin(&r->exec, k, origin, &r->mut);
    unsigned long mark = fgi_cmp_mark(), smark = fgi_cmp_mark_strs();
    fgi_exec_run(&r->exec, data, size, &r->res);
    if (r->res.status != FGI_CASE_OK) {
        fgi_signals_begin(); /* a passing case's are read (and forgotten) by note_case */
        emit_finding(r, data, size, seq, k, r->mut.applied, origin ? 0 : r->mut.napplied);
        return;
    }
    note_case(r, seq, data, size, always, mark, smark);
    if (fgi_fdwatch_note(&r->fds, data, size, k, origin, &r->mut) < 0)
        note_error(r, FG_ENOMEM);
}

/* Builds and runs generated case k (position seq) from the snapshot. */
static void generate_one(run *r, uint64_t seq)
{
    uint64_t k = seq - r->nitems;
    fgi_rng_case(&r->rng, r->s->opt.seed, r->name_hash, k);
    long pick = fgi_corpus_pick(&r->corpus, &r->nov, &r->rng, k);
    if (pick < 0)
        return note_error(r, FG_ENOMEM);
    const fgi_entry *base = &r->corpus.entries[pick];
    const fgi_entry *other = &r->corpus.entries[fgi_rng_below(&r->rng, r->corpus.count)];
    size_t size = FGI_MIN(base->size, r->max_len);
    size_t room = fgi_sched_room(&r->sched, size, r->max_len);
    memcpy(r->work, base->data, size);
    r->base = (size_t)pick;
    r->mut.other = other->data;
    r->mut.other_size = other->size;
    fgi_sched_lend(base, &r->mut);
    fgi_bytes_context(&r->mut);
    if (r->t->domain) /* structured mutation blended with byte havoc (engine/mutate/domain.c) */
        size = fgi_domain_mutate(r->t->domain, &r->mut, base->data, base->size, r->work,
                                 size, r->max_len, NULL);
    else
        size = fgi_mutate(&r->mut, r->work, size, room);
    fgi_bytes_context(NULL);
    run_input(r, seq, r->work, size, 0);
}

static void run_position(run *r, uint64_t seq)
{
    if (r->slot)
        r->slot->pos = seq;
    if (seq < r->nitems) {
        static const uint8_t nothing[1];
        const item *it = &r->items[seq];
        r->mut.napplied = 0;
        run_input(r, seq, it->data ? it->data : nothing, it->size, it->always);
    } else {
        generate_one(r, seq);
    }
}

static void flush_hits(run *r, fgi_novelty *d, int which)
{
    if (!d->count)
        return;
    fgi_hits h = {.which = which, .n = 0};
    h.keys = fgi_malloc(d->count * sizeof *h.keys);
    h.counts = fgi_malloc(d->count * sizeof *h.counts);
    if (!h.keys || !h.counts) {
        fgi_free(h.keys);
        fgi_free(h.counts);
        return note_error(r, FG_ENOMEM);
    }
    for (size_t i = 0; i < d->cap; i++)
        if (d->keys[i]) {
            h.keys[h.n] = d->keys[i];
            h.counts[h.n++] = d->hits[i];
        }
    fgi_novelty_clear(d);
    emit_record(r, FGI_MSG_HITS, NULL, &h);
}

/* The end of a chunk: the descriptor probe over its cases, then its hit counts. */
static void chunk_done(run *r)
{
    /* The probe's lone re-runs use their own result, so a case's stays intact. */
    static fgi_case_result res; /* run thread only; too big for the stack */
    const fgi_fd_slot *fs = fgi_fdwatch_check(&r->fds, &r->exec, &res);
    if (fs) {
        r->res = res;
        uint64_t seq = fs->case_index < 0 ? 0 : r->nitems + (uint64_t)fs->case_index;
        for (size_t i = 0; fs->case_index < 0 && i < r->nitems; i++)
            if (fs->origin && strcmp(fs->origin, r->items[i].origin) == 0)
                seq = i;
        emit_finding(r, fs->data, fs->size, seq, fs->case_index, fs->applied, fs->napplied);
    }
    flush_hits(r, &r->dsig, FGI_HITS_SIG);
    flush_hits(r, &r->dfeat, FGI_HITS_FEATURE);
}

static void merge_epoch(run *r);

static int should_stop(run *r)
{
    if (r->err != FG_OK)
        return 1;
    if (r->slot)
        return r->slot->stop;
    return interrupted ||
           (r->s->opt.seconds && now_s() - r->start >= (double)r->s->opt.seconds);
}

static void status_line(run *r, uint64_t pos);

/* Reads one fd fully; 0 or -1 (end of file or error). */
static int read_full(int fd, void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* An executor of several: the epoch's records from the supervisor, up to its end marker.
 * 0 at end of file (the run is over) or on a malformed record. */
static int receive_epoch(run *r)
{
    fgi_epoch_clear(&r->log); /* what a new executor inherited is in the broadcast too */
    fgi_str body = {0};
    int ok = 0;
    for (;;) {
        fgi_wire_head h;
        if (read_full(r->cmd_fd, &h, sizeof h) != 0)
            break;
        body.len = 0;
        fgi_str_addn(&body, "", 0);
        if (h.len) {
            char buf[65536];
            size_t left = h.len;
            while (left && !body.failed) {
                size_t k = left < sizeof buf ? left : sizeof buf;
                if (read_full(r->cmd_fd, buf, k) != 0)
                    goto out;
                fgi_str_addn(&body, buf, k);
                left -= k;
            }
        }
        if (body.failed) {
            note_error(r, FG_ENOMEM);
            break;
        }
        if (h.type == FGI_MSG_EPOCH) {
            ok = 1;
            break;
        }
        if ((h.type != FGI_MSG_CAND && h.type != FGI_MSG_HITS) ||
            fgi_epoch_add_encoded(&r->log, h.type == FGI_MSG_CAND, (const uint8_t *)body.buf,
                                  h.len) != 0) {
            note_error(r, FG_EIO);
            break;
        }
    }
out:
    fgi_str_free(&body);
    return ok;
}

/* Runs executor j's share of the run from position `from` to its end (or a stop). */
static void execute(run *r, unsigned j, uint64_t from)
{
    uint64_t seq = from;
    while (seq < r->total && r->err == FG_OK) {
        uint64_t es = epoch_start(r, seq), ee = epoch_end(r, seq), end = ee;
        int stop = 0;
        for (uint64_t cs = es, c = 0; cs < ee && !stop; cs += CHUNK, c++) {
            uint64_t ce = cs + CHUNK < ee ? cs + CHUNK : ee;
            if (c % r->jobs != j || ce <= seq)
                continue;
            for (uint64_t q = cs > seq ? cs : seq; q < ce && r->err == FG_OK; q++)
                run_position(r, q);
            chunk_done(r);
            if (r->msg_fd < 0 && r->s->opt.seconds && now_s() - r->last_status >= STATUS_EVERY_S)
                status_line(r, ce);
            if (should_stop(r)) {
                stop = 1;
                end = ce;
            }
        }
        fgi_novelty_clear(&r->sent);
        if (r->msg_fd >= 0 && fgi_wire_send(r->msg_fd, FGI_MSG_EPOCH, &end, sizeof end) != 0)
            note_error(r, FG_EIO);
        r->reached = end;
        if (stop)
            return;
        /* With one executor its own records are the epoch's; with more, the supervisor
         * sends every executor's once all are in. Either way the same merge follows. */
        if (r->jobs > 1 && !receive_epoch(r))
            return;
        merge_epoch(r);
        seq = ee;
    }
}

static fg_error executor_open(run *r)
{
    fg_error e = fgi_exec_open(&r->exec, r->t);
    if (e != FG_OK)
        return e;
    r->exec_open = 1;
    r->exec.crash.target = r->t->name;
    r->exec.crash.seed = r->s->opt.seed;
    r->exec.crash.program = r->s->program;
    r->exec.crash.findings_dir = r->s->opt.findings;
    r->exec.crash.artifact_prefix = r->s->opt.artifact_prefix;         /* bridge (#7) */
    r->exec.crash.exact_artifact_path = r->s->opt.exact_artifact_path; /* bridge (#7) */
    if ((e = fgi_fdwatch_open(&r->fds)) != FG_OK)
        return e;
    r->fds_open = 1;
    if (!(r->watchdog = fgi_watchdog_start(r->time_ms, FGI_MAX(r->time_ms / 10, 1u))))
        return FG_ENOMEM;
    return fgi_exec_reserve(&r->exec, r->slot_cap);
}

static void executor_close(run *r)
{
    if (r->watchdog) {
        unsigned slowest = 0;
        r->slow += fgi_watchdog_stop(r->watchdog, &slowest);
        r->slowest_ms = FGI_MAX(r->slowest_ms, slowest);
        r->watchdog = NULL;
    }
    if (r->fds_open)
        fgi_fdwatch_close(&r->fds);
    r->fds_open = 0;
    if (r->exec_open)
        fgi_exec_close(&r->exec);
    r->exec_open = 0;
}

/* What an executor reports at its orderly end. */
typedef struct bye {
    uint64_t reached, slow;
    uint32_t slowest_ms, err;
} bye;

/* The body of a forked executor. */
static int executor_main(void *ctx, unsigned j, uint64_t from, int msg_fd, int cmd_fd,
                         fgi_slot *slot)
{
    run *r = ctx;
    r->msg_fd = msg_fd;
    r->cmd_fd = cmd_fd;
    r->slot = slot;
    r->work = slot->data;
    fgi_exec_attach(msg_fd, slot);
    fg_error e = executor_open(r);
    if (e == FG_OK)
        execute(r, j, from);
    executor_close(r);
    bye b = {r->reached, r->slow, r->slowest_ms, (uint32_t)(e != FG_OK ? e : r->err)};
    fgi_wire_send(msg_fd, FGI_MSG_BYE, &b, sizeof b);
    return 0;
}

/* ---- the snapshot: merging an epoch ----------------------------------------------- */

/* Writes a kept generated input to <corpus_out>/<target>/<sha1> (parent side). */
static void save_input(run *r, const uint8_t *data, size_t size)
{
    const char *out = r->s->opt.corpus_out;
    if (!out || !*out || r->msg_fd >= 0 || r->probe)
        return;
    fgi_str dir = {0};
    fgi_str_addf(&dir, "%s/%s", out, r->t->name);
    char name[FGI_SHA1_HEX];
    int written;
    if (dir.failed || fgi_corpus_dir_write(dir.buf, data, size, name, &written) != FG_OK)
        fprintf(r->s->log, "fuzzgate: %s: cannot write an input to %s\n", r->t->name,
                fgi_str_cstr(&dir));
    fgi_str_free(&dir);
}

/* Keeps what each replayed item covered (parent side), for merge and the corpus check. */
static void keep_evals(run *r)
{
    if (r->msg_fd >= 0 || !r->evals)
        return;
    for (size_t i = 0; i < r->log.ncands; i++) {
        fgi_cand *c = &r->log.cands[i];
        if (c->seq >= r->nitems || r->evals[c->seq].ran)
            continue;
        struct eval *v = &r->evals[c->seq];
        v->ran = 1;
        v->sig = c->sig;
        v->nkeys = c->nkeys;
        v->keys = c->nkeys ? fgi_memdup(c->keys, c->nkeys * sizeof *c->keys) : NULL;
        if (c->nkeys && !v->keys)
            note_error(r, FG_ENOMEM);
    }
}

/* The epoch's records in seq order: a candidate is kept when its signature or one of its
 * features is still new after every earlier candidate (or it is forced); hit counts are
 * summed. Runs identically in every process that holds the records. */
static void merge_epoch(run *r)
{
    /* The report series (outcome.h): within an epoch the snapshot is constant, so each
     * of its cases is sampled with the values it saw. */
    uint64_t upto = r->reached > r->nitems ? r->reached - r->nitems : 0;
    for (; r->msg_fd < 0 && r->sampled_to < upto; r->sampled_to++)
        fgi_outcome_sample(r->o, r->sampled_to, r->corpus.count, r->nov.count,
                           r->features.count);
    fgi_epoch_sort(&r->log);
    keep_evals(r);
    uint64_t ran = r->reached > r->nitems ? r->reached - epoch_start(r, r->reached - 1) : 0;
    if (fgi_sched_count_picks(&r->corpus, &r->nov, ran) != 0)
        return note_error(r, FG_ENOMEM);
    for (size_t i = 0; i < r->log.ncands && r->err == FG_OK; i++) {
        fgi_cand *c = &r->log.cands[i];
        int novel = 0;
        if (c->sig) {
            int rc = fgi_novelty_bump(&r->nov, c->sig, 0);
            if (rc < 0)
                return note_error(r, FG_ENOMEM);
            novel = rc;
        }
        uint64_t feats[FGI_ENTRY_FEATS];
        unsigned nf = 0;
        size_t nnew = 0;
        for (uint32_t f = 0; f < c->nkeys; f++) {
            int rc = fgi_novelty_bump(&r->features, c->keys[f], 0);
            if (rc < 0)
                return note_error(r, FG_ENOMEM);
            if (rc && nf < FGI_ENTRY_FEATS)
                feats[nf++] = c->keys[f];
            nnew += (size_t)rc;
        }
        if (!(c->force || novel || nnew)) {
            if (fgi_sched_reduce(&r->sched, &r->corpus, c) < 0)
                return note_error(r, FG_ENOMEM);
            continue;
        }
        if (fgi_corpus_add(&r->corpus, c->data, c->size, c->sig) != 0 ||
            fgi_corpus_set_cmps(&r->corpus, r->corpus.count - 1, c->cmps, c->ncmps) != 0 ||
            fgi_sched_kept(&r->sched, &r->corpus, r->corpus.count - 1, c) != 0)
            return note_error(r, FG_ENOMEM);
        if (nf)
            fgi_corpus_set_features(&r->corpus, r->corpus.count - 1, feats, nf);
        fgi_cmp_pool_add(c->cmps, c->ncmps, c->strs, c->nstrs);
        const char *origin = origin_of(r, c->seq);
        if (!origin) {
            r->o->kept++;
            save_input(r, c->data, c->size);
        }
        if (r->s->opt.verbose && r->msg_fd < 0 && !r->probe)
            fprintf(r->s->log, "#%lld %s NEW sig 0x%016llx size %zu corpus %zu%s%s\n",
                    origin ? -1LL : (long long)(c->seq - r->nitems), r->t->name,
                    (unsigned long long)c->sig, c->size, r->corpus.count,
                    origin ? " from " : "", origin ? origin : "");
    }
    for (size_t i = 0; i < r->log.nhits && r->err == FG_OK; i++) {
        const fgi_hits *h = &r->log.hits[i];
        fgi_novelty *n = h->which == FGI_HITS_SIG ? &r->nov : &r->features;
        for (size_t q = 0; q < h->n; q++)
            if (fgi_novelty_bump(n, h->keys[q], h->counts[q]) < 0)
                return note_error(r, FG_ENOMEM);
    }
    fgi_epoch_clear(&r->log);
    fgi_sched_merged(&r->sched, &r->corpus, r->max_len);
}

/* ---- the supervisor side ------------------------------------------------------------ */

static void executor_message(void *ctx, unsigned j, uint32_t type, const uint8_t *body,
                             size_t len)
{
    run *r = ctx;
    (void)j;
    if (type == FGI_MSG_CAND || type == FGI_MSG_HITS) {
        if (fgi_epoch_add_encoded(&r->log, type == FGI_MSG_CAND, body, len) != 0)
            note_error(r, FG_EIO);
    } else if (type == FGI_MSG_FIND) {
        received_finding(r, body, len);
    } else if (type == FGI_MSG_EPOCH && len == sizeof(uint64_t)) {
        uint64_t end;
        memcpy(&end, body, sizeof end);
        if (end > r->reached)
            r->reached = end;
        if (r->jobs == 1)
            merge_epoch(r);
        else
            r->epoch_done++;
    } else if (type == FGI_MSG_BYE && len == sizeof(bye)) {
        bye b;
        memcpy(&b, body, sizeof b);
        r->slow += b.slow;
        r->slowest_ms = FGI_MAX(r->slowest_ms, b.slowest_ms);
        if (b.err)
            note_error(r, (fg_error)b.err);
    }
}

static void start_executor(run *r, unsigned j, uint64_t from)
{
    fg_error e = fgi_sup_start(r->sup, j, from);
    if (e != FG_OK) {
        fprintf(r->s->log, "fuzzgate: %s: cannot start an executor (fork failed)\n",
                r->t->name);
        note_error(r, e);
    }
}

static void restart_after(run *r, unsigned j, uint64_t pos)
{
    int going = r->err == FG_OK && !interrupted && !r->sup_stopping;
    uint64_t next = pos + 1, es = epoch_start(r, pos), ee = epoch_end(r, pos);
    if (r->jobs > 1) {
        /* Either it finishes its share of the epoch, or its share is done: the others
         * wait for the epoch's end, which must come. */
        if (going && has_work(r, j, next, es, ee))
            start_executor(r, j, next);
        else
            r->epoch_done++;
        return;
    }
    if (!going)
        return;
    if (next == ee) {
        /* The dead executor was on its epoch's last case: the epoch is complete. */
        if (next > r->reached)
            r->reached = next;
        merge_epoch(r);
    }
    if (next < r->total)
        start_executor(r, j, next);
}

static void status_line(run *r, uint64_t pos)
{
    double now = now_s();
    r->last_status = now;
    uint64_t k = pos > r->nitems ? pos - r->nitems : 0;
    double rate = now > r->start ? (double)k / (now - r->start) : 0;
    struct rusage ru;
    long rss_mib = getrusage(r->sup ? RUSAGE_CHILDREN : RUSAGE_SELF, &ru) == 0
                       ? ru.ru_maxrss / 1024
                       : -1;
    fprintf(r->s->log,
            "#%llu %s: %.0f cases/s, corpus %zu, signatures %zu, novelty %.4f, "
            "features %zu, findings %zu, peak rss %ld MiB\n",
            (unsigned long long)k, r->t->name, rate, r->corpus.count, r->nov.count,
            k ? (double)r->o->kept / (double)k : 0.0, r->features.count, r->o->nfindings,
            rss_mib);
}

/* Runs the supervisor until `done` says so or no executor is left. */
static void supervise_while(run *r, int (*more)(const run *r))
{
    while (fgi_sup_running(r->sup) && more(r)) {
        fgi_sup_step(r->sup);
        int timed_out = r->s->opt.seconds && now_s() - r->start >= (double)r->s->opt.seconds;
        if ((interrupted || timed_out || r->err != FG_OK) && !r->sup_stopping) {
            r->sup_stopping = 1;
            fgi_sup_stop(r->sup);
        }
        if (r->s->opt.seconds && now_s() - r->last_status >= STATUS_EVERY_S)
            status_line(r, r->jobs > 1 ? r->reached : fgi_sup_slot(r->sup, 0)->pos);
    }
}

static int always(const run *r)
{
    (void)r;
    return 1;
}

static int epoch_open(const run *r)
{
    return r->epoch_done < r->jobs;
}

/* Sends the epoch's records, sorted, to every running executor, then its end. */
static void broadcast_epoch(run *r, uint64_t end)
{
    fgi_epoch_sort(&r->log);
    fgi_str b = {0};
    for (unsigned j = 0; j < r->jobs; j++) {
        if (!fgi_sup_is_running(r->sup, j))
            continue;
        fg_error e = FG_OK;
        for (size_t i = 0; i < r->log.ncands && e == FG_OK; i++) {
            b.len = 0;
            e = fgi_epoch_encode_cand(&b, &r->log.cands[i]) != 0
                    ? FG_ENOMEM
                    : fgi_sup_send(r->sup, j, FGI_MSG_CAND, b.buf, b.len);
        }
        for (size_t i = 0; i < r->log.nhits && e == FG_OK; i++) {
            b.len = 0;
            e = fgi_epoch_encode_hits(&b, &r->log.hits[i]) != 0
                    ? FG_ENOMEM
                    : fgi_sup_send(r->sup, j, FGI_MSG_HITS, b.buf, b.len);
        }
        if (e == FG_OK)
            e = fgi_sup_send(r->sup, j, FGI_MSG_EPOCH, &end, sizeof end);
        if (e == FG_ENOMEM)
            note_error(r, e);
        /* FG_EIO: the executor died meanwhile; its death is handled as any other. */
    }
    fgi_str_free(&b);
}

static void supervise(run *r)
{
    const fgi_sup_ops ops = {r, executor_main, executor_message, executor_died};
    if (!(r->sup = fgi_sup_new(r->jobs, r->slot_cap, r->time_ms, r->s->opt.rss_limit_mb,
                               &ops)))
        return note_error(r, FG_ENOMEM);
    /* A write to an executor that has just died must not kill the supervisor. */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    if (r->jobs == 1) {
        fgi_sup_batch(r->sup, 1000); /* nobody waits on the supervisor: read in batches */
        start_executor(r, 0, 0);
        supervise_while(r, always);
    } else {
        /* Long-lived executors, one chunk in `jobs` each: at an epoch's end each waits for
         * the merged records, and one that died is started afresh at the next epoch. */
        for (unsigned j = 0; j < r->jobs && r->err == FG_OK; j++)
            start_executor(r, j, 0);
        uint64_t seq = 0;
        while (seq < r->total && r->err == FG_OK) {
            uint64_t ee = epoch_end(r, seq);
            r->epoch_done = 0;
            supervise_while(r, epoch_open);
            if (r->sup_stopping || r->err != FG_OK || ee >= r->total) {
                merge_epoch(r);
                break;
            }
            broadcast_epoch(r, ee);
            merge_epoch(r);
            for (unsigned j = 0; j < r->jobs && r->err == FG_OK; j++)
                if (!fgi_sup_is_running(r->sup, j))
                    start_executor(r, j, ee);
            seq = ee;
        }
        for (unsigned j = 0; j < r->jobs; j++)
            fgi_sup_close_cmd(r->sup, j); /* the run is over: they say goodbye */
        supervise_while(r, always);
    }
    sigaction(SIGPIPE, &old, NULL);
    fgi_sup_free(r->sup);
    r->sup = NULL;
}

/* ---- a run -------------------------------------------------------------------------- */

static fg_error add_item(run *r, char *origin, uint8_t *data, size_t size, int always)
{
    item *v = fgi_realloc(r->items, (r->nitems + 1) * sizeof *v);
    if (!v || !origin) {
        fgi_free(origin);
        fgi_free(data);
        if (v)
            r->items = v;
        return FG_ENOMEM;
    }
    r->items = v;
    r->items[r->nitems++] = (item){origin, data, size, always};
    return FG_OK;
}

/* Adds every file of dir (sorted) as a replay item; a missing directory adds nothing. */
static fg_error add_dir_items(run *r, const char *dir)
{
    fgi_names names;
    int missing = 0;
    fg_error e = fgi_dir_list(dir, &names, &missing);
    if (e != FG_OK) {
        fprintf(r->s->log, "fuzzgate: %s: cannot read corpus directory %s\n", r->t->name, dir);
        return e;
    }
    for (size_t i = 0; i < names.count && e == FG_OK; i++) {
        fgi_str path = {0};
        fgi_str_addf(&path, "%s/%s", dir, names.names[i]);
        uint8_t *data = NULL;
        size_t size = 0;
        e = path.failed ? FG_ENOMEM : fgi_file_read(path.buf, (size_t)64 << 20, &data, &size);
        if (e != FG_OK)
            fprintf(r->s->log, "fuzzgate: %s: cannot read %s: %s\n", r->t->name,
                    fgi_str_cstr(&path), fg_strerror(e));
        else
            e = add_item(r, fgi_str_take(&path), data, size, 0);
        fgi_str_free(&path);
    }
    fgi_names_free(&names);
    return e;
}

/* The same for <root>/<target>. */
static fg_error add_target_items(run *r, const char *root)
{
    fgi_str dir = {0};
    fgi_str_addf(&dir, "%s/%s", root, r->t->name);
    fg_error e = dir.failed ? FG_ENOMEM : add_dir_items(r, dir.buf);
    fgi_str_free(&dir);
    return e;
}

static fg_error add_seed_items(run *r)
{
    if (!r->t->seed)
        return FG_OK;
    fg_seeds seeds = {0};
    r->t->seed(&seeds);
    fg_error e = seeds.failed ? FG_ENOMEM : FG_OK;
    for (size_t i = 0; i < seeds.count && e == FG_OK; i++) {
        char origin[64];
        snprintf(origin, sizeof origin, "seed #%zu", i);
        uint8_t *copy = fgi_memdup(seeds.items[i].data, seeds.items[i].size ? seeds.items[i].size : 1);
        e = copy ? add_item(r, fgi_strdup(origin), copy, seeds.items[i].size, 0) : FG_ENOMEM;
    }
    fgi_seeds_free(&seeds);
    return e;
}

static fg_error run_open(run *r, fg_session *s, const fg_target *t)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    r->t = t;
    r->msg_fd = r->cmd_fd = -1;
    r->jobs = s->opt.fork ? (unsigned)s->opt.jobs : 1;
    r->max_len = s->opt.max_len ? (size_t)s->opt.max_len
                 : t->max_len   ? t->max_len
                                : FGI_DEFAULT_MAX_LEN;
    r->name_hash = fgi_hash_str(t->name);
    r->time_ms = s->opt.timeout_ms ? (unsigned)FGI_MIN(s->opt.timeout_ms, 1u << 30)
                 : t->time_ms      ? t->time_ms
                                   : FGI_DEFAULT_TIME_MS;
    r->start = r->last_status = now_s();
    fgi_novelty_init(&r->nov);
    fgi_novelty_init(&r->features);
    fgi_novelty_init(&r->dsig);
    fgi_novelty_init(&r->dfeat);
    fgi_novelty_init(&r->sent);
    fgi_corpus_init(&r->corpus);
    fgi_sched_init(&r->sched, r->max_len);
    r->corpus.features = &r->features;
    if (!(r->o = fgi_outcome_new(t->name)))
        return FG_ENOMEM;
    r->own_work = fgi_malloc(r->max_len);
    r->scratch = fgi_malloc(r->max_len);
    if (!r->own_work || !r->scratch)
        return FG_ENOMEM;
    r->work = r->own_work;
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
    return FG_OK;
}

/* Sizes the slot for the largest input and counts the run's positions. */
static void run_plan(run *r, uint64_t cases)
{
    r->slot_cap = r->max_len;
    for (size_t i = 0; i < r->nitems; i++)
        r->slot_cap = FGI_MAX(r->slot_cap, r->items[i].size);
    r->total = r->s->opt.seconds ? UINT64_MAX : r->nitems + cases;
    if (!(r->evals = fgi_calloc(r->nitems ? r->nitems : 1, sizeof *r->evals)))
        note_error(r, FG_ENOMEM);
}

/* Runs the planned positions: supervised, or here. */
static void run_all(run *r)
{
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    if (r->s->opt.fork) {
        supervise(r);
    } else {
        fg_error e = executor_open(r);
        if (e != FG_OK)
            note_error(r, e);
        else
            execute(r, 0, 0);
        executor_close(r);
    }
    /* Restore the host's handlers, unless one of ours has already given way to the default
     * (an interrupt came: the caller sees fgi_session_interrupted and stops). */
    if (!interrupted) {
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

/* Closes what run_open opened; hands the outcome to *out on success. */
static fg_error run_close(run *r, fg_error e, fg_outcome **out, int watch)
{
    if (r->o) {
        r->o->slow = r->slow;
        r->o->slowest_ms = r->slowest_ms;
        r->o->cases = r->reached > r->nitems ? r->reached - r->nitems : 0;
        r->o->replayed = r->reached < r->nitems ? r->reached : r->nitems;
        r->o->corpus = r->corpus.count;
        r->o->signatures = r->nov.count;
        r->o->features = r->features.count;
        r->o->timed = r->s->opt.seconds != 0;
        r->o->seconds = now_s() - r->start;
        fgi_outcome_sample_end(r->o); /* report series: the run's last point */
        fgi_outcome_sort(r->o);
        if (watch && e == FG_OK && r->err == FG_OK)
            saturation_watch(r);
    }
    if (r->slow)
        fprintf(r->s->log, "fuzzgate: %s: %lu slow case%s (the slowest ran %u+ ms)\n",
                r->t->name, r->slow, r->slow == 1 ? "" : "s", r->slowest_ms);
    fgi_novelty_free(&r->nov);
    fgi_novelty_free(&r->features);
    fgi_novelty_free(&r->dsig);
    fgi_novelty_free(&r->dfeat);
    fgi_novelty_free(&r->sent);
    fgi_corpus_free(&r->corpus);
    fgi_sched_free(&r->sched);
    fgi_epoch_clear(&r->log);
    fgi_free(r->log.cands);
    fgi_free(r->log.hits);
    fgi_known_free(&r->known);
    for (size_t i = 0; i < r->nitems; i++) {
        fgi_free(r->items[i].origin);
        fgi_free(r->items[i].data);
        if (r->evals)
            fgi_free(r->evals[i].keys);
    }
    fgi_free(r->evals);
    fgi_free(r->items);
    fgi_free(r->ckeys);
    fgi_free(r->own_work);
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

static fg_error replay_bytes(fg_session *s, const fg_target *t, const char *origin,
                             const uint8_t *data, size_t size, int probe, fg_outcome **out);
static void minimize_findings(fg_session *s, const fg_target *t, fg_outcome *o);
static void report_would_drop(run *r);

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
    run r;
    fg_error e = run_open(&r, s, t);
    if (e == FG_OK)
        e = add_target_items(&r, s->opt.corpus);
    r.ncommitted = r.nitems;
    if (e == FG_OK && s->opt.corpus_out && *s->opt.corpus_out)
        e = add_target_items(&r, s->opt.corpus_out);
    if (e == FG_OK)
        e = add_seed_items(&r);
    if (e == FG_OK)
        e = add_item(&r, fgi_strdup("empty input"), NULL, 0, 1);
    if (e == FG_OK) {
        run_plan(&r, s->opt.cases);
        run_all(&r);
        if (s->opt.seconds)
            status_line(&r, r.reached);
        report_would_drop(&r);
    }
    e = run_close(&r, e, out, 1);
    if (e == FG_OK && s->opt.seconds && !interrupted)
        minimize_findings(s, t, *out);
    if (e == FG_OK)
        fgi_report_add(s, *out);
    return e;
}

/* Runs one input (owned by the caller) as a run of its own: a replay, or a trial. */
static fg_error replay_bytes(fg_session *s, const fg_target *t, const char *origin,
                             const uint8_t *data, size_t size, int probe, fg_outcome **out)
{
    if (t->skip || !t->run)
        return FG_EINVAL;
    run r;
    fg_error e = run_open(&r, s, t);
    uint8_t *copy = fgi_memdup(data, size ? size : 1);
    if (e == FG_OK)
        e = copy ? add_item(&r, fgi_strdup(origin), copy, size, 0) : FG_ENOMEM;
    else
        fgi_free(copy);
    if (e == FG_OK) {
        r.probe = probe;
        run_plan(&r, 0);
        r.total = 1; /* the input alone, even in a timed session */
        int fork = s->opt.fork;
        if (probe)
            s->opt.fork = 1; /* a trial may crash: it must not take the caller with it */
        run_all(&r);
        s->opt.fork = fork;
        r.o->last_sig = r.corpus.count ? r.corpus.entries[0].sig : 0;
    }
    return run_close(&r, e, out, 0);
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
    e = replay_bytes(s, t, path, data, size, 0, out);
    fgi_free(data);
    return e;
}

/* ---- minimisation and merge ------------------------------------------------------- */

typedef struct min_ctx {
    fg_session *s;
    const fg_target *t;
    const char *want; /* the class the input must stay in */
    fg_error err;
} min_ctx;

/* The class id of data's first finding into id ("" when it passes); a trial in a fresh
 * executor, so a crash is a class like any other. */
static fg_error probe_class(fg_session *s, const fg_target *t, const uint8_t *data,
                            size_t size, char id[FGI_CLASS_ID_MAX])
{
    fg_outcome *o = NULL;
    fg_error e = replay_bytes(s, t, "trial", data, size, 1, &o);
    id[0] = '\0';
    if (e == FG_OK && o->nfindings)
        snprintf(id, FGI_CLASS_ID_MAX, "%s", o->findings[0].class_id);
    fg_outcome_free(o);
    return e;
}

static int min_reproduces(void *ctx, const uint8_t *data, size_t size)
{
    min_ctx *m = ctx;
    char id[FGI_CLASS_ID_MAX];
    fg_error e = probe_class(m->s, m->t, data, size, id);
    if (e != FG_OK) {
        m->err = e;
        return -1;
    }
    return strcmp(id, m->want) == 0;
}

/* Minimises data within class_id; res->data is the result (the input itself at worst). */
static fg_error minimize_in_class(fg_session *s, const fg_target *t, const uint8_t *data,
                                  size_t size, const char *class_id, fgi_min_result *res)
{
    min_ctx m = {s, t, class_id, FG_OK};
    FILE *log = s->log;
    fg_error e = fgi_minimize(data, size, s->opt.min_trials, min_reproduces, &m, res);
    s->log = log;
    return e != FG_OK ? e : m.err;
}

int fgi_session_minimize(fg_session *s, const fg_target *t, const char *path, FILE *out)
{
    uint8_t *data;
    size_t size;
    fg_error e = fgi_file_read(path, (size_t)64 << 20, &data, &size);
    if (e != FG_OK) {
        fprintf(out, "%s: cannot read: %s\n", path, fg_strerror(e));
        return 2;
    }
    char id[FGI_CLASS_ID_MAX];
    if ((e = probe_class(s, t, data, size, id)) != FG_OK || !id[0]) {
        if (e != FG_OK)
            fprintf(out, "%s: cannot run: %s\n", path, fg_strerror(e));
        else
            fprintf(out, "%s: passes every oracle: nothing to minimise\n", path);
        fgi_free(data);
        return e != FG_OK ? 2 : 1;
    }
    fgi_min_result res = {0};
    e = minimize_in_class(s, t, data, size, id, &res);
    int status = 2;
    if (e == FG_OK) {
        /* A run of the result stores it under its class, as any finding is stored. */
        char origin[4200];
        snprintf(origin, sizeof origin, "%s, minimised", path);
        fg_outcome *o = NULL;
        e = replay_bytes(s, t, origin, res.data, res.size, 0, &o);
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
    fgi_free(res.data);
    fgi_free(data);
    return status;
}

/* Depth runs: each new class is minimised, stored again and its outcome entry updated. */
static void minimize_findings(fg_session *s, const fg_target *t, fg_outcome *o)
{
    for (size_t i = 0; i < o->nfindings && s->opt.min_trials; i++) {
        fg_finding *f = &o->findings[i];
        if (f->known || f->size == 0)
            continue;
        fgi_min_result res = {0};
        if (minimize_in_class(s, t, f->data, f->size, f->class_id, &res) != FG_OK ||
            res.size >= f->size) {
            fgi_free(res.data);
            continue;
        }
        char origin[512];
        snprintf(origin, sizeof origin, "%s, minimised from %zu bytes", f->origin, f->size);
        fg_outcome *m = NULL;
        const fg_finding *g = NULL;
        if (replay_bytes(s, t, origin, res.data, res.size, 0, &m) == FG_OK &&
            (g = fg_outcome_finding(m, 0)) != NULL && strcmp(g->class_id, f->class_id) == 0) {
            fgi_finding_rec rec = {.detail = g->detail, .data = res.data, .size = res.size,
                                   .origin = origin, .mutations = ""};
            size_t was = f->size;
            if (fgi_outcome_set_input(f, &rec) == 0) /* else the unminimised input stays */
                fprintf(s->log,
                        "fuzzgate: %s: %s minimised from %zu to %zu bytes in %lu trials\n",
                        t->name, f->class_id, was, res.size, res.trials);
        }
        fg_outcome_free(m);
        fgi_free(res.data);
    }
}

/* The merge view of items [from, to) that ran and passed; pinned below `pinned`. */
static size_t merge_view(const run *r, size_t from, size_t to, size_t pinned,
                         fgi_merge_input *in, size_t *which)
{
    size_t n = 0;
    for (size_t i = from; i < to; i++) {
        if (!r->evals[i].ran)
            continue;
        const char *slash = strrchr(r->items[i].origin, '/');
        in[n] = (fgi_merge_input){slash ? slash + 1 : r->items[i].origin, r->items[i].size,
                                  r->evals[i].sig, r->evals[i].keys, r->evals[i].nkeys,
                                  i < pinned};
        which[n++] = i;
    }
    return n;
}

/* After a gate run: which committed files a merge of the committed corpus would drop. */
static void report_would_drop(run *r)
{
    size_t n = r->ncommitted;
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

int fgi_session_merge(fg_session *s, const fg_target *t, const char *out_dir, int ndirs,
                      char **dirs, FILE *out)
{
    run r;
    fg_error e = run_open(&r, s, t);
    if (e == FG_OK)
        e = add_dir_items(&r, out_dir);
    size_t pinned = r.nitems;
    for (int i = 0; i < ndirs && e == FG_OK; i++)
        e = add_dir_items(&r, dirs[i]);
    size_t nkept = 0, fresh = 0, failing = 0, total = r.nitems;
    if (e == FG_OK) {
        r.probe = 1;
        run_plan(&r, 0);
        run_all(&r);
        fgi_merge_input *in = fgi_calloc(total ? total : 1, sizeof *in);
        size_t *which = fgi_calloc(total ? total : 1, sizeof *which);
        size_t *kept = fgi_calloc(total ? total : 1, sizeof *kept);
        size_t m = in && which && kept ? merge_view(&r, 0, total, pinned, in, which) : 0;
        failing = total - m;
        if (!in || !which || !kept)
            e = FG_ENOMEM;
        else if (m && (e = fgi_merge(in, m, FGI_MERGE_COVER, kept, &nkept)) == FG_OK) {
            for (size_t k = 0; k < nkept && e == FG_OK; k++) {
                const item *it = &r.items[which[kept[k]]];
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
    e = run_close(&r, e, &o, 0);
    if (e != FG_OK) {
        fprintf(out, "merge: %s\n", fg_strerror(e));
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
int fgi_session_check_known(fg_session *s, const fg_target *t, FILE *out)
{
    if (t->skip)
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
        if (probe_class(s, t, data, size, id) == FG_OK && strcmp(id, known.classes[i]) != 0) {
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
