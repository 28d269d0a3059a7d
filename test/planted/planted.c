/* test/planted/planted.c — targets with one planted bug each, and a clean twin, for the engine's
 * own tests (built into build/test-planted; never part of the built-in gate).
 *
 * Every bug fires on an input holding the byte 0xAB: rare enough that the corpus must be
 * mutated to find it, common enough that the default case count always does. Signatures
 * fold the first byte and a length bucket, so there is something to guide on.
 */
#include "fuzzgate.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIGGER 0xAB

static int triggered(const uint8_t *d, size_t n)
{
    return memchr(d, TRIGGER, n) != NULL;
}

static uint64_t shape(const uint8_t *d, size_t n)
{
    return fg_sig(n ? d[0] >> 4 : 16, n < 4 ? n : n < 16 ? 4 : 5);
}

static uint64_t clean_run(const uint8_t *d, size_t n)
{
    FG_CHECK(n <= 4096, "input of %zu bytes is above max_len", n);
    return shape(d, n);
}
FG_TARGET(planted_clean, .flags = FG_NO_CORPUS,
          .run = clean_run, .what = "the clean twin: no bug at all")

static uint64_t check_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        FG_CHECK(n == 0, "planted: a %zu-byte input holds 0xAB", n);
    return shape(d, n);
}
FG_TARGET(planted_check, .flags = FG_NO_CORPUS, .run = check_run, .what = "an FG_CHECK violation")

/* Fails on every input, the empty one first: no replayed input passes, so the search has
 * no entry to mutate (executor.c generate_one runs the empty input again until one does). */
static uint64_t fails_always_run(const uint8_t *d, size_t n)
{
    FG_CHECK(n == SIZE_MAX, "planted: fails on every input (%zu bytes)", n);
    return shape(d, n);
}
FG_TARGET(planted_fails_always, .flags = FG_NO_CORPUS, .run = fails_always_run,
          .what = "an FG_CHECK that fails on every input")

static uint64_t fail_run(const uint8_t *d, size_t n)
{
    if (n >= 2 && d[0] == TRIGGER)
        fg_fail("planted fg_fail with second byte %u", d[1]);
    return shape(d, n);
}
FG_TARGET(planted_fail, .flags = FG_NO_CORPUS, .run = fail_run, .what = "an fg_fail on a prefix")

/* Read through a volatile global so no compiler proves the store undefined and drops it. */
int *volatile planted_null_pointer;

static uint64_t segv_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        *planted_null_pointer = 1;
    return shape(d, n);
}
FG_TARGET(planted_segv, .flags = FG_NO_CORPUS, .run = segv_run, .what = "a null-pointer write")

static uint64_t abort_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        abort();
    return shape(d, n);
}
FG_TARGET(planted_abort, .flags = FG_NO_CORPUS, .run = abort_run, .what = "an abort()")

/* An abort in a named function, one call below the body: a crash report names both
 * frames by function and file:line (test-planted is built with -g). Not inlined, and the
 * body uses what it returns, so each keeps a frame of its own. */
__attribute__((noinline)) int planted_abort_here(const uint8_t *d, size_t n);
__attribute__((noinline)) int planted_abort_here(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        abort();
    return n > 2;
}

static uint64_t abort_named_run(const uint8_t *d, size_t n)
{
    return shape(d, n) ^ (uint64_t)planted_abort_here(d, n);
}
FG_TARGET(planted_abort_named, .flags = FG_NO_CORPUS, .run = abort_named_run,
          .what = "an abort() in a named function")

/* Unbounded recursion: each frame keeps a buffer the optimiser cannot drop. */
static unsigned recurse(volatile unsigned depth)
{
    volatile char frame[256];
    if (depth == 0xffffffffu) /* never: 4 G frames overflow any stack first */
        return 0;
    frame[depth % sizeof frame] = (char)depth;
    return recurse(depth + 1) + frame[0];
}

static uint64_t stack_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        return recurse(0);
    return shape(d, n);
}
FG_TARGET(planted_stack, .flags = FG_NO_CORPUS, .run = stack_run, .what = "a stack overflow")

static uint64_t write_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        ((uint8_t *)d)[n - 1] ^= 1; /* the bug: writing into the const input */
    return shape(d, n);
}
FG_TARGET(planted_write, .flags = FG_NO_CORPUS,
          .run = write_run, .what = "a write into the read-only input")

static uint64_t trap_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        raise(SIGFPE);
    return shape(d, n);
}
FG_TARGET(planted_fpe, .flags = FG_NO_CORPUS, .run = trap_run, .what = "a raised SIGFPE")

/* ---- heap, time and exit oracles ----------------------------------------------------- */

#include <pthread.h>
#include <time.h>

/* 'L' then a 32-bit big-endian declared length, allocated as declared: the classic
 * amplification. The buffer is never touched, so a 4 GiB request costs nothing. */
static size_t declared_length(const uint8_t *d, size_t n)
{
    if (n < 5 || d[0] != 'L')
        return 0;
    return (size_t)d[1] << 24 | (size_t)d[2] << 16 | (size_t)d[3] << 8 | d[4];
}

static uint64_t amplify_run(const uint8_t *d, size_t n)
{
    size_t len = declared_length(d, n);
    char *volatile buf = len ? malloc(len) : NULL;
    free(buf);
    return fg_sig(n ? d[0] : 256, len != 0);
}
FG_TARGET(planted_amplify, .flags = FG_NO_CORPUS,
          .run = amplify_run, .what = "allocates a declared length")

/* The clean twin: the same header, bounded by the bytes present. */
static uint64_t amplify_clean_run(const uint8_t *d, size_t n)
{
    size_t len = declared_length(d, n);
    char *volatile buf = len ? malloc(len < n ? len : n) : NULL;
    free(buf);
    return fg_sig(n ? d[0] : 256, len != 0);
}
FG_TARGET(planted_amplify_clean, .flags = FG_NO_CORPUS, .run = amplify_clean_run,
          .what = "a declared length bounded by the bytes present")

/* The same bug in a library that keeps a copy of its latest input (libxml2 keeps its last
 * error so): every case frees the copy the case before made and makes its own, before the
 * declared length. A case the refusal ends made a copy the global still points at: the
 * engine must not free it under the library, or the next case's free is a double free
 * (a crash found in an innocent input). */
static char *latest;

static uint64_t amplify_latest_run(const uint8_t *d, size_t n)
{
    free(latest);
    if ((latest = malloc(n + 1)) != NULL) {
        memcpy(latest, d, n);
        latest[n] = '\0';
    }
    size_t len = declared_length(d, n);
    char *volatile buf = len ? malloc(len) : NULL;
    free(buf);
    return fg_sig(n ? d[0] : 256, len != 0);
}
FG_TARGET(planted_amplify_latest, .flags = FG_NO_CORPUS, .run = amplify_latest_run,
          .what = "allocates a declared length, keeping a copy of its latest input")

/* Volatile so the compiler neither folds nor warns about the size it cannot know. */
static volatile size_t huge_size = SIZE_MAX;

static uint64_t huge_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n)) {
        void *volatile p = malloc(huge_size);
        free(p);
    }
    return shape(d, n);
}
FG_TARGET(planted_huge, .flags = FG_NO_CORPUS, .run = huge_run, .what = "malloc(SIZE_MAX)")

static uint64_t leak_run(const uint8_t *d, size_t n)
{
    char *volatile p = malloc(64 + n); /* volatile: the allocation must not be elided */
    if (p)
        memcpy(p, d, n);
    if (!triggered(d, n)) /* the bug: the 0xAB path forgets to free */
        free(p);
    return shape(d, n);
}
FG_TARGET(planted_leak, .flags = FG_NO_CORPUS, .run = leak_run, .what = "a leak on one input path")

/* Lazy initialisation on first use, as real libraries do: retained once, never again. */
static char *lazy_table;
static uint64_t lazy_run(const uint8_t *d, size_t n)
{
    if (!lazy_table) {
        lazy_table = malloc(4096);
        if (lazy_table)
            memset(lazy_table, 7, 4096);
    }
    return shape(d, n);
}
FG_TARGET(planted_lazy, .flags = FG_NO_CORPUS,
          .run = lazy_run, .what = "lazy global state: must not be a finding")

/* One small block (8 bytes) forgotten on the 0xAB path: growth of one block a run. */
static uint64_t leak_small_run(const uint8_t *d, size_t n)
{
    char *volatile p = malloc(8);
    if (p)
        memset(p, 1, 8);
    if (!triggered(d, n))
        free(p);
    return shape(d, n);
}
FG_TARGET(planted_leak_small, .flags = FG_NO_CORPUS,
          .run = leak_small_run, .what = "a leak of one 8-byte block")

/* Keeps a copy of the latest "error" and frees the previous one, as libxml2 keeps its
 * last error: every case leaves a block, its size set by the input, and the heap never
 * grows. Plus a cache filled once per first byte, as encoding handlers are. */
static char *latest_error;
static char *cache_by_byte[256];
static unsigned long keep_latest_calls;

/* Under FGT_COUNT_CALLS, how often the body ran (cases and the oracles' re-runs), for the
 * test that "keep the latest" costs no re-run per case (a --no-fork run: one process). */
__attribute__((destructor)) static void keep_latest_count(void)
{
    if (keep_latest_calls && getenv("FGT_COUNT_CALLS"))
        fprintf(stderr, "planted_keep_latest: %lu calls\n", keep_latest_calls);
}

static uint64_t keep_latest_run(const uint8_t *d, size_t n)
{
    keep_latest_calls++;
    char *msg = malloc(16 + n);
    if (msg) {
        memset(msg, 'e', 15 + n);
        msg[15 + n] = '\0';
    }
    free(latest_error);
    latest_error = msg;
    if (n && !cache_by_byte[d[0]])
        cache_by_byte[d[0]] = malloc(100);
    return shape(d, n);
}
FG_TARGET(planted_keep_latest, .flags = FG_NO_CORPUS, .run = keep_latest_run,
          .what = "keeps the latest error and caches per first byte: must not be a finding")

/* A buffer grown by doubling to four times the input, well within the allowance. */
static uint64_t doubling_run(const uint8_t *d, size_t n)
{
    size_t cap = 1, len = 0;
    uint8_t *buf = malloc(cap);
    for (size_t i = 0; buf && i < 4 * n; i++) {
        if (len == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b)
                break;
            buf = b;
        }
        buf[len++] = d[i % n];
    }
    free(buf);
    return shape(d, n);
}
FG_TARGET(planted_doubling, .flags = FG_NO_CORPUS,
          .run = doubling_run, .what = "realloc doubling within allowance")

static void *free_it(void *p)
{
    free(p);
    return NULL;
}

/* Memory allocated by the case and freed by a second thread before the case returns. */
static uint64_t thread_free_run(const uint8_t *d, size_t n)
{
    void *p = malloc(32 + n);
    pthread_t t;
    if (pthread_create(&t, NULL, free_it, p) == 0)
        pthread_join(t, NULL);
    else
        free(p);
    return shape(d, n);
}
FG_TARGET(planted_thread_free, .flags = FG_NO_CORPUS,
          .run = thread_free_run, .what = "freed on a second thread")

/* Frees memory that was allocated before the case: must not confuse the accounting. */
static char *before_case;
static uint64_t old_free_run(const uint8_t *d, size_t n)
{
    if (before_case) {
        free(before_case);
        before_case = NULL;
    } else {
        before_case = malloc(128); /* freed by the next case, so retained once only */
    }
    return shape(d, n);
}
FG_TARGET(planted_old_free, .flags = FG_NO_CORPUS,
          .run = old_free_run, .what = "frees memory of an earlier case")

/* Its loop makes a comparison that instrumented code traces (a value, not a branch, so no
 * compiler leaves it out), so the work budget ends it in an instrumented build with
 * either compiler (docs/oracles.md); a plain build's is the watchdog's. */
static volatile unsigned long hang_seen;
static uint64_t hang_run(const uint8_t *d, size_t n)
{
    volatile unsigned long spin = 0;
    while (triggered(d, n)) {
        spin++;
        hang_seen += spin % 256 == d[0];
    }
    return shape(d, n);
}
FG_TARGET(planted_hang, .flags = FG_NO_CORPUS,
          .run = hang_run, .what = "an infinite loop", .time_ms = 100)

/* Spins forever behind a 2-byte prefix, with the default deadline. The comparison hooks
 * hand the prefix to the mutator, so the search finds it and then re-finds it often: a run
 * must pay the full deadline once, not once per re-hit (docs/oracles.md, "Re-hits"). */
static uint64_t hang_prefix_run(const uint8_t *d, size_t n)
{
    volatile unsigned long spin = 0;
    while (n >= 2 && memcmp(d, "HG", 2) == 0)
        spin++;
    return shape(d, n);
}
FG_TARGET(planted_hang_prefix, .flags = FG_NO_CORPUS, .run = hang_prefix_run,
          .what = "an infinite loop behind a 2-byte prefix, default deadline")

static uint64_t slow_run(const uint8_t *d, size_t n)
{
    static unsigned slept;
    if (triggered(d, n) && slept < 3) { /* a few slow cases, then fast again */
        slept++;
        struct timespec t = {0, 60 * 1000000L};
        nanosleep(&t, NULL);
    }
    return shape(d, n);
}
FG_TARGET(planted_slow, .flags = FG_NO_CORPUS,
          .run = slow_run, .what = "slow but bounded: not a finding",
          .time_ms = 400)

static uint64_t exit_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        exit(0);
    return shape(d, n);
}
FG_TARGET(planted_exit, .flags = FG_NO_CORPUS, .run = exit_run, .what = "exit(0) mid-case")

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t fd_leak_run(const uint8_t *d, size_t n)
{
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0 && !triggered(d, n)) /* the bug: the 0xAB path keeps it open */
        close(fd);
    return shape(d, n);
}
FG_TARGET(planted_fd_leak, .flags = FG_NO_CORPUS,
          .run = fd_leak_run, .what = "a descriptor leak on one path")

static uint64_t fd_clean_run(const uint8_t *d, size_t n)
{
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0)
        close(fd);
    return shape(d, n);
}
FG_TARGET(planted_fd_clean, .flags = FG_NO_CORPUS,
          .run = fd_clean_run, .what = "opens and closes a descriptor")

/* Stuck in the target, on every input, where the case's own deadline (a minute) does not
 * end it first: the run's end (a signal, its time) must (test/e2e/test_limits.c). Spinning,
 * blocked in a read nobody answers, or asleep with the interrupt signals blocked. */
enum stuck_how { STUCK_SPIN, STUCK_READ, STUCK_SLEEP };

static void stuck(enum stuck_how how)
{
    static volatile unsigned long spin;
    int p[2];
    sigset_t block;
    switch (how) {
    case STUCK_SPIN:
        for (;;)
            spin++;
    case STUCK_READ:
        if (pipe(p) != 0)
            break;
        for (char c;;) /* the write end stays open: no end of file, ever */
            (void)!read(p[0], &c, 1);
    case STUCK_SLEEP:
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &block, NULL);
        for (;;) {
            struct timespec t = {1, 0};
            nanosleep(&t, NULL);
        }
    }
}

#define STUCK(name, how)                                                                   \
    static uint64_t stuck_##name##_run(const uint8_t *d, size_t n)                         \
    {                                                                                      \
        stuck(how);                                                                        \
        return shape(d, n);                                                                \
    }                                                                                      \
    FG_TARGET(planted_stuck_##name, .flags = FG_NO_CORPUS, .run = stuck_##name##_run,      \
              .time_ms = 60000, .what = "stuck on every input: " #name)
STUCK(spin, STUCK_SPIN)
STUCK(read, STUCK_READ)
STUCK(sleep, STUCK_SLEEP)

/* The mistake the saturation watch exists for: a signature folding a running total, so
 * every case looks new and the corpus keeps everything. */
static uint64_t saturate_run(const uint8_t *d, size_t n)
{
    static uint64_t total;
    (void)d;
    total += n + 1;
    return fg_sig(total, 0);
}
FG_TARGET(planted_saturate, .flags = FG_NO_CORPUS,
          .run = saturate_run, .what = "a signature folding a running total")

/* Comparison feedback's planted bug: an 8-byte memcmp magic, then a 32-bit constant
 * compared as one integer. Byte havoc alone needs ~2^96 tries; operands recorded from the
 * comparisons solve each step. */
static uint64_t magic_run(const uint8_t *d, size_t n)
{
    if (n < 12 || memcmp(d, "FUZZGATE", 8) != 0)
        return fg_sig(1, n < 12);
    uint32_t v = (uint32_t)d[8] | (uint32_t)d[9] << 8 | (uint32_t)d[10] << 16 |
                 (uint32_t)d[11] << 24;
    if (v == 0xC0FFEE42u)
        abort();
    return fg_sig(2, 0);
}
FG_TARGET(planted_magic, .flags = FG_NO_CORPUS,
          .run = magic_run, .what = "aborts past an 8-byte magic and a u32")

/* Checksum repair's planted bug: a record holding a little-endian CRC-32 of its payload,
 * then the payload, which must open with an 8-byte memcmp magic. Comparison feedback solves
 * the CRC for the payload at hand and the magic on its own, but writing the magic breaks
 * the CRC in the same case; only a repaired re-run (engine/mutate/repair.c) keeps both.
 * The signature is constant: coverage and comparisons are the only guide. */
static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

static uint64_t crc_run(const uint8_t *d, size_t n)
{
    if (n < 12)
        return fg_sig(1, 0);
    uint32_t stored = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
                      (uint32_t)d[3] << 24;
    if (crc32_of(d + 4, n - 4) == stored && memcmp(d + 4, "CRC-GOOD", 8) == 0)
        abort();
    return fg_sig(1, 0);
}
FG_TARGET(planted_crc, .flags = FG_NO_CORPUS,
          .run = crc_run, .what = "aborts past a CRC-32 guard and an 8-byte magic")

/* Rejects every input (libFuzzer's return -1) while returning a fresh signature each
 * time: nothing generated may be kept. */
static uint64_t reject_run(const uint8_t *d, size_t n)
{
    fg_reject();
    return fg_sig(n, n ? d[0] : 0);
}
FG_TARGET(planted_reject, .flags = FG_NO_CORPUS,
          .run = reject_run, .what = "fg_reject on every input")

/* Twins: a first byte 2k (accepted) and 2k + 1 (rejected) do the same thing, signature
 * k + 1. Whichever twin a run meets first, the accepted one is kept when it comes: 128
 * behaviours and the empty input. */
static uint64_t reject_twin_run(const uint8_t *d, size_t n)
{
    if (n && (d[0] & 1))
        fg_reject();
    return fg_sig(n ? 1 + (d[0] >> 1) : 0, 0);
}
FG_TARGET(planted_reject_twin, .flags = FG_NO_CORPUS, .run = reject_twin_run,
          .what = "odd first bytes rejected, each doing what its even twin does")

/* ---- the misbehaviour matrix ---------------------------------------------------------
 * Each target misbehaves one way on an input holding 0xAB, and has a second bug, an
 * FG_CHECK on an input holding 0xCD. A supervised run must outlive the first, report it
 * as one class, and go on to find the second. */
#define SECOND_TRIGGER 0xCD

enum misbehaviour {
    M_SEGV, M_ABORT, M_STACK, M_CHECK, M_EXIT, M_HANG, M_HUGE, M_LEAK, M_FD, M_FLOOD,
    M_FORK, M_LINGER, M_THREAD
};

static void *sleep_long(void *arg)
{
    (void)arg;
    struct timespec t = {30, 0};
    nanosleep(&t, NULL);
    return NULL;
}

static void misbehave(enum misbehaviour m)
{
    static volatile int spin = 1;
    static char flood[64 * 1024];
    switch (m) {
    case M_SEGV: *planted_null_pointer = 1; break;
    case M_ABORT: abort();
    case M_STACK: recurse(0); break;
    case M_CHECK: fg_fail("the matrix's planted check"); break;
    case M_EXIT: exit(3);
    case M_HANG: while (spin) {} break;
    case M_HUGE: {
        void *volatile p = malloc(huge_size); /* volatile: no malloc/free pair elided */
        free(p);
        break;
    }
    case M_LEAK: {
        void *volatile p = malloc(48);
        (void)p;
        break;
    }
    case M_FD: (void)open("/dev/null", O_RDONLY); break;
    case M_FLOOD:
        memset(flood, 'x', sizeof flood);
        for (int i = 0; i < 16; i++) /* 1 MiB on stdout */
            fwrite(flood, 1, sizeof flood, stdout);
        fflush(stdout);
        break;
    case M_FORK: /* the copy returns into the engine, which must not run it on */
        if (fork() == 0)
            return;
        break;
    case M_LINGER: /* the copy holds every descriptor the executor has, for 30 s */
        if (fork() == 0) {
            sleep_long(NULL);
            _exit(0);
        }
        break;
    case M_THREAD: {
        pthread_t t;
        if (pthread_create(&t, NULL, sleep_long, NULL) == 0)
            pthread_detach(t);
        break;
    }
    }
}

/* A sanitizer printing (and symbolising) its report of a crash can take a few hundred ms
 * of the case's time on a loaded machine: the deadline is a second, except for the hang. */
#define MATRIX(name, m, ms)                                                                \
    static uint64_t matrix_##name##_run(const uint8_t *d, size_t n)                        \
    {                                                                                      \
        if (triggered(d, n))                                                               \
            misbehave(m);                                                                  \
        FG_CHECK(memchr(d, SECOND_TRIGGER, n) == NULL, "the second planted bug");          \
        return shape(d, n);                                                                \
    }                                                                                      \
    FG_TARGET(matrix_##name, .flags = FG_NO_CORPUS,                                        \
              .run = matrix_##name##_run, .time_ms = ms,                                   \
              .what = "matrix: " #name " on 0xAB, a check on 0xCD")
MATRIX(segv, M_SEGV, 1000)
MATRIX(abort, M_ABORT, 1000)
MATRIX(stack, M_STACK, 1000)
MATRIX(check, M_CHECK, 1000)
MATRIX(exit, M_EXIT, 1000)
MATRIX(hang, M_HANG, 200)
MATRIX(huge, M_HUGE, 1000)
MATRIX(leak, M_LEAK, 1000)
MATRIX(fd, M_FD, 1000)
MATRIX(flood, M_FLOOD, 1000)
MATRIX(fork, M_FORK, 1000)
MATRIX(linger, M_LINGER, 1000)
MATRIX(thread, M_THREAD, 1000)

/* Resident memory the heap oracle never sees (mmap is not interposed): 256 MiB touched,
 * then held for a while, so only the supervisor's RSS limit can catch it. */
/* `bytes` of fresh memory through mmap, every page touched (resident); NULL if none. */
static char *resident(size_t bytes)
{
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    for (size_t i = 0; i < bytes; i += 4096)
        p[i] = 1;
    return p;
}

static uint64_t rss_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n)) {
        size_t big = (size_t)256 << 20;
        char *p = resident(big);
        if (p) {
            struct timespec t = {2, 0};
            nanosleep(&t, NULL);
            munmap(p, big);
        }
    }
    return shape(d, n);
}
FG_TARGET(planted_rss, .flags = FG_NO_CORPUS,
          .run = rss_run, .what = "256 MiB resident through mmap")

/* A leak of 1 MiB a case, every page touched (resident), on every input: the memory limit
 * must end the process running the cases (an `oom` finding) before it is far past. */
static char *volatile planted_leaked; /* the last one: the bytes escape, so stay written */

static uint64_t leak_mib_run(const uint8_t *d, size_t n)
{
    char *p = malloc((size_t)1 << 20);
    if (p)
        memset(p, 1, (size_t)1 << 20);
    planted_leaked = p;
    return shape(d, n);
}
FG_TARGET(planted_leak_mib, .flags = FG_NO_CORPUS, .run = leak_mib_run,
          .what = "1 MiB leaked, and resident, every case")

/* Resident memory the supervisor holds before it forks (the seed callback runs there), so
 * every executor passes the RSS limit before it runs a case: a run error (the limit is
 * below what the process holds), not a finding on an input. */
static void rss_inherited_seed(fg_seeds *seeds)
{
    static char *held;
    if (!held && !(held = resident((size_t)160 << 20)))
        return;
    fg_seeds_add(seeds, "seed", 4);
}

static uint64_t rss_inherited_run(const uint8_t *d, size_t n)
{
    return shape(d, n);
}
FG_TARGET(planted_rss_inherited, .flags = FG_NO_CORPUS, .seed = rss_inherited_seed,
          .run = rss_inherited_run, .what = "160 MiB resident in every executor from its start")

/* An executor killed (RSS limit) while it waits at its epoch's end. 70 seeds and the
 * empty input make two replay chunks: with --jobs=2 executor 0 replays the first 64
 * inputs, twelve of them slow, while executor 1 replays the rest, then waits for
 * executor 0. Its last two inputs, "hold" and the empty one, map 160 MiB the seed
 * callback put in a memfd (resident at once: MAP_POPULATE over pages already there, ~8 ms
 * where faulting them in takes ~400 ms on a VM, and the kill should not land in a case).
 * It is killed waiting: an `oom` finding on the empty input, the last it ran, and counted
 * once among the executors done with the epoch (a second count closed the epoch while
 * executor 0 was running, and its records reached a later merge). */
static int rss_waiting_fd = -1;
#define RSS_WAITING_BYTES ((size_t)160 << 20)

static void rss_waiting_seed(fg_seeds *seeds)
{
    if (rss_waiting_fd < 0) {
        int fd = memfd_create("planted_rss_waiting", MFD_CLOEXEC);
        static char page[1 << 16];
        memset(page, 1, sizeof page);
        for (size_t o = 0; fd >= 0 && o < RSS_WAITING_BYTES; o += sizeof page)
            if (pwrite(fd, page, sizeof page, (off_t)o) != (ssize_t)sizeof page)
                break;
        rss_waiting_fd = fd;
    }
    for (int i = 0; i < 69; i++) {
        char s[8];
        int n = snprintf(s, sizeof s, "%c%02d", i % 5 == 0 && i < 60 ? 'S' : 'f', i);
        fg_seeds_add(seeds, s, (size_t)n);
    }
    fg_seeds_add(seeds, "hold", 4);
}

static uint64_t rss_waiting_run(const uint8_t *d, size_t n)
{
    static void *held;
    if (n == 3 && d[0] == 'S') {
        struct timespec t = {0, 40 * 1000 * 1000};
        nanosleep(&t, NULL);
    }
    if (!held && rss_waiting_fd >= 0 && (n == 0 || (n == 4 && memcmp(d, "hold", 4) == 0))) {
        void *p = mmap(NULL, RSS_WAITING_BYTES, PROT_READ, MAP_SHARED | MAP_POPULATE,
                       rss_waiting_fd, 0);
        held = p == MAP_FAILED ? NULL : p;
    }
    return shape(d, n) ^ (n ? d[n - 1] : 0);
}
FG_TARGET(planted_rss_waiting, .flags = FG_NO_CORPUS, .seed = rss_waiting_seed,
          .run = rss_waiting_run, .what = "160 MiB left resident by the last input of a chunk")

/* A target this build cannot run (as the Brotli targets are without libbrotli-dev): it is
 * listed, printed as skipped and counted apart from passed and failed; its body is never
 * called, so it has none. */
FG_TARGET(planted_skipped, .flags = FG_NO_CORPUS, .what = "a target built without what it needs",
          .skip = "built without the planted dependency (a test)")

/* Two planted bugs under a name and with messages full of what XML, JSON and markdown
 * give meaning to, a control character and a byte that is not UTF-8: every report must
 * still parse, and say each class once (test/scripts/ci_reports.sh). FG_TARGET takes an
 * identifier, so this one registers by hand. */
static uint64_t meta_run(const uint8_t *d, size_t n)
{
    if (triggered(d, n))
        fg_fail("<b>&amp; \"quoted\" 'single' back\\slash ctl\x01 del\x7f bad\xff utf8 \xc3\xa9");
    FG_CHECK(memchr(d, SECOND_TRIGGER, n) == NULL, "]]> </failure> {\"json\": \"\\u0000\"}");
    return shape(d, n);
}
static const fg_target meta_target = {.name = "planted_meta<&\"'\\\x01>", .run = meta_run,
                                      .flags = FG_NO_CORPUS,
                                      .what = "two planted bugs, metacharacters everywhere",
                                      .file = __FILE__, .line = __LINE__};
static fg_registration meta_registration = {&meta_target, 0};
__attribute__((constructor)) static void meta_register(void)
{
    fg_target_register(&meta_registration);
}
