/* engine/supervise/wire.c — the executor–supervisor protocol (wire.h): frames written and
 * read, every message body encoded and decoded, messages dispatched to typed handlers.
 *
 * The decoders read what a dying or damaged executor may have half-written, so they trust
 * no length: each is checked against the bytes left before it is used (no sum that could
 * wrap), and a body must end exactly where its lengths say.
 */
#include "engine/supervise/wire.h"

#include "engine/base/safeio.h"
#include "engine/supervise/outbox.h"

#include <stddef.h>
#include <string.h>
#include <time.h>

/* ---- frames: the one writer --------------------------------------------------------- */

/* Writes one frame to fd: in one write when it is small (a dying message stays whole,
 * from a signal handler), else head then body. 0 or -1. Signal-safe. */
static int frame_to_fd(int fd, uint32_t type, const void *body, size_t len)
{
    fgi_wire_head h = {type, (uint32_t)len};
    char small[sizeof h + sizeof(fgi_dying)];
    if (len <= sizeof small - sizeof h) {
        memcpy(small, &h, sizeof h);
        if (len)
            memcpy(small + sizeof h, body, len);
        return fgi_write_all(fd, small, sizeof h + len);
    }
    if (fgi_write_all(fd, (const char *)&h, sizeof h) != 0)
        return -1;
    return fgi_write_all(fd, body, len);
}

/* Puts n bytes in the executor's ring as room allows; when it is full, nudges the
 * supervisor once (DRAIN on the pipe) and waits for it. 0, or -1 (pipe gone, or the
 * ring's indices damaged). */
static int bytes_to_box(fgi_wire_link *l, const void *p, size_t n)
{
    int nudged = 0;
    while (n) {
        long k = fgi_outbox_put(l->box, p, n);
        if (k < 0)
            return -1;
        if (k == 0) {
            if (!nudged && frame_to_fd(l->msg_fd, FGI_MSG_DRAIN, NULL, 0) != 0)
                return -1;
            nudged = 1;
            struct timespec t = {0, 50 * 1000};
            nanosleep(&t, NULL);
            continue;
        }
        nudged = 0;
        p = (const uint8_t *)p + k;
        n -= (size_t)k;
    }
    return 0;
}

/* One frame into the ring: head, then body (the supervisor parses whole frames only, so a
 * frame may go in as pieces). */
static fg_error frame_to_box(fgi_wire_link *l, uint32_t type, const void *body, size_t len)
{
    fgi_wire_head h = {type, (uint32_t)len};
    return bytes_to_box(l, &h, sizeof h) != 0 || bytes_to_box(l, body, len) != 0 ? FG_EIO
                                                                                  : FG_OK;
}

/* ---- frames: the one reader --------------------------------------------------------- */

size_t fgi_wire_frame(const uint8_t *p, size_t n, fgi_wire_msg *m)
{
    fgi_wire_head h;
    if (n < sizeof h)
        return 0;
    memcpy(&h, p, sizeof h);
    if (n - sizeof h < h.len)
        return 0;
    *m = (fgi_wire_msg){.type = h.type, .body = p + sizeof h, .len = h.len};
    return sizeof h + h.len;
}

/* Reads one whole frame from fd into buf (blocking); m borrows from buf. 1, 0 at end of
 * file, -1 when buf ran out of memory. */
static int frame_from_fd(int fd, fgi_str *buf, fgi_wire_msg *m)
{
    fgi_wire_head h;
    if (fgi_read_full(fd, &h, sizeof h) != 0)
        return 0;
    buf->len = 0;
    fgi_str_addn(buf, (const char *)&h, sizeof h);
    char chunk[65536];
    for (size_t left = h.len; left && !buf->failed;) {
        size_t k = left < sizeof chunk ? left : sizeof chunk;
        if (fgi_read_full(fd, chunk, k) != 0)
            return 0;
        fgi_str_addn(buf, chunk, k);
        left -= k;
    }
    if (buf->failed)
        return -1;
    fgi_wire_frame((const uint8_t *)buf->buf, buf->len, m);
    return 1;
}

/* ---- bodies ------------------------------------------------------------------------- */

const char *fgi_wire_kind(const char *k, size_t n)
{
    static const char *const kinds[] = {"check", "crash", "write", "exit", "amplification",
                                        "retention", "timeout", "oom"};
    for (size_t i = 0; i < FGI_ARRAY_LEN(kinds); i++)
        if (strlen(kinds[i]) == n && memcmp(kinds[i], k, n) == 0)
            return kinds[i];
    return "crash";
}

int fgi_wire_encode_find(const fgi_wire_find *f, fgi_str *out)
{
    fgi_find_head h = {.seq = f->seq, .case_index = f->case_index, .size = f->size,
                       .napplied = f->napplied};
    FG_ASSERT(f->napplied <= FGI_MUT_STACK);
    if (f->napplied)
        memcpy(h.applied, f->applied, f->napplied);
    h.kindlen = (uint32_t)strlen(f->kind);
    h.sitelen = (uint32_t)strlen(f->site);
    h.detaillen = (uint32_t)strlen(f->detail);
    FG_ASSERT(h.sitelen < FGI_WIRE_SITE_MAX && h.detaillen < FGI_WIRE_DETAIL_MAX);
    fgi_str_addn(out, (const char *)&h, sizeof h);
    if (f->size)
        fgi_str_addn(out, (const char *)f->data, f->size);
    fgi_str_addn(out, f->kind, h.kindlen);
    fgi_str_addn(out, f->site, h.sitelen);
    fgi_str_addn(out, f->detail, h.detaillen);
    return out->failed ? -1 : 0;
}

int fgi_wire_decode_find(const uint8_t *p, size_t n, fgi_wire_find *f, char text[FGI_WIRE_TEXT])
{
    fgi_find_head h;
    if (n < sizeof h)
        return -1;
    memcpy(&h, p, sizeof h);
    size_t left = n - sizeof h;
    if (h.napplied > FGI_MUT_STACK || h.sitelen >= FGI_WIRE_SITE_MAX ||
        h.detaillen >= FGI_WIRE_DETAIL_MAX || h.size > left)
        return -1;
    left -= (size_t)h.size;
    if ((uint64_t)h.kindlen + h.sitelen + h.detaillen != left)
        return -1;
    const uint8_t *data = p + sizeof h;
    const char *kind = (const char *)data + h.size, *site = kind + h.kindlen;
    char *site_out = text, *detail_out = text + FGI_WIRE_SITE_MAX;
    memcpy(site_out, site, h.sitelen);
    site_out[h.sitelen] = '\0';
    memcpy(detail_out, site + h.sitelen, h.detaillen);
    detail_out[h.detaillen] = '\0';
    *f = (fgi_wire_find){
        .seq = h.seq,
        .case_index = h.case_index,
        .data = data,
        .size = (size_t)h.size,
        .applied = p + offsetof(fgi_find_head, applied),
        .napplied = h.napplied,
        .kind = fgi_wire_kind(kind, h.kindlen),
        .site = site_out,
        .detail = detail_out,
    };
    return 0;
}

/* The fixed part of an encoded candidate; data, keys, cmps, strs and reads follow. The
 * read record (reads.h) is checked on the way in: kinds known, every read inside the data
 * and in order, so the mutator can trust it as it trusts the bytes. */
typedef struct cand_head {
    uint64_t seq, sig, size, fhash, base, hang; /* hang 64 bits wide: no padding to send */
    uint32_t force, nkeys, ncmps, nstrs, work, nreads;
} cand_head;
_Static_assert(sizeof(cand_head) == 6 * 8 + 6 * 4, "a candidate's head has no padding");

int fgi_wire_encode_cand(const fgi_cand *c, fgi_str *out)
{
    cand_head h = {c->seq,   c->sig,   c->size,  c->fhash,  c->base,
                   c->hang,  (uint32_t)c->force, c->nkeys, c->ncmps, c->nstrs,
                   c->work,  c->nreads};
    fgi_str_addn(out, (const char *)&h, sizeof h);
    fgi_str_addn(out, (const char *)c->data, c->size);
    fgi_str_addn(out, (const char *)c->keys, c->nkeys * sizeof *c->keys);
    fgi_str_addn(out, (const char *)c->cmps, c->ncmps * sizeof *c->cmps);
    fgi_str_addn(out, (const char *)c->strs, c->nstrs * sizeof *c->strs);
    fgi_str_addn(out, (const char *)c->reads, c->nreads * sizeof *c->reads);
    return out->failed ? -1 : 0;
}

int fgi_wire_decode_cand(const uint8_t *p, size_t n, fgi_cand *c)
{
    cand_head h;
    memset(c, 0, sizeof *c);
    if (n < sizeof h)
        return -1;
    memcpy(&h, p, sizeof h);
    if (h.ncmps > FGI_CAND_CMPS || h.nstrs > FGI_CAND_STRS || h.size > n || h.hang > 1 ||
        h.nkeys > n / sizeof(uint64_t) || h.nreads > FGI_READS_MAX)
        return -1;
    size_t want = sizeof h + h.size + h.nkeys * sizeof(uint64_t) +
                  h.ncmps * sizeof(fgi_cmp_int) + h.nstrs * sizeof(fgi_cmp_str) +
                  h.nreads * sizeof(fgi_read);
    if (want != n)
        return -1;
    p += sizeof h;
    c->seq = h.seq;
    c->sig = h.sig;
    c->force = (int)h.force;
    c->size = h.size;
    c->fhash = h.fhash;
    c->base = h.base;
    c->work = h.work;
    c->nkeys = h.nkeys;
    c->ncmps = h.ncmps;
    c->nstrs = h.nstrs;
    c->nreads = h.nreads;
    c->hang = (uint32_t)h.hang;
    c->data = fgi_malloc(h.size ? h.size : 1);
    c->keys = h.nkeys ? fgi_malloc(h.nkeys * sizeof *c->keys) : NULL;
    c->reads = h.nreads ? fgi_malloc(h.nreads * sizeof *c->reads) : NULL;
    if (!c->data || (h.nkeys && !c->keys) || (h.nreads && !c->reads)) {
        fgi_epoch_free_cand(c);
        return -2;
    }
    memcpy(c->data, p, h.size);
    p += h.size;
    if (h.nkeys)
        memcpy(c->keys, p, h.nkeys * sizeof *c->keys);
    p += h.nkeys * sizeof *c->keys;
    memcpy(c->cmps, p, h.ncmps * sizeof *c->cmps);
    p += h.ncmps * sizeof *c->cmps;
    memcpy(c->strs, p, h.nstrs * sizeof *c->strs);
    p += h.nstrs * sizeof *c->strs;
    if (h.nreads)
        memcpy(c->reads, p, h.nreads * sizeof *c->reads);
    if (!fgi_reads_valid(c->reads, h.nreads, (size_t)h.size)) {
        fgi_epoch_free_cand(c);
        return -1;
    }
    return 0;
}

int fgi_wire_encode_hits(const fgi_hits *h, fgi_str *out)
{
    uint64_t head[2] = {(uint64_t)h->which, h->n};
    fgi_str_addn(out, (const char *)head, sizeof head);
    fgi_str_addn(out, (const char *)h->keys, h->n * sizeof *h->keys);
    fgi_str_addn(out, (const char *)h->counts, h->n * sizeof *h->counts);
    return out->failed ? -1 : 0;
}

int fgi_wire_decode_hits(const uint8_t *p, size_t n, fgi_hits *h)
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
        return -2;
    }
    memcpy(h->keys, p + sizeof head, h->n * sizeof *h->keys);
    memcpy(h->counts, p + sizeof head + h->n * sizeof *h->keys, h->n * sizeof *h->counts);
    return 0;
}

/* A fixed-size body: copied out when it is exactly that size. */
static int decode_fixed(const uint8_t *p, size_t n, void *out, size_t size)
{
    if (n != size)
        return -1;
    memcpy(out, p, size);
    return 0;
}

int fgi_wire_decode_epoch(const uint8_t *p, size_t n, uint64_t *end)
{
    return decode_fixed(p, n, end, sizeof *end);
}

int fgi_wire_decode_dying(const uint8_t *p, size_t n, fgi_dying *d)
{
    if (decode_fixed(p, n, d, sizeof *d) != 0)
        return -1;
    d->kind[sizeof d->kind - 1] = '\0';
    d->what[sizeof d->what - 1] = '\0';
    if (d->nframes > FGI_FRAMES)
        d->nframes = FGI_FRAMES;
    return 0;
}

int fgi_wire_decode_bye(const uint8_t *p, size_t n, fgi_wire_bye *b)
{
    return decode_fixed(p, n, b, sizeof *b);
}

/* ---- dispatch ----------------------------------------------------------------------- */

void fgi_wire_dispatch(const fgi_wire_msg *m, const fgi_wire_handlers *h, void *ctx,
                       unsigned j)
{
    const uint8_t *p = m->body;
    size_t n = m->len;
    int rc = -1;
    switch (m->type) {
    case FGI_MSG_CAND:
        if (h->cand) {
            fgi_cand c;
            if ((rc = fgi_wire_decode_cand(p, n, &c)) == 0)
                h->cand(ctx, j, &c);
        }
        break;
    case FGI_MSG_HITS:
        if (h->hits) {
            fgi_hits x;
            if ((rc = fgi_wire_decode_hits(p, n, &x)) == 0)
                h->hits(ctx, j, &x);
        }
        break;
    case FGI_MSG_FIND:
        if (h->find) {
            fgi_wire_find f;
            char text[FGI_WIRE_TEXT];
            if ((rc = fgi_wire_decode_find(p, n, &f, text)) == 0)
                h->find(ctx, j, &f);
        }
        break;
    case FGI_MSG_EPOCH:
        if (h->epoch) {
            uint64_t end;
            if ((rc = fgi_wire_decode_epoch(p, n, &end)) == 0)
                h->epoch(ctx, j, end);
        }
        break;
    case FGI_MSG_DYING:
        if (h->dying) {
            fgi_dying d;
            if ((rc = fgi_wire_decode_dying(p, n, &d)) == 0)
                h->dying(ctx, j, &d);
        }
        break;
    case FGI_MSG_DRAIN:
        if (h->drain && (rc = n == 0 ? 0 : -1) == 0)
            h->drain(ctx, j);
        break;
    case FGI_MSG_BYE:
        if (h->bye) {
            fgi_wire_bye b;
            if ((rc = fgi_wire_decode_bye(p, n, &b)) == 0)
                h->bye(ctx, j, &b);
        }
        break;
    default:
        break;
    }
    if (rc != 0)
        h->error(ctx, j, rc == -2 ? FG_ENOMEM : FG_EIO);
}

/* ---- the executor's side ------------------------------------------------------------ */

void fgi_wire_link_free(fgi_wire_link *l)
{
    fgi_str_free(&l->scratch);
}

/* Encodes one body into the link's scratch buffer and puts its frame in the ring. */
static fg_error put_encoded(fgi_wire_link *l, uint32_t type, int encoded)
{
    fg_error e = encoded != 0 ? FG_ENOMEM : frame_to_box(l, type, l->scratch.buf, l->scratch.len);
    l->scratch.len = 0;
    l->scratch.failed = 0;
    return e;
}

fg_error fgi_wire_put_cand(fgi_wire_link *l, const fgi_cand *c)
{
    return put_encoded(l, FGI_MSG_CAND, fgi_wire_encode_cand(c, &l->scratch));
}

fg_error fgi_wire_put_hits(fgi_wire_link *l, const fgi_hits *h)
{
    return put_encoded(l, FGI_MSG_HITS, fgi_wire_encode_hits(h, &l->scratch));
}

fg_error fgi_wire_put_find(fgi_wire_link *l, const fgi_wire_find *f)
{
    return put_encoded(l, FGI_MSG_FIND, fgi_wire_encode_find(f, &l->scratch));
}

fg_error fgi_wire_put_epoch(fgi_wire_link *l, uint64_t end)
{
    if (frame_to_box(l, FGI_MSG_EPOCH, &end, sizeof end) != FG_OK ||
        frame_to_fd(l->msg_fd, FGI_MSG_DRAIN, NULL, 0) != 0)
        return FG_EIO;
    return FG_OK;
}

fg_error fgi_wire_say_bye(fgi_wire_link *l, const fgi_wire_bye *b)
{
    return frame_to_fd(l->msg_fd, FGI_MSG_BYE, b, sizeof *b) == 0 ? FG_OK : FG_EIO;
}

int fgi_wire_say_dying(int fd, const fgi_dying *d)
{
    return frame_to_fd(fd, FGI_MSG_DYING, d, sizeof *d);
}

/* The merged epoch as the executor takes it: records into the log, the end noted. */
typedef struct epoch_in {
    fgi_epoch_log *log;
    int ended;
    fg_error err;
} epoch_in;

static void in_cand(void *ctx, unsigned j, fgi_cand *c)
{
    epoch_in *in = ctx;
    (void)j;
    if (fgi_epoch_add_cand(in->log, c) != 0 && in->err == FG_OK)
        in->err = FG_ENOMEM;
}

static void in_hits(void *ctx, unsigned j, fgi_hits *h)
{
    epoch_in *in = ctx;
    (void)j;
    if (fgi_epoch_add_hits(in->log, h) != 0 && in->err == FG_OK)
        in->err = FG_ENOMEM;
}

static void in_epoch(void *ctx, unsigned j, uint64_t end)
{
    (void)j, (void)end;
    ((epoch_in *)ctx)->ended = 1;
}

static void in_error(void *ctx, unsigned j, fg_error e)
{
    epoch_in *in = ctx;
    (void)j;
    if (in->err == FG_OK)
        in->err = e;
}

int fgi_wire_get_epoch(fgi_wire_link *l, fgi_epoch_log *log, fg_error *err)
{
    static const fgi_wire_handlers take = {.cand = in_cand, .hits = in_hits,
                                           .epoch = in_epoch, .error = in_error};
    epoch_in in = {.log = log, .err = FG_OK};
    fgi_epoch_clear(log); /* what a new executor inherited is in the broadcast too */
    int rc = 0;
    while (!in.ended && in.err == FG_OK) {
        fgi_wire_msg m;
        if ((rc = frame_from_fd(l->cmd_fd, &l->scratch, &m)) <= 0) {
            if (rc < 0)
                in.err = FG_ENOMEM;
            break;
        }
        fgi_wire_dispatch(&m, &take, &in, 0);
    }
    l->scratch.len = 0;
    l->scratch.failed = 0;
    if (in.err != FG_OK) {
        *err = in.err;
        return -1;
    }
    return in.ended;
}

/* ---- the supervisor's side ---------------------------------------------------------- */

/* One encoded body (or an encoding failure) as a frame on fd. */
static fg_error send_encoded(int fd, uint32_t type, int encoded, fgi_str *b)
{
    fg_error e = encoded != 0 ? FG_ENOMEM
                 : frame_to_fd(fd, type, b->buf, b->len) == 0 ? FG_OK
                                                              : FG_EIO;
    b->len = 0;
    b->failed = 0;
    return e;
}

fg_error fgi_wire_send_epoch(int fd, const fgi_epoch_log *log, uint64_t end, fgi_str *scratch)
{
    fg_error e = FG_OK;
    for (size_t i = 0; i < log->ncands && e == FG_OK; i++)
        e = send_encoded(fd, FGI_MSG_CAND, fgi_wire_encode_cand(&log->cands[i], scratch),
                         scratch);
    for (size_t i = 0; i < log->nhits && e == FG_OK; i++)
        e = send_encoded(fd, FGI_MSG_HITS, fgi_wire_encode_hits(&log->hits[i], scratch),
                         scratch);
    if (e == FG_OK && frame_to_fd(fd, FGI_MSG_EPOCH, &end, sizeof end) != 0)
        e = FG_EIO;
    return e;
}
