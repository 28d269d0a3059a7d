/* engine/run/supervised.h — a run's supervised policy (r->sv, state.h): executors started,
 * their records merged, an executor's death made a finding and the run resumed after it. */
#ifndef FG_RUN_SUPERVISED_H
#define FG_RUN_SUPERVISED_H

#include "engine/run/state.h"

FGI_HIDDEN void fgi_supervised_run(run *r);

#endif
