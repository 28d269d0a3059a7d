/* engine/supervise/outbox.h — an executor's records to its supervisor through shared memory.
 *
 * An executor sends its hit counts every chunk of 64 cases, a candidate for each case that
 * brought something new (engine/search/epoch.h), and the findings it survived. A pipe write
 * each was a syscall, ~1.2 us on these machines: ~19 ns of every case of a fast target.
 * They go instead into a byte ring in memory the two processes share. The executor writes
 * the bytes, then `head` (release); the supervisor copies up to `head` (acquire), then
 * writes `tail` (release). Neither index wraps (64 bits); a byte's place is its index
 * modulo the ring's size.
 *
 * This file knows bytes only. What the bytes are (frames, in the pipe's own format), when
 * an executor waits for room and how it nudges the supervisor is the protocol's
 * (wire.c); so is the order that makes the ring safe: everything an executor put in the
 * ring was put there before it said goodbye or died, and the supervisor takes the ring
 * before it believes either.
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

/* The executor's side: copies as much of p[0..n) into the ring as there is room for and
 * makes it the supervisor's. The bytes put (0 when the ring is full), or -1 when the
 * indices are not what the supervisor wrote. */
FGI_HIDDEN long fgi_outbox_put(fgi_outbox *b, const void *p, size_t n);

/* The supervisor's side: appends every byte written since the last take to `to` and
 * frees their room. `size` is the ring's, as the supervisor made it (b->size is in memory
 * the executor can write). 1 when something was taken, 0 when nothing, -1 when `to` ran out
 * of memory or the indices are inconsistent (a stray write over the shared memory): the
 * bytes are dropped either way, so a waiting executor is never left waiting. */
FGI_HIDDEN int fgi_outbox_take(fgi_outbox *b, size_t size, fgi_str *to);

#endif
