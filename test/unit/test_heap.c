/* test/unit/test_heap.c — the heap registry itself: what a run leaves, its peak, blocks that
 * cross threads (allocated on one, freed or moved on another), held registries, a list
 * that grows and is emptied again, another thread's allocation past the allowance, and
 * what the program may still do with a run's blocks (their usable size, moving them after
 * the run, aligned blocks, the C library's own allocations). The quarantine of an ended
 * case's blocks: test_heap_quarantine.c.
 *
 * Every call goes through the volatile pointers of test/support/heap_calls.h, so each
 * reaches the interposed one. Nothing here runs a case, so no refusal on this thread is
 * tried (that ends a case: the gate's planted amplification tests cover it).
 */
#include "test/support/check.h"

#include "oracle/heap.h"
#include "test/support/heap_calls.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct move {
    void *p;
    size_t size;
};

static void *thread_realloc(void *arg)
{
    struct move *m = arg;
    return fgt_realloc(m->p, m->size);
}

FG_TEST(heap_a_run_reports_what_it_left_and_its_peak)
{
    void *before = fgt_malloc(64); /* older memory: its free is not the run's */
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    void *a = fgt_malloc(100);
    void *b = fgt_calloc(10, 30);
    fgt_free(a);
    void *c = fgt_malloc(40);
    fgt_free(before);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 2);
    CHECK_EQ_U(r.live_bytes, 340);
    CHECK_EQ_U(r.peak_bytes, 400);
    CHECK_EQ_U(r.refused, 0);
    fgt_free(b);
    fgt_free(c);
    fgi_heap_arm(FGT_ROOMY); /* the next run starts empty */
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    CHECK_EQ_U(r.live_bytes, 0);
    CHECK_EQ_U(r.peak_bytes, 0);
}

FG_TEST(heap_realloc_moves_a_block_within_a_run)
{
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    void *p = fgt_realloc(NULL, 10);
    p = fgt_realloc(p, 5000);
    p = fgt_realloc(p, 20);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 20);
    CHECK_EQ_U(r.peak_bytes, 5000);
    fgt_free(p);
}

FG_TEST(heap_a_block_the_run_frees_on_another_thread_is_not_left)
{
    fgt_other_start();
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    void *p = fgt_malloc(123);
    fgt_on_thread(fgt_thread_free, p);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    CHECK_EQ_U(r.live_bytes, 0);
    CHECK_EQ_U(r.peak_bytes, 123);
    fgt_other_stop();
}

FG_TEST(heap_a_block_another_thread_allocates_counts_until_freed)
{
    fgt_other_start();
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    void *p = fgt_on_thread(fgt_thread_malloc, (void *)(uintptr_t)77);
    void *q = fgt_on_thread(fgt_thread_malloc, (void *)(uintptr_t)11);
    CHECK(p != NULL && q != NULL);
    fgt_free(p); /* freed by the case's thread */
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1); /* q: another thread's block the run left */
    CHECK_EQ_U(r.live_bytes, 11);
    CHECK_EQ_U(r.peak_bytes, 88);
    fgt_free(q);
    fgt_other_stop();
}

FG_TEST(heap_another_thread_moves_the_runs_block)
{
    fgt_other_start();
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    struct move m = {fgt_malloc(16), 3000};
    void *q = fgt_on_thread(thread_realloc, &m);
    CHECK(q != NULL);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 3000);
    fgt_free(q);
    /* and the case's thread moves another thread's block */
    fgi_heap_arm(FGT_ROOMY);
    void *p = fgt_on_thread(fgt_thread_malloc, (void *)(uintptr_t)8);
    p = fgt_realloc(p, 900);
    fgt_free(p);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    CHECK_EQ_U(r.live_bytes, 0);
    fgt_other_stop();
}

FG_TEST(heap_another_threads_allocation_past_the_allowance_is_refused)
{
    fgt_other_start();
    fgi_heap_report r;
    fgi_heap_arm(1000);
    void *small = fgt_malloc(600);
    void *big = fgt_on_thread(fgt_thread_malloc, (void *)(uintptr_t)500);
    fgi_heap_disarm(&r);
    CHECK(big == NULL);
    CHECK_EQ_U(r.refused, 1);
    CHECK_EQ_U(r.refused_size, 500);
    CHECK_EQ_U(r.live_bytes, 600);
    fgt_free(small);
    /* its twin: within the allowance, nothing is refused */
    fgi_heap_arm(1000);
    small = fgt_malloc(600);
    big = fgt_on_thread(fgt_thread_malloc, (void *)(uintptr_t)400);
    fgi_heap_disarm(&r);
    CHECK(big != NULL);
    CHECK_EQ_U(r.refused, 0);
    CHECK_EQ_U(r.peak_bytes, 1000);
    fgt_free(small);
    fgt_free(big);
    fgt_other_stop();
}

FG_TEST(heap_a_held_registry_counts_frees_across_runs)
{
    fgt_other_start();
    fgi_heap_report r;
    fgi_heap_hold(1);
    fgi_heap_arm(FGT_ROOMY);
    void *a = fgt_malloc(50);
    void *b = fgt_malloc(60);
    void *c = fgt_malloc(70);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 3);
    fgt_on_thread(fgt_thread_free, b); /* between runs, on another thread */
    fgt_free(c);              /* between runs, on this one */
    fgi_heap_arm(100);         /* the allowance counts only this run's blocks */
    void *d = fgt_malloc(90);
    fgt_free(a);
    fgi_heap_disarm(&r);
    CHECK(d != NULL);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 90);
    CHECK_EQ_U(r.peak_bytes, 90);
    fgi_heap_held_sites(&r, 0);
    CHECK_EQ_U(r.nsites, 1);
    fgi_heap_hold(0);
    fgi_heap_arm(FGT_ROOMY);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    fgt_free(d);
    fgt_other_stop();
}

/* A held run that frees an earlier run's block and allocates a larger one peaks at what
 * the total grew by past the held bytes (keep the latest: 90 in, 50 out), as the registry
 * invariant defines the peak: not at the new block's whole size. */
FG_TEST(heap_a_held_run_peaks_at_its_growth_past_the_held_bytes)
{
    fgi_heap_report r;
    fgi_heap_hold(1);
    fgi_heap_arm(FGT_ROOMY);
    void *a = fgt_malloc(50);
    fgi_heap_disarm(&r);
    fgi_heap_arm(FGT_ROOMY); /* base: 50 */
    fgt_free(a);
    void *b = fgt_malloc(90);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_bytes, 90);
    CHECK_EQ_U(r.peak_bytes, 40);
    fgi_heap_hold(0);
    fgi_heap_arm(FGT_ROOMY);
    fgi_heap_disarm(&r);
    fgt_free(b);
}

/* The worker gives the case's block back and asks for as much again: the block it freed
 * waits for the case's thread, but it is not counted against the allowance meanwhile. */
static void *free_then_malloc(void *p)
{
    fgt_free(p);
    return fgt_malloc(600);
}

FG_TEST(heap_a_block_freed_on_another_thread_is_not_charged_while_it_waits)
{
    fgt_other_start();
    fgi_heap_report r;
    fgi_heap_arm(1000);
    void *p = fgt_malloc(600);
    void *q = fgt_on_thread(free_then_malloc, p); /* the case's thread waits, as in a join */
    fgi_heap_disarm(&r);
    CHECK(q != NULL);
    CHECK_EQ_U(r.refused, 0);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 600);
    fgt_free(q);
    fgt_other_stop();
}

FG_TEST(heap_a_free_between_a_run_and_its_retention_check_is_counted)
{
    fgt_other_start();
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    void *p = fgt_malloc(50);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    fgt_on_thread(fgt_thread_free, p); /* after the run, before the check holds the registry */
    fgi_heap_hold(1);
    fgi_heap_arm(FGT_ROOMY);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0); /* the first run's block is gone, not still held */
    fgi_heap_hold(0);
    fgt_other_stop();
}

#define MANY 20000

FG_TEST(heap_a_table_that_grows_is_emptied_again)
{
    static void *p[MANY];
    fgi_heap_report r;
    for (int round = 0; round < 3; round++) {
        fgi_heap_arm(FGT_ROOMY);
        for (int i = 0; i < MANY; i++)
            p[i] = fgt_malloc((size_t)(i % 7) + 1);
        for (int i = 0; i < MANY; i += 2)
            fgt_free(p[i]);
        fgi_heap_disarm(&r);
        CHECK_EQ_U(r.live_blocks, MANY / 2);
        size_t bytes = 0;
        for (int i = 1; i < MANY; i += 2)
            bytes += (size_t)(i % 7) + 1;
        CHECK_EQ_U(r.live_bytes, bytes);
        for (int i = 1; i < MANY; i += 2)
            fgt_free(p[i]); /* after the run: not counted */
        fgi_heap_arm(FGT_ROOMY);
        fgi_heap_disarm(&r);
        CHECK_EQ_U(r.live_blocks, 0);
    }
}

FG_TEST(heap_release_takes_the_runs_blocks_out_and_disarms)
{
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    for (int i = 0; i < 100; i++)
        (void)fgt_malloc(32); /* the engine ended this run: the quarantine has them */
    fgi_heap_release();
    fgi_heap_arm(FGT_ROOMY);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    CHECK_EQ_U(r.peak_bytes, 0);
}

/* A block a run allocates lives on after it: its usable size is what the program may
 * write, it moves with its contents once the registry is off, and it is freed then. */
FG_TEST(heap_a_runs_block_outlives_the_run)
{
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    char *p = fgt_malloc(40);
    char *z = fgt_calloc(5, 7);
    fgi_heap_disarm(&r);
    CHECK(p != NULL && z != NULL);
    CHECK(fgt_all_are(z, 0, 35));
    size_t have = fgt_usable(p);
    CHECK(have >= 40 && have < 40 + 64);
    memset(p, 'x', have); /* the whole usable size is the program's */
    fgi_heap_hold(0);     /* the registry off: as outside any case */
    p = fgt_realloc(p, 5000);
    CHECK(p != NULL && fgt_all_are(p, 'x', 40));
    CHECK(fgt_usable(p) >= 5000);
    p = fgt_realloc(p, 8);
    CHECK(p != NULL && fgt_all_are(p, 'x', 8));
    fgt_free(p);
    fgt_free(z);
    fgi_heap_arm(FGT_ROOMY);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
}

/* Older memory a run grows is the run's from then on, its contents kept. */
FG_TEST(heap_a_run_that_grows_older_memory_owns_the_new_block)
{
    fgi_heap_report r;
    char *p = fgt_malloc(30);
    memset(p, 'o', 30);
    fgi_heap_arm(FGT_ROOMY);
    p = fgt_realloc(p, 300);
    fgi_heap_disarm(&r);
    CHECK(p != NULL && fgt_all_are(p, 'o', 30));
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 300);
    CHECK_EQ_U(r.peak_bytes, 300);
    fgt_free(p);
}

/* Aligned blocks: aligned as asked, counted at their size, moved and freed like others. */
FG_TEST(heap_aligned_blocks_are_counted_and_keep_their_alignment)
{
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    void *a = fgt_memalign(64, 100);
    void *b = fgt_aligned_alloc(4096, 4096);
    void *c = NULL;
    CHECK(fgt_posix_memalign(&c, 256, 10) == 0);
    void *d = fgt_memalign(8, 3);
    CHECK(a && b && c && d);
    CHECK_EQ_U((uintptr_t)a % 64, 0);
    CHECK_EQ_U((uintptr_t)b % 4096, 0);
    CHECK_EQ_U((uintptr_t)c % 256, 0);
    CHECK_EQ_U((uintptr_t)d % 8, 0);
    CHECK(fgt_usable(a) >= 100 && fgt_usable(b) >= 4096);
    memset(a, 'a', 100);
    a = fgt_realloc(a, 1000); /* realloc owes malloc's alignment only */
    CHECK(a != NULL && fgt_all_are(a, 'a', 100));
    fgt_free(c);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 3);
    CHECK_EQ_U(r.live_bytes, 1000 + 4096 + 3);
    fgt_free(a);
    fgt_free(b);
    fgt_free(d);
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
    fgi_heap_arm(FGT_ROOMY);
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
    fgi_heap_arm(FGT_ROOMY);
    size_t kept = 0, bytes = 0;
    for (int i = 0; i < MANY * 5; i++) {
        void *p = fgt_malloc((size_t)(i % 13) + 1);
        CHECK(p != NULL);
        if (i % 50 == 0 && kept < MANY / 10) {
            keep[kept++] = p;
            bytes += (size_t)(i % 13) + 1;
        } else {
            fgt_free(p);
        }
    }
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, kept);
    CHECK_EQ_U(r.live_bytes, bytes);
    fgi_heap_arm(FGT_ROOMY);
    for (size_t i = 0; i < kept; i += 2)
        fgt_free(keep[i]); /* a later run frees older blocks: not its own */
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    for (size_t i = 1; i < kept; i += 2)
        fgt_free(keep[i]);
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
        fgi_heap_arm(FGT_ROOMY);
        char *volatile p = fgt_malloc(32);
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
    fgt_other_start();
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    void *keep = fgt_malloc(8); /* the list is not empty: the free must be deferred */
    void *a = fgt_malloc(0), *b = fgt_malloc(0), *c = fgt_calloc(0, 4);
    CHECK(a != NULL && b != NULL && c != NULL);
    fgt_on_thread(fgt_thread_free, a);
    fgt_on_thread(fgt_thread_free, c);
    fgt_free(b); /* a's neighbour, most likely */
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 8);
    fgt_free(keep);
    fgt_other_stop();
}

/* A later run reuses the list's entries: a block an earlier run left is not taken for the
 * new block that now holds its entry, and freeing it changes nothing of the new run's. */
FG_TEST(heap_an_earlier_runs_block_is_not_the_entry_that_replaced_it)
{
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    void *old = fgt_malloc(30); /* entry 0 of run 1, left */
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    fgi_heap_arm(FGT_ROOMY); /* not held: the list starts empty */
    void *now = fgt_malloc(70); /* entry 0 again */
    fgt_free(old);              /* its header still says entry 0 */
    old = fgt_realloc(NULL, 5);
    fgt_free(old);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 70);
    fgt_free(now);
}
