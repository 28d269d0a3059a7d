/* engine/mutate/dict.h — AFL/libFuzzer dictionaries: words the mutator inserts and overwrites. */
#ifndef FG_DICT_H
#define FG_DICT_H

#include "engine/internal.h"

#define FGI_DICT_WORD_MAX 128 /* libFuzzer's limit is 64; AFL's 128 */

typedef struct fgi_dict {
    uint8_t **words; /* owned */
    size_t *lens;
    size_t count;
} fgi_dict;

/* Parses a dictionary file:
 *     # a comment
 *     kw_get="GET"          name="value"
 *     "\x89PNG\r\n"          a bare value
 *     sep="\\"quoted\\"\t"   escapes: \\ \" \xNN (and \n \t \r)
 * A name is letters, digits and '_'; an optional "@N" level after it is accepted and
 * ignored. A malformed line is FG_EOPTION with "file:line:column: what" in err. */
FGI_HIDDEN fg_error fgi_dict_load(const char *path, fgi_dict *d, char *err, size_t errcap);
/* The same over text already in memory (name is used in messages). */
FGI_HIDDEN fg_error fgi_dict_parse(const char *name, const char *text, size_t len,
                                   fgi_dict *d, char *err, size_t errcap);
FGI_HIDDEN void fgi_dict_free(fgi_dict *d);

#endif
