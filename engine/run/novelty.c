/* engine/run/novelty.c — the signature set: which behaviours a run has seen, and how often. */
#include "engine/run/novelty.h"

#include <string.h>

void fgi_novelty_init(fgi_novelty *n)
{
    memset(n, 0, sizeof *n);
}

void fgi_novelty_free(fgi_novelty *n)
{
    fgi_free(n->keys);
    fgi_free(n->hits);
    memset(n, 0, sizeof *n);
}

static size_t slot_of(const fgi_novelty *n, uint64_t sig)
{
    size_t mask = n->cap - 1;
    size_t i = (size_t)fg_mix64(sig) & mask;
    while (n->keys[i] != 0 && n->keys[i] != sig)
        i = (i + 1) & mask;
    return i;
}

static int grow(fgi_novelty *n)
{
    size_t cap = n->cap ? n->cap * 2 : 1024;
    uint64_t *keys = fgi_calloc(cap, sizeof *keys);
    uint32_t *hits = fgi_calloc(cap, sizeof *hits);
    if (!keys || !hits) {
        fgi_free(keys);
        fgi_free(hits);
        return -1;
    }
    fgi_novelty old = *n;
    n->keys = keys;
    n->hits = hits;
    n->cap = cap;
    for (size_t i = 0; i < old.cap; i++) {
        if (old.keys[i] == 0)
            continue;
        size_t j = slot_of(n, old.keys[i]);
        n->keys[j] = old.keys[i];
        n->hits[j] = old.hits[i];
    }
    fgi_free(old.keys);
    fgi_free(old.hits);
    return 0;
}

int fgi_novelty_bump(fgi_novelty *n, uint64_t sig, uint32_t count)
{
    FG_ASSERT(sig != 0);
    if (n->cap) {
        size_t i = slot_of(n, sig);
        if (n->keys[i] == sig) {
            n->hits[i] = n->hits[i] > UINT32_MAX - count ? UINT32_MAX : n->hits[i] + count;
            return 0;
        }
    }
    if ((n->count + 1) * 2 > n->cap && grow(n) != 0)
        return -1;
    size_t i = slot_of(n, sig);
    FG_ASSERT(n->keys[i] == 0);
    n->keys[i] = sig;
    n->hits[i] = count;
    n->count++;
    return 1;
}

int fgi_novelty_add(fgi_novelty *n, uint64_t sig)
{
    return fgi_novelty_bump(n, sig, 1);
}

void fgi_novelty_set(fgi_novelty *n, uint64_t sig, uint32_t count)
{
    FG_ASSERT(fgi_novelty_has(n, sig));
    n->hits[slot_of(n, sig)] = count;
}

int fgi_novelty_has(const fgi_novelty *n, uint64_t sig)
{
    return n->cap && sig && n->keys[slot_of(n, sig)] == sig;
}

void fgi_novelty_clear(fgi_novelty *n)
{
    if (n->cap && n->count) {
        memset(n->keys, 0, n->cap * sizeof *n->keys);
        memset(n->hits, 0, n->cap * sizeof *n->hits);
    }
    n->count = 0;
}

uint32_t fgi_novelty_hits(const fgi_novelty *n, uint64_t sig)
{
    if (!n->cap || sig == 0)
        return 0;
    size_t i = slot_of(n, sig);
    return n->keys[i] == sig ? n->hits[i] : 0;
}
