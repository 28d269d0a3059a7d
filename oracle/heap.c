/* oracle/heap.c — the interposed malloc family and the registry of a case's live blocks.
 *
 * Two tables make the registry. `own` holds the blocks of the owner, the thread that armed
 * the registry (the thread running the case, and between the runs of a retention check the
 * engine on that same thread): only the owner touches it, with no lock, so the common
 * call — a case allocating or freeing on its own thread — costs a hash insert or erase and
 * no atomic read-modify-write. `other` holds every other thread's blocks, under `lock`.
 * A block crosses over in two ways:
 *   - the owner frees (or moves) another thread's block: it finds it in `other`, under the
 *     lock, when `other` holds anything;
 *   - another thread frees (or moves) a block that is not in `other` while `own` holds
 *     anything: it cannot touch `own`, so the free is deferred — the block is pushed on
 *     `remote`, a lock-free stack threaded through the blocks themselves — and the owner
 *     erases and really frees it at its next call or at disarm. Realloc becomes malloc,
 *     copy, deferred free.
 *
 * Registry invariant: while armed, own ∪ other holds exactly the blocks allocated since
 * fgi_heap_arm (since the first arm after fgi_heap_hold(1), while held) and not yet freed
 * (a deferred free counts once the owner takes it from `remote`), each with its requested
 * size and the run that allocated it; `live` of each table is the sum of its sizes, `base`
 * the total when the current run was armed, and the run's peak the maximum of the total
 * minus base (the owner's and other threads' views, each taken at their own calls).
 *
 * A table is open addressing with linear probing and backward-shift deletion (no
 * tombstones, so no rebuilds while cases come and go); a slot is live only when its mark
 * is the table's epoch, so emptying a table is one increment, not a memset per case.
 */
#include "oracle/heap.h"

#include "oracle/case.h"
#include "oracle/heap_real.h"

#include <dlfcn.h>
#include <malloc.h>
#include <errno.h>
#include <stdatomic.h>
#include <string.h>

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
    _Atomic(void *) remote;    /* blocks other threads freed, waiting for the owner */
    _Atomic size_t deferred;   /* their usable bytes: live no more, though still counted */
    table own;
    table other;
    size_t base;               /* total live bytes when this run was armed (held blocks) */
    size_t peak;               /* peak total - base this run, seen by the owner */
    size_t other_peak;         /* the same, seen by other threads (under the lock) */
    int hold;                  /* disarming keeps the registry (fgi_heap_hold) */
    unsigned gen;              /* the current run, counted while held */
    size_t allowance;          /* the case's limit on live bytes */
    int refused;               /* an allocation was refused where the case could not end */
    size_t refused_size;
} heap = {.own.epoch = 1, .other.epoch = 1};

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
#define FIRST_CAP 64 /* slots of a new table: 2 KiB, so a case with few live blocks stays
                      * in the first-level cache */

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

/* ---- one table: only its side calls these ---------------------------------------- */

HOT size_t hash_ptr(uintptr_t p)
{
    return (size_t)(((uint64_t)p >> 4) * 0x9e3779b97f4a7c15ULL >> 20);
}

HOT int in_use(const table *t, const slot *s)
{
    return s->key != 0 && s->mark == t->epoch;
}

HOT void add_live(table *t, size_t blocks, size_t bytes, int sign)
{
    size_t c = COUNT(t), l = LIVE(t);
    atomic_store_explicit(&t->count, sign > 0 ? c + blocks : c - blocks, RELAXED);
    atomic_store_explicit(&t->live, sign > 0 ? l + bytes : l - bytes, RELAXED);
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

HOT void place(slot *slots, size_t cap, const slot *s)
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

HOT void insert(table *t, void *p, size_t size, uintptr_t site)
{
    size_t n = COUNT(t) + 1;
    if (n * 2 > t->cap && grow(t) != 0)
        return; /* out of memory for the registry: the block goes unrecorded */
    if (n > t->high)
        t->high = n;
    slot s = {(uintptr_t)p, size, site, heap.gen, t->epoch};
    place(t->slots, t->cap, &s);
    atomic_store_explicit(&t->count, n, RELAXED); /* add_live, with the count at hand */
    atomic_store_explicit(&t->live, LIVE(t) + size, RELAXED);
}

/* Removes the slot at i, shifting the rest of its cluster back over the hole. */
HOT void erase_at(table *t, size_t i)
{
    size_t mask = t->cap - 1, j = i;
    add_live(t, 1, t->slots[i].size, -1);
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

/* Removes p if recorded; returns 1 (and its size) when it was. */
HOT int forget(table *t, const void *p, size_t *size)
{
    if (!COUNT(t))
        return 0;
    size_t mask = t->cap - 1, i = hash_ptr((uintptr_t)p) & mask;
    for (; in_use(t, &t->slots[i]); i = (i + 1) & mask)
        if (t->slots[i].key == (uintptr_t)p) {
            *size = t->slots[i].size;
            erase_at(t, i);
            return 1;
        }
    return 0;
}

/* ---- the accounting both sides share --------------------------------------------- */

/* This run's live bytes, before the clamp at 0: the total of both tables, less the blocks
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
        fgi_heap_site_name(site, where, sizeof where);
        fgi_case_end("amplification", where,
                     "an allocation of %zu bytes, with %zu bytes live, would pass the "
                     "case's allowance of %zu bytes (at %s)",
                     size, live, allowance, where);
    }
}

/* ---- the owner's side: no lock unless a block crosses over ----------------------- */

static void drain_now(void);

/* Takes the blocks other threads freed: erased from `own`, then really freed. */
HOT void drain(void)
{
    if (atomic_load_explicit(&heap.remote, RELAXED))
        drain_now();
}

static void drain_now(void)
{
    void *p = atomic_exchange_explicit(&heap.remote, NULL, memory_order_acquire);
    while (p) {
        void *next = *(void **)p;
        size_t size, usable = malloc_usable_size(p);
        forget(&heap.own, p, &size);
        atomic_fetch_sub_explicit(&heap.deferred, usable, RELAXED); /* after: never counted
                                                                     * twice as gone */
        FGI_REAL(free)(p);
        p = next;
    }
}

/* Removes p from `other` if it is there; returns 1 when it was. Either side. */
static int other_forget(const void *p, size_t *size)
{
    if (!COUNT(&heap.other))
        return 0;
    lock();
    int found = forget(&heap.other, p, size);
    unlock();
    return found;
}

/* Removes p from the registry, wherever it is (the owner). */
HOT int own_forget(const void *p, size_t *size)
{
    drain();
    return forget(&heap.own, p, size) || other_forget(p, size);
}

/* Checks an allocation of `size` before it is made, this run's excess (run_excess) then
 * being *now. Returns 0 to proceed. */
HOT int own_admit(size_t size, uintptr_t site, int64_t *now)
{
    drain();
    *now = run_excess();
    if (fits_at(*now, size))
        return 0;
    refuse(size, site); /* on the case's thread, does not return */
    return -1;
}

/* Records the owner's new block p of `size`, admitted when this run's excess was `now`:
 * the peak is now + size, as run_live would read it after the insert (only the owner
 * changes `own`; another thread's change in between is seen at its own call). */
HOT void *own_record(void *p, size_t size, uintptr_t site, int64_t now)
{
    if (p) {
        insert(&heap.own, p, size, site);
        size_t live = clamp_live(now + (int64_t)size);
        if (live > heap.peak)
            heap.peak = live;
    }
    return p;
}

/* ---- every other thread's side: under the lock ----------------------------------- */

/* Records a block another thread allocated, after the exact check; a block the check
 * refuses is freed again. */
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
    insert(&heap.other, p, size, site);
    raise_peak(&heap.other_peak);
    unlock();
    return p;
}

/* 1 when p may be the owner's: its free must wait for the owner. A block handed to this
 * thread was recorded before the hand-off, so an empty `own` cannot hold it. */
static int maybe_owners(void)
{
    return COUNT(&heap.own) != 0;
}

static void defer_free(void *p)
{
    atomic_fetch_add_explicit(&heap.deferred, malloc_usable_size(p), RELAXED);
    void *head = atomic_load_explicit(&heap.remote, RELAXED);
    do
        *(void **)p = head;
    while (!atomic_compare_exchange_weak_explicit(&heap.remote, &head, p,
                                                  memory_order_release, RELAXED));
}

/* ---- the interposed family --------------------------------------------------------- */

/* An allocation by any thread while armed; real is the allocator underneath. */
#define ALLOCATE(call, size, site)                                                        \
    do {                                                                                   \
        if (OWNER()) {                                                                     \
            int64_t now_;                                                                  \
            if (own_admit((size), (site), &now_) != 0)                                     \
                return errno = ENOMEM, NULL;                                               \
            return own_record((call), (size), (site), now_);                               \
        }                                                                                  \
        if ((size) > heap.allowance) {                                                     \
            refuse((size), (site));                                                        \
            return errno = ENOMEM, NULL;                                                   \
        }                                                                                  \
        return other_record((call), (size), (site));                                       \
    } while (0)

/* malloc of size for the caller at site, by any thread (also realloc's moves across). */
HOT void *alloc_at(size_t size, uintptr_t site)
{
    if (!ARMED())
        return FGI_REAL(malloc)(size);
    ALLOCATE(FGI_REAL(malloc)(size), size, site);
}

INTERPOSED void *malloc(size_t size)
{
    return alloc_at(size, SITE());
}

INTERPOSED void free(void *p)
{
    if (!p)
        return;
    if (STATE() != OFF) {
        size_t size;
        if (OWNER()) {
            own_forget(p, &size);
        } else if (!other_forget(p, &size) && maybe_owners()) {
            defer_free(p);
            return;
        }
    }
    FGI_REAL(free)(p);
}

INTERPOSED void *calloc(size_t n, size_t size)
{
    if (!ARMED())
        return FGI_REAL(calloc)(n, size);
    size_t total;
    if (__builtin_mul_overflow(n, size, &total))
        return errno = ENOMEM, NULL;
    ALLOCATE(FGI_REAL(calloc)(n, size), total, SITE());
}

/* Another thread moves a block that may be the owner's: malloc, copy, deferred free. */
static void *move_across(void *p, size_t size, uintptr_t site)
{
    void *q = alloc_at(size, site);
    if (q) {
        size_t have = malloc_usable_size(p);
        memcpy(q, p, have < size ? have : size);
        free(p);
    }
    return q;
}

/* Another thread's realloc of a block while the registry is armed or held. */
static void *other_realloc(void *p, size_t size, int state, uintptr_t site)
{
    size_t old = 0;
    int known = other_forget(p, &old);
    if (!known && maybe_owners())
        return move_across(p, size, site);
    if (state == HELD)
        return FGI_REAL(realloc)(p, size);
    lock();
    if (!fits(size)) {
        if (known && ARMED())
            insert(&heap.other, p, old, site); /* still the caller's */
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
        insert(&heap.other, q ? q : p, q ? size : old, site);
        raise_peak(&heap.other_peak);
    }
    unlock();
    return q;
}

INTERPOSED void *realloc(void *p, size_t size)
{
    int state = STATE();
    if (state == OFF || (!p && state == HELD))
        return FGI_REAL(realloc)(p, size);
    if (!p)
        return alloc_at(size, SITE());
    if (size == 0) { /* glibc frees the block and returns NULL */
        free(p);
        return NULL;
    }
    uintptr_t site = SITE();
    if (!OWNER())
        return other_realloc(p, size, state, site);
    size_t old = 0;
    int known = own_forget(p, &old);
    if (state == HELD)
        return FGI_REAL(realloc)(p, size);
    int64_t now = run_excess();
    if (!fits_at(now, size)) {
        if (known)
            insert(&heap.own, p, old, site); /* still the caller's */
        refuse(size, site); /* on the case's thread, does not return */
        return errno = ENOMEM, NULL;
    }
    void *q = FGI_REAL(realloc)(p, size);
    if (q)
        return own_record(q, size, site, now);
    if (known)
        insert(&heap.own, p, old, site); /* the block did not move: still the caller's */
    return NULL;
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
    ALLOCATE(FGI_REAL(memalign)(align, size), size, site);
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
    drain();
    atomic_store_explicit(&heap.owner, &heap_thread, RELAXED);
    /* No lock while not held: disarmed nobody reads these, and the release store below
     * publishes them. Held, another thread may be freeing an earlier run's block. */
    int held = heap.hold;
    if (held) {
        lock();
    } else { /* what the last run left was kept for a retention check that did not come */
        empty(&heap.own);
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

/* Calls fn on every block of run `gen` in t. */
static void each_of_run(table *t, unsigned gen, void (*fn)(slot *s, void *ctx), void *ctx)
{
    for (size_t i = 0; COUNT(t) && i < t->cap; i++)
        if (in_use(t, &t->slots[i]) && t->slots[i].gen == gen)
            fn(&t->slots[i], ctx);
}

static void ignore_leak(slot *s, void *ctx)
{
    (void)ctx;
    __lsan_ignore_object((void *)s->key);
}

static void add_site(slot *s, void *ctx)
{
    fgi_heap_report *r = ctx;
    for (unsigned j = 0; j < r->nsites; j++)
        if (r->sites[j] == s->site)
            return;
    if (r->nsites < FGI_HEAP_SITES)
        r->sites[r->nsites++] = s->site;
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
     * named only for a finding (fgi_heap_held_sites): no scan of the table here. */
    if (__lsan_ignore_object) {
        each_of_run(&heap.own, heap.gen, ignore_leak, NULL);
        each_of_run(&heap.other, heap.gen, ignore_leak, NULL);
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
        empty(&heap.own);
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
    each_of_run(&heap.own, heap.gen - runs_ago, add_site, r);
    each_of_run(&heap.other, heap.gen - runs_ago, add_site, r);
    unlock();
}

unsigned fgi_heap_run(void)
{
    return heap.gen;
}

static void mark_live(table *t, unsigned first, uint8_t *live, unsigned n)
{
    for (size_t i = 0; COUNT(t) && i < t->cap; i++) {
        const slot *s = &t->slots[i];
        if (in_use(t, s) && s->gen - first < n)
            live[s->gen - first] = 1;
    }
}

void fgi_heap_live_runs(unsigned first, uint8_t *live, unsigned n)
{
    memset(live, 0, n);
    drain();
    mark_live(&heap.own, first, live, n);
    lock();
    mark_live(&heap.other, first, live, n);
    unlock();
}

void fgi_heap_release(void)
{
    stop(heap.hold ? HELD : OFF);
    /* Only the owner's blocks of this run: a thread the case started may still own its
     * own, and what earlier runs of a held registry left belongs to the target. */
    table *t = &heap.own;
    for (size_t i = 0; COUNT(t) && i < t->cap;) {
        slot *s = &t->slots[i];
        if (!in_use(t, s) || s->gen != heap.gen) {
            i++;
            continue;
        }
        FGI_REAL(free)((void *)s->key);
        if (!heap.hold) {
            i++;
            continue;
        }
        erase_at(t, i); /* may shift a later block into i: look at i again */
    }
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
        empty(&heap.own);
        lock();
        empty(&heap.other);
        unlock();
    }
}

void fgi_heap_site_name(uintptr_t pc, char *out, size_t cap)
{
    Dl_info info;
    if (pc && dladdr((void *)pc, &info) && info.dli_fname) {
        const char *base = strrchr(info.dli_fname, '/');
        base = base ? base + 1 : info.dli_fname;
        snprintf(out, cap, "%s+0x%zx", base, (size_t)(pc - (uintptr_t)info.dli_fbase));
    } else {
        snprintf(out, cap, "?+0x0");
    }
}

size_t fgi_heap_default_allowance(size_t input_size)
{
    size_t per = input_size > SIZE_MAX / 128 ? SIZE_MAX / 2 : input_size * 64;
    return ((size_t)32 << 20) + per;
}

void *fgi_heap_real_malloc(size_t size)
{
    return FGI_REAL(malloc)(size);
}

void *fgi_heap_real_calloc(size_t n, size_t size)
{
    return FGI_REAL(calloc)(n, size);
}

void *fgi_heap_real_realloc(void *p, size_t size)
{
    return FGI_REAL(realloc)(p, size);
}

void fgi_heap_real_free(void *p)
{
    FGI_REAL(free)(p);
}
