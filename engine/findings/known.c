/* engine/findings/known.c — parsing corpus/<target>/known.txt, the triaged finding classes. */
#include "engine/findings/known.h"

#include "engine/base/dir.h"
#include "engine/base/lines.h"

#include <errno.h>
#include <string.h>

void fgi_known_free(fgi_known *k)
{
    for (size_t i = 0; i < k->count; i++) {
        fgi_free(k->classes[i]);
        fgi_free(k->reasons[i]);
    }
    fgi_free(k->classes);
    fgi_free(k->reasons);
    memset(k, 0, sizeof *k);
}

/* "kind-" then exactly 16 lowercase hex digits; kind is lowercase letters. */
static int valid_class(const char *s, size_t len)
{
    size_t dash = 0;
    while (dash < len && s[dash] >= 'a' && s[dash] <= 'z')
        dash++;
    if (dash == 0 || dash >= len || s[dash] != '-' || len - dash - 1 != 16)
        return 0;
    for (size_t i = dash + 1; i < len; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

fg_error fgi_known_load(const char *path, fgi_known *k, char *err, size_t errcap)
{
    memset(k, 0, sizeof *k);
    uint8_t *text;
    size_t size;
    /* Only a file that is not there is no list: one the run may not read, or a directory,
     * is an error that names it (an empty list would make every triaged class new). */
    FILE *probe = fopen(path, "rb");
    if (!probe && errno == ENOENT)
        return FG_OK;
    if (probe)
        fclose(probe);
    fg_error e = probe ? fgi_file_read(path, (size_t)1 << 20, &text, &size) : FG_EIO;
    if (e != FG_OK) {
        snprintf(err, errcap, "%s: cannot read: %s", path,
                 e == FG_EINVAL ? "larger than 1 MiB" : fgi_strerror_io(e));
        return e;
    }
    size_t cap = 0;
    fgi_lines lines = {.text = (const char *)text, .size = size};
    const char *line;
    size_t len, lead;
    while (e == FG_OK && fgi_lines_next(&lines, &line, &len, &lead)) {
        size_t id_end = lead;
        while (id_end < len && line[id_end] != ' ' && line[id_end] != '\t')
            id_end++;
        size_t r = id_end;
        while (r < len && (line[r] == ' ' || line[r] == '\t'))
            r++;
        if (!valid_class(line + lead, id_end - lead) || r == len) {
            snprintf(err, errcap, "%s:%zu: expected '<class-id> <reason>', e.g. "
                     "'check-0123456789abcdef why it is known'", path, lines.lineno);
            e = FG_EOPTION;
            break;
        }
        size_t seen = 0;
        while (seen < k->count && !(strlen(k->classes[seen]) == id_end - lead &&
                                    memcmp(k->classes[seen], line + lead, id_end - lead) == 0))
            seen++;
        if (seen < k->count) {
            snprintf(err, errcap, "%s:%zu: %.*s is listed twice (each class once, with one "
                     "reason)", path, lines.lineno, (int)(id_end - lead), line + lead);
            e = FG_EOPTION;
            break;
        }
        if (k->count == cap) {
            cap = cap ? cap * 2 : 8;
            char **c = fgi_realloc(k->classes, cap * sizeof *c);
            if (c)
                k->classes = c;
            char **rs = c ? fgi_realloc(k->reasons, cap * sizeof *rs) : NULL;
            if (!rs) {
                e = FG_ENOMEM;
                break;
            }
            k->reasons = rs;
        }
        char *id = fgi_memdup(line + lead, id_end - lead + 1);
        char *why = fgi_memdup(line + r, len - r + 1);
        if (!id || !why) {
            fgi_free(id);
            fgi_free(why);
            e = FG_ENOMEM;
            break;
        }
        id[id_end - lead] = '\0';
        why[len - r] = '\0';
        k->classes[k->count] = id;
        k->reasons[k->count++] = why;
    }
    fgi_free(text);
    if (e != FG_OK)
        fgi_known_free(k);
    return e;
}

const char *fgi_known_reason(const fgi_known *k, const char *class_id)
{
    for (size_t i = 0; i < k->count; i++)
        if (strcmp(k->classes[i], class_id) == 0)
            return k->reasons[i];
    return NULL;
}
