/* engine/search/covcount.h — an executor's coverage features by dense index: the chunk's hit
 * counts and which features need no lookup for news.
 *
 * A coverage feature has a 64-bit key (what epochs, the snapshot and corpus entries hold)
 * and, in this process, a dense index (engine/feedback/coverage.h). Hashing every feature
 * of every case into three open-addressing tables cost ~60 instructions a feature, where
 * libFuzzer spends ~10 on dense arrays; here a case costs an array increment and a bit
 * test a feature:
 *   - counts: the chunk's hits by dense index, with the indices in the order first hit
 *     and their keys, drained at the chunk's end as the key/count pairs the hit-count
 *     table gave (the same pairs; the snapshot sums them, so their order does not matter);
 *   - known: a bit a feature that needs no lookup: the snapshot has it (which stays true:
 *     the snapshot never forgets), or this executor sent it this epoch (cleared with the
 *     epoch's sent set). A clear bit means "look it up", never "new".
 * The arrays are as large as the dense space (a few MiB for a large instrumented
 * program), allocated on first use and grown when a module registers.
 */
#ifndef FG_COVCOUNT_H
#define FG_COVCOUNT_H

#include "engine/internal.h"

typedef struct fgi_covcount {
    uint8_t *count;      /* hits this chunk, by dense index: a chunk is at most 64 cases
                          * (FGI_RUN_CHUNK), and a byte keeps the array cache-sized */
    uint64_t *known;     /* bitmap by dense index (see above) */
    size_t size;         /* dense indices the arrays hold */
    uint32_t *touched;   /* indices hit this chunk, in the order first hit... */
    uint64_t *keys;      /* ...and their keys */
    size_t ntouched, touched_cap;
    uint32_t *sent;      /* indices whose known bit is there because they were sent */
    size_t nsent, sent_cap;
} fgi_covcount;

FGI_HIDDEN void fgi_covcount_init(fgi_covcount *c);
FGI_HIDDEN void fgi_covcount_free(fgi_covcount *c);

/* Room for dense indices below size (zeroed). 0, or -1 when out of memory. */
FGI_HIDDEN int fgi_covcount_reserve(fgi_covcount *c, size_t size);

/* Room for n more first hits this chunk. 0, or -1 when out of memory. */
FGI_HIDDEN int fgi_covcount_room(fgi_covcount *c, size_t n);

/* Counts one hit of (key, d); room for a first hit must have been made. A chunk counts a
 * feature once a case, so it stays far below the byte's limit, where it would stop. */
static inline void fgi_covcount_hit(fgi_covcount *c, uint32_t d, uint64_t key)
{
    FG_ASSERT(d < c->size);
    if (c->count[d] == 0) {
        FG_ASSERT(c->ntouched < c->touched_cap);
        c->touched[c->ntouched] = d;
        c->keys[c->ntouched++] = key;
    }
    c->count[d] += c->count[d] < UINT8_MAX;
}

static inline int fgi_covcount_known(const fgi_covcount *c, uint32_t d)
{
    return (int)(c->known[d / 64] >> (d % 64) & 1);
}

/* Sets d's known bit: the snapshot has it (sent 0), or it was sent this epoch (sent 1).
 * 0, or -1 when out of memory (the bit stays clear: looked up again, never wrong). */
FGI_HIDDEN int fgi_covcount_mark(fgi_covcount *c, uint32_t d, int sent);

/* The epoch's end: the bits of features sent this epoch are cleared. */
FGI_HIDDEN void fgi_covcount_epoch_end(fgi_covcount *c);

/* The chunk's end: writes each feature hit and its count (capacity c->ntouched each),
 * in the order first hit, and empties the counts. Returns how many. */
FGI_HIDDEN size_t fgi_covcount_drain(fgi_covcount *c, uint64_t *keys, uint32_t *counts);

#endif
