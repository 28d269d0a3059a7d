/* bench/real/count.c — LLVMFuzzerTestOneInput around a harness, counting calls, bytes and
 * the time spent inside the harness.
 *
 * The one source every engine runs, so "mean executed input length" and "time a case
 * spends in the library" are measured the same way for libFuzzer and fuzzgate. The
 * counters live in a shared anonymous page mapped before main: a supervised fuzzgate run
 * forks executors that end with _exit, and their calls still land where the parent's
 * destructor reads them. One executor at a time (jobs 1), so plain increments suffice. At
 * exit the parent prints one line to stderr:
 *     bench-real-count: calls N bytes M inside_ns T
 * (calls include any re-runs an engine makes of an input, e.g. fuzzgate's retention
 * re-runs). T is the time between entering and leaving the harness, summed: the library's
 * work and whatever it calls back into (a heap oracle's malloc, trace callbacks); the rest
 * of a run's time is the engine's own loop. On x86-64 the two reads a call are the time
 * stamp counter (a few nanoseconds), converted to nanoseconds by the wall clock's advance
 * over the whole run; elsewhere they are CLOCK_MONOTONIC reads. The same reads are in
 * every engine's calls, so their cost falls on both sides alike. A call that does not
 * return (a fuzzgate case ended by an oracle or a check jumps out of it; libFuzzer's
 * crash ends the process) adds nothing, so with findings the inside is undercounted.
 *
 * With BENCH_COUNT_FILE set, every 1024th call also writes the count so far and the time
 * inside the harness so far, in nanoseconds, into that file (two 20-digit fields and a
 * newline, in place): a bench reads them while the run goes on, for the rate over time and
 * the library's share of it (bench/src/run.sh). One pwrite and two clock reads in 1024
 * calls are far below the noise.
 *
 * Built without coverage instrumentation, in every bench: it is the measuring apparatus,
 * not code under test. Instrumented (as it was until session 27), its every-1024th-call
 * branch was an edge and comparisons that every engine saw as the code's own, so setting
 * BENCH_COUNT_FILE changed what a seeded run kept (a driver run of 1 M demangler cases
 * from the seeds: 2,552 corpus files without it, 2,688 with it).
 */
#include "harness.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct counts {
    unsigned long long calls, bytes, ticks;
} *counts, fallback;

static pid_t owner;
static int count_fd = -1; /* BENCH_COUNT_FILE, or -1 */
static unsigned long long tick0, ns0; /* the run's first reading, both clocks */

static unsigned long long wall_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

static inline unsigned long long ticks(void)
{
#if defined(__x86_64__)
    return __rdtsc();
#else
    return wall_ns();
#endif
}

__attribute__((constructor)) static void counts_map(void)
{
    void *m = mmap(NULL, sizeof *counts, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);
    counts = m == MAP_FAILED ? &fallback : m;
    owner = getpid();
    const char *f = getenv("BENCH_COUNT_FILE");
    if (f && *f)
        count_fd = open(f, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ns0 = wall_ns();
    tick0 = ticks();
}

/* The time inside the harness so far, in nanoseconds: its ticks at the rate the wall
 * clock has advanced against them since the start. */
static double inside_ns(void)
{
    unsigned long long dt = ticks() - tick0, dns = wall_ns() - ns0;
    double ns_per_tick = dt ? (double)dns / (double)dt : 1.0;
    return (double)counts->ticks * ns_per_tick;
}

__attribute__((destructor)) static void counts_print(void)
{
    if (getpid() != owner)
        return;
    fprintf(stderr, "bench-real-count: calls %llu bytes %llu inside_ns %.0f\n", counts->calls,
            counts->bytes, inside_ns());
}

/* The count so far into BENCH_COUNT_FILE (see the top): the calls and the nanoseconds
 * spent inside the harness. */
static void write_count(unsigned long long calls)
{
    char b[48];
    int n = snprintf(b, sizeof b, "%020llu %020.0f\n", calls, inside_ns());
    if (n > 0 && pwrite(count_fd, b, (size_t)n, 0) < 0)
        count_fd = -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if ((++counts->calls & 1023) == 0 && count_fd >= 0)
        write_count(counts->calls);
    counts->bytes += size;
    unsigned long long t = ticks();
    int r = bench_real_one(data, size);
    counts->ticks += ticks() - t;
    return r;
}
