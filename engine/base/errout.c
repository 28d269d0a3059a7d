/* engine/base/errout.c — the descriptor and stream fuzzgate's own reports are written to. */
#include "engine/base/errout.h"

#include <fcntl.h>
#include <unistd.h>

/* Process-wide because signal handlers write reports and take no context. Set once, by
 * fgi_errout_keep, before any case runs (and before any executor is forked); read-only
 * afterwards, from any thread or handler. */
static struct {
    int fd;     /* 0 (the default): descriptor 2; else the private duplicate */
    FILE *file; /* a stream on fd, or NULL: stderr */
} errout;

int fgi_errout_fd(void)
{
    return errout.fd ? errout.fd : 2;
}

FILE *fgi_errout_file(void)
{
    return errout.file ? errout.file : stderr;
}

fg_error fgi_errout_keep(void)
{
    if (errout.fd)
        return FG_OK;
    fflush(stderr);
    int fd = fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (fd < 0)
        return FG_EIO;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return FG_EIO;
    }
    setvbuf(f, NULL, _IONBF, 0);
    errout.fd = fd;
    errout.file = f;
    return FG_OK;
}
