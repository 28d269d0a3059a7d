/* bench/malloc_pair.c — a fuzzgate target whose every case does one timed batch of pairs.
 *
 * Inside a case the heap oracle is armed, so each malloc and free goes through the
 * registry: this is the accounting-on figure of `make bench`. The batches' own clock
 * (bench/pairs.h) times the pairs alone, not the engine around them; the total is
 * printed to stderr when the process exits.
 */
#include "fuzzgate.h"
#include "pairs.h"

#define BENCH_PAIR_SIG 0x7061697273ULL /* constant: only the empty input is ever kept */

static uint32_t bench_pair_state = BENCH_PAIRS_SEED;
static uint64_t bench_pair_batches;
static uint64_t bench_pair_ns;

static uint64_t bench_malloc_pair_run(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    bench_pair_ns += bench_pairs_batch(&bench_pair_state);
    bench_pair_batches++;
    return BENCH_PAIR_SIG;
}

__attribute__((destructor)) static void bench_malloc_pair_report(void)
{
    bench_pairs_print(stderr, bench_pair_batches, bench_pair_ns);
}

FG_TARGET(bench_malloc_pair, .flags = FG_NO_CORPUS, .run = bench_malloc_pair_run,
          .what = "64 malloc/free pairs a case: the heap oracle's cost per pair")
