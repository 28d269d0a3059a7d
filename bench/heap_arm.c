/* bench/heap_arm.c — the heap oracle's fixed cost a case: fgi_heap_arm + fgi_heap_disarm.
 *
 * Calls the pair the engine makes around every case body, with nothing allocated between
 * them (an empty case), in batches of BENCH_PAIRS_K timed like the malloc pairs (the
 * median batch, bench/pairs.h). Linked with libfuzzgate.a: the calls are hidden to other
 * modules, not to a static link. Usage: bench-heap-arm BATCHES; prints
 * "bench-arm: N cases, median batch M ns".
 */
#include "oracle/allowance.h"
#include "oracle/heap.h"
#include "pairs.h"

int main(int argc, char **argv)
{
    char *end;
    unsigned long long batches = argc == 2 ? strtoull(argv[1], &end, 10) : 0;
    if (argc != 2 || end == argv[1] || *end != '\0') {
        fprintf(stderr, "usage: %s BATCHES\n", argv[0]);
        return 2;
    }
    size_t allowance = fgi_allowance_default(0);
    fgi_heap_report r;
    for (unsigned long long i = 0; i < batches; i++) {
        uint64_t t0 = bench_pairs_now();
        for (unsigned k = 0; k < BENCH_PAIRS_K; k++) {
            fgi_heap_arm(allowance);
            fgi_heap_disarm(&r);
            if (r.live_bytes || r.refused)
                abort();
        }
        uint64_t ns = bench_pairs_now() - t0;
        bench_pairs_hist[ns < BENCH_PAIRS_HIST - 1 ? ns : BENCH_PAIRS_HIST - 1]++;
    }
    printf("bench-arm: %llu cases, median batch %u ns\n", batches * BENCH_PAIRS_K,
           bench_pairs_median(batches));
    return 0;
}
