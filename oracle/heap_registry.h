/* oracle/heap_registry.h — the heap registry's process-wide state, with the hot paths every
 * part of the heap oracle inlines from it: the lock, the owner's list, the accounting.
 *
 * Private to the heap oracle's parts. The registry's invariants are at the top of
 * oracle/heap.c, which defines the state; the other threads' table's at the top of
 * oracle/heap_table.c.
 */
#ifndef FG_HEAP_REGISTRY_H
#define FG_HEAP_REGISTRY_H

#include "engine/base/spin.h"
#include "oracle/heap_block.h"

#include <stdatomic.h>

#define FGI_HEAP_NO_SPARE SIZE_MAX /* the end of the spare entries' chain */
#define FGI_HEAP_FIRST_CAP 64 /* slots of a new table, entries of a new list: 2 KiB, so a case
                               * with few blocks stays in the first-level cache */

/* An entry of `own`. */
typedef struct fgi_heap_entry {
    uintptr_t p;    /* the address the program sees; 0 once freed */
    size_t size;    /* requested bytes */
    uintptr_t site; /* return address of the allocating call */
    unsigned gen;   /* the run that allocated it (held registries keep several) */
} fgi_heap_entry;

/* The owner's list (oracle/heap.c says how entries are taken and given back). */
typedef struct fgi_heap_list {
    fgi_heap_entry *e;
    size_t n;             /* entries ever used since it was last emptied */
    size_t cap;
    size_t spare;         /* the first freed entry, its `size` the next one's (or
                           * FGI_HEAP_NO_SPARE) */
    _Atomic size_t count; /* live blocks; read by other threads without a lock */
    _Atomic size_t live;  /* live bytes; likewise */
} fgi_heap_list;

/* A slot of the other threads' table. */
typedef struct fgi_heap_slot {
    uintptr_t key;  /* the block's address; 0 empty */
    size_t size;    /* requested bytes */
    uintptr_t site; /* return address of the allocating call */
    unsigned gen;   /* the run that allocated it (held registries keep several) */
    unsigned mark;  /* the table's epoch when written: any other epoch's slot is empty */
} fgi_heap_slot;

/* The other threads' table (oracle/heap_table.c). */
typedef struct fgi_heap_table {
    fgi_heap_slot *slots; /* capacity a power of two, or NULL */
    size_t cap;
    size_t high;          /* the most live blocks since it was last emptied */
    _Atomic size_t count; /* live blocks; read by the other side without its lock */
    _Atomic size_t live;  /* live bytes; likewise */
    unsigned epoch;       /* never 0: calloc'd slots are empty */
} fgi_heap_table;

/* `armed`: OFF forwards everything; ARMED records allocations and frees; HELD (between the
 * runs of a retention check) records frees only, so a block an earlier run left and
 * another thread frees meanwhile leaves the registry. */
enum { FGI_HEAP_OFF = 0, FGI_HEAP_ARMED = 1, FGI_HEAP_HELD = 2 };

/* Process-wide because malloc has no context argument: every thread's allocations come
 * through here. `armed` and `owner` are read on every call without the lock; `own`, `base`,
 * `peak`, `allowance`, `hold` and `gen` are the owner's (written only while no other thread
 * reads them: at arm, before the release store of `armed`, or by the owner itself); `other`
 * and the refusal are under `lock`. Defined in oracle/heap.c; one struct, so the fields
 * every call reads stay together. */
struct fgi_heap_registry {
    atomic_int armed;          /* FGI_HEAP_OFF, FGI_HEAP_ARMED or FGI_HEAP_HELD */
    const char *_Atomic owner; /* the owner's fgi_heap_thread, set at arm */
    atomic_flag lock;          /* guards `other`, other_peak, the refusal and the quarantine
                                * (heap_quarantine.c) */
    _Atomic(void *) remote;    /* headed blocks other threads freed, waiting for the owner */
    _Atomic size_t deferred;   /* their usable bytes: live no more, though still counted */
    fgi_heap_list own;
    fgi_heap_table other;
    size_t base;               /* total live bytes when this run was armed (held blocks) */
    size_t peak;               /* peak total - base this run, seen by the owner */
    size_t other_peak;         /* the same, seen by other threads (under the lock) */
    int hold;                  /* disarming keeps the registry (fgi_heap_hold) */
    unsigned gen;              /* the current run, counted while held */
    size_t allowance;          /* the case's limit on live bytes */
    int refused;               /* an allocation was refused where the case could not end */
    size_t refused_size;
};
FGI_HIDDEN extern struct fgi_heap_registry fgi_heap;

/* Its address tells each thread apart; no value is ever stored. */
FGI_HIDDEN extern _Thread_local char fgi_heap_thread;

/* Called for a live block of the registry: the allocator's block, the allocating site,
 * the run that allocated it. */
typedef void fgi_heap_block_fn(void *block, uintptr_t site, unsigned gen, void *ctx);

/* OFF, ARMED or HELD; read without the lock. */
#define FGI_HEAP_STATE() atomic_load_explicit(&fgi_heap.armed, memory_order_relaxed)
#define FGI_HEAP_IS_ARMED() (FGI_HEAP_STATE() == FGI_HEAP_ARMED)
/* 1 on the owner's thread. */
#define FGI_HEAP_IS_OWNER()                                                                   \
    (atomic_load_explicit(&fgi_heap.owner, memory_order_relaxed) == &fgi_heap_thread)
/* The live blocks and bytes of a side (fgi_heap.own or fgi_heap.other), read racily. */
#define FGI_HEAP_COUNT(t) atomic_load_explicit(&(t)->count, memory_order_relaxed)
#define FGI_HEAP_LIVE(t) atomic_load_explicit(&(t)->live, memory_order_relaxed)

/* The registry's lock (engine/base/spin.h: it yields and naps when contended). */
static inline void fgi_heap_lock(void)
{
    fgi_spin_lock(&fgi_heap.lock);
}

static inline void fgi_heap_unlock(void)
{
    fgi_spin_unlock(&fgi_heap.lock);
}

/* Counts a block of `bytes` in (sign > 0) or out of a side. Its one writer's plain load and
 * store: the other side only reads. */
FGI_HEAP_HOT void fgi_heap_add_live(_Atomic size_t *count, _Atomic size_t *live, size_t bytes,
                                    int sign)
{
    size_t c = atomic_load_explicit(count, memory_order_relaxed);
    size_t l = atomic_load_explicit(live, memory_order_relaxed);
    atomic_store_explicit(count, sign > 0 ? c + 1 : c - 1, memory_order_relaxed);
    atomic_store_explicit(live, sign > 0 ? l + bytes : l - bytes, memory_order_relaxed);
}

/* ---- the accounting both sides share --------------------------------------------- */

/* This run's live bytes, before the clamp at 0: the total of both sides, less the blocks
 * other threads freed that wait for the owner, less `base`. Signed: a held run that freed
 * an earlier run's blocks is below its base. A block another thread freed is no longer
 * counted while it waits (a case blocked in pthread_join must not have its worker refused
 * for memory the worker already gave back); its usable size stands for its size there,
 * which errs by a few bytes toward admitting, never toward a false refusal. */
FGI_HEAP_HOT int64_t fgi_heap_run_excess(void)
{
    size_t total = FGI_HEAP_LIVE(&fgi_heap.own) + FGI_HEAP_LIVE(&fgi_heap.other);
    size_t gone = atomic_load_explicit(&fgi_heap.deferred, memory_order_relaxed);
    return (int64_t)total - (int64_t)gone - (int64_t)fgi_heap.base;
}

FGI_HEAP_HOT size_t fgi_heap_clamp_live(int64_t excess)
{
    return excess > 0 ? (size_t)excess : 0;
}

/* This run's live bytes. */
FGI_HEAP_HOT size_t fgi_heap_run_live(void)
{
    return fgi_heap_clamp_live(fgi_heap_run_excess());
}

/* 1 when `extra` more live bytes stay within the allowance, this run's excess being `now`.
 * Blocks that earlier runs of a held registry left are not this run's: only total - base
 * counts. */
FGI_HEAP_HOT int fgi_heap_fits_at(int64_t now, size_t extra)
{
    return extra <= fgi_heap.allowance &&
           fgi_heap_clamp_live(now) <= fgi_heap.allowance - extra;
}

FGI_HEAP_HOT int fgi_heap_fits(size_t extra)
{
    return fgi_heap_fits_at(fgi_heap_run_excess(), extra);
}

FGI_HEAP_HOT void fgi_heap_raise_peak(size_t *peak)
{
    size_t now = fgi_heap_run_live();
    if (now > *peak)
        *peak = now;
}

/* The owner's block of `size` was recorded, admitted when this run's excess was `now`: the
 * peak is now + size, as run_live would read it after the record (only the owner changes
 * `own`; another thread's change in between is seen at its own call). */
FGI_HEAP_HOT void fgi_heap_own_peak(int64_t now, size_t size)
{
    size_t live = fgi_heap_clamp_live(now + (int64_t)size);
    if (live > fgi_heap.peak)
        fgi_heap.peak = live;
}

/* Refuses an allocation that would pass the allowance. On the case's own thread this
 * does not return: the case ends as an amplification finding. */
FGI_HIDDEN void fgi_heap_refuse(size_t size, uintptr_t site);

/* ---- the owner's list ------------------------------------------------------------- */

/* Doubles the array. 0, or -1 when out of memory (or of 32-bit indices). */
FGI_HIDDEN int fgi_heap_own_grow(void);
/* Empties the owner's list (its array freed when far larger than it was needed). */
FGI_HIDDEN void fgi_heap_own_empty(void);
/* Calls fn on every live block of the owner's of runs first .. first + n - 1 (the other
 * threads': fgi_heap_table_each, under the lock). */
FGI_HIDDEN void fgi_heap_own_each(unsigned first, unsigned n, fgi_heap_block_fn *fn,
                                  void *ctx);
/* The owner ends a run: recording goes to `state`, and the frees other threads deferred so
 * far are taken, so the report counts them. (One that another thread defers after this,
 * having seen the registry armed just before, waits for the next arm's drain.) */
FGI_HIDDEN void fgi_heap_stop(int state);

/* Takes an entry for headed p (a spare one first); returns its index, or FGI_HEAP_NO_ENTRY
 * when there is no room (the block goes unrecorded). */
FGI_HEAP_HOT uint32_t fgi_heap_own_add(void *p, size_t size, uintptr_t site)
{
    fgi_heap_list *l = &fgi_heap.own;
    size_t i = l->spare;
    if (i != FGI_HEAP_NO_SPARE) {
        l->spare = l->e[i].size;
    } else {
        if (l->n == l->cap && fgi_heap_own_grow() != 0)
            return FGI_HEAP_NO_ENTRY;
        i = l->n++;
    }
    l->e[i] = (fgi_heap_entry){(uintptr_t)p, size, site, fgi_heap.gen};
    fgi_heap_add_live(&l->count, &l->live, size, 1);
    return (uint32_t)i;
}

/* The index of headed p's entry in `own`, or FGI_HEAP_NO_ENTRY when it has none (a block of
 * an earlier case, or of a registry since emptied). */
FGI_HEAP_HOT uint32_t fgi_heap_own_find(const void *p)
{
    uint32_t i = fgi_heap_hdr_of(p)->idx;
    return i < fgi_heap.own.n && fgi_heap.own.e[i].p == (uintptr_t)p ? i : FGI_HEAP_NO_ENTRY;
}

/* Clears entry i and makes it the first spare one. */
FGI_HEAP_HOT void fgi_heap_own_clear(uint32_t i)
{
    fgi_heap_entry *e = &fgi_heap.own.e[i];
    fgi_heap_add_live(&fgi_heap.own.count, &fgi_heap.own.live, e->size, -1);
    e->p = 0;
    e->size = fgi_heap.own.spare;
    fgi_heap.own.spare = i;
}

/* Clears headed p's entry if it has one. */
FGI_HEAP_HOT void fgi_heap_own_forget(const void *p)
{
    uint32_t i = fgi_heap_own_find(p);
    if (i != FGI_HEAP_NO_ENTRY)
        fgi_heap_own_clear(i);
}

/* ---- frees deferred to the owner (pushed in heap_malloc.c, taken in heap.c) --------- */

/* The owner takes the blocks other threads freed: their entries cleared (or taken out of
 * the quarantine), then really freed. */
FGI_HIDDEN void fgi_heap_drain_now(void);

/* The same, after one load when there are none (the common case): on the owner's every
 * call. */
FGI_HEAP_HOT void fgi_heap_drain(void)
{
    if (atomic_load_explicit(&fgi_heap.remote, memory_order_relaxed))
        fgi_heap_drain_now();
}

#endif
