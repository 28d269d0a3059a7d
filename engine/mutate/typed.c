/* engine/mutate/typed.c — read-aware mutation (typed.h): values rewritten where and as the
 * target reads them, operations duplicated, deleted and spliced whole.
 *
 * Invariant: an edit touches only bytes a read of the record consumed, or moves whole
 * groups, so every read before the edit point reads as it did; an edit whose result would
 * pass max does not apply (buf unchanged). Every write is bounds-asserted.
 */
#include "engine/mutate/typed.h"

#include <string.h>

static uint64_t load_le(const uint8_t *p, unsigned w)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < w; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void store_le(uint8_t *p, unsigned w, uint64_t v)
{
    for (unsigned i = 0; i < w; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A read whose value can be rewritten in place: whole, inside the bytes, with more than
 * one value (a length is left alone: its bytes follow it). */
static int editable(const fgi_read *d, size_t size)
{
    return (d->kind == FGI_READ_PICK || d->kind == FGI_READ_RANGE ||
            d->kind == FGI_READ_INT || d->kind == FGI_READ_BOOL) &&
           !d->short_ && d->width > 0 && d->lo < d->hi && (uint64_t)d->off + d->width <= size;
}

/* The value the reader gave for d over buf (reader.c's arithmetic). */
static uint64_t value_of(const fgi_read *d, const uint8_t *buf)
{
    uint64_t w = load_le(buf + d->off, d->width), span = d->hi - d->lo;
    if (d->kind == FGI_READ_BOOL)
        return w & 1;
    if (d->kind == FGI_READ_INT || span == UINT64_MAX)
        return w;
    return d->lo + w % (span + 1);
}

/* An operand of a recorded comparison that lies in [lo, hi], into *v; 0 when four draws
 * find none. Mostly the base's own comparisons (what this input's run compared). */
static int seen_value(fgi_mut *m, uint64_t lo, uint64_t hi, uint64_t *v)
{
    for (int tries = 0; tries < 4; tries++) {
        const fgi_cmp_int *c = m->nlocal && fgi_rng_chance(m->rng, 3, 4)
                                   ? &m->local[fgi_rng_below(m->rng, m->nlocal)]
                                   : fgi_cmp_pick_int(m->rng);
        if (!c)
            return 0;
        uint64_t x = fgi_rng_below(m->rng, 2) ? c->a : c->b;
        if (x >= lo && x <= hi) {
            *v = x;
            return 1;
        }
    }
    return 0;
}

/* A new value for read d (lo < hi), different from cur when it can be. */
static uint64_t new_value(fgi_mut *m, const fgi_read *d, uint64_t cur)
{
    uint64_t lo = d->lo, hi = d->hi, v = cur;
    if (d->kind == FGI_READ_BOOL)
        return !cur;
    if (d->kind == FGI_READ_PICK) { /* another choice, uniformly */
        v = fgi_rng_below(m->rng, hi);
        return v >= cur ? v + 1 : v;
    }
    switch (fgi_rng_below(m->rng, d->kind == FGI_READ_INT ? 7 : 6)) {
    case 0: v = lo; break;
    case 1: v = hi; break;
    case 2: v = cur < hi ? cur + 1 : cur - 1; break;
    case 3: v = cur > lo ? cur - 1 : cur + 1; break;
    case 4:
        if (!seen_value(m, lo, hi, &v))
            v = fgi_rng_range(m->rng, lo, hi);
        break;
    case 5: v = fgi_rng_range(m->rng, lo, hi); break;
    default: { /* an integer's small arithmetic, wrapping in its width */
        uint64_t step = 1 + fgi_rng_below(m->rng, 16);
        v = (fgi_rng_below(m->rng, 2) ? cur + step : cur - step) & hi;
        break;
    }
    }
    return v;
}

/* Writes value v of read d into buf, in the read's width (d->kind's encoding). */
static void put_value(const fgi_read *d, uint8_t *buf, size_t size, uint64_t v)
{
    FG_ASSERT((uint64_t)d->off + d->width <= size && v >= d->lo && v <= d->hi);
    if (d->kind == FGI_READ_BOOL) {
        buf[d->off] = (uint8_t)((buf[d->off] & ~1u) | (unsigned)v);
        return;
    }
    store_le(buf + d->off, d->width, d->kind == FGI_READ_INT ? v : v - d->lo);
}

/* 1 to 4 value edits (1 with probability 1/2, 2 with 1/4, ...), each on another read, so
 * none undoes another. */
static size_t edit_values(fgi_mut *m, const fgi_read *reads, size_t n, uint8_t *buf,
                          size_t size)
{
    size_t ok[FGI_READS_MAX], nok = 0;
    for (size_t i = 0; i < n && i < FGI_READS_MAX; i++)
        if (editable(&reads[i], size))
            ok[nok++] = i;
    if (!nok)
        return FGI_MUT_SKIP;
    unsigned want = 1 + (unsigned)__builtin_ctzll(fgi_rng_next(m->rng) | (1ULL << 3));
    for (unsigned k = 0; k < want && k < nok; k++) { /* a partial shuffle of ok[] */
        size_t j = k + (size_t)fgi_rng_below(m->rng, nok - k), t = ok[j];
        ok[j] = ok[k];
        ok[k] = t;
        const fgi_read *d = &reads[t];
        put_value(d, buf, size, new_value(m, d, value_of(d, buf)));
    }
    m->step = "read_value";
    return size;
}

size_t fgi_typed_groups(const fgi_read *reads, size_t n, size_t size, uint32_t *starts,
                        uint32_t *end)
{
    size_t ng = 0;
    uint32_t last = 0;
    for (size_t i = 0; i < n; i++) {
        const fgi_read *d = &reads[i];
        if ((uint64_t)d->off + d->width > size)
            break; /* the bytes were cut (max_len): what follows is not this input's */
        if (d->kind == FGI_READ_PICK)
            starts[ng++] = d->off;
        if (ng)
            last = FGI_MAX(last, d->off + d->width);
    }
    *end = last;
    return ng;
}

/* ---- operations: whole groups of reads, moved with the rest kept aligned ---------- */

/* An operation of the input being edited: its bytes and its pick. */
typedef struct op {
    uint32_t s, e;      /* its bytes [s, e) */
    uint32_t pw;        /* its pick's width */
    uint64_t phi, pval; /* its pick's largest choice, and the choice it made */
} op;

#define OPS_MAX (2 * FGI_READS_MAX) /* arbitrary: the record's and what a case's edits add */

/* The operations of an input, in order; contiguous, the last ending at `end` (bytes after
 * it were not read). Edits keep the list true of the bytes, so they can stack. */
typedef struct ops {
    op o[OPS_MAX];
    size_t n;
    uint32_t end;
} ops;

/* The operations of record reads[0..n) over buf[0..size) into l (one pass). */
static void ops_of(ops *l, const fgi_read *reads, size_t n, const uint8_t *buf, size_t size)
{
    l->n = 0;
    l->end = 0;
    for (size_t i = 0; i < n; i++) {
        const fgi_read *d = &reads[i];
        if ((uint64_t)d->off + d->width > size || d->off < l->end)
            break; /* past the bytes, or going back: a record is one pass (reads.c) */
        if (d->kind == FGI_READ_PICK && l->n < OPS_MAX) {
            if (l->n)
                l->o[l->n - 1].e = d->off;
            l->o[l->n++] = (op){.s = d->off, .e = d->off, .pw = d->width, .phi = d->hi,
                                .pval = d->short_ ? 0 : value_of(d, buf)};
        }
        if (l->n)
            l->end = FGI_MAX(l->end, d->off + d->width);
    }
    if (l->n)
        l->o[l->n - 1].e = l->end;
}

/* Where boundary b (0..n) is: the start of operation b, or the end of the last. */
static uint32_t pos_of(const ops *l, size_t b)
{
    return b < l->n ? l->o[b].s : l->end;
}

/* Inserts src[0..len), whose operations are src_ops[0..k) (offsets from src_base), at
 * boundary b. FGI_MUT_SKIP past max or OPS_MAX (nothing changed). src must not be buf. */
static size_t put_ops(ops *l, uint8_t *buf, size_t size, size_t max, size_t b,
                      const uint8_t *src, size_t len, const op *src_ops, size_t k,
                      uint32_t src_base)
{
    if (len == 0 || size + len > max || l->n + k > OPS_MAX)
        return FGI_MUT_SKIP;
    uint32_t pos = pos_of(l, b);
    FG_ASSERT(pos <= size && b <= l->n);
    memmove(buf + pos + len, buf + pos, size - pos);
    memcpy(buf + pos, src, len);
    memmove(&l->o[b + k], &l->o[b], (l->n - b) * sizeof l->o[0]);
    for (size_t i = b + k; i < l->n + k; i++) {
        l->o[i].s += (uint32_t)len;
        l->o[i].e += (uint32_t)len;
    }
    for (size_t i = 0; i < k; i++) {
        l->o[b + i] = src_ops[i];
        l->o[b + i].s = pos + (src_ops[i].s - src_base);
        l->o[b + i].e = pos + (src_ops[i].e - src_base);
    }
    l->n += k;
    l->end = b + k == l->n ? l->o[l->n - 1].e : l->end + (uint32_t)len;
    return size + len;
}

/* Removes operation g. The new size. */
static size_t cut_op(ops *l, uint8_t *buf, size_t size, size_t g)
{
    op o = l->o[g];
    uint32_t len = o.e - o.s;
    memmove(buf + o.s, buf + o.e, size - o.e);
    memmove(&l->o[g], &l->o[g + 1], (l->n - g - 1) * sizeof l->o[0]);
    l->n--;
    for (size_t i = g; i < l->n; i++) {
        l->o[i].s -= len;
        l->o[i].e -= len;
    }
    l->end = g == l->n ? o.s : l->end - len;
    return size - len;
}

/* Where an operation goes in: the end of the last one half the time (a sequence grows at
 * its end: the call after those that set the state up), else any boundary. */
static size_t boundary(fgi_mut *m, const ops *l)
{
    if (fgi_rng_chance(m->rng, 1, 2))
        return l->n;
    return (size_t)fgi_rng_below(m->rng, l->n + 1);
}

/* Puts one operation (src[0..len), its pick as o) in: inserted at a boundary half the
 * time, else over a random operation of ours. */
static size_t place_op(fgi_mut *m, ops *l, uint8_t *buf, size_t size, size_t max,
                       const uint8_t *src, size_t len, op o)
{
    o.s = 0;
    o.e = (uint32_t)len;
    if (len == 0 || len > max) /* before anything is cut: SKIP leaves buf as it was */
        return FGI_MUT_SKIP;
    if (fgi_rng_chance(m->rng, 1, 2) || l->n == 0)
        return put_ops(l, buf, size, max, boundary(m, l), src, len, &o, 1, 0);
    size_t g = (size_t)fgi_rng_below(m->rng, l->n);
    uint32_t old = l->o[g].e - l->o[g].s;
    if (size - old + len > max)
        return FGI_MUT_SKIP;
    size = cut_op(l, buf, size, g);
    return put_ops(l, buf, size, max, g, src, len, &o, 1, 0);
}

/* Copies a run of operations in, mostly right after itself: one operation (1/4: a run of
 * the same call grows), all of them (1/4: a sequence doubles) or from one to a later one
 * (1/2); once (1/2), else 2^j - 1 more times, j in 1..6 (as far as max allows): a state
 * that takes many calls to reach (a full container, a counter wrapping) in one edit. */
static size_t dup_ops(fgi_mut *m, ops *l, uint8_t *buf, size_t size, size_t max)
{
    static op src_ops[OPS_MAX]; /* run thread */
    size_t g = 0, last = l->n - 1;
    uint64_t how = fgi_rng_below(m->rng, 4);
    if (how > 0) {
        g = (size_t)fgi_rng_below(m->rng, l->n);
        last = how == 1 ? g : g + (size_t)fgi_rng_below(m->rng, l->n - g);
    }
    size_t k = last - g + 1, len = l->o[last].e - l->o[g].s;
    size_t times = fgi_rng_chance(m->rng, 1, 2) ? 1 : ((size_t)2 << fgi_rng_below(m->rng, 6)) - 1;
    times = FGI_MIN(times, FGI_MIN((max - size) / (len ? len : 1), (OPS_MAX - l->n) / k));
    if (times == 0 || len == 0)
        return FGI_MUT_SKIP;
    for (size_t t = 0; t < times; t++) { /* the run, times over, with its operations */
        memcpy(m->scratch + t * len, buf + l->o[g].s, len);
        for (size_t i = 0; i < k; i++) {
            src_ops[t * k + i] = l->o[g + i];
            src_ops[t * k + i].s += (uint32_t)(t * len);
            src_ops[t * k + i].e += (uint32_t)(t * len);
        }
    }
    size_t b = fgi_rng_chance(m->rng, 3, 4) ? last + 1 : boundary(m, l);
    return put_ops(l, buf, size, max, b, m->scratch, times * len, src_ops, times * k,
                   l->o[g].s);
}

/* A new operation of a chosen kind: a choice c of one of our picks, then the bytes of an
 * operation that made it (ours or the partner's, so its arguments are c's), or when none
 * did, the pick's word alone (its arguments are then read from what follows, or as 0 at
 * the end). */
static size_t op_of_choice(fgi_mut *m, ops *l, const ops *ol, uint8_t *buf, size_t size,
                           size_t max)
{
    const op *p = &l->o[fgi_rng_below(m->rng, l->n)];
    if (p->phi == 0 || p->pw == 0)
        return FGI_MUT_SKIP;
    uint64_t c = fgi_rng_below(m->rng, p->phi + 1);
    size_t match[2 * OPS_MAX], nm = 0; /* ours; the partner's at OPS_MAX + h */
    for (size_t g = 0; g < l->n; g++)
        if (l->o[g].pw == p->pw && l->o[g].phi == p->phi && l->o[g].pval == c)
            match[nm++] = g;
    for (size_t h = 0; h < ol->n; h++)
        if (ol->o[h].pw == p->pw && ol->o[h].phi == p->phi && ol->o[h].pval == c)
            match[nm++] = OPS_MAX + h;
    op o = *p;
    o.pval = c;
    size_t len = p->pw;
    if (nm == 0) {
        store_le(m->scratch, p->pw, c);
    } else {
        size_t k = match[fgi_rng_below(m->rng, nm)];
        const op *q = k < OPS_MAX ? &l->o[k] : &ol->o[k - OPS_MAX];
        len = q->e - q->s;
        if (len > max) /* the partner may be longer than max_len, the scratch's size */
            return FGI_MUT_SKIP;
        memcpy(m->scratch, (k < OPS_MAX ? buf : m->other) + q->s, len);
    }
    return place_op(m, l, buf, size, max, m->scratch, len, o);
}

/* One of the partner's operations, in or over one of ours. */
static size_t splice_op(fgi_mut *m, ops *l, const ops *ol, uint8_t *buf, size_t size,
                        size_t max)
{
    if (ol->n == 0)
        return FGI_MUT_SKIP;
    const op *q = &ol->o[fgi_rng_below(m->rng, ol->n)];
    if (q->e - q->s > max) /* the partner may be longer than max_len, the scratch's size */
        return FGI_MUT_SKIP;
    memcpy(m->scratch, m->other + q->s, q->e - q->s);
    return place_op(m, l, buf, size, max, m->scratch, q->e - q->s, *q);
}

size_t fgi_typed_mutate(fgi_mut *m, const fgi_read *reads, size_t n, const fgi_read *oreads,
                        size_t on, uint8_t *buf, size_t size, size_t max)
{
    static ops mine, theirs; /* run thread only; too big for the stack */
    static const char *const names[] = {"read_dup", "read_dup", "read_delete", "read_op",
                                        "read_op", "read_op", "read_splice"};
    FG_ASSERT(size <= max && m->scratch);
    m->napplied = 0;
    m->step = NULL;
    n = FGI_MIN(n, (size_t)FGI_READS_MAX);
    ops_of(&mine, reads, n, buf, size);
    if (mine.n == 0 || fgi_rng_below(m->rng, 3) == 0)
        return edit_values(m, reads, n, buf, size);
    theirs.n = 0;
    if (m->other)
        ops_of(&theirs, oreads, FGI_MIN(on, (size_t)FGI_READS_MAX), m->other, m->other_size);
    /* 1 to 3 edits stacked (1/2, 1/4, 1/4): the list follows every edit, so a sequence
     * can double and gain a call in one case. */
    unsigned want = 1 + (unsigned)__builtin_ctzll(fgi_rng_next(m->rng) | (1ULL << 2));
    size_t out = FGI_MUT_SKIP;
    for (unsigned k = 0; k < want && mine.n; k++) {
        uint64_t what = fgi_rng_below(m->rng, FGI_ARRAY_LEN(names));
        size_t got;
        if (what < 2) {
            got = dup_ops(m, &mine, buf, size, max);
        } else if (what < 3) {
            size_t g = (size_t)fgi_rng_below(m->rng, mine.n);
            got = mine.o[g].e > mine.o[g].s ? cut_op(&mine, buf, size, g) : FGI_MUT_SKIP;
        } else if (what < 6) {
            got = op_of_choice(m, &mine, &theirs, buf, size, max);
        } else {
            got = splice_op(m, &mine, &theirs, buf, size, max);
        }
        if (got == FGI_MUT_SKIP)
            continue;
        if (!m->step)
            m->step = names[what];
        out = size = got;
    }
    return out;
}
