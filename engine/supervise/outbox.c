/* engine/supervise/outbox.c — the executor's record ring (outbox.h). */
#include "engine/supervise/outbox.h"

#include <string.h>

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

long fgi_outbox_put(fgi_outbox *b, const void *p, size_t n)
{
    uint64_t head = atomic_load_explicit(&b->head, memory_order_relaxed);
    uint64_t used = head - atomic_load_explicit(&b->tail, ACQUIRE);
    if (used > b->size)
        return -1; /* not what the supervisor wrote */
    size_t k = FGI_MIN(n, (size_t)(b->size - used));
    if (k) {
        put(b, head, p, k);
        atomic_store_explicit(&b->head, head + k, RELEASE);
    }
    return (long)k;
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
