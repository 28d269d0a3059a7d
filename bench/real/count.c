/* bench/real/count.c — LLVMFuzzerTestOneInput around a harness, counting calls and bytes.
 *
 * The one source every engine runs, so "mean executed input length" is measured the same
 * way for libFuzzer and fuzzgate. The counters live in a shared anonymous page mapped
 * before main: a supervised fuzzgate run forks executors that end with _exit, and their
 * calls still land where the parent's destructor reads them. One executor at a time
 * (jobs 1), so plain increments suffice. At exit the parent prints one line to stderr:
 *     bench-real-count: calls N bytes M
 * (calls include any re-runs an engine makes of an input, e.g. fuzzgate's retention
 * re-runs.)
 */
#include "harness.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct counts {
    unsigned long long calls, bytes;
} *counts, fallback;

static pid_t owner;

__attribute__((constructor)) static void counts_map(void)
{
    void *m = mmap(NULL, sizeof *counts, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);
    counts = m == MAP_FAILED ? &fallback : m;
    owner = getpid();
}

__attribute__((destructor)) static void counts_print(void)
{
    if (getpid() == owner)
        fprintf(stderr, "bench-real-count: calls %llu bytes %llu\n", counts->calls,
                counts->bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    counts->calls++;
    counts->bytes += size;
    return bench_real_one(data, size);
}
