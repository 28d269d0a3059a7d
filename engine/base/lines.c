/* engine/base/lines.c — splitting a text format into the lines worth parsing. */
#include "engine/base/lines.h"

#include <string.h>

int fgi_lines_next(fgi_lines *l, const char **line, size_t *len, size_t *lead)
{
    while (l->at < l->size) {
        const char *s = l->text + l->at;
        const char *nl = memchr(s, '\n', l->size - l->at);
        size_t n = nl ? (size_t)(nl - s) : l->size - l->at;
        l->at += n + 1;
        l->lineno++;
        if (n && s[n - 1] == '\r')
            n--;
        size_t i = 0;
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i == n || s[i] == '#')
            continue;
        *line = s;
        *len = n;
        *lead = i;
        return 1;
    }
    return 0;
}
