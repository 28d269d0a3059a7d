/* engine/findings/finding.h — a finding as the engine records it, and its class (storing
 * one: store.h; the entry point that records one into a run's outcome: findings.h).
 *
 * The store path is async-signal-safe (no malloc, no stdio, only syscalls and stack
 * buffers) because the crash oracle stores a finding from inside a fatal-signal handler.
 * Every finding, whatever its kind, goes through this one path.
 */
#ifndef FG_FINDING_H
#define FG_FINDING_H

#include "engine/internal.h"

#define FGI_CLASS_ID_MAX 40

/* Where a run's findings go and what their files say about the run: filled once per run
 * (engine/run/record.c), borrowed by every record of it. */
typedef struct fgi_finding_place {
    const char *target;       /* target name */
    uint64_t seed;            /* the run's seed */
    const char *program;      /* the driver's name, for the replay command */
    const char *findings_dir; /* where to store */
    /* bridge (#7): libFuzzer-style storage (engine/findings/artifact.h); NULL or "" for none */
    const char *artifact_prefix;     /* one file <prefix><kind>-<sha1> instead of .bin/.txt */
    const char *exact_artifact_path; /* one file at exactly this path (wins over prefix) */
} fgi_finding_place;

typedef struct fgi_finding_rec {
    const fgi_finding_place *at; /* the run's place (borrowed) */
    const char *kind;         /* "check", "crash", "write", ... */
    const char *detail;       /* the human detail */
    const char *class_key;    /* the text the class is a hash of (normalised); NULL: detail */
    const char *site;         /* where it was raised (a check's "file: cond: fmt", a heap
                               * finding's sites), hashed verbatim; or NULL */
    const uint8_t *data;      /* the exact input (borrowed) */
    size_t size;
    int64_t case_index;       /* generated case number, or -1 for a replayed input */
    uint64_t seq;             /* position in the run (replayed inputs first): of two
                               * same-size inputs of a class, the earlier is kept */
    const char *origin;       /* for a replayed input: its file or "seed #n"; else NULL */
    const char *mutations;    /* mutators that made it, "" if none */
    int again;                /* a smaller input of a class this run stored already: its
                               * files are rewritten, its FINDING block not printed again */
    char class_id[FGI_CLASS_ID_MAX]; /* filled by fgi_finding_classify */
} fgi_finding_rec;

/* Fills f->class_id: "<kind>-<16 hex digits>", the hash of kind, target and the class key
 * with every run of digits blanked (so "read 17 bytes" and "read 4 bytes" are one class).
 * Async-signal-safe. */
FGI_HIDDEN void fgi_finding_classify(fgi_finding_rec *f);

#endif
