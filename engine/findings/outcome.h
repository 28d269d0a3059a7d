/* engine/findings/outcome.h — the layout of an outcome, shared by the session (which fills it),
 * the report writer and the accessors. */
#ifndef FG_OUTCOME_H
#define FG_OUTCOME_H

#include "engine/findings/finding.h"

/* A run's time series (FUZZ.md, coverage.svg): what the run had after `cases` generated
 * cases. Sampling is a pure function of the case count, never of time: a point is due at
 * case k when (k & mask) == 0; when FGI_SERIES_MAX points are held, every other one is
 * dropped and the stride doubles. So a run of N cases keeps at most FGI_SERIES_MAX + 1
 * points, the same ones on every machine, plus the run's end. */
#define FGI_SERIES_MAX 256 /* even; arbitrary: a smooth plot, 10 KiB an outcome */

typedef struct fgi_sample {
    uint64_t cases;      /* generated cases run before this point */
    uint64_t corpus;     /* inputs kept */
    uint64_t signatures; /* distinct signatures */
    uint64_t features;   /* distinct coverage features */
    uint64_t findings;   /* finding classes so far */
} fgi_sample;

typedef struct fgi_series {
    fgi_sample v[FGI_SERIES_MAX + 1]; /* ascending cases; the +1 holds the run's end */
    size_t n;
    uint64_t mask; /* stride - 1, the stride a power of two */
} fgi_series;

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
    int typed;             /* it kept an input its target read with fg_reader (a record):
                            * its findings are worth the minimiser's probe (modes.c) */
    int store_failed;      /* some finding could not be written to disk */
    char *gate_failure;    /* owned: why the gate failed this run beyond its findings (its
                            * committed corpus past the budget), or NULL; set on the copy the
                            * session keeps, for the CI reports (fgi_report_gate_failure) */
    int timed;             /* a depth run (seconds), not reproducible */
    double seconds;        /* wall time of the run: timing.json only, never report.json */
    unsigned long slow;    /* cases past the soft time threshold: timing.json only */
    unsigned slowest_ms;   /* the longest a case ran, as the watchdog saw it */
    uint64_t last_sig;     /* signature of the last case (replay uses it) */
    fg_finding *findings;  /* one per class, strings and bytes owned */
    uint64_t *seqs;        /* findings[i]'s input position in the run (tie-break) */
    int64_t *first_case;   /* per finding: the case of its first occurrence, -1 replayed */
    size_t nfindings, cap;
    fgi_series series;     /* the run over cases (fgi_outcome_sample) */
};

/* Records a finding into o, merging by class: a class seen before counts one more and
 * keeps the smaller input. rec must be classified. *stored_again is set when the input
 * replaced the kept one (so the caller re-stores it). Returns the entry, or NULL when out
 * of memory. */
FGI_HIDDEN fg_finding *fgi_outcome_add(fg_outcome *o, const fgi_finding_rec *rec,
                                       int *is_new_or_smaller);
/* Replaces a finding's input (bytes, hex, origin, mutations, detail) with rec's; its class,
 * count and first case stay. 0, or -1 when out of memory (the finding is unchanged). */
FGI_HIDDEN int fgi_outcome_set_input(fg_finding *f, const fgi_finding_rec *rec);
/* Orders the findings by class id (arrival order depends on the executors). */
FGI_HIDDEN void fgi_outcome_sort(fg_outcome *o);
/* Sets the stored path and replay command of a finding (copies). */
FGI_HIDDEN int fgi_outcome_set_path(fg_finding *f, const char *path, const char *program);
FGI_HIDDEN fg_outcome *fgi_outcome_new(const char *target);
/* The outcome of a target that does not run in this build (t->skip set): nothing ran. */
FGI_HIDDEN fg_outcome *fgi_outcome_skipped(const fg_target *t);
/* Marks a finding known (reason copied); a NULL reason does nothing. */
FGI_HIDDEN int fgi_outcome_set_known(fg_finding *f, const char *reason);

/* A deep copy of o (strings, bytes, series), or NULL when out of memory. */
FGI_HIDDEN fg_outcome *fgi_outcome_clone(const fg_outcome *o);

/* How many of o's findings are known (listed in known.txt). */
FGI_HIDDEN size_t fgi_outcome_known(const fg_outcome *o);
/* Generated cases kept for novelty per generated case run (0 when none ran). */
FGI_HIDDEN double fgi_outcome_novelty(const fg_outcome *o);

/* The case at which finding i first occurred; -1 for a replayed input. */
FGI_HIDDEN int64_t fgi_outcome_first_case(const fg_outcome *o, size_t i);

/* Takes a point of o's series at generated case k (before case k runs) when one is due;
 * otherwise costs a mask test. k must not go down between calls. Findings are counted
 * from o. Never fails (the series is a fixed array). */
FGI_HIDDEN void fgi_outcome_sample_at(fg_outcome *o, uint64_t k, uint64_t corpus,
                                      uint64_t signatures, uint64_t features);
static inline void fgi_outcome_sample(fg_outcome *o, uint64_t k, uint64_t corpus,
                                      uint64_t signatures, uint64_t features)
{
    if ((k & o->series.mask) == 0)
        fgi_outcome_sample_at(o, k, corpus, signatures, features);
}
/* Closes the series with the run's end, from o->cases, o->corpus, o->signatures and
 * o->features (set them first). A point already at o->cases is replaced. */
FGI_HIDDEN void fgi_outcome_sample_end(fg_outcome *o);

#endif
