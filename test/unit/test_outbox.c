/* test/unit/test_outbox.c — the executor's record ring (engine/supervise/outbox.c): every
 * message comes out whole and in order, whatever its size against the ring's, while the
 * reader takes at its own pace; a full ring nudges the reader; damaged indices are refused. */
#include "test/support/check.h"

#include "engine/base/rng.h"
#include "engine/supervise/outbox.h"
#include "engine/supervise/wire.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define RING 64      /* bytes: far smaller than some messages */
#define MESSAGES 400

/* Message i: its type and length, and its body bytes, all from i. */
static uint32_t type_of(unsigned i)
{
    return FGI_MSG_CAND + i % 2;
}

static size_t len_of(unsigned i)
{
    return i % 7 == 0 ? 0 : i % 5 == 0 ? 3 * RING + i : i % 50; /* empty, over, under */
}

static uint8_t byte_of(unsigned i, size_t k)
{
    return (uint8_t)(i * 31 + k * 7);
}

typedef struct writer {
    fgi_outbox *box;
    int fd;
    int rc;
} writer;

static void *write_all(void *arg)
{
    writer *w = arg;
    uint8_t body[4 * RING + MESSAGES];
    for (unsigned i = 0; i < MESSAGES && w->rc == 0; i++) {
        size_t n = len_of(i);
        for (size_t k = 0; k < n; k++)
            body[k] = byte_of(i, k);
        w->rc = fgi_outbox_send(w->box, w->fd, type_of(i), body, n);
    }
    return NULL;
}

FG_TEST(outbox_messages_come_out_whole_and_in_order)
{
    fgi_outbox *box = malloc(fgi_outbox_bytes(RING));
    CHECK(box != NULL);
    fgi_outbox_init(box, RING);
    int nudge[2];
    CHECK(pipe(nudge) == 0);
    fcntl(nudge[0], F_SETFL, O_NONBLOCK);
    writer w = {box, nudge[1], 0};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, write_all, &w) == 0);
    fgi_str in = {0};
    unsigned got = 0, nudges = 0, takes = 0, stalled = 0;
    fgi_rng r;
    fgi_rng_case(&r, 3, 1, 0);
    while (got < MESSAGES) {
        if (fgi_rng_chance(&r, 1, 2))
            usleep(50); /* the reader lags: the ring fills */
        fgi_wire_head h;
        while (read(nudge[0], &h, sizeof h) == (ssize_t)sizeof h) {
            CHECK_EQ_U(h.type, FGI_MSG_DRAIN);
            CHECK_EQ_U(h.len, 0);
            nudges++;
        }
        int rc = fgi_outbox_take(box, RING, &in);
        CHECK(rc >= 0);
        takes += rc;
        size_t at = 0; /* whole messages only, as the supervisor parses */
        while (in.len - at >= sizeof h) {
            memcpy(&h, in.buf + at, sizeof h);
            if (in.len - at - sizeof h < h.len)
                break;
            CHECK_EQ_U(h.type, type_of(got));
            CHECK_EQ_U(h.len, len_of(got));
            for (size_t k = 0; k < h.len; k++)
                if ((uint8_t)in.buf[at + sizeof h + k] != byte_of(got, k)) {
                    CHECK(!"a body byte differs");
                    break;
                }
            at += sizeof h + h.len;
            got++;
        }
        if (at) {
            memmove(in.buf, in.buf + at, in.len - at);
            in.len -= at;
        }
        stalled = at ? 0 : stalled + 1;
        CHECK(w.rc == 0 && stalled < 100000); /* bytes lost: no message would end */
        if (w.rc || stalled >= 100000)
            break;
    }
    pthread_join(t, NULL);
    CHECK_EQ_U(got, MESSAGES);
    CHECK_EQ_U(in.len, 0);
    CHECK_EQ_U(fgi_outbox_take(box, RING, &in), 0); /* nothing left */
    CHECK(nudges > 0);     /* the writer waited for room, and said so */
    CHECK(takes > MESSAGES / 10);
    fgi_str_free(&in);
    close(nudge[0]);
    close(nudge[1]);
    free(box);
}

FG_TEST(outbox_damaged_indices_are_refused_and_dropped)
{
    fgi_outbox *box = malloc(fgi_outbox_bytes(RING));
    CHECK(box != NULL);
    fgi_outbox_init(box, RING);
    CHECK(fgi_outbox_send(box, -1, FGI_MSG_HITS, "abc", 3) == 0); /* fits: no nudge */
    atomic_store(&box->head, 5 * RING); /* a stray write over the shared memory */
    fgi_str in = {0};
    CHECK(fgi_outbox_take(box, RING, &in) == -1);
    CHECK_EQ_U(in.len, 0);
    CHECK_EQ_U(fgi_outbox_take(box, RING, &in), 0); /* dropped: the ring goes on from there */
    CHECK(fgi_outbox_send(box, -1, FGI_MSG_HITS, "de", 2) == 0);
    CHECK_EQ_U(fgi_outbox_take(box, RING, &in), 1);
    CHECK_EQ_U(in.len, sizeof(fgi_wire_head) + 2);
    CHECK(memcmp(in.buf + sizeof(fgi_wire_head), "de", 2) == 0);
    fgi_str_free(&in);
    free(box);
}
