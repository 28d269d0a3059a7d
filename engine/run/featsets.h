/* engine/run/featsets.h — the distinct feature sets of a chunk's cases, so that a case whose
 * coverage repeats an earlier case's costs one lookup, not a hash-table update a feature.
 *
 * Most cases of a run hit exactly the features an earlier case of their chunk hit (the same
 * edges with the same hit-count buckets). What the executor does with a case's features is
 * (1) count each one's hits for the chunk (fgi_novelty dfeat, sent at the chunk's end) and
 * (2) look each one up in the snapshot and in what the executor already sent, for news.
 * For a repeated set, (2) finds nothing once an earlier case of the chunk looked (what it
 * did not find in the snapshot it sent, and neither shrinks within a chunk), and (1) is the
 * same for every feature of the set: the set keeps a repeat count, added to each of its
 * features' counts at the chunk's end. The first case of a set counts its own features
 * directly, so every feature enters the hit-count table in the order it did before, and
 * the table drained at the chunk's end is the same, key for key and count for count.
 *
 * A set is known by its feature hash (the sum of its features' mixed values, the hash
 * the schedule keeps for entries) and its size; two different sets that agree on both are
 * taken for one, as the schedule's entry reduction already takes them.
 */
#ifndef FG_FEATSETS_H
#define FG_FEATSETS_H

#include "engine/run/novelty.h"

typedef struct fgi_featset {
    uint64_t fhash;
    size_t first, n;    /* its features: feats[first .. first + n) */
    uint32_t repeats;   /* cases after the first that hit it */
    int checked;        /* a case of it was looked up for news (not blocked, not replayed) */
} fgi_featset;

typedef struct fgi_featsets {
    fgi_featset *sets;  /* in the order first seen */
    size_t count, cap;
    uint32_t *index;    /* open addressing over fhash: 1 + a set's position; 0 = empty */
    size_t index_cap;   /* a power of two, at least twice count */
    uint64_t *feats;    /* every set's features, end to end */
    size_t nfeats, feats_cap;
} fgi_featsets;

FGI_HIDDEN void fgi_featsets_init(fgi_featsets *s);
FGI_HIDDEN void fgi_featsets_free(fgi_featsets *s);

/* The set with this hash and size, or NULL. */
FGI_HIDDEN fgi_featset *fgi_featsets_find(const fgi_featsets *s, uint64_t fhash, size_t n);

/* Adds a set first seen now (not already in s). NULL when out of memory. */
FGI_HIDDEN fgi_featset *fgi_featsets_add(fgi_featsets *s, uint64_t fhash, const uint64_t *feats,
                                         size_t n);

/* The chunk's end: each repeated set's count added to each of its features' hits in `into`
 * (where its first case put them), then the sets emptied. 0, or -1 when out of memory. */
FGI_HIDDEN int fgi_featsets_flush(fgi_featsets *s, fgi_novelty *into);

#endif
