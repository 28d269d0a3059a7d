/* engine/findings/minimize.c — in-class delta debugging, over a read record's operations and
 * values first when the input has one, then over bytes, bounded by a trial budget.
 *
 * Invariants of a search (struct search):
 *   - cur[0..size) reproduces: it is the original or a candidate the predicate accepted;
 *   - every byte-pass candidate is strictly smaller than cur in the order (size, then the
 *     sum of the bytes' simplicity ranks), so no accepted input is ever proposed again and
 *     each pass ends; a round that accepts nothing is the fixed point. The value pass over
 *     a read record (lower_values) runs once and tries 0 and half of each value, which is
 *     smaller as a number but not always in that order (0x3000 halves to 0x1800);
 *     `tried` keeps it from proposing an input twice;
 *   - `tried` holds the content hash of cur and of every candidate tried, so equal bytes
 *     are never tried twice and a repeat costs no trial.
 */
#include "engine/findings/minimize.h"

#include "engine/mutate/typed.h"
#include "engine/search/novelty.h"

#include <string.h>

typedef struct search {
    uint8_t *cur;        /* the smallest input confirmed so far */
    uint8_t *cand;       /* the candidate being built; swapped with cur on acceptance */
    size_t size;         /* bytes in cur */
    fgi_novelty tried;   /* content hashes of every input tried (and of the original) */
    fgi_reproduces_fn reproduces;
    void *ctx;
    unsigned long budget;
    unsigned long trials;
    unsigned long repeats;
    enum fgi_min_stop stop;
    int done;            /* the budget or the predicate ended the search */
    fg_error err;        /* FG_ENOMEM from the hash set */
    fgi_read *reads;     /* cur's read record (owned; NULL: none), kept true by the
                          * structural passes; unused after them */
    size_t nreads;
} search;

/* The key of an input in the tried set: never 0 (fg_fold), so it is a valid key. */
static uint64_t content_key(const uint8_t *data, size_t size)
{
    return fg_fold(fgi_hash_bytes(data, size), size);
}

/* Tries cand[0..n). 1 when it reproduces (it becomes cur), 0 when it does not or was
 * tried before, and 0 with s->done set when the search must end. */
static int try_candidate(search *s, size_t n)
{
    if (s->done)
        return 0;
    int fresh = fgi_novelty_add(&s->tried, content_key(s->cand, n));
    if (fresh < 0) {
        s->err = FG_ENOMEM;
        s->done = 1;
        return 0;
    }
    if (!fresh) {
        s->repeats++;
        return 0;
    }
    if (s->trials == s->budget) {
        s->stop = FGI_MIN_BUDGET;
        s->done = 1;
        return 0;
    }
    s->trials++;
    int r = s->reproduces(s->ctx, s->cand, n);
    if (r < 0) {
        s->stop = FGI_MIN_STOPPED;
        s->done = 1;
        return 0;
    }
    if (r == 0)
        return 0;
    uint8_t *t = s->cur;
    s->cur = s->cand;
    s->cand = t;
    s->size = n;
    return 1;
}

/* Tries cur without the len bytes at pos. */
static int try_without(search *s, size_t pos, size_t len)
{
    FG_ASSERT(pos + len <= s->size && len > 0);
    memcpy(s->cand, s->cur, pos);
    memcpy(s->cand + pos, s->cur + pos + len, s->size - pos - len);
    return try_candidate(s, s->size - len);
}

/* Pass 1, ddmin: remove chunks of halving size, each in turn, front to back. A removal
 * keeps the position (the next chunk has slid into it) and the chunk size; single bytes
 * are swept until a sweep removes none. Returns 1 when anything was removed. */
static int remove_chunks(search *s)
{
    int changed = 0;
    size_t chunk = (s->size + 1) / 2;
    while (chunk > 0 && s->size > 0 && !s->done) {
        int removed = 0;
        for (size_t pos = 0; pos < s->size && !s->done;) {
            size_t len = FGI_MIN(chunk, s->size - pos);
            if (try_without(s, pos, len))
                removed = 1;
            else
                pos += len;
        }
        changed |= removed;
        if (chunk > 1)
            chunk = (chunk + 1) / 2; /* < chunk for chunk >= 2 */
        else if (!removed)
            break;
    }
    return changed;
}

/* Pass 2: cut trailing bytes, 2^k of them for k from the largest that fits down to 0,
 * each while it reproduces. Returns 1 when anything was cut. */
static int cut_tail(search *s)
{
    int changed = 0;
    size_t step = 1;
    while (step <= s->size / 2)
        step *= 2;
    for (; step > 0 && !s->done; step /= 2) {
        while (step <= s->size && !s->done) {
            memcpy(s->cand, s->cur, s->size - step);
            if (!try_candidate(s, s->size - step))
                break;
            changed = 1;
        }
    }
    return changed;
}

/* The simpler bytes, simplest first. The order is the issue's; what matters is that it
 * is a strict order, so a byte only ever moves toward the front of it. */
static const uint8_t simpler[] = {0x00, '0', ' '};

static size_t rank_of(uint8_t b)
{
    for (size_t i = 0; i < sizeof simpler; i++)
        if (simpler[i] == b)
            return i;
    return sizeof simpler;
}

/* Pass 3: each byte becomes the simplest replacement that reproduces. Returns 1 when any
 * byte changed. */
static int simplify_bytes(search *s)
{
    int changed = 0;
    for (size_t i = 0; i < s->size && !s->done; i++) {
        size_t rank = rank_of(s->cur[i]);
        for (size_t r = 0; r < rank && !s->done; r++) {
            memcpy(s->cand, s->cur, s->size);
            s->cand[i] = simpler[r];
            if (try_candidate(s, s->size)) {
                changed = 1;
                break;
            }
        }
    }
    return changed;
}

/* ---- structural passes: over the read record's operations and values ---------------- */

/* The record after bytes [pos, pos + len) of cur were removed: their reads gone, the later
 * ones moved back. */
static void drop_reads(search *s, size_t pos, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < s->nreads; i++) {
        fgi_read d = s->reads[i];
        if (d.off >= pos && d.off < pos + len)
            continue;
        if (d.off >= pos + len)
            d.off -= (uint32_t)len;
        s->reads[k++] = d;
    }
    s->nreads = k;
}

/* Pass 0a: ddmin over operations. Returns 1 when any was removed. */
static int remove_operations(search *s)
{
    static uint32_t starts[FGI_READS_MAX + 1]; /* the run thread's */
    int changed = 0;
    uint32_t end;
    size_t n = fgi_typed_groups(s->reads, s->nreads, s->size, starts, &end);
    size_t chunk = (n + 1) / 2;
    while (chunk > 0 && n > 0 && !s->done) {
        int removed = 0;
        for (size_t g = 0; g < n && !s->done;) {
            size_t last = FGI_MIN(g + chunk, n) - 1;
            size_t pos = starts[g], stop = last + 1 < n ? starts[last + 1] : end;
            if (stop > pos && try_without(s, pos, stop - pos)) {
                drop_reads(s, pos, stop - pos);
                n = fgi_typed_groups(s->reads, s->nreads, s->size, starts, &end);
                removed = changed = 1;
            } else {
                g = last + 1;
            }
        }
        if (chunk > 1)
            chunk = (chunk + 1) / 2;
        else if (!removed)
            break;
    }
    return changed;
}

/* Tries cur with read d's stored word set to w (d's width, inside cur). */
static int try_word(search *s, const fgi_read *d, uint64_t w)
{
    memcpy(s->cand, s->cur, s->size);
    for (unsigned i = 0; i < d->width; i++)
        s->cand[d->off + i] = (uint8_t)(w >> (8 * i));
    return try_candidate(s, s->size);
}

/* Pass 0b: each value read toward its lowest: the stored word 0 (lo, 0, false), else half
 * of it. Returns 1 when any changed. */
static int lower_values(search *s)
{
    int changed = 0;
    for (size_t i = 0; i < s->nreads && !s->done; i++) {
        const fgi_read *d = &s->reads[i];
        if (d->kind == FGI_READ_PICK || d->kind == FGI_READ_LEN || d->kind == FGI_READ_BYTES ||
            d->short_ || d->width == 0 || (uint64_t)d->off + d->width > s->size)
            continue;
        uint64_t w = 0;
        for (unsigned b = 0; b < d->width; b++)
            w |= (uint64_t)s->cur[d->off + b] << (8 * b);
        if (w == 0)
            continue;
        if (try_word(s, d, 0) || (w > 1 && try_word(s, d, w / 2)))
            changed = 1;
    }
    return changed;
}

fg_error fgi_minimize(const uint8_t *data, size_t size, unsigned long budget,
                      fgi_reproduces_fn reproduces, void *ctx, fgi_min_result *out)
{
    return fgi_minimize_reads(data, size, NULL, 0, budget, reproduces, ctx, out);
}

fg_error fgi_minimize_reads(const uint8_t *data, size_t size, const fgi_read *reads,
                            size_t nreads, unsigned long budget, fgi_reproduces_fn reproduces,
                            void *ctx, fgi_min_result *out)
{
    if (!out)
        return FG_EINVAL;
    memset(out, 0, sizeof *out);
    if (!reproduces || (!data && size))
        return FG_EINVAL;
    search s = {.size = size, .reproduces = reproduces, .ctx = ctx, .budget = budget,
                .stop = FGI_MIN_FIXED_POINT};
    fgi_novelty_init(&s.tried);
    s.cur = fgi_malloc(size ? size : 1);
    s.cand = s.cur ? fgi_malloc(size ? size : 1) : NULL;
    nreads = reads && fgi_reads_valid(reads, nreads, size) ? nreads : 0;
    s.reads = nreads ? fgi_memdup(reads, nreads * sizeof *reads) : NULL;
    s.nreads = nreads;
    if (!s.cand || fgi_novelty_add(&s.tried, content_key(data, size)) < 0 ||
        (nreads && !s.reads)) {
        s.err = FG_ENOMEM;
    } else {
        if (size)
            memcpy(s.cur, data, size);
        if (s.nreads) { /* whole operations first, then their values, then bytes */
            remove_operations(&s);
            lower_values(&s);
        }
        while (!s.done) {
            int changed = remove_chunks(&s);
            changed |= cut_tail(&s);
            changed |= simplify_bytes(&s);
            if (!changed)
                break;
        }
    }
    fgi_novelty_free(&s.tried);
    fgi_free(s.cand);
    fgi_free(s.reads);
    if (s.err != FG_OK) {
        fgi_free(s.cur);
        return s.err;
    }
    out->data = s.cur;
    out->size = s.size;
    out->trials = s.trials;
    out->repeats = s.repeats;
    out->stop = s.stop;
    return FG_OK;
}
