/* engine/search/corpus.c — the kept inputs and the weighted, deterministic scheduler over them. */
#include "engine/search/corpus.h"

#include <string.h>

void fgi_corpus_init(fgi_corpus *c)
{
    memset(c, 0, sizeof *c);
}

void fgi_corpus_free(fgi_corpus *c)
{
    for (size_t i = 0; i < c->count; i++) {
        fgi_free(c->entries[i].data);
        fgi_free(c->entries[i].cmps);
        fgi_free(c->entries[i].strs);
        fgi_free(c->entries[i].reads);
    }
    fgi_free(c->entries);
    fgi_free(c->prefix);
    fgi_novelty_free(&c->bysig);
    fgi_novelty_free(&c->byfh);
    memset(c, 0, sizeof *c);
}

int fgi_corpus_add(fgi_corpus *c, const uint8_t *data, size_t size, uint64_t sig)
{
    if (c->count == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        fgi_entry *e = fgi_realloc(c->entries, cap * sizeof *e);
        if (!e)
            return -1;
        c->entries = e;
        c->cap = cap;
    }
    uint8_t *copy = fgi_memdup(data, size);
    if (!copy)
        return -1;
    if (sig && !fgi_novelty_has(&c->bysig, sig) &&
        fgi_novelty_bump(&c->bysig, sig, (uint32_t)(c->count + 1)) < 0) {
        fgi_free(copy);
        return -1;
    }
    c->entries[c->count++] = (fgi_entry){
        .data = copy, .size = size, .sig = sig, .born = c->merges};
    c->dirty = 1;
    return 0;
}

long fgi_corpus_by_sig(const fgi_corpus *c, uint64_t sig)
{
    uint32_t at = fgi_novelty_hits(&c->bysig, sig);
    return at ? (long)at - 1 : -1;
}

long fgi_corpus_by_behaviour(const fgi_corpus *c, uint64_t sig, uint64_t fhash)
{
    if (sig)
        return fgi_corpus_by_sig(c, sig);
    uint32_t at = fhash ? fgi_novelty_hits(&c->byfh, fhash) : 0;
    return at ? (long)at - 1 : -1;
}

int fgi_corpus_note_fhash(fgi_corpus *c, size_t index)
{
    FG_ASSERT(index < c->count);
    const fgi_entry *e = &c->entries[index];
    if (e->sig || !e->fhash || fgi_novelty_has(&c->byfh, e->fhash))
        return 0;
    return fgi_novelty_bump(&c->byfh, e->fhash, (uint32_t)(index + 1)) < 0 ? -1 : 0;
}

int fgi_corpus_replace(fgi_corpus *c, size_t index, const uint8_t *data, size_t size)
{
    FG_ASSERT(index < c->count);
    uint8_t *copy = fgi_memdup(data, size);
    if (!copy)
        return -1;
    fgi_free(c->entries[index].data);
    c->entries[index].data = copy;
    c->entries[index].size = size;
    c->dirty = 1;
    return 0;
}

int fgi_corpus_set_reads(fgi_corpus *c, size_t index, const fgi_read *reads, size_t n)
{
    FG_ASSERT(index < c->count);
    fgi_entry *e = &c->entries[index];
    fgi_read *copy = n ? fgi_memdup(reads, n * sizeof *reads) : NULL;
    if (n && !copy)
        return -1;
    fgi_free(e->reads);
    e->reads = copy;
    e->nreads = n;
    return 0;
}

int fgi_corpus_set_cmps(fgi_corpus *c, size_t index, const fgi_cmp_int *cmps, size_t n)
{
    FG_ASSERT(index < c->count);
    fgi_entry *e = &c->entries[index];
    fgi_cmp_int *copy = n ? fgi_memdup(cmps, n * sizeof *cmps) : NULL;
    if (n && !copy)
        return -1;
    fgi_free(e->cmps);
    e->cmps = copy;
    e->ncmps = n;
    e->nreals = 0;
    for (size_t i = 0; i < n; i++)
        e->nreals += cmps[i].kind != FGI_CMP_INTEGER;
    return 0;
}

int fgi_corpus_set_strs(fgi_corpus *c, size_t index, const fgi_cmp_str *strs, size_t n)
{
    FG_ASSERT(index < c->count);
    fgi_entry *e = &c->entries[index];
    fgi_cmp_str *copy = n ? fgi_memdup(strs, n * sizeof *strs) : NULL;
    if (n && !copy)
        return -1;
    fgi_free(e->strs);
    e->strs = copy;
    e->nstrs = n;
    return 0;
}

void fgi_corpus_set_features(fgi_corpus *c, size_t index, const uint64_t *f, unsigned n)
{
    FG_ASSERT(index < c->count);
    fgi_entry *e = &c->entries[index];
    e->nfeats = n < FGI_ENTRY_FEATS ? n : FGI_ENTRY_FEATS;
    memcpy(e->feats, f, e->nfeats * sizeof *f);
    c->dirty = 1;
}

/* How often the entry's behaviour has been seen: its signature's hits, or the hits of the
 * rarest coverage feature it brought, whichever is rarer. */
static uint64_t entry_hits(const fgi_corpus *c, const fgi_novelty *n, const fgi_entry *e)
{
    uint64_t hits = e->sig ? fgi_novelty_hits(n, e->sig) : UINT64_MAX;
    for (unsigned i = 0; c->features && i < e->nfeats; i++) {
        uint64_t h = fgi_novelty_hits(c->features, e->feats[i]);
        if (h < hits)
            hits = h;
    }
    return hits == UINT64_MAX ? 0 : hits;
}

static unsigned ilog2(uint64_t v)
{
    return v ? 63u - (unsigned)__builtin_clzll(v) : 0;
}

/* The engine's own work per case, in comparisons' worth: outside the target a case costs
 * the driver ~8 us on this machine's bfd harness, about what 1,000 comparisons of
 * instrumented real code take (bfd: ~4,500 a case in ~30 us). A fixed, deterministic
 * stand-in, so the weight below is the same on every machine. */
#define OVERHEAD_WORK 1024u

/* An entry's weight scaled by its speed: a case bred from it costs the engine's overhead
 * plus the entry's work (the comparisons its run made: deterministic, and a comparison is
 * most of what real code does), so picking it in proportion to 1 / (work + overhead)
 * spends the run's time evenly. Where the target's cases are cheap beside the engine's own
 * work the factor stays near 1 and the weight is left to novelty. No mean and no bounds:
 * AFL bounds its factor (4x .. 1/16 of the queue's mean time) because its times are
 * noisy; counted work is not, and a deep corpus's tail inflates a mean. The demangler's
 * after 600 s (median 1,016 comparisons, mean 77,678) put every entry under ~18,000 at
 * the 4x bound, picked as often at 18,000 as at 100, and its 61 slowest at 1/16 took 15%
 * of the time. Scaled up first, so that an entry near the work budget keeps a weight of
 * its own. */
#define WORK_SCALE_SHIFT 10u
static uint64_t by_work(uint64_t w, uint32_t work)
{
    return (w << WORK_SCALE_SHIFT) * OVERHEAD_WORK / ((uint64_t)work + OVERHEAD_WORK);
}

/* A sixteenth of the weight for every case bred from an entry that hung (ran out of its
 * time or work budget and was unwound): each such case cost a whole budget, ~1 s of
 * instrumented code where a case takes microseconds, and its base, picked as often, would
 * breed the same hang again and again (the demangler's slow printer: 21 hits in a 60 s
 * run, a third of its time). libFuzzer's process ends at the first and starts again; an
 * entry here keeps its place, at weight 1 after a few. */
#define HANG_SHIFT 4u

static int reweigh(fgi_corpus *c, const fgi_novelty *n)
{
    if (c->prefix_cap < c->count) {
        uint64_t *p = fgi_realloc(c->prefix, c->cap * sizeof *p);
        if (!p)
            return -1;
        c->prefix = p;
        c->prefix_cap = c->cap;
    }
    /* Work is known only under compiler coverage (a plain build's entries have none):
     * there the weights are novelty's alone, as they always were. */
    int measured = 0;
    for (size_t i = 0; i < c->count && !measured; i++)
        measured = c->entries[i].work != 0;
    uint64_t total = 0;
    for (size_t i = 0; i < c->count; i++) {
        const fgi_entry *e = &c->entries[i];
        uint64_t hits = entry_hits(c, n, e);
        uint64_t w = (1u << 20) / ((1 + ilog2(hits + 1)) * (4 + ilog2(e->size + 1)));
        uint64_t age = c->merges - e->born;
        w = (w << (age < 4 ? 4 - age : 0)) / (1 + ilog2(1 + e->since / 128));
        if (measured)
            w = by_work(w, e->work);
        w >>= FGI_MIN(HANG_SHIFT * e->hangs, 63u);
        total += w ? w : 1;
        c->prefix[i] = total;
    }
    c->dirty = 0;
    return 0;
}

long fgi_corpus_pick(fgi_corpus *c, const fgi_novelty *n, fgi_rng *r)
{
    FG_ASSERT(c->count > 0);
    /* Only when dirty: every input of the weights (hit counts, ages, picks, sizes, work)
     * changes at a merge, which marks the corpus dirty, or with an entry, which does too.
     * Weighing again every 256 cases, as it did, gave the same sums at O(corpus) each. */
    if (c->dirty && reweigh(c, n) != 0)
        return -1;
    uint64_t x = fgi_rng_below(r, c->prefix[c->count - 1]);
    size_t lo = 0, hi = c->count - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->prefix[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return (long)lo;
}

const uint64_t *fgi_corpus_weights(fgi_corpus *c, const fgi_novelty *n)
{
    /* Recomputed when dirty, as for a pick: an executor's picks since the last merge drew
     * from these very sums, and a supervisor, which never picks, finds the corpus dirty
     * after every merge (fgi_sched_merged), so it sees what its executors saw. */
    FG_ASSERT(c->count > 0);
    if (c->dirty && reweigh(c, n) != 0)
        return NULL;
    return c->prefix;
}
