/* test/unit/test_outbox.c — the executor's byte ring (engine/supervise/outbox.c): bytes come
 * out in order, in pieces as room allows, while the reader takes at its own pace; a full
 * ring takes nothing; damaged indices are refused and the ring goes on. (The frames in it,
 * and the wait for room, are the protocol's: test_wire.c.) */
#include "test/support/check.h"

#include "engine/base/rng.h"
#include "engine/supervise/outbox.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define RING 64 /* bytes */
#define TOTAL (100 * RING + 13)

static uint8_t byte_at(size_t k)
{
    return (uint8_t)(k * 31 + k / 256);
}

typedef struct writer {
    fgi_outbox *box;
    _Atomic int rc;   /* read by the reader while the writer runs */
    _Atomic unsigned fulls; /* puts that found the ring full */
} writer;

/* Puts TOTAL bytes in pieces of 1..3*RING, as room allows. */
static void *write_all(void *arg)
{
    writer *w = arg;
    uint8_t piece[3 * RING];
    size_t at = 0;
    fgi_rng r;
    fgi_rng_case(&r, 5, 1, 0);
    while (at < TOTAL && w->rc == 0) {
        size_t want = 1 + fgi_rng_below(&r, sizeof piece); /* once: FGI_MIN reads twice */
        size_t n = FGI_MIN(want, TOTAL - at);
        for (size_t k = 0; k < n; k++)
            piece[k] = byte_at(at + k);
        long put = fgi_outbox_put(w->box, piece, n);
        if (put < 0)
            w->rc = -1;
        else if (put == 0) {
            w->fulls++;
            usleep(10);
        }
        at += put > 0 ? (size_t)put : 0;
    }
    return NULL;
}

FG_TEST(outbox_bytes_come_out_in_order)
{
    fgi_outbox *box = malloc(fgi_outbox_bytes(RING));
    CHECK(box != NULL);
    fgi_outbox_init(box, RING);
    writer w = {box, 0, 0};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, write_all, &w) == 0);
    fgi_str in = {0};
    size_t got = 0;
    unsigned takes = 0, idle = 0;
    fgi_rng r;
    fgi_rng_case(&r, 3, 1, 0);
    while (got < TOTAL && w.rc == 0 && idle < 1000000) {
        if (fgi_rng_chance(&r, 1, 2))
            usleep(20); /* the reader lags: the ring fills */
        int rc = fgi_outbox_take(box, RING, &in);
        CHECK(rc >= 0);
        takes += rc > 0;
        idle = rc > 0 ? 0 : idle + 1;
        for (size_t k = 0; k < in.len; k++)
            if ((uint8_t)in.buf[k] != byte_at(got + k)) {
                CHECK(!"a byte differs");
                break;
            }
        got += in.len;
        in.len = 0;
    }
    pthread_join(t, NULL);
    CHECK_EQ_U(w.rc, 0);
    CHECK_EQ_U(got, TOTAL);
    CHECK_EQ_U(fgi_outbox_take(box, RING, &in), 0); /* nothing left */
    CHECK(w.fulls > 0);   /* the writer found it full, and put nothing then */
    CHECK(takes > 100);
    fgi_str_free(&in);
    free(box);
}

FG_TEST(outbox_full_ring_takes_a_part_then_nothing)
{
    fgi_outbox *box = malloc(fgi_outbox_bytes(RING));
    CHECK(box != NULL);
    fgi_outbox_init(box, RING);
    uint8_t big[RING + 10] = {0};
    CHECK_EQ_U(fgi_outbox_put(box, big, 10), 10);
    CHECK_EQ_U(fgi_outbox_put(box, big, sizeof big), RING - 10); /* what room there was */
    CHECK_EQ_U(fgi_outbox_put(box, big, 1), 0);
    fgi_str in = {0};
    CHECK_EQ_U(fgi_outbox_take(box, RING, &in), 1);
    CHECK_EQ_U(in.len, RING);
    CHECK_EQ_U(fgi_outbox_put(box, big, 1), 1); /* room again */
    fgi_str_free(&in);
    free(box);
}

FG_TEST(outbox_damaged_indices_are_refused_and_dropped)
{
    fgi_outbox *box = malloc(fgi_outbox_bytes(RING));
    CHECK(box != NULL);
    fgi_outbox_init(box, RING);
    CHECK_EQ_U(fgi_outbox_put(box, "abc", 3), 3);
    atomic_store(&box->head, 5 * RING); /* a stray write over the shared memory */
    fgi_str in = {0};
    CHECK(fgi_outbox_take(box, RING, &in) == -1);
    CHECK_EQ_U(in.len, 0);
    CHECK_EQ_U(fgi_outbox_take(box, RING, &in), 0); /* dropped: the ring goes on from there */
    CHECK_EQ_U(fgi_outbox_put(box, "de", 2), 2);
    CHECK_EQ_U(fgi_outbox_take(box, RING, &in), 1);
    CHECK_EQ_U(in.len, 2);
    CHECK(memcmp(in.buf, "de", 2) == 0);
    /* The writer's side refuses indices that are not the reader's. */
    atomic_store(&box->tail, atomic_load(&box->head) + 1);
    CHECK(fgi_outbox_put(box, "f", 1) < 0);
    fgi_str_free(&in);
    free(box);
}
