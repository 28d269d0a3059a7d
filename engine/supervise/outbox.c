/* engine/supervise/outbox.c — the executor's record ring (outbox.h). */
#include "engine/supervise/outbox.h"

#include "engine/supervise/wire.h"

#include <string.h>
#include <time.h>

#define ACQUIRE memory_order_acquire
#define RELEASE memory_order_release

size_t fgi_outbox_bytes(size_t size)
{
    return sizeof(fgi_outbox) + size;
}

void fgi_outbox_init(fgi_outbox *b, size_t size)
{
    FG_ASSERT(size && (size & (size - 1)) == 0);
    atomic_store(&b->head, 0);
    atomic_store(&b->tail, 0);
    b->size = size;
}

/* Copies n bytes to the ring at index at (wrapping). */
static void put(fgi_outbox *b, uint64_t at, const void *p, size_t n)
{
    size_t o = (size_t)(at & (b->size - 1)), first = FGI_MIN(n, (size_t)b->size - o);
    memcpy(b->bytes + o, p, first);
    memcpy(b->bytes, (const uint8_t *)p + first, n - first);
}

/* Puts n bytes at p in the ring as room allows, making each piece the supervisor's as it
 * goes; when the ring is full, nudges the supervisor once and waits. 0, or -1 when the
 * pipe is gone. */
static int put_all(fgi_outbox *b, int fd, const void *p, size_t n)
{
    uint64_t head = atomic_load_explicit(&b->head, memory_order_relaxed);
    int nudged = 0;
    while (n) {
        uint64_t used = head - atomic_load_explicit(&b->tail, ACQUIRE);
        if (used > b->size)
            return -1; /* not what the supervisor wrote */
        size_t room = (size_t)(b->size - used);
        if (!room) {
            if (!nudged && fgi_wire_send(fd, FGI_MSG_DRAIN, NULL, 0) != 0)
                return -1;
            nudged = 1;
            struct timespec t = {0, 50 * 1000};
            nanosleep(&t, NULL);
            continue;
        }
        nudged = 0;
        size_t k = FGI_MIN(n, room);
        put(b, head, p, k);
        head += k;
        atomic_store_explicit(&b->head, head, RELEASE);
        p = (const uint8_t *)p + k;
        n -= k;
    }
    return 0;
}

int fgi_outbox_send(fgi_outbox *b, int fd, uint32_t type, const void *body, size_t len)
{
    fgi_wire_head h = {type, (uint32_t)len};
    return put_all(b, fd, &h, sizeof h) != 0 || put_all(b, fd, body, len) != 0 ? -1 : 0;
}

int fgi_outbox_take(fgi_outbox *b, size_t size, fgi_str *to)
{
    uint64_t head = atomic_load_explicit(&b->head, ACQUIRE);
    uint64_t tail = atomic_load_explicit(&b->tail, memory_order_relaxed);
    if (head == tail)
        return 0;
    int ok = head - tail <= size; /* else not what the executor wrote */
    if (ok) {
        size_t n = (size_t)(head - tail), o = (size_t)(tail & (size - 1));
        size_t first = FGI_MIN(n, size - o);
        fgi_str_addn(to, (const char *)b->bytes + o, first);
        fgi_str_addn(to, (const char *)b->bytes, n - first);
        ok = !to->failed;
    }
    atomic_store_explicit(&b->tail, head, RELEASE);
    return ok ? 1 : -1;
}
