/* test/unit/test_featsets.c — a chunk's feature sets: a repeated set counted once a case
 * gives the same hit-count table, key for key, count for count and in the same drain order,
 * as counting every feature of every case. */
#include "test/support/check.h"

#include "engine/base/rng.h"
#include "engine/run/featsets.h"

#include <stdlib.h>

#define NSETS 300  /* past the first table (64 sets, an index of 128) */
#define MAXF 40

/* Set s's features: overlapping across sets, so a feature's first case is not its set's. */
static size_t features_of(unsigned s, uint64_t *f)
{
    size_t n = 1 + s % MAXF;
    for (size_t i = 0; i < n; i++)
        f[i] = fg_mix64(s / 3 + i) | 1;
    return n;
}

static uint64_t hash_of(const uint64_t *f, size_t n)
{
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++)
        h += fg_mix64(f[i]);
    return h;
}

FG_TEST(featsets_repeats_count_as_every_feature)
{
    fgi_novelty direct, viasets;
    fgi_novelty_init_scratch(&direct);
    fgi_novelty_init_scratch(&viasets);
    fgi_featsets s;
    fgi_featsets_init(&s);
    fgi_rng r;
    fgi_rng_case(&r, 3, 1, 0);
    for (int chunk = 0; chunk < 3; chunk++) {
        for (int c = 0; c < 5000; c++) {
            /* mostly a few common sets, now and then any of NSETS */
            unsigned set = fgi_rng_chance(&r, 3, 4) ? (unsigned)fgi_rng_below(&r, 4)
                                                    : (unsigned)fgi_rng_below(&r, NSETS);
            uint64_t f[MAXF];
            size_t n = features_of(set, f);
            for (size_t i = 0; i < n; i++)
                CHECK(fgi_novelty_add(&direct, f[i]) >= 0);
            fgi_featset *fs = fgi_featsets_find(&s, hash_of(f, n), n);
            if (fs) {
                fs->repeats++;
                continue;
            }
            for (size_t i = 0; i < n; i++)
                CHECK(fgi_novelty_add(&viasets, f[i]) >= 0);
            fs = fgi_featsets_add(&s, hash_of(f, n), f, n);
            CHECK(fs != NULL && fs->repeats == 0 && fs->n == n);
            CHECK(fgi_featsets_find(&s, hash_of(f, n), n) == fs);
            CHECK(fgi_featsets_find(&s, hash_of(f, n), n + 1) == NULL);
        }
        CHECK(s.count > 64);
        CHECK(fgi_featsets_flush(&s, &viasets) == 0);
        CHECK(s.count == 0 && s.nfeats == 0);
        CHECK_EQ_U(direct.count, viasets.count);
        uint64_t *ka = malloc(direct.count * sizeof *ka), *kb = malloc(direct.count * sizeof *kb);
        uint32_t *ha = malloc(direct.count * sizeof *ha), *hb = malloc(direct.count * sizeof *hb);
        CHECK(ka && kb && ha && hb);
        size_t na = fgi_novelty_drain(&direct, ka, ha), nb = fgi_novelty_drain(&viasets, kb, hb);
        CHECK_EQ_U(na, nb);
        CHECK(memcmp(ka, kb, na * sizeof *ka) == 0);
        CHECK(memcmp(ha, hb, na * sizeof *ha) == 0);
        free(ka);
        free(kb);
        free(ha);
        free(hb);
        /* emptied: the sets of the last chunk are not found in the next */
        uint64_t f[MAXF];
        size_t n = features_of(1, f);
        CHECK(fgi_featsets_find(&s, hash_of(f, n), n) == NULL);
    }
    fgi_featsets_free(&s);
    fgi_novelty_free(&direct);
    fgi_novelty_free(&viasets);
}
