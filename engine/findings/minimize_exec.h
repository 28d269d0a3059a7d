/* engine/findings/minimize_exec.h — minimisation's in-process predicate: whether an input, run
 * through the harness, still lands in a given finding class.
 *
 * Only for classes a case survives in process: check, write, amplification and heap
 * retention. A crash or a timeout ends the process (the crash path stores it and dies),
 * so those are minimised by the supervisor's predicate, which runs each candidate in a
 * forked executor and compares the class it reports.
 */
#ifndef FG_MINIMIZE_EXEC_H
#define FG_MINIMIZE_EXEC_H

#include "oracle/exec.h"

/* The class a case's result lands in: 1 with out filled ("<kind>-<16 hex>", the same
 * id the session records) when the case ended in a finding, 0 when it passed. */
FGI_HIDDEN int fgi_case_class(const fg_target *t, const fgi_case_result *res,
                              char out[FGI_CLASS_ID_MAX]);

/* The predicate's context. The caller opens the harness (fgi_exec_open, and
 * fgi_exec_origin for what a crash would store) and fills exec and class_id. */
typedef struct fgi_min_exec {
    fgi_exec *exec;        /* an open harness (borrowed) */
    const char *class_id;  /* the class to stay in (borrowed) */
    fgi_case_result res;   /* the last trial's result */
    unsigned long elsewhere; /* trials that ended in a finding of another class */
    fg_error err;          /* the engine error that stopped the search, or FG_OK */
} fgi_min_exec;

/* An fgi_reproduces_fn over a struct fgi_min_exec: runs data once through the harness
 * (retention confirms itself by re-running, as in a run) and answers 1 when it lands in
 * class_id. Returns -1 with ctx->err set when the harness cannot hold the input. */
FGI_HIDDEN int fgi_min_exec_reproduces(void *ctx, const uint8_t *data, size_t size);

#endif
