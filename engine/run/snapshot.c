/* engine/run/snapshot.c — the end of an epoch: its records merged in position order into
 * the snapshot every case of the next epoch sees. */
#include "engine/run/snapshot.h"

#include "engine/base/sha1.h"
#include "engine/feedback/cmp.h"
#include "engine/findings/corpus_dir.h"
#include "engine/run/control.h"
#include "engine/run/plan.h"

#include <string.h>

fg_error fgi_snapshot_init(run *r)
{
    fgi_novelty_init(&r->snap.nov);
    fgi_novelty_init(&r->snap.features);
    fgi_corpus_init(&r->snap.corpus);
    fgi_sched_init(&r->snap.sched, r->plan.max_len);
    r->snap.corpus.features = &r->snap.features;
    fgi_str kpath = {0};
    fgi_str_addf(&kpath, "%s/%s/known.txt", r->s->opt.corpus, r->t->name);
    char kerr[512] = "";
    fg_error ke = kpath.failed ? FG_ENOMEM
                               : fgi_known_load(kpath.buf, &r->snap.known, kerr, sizeof kerr);
    fgi_str_free(&kpath);
    if (ke != FG_OK && kerr[0]) /* malformed, or not readable: the file is named */
        fprintf(r->s->log, "fuzzgate: %s\n", kerr);
    return ke;
}

void fgi_snapshot_free(run *r)
{
    fgi_novelty_free(&r->snap.nov);
    fgi_novelty_free(&r->snap.features);
    fgi_corpus_free(&r->snap.corpus);
    fgi_sched_free(&r->snap.sched);
    fgi_epoch_clear(&r->snap.log);
    fgi_free(r->snap.log.cands);
    fgi_free(r->snap.log.hits);
    r->snap.log.cands = NULL;
    r->snap.log.hits = NULL;
    fgi_known_free(&r->snap.known);
}

/* ---- the snapshot: merging an epoch ----------------------------------------------- */

/* Writes a kept generated input to <corpus_out>/<target>/<sha1>, or <keep_dir>/<sha1>
 * (parent side). */
static void save_input(run *r, const uint8_t *data, size_t size)
{
    const char *out = r->s->keep_dir ? r->s->keep_dir : r->s->opt.corpus_out;
    if (!out || !*out || r->side == FGI_SIDE_EXECUTOR || r->probe)
        return;
    fgi_str dir = {0};
    fgi_str_addf(&dir, r->s->keep_dir ? "%s" : "%s/%s", out, r->t->name);
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
    if (r->side == FGI_SIDE_EXECUTOR || !r->plan.evals)
        return;
    for (size_t i = 0; i < r->snap.log.ncands; i++) {
        fgi_cand *c = &r->snap.log.cands[i];
        if (c->seq >= r->plan.nitems || r->plan.evals[c->seq].ran)
            continue;
        fgi_eval *v = &r->plan.evals[c->seq];
        v->ran = 1;
        v->sig = c->sig;
        v->nkeys = c->nkeys;
        v->keys = c->nkeys ? fgi_memdup(c->keys, c->nkeys * sizeof *c->keys) : NULL;
        if (c->nkeys && !v->keys)
            fgi_run_error(r, FG_ENOMEM);
    }
}

/* The epoch's records in seq order: a candidate is kept when its signature or one of its
 * features is still new after every earlier candidate (or it is forced); hit counts are
 * summed. Runs identically in every process that holds the records. */
void fgi_snapshot_merge(run *r)
{
    /* The report series (outcome.h): within an epoch the snapshot is constant, so each
     * of its cases is sampled with the values it saw. */
    uint64_t upto = r->prog.reached > r->plan.nitems ? r->prog.reached - r->plan.nitems : 0;
    for (; r->side != FGI_SIDE_EXECUTOR && r->prog.sampled_to < upto; r->prog.sampled_to++)
        fgi_outcome_sample(r->o, r->prog.sampled_to, r->snap.corpus.count, r->snap.nov.count,
                           r->snap.features.count);
    fgi_epoch_sort(&r->snap.log);
    keep_evals(r);
    uint64_t ran = r->prog.reached > r->plan.nitems
                       ? r->prog.reached - fgi_plan_epoch_start(r, r->prog.reached - 1)
                       : 0;
    if (fgi_sched_count_picks(&r->snap.corpus, &r->snap.nov, ran) != 0)
        return fgi_run_error(r, FG_ENOMEM);
    /* No record of an epoch merged already: one arriving late would make the next
     * snapshot depend on timing. */
    uint64_t from = r->prog.reached ? fgi_plan_epoch_start(r, r->prog.reached - 1) : 0;
    for (size_t i = 0; i < r->snap.log.ncands && r->err == FG_OK; i++) {
        fgi_cand *c = &r->snap.log.cands[i];
        FG_ASSERT(i == 0 || r->snap.log.cands[i - 1].seq <= c->seq); /* merged in seq order */
        FG_ASSERT(c->seq >= from);
        if (c->hang) {
            fgi_sched_hung(&r->snap.corpus, c);
            continue;
        }
        int novel = 0;
        if (c->sig) {
            int rc = fgi_novelty_bump(&r->snap.nov, c->sig, 0);
            if (rc < 0)
                return fgi_run_error(r, FG_ENOMEM);
            novel = rc;
        }
        uint64_t feats[FGI_ENTRY_FEATS];
        unsigned nf = 0;
        size_t nnew = 0;
        for (uint32_t f = 0; f < c->nkeys; f++) {
            int rc = fgi_novelty_bump(&r->snap.features, c->keys[f], 0);
            if (rc < 0)
                return fgi_run_error(r, FG_ENOMEM);
            if (rc && nf < FGI_ENTRY_FEATS)
                feats[nf++] = c->keys[f];
            nnew += (size_t)rc;
        }
        if (!(c->force || novel || nnew)) { /* perhaps a shorter one doing the same */
            if (fgi_sched_reduce(&r->snap.sched, &r->snap.corpus, c) < 0)
                return fgi_run_error(r, FG_ENOMEM);
            continue;
        }
        size_t at = r->snap.corpus.count;
        if (fgi_corpus_add(&r->snap.corpus, c->data, c->size, c->sig) != 0 ||
            fgi_corpus_set_cmps(&r->snap.corpus, at, c->cmps, c->ncmps) != 0 ||
            fgi_corpus_set_reads(&r->snap.corpus, at, c->reads, c->nreads) != 0 ||
            fgi_sched_kept(&r->snap.sched, &r->snap.corpus, at, c) != 0)
            return fgi_run_error(r, FG_ENOMEM);
        if (c->nreads && r->o)
            r->o->typed = 1;
        if (nf)
            fgi_corpus_set_features(&r->snap.corpus, r->snap.corpus.count - 1, feats, nf);
        fgi_cmp_pool_add(c->cmps, c->ncmps, c->strs, c->nstrs);
        const char *origin = fgi_plan_origin(r, c->seq);
        if (!origin) {
            r->o->kept++;
            save_input(r, c->data, c->size);
        }
        if (r->s->opt.verbose && r->side != FGI_SIDE_EXECUTOR && !r->probe) {
            char why[64]; /* what made it new: its signature, else its new features */
            if (c->sig)
                snprintf(why, sizeof why, "sig 0x%016llx", (unsigned long long)c->sig);
            else
                snprintf(why, sizeof why, "ft +%zu (%zu)", nnew, r->snap.features.count);
            fprintf(r->s->log, "#%lld %s NEW %s size %zu corpus %zu%s%s\n",
                    origin ? -1LL : (long long)(c->seq - r->plan.nitems), r->t->name, why,
                    c->size, r->snap.corpus.count, origin ? " from " : "",
                    origin ? origin : "");
        }
    }
    for (size_t i = 0; i < r->snap.log.nhits && r->err == FG_OK; i++) {
        const fgi_hits *h = &r->snap.log.hits[i];
        fgi_novelty *n = h->which == FGI_HITS_SIG ? &r->snap.nov : &r->snap.features;
        for (size_t q = 0; q < h->n; q++)
            if (fgi_novelty_bump(n, h->keys[q], h->counts[q]) < 0)
                return fgi_run_error(r, FG_ENOMEM);
    }
    fgi_epoch_clear(&r->snap.log);
    fgi_sched_merged(&r->snap.sched, &r->snap.corpus, r->plan.max_len);
}

