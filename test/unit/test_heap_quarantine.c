/* test/unit/test_heap_quarantine.c — the quarantine of the blocks of cases the engine ended
 * (oracle/heap_quarantine.c): the blocks stay the program's to read, move and free on any
 * thread, the quarantine stays within its bound, compacts, and counts what the allocator
 * holds under each block.
 *
 * The quarantine is process-wide, and shared with every other test that ends a case
 * (fgi_heap_release): each test here measures from what it finds there.
 */
#include "test/support/check.h"

#include "oracle/heap.h"
#include "oracle/heap_quarantine.h"
#include "test/support/heap_calls.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What the quarantine counts for a block of the default alignment: the allocator's bytes
 * under it, the 16-byte header included. */
static size_t held(void *p)
{
    return fgt_usable(p) + 16;
}

/* A case the engine ended leaves its blocks to the quarantine, still allocated and still
 * the program's: the target may keep one in a global (libxml2's last error), and its free
 * or realloc of it later, in a case or not, on any thread, is done as asked. */
FG_TEST(heap_a_released_block_stays_the_programs)
{
    size_t blocks0, bytes0 = fgi_heap_quarantined(&blocks0), blocks;
    fgt_other_start();
    fgi_heap_report r;
    fgi_heap_arm(FGT_ROOMY);
    char *p = fgt_malloc(40);
    char *q = fgt_malloc(10);
    char *t = fgt_malloc(7);
    CHECK(p != NULL && q != NULL && t != NULL);
    memset(p, 'k', 40);
    fgi_heap_release(); /* the case ended: its frames are gone */
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0 + held(p) + held(q) + held(t));
    CHECK_EQ_U(blocks, blocks0 + 3);
    CHECK(fgt_all_are(p, 'k', 40));
    CHECK(fgt_usable(p) >= 40);
    p = fgt_realloc(p, 4000); /* moved out of the quarantine, contents kept */
    CHECK(p != NULL && fgt_all_are(p, 'k', 40));
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0 + held(q) + held(t));
    fgi_heap_arm(FGT_ROOMY); /* a later case frees one: not that case's block */
    fgt_free(q);
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 0);
    CHECK_EQ_U(r.peak_bytes, 0);
    fgi_heap_hold(0);
    fgt_on_thread(fgt_thread_free, t); /* another thread frees one */
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0);
    CHECK_EQ_U(blocks, blocks0);
    fgt_free(p);
    fgt_other_stop();
}

/* The quarantine is bounded: past 64 MiB the oldest blocks are really freed. (The blocks
 * earlier tests' ended cases left there are small, and older still: they go first.) */
FG_TEST(heap_the_quarantine_frees_its_oldest_past_its_bound)
{
    size_t blocks;
    size_t bytes0 = fgi_heap_quarantined(NULL), big = (size_t)40 << 20;
    CHECK(bytes0 < big);
    fgi_heap_arm(FGT_ROOMY);
    void *a = fgt_malloc(big);
    CHECK(a != NULL);
    size_t held_a = held(a);
    CHECK(held_a >= big + 16);
    fgi_heap_release();
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0 + held_a);
    fgi_heap_arm(FGT_ROOMY);
    void *b = fgt_malloc(big);
    CHECK(b != NULL);
    size_t held_b = held(b);
    fgi_heap_release(); /* over 80 MiB: everything older goes, a too (not to be touched) */
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), held_b);
    CHECK_EQ_U(blocks, 1);
    fgt_free(b);
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
        fgi_heap_arm(FGT_ROOMY);
        for (int i = 0; i < EACH; i++) {
            p[round * EACH + i] = fgt_malloc(3);
            CHECK(p[round * EACH + i] != NULL);
            memset(p[round * EACH + i], 'a' + round, 3);
        }
        fgi_heap_release();
        for (int i = 0; i < EACH; i++) /* holes in the middle, not only at the front */
            if (i % 3 != 0) {
                fgt_free(p[round * EACH + i]);
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
            p[i] = fgt_realloc(p[i], 100);
            CHECK(p[i] != NULL && p[i][0] == 'a' + i / EACH);
        }
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0);
    CHECK_EQ_U(blocks, blocks0);
    for (int i = 0; i < ROUNDS * EACH; i++)
        fgt_free(p[i]);
}

/* An aligned block counts what the allocator holds for it, its alignment lead included
 * (so 64 MiB of quarantine is 64 MiB of memory), and moves out as any other. (aligned_alloc's
 * size is a multiple of its alignment, as C11 asks and TSan checks.) */
FG_TEST(heap_the_quarantine_counts_an_aligned_blocks_memory)
{
    size_t bytes0 = fgi_heap_quarantined(NULL);
    fgi_heap_arm(FGT_ROOMY);
    char *a = fgt_memalign(256, 100);
    char *b = fgt_aligned_alloc(4096, 4096);
    CHECK(a != NULL && b != NULL);
    memset(a, 'z', 100);
    fgi_heap_release();
    CHECK(fgi_heap_quarantined(NULL) >= bytes0 + 256 + 100 + 4096 + 4096);
    a = fgt_realloc(a, 1000); /* after the case */
    CHECK(a != NULL && fgt_all_are(a, 'z', 100));
    fgi_heap_arm(FGT_ROOMY);
    b = fgt_realloc(b, 50); /* in a later case: that case's block now */
    fgi_heap_report r;
    fgi_heap_disarm(&r);
    CHECK_EQ_U(r.live_blocks, 1);
    CHECK_EQ_U(r.live_bytes, 50);
    fgi_heap_hold(0);
    CHECK_EQ_U(fgi_heap_quarantined(NULL), bytes0);
    fgt_free(a);
    fgt_free(b);
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
            fgt_free(p);
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
        fgi_heap_arm(FGT_ROOMY);
        char *mine[RACE_EACH];
        for (int i = 0; i < RACE_EACH; i++) {
            mine[i] = fgt_malloc(8 + (size_t)i);
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

/* A target's thread frees a case's blocks while the engine ends that case (issue 30): each
 * block must be freed once, by the thread, whichever of the two reaches it first. The
 * thread's free racing the release's walk over the case's blocks once put a block the
 * thread had already given back into the quarantine (a second free at its eviction, and
 * the quarantine counting memory it no longer had). In a loop, so the two meet. */
enum { RELEASE_CASES = 3000, RELEASE_EACH = 48 };
static char *release_blocks[RELEASE_EACH];
static _Atomic int release_round, release_done;

static void *release_freer(void *unused)
{
    (void)unused;
    for (int round = 1; round <= RELEASE_CASES; round++) {
        while (atomic_load(&release_round) < round)
            ;
        for (int i = 0; i < RELEASE_EACH; i++) {
            char *p = release_blocks[i];
            if (p[0] != 'r')
                abort();
            fgt_free(p);
        }
        atomic_store(&release_done, round);
    }
    return NULL;
}

FG_TEST(heap_a_thread_freeing_while_the_case_is_released_frees_each_block_once)
{
    size_t blocks0, bytes0 = fgi_heap_quarantined(&blocks0), blocks;
    pthread_t t;
    CHECK(pthread_create(&t, NULL, release_freer, NULL) == 0);
    for (int round = 1; round <= RELEASE_CASES; round++) {
        fgi_heap_arm(FGT_ROOMY);
        for (int i = 0; i < RELEASE_EACH; i++) {
            release_blocks[i] = fgt_malloc(16 + (size_t)i * 24);
            release_blocks[i][0] = 'r';
        }
        atomic_store(&release_round, round); /* the thread starts freeing them ... */
        fgi_heap_release();                  /* ... while the engine ends the case */
        while (atomic_load(&release_done) < round)
            ;
    }
    pthread_join(t, NULL);
    fgi_heap_arm(FGT_ROOMY); /* frees deferred to the owner are taken */
    fgi_heap_report r;
    fgi_heap_disarm(&r);
    fgi_heap_hold(0);
    CHECK_EQ_U(fgi_heap_quarantined(&blocks), bytes0);
    CHECK_EQ_U(blocks, blocks0);
}
