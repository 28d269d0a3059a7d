/* bench/malloc_plain.c — the pair batches of bench/pairs.h in main, with no case around.
 *
 * bench/run.sh links this twice: alone, so malloc is glibc's (the baseline), and with
 * libfuzzgate.a, whose interposed malloc family then sees every call with no case armed
 * (the forwarding fast path). Usage: bench-malloc-plain BATCHES; prints the pair line.
 */
#include "pairs.h"

int main(int argc, char **argv)
{
    char *end;
    unsigned long long batches = argc == 2 ? strtoull(argv[1], &end, 10) : 0;
    if (argc != 2 || end == argv[1] || *end != '\0') {
        fprintf(stderr, "usage: %s BATCHES\n", argv[0]);
        return 2;
    }
    uint32_t state = BENCH_PAIRS_SEED;
    uint64_t ns = 0;
    for (unsigned long long i = 0; i < batches; i++)
        ns += bench_pairs_batch(&state);
    bench_pairs_print(stdout, batches, ns);
    return 0;
}
