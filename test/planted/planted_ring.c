/* test/planted/planted_ring.c — the ring target's planted twin: the same calls and model
 * (targets/lib/ring_model.h) over a ring whose pop_back steps one slot too far back once
 * the tail has wrapped to slot 0. Found only by 64 pushes (net of pop_backs) that wrap the
 * tail, then a pop_back: test/e2e/test_typed.c expects the gate to find it and the
 * minimiser to bring it down to those operations. */
#include "fuzzgate.h"

#include "targets/lib/ring_model.h"

static uint64_t planted_ring_run(const uint8_t *data, size_t size)
{
    return ring_model_run(data, size, 1);
}

FG_TARGET(planted_ring, .flags = FG_NO_CORPUS, .run = planted_ring_run, .max_len = 512,
          .what = "the ring target with an off-by-one in pop_back after a wrap-around");
