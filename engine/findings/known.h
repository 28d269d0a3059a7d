/* engine/findings/known.h — corpus/<target>/known.txt: finding classes already triaged. */
#ifndef FG_KNOWN_H
#define FG_KNOWN_H

#include "engine/internal.h"

typedef struct fgi_known {
    char **classes; /* owned class ids */
    char **reasons; /* owned, parallel to classes */
    size_t count;
} fgi_known;

/* Reads a known.txt:
 *     # comments and blank lines are ignored
 *     check-5b1c0f0e9d2a7c44 glibc before 2.41 sets ERANGE for a long NaN payload
 * one class id (kind-16 hex digits) and a non-empty reason per line. A missing file is an
 * empty list. A malformed line is FG_EOPTION with "file:line: what" in err. */
FGI_HIDDEN fg_error fgi_known_load(const char *path, fgi_known *k, char *err, size_t errcap);
FGI_HIDDEN void fgi_known_free(fgi_known *k);
/* The reason for a known class, or NULL. */
FGI_HIDDEN const char *fgi_known_reason(const fgi_known *k, const char *class_id);

#endif
