/* engine/base/clock.h — the engine's one clock: monotonic seconds, for progress lines,
 * timed runs and timing.json. Never an input to a fuzzing decision (docs/determinism.md). */
#ifndef FG_CLOCK_H
#define FG_CLOCK_H

#include "engine/internal.h"

/* Seconds on the monotonic clock since an arbitrary start. Async-signal-safe. */
FGI_HIDDEN double fgi_clock_now_s(void);

#endif
