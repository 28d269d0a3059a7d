/* engine/search/novelty.h — the set of behaviour signatures seen, with how often each was hit.
 *
 * Open addressing with linear probing over a power-of-two table; key 0 marks an empty
 * slot, which is free because signature 0 means "nothing to say" and is never stored.
 * The table is at most half full (grown by doubling), so a probe is short.
 *
 * A set emptied often (an executor's per-chunk deltas) is made with fgi_novelty_init_scratch:
 * it also keeps a bitmap of the slots it filled, so emptying or draining it costs what it holds rather
 * than its whole table. Which slot a key lands in is the same either way.
 */
#ifndef FG_NOVELTY_H
#define FG_NOVELTY_H

#include "engine/internal.h"

typedef struct fgi_novelty {
    uint64_t *keys;    /* signatures; 0 = empty slot */
    uint32_t *hits;    /* cases that produced keys[i], saturating at UINT32_MAX */
    size_t cap;        /* slots, a power of two (0 before the first insert) */
    size_t count;      /* occupied slots */
    uint64_t *occ;     /* scratch sets only: bit i set when slot i is occupied */
    int scratch;       /* made by fgi_novelty_init_scratch */
} fgi_novelty;

FGI_HIDDEN void fgi_novelty_init(fgi_novelty *n);
/* An empty set that remembers its occupied slots (see above). */
FGI_HIDDEN void fgi_novelty_init_scratch(fgi_novelty *n);
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
/* Writes every key and its hit count in slot order (capacity n->count each), then empties
 * the set. Returns how many were written. */
FGI_HIDDEN size_t fgi_novelty_drain(fgi_novelty *n, uint64_t *keys, uint32_t *hits);

/* The same as bump and has for a caller that already has mixed = fg_mix64(sig) (the
 * slot's hash), so a key looked up in several sets is mixed once. */
FGI_HIDDEN int fgi_novelty_bump_mixed(fgi_novelty *n, uint64_t sig, uint64_t mixed,
                                      uint32_t count);
FGI_HIDDEN int fgi_novelty_has_mixed(const fgi_novelty *n, uint64_t sig, uint64_t mixed);

#endif
