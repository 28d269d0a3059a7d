/* bench/src/indir.c — a no-op __sanitizer_cov_trace_pc_indir for the fuzzgate builds.
 *
 * clang's -fsanitize=fuzzer-no-link instruments every indirect call with a call to
 * __sanitizer_cov_trace_pc_indir(callee); libFuzzer's runtime defines it (it turns
 * caller/callee pairs into features), fuzzgate's libfuzzgate.a does not, so code built
 * that way (binutils calls through function pointers everywhere) does not link with it.
 * The drvc and native builds link this: the callee is ignored, as it would be by an
 * engine without the feature. Only the fuzzgate binaries get it; lf uses libFuzzer's.
 */
#include <stdint.h>

void __sanitizer_cov_trace_pc_indir(uintptr_t callee);

void __sanitizer_cov_trace_pc_indir(uintptr_t callee)
{
    (void)callee;
}
