/* oracle/heap.c — the interposed malloc family and the registry of a case's live blocks.
 *
 * The registry has two sides. The owner — the thread that armed it (the thread running
 * the case, and between the runs of a retention check the engine on that same thread) —
 * keeps its blocks in `own`, a list only it touches, with no lock; every other thread's
 * blocks are in `other`, a hash table under `lock`.
 *
 * A block the owner allocates while armed carries a 16-byte header just before the
 * address the program sees: the index of its entry in `own`, the distance back to the
 * allocator's block, and a tag, the block's address xor a constant with the top bit set.
 * Where the allocator underneath keeps its own word before a block — glibc's chunk size,
 * always below 2^63; ASan's chunk header — no tag can stand, so a free reads one word to
 * know a headed block, and the header's index finds its entry: no search, no hash. The
 * header stays with the block after the case (a block the target keeps is freed, moved
 * and measured, by malloc_usable_size, through the header whenever that happens). Under
 * ASan the header is poisoned, so an underflow into it is still reported.
 *
 * `own` is an array of entries; a free clears its block's entry and chains it on a list of
 * spare entries, which the next allocation takes before it appends (so the array grows to
 * the most blocks live at once, and no entry ever moves). Emptying it is two stores.
 *
 * A block crosses over in two ways:
 *   - the owner frees (or moves) another thread's block: it is not headed, so the owner
 *     finds it in `other`, under the lock, when `other` holds anything;
 *   - another thread frees (or moves) a headed block while `own` holds anything: it cannot
 *     touch `own`, so the free is deferred — the block is pushed on `remote`, a lock-free
 *     stack threaded through the blocks themselves — and the owner clears its entry and
 *     really frees it at its next call or at disarm. Realloc becomes malloc, copy,
 *     deferred free.
 *
 * Registry invariant: while armed, own ∪ other holds exactly the blocks allocated since
 * fgi_heap_arm (since the first arm after fgi_heap_hold(1), while held) and not yet freed
 * (a deferred free counts once the owner takes it from `remote`), each with its requested
 * size and the run that allocated it; `live` of each side is the sum of its sizes, `base`
 * the total when the current run was armed, and the run's peak the maximum of the total
 * minus base (the owner's and other threads' views, each taken at their own calls).
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
 * `other` is open addressing with linear probing and backward-shift deletion (no
 * tombstones, so no rebuilds while cases come and go); a slot is live only when its mark
 * is the table's epoch, so emptying it is one increment, not a memset per case.
 */
#include "oracle/heap.h"

#include "engine/base/real_alloc.h"
#include "oracle/case.h"
#include "oracle/frames.h"

#include <malloc.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The header of a block the owner allocated while armed, just before the address the
 * program sees (p). */
typedef struct hdr {
    uint32_t idx;   /* its entry in `own`, QUEUED | its place in the quarantine, or NO_ENTRY */
    uint32_t shift; /* log2 of the bytes from the allocator's block to p: HDR_SHIFT, or an
                     * alignment's when one larger than the header was asked for */
    uint64_t tag;   /* TAG(p, shift); the chain's link while its free is deferred */
} hdr;

#define HDR_SHIFT 4 /* the header's 16 bytes: p keeps the allocator's 16-byte alignment */
#define NO_ENTRY UINT32_MAX
#define QUEUED 0x80000000u /* an index with this bit (and not NO_ENTRY): the quarantine's */
#define QUARANTINE_BYTES ((size_t)64 << 20) /* arbitrary: a few ended cases' worth */
#define QUARANTINE_MAX ((size_t)1 << 20)    /* blocks; its array is then 16 MiB */
#define NO_SPARE SIZE_MAX /* the end of the spare entries' chain */
/* Top bit set: a glibc chunk size is never this large, so no unheaded block carries a
 * valid tag. The rest are arbitrary bits; the tag is never written to a report. The shift
 * is folded in (bits 48..53), so a target's write just before its block that changes the
 * shift unheads the block (its free then fails in the allocator, as such a bug should)
 * rather than sending a wild address to the allocator. */
#define TAG_KEY 0xd1b54a32d192ed03ULL
#define TAG(p, shift) ((uint64_t)(uintptr_t)(p) ^ TAG_KEY ^ (uint64_t)(shift) << 48)

_Static_assert(sizeof(hdr) == (size_t)1 << HDR_SHIFT, "the header is 16 bytes");

/* An entry of `own`. */
typedef struct entry {
    uintptr_t p;    /* the address the program sees; 0 once freed */
    size_t size;    /* requested bytes */
    uintptr_t site; /* return address of the allocating call */
    unsigned gen;   /* the run that allocated it (held registries keep several) */
} entry;

typedef struct list {
    entry *e;
    size_t n;             /* entries ever used since it was last emptied */
    size_t cap;
    size_t spare;         /* the first freed entry, its `size` the next one's; NO_SPARE */
    _Atomic size_t count; /* live blocks; read by other threads without a lock */
    _Atomic size_t live;  /* live bytes; likewise */
} list;

typedef struct slot {
    uintptr_t key;  /* the block's address; 0 empty */
    size_t size;    /* requested bytes */
    uintptr_t site; /* return address of the allocating call */
    unsigned gen;   /* the run that allocated it (held registries keep several) */
    unsigned mark;  /* the table's epoch when written: any other epoch's slot is empty */
} slot;

typedef struct table {
    slot *slots;          /* capacity a power of two, or NULL */
    size_t cap;
    size_t high;          /* the most live blocks since it was last emptied */
    _Atomic size_t count; /* live blocks; read by the other side without its lock */
    _Atomic size_t live;  /* live bytes; likewise */
    unsigned epoch;       /* never 0: calloc'd slots are empty */
} table;

/* The blocks of ended cases, oldest first (see the top of the file); under `lock`. */
typedef struct quarantine {
    struct held_block {
        uintptr_t p; /* the address the program sees; 0 once taken out */
        size_t size; /* the allocator's bytes under it (usable, header and any
                      * alignment lead): what it holds, not what was asked */
    } *b;
    size_t head;  /* the oldest entry that may be live */
    size_t n;     /* entries used; new ones are appended */
    size_t cap;   /* at most QUEUED: an index fits beside the flag */
    size_t live;  /* live entries */
    size_t bytes; /* the allocator's bytes under them */
} quarantine;

/* `armed`: OFF forwards everything; ARMED_ON records allocations and frees; HELD (between
 * the runs of a retention check) records frees only, so a block an earlier run left and
 * another thread frees meanwhile leaves the registry. */
enum { OFF = 0, ARMED_ON = 1, HELD = 2 };

/* Process-wide because malloc has no context argument: every thread's allocations come
 * through here. `armed` and `owner` are read on every call without the lock; `own`, `base`,
 * `peak`, `allowance`, `hold` and `gen` are the owner's (written only while no other thread
 * reads them: at arm, before the release store of `armed`, or by the owner itself); `other`
 * and the refusal are under `lock`. */
static struct {
    atomic_int armed;          /* OFF, ARMED_ON or HELD */
    const char *_Atomic owner; /* the owner's heap_thread, set at arm */
    atomic_flag lock;          /* guards `other`, other_peak and the refusal */
    _Atomic(void *) remote;    /* headed blocks other threads freed, waiting for the owner */
    _Atomic size_t deferred;   /* their usable bytes: live no more, though still counted */
    list own;
    table other;
    quarantine q;              /* under `lock` */
    size_t base;               /* total live bytes when this run was armed (held blocks) */
    size_t peak;               /* peak total - base this run, seen by the owner */
    size_t other_peak;         /* the same, seen by other threads (under the lock) */
    int hold;                  /* disarming keeps the registry (fgi_heap_hold) */
    unsigned gen;              /* the current run, counted while held */
    size_t allowance;          /* the case's limit on live bytes */
    int refused;               /* an allocation was refused where the case could not end */
    size_t refused_size;
} heap = {.own.spare = NO_SPARE, .other.epoch = 1};

/* Its address tells each thread apart; no value is ever stored. */
static _Thread_local char heap_thread;

/* The malloc family below is weak: in a dynamic link the program's definition is found
 * first whatever its binding, so it interposes as a strong one would; in a -static link
 * libc.a's malloc.o (pulled in for __libc_malloc) defines the same names strongly and
 * wins, where two strong definitions would not link at all. The heap oracles then see
 * no allocation, and fgi_heap_interposed says so. */
#define INTERPOSED __attribute__((weak))

/* The hot path's helpers are inlined whatever the optimiser's budget says. */
#define HOT static inline __attribute__((always_inline))
#define FIRST_CAP 64 /* slots of a new table, entries of a new list: 2 KiB, so a case with
                      * few blocks stays in the first-level cache */

#define RELAXED memory_order_relaxed
#define STATE() atomic_load_explicit(&heap.armed, RELAXED)
#define ARMED() (STATE() == ARMED_ON)
#define OWNER() (atomic_load_explicit(&heap.owner, RELAXED) == &heap_thread)
#define SITE() ((uintptr_t)__builtin_return_address(0))
#define COUNT(t) atomic_load_explicit(&(t)->count, RELAXED)
#define LIVE(t) atomic_load_explicit(&(t)->live, RELAXED)

static void lock(void)
{
    while (atomic_flag_test_and_set_explicit(&heap.lock, memory_order_acquire))
        ;
}

static void unlock(void)
{
    atomic_flag_clear_explicit(&heap.lock, memory_order_release);
}

HOT void add_live(_Atomic size_t *count, _Atomic size_t *live, size_t bytes, int sign)
{
    size_t c = atomic_load_explicit(count, RELAXED), l = atomic_load_explicit(live, RELAXED);
    atomic_store_explicit(count, sign > 0 ? c + 1 : c - 1, RELAXED);
    atomic_store_explicit(live, sign > 0 ? l + bytes : l - bytes, RELAXED);
}

/* ---- headed blocks ----------------------------------------------------------------- */

#ifdef FGI_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
#define POISON(b, n) __asan_poison_memory_region((b), (n))
#else
#define POISON(b, n) ((void)(b), (void)(n))
#endif

HOT hdr *hdr_of(const void *p)
{
    return (hdr *)((uintptr_t)p - sizeof(hdr));
}

/* 1 when p carries a header. Reads the 16 bytes before p, where an unheaded block has the
 * allocator's own header (glibc's two size words, ASan's chunk header); copied, not
 * loaded through a pointer: free of a misaligned address, a target's bug, must still
 * reach the allocator to be reported as the crash it is. */
HOT int headed(const void *p)
{
    hdr h;
    memcpy(&h, (const char *)p - sizeof h, sizeof h);
    return h.tag == TAG(p, h.shift) && h.shift < 64;
}

/* The next block of a chain threaded through the blocks' tag words (frees deferred to
 * the owner, evictions from the quarantine): a block on one is unheaded until it is freed,
 * and a block of 0 bytes has no room of its own for the link. */
HOT void *link_of(const void *p)
{
    void *next;
    memcpy(&next, &hdr_of(p)->tag, sizeof next);
    return next;
}

HOT void set_link(void *p, void *next)
{
    memcpy(&hdr_of(p)->tag, &next, sizeof next);
}

HOT size_t lead_of(const hdr *h)
{
    return (size_t)1 << h->shift;
}

/* The allocator's block under headed p. */
HOT void *block_of(const void *p)
{
    return (void *)((uintptr_t)p - lead_of(hdr_of(p)));
}

/* Writes p's header. */
HOT void stamp(void *p, unsigned shift, uint32_t idx)
{
    hdr *h = hdr_of(p);
    h->idx = idx;
    h->shift = shift;
    h->tag = TAG(p, shift);
    POISON((char *)p - ((size_t)1 << shift), (size_t)1 << shift);
}

/* The allocator's block for a headed block of `size` bytes aligned to 2^shift (shift at
 * least HDR_SHIFT), zeroed when `zero`; the header is not yet written. NULL (errno set)
 * when there is none. */
HOT void *raw_alloc(size_t size, unsigned shift, int zero)
{
    size_t lead = (size_t)1 << shift;
    if (size > SIZE_MAX - lead)
        return errno = ENOMEM, NULL;
    if (shift != HDR_SHIFT)
        return FGI_REAL(memalign)(lead, size + lead);
    return zero ? FGI_REAL(calloc)(1, size + lead) : FGI_REAL(malloc)(size + lead);
}

/* The bytes the program may use at headed p (its shift read, not its tag). */
static size_t headed_usable(void *p)
{
    return fgi_real_usable(block_of(p)) - lead_of(hdr_of(p));
}

/* The bytes the program may use at p, headed or not. */
static size_t usable_of(void *p)
{
    return headed(p) ? headed_usable(p) : fgi_real_usable(p);
}

/* Frees p, headed or not, to the allocator underneath. */
HOT void raw_free(void *p)
{
    FGI_REAL(free)(headed(p) ? block_of(p) : p);
}

/* A headed block of `size` (entry idx) holding what p held, then p freed; NULL (p kept)
 * when there is none. For a block that cannot be resized in place: an aligned one, or one
 * without a header. */
static void *copy_into_headed(void *p, size_t size, uint32_t idx)
{
    void *b = raw_alloc(size, HDR_SHIFT, 0);
    if (!b)
        return NULL;
    void *q = (char *)b + ((size_t)1 << HDR_SHIFT);
    size_t have = usable_of(p);
    memcpy(q, p, have < size ? have : size);
    raw_free(p);
    stamp(q, HDR_SHIFT, idx);
    return q;
}

/* 1 when headed p was put in the quarantine (it may have been freed since). */
HOT int queued(const void *p)
{
    uint32_t i = hdr_of(p)->idx;
    return i >= QUEUED && i != NO_ENTRY;
}

static int unqueue(const void *p);

/* Resizes headed p to `size`, entry idx; NULL (p kept) when it cannot. */
static void *headed_resize(void *p, size_t size, uint32_t idx)
{
    if (queued(p) && !unqueue(p))
        return errno = ENOMEM, NULL; /* the quarantine freed it: nothing left to move */
    if (hdr_of(p)->shift != HDR_SHIFT)
        return copy_into_headed(p, size, idx);
    size_t lead = (size_t)1 << HDR_SHIFT;
    if (size > SIZE_MAX - lead)
        return errno = ENOMEM, NULL;
    void *b = FGI_REAL(realloc)(block_of(p), size + lead);
    if (!b)
        return NULL;
    void *q = (char *)b + lead;
    stamp(q, HDR_SHIFT, idx);
    return q;
}

/* ---- the owner's list ------------------------------------------------------------- */

static void own_empty(void)
{
    list *l = &heap.own;
    if (l->cap > 16 * FIRST_CAP && l->n * 16 < l->cap) {
        FGI_REAL(free)(l->e);
        l->e = NULL;
        l->cap = 0;
    }
    l->n = 0;
    l->spare = NO_SPARE;
    atomic_store_explicit(&l->count, 0, RELAXED);
    atomic_store_explicit(&l->live, 0, RELAXED);
}

/* Doubles the array. 0, or -1 when out of memory (or of 32-bit indices). */
static int own_grow(void)
{
    list *l = &heap.own;
    size_t cap = l->cap ? l->cap * 2 : FIRST_CAP;
    if (cap > QUEUED) /* an index must not reach the quarantine's flag */
        return -1;
    entry *e = FGI_REAL(realloc)(l->e, cap * sizeof *e);
    if (!e)
        return -1;
    l->e = e;
    l->cap = cap;
    return 0;
}

/* Takes an entry for headed p (a spare one first); returns its index, or NO_ENTRY when
 * there is no room (the block goes unrecorded). */
HOT uint32_t own_add(void *p, size_t size, uintptr_t site)
{
    list *l = &heap.own;
    size_t i = l->spare;
    if (i != NO_SPARE) {
        l->spare = l->e[i].size;
    } else {
        if (l->n == l->cap && own_grow() != 0)
            return NO_ENTRY;
        i = l->n++;
    }
    l->e[i] = (entry){(uintptr_t)p, size, site, heap.gen};
    add_live(&l->count, &l->live, size, 1);
    return (uint32_t)i;
}

/* The index of headed p's entry in `own`, or NO_ENTRY when it has none (a block of an
 * earlier case, or of a registry since emptied). */
HOT uint32_t own_find(const void *p)
{
    uint32_t i = hdr_of(p)->idx;
    return i < heap.own.n && heap.own.e[i].p == (uintptr_t)p ? i : NO_ENTRY;
}

/* Clears entry i and makes it the first spare one. */
HOT void own_clear(uint32_t i)
{
    entry *e = &heap.own.e[i];
    add_live(&heap.own.count, &heap.own.live, e->size, -1);
    e->p = 0;
    e->size = heap.own.spare;
    heap.own.spare = i;
}

/* Clears headed p's entry if it has one. */
HOT void own_forget(const void *p)
{
    uint32_t i = own_find(p);
    if (i != NO_ENTRY)
        own_clear(i);
}

/* ---- the quarantine: ended cases' blocks, under the lock ------------------------- */

/* Takes queued p out of the quarantine: 1, or 0 when the quarantine freed it already. */
static int unqueue(const void *p)
{
    quarantine *q = &heap.q;
    lock();
    size_t i = hdr_of(p)->idx & ~QUEUED; /* read under the lock: compaction rewrites it */
    int there = i >= q->head && i < q->n && q->b[i].p == (uintptr_t)p;
    if (there) {
        q->b[i].p = 0;
        q->live--;
        q->bytes -= q->b[i].size;
        hdr_of(p)->idx = NO_ENTRY;
    }
    unlock();
    return there;
}

/* Queued p leaves the quarantine to be freed: pushed on the chain *out (link_of), which
 * also unheads it. Under the lock. */
static void evict(void *p, void **out)
{
    hdr_of(p)->idx = NO_ENTRY;
    set_link(p, *out);
    *out = p;
}

/* Frees a chain of evicted blocks; after the lock, so no thread spins on it meanwhile. */
static void free_evicted(void *p)
{
    while (p) {
        void *next = link_of(p);
        FGI_REAL(free)(block_of(p));
        p = next;
    }
}

/* Drops taken-out entries from the front, and evicts the oldest blocks onto *out while the
 * quarantine is over its bounds. Under the lock. */
static void queue_trim(void **out)
{
    quarantine *q = &heap.q;
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
    quarantine *q = &heap.q;
    if (q->n < q->cap)
        return 0;
    if (q->cap && q->live <= q->cap / 2) {
        size_t k = 0;
        for (size_t i = q->head; i < q->n; i++) {
            if (!q->b[i].p)
                continue;
            q->b[k] = q->b[i];
            hdr_of((void *)q->b[k].p)->idx = QUEUED | (uint32_t)k;
            k++;
        }
        q->head = 0;
        q->n = k;
        return 0;
    }
    size_t cap = q->cap ? 2 * q->cap : FIRST_CAP;
    if (cap >= QUEUED) /* QUEUED | (QUEUED - 1) would be NO_ENTRY */
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
static void queue_add(void *p, void **out)
{
    quarantine *q = &heap.q;
    if (queue_room() != 0) {
        evict(p, out);
        return;
    }
    size_t held = headed_usable(p) + lead_of(hdr_of(p));
    q->b[q->n] = (struct held_block){(uintptr_t)p, held};
    hdr_of(p)->idx = QUEUED | (uint32_t)q->n;
    q->n++;
    q->live++;
    q->bytes += held;
}

/* The free of a queued block: out of the quarantine, then freed, unless the quarantine
 * freed it already. */
__attribute__((noinline)) static void free_queued(void *p)
{
    if (unqueue(p))
        FGI_REAL(free)(block_of(p));
}

/* ---- the other threads' table: under the lock ------------------------------------ */

HOT size_t hash_ptr(uintptr_t p)
{
    return (size_t)(((uint64_t)p >> 4) * 0x9e3779b97f4a7c15ULL >> 20);
}

HOT int in_use(const table *t, const slot *s)
{
    return s->key != 0 && s->mark == t->epoch;
}

/* Empties the table in O(1) (the blocks stay allocated). A table far larger than its
 * recent use (one case held many blocks) is given back, so later cases probe a small one. */
static void empty(table *t)
{
    if (t->cap > 16 * FIRST_CAP && t->high * 16 < t->cap) {
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
    atomic_store_explicit(&t->count, 0, RELAXED);
    atomic_store_explicit(&t->live, 0, RELAXED);
}

static void place(slot *slots, size_t cap, const slot *s)
{
    size_t i = hash_ptr(s->key) & (cap - 1);
    while (slots[i].key && slots[i].mark == s->mark)
        i = (i + 1) & (cap - 1);
    slots[i] = *s;
}

/* Makes room so one more key keeps the table at most half full. */
static int grow(table *t)
{
    size_t cap = t->cap ? t->cap * 2 : FIRST_CAP;
    slot *s = FGI_REAL(calloc)(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (in_use(t, &t->slots[i])) {
            slot moved = t->slots[i];
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
static void insert(table *t, slot s)
{
    size_t n = COUNT(t) + 1;
    if (n * 2 > t->cap && grow(t) != 0)
        return; /* out of memory for the registry: the block goes unrecorded */
    if (n > t->high)
        t->high = n;
    s.mark = t->epoch;
    place(t->slots, t->cap, &s);
    add_live(&t->count, &t->live, s.size, 1);
}

/* Removes the slot at i, shifting the rest of its cluster back over the hole. */
static void erase_at(table *t, size_t i)
{
    size_t mask = t->cap - 1, j = i;
    add_live(&t->count, &t->live, t->slots[i].size, -1);
    for (;;) {
        j = (j + 1) & mask;
        const slot *s = &t->slots[j];
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
static int forget(table *t, const void *p, slot *out)
{
    if (!COUNT(t))
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

/* Removes p from `other` if it is there; returns 1 (and its slot) when it was. Either
 * side. */
static int other_forget(const void *p, slot *out)
{
    if (!COUNT(&heap.other))
        return 0;
    lock();
    int found = forget(&heap.other, p, out);
    unlock();
    return found;
}

/* Puts back a slot the owner took from `other` for a move that did not happen (the owner's
 * state cannot change meanwhile: only the owner changes it). */
static void other_restore(const slot *s)
{
    lock();
    insert(&heap.other, *s);
    unlock();
}

/* ---- the accounting both sides share --------------------------------------------- */

/* This run's live bytes, before the clamp at 0: the total of both sides, less the blocks
 * other threads freed that wait for the owner, less `base`. Signed: a held run that freed
 * an earlier run's blocks is below its base. A block another thread freed is no longer
 * counted while it waits (a case blocked in pthread_join must not have its worker refused
 * for memory the worker already gave back); its usable size stands for its size there,
 * which errs by a few bytes toward admitting, never toward a false refusal. */
HOT int64_t run_excess(void)
{
    size_t total = LIVE(&heap.own) + LIVE(&heap.other);
    size_t gone = atomic_load_explicit(&heap.deferred, RELAXED);
    return (int64_t)total - (int64_t)gone - (int64_t)heap.base;
}

HOT size_t clamp_live(int64_t excess)
{
    return excess > 0 ? (size_t)excess : 0;
}

/* This run's live bytes. */
HOT size_t run_live(void)
{
    return clamp_live(run_excess());
}

/* 1 when `extra` more live bytes stay within the allowance, this run's excess being `now`.
 * Blocks that earlier runs of a held registry left are not this run's: only total - base
 * counts. */
HOT int fits_at(int64_t now, size_t extra)
{
    return extra <= heap.allowance && clamp_live(now) <= heap.allowance - extra;
}

HOT int fits(size_t extra)
{
    return fits_at(run_excess(), extra);
}

HOT void raise_peak(size_t *peak)
{
    size_t now = run_live();
    if (now > *peak)
        *peak = now;
}

/* Refuses an allocation that would pass the allowance. On the case's own thread this
 * does not return: the case ends as an amplification finding. */
static void refuse(size_t size, uintptr_t site)
{
    size_t live = run_live(), allowance = heap.allowance;
    lock();
    heap.refused = 1;
    heap.refused_size = size;
    unlock();
    if (fgi_case_on_thread()) {
        char where[128];
        fgi_frames_site_name(site, where, sizeof where);
        fgi_case_end("amplification", where,
                     "an allocation of %zu bytes, with %zu bytes live, would pass the "
                     "case's allowance of %zu bytes (at %s)",
                     size, live, allowance, where);
    }
}

/* ---- the owner's side: no lock unless a block crosses over ----------------------- */

static void drain_now(void);

/* Takes the blocks other threads freed: their entries cleared, then really freed. */
HOT void drain(void)
{
    if (atomic_load_explicit(&heap.remote, RELAXED))
        drain_now();
}

static void drain_now(void)
{
    void *p = atomic_exchange_explicit(&heap.remote, NULL, memory_order_acquire);
    while (p) { /* each headed, its tag word the link (defer_free) */
        void *next = link_of(p);
        size_t usable = headed_usable(p);
        int mine = queued(p) ? unqueue(p) : (own_forget(p), 1); /* released meanwhile */
        atomic_fetch_sub_explicit(&heap.deferred, usable, RELAXED); /* after: never counted
                                                                     * twice as gone */
        if (mine)
            FGI_REAL(free)(block_of(p));
        p = next;
    }
}

/* The owner's block of `size` was recorded, admitted when this run's excess was `now`: the
 * peak is now + size, as run_live would read it after the record (only the owner changes
 * `own`; another thread's change in between is seen at its own call). */
HOT void own_peak(int64_t now, size_t size)
{
    size_t live = clamp_live(now + (int64_t)size);
    if (live > heap.peak)
        heap.peak = live;
}

/* Records the owner's new block, the allocator's block b, admitted when this run's excess
 * was `now`: stamps its header and returns the address the program sees. */
HOT void *own_record(void *b, unsigned shift, size_t size, uintptr_t site, int64_t now)
{
    void *p = (char *)b + ((size_t)1 << shift);
    stamp(p, shift, own_add(p, size, site));
    own_peak(now, size);
    return p;
}

/* The owner's allocation of `size` aligned to 2^shift (zeroed when `zero`) while armed:
 * checked against the allowance first (a refusal ends the case), then headed and
 * recorded. */
HOT void *own_alloc(size_t size, unsigned shift, int zero, uintptr_t site)
{
    drain();
    int64_t now = run_excess();
    if (!fits_at(now, size)) {
        refuse(size, site); /* on the case's thread, does not return */
        return errno = ENOMEM, NULL;
    }
    void *b = raw_alloc(size, shift, zero);
    return b ? own_record(b, shift, size, site, now) : NULL;
}

/* ---- every other thread's side: under the lock ----------------------------------- */

/* Records a block another thread allocated, after the exact check; a block the check
 * refuses is freed again. Never headed: only the owner's blocks are. */
static void *other_record(void *p, size_t size, uintptr_t site)
{
    if (!p)
        return p;
    lock();
    /* The case may have ended just before: the block is not the next case's, so it is
     * not recorded once the registry is disarmed. */
    if (!ARMED()) {
        unlock();
        return p;
    }
    if (!fits(size)) {
        unlock();
        FGI_REAL(free)(p);
        refuse(size, site);
        return errno = ENOMEM, NULL;
    }
    insert(&heap.other, (slot){(uintptr_t)p, size, site, heap.gen, 0});
    raise_peak(&heap.other_peak);
    unlock();
    return p;
}

/* Pushes headed p on `remote`. The link goes in the header's tag word, not in the block:
 * a block of 0 bytes has no room for it (under ASan its end is the next chunk's header). */
static void defer_free(void *p)
{
    atomic_fetch_add_explicit(&heap.deferred, usable_of(p), RELAXED);
    void *head = atomic_load_explicit(&heap.remote, RELAXED);
    do
        set_link(p, head);
    while (!atomic_compare_exchange_weak_explicit(&heap.remote, &head, p,
                                                  memory_order_release, RELAXED));
}

/* ---- the interposed family --------------------------------------------------------- */

/* The shift of a block aligned to `align`: the header's, or the alignment's when larger
 * (rounded up to a power of two, as glibc rounds it). */
static unsigned shift_for(size_t align)
{
    unsigned shift = HDR_SHIFT;
    while (shift < 63 && ((size_t)1 << shift) < align)
        shift++;
    return shift;
}

/* An allocation of `size` by any thread while armed: the owner's is headed (aligned to
 * 2^shift), another thread's is `call` on the allocator underneath, recorded in `other`. */
#define ALLOCATE(call, size, shift, zero, site)                                            \
    do {                                                                                   \
        if (OWNER())                                                                       \
            return own_alloc((size), (shift), (zero), (site));                             \
        if ((size) > heap.allowance) {                                                     \
            refuse((size), (site));                                                        \
            return errno = ENOMEM, NULL;                                                   \
        }                                                                                  \
        return other_record((call), (size), (site));                                       \
    } while (0)

/* The armed side of alloc_at. Out of line: the registry's path saves registers, and the
 * far more common disarmed call (every allocation outside a case) then needs no frame —
 * a load, a test and a jump to the allocator. */
__attribute__((noinline)) static void *alloc_armed(size_t size, uintptr_t site)
{
    ALLOCATE(FGI_REAL(malloc)(size), size, HDR_SHIFT, 0, site);
}

/* malloc of size for the caller at site, by any thread (also realloc's moves across). */
HOT void *alloc_at(size_t size, uintptr_t site)
{
    if (!ARMED())
        return FGI_REAL(malloc)(size);
    return alloc_armed(size, site);
}

INTERPOSED void *malloc(size_t size)
{
    return alloc_at(size, SITE());
}

/* A headed block's free: its entry cleared by the owner, deferred to the owner when
 * another thread frees it while `own` may hold it. */
HOT void free_headed(void *p)
{
    if (__builtin_expect(queued(p), 0)) {
        free_queued(p);
        return;
    }
    if (STATE() != OFF) {
        if (OWNER()) {
            drain();
            own_forget(p);
        } else if (COUNT(&heap.own)) {
            defer_free(p);
            return;
        }
    }
    FGI_REAL(free)(block_of(p));
}

/* An unheaded block's free while the registry is armed or held: out of line, so that
 * free outside a case needs no frame (as alloc_armed). */
__attribute__((noinline)) static void free_recorded(void *p)
{
    slot s;
    other_forget(p, &s);
    FGI_REAL(free)(p);
}

INTERPOSED void free(void *p)
{
    if (!p)
        return;
    if (headed(p)) {
        free_headed(p);
        return;
    }
    if (STATE() != OFF) {
        free_recorded(p);
        return;
    }
    FGI_REAL(free)(p);
}

/* C23's sized frees, for a C library that has them: the size is a hint, the block's own
 * free is the same. */
void free_sized(void *p, size_t size);
void free_aligned_sized(void *p, size_t align, size_t size);

INTERPOSED void free_sized(void *p, size_t size)
{
    (void)size;
    free(p);
}

INTERPOSED void free_aligned_sized(void *p, size_t align, size_t size)
{
    (void)align;
    (void)size;
    free(p);
}

INTERPOSED void *calloc(size_t n, size_t size)
{
    if (!ARMED())
        return FGI_REAL(calloc)(n, size);
    size_t total;
    if (__builtin_mul_overflow(n, size, &total))
        return errno = ENOMEM, NULL;
    ALLOCATE(FGI_REAL(calloc)(n, size), total, HDR_SHIFT, 1, SITE());
}

INTERPOSED size_t malloc_usable_size(void *p)
{
    return p ? usable_of(p) : 0;
}

/* Another thread moves a block that may be the owner's: malloc, copy, free (deferred
 * when it must be). */
static void *move_across(void *p, size_t size, uintptr_t site)
{
    void *q = alloc_at(size, site);
    if (q) {
        size_t have = usable_of(p);
        memcpy(q, p, have < size ? have : size);
        free(p);
    }
    return q;
}

/* Another thread's realloc of a block while the registry is armed or held. */
static void *other_realloc(void *p, size_t size, int state, uintptr_t site)
{
    if (headed(p)) /* the owner's, or an earlier case's: never resized here */
        return move_across(p, size, site);
    slot old;
    int known = other_forget(p, &old);
    if (state == HELD)
        return FGI_REAL(realloc)(p, size);
    lock();
    if (!fits(size)) {
        if (known && ARMED())
            insert(&heap.other, old); /* still the caller's */
        unlock();
        refuse(size, site);
        return errno = ENOMEM, NULL;
    }
    unlock();
    void *q = FGI_REAL(realloc)(p, size);
    if (!q && !known)
        return NULL;
    lock();
    /* No second check: the block has moved, and refusing now would lose it. */
    if (ARMED()) {
        if (q)
            insert(&heap.other, (slot){(uintptr_t)q, size, site, heap.gen, 0});
        else
            insert(&heap.other, old);
        raise_peak(&heap.other_peak);
    }
    unlock();
    return q;
}

/* The owner's realloc while the registry is armed or held. A headed block is resized in
 * place of its entry; another block — older memory, or another thread's — becomes a
 * headed one of this run, its contents copied. */
static void *own_realloc(void *p, size_t size, int state, uintptr_t site)
{
    drain();
    int hd = headed(p);
    uint32_t i = hd ? own_find(p) : NO_ENTRY;
    slot old;
    int in_other = !hd && other_forget(p, &old);
    if (state == HELD) { /* frees only: the moved block is not recorded */
        void *q = hd ? headed_resize(p, size, NO_ENTRY) : FGI_REAL(realloc)(p, size);
        if (q && i != NO_ENTRY)
            own_clear(i);
        else if (!q && in_other)
            other_restore(&old);
        return q;
    }
    int64_t now = run_excess() - (i != NO_ENTRY ? (int64_t)heap.own.e[i].size : 0);
    if (!fits_at(now, size)) {
        if (in_other)
            other_restore(&old); /* still the caller's */
        refuse(size, site);      /* on the case's thread, does not return */
        return errno = ENOMEM, NULL;
    }
    void *q = hd ? headed_resize(p, size, i) : copy_into_headed(p, size, NO_ENTRY);
    if (!q) {
        if (in_other)
            other_restore(&old);
        return NULL;
    }
    if (i == NO_ENTRY) {
        hdr_of(q)->idx = own_add(q, size, site);
    } else { /* the same entry, now the moved block's */
        entry *e = &heap.own.e[i];
        size_t l = LIVE(&heap.own);
        atomic_store_explicit(&heap.own.live, l - e->size + size, RELAXED);
        *e = (entry){(uintptr_t)q, size, site, heap.gen};
    }
    own_peak(now, size);
    return q;
}

INTERPOSED void *realloc(void *p, size_t size)
{
    if (!p)
        return alloc_at(size, SITE());
    if (size == 0) { /* glibc frees the block and returns NULL */
        free(p);
        return NULL;
    }
    int state = STATE();
    if (state == OFF)
        return headed(p) ? headed_resize(p, size, NO_ENTRY) : FGI_REAL(realloc)(p, size);
    if (!OWNER())
        return other_realloc(p, size, state, SITE());
    return own_realloc(p, size, state, SITE());
}

INTERPOSED void *reallocarray(void *p, size_t n, size_t size)
{
    size_t total;
    if (__builtin_mul_overflow(n, size, &total))
        return errno = ENOMEM, NULL;
    return realloc(p, total);
}

static void *aligned(size_t align, size_t size, uintptr_t site)
{
    if (!ARMED())
        return FGI_REAL(memalign)(align, size);
    ALLOCATE(FGI_REAL(memalign)(align, size), size, shift_for(align), 0, site);
}

INTERPOSED void *memalign(size_t align, size_t size)
{
    return aligned(align, size, SITE());
}

INTERPOSED void *aligned_alloc(size_t align, size_t size)
{
    return aligned(align, size, SITE());
}

INTERPOSED int posix_memalign(void **out, size_t align, size_t size)
{
    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return EINVAL;
    void *p = aligned(align, size, SITE());
    if (!p && size)
        return ENOMEM;
    *out = p;
    return 0;
}

INTERPOSED void *valloc(size_t size)
{
    return aligned(4096, size, SITE());
}

INTERPOSED void *pvalloc(size_t size)
{
    return aligned(4096, (size + 4095) & ~(size_t)4095, SITE());
}

/* ---- the oracle side: the owner's calls -------------------------------------------- */

int fgi_heap_interposed(void)
{
    void *(*volatile alloc)(size_t) = malloc; /* called as the program calls it */
    fgi_heap_report r;
    fgi_heap_arm(SIZE_MAX);
    void (*volatile release)(void *) = free;
    void *p = alloc(1);
    fgi_heap_disarm(&r);
    release(p);
    fgi_heap_hold(0); /* recording off, the registry empty */
    return r.live_blocks > 0;
}

void fgi_heap_arm(size_t allowance)
{
    /* The calling thread becomes the owner. Frees another thread deferred after an
     * earlier disarm are taken first, as the old owner's (same thread in practice). */
    fgi_real_find_usable(); /* now, while no call of the family is under way */
    drain();
    atomic_store_explicit(&heap.owner, &heap_thread, RELAXED);
    /* No lock while not held: disarmed nobody reads these, and the release store below
     * publishes them. Held, another thread may be freeing an earlier run's block. */
    int held = heap.hold;
    if (held) {
        lock();
    } else { /* what the last run left was kept for a retention check that did not come */
        own_empty();
        if (COUNT(&heap.other) || heap.other.high) { /* nothing to do, and no lock, when
                                                      * no other thread allocated */
            lock(); /* another thread may still be in a free it began while held */
            empty(&heap.other);
            unlock();
        }
    }
    heap.allowance = allowance;
    heap.base = held ? LIVE(&heap.own) + LIVE(&heap.other) : 0;
    heap.gen = held ? heap.gen + 1 : 0;
    heap.peak = 0;
    heap.other_peak = 0;
    heap.refused = 0;
    heap.refused_size = 0;
    if (held)
        unlock();
    atomic_store_explicit(&heap.armed, ARMED_ON, memory_order_release);
}

/* Weak: present only under LeakSanitizer (ASan). */
extern void __lsan_ignore_object(const void *p) __attribute__((weak));

/* Called for a live block of the registry: the allocator's block, the allocating site,
 * the run that allocated it. */
typedef void block_fn(void *block, uintptr_t site, unsigned gen, void *ctx);

/* Calls fn on every live block of runs first .. first + n - 1: the owner's, then other
 * threads' (those under the lock, which the caller takes). */
static void each_own(unsigned first, unsigned n, block_fn *fn, void *ctx)
{
    const list *l = &heap.own;
    for (size_t i = 0; COUNT(l) && i < l->n; i++) {
        const entry *e = &l->e[i];
        if (e->p && e->gen - first < n)
            fn(block_of((void *)e->p), e->site, e->gen, ctx);
    }
}

static void each_other(unsigned first, unsigned n, block_fn *fn, void *ctx)
{
    const table *t = &heap.other;
    for (size_t i = 0; COUNT(t) && i < t->cap; i++) {
        const slot *s = &t->slots[i];
        if (in_use(t, s) && s->gen - first < n)
            fn((void *)s->key, s->site, s->gen, ctx);
    }
}

static void ignore_leak(void *block, uintptr_t site, unsigned gen, void *ctx)
{
    (void)site, (void)gen, (void)ctx;
    __lsan_ignore_object(block);
}

static void add_site(void *block, uintptr_t site, unsigned gen, void *ctx)
{
    (void)block, (void)gen;
    fgi_heap_report *r = ctx;
    for (unsigned j = 0; j < r->nsites; j++)
        if (r->sites[j] == site)
            return;
    if (r->nsites < FGI_HEAP_SITES)
        r->sites[r->nsites++] = site;
}

/* The owner ends a run: recording goes to `state`, and the frees other threads deferred so
 * far are taken, so the report counts them. (One that another thread defers after this,
 * having seen the registry armed just before, waits for the next arm's drain.) */
static void stop(int state)
{
    atomic_store_explicit(&heap.armed, state, memory_order_release);
    drain();
}

void fgi_heap_disarm(fgi_heap_report *r)
{
    /* HELD even when not holding: the run's blocks stay recorded (for a retention check
     * that may follow), so their frees must be seen until the next arm empties them, or a
     * freed address allocated again would be recorded twice. */
    stop(HELD);
    lock();
    r->nsites = 0; /* not a memset: sites[] is large and this runs every case */
    r->live_bytes = LIVE(&heap.own) + LIVE(&heap.other);
    r->live_blocks = COUNT(&heap.own) + COUNT(&heap.other);
    r->peak_bytes = heap.peak > heap.other_peak ? heap.peak : heap.other_peak;
    r->refused = heap.refused;
    r->refused_size = heap.refused_size;
    /* What a case keeps is judged by the retention check (lazy initialisation and "keep
     * the latest" pass, growth on every run is a finding); LeakSanitizer keeps judging
     * the engine's own memory, so a target leak is not reported twice. The sites are
     * named only for a finding (fgi_heap_held_sites): no scan of the registry here. */
    if (__lsan_ignore_object) {
        each_own(heap.gen, 1, ignore_leak, NULL);
        each_other(heap.gen, 1, ignore_leak, NULL);
    }
    unlock();
}

void fgi_heap_hold(int on)
{
    if (!on && STATE() == HELD)
        atomic_store_explicit(&heap.armed, OFF, memory_order_release);
    drain();
    lock();
    heap.hold = on;
    if (!on) {
        own_empty();
        empty(&heap.other);
        heap.gen = 0;
    }
    unlock();
}

void fgi_heap_held_sites(fgi_heap_report *r, unsigned runs_ago)
{
    drain();
    lock();
    r->nsites = 0;
    each_own(heap.gen - runs_ago, 1, add_site, r);
    each_other(heap.gen - runs_ago, 1, add_site, r);
    unlock();
}

unsigned fgi_heap_run(void)
{
    return heap.gen;
}

typedef struct runs {
    unsigned first;
    uint8_t *live;
} runs;

static void mark_live(void *block, uintptr_t site, unsigned gen, void *ctx)
{
    (void)block, (void)site;
    runs *r = ctx;
    r->live[gen - r->first] = 1;
}

void fgi_heap_live_runs(unsigned first, uint8_t *live, unsigned n)
{
    memset(live, 0, n);
    runs r = {first, live};
    drain();
    each_own(first, n, mark_live, &r);
    lock();
    each_other(first, n, mark_live, &r);
    unlock();
}

void fgi_heap_release(void)
{
    stop(heap.hold ? HELD : OFF);
    /* Only the owner's blocks of this run: a thread the case started may still own its
     * own, and what earlier runs of a held registry left belongs to the target. They go to
     * the quarantine, not back to the allocator (the top of the file says why). */
    list *l = &heap.own;
    void *evicted = NULL;
    lock();
    for (size_t i = 0; COUNT(l) && i < l->n; i++) {
        entry *e = &l->e[i];
        if (!e->p || e->gen != heap.gen)
            continue;
        /* Not headed: another thread's free of it waits on `remote` (its tag is the
         * link), and the next drain frees it once its entry is gone. */
        if (headed((void *)e->p))
            queue_add((void *)e->p, &evicted);
        own_clear((uint32_t)i);
    }
    queue_trim(&evicted);
    unlock();
    free_evicted(evicted);
    if (heap.hold) {
        lock(); /* other threads' blocks of this run stay theirs, but leave the count */
        for (size_t i = 0; COUNT(&heap.other) && i < heap.other.cap;) {
            if (in_use(&heap.other, &heap.other.slots[i]) &&
                heap.other.slots[i].gen == heap.gen)
                erase_at(&heap.other, i);
            else
                i++;
        }
        unlock();
    } else {
        own_empty();
        lock();
        empty(&heap.other);
        unlock();
    }
}

size_t fgi_heap_quarantined(size_t *blocks)
{
    lock();
    size_t bytes = heap.q.bytes;
    if (blocks)
        *blocks = heap.q.live;
    unlock();
    return bytes;
}
