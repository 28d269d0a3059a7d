/* engine/run/novelty.h — the set of behaviour signatures seen, with how often each was hit.
 *
 * Open addressing with linear probing over a power-of-two table; key 0 marks an empty
 * slot, which is free because signature 0 means "nothing to say" and is never stored.
 * The table is at most half full (grown by doubling), so a probe is short.
 */
#ifndef FG_NOVELTY_H
#define FG_NOVELTY_H

#include "engine/internal.h"

typedef struct fgi_novelty {
    uint64_t *keys;    /* signatures; 0 = empty slot */
    uint32_t *hits;    /* cases that produced keys[i], saturating at UINT32_MAX */
    size_t cap;        /* slots, a power of two (0 before the first insert) */
    size_t count;      /* occupied slots */
} fgi_novelty;

FGI_HIDDEN void fgi_novelty_init(fgi_novelty *n);
FGI_HIDDEN void fgi_novelty_free(fgi_novelty *n);

/* Records one case that produced sig (sig != 0). Returns 1 when sig was new, 0 when it
 * was known (its hit count goes up), -1 when out of memory (nothing recorded). */
FGI_HIDDEN int fgi_novelty_add(fgi_novelty *n, uint64_t sig);

/* Records `count` cases that produced sig (0 inserts it unhit). Same returns as add. */
FGI_HIDDEN int fgi_novelty_bump(fgi_novelty *n, uint64_t sig, uint32_t count);
/* Sets the count of sig, which must be in the set (a map from keys to small values). */
FGI_HIDDEN void fgi_novelty_set(fgi_novelty *n, uint64_t sig, uint32_t count);
/* Whether sig is in the set. */
FGI_HIDDEN int fgi_novelty_has(const fgi_novelty *n, uint64_t sig);
/* Empties the set, keeping its table. */
FGI_HIDDEN void fgi_novelty_clear(fgi_novelty *n);
/* How many cases produced sig so far (0 if never). */
FGI_HIDDEN uint32_t fgi_novelty_hits(const fgi_novelty *n, uint64_t sig);

#endif
