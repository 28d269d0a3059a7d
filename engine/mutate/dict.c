/* engine/mutate/dict.c — parsing AFL/libFuzzer dictionary files (format by example in dict.h). */
#include "engine/mutate/dict.h"

#include "engine/base/dir.h"
#include "engine/base/hex.h"
#include "engine/base/lines.h"

#include <string.h>

void fgi_dict_free(fgi_dict *d)
{
    for (size_t i = 0; i < d->count; i++)
        fgi_free(d->words[i]);
    fgi_free(d->words);
    fgi_free(d->lens);
    memset(d, 0, sizeof *d);
}

static int add_word(fgi_dict *d, const uint8_t *w, size_t n, size_t *cap)
{
    if (d->count == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        uint8_t **words = fgi_realloc(d->words, c * sizeof *words);
        if (!words)
            return -1;
        d->words = words;
        size_t *lens = fgi_realloc(d->lens, c * sizeof *lens);
        if (!lens)
            return -1;
        d->lens = lens;
        *cap = c;
    }
    uint8_t *copy = fgi_memdup(w, n);
    if (!copy)
        return -1;
    d->words[d->count] = copy;
    d->lens[d->count++] = n;
    return 0;
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* Parses one non-blank, non-comment line into a word; on error sets *col and *what. */
static int parse_line(const char *l, size_t n, uint8_t *word, size_t *wlen, size_t *col,
                      const char **what)
{
    size_t i = 0;
    while (i < n && (l[i] == ' ' || l[i] == '\t'))
        i++;
    if (l[i] != '"') {
        size_t start = i;
        while (i < n && is_name_char(l[i]))
            i++;
        if (i == start) {
            *col = i;
            *what = "expected a name or a quoted value";
            return -1;
        }
        if (i < n && l[i] == '@') {
            i++;
            while (i < n && l[i] >= '0' && l[i] <= '9')
                i++;
        }
        while (i < n && (l[i] == ' ' || l[i] == '\t'))
            i++;
        if (i >= n || l[i] != '=') {
            *col = i;
            *what = "expected '=' after the name";
            return -1;
        }
        i++;
        while (i < n && (l[i] == ' ' || l[i] == '\t'))
            i++;
        if (i >= n || l[i] != '"') {
            *col = i;
            *what = "expected a quoted value";
            return -1;
        }
    }
    size_t open = i++;
    size_t close = i;
    while (close < n && l[close] != '"') {
        if (l[close] == '\\' && close + 1 < n)
            close++;
        close++;
    }
    if (close >= n) {
        *col = open;
        *what = "unterminated quoted value";
        return -1;
    }
    size_t err_at;
    if (close - i > 4 * FGI_DICT_WORD_MAX ||
        fgi_escape_decode(l + i, close - i, word, wlen, &err_at) != 0) {
        *col = close - i > 4 * FGI_DICT_WORD_MAX ? open : i + err_at;
        *what = close - i > 4 * FGI_DICT_WORD_MAX ? "value too long" : "bad escape";
        return -1;
    }
    if (*wlen == 0 || *wlen > FGI_DICT_WORD_MAX) {
        *col = open;
        *what = *wlen ? "value longer than 128 bytes" : "empty value";
        return -1;
    }
    for (size_t j = close + 1; j < n; j++)
        if (l[j] != ' ' && l[j] != '\t') {
            *col = j;
            *what = "unexpected text after the value";
            return -1;
        }
    return 0;
}

fg_error fgi_dict_parse(const char *name, const char *text, size_t len, fgi_dict *d,
                        char *err, size_t errcap)
{
    memset(d, 0, sizeof *d);
    size_t cap = 0;
    uint8_t word[4 * FGI_DICT_WORD_MAX];
    fgi_lines lines = {.text = text, .size = len};
    const char *l;
    size_t n, lead;
    while (fgi_lines_next(&lines, &l, &n, &lead)) {
        size_t wlen = 0, col = 0;
        const char *what = "";
        if (parse_line(l, n, word, &wlen, &col, &what) != 0) {
            snprintf(err, errcap, "%s:%zu:%zu: %s", name, lines.lineno, col + 1, what);
            fgi_dict_free(d);
            return FG_EOPTION;
        }
        if (add_word(d, word, wlen, &cap) != 0) {
            fgi_dict_free(d);
            return FG_ENOMEM;
        }
    }
    return FG_OK;
}

fg_error fgi_dict_load(const char *path, fgi_dict *d, char *err, size_t errcap)
{
    uint8_t *text;
    size_t size;
    memset(d, 0, sizeof *d);
    fg_error e = fgi_file_read(path, (size_t)16 << 20, &text, &size);
    if (e != FG_OK) {
        snprintf(err, errcap, "option --dict: cannot read '%s': %s", path, fgi_strerror_io(e));
        return e == FG_ENOMEM ? e : FG_EOPTION;
    }
    e = fgi_dict_parse(path, (const char *)text, size, d, err, errcap);
    fgi_free(text);
    return e;
}
