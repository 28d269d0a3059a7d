/* oracle/heap_quarantine.c — the quarantine: the blocks of cases the engine ended, kept
 * allocated until the blocks of later ended cases push them out.
 *
 * A case the engine ends (an amplification refusal, a failed check: the case's frames are
 * gone) leaves its blocks behind. They are not freed: the target may have stored one
 * where a later case finds it (libxml2 keeps a copy of its last error; a library may
 * initialise itself lazily), and freeing it under the target turns that case's ordinary
 * free into a double free — a crash found in an innocent input. They go to the
 * quarantine instead, the run's blocks handed back still allocated and still headed (the
 * header's index says where in the quarantine): a later free or realloc of one takes it
 * out and does its work, and the oldest are really freed only when the quarantine holds
 * more than QUARANTINE_BYTES (the allocator's bytes, alignment included) or QUARANTINE_MAX
 * blocks (as ASan's quarantine bounds what it keeps). Only a block the target still
 * reaches after that many bytes of later ended cases is freed under it.
 *
 * Invariants, under the registry's lock: entries head .. n - 1 are the blocks in the order
 * they came, oldest first, a taken-out one 0; each live entry's block is headed, its index
 * FGI_HEAP_QUEUED | its entry; `live` and `bytes` count the live entries and the
 * allocator's bytes under them. A block leaves by being taken out (a free or realloc of it:
 * fgi_heap_unqueue) or evicted (its header's index FGI_HEAP_NO_ENTRY, its tag word the
 * link of a chain freed after the lock), never both.
 */
#include "oracle/heap_quarantine.h"

#include "oracle/heap_registry.h"

#define QUARANTINE_BYTES ((size_t)64 << 20) /* arbitrary: a few ended cases' worth */
#define QUARANTINE_MAX ((size_t)1 << 20)    /* blocks; its array is then 16 MiB */

typedef struct quarantine {
    struct held_block {
        uintptr_t p; /* the address the program sees; 0 once taken out */
        size_t size; /* the allocator's bytes under it (usable, header and any
                      * alignment lead): what it holds, not what was asked */
    } *b;
    size_t head;  /* the oldest entry that may be live */
    size_t n;     /* entries used; new ones are appended */
    size_t cap;   /* at most FGI_HEAP_QUEUED: an index fits beside the flag */
    size_t live;  /* live entries */
    size_t bytes; /* the allocator's bytes under them */
} quarantine;

/* The blocks of ended cases. Process-wide as the registry is (a free on any thread may
 * take one out); under the registry's lock. */
static quarantine queue;

/* Takes queued p out of the quarantine: 1, or 0 when the quarantine freed it already. */
int fgi_heap_unqueue(const void *p)
{
    quarantine *q = &queue;
    fgi_heap_lock();
    size_t i = fgi_heap_hdr_of(p)->idx & ~FGI_HEAP_QUEUED; /* read under the lock: compaction
                                                            * rewrites it */
    int there = i >= q->head && i < q->n && q->b[i].p == (uintptr_t)p;
    if (there) {
        q->b[i].p = 0;
        q->live--;
        q->bytes -= q->b[i].size;
        fgi_heap_hdr_of(p)->idx = FGI_HEAP_NO_ENTRY;
    }
    fgi_heap_unlock();
    return there;
}

/* Queued p leaves the quarantine to be freed: pushed on the chain *out (its link), which
 * also unheads it. Under the lock. */
static void evict(void *p, void **out)
{
    fgi_heap_hdr_of(p)->idx = FGI_HEAP_NO_ENTRY;
    fgi_heap_set_link(p, *out);
    *out = p;
}

/* Frees a chain of evicted blocks; after the lock, so no thread spins on it meanwhile. */
void fgi_heap_free_evicted(void *p)
{
    while (p) {
        void *next = fgi_heap_link_of(p);
        FGI_REAL(free)(fgi_heap_block_of(p));
        p = next;
    }
}

/* Drops taken-out entries from the front, and evicts the oldest blocks onto *out while the
 * quarantine is over its bounds. Under the lock. */
void fgi_heap_queue_trim(void **out)
{
    quarantine *q = &queue;
    while (q->head < q->n &&
           (!q->b[q->head].p || q->bytes > QUARANTINE_BYTES || q->live > QUARANTINE_MAX)) {
        struct held_block *h = &q->b[q->head++];
        if (h->p) {
            q->live--;
            q->bytes -= h->size;
            evict((void *)h->p, out);
            h->p = 0;
        }
    }
    if (q->head == q->n)
        q->head = q->n = 0;
}

/* Room for one more entry: the live ones moved to the front (their headers told) when at
 * most half are live, else a larger array. 0, or -1 when there is none. Under the lock. */
static int queue_room(void)
{
    quarantine *q = &queue;
    if (q->n < q->cap)
        return 0;
    if (q->cap && q->live <= q->cap / 2) {
        size_t k = 0;
        for (size_t i = q->head; i < q->n; i++) {
            if (!q->b[i].p)
                continue;
            q->b[k] = q->b[i];
            fgi_heap_hdr_of((void *)q->b[k].p)->idx = FGI_HEAP_QUEUED | (uint32_t)k;
            k++;
        }
        q->head = 0;
        q->n = k;
        return 0;
    }
    size_t cap = q->cap ? 2 * q->cap : FGI_HEAP_FIRST_CAP;
    if (cap >= FGI_HEAP_QUEUED) /* QUEUED | (QUEUED - 1) would be NO_ENTRY */
        return -1;
    struct held_block *b = FGI_REAL(realloc)(q->b, cap * sizeof *b);
    if (!b)
        return -1;
    q->b = b;
    q->cap = cap;
    return 0;
}

/* Puts headed p in the quarantine; with no room for it, evicts it onto *out at once. Under
 * the lock. */
void fgi_heap_queue_add(void *p, void **out)
{
    quarantine *q = &queue;
    if (queue_room() != 0) {
        evict(p, out);
        return;
    }
    size_t held = fgi_heap_headed_usable(p) + fgi_heap_lead_of(fgi_heap_hdr_of(p));
    q->b[q->n] = (struct held_block){(uintptr_t)p, held};
    fgi_heap_hdr_of(p)->idx = FGI_HEAP_QUEUED | (uint32_t)q->n;
    q->n++;
    q->live++;
    q->bytes += held;
}

/* The free of a queued block: out of the quarantine, then freed, unless the quarantine
 * freed it already. */
void fgi_heap_free_queued(void *p)
{
    if (fgi_heap_unqueue(p))
        FGI_REAL(free)(fgi_heap_block_of(p));
}

size_t fgi_heap_quarantined(size_t *blocks)
{
    fgi_heap_lock();
    size_t bytes = queue.bytes;
    if (blocks)
        *blocks = queue.live;
    fgi_heap_unlock();
    return bytes;
}
