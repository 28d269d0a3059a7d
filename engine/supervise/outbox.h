/* engine/supervise/outbox.h — an executor's records to its supervisor through shared memory.
 *
 * An executor sends its hit counts every chunk of 64 cases, a candidate for each case that
 * brought something new (engine/search/epoch.h), and the findings it survived. A pipe write
 * each was a syscall, ~1.2 us on these machines: ~19 ns of every case of a fast target.
 * They go instead into a byte ring in memory the two processes share, in the pipe's own
 * format (a wire head, then the body). The executor writes the bytes, then `head`
 * (release); the supervisor copies up to `head` (acquire), then writes `tail` (release).
 * Neither index wraps (64 bits); a byte's place is its index modulo the ring's size.
 *
 * An epoch's end goes in the ring too, after the epoch's records and findings: the
 * supervisor merges what comes before it and nothing after, however far the executor has
 * run on (by the pipe, the next epoch's records could overtake it). The pipe carries a
 * dying case's last words, the goodbye, and nudges (FGI_MSG_DRAIN): one after each epoch's
 * end, and one when the ring is full and the executor waits for room. A record goes in as
 * room allows, in pieces when it must (one larger than the ring does), each the
 * supervisor's once `head` covers it; the supervisor parses whole messages only, as from
 * the pipe. It takes the ring at every step, on a nudge, before a goodbye (everything in
 * the ring was written before it) and after a death: a crash loses no record written
 * before it, as with the pipe.
 */
#ifndef FG_OUTBOX_H
#define FG_OUTBOX_H

#include "engine/internal.h"

#include <stdatomic.h>

/* The two processes share the indices: they must not need a lock of either's own. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "64-bit atomics are lock-free");

typedef struct fgi_outbox {
    _Atomic uint64_t head; /* bytes ever written (the executor's) */
    _Atomic uint64_t tail; /* bytes ever taken (the supervisor's) */
    uint64_t size;         /* of bytes[]: a power of two */
    uint8_t bytes[];
} fgi_outbox;

/* The bytes an outbox of `size` ring bytes takes (size: a power of two). */
FGI_HIDDEN size_t fgi_outbox_bytes(size_t size);
/* Makes b empty, with `size` ring bytes after it. Before the executor is forked. */
FGI_HIDDEN void fgi_outbox_init(fgi_outbox *b, size_t size);

/* The executor's side: puts one message (type, len bytes of body) in b, waiting for room
 * when it must (nudging the supervisor on the pipe fd). 0, or -1 when the pipe failed or
 * the indices are inconsistent. */
FGI_HIDDEN int fgi_outbox_send(fgi_outbox *b, int fd, uint32_t type, const void *body,
                               size_t len);

/* The supervisor's side: appends every byte written since the last take to `to` and
 * frees their room. `size` is the ring's, as the supervisor made it (b->size is in memory
 * the executor can write). 1 when something was taken, 0 when nothing, -1 when `to` ran out
 * of memory or the indices are inconsistent (a stray write over the shared memory): the
 * bytes are dropped either way, so a waiting executor is never left waiting. */
FGI_HIDDEN int fgi_outbox_take(fgi_outbox *b, size_t size, fgi_str *to);

#endif
