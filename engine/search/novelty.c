/* engine/search/novelty.c — the signature set: which behaviours a run has seen, and how often. */
#include "engine/search/novelty.h"

#include <string.h>

void fgi_novelty_init(fgi_novelty *n)
{
    memset(n, 0, sizeof *n);
}

void fgi_novelty_init_scratch(fgi_novelty *n)
{
    fgi_novelty_init(n);
    n->scratch = 1;
}

void fgi_novelty_free(fgi_novelty *n)
{
    int scratch = n->scratch;
    fgi_free(n->keys);
    fgi_free(n->hits);
    fgi_free(n->occ);
    memset(n, 0, sizeof *n);
    n->scratch = scratch;
}

static size_t slot_of(const fgi_novelty *n, uint64_t sig, uint64_t mixed)
{
    size_t mask = n->cap - 1;
    size_t i = (size_t)mixed & mask;
    while (n->keys[i] != 0 && n->keys[i] != sig)
        i = (i + 1) & mask;
    return i;
}

static int grow(fgi_novelty *n)
{
    size_t cap = n->cap ? n->cap * 2 : 1024;
    uint64_t *keys = fgi_calloc(cap, sizeof *keys);
    uint32_t *hits = fgi_calloc(cap, sizeof *hits);
    uint64_t *occ = n->scratch ? fgi_calloc(cap / 64, sizeof *occ) : NULL; /* cap >= 1024 */
    if (!keys || !hits || (n->scratch && !occ)) {
        fgi_free(keys);
        fgi_free(hits);
        fgi_free(occ);
        return -1;
    }
    fgi_novelty old = *n;
    n->keys = keys;
    n->hits = hits;
    n->occ = occ;
    n->cap = cap;
    for (size_t i = 0; i < old.cap; i++) {
        if (old.keys[i] == 0)
            continue;
        size_t j = slot_of(n, old.keys[i], fg_mix64(old.keys[i]));
        n->keys[j] = old.keys[i];
        n->hits[j] = old.hits[i];
        if (occ)
            occ[j / 64] |= (uint64_t)1 << (j % 64);
    }
    fgi_free(old.keys);
    fgi_free(old.hits);
    fgi_free(old.occ);
    return 0;
}

int fgi_novelty_bump_mixed(fgi_novelty *n, uint64_t sig, uint64_t mixed, uint32_t count)
{
    FG_ASSERT(sig != 0);
    if (n->cap) {
        size_t i = slot_of(n, sig, mixed);
        if (n->keys[i] == sig) {
            n->hits[i] = n->hits[i] > UINT32_MAX - count ? UINT32_MAX : n->hits[i] + count;
            return 0;
        }
    }
    if ((n->count + 1) * 2 > n->cap && grow(n) != 0)
        return -1;
    size_t i = slot_of(n, sig, mixed);
    FG_ASSERT(n->keys[i] == 0);
    n->keys[i] = sig;
    n->hits[i] = count;
    if (n->occ)
        n->occ[i / 64] |= (uint64_t)1 << (i % 64);
    n->count++;
    return 1;
}

int fgi_novelty_bump(fgi_novelty *n, uint64_t sig, uint32_t count)
{
    return fgi_novelty_bump_mixed(n, sig, fg_mix64(sig), count);
}

int fgi_novelty_add(fgi_novelty *n, uint64_t sig)
{
    return fgi_novelty_bump(n, sig, 1);
}

void fgi_novelty_set(fgi_novelty *n, uint64_t sig, uint32_t count)
{
    FG_ASSERT(fgi_novelty_has(n, sig));
    n->hits[slot_of(n, sig, fg_mix64(sig))] = count;
}

int fgi_novelty_has_mixed(const fgi_novelty *n, uint64_t sig, uint64_t mixed)
{
    return n->cap && sig && n->keys[slot_of(n, sig, mixed)] == sig;
}

int fgi_novelty_has(const fgi_novelty *n, uint64_t sig)
{
    return fgi_novelty_has_mixed(n, sig, fg_mix64(sig));
}

/* Runs body for each occupied slot i of a scratch set, in slot order, by its bitmap: a word
 * per 64 slots, so a nearly empty table costs a sixty-fourth of walking it. */
#define EACH_SLOT(n, i, body)                                                              \
    for (size_t w_ = 0; w_ < (n)->cap / 64; w_++)                                          \
        for (uint64_t b_ = (n)->occ[w_]; b_; b_ &= b_ - 1) {                               \
            size_t i = w_ * 64 + (size_t)__builtin_ctzll(b_);                              \
            body                                                                           \
        }

void fgi_novelty_clear(fgi_novelty *n)
{
    if (n->occ && n->count) {
        EACH_SLOT(n, i, n->keys[i] = 0; n->hits[i] = 0;)
        memset(n->occ, 0, n->cap / 64 * sizeof *n->occ);
    } else if (n->cap && n->count) {
        memset(n->keys, 0, n->cap * sizeof *n->keys);
        memset(n->hits, 0, n->cap * sizeof *n->hits);
    }
    n->count = 0;
}

size_t fgi_novelty_drain(fgi_novelty *n, uint64_t *keys, uint32_t *hits)
{
    size_t m = 0;
    if (n->occ) {
        EACH_SLOT(n, i, keys[m] = n->keys[i]; hits[m++] = n->hits[i];)
    } else {
        for (size_t i = 0; i < n->cap; i++)
            if (n->keys[i]) {
                keys[m] = n->keys[i];
                hits[m++] = n->hits[i];
            }
    }
    fgi_novelty_clear(n);
    return m;
}

uint32_t fgi_novelty_hits(const fgi_novelty *n, uint64_t sig)
{
    if (!n->cap || sig == 0)
        return 0;
    size_t i = slot_of(n, sig, fg_mix64(sig));
    return n->keys[i] == sig ? n->hits[i] : 0;
}
