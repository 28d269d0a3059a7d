/* test/unit/test_novelty.c — the signature set: new, known, hit counts, growth, and running
 * out of memory without losing what it holds. */
#include "test/support/check.h"

#include "engine/search/novelty.h"

/* A spread of distinct non-zero keys, some patterned (those probe badly in a weak hash). */
static uint64_t key_of(size_t i)
{
    switch (i % 4) {
    case 0: return (uint64_t)i + 1;                      /* 1, 5, 9, ... */
    case 1: return ((uint64_t)i << 32) | 1;              /* high bits only differ */
    case 2: return fg_mix64((uint64_t)i) | 1;            /* random-looking, odd */
    default: return ~(uint64_t)i;                        /* near UINT64_MAX */
    }
}

FG_TEST(novelty_new_then_known)
{
    fgi_novelty n;
    fgi_novelty_init(&n);
    CHECK_EQ_U(fgi_novelty_hits(&n, 42), 0); /* empty set, no table yet */
    CHECK_EQ_U(fgi_novelty_add(&n, 42), 1);
    CHECK_EQ_U(n.count, 1);
    CHECK_EQ_U(fgi_novelty_hits(&n, 42), 1);
    for (unsigned i = 2; i <= 10; i++) {
        CHECK_EQ_U(fgi_novelty_add(&n, 42), 0);
        CHECK_EQ_U(fgi_novelty_hits(&n, 42), i);
    }
    CHECK_EQ_U(n.count, 1);
    CHECK_EQ_U(fgi_novelty_add(&n, UINT64_MAX), 1);
    CHECK_EQ_U(fgi_novelty_add(&n, 1), 1);
    CHECK_EQ_U(fgi_novelty_hits(&n, UINT64_MAX), 1);
    CHECK_EQ_U(fgi_novelty_hits(&n, 1), 1);
    CHECK_EQ_U(fgi_novelty_hits(&n, 42), 10);
    CHECK_EQ_U(n.count, 3);
    fgi_novelty_free(&n);
    CHECK_EQ_U(n.count, 0);
    CHECK_EQ_U(fgi_novelty_hits(&n, 42), 0); /* freed is empty and still usable */
    CHECK_EQ_U(fgi_novelty_add(&n, 42), 1);
    fgi_novelty_free(&n);
}

FG_TEST(novelty_unknown_has_no_hits)
{
    fgi_novelty n;
    fgi_novelty_init(&n);
    for (size_t i = 0; i < 100; i++)
        CHECK_EQ_U(fgi_novelty_add(&n, key_of(i)), 1);
    for (size_t i = 100; i < 2000; i++)
        CHECK_EQ_U(fgi_novelty_hits(&n, key_of(i)), 0);
    CHECK_EQ_U(fgi_novelty_hits(&n, 0), 0); /* 0 marks empty slots: never "known" */
    CHECK_EQ_U(n.count, 100);
    fgi_novelty_free(&n);
}

FG_TEST(novelty_growth_keeps_every_key)
{
    enum { KEYS = 20000 };
    fgi_novelty n;
    fgi_novelty_init(&n);
    for (size_t i = 0; i < KEYS; i++) {
        int rc = fgi_novelty_add(&n, key_of(i));
        CHECK_EQ_U(rc, 1);
        if (rc != 1)
            break;
        /* a key hit i % 3 extra times, so counts survive the rehashes too */
        for (size_t j = 0; j < i % 3; j++)
            CHECK_EQ_U(fgi_novelty_add(&n, key_of(i)), 0);
        CHECK(n.count * 2 <= n.cap); /* at most half full */
    }
    CHECK_EQ_U(n.count, KEYS);
    CHECK((n.cap & (n.cap - 1)) == 0);
    size_t bad = 0;
    for (size_t i = 0; i < KEYS; i++)
        bad += fgi_novelty_hits(&n, key_of(i)) != 1 + i % 3;
    CHECK_EQ_U(bad, 0);
    for (size_t i = 0; i < KEYS; i += 7)
        CHECK_EQ_U(fgi_novelty_add(&n, key_of(i)), 0);
    CHECK_EQ_U(n.count, KEYS);
    fgi_novelty_free(&n);
}

FG_TEST(novelty_hits_saturate)
{
    fgi_novelty n;
    fgi_novelty_init(&n);
    CHECK_EQ_U(fgi_novelty_add(&n, 7), 1);
    size_t slot = n.cap;
    for (size_t i = 0; i < n.cap; i++)
        if (n.keys[i] == 7)
            slot = i;
    CHECK(slot < n.cap);
    if (slot >= n.cap)
        return;
    n.hits[slot] = UINT32_MAX - 1;
    CHECK_EQ_U(fgi_novelty_add(&n, 7), 0);
    CHECK_EQ_U(fgi_novelty_hits(&n, 7), UINT32_MAX);
    CHECK_EQ_U(fgi_novelty_add(&n, 7), 0);
    CHECK_EQ_U(fgi_novelty_hits(&n, 7), UINT32_MAX); /* stays, does not wrap to 0 */
    fgi_novelty_free(&n);
}

FG_TEST(novelty_oom_on_first_insert)
{
    for (unsigned long nth = 1; nth <= 2; nth++) { /* the keys table, then the hits table */
        fgi_novelty n;
        fgi_novelty_init(&n);
        fgi_mem_fail_nth(nth);
        CHECK(fgi_novelty_add(&n, 5) == -1);
        fgi_mem_fail_nth(0);
        CHECK_EQ_U(n.count, 0);
        CHECK_EQ_U(fgi_novelty_hits(&n, 5), 0);
        CHECK_EQ_U(fgi_novelty_add(&n, 5), 1); /* usable afterwards */
        CHECK_EQ_U(fgi_novelty_add(&n, 5), 0);
        CHECK_EQ_U(fgi_novelty_hits(&n, 5), 2);
        fgi_novelty_free(&n);
    }
}

FG_TEST(novelty_oom_on_growth_keeps_the_set)
{
    fgi_novelty n;
    fgi_novelty_init(&n);
    /* Fill until the next new key needs a bigger table. */
    size_t i = 0;
    while ((n.count + 2) * 2 <= n.cap || n.cap == 0) {
        CHECK_EQ_U(fgi_novelty_add(&n, key_of(i)), 1);
        i++;
    }
    CHECK_EQ_U(fgi_novelty_add(&n, key_of(i)), 1);
    i++;
    size_t filled = i, cap = n.cap;
    CHECK(filled > 100);
    for (unsigned long nth = 1; nth <= 2; nth++) {
        fgi_mem_fail_nth(nth);
        CHECK(fgi_novelty_add(&n, key_of(filled)) == -1);
        fgi_mem_fail_nth(0);
        CHECK_EQ_U(n.count, filled);
        CHECK_EQ_U(n.cap, cap);
        CHECK_EQ_U(fgi_novelty_hits(&n, key_of(filled)), 0);
    }
    /* A known key needs no memory: still counted while allocation fails. */
    fgi_mem_fail_nth(1);
    CHECK_EQ_U(fgi_novelty_add(&n, key_of(0)), 0);
    fgi_mem_fail_nth(0);
    CHECK_EQ_U(fgi_novelty_hits(&n, key_of(0)), 2);
    size_t bad = 0;
    for (size_t j = 1; j < filled; j++)
        bad += fgi_novelty_hits(&n, key_of(j)) != 1;
    CHECK_EQ_U(bad, 0);
    CHECK_EQ_U(fgi_novelty_add(&n, key_of(filled)), 1);
    CHECK(n.cap > cap);
    CHECK_EQ_U(fgi_novelty_hits(&n, key_of(filled)), 1);
    CHECK_EQ_U(fgi_novelty_hits(&n, key_of(0)), 2);
    fgi_novelty_free(&n);
}

/* What a scratch set drains, walked the slow way: every occupied slot in slot order. */
static size_t walk_table(const fgi_novelty *n, uint64_t *keys, uint32_t *hits)
{
    size_t m = 0;
    for (size_t i = 0; i < n->cap; i++)
        if (n->keys[i]) {
            keys[m] = n->keys[i];
            hits[m++] = n->hits[i];
        }
    return m;
}

/* A scratch set (the executor's per-chunk deltas) holds the same slots as a plain one, drains
 * in slot order whatever the insertion order, and is empty and reusable after a drain, a
 * clear, a growth and a failed growth. */
FG_TEST(novelty_scratch_drains_in_slot_order)
{
    enum { KEYS = 3000, ROOM = 8192 }; /* ROOM: the table KEYS grow it to */
    static uint64_t want_k[ROOM], got_k[ROOM];
    static uint32_t want_h[ROOM], got_h[ROOM];
    fgi_novelty s, p;
    fgi_novelty_init_scratch(&s);
    fgi_novelty_init(&p);
    for (int round = 0; round < 4; round++) {
        /* few keys (a sparse table), then enough to grow it, then a few again */
        size_t nkeys = round == 1 ? KEYS : 5 + (size_t)round * 40;
        for (size_t i = 0; i < nkeys; i++) {
            size_t k = (i * 7919 + (size_t)round) % nkeys; /* a scrambled order */
            CHECK(fgi_novelty_bump(&s, key_of(k), (uint32_t)(k % 5)) >= 0);
            CHECK(fgi_novelty_bump(&p, key_of(k), (uint32_t)(k % 5)) >= 0);
        }
        CHECK_EQ_U(s.count, p.count);
        if (s.cap == p.cap) { /* same size, same probes: same slots */
            size_t m = walk_table(&s, want_k, want_h), same = 0;
            CHECK_EQ_U(walk_table(&p, got_k, got_h), m);
            for (size_t i = 0; i < m; i++)
                same += want_k[i] == got_k[i] && want_h[i] == got_h[i];
            CHECK_EQ_U(same, m);
        }
        size_t m = walk_table(&s, want_k, want_h), same = 0;
        CHECK_EQ_U(fgi_novelty_drain(&s, got_k, got_h), m);
        for (size_t i = 0; i < m; i++)
            same += want_k[i] == got_k[i] && want_h[i] == got_h[i];
        CHECK_EQ_U(same, m);
        CHECK_EQ_U(s.count, 0);
        CHECK_EQ_U(walk_table(&s, got_k, got_h), 0); /* every slot emptied */
        CHECK_EQ_U(fgi_novelty_hits(&s, key_of(0)), 0);
        fgi_novelty_clear(&p);
    }
    /* clear empties it the same way */
    CHECK_EQ_U(fgi_novelty_add(&s, 99), 1);
    CHECK_EQ_U(fgi_novelty_add(&s, 100), 1);
    fgi_novelty_clear(&s);
    CHECK_EQ_U(walk_table(&s, got_k, got_h), 0);
    CHECK_EQ_U(fgi_novelty_drain(&s, got_k, got_h), 0);
    /* a failed growth keeps the set and its map of slots */
    size_t i = 0;
    CHECK_EQ_U(s.cap, ROOM);
    while ((s.count + 1) * 2 <= s.cap)
        CHECK_EQ_U(fgi_novelty_add(&s, key_of(i++)), 1);
    for (unsigned long nth = 1; nth <= 3; nth++) { /* keys, hits, the slot map */
        fgi_mem_fail_nth(nth);
        CHECK(fgi_novelty_add(&s, key_of(i)) == -1);
        fgi_mem_fail_nth(0);
    }
    size_t m = walk_table(&s, want_k, want_h), same = 0;
    CHECK_EQ_U(m, i);
    CHECK_EQ_U(fgi_novelty_drain(&s, got_k, got_h), m);
    for (size_t q = 0; q < m; q++)
        same += want_k[q] == got_k[q] && want_h[q] == got_h[q];
    CHECK_EQ_U(same, m);
    fgi_novelty_free(&s);
    CHECK_EQ_U(fgi_novelty_add(&s, 5), 1); /* freed stays a scratch set, usable */
    CHECK(s.occ != NULL);
    fgi_novelty_free(&s);
    fgi_novelty_free(&p);
}

/* The mixed entry points are bump and has with the hash handed in. */
FG_TEST(novelty_mixed_is_the_same_lookup)
{
    fgi_novelty n;
    fgi_novelty_init(&n);
    for (size_t i = 0; i < 500; i++)
        CHECK_EQ_U(fgi_novelty_bump_mixed(&n, key_of(i), fg_mix64(key_of(i)), 2), 1);
    size_t bad = 0;
    for (size_t i = 0; i < 500; i++)
        bad += fgi_novelty_hits(&n, key_of(i)) != 2 ||
               !fgi_novelty_has_mixed(&n, key_of(i), fg_mix64(key_of(i)));
    CHECK_EQ_U(bad, 0);
    CHECK(!fgi_novelty_has_mixed(&n, key_of(500), fg_mix64(key_of(500))));
    fgi_novelty_free(&n);
}
