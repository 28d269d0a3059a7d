/* test/unit/test_heap.c — the heap registry itself: what a run leaves, its peak, blocks that
 * cross threads (allocated on one, freed or moved on another), held registries, a table
 * that grows and is emptied again, another thread's allocation past the allowance, and
 * what the program may still do with a run's blocks (their usable size, moving them after
 * the run, aligned blocks, the C library's own allocations).
 *
 * Every call goes through volatile pointers: the compiler may not fold a malloc/free pair
 * or see through the allocator, so each call reaches the interposed one. Nothing here runs
 * a case, so no refusal on this thread is tried (that ends a case: the gate's planted
 * amplification tests cover it).
 */
#include "test/support/check.h"

#include "oracle/heap.h"
#include "oracle/heap_quarantine.h"

#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *(*volatile heap_malloc)(size_t) = malloc;
static void *(*volatile heap_calloc)(size_t, size_t) = calloc;
static void *(*volatile heap_realloc)(void *, size_t) = realloc;
static void (*volatile heap_free)(void *) = free;

#define ROOMY ((size_t)1 << 30)

/* Another thread, started before the registry is armed (starting a thread may allocate:
 * under ASan it does, on both threads), doing one job at a time for the test. */
static struct {
    pthread_t t;
    sem_t go, done;
    void *(*fn)(void *);
    void *arg, *out;
} other;

static void *other_loop(void *unused)
{
    (void)unused;
    sem_post(&other.done); /* started: whatever starting a thread allocates is done */
    for (;;) {
        while (sem_wait(&other.go) != 0)
            ;
        if (!other.fn)
            return NULL;
        other.out = other.fn(other.arg);
        sem_post(&other.done);
    }
}

static void other_start(void)
{
    CHECK(sem_init(&other.go, 0, 0) == 0 && sem_init(&other.done, 0, 0) == 0);
    CHECK(pthread_create(&other.t, NULL, other_loop, NULL) == 0);
    while (sem_wait(&other.done) != 0)
        ;
}

static void other_stop(void)
{
    other.fn = NULL;
    sem_post(&other.go);
    pthread_join(other.t, NULL);
    sem_destroy(&other.go);
    sem_destroy(&other.done);
}

/* Runs fn(arg) on the other thread and waits for it. */
static void *on_thread(void *(*fn)(void *), void *arg)
{
    other.fn = fn;
    other.arg = arg;
    sem_post(&other.go);
    while (sem_wait(&other.done) != 0)
        ;
    return other.out;
}

static void *thread_malloc(void *size)
{
    return heap_malloc((size_t)(uintptr_t)size);
}

static void *thread_free(void *p)
{
    heap_free(p);
    return NULL;
}

struct move {
    void *p;
    size_t size;
};

static void *thread_realloc(void *arg)
{
    struct move *m = arg;
    return heap_realloc(m->p, m->size);
}

FG_TEST(heap_a_run_reports_what_it_left_and_its_peak)
{
    void *before = heap_malloc(64); /* older memory: its free is not the run's */
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    void *a = heap_malloc(100);
    void *b = heap_calloc(10, 30);
    heap_free(a);
    void *c = heap_malloc(40);
    heap_free(before);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 2);
    CHECK_EQ_U(r.live_bytes, 340);
    CHECK_EQ_U(r.peak_bytes, 400);
    CHECK_EQ_U(r.refused, 0);
    heap_free(b);
    heap_free(c);
    fgi_heap_arm(ROOMY); /* the next run starts empty */
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    CHECK_EQ_U(r.live_bytes, 0);
    CHECK_EQ_U(r.peak_bytes, 0);
}

FG_TEST(heap_realloc_moves_a_block_within_a_run)
{
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    void *p = heap_realloc(NULL, 10);
    p = heap_realloc(p, 5000);
    p = heap_realloc(p, 20);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 20);
    CHECK_EQ_U(r.peak_bytes, 5000);
    heap_free(p);
}

FG_TEST(heap_a_block_the_run_frees_on_another_thread_is_not_left)
{
    other_start();
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    void *p = heap_malloc(123);
    on_thread(thread_free, p);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    CHECK_EQ_U(r.live_bytes, 0);
    CHECK_EQ_U(r.peak_bytes, 123);
    other_stop();
}

FG_TEST(heap_a_block_another_thread_allocates_counts_until_freed)
{
    other_start();
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    void *p = on_thread(thread_malloc, (void *)(uintptr_t)77);
    void *q = on_thread(thread_malloc, (void *)(uintptr_t)11);
    CHECK(p != NULL && q != NULL);
    heap_free(p); /* freed by the case's thread */
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1); /* q: another thread's block the run left */
    CHECK_EQ_U(r.live_bytes, 11);
    CHECK_EQ_U(r.peak_bytes, 88);
    heap_free(q);
    other_stop();
}

FG_TEST(heap_another_thread_moves_the_runs_block)
{
    other_start();
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    struct move m = {heap_malloc(16), 3000};
    void *q = on_thread(thread_realloc, &m);
    CHECK(q != NULL);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 3000);
    heap_free(q);
    /* and the case's thread moves another thread's block */
    fgi_heap_arm(ROOMY);
    void *p = on_thread(thread_malloc, (void *)(uintptr_t)8);
    p = heap_realloc(p, 900);
    heap_free(p);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    CHECK_EQ_U(r.live_bytes, 0);
    other_stop();
}

FG_TEST(heap_another_threads_allocation_past_the_allowance_is_refused)
{
    other_start();
    fgi_heap_report r;
    fgi_heap_arm(1000);
    void *small = heap_malloc(600);
    void *big = on_thread(thread_malloc, (void *)(uintptr_t)500);
    fgi_heap_disarm(&r);
    CHECK(big == NULL);
    CHECK_EQ_U(r.refused, 1);
    CHECK_EQ_U(r.refused_size, 500);
    CHECK_EQ_U(r.live_bytes, 600);
    heap_free(small);
    /* its twin: within the allowance, nothing is refused */
    fgi_heap_arm(1000);
    small = heap_malloc(600);
    big = on_thread(thread_malloc, (void *)(uintptr_t)400);
    fgi_heap_disarm(&r);
    CHECK(big != NULL);
    CHECK_EQ_U(r.refused, 0);
    CHECK_EQ_U(r.peak_bytes, 1000);
    heap_free(small);
    heap_free(big);
    other_stop();
}

FG_TEST(heap_a_held_registry_counts_frees_across_runs)
{
    other_start();
    fgi_heap_report r;
    fgi_heap_hold(1);
    fgi_heap_arm(ROOMY);
    void *a = heap_malloc(50);
    void *b = heap_malloc(60);
    void *c = heap_malloc(70);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 3);
    on_thread(thread_free, b); /* between runs, on another thread */
    heap_free(c);              /* between runs, on this one */
    fgi_heap_arm(100);         /* the allowance counts only this run's blocks */
    void *d = heap_malloc(90);
    heap_free(a);
    fgi_heap_disarm(&r);
    CHECK(d != NULL);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 90);
    CHECK_EQ_U(r.peak_bytes, 90);
    fgi_heap_held_sites(&r, 0);
    CHECK_EQ_U(r.nsites, 1);
    fgi_heap_hold(0);
    fgi_heap_arm(ROOMY);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    heap_free(d);
    other_stop();
}

/* A held run that frees an earlier run's block and allocates a larger one peaks at what
 * the total grew by past the held bytes (keep the latest: 90 in, 50 out), as the registry
 * invariant defines the peak: not at the new block's whole size. */
FG_TEST(heap_a_held_run_peaks_at_its_growth_past_the_held_bytes)
{
    fgi_heap_report r;
    fgi_heap_hold(1);
    fgi_heap_arm(ROOMY);
    void *a = heap_malloc(50);
    fgi_heap_disarm(&r);
    fgi_heap_arm(ROOMY); /* base: 50 */
    heap_free(a);
    void *b = heap_malloc(90);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_bytes, 90);
    CHECK_EQ_U(r.peak_bytes, 40);
    fgi_heap_hold(0);
    fgi_heap_arm(ROOMY);
    fgi_heap_disarm(&r);
    heap_free(b);
}

/* The worker gives the case's block back and asks for as much again: the block it freed
 * waits for the case's thread, but it is not counted against the allowance meanwhile. */
static void *free_then_malloc(void *p)
{
    heap_free(p);
    return heap_malloc(600);
}

FG_TEST(heap_a_block_freed_on_another_thread_is_not_charged_while_it_waits)
{
    other_start();
    fgi_heap_report r;
    fgi_heap_arm(1000);
    void *p = heap_malloc(600);
    void *q = on_thread(free_then_malloc, p); /* the case's thread waits, as in a join */
    fgi_heap_disarm(&r);
    CHECK(q != NULL);
    CHECK_EQ_U(r.refused, 0);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 600);
    heap_free(q);
    other_stop();
}

FG_TEST(heap_a_free_between_a_run_and_its_retention_check_is_counted)
{
    other_start();
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    void *p = heap_malloc(50);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    on_thread(thread_free, p); /* after the run, before the check holds the registry */
    fgi_heap_hold(1);
    fgi_heap_arm(ROOMY);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0); /* the first run's block is gone, not still held */
    fgi_heap_hold(0);
    other_stop();
}

#define MANY 20000

FG_TEST(heap_a_table_that_grows_is_emptied_again)
{
    static void *p[MANY];
    fgi_heap_report r;
    for (int round = 0; round < 3; round++) {
        fgi_heap_arm(ROOMY);
        for (int i = 0; i < MANY; i++)
            p[i] = heap_malloc((size_t)(i % 7) + 1);
        for (int i = 0; i < MANY; i += 2)
            heap_free(p[i]);
        fgi_heap_disarm(&r);
        CHECK_EQ_U(r.live_blocks, MANY / 2);
        size_t bytes = 0;
        for (int i = 1; i < MANY; i += 2)
            bytes += (size_t)(i % 7) + 1;
        CHECK_EQ_U(r.live_bytes, bytes);
        for (int i = 1; i < MANY; i += 2)
            heap_free(p[i]); /* after the run: not counted */
        fgi_heap_arm(ROOMY);
        fgi_heap_disarm(&r);
        CHECK_EQ_U(r.live_blocks, 0);
    }
}

FG_TEST(heap_release_takes_the_runs_blocks_out_and_disarms)
{
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    for (int i = 0; i < 100; i++)
        (void)heap_malloc(32); /* the engine ended this run: the quarantine has them */
    fgi_heap_release();
    fgi_heap_arm(ROOMY);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    CHECK_EQ_U(r.peak_bytes, 0);
}

static void *(*volatile heap_memalign)(size_t, size_t) = memalign;
static void *(*volatile heap_aligned_alloc)(size_t, size_t) = aligned_alloc;
static int (*volatile heap_posix_memalign)(void **, size_t, size_t) = posix_memalign;
static size_t (*volatile heap_usable)(void *) = malloc_usable_size;

/* 1 when the n bytes at p all hold c. */
static int all_are(const void *p, int c, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)c)
            return 0;
    return 1;
}

/* A block a run allocates lives on after it: its usable size is what the program may
 * write, it moves with its contents once the registry is off, and it is freed then. */
FG_TEST(heap_a_runs_block_outlives_the_run)
{
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    char *p = heap_malloc(40);
    char *z = heap_calloc(5, 7);
    fgi_heap_disarm(&r);
    CHECK(p != NULL && z != NULL);
    CHECK(all_are(z, 0, 35));
    size_t have = heap_usable(p);
    CHECK(have >= 40 && have < 40 + 64);
    memset(p, 'x', have); /* the whole usable size is the program's */
    fgi_heap_hold(0);     /* the registry off: as outside any case */
    p = heap_realloc(p, 5000);
    CHECK(p != NULL && all_are(p, 'x', 40));
    CHECK(heap_usable(p) >= 5000);
    p = heap_realloc(p, 8);
    CHECK(p != NULL && all_are(p, 'x', 8));
    heap_free(p);
    heap_free(z);
    fgi_heap_arm(ROOMY);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
}

/* Older memory a run grows is the run's from then on, its contents kept. */
FG_TEST(heap_a_run_that_grows_older_memory_owns_the_new_block)
{
    fgi_heap_report r;
    char *p = heap_malloc(30);
    memset(p, 'o', 30);
    fgi_heap_arm(ROOMY);
    p = heap_realloc(p, 300);
    fgi_heap_disarm(&r);
    CHECK(p != NULL && all_are(p, 'o', 30));
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 300);
    CHECK_EQ_U(r.peak_bytes, 300);
    heap_free(p);
}

/* Aligned blocks: aligned as asked, counted at their size, moved and freed like others. */
FG_TEST(heap_aligned_blocks_are_counted_and_keep_their_alignment)
{
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    void *a = heap_memalign(64, 100);
    void *b = heap_aligned_alloc(4096, 4096);
    void *c = NULL;
    CHECK(heap_posix_memalign(&c, 256, 10) == 0);
    void *d = heap_memalign(8, 3);
    CHECK(a && b && c && d);
    CHECK_EQ_U((uintptr_t)a % 64, 0);
    CHECK_EQ_U((uintptr_t)b % 4096, 0);
    CHECK_EQ_U((uintptr_t)c % 256, 0);
    CHECK_EQ_U((uintptr_t)d % 8, 0);
    CHECK(heap_usable(a) >= 100 && heap_usable(b) >= 4096);
    memset(a, 'a', 100);
    a = heap_realloc(a, 1000); /* realloc owes malloc's alignment only */
    CHECK(a != NULL && all_are(a, 'a', 100));
    heap_free(c);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 3);
    CHECK_EQ_U(r.live_bytes, 1000 + 4096 + 3);
    heap_free(a);
    heap_free(b);
    heap_free(d);
}

/* The C library's own allocations on the case's thread (a line buffer, a duplicate) are
 * the run's like any other, and freeing them later is the program's business. */
FG_TEST(heap_the_c_librarys_allocations_in_a_run_are_counted)
{
    fgi_heap_report r;
    FILE *f = tmpfile();
    CHECK(f != NULL);
    fputs("one line\nand another, longer than the first\n", f);
    rewind(f);
    fgi_heap_arm(ROOMY);
    char *line = NULL;
    size_t cap = 0;
    CHECK(getline(&line, &cap, f) == 9);
    CHECK(getline(&line, &cap, f) > 9);
    char *dup = strdup(line);
    fgi_heap_disarm(&r);
    CHECK(dup != NULL && strcmp(dup, "and another, longer than the first\n") == 0);
#ifdef FGT_ASAN
    CHECK_EQ_U(r.live_blocks, 1); /* ASan's strdup allocates inside ASan: docs/oracles.md */
#else
    CHECK_EQ_U(r.live_blocks, 2);
#endif
    free(line);
    free(dup);
    fclose(f);
}

/* A run that allocates and frees far more blocks than it keeps: what it keeps is still
 * counted exactly, and every one of them can still be freed. */
FG_TEST(heap_a_long_run_of_short_lived_blocks_keeps_its_count)
{
    static void *keep[MANY / 10];
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    size_t kept = 0, bytes = 0;
    for (int i = 0; i < MANY * 5; i++) {
        void *p = heap_malloc((size_t)(i % 13) + 1);
        CHECK(p != NULL);
        if (i % 50 == 0 && kept < MANY / 10) {
            keep[kept++] = p;
            bytes += (size_t)(i % 13) + 1;
        } else {
            heap_free(p);
        }
    }
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, kept);
    CHECK_EQ_U(r.live_bytes, bytes);
    fgi_heap_arm(ROOMY);
    for (size_t i = 0; i < kept; i += 2)
        heap_free(keep[i]); /* a later run frees older blocks: not its own */
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    for (size_t i = 1; i < kept; i += 2)
        heap_free(keep[i]);
}

#ifdef FGT_ASAN
/* In a child: a run's block of 32 bytes, written at `at`; exits 0 if that is allowed. */
static int write_in_child(ptrdiff_t at)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2); /* ASan's report is not the test's output */
        fgi_heap_arm(ROOMY);
        char *volatile p = heap_malloc(32);
        p[at] = 1;
        _exit(0);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
#endif

/* The header must not hide an underflow from ASan: a write to the byte before a run's
 * block is reported, as it would be without fuzzgate; the block's own bytes are not. */
FG_TEST(heap_under_asan_a_write_just_before_a_runs_block_is_reported)
{
#ifndef FGT_ASAN
    printf("  skipped: needs an ASan build (make check SANITIZE=address,undefined)\n");
#else
    CHECK(write_in_child(-1) > 0);
    CHECK(write_in_child(-16) > 0);
    CHECK_EQ_U(write_in_child(0), 0);
    CHECK_EQ_U(write_in_child(31), 0);
#endif
}

/* A block of 0 bytes another thread frees while the run's list holds others: the deferred
 * free keeps its chain in the header, not in the block, which has no room for it (under
 * ASan the block's end is the next chunk's header; writing there broke the neighbour's
 * free). */
FG_TEST(heap_an_empty_block_freed_on_another_thread_leaves_its_neighbour_whole)
{
    other_start();
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    void *keep = heap_malloc(8); /* the list is not empty: the free must be deferred */
    void *a = heap_malloc(0), *b = heap_malloc(0), *c = heap_calloc(0, 4);
    CHECK(a != NULL && b != NULL && c != NULL);
    on_thread(thread_free, a);
    on_thread(thread_free, c);
    heap_free(b); /* a's neighbour, most likely */
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 8);
    heap_free(keep);
    other_stop();
}

/* A later run reuses the list's entries: a block an earlier run left is not taken for the
 * new block that now holds its entry, and freeing it changes nothing of the new run's. */
FG_TEST(heap_an_earlier_runs_block_is_not_the_entry_that_replaced_it)
{
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    void *old = heap_malloc(30); /* entry 0 of run 1, left */
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    fgi_heap_arm(ROOMY); /* not held: the list starts empty */
    void *now = heap_malloc(70); /* entry 0 again */
    heap_free(old);              /* its header still says entry 0 */
    old = heap_realloc(NULL, 5);
    heap_free(old);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 70);
    heap_free(now);
}


/* What the quarantine counts for a block of the default alignment: the allocator's bytes
 * under it, the 16-byte header included. */
static size_t held(void *p)
{
    return heap_usable(p) + 16;
}

/* A case the engine ended leaves its blocks to the quarantine, still allocated and still
 * the program's: the target may keep one in a global (libxml2's last error), and its free
 * or realloc of it later, in a case or not, on any thread, is done as asked. */
FG_TEST(heap_a_released_block_stays_the_programs)
{
    size_t blocks0, bytes0 = fgi_heap_quarantined(&blocks0), blocks;
    other_start();
    fgi_heap_report r;
    fgi_heap_arm(ROOMY);
    char *p = heap_malloc(40);
    char *q = heap_malloc(10);
    char *t = heap_malloc(7);
    CHECK(p != NULL && q != NULL && t != NULL);
    memset(p, 'k', 40);
    fgi_heap_release(); /* the case ended: its frames are gone */
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0 + held(p) + held(q) + held(t));
    CHECK_EQ_U(blocks, blocks0 + 3);
    CHECK(all_are(p, 'k', 40));
    CHECK(heap_usable(p) >= 40);
    p = heap_realloc(p, 4000); /* moved out of the quarantine, contents kept */
    CHECK(p != NULL && all_are(p, 'k', 40));
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0 + held(q) + held(t));
    fgi_heap_arm(ROOMY); /* a later case frees one: not that case's block */
    heap_free(q);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    CHECK_EQ_U(r.peak_bytes, 0);
    fgi_heap_hold(0);
    on_thread(thread_free, t); /* another thread frees one */
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0);
    CHECK_EQ_U(blocks, blocks0);
    heap_free(p);
    other_stop();
}

/* The quarantine is bounded: past 64 MiB the oldest blocks are really freed. (The blocks
 * earlier tests' ended cases left there are small, and older still: they go first.) */
FG_TEST(heap_the_quarantine_frees_its_oldest_past_its_bound)
{
    size_t blocks;
    size_t bytes0 = fgi_heap_quarantined(NULL), big = (size_t)40 << 20;
    CHECK(bytes0 < big);
    fgi_heap_arm(ROOMY);
    void *a = heap_malloc(big);
    CHECK(a != NULL);
    size_t held_a = held(a);
    CHECK(held_a >= big + 16);
    fgi_heap_release();
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0 + held_a);
    fgi_heap_arm(ROOMY);
    void *b = heap_malloc(big);
    CHECK(b != NULL);
    size_t held_b = held(b);
    fgi_heap_release(); /* over 80 MiB: everything older goes, a too (not to be touched) */
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), held_b);
    CHECK_EQ_U(blocks, 1);
    heap_free(b);
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), 0);
    CHECK_EQ_U(blocks, 0);
}

/* Taken-out entries leave holes; when the array is full with half of it holes, the live
 * ones move to the front and their headers are rewritten: each is still found, read,
 * moved and freed. */
FG_TEST(heap_the_quarantine_compacts_and_its_blocks_stay_found)
{
    enum { ROUNDS = 6, EACH = 50 };
    static char *p[ROUNDS * EACH];
    size_t blocks0, bytes0 = fgi_heap_quarantined(&blocks0), blocks, want = 0, left = 0;
    for (int round = 0; round < ROUNDS; round++) {
        fgi_heap_arm(ROOMY);
        for (int i = 0; i < EACH; i++) {
            p[round * EACH + i] = heap_malloc(3);
            CHECK(p[round * EACH + i] != NULL);
            memset(p[round * EACH + i], 'a' + round, 3);
        }
        fgi_heap_release();
        for (int i = 0; i < EACH; i++) /* holes in the middle, not only at the front */
            if (i % 3 != 0) {
                heap_free(p[round * EACH + i]);
                p[round * EACH + i] = NULL;
            }
    }
    for (int i = 0; i < ROUNDS * EACH; i++)
        if (p[i]) {
            CHECK(p[i][0] == 'a' + i / EACH);
            want += held(p[i]);
            left++;
        }
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0 + want);
    CHECK_EQ_U(blocks, blocks0 + left);
    for (int i = 0; i < ROUNDS * EACH; i++)
        if (p[i]) {
            p[i] = heap_realloc(p[i], 100);
            CHECK(p[i] != NULL && p[i][0] == 'a' + i / EACH);
        }
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0);
    CHECK_EQ_U(blocks, blocks0);
    for (int i = 0; i < ROUNDS * EACH; i++)
        heap_free(p[i]);
}

/* An aligned block counts what the allocator holds for it, its alignment lead included
 * (so 64 MiB of quarantine is 64 MiB of memory), and moves out as any other. */
FG_TEST(heap_the_quarantine_counts_an_aligned_blocks_memory)
{
    size_t bytes0 = fgi_heap_quarantined(NULL);
    fgi_heap_arm(ROOMY);
    char *a = heap_memalign(256, 100);
    char *b = heap_aligned_alloc(4096, 16);
    CHECK(a != NULL && b != NULL);
    memset(a, 'z', 100);
    fgi_heap_release();
    CHECK(fgi_heap_quarantined(NULL) >= bytes0 + 256 + 100 + 4096 + 16);
    a = heap_realloc(a, 1000); /* after the case */
    CHECK(a != NULL && all_are(a, 'z', 100));
    fgi_heap_arm(ROOMY);
    b = heap_realloc(b, 50); /* in a later case: that case's block now */
    fgi_heap_report r;
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 50);
    fgi_heap_hold(0);
    CHECK_EQ_U(fgi_heap_quarantined(NULL), bytes0);
    heap_free(a);
    heap_free(b);
}

/* Another thread frees released blocks while the owner keeps ending cases: additions,
 * compactions and frees under the lock, every block freed once. */
enum { RACE_BLOCKS = 20000, RACE_EACH = 20 };
static char *race_ring[RACE_BLOCKS];
static _Atomic int race_put, race_done;

static void *race_freer(void *unused)
{
    (void)unused;
    int got = 0;
    for (;;) {
        int put = atomic_load(&race_put), done = atomic_load(&race_done);
        while (got < put) {
            char *p = race_ring[got++];
            if (p[0] != 'q')
                abort();
            heap_free(p);
        }
        if (done && got == atomic_load(&race_put))
            return NULL;
    }
}

FG_TEST(heap_released_blocks_freed_on_another_thread_meanwhile)
{
    size_t blocks0, bytes0 = fgi_heap_quarantined(&blocks0), blocks;
    pthread_t t;
    CHECK(pthread_create(&t, NULL, race_freer, NULL) == 0);
    for (int c = 0; c < RACE_BLOCKS / RACE_EACH; c++) {
        fgi_heap_arm(ROOMY);
        char *mine[RACE_EACH];
        for (int i = 0; i < RACE_EACH; i++) {
            mine[i] = heap_malloc(8 + (size_t)i);
            mine[i][0] = 'q';
        }
        fgi_heap_release();
        int at = atomic_load(&race_put);
        for (int i = 0; i < RACE_EACH; i++)
            race_ring[at + i] = mine[i];
        atomic_store(&race_put, at + RACE_EACH);
    }
    atomic_store(&race_done, 1);
    pthread_join(t, NULL);
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0);
    CHECK_EQ_U(blocks, blocks0);
}
