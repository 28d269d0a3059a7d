/* engine/outcome.h — the layout of an outcome, shared by the session (which fills it),
 * the report writer and the accessors. */
#ifndef FG_OUTCOME_H
#define FG_OUTCOME_H

#include "finding.h"

struct fg_outcome {
    char *target;          /* owned */
    char *skip;            /* owned: the target's .skip when the run was skipped, else NULL */
    uint64_t cases;        /* generated cases run */
    size_t replayed;       /* corpus files, seeds and the empty input run first */
    size_t corpus;         /* inputs kept at the end */
    size_t signatures;     /* distinct signatures seen */
    size_t features;       /* distinct coverage features seen (0 when not instrumented) */
    uint64_t kept;         /* generated cases kept for novelty */
    int saturated;         /* the saturation watch fired */
    int store_failed;      /* some finding could not be written to disk */
    int timed;             /* a depth run (seconds), not reproducible */
    double seconds;        /* wall time of the run: timing.json only, never report.json */
    unsigned long slow;    /* cases past the soft time threshold: timing.json only */
    unsigned slowest_ms;   /* the longest a case ran, as the watchdog saw it */
    uint64_t last_sig;     /* signature of the last case (replay uses it) */
    fg_finding *findings;  /* one per class, strings and bytes owned */
    size_t nfindings, cap;
};

/* Records a finding into o, merging by class: a class seen before counts one more and
 * keeps the smaller input. rec must be classified. *stored_again is set when the input
 * replaced the kept one (so the caller re-stores it). Returns the entry, or NULL when out
 * of memory. */
FGI_HIDDEN fg_finding *fgi_outcome_add(fg_outcome *o, const fgi_finding_rec *rec,
                                       int *is_new_or_smaller);
/* Sets the stored path and replay command of a finding (copies). */
FGI_HIDDEN int fgi_outcome_set_path(fg_finding *f, const char *path, const char *program);
FGI_HIDDEN fg_outcome *fgi_outcome_new(const char *target);
/* The outcome of a target that does not run in this build (t->skip set): nothing ran. */
FGI_HIDDEN fg_outcome *fgi_outcome_skipped(const fg_target *t);
/* Marks a finding known (reason copied); a NULL reason does nothing. */
FGI_HIDDEN int fgi_outcome_set_known(fg_finding *f, const char *reason);

#endif
