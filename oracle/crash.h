/* oracle/crash.h — the no-crash oracle: fatal signals, exit() during a case, and checks.
 *
 * A fatal signal during a case (stack overflow included: the handlers run on an alternate
 * stack), a sanitizer's report, or exit() called by the target becomes a finding of the
 * input the running case still holds (case.h), and the process dies as it would have.
 * A check (FG_CHECK, fg_fail) ends only the case (fgi_case_end). The finding goes out
 * through the channel the run gives (fgi_crash_channel): an executor's to its supervisor,
 * which stores it, or the store path of a process that keeps its own findings.
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

/* Where a dying case's last words go: called from a fatal-signal handler (or the exit
 * trap), so it must be signal-safe. d is the case's cause and frames; ending is what the
 * process is about to do, for a line on stderr ("crashed; this process ends ..."); who
 * the case is and its input are in the case state (case.h). */
typedef void fgi_crash_send(void *ctx, const fgi_dying *d, const char *ending);
/* Sets the channel (the run gives one: to the supervisor from an executor, to the store
 * path in a process that keeps its own findings). NULL: none; a dying case then only dies. */
FGI_HIDDEN void fgi_crash_channel(fgi_crash_send *send, void *ctx);

/* Tells the channel of a finding of `kind` for the running case (if one runs on this
 * thread and this process is not a target's fork). `what` names the cause; with the
 * crash's top frames it is the class key. Signal-safe. */
FGI_HIDDEN void fgi_crash_store(const char *kind, const char *what, const char *ending);

/* "SIGSEGV (invalid memory access)" and the like: a static string. Signal-safe. */
FGI_HIDDEN const char *fgi_crash_signal_name(int sig);

#endif
