/* engine/run/plan.h — a run's positions: the replay items in order, and the epochs and
 * chunks generated cases fall into (r->plan, state.h). */
#ifndef FG_RUN_PLAN_H
#define FG_RUN_PLAN_H

#include "engine/run/state.h"

/* Sets the plan's limits from the session's options and the target's fields. */
FGI_HIDDEN void fgi_plan_init(run *r);
FGI_HIDDEN void fgi_plan_free(run *r);
/* The per-case deadline in ms: --timeout-ms, else the target's .time_ms, else the default. */
FGI_HIDDEN unsigned fgi_plan_time_ms(const fgi_opts *o, const fg_target *t);

/* The epoch of position seq: where it starts, where it ends (replay items are one epoch). */
FGI_HIDDEN uint64_t fgi_plan_epoch_start(const run *r, uint64_t seq);
FGI_HIDDEN uint64_t fgi_plan_epoch_end(const run *r, uint64_t seq);
/* Whether executor j (of r->plan.jobs) has a chunk of the epoch [es, ee) ending after q. */
FGI_HIDDEN int fgi_plan_has_work(const run *r, unsigned j, uint64_t q, uint64_t es,
                                 uint64_t ee);
/* The origin of a replayed position ("corpus/x/y", "seed #2"), NULL for a generated case. */
FGI_HIDDEN const char *fgi_plan_origin(const run *r, uint64_t seq);
/* Adds a replay item (takes origin and data, freed on failure). */
FGI_HIDDEN fg_error fgi_plan_add_item(run *r, char *origin, uint8_t *data, size_t size,
                                      int always);
FGI_HIDDEN fg_error fgi_plan_add_dir(run *r, const char *dir);
FGI_HIDDEN fg_error fgi_plan_add_target(run *r, const char *root);
FGI_HIDDEN fg_error fgi_plan_add_seeds(run *r);
/* Sizes the slot for the largest input and counts the run's positions. */
FGI_HIDDEN void fgi_plan_size(run *r, uint64_t cases);

#endif
