/* engine/search/epoch.c — the epoch log's records and their encoding. */
#include "engine/search/epoch.h"

#include <stdlib.h>
#include <string.h>

void fgi_epoch_free_cand(fgi_cand *c)
{
    fgi_free(c->data);
    fgi_free(c->keys);
    c->data = NULL;
    c->keys = NULL;
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

/* The fixed part of an encoded candidate; data, keys, cmps and strs follow. */
typedef struct cand_head {
    uint64_t seq, sig, size, fhash, base;
    uint32_t force, nkeys, ncmps, nstrs;
} cand_head;

int fgi_epoch_encode_cand(fgi_str *out, const fgi_cand *c)
{
    cand_head h = {c->seq,   c->sig,   c->size,  c->fhash, c->base, (uint32_t)c->force,
                   c->nkeys, c->ncmps, c->nstrs};
    fgi_str_addn(out, (const char *)&h, sizeof h);
    fgi_str_addn(out, (const char *)c->data, c->size);
    fgi_str_addn(out, (const char *)c->keys, c->nkeys * sizeof *c->keys);
    fgi_str_addn(out, (const char *)c->cmps, c->ncmps * sizeof *c->cmps);
    fgi_str_addn(out, (const char *)c->strs, c->nstrs * sizeof *c->strs);
    return out->failed ? -1 : 0;
}

int fgi_epoch_decode_cand(const uint8_t *p, size_t n, fgi_cand *c)
{
    cand_head h;
    memset(c, 0, sizeof *c);
    if (n < sizeof h)
        return -1;
    memcpy(&h, p, sizeof h);
    if (h.ncmps > FGI_CAND_CMPS || h.nstrs > FGI_CAND_STRS || h.size > n ||
        h.nkeys > n / sizeof(uint64_t))
        return -1;
    size_t want = sizeof h + h.size + h.nkeys * sizeof(uint64_t) +
                  h.ncmps * sizeof(fgi_cmp_int) + h.nstrs * sizeof(fgi_cmp_str);
    if (want != n)
        return -1;
    p += sizeof h;
    c->seq = h.seq;
    c->sig = h.sig;
    c->force = (int)h.force;
    c->size = h.size;
    c->fhash = h.fhash;
    c->base = h.base;
    c->nkeys = h.nkeys;
    c->ncmps = h.ncmps;
    c->nstrs = h.nstrs;
    c->data = fgi_malloc(h.size ? h.size : 1);
    c->keys = h.nkeys ? fgi_malloc(h.nkeys * sizeof *c->keys) : NULL;
    if (!c->data || (h.nkeys && !c->keys)) {
        fgi_epoch_free_cand(c);
        return -1;
    }
    memcpy(c->data, p, h.size);
    p += h.size;
    if (h.nkeys)
        memcpy(c->keys, p, h.nkeys * sizeof *c->keys);
    p += h.nkeys * sizeof *c->keys;
    memcpy(c->cmps, p, h.ncmps * sizeof *c->cmps);
    p += h.ncmps * sizeof *c->cmps;
    memcpy(c->strs, p, h.nstrs * sizeof *c->strs);
    return 0;
}

int fgi_epoch_encode_hits(fgi_str *out, const fgi_hits *h)
{
    uint64_t head[2] = {(uint64_t)h->which, h->n};
    fgi_str_addn(out, (const char *)head, sizeof head);
    fgi_str_addn(out, (const char *)h->keys, h->n * sizeof *h->keys);
    fgi_str_addn(out, (const char *)h->counts, h->n * sizeof *h->counts);
    return out->failed ? -1 : 0;
}

int fgi_epoch_decode_hits(const uint8_t *p, size_t n, fgi_hits *h)
{
    uint64_t head[2];
    memset(h, 0, sizeof *h);
    if (n < sizeof head)
        return -1;
    memcpy(head, p, sizeof head);
    if (head[0] > 1 || head[1] > n || sizeof head + head[1] * 12 != n)
        return -1;
    h->which = (int)head[0];
    h->n = head[1];
    h->keys = fgi_malloc(h->n ? h->n * sizeof *h->keys : 1);
    h->counts = fgi_malloc(h->n ? h->n * sizeof *h->counts : 1);
    if (!h->keys || !h->counts) {
        fgi_epoch_free_hits(h);
        return -1;
    }
    memcpy(h->keys, p + sizeof head, h->n * sizeof *h->keys);
    memcpy(h->counts, p + sizeof head + h->n * sizeof *h->keys, h->n * sizeof *h->counts);
    return 0;
}

int fgi_epoch_add_encoded(fgi_epoch_log *l, int is_cand, const uint8_t *p, size_t n)
{
    fgi_cand c;
    fgi_hits h;
    if (is_cand)
        return fgi_epoch_decode_cand(p, n, &c) != 0 ? -1 : fgi_epoch_add_cand(l, &c);
    return fgi_epoch_decode_hits(p, n, &h) != 0 ? -1 : fgi_epoch_add_hits(l, &h);
}
