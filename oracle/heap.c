/* oracle/heap.c — the registry of a case's live blocks, and the heap oracle's calls that
 * read it (the switches that arm it are heap_malloc.c's).
 *
 * The registry has two sides. The owner — the thread that armed it (the thread running
 * the case, and between the runs of a retention check the engine on that same thread) —
 * keeps its blocks in `own`, a list only it touches, with no lock; every other thread's
 * blocks are in `other`, a hash table under `lock` (heap_table.c).
 *
 * `own` is an array of entries; a free clears its block's entry and chains it on a list of
 * spare entries, which the next allocation takes before it appends (so the array grows to
 * the most blocks live at once, and no entry ever moves). Emptying it is two stores.
 *
 * Registry invariant: while armed, own ∪ other holds exactly the blocks allocated since
 * fgi_heap_arm (since the first arm after fgi_heap_hold(1), while held) and not yet freed
 * (a deferred free counts once the owner takes it from `remote`), each with its requested
 * size and the run that allocated it; `live` of each side is the sum of its sizes, `base`
 * the total when the current run was armed, and the run's peak the maximum of the total
 * minus base (the owner's and other threads' views, each taken at their own calls).
 *
 * The heap oracle is in parts, in the shape of compiler-rt's allocator: the interposed
 * family and its switches (heap_malloc.c), this registry (here), the other threads' table
 * (heap_table.c), the quarantine (heap_quarantine.c); the hot helpers they share are
 * inlined from heap_block.h (a block's header) and heap_registry.h (the registry's state).
 */
#include "oracle/heap.h"

#include "engine/base/case.h"
#include "oracle/frames.h"
#include "oracle/heap_quarantine.h"
#include "oracle/heap_registry.h"
#include "oracle/heap_table.h"

#include <stdlib.h>
#include <string.h>

/* The registry's state (heap_registry.h says who touches which field, and when). */
struct fgi_heap_registry fgi_heap = {.own.spare = FGI_HEAP_NO_SPARE, .other.epoch = 1};

_Thread_local char fgi_heap_thread;

/* ---- the owner's list ------------------------------------------------------------- */

void fgi_heap_own_empty(void)
{
    fgi_heap_list *l = &fgi_heap.own;
    if (l->cap > 16 * FGI_HEAP_FIRST_CAP && l->n * 16 < l->cap) {
        FGI_REAL(free)(l->e);
        l->e = NULL;
        l->cap = 0;
    }
    l->n = 0;
    l->spare = FGI_HEAP_NO_SPARE;
    atomic_store_explicit(&l->count, 0, memory_order_relaxed);
    atomic_store_explicit(&l->live, 0, memory_order_relaxed);
}

int fgi_heap_own_grow(void)
{
    fgi_heap_list *l = &fgi_heap.own;
    size_t cap = l->cap ? l->cap * 2 : FGI_HEAP_FIRST_CAP;
    if (cap > FGI_HEAP_QUEUED) /* an index must not reach the quarantine's flag */
        return -1;
    fgi_heap_entry *e = FGI_REAL(realloc)(l->e, cap * sizeof *e);
    if (!e)
        return -1;
    l->e = e;
    l->cap = cap;
    return 0;
}

/* ---- refusal: either side ---------------------------------------------------------- */

FGI_HEAP_ENTRY void fgi_heap_refuse(size_t size, uintptr_t site)
{
    size_t live = fgi_heap_run_live(), allowance = fgi_heap.allowance;
    fgi_heap_lock();
    fgi_heap.refused = 1;
    fgi_heap.refused_size = size;
    fgi_heap_unlock();
    if (fgi_case_on_thread()) {
        char where[128];
        fgi_frames_site_name(site, where, sizeof where);
        fgi_case_end("amplification", where,
                     "an allocation of %zu bytes, with %zu bytes live, would pass the "
                     "case's allowance of %zu bytes (at %s)",
                     size, live, allowance, where);
    }
}

/* ---- deferred frees: the owner's side --------------------------------------------- */

/* The owner's side of frees another thread deferred (heap_malloc.c pushes them). */
void fgi_heap_drain_now(void)
{
    void *p = atomic_exchange_explicit(&fgi_heap.remote, NULL, memory_order_acquire);
    if (p)
        FGI_HEAP_TSAN_ACQUIRE(&fgi_heap.lock); /* the pushers' release (heap_malloc.c) */
    while (p) { /* each headed, its tag word the link (defer_free) */
        void *next = fgi_heap_link_of(p);
        size_t usable = fgi_heap_headed_usable(p);
        /* Never in the quarantine: a deferred block is unheaded, so a release passes it
         * over, and a queued one is taken out, not deferred (both under the lock). */
        fgi_heap_own_forget(p);
        /* after: never counted twice as gone */
        atomic_fetch_sub_explicit(&fgi_heap.deferred, usable, memory_order_relaxed);
        FGI_REAL(free)(fgi_heap_block_of(p));
        p = next;
    }
}

/* ---- the oracle side: the owner's calls -------------------------------------------- */

void fgi_heap_own_each(unsigned first, unsigned n, fgi_heap_block_fn *fn, void *ctx)
{
    const fgi_heap_list *l = &fgi_heap.own;
    for (size_t i = 0; FGI_HEAP_COUNT(l) && i < l->n; i++) {
        const fgi_heap_entry *e = &l->e[i];
        if (e->p && e->gen - first < n)
            fn(fgi_heap_block_of((void *)e->p), e->site, e->gen, ctx);
    }
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

void fgi_heap_stop(int state)
{
    atomic_store_explicit(&fgi_heap.armed, state, memory_order_release);
    fgi_heap_drain();
}

void fgi_heap_held_sites(fgi_heap_report *r, unsigned runs_ago)
{
    fgi_heap_drain();
    fgi_heap_lock();
    r->nsites = 0;
    fgi_heap_own_each(fgi_heap.gen - runs_ago, 1, add_site, r);
    fgi_heap_table_each(&fgi_heap.other, fgi_heap.gen - runs_ago, 1, add_site, r);
    fgi_heap_unlock();
}

unsigned fgi_heap_run(void)
{
    return fgi_heap.gen;
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
    fgi_heap_drain();
    fgi_heap_own_each(first, n, mark_live, &r);
    fgi_heap_lock();
    fgi_heap_table_each(&fgi_heap.other, first, n, mark_live, &r);
    fgi_heap_unlock();
}

void fgi_heap_release(void)
{
    /* HELD, not OFF, while the walk below runs, even when not holding: another thread's
     * free of one of this run's blocks must then decide under the lock the walk holds
     * (heap_malloc.c, other_free_headed), and not reach the allocator while the walk can
     * still read the block and queue it — which the quarantine's eviction would then free
     * a second time. OFF is stored only once the walk is done. */
    fgi_heap_stop(FGI_HEAP_HELD);
    /* Only the owner's blocks of this run: a thread the case started may still own its
     * own, and what earlier runs of a held registry left belongs to the target. They go to
     * the quarantine, not back to the allocator (heap_quarantine.c says why). */
    fgi_heap_list *l = &fgi_heap.own;
    void *evicted = NULL;
    fgi_heap_lock();
    for (size_t i = 0; FGI_HEAP_COUNT(l) && i < l->n; i++) {
        fgi_heap_entry *e = &l->e[i];
        if (!e->p || e->gen != fgi_heap.gen)
            continue;
        /* Not headed: another thread's free of it waits on `remote` (its tag is the
         * link), and the next drain frees it once its entry is gone. */
        if (fgi_heap_headed((void *)e->p))
            fgi_heap_queue_add((void *)e->p, &evicted);
        fgi_heap_own_clear((uint32_t)i);
    }
    fgi_heap_queue_trim(&evicted);
    fgi_heap_unlock();
    fgi_heap_free_evicted(evicted);
    if (fgi_heap.hold) {
        fgi_heap_lock(); /* other threads' blocks of this run stay theirs, but leave the count */
        fgi_heap_table_drop_run(&fgi_heap.other, fgi_heap.gen);
        fgi_heap_unlock();
    } else {
        fgi_heap_stop(FGI_HEAP_OFF); /* a free that now reads OFF sees the walk's queueing */
        fgi_heap_own_empty();
        fgi_heap_lock();
        fgi_heap_table_empty(&fgi_heap.other);
        fgi_heap_unlock();
    }
}
