/* engine/base/spin.h — a lock for code that must not allocate or block in the C library's
 * locks (inside the interposed malloc family): a flag, taken with one atomic exchange when
 * it is free.
 *
 * A pure spin is wrong for it: a target's threads can outnumber the cores many times (a
 * stray thread a case, hundreds alive), and a holder that waits inside the allocator
 * underneath (its own mutex, under ASan) then waits behind spinners that burn every core
 * — seconds with no progress, which the supervisor calls a timeout. So a waiter spins a
 * little, for the common short hold, then yields, then naps (fgi_spin_wait).
 */
#ifndef FG_SPIN_H
#define FG_SPIN_H

#include "engine/internal.h"

#include <stdatomic.h>

/* The contended side: returns once it has taken f. Allocates nothing, and is no
 * cancellation point. */
FGI_HIDDEN void fgi_spin_wait(atomic_flag *f);

static inline void fgi_spin_lock(atomic_flag *f)
{
    if (atomic_flag_test_and_set_explicit(f, memory_order_acquire))
        fgi_spin_wait(f);
}

static inline void fgi_spin_unlock(atomic_flag *f)
{
    atomic_flag_clear_explicit(f, memory_order_release);
}

#endif
