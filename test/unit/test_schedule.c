/* test/unit/test_schedule.c — the search's decisions: length, reduction, picks, hot positions. */
#include "test/support/check.h"

#include "engine/search/schedule.h"

#include <string.h>

FG_TEST(schedule_room_starts_short_and_never_cuts_a_base)
{
    fgi_sched s;
    fgi_sched_init(&s, 4096);
    CHECK_EQ_U(fgi_sched_room(&s, 0, 4096), FGI_LEN_FIRST);
    CHECK_EQ_U(fgi_sched_room(&s, 100, 4096), 108);  /* a long base may still grow a bit */
    CHECK_EQ_U(fgi_sched_room(&s, 100, 104), 104);   /* never past max_len */
    fgi_sched_free(&s);
    fgi_sched_init(&s, 10);
    CHECK_EQ_U(fgi_sched_room(&s, 0, 10), 10);
    fgi_sched_free(&s);
}

FG_TEST(schedule_length_limit_grows_only_when_a_merge_brought_nothing)
{
    fgi_sched s;
    fgi_corpus c;
    fgi_sched_init(&s, 100);
    fgi_corpus_init(&c);
    fgi_sched_merged(&s, &c, 100); /* the replay merge: never a stall */
    CHECK_EQ_U(s.len_limit, FGI_LEN_FIRST);
    s.news = 1;
    fgi_sched_merged(&s, &c, 100);
    CHECK_EQ_U(s.len_limit, FGI_LEN_FIRST);
    fgi_sched_merged(&s, &c, 100);
    CHECK_EQ_U(s.len_limit, 2 * FGI_LEN_FIRST);
    fgi_sched_merged(&s, &c, 100);
    fgi_sched_merged(&s, &c, 100);
    CHECK_EQ_U(s.len_limit, 100); /* capped */
    CHECK_EQ_U(c.merges, 5);
    fgi_corpus_free(&c);
    fgi_sched_free(&s);
}

static fgi_cand cand_of(const char *text, uint64_t sig, uint64_t fhash, uint64_t base)
{
    fgi_cand c;
    memset(&c, 0, sizeof c);
    c.data = (uint8_t *)(uintptr_t)text;
    c.size = strlen(text);
    c.sig = sig;
    c.fhash = fhash;
    c.base = base;
    return c;
}

FG_TEST(schedule_reduce_replaces_only_a_shorter_input_with_the_same_features)
{
    fgi_sched s;
    fgi_corpus c;
    fgi_sched_init(&s, 64);
    fgi_corpus_init(&c);
    CHECK_EQ_U(fgi_corpus_add(&c, (const uint8_t *)"", 0, 0), 0);
    CHECK_EQ_U(fgi_corpus_add(&c, (const uint8_t *)"abcdefgh", 8, 0x51), 0);
    c.entries[1].fhash = 7;
    c.entries[1].parent = 1; /* made from the empty entry */
    fgi_cand longer = cand_of("abcdefghij", 0x51, 7, 1);
    fgi_cand other = cand_of("abc", 0x51, 8, 1);
    fgi_cand unknown = cand_of("abc", 0x52, 7, 1);
    fgi_cand shorter = cand_of("abcz", 0x51, 7, 1);
    CHECK_EQ_U(fgi_sched_reduce(&s, &c, &longer), 0);
    CHECK_EQ_U(fgi_sched_reduce(&s, &c, &other), 0);   /* other features: not the same */
    CHECK_EQ_U(fgi_sched_reduce(&s, &c, &unknown), 0); /* no entry for that signature */
    CHECK_EQ_U(s.news, 0);
    CHECK_EQ_U(fgi_sched_reduce(&s, &c, &shorter), 1);
    CHECK_EQ_U(c.entries[1].size, 4);
    CHECK(memcmp(c.entries[1].data, "abcz", 4) == 0);
    CHECK_EQ_U(c.entries[1].hot, 1); /* differs from the empty base at byte 0 */
    CHECK_EQ_U(s.news, 1);
    CHECK_EQ_U(fgi_sched_reduce(&s, &c, &shorter), 0); /* not shorter than itself */
    fgi_corpus_free(&c);
    fgi_sched_free(&s);
}

FG_TEST(schedule_shorter_sends_each_size_once)
{
    fgi_sched s;
    fgi_corpus c;
    fgi_sched_init(&s, 64);
    fgi_corpus_init(&c);
    CHECK_EQ_U(fgi_corpus_add(&c, (const uint8_t *)"abcdefgh", 8, 0x51), 0);
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x51, 0, 8, 0, 0), 0); /* not shorter */
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x51, 1, 3, 0, 0), 0); /* other features */
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x51, 0, 5, 0, 0), 1);
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x51, 0, 5, 0, 0), 0); /* sent already */
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x51, 0, 6, 0, 0), 0);
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x51, 0, 4, 0, 0), 1);
    /* A signature this executor sent as new this epoch: only shorter ones follow. */
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x99, 0, 10, 1, 0), 1);
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x99, 0, 12, 0, 0), 0);
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x99, 0, 9, 0, 0), 1);
    /* A signature this executor sent under another feature hash: another executor may
     * have sent it under this one, so the first of each hash is sent, then only shorter. */
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x99, 7, 20, 0, 0), 1);
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x99, 7, 20, 0, 0), 0);
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x99, 7, 19, 0, 0), 1);
    fgi_sched_merged(&s, &c, 64); /* a new epoch forgets what was sent */
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0x51, 0, 5, 0, 0), 1);
    fgi_corpus_free(&c);
    fgi_sched_free(&s);
}

/* A harness that returns no signature (libFuzzer's): its entries are reduced by feature
 * hash, each seed on its own even when two seeds share one. */
FG_TEST(schedule_reduces_entries_without_a_signature_by_feature_hash)
{
    fgi_sched s;
    fgi_corpus c;
    fgi_sched_init(&s, 64);
    fgi_corpus_init(&c);
    fgi_cand seed1 = cand_of("<a>first seed</a>", 0, 0xfeed, 0);
    fgi_cand seed2 = cand_of("<b>second seed, longer</b>", 0, 0xfeed, 0);
    CHECK_EQ_U(fgi_corpus_add(&c, seed1.data, seed1.size, 0), 0);
    CHECK_EQ_U(fgi_sched_kept(&s, &c, 0, &seed1), 0);
    CHECK_EQ_U(fgi_corpus_add(&c, seed2.data, seed2.size, 0), 0);
    CHECK_EQ_U(fgi_sched_kept(&s, &c, 1, &seed2), 0);
    CHECK_EQ_U(fgi_corpus_by_behaviour(&c, 0, 0xfeed), 0); /* the first kept */
    CHECK_EQ_U(fgi_corpus_by_behaviour(&c, 0, 0xbeef), -1);
    /* executor side: shorter than its own base, same hash */
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0, 0xfeed, 20, 0, 1), 1);
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0, 0xfeed, 16, 0, 0), 1); /* the other seed's own */
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0, 0xfeed, 30, 0, 1), 0); /* not shorter */
    CHECK_EQ_U(fgi_sched_shorter(&s, &c, 0, 0xbeef, 3, 0, 1), 0);  /* another behaviour */
    /* merge side: each replaces its own base */
    fgi_cand r2 = cand_of("<b/>", 0, 0xfeed, 2);
    fgi_cand r1 = cand_of("<a/>x", 0, 0xfeed, 1);
    fgi_cand other = cand_of("<c/>", 0, 0xbeef, 1);
    CHECK_EQ_U(fgi_sched_reduce(&s, &c, &r2), 1);
    CHECK_EQ_U(c.entries[1].size, 4);
    CHECK_EQ_U(fgi_sched_reduce(&s, &c, &r1), 1);
    CHECK_EQ_U(c.entries[0].size, 5);
    CHECK_EQ_U(fgi_sched_reduce(&s, &c, &other), 0); /* no entry does what it does */
    CHECK_EQ_U(c.entries[0].size, 5);
    fgi_corpus_free(&c);
    fgi_sched_free(&s);
}

FG_TEST(schedule_picks_are_shares_of_the_snapshot_and_news_resets_them)
{
    fgi_sched s;
    fgi_corpus c;
    fgi_novelty n;
    fgi_sched_init(&s, 64);
    fgi_corpus_init(&c);
    fgi_novelty_init(&n);
    CHECK_EQ_U(fgi_corpus_add(&c, (const uint8_t *)"", 0, 0), 0);
    CHECK_EQ_U(fgi_corpus_add(&c, (const uint8_t *)"ab", 2, 0x5), 0);
    CHECK_EQ_U(fgi_novelty_add(&n, 0x5), 1);
    CHECK_EQ_U(fgi_sched_count_picks(&c, &n, 256), 0);
    uint32_t first = c.entries[1].picks;
    CHECK(c.entries[0].picks + first <= 256 && c.entries[0].picks + first >= 254);
    /* Shares of the weights: the smaller entry whose behaviour was never hit gets more. */
    CHECK(c.entries[0].picks > first);
    /* A kept child of entry 1: its hot position, and entry 1 is producing again. */
    fgi_cand child = cand_of("abX", 0x6, 0, 2);
    CHECK_EQ_U(fgi_corpus_add(&c, child.data, child.size, child.sig), 0);
    CHECK_EQ_U(fgi_sched_kept(&s, &c, 2, &child), 0);
    CHECK_EQ_U(c.entries[2].hot, 3);
    CHECK_EQ_U(c.entries[1].since, 0);
    CHECK_EQ_U(c.entries[1].finds, 1);
    CHECK_EQ_U(c.entries[1].picks, first);
    fgi_corpus_free(&c);
    fgi_novelty_free(&n);
    fgi_sched_free(&s);
}
