/* test/unit/test_covcount.c — coverage features by dense index (engine/search/covcount.c): the
 * chunk's counts drain as the key/count pairs the hit-count table gave, known bits set for
 * the snapshot stay and those set for a send go at the epoch's end. */
#include "test/support/check.h"

#include "engine/base/rng.h"
#include "engine/search/covcount.h"
#include "engine/search/novelty.h"

#include <stdlib.h>

#define SPACE 5000 /* dense indices; past a first growth */

FG_TEST(covcount_drains_what_the_table_counted)
{
    fgi_covcount c;
    fgi_covcount_init(&c);
    CHECK(fgi_covcount_reserve(&c, 100) == 0);
    CHECK(fgi_covcount_reserve(&c, SPACE) == 0); /* grown: the first 100 stay zero */
    fgi_novelty table;
    fgi_novelty_init_scratch(&table);
    fgi_rng r;
    fgi_rng_case(&r, 5, 2, 0);
    for (int chunk = 0; chunk < 3; chunk++) {
        /* 64 cases (a chunk), each hitting a feature at most once: a few common ones
         * and a spread of others */
        for (int k = 0; k < 64; k++) {
            uint8_t seen[SPACE] = {0};
            for (int hit = 0; hit < 300; hit++) {
                uint32_t d = (uint32_t)(fgi_rng_chance(&r, 1, 2) ? fgi_rng_below(&r, 16)
                                                                  : fgi_rng_below(&r, SPACE));
                if (seen[d]++)
                    continue;
                uint64_t key = fg_mix64(d) | 1; /* a key per index, as coverage.c gives */
                CHECK(fgi_covcount_room(&c, 1) == 0);
                fgi_covcount_hit(&c, d, key);
                CHECK(fgi_novelty_add(&table, key) >= 0);
            }
        }
        size_t n = c.ntouched;
        CHECK_EQ_U(n, table.count);
        uint64_t *k = malloc(n * sizeof *k);
        uint32_t *h = malloc(n * sizeof *h);
        CHECK(k && h);
        CHECK_EQ_U(fgi_covcount_drain(&c, k, h), n);
        CHECK_EQ_U(c.ntouched, 0);
        for (size_t i = 0; i < n; i++) {
            CHECK(i == 0 || k[i] != k[i - 1]);
            CHECK_EQ_U(h[i], fgi_novelty_hits(&table, k[i]));
        }
        for (uint32_t d = 0; d < SPACE; d++)
            CHECK(c.count[d] == 0); /* emptied for the next chunk */
        fgi_novelty_clear(&table);
        free(k);
        free(h);
    }
    fgi_novelty_free(&table);
    fgi_covcount_free(&c);
}

FG_TEST(covcount_known_bits_of_sends_end_with_the_epoch)
{
    fgi_covcount c;
    fgi_covcount_init(&c);
    CHECK(fgi_covcount_reserve(&c, 300) == 0);
    CHECK(!fgi_covcount_known(&c, 7) && !fgi_covcount_known(&c, 299));
    CHECK(fgi_covcount_mark(&c, 7, 0) == 0);   /* in the snapshot */
    CHECK(fgi_covcount_mark(&c, 64, 1) == 0);  /* sent */
    CHECK(fgi_covcount_mark(&c, 299, 1) == 0); /* sent */
    CHECK(fgi_covcount_known(&c, 7) && fgi_covcount_known(&c, 64) &&
          fgi_covcount_known(&c, 299));
    CHECK(!fgi_covcount_known(&c, 8) && !fgi_covcount_known(&c, 63));
    fgi_covcount_epoch_end(&c);
    CHECK(fgi_covcount_known(&c, 7));
    CHECK(!fgi_covcount_known(&c, 64) && !fgi_covcount_known(&c, 299));
    CHECK(fgi_covcount_reserve(&c, 1000) == 0); /* growth keeps the bits */
    CHECK(fgi_covcount_known(&c, 7) && !fgi_covcount_known(&c, 999));
    fgi_covcount_free(&c);
}
