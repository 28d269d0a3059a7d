/* engine/run/executor.c — the side of a run that runs cases: positions in chunks,
 * candidates and hit counts written as epoch records, and the epochs received. */
#include "engine/run/executor.h"

#include "engine/base/clock.h"
#include "engine/base/resident.h"
#include "engine/feedback/cmp.h"
#include "engine/feedback/coverage.h"
#include "engine/feedback/signals.h"
#include "engine/mutate/domain.h"
#include "engine/mutate/repair.h"
#include "engine/mutate/typed.h"
#include "engine/run/control.h"
#include "engine/run/plan.h"
#include "engine/run/record.h"
#include "engine/run/snapshot.h"
#include "oracle/crash.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- the executor side: running cases --------------------------------------------- */

_Static_assert(FGI_RUN_CHUNK < UINT8_MAX, "covcount.h counts a chunk's hits in a byte");
_Static_assert(FGI_MUT_STACK <= FGI_CASE_APPLIED, "a case's identity names every mutation");

/* Room for cap features in the case's buffers; 0, or -1 (the run's error set). */
static int feats_room(run *r, size_t cap)
{
    uint64_t *f = fgi_realloc(r->ex.feat, cap * sizeof *f);
    if (f)
        r->ex.feat = f;
    uint64_t *m = f ? fgi_realloc(r->ex.feat_mixed, cap * sizeof *m) : NULL;
    if (m)
        r->ex.feat_mixed = m;
    uint32_t *d = m ? fgi_realloc(r->ex.feat_dense, cap * sizeof *d) : NULL;
    if (d)
        r->ex.feat_dense = d;
    if (!d) {
        fgi_run_error(r, FG_ENOMEM);
        return -1;
    }
    r->ex.feat_cap = cap;
    return 0;
}

/* A feature as the tables take it: never 0 (their empty key). */
static inline uint64_t table_key(uint64_t feature)
{
    return feature ? feature : 1;
}

/* Collects one of the case's other features (comparisons, fg_feature), after its
 * coverage ones, and adds it to the case's feature hash; account_features does the rest
 * once all are in. */
static void collect_feature(void *ctx, uint64_t feature)
{
    run *r = ctx;
    if (r->ex.nfeat == r->ex.feat_cap &&
        feats_room(r, r->ex.feat_cap ? 2 * r->ex.feat_cap : 256) != 0)
        return;
    uint64_t f = table_key(feature), mixed = fg_mix64(f); /* its hash term, its slot hash */
    r->ex.feat[r->ex.nfeat] = f;
    r->ex.feat_mixed[r->ex.nfeat++] = mixed;
    r->ex.fhash += mixed;
}

/* Collects the case's coverage features (engine/feedback/coverage.h) with their dense
 * indices, into the buffers in one pass when they fit (the common case); then, in one
 * loop over them, adds each to the case's feature hash, counts its hit for the chunk
 * (covcount.h) and keeps in the buffers only those account_features must look up: none
 * for a blocked case; for a replayed one all; else those whose known bit is clear (most
 * of a case's coverage is known, and is done with here). */
static void collect_coverage(run *r)
{
    size_t n = fgi_cov_features(r->ex.feat, r->ex.feat_dense, r->ex.feat_cap);
    if (n > r->ex.feat_cap) {
        /* Room to spare: a thread the case left running may hit an edge in between. */
        if (feats_room(r, FGI_MAX(2 * r->ex.feat_cap, n + n / 4 + 64)) != 0)
            return;
        n = fgi_cov_features(r->ex.feat, r->ex.feat_dense, r->ex.feat_cap);
        n = FGI_MIN(n, r->ex.feat_cap); /* and never past the buffers */
    }
    if (fgi_covcount_reserve(&r->ex.cc, fgi_cov_dense_size()) != 0 ||
        fgi_covcount_room(&r->ex.cc, n) != 0)
        return fgi_run_error(r, FG_ENOMEM);
    fgi_covcount *cc = &r->ex.cc;
    uint64_t *feat = r->ex.feat, fhash = 0;
    uint32_t *dense = r->ex.feat_dense;
    size_t kept = 0;
    int blocked = r->ex.blocked, full = r->ex.full;
    for (size_t i = 0; i < n; i++) {
        uint64_t f = table_key(feat[i]);
        uint32_t d = dense[i];
        fhash += fg_mix64(f);
        fgi_covcount_hit(cc, d, f);
        if (!blocked && (full || !fgi_covcount_known(cc, d))) {
            feat[kept] = f; /* kept <= i: in place */
            dense[kept++] = d;
        }
    }
    r->ex.nfeat = r->ex.ncov = kept;
    r->ex.fhash = fhash;
}

/* A feature of an unblocked case that may be news: kept as a candidate key when neither
 * the snapshot has it nor this executor sent it this epoch (a replayed case sends every
 * feature). d: its dense index, whose known bit is set once either is so; -1 for a
 * feature without one. */
static void account_news(run *r, uint64_t feature, uint64_t mixed, long d)
{
    if (!r->ex.full) {
        if (fgi_novelty_has_mixed(&r->snap.features, feature, mixed)) {
            if (d >= 0)
                (void)fgi_covcount_mark(&r->ex.cc, (uint32_t)d, 0); /* on failure: a lookup */
            return;
        }
        int rc = fgi_novelty_bump_mixed(&r->ex.sent, feature, mixed, 0);
        if (rc < 0)
            return fgi_run_error(r, FG_ENOMEM);
        if (d >= 0)
            (void)fgi_covcount_mark(&r->ex.cc, (uint32_t)d, 1);
        if (!rc)
            return;
    }
    if (r->ex.nckeys == r->ex.ckeys_cap) {
        size_t cap = r->ex.ckeys_cap ? 2 * r->ex.ckeys_cap : 64;
        uint64_t *k = fgi_realloc(r->ex.ckeys, cap * sizeof *k);
        if (!k)
            return fgi_run_error(r, FG_ENOMEM);
        r->ex.ckeys = k;
        r->ex.ckeys_cap = cap;
    }
    r->ex.ckeys[r->ex.nckeys++] = feature;
}

/* The case's collected features after collect_coverage's loop: the other features' hits
 * counted in the hit-count table; then, unless the case is blocked, each looked up for
 * news (the coverage ones left are those whose known bit was clear). */
static void account_features(run *r)
{
    const uint64_t *feat = r->ex.feat, *mixed = r->ex.feat_mixed;
    const uint32_t *dense = r->ex.feat_dense;
    size_t n = r->ex.nfeat, ncov = r->ex.ncov;
    for (size_t i = ncov; i < n; i++)
        if (fgi_novelty_bump_mixed(&r->ex.dfeat, feat[i], mixed[i], 1) < 0)
            return fgi_run_error(r, FG_ENOMEM);
    if (r->ex.blocked)
        return;
    for (size_t i = 0; i < n && r->err == FG_OK; i++)
        account_news(r, feat[i], i < ncov ? fg_mix64(feat[i]) : mixed[i],
                     i < ncov ? (long)dense[i] : -1);
}

/* A record of this executor's cases: into the epoch log here, or sent to the supervisor
 * (which, with several executors, sends every executor's back at the epoch's end). */
static void emit_record(run *r, fgi_cand *c, fgi_hits *h)
{
    if (r->side == FGI_SIDE_EXECUTOR) {
        fg_error e = c ? fgi_wire_put_cand(r->ex.link, c) : fgi_wire_put_hits(r->ex.link, h);
        if (e != FG_OK)
            fgi_run_error(r, e);
        if (r->plan.jobs > 1) {
            if (c)
                fgi_epoch_free_cand(c);
            else
                fgi_epoch_free_hits(h);
            return;
        }
    }
    if ((c ? fgi_epoch_add_cand(&r->snap.log, c) : fgi_epoch_add_hits(&r->snap.log, h)) != 0)
        fgi_run_error(r, FG_ENOMEM);
}

/* 1 + the corpus entry the case was mutated from (r->ex.base, SIZE_MAX for none), or 0:
 * a replayed input (origin) or no base. */
static uint64_t cand_base(const run *r, const char *origin)
{
    return origin ? 0 : (uint64_t)(r->ex.base + 1); /* SIZE_MAX + 1 wraps to 0 */
}

/* A passing case: counts its hits, and writes a candidate when it brought something the
 * snapshot did not have (and this executor has not sent this epoch). */
static void note_case(run *r, uint64_t seq, const uint8_t *data, size_t size, int always,
                      unsigned long mark, unsigned long smark, unsigned long work)
{
    r->ex.nckeys = 0;
    r->ex.nfeat = r->ex.ncov = 0;
    r->ex.fhash = 0;
    /* A rejected case (fg_reject, libFuzzer's -1) is not the target's behaviour, and none
     * of it is counted, as libFuzzer drops such a run's coverage: counted, its signature
     * and features would be known to the snapshot with no entry behind them, and an
     * accepted input doing the same later would never be kept. */
    if (r->ex.res.rejected && !always)
        return;
    const char *origin = fgi_plan_origin(r, seq);
    uint64_t sig = r->ex.res.sig;
    r->ex.blocked = !always && !origin && r->t->unguided;
    r->ex.full = origin != NULL;
    int force = always || (origin && sig == 0);
    int fresh = 0, known = 1;
    if (sig) {
        uint64_t mixed = fg_mix64(sig); /* one hash for the three sets */
        if (fgi_novelty_bump_mixed(&r->ex.dsig, sig, mixed, 1) < 0)
            return fgi_run_error(r, FG_ENOMEM);
        if (!r->ex.blocked && !(known = fgi_novelty_has_mixed(&r->snap.nov, sig, mixed))) {
            int rc = fgi_novelty_bump_mixed(&r->ex.sent, sig, mixed, 0);
            if (rc < 0)
                return fgi_run_error(r, FG_ENOMEM);
            fresh = rc;
        }
    }
    if (fgi_cov_enabled())
        collect_coverage(r);
    else /* a plain build: comparisons against constants it had not met (cmp.h) */
        fgi_cmp_constants(data, size, mark, smark, collect_feature, r);
    fgi_signals_each(collect_feature, r); /* fg_feature, fg_maximize */
    fgi_cov_stack_feature(collect_feature, r);
    if (r->err != FG_OK)
        return;
    account_features(r);
    if (r->err != FG_OK)
        return;
    /* A shorter input doing what an entry did replaces it (schedule.h). Not looked for
     * when the case did what its base did and is no shorter (the common case, kept
     * cheap); the test is the case's own, so which executor ran it (and what that one
     * sent before) decides nothing. */
    const fgi_entry *base = r->ex.full || r->ex.base >= r->snap.corpus.count
                                ? NULL
                                : &r->snap.corpus.entries[r->ex.base];
    int shorter = 0;
    uint64_t fh = r->ex.fhash;
    if ((sig || fh) && !r->ex.blocked && base && !force &&
        (sig ? !known || sig != base->sig || size < base->size
             : fh != base->fhash || size < base->size) &&
        (shorter = fgi_sched_shorter(&r->snap.sched, &r->snap.corpus, sig, fh, size, fresh,
                                     (long)r->ex.base)) < 0)
        return fgi_run_error(r, FG_ENOMEM);
    if (!(force || fresh || shorter || r->ex.nckeys || (r->ex.full && !r->ex.blocked)))
        return;
    /* Its work (cmp.h) only where compiler coverage counts it: a plain build's interposed
     * comparisons are the compiler's choice (gcc and clang inline different ones). */
    uint32_t cost = !fgi_cov_enabled() ? 0 : work > UINT32_MAX ? UINT32_MAX : (uint32_t)work;
    fgi_cand c = {.seq = seq, .sig = sig, .force = force, .size = size, .fhash = r->ex.fhash,
                  .base = cand_base(r, origin), .work = cost};
    c.data = fgi_malloc(size ? size : 1);
    c.keys = r->ex.nckeys ? fgi_memdup(r->ex.ckeys, r->ex.nckeys * sizeof *r->ex.ckeys) : NULL;
    size_t nreads;
    const fgi_read *reads = fgi_reads_get(&nreads); /* the record travels with the input */
    if (!fgi_reads_valid(reads, nreads, size)) /* as the supervisor's decoder would judge */
        nreads = 0;
    c.reads = nreads ? fgi_memdup(reads, nreads * sizeof *reads) : NULL;
    c.nreads = (uint32_t)nreads;
    if (!c.data || (r->ex.nckeys && !c.keys) || (nreads && !c.reads)) {
        fgi_free(c.data);
        fgi_free(c.keys);
        fgi_free(c.reads);
        return fgi_run_error(r, FG_ENOMEM);
    }
    if (size)
        memcpy(c.data, data, size);
    c.nkeys = (uint32_t)r->ex.nckeys;
    c.ncmps = (uint32_t)fgi_cmp_case_pairs(data, size, mark, c.cmps, FGI_CAND_CMPS);
    c.nstrs = (uint32_t)fgi_cmp_strs_since(smark, c.strs, FGI_CAND_STRS);
    emit_record(r, &c, NULL);
}

/* Generated case seq, mutated from entry base - 1 (cand_base; 0: none, no note), ran out
 * of its time or work and the executor lives on (the work budget unwound it): a note for
 * the merge, in the epoch's records as a candidate is, so every process counts it at the
 * same point. A bred input that hangs costs its whole budget each time (~1 s on
 * instrumented code, a hundred thousand cases), and its base is likely to breed it again. */
static void note_hang(run *r, uint64_t seq, uint64_t base)
{
    if (!base)
        return;
    fgi_cand c = {.seq = seq, .base = base, .hang = 1};
    c.data = fgi_malloc(1);
    if (!c.data)
        return fgi_run_error(r, FG_ENOMEM);
    emit_record(r, &c, NULL);
}

/* The case (res) ended as an `oom` finding (oracle/rss.h): the process is past its
 * memory limit and keeps what it holds, so no more cases run in it. An executor tells its
 * supervisor as a dying case does and ends: the supervisor records the finding from the
 * slot, which holds this input, and forks a fresh executor at the next position. A run in
 * this process records it and stops, as libFuzzer ends at its limit. 1 when res is one. */
static int past_memory_limit(run *r, const fgi_case_result *res, const uint8_t *data,
                             size_t size, const fgi_case_id *id)
{
    if (res->status == FGI_CASE_OK || strcmp(res->kind, "oom") != 0)
        return 0;
    if (r->side == FGI_SIDE_EXECUTOR) {
        fgi_dying d;
        memset(&d, 0, sizeof d);
        memcpy(d.kind, "oom", 4);
        memcpy(d.what, res->detail, strnlen(res->detail, sizeof d.what - 1));
        fgi_wire_say_dying(r->ex.link->msg_fd, &d);
        _exit(1); /* no goodbye: the supervisor takes the death for the finding */
    }
    r->ex.res = *res;
    fgi_record_emit(r, data, size, id->seq, id->case_index, id->applied, id->napplied);
    r->ex.over_limit = 1;
    return 1;
}

/* Runs the input at position seq. */
static void run_input(run *r, uint64_t seq, const uint8_t *data, size_t size, int always)
{
    int64_t k = seq < r->plan.nitems ? -1 : (int64_t)(seq - r->plan.nitems);
    const char *origin = fgi_plan_origin(r, seq);
    fgi_case_id id = {.seq = seq, .case_index = k, .origin = origin,
                      .napplied = origin ? 0 : r->ex.mut.napplied};
    if (id.napplied)
        memcpy(id.applied, r->ex.mut.applied, id.napplied);
    fgi_harness_origin(&r->ex.exec, &id);
    unsigned long mark = fgi_cmp_begin(), smark = fgi_cmp_mark_strs(), work = fgi_cmp_work();
    fgi_harness_run(&r->ex.exec, data, size, &r->ex.res);
    /* A generated case whose own comparisons show a checksum it broke runs again with the
     * field repaired (engine/mutate/repair.c), once: the repaired input is the case. */
    if (k >= 0 && r->ex.res.status == FGI_CASE_OK &&
        fgi_repair_case(r->ex.work, size, mark, smark)) {
        FG_ASSERT(data == r->ex.work);
        mark = fgi_cmp_begin();
        smark = fgi_cmp_mark_strs();
        work = fgi_cmp_work();
        fgi_harness_run(&r->ex.exec, data, size, &r->ex.res);
    }
    if (r->ex.res.status != FGI_CASE_OK) {
        if (!past_memory_limit(r, &r->ex.res, data, size, &id))
            fgi_record_emit(r, data, size, seq, k, id.applied, id.napplied);
        if (k >= 0 && strcmp(r->ex.res.kind, "timeout") == 0)
            note_hang(r, seq, cand_base(r, origin));
        return;
    }
    note_case(r, seq, data, size, always, mark, smark, fgi_cmp_work() - work);
    if (fgi_fdwatch_note(&r->ex.fds, data, size, &id) < 0)
        fgi_run_error(r, FG_ENOMEM);
}

/* A base the target read with fg_reader: 3 cases in 4 get read-aware edits
 * (engine/mutate/typed.h), the rest (and those no edit applies to) byte havoc, which still
 * makes what no read asks for. Only bases with a read record draw here, so a target that
 * never reads this way gets the stream it always got. The read-aware edits may double the
 * base (room for a run of operations copied whole): the plain search's length limit
 * (schedule.h) grows a few bytes an epoch, which keeps byte havoc short, but would hold a
 * sequence of calls to a few more calls an epoch. */
static size_t typed_or_bytes(run *r, const fgi_entry *base, const fgi_entry *other,
                             size_t size, size_t room)
{
    fgi_mut *m = &r->ex.mut;
    if (fgi_rng_chance(&r->ex.rng, 3, 4)) {
        size_t grow = FGI_MIN(r->plan.max_len, FGI_MAX(room, 2 * size + 8)); /* 8: a call */
        size_t n = fgi_typed_mutate(m, base->reads, base->nreads, other->reads, other->nreads,
                                    r->ex.work, size, grow);
        if (n != FGI_MUT_SKIP)
            return n;
    }
    m->step = NULL;
    return fgi_mutate(m, r->ex.work, size, room);
}

/* Builds and runs generated case k (position seq) from the snapshot. */
static void generate_one(run *r, uint64_t seq)
{
    FG_ASSERT(seq >= r->plan.nitems);
    if (r->snap.corpus.count == 0) {
        /* Every replayed input was a finding (a target failing on everything, a stuck
         * one past its work budget): nothing to mutate yet. The empty input again,
         * forced, made from no entry; kept as the first entry once it passes. */
        static const uint8_t nothing[1];
        r->ex.base = SIZE_MAX; /* the candidate's base, + 1: 0, none */
        r->ex.mut.napplied = 0;
        return run_input(r, seq, nothing, 0, 1);
    }
    uint64_t k = seq - r->plan.nitems;
    fgi_rng_case(&r->ex.rng, r->s->opt.seed, r->plan.name_hash, k);
    long pick = fgi_corpus_pick(&r->snap.corpus, &r->snap.nov, &r->ex.rng);
    if (pick < 0)
        return fgi_run_error(r, FG_ENOMEM);
    const fgi_entry *base = &r->snap.corpus.entries[pick];
    size_t o = fgi_rng_below(&r->ex.rng, r->snap.corpus.count);
    const fgi_entry *other = &r->snap.corpus.entries[o];
    size_t size = FGI_MIN(base->size, r->plan.max_len);
    size_t room = fgi_sched_room(&r->snap.sched, size, r->plan.max_len);
    memcpy(r->ex.work, base->data, size);
    r->ex.base = (size_t)pick;
    r->ex.mut.other = other->data;
    r->ex.mut.other_size = other->size;
    fgi_sched_lend(base, &r->ex.mut);
    r->ex.mut.guided = fgi_cov_enabled();
    if (r->t->domain && r->ex.mut.depth < 2) /* a domain's byte havoc blends, never alone */
        r->ex.mut.depth = 2;
    fgi_bytes_context(&r->ex.mut);
    if (r->t->domain) /* structured mutation blended with byte havoc (engine/mutate/domain.c) */
        size = fgi_domain_mutate(r->t->domain, &r->ex.mut, base->data, base->size, r->ex.work,
                                 size, r->plan.max_len, NULL);
    else if (base->nreads && r->s->opt.typed)
        size = typed_or_bytes(r, base, other, size, room);
    else
        size = fgi_mutate(&r->ex.mut, r->ex.work, size, room);
    fgi_bytes_context(NULL);
    run_input(r, seq, r->ex.work, size, 0);
}

static void run_position(run *r, uint64_t seq)
{
    FG_ASSERT(seq < r->plan.total);
    if (r->ex.slot)
        r->ex.slot->pos = seq;
    if (seq < r->plan.nitems) {
        static const uint8_t nothing[1];
        const fgi_item *it = &r->plan.items[seq];
        r->ex.mut.napplied = 0;
        run_input(r, seq, it->data ? it->data : nothing, it->size, it->always);
    } else {
        generate_one(r, seq);
    }
}

/* The chunk's hit counts of one kind as a record: the dense coverage counts (cc, for
 * features; NULL for signatures) in the order first hit, then table d's in slot order.
 * The snapshot sums them, so the order changes nothing. */
static void flush_hits(run *r, fgi_covcount *cc, fgi_novelty *d, int which)
{
    size_t n = d->count + (cc ? cc->ntouched : 0);
    if (!n)
        return;
    fgi_hits h = {.which = which, .n = 0};
    h.keys = fgi_malloc(n * sizeof *h.keys);
    h.counts = fgi_malloc(n * sizeof *h.counts);
    if (!h.keys || !h.counts) {
        fgi_free(h.keys);
        fgi_free(h.counts);
        return fgi_run_error(r, FG_ENOMEM);
    }
    h.n = cc ? fgi_covcount_drain(cc, h.keys, h.counts) : 0;
    h.n += fgi_novelty_drain(d, h.keys + h.n, h.counts + h.n);
    emit_record(r, NULL, &h);
}

/* A finding of a lone re-run of the window's input fs (res): recorded as that case's. */
static void window_finding(run *r, const fgi_fd_slot *fs, const fgi_case_result *res)
{
    if (past_memory_limit(r, res, fs->data, fs->size, &fs->id))
        return;
    r->ex.res = *res;
    fgi_record_emit(r, fs->data, fs->size, fs->id.seq, fs->id.case_index, fs->id.applied,
                    fs->id.napplied);
}

/* The end of a chunk (the window of oracle/fdwatch.h): the inputs whose heap blocks no
 * later case freed are re-run alone with the retention check, then the descriptor probe,
 * then its hit counts; a new window begins. */
static void chunk_done(run *r)
{
    /* The lone re-runs use their own result, so a case's stays intact. */
    static fgi_case_result res; /* run thread only; too big for the stack */
    uint8_t again[FGI_FD_WINDOW];
    fgi_fdwatch_heap_left(&r->ex.fds, again);
    fgi_harness_window(&r->ex.exec, 0);
    for (unsigned i = 0; i < r->ex.fds.count && r->err == FG_OK && !r->ex.over_limit; i++) {
        if (!again[i])
            continue;
        const fgi_fd_slot *fs = fgi_fdwatch_rerun(&r->ex.fds, &r->ex.exec, i, &res);
        if (res.status != FGI_CASE_OK)
            window_finding(r, fs, &res);
    }
    const fgi_fd_slot *fs = r->ex.over_limit ? NULL
                                             : fgi_fdwatch_check(&r->ex.fds, &r->ex.exec, &res);
    if (fs)
        window_finding(r, fs, &res);
    fgi_harness_window(&r->ex.exec, 1);
    flush_hits(r, NULL, &r->ex.dsig, FGI_HITS_SIG);
    flush_hits(r, &r->ex.cc, &r->ex.dfeat, FGI_HITS_FEATURE);
}

/* An executor of several: the merged epoch from the supervisor, into the log. 0 at end of
 * file (the run is over) or on an error (the run's error set). */
static int receive_epoch(run *r)
{
    fg_error e = FG_OK;
    int rc = fgi_wire_get_epoch(r->ex.link, &r->snap.log, &e);
    if (rc < 0)
        fgi_run_error(r, e);
    return rc > 0;
}

void fgi_executor_run(run *r, unsigned j, uint64_t from)
{
    uint64_t seq = from;
    while (seq < r->plan.total && r->err == FG_OK) {
        uint64_t es = fgi_plan_epoch_start(r, seq), ee = fgi_plan_epoch_end(r, seq), end = ee;
        int stop = 0;
        for (uint64_t cs = es, c = 0; cs < ee && !stop; cs += FGI_RUN_CHUNK, c++) {
            uint64_t ce = cs + FGI_RUN_CHUNK < ee ? cs + FGI_RUN_CHUNK : ee;
            if (c % r->plan.jobs != j || ce <= seq)
                continue;
            /* A halt (the run's end: an interrupt, its time, the supervisor) stops before
             * the next case, not at the chunk's end: a chunk of slow cases takes long; so
             * does a process past its memory limit (oracle/rss.h), at that case. */
            uint64_t q = cs > seq ? cs : seq;
            for (; q < ce && r->err == FG_OK && !*r->ex.halt && !r->ex.over_limit; q++)
                run_position(r, q);
            chunk_done(r);
            if (r->side == FGI_SIDE_ALONE && fgi_run_status_due(r))
                fgi_run_status(r, q);
            if (q < ce || fgi_run_should_stop(r) || r->ex.over_limit) {
                stop = 1;
                end = q;
            }
        }
        fgi_novelty_clear(&r->ex.sent);
        fgi_covcount_epoch_end(&r->ex.cc);
        /* After the epoch's records (their order is the merge's), taken now (wire.h) */
        if (r->side == FGI_SIDE_EXECUTOR) {
            fg_error e = fgi_wire_put_epoch(r->ex.link, end);
            if (e != FG_OK)
                fgi_run_error(r, e);
        }
        r->prog.reached = end;
        if (stop)
            return;
        /* With one executor its own records are the epoch's; with more, the supervisor
         * sends every executor's once all are in. Either way the same merge follows. */
        if (r->plan.jobs > 1 && !receive_epoch(r))
            return;
        fgi_snapshot_merge(r);
        seq = ee;
    }
}

fg_error fgi_executor_init(run *r)
{
    fgi_novelty_init_scratch(&r->ex.dsig);
    fgi_novelty_init_scratch(&r->ex.dfeat);
    fgi_novelty_init_scratch(&r->ex.sent);
    fgi_covcount_init(&r->ex.cc);
    r->ex.own_work = fgi_malloc(r->plan.max_len);
    r->ex.scratch = fgi_malloc(r->plan.max_len);
    if (!r->ex.own_work || !r->ex.scratch)
        return FG_ENOMEM;
    r->ex.work = r->ex.own_work;
    r->ex.mut.rng = &r->ex.rng;
    r->ex.mut.scratch = r->ex.scratch;
    r->ex.mut.dict = &r->s->dict;
    return FG_OK;
}

void fgi_executor_free(run *r)
{
    fgi_novelty_free(&r->ex.dsig);
    fgi_novelty_free(&r->ex.dfeat);
    fgi_novelty_free(&r->ex.sent);
    fgi_free(r->ex.ckeys);
    fgi_free(r->ex.feat);
    fgi_free(r->ex.feat_mixed);
    fgi_free(r->ex.feat_dense);
    fgi_covcount_free(&r->ex.cc);
    fgi_free(r->ex.own_work);
    fgi_free(r->ex.scratch);
    r->ex.ckeys = NULL;
    r->ex.feat = r->ex.feat_mixed = NULL;
    r->ex.feat_dense = NULL;
    r->ex.own_work = r->ex.scratch = r->ex.work = NULL;
}

/* A dying case's last words to the supervisor (oracle/crash.h). Signal-safe. */
static void send_dying(void *ctx, const fgi_dying *d, const char *ending)
{
    (void)ending; /* the supervisor says what became of the executor */
    fgi_wire_say_dying(((const fgi_wire_link *)ctx)->msg_fd, d);
}

/* Copies the input about to run into the executor's shared slot, so the supervisor still
 * has it if this case kills the process (the harness's channel, oracle/harness.h). */
static void publish(void *ctx, const fgi_case_id *id, const uint8_t *data, size_t size)
{
    fgi_slot *sl = ctx;
    if (size > sl->cap)
        size = sl->cap; /* cannot happen: the slot is sized for the largest input */
    if (data != sl->data && size)
        memcpy(sl->data, data, size);
    sl->size = size;
    sl->seq = id->seq;
    sl->case_index = id->case_index;
    sl->napplied = id->napplied;
    if (id->napplied)
        memcpy(sl->applied, id->applied, id->napplied);
}

fg_error fgi_executor_open(run *r)
{
    fg_error e = fgi_harness_open(&r->ex.exec, r->t);
    if (e != FG_OK)
        return e;
    r->ex.exec_open = 1;
    r->ex.exec.time_ms = r->plan.time_ms; /* -timeout/--timeout-ms over .time_ms: the budget */
    /* The memory limit holds here too (oracle/rss.h), supervised or not. In this process,
     * past it before any case, the memory is the host's or the engine's, not an input's:
     * an error naming the option, as the supervisor says before it forks. */
    uint64_t limit = fgi_mib_bytes(r->s->opt.rss_limit_mb);
    fgi_harness_rss_limit(&r->ex.exec, limit);
    uint64_t held = r->side == FGI_SIDE_ALONE && limit ? fgi_resident_bytes(0) : 0;
    if (held > limit) {
        fprintf(r->s->log, "fuzzgate: %s: this process holds %llu MiB before its first case, "
                "past the RSS limit of %llu MiB (raise --rss-limit-mb, or 0 for none)\n",
                r->t->name, (unsigned long long)(held >> 20),
                (unsigned long long)r->s->opt.rss_limit_mb);
        return FG_EOPTION;
    }
    /* A dying case's finding: to the supervisor from an executor, else stored here. */
    if (r->side == FGI_SIDE_EXECUTOR)
        fgi_crash_channel(send_dying, r->ex.link);
    else
        fgi_crash_channel(fgi_record_dying, r);
    if ((e = fgi_fdwatch_open(&r->ex.fds)) != FG_OK)
        return e;
    r->ex.fds_open = 1;
    fgi_harness_window(&r->ex.exec, 1); /* the first chunk's window (fdwatch.h) */
    unsigned deadline = r->sv.rehit_ms ? r->sv.rehit_ms : r->plan.time_ms;
    if (!(r->ex.watchdog = fgi_watchdog_start(deadline, FGI_MAX(r->plan.time_ms / 10, 1u),
                                              r->ex.slot ? &r->ex.slot->ended_ms : NULL,
                                              r->plan.time_ms)))
        return FG_ENOMEM;
    /* The run's end: a forked executor's supervisor stops it, and kills it when a case is
     * stuck; in one process the watchdog must give a stuck case up (control.h). */
    r->ex.halt = r->ex.slot ? &r->ex.slot->stop : fgi_control_halt();
    if (!r->ex.slot)
        fgi_watchdog_end(r->ex.watchdog, fgi_run_ends_at(r), r->ex.halt, FGI_STUCK_GRACE_MS,
                         fgi_control_stuck, r);
    return fgi_harness_reserve(&r->ex.exec, r->plan.slot_cap);
}

void fgi_executor_close(run *r)
{
    if (r->ex.watchdog) {
        unsigned slowest = 0;
        r->prog.slow += fgi_watchdog_stop(r->ex.watchdog, &slowest);
        r->prog.slowest_ms = FGI_MAX(r->prog.slowest_ms, slowest);
        r->ex.watchdog = NULL;
    }
    if (r->ex.fds_open)
        fgi_fdwatch_close(&r->ex.fds);
    r->ex.fds_open = 0;
    if (r->ex.exec_open)
        fgi_harness_close(&r->ex.exec);
    r->ex.exec_open = 0;
    fgi_crash_channel(NULL, NULL);
}

/* The body of a forked executor. */
int fgi_executor_main(void *ctx, unsigned j, uint64_t from, fgi_wire_link *link, fgi_slot *slot)
{
    run *r = ctx;
    r->side = FGI_SIDE_EXECUTOR;
    r->ex.link = link;
    r->ex.slot = slot;
    r->ex.work = slot->data;
    const fgi_harness_channel ch = {slot, publish, &slot->active, &slot->cases};
    fgi_harness_attach(&ch);
    fg_error e = fgi_executor_open(r);
    if (e == FG_OK)
        fgi_executor_run(r, j, from);
    fgi_executor_close(r);
    fgi_wire_bye b = {r->prog.reached, r->prog.slow, r->prog.slowest_ms,
                      (uint32_t)(e != FG_OK ? e : r->err)};
    fgi_wire_say_bye(link, &b);
    return 0;
}
