/* oracle/crash.c — the no-crash oracle: fatal-signal handlers, the exit trap, and checks.
 *
 * Fatal signals are handled on an alternate stack (so a stack overflow is reported too),
 * store the finding, and let the process die with the same signal. A check ends the case
 * through fgi_case_end (case.c), which jumps back to the harness.
 */
#include "oracle/crash.h"

#include "engine/base/errout.h"
#include "engine/base/safeio.h"
#include "engine/base/case.h"
#include "oracle/frames.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
#define ALT_STACK_SIZE (256 * 1024) /* arbitrary; the store path needs ~20 KiB of it */

/* Process-wide because signal handlers have no other way to reach it. Written by the run
 * thread between cases (arm, disarm) and by a handler on it (frames). */
static struct {
    struct sigaction saved[NFATAL]; /* handlers before fgi_crash_arm */
    stack_t saved_stack;            /* alternate stack before fgi_crash_arm */
    void *alt_stack;                /* ours, while armed */
    int exit_trap;                  /* the atexit trap is registered (once per process) */
    int atfork;                     /* the fork hook is registered (once per process) */
    uint64_t frames[FGI_FRAMES];    /* the dying case's, captured by the handler */
    unsigned frames_n;
    int frames_sanitizer;           /* captured inside a sanitizer's report path */
    fgi_crash_send *send;           /* where a dying case's words go (fgi_crash_channel) */
    void *send_ctx;
} crash;

void fgi_crash_channel(fgi_crash_send *send, void *ctx)
{
    crash.send = send;
    crash.send_ctx = ctx;
}

const char *fgi_crash_signal_name(int sig)
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

void fgi_crash_store(const char *kind, const char *what, const char *ending)
{
    fgi_case_state *c = &fgi_case_now;
    if (!fgi_case_running() || !c->id || c->forked)
        return;
    fgi_case_set_active(0);
    if (!crash.send)
        return; /* nobody to tell: the process dies with its signal */
    fgi_dying dy;
    memset(&dy, 0, sizeof dy);
    size_t kl = strlen(kind), wl = strlen(what);
    memcpy(dy.kind, kind, kl < sizeof dy.kind - 1 ? kl : sizeof dy.kind - 1);
    /* 159 bytes of the cause at most, as a finding's detail has always had */
    memcpy(dy.what, what, wl < 159 ? wl : 159);
    dy.nframes = crash.frames_n;
    dy.from_sanitizer = (uint32_t)crash.frames_sanitizer;
    memcpy(dy.frames, crash.frames, crash.frames_n * sizeof crash.frames[0]);
    crash.send(crash.send_ctx, &dy, ending);
}

/* A sanitizer's death callback: it has printed its report and is about to exit, so the
 * finding is stored now, from the input the harness still holds. */
static void on_sanitizer_death(void)
{
    if (!fgi_case_on_thread())
        return;
    crash.frames_n = fgi_frames_capture(NULL, fgi_case_now.boundary, crash.frames, FGI_FRAMES);
    crash.frames_sanitizer = 1;
    fgi_crash_store("crash", "the target died of a sanitizer report (printed above)",
                    "crashed; this process ends with the sanitizer's exit status");
}

/* ASan's hook at the start of an error report (weak: a host's own wins). Printing and
 * symbolising a report can take longer than a tight deadline; the case is already a crash,
 * and a timeout fired meanwhile would make the class depend on the machine's speed. */
__attribute__((weak)) void __asan_on_error(void);
__attribute__((weak)) void __asan_on_error(void)
{
    if (fgi_case_on_thread())
        fgi_case_now.reporting = 1;
}

/* exit() during a case: the run would end silently, perhaps with status 0. The trap
 * stores an `exit` finding, flushes stdout (the summaries before it) and ends the process
 * with status 1 instead. */
static void on_exit_during_case(void)
{
    /* A child the target forked inherits the trap; its exit() is not the case's. */
    if (!fgi_case_running() || !fgi_case_now.id || getpid() != fgi_case_now.pid)
        return;
    fgi_crash_store("exit", "the target called exit() during a case",
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
    if (fgi_case_on_thread()) {
        crash.frames_n =
            fgi_frames_capture(uctx, fgi_case_now.boundary, crash.frames, FGI_FRAMES);
        crash.frames_sanitizer = 0;
        /* A fault at the stack pointer is an overflow: the guard page below the stack.
         * (Read from the context, not from the thread's attributes, whose query
         * allocates.) */
        uint64_t at = info ? (uint64_t)(uintptr_t)info->si_addr : 0, sp = fgi_frames_sp(uctx);
        int overflow = (sig == SIGSEGV || sig == SIGBUS) && sp && at &&
                       at + (64u << 10) >= sp && at <= sp + 4096;
        if (overflow && crash.frames_n > 1) {
            /* The recursion's own call site is the return address seen most often; where
             * the guard page is hit (the body, or a callback it calls) is not the bug. */
            unsigned best = 1, most = 0;
            for (unsigned i = 1; i < crash.frames_n; i++) {
                unsigned n = 0;
                for (unsigned j = 1; j < crash.frames_n; j++)
                    n += crash.frames[j] == crash.frames[i];
                if (n > most) {
                    most = n;
                    best = i;
                }
            }
            crash.frames[0] = crash.frames[best];
            crash.frames_n = 1;
        }
        char what[96];
        fgi_sink w = {.fd = -1}; /* no snprintf: this is a signal handler */
        fgi_sink_put(&w, overflow ? "the target overflowed its stack: " : "the target died of ");
        fgi_sink_put(&w, fgi_crash_signal_name(sig));
        size_t n = w.len < sizeof what - 1 ? w.len : sizeof what - 1;
        memcpy(what, w.buf, n);
        what[n] = '\0';
        fgi_crash_store("crash", what, "crashed; this process ends with the same signal");
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

/* A target that forks: the copy must not go on running the engine's cases. */
static void on_fork_child(void)
{
    if (fgi_case_running())
        fgi_case_now.forked = 1;
}

fg_error fgi_crash_arm(void)
{
    FG_ASSERT(!crash.alt_stack);
    crash.alt_stack = fgi_malloc(ALT_STACK_SIZE);
    if (!crash.alt_stack)
        return FG_ENOMEM;
    stack_t ss = {.ss_sp = crash.alt_stack, .ss_size = ALT_STACK_SIZE, .ss_flags = 0};
    sigaltstack(&ss, &crash.saved_stack);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NFATAL; i++)
        sigaction(fatal_signals[i], &sa, &crash.saved[i]);
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(on_sanitizer_death);
    if (!crash.exit_trap && atexit(on_exit_during_case) == 0)
        crash.exit_trap = 1;
    if (!crash.atfork && pthread_atfork(NULL, NULL, on_fork_child) == 0)
        crash.atfork = 1;
    fgi_frames_warm();
    return FG_OK;
}

void fgi_crash_disarm(void)
{
    FG_ASSERT(crash.alt_stack);
    for (size_t i = 0; i < NFATAL; i++)
        sigaction(fatal_signals[i], &crash.saved[i], NULL);
    if (crash.saved_stack.ss_flags & SS_DISABLE) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
    } else {
        sigaltstack(&crash.saved_stack, NULL);
    }
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(NULL);
    fgi_free(crash.alt_stack);
    crash.alt_stack = NULL;
}

void fg_fail_at(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    if (!fgi_case_on_thread()) {
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
    fgi_case_endv("check", site, prefix, fmt, ap);
}
