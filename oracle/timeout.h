/* oracle/timeout.h — delivering the bounded-time oracle's verdict to the running case.
 *
 * The watchdog (watchdog.c) decides that a case is past its deadline; this module stores
 * the `timeout` finding from the case's own thread, by a real-time signal, so the case is
 * stopped and its bytes cannot change under the store, then ends the process (the case
 * cannot be taken back).
 */
#ifndef FG_TIMEOUT_H
#define FG_TIMEOUT_H

#include "engine/internal.h"

/* Installs the timeout signal's handler (the previous one is saved); restores it. */
FGI_HIDDEN void fgi_timeout_arm(void);
FGI_HIDDEN void fgi_timeout_disarm(void);

/* The watchdog's verdict on the case that was the `started`-th to start
 * (fgi_case_started): stores a `timeout` finding with this detail from the case's own
 * thread (by signal; from the caller after a grace period if that fails) and ends the
 * process (executor or --no-fork run) with status 1. Returns only if that case is no
 * longer running (it ended as the verdict was reached: the next case is not charged), or
 * when a sanitizer is printing the case's report (the case is a crash already). */
FGI_HIDDEN void fgi_timeout_deliver(const char *detail, unsigned long started);

#endif
