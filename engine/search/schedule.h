/* engine/search/schedule.h — where the search spends its cases: length, energy, depth, reduction.
 *
 * A plain build has only the target's signatures (and the comparisons it makes) to go on,
 * so the search must be frugal: short inputs first, most cases on the newest and rarest
 * entries, few stacked mutations so what an entry matched survives, mutations aimed where
 * an entry's news was, and every entry as short as any input that does the same.
 *
 * Every decision here is taken at an epoch merge from the merged records alone, or during
 * an epoch from the snapshot alone, so it is the same for any number of executors and
 * under either compiler (engine/run/state.h's header gives the epoch rule).
 */
#ifndef FG_SCHEDULE_H
#define FG_SCHEDULE_H

#include "engine/mutate/mutate.h"
#include "engine/search/corpus.h"
#include "engine/search/epoch.h"

#define FGI_LEN_FIRST 16 /* the first length limit; arbitrary: a few fields of a format */

typedef struct fgi_sched {
    size_t len_limit;        /* generated inputs grow to at most this (see fgi_sched_room) */
    unsigned stalled;        /* merges in a row that brought nothing */
    uint64_t news;           /* entries kept or shortened by the current merge */
    fgi_novelty sent_sizes;  /* executor side: (signature, features) -> 1 + the size of the
                              * shortest input sent for it this epoch */
} fgi_sched;

FGI_HIDDEN void fgi_sched_init(fgi_sched *s, size_t max_len);
FGI_HIDDEN void fgi_sched_free(fgi_sched *s);

/* ---- the case side (from the snapshot) ---- */

/* The most bytes a case mutated from a base of base_size may have: the length limit, or a
 * little more than the base (a long replayed input is never cut), never above max_len.
 * Inline, as fgi_sched_lend: both run on every case. */
static inline size_t fgi_sched_room(const fgi_sched *s, size_t base_size, size_t max_len)
{
    size_t room = FGI_MAX(s->len_limit, base_size + 8); /* 8: arbitrary, a field or two */
    return FGI_MIN(room, max_len);
}

/* Lends the base's notes to the mutator: its hot position, its own comparisons, and the
 * stacking depth (2, growing by one each time the cases spent on it without news double,
 * from 256, up to FGI_MUT_STACK). */
static inline void fgi_sched_lend(const fgi_entry *base, fgi_mut *m)
{
    unsigned depth = 1 + 63u - (unsigned)__builtin_clzll(1 + base->since / 128);
    m->local = base->cmps;
    m->nlocal = base->ncmps;
    m->nlocal_reals = base->nreals;
    m->local_strs = base->strs;
    m->nlocal_strs = base->nstrs;
    m->hot = base->hot;
    m->stride = base->stride;
    m->depth = depth < FGI_MUT_STACK ? depth : FGI_MUT_STACK;
}

/* Whether a passing case whose behaviour is known should be sent as a candidate to
 * replace the entry kept for it: it is shorter than that entry (with the same feature
 * hash), if the snapshot has one, and than every input this executor sent for it this
 * epoch. Nothing else this executor did decides: which executor ran a case must not
 * change the result. The behaviour is the
 * signature; for a target that returns none (a libFuzzer harness), the feature hash, as
 * libFuzzer's REDUCE: the case's base (index, or -1) when it has that hash, else the first
 * entry kept with it. 1 yes (and noted),
 * 0 no, -1 out of memory. A later case that is not shorter than an earlier one of the
 * same executor would lose at the merge anyway, so skipping it changes no result. */
FGI_HIDDEN int fgi_sched_shorter(fgi_sched *s, const fgi_corpus *c, uint64_t sig,
                                 uint64_t fhash, size_t size, int fresh, long base);

/* ---- the merge side (from the records, in run order) ---- */

/* Counts the cases the epoch that just ran (ncases generated cases) spent on each entry:
 * each entry's share of the snapshot's weights, which is what its cases drew from. An
 * expectation rather than the exact picks, so it costs one pass over the corpus a merge,
 * not one pick a case. Call before anything of the merge changes the corpus. -1 out of
 * memory. */
FGI_HIDDEN int fgi_sched_count_picks(fgi_corpus *c, const fgi_novelty *nov, uint64_t ncases);

/* Notes on the entry just kept at index from candidate cand: its feature hash, its own
 * string comparisons, where it differs from its base (its hot position), and news for
 * the base. -1 out of memory. */
FGI_HIDDEN int fgi_sched_kept(fgi_sched *s, fgi_corpus *c, size_t index, const fgi_cand *cand);

/* A hang note (fgi_cand.hang): one more of the cases bred from its base that ran out of
 * their time or work; the base weighs less from now on (corpus.c). */
FGI_HIDDEN void fgi_sched_hung(fgi_corpus *c, const fgi_cand *cand);

/* A candidate that brought nothing new: replaces the entry kept for its behaviour (the
 * entry fgi_sched_shorter's test names) when it is shorter and hit the same features.
 * 1 replaced, 0 not, -1 out of memory. */
FGI_HIDDEN int fgi_sched_reduce(fgi_sched *s, fgi_corpus *c, const fgi_cand *cand);

/* The merge's end: a merge without news (after the first) doubles the length limit, up to
 * max_len; the entries' age clock ticks. */
FGI_HIDDEN void fgi_sched_merged(fgi_sched *s, fgi_corpus *c, size_t max_len);

#endif
