/* engine/findings/budget.c — a committed corpus directory against its size budget (budget.txt). */
#include "engine/findings/budget.h"

#include "engine/base/dir.h"
#include "engine/base/lines.h"

#include <string.h>

/* Parses "<digits>[unit]" of exactly len characters into *v. 0, or -1 (junk, overflow,
 * a unit where none is allowed). */
static int parse_amount(const char *s, size_t len, int units, uint64_t *v)
{
    size_t i = 0;
    uint64_t x = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
        unsigned d = (unsigned)(s[i++] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    if (i == 0)
        return -1;
    uint64_t scale = 1;
    if (i < len) {
        if (!units || len - i != 3)
            return -1;
        if (memcmp(s + i, "KiB", 3) == 0)
            scale = 1024;
        else if (memcmp(s + i, "MiB", 3) == 0)
            scale = 1024 * 1024;
        else
            return -1;
    }
    if (x > UINT64_MAX / scale)
        return -1;
    *v = x * scale;
    return 0;
}

/* One non-comment line: "files N" or "bytes N[unit]". seen marks keys already given. */
static const char *parse_line(const char *line, size_t len, fgi_budget *b, unsigned *seen)
{
    size_t k = 0;
    while (k < len && line[k] != ' ' && line[k] != '\t')
        k++;
    size_t v = k;
    while (v < len && (line[v] == ' ' || line[v] == '\t'))
        v++;
    size_t end = len;
    while (end > v && (line[end - 1] == ' ' || line[end - 1] == '\t'))
        end--;
    unsigned key;
    if (k == 5 && memcmp(line, "files", 5) == 0)
        key = 1;
    else if (k == 5 && memcmp(line, "bytes", 5) == 0)
        key = 2;
    else
        return "expected 'files <count>' or 'bytes <count>[KiB|MiB]'";
    if (*seen & key)
        return "given twice";
    *seen |= key;
    uint64_t *dst = key == 1 ? &b->files : &b->bytes;
    if (v == k || parse_amount(line + v, end - v, key == 2, dst) != 0)
        return key == 1 ? "'files' wants a decimal count"
                        : "'bytes' wants a decimal count, optionally with KiB or MiB";
    return NULL;
}

fg_error fgi_budget_load(const char *path, fgi_budget *b, char *err, size_t errcap)
{
    b->files = FGI_BUDGET_FILES;
    b->bytes = FGI_BUDGET_BYTES;
    FILE *probe = fopen(path, "rb");
    if (!probe)
        return FG_OK;
    fclose(probe);
    uint8_t *text;
    size_t size;
    fg_error e = fgi_file_read(path, (size_t)1 << 16, &text, &size);
    if (e != FG_OK) {
        snprintf(err, errcap, "%s: cannot read: %s", path, fg_strerror(e));
        return e == FG_ENOMEM ? e : FG_EIO;
    }
    unsigned seen = 0;
    fgi_lines lines = {.text = (const char *)text, .size = size};
    const char *line;
    size_t len, lead;
    while (fgi_lines_next(&lines, &line, &len, &lead)) {
        const char *what = parse_line(line + lead, len - lead, b, &seen);
        if (what) {
            snprintf(err, errcap, "%s:%zu: %s", path, lines.lineno, what);
            e = FG_EOPTION;
            break;
        }
    }
    fgi_free(text);
    if (e != FG_OK) {
        b->files = FGI_BUDGET_FILES;
        b->bytes = FGI_BUDGET_BYTES;
    }
    return e;
}

int fgi_budget_over(const char *target, const char *dir, const fgi_corpus_stats *st,
                    const fgi_budget *b, fgi_str *msg)
{
    int files_over = st->files > b->files, bytes_over = st->bytes > b->bytes;
    if (!files_over && !bytes_over)
        return 0;
    fgi_str_addf(msg,
                 "%s: committed corpus %s holds %zu files%s and %llu bytes%s, over its "
                 "budget of %llu files and %llu bytes: drop what a merge would drop, or "
                 "raise the budget in %s/" FGI_BUDGET_FILE,
                 target, dir, st->files, files_over ? " (over)" : "",
                 (unsigned long long)st->bytes, bytes_over ? " (over)" : "",
                 (unsigned long long)b->files, (unsigned long long)b->bytes, dir);
    return 1;
}

int fgi_budget_check(const char *target, const char *dir, fgi_str *msg)
{
    fgi_str path = {0};
    fgi_str_addf(&path, "%s/" FGI_BUDGET_FILE, dir);
    char err[512];
    fgi_budget b;
    fg_error e = path.failed ? FG_ENOMEM : fgi_budget_load(path.buf, &b, err, sizeof err);
    fgi_str_free(&path);
    if (e != FG_OK) {
        fgi_str_addf(msg, "%s: %s", target, e == FG_ENOMEM ? fg_strerror(e) : err);
        return -1;
    }
    fgi_corpus_stats st;
    if ((e = fgi_corpus_dir_stats(dir, &st)) != FG_OK) {
        fgi_str_addf(msg, "%s: cannot measure committed corpus %s: %s", target, dir,
                     fg_strerror(e));
        return -1;
    }
    return fgi_budget_over(target, dir, &st, &b, msg);
}
