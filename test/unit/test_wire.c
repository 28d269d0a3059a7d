/* test/unit/test_wire.c — the executor's finding message: good ones round-trip, truncated and
 * corrupt ones are refused without reading past the body. */
#include "test/support/check.h"

#include "engine/supervise/wire.h"

#include <stddef.h>
#include <stdlib.h>

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
