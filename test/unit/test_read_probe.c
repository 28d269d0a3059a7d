/* test/unit/test_read_probe.c — an input's read record from a forked run of its target
 * (engine/findings/read_probe.c): the reads of a passing run, and those a crash, a hang or
 * a child past the memory limit made before it ended its process. */
#include "test/support/check.h"

#include "engine/base/clock.h"
#include "engine/base/resident.h"
#include "engine/findings/read_probe.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define GROW_MAX ((size_t)1 << 30) /* how far pick 3 grows: past any limit the test sets */

/* Reads a pick and a u32; then, by the pick: 0 returns, 1 aborts, 2 spins forever, 3 maps
 * and touches memory a MiB at a time (past the heap oracle: mmap) up to GROW_MAX, then
 * spins. */
static uint64_t probe_body(const uint8_t *data, size_t size)
{
    fg_reader r = fg_reader_of(data, size);
    size_t how = fg_read_pick(&r, 4);
    (void)fg_read_u32(&r);
    if (how == 1)
        abort();
    for (size_t grown = 0; how == 3 && grown < GROW_MAX; grown += (size_t)1 << 20) {
        char *p = mmap(NULL, (size_t)1 << 20, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            break;
        memset(p, 1, (size_t)1 << 20);
    }
    if (how >= 2)
        for (volatile int spin = 1; spin;)
            ;
    (void)fg_read_bool(&r);
    return 1;
}

static const fg_target probe_target = {.name = "test_read_probe", .run = probe_body};

static size_t probe(uint8_t how, unsigned time_ms, uint64_t rss_limit, unsigned *kind0,
                    unsigned *width1)
{
    const uint8_t d[] = {how, 1, 2, 3, 4, 1};
    fgi_read *reads = NULL;
    size_t n = 99;
    CHECK(fgi_read_probe(&probe_target, d, sizeof d, time_ms, rss_limit, &reads, &n) == FG_OK);
    *kind0 = n ? reads[0].kind : 0;
    *width1 = n > 1 ? reads[1].width : 0;
    fgi_free(reads);
    return n;
}

FG_TEST(read_probe_passing_crashing_and_hanging_runs)
{
    unsigned kind, width;
    CHECK_EQ_U(probe(0, 300, 0, &kind, &width), 3); /* pick, u32, bool */
    CHECK(kind == FGI_READ_PICK && width == 4);
    CHECK_EQ_U(probe(1, 300, 0, &kind, &width), 2); /* the abort ended the child after two */
    CHECK(kind == FGI_READ_PICK && width == 4);
    CHECK_EQ_U(probe(2, 300, 0, &kind, &width), 2); /* killed past 300 ms and a second */
    CHECK(kind == FGI_READ_PICK && width == 4);
}

/* A child growing past the memory limit is killed then, not at its deadline (a minute
 * here: the test would take that long): its reads so far stand. The limit is this
 * process's own size (which the child starts with) and 64 MiB. */
FG_TEST(read_probe_kills_a_child_past_the_memory_limit)
{
    unsigned kind, width;
    double start = fgi_clock_now_s();
    CHECK_EQ_U(probe(3, 60000, fgi_resident_bytes(0) + ((uint64_t)64 << 20), &kind, &width), 2);
    CHECK(kind == FGI_READ_PICK && width == 4);
    CHECK(fgi_clock_now_s() - start < 30.0);
}

static uint64_t silent_body(const uint8_t *data, size_t size)
{
    return size ? data[0] : 0;
}

FG_TEST(read_probe_of_a_target_without_reads_is_empty)
{
    static const fg_target silent = {.name = "test_read_probe_silent", .run = silent_body};
    const uint8_t d[] = {9, 9};
    fgi_read *reads = (fgi_read *)d; /* anything but NULL: the probe sets it */
    size_t n = 7;
    CHECK(fgi_read_probe(&silent, d, sizeof d, 300, 0, &reads, &n) == FG_OK);
    CHECK(n == 0 && reads == NULL);
}
