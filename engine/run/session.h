/* engine/run/session.h — the session's layout, shared with the report writer and the gate. */
#ifndef FG_SESSION_H
#define FG_SESSION_H

#include "engine/mutate/dict.h"
#include "engine/run/options.h"
#include "engine/findings/outcome.h"

struct fg_session {
    fgi_opts opt;     /* a private copy */
    char *program;    /* for replay commands */
    FILE *log;        /* status lines and warnings (stderr) */
    fgi_str report;   /* report.json target objects so far, comma-joined */
    fgi_str timing;   /* timing.json target objects so far */
    size_t nreported; /* targets in report */
    fgi_dict dict;    /* the --dict words (empty without one) */
    fg_outcome **runs; /* a copy of each run's outcome, for FUZZ.md and coverage.svg */
    size_t nruns, runs_cap;
    int runs_failed;   /* a copy could not be made: fg_session_write_reports says so */
    /* libFuzzer's conventions, set by its driver (bridge/harness) and read by the run: */
    const char *keep_dir; /* kept inputs go to <keep_dir>/<sha1>, libFuzzer's layout
                           * (borrowed); NULL: <corpus_out>/<target>/<sha1> */
    int merge_how;        /* enum fgi_merge_how of fgi_mode_merge (0: set cover) */
    int interrupt_status; /* the exit status an interrupt ends the process with when a
                           * --no-fork case is stuck (-1, the default: 128 + the signal) */
    int lf_interrupt;     /* ...and that notice opens with libFuzzer's interrupt line */
    int findings_status;  /* ...and the status after the time limit when the run had
                           * stored a new finding (1; the driver's -error_exitcode) */
};

/* engine/run/modes.c: */

/* --minimize=FILE TARGET: minimises FILE within its class and stores the result as the
 * class's finding. Prints one line to out; returns 0 done, 1 FILE passes, 2 error. */
FGI_HIDDEN int fgi_mode_minimize(fg_session *s, const fg_target *t, const char *path,
                                    FILE *out);
/* --merge=OUT TARGET IN...: writes into OUT the inputs of the IN directories a smallest set
 * keeping every feature and signature of OUT and IN needs. 0 or 2 (error). */
FGI_HIDDEN int fgi_mode_merge(fg_session *s, const fg_target *t, const char *out_dir,
                                 int ndirs, char **dirs, FILE *out);

/* Replays each known class's committed reproducer (corpus/<target>/known/<id>.bin) and
 * says on out which no longer land in their class. Returns how many. */
FGI_HIDDEN int fgi_mode_check_known(fg_session *s, const fg_target *t, FILE *out);

/* The signal (SIGINT/SIGTERM) that interrupted the last run, or 0 (engine/run/control.c):
 * set until the next session run or mode catches signals afresh. */
FGI_HIDDEN int fgi_run_interrupted(void);

/* Appends o's deterministic summary to s->report and its times to s->timing, and keeps a
 * copy of o for the human reports. */
FGI_HIDDEN void fgi_report_add(fg_session *s, const fg_outcome *o);
/* The gate failed the run just added for a reason beyond its findings (its committed
 * corpus past the budget): the kept copy says so, so JUnit and FUZZ.md show the target
 * failed as the closing line does. Copied; out of memory is remembered as runs_failed. */
FGI_HIDDEN void fgi_report_gate_failure(fg_session *s, const char *why);
/* Frees what fgi_report_add kept (fg_session_free calls it). */
FGI_HIDDEN void fgi_report_free(fg_session *s);

#endif
