/* engine/base/dir.c — reading corpus directories in sorted order and whole files. */
#include "engine/base/dir.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A temporary of fgi_write_atomic: a name ending in ".tmp.<digits>". */
static int is_temporary(const char *name)
{
    size_t n = strlen(name), d = n;
    while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
        d--;
    return d < n && d >= 5 && memcmp(name + d - 5, ".tmp.", 5) == 0;
}

static int skipped(const char *name)
{
    return name[0] == '.' || strcmp(name, "known.txt") == 0 ||
           strcmp(name, "budget.txt") == 0 || strncmp(name, "README", 6) == 0 ||
           is_temporary(name);
}

fg_error fgi_dir_list(const char *dir, fgi_names *out, int *missing)
{
    memset(out, 0, sizeof *out);
    *missing = 0;
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT) {
            *missing = 1;
            return FG_OK;
        }
        return FG_EIO;
    }
    size_t cap = 0;
    fg_error err = FG_OK;
    struct dirent *de;
    fgi_str path = {0};
    while ((de = readdir(d)) != NULL) {
        if (skipped(de->d_name))
            continue;
        path.len = 0;
        fgi_str_add(&path, dir);
        fgi_str_add(&path, "/");
        fgi_str_add(&path, de->d_name);
        struct stat st;
        if (path.failed) {
            err = FG_ENOMEM;
            break;
        }
        if (stat(path.buf, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (out->count == cap) {
            cap = cap ? cap * 2 : 32;
            char **v = fgi_realloc(out->names, cap * sizeof *v);
            if (!v) {
                err = FG_ENOMEM;
                break;
            }
            out->names = v;
        }
        if (!(out->names[out->count] = fgi_strdup(de->d_name))) {
            err = FG_ENOMEM;
            break;
        }
        out->count++;
    }
    fgi_str_free(&path);
    closedir(d);
    if (err != FG_OK) {
        fgi_names_free(out);
        return err;
    }
    if (out->count)
        qsort(out->names, out->count, sizeof *out->names, by_name);
    return FG_OK;
}

void fgi_names_free(fgi_names *n)
{
    for (size_t i = 0; i < n->count; i++)
        fgi_free(n->names[i]);
    fgi_free(n->names);
    memset(n, 0, sizeof *n);
}

fg_error fgi_file_read(const char *path, size_t limit, uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return FG_EIO;
    size_t cap = 4096, len = 0;
    uint8_t *buf = fgi_malloc(cap);
    fg_error err = buf ? FG_OK : FG_ENOMEM;
    while (err == FG_OK) {
        if (len == cap) {
            uint8_t *b = fgi_realloc(buf, cap * 2);
            if (!b) {
                err = FG_ENOMEM;
                break;
            }
            buf = b;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (len > limit)
            err = FG_EINVAL;
        else if (n == 0)
            break;
    }
    int why = errno;
    if (err == FG_OK && ferror(f))
        err = FG_EIO;
    fclose(f);
    if (err != FG_OK) {
        fgi_free(buf);
        errno = why; /* FG_EIO: the read's cause, not fclose's or free's */
        return err;
    }
    *data = buf;
    *size = len;
    return FG_OK;
}
