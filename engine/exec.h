/* engine/exec.h — the harness that runs one case with every oracle armed.
 *
 * This is the one place oracles are armed and disarmed. Today: the no-crash oracle (fatal
 * signals, FG_CHECK/fg_fail, writes to the read-only input). A case ends in one of the
 * statuses below; a fatal signal does not return here at all — the finding is stored from
 * the handler through the one store path (finding.h) and the process dies with the
 * signal, which is what a supervising parent will observe.
 */
#ifndef FG_EXEC_H
#define FG_EXEC_H

#include "finding.h"
#include "mutate.h"

enum fgi_case_status {
    FGI_CASE_OK = 0, /* the body returned; res->sig holds its signature */
    FGI_CASE_CHECK,  /* FG_CHECK or fg_fail ended it */
    FGI_CASE_WRITE   /* the body wrote into its read-only input */
};

typedef struct fgi_case_result {
    enum fgi_case_status status;
    uint64_t sig;         /* valid for FGI_CASE_OK */
    const char *kind;     /* "check", "write" for a failing status */
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
     * fills target, seed, program and findings_dir once, and before each case sets
     * crash.case_index / crash.origin and `mut` (whose applied list names the mutations).
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
/* Runs one case over a copy of data[0..size) (size <= cap) and fills res. data itself is
 * the pristine copy the write oracle compares against and the crash path stores. */
FGI_HIDDEN void fgi_exec_run(fgi_exec *e, const uint8_t *data, size_t size,
                             fgi_case_result *res);

#endif
