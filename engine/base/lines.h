/* engine/base/lines.h — the line reader of the text formats the engine parses (known.txt,
 * dictionaries, budget.txt): '\n' or "\r\n" ends a line; a line that is blank or whose
 * first non-blank character is '#' is not a line to parse. */
#ifndef FG_LINES_H
#define FG_LINES_H

#include "engine/internal.h"

typedef struct fgi_lines {
    const char *text; /* borrowed */
    size_t size;
    size_t at;        /* where the next line starts */
    size_t lineno;    /* the 1-based number of the line last returned */
} fgi_lines;

/* The next line to parse, without its line end, in *line and *len (borrowed from text);
 * *lead is the count of its leading blanks (spaces and tabs). 0 at the end. */
FGI_HIDDEN int fgi_lines_next(fgi_lines *l, const char **line, size_t *len, size_t *lead);

#endif
