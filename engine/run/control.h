/* engine/run/control.h — a run's bottom services: its error, whether it should stop, its
 * status lines and the interrupt. Every other file of the run calls down into these; they
 * call nothing of the run above them. */
#ifndef FG_RUN_CONTROL_H
#define FG_RUN_CONTROL_H

#include "engine/run/state.h"

/* The run's clock and status starts now (fgi_run_open). */
FGI_HIDDEN void fgi_control_init(run *r);
/* Keeps the first engine error: it ends the run. */
FGI_HIDDEN void fgi_run_error(run *r, fg_error e);
/* Whether the run should stop at the next chunk: an error, an interrupt, its seconds up
 * (an executor: when its supervisor says so). */
FGI_HIDDEN int fgi_run_should_stop(run *r);
/* Whether a depth run is due a status line (every few seconds). */
FGI_HIDDEN int fgi_run_status_due(const run *r);
/* Prints the status line at position pos. */
FGI_HIDDEN void fgi_run_status(run *r, uint64_t pos);

/* SIGINT and SIGTERM stop the run after the case running now, keeping everything (a
 * second one ends the process). fgi_control_catch installs the handlers;
 * fgi_control_release puts the host's back, unless an interrupt came (the caller sees
 * fgi_run_interrupted, in session.h, and stops). */
FGI_HIDDEN void fgi_control_catch(void);
FGI_HIDDEN void fgi_control_release(void);
/* The flag a --no-fork run's cases are stopped by (the executor's loop reads it before
 * each case): set by an interrupt. */
FGI_HIDDEN volatile int *fgi_control_halt(void);

#endif
