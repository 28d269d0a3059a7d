/* engine/findings/corpus_dir.c — corpus directories on disk: content-named, shareable writes and
 * sorted reads. */
#include "engine/findings/corpus_dir.h"

#include "engine/base/dir.h"
#include "engine/base/safeio.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#define PATH_CAP 4096 /* the store's own path limit */

typedef struct bytes {
    const uint8_t *data;
    size_t size;
} bytes;

static int fill_bytes(int fd, void *ctx)
{
    const bytes *b = ctx;
    return fgi_write_all(fd, (const char *)b->data, b->size);
}

fg_error fgi_corpus_dir_write(const char *dir, const uint8_t *data, size_t size,
                              char name[FGI_SHA1_HEX], int *written)
{
    *written = 0;
    fgi_sha1_hex(data, size, name);
    char path[PATH_CAP];
    size_t ld = strlen(dir);
    if (ld == 0 || ld + 1 + FGI_SHA1_HEX > sizeof path)
        return FG_EINVAL;
    memcpy(path, dir, ld + 1);
    if (fgi_make_dirs(path) != 0)
        return FG_EIO;
    path[ld] = '/';
    memcpy(path + ld + 1, name, FGI_SHA1_HEX);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == size)
        return FG_OK;
    if (fgi_write_atomic(path, fill_bytes, &(bytes){data, size}) != 0)
        return FG_EIO;
    *written = 1;
    return FG_OK;
}

/* Calls visit(ctx, name, path) for every input of dir in sorted order, until it returns
 * other than FG_OK. */
static fg_error walk(const char *dir, fg_error (*visit)(void *, const char *, const char *),
                     void *ctx, int *missing)
{
    fgi_names names;
    fg_error e = fgi_dir_list(dir, &names, missing);
    if (e != FG_OK)
        return e;
    fgi_str path = {0};
    for (size_t i = 0; i < names.count && e == FG_OK; i++) {
        path.len = 0;
        fgi_str_addf(&path, "%s/%s", dir, names.names[i]);
        e = path.failed ? FG_ENOMEM : visit(ctx, names.names[i], path.buf);
    }
    fgi_str_free(&path);
    fgi_names_free(&names);
    return e;
}

typedef struct each_ctx {
    size_t limit;
    fgi_corpus_file_fn fn;
    void *ctx;
} each_ctx;

static fg_error read_one(void *ctx, const char *name, const char *path)
{
    const each_ctx *c = ctx;
    uint8_t *data;
    size_t size;
    errno = 0;
    fg_error e = fgi_file_read(path, c->limit, &data, &size);
    if (e == FG_EIO && errno == ENOENT)
        return FG_OK; /* removed since the listing */
    if (e != FG_OK)
        return e;
    e = c->fn(c->ctx, name, data, size);
    fgi_free(data);
    return e;
}

fg_error fgi_corpus_dir_each(const char *dir, size_t limit, fgi_corpus_file_fn fn, void *ctx,
                             int *missing)
{
    return walk(dir, read_one, &(each_ctx){limit, fn, ctx}, missing);
}

static fg_error stat_one(void *ctx, const char *name, const char *path)
{
    (void)name;
    fgi_corpus_stats *st = ctx;
    struct stat s;
    if (stat(path, &s) != 0)
        return errno == ENOENT ? FG_OK : FG_EIO;
    st->files++;
    st->bytes += (uint64_t)s.st_size;
    return FG_OK;
}

fg_error fgi_corpus_dir_stats(const char *dir, fgi_corpus_stats *st)
{
    memset(st, 0, sizeof *st);
    int missing;
    return walk(dir, stat_one, st, &missing);
}
