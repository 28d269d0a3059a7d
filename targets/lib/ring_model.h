/* targets/lib/ring_model.h — the stateful test of the ring buffer (ring.h): a sequence of
 * calls read from the case's bytes with fg_reader, the ring checked after every call
 * against a model (a plain array, oldest first). The body of the `ring` target and of its
 * planted twin (docs/writing-targets.md, "Testing an API").
 *
 * An operation is a pick of RING_OPS, then its arguments:
 *   0 push(v)       v: fg_read_u32
 *   1 pop()         the oldest value
 *   2 pop_back()    the newest value
 *   3 get(i)        i: fg_read_range(0, RING_CAP - 1)
 *   4 clear()
 * until the bytes run out. So 00 2a 00 00 00 02 is
 * push(42), pop_back(); corpus/ring/ holds inputs written by hand this way.
 */
#ifndef FG_TARGETS_RING_MODEL_H
#define FG_TARGETS_RING_MODEL_H

#include "fuzzgate.h"

#define RING_OPS 5

/* Runs the operations of data[0..size) on a ring (planted: its twin's) and its model;
 * a disagreement is an FG_CHECK naming the invariant. Returns the case's signature. */
uint64_t ring_model_run(const uint8_t *data, size_t size, int planted);

#endif
