/* engine/findings/corpus_dir.h — a corpus directory on disk: inputs written under their content's
 * name so runs can share the directory, and read back in sorted name order.
 *
 * A run's kept inputs are named like libFuzzer's corpus files: the 40 lowercase hex
 * digits of the SHA-1 of their bytes. Equal bytes get one name, so two runs writing the
 * same input into a shared directory write one file, and a reader never sees half of one:
 * a file appears whole by rename, and the temporaries it is written through
 * (<name>.tmp.<pid>) are not inputs to fgi_dir_list.
 */
#ifndef FG_CORPUS_DIR_H
#define FG_CORPUS_DIR_H

#include "engine/base/sha1.h"

/* Writes data[0..size) into dir (created as needed) as dir/<sha1 hex>; the name goes to
 * name. When a regular file of that name and size is already there it is left alone
 * (*written = 0: same name, same bytes); otherwise the file is written through a
 * temporary, fsynced and renamed into place (*written = 1), replacing a damaged one of
 * another size. FG_OK, FG_EIO (errno says why; no temporary is left), FG_EINVAL (an empty
 * dir, or a path longer than the store's 4096 bytes). */
FGI_HIDDEN fg_error fgi_corpus_dir_write(const char *dir, const uint8_t *data, size_t size,
                                         char name[FGI_SHA1_HEX], int *written);

/* Called with each input's name and bytes (borrowed for the call). FG_OK goes on; any
 * other value stops the walk and is what fgi_corpus_dir_each returns. */
typedef fg_error (*fgi_corpus_file_fn)(void *ctx, const char *name, const uint8_t *data,
                                       size_t size);

/* Reads every input of dir (as fgi_dir_list lists them) in sorted name order and hands
 * each to fn. A file that vanished between the listing and its reading (a concurrent
 * merge) is skipped; a file over limit bytes is FG_EINVAL. A missing dir is no input and
 * *missing = 1. FG_OK, FG_EIO, FG_ENOMEM, or fn's error. */
FGI_HIDDEN fg_error fgi_corpus_dir_each(const char *dir, size_t limit, fgi_corpus_file_fn fn,
                                        void *ctx, int *missing);

/* How much a corpus directory holds: its inputs (as fgi_dir_list lists them) and their
 * bytes. A missing dir is zero of each. FG_OK, FG_EIO, FG_ENOMEM. */
typedef struct fgi_corpus_stats {
    size_t files;
    uint64_t bytes;
} fgi_corpus_stats;
FGI_HIDDEN fg_error fgi_corpus_dir_stats(const char *dir, fgi_corpus_stats *st);

#endif
