/* oracle/heap_malloc.c — the interposed malloc family: its 13 entry points, each one's way
 * through the registry while it is armed or held, and the switches that arm it.
 *
 * Outside a case each call forwards to the real allocator after one flag test (the armed
 * paths are out of line, so that one needs no frame). While armed, the owner's blocks are
 * headed (heap_block.h) and recorded in its list without a lock; another thread's are
 * recorded in the table (heap_table.c) under the lock; a block that would pass the
 * allowance is refused (heap.c, fgi_heap_refuse).
 *
 * A block crosses over in two ways:
 *   - the owner frees (or moves) another thread's block: it is not headed, so the owner
 *     finds it in `other`, under the lock, when `other` holds anything;
 *   - another thread frees (or moves) a headed block while `own` holds anything: it cannot
 *     touch `own`, so the free is deferred — the block is pushed on `remote`, a stack
 *     threaded through the blocks themselves — and the owner clears its entry and really
 *     frees it at its next call or at disarm. Realloc becomes malloc, copy, deferred free.
 *
 * Another thread's free of a headed block, while the registry is armed or held, decides
 * under the lock (other_free_headed), because the owner's release of an ended case
 * (fgi_heap_release) walks its blocks under the same lock: each block is either deferred
 * first (its tag word the link: the release passes it over) or put in the quarantine
 * first (the free takes it out again), never both, and never freed behind the release's
 * back. Once the release has stored OFF, its work is visible to a free that reads OFF
 * (acquire), and a quarantined block is taken out by that free too.
 */
#include "oracle/heap.h"
#include "oracle/heap_quarantine.h"
#include "oracle/heap_registry.h"
#include "oracle/heap_table.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/* The malloc family below is weak: in a dynamic link the program's definition is found
 * first whatever its binding, so it interposes as a strong one would; in a -static link
 * libc.a's malloc.o (pulled in for __libc_malloc) defines the same names strongly and
 * wins, where two strong definitions would not link at all. The heap oracles then see
 * no allocation, and fgi_heap_interposed says so.
 *
 * Under a sanitizer it is strong. clang links its ASan or TSan runtime into the program
 * itself, ahead of every object, and defines the family there as weak aliases of its
 * __interceptor_ functions (which are the real allocator then, real_alloc.h), so that a
 * program's own strong definitions win. A weak one here lost to the runtime's, which came
 * first, and the heap oracles of a clang sanitizer build saw nothing. gcc's runtime is a
 * shared library, where either binding interposes; neither sanitizer links -static. */
#ifdef FGI_SAN_RUNTIME
#define INTERPOSED
#else
#define INTERPOSED __attribute__((weak))
#endif
/* The allocating site: the return address in the caller of an interposed function. */
#define SITE() ((uintptr_t)__builtin_return_address(0))

/* The bytes the program may use at p, headed or not. Out of line: inlined into free (by
 * way of defer_free), it cost free's fast path three pushes, for the registers its rare
 * callers need. */
__attribute__((noinline)) static size_t usable_of(void *p)
{
    return fgi_heap_headed(p) ? fgi_heap_headed_usable(p) : fgi_real_usable(p);
}

/* ---- moving a headed block --------------------------------------------------------- */

/* A headed block of `size` (entry idx) holding what p held, then p freed; NULL (p kept)
 * when there is none. For a block that cannot be resized in place: an aligned one, or one
 * without a header. */
static void *copy_into_headed(void *p, size_t size, uint32_t idx)
{
    void *b = fgi_heap_raw_alloc(size, FGI_HEAP_HDR_SHIFT, 0);
    if (!b)
        return NULL;
    void *q = (char *)b + ((size_t)1 << FGI_HEAP_HDR_SHIFT);
    size_t have = usable_of(p);
    memcpy(q, p, have < size ? have : size);
    fgi_heap_raw_free(p);
    fgi_heap_stamp(q, FGI_HEAP_HDR_SHIFT, idx);
    return q;
}

/* Resizes headed p to `size`, entry idx; NULL (p kept) when it cannot. */
static void *headed_resize(void *p, size_t size, uint32_t idx)
{
    if (fgi_heap_queued(p) && !fgi_heap_unqueue(p))
        return errno = ENOMEM, NULL; /* the quarantine freed it: nothing left to move */
    if (fgi_heap_hdr_of(p)->shift != FGI_HEAP_HDR_SHIFT)
        return copy_into_headed(p, size, idx);
    size_t lead = (size_t)1 << FGI_HEAP_HDR_SHIFT;
    if (size > SIZE_MAX - lead)
        return errno = ENOMEM, NULL;
    void *b = FGI_REAL(realloc)(fgi_heap_block_of(p), size + lead);
    if (!b)
        return NULL;
    void *q = (char *)b + lead;
    fgi_heap_stamp(q, FGI_HEAP_HDR_SHIFT, idx);
    return q;
}

/* ---- the other threads' table, locked ---------------------------------------------- */

/* Removes p from `other` if it is there; returns 1 (and its slot) when it was. Either
 * side. */
static int other_forget(const void *p, fgi_heap_slot *out)
{
    if (!FGI_HEAP_COUNT(&fgi_heap.other))
        return 0;
    fgi_heap_lock();
    int found = fgi_heap_table_forget(&fgi_heap.other, p, out);
    fgi_heap_unlock();
    return found;
}

/* Puts back a slot the owner took from `other` for a move that did not happen (the owner's
 * state cannot change meanwhile: only the owner changes it). */
static void other_restore(const fgi_heap_slot *s)
{
    fgi_heap_lock();
    fgi_heap_table_insert(&fgi_heap.other, *s);
    fgi_heap_unlock();
}

/* ---- the owner's side: no lock unless a block crosses over ----------------------- */

/* Records the owner's new block, the allocator's block b, admitted when this run's excess
 * was `now`: stamps its header and returns the address the program sees. */
FGI_HEAP_HOT void *own_record(void *b, unsigned shift, size_t size, uintptr_t site,
                              int64_t now)
{
    void *p = (char *)b + ((size_t)1 << shift);
    fgi_heap_stamp(p, shift, fgi_heap_own_add(p, size, site));
    fgi_heap_own_peak(now, size);
    return p;
}

/* The owner's allocation of `size` aligned to 2^shift (zeroed when `zero`) while armed:
 * checked against the allowance first (a refusal ends the case), then headed and
 * recorded. */
FGI_HEAP_HOT void *own_alloc(size_t size, unsigned shift, int zero, uintptr_t site)
{
    fgi_heap_drain();
    int64_t now = fgi_heap_run_excess();
    if (!fgi_heap_fits_at(now, size)) {
        fgi_heap_refuse(size, site); /* on the case's thread, does not return */
        return errno = ENOMEM, NULL;
    }
    void *b = fgi_heap_raw_alloc(size, shift, zero);
    return b ? own_record(b, shift, size, site, now) : NULL;
}

/* ---- every other thread's side: under the lock ----------------------------------- */

/* Records a block another thread allocated, after the exact check; a block the check
 * refuses is freed again. Never headed: only the owner's blocks are. */
static void *other_record(void *p, size_t size, uintptr_t site)
{
    if (!p)
        return p;
    fgi_heap_lock();
    /* The case may have ended just before: the block is not the next case's, so it is
     * not recorded once the registry is disarmed. */
    if (!FGI_HEAP_IS_ARMED()) {
        fgi_heap_unlock();
        return p;
    }
    if (!fgi_heap_fits(size)) {
        fgi_heap_unlock();
        FGI_REAL(free)(p);
        fgi_heap_refuse(size, site);
        return errno = ENOMEM, NULL;
    }
    fgi_heap_table_insert(&fgi_heap.other,
                          (fgi_heap_slot){(uintptr_t)p, size, site, fgi_heap.gen, 0});
    fgi_heap_raise_peak(&fgi_heap.other_peak);
    fgi_heap_unlock();
    return p;
}

/* ---- frees deferred to the owner: another thread pushes, the owner takes ----------- */

/* Pushes headed p on `remote`. The link goes in the header's tag word, not in the block:
 * a block of 0 bytes has no room for it (under ASan its end is the next chunk's header).
 * Under the lock (other_free_headed); the owner takes the stack without it. */
static void defer_free(void *p)
{
    atomic_fetch_add_explicit(&fgi_heap.deferred, usable_of(p), memory_order_relaxed);
    void *head = atomic_load_explicit(&fgi_heap.remote, memory_order_relaxed);
    do
        fgi_heap_set_link(p, head);
    while (!atomic_compare_exchange_weak_explicit(&fgi_heap.remote, &head, p,
                                                  memory_order_release, memory_order_relaxed));
}

/* ---- the interposed family --------------------------------------------------------- */

/* The shift of a block aligned to `align`: the header's, or the alignment's when larger
 * (rounded up to a power of two, as glibc rounds it). */
static unsigned shift_for(size_t align)
{
    unsigned shift = FGI_HEAP_HDR_SHIFT;
    while (shift < 63 && ((size_t)1 << shift) < align)
        shift++;
    return shift;
}

/* An allocation of `size` by any thread while armed: the owner's is headed (aligned to
 * 2^shift), another thread's is `call` on the allocator underneath, recorded in `other`. */
#define ALLOCATE(call, size, shift, zero, site)                                            \
    do {                                                                                   \
        if (FGI_HEAP_IS_OWNER())                                                           \
            return own_alloc((size), (shift), (zero), (site));                             \
        if ((size) > fgi_heap.allowance) {                                                 \
            fgi_heap_refuse((size), (site));                                               \
            return errno = ENOMEM, NULL;                                                   \
        }                                                                                  \
        return other_record((call), (size), (site));                                       \
    } while (0)

/* The armed side of alloc_at. Out of line: the registry's path saves registers, and the
 * far more common disarmed call (every allocation outside a case) then needs no frame —
 * a load, a test and a jump to the allocator. */
__attribute__((noinline)) static void *alloc_armed(size_t size, uintptr_t site)
{
    ALLOCATE(FGI_REAL(malloc)(size), size, FGI_HEAP_HDR_SHIFT, 0, site);
}

/* malloc of size for the caller at site, by any thread (also realloc's moves across). */
FGI_HEAP_HOT void *alloc_at(size_t size, uintptr_t site)
{
    if (!FGI_HEAP_IS_ARMED())
        return FGI_REAL(malloc)(size);
    return alloc_armed(size, site);
}

INTERPOSED void *malloc(size_t size)
{
    return alloc_at(size, SITE());
}

/* Another thread's free of headed p while the registry is armed or held: out of the
 * quarantine when the owner's release put it there, deferred to the owner while `own` may
 * hold it, else (an earlier case's block) freed. Decided under the lock, which the
 * release's walk over `own` holds (the file's header says why). Out of line: rare, and
 * free's fast path then needs no frame for it. */
__attribute__((noinline)) static void other_free_headed(void *p)
{
    fgi_heap_lock();
    FGI_HEAP_TSAN_ACQUIRE(&fgi_heap.lock);
    int queued = fgi_heap_queued(p);
    FGI_HEAP_TSAN_RELEASE(&fgi_heap.lock); /* before the push: the owner's drain acquires */
    if (!queued && FGI_HEAP_COUNT(&fgi_heap.own)) {
        defer_free(p);
        fgi_heap_unlock();
        return;
    }
    fgi_heap_unlock();
    /* Neither can change now: only a release's walk over `own` queues a block, and p is
     * not in `own` when it holds nothing. */
    if (queued)
        fgi_heap_free_queued(p);
    else
        FGI_REAL(free)(fgi_heap_block_of(p));
}

/* A headed block's free: the owner clears its entry; another thread's while the registry
 * is armed or held goes through other_free_headed; a block in the quarantine is taken
 * out of it first. The state is read with acquire: a free that sees OFF sees everything
 * the release before it did (which blocks it queued). */
FGI_HEAP_HOT void free_headed(void *p)
{
    if (atomic_load_explicit(&fgi_heap.armed, memory_order_acquire) != FGI_HEAP_OFF) {
        if (!FGI_HEAP_IS_OWNER()) {
            other_free_headed(p);
            return;
        }
        fgi_heap_drain();
        uint32_t i = fgi_heap_own_find(p);
        if (i != FGI_HEAP_NO_ENTRY) {
            fgi_heap_own_clear(i);
        } else if (__builtin_expect(fgi_heap_queued(p), 0)) { /* an ended case's block */
            fgi_heap_free_queued(p);
            return;
        }
    } else if (__builtin_expect(fgi_heap_queued(p), 0)) {
        fgi_heap_free_queued(p);
        return;
    }
    FGI_REAL(free)(fgi_heap_block_of(p));
}

/* An unheaded block's free while the registry is armed or held: out of line, so that
 * free outside a case needs no frame (as alloc_armed). */
__attribute__((noinline)) static void free_recorded(void *p)
{
    fgi_heap_slot s;
    other_forget(p, &s);
    FGI_REAL(free)(p);
}

INTERPOSED void free(void *p)
{
    if (!p)
        return;
    if (fgi_heap_headed(p)) {
        free_headed(p);
        return;
    }
    if (FGI_HEAP_STATE() != FGI_HEAP_OFF) {
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
    if (!FGI_HEAP_IS_ARMED())
        return FGI_REAL(calloc)(n, size);
    size_t total;
    if (__builtin_mul_overflow(n, size, &total))
        return errno = ENOMEM, NULL;
    ALLOCATE(FGI_REAL(calloc)(n, size), total, FGI_HEAP_HDR_SHIFT, 1, SITE());
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
    if (fgi_heap_headed(p)) /* the owner's, or an earlier case's: never resized here */
        return move_across(p, size, site);
    fgi_heap_slot old;
    int known = other_forget(p, &old);
    if (state == FGI_HEAP_HELD)
        return FGI_REAL(realloc)(p, size);
    fgi_heap_lock();
    if (!fgi_heap_fits(size)) {
        if (known && FGI_HEAP_IS_ARMED())
            fgi_heap_table_insert(&fgi_heap.other, old); /* still the caller's */
        fgi_heap_unlock();
        fgi_heap_refuse(size, site);
        return errno = ENOMEM, NULL;
    }
    fgi_heap_unlock();
    void *q = FGI_REAL(realloc)(p, size);
    if (!q && !known)
        return NULL;
    fgi_heap_lock();
    /* No second check: the block has moved, and refusing now would lose it. */
    if (FGI_HEAP_IS_ARMED()) {
        if (q)
            fgi_heap_table_insert(&fgi_heap.other,
                                  (fgi_heap_slot){(uintptr_t)q, size, site, fgi_heap.gen, 0});
        else
            fgi_heap_table_insert(&fgi_heap.other, old);
        fgi_heap_raise_peak(&fgi_heap.other_peak);
    }
    fgi_heap_unlock();
    return q;
}

/* The owner's realloc while the registry is armed or held. A headed block is resized in
 * place of its entry; another block — older memory, or another thread's — becomes a
 * headed one of this run, its contents copied. */
static void *own_realloc(void *p, size_t size, int state, uintptr_t site)
{
    fgi_heap_drain();
    int hd = fgi_heap_headed(p);
    uint32_t i = hd ? fgi_heap_own_find(p) : FGI_HEAP_NO_ENTRY;
    fgi_heap_slot old;
    int in_other = !hd && other_forget(p, &old);
    if (state == FGI_HEAP_HELD) { /* frees only: the moved block is not recorded */
        void *q = hd ? headed_resize(p, size, FGI_HEAP_NO_ENTRY)
                     : FGI_REAL(realloc)(p, size);
        if (q && i != FGI_HEAP_NO_ENTRY)
            fgi_heap_own_clear(i);
        else if (!q && in_other)
            other_restore(&old);
        return q;
    }
    int64_t now = fgi_heap_run_excess() -
                  (i != FGI_HEAP_NO_ENTRY ? (int64_t)fgi_heap.own.e[i].size : 0);
    if (!fgi_heap_fits_at(now, size)) {
        if (in_other)
            other_restore(&old); /* still the caller's */
        fgi_heap_refuse(size, site); /* on the case's thread, does not return */
        return errno = ENOMEM, NULL;
    }
    void *q = hd ? headed_resize(p, size, i) : copy_into_headed(p, size, FGI_HEAP_NO_ENTRY);
    if (!q) {
        if (in_other)
            other_restore(&old);
        return NULL;
    }
    if (i == FGI_HEAP_NO_ENTRY) {
        fgi_heap_hdr_of(q)->idx = fgi_heap_own_add(q, size, site);
    } else { /* the same entry, now the moved block's */
        fgi_heap_entry *e = &fgi_heap.own.e[i];
        size_t l = FGI_HEAP_LIVE(&fgi_heap.own);
        atomic_store_explicit(&fgi_heap.own.live, l - e->size + size, memory_order_relaxed);
        *e = (fgi_heap_entry){(uintptr_t)q, size, site, fgi_heap.gen};
    }
    fgi_heap_own_peak(now, size);
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
    int state = atomic_load_explicit(&fgi_heap.armed, memory_order_acquire); /* as free */
    if (state == FGI_HEAP_OFF)
        return fgi_heap_headed(p) ? headed_resize(p, size, FGI_HEAP_NO_ENTRY)
                                  : FGI_REAL(realloc)(p, size);
    if (!FGI_HEAP_IS_OWNER())
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
    if (!FGI_HEAP_IS_ARMED())
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

/* ---- the switches: arming and disarming the family for a case ---------------------- */

/* Here, beside the functions whose every call reads the state they set: the harness's
 * calls to them are also what links this file into every program that arms the heap
 * oracle (an archive member is linked only for a symbol still undefined, and under ASan
 * the runtime has defined malloc before libfuzzgate.a is read). */

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

#ifndef FGI_SAN_RUNTIME
/* The runtimes that intercept malloc, each present (non-NULL) when linked into the program
 * (UBSan's alone does not intercept it: no reference to it here; ASan's: real_alloc.h). */
extern void __tsan_init(void) __attribute__((weak));
extern void __msan_init(void) __attribute__((weak));
extern void __hwasan_init(void) __attribute__((weak));
#endif

const char *fgi_heap_warning(void)
{
    int ours = fgi_heap_interposed();
#ifndef FGI_SAN_RUNTIME
    /* A libfuzzgate built without the program's sanitizer. Either the runtime's family won
     * (clang links its runtime into the program, ahead of this weak family: an OSS-Fuzz-
     * style clang -fsanitize=address harness), and the heap oracles see nothing; or this
     * family won (gcc's runtime is a shared library, loaded after the program): under ASan
     * it hands the blocks to the runtime's allocator (real_alloc.h) and all is well, under
     * another sanitizer to the C library's, out of the sanitizer's sight. */
    if (ours && FGI_REAL_UNDER_ASAN)
        return NULL;
#define SAME_BUILD                                                                         \
    " Build libfuzzgate with the same compiler and sanitizer (make CC=<yours> "            \
    "SANITIZE=address) and its malloc wraps the sanitizer's"
    if (FGI_REAL_UNDER_ASAN || __tsan_init || __msan_init || __hwasan_init)
        return ours ? "libfuzzgate was built without the sanitizer this program runs under: "
                      "its malloc hands the program's blocks to the C library's allocator, "
                      "which the sanitizer does not check (heap overflows and "
                      "use-after-free go unseen)." SAME_BUILD
                    : "this program's malloc is its sanitizer's, and libfuzzgate was built "
                      "without that sanitizer: the amplification and heap retention oracles "
                      "see nothing." SAME_BUILD;
#undef SAME_BUILD
#endif
    if (ours)
        return NULL;
    return "this program's malloc is not fuzzgate's (a -static link takes libc.a's; an "
           "allocator linked in as strong malloc/free definitions takes its own): the "
           "amplification and heap retention oracles see nothing, and libc's memcmp and kin "
           "may not be observed. Link dynamically for them (docs/embedding.md)";
}

#ifdef FGI_TSAN
atomic_int fgi_heap_tsan_armed;
#endif

void fgi_heap_arm(size_t allowance)
{
#ifdef FGI_TSAN
    atomic_store_explicit(&fgi_heap_tsan_armed, 1, memory_order_relaxed);
#endif
    /* The calling thread becomes the owner. Frees another thread deferred after an
     * earlier disarm are taken first, as the old owner's (same thread in practice). */
    fgi_real_find_usable(); /* now, while no call of the family is under way */
    fgi_heap_drain();
    atomic_store_explicit(&fgi_heap.owner, &fgi_heap_thread, memory_order_relaxed);
    /* No lock while not held: disarmed nobody reads these, and the release store below
     * publishes them. Held, another thread may be freeing an earlier run's block. */
    int held = fgi_heap.hold;
    if (held) {
        fgi_heap_lock();
    } else { /* what the last run left was kept for a retention check that did not come */
        fgi_heap_own_empty();
        /* nothing to do, and no lock, when no other thread allocated */
        if (FGI_HEAP_COUNT(&fgi_heap.other) || fgi_heap.other.high) {
            fgi_heap_lock(); /* another thread may still be in a free it began while held */
            fgi_heap_table_empty(&fgi_heap.other);
            fgi_heap_unlock();
        }
    }
    fgi_heap.allowance = allowance;
    fgi_heap.base = held ? FGI_HEAP_LIVE(&fgi_heap.own) + FGI_HEAP_LIVE(&fgi_heap.other) : 0;
    fgi_heap.gen = held ? fgi_heap.gen + 1 : 0;
    fgi_heap.peak = 0;
    fgi_heap.other_peak = 0;
    fgi_heap.refused = 0;
    fgi_heap.refused_size = 0;
    if (held)
        fgi_heap_unlock();
    atomic_store_explicit(&fgi_heap.armed, FGI_HEAP_ARMED, memory_order_release);
}

/* Weak: present only under LeakSanitizer (ASan). */
extern void __lsan_ignore_object(const void *p) __attribute__((weak));

static void ignore_leak(void *block, uintptr_t site, unsigned gen, void *ctx)
{
    (void)site, (void)gen, (void)ctx;
    __lsan_ignore_object(block);
}

void fgi_heap_disarm(fgi_heap_report *r)
{
    /* HELD even when not holding: the run's blocks stay recorded (for a retention check
     * that may follow), so their frees must be seen until the next arm empties them, or a
     * freed address allocated again would be recorded twice. */
    fgi_heap_stop(FGI_HEAP_HELD);
    fgi_heap_lock();
    r->nsites = 0; /* not a memset: sites[] is large and this runs every case */
    r->live_bytes = FGI_HEAP_LIVE(&fgi_heap.own) + FGI_HEAP_LIVE(&fgi_heap.other);
    r->live_blocks = FGI_HEAP_COUNT(&fgi_heap.own) + FGI_HEAP_COUNT(&fgi_heap.other);
    r->peak_bytes = fgi_heap.peak > fgi_heap.other_peak ? fgi_heap.peak : fgi_heap.other_peak;
    r->refused = fgi_heap.refused;
    r->refused_size = fgi_heap.refused_size;
    /* What a case keeps is judged by the retention check (lazy initialisation and "keep
     * the latest" pass, growth on every run is a finding); LeakSanitizer keeps judging
     * the engine's own memory, so a target leak is not reported twice. The sites are
     * named only for a finding (fgi_heap_held_sites): no scan of the registry here. */
    if (__lsan_ignore_object) {
        fgi_heap_own_each(fgi_heap.gen, 1, ignore_leak, NULL);
        fgi_heap_table_each(&fgi_heap.other, fgi_heap.gen, 1, ignore_leak, NULL);
    }
    fgi_heap_unlock();
}

void fgi_heap_hold(int on)
{
    if (!on && FGI_HEAP_STATE() == FGI_HEAP_HELD)
        atomic_store_explicit(&fgi_heap.armed, FGI_HEAP_OFF, memory_order_release);
    fgi_heap_drain();
    fgi_heap_lock();
    fgi_heap.hold = on;
    if (!on) {
        fgi_heap_own_empty();
        fgi_heap_table_empty(&fgi_heap.other);
        fgi_heap.gen = 0;
    }
    fgi_heap_unlock();
}
