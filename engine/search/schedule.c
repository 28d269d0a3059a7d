/* engine/search/schedule.c — where the search spends its cases: length, energy, depth, reduction. */
#include "engine/search/schedule.h"

#include <string.h>

void fgi_sched_init(fgi_sched *s, size_t max_len)
{
    memset(s, 0, sizeof *s);
    s->len_limit = FGI_MIN(max_len, (size_t)FGI_LEN_FIRST);
    fgi_novelty_init(&s->sent_sizes);
}

void fgi_sched_free(fgi_sched *s)
{
    fgi_novelty_free(&s->sent_sizes);
    memset(s, 0, sizeof *s);
}

static uint64_t size_key(uint64_t sig, uint64_t fhash)
{
    uint64_t k = fg_mix64(sig ^ fg_mix64(fhash + 0x5bd1e995ULL));
    return k ? k : 1;
}

/* The entry a shorter input of behaviour (sig, fhash) made from entry `base` (or -1)
 * replaces: the one kept for its signature; without a signature, its base when the base
 * does the same (two seeds may share a feature hash: each is reduced on its own), else
 * the first entry kept with that hash. */
static long target_of(const fgi_corpus *c, uint64_t sig, uint64_t fhash, long base)
{
    if (!sig && base >= 0 && (size_t)base < c->count && !c->entries[base].sig &&
        c->entries[base].fhash == fhash)
        return base;
    return fgi_corpus_by_behaviour(c, sig, fhash);
}

int fgi_sched_shorter(fgi_sched *s, const fgi_corpus *c, uint64_t sig, uint64_t fhash,
                      size_t size, int fresh, long base)
{
    uint64_t bound = UINT64_MAX;
    long at = fresh ? -1 : target_of(c, sig, fhash, base);
    /* The common case first, before any hashing: no shorter than the entry. */
    if (at >= 0 && (c->entries[at].fhash != fhash || size >= c->entries[at].size))
        return 0;
    /* Without a signature the entry replaced is part of the key: a shorter input sent for
     * one seed does not stop one for another seed of the same hash. */
    uint64_t key = size_key(sig, sig ? fhash : fhash ^ fg_mix64((uint64_t)(at + 2)));
    uint32_t sent = fgi_novelty_hits(&s->sent_sizes, key); /* 1 + a size; 0: none sent */
    if (!fresh) {
        /* A signature with no entry in the snapshot and nothing sent for this key: this
         * executor sent the signature under another feature hash this epoch, but another
         * may have sent it under this one, so only the merge can tell whether this input
         * is shorter: sent. (Not sending it made the kept corpus depend on the jobs
         * count.) Without a signature, a hash no entry has is no behaviour to reduce. */
        if (at >= 0)
            bound = c->entries[at].size;
        else if (!sent && !sig)
            return 0;
        if (sent && sent - 1 < bound)
            bound = sent - 1;
        if (size >= bound)
            return 0;
    }
    /* Remember the shortest sent (sizes are capped by max_len, far below 2^32). */
    if (fgi_novelty_bump(&s->sent_sizes, key, 0) < 0)
        return -1;
    if (!sent || size + 1 < sent)
        fgi_novelty_set(&s->sent_sizes, key, (uint32_t)size + 1);
    return 1;
}

int fgi_sched_count_picks(fgi_corpus *c, const fgi_novelty *nov, uint64_t ncases)
{
    if (c->count == 0 || ncases == 0)
        return 0;
    const uint64_t *w = fgi_corpus_weights(c, nov);
    if (!w)
        return -1;
    uint64_t total = w[c->count - 1];
    for (size_t i = 0; i < c->count; i++) {
        uint64_t share = (uint64_t)((unsigned __int128)(w[i] - (i ? w[i - 1] : 0)) * ncases /
                                    total);
        fgi_entry *e = &c->entries[i];
        e->picks = share > UINT32_MAX - e->picks ? UINT32_MAX : e->picks + (uint32_t)share;
        e->since = share > UINT32_MAX - e->since ? UINT32_MAX : e->since + (uint32_t)share;
    }
    return 0;
}

/* 1 + the first position where a and b differ (their common length if one is a prefix of
 * the other), or 0 when they are equal. */
static uint32_t first_difference(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    size_t n = FGI_MIN(na, nb), i = 0;
    while (i < n && a[i] == b[i])
        i++;
    if (i == n && na == nb)
        return 0;
    return i >= UINT32_MAX ? 0 : (uint32_t)i + 1;
}

/* Where entry e's news is, against the base b it was made from: its hot position, and its
 * stride, how far that lies past b's own (a ladder's next rung is likely as far on again). */
static void note_news(fgi_entry *e, const fgi_entry *b)
{
    e->hot = first_difference(b->data, b->size, e->data, e->size);
    uint32_t stride = e->hot > b->hot && b->hot ? e->hot - b->hot : 0;
    e->stride = stride <= FGI_STRIDE_MAX ? stride : 0;
}

int fgi_sched_kept(fgi_sched *s, fgi_corpus *c, size_t index, const fgi_cand *cand)
{
    FG_ASSERT(index < c->count);
    fgi_entry *e = &c->entries[index];
    e->fhash = cand->fhash;
    e->work = cand->work;
    if (fgi_corpus_set_strs(c, index, cand->strs, cand->nstrs) != 0 ||
        fgi_corpus_note_fhash(c, index) != 0)
        return -1;
    if (cand->base && cand->base - 1 < c->count && cand->base - 1 != index) {
        fgi_entry *b = &c->entries[cand->base - 1];
        e->parent = (uint32_t)cand->base;
        note_news(e, b);
        b->finds += b->finds < UINT32_MAX;
        b->since = 0;
        s->news++;
    }
    return 0;
}

void fgi_sched_hung(fgi_corpus *c, const fgi_cand *cand)
{
    if (!cand->base || cand->base - 1 >= c->count)
        return;
    fgi_entry *b = &c->entries[cand->base - 1];
    b->hangs += b->hangs < UINT32_MAX;
    c->dirty = 1;
}

int fgi_sched_reduce(fgi_sched *s, fgi_corpus *c, const fgi_cand *cand)
{
    if (!cand->base || (!cand->sig && !cand->fhash))
        return 0;
    long at = target_of(c, cand->sig, cand->fhash, (long)cand->base - 1);
    if (at < 0)
        return 0;
    fgi_entry *e = &c->entries[at];
    if (cand->size >= e->size || cand->fhash != e->fhash)
        return 0;
    if (fgi_corpus_replace(c, (size_t)at, cand->data, cand->size) != 0 ||
        fgi_corpus_set_cmps(c, (size_t)at, cand->cmps, cand->ncmps) != 0 ||
        fgi_corpus_set_strs(c, (size_t)at, cand->strs, cand->nstrs) != 0 ||
        fgi_corpus_set_reads(c, (size_t)at, cand->reads, cand->nreads) != 0)
        return -1;
    e->work = cand->work;
    /* Where its news is in the shorter bytes: against the entry it was first made from
     * (the shorter input was mostly made from this entry itself, and an erased byte before
     * the old hot position would leave that pointing past the news). */
    if (e->parent && e->parent - 1 < c->count && e->parent - 1 != (uint64_t)at)
        note_news(e, &c->entries[e->parent - 1]);
    s->news++;
    return 1;
}

void fgi_sched_merged(fgi_sched *s, fgi_corpus *c, size_t max_len)
{
    if (c->merges > 0 && s->news == 0 && ++s->stalled >= 1)
        s->len_limit = FGI_MIN(max_len, 2 * FGI_MAX(s->len_limit, (size_t)1));
    if (s->news)
        s->stalled = 0;
    s->news = 0;
    c->merges++;
    c->dirty = 1; /* ages and energies changed: weigh again */
    fgi_novelty_clear(&s->sent_sizes);
}
