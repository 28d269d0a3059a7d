/* engine/base/rng.h — the counter-based random stream every fuzzing decision draws from.
 *
 * Case k of a target draws from a stream that is a pure function of (seed, target name,
 * k): fgi_rng_case. Nothing else — no clock, no address, no previous case's draws — may
 * seed it, which is what lets a finding be reproduced from (seed, case) alone and lets
 * parallel workers run any case in any order. The stream is splitmix64: a Weyl sequence
 * through a 64-bit finaliser; fast, stateless to jump, and good enough for mutation.
 * Inline because every mutation draws several times.
 */
#ifndef FG_RNG_H
#define FG_RNG_H

#include "engine/internal.h"

typedef struct fgi_rng {
    uint64_t state; /* the Weyl counter; the next output is fg_mix64(state += GOLDEN) */
} fgi_rng;

#define FGI_RNG_GOLDEN 0x9e3779b97f4a7c15ULL

/* The stream of case `k` of the target whose name hashes to name_hash. */
static inline void fgi_rng_case(fgi_rng *r, uint64_t seed, uint64_t name_hash, uint64_t k)
{
    r->state = fg_mix64(fg_mix64(seed ^ 0x243f6a8885a308d3ULL) ^ name_hash) ^
               fg_mix64(k + 0x13198a2e03707344ULL);
}

static inline uint64_t fgi_rng_next(fgi_rng *r)
{
    r->state += FGI_RNG_GOLDEN;
    return fg_mix64(r->state);
}

/* Uniform in [0, n); n > 0. Lemire's multiply-shift: the bias is below 2^-32 for the n
 * the engine uses, and the result is identical on every machine. */
static inline uint64_t fgi_rng_below(fgi_rng *r, uint64_t n)
{
    FG_ASSERT(n > 0);
    return (uint64_t)(((unsigned __int128)fgi_rng_next(r) * n) >> 64);
}

/* Uniform in [lo, hi]; lo <= hi. */
static inline uint64_t fgi_rng_range(fgi_rng *r, uint64_t lo, uint64_t hi)
{
    FG_ASSERT(lo <= hi);
    if (hi - lo == UINT64_MAX) /* the full width: hi - lo + 1 would wrap to 0 */
        return fgi_rng_next(r);
    return lo + fgi_rng_below(r, hi - lo + 1);
}

/* 1 with probability num/den. */
static inline int fgi_rng_chance(fgi_rng *r, unsigned num, unsigned den)
{
    return fgi_rng_below(r, den) < num;
}

#endif
