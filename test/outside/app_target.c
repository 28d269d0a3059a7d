/* test/outside/app_target.c — a user's target, built outside the tree against the
 * installed header and library (test/install.sh): one planted check, one planted crash. */
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
FG_TARGET(app_parse, .run = parse_run, .what = "a length-prefixed record", .max_len = 64)

static uint64_t crash_run(const uint8_t *data, size_t size)
{
    if (memchr(data, 0xEE, size))
        *app_null = 0;
    return fg_sig(size ? data[0] : 256, 0);
}
FG_TARGET(app_crash, .run = crash_run, .what = "a planted segfault", .max_len = 64)
