/* engine/base/safeio.c — signal-safe I/O: whole writes and reads, atomic files, the sink. */
#include "engine/base/safeio.h"

#include "engine/base/hex.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Process-wide because it is a test hook consulted from the signal-safe store path; only
 * the run thread (or a handler on it) writes findings. */
static struct {
    unsigned long writes;  /* file writes since the hook was set */
    unsigned long fail_at; /* the write that fails; 0 = none */
} store_faults;

void fgi_store_fail_nth(unsigned long n)
{
    store_faults.writes = 0;
    store_faults.fail_at = n;
}

int fgi_write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int fgi_read_full(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

void fgi_sink_flush(fgi_sink *k)
{
    if (k->fd >= 0 && k->len) {
        if (fgi_write_all(k->fd, k->buf, k->len) != 0)
            k->failed = 1;
        k->len = 0;
    }
}

void fgi_sink_putn(fgi_sink *k, const char *s, size_t n)
{
    while (n) {
        if (k->len == sizeof k->buf) {
            if (k->fd < 0)
                return; /* collecting only: truncate */
            fgi_sink_flush(k);
        }
        size_t room = sizeof k->buf - k->len, take = n < room ? n : room;
        memcpy(k->buf + k->len, s, take);
        k->len += take;
        s += take;
        n -= take;
    }
}

void fgi_sink_put(fgi_sink *k, const char *s)
{
    fgi_sink_putn(k, s, strlen(s));
}

void fgi_sink_u64(fgi_sink *k, uint64_t v)
{
    char t[FGI_DEC_MAX];
    fgi_sink_putn(k, t, fgi_dec_u64(v, t));
}

void fgi_sink_hex64(fgi_sink *k, uint64_t v)
{
    static const char d[] = "0123456789abcdef";
    char t[18] = {'0', 'x'};
    for (int i = 0; i < 16; i++)
        t[2 + i] = d[(v >> (60 - 4 * i)) & 15];
    fgi_sink_putn(k, t, sizeof t);
}

void fgi_sink_hexbytes(fgi_sink *k, const uint8_t *p, size_t n)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        char t[2] = {d[p[i] >> 4], d[p[i] & 15]};
        fgi_sink_putn(k, t, 2);
    }
}

int fgi_make_dirs(char *path)
{
    for (char *p = path + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            int rc = mkdir(path, 0777);
            *p = saved;
            if (rc != 0 && errno != EEXIST)
                return -1;
            if (saved == '\0')
                return 0;
        }
    }
}

int fgi_write_atomic(const char *final, int (*fill)(int fd, void *ctx), void *ctx)
{
    char tmp[4096];
    fgi_sink name = {.fd = -1};
    fgi_sink_put(&name, ".tmp.");
    fgi_sink_u64(&name, (uint64_t)getpid());
    name.buf[name.len] = '\0';
    size_t lf = strlen(final);
    if (lf + name.len + 1 > sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(tmp, final, lf);
    memcpy(tmp + lf, name.buf, name.len + 1);

    store_faults.writes++;
    if (store_faults.fail_at && store_faults.writes == store_faults.fail_at) {
        errno = ENOSPC;
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    int ok = fill(fd, ctx) == 0 && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, final) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* strerror may translate and allocate; this names the usual suspects signal-safely. */
void fgi_sink_errno(fgi_sink *k, int e)
{
    static const struct {
        int e;
        const char *name;
    } names[] = {{ENOSPC, "no space left on device"}, {EACCES, "permission denied"},
                 {EROFS, "read-only file system"},    {ENOENT, "no such file or directory"},
                 {EDQUOT, "disk quota exceeded"},     {ENOTDIR, "not a directory"},
                 {ENAMETOOLONG, "name too long"},     {EIO, "input/output error"}};
    for (size_t i = 0; i < FGI_ARRAY_LEN(names); i++)
        if (names[i].e == e) {
            fgi_sink_put(k, names[i].name);
            return;
        }
    fgi_sink_put(k, "errno ");
    fgi_sink_u64(k, (uint64_t)e);
}
