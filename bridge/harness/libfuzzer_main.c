/* bridge/harness/libfuzzer_main.c — main() for a libFuzzer harness linked with fuzzgate, and
 * LLVMFuzzerMutate. The only object that names the harness's symbols, so it is built
 * into libfuzzgate_libfuzzer.a, apart from libfuzzgate.a: a binary without
 * LLVMFuzzerTestOneInput never pulls it in.
 *
 *     cc harness.c $(pkg-config --cflags --libs fuzzgate-libfuzzer) -o harness
 */
#include "bridge/harness/libfuzzer.h"

/* The harness's side of libFuzzer's C interface; all but the first are optional. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);
__attribute__((weak)) size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                                     size_t max_size, unsigned int seed);
__attribute__((weak)) size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1,
                                                       const uint8_t *d2, size_t s2,
                                                       uint8_t *out, size_t max_out,
                                                       unsigned int seed);
/* The engine's side: what a custom mutator calls for libFuzzer's own mutation. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
    return fgi_libfuzzer_mutate(data, size, max_size);
}

int main(int argc, char **argv)
{
    fgi_lf_hooks h = {
        .test_one = LLVMFuzzerTestOneInput,
        .init = LLVMFuzzerInitialize,
        .mutator = LLVMFuzzerCustomMutator,
        .cross_over = LLVMFuzzerCustomCrossOver,
    };
    return fgi_libfuzzer_main(argc, argv, &h);
}
