/* engine/findings/store.h — a finding's files: <findings>/<target>/<class>.bin and .txt, or
 * one libFuzzer-style artifact (artifact.h, its sibling back end). */
#ifndef FG_STORE_H
#define FG_STORE_H

#include "engine/findings/finding.h"

/* Writes <findings_dir>/<target>/<class_id>.bin and .txt atomically (temporary file,
 * fsync, rename), creating directories as needed, and reports the finding on stderr with
 * its hex, so a finding that cannot be written is not lost; a smaller input of a class
 * reported already (f->again) is written silently, unless writing fails. The stored .bin
 * path goes to path (capacity cap), "" when storing failed. Returns 0, or -1 when the
 * files could not be written. Async-signal-safe. */
FGI_HIDDEN int fgi_store_finding(const fgi_finding_rec *f, char *path, size_t cap);

#endif
