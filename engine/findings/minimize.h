/* engine/findings/minimize.h — in-class delta debugging: a bounded, deterministic search for a
 * smaller input that still lands in a finding's class.
 *
 * The search knows nothing about targets or classes: it asks a predicate. The session's
 * predicate replays a candidate as a run of its own (supervised: a crash or a hang kills
 * only an executor) and answers whether it reproduces the class.
 */
#ifndef FG_MINIMIZE_H
#define FG_MINIMIZE_H

#include "engine/feedback/reads.h"

/* Whether data[0..size) still lands in the target class: 1 yes, 0 no, negative to stop
 * the search now (an engine failure of the caller's; the search returns what it has).
 * data is borrowed for the call. Called once per trial, never twice for equal bytes. */
typedef int (*fgi_reproduces_fn)(void *ctx, const uint8_t *data, size_t size);

enum fgi_min_stop {
    FGI_MIN_FIXED_POINT, /* a whole round changed nothing: the result is 1-minimal (below) */
    FGI_MIN_BUDGET,      /* the trial budget was spent first */
    FGI_MIN_STOPPED      /* the predicate returned a negative value */
};

typedef struct fgi_min_result {
    uint8_t *data;          /* the smallest confirmed input; caller frees with fgi_free */
    size_t size;
    unsigned long trials;   /* predicate calls made (<= the budget) */
    unsigned long repeats;  /* candidates not tried because equal bytes were tried before */
    enum fgi_min_stop stop; /* why the search ended */
} fgi_min_result;

/* Minimises data[0..size), which the caller has confirmed reproduces (it is not tried
 * again), with at most `budget` predicate calls. Rounds of three passes repeat until a
 * round changes nothing:
 *   1. ddmin over chunks: remove each chunk of size/2, size/4, ... 1 bytes in turn (keep
 *      the complement when it reproduces); single bytes until a pass removes none;
 *   2. trailing bytes: cut the last 2^k bytes, k from large to small, while it reproduces;
 *   3. simpler bytes: each byte in turn becomes the first of 0x00, '0', ' ' that is
 *      simpler than it (in that order; other bytes are simplest-last) and reproduces.
 * Guarantees: the result is the original or an input the predicate answered 1 for; the
 * search is a pure function of the bytes and the predicate's answers (no randomness, no
 * time); a candidate equal to one tried before is not tried again (a 64-bit content hash;
 * equal hashes of different bytes, about 2^-64 a pair, would skip a candidate). At
 * FGI_MIN_FIXED_POINT the result is 1-minimal for a deterministic predicate: removing any
 * one byte, or making any one byte simpler, does not reproduce.
 * Returns FG_OK with *out filled (also when the budget or the predicate stopped the
 * search), FG_EINVAL for a NULL predicate or out, FG_ENOMEM with *out zeroed. */
FGI_HIDDEN fg_error fgi_minimize(const uint8_t *data, size_t size, unsigned long budget,
                                 fgi_reproduces_fn reproduces, void *ctx,
                                 fgi_min_result *out);

/* fgi_minimize for an input the target read with fg_reader, whose read record is
 * reads[0..nreads) (engine/feedback/reads.h; NULL, 0: none, and this is fgi_minimize).
 * Two structural passes come first, once, each a trial a candidate like the byte passes:
 *   0a. operations: ddmin over whole operations (the reads from one pick to the next),
 *       runs of n/2, n/4, ... 1 of them removed, until removing any one does not reproduce;
 *   0b. values: each range, integer and bool value read (not a pick: that would be
 *       another operation) becomes its lowest (lo, 0, false), else half of what it was.
 * Then the byte rounds above. The record is the original input's; removals keep it true
 * (the operations after a removed one only move), and values rewritten in place do not
 * move anything. A target that reads otherwise than the record says costs trials, never
 * a wrong result: every candidate is still tried. */
FGI_HIDDEN fg_error fgi_minimize_reads(const uint8_t *data, size_t size,
                                       const fgi_read *reads, size_t nreads,
                                       unsigned long budget, fgi_reproduces_fn reproduces,
                                       void *ctx, fgi_min_result *out);

#endif
