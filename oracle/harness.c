/* oracle/harness.c — running one case under the four oracles: arming them, calling the
 * body, and the verdicts judged after it returns (read-only input, heap retention).
 *
 * A check or an oracle ends a case early by jumping back to the sigsetjmp in run_body
 * (case.c); a fatal signal ends the process (crash.c). What the case's oracles read
 * about it is in the case state (case.h), which this file alone writes.
 */
#include "oracle/harness.h"

#include "engine/feedback/workbudget.h"
#include "engine/feedback/cmp.h"
#include "engine/feedback/coverage.h"
#include "engine/feedback/reads.h"
#include "engine/feedback/signals.h"
#include "oracle/allowance.h"
#include "oracle/crash.h"
#include "oracle/heap.h"
#include "oracle/retention.h"
#include "oracle/watchdog.h"
#include "oracle/timeout.h"

#include <string.h>
#include <unistd.h>

/* Process-wide because only one harness may arm the process's signal handlers at a time.
 * Run thread only. */
static struct {
    fgi_harness *open;               /* the open harness, NULL when none */
    const fgi_harness_channel *ch;   /* an executor's channel, or NULL */
} harness;

/* The one call into a target body. Not inlined and not a tail call, so the return address
 * inside it marks where a crash's frames stop being the target's (the case's boundary). */
__attribute__((noinline)) static uint64_t call_body(uint64_t (*run)(const uint8_t *, size_t),
                                                    const uint8_t *in, size_t size)
{
    fgi_case_now.frame = (uintptr_t)__builtin_frame_address(0);
    fgi_cov_stack_begin(fgi_case_now.frame);
    uint64_t sig = run(in, size);
    __asm__ volatile("" ::: "memory");
    fgi_cov_stack_end(fgi_case_now.frame);
    return sig;
}

static uint64_t probe_boundary(const uint8_t *in, size_t size)
{
    (void)in;
    (void)size;
    fgi_case_now.boundary = (uint64_t)(uintptr_t)__builtin_return_address(0);
    return 0;
}

/* Where a case's input lies: its first byte at a multiple of INPUT_ALIGN, as a block from
 * malloc starts (and libFuzzer's copy of each input, a new[] of its size), as near the
 * buffer's end as that allows. Code whose path depends on an address's alignment (zlib's
 * crc32 walks to a word boundary before its braided loop) then takes the same path for an
 * input in every run of it: after any largest input so far, in any executor, and in a
 * replay under another engine. The input used to end exactly at the buffer's end, so its
 * alignment moved with its size and the buffer's, and a corpus kept alignment variants
 * that no replay gave them (docs/design.md). Not the allocator's alignment, which may be
 * less: the buffer has INPUT_ALIGN - 1 bytes of room to place it. */
#define INPUT_ALIGN 16

/* What is outside the input within reach of a small overread is fenced off under ASan: up
 * to INPUT_ALIGN - 1 bytes after its end, to the buffer's, and FENCE_BEFORE bytes before
 * its start (the buffer's earlier bytes: a stale input). A read one past the end is
 * caught, as when the input ended at the allocation's redzone, and now one just before
 * the start is too; ASan names either a use-after-poison. Weak: the runtime is there
 * whenever the program was linked with ASan, even if the engine's objects were not built
 * with it (a libFuzzer-style driver under a sanitized target). Up to three calls a case,
 * each a few shadow bytes. Without ASan nothing marks those bytes: valgrind's memcheck sees
 * a read of them as inside the buffer (docs/oracles.md, "Known limits"). */
#define FENCE_BEFORE 64
__attribute__((weak)) void __asan_poison_memory_region(void const volatile *addr, size_t size);
__attribute__((weak)) void __asan_unpoison_memory_region(void const volatile *addr,
                                                         size_t size);

/* The end of the buffer's room: cap bytes of input and INPUT_ALIGN - 1 to align them. */
static uint8_t *room_end(const fgi_harness *e)
{
    return e->buf + e->cap + INPUT_ALIGN - 1;
}

/* Unpoisons the span the last fence covered (the input inside it was never poisoned). */
static void unfence(fgi_harness *e)
{
    if (e->fenced && __asan_unpoison_memory_region)
        __asan_unpoison_memory_region(e->fenced, (size_t)(room_end(e) - e->fenced));
    e->fenced = NULL;
}

static void fence(fgi_harness *e, uint8_t *in, size_t size)
{
    if (!__asan_poison_memory_region)
        return;
    e->fenced = in - FGI_MIN((size_t)(in - e->buf), (size_t)FENCE_BEFORE);
    if (e->fenced < in)
        __asan_poison_memory_region(e->fenced, (size_t)(in - e->fenced));
    if (in + size < room_end(e))
        __asan_poison_memory_region(in + size, (size_t)(room_end(e) - (in + size)));
}

/* The input's place for a case of size bytes (size <= cap), with the fence moved to it. */
static uint8_t *place_input(fgi_harness *e, size_t size)
{
    unfence(e);
    uint8_t *in = room_end(e) - size; /* the latest start, then aligned down */
    in -= (uintptr_t)in & (INPUT_ALIGN - 1);
    fence(e, in, size);
    return in;
}

void fgi_harness_attach(const fgi_harness_channel *ch)
{
    fgi_case_now.started = ch ? ch->started : &fgi_case_now.own_started;
    harness.ch = ch;
}

fg_error fgi_harness_open(fgi_harness *e, const fg_target *t)
{
    if (harness.open)
        return FG_EINVAL;
    memset(e, 0, sizeof *e);
    fg_error err = fgi_crash_arm();
    if (err != FG_OK)
        return err;
    fgi_timeout_arm();
    call_body(probe_boundary, NULL, 0);
    fgi_case_now.forked = 0;
    fgi_case_now.reporting = 0;
    fgi_case_now.thread = pthread_self();
    fgi_case_now.pid = getpid();
    harness.open = e;
    e->target = t;
    e->time_ms = t->time_ms ? t->time_ms : FGI_DEFAULT_TIME_MS; /* the session may override */
    return FG_OK;
}

void fgi_harness_close(fgi_harness *e)
{
    FG_ASSERT(harness.open == e && !fgi_case_running());
    fgi_heap_hold(0); /* the last case's blocks are forgotten, no free is looked up */
    fgi_timeout_disarm();
    fgi_crash_disarm();
    fgi_case_now.id = NULL;
    harness.open = NULL;
    /* The input buffer is allocated and freed outside any case, so no heap oracle counts
     * it. */
    unfence(e);
    free(e->buf);
    e->buf = NULL;
    e->cap = 0;
}

fg_error fgi_harness_reserve(fgi_harness *e, size_t size)
{
    FG_ASSERT(!fgi_case_running());
    if (size <= e->cap && e->buf)
        return FG_OK;
    if (size > SIZE_MAX - INPUT_ALIGN)
        return FG_ENOMEM; /* the room to align it would wrap */
    uint8_t *b = malloc((size ? size : 1) + INPUT_ALIGN - 1);
    if (!b)
        return FG_ENOMEM;
    unfence(e);
    free(e->buf);
    e->buf = b;
    e->cap = size ? size : 1;
    return FG_OK;
}

/* Runs the body once over a copy of data with every oracle armed; heap says what the
 * case left allocated (nothing for a case the engine ended: that memory is released). */
static void run_body(fgi_harness *e, const uint8_t *data, size_t size, fgi_case_result *res,
                     fgi_heap_report *heap)
{
    uint8_t *in = place_input(e, size);
    if (size)
        memcpy(in, data, size);
    size_t allowance = e->target->allowance ? e->target->allowance(size)
                                            : fgi_allowance_default(size);
    fgi_case_state *c = &fgi_case_now;
    res->status = FGI_CASE_OK;
    res->rejected = 0;
    c->rejected = 0;
    c->res = res;
    c->id = &e->id;
    c->data = data;
    c->size = size;
    /* Only this thread writes the counter: a load and a store, no locked add. */
    _Atomic unsigned long *started = c->started;
    atomic_store_explicit(started, atomic_load_explicit(started, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    /* Every run starts with no target signals and no coverage: a re-run (retention, the
     * descriptor probe) or a failed case must not leave its values to the next case. */
    fgi_signals_begin();
    fgi_reads_begin(in, size); /* readers over the bytes the body gets are heard */
    if (fgi_cov_enabled())
        fgi_cov_reset();
    /* Always: the first case of a gcc build runs before trace-pc has enabled coverage. */
    fgi_budget_arm(fgi_budget_for(e->time_ms));
    if (harness.ch) {
        harness.ch->publish(harness.ch->ctx, &e->id, data, size);
        *harness.ch->active = 1;
    }
    if (sigsetjmp(c->jump, 0) == 0) {
        fgi_heap_arm(allowance);
        fgi_case_set_active(1);
        fgi_case_here = 1;
        uint64_t sig = call_body(e->target->run, in, size);
        if (c->forked)
            _exit(0); /* the target's forked copy, back from the body: it is not ours */
        fgi_case_set_active(0);
        fgi_case_here = 0;
        fgi_heap_disarm(heap);
        res->sig = sig;
        res->rejected = c->rejected;
        if (heap->refused) {
            res->status = FGI_CASE_ENDED;
            res->kind = "amplification";
            res->site[0] = '\0';
            snprintf(res->detail, sizeof res->detail,
                     "an allocation of %zu bytes on another thread would have passed the "
                     "case's allowance of %zu bytes",
                     heap->refused_size, allowance);
        } else if (size && fgi_memcmp_quiet(in, data, size) != 0) {
            size_t at = 0;
            while (in[at] == data[at])
                at++;
            res->status = FGI_CASE_ENDED;
            res->kind = "write";
            res->site[0] = '\0';
            snprintf(res->detail, sizeof res->detail,
                     "the target wrote into its read-only input (first changed byte at "
                     "offset %zu of %zu)",
                     at, size);
        }
    } else {
        if (c->forked)
            _exit(0); /* the forked copy ended its case early (a check): still not ours */
        fgi_heap_release();
        heap->live_bytes = heap->live_blocks = 0;
        heap->nsites = 0;
        res->status = FGI_CASE_ENDED;
        res->sig = 0;
    }
    if (harness.ch)
        *harness.ch->active = 0;
    /* Past the memory limit: a finding of this case, unless it has one of its own (then
     * of the next, which is told at once). */
    if (fgi_rss_after_case(&e->rss, heap->live_bytes) && res->status == FGI_CASE_OK) {
        res->status = FGI_CASE_ENDED;
        res->kind = "oom";
        res->site[0] = '\0';
        fgi_rss_detail(&e->rss, res->detail, sizeof res->detail);
    }
}

/* The retention check's re-runs of the same input. */
struct rerun_ctx {
    fgi_harness *e;
    const uint8_t *data;
    size_t size;
};

static void rerun(void *ctx, fgi_case_result *res, fgi_heap_report *heap)
{
    struct rerun_ctx *c = ctx;
    run_body(c->e, c->data, c->size, res, heap);
}

void fgi_harness_window(fgi_harness *e, int on)
{
    FG_ASSERT(harness.open == e && !fgi_case_running());
    fgi_heap_hold(0); /* a window starts empty: what came before is not its cases' */
    if (on)
        fgi_heap_hold(1);
    e->window = on;
}

void fgi_harness_rss_limit(fgi_harness *e, uint64_t bytes)
{
    fgi_rss_init(&e->rss, bytes);
}

void fgi_harness_origin(fgi_harness *e, const fgi_case_id *id)
{
    e->id = *id;
}

void fgi_harness_run(fgi_harness *e, const uint8_t *data, size_t size, fgi_case_result *res)
{
    FG_ASSERT(harness.open == e && size <= e->cap && !fgi_case_running());
    fgi_heap_report heap;
    run_body(e, data, size, res, &heap);
    if (res->status == FGI_CASE_OK && heap.live_blocks && !e->window) {
        struct rerun_ctx again = {e, data, size};
        fgi_retention_check(rerun, &again, res, &heap);
    }
}
