/* bench/real/harness.h — what each bench/real harness file defines for count.c.
 *
 * A harness file (zlib.c, brotli.c, ...) defines bench_real_one(), the body of a libFuzzer
 * harness over one system library; count.c defines LLVMFuzzerTestOneInput around it, so
 * the same two files are built under libFuzzer, under fuzzgate's libFuzzer driver and
 * (with native.c) as a fuzzgate target.
 */
#ifndef BENCH_REAL_HARNESS_H
#define BENCH_REAL_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* One case: 0, or -1 to say the input must not be kept (libFuzzer's convention). */
int bench_real_one(const uint8_t *data, size_t size);

#endif
