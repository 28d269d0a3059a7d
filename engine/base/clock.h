/* engine/base/clock.h — the engine's one clock: monotonic seconds, for deadlines and rates.
 *
 * Wall-clock time never reaches a fuzzing decision or report.json (docs/determinism.md):
 * this clock times runs (--seconds, status lines, timing.json) and the supervisor's
 * backstop, nothing that decides which input runs or is kept.
 */
#ifndef FG_CLOCK_H
#define FG_CLOCK_H

#include "engine/internal.h"

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC): only differences mean
 * anything. Any thread; not signal-safe in theory (clock_gettime is, in practice). */
FGI_HIDDEN double fgi_clock_now_s(void);

#endif
