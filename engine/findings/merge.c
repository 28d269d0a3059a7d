/* engine/findings/merge.c — choosing the inputs a merged corpus keeps: greedy set cover, then the
 * redundant ones dropped.
 *
 * Every (space, value) pair any input has — a coverage feature, or a signature — is an
 * element with a dense id (ids follow the sorted order of the pairs). Each input becomes
 * a sorted list of distinct ids (one array, `ids`, sliced by `first`). Invariants:
 *   - covered[e] is 1 exactly when a kept input has element e;
 *   - holders[e] counts the kept inputs that have e (only the second pass reads it);
 *   - in the cover's heap an input's cached gain is never below its true gain (gains
 *     only fall as elements get covered), which is what makes lazy re-evaluation pick
 *     the same input as a full scan would.
 */
#include "engine/findings/merge.h"

#include <string.h>

typedef struct pair {
    uint64_t value;
    uint32_t space; /* 0 feature, 1 signature */
    uint32_t input;
} pair;

typedef struct merge {
    const fgi_merge_input *in;
    size_t n;
    size_t *first;     /* input i's ids are ids[first[i] .. first[i + 1]) */
    uint32_t *ids;
    size_t nelems;
    uint8_t *covered;
    uint32_t *holders;
    uint8_t *keep;     /* per input */
    uint32_t *gain;    /* the cover's cached gains, per input */
} merge;

static int by_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->space != y->space)
        return x->space < y->space ? -1 : 1;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return x->input < y->input ? -1 : x->input > y->input;
}

/* Builds the dense element lists. FG_ENOMEM or FG_EINVAL. */
static fg_error build_elements(merge *m)
{
    size_t total = 0;
    for (size_t i = 0; i < m->n; i++) {
        const fgi_merge_input *x = &m->in[i];
        if (!x->name || (x->nfeatures && !x->features) || x->nfeatures >= UINT32_MAX)
            return FG_EINVAL;
        total += x->nfeatures + (x->sig != 0);
    }
    pair *all = fgi_malloc(total * sizeof *all);
    m->first = fgi_calloc(m->n + 1, sizeof *m->first);
    m->ids = fgi_malloc(total * sizeof *m->ids);
    if (!all || !m->first || !m->ids) {
        fgi_free(all);
        return FG_ENOMEM;
    }
    size_t at = 0;
    for (size_t i = 0; i < m->n; i++) {
        const fgi_merge_input *x = &m->in[i];
        for (size_t f = 0; f < x->nfeatures; f++)
            all[at++] = (pair){x->features[f], 0, (uint32_t)i};
        if (x->sig)
            all[at++] = (pair){x->sig, 1, (uint32_t)i};
    }
    if (total)
        qsort(all, total, sizeof *all, by_pair);
    /* Distinct (element, input) pairs, each input's count first; then each input's ids
     * are placed in element order, so every slice comes out sorted. */
    uint32_t *id_of = fgi_malloc((total ? total : 1) * sizeof *id_of);
    if (!id_of) {
        fgi_free(all);
        return FG_ENOMEM;
    }
    size_t distinct = 0;
    for (size_t k = 0; k < total; k++) {
        int same_elem = k && all[k].space == all[k - 1].space && all[k].value == all[k - 1].value;
        if (same_elem && all[k].input == all[k - 1].input)
            continue; /* an input naming one feature twice */
        m->nelems += !same_elem;
        m->first[all[k].input + 1]++;
        id_of[distinct] = (uint32_t)(m->nelems - 1);
        all[distinct++].input = all[k].input; /* distinct <= k: all[k] is read first */
    }
    for (size_t i = 0; i < m->n; i++)
        m->first[i + 1] += m->first[i];
    size_t *fill = fgi_malloc((m->n ? m->n : 1) * sizeof *fill);
    if (fill) {
        memcpy(fill, m->first, m->n * sizeof *fill);
        for (size_t k = 0; k < distinct; k++)
            m->ids[fill[all[k].input]++] = id_of[k];
    }
    fgi_free(fill);
    fgi_free(id_of);
    fgi_free(all);
    if (!fill)
        return FG_ENOMEM;
    return FG_OK;
}

static uint64_t cost_of(const fgi_merge_input *x)
{
    uint64_t c = (uint64_t)x->size + FGI_MERGE_FILE_COST;
    return c < UINT32_MAX ? c : UINT32_MAX; /* keeps gain * cost within 64 bits */
}

typedef struct tie_key {
    size_t size;
    const char *name;
    size_t index;
} tie_key;

static int by_tie_key(const void *a, const void *b)
{
    const tie_key *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The tie order: smaller size, then smaller name, then lower index. < 0 when a first. */
static int tie_order(const merge *m, size_t a, size_t b)
{
    tie_key x = {m->in[a].size, m->in[a].name, a}, y = {m->in[b].size, m->in[b].name, b};
    return by_tie_key(&x, &y);
}

/* 1 when input a, at its cached gain, is a better pick than b at b's. */
static int better(const merge *m, size_t a, size_t b)
{
    uint64_t lhs = (uint64_t)m->gain[a] * cost_of(&m->in[b]);
    uint64_t rhs = (uint64_t)m->gain[b] * cost_of(&m->in[a]);
    if (lhs != rhs)
        return lhs > rhs;
    return tie_order(m, a, b) < 0;
}

static void sift_down(const merge *m, size_t *heap, size_t len, size_t at)
{
    for (;;) {
        size_t best = at, l = 2 * at + 1, r = l + 1;
        if (l < len && better(m, heap[l], heap[best]))
            best = l;
        if (r < len && better(m, heap[r], heap[best]))
            best = r;
        if (best == at)
            return;
        size_t t = heap[at];
        heap[at] = heap[best];
        heap[best] = t;
        at = best;
    }
}

static uint32_t true_gain(const merge *m, size_t i)
{
    uint32_t g = 0;
    for (size_t k = m->first[i]; k < m->first[i + 1]; k++)
        g += !m->covered[m->ids[k]];
    return g;
}

static void take(merge *m, size_t i)
{
    m->keep[i] = 1;
    for (size_t k = m->first[i]; k < m->first[i + 1]; k++) {
        m->covered[m->ids[k]] = 1;
        m->holders[m->ids[k]]++;
    }
}

/* Greedy weighted set cover with lazy gains: pop the best cached entry, refresh its gain;
 * if it still beats the next best's cached (an upper bound of that one's true gain), it
 * is the best pick a full scan would make; otherwise it goes back into the heap. */
static fg_error cover(merge *m)
{
    size_t *heap = fgi_malloc((m->n ? m->n : 1) * sizeof *heap);
    if (!heap)
        return FG_ENOMEM;
    size_t len = 0;
    for (size_t i = 0; i < m->n; i++) {
        if (m->keep[i] || !(m->gain[i] = true_gain(m, i)))
            continue;
        heap[len++] = i;
    }
    for (size_t at = len / 2; at-- > 0;)
        sift_down(m, heap, len, at);
    while (len) {
        size_t top = heap[0];
        m->gain[top] = true_gain(m, top);
        if (m->gain[top] == 0) {
            heap[0] = heap[--len];
            sift_down(m, heap, len, 0);
            continue;
        }
        size_t next = len > 1 ? (len > 2 && better(m, heap[2], heap[1]) ? heap[2] : heap[1])
                              : top;
        if (next != top && better(m, next, top)) {
            sift_down(m, heap, len, 0); /* stale: let it sink to its place */
            continue;
        }
        take(m, top);
        heap[0] = heap[--len];
        sift_down(m, heap, len, 0);
    }
    fgi_free(heap);
    return FG_OK;
}

/* Every input's index in tie order (smallest first); NULL when out of memory. */
static size_t *in_tie_order(const merge *m)
{
    tie_key *keys = fgi_malloc((m->n ? m->n : 1) * sizeof *keys);
    size_t *order = keys ? fgi_malloc((m->n ? m->n : 1) * sizeof *order) : NULL;
    if (order) {
        for (size_t i = 0; i < m->n; i++)
            keys[i] = (tie_key){m->in[i].size, m->in[i].name, i};
        qsort(keys, m->n, sizeof *keys, by_tie_key);
        for (size_t i = 0; i < m->n; i++)
            order[i] = keys[i].index;
    }
    fgi_free(keys);
    return order;
}

static fg_error smallest_first(merge *m, const size_t *order)
{
    for (size_t k = 0; k < m->n; k++)
        if (!m->keep[order[k]] && true_gain(m, order[k]))
            take(m, order[k]);
    return FG_OK;
}

/* The second pass: largest first, drop a kept unpinned input every element of which
 * another kept input has too. */
static void drop_redundant(merge *m, const size_t *order)
{
    for (size_t k = m->n; k-- > 0;) {
        size_t i = order[k];
        if (!m->keep[i] || m->in[i].pinned)
            continue;
        size_t e = m->first[i];
        while (e < m->first[i + 1] && m->holders[m->ids[e]] >= 2)
            e++;
        if (e < m->first[i + 1])
            continue;
        m->keep[i] = 0;
        for (e = m->first[i]; e < m->first[i + 1]; e++)
            m->holders[m->ids[e]]--;
    }
}

fg_error fgi_merge(const fgi_merge_input *in, size_t n, enum fgi_merge_how how, size_t *kept,
                   size_t *nkept)
{
    if ((!in && n) || !kept || !nkept || n >= UINT32_MAX)
        return FG_EINVAL;
    merge m = {.in = in, .n = n};
    size_t *order = NULL;
    fg_error e = build_elements(&m);
    if (e == FG_OK) {
        m.covered = fgi_calloc(m.nelems ? m.nelems : 1, 1);
        m.holders = fgi_calloc(m.nelems ? m.nelems : 1, sizeof *m.holders);
        m.keep = fgi_calloc(n ? n : 1, 1);
        m.gain = fgi_calloc(n ? n : 1, sizeof *m.gain);
        order = in_tie_order(&m);
        if (!m.covered || !m.holders || !m.keep || !m.gain || !order)
            e = FG_ENOMEM;
    }
    if (e == FG_OK) {
        for (size_t i = 0; i < n; i++)
            if (in[i].pinned)
                take(&m, i);
        e = how == FGI_MERGE_SMALLEST_FIRST ? smallest_first(&m, order) : cover(&m);
    }
    if (e == FG_OK) {
        drop_redundant(&m, order);
        *nkept = 0;
        for (size_t i = 0; i < n; i++)
            if (m.keep[i])
                kept[(*nkept)++] = i;
    }
    fgi_free(order);
    fgi_free(m.first);
    fgi_free(m.ids);
    fgi_free(m.covered);
    fgi_free(m.holders);
    fgi_free(m.keep);
    fgi_free(m.gain);
    return e;
}
