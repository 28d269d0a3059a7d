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
/* A depth run's new classes, each minimised within its class and stored again, all by
 * ends_at (fgi_clock_now_s; 0: no time bound): no trial runs past it (one that would is
 * cut to the time left, and then says nothing), and a timeout class gets a few trials
 * that run to the deadline, no more. A class the time ran out for keeps its input and is
 * shown as "not minimised (time)" ("partly minimised ... (time)" when the search had got
 * somewhere). An interrupt ends it. */
FGI_HIDDEN void fgi_mode_minimize_findings(fg_session *s, const fg_target *t, fg_outcome *o,
                                           double ends_at);
/* Says which committed corpus files a merge would drop (the gate's corpus check). */
FGI_HIDDEN void fgi_mode_would_drop(run *r);

#endif
