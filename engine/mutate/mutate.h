/* engine/mutate/mutate.h — the byte mutator: a table of small named mutators, stacked per case.
 *
 * Every mutator has one signature: it edits buf (holding `size` bytes, capacity `max`) in
 * place and returns the new length (never above max), or FGI_MUT_SKIP when it does not
 * apply to this input (buf is then unchanged). All randomness comes from m->rng, so the
 * same state gives the same output.
 */
#ifndef FG_MUTATE_H
#define FG_MUTATE_H

#include "engine/feedback/cmp.h"
#include "engine/mutate/dict.h"
#include "engine/base/rng.h"

#define FGI_MUT_SKIP ((size_t)-1)
#define FGI_MUT_STACK 8 /* most mutations stacked on one case; libFuzzer's default is 5 */
#define FGI_MUT_DEFAULT 5 /* the depth when the caller sets none (domains, LLVMFuzzerMutate) */

typedef struct fgi_mut {
    fgi_rng *rng;          /* the case's stream (borrowed) */
    const uint8_t *other;  /* a second corpus entry for crossover, or NULL (borrowed) */
    size_t other_size;
    uint8_t *scratch;      /* capacity >= max, owned by the caller; clobbered */
    const fgi_dict *dict;  /* dictionary words, or NULL (borrowed) */
    const fgi_cmp_int *local; /* the base input's own comparisons (borrowed), or NULL */
    size_t nlocal;
    size_t nlocal_reals;   /* of those, the floating-point ones */
    const fgi_cmp_str *local_strs; /* the base's own string comparisons (borrowed) */
    size_t nlocal_strs;
    uint32_t hot;          /* 1 + where the base's news was (fgi_entry.hot); 0: unknown */
    uint32_t stride;       /* how far past its own base's news the base's was (fgi_entry.stride):
                            * a ladder's stride, the next field's distance; 0: unknown */
    unsigned depth;        /* most mutators to stack, 1..FGI_MUT_STACK (0: FGI_MUT_DEFAULT) */
    int guided;            /* compiler coverage and comparisons guide the search
                            * (fgi_cov_enabled): the mutators' guided weights apply */
    unsigned napplied;                /* mutators applied to the last fgi_mutate */
    uint8_t applied[FGI_MUT_STACK];   /* their indices into fgi_mutators, in order */
    const char *step; /* the domain step that made the case ("domain_edit"), named
                       * before the mutators; NULL for plain byte mutation (domain.c) */
} fgi_mut;

typedef size_t (*fgi_mutator_fn)(fgi_mut *m, uint8_t *buf, size_t size, size_t max);

/* What a mutator needs besides the input; without it, it is never drawn. */
enum {
    FGI_NEEDS_OTHER = 1,   /* a non-empty crossover partner */
    FGI_NEEDS_DICT = 2,    /* dictionary words */
    FGI_NEEDS_CMP_INT = 4, /* recorded integer comparisons (the base's own or recent) */
    FGI_NEEDS_CMP_STR = 8, /* recorded string comparisons */
    FGI_NEEDS_HOT = 16,    /* the base's hot position (fgi_mut.hot) */
    FGI_NEEDS_CMP_REAL = 32 /* a floating-point one among the integer comparisons */
};

typedef struct fgi_mutator {
    const char *name;
    fgi_mutator_fn fn;
    unsigned min_size; /* it never applies to a shorter input (so it is never drawn) */
    unsigned needs;    /* FGI_NEEDS_* bits */
    unsigned weight;   /* relative chance of being drawn when it may apply, 1..16 */
    unsigned empty_needs; /* FGI_NEEDS_* bits it needs, besides, on an empty input */
    unsigned guided_weight; /* its weight when compiler coverage guides (fgi_mut.guided);
                             * 0: the same as weight */
} fgi_mutator;

/* mu's weight in a draw: its guided weight when the search is guided and it has one. */
static inline unsigned fgi_mutator_weight(const fgi_mutator *mu, int guided)
{
    return guided && mu->guided_weight ? mu->guided_weight : mu->weight;
}

FGI_HIDDEN extern const fgi_mutator fgi_mutators[];
FGI_HIDDEN extern const size_t fgi_mutator_count;

/* Applies 1..m->depth mutators to buf (size <= max; 1 with probability 1/2, 2 with 1/4,
 * ..., the rest on depth) and returns the new size (<= max). A small depth keeps what the
 * base matched: one change is likelier to keep a matched prefix than five. Only mutators whose min_size the input meets and whose
 * needs are present are drawn, so a draw is rarely wasted. Records what it applied in
 * m->applied. The result usually differs from the input, but not always: stacked
 * mutations can cancel out. */
FGI_HIDDEN size_t fgi_mutate(fgi_mut *m, uint8_t *buf, size_t size, size_t max);

/* The mutator cmp_number (in fgi_mutators; engine/mutate/numbers.c): takes a recorded
 * comparison (the base input's own, mostly, or the pool's) and, where the input holds a
 * number token whose value is one operand, writes the other operand there as text in a
 * random form; a floating-point comparison with no such token replaces a random number
 * token, or is inserted. */
FGI_HIDDEN size_t fgi_mut_cmp_number(fgi_mut *m, uint8_t *buf, size_t size, size_t max);

/* The mutator whose dictionary and crossover partner fg_mutate_bytes lends to domains
 * and LLVMFuzzerMutate while a case is built (bytes.c); NULL clears it. */
FGI_HIDDEN void fgi_bytes_context(const fgi_mut *m);

/* Appends "step,name,name,..." (the domain step, then the mutators) of the last case to s. */
FGI_HIDDEN void fgi_mutate_describe(const fgi_mut *m, fgi_str *s);

#endif
