/* engine/feedback/signals.c — what a target says beyond its signature: features and maxima.
 *
 * fg_feature and fg_maximize collect values during a case; the run reads them with
 * fgi_signals_each after the case (engine/run/executor.c's note_case), as keys of the same
 * feature table compiler coverage fills, so they keep an input exactly as new coverage would
 * and are deterministic in the same way. (The comparison helpers fg_cmp_* are the
 * comparison recorder's: cmp.c.)
 */
#include "engine/feedback/signals.h"

#include "engine/base/case.h"

/* Process-wide because the target calls these without a context. Written only on the
 * thread running a case (fgi_case_on_thread: another thread of the target writing here
 * would race), read by the run thread after it. */
static struct {
    uint64_t keys[FG_FEATURES_MAX]; /* this case's fg_feature keys */
    unsigned nkeys;
    unsigned best[FG_MAX_SLOTS];    /* 1 + the highest range each slot reached; 0: none */
    uint32_t slots;                 /* the slots with a value this case (bit per slot) */
} sig;

void fg_feature(uint64_t value)
{
    if (!fgi_case_on_thread() || sig.nkeys >= FG_FEATURES_MAX)
        return;
    sig.keys[sig.nkeys++] = fg_mix64(value ^ 0x6665617475726521ULL);
}

/* The range of v: 0..7 as they are, then four ranges per power of two. */
static unsigned range_of(uint64_t v)
{
    if (v < 8)
        return (unsigned)v;
    unsigned top = 63u - (unsigned)__builtin_clzll(v);
    return 8 + (top - 3) * 4 + (unsigned)((v >> (top - 2)) & 3);
}

void fg_maximize(unsigned slot, uint64_t value)
{
    if (!fgi_case_on_thread() || slot >= FG_MAX_SLOTS)
        return;
    /* Only the slot's highest value of the case counts. */
    unsigned r = range_of(value) + 1;
    if (!(sig.slots & (1u << slot)) || r > sig.best[slot])
        sig.best[slot] = r;
    sig.slots |= 1u << slot;
}

/* Both run on every case of every target: with nothing said they cost two loads. */
void fgi_signals_begin(void)
{
    sig.nkeys = 0;
    sig.slots = 0;
}

void fgi_signals_each(void (*fn)(void *ctx, uint64_t key), void *ctx)
{
    if (!sig.nkeys && !sig.slots)
        return;
    for (unsigned i = 0; i < sig.nkeys; i++)
        fn(ctx, sig.keys[i] ? sig.keys[i] : 1);
    for (unsigned s = 0; s < FG_MAX_SLOTS; s++)
        if (sig.slots & (1u << s)) {
            uint64_t key = fg_mix64(((uint64_t)s << 16 | (sig.best[s] - 1)) ^ 0x6d6178696dULL);
            fn(ctx, key ? key : 1);
        }
    fgi_signals_begin();
}
