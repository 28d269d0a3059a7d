/* oracle/heap_table.c — the table of the blocks other threads than the owner allocated.
 *
 * The registry's `other`, always under its lock (its callers take it). Open addressing with
 * linear probing and backward-shift deletion (no tombstones, so no rebuilds while cases
 * come and go); a slot is live only when its mark is the table's epoch, so emptying it is
 * one increment, not a memset per case. Invariants: the capacity is 0 or a power of two,
 * at most half of it live (one more key grows it first); every live slot lies in the
 * unbroken run of live slots that starts at its key's home; `count` and `live` are the
 * live slots and the sum of their sizes.
 */
#include "oracle/heap_table.h"

#include <string.h>

FGI_HEAP_HOT size_t hash_ptr(uintptr_t p)
{
    return (size_t)(((uint64_t)p >> 4) * 0x9e3779b97f4a7c15ULL >> 20);
}

FGI_HEAP_HOT int in_use(const fgi_heap_table *t, const fgi_heap_slot *s)
{
    return s->key != 0 && s->mark == t->epoch;
}

/* Empties the table in O(1) (the blocks stay allocated). A table far larger than its
 * recent use (one case held many blocks) is given back, so later cases probe a small one. */
void fgi_heap_table_empty(fgi_heap_table *t)
{
    if (t->cap > 16 * FGI_HEAP_FIRST_CAP && t->high * 16 < t->cap) {
        FGI_REAL(free)(t->slots);
        t->slots = NULL;
        t->cap = 0;
    }
    t->high = 0;
    if (++t->epoch == 0) { /* wrapped: old marks could come back to life */
        if (t->slots)
            memset(t->slots, 0, t->cap * sizeof *t->slots);
        t->epoch = 1;
    }
    atomic_store_explicit(&t->count, 0, memory_order_relaxed);
    atomic_store_explicit(&t->live, 0, memory_order_relaxed);
}

static void place(fgi_heap_slot *slots, size_t cap, const fgi_heap_slot *s)
{
    size_t i = hash_ptr(s->key) & (cap - 1);
    while (slots[i].key && slots[i].mark == s->mark)
        i = (i + 1) & (cap - 1);
    slots[i] = *s;
}

/* Makes room so one more key keeps the table at most half full. */
static int grow(fgi_heap_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : FGI_HEAP_FIRST_CAP;
    fgi_heap_slot *s = FGI_REAL(calloc)(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (in_use(t, &t->slots[i])) {
            fgi_heap_slot moved = t->slots[i];
            moved.mark = 1;
            place(s, cap, &moved);
        }
    FGI_REAL(free)(t->slots);
    t->slots = s;
    t->cap = cap;
    t->epoch = 1;
    return 0;
}

/* Records s (its mark is set here). */
void fgi_heap_table_insert(fgi_heap_table *t, fgi_heap_slot s)
{
    size_t n = FGI_HEAP_COUNT(t) + 1;
    if (n * 2 > t->cap && grow(t) != 0)
        return; /* out of memory for the registry: the block goes unrecorded */
    if (n > t->high)
        t->high = n;
    s.mark = t->epoch;
    place(t->slots, t->cap, &s);
    fgi_heap_add_live(&t->count, &t->live, s.size, 1);
}

/* Removes the slot at i, shifting the rest of its cluster back over the hole. */
static void erase_at(fgi_heap_table *t, size_t i)
{
    size_t mask = t->cap - 1, j = i;
    fgi_heap_add_live(&t->count, &t->live, t->slots[i].size, -1);
    for (;;) {
        j = (j + 1) & mask;
        const fgi_heap_slot *s = &t->slots[j];
        if (!in_use(t, s))
            break;
        size_t home = hash_ptr(s->key) & mask;
        /* s stays when its home lies cyclically in (i, j]: the hole is before it */
        if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
            continue;
        t->slots[i] = *s;
        i = j;
    }
    t->slots[i].key = 0;
}

/* Removes p if recorded; returns 1 (and its slot) when it was. */
int fgi_heap_table_forget(fgi_heap_table *t, const void *p, fgi_heap_slot *out)
{
    if (!FGI_HEAP_COUNT(t))
        return 0;
    size_t mask = t->cap - 1, i = hash_ptr((uintptr_t)p) & mask;
    for (; in_use(t, &t->slots[i]); i = (i + 1) & mask)
        if (t->slots[i].key == (uintptr_t)p) {
            *out = t->slots[i];
            erase_at(t, i);
            return 1;
        }
    return 0;
}

void fgi_heap_table_each(const fgi_heap_table *t, unsigned first, unsigned n,
                         fgi_heap_block_fn *fn, void *ctx)
{
    for (size_t i = 0; FGI_HEAP_COUNT(t) && i < t->cap; i++) {
        const fgi_heap_slot *s = &t->slots[i];
        if (in_use(t, s) && s->gen - first < n)
            fn((void *)s->key, s->site, s->gen, ctx);
    }
}

void fgi_heap_table_drop_run(fgi_heap_table *t, unsigned gen)
{
    for (size_t i = 0; FGI_HEAP_COUNT(t) && i < t->cap;) {
        if (in_use(t, &t->slots[i]) && t->slots[i].gen == gen)
            erase_at(t, i); /* a later slot may have moved back into i */
        else
            i++;
    }
}
