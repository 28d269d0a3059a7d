/* engine/run/modes.h — runs of given inputs rather than generated ones (the rest of
 * modes.c's entry points are the session's: session.h). */
#ifndef FG_RUN_MODES_H
#define FG_RUN_MODES_H

#include "engine/run/state.h"

/* Runs one input (owned by the caller) as a run of its own: a replay, or a trial (probe:
 * classify findings, store and print nothing). */
FGI_HIDDEN fg_error fgi_mode_replay(fg_session *s, const fg_target *t, const char *origin,
                                    const uint8_t *data, size_t size, int probe,
                                    fg_outcome **out);
/* A depth run's new classes, each minimised within its class and stored again. */
FGI_HIDDEN void fgi_mode_minimize_findings(fg_session *s, const fg_target *t, fg_outcome *o);
/* Says which committed corpus files a merge would drop (the gate's corpus check). */
FGI_HIDDEN void fgi_mode_would_drop(run *r);

#endif
