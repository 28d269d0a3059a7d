/* oracle/watchdog.h — the bounded-time oracle: a thread that watches the case counter. */
#ifndef FG_WATCHDOG_H
#define FG_WATCHDOG_H

#include "engine/internal.h"

/* The default per-case deadline when neither the target nor the run sets one. Generous
 * on purpose: a shared CI machine under load stalls; a hang does not end at all. */
#define FGI_DEFAULT_TIME_MS 10000u

typedef struct fgi_watchdog fgi_watchdog;

/* Starts a watchdog for cases with deadline time_ms and soft (slow) threshold slow_ms.
 * The run thread never reads a clock for it: the watchdog samples the case counter
 * (fgi_case_started) every tick and times, with the monotonic clock, how long one case has
 * been running. A case past its deadline is stored as a `timeout` finding from the case's
 * own thread (fgi_timeout_deliver), and the process ends with status 1 (the case cannot be
 * taken back: a supervised run starts a new executor, a --no-fork run ends). NULL when the
 * thread cannot start. */
FGI_HIDDEN fgi_watchdog *fgi_watchdog_start(unsigned time_ms, unsigned slow_ms);
/* Stops and joins the thread; returns the number of slow cases it saw (timing only). */
FGI_HIDDEN unsigned long fgi_watchdog_stop(fgi_watchdog *w, unsigned *slowest_ms);

#endif
