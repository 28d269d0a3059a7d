/* engine/run/run.h — one target's run from open to close (the lifecycle, run.c). */
#ifndef FG_RUN_H
#define FG_RUN_H

#include "engine/run/state.h"

FGI_HIDDEN fg_error fgi_run_open(run *r, fg_session *s, const fg_target *t);
/* Runs the planned positions: supervised, or here. */
FGI_HIDDEN void fgi_run_all(run *r);
/* Closes what fgi_run_open opened; hands the outcome to *out on success. watch: run the
 * saturation watch. */
FGI_HIDDEN fg_error fgi_run_close(run *r, fg_error e, fg_outcome **out, int watch);

#endif
