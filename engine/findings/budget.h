/* engine/findings/budget.h — the size budget of a committed corpus directory.
 *
 * Committed corpora that grow without bound are a common complaint about other engines,
 * so every corpus/<target>/ has a budget: FGI_BUDGET_FILES inputs and FGI_BUDGET_BYTES
 * bytes unless corpus/<target>/budget.txt says otherwise:
 *
 *     # the grammar has 40 productions; a file each, and a few boundaries
 *     files 400
 *     bytes 2MiB
 *
 * '#' comments and blank lines are ignored; each key at most once; a value is decimal,
 * optionally followed by KiB or MiB (bytes only). Anything else is an error naming the
 * file and line, so a key this engine does not know is never silently ignored. There is
 * no "unlimited": a budget is raised, in review, next to the files it covers.
 */
#ifndef FG_BUDGET_H
#define FG_BUDGET_H

#include "engine/findings/corpus_dir.h"

/* Arbitrary but reasoned: a hand-triaged regression corpus of a few hundred small inputs
 * replays in well under a second, and a megabyte is small in any repository. */
#define FGI_BUDGET_FILES 256
#define FGI_BUDGET_BYTES ((uint64_t)1 << 20)
#define FGI_BUDGET_FILE "budget.txt"

typedef struct fgi_budget {
    uint64_t files; /* most inputs the directory may hold */
    uint64_t bytes; /* most bytes they may add up to */
} fgi_budget;

/* Reads a budget file into *b, starting from the defaults; a missing file is the
 * defaults. FG_EOPTION with "file:line: what" in err for a malformed line, FG_EIO when it
 * cannot be read, FG_ENOMEM. */
FGI_HIDDEN fg_error fgi_budget_load(const char *path, fgi_budget *b, char *err, size_t errcap);

/* Compares a directory's holdings with its budget: 0 within, 1 over, and then one line
 * (no newline) appended to msg naming the target, what it holds, the budget and the two
 * ways out. */
FGI_HIDDEN int fgi_budget_over(const char *target, const char *dir, const fgi_corpus_stats *st,
                               const fgi_budget *b, fgi_str *msg);

/* All of it for one target's committed directory dir: loads dir/budget.txt, measures
 * dir, compares. 0 within, 1 over, -1 on an error; in both latter cases a line is
 * appended to msg. */
FGI_HIDDEN int fgi_budget_check(const char *target, const char *dir, fgi_str *msg);

#endif
