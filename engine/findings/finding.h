/* engine/findings/finding.h — a finding as the engine records it, its class, and how it is stored.
 *
 * The store path is async-signal-safe (no malloc, no stdio, only syscalls and stack
 * buffers) because the crash oracle stores a finding from inside a fatal-signal handler.
 * Every finding, whatever its kind, goes through this one path.
 */
#ifndef FG_FINDING_H
#define FG_FINDING_H

#include "engine/internal.h"

#define FGI_CLASS_ID_MAX 40

typedef struct fgi_finding_rec {
    const char *target;       /* target name */
    const char *kind;         /* "check", "crash", "write", ... */
    const char *detail;       /* the human detail */
    const char *class_key;    /* the text the class is a hash of (normalised); NULL: detail */
    const char *site;         /* where it was raised (a check's "file: cond: fmt", a heap
                               * finding's sites), hashed verbatim; or NULL */
    const uint8_t *data;      /* the exact input (borrowed) */
    size_t size;
    uint64_t seed;            /* the run's seed */
    int64_t case_index;       /* generated case number, or -1 for a replayed input */
    uint64_t seq;             /* position in the run (replayed inputs first): of two
                               * same-size inputs of a class, the earlier is kept */
    const char *origin;       /* for a replayed input: its file or "seed #n"; else NULL */
    const char *mutations;    /* mutators that made it, "" if none */
    const char *program;      /* the driver's name, for the replay command */
    const char *findings_dir; /* where to store */
    /* bridge (#7): libFuzzer-style storage (engine/findings/artifact.h); NULL or "" for none */
    const char *artifact_prefix;     /* one file <prefix><kind>-<sha1> instead of .bin/.txt */
    const char *exact_artifact_path; /* one file at exactly this path (wins over prefix) */
    char class_id[FGI_CLASS_ID_MAX]; /* filled by fgi_finding_classify */
} fgi_finding_rec;

/* Fills f->class_id: "<kind>-<16 hex digits>", the hash of kind, target and the class key
 * with every run of digits blanked (so "read 17 bytes" and "read 4 bytes" are one class).
 * Async-signal-safe. */
FGI_HIDDEN void fgi_finding_classify(fgi_finding_rec *f);

/* Writes <findings_dir>/<target>/<class_id>.bin and .txt atomically (temporary file,
 * fsync, rename), creating directories as needed, and reports the finding on stderr with
 * its hex, so a finding that cannot be written is not lost. The stored .bin path goes to
 * path (capacity cap), "" when storing failed. Returns 0, or -1 when the files could not
 * be written. Async-signal-safe. */
FGI_HIDDEN int fgi_finding_store(const fgi_finding_rec *f, char *path, size_t cap);

#endif
