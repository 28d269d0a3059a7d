/* engine/search/epoch.h — what the cases of an epoch found, as records that can cross a pipe.
 *
 * Every case of an epoch sees the same snapshot (corpus, signatures, features, comparison
 * pool). What the cases find is written down as records instead of changing the snapshot:
 * a candidate (an input that brought something the snapshot did not have) and hit counts
 * (per 64-case chunk, how often each signature and feature was produced). At the epoch's
 * end the records are merged in run order (fgi_epoch_sort, then the session's merge), so
 * the next snapshot is the same whichever executor ran which case — or whether one died.
 * An executor sends its records to the supervisor; their encoding is the protocol's
 * (engine/supervise/wire.h).
 */
#ifndef FG_EPOCH_H
#define FG_EPOCH_H

#include "engine/feedback/cmp.h"
#include "engine/feedback/reads.h"

#define FGI_CAND_CMPS 32 /* arbitrary: half a case's input-to-state pairs, half its last */
#define FGI_CAND_STRS 8

typedef struct fgi_cand {
    uint64_t seq;       /* position in the run: replayed items first, then generated cases */
    uint64_t sig;       /* the case's signature */
    int force;          /* kept whatever its novelty (the empty input; a replayed input
                         * whose signature is 0) */
    uint8_t *data;      /* owned */
    size_t size;
    uint64_t fhash;     /* a hash of every feature the case hit (0 without features) */
    uint64_t base;      /* 1 + the corpus entry it was mutated from; 0 for a replayed one */
    uint32_t work;      /* its comparisons (fgi_cmp_work), its cost; 0 when not measured */
    uint64_t *keys;     /* coverage features the snapshot did not have (owned) */
    uint32_t nkeys;
    fgi_cmp_int cmps[FGI_CAND_CMPS]; /* the case's own comparisons */
    uint32_t ncmps;
    fgi_cmp_str strs[FGI_CAND_STRS];
    uint32_t nstrs;
    fgi_read *reads;    /* the case's read record (reads.h; owned), NULL when it read none */
    uint32_t nreads;
    uint32_t hang;      /* 1: no input to keep but a note that the case, mutated from base,
                         * was ended by its time or work budget (a timeout the executor
                         * survived): the merge counts it against base (fgi_sched_hung) */
} fgi_cand;

enum { FGI_HITS_SIG = 0, FGI_HITS_FEATURE = 1 };

typedef struct fgi_hits {
    int which;          /* FGI_HITS_SIG or FGI_HITS_FEATURE */
    uint64_t *keys;     /* owned */
    uint32_t *counts;   /* owned */
    size_t n;
} fgi_hits;

typedef struct fgi_epoch_log {
    fgi_cand *cands;
    size_t ncands, cap;
    fgi_hits *hits;
    size_t nhits, hcap;
} fgi_epoch_log;

FGI_HIDDEN void fgi_epoch_clear(fgi_epoch_log *l);  /* frees every record; reusable */
/* Frees one record's buffers (a record not handed to a log). */
FGI_HIDDEN void fgi_epoch_free_cand(fgi_cand *c);
FGI_HIDDEN void fgi_epoch_free_hits(fgi_hits *h);
/* Takes ownership of c's buffers (and of h's). -1 when out of memory (they are freed). */
FGI_HIDDEN int fgi_epoch_add_cand(fgi_epoch_log *l, fgi_cand *c);
FGI_HIDDEN int fgi_epoch_add_hits(fgi_epoch_log *l, fgi_hits *h);
/* Candidates in run order (seq); seqs are unique within an epoch. */
FGI_HIDDEN void fgi_epoch_sort(fgi_epoch_log *l);

#endif
