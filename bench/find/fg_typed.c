/* bench/find/fg_typed.c — the ring target's planted twin (test/planted/planted_ring.c) for
 * time-to-find: the same container and model, with each FG_CHECK an abort, so the first
 * broken invariant ends a --no-fork run at the case that found it (a check finding would
 * let the run go on, and its stored input is the smallest of the class, not the first).
 * bench/find.sh runs it with read-aware mutation on (--typed) and off (--no-typed). */
#include "fuzzgate.h"

#include <stdio.h>
#include <stdlib.h>

#undef FG_CHECK
#define FG_CHECK(cond, ...)                                                                \
    do {                                                                                   \
        if (!(cond))                                                                       \
            (void)sizeof(printf(__VA_ARGS__)), abort();                                    \
    } while (0)

#include "targets/lib/ring.c"
#include "targets/lib/ring_model.c"

static uint64_t typed_ring_run(const uint8_t *d, size_t n)
{
    return ring_model_run(d, n, 1);
}

FG_TARGET(typed_ring, .flags = FG_NO_CORPUS, .run = typed_ring_run, .max_len = 512,
          .what = "the planted ring: pop_back off by one after the tail wraps; fg_reader");
