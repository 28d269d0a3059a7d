/* engine/base/dir.h — reading corpus directories (sorted) and whole files. */
#ifndef FG_DIR_H
#define FG_DIR_H

#include "engine/internal.h"

typedef struct fgi_names {
    char **names; /* owned, sorted by strcmp */
    size_t count;
} fgi_names;

/* Lists the input files of a corpus directory, sorted bytewise by name. Skipped: names
 * starting with '.', "known.txt", "budget.txt", names starting with "README" (a corpus
 * directory may document itself) and fgi_write_atomic's temporaries ("<name>.tmp.<pid>",
 * which a run sharing the directory may be writing). A directory that does not exist is
 * an empty list (FG_OK, *missing = 1); an unreadable one is FG_EIO (errno says why). */
FGI_HIDDEN fg_error fgi_dir_list(const char *dir, fgi_names *out, int *missing);
FGI_HIDDEN void fgi_names_free(fgi_names *n);

/* Reads a whole file (at most limit bytes; more is FG_EINVAL). Caller frees *data with
 * fgi_free. FG_EIO when it cannot be read, errno saying why (fgi_strerror_io). */
FGI_HIDDEN fg_error fgi_file_read(const char *path, size_t limit, uint8_t **data, size_t *size);

#endif
