/* engine/fdwatch.c — finding inputs that leave a file descriptor open, by sampled probes
 * over a window of recent cases. */
#include "fdwatch.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* The lowest free descriptor: what open() would return next. */
static int lowest_free(const fgi_fdwatch *w)
{
    int fd = fcntl(w->ours, F_DUPFD_CLOEXEC, 0);
    if (fd >= 0)
        close(fd);
    return fd;
}

fg_error fgi_fdwatch_open(fgi_fdwatch *w)
{
    memset(w, 0, sizeof *w);
    w->ours = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (w->ours < 0)
        return FG_EIO;
    w->base = lowest_free(w);
    return FG_OK;
}

void fgi_fdwatch_close(fgi_fdwatch *w)
{
    for (unsigned i = 0; i < FGI_FD_WINDOW; i++) {
        fgi_free(w->slots[i].data);
        fgi_free(w->slots[i].origin);
    }
    if (w->ours >= 0)
        close(w->ours);
    memset(w, 0, sizeof *w);
    w->ours = -1;
}

int fgi_fdwatch_note(fgi_fdwatch *w, const uint8_t *data, size_t size, int64_t k,
                     const char *origin, const fgi_mut *mut)
{
    FG_ASSERT(w->count < FGI_FD_WINDOW);
    fgi_fd_slot *s = &w->slots[w->count];
    if (s->cap < size || !s->data) {
        uint8_t *d = fgi_realloc(s->data, size ? size : 1);
        if (!d)
            return -1;
        s->data = d;
        s->cap = size ? size : 1;
    }
    if (size)
        memcpy(s->data, data, size);
    s->size = size;
    s->case_index = k;
    fgi_free(s->origin);
    s->origin = NULL;
    if (origin && !(s->origin = fgi_strdup(origin)))
        return -1;
    s->napplied = mut && !origin ? mut->napplied : 0;
    if (s->napplied)
        memcpy(s->applied, mut->applied, s->napplied);
    w->count++;
    return w->count == FGI_FD_WINDOW;
}

/* Runs one slot alone between two probes; returns how many descriptors it left, which
 * are [*from, *from + result). */
static int leaves(fgi_fdwatch *w, fgi_exec *e, const fgi_fd_slot *s, fgi_case_result *res,
                  int *from)
{
    fgi_mut saved;
    saved.napplied = s->napplied;
    memcpy(saved.applied, s->applied, sizeof saved.applied);
    e->crash.case_index = s->case_index;
    e->crash.origin = s->origin;
    e->mut = s->origin ? NULL : &saved;
    int before = lowest_free(w);
    fgi_exec_run(e, s->data, s->size, res);
    int after = lowest_free(w);
    e->mut = NULL;
    *from = before;
    return res->status == FGI_CASE_OK && after > before ? after - before : 0;
}

const fgi_fd_slot *fgi_fdwatch_check(fgi_fdwatch *w, fgi_exec *e, fgi_case_result *res)
{
    unsigned n = w->count;
    w->count = 0;
    int now = lowest_free(w);
    if (now <= w->base) {
        w->base = now;
        return NULL;
    }
    const fgi_fd_slot *guilty = NULL;
    int left = 0, from1 = 0, from2 = 0;
    for (unsigned i = 0; i < n && !guilty; i++) {
        int first = leaves(w, e, &w->slots[i], res, &from1);
        if (first > 0 && (left = leaves(w, e, &w->slots[i], res, &from2)) > 0) {
            guilty = &w->slots[i];
            /* Confirmed leaks: close what the two lone runs left, so a leak on every case
             * does not exhaust the table the engine itself needs to store findings. */
            for (int fd = from1; fd < from1 + first; fd++)
                close(fd);
            for (int fd = from2; fd < from2 + left; fd++)
                close(fd);
        }
    }
    w->base = lowest_free(w);
    if (!guilty)
        return NULL;
    res->status = FGI_CASE_ENDED;
    res->kind = "retention";
    snprintf(res->site, sizeof res->site, "file descriptor");
    snprintf(res->detail, sizeof res->detail,
             "the case left file descriptors open (%d on its second lone run), on each of 2 "
             "runs alone",
             left);
    return guilty;
}
