/* engine/feedback/reads.c — the running case's read record (reads.h), written by the reader.
 *
 * Process-wide, as the comparison recorder is: the reader is called from target code,
 * which has no other way to reach the run. Only the thread running the case writes it
 * (during the body); the run thread reads it after the body, when nothing writes.
 */
#include "engine/feedback/reads.h"

#include "engine/base/case.h"

static struct {
    const uint8_t *data; /* the input the target sees in this case (the harness's copy) */
    size_t size;
    size_t n;            /* reads recorded, <= FGI_READS_MAX */
    uint64_t end;        /* where the last recorded read ended */
    int stopped;         /* a read went back (a second reader, a rewound one): no more */
    fgi_read reads[FGI_READS_MAX];
    fgi_read *mirror;    /* a copy of each read as it is made (shared memory), or NULL */
    volatile size_t *mirror_n;
} rec;

void fgi_reads_mirror(fgi_read *to, volatile size_t *n)
{
    rec.mirror = to;
    rec.mirror_n = n;
}

void fgi_reads_begin(const uint8_t *data, size_t size)
{
    rec.data = data;
    rec.size = size;
    rec.n = 0;
    rec.end = 0;
    rec.stopped = 0;
    if (rec.mirror_n)
        *rec.mirror_n = 0;
}

void fgi_reads_note(const fg_reader *r, unsigned kind, size_t off, unsigned width, int short_,
                    uint64_t lo, uint64_t hi)
{
    if (!fgi_case_on_thread() || r->data != rec.data || r->size != rec.size ||
        rec.n == FGI_READS_MAX || rec.stopped)
        return;
    /* A record is one pass front to back (what the mutator and the minimiser edit): a
     * target that reads its input again (a second reader, a model run beside the code, a
     * saved reader put back) keeps the record of its first pass, up to where it went back. */
    if (off < rec.end || (uint64_t)off + width > rec.size || off + width > UINT32_MAX) {
        rec.stopped = 1;
        return;
    }
    rec.end = (uint64_t)off + width;
    rec.reads[rec.n] = (fgi_read){.off = (uint32_t)off, .width = width, .kind = kind,
                                  .short_ = (uint32_t)short_, .lo = lo, .hi = hi};
    if (rec.mirror) {
        rec.mirror[rec.n] = rec.reads[rec.n];
        *rec.mirror_n = rec.n + 1; /* after the read itself: a reader of n sees it whole */
    }
    rec.n++;
}

const fgi_read *fgi_reads_get(size_t *n)
{
    *n = rec.n;
    return rec.reads;
}

/* 1 when d asks for what the reader (reader.c) can ask for: the bounds its kind has, and
 * its word's width (fewer bytes only when the input ended in it). */
static int read_shape(const fgi_read *d)
{
    uint64_t hi = d->hi;
    switch (d->kind) {
    case FGI_READ_PICK:
    case FGI_READ_LEN:
        if (d->lo != 0)
            return 0;
        break;
    case FGI_READ_RANGE:
        if (d->lo > d->hi)
            return 0;
        hi = d->hi - d->lo;
        break;
    case FGI_READ_INT:
        if (d->lo != 0 || (hi != 0xff && hi != 0xffff && hi != 0xffffffffu && hi != UINT64_MAX))
            return 0;
        break;
    case FGI_READ_BOOL:
        if (d->lo != 0 || d->hi != 1)
            return 0;
        break;
    case FGI_READ_BYTES:
        return d->lo == 0 && d->hi == 0 && !d->short_ && d->width > 0;
    default:
        return 0;
    }
    unsigned w = fgi_read_width(hi);
    return d->short_ == 0 ? d->width == w : d->short_ == 1 && d->width < w;
}

int fgi_reads_valid(const fgi_read *reads, size_t n, size_t size)
{
    uint64_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const fgi_read *d = &reads[i];
        if (!read_shape(d) || d->off < at || (uint64_t)d->off + d->width > size)
            return 0;
        at = (uint64_t)d->off + d->width;
    }
    return 1;
}
