/* engine/search/covcount.c — coverage hit counts and known bits by dense index. */
#include "engine/search/covcount.h"

#include <string.h>

void fgi_covcount_init(fgi_covcount *c)
{
    memset(c, 0, sizeof *c);
}

void fgi_covcount_free(fgi_covcount *c)
{
    fgi_free(c->count);
    fgi_free(c->known);
    fgi_free(c->touched);
    fgi_free(c->keys);
    fgi_free(c->sent);
    memset(c, 0, sizeof *c);
}

int fgi_covcount_reserve(fgi_covcount *c, size_t size)
{
    if (size <= c->size)
        return 0;
    size = (size + 63) / 64 * 64; /* whole bitmap words */
    if (!c->size) { /* calloc: the pages no feature touches are never made resident */
        c->count = fgi_calloc(size, sizeof *c->count);
        c->known = c->count ? fgi_calloc(size / 64, sizeof *c->known) : NULL;
        if (!c->known) {
            fgi_free(c->count);
            c->count = NULL;
            return -1;
        }
        c->size = size;
        return 0;
    }
    uint8_t *count = fgi_realloc(c->count, size * sizeof *count);
    if (!count)
        return -1;
    c->count = count;
    uint64_t *known = fgi_realloc(c->known, size / 64 * sizeof *known);
    if (!known)
        return -1; /* count grew, size did not: the next call grows both again */
    c->known = known;
    memset(c->count + c->size, 0, (size - c->size) * sizeof *count);
    memset(c->known + c->size / 64, 0, (size - c->size) / 64 * sizeof *known);
    c->size = size;
    return 0;
}

int fgi_covcount_room(fgi_covcount *c, size_t n)
{
    if (n <= c->touched_cap - c->ntouched)
        return 0;
    size_t cap = c->touched_cap ? c->touched_cap : 256;
    while (cap - c->ntouched < n)
        cap *= 2;
    uint32_t *t = fgi_realloc(c->touched, cap * sizeof *t);
    if (t)
        c->touched = t;
    uint64_t *k = t ? fgi_realloc(c->keys, cap * sizeof *k) : NULL;
    if (k)
        c->keys = k;
    if (!t || !k)
        return -1;
    c->touched_cap = cap;
    return 0;
}

int fgi_covcount_mark(fgi_covcount *c, uint32_t d, int sent)
{
    FG_ASSERT(d < c->size);
    if (sent && c->nsent == c->sent_cap) {
        size_t cap = c->sent_cap ? 2 * c->sent_cap : 256;
        uint32_t *s = fgi_realloc(c->sent, cap * sizeof *s);
        if (!s)
            return -1;
        c->sent = s;
        c->sent_cap = cap;
    }
    if (sent)
        c->sent[c->nsent++] = d;
    c->known[d / 64] |= (uint64_t)1 << (d % 64);
    return 0;
}

void fgi_covcount_epoch_end(fgi_covcount *c)
{
    for (size_t i = 0; i < c->nsent; i++)
        c->known[c->sent[i] / 64] &= ~((uint64_t)1 << (c->sent[i] % 64));
    c->nsent = 0;
}

size_t fgi_covcount_drain(fgi_covcount *c, uint64_t *keys, uint32_t *counts)
{
    for (size_t i = 0; i < c->ntouched; i++) {
        keys[i] = c->keys[i];
        counts[i] = c->count[c->touched[i]];
        c->count[c->touched[i]] = 0;
    }
    size_t n = c->ntouched;
    c->ntouched = 0;
    return n;
}
