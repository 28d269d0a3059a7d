/* bench/heap_ab.c — heap arm/disarm that alternate, every 16384 cases, real and no-op.
 *
 * bench/run.sh renames oracle/harness.o's references to fgi_heap_arm and fgi_heap_disarm
 * (objcopy --redefine-sym) to the two functions here, so one process of the same compiled engine
 * runs blocks of cases with the heap oracle armed and blocks with it never armed, turn
 * about. Blocks are short (milliseconds), so a machine whose speed drifts, shared or
 * throttled, slows both members of a pair alike: each armed block is compared with the
 * never-armed block after it, and the medians are printed when the process exits:
 *     bench-ab: P pairs of B cases, armed A ns, never armed N ns, cost C ns a case
 * A block is timed from one arm call to the one B cases later, so it holds the whole of
 * each case. Both modes pay the switch's own counter and branch; the no-op disarm writes
 * what the real one writes after a case that allocated nothing.
 */
#include "oracle/heap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define AB_BLOCK 16384u /* cases a block */
#define AB_PAIRS 4096   /* pairs kept; later ones are not timed */

void bench_ab_heap_arm(size_t allowance);
void bench_ab_heap_disarm(fgi_heap_report *r);

static struct {
    unsigned long cases; /* arm calls so far */
    int armed_mode;      /* this block arms the real oracle */
    uint64_t block_start;
    size_t npairs;
    int64_t armed[AB_PAIRS], never[AB_PAIRS], diff[AB_PAIRS]; /* ns a block */
} ab = {.armed_mode = 1};

static uint64_t ab_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        abort();
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Called every AB_BLOCK cases: ends the block that ran, starts the next in the other mode.
 * The first call only starts the clock (the block before it held the start-up). */
static void ab_switch(void)
{
    uint64_t t = ab_now();
    if (ab.block_start && ab.npairs < AB_PAIRS) {
        if (ab.armed_mode) {
            ab.armed[ab.npairs] = (int64_t)(t - ab.block_start);
        } else {
            ab.never[ab.npairs] = (int64_t)(t - ab.block_start);
            ab.diff[ab.npairs] = ab.armed[ab.npairs] - ab.never[ab.npairs];
            ab.npairs++;
        }
    }
    if (ab.block_start)
        ab.armed_mode = !ab.armed_mode;
    ab.block_start = t;
}

void bench_ab_heap_arm(size_t allowance)
{
    if (ab.cases++ % AB_BLOCK == 0)
        ab_switch();
    if (ab.armed_mode)
        fgi_heap_arm(allowance);
}

void bench_ab_heap_disarm(fgi_heap_report *r)
{
    if (ab.armed_mode) {
        fgi_heap_disarm(r);
        return;
    }
    r->nsites = 0;
    r->live_bytes = 0;
    r->live_blocks = 0;
    r->peak_bytes = 0;
    r->refused = 0;
    r->refused_size = 0;
}

static int by_value(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The median of n block times (or differences of them), in ns a case. */
static double ab_median(int64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    double m = n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
    return m / AB_BLOCK;
}

__attribute__((destructor)) static void ab_report(void)
{
    if (!ab.npairs) {
        fprintf(stderr, "bench-ab: no complete pair of blocks (%lu cases)\n", ab.cases);
        return;
    }
    size_t n = ab.npairs;
    double cost = ab_median(ab.diff, n);
    fprintf(stderr, "bench-ab: %zu pairs of %u cases, armed %.2f ns, never armed %.2f ns, "
            "cost %.2f ns a case\n", n, AB_BLOCK, ab_median(ab.armed, n),
            ab_median(ab.never, n), cost);
}
