/* oracle/exec.c — running one case under the oracles: the no-crash oracle's signal
 * handling, the FG_CHECK unwinding, and the read-only-input check.
 *
 * A check ends the case by siglongjmp to the sigsetjmp in fgi_exec_run. The jump buffer
 * is set with savemask = 0 so a case costs no signal-mask syscall; that is sound because
 * fg_fail_at jumps from ordinary code, never from a handler. Fatal signals are handled on
 * an alternate stack (so a stack overflow is reported too), store the finding, and let
 * the process die with the same signal.
 */
#include "oracle/exec.h"

#include "engine/base/errout.h"
#include "engine/feedback/coverage.h"
#include "oracle/frames.h"
#include "oracle/heap.h"
#include "oracle/watchdog.h"
#include "engine/supervise/wire.h"

#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
#define ALT_STACK_SIZE (256 * 1024) /* arbitrary; the store path needs ~20 KiB of it */

/* Process-wide because signal handlers and fg_fail_at (called from target code) have no
 * other way to reach the running case. Written by the run thread; read by handlers on
 * that thread. `active` is the only field a handler relies on being current. */
static struct {
    fgi_exec *open;                  /* the open harness, NULL when none */
    volatile sig_atomic_t active;    /* a case body is running */
    int rejected;                    /* the running body called fg_reject */
    pthread_t thread;                /* the thread running cases */
    sigjmp_buf jump;                 /* where a check returns to */
    fgi_case_result *res;            /* the running case's result */
    struct sigaction saved[NFATAL];  /* handlers before fgi_exec_open */
    stack_t saved_stack;             /* alternate stack before fgi_exec_open */
    void *alt_stack;                 /* ours */
    _Atomic unsigned long cases;     /* bodies started, when not an executor (progress()) */
    int exit_trap;                   /* the atexit trap is registered (once per process) */
    pid_t pid;                       /* the process that opened the harness */
    char timeout_detail[160];        /* set by the watchdog before it signals the case */
    struct sigaction saved_timeout;  /* the timeout signal's handler before ours */
    int channel;                     /* an executor's pipe to its supervisor, or -1 */
    fgi_slot *slot;                  /* its shared slot, or NULL */
    uint64_t seq;                    /* the next input's position in the run */
    uint64_t boundary;               /* return address of the call into the target */
    volatile sig_atomic_t forked;    /* this process was forked by a target's case */
    volatile sig_atomic_t reporting; /* a sanitizer is printing its report of the case */
    int atfork;                      /* the fork hook is registered (once per process) */
} ex = {.channel = -1};

const char *fgi_signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGABRT: return "SIGABRT (abort)";
    case SIGTRAP: return "SIGTRAP (trap)";
    case SIGKILL: return "SIGKILL (killed)";
    default: return "a fatal signal";
    }
}

static uint64_t frames[FGI_FRAMES]; /* the dying case's, captured by the handler */
static unsigned frames_n;
static int frames_sanitizer;

/* Stores a crash finding for the running case (if one is running on this thread) through
 * the one store path — or, in an executor, sends it to the supervisor, which stores it.
 * `what` names the cause; with the crash's top frames it is the class key. Signal-safe. */
static void store_running(const char *kind, const char *what, const char *ending)
{
    if (!ex.active || !ex.open || ex.forked)
        return;
    ex.active = 0;
    fgi_exec *e = ex.open;
    char muts[512];
    fgi_sink m = {.fd = -1};
    for (unsigned i = 0; e->mut && i < e->mut->napplied; i++) {
        if (i)
            fgi_sink_put(&m, ",");
        fgi_sink_put(&m, fgi_mutators[e->mut->applied[i]].name);
    }
    size_t n = m.len < sizeof muts - 1 ? m.len : sizeof muts - 1;
    memcpy(muts, m.buf, n);
    muts[n] = '\0';
    char detail[160];
    fgi_sink d = {.fd = -1};
    fgi_sink_put(&d, what);
    n = d.len < sizeof detail - 1 ? d.len : sizeof detail - 1;
    memcpy(detail, d.buf, n);
    detail[n] = '\0';

    if (ex.channel >= 0) {
        /* An executor: the supervisor stores it, from the input in the shared slot. */
        fgi_dying dy;
        memset(&dy, 0, sizeof dy);
        size_t kl = strlen(kind), wl = strlen(detail);
        memcpy(dy.kind, kind, kl < sizeof dy.kind - 1 ? kl : sizeof dy.kind - 1);
        memcpy(dy.what, detail, wl < sizeof dy.what - 1 ? wl : sizeof dy.what - 1);
        dy.nframes = frames_n;
        dy.from_sanitizer = (uint32_t)frames_sanitizer;
        memcpy(dy.frames, frames, frames_n * sizeof frames[0]);
        fgi_wire_send(ex.channel, FGI_MSG_DYING, &dy, sizeof dy);
        return;
    }
    char key[160 + 3 * 48];
    fgi_sink kk = {.fd = -1};
    fgi_sink_put(&kk, what);
    if (frames_n) {
        /* In-process (--no-fork): naming frames here is not signal-safe, but the process
         * is ending anyway and there is no supervisor to do it. */
        char where[3 * 48];
        fgi_frames_describe(frames, frames_n, frames_sanitizer, where, sizeof where);
        if (where[0]) {
            fgi_sink_put(&kk, " at ");
            fgi_sink_put(&kk, where);
        }
    }
    n = kk.len < sizeof key - 1 ? kk.len : sizeof key - 1;
    memcpy(key, kk.buf, n);
    key[n] = '\0';
    fgi_finding_rec f = e->crash;
    f.kind = kind;
    f.detail = key;
    f.class_key = key;
    f.site = NULL;
    f.mutations = e->mut ? muts : "";
    fgi_finding_classify(&f);
    char path[1];
    fgi_finding_store(&f, path, 0);
    fgi_sink k = {.fd = fgi_errout_fd()};
    fgi_sink_put(&k, "fuzzgate: ");
    fgi_sink_put(&k, f.target);
    fgi_sink_put(&k, ": ");
    fgi_sink_put(&k, ending);
    fgi_sink_put(&k, "\n");
    fgi_sink_flush(&k);
}

/* A sanitizer's death callback: it has printed its report and is about to exit, so the
 * finding is stored now, from the input the harness still holds. */
static void on_sanitizer_death(void)
{
    if (!fgi_exec_on_case_thread())
        return;
    frames_n = fgi_frames_capture(NULL, ex.boundary, frames, FGI_FRAMES);
    frames_sanitizer = 1;
    store_running("crash", "the target died of a sanitizer report (printed above)",
                      "crashed; this process ends with the sanitizer's exit status");
}

void fgi_exec_store_running(const char *kind, const char *detail, const char *ending)
{
    store_running(kind, detail, ending);
}

/* The count of bodies started: the watchdog's clock-free progress, and in an executor (in
 * the shared slot) the supervisor's too — one counter for both. */
static _Atomic unsigned long *progress(void)
{
    return ex.slot ? &ex.slot->cases : &ex.cases;
}

unsigned long fgi_exec_cases_started(int *active)
{
    *active = ex.active;
    return atomic_load_explicit(progress(), memory_order_relaxed);
}

/* The watchdog's signal, delivered to the case's own thread so the finding is stored
 * while the case is stopped and its bytes cannot change under the store. */
#define TIMEOUT_SIGNAL (SIGRTMIN + 4)

static void timed_out(void)
{
    store_running("timeout", ex.timeout_detail,
                  "timed out; the case cannot be taken back, so this process ends with "
                  "status 1");
    /* Flush the summaries printed so far, unless the stuck target holds stdout. */
    if (ftrylockfile(stdout) == 0) {
        fflush_unlocked(stdout);
        funlockfile(stdout);
    }
    _exit(1);
}

static void on_timeout_signal(int sig)
{
    (void)sig;
    if (fgi_exec_on_case_thread() && !ex.reporting)
        timed_out();
}

/* ASan's hook at the start of an error report (weak: a host's own wins). Printing and
 * symbolising a report can take longer than a tight deadline; the case is already a crash,
 * and a timeout fired meanwhile would make the class depend on the machine's speed. */
__attribute__((weak)) void __asan_on_error(void);
__attribute__((weak)) void __asan_on_error(void)
{
    if (fgi_exec_on_case_thread())
        ex.reporting = 1;
}

void fgi_exec_timeout(const char *detail)
{
    if (ex.reporting)
        return;
    snprintf(ex.timeout_detail, sizeof ex.timeout_detail, "%s", detail);
    if (!ex.active)
        return;
    pthread_kill(ex.thread, TIMEOUT_SIGNAL);
    /* A target that blocks the signal (or sits in an uninterruptible call) gets the store
     * from this thread after a grace period. */
    struct timespec grace = {2, 0};
    nanosleep(&grace, NULL);
    if (ex.active && !ex.reporting)
        timed_out();
}

/* exit() during a case: the run would end silently, perhaps with status 0. The trap
 * stores an `exit` finding, flushes stdout (the summaries before it) and ends the process
 * with status 1 instead. */
static void on_exit_during_case(void)
{
    /* A child the target forked inherits the trap; its exit() is not the case's. */
    if (!ex.active || !ex.open || getpid() != ex.pid)
        return;
    store_running("exit", "the target called exit() during a case",
                  "called exit() during a case; this process ends with status 1");
    fflush(stdout);
    _exit(1);
}

/* Weak: present only when a sanitizer runtime is linked. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

/* UBSan's defaults when the host gives none (a weak definition: a host's own wins, and
 * UBSAN_OPTIONS wins over both). gcc's UBSan runtime keeps its own death callbacks, so
 * the one registered above never hears of a UBSan error; abort_on_error turns the error
 * into SIGABRT, which the crash oracle does hear. halt_on_error: an error a case survived
 * would otherwise be a line on stderr and no finding. Here, not in a file of its own,
 * because an archive member nothing references is never linked. */
__attribute__((weak)) const char *__ubsan_default_options(void);
__attribute__((weak)) const char *__ubsan_default_options(void)
{
    return "halt_on_error=1:abort_on_error=1:print_stacktrace=1";
}

/* Stores a crash finding for the running case, then lets the signal kill the process. */
static void on_fatal(int sig, siginfo_t *info, void *uctx)
{
    if (fgi_exec_on_case_thread()) {
        frames_n = fgi_frames_capture(uctx, ex.boundary, frames, FGI_FRAMES);
        frames_sanitizer = 0;
        /* A fault at the stack pointer is an overflow: the guard page below the stack.
         * (Read from the context, not from the thread's attributes, whose query
         * allocates.) */
        uint64_t at = info ? (uint64_t)(uintptr_t)info->si_addr : 0, sp = fgi_frames_sp(uctx);
        int overflow = (sig == SIGSEGV || sig == SIGBUS) && sp && at &&
                       at + (64u << 10) >= sp && at <= sp + 4096;
        if (overflow && frames_n > 1) {
            /* The recursion's own call site is the return address seen most often; where
             * the guard page is hit (the body, or a callback it calls) is not the bug. */
            unsigned best = 1, most = 0;
            for (unsigned i = 1; i < frames_n; i++) {
                unsigned n = 0;
                for (unsigned j = 1; j < frames_n; j++)
                    n += frames[j] == frames[i];
                if (n > most) {
                    most = n;
                    best = i;
                }
            }
            frames[0] = frames[best];
            frames_n = 1;
        }
        char what[96];
        fgi_sink w = {.fd = -1}; /* no snprintf: this is a signal handler */
        fgi_sink_put(&w, overflow ? "the target overflowed its stack: " : "the target died of ");
        fgi_sink_put(&w, fgi_signal_name(sig));
        size_t n = w.len < sizeof what - 1 ? w.len : sizeof what - 1;
        memcpy(what, w.buf, n);
        what[n] = '\0';
        store_running("crash", what, "crashed; this process ends with the same signal");
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    /* A fault re-executes and now meets the default action; a raised signal (abort) is
     * raised again and delivered when this handler returns. */
    if (sig == SIGABRT || sig == SIGTRAP || info == NULL || info->si_code <= 0)
        raise(sig);
}

/* The one call into a target body. Not inlined and not a tail call, so the return address
 * inside it marks where a crash's frames stop being the target's (ex.boundary). */
__attribute__((noinline)) static uint64_t call_body(uint64_t (*run)(const uint8_t *, size_t),
                                                    const uint8_t *in, size_t size)
{
    uint64_t sig = run(in, size);
    __asm__ volatile("" ::: "memory");
    return sig;
}

static uint64_t probe_boundary(const uint8_t *in, size_t size)
{
    (void)in;
    (void)size;
    ex.boundary = (uint64_t)(uintptr_t)__builtin_return_address(0);
    return 0;
}

/* A target that forks: the copy must not go on running the engine's cases. */
static void on_fork_child(void)
{
    if (ex.active)
        ex.forked = 1;
}

/* Copies the input about to run into the executor's shared slot, so the supervisor still
 * has it if this case kills the process. */
static void publish(const fgi_exec *e, const uint8_t *data, size_t size)
{
    fgi_slot *sl = ex.slot;
    if (size > sl->cap)
        size = sl->cap; /* cannot happen: the slot is sized for the largest input */
    if (data != sl->data && size)
        memcpy(sl->data, data, size);
    sl->size = size;
    sl->seq = ex.seq;
    sl->case_index = e->crash.case_index;
    sl->napplied = e->mut ? e->mut->napplied : 0;
    if (sl->napplied)
        memcpy(sl->applied, e->mut->applied, sl->napplied);
}

void fgi_exec_attach(int channel, fgi_slot *slot)
{
    ex.channel = channel;
    ex.slot = slot;
}

void fgi_exec_seq(uint64_t seq)
{
    ex.seq = seq;
}

fg_error fgi_exec_open(fgi_exec *e, const fg_target *t)
{
    if (ex.open)
        return FG_EINVAL;
    memset(e, 0, sizeof *e);
    ex.alt_stack = fgi_malloc(ALT_STACK_SIZE);
    if (!ex.alt_stack)
        return FG_ENOMEM;
    stack_t ss = {.ss_sp = ex.alt_stack, .ss_size = ALT_STACK_SIZE, .ss_flags = 0};
    sigaltstack(&ss, &ex.saved_stack);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NFATAL; i++)
        sigaction(fatal_signals[i], &sa, &ex.saved[i]);
    struct sigaction st;
    memset(&st, 0, sizeof st);
    st.sa_handler = on_timeout_signal;
    st.sa_flags = SA_ONSTACK;
    sigemptyset(&st.sa_mask);
    sigaction(TIMEOUT_SIGNAL, &st, &ex.saved_timeout);
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(on_sanitizer_death);
    if (!ex.exit_trap && atexit(on_exit_during_case) == 0)
        ex.exit_trap = 1;
    if (!ex.atfork && pthread_atfork(NULL, NULL, on_fork_child) == 0)
        ex.atfork = 1;
    fgi_frames_warm();
    call_body(probe_boundary, NULL, 0);
    ex.forked = 0;
    ex.reporting = 0;
    ex.thread = pthread_self();
    ex.pid = getpid();
    ex.open = e;
    e->target = t;
    return FG_OK;
}

void fgi_exec_close(fgi_exec *e)
{
    FG_ASSERT(ex.open == e && !ex.active);
    for (size_t i = 0; i < NFATAL; i++)
        sigaction(fatal_signals[i], &ex.saved[i], NULL);
    sigaction(TIMEOUT_SIGNAL, &ex.saved_timeout, NULL);
    if (ex.saved_stack.ss_flags & SS_DISABLE) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
    } else {
        sigaltstack(&ex.saved_stack, NULL);
    }
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(NULL);
    fgi_free(ex.alt_stack);
    ex.alt_stack = NULL;
    ex.open = NULL;
    /* The input buffer comes from the target-visible allocator on purpose: under ASan
     * its end is a redzone, so a read one past the input is caught. It is allocated and
     * freed outside any case, so no heap oracle counts it. */
    free(e->buf);
    e->buf = NULL;
    e->cap = 0;
}

fg_error fgi_exec_reserve(fgi_exec *e, size_t size)
{
    if (size <= e->cap && e->buf)
        return FG_OK;
    uint8_t *b = malloc(size ? size : 1);
    if (!b)
        return FG_ENOMEM;
    free(e->buf);
    e->buf = b;
    e->cap = size ? size : 1;
    return FG_OK;
}

/* Runs the body once over a copy of data with every oracle armed; heap says what the
 * case left allocated (nothing for a case the engine ended: that memory is released). */
static void run_body(fgi_exec *e, const uint8_t *data, size_t size, fgi_case_result *res,
                     fgi_heap_report *heap)
{
    uint8_t *in = e->buf + e->cap - size;
    if (size)
        memcpy(in, data, size);
    size_t allowance = e->target->allowance ? e->target->allowance(size)
                                            : fgi_heap_default_allowance(size);
    res->status = FGI_CASE_OK;
    res->rejected = 0;
    ex.rejected = 0;
    ex.res = res;
    /* Only this thread writes the counter: a load and a store, no locked add. */
    _Atomic unsigned long *started = progress();
    atomic_store_explicit(started, atomic_load_explicit(started, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    if (fgi_cov_enabled()) {
        fgi_cov_reset();
        fgi_cov_budget(fgi_cov_default_budget(size));
    }
    if (ex.slot) {
        publish(e, data, size);
        ex.slot->active = 1;
    }
    if (sigsetjmp(ex.jump, 0) == 0) {
        fgi_heap_arm(allowance);
        ex.active = 1;
        uint64_t sig = call_body(e->target->run, in, size);
        if (ex.forked)
            _exit(0); /* the target's forked copy, back from the body: it is not ours */
        ex.active = 0;
        fgi_heap_disarm(heap);
        res->sig = sig;
        res->rejected = ex.rejected;
        if (heap->refused) {
            res->status = FGI_CASE_ENDED;
            res->kind = "amplification";
            res->site[0] = '\0';
            snprintf(res->detail, sizeof res->detail,
                     "an allocation of %zu bytes on another thread would have passed the "
                     "case's allowance of %zu bytes",
                     heap->refused_size, allowance);
        } else if (size && memcmp(in, data, size) != 0) {
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
        fgi_heap_release();
        heap->live_bytes = heap->live_blocks = 0;
        heap->nsites = 0;
        res->status = FGI_CASE_ENDED;
        res->sig = 0;
    }
    if (ex.slot)
        ex.slot->active = 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Memory a case left behind is a leak only if it is left on every run: the same input
 * runs twice more, and lazy initialisation (retained once, then reused) is let go. The
 * class names the first sites in sorted module+offset order, never in table order, so it
 * is the same from run to run. */
static void confirm_retention(fgi_exec *e, const uint8_t *data, size_t size,
                              fgi_case_result *res, const fgi_heap_report *first)
{
    fgi_heap_report again;
    for (int run = 0; run < 2; run++) {
        run_body(e, data, size, res, &again);
        if (res->status != FGI_CASE_OK)
            return; /* the re-run failed an oracle itself: that is the finding */
        if (again.live_bytes == 0)
            return; /* not retained every time: not a leak */
    }
    static char names[FGI_HEAP_SITES][96]; /* run thread only; too big for the stack */
    for (unsigned i = 0; i < again.nsites; i++)
        fgi_heap_site_name(again.sites[i], names[i], sizeof names[i]);
    qsort(names, again.nsites, sizeof names[0], by_name);
    char sites[4 * 96 + 8] = "";
    size_t used = 0;
    for (unsigned i = 0; i < again.nsites && i < 4; i++)
        used += (size_t)snprintf(sites + used, sizeof sites - used, "%s%s", i ? ", " : "",
                                 names[i]);
    res->status = FGI_CASE_ENDED;
    res->kind = "retention";
    snprintf(res->site, sizeof res->site, "%s", sites);
    snprintf(res->detail, sizeof res->detail,
             "the case left %zu bytes in %zu blocks allocated, on each of 3 runs "
             "(first run %zu bytes; allocated at %s%s)",
             again.live_bytes, again.live_blocks, first->live_bytes, sites,
             again.nsites > 4 ? ", ..." : "");
}

void fgi_exec_origin(fgi_exec *e, int64_t case_index, const char *origin,
                     const fgi_mut *mut)
{
    e->crash.case_index = case_index;
    e->crash.origin = origin;
    e->mut = origin ? NULL : mut;
}

void fgi_exec_run(fgi_exec *e, const uint8_t *data, size_t size, fgi_case_result *res)
{
    FG_ASSERT(ex.open == e && size <= e->cap);
    e->crash.data = data;
    e->crash.size = size;
    fgi_heap_report heap;
    run_body(e, data, size, res, &heap);
    if (res->status == FGI_CASE_OK && heap.live_bytes)
        confirm_retention(e, data, size, res, &heap);
}

int fgi_exec_in_case(void)
{
    return ex.active;
}

int fgi_exec_on_case_thread(void)
{
    return ex.active && pthread_equal(pthread_self(), ex.thread);
}

/* Fills the running case's result and jumps back to fgi_exec_run. */
static FG_NORETURN __attribute__((format(printf, 4, 0))) void
end_case(const char *kind, const char *site, const char *prefix, const char *fmt, va_list ap)
{
    ex.active = 0;
    fgi_case_result *res = ex.res;
    res->kind = kind;
    snprintf(res->site, sizeof res->site, "%s", site ? site : "");
    int n = snprintf(res->detail, sizeof res->detail, "%s", prefix);
    if (n >= 0 && (size_t)n < sizeof res->detail)
        vsnprintf(res->detail + n, sizeof res->detail - (size_t)n, fmt, ap);
    siglongjmp(ex.jump, 1);
}

void fgi_exec_end_case(const char *kind, const char *site, const char *fmt, ...)
{
    FG_ASSERT(fgi_exec_on_case_thread());
    va_list ap;
    va_start(ap, fmt);
    end_case(kind, site, "", fmt, ap);
}

void fg_reject(void)
{
    if (fgi_exec_on_case_thread())
        ex.rejected = 1;
}

void fg_fail_at(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    if (!fgi_exec_on_case_thread()) {
        fprintf(stderr, "fuzzgate: %s:%d: fg_fail/FG_CHECK outside a case's own thread: ",
                file, line);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\n");
        abort();
    }
    /* The class site is the file, the condition and the format string, not the line:
     * gcc and clang disagree on __LINE__ inside a multi-line macro call, and a class must
     * not change with the compiler. Distinct checks have distinct text. */
    char site[512], prefix[512];
    snprintf(site, sizeof site, "%s: %s: %s", file, cond ? cond : "fg_fail", fmt);
    if (cond)
        snprintf(prefix, sizeof prefix, "%s:%d: check failed: %s: ", file, line, cond);
    else
        snprintf(prefix, sizeof prefix, "%s:%d: ", file, line);
    va_start(ap, fmt);
    end_case("check", site, prefix, fmt, ap);
}
