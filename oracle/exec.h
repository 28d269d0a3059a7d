/* oracle/exec.h — the harness that runs one case with every oracle armed.
 *
 * This is the one place oracles are armed and disarmed: no crash (fatal signals, exit(),
 * FG_CHECK/fg_fail, writes to the read-only input), no amplification and no retention
 * (oracle/heap.c), bounded time (watchdog.c, started by the session). A case ends in one of the
 * statuses below; a fatal signal does not return here at all — the finding goes from the
 * handler to the supervisor (an executor, fgi_exec_attach) or through the one store path
 * (finding.h, --no-fork), and the process dies with the signal.
 */
#ifndef FG_EXEC_H
#define FG_EXEC_H

#include "engine/findings/finding.h"
#include "engine/mutate/mutate.h"

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

/* The per-target harness state. Owned by the session's run; one open at a time per
 * process (signals and fg_fail_at reach it through exec.c's process-wide state). */
typedef struct fgi_exec {
    const fg_target *target;
    uint8_t *buf;      /* input buffer; a case's bytes end exactly at buf + cap */
    size_t cap;
    /* What the crash path needs to store a finding from a signal handler. The session
     * fills target, seed, program and findings_dir once, and before each case calls
     * fgi_exec_origin.
     * crash.data/size are set by fgi_exec_run to the caller's pristine copy. */
    fgi_finding_rec crash;
    const fgi_mut *mut;
} fgi_exec;

/* Arms the process for cases: fatal-signal handlers on an alternate stack (the previous
 * handlers and stack are saved). FG_ENOMEM or FG_EINVAL (another exec is open). */
FGI_HIDDEN fg_error fgi_exec_open(fgi_exec *e, const fg_target *t);
/* Restores the handlers and stack that were there before, frees the buffer. */
FGI_HIDDEN void fgi_exec_close(fgi_exec *e);
/* Makes room for an input of size bytes (call outside a case). */
FGI_HIDDEN fg_error fgi_exec_reserve(fgi_exec *e, size_t size);
/* Says where the next input comes from, for a finding the crash path stores: a generated
 * case (origin NULL; mut's applied list names its mutations) or a replayed one. */
FGI_HIDDEN void fgi_exec_origin(fgi_exec *e, int64_t case_index, const char *origin,
                                const fgi_mut *mut);
/* Runs one case over a copy of data[0..size) (size <= cap) and fills res. data itself is
 * the pristine copy the write oracle compares against and the crash path stores. */
FGI_HIDDEN void fgi_exec_run(fgi_exec *e, const uint8_t *data, size_t size,
                             fgi_case_result *res);

struct fgi_slot;
/* Makes this process an executor: dying cases are sent on `channel` (wire.h) instead of
 * stored, and every input is published into `slot` before its body runs. -1/NULL undo. */
FGI_HIDDEN void fgi_exec_attach(int channel, struct fgi_slot *slot);
/* The run position of the next input (published with it). */
FGI_HIDDEN void fgi_exec_seq(uint64_t seq);

/* The watchdog's verdict: stores a `timeout` finding with this detail from the case's
 * own thread (by signal; from the caller after a grace period if that fails) and ends the
 * process (executor or --no-fork run) with status 1. Returns only if no case is running,
 * or when a sanitizer is printing the case's report (the case is a crash already). */
FGI_HIDDEN void fgi_exec_timeout(const char *detail);

/* "SIGSEGV (invalid memory access)" and the like: a static string. Signal-safe. */
FGI_HIDDEN const char *fgi_signal_name(int sig);

/* How many case bodies have started; *active says whether one is running now. */
FGI_HIDDEN unsigned long fgi_exec_cases_started(int *active);

/* 1 while a case body runs (any thread may ask; cheap). */
FGI_HIDDEN int fgi_exec_in_case(void);

/* 1 when called on the thread running the current case, during the case. */
FGI_HIDDEN int fgi_exec_on_case_thread(void);

/* Ends the running case as a finding of `kind` with a printf-style detail; site (may be
 * NULL) is hashed verbatim into the class. Only on the case's thread (check first with
 * fgi_exec_on_case_thread); used by fg_fail_at and the oracles. Does not return. */
FGI_HIDDEN FG_NORETURN void fgi_exec_end_case(const char *kind, const char *site,
                                              const char *fmt, ...) FG_PRINTF(3, 4);

#endif
