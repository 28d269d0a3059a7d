/* engine/base/case.h — the running case: the state that signal handlers, checks and oracles read.
 *
 * One case body runs at a time per process. What it is (its result, its input's origin)
 * and where it stands (running or not, on which thread) is process-wide, because signal
 * handlers, fg_fail_at (called from target code), the interposed allocator and the
 * compiler's callbacks have no other way to reach it. The harness (harness.c) writes it
 * around each body; the oracles (crash.c, timeout.c, heap.c) and the recorders
 * (engine/feedback) only read it, or end the case with fgi_case_end, which jumps back to
 * the harness. None of them calls up into the harness: this module is below them all.
 */
#ifndef FG_CASE_H
#define FG_CASE_H

#include "engine/internal.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <sys/types.h>

enum fgi_case_status {
    FGI_CASE_OK = 0, /* the body returned; res->sig holds its signature */
    FGI_CASE_ENDED   /* an oracle ended it or judged it: res->kind says which */
};

typedef struct fgi_case_result {
    enum fgi_case_status status;
    uint64_t sig;         /* valid for FGI_CASE_OK */
    int rejected;         /* the body called fg_reject: never keep this input */
    const char *kind;     /* "check", "write", "amplification", "retention" */
    char site[256];       /* "file:line" of a check, "" otherwise */
    char detail[1024];    /* the finding's detail */
} fgi_case_result;

#define FGI_CASE_APPLIED 8 /* the most mutations a case's identity names (FGI_MUT_STACK) */

/* Who a case is, for whoever reports on it (the crash path's channel, an executor's shared
 * slot, the descriptor oracle's window): opaque to the oracles, which pass it on. */
typedef struct fgi_case_id {
    uint64_t seq;          /* the input's position in the run */
    int64_t case_index;    /* its generated case number, -1 for a replayed input */
    const char *origin;    /* a replayed input's file or "seed #n"; NULL when generated */
    unsigned napplied;     /* the mutators that made it: indices into the mutator table */
    uint8_t applied[FGI_CASE_APPLIED];
} fgi_case_id;

/* The state itself. Written by the run thread (the harness, and end_case on the case's
 * own thread); read by handlers on that thread and, for `active` and `started`, by the
 * watchdog. `active` is the only field a handler relies on being current. */
typedef struct fgi_case_state {
    _Atomic int active;                /* a case body is running (a signal handler and the
                                        * watchdog thread read it; lock-free) */
    pthread_t thread;                  /* the thread running cases */
    pid_t pid;                         /* the process that opened the harness */
    sigjmp_buf jump;                   /* where an ended case returns to (the harness) */
    fgi_case_result *res;              /* the running case's result */
    int rejected;                      /* the running body called fg_reject */
    const fgi_case_id *id;             /* who the running case is (NULL when the harness is
                                        * closed) */
    const uint8_t *data;               /* its input, the pristine copy, and its size */
    size_t size;
    uint64_t boundary;                 /* return address of the call into the target */
    uintptr_t frame;                   /* the frame of the call into the target: the
                                        * case's own locals lie below it (stacks grow down
                                        * on every platform fuzzgate runs on) */
    volatile sig_atomic_t forked;      /* this process was forked by a target's case */
    volatile sig_atomic_t reporting;   /* a sanitizer is printing its report of the case */
    _Atomic unsigned long *started;    /* bodies started: own_started, or in an executor
                                        * its shared slot's counter (the supervisor's too) */
    _Atomic unsigned long own_started; /* the count when not an executor */
} fgi_case_state;

FGI_HIDDEN extern fgi_case_state fgi_case_now;

/* 1 on the thread running cases while a case body runs (set beside `active` by the harness
 * and fgi_case_end on that thread): one thread-local load, no call, for the hooks that ask
 * on every comparison and allocation. */
FGI_HIDDEN extern _Thread_local int fgi_case_here;

/* 1 while a case body runs (any thread may ask; cheap). An acquire: the watchdog, which
 * stores a stuck case's finding from its own thread (oracle/timeout.c), reads the case's
 * id, input and result after it, and the run thread wrote them before marking the body
 * running (a release, below). On x86-64 both are plain moves; ThreadSanitizer saw the
 * watchdog's reads as races when both were relaxed. */
static inline int fgi_case_running(void)
{
    return atomic_load_explicit(&fgi_case_now.active, memory_order_acquire);
}

/* Marks the case body running (1) or not (0); the run thread's, or a handler on it. */
static inline void fgi_case_set_active(int on)
{
    atomic_store_explicit(&fgi_case_now.active, on, memory_order_release);
}

/* 1 when called on the thread running the current case, during the case. */
static inline int fgi_case_on_thread(void)
{
    /* relaxed: on the case's own thread program order suffices (the hooks' hot path) */
    return fgi_case_here && atomic_load_explicit(&fgi_case_now.active, memory_order_relaxed);
}

/* How many case bodies have started; *active says whether one is running now. The
 * watchdog's clock-free progress. */
FGI_HIDDEN unsigned long fgi_case_started(int *active);

/* Ends the running case as a finding of `kind` with a printf-style detail; site (may be
 * NULL) is hashed verbatim into the class. Only on the case's thread (check first with
 * fgi_case_on_thread); used by the oracles and the work budget. Does not return: the
 * harness's fgi_harness_run goes on from its sigsetjmp. */
FGI_HIDDEN FG_NORETURN void fgi_case_end(const char *kind, const char *site, const char *fmt,
                                         ...) FG_PRINTF(3, 4);
/* The same with a prefix before the formatted detail (a check's "file:line: "). */
FGI_HIDDEN FG_NORETURN void fgi_case_endv(const char *kind, const char *site,
                                          const char *prefix, const char *fmt, va_list ap)
    FG_PRINTF(4, 0);

#endif
