/* targets/lib/ring.h — a fixed-capacity ring buffer of 32-bit values: push at the back,
 * pop at either end, read by position. The container the `ring` target tests by sequences
 * of calls (targets/lib/ring_model.h); its planted twin's bug is a flag here.
 *
 * Invariant: count <= RING_CAP, head < RING_CAP; the values, oldest first, are
 * slot[(head + i) % RING_CAP] for i < count; the next push writes slot (head + count) %
 * RING_CAP (the tail), which wraps to 0 after the last slot.
 * Built-in target code, linked into fuzzgate's own binaries only (not installed).
 */
#ifndef FG_TARGETS_RING_H
#define FG_TARGETS_RING_H

#include <stdint.h>

#define RING_CAP 64

typedef struct ring {
    uint32_t slot[RING_CAP];
    unsigned head;  /* the oldest value's slot */
    unsigned count; /* values held */
    int planted;    /* 1: pop_back has the planted off-by-one (test/planted/planted_ring.c) */
} ring;

void ring_init(ring *r, int planted);
/* Appends v; 0 when the ring is full (nothing changes), else 1. */
int ring_push(ring *r, uint32_t v);
/* Removes the oldest (pop) or newest (pop_back) value into *v; 0 when empty. */
int ring_pop(ring *r, uint32_t *v);
int ring_pop_back(ring *r, uint32_t *v);
/* The i-th oldest value into *v; 0 when i >= count. */
int ring_get(const ring *r, unsigned i, uint32_t *v);
void ring_clear(ring *r);

#endif
