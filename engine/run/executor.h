/* engine/run/executor.h — the side of a run that runs cases (r->ex, state.h): this process
 * with --no-fork, else a forked executor. */
#ifndef FG_RUN_EXECUTOR_H
#define FG_RUN_EXECUTOR_H

#include "engine/run/state.h"

/* The executor's memory: buffers and tables (fgi_run_open), and its free. */
FGI_HIDDEN fg_error fgi_executor_init(run *r);
FGI_HIDDEN void fgi_executor_free(run *r);
/* Arms the process for cases (harness, descriptor watch, watchdog), and disarms it. */
FGI_HIDDEN fg_error fgi_executor_open(run *r);
FGI_HIDDEN void fgi_executor_close(run *r);
/* Runs executor j's share of the run from position `from` to its end (or a stop). */
FGI_HIDDEN void fgi_executor_run(run *r, unsigned j, uint64_t from);
/* The body of a forked executor (fgi_sup_ops.child). */
FGI_HIDDEN int fgi_executor_main(void *ctx, unsigned j, uint64_t from, fgi_wire_link *link,
                                 fgi_slot *slot);

#endif
