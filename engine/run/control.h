/* engine/run/control.h — a run's bottom services: its error, whether it should stop, its
 * status lines and the interrupt. Every other file of the run calls down into these; they
 * call nothing of the run above them. */
#ifndef FG_RUN_CONTROL_H
#define FG_RUN_CONTROL_H

#include "engine/run/state.h"

/* The run's clock and status starts now (fgi_run_open). */
FGI_HIDDEN void fgi_control_init(run *r);
/* Keeps the first engine error: it ends the run. */
FGI_HIDDEN void fgi_run_error(run *r, fg_error e);
/* Whether the run should stop at the next chunk: an error, an interrupt, its seconds up
 * (an executor: when its supervisor says so). */
FGI_HIDDEN int fgi_run_should_stop(run *r);
/* Whether a timed run is done generating cases (the parent's and a --no-fork run's clock;
 * 0 for a counted run). Once it holds a new class to minimise it stops short of its
 * seconds, leaving the rest to fgi_mode_minimize_findings (fgi_run_ends_at). */
FGI_HIDDEN int fgi_run_time_up(const run *r);
/* Whether a minimisation trial of class class_id, under a deadline of deadline_ms, can
 * say anything in `secs` seconds: a timeout's trial must run to the whole deadline (one
 * cut by the time left only shows the time ran out), any other class's may be cut. The
 * one rule behind the reserve above and the minimiser's last trial (modes.c). */
FGI_HIDDEN int fgi_trial_fits(const char *class_id, unsigned deadline_ms, double secs);
/* Whether class_id is a timeout's ("timeout-" and its hash). */
FGI_HIDDEN int fgi_class_is_timeout(const char *class_id);
/* The monotonic time (fgi_clock_now_s) a timed run must be over by, minimisation
 * included; 0 for a counted run. */
FGI_HIDDEN double fgi_run_ends_at(const run *r);
/* Whether a depth run is due a status line (every few seconds). */
FGI_HIDDEN int fgi_run_status_due(const run *r);
/* Prints the status line at position pos. */
FGI_HIDDEN void fgi_run_status(run *r, uint64_t pos);

/* SIGINT and SIGTERM stop the run after the case running now, keeping everything (a
 * second one of either ends the process). fgi_control_catch installs the handlers and
 * fgi_control_release puts the host's back, unless an interrupt came (the caller sees
 * fgi_run_interrupted, in session.h, and stops). They nest: a session's run and the
 * minimisation after it are one catch, the trial runs inside it catch nothing new. */
FGI_HIDDEN void fgi_control_catch(void);
FGI_HIDDEN void fgi_control_release(void);
/* The flag a --no-fork run's cases are stopped by (the executor's loop reads it before
 * each case): set by an interrupt, or by the watchdog when the run's time is over. */
FGI_HIDDEN volatile int *fgi_control_halt(void);
/* How long a --no-fork case may go on after the run's end before the watchdog gives it
 * up (arbitrary: far longer than a case that is not stuck, short enough that an
 * interrupt ends the process within a second). */
#define FGI_STUCK_GRACE_MS 500u
/* The last resort of a --no-fork run whose case is stuck in the target after the run's
 * end (oracle/watchdog.h fgi_watchdog_end; ctx is the run): says so, with the input's
 * hex, and ends the process: 128 + the signal after an interrupt (the session's
 * interrupt_status when it is not -1); after the time limit 0, or the session's
 * findings_status when the run stored a new finding before (the case cut short is none,
 * as in a supervised run). Signal-safe; does not return. */
FGI_HIDDEN FG_NORETURN void fgi_control_stuck(void *ctx, unsigned running_ms);

#endif
