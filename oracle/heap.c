/* oracle/heap.c — the interposed malloc family and the registry of a case's live blocks.
 *
 * Registry invariant: while armed, `slots` holds exactly the blocks allocated since
 * fgi_heap_arm (since the first arm after fgi_heap_hold(1), while held) and not yet freed,
 * each with its requested size and the run that allocated it; `live` is the sum of those
 * sizes, `base` its value when the current run was armed, and `peak` the maximum of
 * live - base since then. Key 0 is an empty slot, key 1 a deleted one (no allocator
 * returns address 1).
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
    uintptr_t key;  /* the block's address; 0 empty, 1 deleted */
    size_t size;    /* requested bytes */
    uintptr_t site; /* return address of the allocating call */
    unsigned case_thread : 1; /* allocated by the thread running the case */
    unsigned gen : 31;        /* the run that allocated it (held registries keep several) */
} slot;

#define DELETED ((uintptr_t)1)

/* `armed`: OFF forwards everything; ARMED records allocations and frees; HELD (between
 * the runs of a retention check) records frees only, so a block an earlier run left and
 * another thread frees meanwhile leaves the registry. */
enum { OFF = 0, ARMED_ON = 1, HELD = 2 };

/* Process-wide because malloc has no context argument: every thread's allocations come
 * through here. `armed` is read on every call without the lock; everything else is
 * touched only under `lock`, by whichever thread allocates during a case. */
static struct {
    atomic_int armed;       /* OFF, ARMED_ON or HELD */
    atomic_flag lock;       /* guards the fields below */
    slot *slots;            /* the registry (real allocator), capacity a power of two */
    size_t cap;             /* slots */
    size_t used;            /* live + deleted slots */
    size_t count;           /* live blocks */
    size_t live;            /* live bytes */
    size_t base;            /* live bytes when this run was armed (held blocks; else 0) */
    size_t peak;            /* peak live - base this run */
    int hold;               /* disarming keeps the registry (fgi_heap_hold) */
    unsigned gen;           /* the current run, counted while held */
    size_t allowance;       /* the case's limit on live bytes */
    int refused;            /* a refusal on a thread that could not end the case */
    size_t refused_size;
} heap;

/* The malloc family below is weak: in a dynamic link the program's definition is found
 * first whatever its binding, so it interposes as a strong one would; in a -static link
 * libc.a's malloc.o (pulled in for __libc_malloc) defines the same names strongly and
 * wins, where two strong definitions would not link at all. The heap oracles then see
 * no allocation, and fgi_heap_interposed says so. */
#define INTERPOSED __attribute__((weak))

#define STATE() atomic_load_explicit(&heap.armed, memory_order_relaxed)
#define ARMED() (STATE() == ARMED_ON)
#define SITE() ((uintptr_t)__builtin_return_address(0))

static void lock(void)
{
    while (atomic_flag_test_and_set_explicit(&heap.lock, memory_order_acquire))
        ;
}

static void unlock(void)
{
    atomic_flag_clear_explicit(&heap.lock, memory_order_release);
}

static size_t hash_ptr(uintptr_t p)
{
    return (size_t)((p >> 4) * 0x9e3779b97f4a7c15ULL);
}

/* Under the lock. Grows or cleans the table so one more key fits at most half full. */
static int reserve_slot(void)
{
    if ((heap.used + 1) * 2 <= heap.cap)
        return 0;
    size_t cap = heap.cap ? heap.cap : 1024;
    while ((heap.count + 1) * 4 > cap)
        cap *= 2;
    slot *s = FGI_REAL(calloc)(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < heap.cap; i++) {
        if (heap.slots[i].key <= DELETED)
            continue;
        size_t j = hash_ptr(heap.slots[i].key) & (cap - 1);
        while (s[j].key)
            j = (j + 1) & (cap - 1);
        s[j] = heap.slots[i];
    }
    FGI_REAL(free)(heap.slots);
    heap.slots = s;
    heap.cap = cap;
    heap.used = heap.count;
    return 0;
}

/* Under the lock. mine: the block is the case thread's. */
static void insert(void *p, size_t size, uintptr_t site, int mine)
{
    if (reserve_slot() != 0)
        return; /* out of memory for the registry: the block goes unrecorded */
    size_t mask = heap.cap - 1, i = hash_ptr((uintptr_t)p) & mask;
    while (heap.slots[i].key > DELETED)
        i = (i + 1) & mask;
    if (heap.slots[i].key == 0)
        heap.used++;
    heap.slots[i] = (slot){(uintptr_t)p, size, site, mine != 0, heap.gen & 0x7fffffffu};
    heap.count++;
    heap.live += size;
    if (heap.live - heap.base > heap.peak && heap.live > heap.base)
        heap.peak = heap.live - heap.base;
}

/* Under the lock. Removes p if recorded; returns 1 when it was. */
static int forget(void *p, size_t *size)
{
    if (!heap.cap)
        return 0;
    size_t mask = heap.cap - 1, i = hash_ptr((uintptr_t)p) & mask;
    while (heap.slots[i].key) {
        if (heap.slots[i].key == (uintptr_t)p) {
            *size = heap.slots[i].size;
            heap.slots[i].key = DELETED;
            heap.count--;
            heap.live -= *size;
            return 1;
        }
        i = (i + 1) & mask;
    }
    return 0;
}

/* Under the lock. 1 when `extra` more live bytes stay within the allowance. Blocks that
 * earlier runs of a held registry left are not this run's: only live - base counts. */
static int fits(size_t extra)
{
    size_t mine = heap.live > heap.base ? heap.live - heap.base : 0;
    return extra <= heap.allowance && mine <= heap.allowance - extra;
}

/* Refuses an allocation that would pass the allowance. On the case's own thread this
 * does not return: the case ends as an amplification finding. */
static void refuse(size_t size, uintptr_t site)
{
    size_t live = heap.live > heap.base ? heap.live - heap.base : 0, allowance = heap.allowance;
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

/* The first half of every allocating call while armed, without the lock: a request the
 * allowance refuses on its own (malloc(SIZE_MAX), a forged 4 GiB length) never reaches
 * the allocator. Returns 0 to proceed. */
static int admit(size_t size, uintptr_t site)
{
    if (size <= heap.allowance)
        return 0;
    lock();
    refuse(size, site); /* unlocks */
    return -1;
}

/* The second half, one lock: the exact check against the live bytes, then the record. A
 * block the check refuses is freed before the refusal ends the case. */
static void *record(void *p, size_t size, uintptr_t site)
{
    if (!p)
        return p;
    int mine = fgi_case_on_thread();
    lock();
    /* Another thread may have been admitted just before the case ended: its block is
     * not the next case's, so it is not recorded once the registry is disarmed. */
    if (!ARMED()) {
        unlock();
        return p;
    }
    if (!fits(size)) {
        unlock();
        FGI_REAL(free)(p);
        lock();
        refuse(size, site); /* unlocks; on the case's thread, does not return */
        return errno = ENOMEM, NULL;
    }
    insert(p, size, site, mine);
    unlock();
    return p;
}

INTERPOSED void *malloc(size_t size)
{
    if (!ARMED())
        return FGI_REAL(malloc)(size);
    if (admit(size, SITE()) != 0)
        return errno = ENOMEM, NULL;
    return record(FGI_REAL(malloc)(size), size, SITE());
}

INTERPOSED void free(void *p)
{
    if (p && STATE() != OFF) {
        size_t size;
        lock();
        forget(p, &size);
        unlock();
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
    if (admit(total, SITE()) != 0)
        return errno = ENOMEM, NULL;
    return record(FGI_REAL(calloc)(n, size), total, SITE());
}

INTERPOSED void *realloc(void *p, size_t size)
{
    if (STATE() == HELD && p) { /* a held block that moves or shrinks is no longer held */
        size_t old;
        lock();
        forget(p, &old);
        unlock();
    }
    if (!ARMED())
        return FGI_REAL(realloc)(p, size);
    size_t old = 0;
    lock();
    int known = p && forget(p, &old);
    if (!fits(size)) {
        if (known)
            insert(p, old, SITE(), fgi_case_on_thread()); /* still the caller's */
        refuse(size, SITE());
        return errno = ENOMEM, NULL;
    }
    unlock();
    void *q = FGI_REAL(realloc)(p, size);
    int mine = fgi_case_on_thread();
    lock();
    if (ARMED() && q)
        insert(q, size, SITE(), mine);
    else if (ARMED() && known && size)
        insert(p, old, SITE(), mine);
    unlock();
    return q;
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
    if (admit(size, site) != 0)
        return errno = ENOMEM, NULL;
    return record(FGI_REAL(memalign)(align, size), size, site);
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

/* ---- the oracle side ---------------------------------------------------------------- */

int fgi_heap_interposed(void)
{
    void *(*volatile alloc)(size_t) = malloc; /* called as the program calls it */
    fgi_heap_report r;
    fgi_heap_arm(SIZE_MAX);
    void *p = alloc(1);
    fgi_heap_disarm(&r);
    FGI_REAL(free)(p);
    return r.live_blocks > 0;
}

void fgi_heap_arm(size_t allowance)
{
    /* No lock while not held: disarmed nobody reads these, and the release store below
     * publishes them to a thread that sees the registry armed and then takes the lock.
     * Held, another thread may be freeing an earlier run's block: take the lock. */
    int held = heap.hold;
    if (held)
        lock();
    heap.allowance = allowance;
    heap.base = held ? heap.live : 0;
    heap.gen = held ? heap.gen + 1 : 0;
    heap.peak = 0;
    heap.refused = 0;
    heap.refused_size = 0;
    if (held)
        unlock();
    atomic_store_explicit(&heap.armed, ARMED_ON, memory_order_release);
}

/* Weak: present only under LeakSanitizer (ASan). */
extern void __lsan_ignore_object(const void *p) __attribute__((weak));

/* Under the lock. Empties the registry (the blocks stay allocated). */
static void clear(void)
{
    if (heap.count) {
        memset(heap.slots, 0, heap.cap * sizeof *heap.slots);
        heap.used = 0;
    }
    /* With nothing live the table holds only deleted slots: `used` keeps counting them,
     * so reserve_slot rebuilds the table before probes could find no empty slot. */
    heap.count = 0;
    heap.live = 0;
    heap.base = 0;
}

/* Under the lock. The distinct sites of the live blocks allocated by run `gen`, at most
 * FGI_HEAP_SITES. */
static void collect_sites(fgi_heap_report *r, unsigned gen)
{
    r->nsites = 0;
    for (size_t i = 0; heap.count && i < heap.cap; i++) {
        if (heap.slots[i].key <= DELETED || heap.slots[i].gen != gen)
            continue;
        uintptr_t site = heap.slots[i].site;
        int seen = 0;
        for (unsigned j = 0; j < r->nsites; j++)
            seen |= r->sites[j] == site;
        if (!seen && r->nsites < FGI_HEAP_SITES)
            r->sites[r->nsites++] = site;
    }
}

void fgi_heap_disarm(fgi_heap_report *r)
{
    atomic_store_explicit(&heap.armed, heap.hold ? HELD : OFF, memory_order_release);
    lock();
    r->nsites = 0; /* not a memset: sites[] is large and this runs every case */
    r->live_bytes = heap.live;
    r->live_blocks = heap.count;
    r->peak_bytes = heap.peak;
    r->refused = heap.refused;
    r->refused_size = heap.refused_size;
    /* What a case keeps is judged by the retention check (lazy initialisation and "keep
     * the latest" pass, growth on every run is a finding); LeakSanitizer keeps judging
     * the engine's own memory, so a target leak is not reported twice. The sites are
     * named only for a finding (fgi_heap_held_sites): no scan of the table here. */
    for (size_t i = 0; heap.count && __lsan_ignore_object && i < heap.cap; i++)
        if (heap.slots[i].key > DELETED && heap.slots[i].gen == heap.gen)
            __lsan_ignore_object((void *)heap.slots[i].key);
    if (!heap.hold)
        clear();
    unlock();
}

void fgi_heap_hold(int on)
{
    lock();
    heap.hold = on;
    if (!on) {
        clear();
        heap.gen = 0;
        if (STATE() == HELD)
            atomic_store_explicit(&heap.armed, OFF, memory_order_release);
    }
    unlock();
}

void fgi_heap_held_sites(fgi_heap_report *r, unsigned runs_ago)
{
    lock();
    collect_sites(r, heap.gen - runs_ago);
    unlock();
}

void fgi_heap_release(void)
{
    atomic_store_explicit(&heap.armed, heap.hold ? HELD : OFF, memory_order_release);
    lock();
    /* Only the case thread's blocks of this run: a thread the case started may still own
     * its own, and what earlier runs of a held registry left belongs to the target. */
    for (size_t i = 0; heap.count && i < heap.cap; i++) {
        slot *s = &heap.slots[i];
        if (s->key <= DELETED || s->gen != heap.gen)
            continue;
        if (s->case_thread)
            FGI_REAL(free)((void *)s->key);
        if (heap.hold) {
            s->key = DELETED;
            heap.count--;
            heap.live -= s->size;
        }
    }
    if (!heap.hold)
        clear();
    unlock();
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
