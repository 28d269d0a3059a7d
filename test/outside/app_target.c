/* test/outside/app_target.c — a user's target, built outside the tree against the
 * installed header and library (test/scripts/install.sh): one planted check, one planted crash. */
#include <fuzzgate.h>
#include <string.h>

int *volatile app_null;

static uint64_t parse_run(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[0] == 'K') {
        size_t declared = data[1];
        FG_CHECK(declared <= size - 2, "record declares %zu bytes, %zu present", declared,
                 size - 2);
    }
    return fg_sig(size ? data[0] : 256, size < 8 ? size : 8);
}
FG_TARGET(app_parse, .flags = FG_NO_CORPUS,
          .run = parse_run, .what = "a length-prefixed record", .max_len = 64)

static uint64_t crash_run(const uint8_t *data, size_t size)
{
    if (memchr(data, 0xEE, size))
        *app_null = 0;
    return fg_sig(size ? data[0] : 256, 0);
}
FG_TARGET(app_crash, .flags = FG_NO_CORPUS,
          .run = crash_run, .what = "a planted segfault", .max_len = 64)

#include <stdlib.h>

/* The heap oracles with no calls of the target's own: a declared-length allocation and a
 * leak on one path, in a binary built only against the installed library. */
static uint64_t heap_run(const uint8_t *data, size_t size)
{
    if (size >= 5 && data[0] == 'A') {
        size_t declared = (size_t)data[1] << 24 | (size_t)data[2] << 16 | data[3] << 8 | data[4];
        char *volatile p = malloc(declared); /* amplification: trusts the header */
        free(p);
    }
    char *volatile q = malloc(16);
    if (!(size >= 1 && data[0] == 'L')) /* retention: the 'L' path forgets to free */
        free(q);
    return fg_sig(size ? data[0] : 256, size < 8 ? size : 8);
}
FG_TARGET(app_heap, .flags = FG_NO_CORPUS,
          .run = heap_run, .what = "heap oracles outside the tree", .max_len = 64)
