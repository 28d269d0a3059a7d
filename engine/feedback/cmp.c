/* engine/feedback/cmp.c — the comparison callbacks and hooks, and the tables they fill. */
#include "engine/feedback/cmp.h"

#include "engine/base/case.h"
#include "engine/feedback/workbudget.h"
#include "engine/feedback/sancov.h"
#include "engine/base/numtext.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* Process-wide because the compiler's callbacks have no context. Written by the thread
 * running the case (fgi_case_on_thread: a target's other threads are not recorded, they
 * would race); read by the run thread between cases. The
 * rings record every case's comparisons (a case's own are read back with fgi_cmp_since);
 * the pool is what the mutators draw from, and it is fed only by fgi_cmp_pool_add with
 * the comparisons of inputs the run kept, in the order it kept them — so what a case may
 * draw is a function of the corpus snapshot, not of which executor ran which case. */
static struct {
    fgi_cmp_int ints[FGI_CMP_INTS];
    unsigned long nints;
    fgi_cmp_str strs[FGI_CMP_STRS];
    unsigned long nstrs;
    fgi_cmp_int pool_ints[FGI_CMP_INTS];
    unsigned long npool_ints;
    unsigned long npool_reals; /* of the pool's pairs, the floating-point ones */
    fgi_cmp_str pool_strs[FGI_CMP_STRS];
    unsigned long npool_strs;
    struct {
        uint64_t hash;            /* 0 = empty */
        uint32_t seen;            /* occurrences; promoted at FGI_CMP_AUTO_AFTER */
        uint8_t len, bytes[FGI_CMP_STR_MAX];
    } counts[512];                /* candidate constants, open addressing */
    unsigned ncounts;
    struct {
        uint8_t len, bytes[FGI_CMP_STR_MAX];
    } promoted[FGI_CMP_AUTO];     /* the automatic dictionary */
    unsigned npromoted;
    int traced;                   /* a trace-cmp callback has fired (fgi_cmp_traced) */
    unsigned long work;           /* the case thread's integer comparisons (fgi_cmp_work) */
    /* The case's first FGI_CMP_WIDE integer pairs of 2+ bytes, in order (fgi_cmp_begin
     * empties it). The ring keeps a case's latest comparisons only, and a parser checks
     * a header first, then reads the whole file: bfd tries a hundred formats' magic
     * numbers, then reads sections, a thousand comparisons after. Appended, a few
     * instructions a comparison; fgi_cmp_case_pairs sorts it out for a kept input. */
    struct {
        uint64_t a, b;
        uint8_t width, constant;
    } wide[FGI_CMP_WIDE];
    unsigned nwide;
} cmp;

#define NCOUNTS FGI_ARRAY_LEN(cmp.counts)

/* Whether the n bytes at x and y are the same. A byte loop: memcmp is interposed
 * (strhook.c) and would come straight back to the comparison hooks. */
static int same_bytes(const uint8_t *x, const uint8_t *y, size_t n)
{
    size_t i = 0;
    while (i < n && x[i] == y[i])
        i++;
    return i == n;
}

/* When the candidates fill half the table, those seen only once (mostly the input's own
 * bytes) are dropped and the rest re-placed, so a constant met later still gets counted. */
static void sweep_counts(void)
{
    static __typeof__(cmp.counts) keep; /* run thread only; too big for the stack */
    memcpy(keep, cmp.counts, sizeof keep);
    memset(cmp.counts, 0, sizeof cmp.counts);
    cmp.ncounts = 0;
    for (size_t j = 0; j < NCOUNTS; j++) {
        if (!keep[j].hash || keep[j].seen < 2)
            continue;
        size_t i = (size_t)keep[j].hash & (NCOUNTS - 1);
        while (cmp.counts[i].hash)
            i = (i + 1) & (NCOUNTS - 1);
        cmp.counts[i] = keep[j];
        cmp.ncounts++;
    }
}

/* Counts one appearance of a constant; promotes it to the automatic dictionary when it
 * keeps appearing. Deterministic: the table's contents follow the comparisons in order. */
static void count_constant(const uint8_t *b, size_t len)
{
    if (len < 2 || len > FGI_CMP_STR_MAX || cmp.npromoted == FGI_CMP_AUTO)
        return;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    h = fg_mix64(h ^ len) | 1;
    size_t mask = NCOUNTS - 1, i = (size_t)h & mask;
    while (cmp.counts[i].hash && cmp.counts[i].hash != h)
        i = (i + 1) & mask;
    if (!cmp.counts[i].hash) {
        if (cmp.ncounts * 2 >= NCOUNTS) {
            sweep_counts();
            if (cmp.ncounts * 2 >= NCOUNTS)
                return;
            i = (size_t)h & mask;
            while (cmp.counts[i].hash)
                i = (i + 1) & mask;
        }
        cmp.ncounts++;
        cmp.counts[i].hash = h;
        cmp.counts[i].len = (uint8_t)len;
        memcpy(cmp.counts[i].bytes, b, len);
    }
    if (++cmp.counts[i].seen == FGI_CMP_AUTO_AFTER) {
        cmp.promoted[cmp.npromoted].len = (uint8_t)len;
        memcpy(cmp.promoted[cmp.npromoted++].bytes, b, len);
    }
}

double fgi_cmp_value(const fgi_cmp_int *c, uint64_t bits)
{
    if (c->kind == FGI_CMP_DOUBLE) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    if (c->kind == FGI_CMP_FLOAT) {
        uint32_t b32 = (uint32_t)bits;
        float f;
        memcpy(&f, &b32, sizeof f);
        return f;
    }
    unsigned shift = 64 - 8 * (unsigned)c->width;
    return (double)((int64_t)(bits << shift) >> shift);
}

/* A floating-point operand offered to the automatic dictionary as its shortest text; which
 * side is the constant is not known, and the input's side rarely repeats. */
static void count_number(const fgi_cmp_int *c, uint64_t bits)
{
    char text[FGI_NUM_TEXT_MAX];
    size_t n = fgi_num_text(fgi_cmp_value(c, bits), c->kind == FGI_CMP_FLOAT, FGI_NUM_SHORTEST,
                            text);
    count_constant((const uint8_t *)text, n);
}

size_t fgi_cmp_auto_count(void)
{
    return cmp.npromoted;
}

const uint8_t *fgi_cmp_auto_word(size_t i, size_t *len)
{
    FG_ASSERT(i < cmp.npromoted);
    *len = cmp.promoted[i].len;
    return cmp.promoted[i].bytes;
}

void fgi_cmp_reset(void)
{
    (void)fgi_cmp_begin();
    cmp.nints = cmp.nstrs = cmp.npool_ints = cmp.npool_strs = cmp.npool_reals = 0;
    memset(cmp.counts, 0, sizeof cmp.counts);
    cmp.ncounts = cmp.npromoted = 0;
}

int fgi_cmp_have_ints(void)
{
    return cmp.npool_ints != 0;
}

int fgi_cmp_have_reals(void)
{
    return cmp.npool_reals != 0;
}

int fgi_cmp_have_strs(void)
{
    return cmp.npool_strs != 0;
}

const fgi_cmp_int *fgi_cmp_pick_int(fgi_rng *r)
{
    unsigned long n = cmp.npool_ints < FGI_CMP_INTS ? cmp.npool_ints : FGI_CMP_INTS;
    return n ? &cmp.pool_ints[fgi_rng_below(r, n)] : NULL;
}

const fgi_cmp_str *fgi_cmp_pick_str(fgi_rng *r)
{
    unsigned long n = cmp.npool_strs < FGI_CMP_STRS ? cmp.npool_strs : FGI_CMP_STRS;
    return n ? &cmp.pool_strs[fgi_rng_below(r, n)] : NULL;
}

void fgi_cmp_pool_add(const fgi_cmp_int *ints, size_t nints, const fgi_cmp_str *strs,
                      size_t nstrs)
{
    for (size_t i = 0; i < nints; i++) {
        const fgi_cmp_int *c = &ints[i];
        fgi_cmp_int *slot = &cmp.pool_ints[cmp.npool_ints % FGI_CMP_INTS];
        if (cmp.npool_ints++ >= FGI_CMP_INTS && slot->kind != FGI_CMP_INTEGER)
            cmp.npool_reals--; /* the ring drops a floating-point pair */
        *slot = *c;
        if (c->kind != FGI_CMP_INTEGER) {
            cmp.npool_reals++;
            count_number(c, c->a);
            count_number(c, c->b);
        } else if (c->width >= 2 && c->constant) {
            uint8_t le[8];
            for (unsigned j = 0; j < c->width; j++)
                le[j] = (uint8_t)(c->b >> (8 * j));
            count_constant(le, c->width);
        }
    }
    for (size_t i = 0; i < nstrs; i++) {
        const fgi_cmp_str *c = &strs[i];
        cmp.pool_strs[cmp.npool_strs++ % FGI_CMP_STRS] = *c;
        /* Which side is the program's constant is not known; the input's side rarely
         * repeats byte for byte, so counting both promotes the constant. */
        count_constant(c->a, c->alen);
        count_constant(c->b, c->blen);
    }
}

/* How many of a ring's latest pairs, recorded since mark, a copy of capacity cap takes. */
static unsigned long since_count(unsigned long total, unsigned long mark, unsigned long ring,
                                 size_t cap)
{
    unsigned long n = total - mark;
    n = n < ring ? n : ring;
    return n < cap ? n : (unsigned long)cap;
}

unsigned long fgi_cmp_mark_strs(void)
{
    return cmp.nstrs;
}

size_t fgi_cmp_strs_since(unsigned long mark, fgi_cmp_str *out, size_t cap)
{
    const fgi_cmp_str *p[FGI_CMP_STRS]; /* the ring holds no more */
    size_t n = fgi_cmp_strs_since_ptrs(mark, p, cap < FGI_CMP_STRS ? cap : FGI_CMP_STRS);
    for (size_t i = 0; i < n; i++)
        out[i] = *p[i];
    return n;
}

unsigned long fgi_cmp_begin(void)
{
    cmp.nwide = 0;
    return cmp.nints;
}

unsigned long fgi_cmp_mark(void)
{
    return cmp.nints;
}

size_t fgi_cmp_since(unsigned long mark, fgi_cmp_int *out, size_t cap)
{
    const fgi_cmp_int *p[FGI_CMP_INTS]; /* the ring holds no more */
    size_t n = fgi_cmp_since_ptrs(mark, p, cap < FGI_CMP_INTS ? cap : FGI_CMP_INTS);
    for (size_t i = 0; i < n; i++)
        out[i] = *p[i];
    return n;
}

size_t fgi_cmp_since_ptrs(unsigned long mark, const fgi_cmp_int **out, size_t cap)
{
    unsigned long n = since_count(cmp.nints, mark, FGI_CMP_INTS, cap);
    for (unsigned long i = 0; i < n; i++)
        out[i] = &cmp.ints[(cmp.nints - n + i) % FGI_CMP_INTS];
    return (size_t)n;
}

size_t fgi_cmp_strs_since_ptrs(unsigned long mark, const fgi_cmp_str **out, size_t cap)
{
    unsigned long n = since_count(cmp.nstrs, mark, FGI_CMP_STRS, cap);
    for (unsigned long i = 0; i < n; i++)
        out[i] = &cmp.strs[(cmp.nstrs - n + i) % FGI_CMP_STRS];
    return (size_t)n;
}

int fgi_cmp_traced(void)
{
    return cmp.traced;
}

unsigned long fgi_cmp_work(void)
{
    return cmp.work;
}

/* 1 when a and b look like two addresses in one mapping: both at or above 4 GiB and
 * below 2^48 (user space on x86-64 and arm64; a PIE's code and data, the heap, mmap and
 * the stack all live there), less than 4 GiB apart. A pointer checked against a buffer's
 * end (strtod's `end <= buf + len`) teaches nothing, and ASLR moves it: recorded, it could
 * be written into an input, and two runs of one build would go different ways. */
static int addresses(uint64_t a, uint64_t b)
{
    const uint64_t low = (uint64_t)1 << 32, high = (uint64_t)1 << 48;
    return a >= low && b >= low && a < high && b < high && (a > b ? a - b : b - a) < low;
}

/* The linker's: where the program's image begins (weak: absent, the test is skipped). */
extern char __executable_start __attribute__((weak));

/* 1 when a and b both lie in the program's image or its brk heap, from the image's start
 * to the heap's current top. A position-dependent program (-no-pie, most -static builds)
 * has both below 4 GiB, where `addresses` does not look: its image is fixed, but the heap
 * starts at a random distance above it, so a pointer compared with its buffer's end there
 * is as unrepeatable as anywhere else. (In a PIE both are above 4 GiB: `addresses`.) */
static int image_or_heap(uint64_t a, uint64_t b)
{
    uint64_t start = (uint64_t)(uintptr_t)&__executable_start;
    if (!start || a < start || b < start)
        return 0;
    uint64_t top = (uint64_t)(uintptr_t)sbrk(0);
    return a < top && b < top;
}

/* Records a pair in the ring (and, 2+ bytes wide, among the case's first wide ones). */
static inline void put_int(uint64_t a, uint64_t b, uint8_t width, int b_is_constant)
{
    if (width > 1 && cmp.nwide < FGI_CMP_WIDE) {
        cmp.wide[cmp.nwide].a = a;
        cmp.wide[cmp.nwide].b = b;
        cmp.wide[cmp.nwide].width = width;
        cmp.wide[cmp.nwide++].constant = (uint8_t)b_is_constant;
    }
    fgi_cmp_int *slot = &cmp.ints[cmp.nints++ % FGI_CMP_INTS];
    slot->a = a;
    slot->b = b;
    slot->width = width;
    slot->constant = (uint8_t)b_is_constant;
    slot->kind = FGI_CMP_INTEGER;
}

/* A 64-bit pair of two variables: dropped when it looks like two addresses (out of line:
 * rare, and its sbrk call would give every comparison callback a frame). */
__attribute__((noinline)) static void note_wide(uint64_t a, uint64_t b)
{
    if (!addresses(a, b) && !image_or_heap(a, b))
        put_int(a, b, 8, 0);
}

/* Every integer comparison callback comes here, inlined: instrumented real code makes
 * thousands a case (the x86 disassembler ~2,700), so its common way is a few tests and
 * the ring's store, with no frame. Equal operands teach nothing, and small values are
 * what byte havoc finds on its own; both would crowd the ring. Only the case's own thread
 * is recorded (another thread of the target would race). A compiler's callback (traced)
 * counts against the case's comparison budget; a plain build's fg_cmp_u64 does not. */
static inline __attribute__((always_inline)) void note_int(uint64_t a, uint64_t b,
                                                           uint8_t width, int b_is_constant,
                                                           int traced)
{
    if (__builtin_expect(!cmp.traced, 0))
        cmp.traced = 1;
    if (!fgi_case_on_thread())
        return;
    cmp.work++;
    if (a != b && (a | b) >= 2) {
        if (width == 8 && !b_is_constant)
            note_wide(a, b);
        else
            put_int(a, b, width, b_is_constant);
    }
    if (traced) /* last: its rare call is a tail call, and the common way needs no frame */
        fgi_budget_count(FGI_BUDGET_CMPS);
}

void fgi_cmp_note_int(uint64_t a, uint64_t b, uint8_t width)
{
    note_int(a, b, width, 0, 0);
}

/* Whether p lies in the running case's stack frames: between this function's frame and
 * the frame of the harness's call into the target. Inlined, so "this frame" is the
 * comparison hook's, below every frame of the target's. A local is what the target built
 * (an address printed back, a decoded field); a constant lies in the image or the heap. */
static inline __attribute__((always_inline)) int case_local(const void *p)
{
    uintptr_t at = (uintptr_t)p, top = fgi_case_now.frame;
    return top && at >= (uintptr_t)__builtin_frame_address(0) && at < top;
}

/* fgi_cmp_note_bytes, with `built` (FGI_CMP_A_LOCAL and/or _B_LOCAL) marking operands
 * known to be no constant whatever their address: a search's haystack. */
static void note_bytes(const void *a, size_t alen, const void *b, size_t blen, uint8_t built)
{
    /* One side may be empty: strcmp(input, "keyword") on an empty input is the first
     * thing a search meets, and the keyword is what it needs. */
    if (!fgi_case_on_thread() || (alen == 0 && blen == 0))
        return;
    alen = alen < FGI_CMP_STR_MAX ? alen : FGI_CMP_STR_MAX;
    blen = blen < FGI_CMP_STR_MAX ? blen : FGI_CMP_STR_MAX;
    if (alen == blen && same_bytes(a, b, alen))
        return;
    fgi_cmp_str *slot = &cmp.strs[cmp.nstrs++ % FGI_CMP_STRS];
    memcpy(slot->a, a, alen);
    memcpy(slot->b, b, blen);
    slot->alen = (uint8_t)alen;
    slot->blen = (uint8_t)blen;
    slot->local = (uint8_t)(built | case_local(a) * FGI_CMP_A_LOCAL |
                            case_local(b) * FGI_CMP_B_LOCAL);
}

void fgi_cmp_note_bytes(const void *a, size_t alen, const void *b, size_t blen)
{
    note_bytes(a, alen, b, blen, 0);
}

/* Whether the n bytes at w occur in the input. A byte loop: memmem is interposed. */
static int occurs(const uint8_t *in, size_t size, const uint8_t *w, size_t n)
{
    for (size_t i = 0; n <= size && i + n <= size; i++)
        if (same_bytes(in + i, w, n))
            return 1;
    return 0;
}

static uint64_t bytes_key(uint64_t tag, const uint8_t *b, size_t n)
{
    uint64_t h = tag;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    h = fg_mix64(h ^ n);
    return h ? h : 1;
}

/* The byte pairs of an input, as a bit set: a word's first two bytes absent from it rule
 * the word out without a scan. */
typedef struct {
    uint64_t bits[65536 / 64];
} bigrams;

static void bigrams_of(bigrams *g, const uint8_t *in, size_t size)
{
    memset(g->bits, 0, sizeof g->bits);
    for (size_t i = 0; i + 1 < size; i++) {
        unsigned k = in[i] | (unsigned)in[i + 1] << 8;
        g->bits[k / 64] |= (uint64_t)1 << (k % 64);
    }
}

/* Whether the integer v of w bytes occurs in the input, in either byte order; le gets its
 * little-endian bytes. g (the input's bigrams), when given and w is 2 or more, rules most
 * values out without a scan. */
static int int_occurs(const bigrams *g, const uint8_t *in, size_t size, uint64_t v, unsigned w,
                      uint8_t le[8])
{
    uint8_t be[8];
    for (unsigned i = 0; i < w; i++) {
        le[i] = (uint8_t)(v >> (8 * i));
        be[w - 1 - i] = le[i];
    }
    int maybe_le = 1, maybe_be = 1;
    if (g && w >= 2) {
        unsigned kl = le[0] | (unsigned)le[1] << 8, kb = be[0] | (unsigned)be[1] << 8;
        maybe_le = g->bits[kl / 64] >> (kl % 64) & 1;
        maybe_be = g->bits[kb / 64] >> (kb % 64) & 1;
    }
    return (maybe_le && occurs(in, size, le, w)) || (maybe_be && occurs(in, size, be, w));
}

size_t fgi_cmp_case_pairs(const uint8_t *in, size_t size, unsigned long mark, fgi_cmp_int *out,
                          size_t cap)
{
    /* Run thread only; too big for the stack. seen: a set of pairs by open addressing,
     * each slot 1 + an index into wide (0: empty), twice the log's size. */
    static bigrams g;
    static uint16_t seen[2 * FGI_CMP_WIDE], found[FGI_CMP_WIDE];
    bigrams_of(&g, in, size);
    memset(seen, 0, sizeof seen);
    size_t n = 0;
    for (unsigned i = 0; i < cmp.nwide; i++) {
        const __typeof__(cmp.wide[0]) *d = &cmp.wide[i];
        uint64_t h = (d->a * 0x9e3779b97f4a7c15ULL) ^ (d->b * 0xc2b2ae3d27d4eb4fULL) ^ d->width;
        size_t k = (size_t)(h >> 40) & (FGI_ARRAY_LEN(seen) - 1);
        int dup = 0;
        for (; seen[k] && !dup; k = (k + 1) & (FGI_ARRAY_LEN(seen) - 1)) {
            const __typeof__(cmp.wide[0]) *e = &cmp.wide[seen[k] - 1];
            dup = e->a == d->a && e->b == d->b && e->width == d->width;
        }
        if (dup)
            continue;
        seen[k] = (uint16_t)(i + 1);
        uint8_t le[8];
        /* Found at the comparison's width, found at the field's too. */
        unsigned w = fgi_cmp_field_width(d->a, d->b, d->width);
        if (int_occurs(&g, in, size, d->a, w, le) ||
            (!d->constant && int_occurs(&g, in, size, d->b, w, le)))
            found[n++] = (uint16_t)i;
    }
    size_t latest = since_count(cmp.nints, mark, FGI_CMP_INTS, cap / 2);
    size_t take = n < cap - latest ? n : cap - latest, k = 0;
    for (size_t j = 0; j < take; j++) { /* spread over the case, first to last */
        const __typeof__(cmp.wide[0]) *d = &cmp.wide[found[j * n / take]];
        out[k++] = (fgi_cmp_int){.a = d->a, .b = d->b, .width = d->width,
                                 .constant = d->constant, .kind = FGI_CMP_INTEGER};
    }
    return k + fgi_cmp_since(mark, out + k, cap - k);
}

/* Calls fn for an integer operand of w bytes found in neither byte order; 1 if it did. */
static int int_constant(const uint8_t *in, size_t size, uint64_t v, unsigned w,
                        void (*fn)(void *ctx, uint64_t key), void *ctx)
{
    uint8_t le[8];
    if (int_occurs(NULL, in, size, v, w, le))
        return 0;
    fn(ctx, bytes_key(0x1a7e5eedULL + w, le, w));
    return 1;
}

void fgi_cmp_constants(const uint8_t *in, size_t n, unsigned long mark, unsigned long smark,
                       void (*fn)(void *ctx, uint64_t key), void *ctx)
{
    if (cmp.nstrs == smark && cmp.nints == mark)
        return; /* the case compared nothing: the common case, kept cheap */
    unsigned left = FGI_CMP_FEATS;
    unsigned long s = since_count(cmp.nstrs, smark, FGI_CMP_STRS, FGI_CMP_STRS);
    for (unsigned long i = 0; i < s && left; i++) {
        const fgi_cmp_str *c = &cmp.strs[(cmp.nstrs - s + i) % FGI_CMP_STRS];
        if (c->alen && !(c->local & FGI_CMP_A_LOCAL) && !occurs(in, n, c->a, c->alen) &&
            left--)
            fn(ctx, bytes_key(0x57a1c0deULL, c->a, c->alen));
        if (c->blen && left && !(c->local & FGI_CMP_B_LOCAL) &&
            !occurs(in, n, c->b, c->blen) && left--)
            fn(ctx, bytes_key(0x57a1c0deULL, c->b, c->blen));
    }
    unsigned long k = since_count(cmp.nints, mark, FGI_CMP_INTS, FGI_CMP_INTS);
    for (unsigned long i = 0; i < k && left; i++) {
        const fgi_cmp_int *c = &cmp.ints[(cmp.nints - k + i) % FGI_CMP_INTS];
        left -= (unsigned)int_constant(in, n, c->b, c->width, fn, ctx);
        if (left && !c->constant)
            left -= (unsigned)int_constant(in, n, c->a, c->width, fn, ctx);
    }
}

/* The callbacks, as clang and gcc emit them for -fsanitize-coverage=trace-cmp. */

/* gcc also traces floating-point comparisons (clang does not): their operands are kept as
 * bit patterns, kind FGI_CMP_DOUBLE or _FLOAT, for the number mutator (numbers.c) that
 * writes them back as text, and for cmp_int where a format stores them as bytes. */
static void note_real(uint64_t a, uint64_t b, uint8_t width, uint8_t kind)
{
    cmp.traced = 1;
    if (!fgi_case_on_thread())
        return;
    cmp.work++;
    fgi_budget_count(FGI_BUDGET_CMPS);
    if (a == b)
        return;
    fgi_cmp_int *slot = &cmp.ints[cmp.nints++ % FGI_CMP_INTS];
    slot->a = a;
    slot->b = b;
    slot->width = width;
    slot->constant = 0;
    slot->kind = kind;
}

void __sanitizer_cov_trace_cmpf(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    note_real(x, y, 4, FGI_CMP_FLOAT);
}

void __sanitizer_cov_trace_cmpd(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    note_real(x, y, 8, FGI_CMP_DOUBLE);
}

void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b) { note_int(a, b, 1, 0, 1); }
void __sanitizer_cov_trace_cmp2(uint16_t a, uint16_t b) { note_int(a, b, 2, 0, 1); }
void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b) { note_int(a, b, 4, 0, 1); }
void __sanitizer_cov_trace_cmp8(uint64_t a, uint64_t b) { note_int(a, b, 8, 0, 1); }
void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b) { note_int(b, a, 1, 1, 1); }
void __sanitizer_cov_trace_const_cmp2(uint16_t a, uint16_t b) { note_int(b, a, 2, 1, 1); }
void __sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b) { note_int(b, a, 4, 1, 1); }
void __sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b) { note_int(b, a, 8, 1, 1); }

/* cases[0] is the number of cases, cases[1] the width in bits, then the case values. The
 * value is recorded against the two nearest case values, the largest below it and the
 * smallest above (a switch over 32-bit opcodes is a ladder of equality tests the fuzzer
 * cannot see otherwise; from either neighbour the search climbs to the next), as
 * libFuzzer does. Not every case value: a parser's switches run on every token, and
 * sixteen records each flooded the ring (half of the x86 disassembler's records were its
 * switches'). A switch whose values all fit in a byte is left to byte havoc. The order of
 * the values is not assumed: clang sorts them, gcc need not. */
/* Switch sites whose case values all fit a byte, remembered by the address of their case
 * table (the compiler's constant array, one a site): C switches over a char promoted to
 * int, and real code (a demangler, a lexer) runs them several times a byte, each a walk of
 * up to a hundred values to learn there is nothing to record. Only a shortcut to the same
 * result: a site not (or no longer) in its slot takes the walk. Relaxed atomics: a
 * target's threads may race on a slot, and either pointer is a right answer. */
#define BYTE_SWITCHES 512 /* arbitrary: more switch sites than a hot loop runs */
static _Atomic(const uint64_t *) byte_switches[BYTE_SWITCHES];

static size_t byte_switch_slot(const uint64_t *cases)
{
    return (size_t)(((uintptr_t)cases >> 3) * 0x9E3779B97F4A7C15ull >> 32) % BYTE_SWITCHES;
}

/* A switch over a wider value than a byte (trace_switch's rare way, out of line so the
 * common one needs no frame). */
__attribute__((noinline)) static void wide_switch(uint64_t val, const uint64_t *cases)
{
    uint64_t n = cases[0], bits = cases[1];
    int here = fgi_case_on_thread();
    if (here)
        fgi_budget_count(FGI_BUDGET_CMPS); /* one a switch, whatever it records */
    size_t slot = byte_switch_slot(cases);
    if (val < 256 &&
        atomic_load_explicit(&byte_switches[slot], memory_order_relaxed) == cases)
        return; /* the walk below would find every value under 256 */
    /* Branch-free: below1 is 1 + the largest value under val (0: none), above the smallest
     * over it (UINT64_MAX: none, or that value, which a byte's havoc never needs). */
    uint64_t below1 = 0, above = UINT64_MAX, big = val;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t c = cases[2 + i];
        uint64_t lo = c < val ? c + 1 : 0, hi = c > val ? c : UINT64_MAX;
        below1 = lo > below1 ? lo : below1;
        above = hi < above ? hi : above;
        big |= c;
    }
    if (big < 256) {
        atomic_store_explicit(&byte_switches[slot], (const uint64_t *)cases,
                              memory_order_relaxed);
        return;
    }
    uint8_t width = (uint8_t)(bits / 8);
    if (below1)
        note_int(val, below1 - 1, width, 1, 0);
    if (above != UINT64_MAX)
        note_int(val, above, width, 1, 0);
}

void __sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases)
{
    if (cases[1] > 8)
        return wide_switch(val, cases);
    if (!fgi_case_on_thread())
        return;
    cmp.work++; /* a switch over a byte: work, no record */
    fgi_budget_count(FGI_BUDGET_CMPS); /* one a switch, whatever it records */
}

/* The string-function hooks (sancov.h): a comparison that failed (r != 0) or a search that
 * found nothing (r == NULL) tells the mutator which bytes the input lacked. Strings are
 * read up to FGI_CMP_STR_MAX bytes (or the call's own bound), never past their NUL. */

static size_t bounded_len(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

static void note_strings(const char *a, const char *b, size_t max, uint8_t built)
{
    if (!fgi_case_on_thread()) /* before the lengths: the engine's own sort of a corpus
                                * directory's names is ~N log N strcmp calls */
        return;
    note_bytes(a, bounded_len(a, max), b, bounded_len(b, max), built);
}

void __sanitizer_weak_hook_memcmp(void *pc, const void *a, const void *b, size_t n, int r)
{
    (void)pc;
    if (r)
        fgi_cmp_note_bytes(a, n, b, n);
}

void __sanitizer_weak_hook_strncmp(void *pc, const char *a, const char *b, size_t n, int r)
{
    (void)pc;
    if (r)
        note_strings(a, b, n < FGI_CMP_STR_MAX ? n : FGI_CMP_STR_MAX, 0);
}

void __sanitizer_weak_hook_strcmp(void *pc, const char *a, const char *b, int r)
{
    (void)pc;
    if (r)
        note_strings(a, b, FGI_CMP_STR_MAX, 0);
}

void __sanitizer_weak_hook_strcasecmp(void *pc, const char *a, const char *b, int r)
{
    (void)pc;
    if (r)
        note_strings(a, b, FGI_CMP_STR_MAX, 0);
}

void __sanitizer_weak_hook_strncasecmp(void *pc, const char *a, const char *b, size_t n,
                                       int r)
{
    (void)pc;
    if (r)
        note_strings(a, b, n < FGI_CMP_STR_MAX ? n : FGI_CMP_STR_MAX, 0);
}

void __sanitizer_weak_hook_strstr(void *pc, const char *h, const char *n, char *r)
{
    (void)pc;
    if (!r) /* the haystack is the text searched, never the program's constant */
        note_strings(h, n, FGI_CMP_STR_MAX, FGI_CMP_A_LOCAL);
}

void __sanitizer_weak_hook_memmem(void *pc, const void *h, size_t hn, const void *n,
                                  size_t nn, void *r)
{
    (void)pc;
    if (!r)
        note_bytes(h, hn, n, nn, FGI_CMP_A_LOCAL);
}

/* ---- the target's own comparisons (fuzzgate.h) ------------------------------------- */

int fg_cmp_u64(uint64_t a, uint64_t b)
{
    uint64_t m = a | b;
    uint8_t w = m <= 0xff ? 1 : m <= 0xffff ? 2 : m <= 0xffffffffULL ? 4 : 8;
    fgi_cmp_note_int(a, b, w);
    return a == b;
}

int fg_cmp_bytes(const void *a, const void *b, size_t n)
{
    const uint8_t *x = a, *y = b;
    size_t i = 0;
    while (i < n && x[i] == y[i])
        i++;
    if (i < n)
        fgi_cmp_note_bytes(a, n, b, n);
    return i == n;
}
