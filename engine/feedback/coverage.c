/* engine/feedback/coverage.c — the SanitizerCoverage callbacks and the counters behind them.
 *
 * Three sources of counters, all bytes:
 *   - inline-8bit-counters: each module hands us its own counter array (registered once);
 *   - trace-pc-guard: each module's guards are numbered; a guard's counter lives in an
 *     array we allocate per module;
 *   - trace-pc (gcc): the callback sees only a return address, which is turned into a
 *     module-relative offset and hashed into one shared map (collisions are possible, as
 *     in AFL; they cost precision, never determinism).
 * Invariant: a module's identity is a hash of its soname as the dynamic loader names it
 * ("" for the main program), and every feature is computed from that hash and an offset
 * or index inside the module.
 *
 * Threads. Any thread of the target may run instrumented code. Counters are bytes whose
 * lost increments cost a hit's precision, never a wrong feature. What would be wrong if
 * shared is per thread: the range trace-pc looked up last (a thread switching modules
 * while another computes a slot from the half-updated range would credit an edge to the
 * wrong module), and the edge budget's count (workbudget.h): both are thread-local. The
 * ring of ranges looked up is shared, under a lock taken only on the rare lookup; the
 * touched list's slots are claimed with an atomic add.
 */
#include "engine/feedback/coverage.h"

#include "engine/feedback/workbudget.h"
#include "engine/feedback/sancov.h"

#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define MAX_MODULES 64
#define PC_MAP_BITS 16 /* trace-pc map: 2^16 slots; arbitrary, AFL's size */
#define PC_MAP_SIZE (1u << PC_MAP_BITS)
#define PC_TOUCHED 4096        /* slots remembered so reset and scan skip the rest */
#define PC_RANGES 8            /* module ranges trace-pc remembers; arbitrary */

typedef struct module {
    uint8_t *counters;   /* one byte per edge */
    size_t count;
    uint64_t id;         /* hash of the module's soname */
    int owned;           /* counters allocated here (trace-pc-guard) */
    size_t dense;        /* the dense index of its counter 0, bucket 0 (see dense_of) */
} module;

/* Process-wide because the compiler's callbacks have no context. Registration happens
 * from module constructors (before main or at dlopen); counters are written by whichever
 * thread runs instrumented code and read by the run thread between cases. */
static struct {
    module mods[MAX_MODULES];
    unsigned nmods;
    _Atomic int enabled;       /* any instrumentation seen */
    uint8_t pc_map[PC_MAP_SIZE];
    _Atomic int pc_used;       /* trace-pc fired at least once */
    uint32_t touched[PC_TOUCHED]; /* pc_map slots that went 0 -> 1 this case... */
    _Atomic unsigned ntouched; /* ...how many claimed; over PC_TOUCHED: scan the map */
    struct pc_range {          /* the ranges looked up so far (a few: see trace_pc) */
        uintptr_t lo, hi;
        uint64_t id;
    } ranges[PC_RANGES];
    unsigned nranges;          /* how many were ever added (the ring's next slot mod) */
    pthread_mutex_t ranges_lock; /* over ranges, nranges and pc_ids: the lookups' */
    uint64_t pc_ids[MAX_MODULES]; /* the modules trace-pc has seen (for the banner)... */
    unsigned pc_nids;             /* ...how many */
    size_t dense_end;          /* one past the largest dense index (fgi_cov_dense_size) */
} cov = {.dense_end = 8 * PC_MAP_SIZE, .ranges_lock = PTHREAD_MUTEX_INITIALIZER};

/* Each thread's own: the module range of its last trace-pc lookup (its lo, length, and
 * id - lo: see __sanitizer_cov_trace_pc). Initial-exec: libfuzzgate is linked into the
 * program, and the callbacks read these on every edge. */
#define TLS __attribute__((tls_model("initial-exec"))) _Thread_local
static TLS uintptr_t last_lo, last_len;
static TLS uint64_t last_key;

typedef struct find_ctx {
    uintptr_t addr;
    uint64_t id;
    uintptr_t lo, hi;
    int found;
} find_ctx;

static int find_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    find_ctx *f = arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (f->addr >= lo && f->addr < hi) {
            const char *name = info->dlpi_name ? info->dlpi_name : "";
            const char *base = strrchr(name, '/');
            f->id = fgi_hash_str(base ? base + 1 : name);
            f->lo = info->dlpi_addr;
            f->hi = hi;
            f->found = 1;
            return 1;
        }
    }
    return 0;
}

/* The module holding addr, as (id, load base). */
static uint64_t module_of(uintptr_t addr, uintptr_t *base)
{
    find_ctx f = {.addr = addr};
    dl_iterate_phdr(find_module, &f);
    *base = f.found ? f.lo : 0;
    return f.found ? f.id : 0;
}

/* Registers a module's counters; `code` is an address inside the module (its counter
 * array or guards), which names it. */
static void add_module(uint8_t *counters, size_t count, const void *code, int owned)
{
    if (cov.nmods == MAX_MODULES || count == 0)
        return;
    uintptr_t base;
    module *m = &cov.mods[cov.nmods++];
    m->counters = counters;
    m->count = count;
    m->id = module_of((uintptr_t)code, &base);
    m->owned = owned;
    m->dense = cov.dense_end;
    cov.dense_end += 8 * count;
    atomic_store_explicit(&cov.enabled, 1, memory_order_relaxed);
}

/* ---- the callbacks the compilers emit ---------------------------------------------- */

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop)
{
    for (unsigned i = 0; i < cov.nmods; i++)
        if (cov.mods[i].counters == start)
            return; /* each module registers once */
    add_module(start, (size_t)(stop - start), start, 0);
}

/* clang's stack-depth instrumentation (part of -fsanitize=fuzzer-no-link, the flags an
 * OSS-Fuzz project's code is built with) keeps the lowest stack pointer a thread has seen
 * here (coverage.h, fgi_cov_stack_begin): initial-exec, as the compiler's accesses
 * assume. */
__attribute__((tls_model("initial-exec"))) _Thread_local uintptr_t __sancov_lowest_stack;

/* The last case's depth in bytes below its body's caller. Run thread only (the case's). */
static uintptr_t stack_depth;

void fgi_cov_stack_begin(uintptr_t frame)
{
    stack_depth = 0;
    __sancov_lowest_stack = frame;
}

void fgi_cov_stack_end(uintptr_t frame)
{
    uintptr_t low = __sancov_lowest_stack;
    stack_depth = low < frame ? frame - low : 0;
}

/* A depth's bucket, in 8-byte words: exact under 8, then 8 steps to each doubling
 * (libFuzzer's step function, so both engines tell the same depths apart). */
static uint64_t depth_bucket(uint64_t words)
{
    if (words < 8)
        return words;
    unsigned log2 = 63u - (unsigned)__builtin_clzll(words) - 3u;
    return (uint64_t)(log2 + 1) * 8 + ((words >> log2) & 7);
}

void fgi_cov_stack_feature(void (*fn)(void *ctx, uint64_t key), void *ctx)
{
    if (stack_depth)
        fn(ctx, fg_mix64(depth_bucket(stack_depth / 8) ^ 0x737461636b646570ULL));
}

/* clang's -fsanitize=fuzzer-no-link (an OSS-Fuzz build's flags) also calls this at every
 * indirect call, with the callee; code built so must find it to link. libFuzzer turns the
 * caller/callee pair into a value-profile feature, used only with -use_value_profile=1;
 * fuzzgate takes no feature from it: the callee is an absolute address, which ASLR moves
 * (a feature must be module-relative, docs/determinism.md), and the edges around the
 * call are counted anyway. */
void __sanitizer_cov_trace_pc_indir(uintptr_t callee)
{
    (void)callee;
}

void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop)
{
    (void)start; /* the pc table maps counters to code; features need only the index */
    (void)stop;
}

/* One more hit on a counter, saturating. Relaxed atomic loads and stores (a plain load
 * and store on x86 and arm64, no lock): two threads' increments may lose one, a hit's
 * precision, and neither is a data race. */
static inline void bump(uint8_t *c)
{
    uint8_t v = __atomic_load_n(c, __ATOMIC_RELAXED);
    if (v != 255)
        __atomic_store_n(c, (uint8_t)(v + 1), __ATOMIC_RELAXED);
}

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
    if (start == stop || *start != 0 || cov.nmods == MAX_MODULES)
        return;
    size_t n = (size_t)(stop - start);
    uint8_t *counters = fgi_calloc(n, 1);
    if (!counters)
        return;
    unsigned index = cov.nmods;
    /* A guard holds (module index << 24 | edge + 1); 0 means "not ours". 16 M edges a
     * module is an arbitrary ceiling no real module reaches. */
    for (size_t i = 0; i < n && i < (1u << 24) - 1; i++)
        start[i] = (uint32_t)(index << 24 | (i + 1));
    add_module(counters, n, start, 1);
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
    uint32_t g = *guard;
    if (!g)
        return;
    module *m = &cov.mods[g >> 24];
    bump(&m->counters[(g & 0xffffff) - 1]);
    fgi_budget_count(FGI_BUDGET_EDGES);
}

/* The module range holding pc, made the last one: from the ranges already looked up, else
 * by the loader. 0 when pc is in no module. Not only the instrumented module's: gcc turns a
 * callback at a function's end into a tail jump, and the return address is then the
 * caller's, often in an uninstrumented library (libpng calling the harness's read
 * function) — a case can alternate between two modules many times, so the ranges of a few
 * are kept (each loader walk is ~500 instructions). */
static int switch_range(uintptr_t pc)
{
    pthread_mutex_lock(&cov.ranges_lock);
    unsigned n = cov.nranges < PC_RANGES ? cov.nranges : PC_RANGES;
    struct pc_range r = {0, 0, 0};
    int found = 0;
    for (unsigned i = 0; i < n && !found; i++)
        if (pc >= cov.ranges[i].lo && pc < cov.ranges[i].hi)
            r = cov.ranges[i], found = 1;
    if (!found) {
        find_ctx f = {.addr = pc};
        dl_iterate_phdr(find_module, &f);
        if (f.found) {
            r = (struct pc_range){f.lo, f.hi, f.id};
            cov.ranges[cov.nranges++ % PC_RANGES] = r;
            found = 1;
            unsigned k = 0;
            while (k < cov.pc_nids && cov.pc_ids[k] != f.id)
                k++;
            if (k == cov.pc_nids && k < MAX_MODULES)
                cov.pc_ids[cov.pc_nids++] = f.id;
        }
    }
    pthread_mutex_unlock(&cov.ranges_lock);
    if (!found)
        return 0;
    if (!atomic_load_explicit(&cov.pc_used, memory_order_relaxed)) {
        atomic_store_explicit(&cov.pc_used, 1, memory_order_relaxed);
        atomic_store_explicit(&cov.enabled, 1, memory_order_relaxed);
    }
    last_lo = r.lo;
    last_len = r.hi - r.lo;
    last_key = r.id - r.lo;
    return 1;
}

/* An edge at pc, inside the last range: its slot is the module's id plus pc's offset in
 * the module (a module-relative constant, so the slot is the same in every process), by
 * multiplicative hashing (its top 16 bits); id + (pc - lo) is last_key + pc. */
static inline void hit_pc(uintptr_t pc)
{
    uint64_t h = (last_key + pc) * 0x9e3779b97f4a7c15ULL;
    uint32_t slot = (uint32_t)(h >> (64 - PC_MAP_BITS));
    uint8_t *c = &cov.pc_map[slot];
    if (__atomic_load_n(c, __ATOMIC_RELAXED) == 0) { /* its first hit this case: a place in
                                                      * the touched list */
        unsigned i = atomic_fetch_add_explicit(&cov.ntouched, 1, memory_order_relaxed);
        if (i < PC_TOUCHED)
            __atomic_store_n(&cov.touched[i], slot, __ATOMIC_RELAXED);
    }
    bump(c);
    fgi_budget_count(FGI_BUDGET_EDGES);
}

/* An edge outside the last range: out of line, so the common call saves no registers. */
__attribute__((noinline)) static void trace_pc_switch(uintptr_t pc)
{
    if (switch_range(pc))
        hit_pc(pc);
}

void __sanitizer_cov_trace_pc(void)
{
    uintptr_t pc = (uintptr_t)__builtin_return_address(0);
    if (__builtin_expect(pc - last_lo >= last_len, 0))
        trace_pc_switch(pc);
    else
        hit_pc(pc);
}

/* ---- the engine's side ------------------------------------------------------------- */

int fgi_cov_enabled(void)
{
    return atomic_load_explicit(&cov.enabled, memory_order_relaxed);
}

void fgi_cov_reset(void)
{
    for (unsigned i = 0; i < cov.nmods; i++)
        memset(cov.mods[i].counters, 0, cov.mods[i].count);
    if (atomic_load_explicit(&cov.pc_used, memory_order_relaxed)) {
        /* Relaxed stores, not memset: a target's thread may still be running instrumented
         * code (its counters' stores are relaxed atomics too, bump). */
        unsigned n = atomic_load_explicit(&cov.ntouched, memory_order_relaxed);
        if (n > PC_TOUCHED)
            memset(cov.pc_map, 0, sizeof cov.pc_map); /* a case of 4096+ slots: rare */
        else
            for (unsigned i = 0; i < n; i++)
                __atomic_store_n(&cov.pc_map[__atomic_load_n(&cov.touched[i], __ATOMIC_RELAXED)],
                                 0, __ATOMIC_RELAXED);
        atomic_store_explicit(&cov.ntouched, 0, memory_order_relaxed);
    }
}

/* The hit-count bucket of a counter: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+ are 0..7 (0
 * hits: never looked up). A table: the scan looks up one byte per hit edge where the chain
 * of comparisons cost ~15 instructions (docs/design.md, per-case time). A constant, not
 * filled by a constructor: constructors go to .text.startup, ahead of the targets' code in
 * the same module, and would move every gcc trace-pc offset (see docs/design.md). */
#define B4(b) b, b, b, b
#define B16(b) B4(b), B4(b), B4(b), B4(b)
static const uint8_t bucket_of[256] = {
    0, 0, 1, 2, B4(3), /* 0 (unused), 1, 2, 3, 4-7 */
    B4(4), B4(4),      /* 8-15 */
    B16(5),            /* 16-31 */
    B16(6), B16(6), B16(6), B16(6), B16(6), B16(6), /* 32-127 */
    B16(7), B16(7), B16(7), B16(7), B16(7), B16(7), B16(7), B16(7), /* 128-255 */
};
#undef B16
#undef B4

static inline unsigned bucket(uint8_t hits)
{
    return bucket_of[hits];
}

/* A counter's feature: the module's id (a hash) with the counter's index and bucket in its
 * low bits. Not hashed again: the executor mixes every feature once for its tables, and a
 * second mix here cost ~8 instructions a feature for nothing. */
#define FEATURE(id, index, hits) ((id) ^ ((uint64_t)(index) << 3 | bucket(hits)))
#define PC_MAP_ID (0x7063ULL << 48) /* the trace-pc map's "module id": no soname hash */

/* A counter's dense index: the trace-pc map's slots first (8 indices a slot, one a
 * bucket), then each module's counters in the order the modules registered. */
#define DENSE(base, index, hits) ((base) + 8 * (size_t)(index) + bucket(hits))

/* The features written so far and where they go. */
typedef struct sink {
    uint64_t *out;
    uint32_t *dense; /* or NULL */
    size_t cap, hit;
} sink;

/* Writes feature number s->hit (key and dense index) when it fits; counts it always. */
static inline void put(sink *s, uint64_t feature, size_t dense)
{
    if (s->hit < s->cap) {
        s->out[s->hit] = feature;
        if (s->dense)
            s->dense[s->hit] = (uint32_t)dense;
    }
    s->hit++;
}

/* The word at p (any alignment). */
static inline uint64_t word_at(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* The hit counters among c[i .. i + 8), in order. */
static inline void scan_word(const uint8_t *c, size_t i, uint64_t id, size_t base, sink *s)
{
    for (size_t j = i; j < i + 8; j++)
        if (c[j])
            put(s, FEATURE(id, j, c[j]), DENSE(base, j, c[j]));
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Bit k set when byte k of the 8 at p is not 0: each nonzero byte's top bit, then those
 * eight bits gathered into one byte by a multiply (they land on distinct bits: no carry). */
static inline uint64_t byte_mask(const uint8_t *p)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
    uint64_t w = word_at(p), top = (((w & low7) + low7) | w) & ~low7;
    return ((top >> 7) * 0x0102040810204080ULL) >> 56;
}

/* The hit counters among c[i .. i + 64), in order: a mask of them, walked lowest first,
 * one branch a hit counter. A test of each word and then of each byte mispredicted on
 * every block half full (the demangler's cases hit a few hundred of its 2,330 counters:
 * 164 mispredicted branches a case in the scan, 61% of the run's, under cachegrind). */
static inline void scan_block(const uint8_t *c, size_t i, uint64_t id, size_t base, sink *s)
{
    uint64_t m = 0;
    for (unsigned k = 0; k < 8; k++)
        m |= byte_mask(c + i + 8 * k) << (8 * k);
    while (m) {
        size_t j = i + (size_t)__builtin_ctzll(m);
        put(s, FEATURE(id, j, c[j]), DENSE(base, j, c[j]));
        m &= m - 1;
    }
}
#else
static inline void scan_block(const uint8_t *c, size_t i, uint64_t id, size_t base, sink *s)
{
    for (size_t k = 0; k < 64; k += 8)
        if (word_at(c + i + k))
            scan_word(c, i + k, id, base, s);
}
#endif

/* Scans a counter array 64 bytes at a time, then a word at a time: a case of real code
 * hits a few hundred of tens of thousands of counters, so nearly every block is zero and
 * costs eight loads, seven ors and one branch (a word at a time, the scan was 15% of a
 * case of the x86 disassembler). */
static void scan(const uint8_t *c, size_t n, uint64_t id, size_t base, sink *s)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const uint8_t *p = c + i;
        uint64_t any = (word_at(p) | word_at(p + 8)) | (word_at(p + 16) | word_at(p + 24)) |
                       ((word_at(p + 32) | word_at(p + 40)) | (word_at(p + 48) | word_at(p + 56)));
        if (__builtin_expect(!any, 1))
            continue;
        scan_block(c, i, id, base, s);
    }
    for (; i + 8 <= n; i += 8)
        if (word_at(c + i))
            scan_word(c, i, id, base, s);
    for (; i < n; i++)
        if (c[i])
            put(s, FEATURE(id, i, c[i]), DENSE(base, i, c[i]));
}

size_t fgi_cov_features(uint64_t *out, uint32_t *dense, size_t cap)
{
    sink s = {out, dense, cap, 0};
    for (unsigned i = 0; i < cov.nmods; i++)
        scan(cov.mods[i].counters, cov.mods[i].count, cov.mods[i].id, cov.mods[i].dense, &s);
    int pc_used = atomic_load_explicit(&cov.pc_used, memory_order_relaxed);
    unsigned ntouched = atomic_load_explicit(&cov.ntouched, memory_order_relaxed);
    if (pc_used && ntouched > PC_TOUCHED) {
        scan(cov.pc_map, PC_MAP_SIZE, PC_MAP_ID, 0, &s);
    } else if (pc_used) {
        /* Relaxed loads: a target's thread may still be writing (bump); a place it has
         * claimed but not yet filled names a stale slot, which holds no hit. */
        for (unsigned i = 0; i < ntouched; i++) {
            uint32_t j = __atomic_load_n(&cov.touched[i], __ATOMIC_RELAXED);
            uint8_t h = __atomic_load_n(&cov.pc_map[j], __ATOMIC_RELAXED);
            if (h)
                put(&s, FEATURE(PC_MAP_ID, j, h), DENSE(0, j, h));
        }
    }
    return s.hit;
}

size_t fgi_cov_dense_size(void)
{
    return cov.dense_end;
}

void fgi_cov_describe(fgi_cov_info *out)
{
    out->modules = cov.nmods;
    out->edges = 0;
    for (unsigned i = 0; i < cov.nmods; i++)
        out->edges += cov.mods[i].count;
    out->pc_modules = cov.pc_nids;
}

size_t fgi_cov_edges_total(void)
{
    size_t n = 0;
    for (unsigned i = 0; i < cov.nmods; i++)
        n += cov.mods[i].count;
    return n + (atomic_load_explicit(&cov.pc_used, memory_order_relaxed) ? PC_MAP_SIZE : 0);
}
