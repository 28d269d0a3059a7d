/* bench/pairs.h — the timed malloc/free pair loop every allocator figure in bench/ shares.
 *
 * One batch is BENCH_PAIRS_K pairs of malloc(16..271 bytes, xorshift-chosen) and free,
 * each block written once, timed by CLOCK_MONOTONIC around the whole batch. The same
 * function, the same sizes in the same order, runs in every program that includes this:
 * in a fuzzgate case (the registry path), in a plain glibc program, and in a program
 * linked with fuzzgate outside any case (the forwarding path). The clock reads and the
 * xorshift step are inside every figure alike, so they cancel in a difference. Batch
 * times go into a histogram whose median, not the mean, is printed: a batch the scheduler
 * interrupted (the machine may be shared) lands in the tail and moves nothing.
 *
 * The pairs must reach the allocator: the pointer goes through a volatile object, the
 * block is written, and bench/run.sh compiles with -fno-builtin-malloc -fno-builtin-free,
 * so the compiler may not fold a malloc/free pair away.
 */
#ifndef BENCH_PAIRS_H
#define BENCH_PAIRS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BENCH_PAIRS_K 64             /* pairs a batch (a fuzzgate case does one batch) */
#define BENCH_PAIRS_SEED 0x9e3779b9u /* xorshift state at the start of every program */
#define BENCH_PAIRS_HIST 16384       /* 1-ns buckets of batch time; the last holds the rest */

static void *volatile bench_pairs_sink;
static uint32_t bench_pairs_hist[BENCH_PAIRS_HIST];

static inline uint64_t bench_pairs_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        abort();
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Does one batch; returns the nanoseconds it took. Aborts when malloc fails: a figure
 * with a failed allocation in it would measure something else. */
static inline uint64_t bench_pairs_batch(uint32_t *state)
{
    uint64_t t0 = bench_pairs_now();
    for (unsigned i = 0; i < BENCH_PAIRS_K; i++) {
        uint32_t x = *state;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        *state = x;
        char *p = malloc(16 + (x & 0xff));
        if (!p)
            abort();
        p[0] = (char)i;
        bench_pairs_sink = p;
        free(bench_pairs_sink);
    }
    uint64_t ns = bench_pairs_now() - t0;
    bench_pairs_hist[ns < BENCH_PAIRS_HIST - 1 ? ns : BENCH_PAIRS_HIST - 1]++;
    return ns;
}

/* The median of the batch times recorded so far (the bucket where half of the `batches`
 * are done). */
static inline unsigned bench_pairs_median(uint64_t batches)
{
    uint64_t seen = 0;
    unsigned median = 0;
    while (median < BENCH_PAIRS_HIST - 1 && (seen += bench_pairs_hist[median]) * 2 < batches)
        median++;
    return median;
}

/* The one line bench/run.sh reads from every pair program: pairs, their total time, and
 * the median batch's time. */
static inline void bench_pairs_print(FILE *f, uint64_t batches, uint64_t ns)
{
    fprintf(f, "bench-pairs: %llu pairs in %llu ns, median batch %u ns\n",
            (unsigned long long)(batches * BENCH_PAIRS_K), (unsigned long long)ns,
            bench_pairs_median(batches));
}

#endif
