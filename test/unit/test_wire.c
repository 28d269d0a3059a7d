/* test/unit/test_wire.c — the executor–supervisor protocol (engine/supervise/wire.c): every
 * message body round-trips; truncated, oversized, corrupt and unexpected ones are refused
 * without reading past the body; frames go through the ring whole and in order while the
 * writer waits for room; the merged epoch crosses the command pipe. */
#include "test/support/check.h"

#include "engine/base/rng.h"
#include "engine/supervise/outbox.h"
#include "engine/supervise/wire.h"

#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static const uint8_t input[] = {0x0a, 0x0b, 0x0c, 0x00, 0xff};
static const uint8_t applied[FGI_MUT_STACK] = {4, 9, 1};

static fgi_wire_find sample(void)
{
    return (fgi_wire_find){
        .seq = 812,
        .case_index = 811,
        .data = input,
        .size = sizeof input,
        .applied = applied,
        .napplied = 3,
        .kind = "check",
        .site = "targets/tlv.c: t.len <= size: decoded %zu",
        .detail = "targets/tlv.c:12: check failed: t.len <= size: decoded 9 bytes from 5",
    };
}

/* Encodes f into a heap block of exactly its size, so ASan sees any read past it. */
static uint8_t *encode(const fgi_wire_find *f, size_t *n)
{
    fgi_str b = {0};
    CHECK(fgi_wire_encode_find(f, &b) == 0);
    *n = b.len;
    uint8_t *p = malloc(b.len ? b.len : 1);
    if (p && b.len)
        memcpy(p, b.buf, b.len);
    fgi_str_free(&b);
    return p;
}

static int same(const fgi_wire_find *a, const fgi_wire_find *b)
{
    return a->seq == b->seq && a->case_index == b->case_index && a->size == b->size &&
           (a->size == 0 || memcmp(a->data, b->data, a->size) == 0) &&
           a->napplied == b->napplied &&
           (a->napplied == 0 || memcmp(a->applied, b->applied, a->napplied) == 0) &&
           strcmp(a->kind, b->kind) == 0 && strcmp(a->site, b->site) == 0 &&
           strcmp(a->detail, b->detail) == 0;
}

FG_TEST(wire_find_round_trips)
{
    static const char *const kinds[] = {"check", "write", "amplification", "retention",
                                        "timeout", "exit", "crash", "oom"};
    char longest_site[FGI_WIRE_SITE_MAX], longest_detail[FGI_WIRE_DETAIL_MAX];
    memset(longest_site, 's', sizeof longest_site - 1);
    longest_site[sizeof longest_site - 1] = '\0';
    memset(longest_detail, 'd', sizeof longest_detail - 1);
    longest_detail[sizeof longest_detail - 1] = '\0';
    for (size_t i = 0; i < FGI_ARRAY_LEN(kinds); i++) {
        fgi_wire_find f = sample(), g;
        f.kind = kinds[i];
        if (i == 1) { /* a replayed, empty input without mutations or site */
            f.case_index = -1;
            f.size = 0;
            f.napplied = 0;
            f.site = "";
        }
        if (i == 2) { /* every limit at once */
            f.napplied = FGI_MUT_STACK;
            f.site = longest_site;
            f.detail = longest_detail;
        }
        size_t n;
        uint8_t *p = encode(&f, &n);
        char text[FGI_WIRE_TEXT];
        CHECK(p && fgi_wire_decode_find(p, n, &g, text) == 0);
        CHECK(same(&f, &g));
        /* The decoded kind is the engine's own string, not a pointer into the message. */
        CHECK(g.kind == fgi_wire_kind(kinds[i], strlen(kinds[i])));
        CHECK(!((const uint8_t *)g.kind >= p && (const uint8_t *)g.kind < p + n));
        free(p);
    }
}

FG_TEST(wire_unknown_kind_is_a_crash)
{
    fgi_wire_find f = sample(), g;
    f.kind = "segfault";
    size_t n;
    uint8_t *p = encode(&f, &n);
    char text[FGI_WIRE_TEXT];
    CHECK(p && fgi_wire_decode_find(p, n, &g, text) == 0);
    CHECK_STR(g.kind, "crash");
    CHECK_STR(fgi_wire_kind("check", 4), "crash"); /* a prefix is not the kind */
    CHECK_STR(fgi_wire_kind("", 0), "crash");
    free(p);
}

FG_TEST(wire_every_truncation_refused)
{
    fgi_wire_find f = sample(), g;
    size_t n;
    uint8_t *p = encode(&f, &n);
    CHECK(p != NULL);
    char text[FGI_WIRE_TEXT];
    for (size_t k = 0; p && k < n; k++) {
        uint8_t *q = malloc(k ? k : 1); /* exactly k bytes: a read past them is caught */
        if (k)
            memcpy(q, p, k);
        CHECK(fgi_wire_decode_find(q, k, &g, text) != 0);
        free(q);
    }
    free(p);
}

/* A field of the head set to a value; off is its offset in fgi_find_head. */
typedef struct corruption {
    const char *what;
    size_t off, width;
    uint64_t value;
    long extra; /* bytes appended (+) or cut (-) after the corruption */
} corruption;

#define HEAD(field) offsetof(fgi_find_head, field), sizeof(((fgi_find_head *)0)->field)

FG_TEST(wire_corrupt_heads_refused)
{
    static const corruption table[] = {
        {"one byte too many", 0, 0, 0, +1},
        {"one byte too few", 0, 0, 0, -1},
        {"size one larger", HEAD(size), sizeof input + 1, 0},
        {"size one smaller", HEAD(size), sizeof input - 1, 0},
        {"size wraps the sum", HEAD(size), UINT64_MAX - 40, 0},
        {"size past everything", HEAD(size), UINT64_MAX, 0},
        {"napplied past the stack", HEAD(napplied), FGI_MUT_STACK + 1, 0},
        {"napplied huge", HEAD(napplied), UINT32_MAX, 0},
        {"kind longer", HEAD(kindlen), 6, 0},
        {"kind huge", HEAD(kindlen), UINT32_MAX, 0},
        {"site at its limit", HEAD(sitelen), FGI_WIRE_SITE_MAX, 0},
        {"site huge", HEAD(sitelen), UINT32_MAX, 0},
        {"detail at its limit", HEAD(detaillen), FGI_WIRE_DETAIL_MAX, 0},
        {"detail huge", HEAD(detaillen), UINT32_MAX, 0},
        {"detail shorter", HEAD(detaillen), 3, 0},
    };
    fgi_wire_find f = sample(), g;
    size_t n;
    uint8_t *good = encode(&f, &n);
    CHECK(good != NULL);
    char text[FGI_WIRE_TEXT];
    for (size_t i = 0; good && i < FGI_ARRAY_LEN(table); i++) {
        const corruption *c = &table[i];
        size_t m = (size_t)((long)n + c->extra);
        uint8_t *p = calloc(1, m);
        memcpy(p, good, m < n ? m : n);
        if (c->width == 8)
            memcpy(p + c->off, &c->value, 8);
        else if (c->width == 4)
            memcpy(p + c->off, &(uint32_t){(uint32_t)c->value}, 4);
        int rc = fgi_wire_decode_find(p, m, &g, text);
        if (rc == 0)
            fprintf(stderr, "  accepted: %s\n", c->what);
        CHECK(rc != 0);
        free(p);
    }
    free(good);
}

/* Every byte of the head through a few values: what the decoder accepts stays inside the
 * body (ASan checks the reads), and its texts are as long as the head says. */
FG_TEST(wire_head_bytes_flipped)
{
    static const uint8_t values[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
    fgi_wire_find f = sample(), g;
    size_t n;
    uint8_t *good = encode(&f, &n);
    CHECK(good != NULL);
    char text[FGI_WIRE_TEXT];
    unsigned accepted = 0;
    for (size_t at = 0; good && at < sizeof(fgi_find_head); at++)
        for (size_t v = 0; v < sizeof values; v++) {
            uint8_t *p = malloc(n);
            memcpy(p, good, n);
            p[at] = values[v];
            if (fgi_wire_decode_find(p, n, &g, text) == 0) {
                accepted++;
                CHECK(g.data >= p && g.data + g.size <= p + n);
                CHECK(g.napplied <= FGI_MUT_STACK);
                CHECK(strlen(g.site) < FGI_WIRE_SITE_MAX);
                CHECK(strlen(g.detail) < FGI_WIRE_DETAIL_MAX);
            }
            free(p);
        }
    /* seq, case_index and applied[] take any value; the lengths do not. */
    CHECK(accepted > 0);
    free(good);
}

/* ---- a candidate's read record ----------------------------------------------------- */

/* A candidate of 6 bytes read as pick, range(100, 1100), pick, bool, pick. */
static fgi_read sample_reads[5] = {
    {.off = 0, .width = 1, .kind = FGI_READ_PICK, .hi = 2},
    {.off = 1, .width = 2, .kind = FGI_READ_RANGE, .lo = 100, .hi = 1100},
    {.off = 3, .width = 1, .kind = FGI_READ_PICK, .hi = 2},
    {.off = 4, .width = 1, .kind = FGI_READ_BOOL, .hi = 1},
    {.off = 5, .width = 1, .kind = FGI_READ_PICK, .hi = 2, .short_ = 0},
};

static uint8_t *encode_cand_reads(const fgi_read *reads, uint32_t nreads, size_t *n)
{
    fgi_cand c = {.seq = 9, .sig = 4, .data = (uint8_t *)"\0\5\0\1\1\2", .size = 6,
                  .reads = (fgi_read *)reads, .nreads = nreads};
    fgi_str out = {0};
    CHECK(fgi_wire_encode_cand(&c, &out) == 0);
    *n = out.len;
    return (uint8_t *)out.buf;
}

FG_TEST(wire_cand_carries_its_read_record)
{
    size_t n;
    uint8_t *p = encode_cand_reads(sample_reads, 5, &n);
    fgi_cand c;
    CHECK(p && fgi_wire_decode_cand(p, n, &c) == 0);
    CHECK_EQ_U(c.nreads, 5);
    CHECK(c.reads && memcmp(c.reads, sample_reads, sizeof sample_reads) == 0);
    fgi_epoch_free_cand(&c);
    fgi_free(p);
    p = encode_cand_reads(NULL, 0, &n); /* a target without the reader: no record */
    CHECK(p && fgi_wire_decode_cand(p, n, &c) == 0);
    CHECK(c.nreads == 0 && c.reads == NULL);
    fgi_epoch_free_cand(&c);
    fgi_free(p);
}

/* A hang note crosses as a candidate with no bytes: its base and the flag arrive. */
FG_TEST(wire_cand_carries_a_hang_note)
{
    fgi_cand h = {.seq = 77, .base = 3, .hang = 1, .data = (uint8_t *)""};
    fgi_str out = {0};
    CHECK(fgi_wire_encode_cand(&h, &out) == 0);
    fgi_cand c;
    CHECK(fgi_wire_decode_cand((const uint8_t *)out.buf, out.len, &c) == 0);
    CHECK(c.hang == 1 && c.base == 3 && c.seq == 77 && c.size == 0 && c.nkeys == 0);
    fgi_epoch_free_cand(&c);
    /* The flag is 0 or 1; anything else is a damaged message (it follows seq, sig, size,
     * fhash and base, 64 bits each). */
    uint64_t two = 2;
    memcpy(out.buf + 5 * sizeof(uint64_t), &two, sizeof two);
    CHECK(fgi_wire_decode_cand((const uint8_t *)out.buf, out.len, &c) == -1);
    fgi_free(out.buf);
}

FG_TEST(wire_cand_bad_read_records_refused)
{
    /* Each row damages one read of the sample; the decoder must refuse the candidate. */
    static const struct {
        const char *what;
        size_t read;
        fgi_read value;
    } table[] = {
        {"a read past the data", 4, {.off = 5, .width = 2, .kind = FGI_READ_PICK, .hi = 9}},
        {"a read before the last one's end", 2, {.off = 2, .width = 1, .kind = FGI_READ_PICK,
                                                 .hi = 2}},
        {"kind 0", 3, {.off = 4, .width = 1, .kind = 0, .hi = 1}},
        {"an unknown kind", 3, {.off = 4, .width = 1, .kind = FGI_READ_KINDS, .hi = 1}},
        {"lo above hi", 1, {.off = 1, .width = 2, .kind = FGI_READ_RANGE, .lo = 9, .hi = 1}},
        {"a word of 9 bytes", 1, {.off = 1, .width = 9, .kind = FGI_READ_RANGE, .hi = 1}},
        {"short not 0 or 1", 3, {.off = 4, .width = 1, .kind = FGI_READ_BOOL, .hi = 1,
                                 .short_ = 7}},
        {"an offset near 2^32", 4, {.off = UINT32_MAX, .width = 1, .kind = FGI_READ_PICK}},
    };
    for (size_t i = 0; i < FGI_ARRAY_LEN(table); i++) {
        fgi_read reads[5];
        memcpy(reads, sample_reads, sizeof reads);
        reads[table[i].read] = table[i].value;
        size_t n;
        uint8_t *p = encode_cand_reads(reads, 5, &n);
        fgi_cand c;
        int rc = p ? fgi_wire_decode_cand(p, n, &c) : 0;
        if (rc == 0)
            fprintf(stderr, "  accepted: %s\n", table[i].what);
        CHECK(rc != 0);
        fgi_free(p);
    }
    /* A count past FGI_READS_MAX, or one the body does not hold, is refused too. */
    size_t n;
    uint8_t *p = encode_cand_reads(sample_reads, 5, &n);
    fgi_cand c;
    uint32_t nreads = FGI_READS_MAX + 1; /* the head's last field */
    size_t at = offsetof(struct {
        uint64_t a[5];
        uint32_t b[6];
    }, b[5]);
    memcpy(p + at, &nreads, 4);
    CHECK(fgi_wire_decode_cand(p, n, &c) != 0);
    nreads = 4;
    memcpy(p + at, &nreads, 4);
    CHECK(fgi_wire_decode_cand(p, n, &c) != 0);
    fgi_free(p);
}

/* ---- every message type: good bodies, damaged ones, unexpected ones ------------------ */

/* What a dispatch called: one count per handler, the last error. */
typedef struct calls {
    unsigned cand, hits, find, epoch, dying, drain, bye, error;
    fg_error last_error;
    uint64_t end;
    fgi_dying dy;
} calls;

static void c_cand(void *ctx, unsigned j, fgi_cand *c)
{
    (void)j;
    ((calls *)ctx)->cand++;
    fgi_epoch_free_cand(c);
}
static void c_hits(void *ctx, unsigned j, fgi_hits *h)
{
    (void)j;
    ((calls *)ctx)->hits++;
    fgi_epoch_free_hits(h);
}
static void c_find(void *ctx, unsigned j, const fgi_wire_find *f)
{
    (void)j, (void)f;
    ((calls *)ctx)->find++;
}
static void c_epoch(void *ctx, unsigned j, uint64_t end)
{
    (void)j;
    ((calls *)ctx)->epoch++;
    ((calls *)ctx)->end = end;
}
static void c_dying(void *ctx, unsigned j, const fgi_dying *d)
{
    (void)j;
    ((calls *)ctx)->dying++;
    ((calls *)ctx)->dy = *d;
}
static void c_drain(void *ctx, unsigned j)
{
    (void)j;
    ((calls *)ctx)->drain++;
}
static void c_bye(void *ctx, unsigned j, const fgi_wire_bye *b)
{
    (void)j, (void)b;
    ((calls *)ctx)->bye++;
}
static void c_error(void *ctx, unsigned j, fg_error e)
{
    (void)j;
    ((calls *)ctx)->error++;
    ((calls *)ctx)->last_error = e;
}

static const fgi_wire_handlers every = {c_cand, c_hits, c_find, c_epoch, c_dying,
                                        c_drain, c_bye, c_error};

static const uint64_t some_keys[3] = {7, 8, 0x1234567890ULL};
static const uint32_t some_counts[3] = {1, 2, 3};

/* A good body of each type, encoded into out. */
static void good_body(uint32_t type, fgi_str *out)
{
    out->len = 0;
    fgi_str_addn(out, "", 0);
    if (type == FGI_MSG_CAND) {
        fgi_cand c = {.seq = 3, .sig = 9, .data = (uint8_t *)"abcd", .size = 4, .fhash = 5,
                      .base = 2, .keys = (uint64_t *)some_keys, .nkeys = 3, .ncmps = 2,
                      .nstrs = 1};
        CHECK(fgi_wire_encode_cand(&c, out) == 0);
    } else if (type == FGI_MSG_HITS) {
        fgi_hits h = {.which = FGI_HITS_FEATURE, .keys = (uint64_t *)some_keys,
                      .counts = (uint32_t *)some_counts, .n = 3};
        CHECK(fgi_wire_encode_hits(&h, out) == 0);
    } else if (type == FGI_MSG_FIND) {
        fgi_wire_find f = sample();
        CHECK(fgi_wire_encode_find(&f, out) == 0);
    } else if (type == FGI_MSG_EPOCH) {
        uint64_t end = 4096;
        fgi_str_addn(out, (const char *)&end, sizeof end);
    } else if (type == FGI_MSG_DYING) {
        fgi_dying d;
        memset(&d, 'x', sizeof d); /* unterminated texts, a frame count past the array */
        fgi_str_addn(out, (const char *)&d, sizeof d);
    } else if (type == FGI_MSG_BYE) {
        fgi_wire_bye b = {10, 2, 30, 0};
        fgi_str_addn(out, (const char *)&b, sizeof b);
    }
}

static unsigned handled(const calls *c, uint32_t type)
{
    switch (type) {
    case FGI_MSG_CAND: return c->cand;
    case FGI_MSG_HITS: return c->hits;
    case FGI_MSG_FIND: return c->find;
    case FGI_MSG_EPOCH: return c->epoch;
    case FGI_MSG_DYING: return c->dying;
    case FGI_MSG_DRAIN: return c->drain;
    case FGI_MSG_BYE: return c->bye;
    default: return 0;
    }
}

/* Dispatches type's body p[0..n), copied into a block of exactly n bytes (ASan sees a
 * read past it), with handlers h. */
static calls dispatch_copy(uint32_t type, const char *p, size_t n, const fgi_wire_handlers *h)
{
    calls c;
    memset(&c, 0, sizeof c);
    uint8_t *q = malloc(n ? n : 1);
    if (n)
        memcpy(q, p, n);
    fgi_wire_msg m = {type, q, n};
    fgi_wire_dispatch(&m, h, &c, 0);
    free(q);
    return c;
}

FG_TEST(wire_every_type_good_truncated_oversized_unexpected)
{
    static const uint32_t types[] = {FGI_MSG_CAND, FGI_MSG_HITS, FGI_MSG_FIND, FGI_MSG_EPOCH,
                                     FGI_MSG_DYING, FGI_MSG_DRAIN, FGI_MSG_BYE};
    fgi_str body = {0};
    for (size_t t = 0; t < FGI_ARRAY_LEN(types); t++) {
        uint32_t type = types[t];
        good_body(type, &body);
        size_t n = body.len;
        /* good: its handler once, no error */
        calls c = dispatch_copy(type, body.buf, n, &every);
        CHECK_EQ_U(handled(&c, type), 1);
        CHECK_EQ_U(c.error, 0);
        /* every truncation: refused, as damage */
        for (size_t k = 0; k < n; k++) {
            c = dispatch_copy(type, body.buf, k, &every);
            CHECK_EQ_U(handled(&c, type), 0);
            CHECK_EQ_U(c.error, 1);
            CHECK_EQ_U(c.last_error, FG_EIO);
        }
        /* one byte over: refused */
        fgi_str_addn(&body, "\x01", 1);
        c = dispatch_copy(type, body.buf, n + 1, &every);
        CHECK_EQ_U(handled(&c, type), 0);
        CHECK_EQ_U(c.error, 1);
        /* a receiver that does not take the type: an error, its handler not called */
        fgi_wire_handlers some = every;
        some.cand = NULL, some.hits = NULL, some.find = NULL, some.epoch = NULL;
        some.dying = NULL, some.drain = NULL, some.bye = NULL;
        c = dispatch_copy(type, body.buf, n, &some);
        CHECK_EQ_U(c.error, 1);
        CHECK_EQ_U(c.last_error, FG_EIO);
    }
    /* types that do not exist */
    static const uint32_t strangers[] = {0, FGI_MSG_DRAIN + 1, 0x80000000u, UINT32_MAX};
    for (size_t t = 0; t < FGI_ARRAY_LEN(strangers); t++) {
        calls c = dispatch_copy(strangers[t], "", 0, &every);
        CHECK_EQ_U(c.error, 1);
        CHECK_EQ_U(c.last_error, FG_EIO);
    }
    fgi_str_free(&body);
}

FG_TEST(wire_dying_comes_out_terminated_and_bounded)
{
    fgi_str body = {0};
    good_body(FGI_MSG_DYING, &body);
    calls c = dispatch_copy(FGI_MSG_DYING, body.buf, body.len, &every);
    CHECK_EQ_U(c.dying, 1);
    CHECK_EQ_U(strlen(c.dy.kind), sizeof c.dy.kind - 1);
    CHECK_EQ_U(strlen(c.dy.what), sizeof c.dy.what - 1);
    CHECK_EQ_U(c.dy.nframes, FGI_FRAMES);
    fgi_str_free(&body);
}

FG_TEST(wire_frame_reader_waits_for_whole_frames)
{
    fgi_str b = {0};
    fgi_wire_head h = {FGI_MSG_EPOCH, 8};
    uint64_t end = 77;
    fgi_str_addn(&b, (const char *)&h, sizeof h);
    fgi_str_addn(&b, (const char *)&end, sizeof end);
    fgi_wire_msg m;
    for (size_t k = 0; k < b.len; k++)
        CHECK_EQ_U(fgi_wire_frame((const uint8_t *)b.buf, k, &m), 0);
    CHECK_EQ_U(fgi_wire_frame((const uint8_t *)b.buf, b.len, &m), b.len);
    CHECK_EQ_U(m.type, FGI_MSG_EPOCH);
    CHECK_EQ_U(m.len, 8);
    /* a length past everything: never whole, never read */
    h.len = UINT32_MAX;
    memcpy(b.buf, &h, sizeof h);
    CHECK_EQ_U(fgi_wire_frame((const uint8_t *)b.buf, b.len, &m), 0);
    fgi_str_free(&b);
}

/* ---- frames through the ring --------------------------------------------------------- */

#define RING 64      /* bytes: far smaller than some frames */
#define MESSAGES 400

static size_t cand_len(unsigned i)
{
    return i % 7 == 0 ? 0 : i % 5 == 0 ? 3 * RING + i : i % 50; /* empty, over, under */
}

static uint8_t cand_byte(unsigned i, size_t k)
{
    return (uint8_t)(i * 31 + k * 7);
}

typedef struct ring_writer {
    fgi_wire_link link;
    _Atomic int rc;   /* an fg_error; read by the reader while the writer runs */
} ring_writer;

static void *put_all(void *arg)
{
    ring_writer *w = arg;
    uint8_t data[4 * RING + MESSAGES];
    for (unsigned i = 0; i < MESSAGES && w->rc == FG_OK; i++) {
        size_t n = cand_len(i);
        for (size_t k = 0; k < n; k++)
            data[k] = cand_byte(i, k);
        fgi_cand c = {.seq = i, .data = data, .size = n};
        w->rc = fgi_wire_put_cand(&w->link, &c);
    }
    return NULL;
}

FG_TEST(wire_ring_frames_come_out_whole_and_in_order)
{
    fgi_outbox *box = malloc(fgi_outbox_bytes(RING));
    CHECK(box != NULL);
    fgi_outbox_init(box, RING);
    int nudge[2];
    CHECK(pipe(nudge) == 0);
    fcntl(nudge[0], F_SETFL, O_NONBLOCK);
    ring_writer w = {{.msg_fd = nudge[1], .cmd_fd = -1, .box = box}, FG_OK};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, put_all, &w) == 0);
    fgi_str in = {0};
    unsigned got = 0, nudges = 0, stalled = 0;
    fgi_rng r;
    fgi_rng_case(&r, 3, 1, 0);
    while (got < MESSAGES) {
        if (fgi_rng_chance(&r, 1, 2))
            usleep(50); /* the reader lags: the ring fills */
        fgi_wire_head h;
        while (read(nudge[0], &h, sizeof h) == (ssize_t)sizeof h) {
            CHECK_EQ_U(h.type, FGI_MSG_DRAIN);
            CHECK_EQ_U(h.len, 0);
            nudges++;
        }
        CHECK(fgi_outbox_take(box, RING, &in) >= 0);
        size_t at = 0, k; /* whole frames only, as the supervisor parses */
        fgi_wire_msg m;
        /* (an empty take may leave buf NULL, and NULL + 0 is undefined) */
        while (at < in.len &&
               (k = fgi_wire_frame((const uint8_t *)in.buf + at, in.len - at, &m)) != 0) {
            fgi_cand c;
            CHECK_EQ_U(m.type, FGI_MSG_CAND);
            CHECK(fgi_wire_decode_cand(m.body, m.len, &c) == 0);
            CHECK_EQ_U(c.seq, got);
            CHECK_EQ_U(c.size, cand_len(got));
            for (size_t b = 0; b < c.size; b++)
                if (c.data[b] != cand_byte(got, b)) {
                    CHECK(!"a data byte differs");
                    break;
                }
            fgi_epoch_free_cand(&c);
            at += k;
            got++;
        }
        if (at) {
            memmove(in.buf, in.buf + at, in.len - at);
            in.len -= at;
        }
        stalled = at ? 0 : stalled + 1;
        CHECK(w.rc == FG_OK && stalled < 100000); /* bytes lost: no frame would end */
        if (w.rc != FG_OK || stalled >= 100000)
            break;
    }
    pthread_join(t, NULL);
    CHECK_EQ_U(got, MESSAGES);
    CHECK_EQ_U(in.len, 0);
    CHECK(nudges > 0); /* the writer waited for room, and said so */
    fgi_str_free(&in);
    fgi_wire_link_free(&w.link);
    close(nudge[0]);
    close(nudge[1]);
    free(box);
}

/* ---- the merged epoch over the command pipe ------------------------------------------ */

FG_TEST(wire_merged_epoch_crosses_the_command_pipe)
{
    int p[2];
    CHECK(pipe(p) == 0);
    fgi_epoch_log out = {0}, in = {0};
    uint8_t big[100000]; /* more than a pipe holds: the reader must read as it comes */
    for (size_t k = 0; k < sizeof big; k++)
        big[k] = (uint8_t)k;
    fgi_cand c1 = {.seq = 5, .data = fgi_memdup(big, sizeof big), .size = sizeof big};
    fgi_cand c2 = {.seq = 6, .data = fgi_memdup("x", 1), .size = 1, .work = 4321};
    fgi_hits h = {.which = FGI_HITS_SIG, .keys = fgi_memdup(some_keys, sizeof some_keys),
                  .counts = fgi_memdup(some_counts, sizeof some_counts), .n = 3};
    CHECK(fgi_epoch_add_cand(&out, &c1) == 0 && fgi_epoch_add_cand(&out, &c2) == 0);
    CHECK(fgi_epoch_add_hits(&out, &h) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        fgi_str scratch = {0};
        _exit(fgi_wire_send_epoch(p[1], &out, 4096, &scratch) == FG_OK ? 0 : 1);
    }
    close(p[1]);
    fgi_wire_link link = {.msg_fd = -1, .cmd_fd = p[0]};
    fg_error e = FG_OK;
    CHECK_EQ_U(fgi_wire_get_epoch(&link, &in, &e), 1);
    CHECK_EQ_U(in.ncands, 2);
    CHECK_EQ_U(in.nhits, 1);
    CHECK(in.ncands == 2 && in.cands[0].size == sizeof big &&
          memcmp(in.cands[0].data, big, sizeof big) == 0 && in.cands[1].seq == 6 &&
          in.cands[1].work == 4321);
    CHECK(in.nhits == 1 && in.hits[0].n == 3 && in.hits[0].keys[2] == some_keys[2]);
    CHECK_EQ_U(fgi_wire_get_epoch(&link, &in, &e), 0); /* end of file: the run is over */
    CHECK_EQ_U(in.ncands, 0);                          /* cleared before it read */
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(p[0]);
    /* A message the executor does not take in its command pipe: an error. */
    CHECK(pipe(p) == 0);
    fgi_str f = {0};
    good_body(FGI_MSG_FIND, &f);
    fgi_wire_head head = {FGI_MSG_FIND, (uint32_t)f.len};
    CHECK(write(p[1], &head, sizeof head) == (ssize_t)sizeof head);
    CHECK(write(p[1], f.buf, f.len) == (ssize_t)f.len);
    close(p[1]);
    link.cmd_fd = p[0];
    CHECK(fgi_wire_get_epoch(&link, &in, &e) == -1);
    CHECK_EQ_U(e, FG_EIO);
    close(p[0]);
    fgi_str_free(&f);
    fgi_wire_link_free(&link);
    fgi_epoch_clear(&out);
    fgi_epoch_clear(&in);
    fgi_free(out.cands);
    fgi_free(out.hits);
    fgi_free(in.cands);
    fgi_free(in.hits);
}
