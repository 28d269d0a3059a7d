/* oracle/heap_block.h — a headed block: the header before each block the owner allocated
 * while armed, its tag, and the real allocator's block under it. Private to the heap
 * oracle's parts, which all inline these: they are on the path of every free.
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
 * `own` is the owner's list (heap_registry.h); a block in the quarantine (heap_quarantine.c)
 * has its place there as its index instead. While a block waits on a chain — its free
 * deferred to the owner (heap_malloc.c), or evicted from the quarantine — its tag word is
 * the chain's link, so it is unheaded until it is really freed.
 */
#ifndef FG_HEAP_BLOCK_H
#define FG_HEAP_BLOCK_H

#include "engine/base/real_alloc.h"

#include <errno.h>
#include <string.h>

/* The header of a block the owner allocated while armed, just before the address the
 * program sees (p). */
typedef struct fgi_heap_hdr {
    uint32_t idx;   /* its entry in `own`, FGI_HEAP_QUEUED | its place in the quarantine, or
                     * FGI_HEAP_NO_ENTRY */
    uint32_t shift; /* log2 of the bytes from the allocator's block to p: FGI_HEAP_HDR_SHIFT,
                     * or an alignment's when one larger than the header was asked for */
    uint64_t tag;   /* FGI_HEAP_TAG(p, shift); the chain's link while its free is deferred */
} fgi_heap_hdr;

#define FGI_HEAP_HDR_SHIFT 4 /* the header's 16 bytes: p keeps the allocator's alignment */
#define FGI_HEAP_NO_ENTRY UINT32_MAX
#define FGI_HEAP_QUEUED 0x80000000u /* an index with this bit (and not FGI_HEAP_NO_ENTRY):
                                     * the quarantine's */
/* Top bit set: a glibc chunk size is never this large, so no unheaded block carries a
 * valid tag. The rest are arbitrary bits; the tag is never written to a report. The shift
 * is folded in (bits 48..53), so a target's write just before its block that changes the
 * shift unheads the block (its free then fails in the allocator, as such a bug should)
 * rather than sending a wild address to the allocator. */
#define FGI_HEAP_TAG_KEY 0xd1b54a32d192ed03ULL
#define FGI_HEAP_TAG(p, shift)                                                             \
    ((uint64_t)(uintptr_t)(p) ^ FGI_HEAP_TAG_KEY ^ (uint64_t)(shift) << 48)

_Static_assert(sizeof(fgi_heap_hdr) == (size_t)1 << FGI_HEAP_HDR_SHIFT,
               "the header is 16 bytes");

/* The hot path's helpers are inlined whatever the optimiser's budget says. */
#define FGI_HEAP_HOT static inline __attribute__((always_inline))

/* Under ThreadSanitizer (SANITIZE=thread) the interposed family runs uninstrumented
 * (the Makefile compiles heap_malloc.c and heap_table.c without TSan): the runtime
 * allocates while it starts and while it starts each thread, before an instrumented
 * function may run on it. The registry's engine side (heap.c, heap_quarantine.c) keeps
 * its instrumentation, which TSan judges; a function of theirs that the family calls on
 * any thread is FGI_HEAP_ENTRY (uninstrumented too). Where the family hands a block to
 * the engine's side through the lock, it says so to TSan (FGI_HEAP_TSAN_ACQUIRE/RELEASE on
 * the lock's address, as the instrumented side's lock is seen), on paths only a running
 * thread takes (frees of headed blocks), never on the allocations a starting thread
 * makes. Other builds: nothing. */
#ifdef FGI_TSAN
#ifdef __clang__
#define FGI_HEAP_ENTRY __attribute__((disable_sanitizer_instrumentation))
#else
#define FGI_HEAP_ENTRY __attribute__((no_sanitize("thread")))
#endif
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define FGI_HEAP_TSAN_ACQUIRE(a) __tsan_acquire((void *)(a))
#define FGI_HEAP_TSAN_RELEASE(a) __tsan_release((void *)(a))
#else
#define FGI_HEAP_ENTRY
#define FGI_HEAP_TSAN_ACQUIRE(a) ((void)0)
#define FGI_HEAP_TSAN_RELEASE(a) ((void)0)
#endif

/* A headed block's lead, the header in it, is poisoned under ASan: a target's underflow
 * into it is the target's bug, reported as one. A plain build does it when its blocks are
 * ASan's (real_alloc.h, FGI_REAL_UNDER_ASAN). */
#ifdef FGI_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
#define FGI_HEAP_POISON(b, n) __asan_poison_memory_region((b), (n))
#elif defined(FGI_SAN_RUNTIME)
#define FGI_HEAP_POISON(b, n) ((void)(b), (void)(n))
#else
void __asan_poison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));
#define FGI_HEAP_POISON(b, n)                                                              \
    (FGI_REAL_UNDER_ASAN && __asan_poison_memory_region                                    \
         ? __asan_poison_memory_region((b), (n))                                            \
         : (void)0)
#endif

FGI_HEAP_HOT fgi_heap_hdr *fgi_heap_hdr_of(const void *p)
{
    return (fgi_heap_hdr *)((uintptr_t)p - sizeof(fgi_heap_hdr));
}

#ifdef FGI_TSAN
int __sanitizer_get_ownership(const volatile void *p);
size_t __sanitizer_get_allocated_size(const volatile void *p);
/* 1 once the registry was first armed (heap_malloc.c): before, no block is headed, and
 * TSan may not even have mapped what the queries below read (it frees during its own
 * start). */
FGI_HIDDEN extern atomic_int fgi_heap_tsan_armed;
/* TSan's allocator keeps no header before its blocks, and a block may begin its mapping:
 * the bytes before p are read only when p lies inside one of its blocks and is not the
 * block's start — where a headed block's p always lies, its header in the same block. */
#define FGI_HEAP_MAY_BE_HEADED(p)                                                          \
    (atomic_load_explicit(&fgi_heap_tsan_armed, memory_order_relaxed) &&                   \
     __sanitizer_get_ownership(p) && !__sanitizer_get_allocated_size(p))
#else
#define FGI_HEAP_MAY_BE_HEADED(p) 1
#endif

/* 1 when p carries a header. Reads the 16 bytes before p, where an unheaded block has the
 * allocator's own header (glibc's two size words, ASan's chunk header); copied, not
 * loaded through a pointer: free of a misaligned address, a target's bug, must still
 * reach the allocator to be reported as the crash it is. */
FGI_HEAP_HOT int fgi_heap_headed(const void *p)
{
    if (!FGI_HEAP_MAY_BE_HEADED(p))
        return 0;
    fgi_heap_hdr h;
    memcpy(&h, (const char *)p - sizeof h, sizeof h);
    return h.tag == FGI_HEAP_TAG(p, h.shift) && h.shift < 64;
}

/* The next block of a chain threaded through the blocks' tag words (frees deferred to
 * the owner, evictions from the quarantine): a block on one is unheaded until it is freed,
 * and a block of 0 bytes has no room of its own for the link. */
FGI_HEAP_HOT void *fgi_heap_link_of(const void *p)
{
    void *next;
    memcpy(&next, &fgi_heap_hdr_of(p)->tag, sizeof next);
    return next;
}

FGI_HEAP_HOT void fgi_heap_set_link(void *p, void *next)
{
    memcpy(&fgi_heap_hdr_of(p)->tag, &next, sizeof next);
}

FGI_HEAP_HOT size_t fgi_heap_lead_of(const fgi_heap_hdr *h)
{
    return (size_t)1 << h->shift;
}

/* The allocator's block under headed p. */
FGI_HEAP_HOT void *fgi_heap_block_of(const void *p)
{
    return (void *)((uintptr_t)p - fgi_heap_lead_of(fgi_heap_hdr_of(p)));
}

/* Writes p's header. */
FGI_HEAP_HOT void fgi_heap_stamp(void *p, unsigned shift, uint32_t idx)
{
    fgi_heap_hdr *h = fgi_heap_hdr_of(p);
    h->idx = idx;
    h->shift = shift;
    h->tag = FGI_HEAP_TAG(p, shift);
    FGI_HEAP_POISON((char *)p - ((size_t)1 << shift), (size_t)1 << shift);
}

/* The allocator's block for a headed block of `size` bytes aligned to 2^shift (shift at
 * least FGI_HEAP_HDR_SHIFT), zeroed when `zero`; the header is not yet written. NULL
 * (errno set) when there is none. */
FGI_HEAP_HOT void *fgi_heap_raw_alloc(size_t size, unsigned shift, int zero)
{
#ifdef FGI_TSAN
    size += !size; /* p inside the block, not at the next one's start (MAY_BE_HEADED) */
#endif
    size_t lead = (size_t)1 << shift;
    if (size > SIZE_MAX - lead)
        return errno = ENOMEM, NULL;
    if (shift != FGI_HEAP_HDR_SHIFT)
        return FGI_REAL(memalign)(lead, size + lead);
    return zero ? FGI_REAL(calloc)(1, size + lead) : FGI_REAL(malloc)(size + lead);
}

/* The bytes the program may use at headed p (its shift read, not its tag). */
static inline size_t fgi_heap_headed_usable(void *p)
{
    return fgi_real_usable(fgi_heap_block_of(p)) - fgi_heap_lead_of(fgi_heap_hdr_of(p));
}

/* Frees p, headed or not, to the allocator underneath. */
FGI_HEAP_HOT void fgi_heap_raw_free(void *p)
{
    FGI_REAL(free)(fgi_heap_headed(p) ? fgi_heap_block_of(p) : p);
}

/* 1 when headed p was put in the quarantine (it may have been freed since). */
FGI_HEAP_HOT int fgi_heap_queued(const void *p)
{
    uint32_t i = fgi_heap_hdr_of(p)->idx;
    return i >= FGI_HEAP_QUEUED && i != FGI_HEAP_NO_ENTRY;
}

#endif
