/* bridge/harness/lf_banner.c — the libFuzzer driver's start-up banner: what guides the search.
 *
 * libFuzzer opens with "Loaded N modules (M inline 8-bit counters)"; a harness compiled
 * without coverage (easy when a Makefile compiles and links in separate steps) would
 * otherwise fuzz blind without a word. Modules built with clang's inline-8bit-counters or
 * trace-pc-guard register at load, but trace-pc (gcc, and clang with the module's flags)
 * names a module only when its code runs, and trace-cmp only fires on a comparison. So,
 * as libFuzzer runs the empty input before anything else, the banner runs it once in a
 * forked child (its crash or hang is the run's to find, under the oracles) and reports
 * what fired.
 */
#include "bridge/harness/libfuzzer.h"

#include "engine/feedback/cmp.h"
#include "engine/feedback/coverage.h"
#include "oracle/heap.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROBE_WAIT_MS 2000 /* arbitrary: the empty input of a sane harness takes microseconds */

/* What the empty input showed, written by the child through a pipe. */
typedef struct probe {
    fgi_cov_info cov;
    size_t edges_hit; /* edges the empty input ran */
    int cmp_traced;
} probe;

static FG_NORETURN void probe_child(const fgi_lf_hooks *h, int w)
{
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) { /* the harness's own chatter belongs to the run, not to the banner */
        dup2(null, 1);
        dup2(null, 2);
        close(null);
    }
    static const uint8_t none[1];
    probe p = {0};
    fgi_cov_reset();
    h->test_one(none, 0);
    p.edges_hit = fgi_cov_features(NULL, NULL, 0); /* the count alone */
    fgi_cov_describe(&p.cov);
    p.cmp_traced = fgi_cmp_traced();
    ssize_t n = write(w, &p, sizeof p);
    _exit(n == (ssize_t)sizeof p ? 0 : 1);
}

/* Runs the empty input in a child; 0 with *p filled, -1 when it did not return. */
static int run_probe(const fgi_lf_hooks *h, probe *p)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        probe_child(h, fds[1]);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return -1;
    }
    int status = 0, waited = 0;
    struct timespec ms = {0, 1000000};
    pid_t got;
    while ((got = waitpid(pid, &status, WNOHANG)) == 0 && waited < PROBE_WAIT_MS) {
        nanosleep(&ms, NULL);
        waited++;
    }
    if (got == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    ssize_t n = got == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0
                    ? read(fds[0], p, sizeof *p)
                    : -1;
    close(fds[0]);
    return n == (ssize_t)sizeof *p ? 0 : -1;
}

void fgi_lf_banner(FILE *log, const fgi_lf_hooks *h, const fgi_lf_facts *f)
{
    fprintf(log, "INFO: Seed: %llu (fuzzgate's libFuzzer driver)\n",
            (unsigned long long)f->seed);
    probe p = {0};
    if (run_probe(h, &p) != 0) {
        fgi_cov_describe(&p.cov);
        fprintf(log, "INFO: coverage: %u module%s registered at load (%zu edges); the empty "
                     "input did not return, so trace-pc modules are not counted\n",
                p.cov.modules, p.cov.modules == 1 ? "" : "s", p.cov.edges);
    } else if (p.cov.modules) {
        fprintf(log, "INFO: Loaded %u module%s (%zu edges: inline 8-bit counters or "
                     "trace-pc-guard)%s\n",
                p.cov.modules, p.cov.modules == 1 ? "" : "s", p.cov.edges,
                p.cov.pc_modules ? ", and trace-pc callbacks" : "");
    } else if (p.cov.pc_modules) {
        fprintf(log, "INFO: coverage: trace-pc callbacks from %u module%s (edges are found as "
                     "they run: %zu on the empty input)\n",
                p.cov.pc_modules, p.cov.pc_modules == 1 ? "" : "s", p.edges_hit);
    } else {
        fprintf(log, "WARNING: no compiler coverage in this harness: the search is blind "
                     "(new inputs are never kept). Compile the harness and the code under "
                     "test with $(pkg-config --cflags fuzzgate-libfuzzer) "
                     "(-fsanitize-coverage=trace-pc,trace-cmp)\n");
    }
    fprintf(log, "INFO: comparison tracing: %s; memcmp, strcmp and kin: interposed\n",
            p.cmp_traced ? "on (trace-cmp)"
                         : "not seen on the empty input (-fsanitize-coverage=trace-cmp)");
    const char *blind = fgi_heap_warning();
    if (blind)
        fprintf(log, "WARNING: %s\n", blind);
    if (f->dict_entries)
        fprintf(log, "INFO: Dictionary: %zu entries\n", f->dict_entries);
    if (f->fuzzing)
        fprintf(log, "INFO: %zu input%s read; -max_len is %zu\n", f->inputs,
                f->inputs == 1 ? "" : "s", f->max_len);
    if (f->keep_dir)
        fprintf(log, "INFO: new inputs are written to %s\n", f->keep_dir);
}
