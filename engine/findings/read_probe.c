/* engine/findings/read_probe.c — an input's read record from one run of its target in a
 * forked child, through shared memory (read_probe.h). */
#include "engine/findings/read_probe.h"

#include "engine/base/clock.h"
#include "engine/base/resident.h"
#include "oracle/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What the child leaves for the parent: written by the child only, read after it ended. */
typedef struct shared {
    volatile size_t n;
    fgi_read reads[FGI_READS_MAX];
} shared;

/* The child: the input run once under the harness, every read mirrored; never returns. */
static FG_NORETURN void child(const fg_target *t, const uint8_t *data, size_t size,
                              shared *sh)
{
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
    }
    static fgi_harness e; /* the child's own */
    static fgi_case_result res;
    fgi_reads_mirror(sh->reads, &sh->n);
    if (fgi_harness_open(&e, t) == FG_OK && fgi_harness_reserve(&e, size) == FG_OK)
        fgi_harness_run(&e, data, size, &res);
    _exit(0);
}

fg_error fgi_read_probe(const fg_target *t, const uint8_t *data, size_t size,
                        unsigned time_ms, uint64_t rss_limit, fgi_read **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                      -1, 0);
    if (sh == MAP_FAILED)
        return FG_ENOMEM;
    sh->n = 0;
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        munmap(sh, sizeof *sh);
        return FG_EIO;
    }
    if (pid == 0)
        child(t, data, size, sh);
    /* Past its deadline and a second more, a hang is killed: its reads so far stand. So is
     * one past the memory limit, looked at every RSS_EVERY polls (a /proc read each). */
    enum { RSS_EVERY = 16 };
    double until = fgi_clock_now_s() + (time_ms ? time_ms : 10000) / 1000.0 + 1.0;
    int status;
    for (unsigned polls = 1;; polls++) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        int too_big = rss_limit && polls % RSS_EVERY == 0 &&
                      fgi_resident_bytes(pid) > rss_limit;
        if ((w < 0 && errno != EINTR) || too_big || fgi_clock_now_s() > until) {
            /* over time or memory, or not ours to wait for (a host ignoring SIGCHLD):
             * the child must not go on writing the record while it is read */
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            break;
        }
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    fg_error e = FG_OK;
    size_t k = sh->n < FGI_READS_MAX ? sh->n : FGI_READS_MAX;
    if (k && fgi_reads_valid(sh->reads, k, size)) {
        *out = fgi_memdup(sh->reads, k * sizeof *sh->reads);
        if (*out)
            *n = k;
        else
            e = FG_ENOMEM;
    }
    munmap(sh, sizeof *sh);
    return e;
}
