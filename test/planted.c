/* test/planted.c — targets with one planted bug each, and a clean twin, for the engine's
 * own tests (built into build/test-planted; never part of the built-in gate).
 *
 * Every bug fires on an input holding the byte 0xAB: rare enough that the corpus must be
 * mutated to find it, common enough that the default case count always does. Signatures
 * fold the first byte and a length bucket, so there is something to guide on.
 */
#include "fuzzgate.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define TRIGGER 0xAB

static int triggered(const uint8_t *d, size_t n)
{
    return memchr(d, TRIGGER, n) != NULL;
}

static uint64_t shape(const uint8_t *d, size_t n)
{
    return fg_sig(n ? d[0] >> 4 : 16, n < 4 ? n : n < 16 ? 4 : 5);
}

static uint64_t clean_run(const uint8_t *d, size_t n)
{
    FG_CHECK(n <= 4096, "input of %zu bytes is above max_len", n);
    return shape(d, n);
}
FG_TARGET(planted_clean, .run = clean_run, .what = "the clean twin: no bug at all")

static uint64_t check_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        FG_CHECK(n == 0, "planted: a %zu-byte input holds 0xAB", n);
    return shape(d, n);
}
FG_TARGET(planted_check, .run = check_run, .what = "an FG_CHECK violation")

static uint64_t fail_run(const uint8_t *d, size_t n)
{
    if (n >= 2 && d[0] == TRIGGER)
        fg_fail("planted fg_fail with second byte %u", d[1]);
    return shape(d, n);
}
FG_TARGET(planted_fail, .run = fail_run, .what = "an fg_fail on a prefix")

/* Read through a volatile global so no compiler proves the store undefined and drops it. */
int *volatile planted_null_pointer;

static uint64_t segv_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        *planted_null_pointer = 1;
    return shape(d, n);
}
FG_TARGET(planted_segv, .run = segv_run, .what = "a null-pointer write")

static uint64_t abort_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        abort();
    return shape(d, n);
}
FG_TARGET(planted_abort, .run = abort_run, .what = "an abort()")

/* Unbounded recursion: each frame keeps a buffer the optimiser cannot drop. */
static unsigned recurse(volatile unsigned depth)
{
    volatile char frame[256];
    if (depth == 0xffffffffu) /* never: 4 G frames overflow any stack first */
        return 0;
    frame[depth % sizeof frame] = (char)depth;
    return recurse(depth + 1) + frame[0];
}

static uint64_t stack_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        return recurse(0);
    return shape(d, n);
}
FG_TARGET(planted_stack, .run = stack_run, .what = "a stack overflow")

static uint64_t write_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        ((uint8_t *)d)[n - 1] ^= 1; /* the bug: writing into the const input */
    return shape(d, n);
}
FG_TARGET(planted_write, .run = write_run, .what = "a write into the read-only input")

static uint64_t trap_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        raise(SIGFPE);
    return shape(d, n);
}
FG_TARGET(planted_fpe, .run = trap_run, .what = "a raised SIGFPE")
