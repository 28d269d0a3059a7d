/* engine/findings/artifact.h — findings stored as libFuzzer names them: one file per finding,
 * <artifact_prefix><kind>-<sha1 of the bytes>, or exactly <exact_artifact_path>. */
#ifndef FG_ARTIFACT_H
#define FG_ARTIFACT_H

#include "engine/findings/finding.h"

/* libFuzzer's file-name kind for one of fuzzgate's finding kinds: "leak" for retention,
 * "timeout" for timeout, "oom" for amplification and oom, "crash" for every other kind
 * (check, crash, write, exit). Never NULL. Signal-safe. */
FGI_HIDDEN const char *fgi_artifact_kind(const char *kind);

/* 1 when f asks for libFuzzer-style storage (a non-empty prefix or exact path). */
FGI_HIDDEN int fgi_artifact_wanted(const fgi_finding_rec *f);

/* The artifact's path for f into out (capacity cap): the exact path when set, else
 * <prefix><kind>-<40 hex digits>. 0, or -1 (ENAMETOOLONG) when it does not fit.
 * Signal-safe. */
FGI_HIDDEN int fgi_artifact_path(const fgi_finding_rec *f, char *out, size_t cap);

/* fgi_store_finding's libFuzzer-style branch: writes the one file atomically (creating
 * the prefix's directories) and reports on stderr as libFuzzer does ("Test unit written
 * to PATH") with the hex, so a finding that cannot be written is not lost. The path goes
 * to path (capacity cap), "" on failure. 0 or -1. Signal-safe. */
FGI_HIDDEN int fgi_artifact_store(const fgi_finding_rec *f, char *path, size_t cap);

/* The end of a store, either back end's: the name of the file written (NULL: none) into
 * path (capacity cap; "" for none or when it does not fit). 0, or -1 when nothing was
 * written. Signal-safe. */
FGI_HIDDEN int fgi_artifact_stored_as(const char *file, char *path, size_t cap);

#endif
