/* test/planted/lf_planted.c — a libFuzzer harness with one planted bug per first byte, for the
 * libFuzzer driver's tests (built into build/test-lf with libfuzzgate_libfuzzer.a, and with
 * fuzzgate-libfuzzer.pc's coverage flags into build/test-lf-cov).
 * The tests hand the triggering input in as a corpus file, so no search is needed; the
 * first four bytes, compared as one integer (which an uninstrumented build cannot see),
 * keep a short run from stumbling on a bug by mutation:
 *   CRSH  abort()                    -> crash-<sha1>, the process dies of SIGABRT
 *   LEAK  leaks 24 bytes every run   -> leak-<sha1>
 *   ALOC  mallocs 3 MiB              -> oom-<sha1> under -malloc_limit_mb=1
 *   HANG  spins forever              -> timeout-<sha1> (test/e2e/test_limits.c)
 *   MEGA  leaks 1 MiB every run, resident -> oom-<sha1> under -rss_limit_mb=256
 *   REJT  returns -1                 (never kept)
 *   PATH  a branch of its own for each 5th byte a..h, and one for any other: built with
 *         coverage (build/test-lf-cov) the merge tests know what a merge must keep;
 *         writes "lf_planted: path" to stderr, which -close_fd_mask=2 must silence
 * build/test-lf-cov is the clean twin (LF_PLANTED_CLEAN: no CRSH, LEAK, ALOC, HANG): with
 * comparison tracing a fuzzing run would find those words at once.
 * LLVMFuzzerInitialize says on stderr that it ran and how many arguments it saw.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#ifndef LF_PLANTED_CLEAN
static void *volatile kept;
#endif
static volatile unsigned sink; /* unsigned: HANG spins past 2^31 (UBSan) */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argv;
    fprintf(stderr, "lf_planted: initialized with %d arguments\n", *argc);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    uint32_t word = (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 | data[2] << 8 | data[3];
    switch (word) {
#ifndef LF_PLANTED_CLEAN
    case 0x43525348: /* CRSH */
        abort();
    case 0x4c45414b: /* LEAK */
        kept = malloc(24);
        memset(kept, 1, 24);
        kept = NULL; /* lost */
        return 0;
    case 0x4d454741: { /* MEGA */
        char *p = malloc((size_t)1 << 20);
        if (p)
            memset(p, 1, (size_t)1 << 20);
        kept = p; /* escapes, so the bytes stay written; the last one only */
        return 0;
    }
    case 0x414c4f43: { /* ALOC */
        char *volatile p = malloc((size_t)3 << 20);
        free(p);
        return 0;
    }
    case 0x48414e47: /* HANG */
        for (;;)
            sink++;
#endif
    case 0x52454a54: /* REJT */
        return -1;
    case 0x50415448: /* PATH */
        fprintf(stderr, "lf_planted: path\n");
        switch (size > 4 ? data[4] : 0) {
        case 'a': sink = 1; break;
        case 'b': sink = 2; break;
        case 'c': sink = 3; break;
        case 'd': sink = 4; break;
        case 'e': sink = 5; break;
        case 'f': sink = 6; break;
        case 'g': sink = 7; break;
        case 'h': sink = 8; break;
        default: sink = 0; break;
        }
        return 0;
    default:
        return 0;
    }
}
