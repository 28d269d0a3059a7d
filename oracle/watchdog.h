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
/* ended_ms (may be NULL): the watchdog copies there the longest an ended case was seen
 * running (ms; a lower bound, at the sampling period's grain) as it grows, so a supervisor
 * still reads it after the process died. full_ms > time_ms says time_ms is a re-hit
 * deadline (for the timeout's detail). */
FGI_HIDDEN fgi_watchdog *fgi_watchdog_start(unsigned time_ms, unsigned slow_ms,
                                            volatile uint32_t *ended_ms, unsigned full_ms);

/* Re-hits. A timeout is one class per target, confirmed at the full deadline. After that,
 * another case past the full deadline could only count again: executors get a re-hit
 * deadline instead, FGI_REHIT_FACTOR x the slowest case seen to end so far, at least
 * FGI_REHIT_FLOOR_MS, at most the full deadline. A case past it is abandoned as a
 * presumed re-hit: never a finding, never a new class (so the class set does not depend
 * on the machine's load), counted in timing only. Both numbers are judgement calls: 10x
 * is a loaded CI box's margin over a laptop; 100 ms is 4 sampling periods and far above
 * what any of the planted or real-library targets takes for a case that ends. Under a
 * sanitizer there is no re-hit deadline (the full one is returned): a sanitizer's crash
 * report can outlast it before the harness hears that a report has begun. */
#define FGI_REHIT_FACTOR 10u
#define FGI_REHIT_FLOOR_MS 100u
FGI_HIDDEN unsigned fgi_watchdog_rehit_ms(unsigned time_ms, unsigned ended_ms);

/* The run's end, for cases that run in this process (--no-fork, the libFuzzer driver's
 * default): nothing can kill a case stuck in the target, so the watchdog keeps the run's
 * promise to end. Once *halt is set (an interrupt's handler sets it; the watchdog itself
 * sets it when the monotonic clock, fgi_clock_now_s, passes end_s, 0 for none), a case
 * that is still running grace_ms after that, and has run for grace_ms, is given up:
 * stuck(ctx, running_ms) is called on the watchdog's thread, with the case's thread still
 * in the target, and must end the process with signal-safe calls only. Call before
 * cases run (the thread reads these under its lock); not for a forked executor, whose
 * supervisor kills it instead. */
FGI_HIDDEN void fgi_watchdog_end(fgi_watchdog *w, double end_s, volatile int *halt,
                                 unsigned grace_ms, void (*stuck)(void *ctx, unsigned ms),
                                 void *ctx);

/* Stops and joins the thread; returns the number of slow cases it saw (timing only). */
FGI_HIDDEN unsigned long fgi_watchdog_stop(fgi_watchdog *w, unsigned *slowest_ms);

#endif
