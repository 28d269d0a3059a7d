/* bench/syscall.c — what one system call costs on this machine.
 *
 * The descriptor oracle's probe (oracle/fdwatch.c) is two system calls a window of cases,
 * a dup and its close; libFuzzer makes none a case. What a call costs is the kernel's and
 * any hypervisor's, not the engine's, and where calls are slow it is a visible part of an
 * empty case. bench/run.sh prints it beside the empty target's ratio, so that the ratio
 * can be read for the machine it was measured on.
 *
 * Times BATCHES batches of 1,000 fcntl(F_GETFD) calls on an open descriptor (the
 * cheapest call that enters the kernel and touches the descriptor table) and the same
 * number of dup + close pairs (the probe itself); prints the median batch of each / 1,000:
 *   bench-syscall: getfd NS ns, dup+close NS ns
 * Usage: bench-syscall BATCHES.
 */
#include "pairs.h" /* bench_pairs_now: the clock every bench/ program reads */

#include <fcntl.h>
#include <unistd.h>

#define CALLS 1000

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The median of n batch times, in ns a call. Sorted, not pairs.h's 1-ns histogram: a
 * batch here takes a millisecond or more. */
static double median_call(uint64_t *t, size_t n)
{
    qsort(t, n, sizeof *t, by_value);
    double m = n % 2 ? (double)t[n / 2] : ((double)t[n / 2 - 1] + (double)t[n / 2]) / 2;
    return m / CALLS;
}

int main(int argc, char **argv)
{
    char *end;
    unsigned long batches = argc == 2 ? strtoul(argv[1], &end, 10) : 0;
    if (argc != 2 || end == argv[1] || *end != '\0' || batches == 0 || batches > 100000) {
        fprintf(stderr, "usage: %s BATCHES (1..100000)\n", argv[0]);
        return 2;
    }
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    uint64_t *getfd = calloc(batches, sizeof *getfd), *dup = calloc(batches, sizeof *dup);
    if (fd < 0 || !getfd || !dup) {
        perror("bench-syscall");
        return 1;
    }
    for (unsigned long b = 0; b < batches; b++) {
        uint64_t t0 = bench_pairs_now();
        for (int i = 0; i < CALLS; i++)
            if (fcntl(fd, F_GETFD) < 0)
                return perror("bench-syscall: fcntl"), 1;
        uint64_t t1 = bench_pairs_now();
        for (int i = 0; i < CALLS; i++) {
            int d = fcntl(fd, F_DUPFD_CLOEXEC, 0);
            if (d < 0)
                return perror("bench-syscall: dup"), 1;
            close(d);
        }
        uint64_t t2 = bench_pairs_now();
        getfd[b] = t1 - t0;
        dup[b] = t2 - t1;
    }
    printf("bench-syscall: getfd %.1f ns, dup+close %.1f ns\n", median_call(getfd, batches),
           median_call(dup, batches));
    free(getfd);
    free(dup);
    close(fd);
    return 0;
}
