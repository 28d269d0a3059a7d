/* bench/empty.c — the empty fuzzgate target whose cases/s `make bench` measures. */
#include "fuzzgate.h"

/* A constant, non-zero signature: every case goes through the novelty lookup as a real
 * target's would, but only the empty input is ever kept. The engine calls this through
 * fg_target.run, a pointer in another translation unit, so the call cannot be elided. */
#define BENCH_EMPTY_SIG 0x62656e6368ULL

static uint64_t bench_empty_run(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return BENCH_EMPTY_SIG;
}

FG_TARGET(bench_empty, .flags = FG_NO_CORPUS, .run = bench_empty_run,
          .what = "does nothing: measures the engine's own cost per case")
