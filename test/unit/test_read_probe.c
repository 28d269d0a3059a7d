/* test/unit/test_read_probe.c — an input's read record from a forked run of its target
 * (engine/findings/read_probe.c): the reads of a passing run, and those a crash or a hang
 * made before it ended its process. */
#include "test/support/check.h"

#include "engine/findings/read_probe.h"

#include <signal.h>
#include <stdlib.h>

/* Reads a pick and a u32; then, by the pick: 0 returns, 1 aborts, 2 spins forever. */
static uint64_t probe_body(const uint8_t *data, size_t size)
{
    fg_reader r = fg_reader_of(data, size);
    size_t how = fg_read_pick(&r, 3);
    (void)fg_read_u32(&r);
    if (how == 1)
        abort();
    if (how == 2)
        for (volatile int spin = 1; spin;)
            ;
    (void)fg_read_bool(&r);
    return 1;
}

static const fg_target probe_target = {.name = "test_read_probe", .run = probe_body};

static size_t probe(uint8_t how, unsigned *kind0, unsigned *width1)
{
    const uint8_t d[] = {how, 1, 2, 3, 4, 1};
    fgi_read *reads = NULL;
    size_t n = 99;
    CHECK(fgi_read_probe(&probe_target, d, sizeof d, 300, &reads, &n) == FG_OK);
    *kind0 = n ? reads[0].kind : 0;
    *width1 = n > 1 ? reads[1].width : 0;
    fgi_free(reads);
    return n;
}

FG_TEST(read_probe_passing_crashing_and_hanging_runs)
{
    unsigned kind, width;
    CHECK_EQ_U(probe(0, &kind, &width), 3); /* pick, u32, bool */
    CHECK(kind == FGI_READ_PICK && width == 4);
    CHECK_EQ_U(probe(1, &kind, &width), 2); /* the abort ended the child after two */
    CHECK(kind == FGI_READ_PICK && width == 4);
    CHECK_EQ_U(probe(2, &kind, &width), 2); /* killed past 300 ms and a second */
    CHECK(kind == FGI_READ_PICK && width == 4);
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
    CHECK(fgi_read_probe(&silent, d, sizeof d, 300, &reads, &n) == FG_OK);
    CHECK(n == 0 && reads == NULL);
}
