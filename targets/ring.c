/* targets/ring.c — the ring buffer (targets/lib/ring.h) tested as an API: sequences of
 * calls read with fg_reader, checked after every call against a model. */
#include "fuzzgate.h"

#include "targets/lib/ring_model.h"

static uint64_t ring_run(const uint8_t *data, size_t size)
{
    return ring_model_run(data, size, 0);
}

FG_TARGET(ring, .run = ring_run, .max_len = 512,
          .what = "a ring buffer against a model, one call at a time (fg_reader)");
