/* targets/lib/ring_model.c — the ring buffer against its model, one call at a time
 * (ring_model.h). */
#include "targets/lib/ring_model.h"

#include "targets/lib/ring.h"

#include <string.h>

/* The model: the values, oldest first, in a plain array; nothing wraps. */
typedef struct model {
    uint32_t v[RING_CAP];
    unsigned n;
    uint32_t pushes; /* pushes so far: each value pushed is tagged with it (step) */
} model;

static const char *const op_names[RING_OPS] = {"push", "pop", "pop_back", "get", "clear"};

/* The whole of the ring against the model: the count, and every value by position. */
static void check_same(const ring *r, const model *m, const char *op)
{
    FG_CHECK(r->count == m->n, "after %s the ring holds %u values, the model %u", op,
             r->count, m->n);
    for (unsigned i = 0; i < m->n; i++) {
        uint32_t v = 0;
        FG_CHECK(ring_get(r, i, &v) && v == m->v[i],
                 "after %s value %u of the ring is not the model's", op, i);
    }
}

/* One operation: the ring's answer against the model's, then the whole state. */
static void step(ring *r, model *m, fg_reader *in, size_t op)
{
    uint32_t v = 0, want;
    int ok;
    switch (op) {
    case 0:
        /* The argument plus a serial number: no two pushes of a case store the same
         * value, so a value read from the wrong slot can never pass for the right one. */
        v = fg_read_u32(in) + m->pushes++;
        ok = ring_push(r, v);
        FG_CHECK(ok == (m->n < RING_CAP), "push is refused exactly when the ring is full");
        if (m->n < RING_CAP)
            m->v[m->n++] = v;
        break;
    case 1:
        ok = ring_pop(r, &v);
        FG_CHECK(ok == (m->n > 0), "pop fails exactly when the ring is empty");
        if (ok) {
            FG_CHECK(v == m->v[0], "pop returns the oldest value");
            memmove(m->v, m->v + 1, --m->n * sizeof m->v[0]);
        }
        break;
    case 2:
        ok = ring_pop_back(r, &v);
        FG_CHECK(ok == (m->n > 0), "pop_back fails exactly when the ring is empty");
        if (ok) {
            want = m->v[--m->n];
            FG_CHECK(v == want, "pop_back returns the newest value (%u, not %u)", want, v);
        }
        break;
    case 3: {
        unsigned i = (unsigned)fg_read_range(in, 0, RING_CAP - 1);
        ok = ring_get(r, i, &v);
        FG_CHECK(ok == (i < m->n), "get(i) fails exactly when i is past the count");
        break;
    }
    default:
        ring_clear(r);
        m->n = 0;
        break;
    }
    check_same(r, m, op_names[op]);
}

uint64_t ring_model_run(const uint8_t *data, size_t size, int planted)
{
    ring r;
    model m = {{0}, 0, 0};
    ring_init(&r, planted);
    fg_reader in = fg_reader_of(data, size);
    uint64_t seen = 0; /* the (operation, count bucket after it) pairs this case reached */
    while (fg_read_left(&in)) {
        size_t op = fg_read_pick(&in, RING_OPS);
        step(&r, &m, &in, op);
        unsigned pair = (unsigned)op * 8 + fg_bucket(m.n, 7); /* 5 x 6 buckets: < 64 */
        if (!(seen & (1ULL << pair)))
            fg_feature(pair); /* each pair a feature, once a case */
        seen |= 1ULL << pair;
    }
    return fg_sig(fg_bucket(m.n, 7), fg_bucket(r.head, 7)); /* how full, and where from */
}
