/* engine/search/epoch.c — the epoch log: its records, added, sorted and freed. */
#include "engine/search/epoch.h"

#include <stdlib.h>
#include <string.h>

void fgi_epoch_free_cand(fgi_cand *c)
{
    fgi_free(c->data);
    fgi_free(c->keys);
    fgi_free(c->reads);
    c->data = NULL;
    c->keys = NULL;
    c->reads = NULL;
}

void fgi_epoch_free_hits(fgi_hits *h)
{
    fgi_free(h->keys);
    fgi_free(h->counts);
    h->keys = NULL;
    h->counts = NULL;
}

void fgi_epoch_clear(fgi_epoch_log *l)
{
    for (size_t i = 0; i < l->ncands; i++)
        fgi_epoch_free_cand(&l->cands[i]);
    for (size_t i = 0; i < l->nhits; i++)
        fgi_epoch_free_hits(&l->hits[i]);
    l->ncands = l->nhits = 0;
}

int fgi_epoch_add_cand(fgi_epoch_log *l, fgi_cand *c)
{
    if (l->ncands == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        fgi_cand *n = fgi_realloc(l->cands, cap * sizeof *n);
        if (!n) {
            fgi_epoch_free_cand(c);
            return -1;
        }
        l->cands = n;
        l->cap = cap;
    }
    l->cands[l->ncands++] = *c;
    return 0;
}

int fgi_epoch_add_hits(fgi_epoch_log *l, fgi_hits *h)
{
    if (l->nhits == l->hcap) {
        size_t cap = l->hcap ? 2 * l->hcap : 64;
        fgi_hits *n = fgi_realloc(l->hits, cap * sizeof *n);
        if (!n) {
            fgi_epoch_free_hits(h);
            return -1;
        }
        l->hits = n;
        l->hcap = cap;
    }
    l->hits[l->nhits++] = *h;
    return 0;
}

static int by_seq(const void *a, const void *b)
{
    const fgi_cand *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void fgi_epoch_sort(fgi_epoch_log *l)
{
    if (l->ncands > 1)
        qsort(l->cands, l->ncands, sizeof *l->cands, by_seq);
}
