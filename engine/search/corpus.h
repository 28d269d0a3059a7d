/* engine/search/corpus.h — the inputs a run keeps, and the deterministic choice of which to mutate.
 *
 * Invariant: entries are in the order they were kept (replayed files in sorted name order,
 * then seeds, then the empty input, then novel generated inputs in case order), and the
 * choice of an entry depends only on that list, the signature hit counts and the rng —
 * never on time or addresses.
 */
#ifndef FG_CORPUS_H
#define FG_CORPUS_H

#include "engine/feedback/cmp.h"
#include "engine/feedback/reads.h"
#include "engine/search/novelty.h"
#include "engine/base/rng.h"

#define FGI_ENTRY_FEATS 8 /* arbitrary: enough to say how rare what an entry found is */
#define FGI_STRIDE_MAX 16   /* the widest ladder step believed (fgi_entry.stride); arbitrary: a
                           * record header or a few fields */

typedef struct fgi_entry {
    uint8_t *data;  /* owned */
    size_t size;
    uint64_t sig;   /* the signature it brought (0 for an entry kept unconditionally) */
    fgi_cmp_int *cmps; /* the integer comparisons it made when it ran (owned), or NULL */
    size_t ncmps;
    size_t nreals;     /* of those, the floating-point ones */
    fgi_cmp_str *strs; /* the string comparisons it made (owned), or NULL */
    size_t nstrs;
    uint64_t feats[FGI_ENTRY_FEATS]; /* coverage features it was the first to hit */
    unsigned nfeats;
    /* The search's notes (engine/search/schedule.c), all written at epoch merges only. */
    uint64_t fhash;  /* a hash of the set of coverage features its run hit (0: no coverage) */
    uint64_t born;   /* the merge that kept it (fgi_corpus.merges then) */
    uint32_t picks;  /* generated cases that mutated it */
    uint32_t since;  /* of those, the ones since it last gave a kept input */
    uint32_t finds;  /* kept inputs made from it */
    uint32_t hot;    /* 1 + the first byte where it differs from the entry it was made
                      * from (where the news was); 0 when unknown */
    uint32_t parent; /* 1 + the index of the entry it was made from; 0 none (replayed) */
    uint32_t stride; /* hot less its base's hot, when that is 1..FGI_STRIDE_MAX: how far one
                      * step of a ladder reaches (the next field is as far on); 0 unknown */
    uint32_t work;   /* the comparisons its run made (its cost, schedule.h); 0: unknown */
    uint32_t hangs;  /* cases bred from it that ran out of their time or work budget */
    fgi_read *reads; /* its run's read record (engine/feedback/reads.h; owned), or NULL:
                      * what the read-aware mutator (engine/mutate/typed.h) edits by */
    size_t nreads;
} fgi_entry;

typedef struct fgi_corpus {
    fgi_entry *entries;
    size_t count, cap;
    uint64_t *prefix;      /* prefix sums of entry weights, valid when !dirty */
    size_t prefix_cap;
    int dirty;             /* an entry or a merge came since the weights were computed */
    const fgi_novelty *features; /* coverage features' hit counts, or NULL (borrowed) */
    uint64_t merges;       /* epoch merges so far: the clock of an entry's age */
    fgi_novelty bysig;     /* signature -> 1 + the index of the entry kept for it */
    fgi_novelty byfh;      /* for entries without a signature (a libFuzzer harness's, a
                            * coverage-only target's): feature hash -> 1 + the index of the
                            * first entry kept with it */
} fgi_corpus;

FGI_HIDDEN void fgi_corpus_init(fgi_corpus *c);
FGI_HIDDEN void fgi_corpus_free(fgi_corpus *c);

/* Keeps a copy of data. Returns 0, or -1 when out of memory (nothing kept). */
FGI_HIDDEN int fgi_corpus_add(fgi_corpus *c, const uint8_t *data, size_t size, uint64_t sig);

/* The entry kept for signature sig (sig != 0), or -1. */
FGI_HIDDEN long fgi_corpus_by_sig(const fgi_corpus *c, uint64_t sig);
/* The entry that stands for a behaviour: the one kept for signature sig, or without a
 * signature (sig 0) the first one kept with feature hash fhash (fhash != 0); or -1. */
FGI_HIDDEN long fgi_corpus_by_behaviour(const fgi_corpus *c, uint64_t sig, uint64_t fhash);
/* Notes entry index (without a signature) under its feature hash, unless an entry is
 * already there. -1 when out of memory. */
FGI_HIDDEN int fgi_corpus_note_fhash(fgi_corpus *c, size_t index);

/* Replaces entry index's bytes with a copy of data (a shorter input that does the same);
 * its other notes stay. -1 when out of memory (the entry is unchanged). */
FGI_HIDDEN int fgi_corpus_replace(fgi_corpus *c, size_t index, const uint8_t *data,
                                  size_t size);

/* Attaches a copy of an entry's own comparisons (replacing any). -1 when out of memory. */
FGI_HIDDEN int fgi_corpus_set_cmps(fgi_corpus *c, size_t index, const fgi_cmp_int *cmps,
                                   size_t n);

/* Attaches a copy of an entry's own string comparisons. -1 when out of memory. */
FGI_HIDDEN int fgi_corpus_set_strs(fgi_corpus *c, size_t index, const fgi_cmp_str *strs,
                                   size_t n);

/* Attaches a copy of an entry's read record (replacing any). -1 when out of memory. */
FGI_HIDDEN int fgi_corpus_set_reads(fgi_corpus *c, size_t index, const fgi_read *reads,
                                    size_t n);

/* Records the coverage features an entry was first to hit (at most FGI_ENTRY_FEATS). */
FGI_HIDDEN void fgi_corpus_set_features(fgi_corpus *c, size_t index, const uint64_t *f,
                                        unsigned n);

/* Picks an entry for case `k` (count > 0). Entries whose behaviour is rare, entries that
 * are small or cheap, new entries and entries that still produce are favoured:
 *   weight = 2^20 / ((1 + log2(hits + 1)) * (4 + log2(size + 1)))
 *            * newness (16, 8, 4, 2 in the four merges after it was kept, then 1)
 *            / (1 + log2(1 + since / 128))
 *            * 1024 / (its work + 1024) (work: its comparisons; 1024: the engine's own
 *              per case; left out in a run where no entry's work is known),
 * where hits is how often its signature was produced or, when it brought coverage features
 * and c->features is set, how often the rarest of those features was hit since, and since
 * is how many cases mutated it since it last gave a kept input.
 * Weights are recomputed when the corpus is dirty: an entry came or changed, or a merge
 * (fgi_sched_merged) moved the hit counts, ages and picks they are made of; so a function
 * of the case sequence alone. Returns -1 only when out of memory. */
FGI_HIDDEN long fgi_corpus_pick(fgi_corpus *c, const fgi_novelty *n, fgi_rng *r);

/* The prefix sums of the entries' weights (what fgi_corpus_pick draws from over the same
 * snapshot), computed again when the corpus is dirty; borrowed until the next change.
 * NULL when out of memory. */
FGI_HIDDEN const uint64_t *fgi_corpus_weights(fgi_corpus *c, const fgi_novelty *n);

#endif
