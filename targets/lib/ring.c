/* targets/lib/ring.c — the ring buffer (ring.h): one array, a head and a count. */
#include "targets/lib/ring.h"

#include <string.h>

void ring_init(ring *r, int planted)
{
    memset(r, 0, sizeof *r);
    r->planted = planted;
}

int ring_push(ring *r, uint32_t v)
{
    if (r->count == RING_CAP)
        return 0;
    r->slot[(r->head + r->count) % RING_CAP] = v;
    r->count++;
    return 1;
}

int ring_pop(ring *r, uint32_t *v)
{
    if (r->count == 0)
        return 0;
    *v = r->slot[r->head];
    r->head = (r->head + 1) % RING_CAP;
    r->count--;
    return 1;
}

int ring_pop_back(ring *r, uint32_t *v)
{
    if (r->count == 0)
        return 0;
    unsigned tail = (r->head + r->count) % RING_CAP; /* where the next push would go */
    /* The newest value is the slot before the tail. The planted twin steps back one slot
     * too far when the tail has wrapped to 0: only after a wrap-around, only here. */
    unsigned last = tail ? tail - 1 : RING_CAP - 1 - (r->planted ? 1 : 0);
    *v = r->slot[last];
    r->count--;
    return 1;
}

int ring_get(const ring *r, unsigned i, uint32_t *v)
{
    if (i >= r->count)
        return 0;
    *v = r->slot[(r->head + i) % RING_CAP];
    return 1;
}

void ring_clear(ring *r)
{
    r->head = r->count = 0;
}
