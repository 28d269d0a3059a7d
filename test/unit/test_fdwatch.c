/* test/unit/test_fdwatch.c — the descriptor oracle's probe (oracle/fdwatch.c): it says what
 * the lowest free descriptor says, whatever the target opened or closed, O_PATH handles
 * included (poll(2) reads those as closed, which is why the probe does not use it). */
#include "test/support/check.h"

#include "engine/base/rng.h"
#include "oracle/fdwatch.h"

#include <fcntl.h>
#include <unistd.h>

/* The truth the probe stands for: what open() would return next. */
static int lowest_free_now(void)
{
    int fd = fcntl(0, F_DUPFD, 0);
    if (fd < 0)
        fd = fcntl(2, F_DUPFD, 0);
    CHECK(fd >= 0);
    close(fd);
    return fd;
}

/* Opens or closes descriptors in [lo, lo + span) at random for many steps, setting the
 * watch's base to the truth or near it, and compares the probe with the truth each time. */
static void probe_agrees(int lo, int span, int steps)
{
    fgi_fdwatch w;
    CHECK(fgi_fdwatch_open(&w) == FG_OK);
    int open_here[160] = {0};
    CHECK(span <= 160);
    fgi_rng r;
    fgi_rng_case(&r, 11, (uint64_t)lo, (uint64_t)span);
    for (int step = 0; step < steps; step++) {
        int fd = lo + (int)fgi_rng_below(&r, (uint64_t)span);
        if (fd != w.ours && fd > 2) {
            if (open_here[fd - lo]) {
                close(fd);
                open_here[fd - lo] = 0;
            } else if (fcntl(fd, F_GETFD) == -1) { /* free: take it */
                CHECK(dup2(w.ours, fd) == fd);
                open_here[fd - lo] = 1;
            }
        }
        int truth = lowest_free_now();
        /* a base from the last probe: at the truth, above it (a hole opened below) or
         * below it (it rose) */
        w.base = truth + (int)fgi_rng_below(&r, 7) - 3;
        if (w.base < 0)
            w.base = 0;
        int want = truth <= w.base ? truth : w.base + 1;
        int got = fgi_fdwatch_probe(&w);
        if (got != want)
            fprintf(stderr, "step %d: base %d, lowest free %d: probe %d, want %d\n", step,
                    w.base, truth, got, want);
        CHECK_EQ_U(got, want);
    }
    for (int i = 0; i < span; i++)
        if (open_here[i])
            close(lo + i);
    fgi_fdwatch_close(&w);
}

FG_TEST(fdwatch_probe_is_the_lowest_free_descriptor)
{
    probe_agrees(3, 24, 2000); /* the common case: a few descriptors, one poll */
}

FG_TEST(fdwatch_probe_over_a_wide_table)
{
    /* descriptors 3..149 taken and given back at random: bases well past 64 */
    probe_agrees(3, 150, 3000);
}

FG_TEST(fdwatch_probe_sees_a_rise_when_the_table_fills_the_base)
{
    fgi_fdwatch w;
    CHECK(fgi_fdwatch_open(&w) == FG_OK);
    int base = w.base, a = dup(w.ours), b = dup(w.ours); /* a case leaves two open */
    CHECK_EQ_U(a, base);
    CHECK_EQ_U(fgi_fdwatch_probe(&w), base + 1);
    close(a); /* the first is closed again: a hole at base */
    CHECK_EQ_U(fgi_fdwatch_probe(&w), base);
    close(b);
    fgi_fdwatch_close(&w);
}

FG_TEST(fdwatch_probe_sees_o_path_descriptors)
{
    fgi_fdwatch w;
    CHECK(fgi_fdwatch_open(&w) == FG_OK);
    int base = w.base;
    /* the host keeps an O_PATH handle below the window's base: not a hole */
    int held = open(".", O_PATH | O_CLOEXEC);
    CHECK_EQ_U(held, base);
    w.base = base + 1;
    CHECK_EQ_U(fgi_fdwatch_probe(&w), base + 1);
    /* a case leaks an O_PATH handle at base: a rise */
    int leaked = open(".", O_PATH | O_CLOEXEC);
    CHECK_EQ_U(leaked, base + 1);
    CHECK_EQ_U(fgi_fdwatch_probe(&w), base + 2);
    /* and after it, an ordinary leak is still seen */
    w.base = base + 2;
    int next = dup(w.ours);
    CHECK_EQ_U(fgi_fdwatch_probe(&w), base + 3);
    close(next);
    close(leaked);
    close(held);
    fgi_fdwatch_close(&w);
}
