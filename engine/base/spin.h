/* engine/base/spin.h — a lock for code that must not allocate or block in the C library's
 * locks (inside the interposed malloc family): a flag, taken with one atomic exchange when
 * it is free.
 *
 * A pure spin is wrong for it: a target's threads can outnumber the cores many times (a
 * stray thread a case, hundreds alive), and a holder that waits inside the allocator
 * underneath (its own mutex, under ASan) then waits behind spinners that burn every core
 * — seconds with no progress, which the supervisor calls a timeout. So a waiter spins a
 * little, for the common short hold, then yields, then naps (fgi_spin_backoff).
 *
 * The exchange is inline, in the caller's object: where a sanitizer instruments that
 * object (heap.c under TSan) it sees the acquisition, where it does not (heap_malloc.c,
 * which runs before the runtime has started a thread) nothing of it runs. spin.c is
 * compiled with no sanitizer for the same reason and makes raw system calls only.
 */
#ifndef FG_SPIN_H
#define FG_SPIN_H

#include "engine/internal.h"

#include <stdatomic.h>

/* One wait of a contended lock's waiter, the `tries`th (counted here, from 0): a pause,
 * a yield, or a nap of 50 us doubling to 1 ms. Allocates nothing, and is no cancellation
 * point. */
FGI_HIDDEN void fgi_spin_backoff(unsigned *tries);

static inline void fgi_spin_lock(atomic_flag *f)
{
    unsigned tries = 0;
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire))
        fgi_spin_backoff(&tries);
}

static inline void fgi_spin_unlock(atomic_flag *f)
{
    atomic_flag_clear_explicit(f, memory_order_release);
}

#endif
