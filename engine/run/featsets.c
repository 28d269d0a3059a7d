/* engine/run/featsets.c — a chunk's distinct feature sets and how often each repeated. */
#include "engine/run/featsets.h"

#include <string.h>

void fgi_featsets_init(fgi_featsets *s)
{
    memset(s, 0, sizeof *s);
}

void fgi_featsets_free(fgi_featsets *s)
{
    fgi_free(s->sets);
    fgi_free(s->index);
    fgi_free(s->feats);
    memset(s, 0, sizeof *s);
}

static size_t home(uint64_t fhash, size_t cap)
{
    return (size_t)fg_mix64(fhash ^ 0x9e37u) & (cap - 1);
}

fgi_featset *fgi_featsets_find(const fgi_featsets *s, uint64_t fhash, size_t n)
{
    if (!s->count)
        return NULL;
    size_t mask = s->index_cap - 1;
    for (size_t i = home(fhash, s->index_cap); s->index[i]; i = (i + 1) & mask) {
        fgi_featset *set = &s->sets[s->index[i] - 1];
        if (set->fhash == fhash && set->n == n)
            return set;
    }
    return NULL;
}

/* Room for one more set (the index at most half full) and n more features. */
static int reserve(fgi_featsets *s, size_t n)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        fgi_featset *sets = fgi_realloc(s->sets, cap * sizeof *sets);
        if (!sets)
            return -1;
        s->sets = sets;
        s->cap = cap;
    }
    if (2 * (s->count + 1) > s->index_cap) {
        size_t cap = s->index_cap ? 2 * s->index_cap : 128;
        uint32_t *index = fgi_calloc(cap, sizeof *index);
        if (!index)
            return -1;
        for (size_t k = 0; k < s->count; k++) {
            size_t i = home(s->sets[k].fhash, cap);
            while (index[i])
                i = (i + 1) & (cap - 1);
            index[i] = (uint32_t)(k + 1);
        }
        fgi_free(s->index);
        s->index = index;
        s->index_cap = cap;
    }
    if (n > s->feats_cap - s->nfeats) {
        size_t cap = s->feats_cap ? s->feats_cap : 1024;
        while (cap - s->nfeats < n)
            cap *= 2;
        uint64_t *feats = fgi_realloc(s->feats, cap * sizeof *feats);
        if (!feats)
            return -1;
        s->feats = feats;
        s->feats_cap = cap;
    }
    return 0;
}

fgi_featset *fgi_featsets_add(fgi_featsets *s, uint64_t fhash, const uint64_t *feats, size_t n)
{
    FG_ASSERT(!fgi_featsets_find(s, fhash, n));
    if (reserve(s, n) != 0)
        return NULL;
    fgi_featset *set = &s->sets[s->count];
    *set = (fgi_featset){.fhash = fhash, .first = s->nfeats, .n = n};
    if (n)
        memcpy(s->feats + s->nfeats, feats, n * sizeof *feats);
    s->nfeats += n;
    size_t i = home(fhash, s->index_cap);
    while (s->index[i])
        i = (i + 1) & (s->index_cap - 1);
    s->index[i] = (uint32_t)++s->count;
    return set;
}

int fgi_featsets_flush(fgi_featsets *s, fgi_novelty *into)
{
    int rc = 0;
    for (size_t k = 0; k < s->count && rc == 0; k++) {
        const fgi_featset *set = &s->sets[k];
        for (size_t i = 0; set->repeats && i < set->n && rc == 0; i++)
            rc = fgi_novelty_bump(into, s->feats[set->first + i], set->repeats) < 0 ? -1 : 0;
    }
    if (s->count)
        memset(s->index, 0, s->index_cap * sizeof *s->index);
    s->count = s->nfeats = 0;
    return rc;
}
