/* engine/mutate/bytes.c — the public face of the random stream and the byte mutator, for
 * domains (fuzzgate.h "Domains") and the libFuzzer bridge's LLVMFuzzerMutate. */
#include "engine/mutate/mutate.h"

#include <string.h>

/* The run's mutator (dictionary, comparison tables) while a case is being built; NULL
 * otherwise. Set by the session on its run thread only. */
static const fgi_mut *current;

void fgi_bytes_context(const fgi_mut *m)
{
    current = m;
}

uint64_t fg_rng_u64(fg_rng *rng)
{
    return fgi_rng_next(rng);
}

uint64_t fg_rng_below(fg_rng *rng, uint64_t n)
{
    return n ? fgi_rng_below(rng, n) : 0;
}

size_t fg_mutate_bytes(fg_rng *rng, uint8_t *data, size_t size, size_t max_size)
{
    if (!rng || !data || max_size == 0)
        return size > max_size ? max_size : size;
    if (size > max_size)
        size = max_size;
    fgi_mut m = {0};
    if (current) {
        m.dict = current->dict;
        m.other = current->other;
        m.other_size = current->other_size;
    }
    m.rng = rng;
    /* The scratch a mutator may use is as large as the buffer it mutates. */
    m.scratch = fgi_malloc(max_size);
    if (!m.scratch)
        return size; /* out of memory: the input unchanged is still an input */
    size_t n = fgi_mutate(&m, data, size, max_size);
    fgi_free(m.scratch);
    return n;
}
