/* engine/findings/merge.h — corpus merge: a small set of inputs that keeps every feature and every
 * signature of a larger one (libFuzzer's -merge=1 and -set_cover_merge=1, afl-cmin).
 *
 * A pure function over arrays: the caller runs the inputs and collects what each one
 * covers; this only chooses. Same arrays in, same choice out, whatever their order.
 */
#ifndef FG_MERGE_H
#define FG_MERGE_H

#include "engine/internal.h"

/* What one input covers. Everything is borrowed for the call. */
typedef struct fgi_merge_input {
    const char *name;         /* its file name: the last tie-break, so names should differ */
    size_t size;              /* its length in bytes */
    uint64_t sig;             /* its behaviour signature; 0 = none */
    const uint64_t *features; /* coverage features, any order, repeats allowed */
    size_t nfeatures;
    int pinned;               /* 1: always kept (say, files already in the output), and
                               * what it covers needs no other input */
} fgi_merge_input;

/* The arbitrary-but-reasoned price of one more file, in bytes: the default corpus budget's
 * bytes per file (1 MiB / 256 files), so a file and 4 KiB weigh the same against it. */
#define FGI_MERGE_FILE_COST 4096

enum fgi_merge_how {
    /* Greedy weighted set cover (the default): repeatedly keep the input that covers the
     * most not-yet-covered elements per (size + FGI_MERGE_FILE_COST) bytes. */
    FGI_MERGE_COVER,
    /* libFuzzer's -merge=1: inputs in size order, each kept when it adds an element. */
    FGI_MERGE_SMALLEST_FIRST
};

/* Chooses inputs in[0..n) to keep so that the kept ones together have every feature and
 * every non-zero signature any input has (features and signatures are distinct spaces),
 * pinned inputs included. After the choice, a second pass drops, largest first, any kept
 * unpinned input whose every element another kept input also has, so no kept input is
 * redundant. Ties go to the smaller input, then the smaller name (strcmp), then the lower
 * index, so the choice does not depend on the order of in[] when names differ.
 * kept (capacity n) receives the kept indices in increasing order and *nkept their count.
 * FG_OK, FG_EINVAL (a NULL name, features NULL with nfeatures > 0, 2^32 or more elements
 * in one input), FG_ENOMEM (kept untouched). */
FGI_HIDDEN fg_error fgi_merge(const fgi_merge_input *in, size_t n, enum fgi_merge_how how,
                              size_t *kept, size_t *nkept);

#endif
