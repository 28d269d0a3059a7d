/* bench/real/native.c — a libFuzzer harness as a plain fuzzgate target named `real`.
 *
 * What a user writes to fuzz an existing LLVMFuzzerTestOneInput with fuzzgate's own main
 * (in one process with --no-fork, supervised by default) instead of the libFuzzer driver.
 * The allowance is the driver's default (-rss_limit_mb's 2048 MiB), so the two ways run
 * under the same amplification bound; the signature is 0: coverage guides, as it does
 * libFuzzer.
 */
#include "fuzzgate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t real_run(const uint8_t *data, size_t size)
{
    if (LLVMFuzzerTestOneInput(data, size) == -1)
        fg_reject();
    return 0;
}

static size_t real_allowance(size_t size)
{
    (void)size;
    return (size_t)2048 << 20;
}

FG_TARGET(real, .flags = FG_NO_CORPUS,
          .run = real_run, .allowance = real_allowance, .max_len = 4096,
          .what = "a bench/real harness over a system library")
