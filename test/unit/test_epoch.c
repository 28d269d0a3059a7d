/* test/unit/test_epoch.c — the epoch log (engine/search/epoch.c): records added in order and
 * owned by the log, sorted by seq, cleared for reuse, and freed when an add fails. (Their
 * encoding is the protocol's: test_wire.c.) */
#include "test/support/check.h"

#include "engine/base/rng.h"
#include "engine/search/epoch.h"

#include <stdlib.h>

/* A candidate whose buffers are engine allocations that say which seq it is. */
static fgi_cand cand_of(uint64_t seq)
{
    fgi_cand c = {.seq = seq, .sig = seq * 3 + 1, .size = sizeof seq, .nkeys = 2};
    uint64_t keys[2] = {seq, ~seq};
    c.data = fgi_memdup(&seq, sizeof seq);
    c.keys = fgi_memdup(keys, sizeof keys);
    CHECK(c.data && c.keys);
    return c;
}

/* A hit batch of n keys, key i = tag + i with count i + 1. */
static fgi_hits hits_of(uint64_t tag, size_t n)
{
    fgi_hits h = {.which = tag % 2 ? FGI_HITS_FEATURE : FGI_HITS_SIG, .n = n};
    h.keys = fgi_malloc(n * sizeof *h.keys);
    h.counts = fgi_malloc(n * sizeof *h.counts);
    CHECK(h.keys && h.counts);
    for (size_t i = 0; h.keys && h.counts && i < n; i++) {
        h.keys[i] = tag + i;
        h.counts[i] = (uint32_t)i + 1;
    }
    return h;
}

/* 1 when c is cand_of(seq), its buffers intact. */
static int cand_is(const fgi_cand *c, uint64_t seq)
{
    uint64_t d;
    if (c->seq != seq || c->sig != seq * 3 + 1 || c->size != sizeof d || c->nkeys != 2 ||
        !c->data || !c->keys)
        return 0;
    memcpy(&d, c->data, sizeof d);
    return d == seq && c->keys[0] == seq && c->keys[1] == ~seq;
}

static int hits_are(const fgi_hits *h, uint64_t tag, size_t n)
{
    if (h->n != n || h->which != (tag % 2 ? FGI_HITS_FEATURE : FGI_HITS_SIG))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (h->keys[i] != tag + i || h->counts[i] != i + 1)
            return 0;
    return 1;
}

/* What the log's owner does at the end (snapshot.c): the records, then the arrays. */
static void log_free(fgi_epoch_log *l)
{
    fgi_epoch_clear(l);
    fgi_free(l->cands);
    fgi_free(l->hits);
    memset(l, 0, sizeof *l);
}

/* ---- adding ---------------------------------------------------------------------------- */

/* Records stay in the order added, the log takes the very buffers it was handed, and the
 * arrays grow 64, 128, 256 as they fill. */
FG_TEST(epoch_add_keeps_records_in_order_and_owns_their_buffers)
{
    fgi_epoch_log l = {0};
    for (uint64_t i = 0; i < 200; i++) {
        fgi_cand c = cand_of(1000 - i);
        uint8_t *data = c.data;
        CHECK(fgi_epoch_add_cand(&l, &c) == 0);
        CHECK(l.cands[l.ncands - 1].data == data); /* moved, not copied */
        CHECK(l.cap == (l.ncands <= 64 ? 64 : l.ncands <= 128 ? 128 : 256));
    }
    for (uint64_t i = 0; i < 70; i++) {
        fgi_hits h = hits_of(10 * i, 1 + i % 5);
        uint64_t *keys = h.keys;
        CHECK(fgi_epoch_add_hits(&l, &h) == 0);
        CHECK(l.hits[l.nhits - 1].keys == keys);
    }
    CHECK_EQ_U(l.ncands, 200);
    CHECK_EQ_U(l.nhits, 70);
    CHECK_EQ_U(l.hcap, 128);
    for (size_t i = 0; i < l.ncands; i++)
        CHECK(cand_is(&l.cands[i], 1000 - i));
    for (size_t i = 0; i < l.nhits; i++)
        CHECK(hits_are(&l.hits[i], 10 * i, 1 + i % 5));
    log_free(&l); /* everything added is freed here, once (ASan) */
}

/* An empty candidate (the empty input: no data, no keys) and an empty hit batch. */
FG_TEST(epoch_add_takes_empty_records)
{
    fgi_epoch_log l = {0};
    fgi_cand c = {.seq = 7, .force = 1};
    fgi_hits h = {.which = FGI_HITS_SIG};
    CHECK(fgi_epoch_add_cand(&l, &c) == 0);
    CHECK(fgi_epoch_add_hits(&l, &h) == 0);
    CHECK(l.ncands == 1 && l.cands[0].seq == 7 && l.cands[0].force && !l.cands[0].data);
    CHECK(l.nhits == 1 && l.hits[0].n == 0);
    log_free(&l);
}

/* ---- sorting --------------------------------------------------------------------------- */

/* Seqs in a random order, spread over the whole 64-bit range (a comparison by subtraction
 * would misorder them): sorted ascending, each record whole; hits keep their order. */
FG_TEST(epoch_sort_orders_candidates_by_seq)
{
    enum { N = 1000 };
    static const uint64_t edges[] = {0, 1, UINT64_MAX, (uint64_t)1 << 63};
    static uint64_t seqs[N];
    fgi_rng r;
    fgi_rng_case(&r, 29, 2, 0);
    for (size_t i = 0; i < N; i++) /* unique: the low 10 bits are i past the edges */
        seqs[i] = i < 4 ? edges[i] : (fgi_rng_next(&r) & ~(uint64_t)0x3ff) | i;
    for (size_t i = N - 1; i > 0; i--) { /* shuffled */
        size_t j = (size_t)fgi_rng_below(&r, i + 1);
        uint64_t t = seqs[i];
        seqs[i] = seqs[j];
        seqs[j] = t;
    }
    fgi_epoch_log l = {0};
    for (size_t i = 0; i < N; i++) {
        fgi_cand c = cand_of(seqs[i]);
        CHECK(fgi_epoch_add_cand(&l, &c) == 0);
    }
    for (uint64_t i = 0; i < 3; i++) {
        fgi_hits h = hits_of(100 - i, 2);
        CHECK(fgi_epoch_add_hits(&l, &h) == 0);
    }
    fgi_epoch_sort(&l);
    CHECK_EQ_U(l.ncands, N);
    CHECK(l.cands[0].seq == 0 && l.cands[N - 1].seq == UINT64_MAX);
    unsigned bad = 0;
    for (size_t i = 0; i < N; i++) {
        bad += i > 0 && l.cands[i - 1].seq >= l.cands[i].seq;
        bad += !cand_is(&l.cands[i], l.cands[i].seq);
    }
    CHECK_EQ_U(bad, 0);
    for (uint64_t i = 0; i < 3; i++)
        CHECK(hits_are(&l.hits[i], 100 - i, 2));
    fgi_epoch_sort(&l); /* sorted stays sorted */
    CHECK(l.cands[0].seq == 0 && l.cands[1].seq == 1 && l.cands[N - 1].seq == UINT64_MAX);
    log_free(&l);
}

FG_TEST(epoch_sort_of_none_or_one_is_a_no_op)
{
    fgi_epoch_log l = {0};
    fgi_epoch_sort(&l);
    CHECK(l.ncands == 0 && l.cands == NULL);
    fgi_cand c = cand_of(42);
    CHECK(fgi_epoch_add_cand(&l, &c) == 0);
    fgi_epoch_sort(&l);
    CHECK(l.ncands == 1 && cand_is(&l.cands[0], 42));
    log_free(&l);
}

/* ---- clearing and freeing -------------------------------------------------------------- */

/* Clear frees every record and keeps the arrays: the next epoch fills them again without
 * an allocation. */
FG_TEST(epoch_clear_frees_records_and_keeps_capacity)
{
    fgi_epoch_log l = {0};
    for (uint64_t round = 0; round < 3; round++) {
        static fgi_cand cs[100];
        static fgi_hits hs[65];
        for (size_t i = 0; i < 100; i++)
            cs[i] = cand_of(round * 1000 + i);
        for (size_t i = 0; i < 65; i++)
            hs[i] = hits_of(round * 1000 + i, 3);
        fgi_mem_fail_nth(0);
        for (size_t i = 0; i < 100; i++)
            CHECK(fgi_epoch_add_cand(&l, &cs[i]) == 0);
        for (size_t i = 0; i < 65; i++)
            CHECK(fgi_epoch_add_hits(&l, &hs[i]) == 0);
        unsigned long grew = fgi_mem_fail_nth(0);
        CHECK_EQ_U(grew, round == 0 ? 4 : 0); /* 64 and 128 for each array, once */
        CHECK(l.ncands == 100 && cand_is(&l.cands[99], round * 1000 + 99));
        CHECK(l.nhits == 65 && hits_are(&l.hits[64], round * 1000 + 64, 3));
        fgi_epoch_clear(&l);
        CHECK(l.ncands == 0 && l.nhits == 0 && l.cap == 128 && l.hcap == 128);
    }
    fgi_epoch_clear(&l); /* clearing an empty log is harmless */
    log_free(&l);
    fgi_epoch_log none = {0};
    fgi_epoch_clear(&none);
    CHECK(none.cands == NULL && none.hits == NULL);
}

/* Freeing a record empties its buffers, so a second free is harmless. */
FG_TEST(epoch_free_of_a_record_is_idempotent)
{
    fgi_cand c = cand_of(5);
    fgi_epoch_free_cand(&c);
    CHECK(c.data == NULL && c.keys == NULL);
    fgi_epoch_free_cand(&c);
    fgi_hits h = hits_of(5, 4);
    fgi_epoch_free_hits(&h);
    CHECK(h.keys == NULL && h.counts == NULL);
    fgi_epoch_free_hits(&h);
    fgi_cand zero = {0};
    fgi_epoch_free_cand(&zero);
}

/* ---- out of memory --------------------------------------------------------------------- */

/* An add whose array cannot grow returns -1 and frees the record it was handed (its
 * pointers emptied); the log is as it was, and the next add grows it. */
FG_TEST(epoch_failed_add_frees_the_record_and_keeps_the_log)
{
    fgi_epoch_log l = {0};
    fgi_cand c = cand_of(1);
    fgi_hits h = hits_of(1, 3);
    fgi_mem_fail_nth(1);
    CHECK(fgi_epoch_add_cand(&l, &c) == -1);
    CHECK(c.data == NULL && c.keys == NULL);
    fgi_mem_fail_nth(1);
    CHECK(fgi_epoch_add_hits(&l, &h) == -1);
    CHECK(h.keys == NULL && h.counts == NULL);
    fgi_mem_fail_nth(0);
    CHECK(l.ncands == 0 && l.cands == NULL && l.cap == 0);
    CHECK(l.nhits == 0 && l.hits == NULL && l.hcap == 0);
    /* A full log: its 64 records stay when the growth fails. */
    for (uint64_t i = 0; i < 64; i++) {
        c = cand_of(i);
        CHECK(fgi_epoch_add_cand(&l, &c) == 0);
    }
    fgi_cand c65 = cand_of(64);
    fgi_mem_fail_nth(1);
    CHECK(fgi_epoch_add_cand(&l, &c65) == -1);
    fgi_mem_fail_nth(0);
    CHECK(c65.data == NULL && l.ncands == 64 && l.cap == 64);
    for (size_t i = 0; i < 64; i++)
        CHECK(cand_is(&l.cands[i], i));
    c65 = cand_of(64);
    CHECK(fgi_epoch_add_cand(&l, &c65) == 0);
    CHECK(l.ncands == 65 && l.cap == 128 && cand_is(&l.cands[64], 64));
    log_free(&l);
}

/* The n-th allocation of a whole epoch's adds fails, for n = 1, 2, ... until none does:
 * exactly the add that met it fails, its record freed, and the log holds every other
 * record in order; nothing leaks (ASan). */
FG_TEST(epoch_oom_at_every_growth)
{
    enum { NC = 300, NH = 140 };
    unsigned long n;
    unsigned faults = 0;
    for (n = 1; n < 50; n++) {
        static fgi_cand cs[NC];
        static fgi_hits hs[NH];
        for (size_t i = 0; i < NC; i++)
            cs[i] = cand_of(i);
        for (size_t i = 0; i < NH; i++)
            hs[i] = hits_of(i, 1 + i % 3);
        fgi_epoch_log l = {0};
        size_t failed_at = SIZE_MAX, fails = 0;
        fgi_mem_fail_nth(n);
        for (size_t i = 0; i < NC + NH; i++) {
            int rc = i < NC ? fgi_epoch_add_cand(&l, &cs[i])
                            : fgi_epoch_add_hits(&l, &hs[i - NC]);
            if (rc != 0) {
                failed_at = i;
                fails++;
            }
        }
        int fired = fgi_mem_fail_nth(0) >= n;
        CHECK_EQ_U(fails, fired ? 1 : 0);
        if (failed_at < NC)
            CHECK(cs[failed_at].data == NULL && cs[failed_at].keys == NULL);
        else if (failed_at != SIZE_MAX)
            CHECK(hs[failed_at - NC].keys == NULL && hs[failed_at - NC].counts == NULL);
        CHECK_EQ_U(l.ncands, NC - (failed_at < NC));
        CHECK_EQ_U(l.nhits, NH - (failed_at >= NC && failed_at != SIZE_MAX));
        unsigned bad = 0;
        for (size_t i = 0, want = 0; i < l.ncands; i++, want++) {
            want += want == failed_at;
            bad += !cand_is(&l.cands[i], want);
        }
        for (size_t i = 0, want = 0; i < l.nhits; i++, want++) {
            want += want + NC == failed_at;
            bad += !hits_are(&l.hits[i], want, 1 + want % 3);
        }
        CHECK_EQ_U(bad, 0);
        log_free(&l);
        if (!fired)
            break;
        faults++;
    }
    CHECK(n < 50);
    CHECK_EQ_U(faults, 7); /* the candidates' array 64, 128, 256, 512; the hits' 64, 128, 256 */
}
