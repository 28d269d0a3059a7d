/* oracle/crash.h — the no-crash oracle: fatal signals, exit() during a case, and checks.
 *
 * A fatal signal during a case (stack overflow included: the handlers run on an alternate
 * stack), a sanitizer's report, or exit() called by the target is stored as a finding from
 * the input the running case still holds (case.h) and the process dies as it would have.
 * A check (FG_CHECK, fg_fail) ends only the case (fgi_case_end). In an executor the
 * finding goes to the supervisor instead, through the channel the executor gives
 * (fgi_crash_channel).
 */
#ifndef FG_CRASH_H
#define FG_CRASH_H

#include "engine/internal.h"

#define FGI_FRAMES 24 /* return addresses captured from a dying case */

/* A dying case's last words: what the crash path knows when a case is killing the
 * process. Fixed-size and small, so it can be written from a signal handler in one write
 * below PIPE_BUF (an executor's DYING message, engine/supervise/wire.h). */
typedef struct fgi_dying {
    char kind[16];      /* "crash", "timeout", "exit" */
    char what[200];     /* the detail and class key: "the target died of SIGSEGV ..." */
    uint32_t nframes;   /* frames[0] is the innermost; 0 when not captured */
    uint32_t from_sanitizer; /* captured inside a sanitizer's report path */
    uint64_t frames[FGI_FRAMES];
} fgi_dying;

/* Arms the process for cases: fatal-signal handlers on an alternate stack (the previous
 * handlers and stack are saved), the sanitizer death callback, the exit() trap and the
 * fork hook. FG_ENOMEM when the alternate stack cannot be allocated (nothing armed). */
FGI_HIDDEN fg_error fgi_crash_arm(void);
/* Restores the handlers and stack that were there before. */
FGI_HIDDEN void fgi_crash_disarm(void);

/* Where a dying case's last words go instead of the store path: an executor's way to its
 * supervisor (send must be signal-safe). NULL: this process stores its own findings. */
FGI_HIDDEN void fgi_crash_channel(void (*send)(void *ctx, const fgi_dying *d), void *ctx);

/* Stores a finding of `kind` for the running case (if one runs on this thread and this
 * process is not a target's fork) through the one store path — or, in an executor, sends
 * it to the supervisor, which stores it — and prints "fuzzgate: <target>: <ending>".
 * `what` names the cause; with the crash's top frames it is the class key. Signal-safe. */
FGI_HIDDEN void fgi_crash_store(const char *kind, const char *what, const char *ending);

/* "SIGSEGV (invalid memory access)" and the like: a static string. Signal-safe. */
FGI_HIDDEN const char *fgi_crash_signal_name(int sig);

#endif
